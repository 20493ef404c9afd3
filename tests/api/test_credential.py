"""getCredential (issue 51 part 2, v1.3): any valid key or access token reads what it is
and may do, and nothing secret; like every /v1 operation, a bad credential is 401 and
the operation is 404 while v1.3 is not live."""

import json

from app.domain.access.principal import hash_secret
from app.models import ApiKey
from tests.api.test_oauth import code_for, exchange, partner  # noqa: F401 (the fixture)
from tests.conftest import bearer
from tests.helpers import assert_problem


def test_a_key_says_which_key_it_is_its_company_mode_and_scopes(client, sandbox, make_key, clock):
    clock.advance(minutes=5)
    secret = make_key(sandbox, scopes=["payroll:read", "employees:read"])
    answer = client.get("/v1/credential", headers=bearer(secret))
    assert answer.status_code == 200
    body = answer.get_json()
    key = ApiKey.get(ApiKey.secret_hash == hash_secret(secret))
    assert (body["type"], body["id"], body["name"]) == ("api_key", key.id, key.name)
    assert (body["company_id"], body["livemode"], body["scopes"]) == (sandbox.id, False,
                                                                       ["employees:read", "payroll:read"])
    assert body["created_at"] == "2026-11-21T09:05:00Z" and body["last_used_at"] == "2026-11-21T09:05:00Z"
    assert body["expires_at"] is None and body["app"] is None
    assert secret not in json.dumps(body) and "hash" not in json.dumps(body)


def test_an_access_token_says_its_app_and_when_it_expires(client, partner, clock):  # noqa: F811
    tokens = exchange(client, partner, code_for(partner, clock, scopes=("employees:read",))).get_json()
    body = client.get("/v1/credential", headers=bearer(tokens["access_token"])).get_json()
    assert body["type"] == "oauth_access_token" and body["id"].startswith("tok_") and body["name"] is None
    assert body["app"] == {"client_id": partner["app"].id, "name": "Ledgerly"}
    assert body["scopes"] == ["employees:read"] and body["company_id"] == partner["company"].id
    assert body["created_at"] == "2026-11-21T09:00:00Z" and body["expires_at"] == "2026-11-21T10:00:00Z"
    text = json.dumps(body)
    assert tokens["access_token"] not in text and tokens["refresh_token"] not in text and partner["secret"] not in text


def test_no_credential_is_401_and_without_v13_it_is_not_there(client, headers, live_releases):
    assert_problem(client.get("/v1/credential"), 401, "unauthenticated")
    assert_problem(client.get("/v1/credential", headers={"Authorization": "Bearer svc_test_" + "x" * 40}), 401,
                   "unauthenticated")
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert_problem(client.get("/v1/credential", headers=headers), 404, "not_found")
