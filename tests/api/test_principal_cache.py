"""Principals kept in process memory and the credentials version that keeps them honest
(app/api/principal_cache.py). Two Authenticators on one Redis stand for two gunicorn
workers."""

from datetime import timedelta

import pytest
from playhouse.test_utils import count_queries

from app.api.principal_cache import CredentialsVersion, make_authenticator
from app.domain import credentials
from app.domain.access import keys
from app.domain.access.principal import Unauthenticated
from app.domain.credentials import identify
from app.extensions import connect_redis
from app.models import Company, db
from tests.conftest import bearer


def worker(redis_client, **options):
    return make_authenticator(600, redis_client, last_used_resolution=60, **options)


def key_of(sandbox, clock):
    """A key already used this minute, so that loading it makes no "last used" write."""
    key, secret = keys.create_key(sandbox, keys.SCOPES, clock)
    keys.record_use(key.id, None, clock.now(), 60)
    return key, identify(f"Bearer {secret}", preview=True)


def queries(authenticate, presented, clock):
    with count_queries() as counter:
        principal, verdict = authenticate(presented, clock.now())
    assert verdict.allowed
    return principal, counter.count


def test_a_warm_request_makes_no_sql_query(client, sandbox, make_key, shared_redis):
    headers = bearer(make_key(sandbox))
    client.get("/v1/company", headers=headers)
    with count_queries() as counter:
        response = client.get("/v1/company", headers=headers)
    assert response.status_code == 200 and counter.count == 0
    assert response.get_json()["id"] == sandbox.id


def test_revocation_reaches_every_worker_at_once(sandbox, clock, shared_redis, runtime):
    first, second = worker(shared_redis), worker(shared_redis)
    key, presented = key_of(sandbox, clock)
    for authenticate in (first, second):
        assert queries(authenticate, presented, clock)[1] == 1  # loaded
        assert queries(authenticate, presented, clock)[1] == 0  # from memory
    credentials.revoke_key(key.id, runtime)
    for authenticate in (first, second):
        with pytest.raises(Unauthenticated):
            authenticate(presented, clock.now())


def test_partner_api_switched_off_reaches_every_worker(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    Company.update(api_enabled=False).where(Company.id == sandbox.id).execute()
    CredentialsVersion(shared_redis).changed()
    principal, verdict = first(presented, clock.now())
    assert principal.company.api_enabled is False


def test_an_unrelated_change_costs_one_reload(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    CredentialsVersion(shared_redis).changed()
    assert queries(first, presented, clock)[1] == 1
    assert queries(first, presented, clock)[1] == 0


def test_a_lost_version_reloads(sandbox, clock, shared_redis):
    # As after a Redis restart: the version is gone, a fresh one is made, entries reload.
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    shared_redis.delete(CredentialsVersion.KEY)
    assert queries(first, presented, clock)[1] == 1
    assert queries(first, presented, clock)[1] == 0


def test_entries_expire_even_without_a_version_change(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    clock.advance(seconds=29)
    assert queries(first, presented, clock)[1] == 0
    clock.advance(seconds=1)
    assert queries(first, presented, clock)[1] == 1


def test_without_redis_every_request_loads_its_principal(sandbox, clock):
    memory_only = worker(None)
    unreachable = worker(connect_redis("redis://127.0.0.1:1/0"))
    _, presented = key_of(sandbox, clock)
    for authenticate in (memory_only, unreachable):
        for _ in range(2):
            assert queries(authenticate, presented, clock)[1] == 1


def test_last_use_is_still_recorded_once_a_minute(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    key, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    clock.advance(seconds=20)
    assert queries(first, presented, clock)[1] == 0
    clock.advance(seconds=45)
    assert queries(first, presented, clock)[1] == 2  # a reload (age 65 s) and the write
    assert keys.ApiKey.get_by_id(key.id).last_used_at == clock.now().replace(tzinfo=None)


def test_the_cache_holds_a_bounded_number_of_keys(sandbox, clock, shared_redis):
    small = worker(shared_redis, max_entries=2, max_age=timedelta(minutes=5))
    hashes = [key_of(sandbox, clock)[1] for _ in range(3)]
    for presented in hashes:
        queries(small, presented, clock)
    assert queries(small, hashes[0], clock)[1] == 1  # the oldest was let go
    assert queries(small, hashes[2], clock)[1] == 0


def test_a_change_bumps_again_after_its_commit(app, shared_redis):
    # Between a change and its commit another worker may reload the old rows under
    # the new version; the bump after commit retires that copy.
    with app.app_context():
        db.connect(reuse_if_open=True)
        try:
            with db.atomic():
                CredentialsVersion(shared_redis).changed()
                during = shared_redis.get(CredentialsVersion.KEY)
            after = shared_redis.get(CredentialsVersion.KEY)
        finally:
            db.close()
    assert during is not None and after != during
