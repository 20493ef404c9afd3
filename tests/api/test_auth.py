import pytest

from app.domain import credentials
from app.domain.access import keys
from app.domain.access.companies import create_company, enable_partner_api
from app.domain.access.principal import hash_secret
from tests.conftest import bearer
from tests.helpers import assert_problem


@pytest.mark.parametrize("authorization", [
    None, "", "Bearer", "Basic abc", "Bearer svc_test_short", "Bearer svc_prod_" + "a" * 32,
    "Bearer svc_test_" + "a" * 32,  # well-formed but unknown
])
def test_missing_malformed_or_unknown_credentials_are_401(client, sandbox, authorization):
    headers = {"Authorization": authorization} if authorization is not None else {}
    response = client.get("/v1/company", headers=headers)
    assert_problem(response, 401, "unauthenticated")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_revoked_key_stops_at_once(client, sandbox, make_key, clock, runtime):
    secret = make_key(sandbox)
    assert client.get("/v1/company", headers=bearer(secret)).status_code == 200
    key = keys.ApiKey.get(keys.ApiKey.secret_hash == hash_secret(secret))
    credentials.revoke_key(key.id, runtime)
    assert_problem(client.get("/v1/company", headers=bearer(secret)), 401, "unauthenticated")


def test_wrong_environment_key_is_401(client, sandbox, clock):
    # A live key on a sandbox company, or the reverse, is unauthenticated.
    key, secret = keys.create_key(sandbox, keys.SCOPES, clock)
    keys.ApiKey.update(environment="live").where(keys.ApiKey.id == key.id).execute()
    assert_problem(client.get("/v1/company", headers=bearer(secret)), 401, "unauthenticated")


def test_live_keys_reach_live_companies(client, clock, runtime):
    company = create_company("Live Co", "SA", clock)
    enable_partner_api(company.id, runtime)
    _, secret = keys.create_key(company, [], clock)
    assert secret.startswith("svc_live_")
    response = client.get("/v1/company", headers=bearer(secret))
    assert response.status_code == 200 and response.get_json()["sandbox"] is False


def test_company_without_partner_api_is_403_api_not_enabled(client, clock):
    company = create_company("Pilot Co", "QA", clock)
    _, secret = keys.create_key(company, keys.SCOPES, clock)
    assert_problem(client.get("/v1/company", headers=bearer(secret)), 403, "api_not_enabled")


@pytest.mark.parametrize(("path", "scope"), [
    ("/v1/employees", "employees:read"), ("/v1/employees/emp_x", "employees:read"),
    ("/v1/payroll-runs", "payroll:read"), ("/v1/payroll-runs/prun_x", "payroll:read"),
])
def test_key_without_the_scope_is_403_insufficient_scope(client, sandbox, make_key, path, scope):
    others = [s for s in keys.SCOPES if s != scope]
    body = assert_problem(client.get(path, headers=bearer(make_key(sandbox, others))), 403, "insufficient_scope")
    assert scope in body["detail"]


def test_last_used_is_recorded_at_most_once_a_minute(client, sandbox, make_key, clock):
    secret = make_key(sandbox)
    key_query = keys.ApiKey.secret_hash == hash_secret(secret)
    assert keys.ApiKey.get(key_query).last_used_at is None
    client.get("/v1/company", headers=bearer(secret))
    first = keys.ApiKey.get(key_query).last_used_at
    assert first is not None
    clock.advance(seconds=30)
    client.get("/v1/company", headers=bearer(secret))
    assert keys.ApiKey.get(key_query).last_used_at == first
    clock.advance(seconds=31)
    client.get("/v1/company", headers=bearer(secret))
    assert keys.ApiKey.get(key_query).last_used_at > first


def test_keys_are_stored_hashed(sandbox, clock):
    key, secret = keys.create_key(sandbox, ["employees:read"], clock)
    stored = keys.ApiKey.get_by_id(key.id)
    assert secret not in (stored.secret_hash, stored.display_prefix)
    assert stored.secret_hash == hash_secret(secret)
    assert secret.startswith(stored.display_prefix)
