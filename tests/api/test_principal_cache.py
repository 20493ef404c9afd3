"""Principals kept in process memory and the credentials versions that keep them honest
(app/api/principal_cache.py): the database's, the truth, and Redis's copy. Two
Authenticators on one Redis stand for two gunicorn workers."""

from datetime import timedelta

import pytest
from playhouse.test_utils import count_queries

from app.api.principal_cache import RedisVersion, make_authenticator
from app.domain import credentials
from app.domain.access import keys
from app.domain.access.principal import Unauthenticated
from app.domain.credentials import identify
from app.domain.kernel.runtime import Runtime
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
        assert queries(authenticate, presented, clock)[1] == 2  # the database's version, and the principal
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
    RedisVersion(shared_redis).changed()
    principal, verdict = first(presented, clock.now())
    assert principal.company.api_enabled is False


def test_an_unrelated_change_costs_one_reload(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    RedisVersion(shared_redis).changed()
    assert queries(first, presented, clock)[1] == 1
    assert queries(first, presented, clock)[1] == 0


def test_a_lost_version_reloads(sandbox, clock, shared_redis):
    # As after a Redis restart: the version is gone, a fresh one is made, entries reload.
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    shared_redis.delete(RedisVersion.KEY)
    assert queries(first, presented, clock)[1] == 1
    assert queries(first, presented, clock)[1] == 0


def test_entries_expire_even_without_a_version_change(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    clock.advance(seconds=29)
    assert queries(first, presented, clock)[1] == 1  # the database's version, unmoved
    clock.advance(seconds=1)
    assert queries(first, presented, clock)[1] == 2  # the version, and the principal again


def test_without_redis_every_request_loads_its_principal(sandbox, clock):
    memory_only = worker(None)
    unreachable = worker(connect_redis("redis://127.0.0.1:1/0"))
    _, presented = key_of(sandbox, clock)
    for _ in range(2):
        assert queries(memory_only, presented, clock)[1] == 1
    # Redis configured but down: the database's version is read too, once per half second.
    assert [queries(unreachable, presented, clock)[1] for _ in range(2)] == [2, 1]


def test_last_use_is_still_recorded_once_a_minute(sandbox, clock, shared_redis):
    first = worker(shared_redis)
    key, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    clock.advance(seconds=20)
    assert queries(first, presented, clock)[1] == 1  # the database's version only
    clock.advance(seconds=45)
    assert queries(first, presented, clock)[1] == 3  # the version, a reload (age 65 s) and the write
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
                RedisVersion(shared_redis).changed()
                during = shared_redis.get(RedisVersion.KEY)
            after = shared_redis.get(RedisVersion.KEY)
        finally:
            db.close()
    assert during is not None and after != during


def test_a_revocation_redis_never_heard_of_is_refused_within_half_a_second(sandbox, clock, shared_redis):
    """Issue 46: a key revoked while Redis was down (no hand-off reached it), or whose
    bump a Redis restarted from an older file forgot. The database's version is the
    truth: each worker reads it at least every half second."""
    first, second = worker(shared_redis), worker(shared_redis)
    key, presented = key_of(sandbox, clock)
    for authenticate in (first, second):
        queries(authenticate, presented, clock)
    credentials.revoke_key(key.id, Runtime(clock))  # Redis is not told
    clock.advance(seconds=0.5)
    for authenticate in (first, second):
        with pytest.raises(Unauthenticated):
            authenticate(presented, clock.now())


def test_redis_back_with_an_older_version_does_not_bring_a_revoked_key_back(sandbox, clock, shared_redis, runtime):
    first = worker(shared_redis)
    key, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    saved = shared_redis.get(RedisVersion.KEY)
    credentials.revoke_key(key.id, runtime)  # told at once...
    shared_redis.set(RedisVersion.KEY, saved)  # ...then Redis restarts from the file saved before
    clock.advance(seconds=0.5)
    with pytest.raises(Unauthenticated):
        first(presented, clock.now())


def test_a_worker_reads_the_database_version_once_per_half_second_whatever_the_traffic(sandbox, clock,
                                                                                        shared_redis):
    first = worker(shared_redis)
    _, presented = key_of(sandbox, clock)
    queries(first, presented, clock)
    counts = []
    for _ in range(10):
        clock.advance(seconds=0.1)
        counts.append(queries(first, presented, clock)[1])
    assert counts == [0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    clock.advance(seconds=-5)  # the clock stepped back: read again rather than trust for 5 s more
    assert queries(first, presented, clock)[1] == 1

