"""The OAuth endpoints (app/oauth/) through the Flask client: every row of the
contract's OAuth error table, rotation, revocation, the metadata, the preview switch,
and access tokens on /v1 beside keys. Codes come from the domain here (the consent
page is the console's)."""

import base64

import pytest
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from app.domain.access.users import add_membership
from app.domain.oauth import apps
from app.domain.oauth.connections import issue_code, s256
from app.models import User, WebhookEndpoint
from tests.conftest import bearer

REDIRECT = "https://partner.example/callback"
VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"


@pytest.fixture
def partner(sandbox, clock):
    """A development-mode app of the sandbox's own organisation, and its owner."""
    app, secret = apps.create_app(sandbox, "Ledgerly", [REDIRECT], ["employees:read", "webhooks:manage"], clock)
    return {"app": app, "secret": secret, "owner": User.get_by_id(sandbox.sandbox_owner_id), "company": sandbox}


def code_for(partner, clock, scopes=("employees:read", "webhooks:manage")):
    return issue_code(partner["app"], partner["owner"], partner["company"], REDIRECT, scopes, s256(VERIFIER), clock)


def exchange(client, partner, issued, **changes):
    form = {"grant_type": "authorization_code", "code": issued, "redirect_uri": REDIRECT, "code_verifier": VERIFIER,
            "client_id": partner["app"].id, "client_secret": partner["secret"], **changes}
    return client.post("/oauth/token", data={k: v for k, v in form.items() if v is not None})


def refreshed(client, partner, refresh_token, **changes):
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": partner["app"].id,
            "client_secret": partner["secret"], **changes}
    return client.post("/oauth/token", data={k: v for k, v in form.items() if v is not None})


def oauth_error(response, status, error):
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert body["error"] == error and isinstance(body.get("error_description"), str), body
    assert response.headers["Cache-Control"] == "no-store"


def test_a_code_becomes_tokens_that_call_v1_like_a_key(client, partner, clock):
    answer = exchange(client, partner, code_for(partner, clock))
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    tokens = answer.get_json()
    assert set(tokens) == {"access_token", "token_type", "expires_in", "refresh_token", "scope"}
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] == 3600
    assert tokens["scope"] == "employees:read webhooks:manage"
    company = client.get("/v1/company", headers=bearer(tokens["access_token"]))
    assert company.status_code == 200 and company.get_json()["id"] == partner["company"].id
    assert company.headers["X-RateLimit-Limit"] == "600"
    assert client.get("/v1/employees", headers=bearer(tokens["access_token"])).status_code == 200
    refused = client.get("/v1/payroll-runs", headers=bearer(tokens["access_token"]))
    assert refused.status_code == 403 and refused.get_json()["code"] == "insufficient_scope"


@pytest.mark.parametrize("changes,status,error", [
    ({"client_secret": "svc_cs_wrong"}, 401, "invalid_client"),
    ({"client_id": "app_unknown"}, 401, "invalid_client"),
    ({"client_secret": None}, 401, "invalid_client"),
    ({"code": None}, 400, "invalid_request"),
    ({"redirect_uri": None}, 400, "invalid_request"),
    ({"code_verifier": None}, 400, "invalid_request"),
    ({"redirect_uri": REDIRECT + "/else"}, 400, "invalid_grant"),
    ({"code_verifier": "A" * 43}, 400, "invalid_grant"),
    ({"code": "not-a-code"}, 400, "invalid_grant"),
    ({"grant_type": "password"}, 400, "unsupported_grant_type"),
    ({"grant_type": "client_credentials"}, 400, "unsupported_grant_type"),
])
def test_each_refusal_of_the_token_endpoint(client, partner, clock, changes, status, error):
    oauth_error(exchange(client, partner, code_for(partner, clock), **changes), status, error)


def test_a_repeated_parameter_is_invalid_request(client, partner, clock):
    code = code_for(partner, clock)
    form = [("grant_type", "authorization_code"), ("code", code), ("code", code), ("redirect_uri", REDIRECT),
            ("code_verifier", VERIFIER), ("client_id", partner["app"].id), ("client_secret", partner["secret"])]
    oauth_error(client.post("/oauth/token", data=MultiDict(form)), 400, "invalid_request")


def test_a_code_is_good_for_60_seconds_once(client, partner, clock):
    code = code_for(partner, clock)
    clock.advance(seconds=61)
    oauth_error(exchange(client, partner, code), 400, "invalid_grant")
    fresh = code_for(partner, clock)
    clock.advance(seconds=59)
    assert exchange(client, partner, fresh).status_code == 200
    oauth_error(exchange(client, partner, fresh), 400, "invalid_grant")


def test_a_development_app_cannot_reach_a_company_outside_its_organisation(partner, clock, make_sandbox):
    stranger = make_sandbox("QA", email="stranger@example.com")
    add_membership(partner["owner"], stranger, "ceo", clock)  # the approver may manage it, but...
    with pytest.raises(Exception) as refused:
        issue_code(partner["app"], partner["owner"], stranger, REDIRECT, ("employees:read",), s256(VERIFIER), clock)
    assert getattr(refused.value, "error", None) == "unauthorized_client"


def test_refresh_rotates_narrows_and_a_reuse_ends_the_family(client, partner, clock):
    first = exchange(client, partner, code_for(partner, clock)).get_json()
    oauth_error(refreshed(client, partner, first["refresh_token"], scope="payroll:read"), 400, "invalid_scope")
    second = refreshed(client, partner, first["refresh_token"], scope="employees:read")
    assert second.status_code == 200 and second.get_json()["scope"] == "employees:read"
    second = second.get_json()
    assert client.get("/v1/employees", headers=bearer(second["access_token"])).status_code == 200
    assert client.get("/v1/webhooks", headers=bearer(second["access_token"])).status_code == 403  # narrowed
    oauth_error(refreshed(client, partner, first["refresh_token"]), 400, "invalid_grant")  # reuse
    for token in (first["access_token"], second["access_token"]):
        answer = client.get("/v1/company", headers=bearer(token))
        assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
    oauth_error(refreshed(client, partner, second["refresh_token"]), 400, "invalid_grant")


def test_revoke_answers_200_always_and_stops_a_refresh_tokens_family(client, partner, clock):
    tokens = exchange(client, partner, code_for(partner, clock)).get_json()
    credentials = {"client_id": partner["app"].id, "client_secret": partner["secret"]}
    assert client.post("/oauth/revoke", data={"token": "svc_rt_unknown", **credentials}).status_code == 200
    other, other_secret = apps.create_app(partner["company"], "Other", [REDIRECT], ["employees:read"], clock)
    not_its = client.post("/oauth/revoke", data={"token": tokens["refresh_token"], "client_id": other.id,
                                                 "client_secret": other_secret})
    assert not_its.status_code == 200
    assert client.get("/v1/company", headers=bearer(tokens["access_token"])).status_code == 200  # untouched
    oauth_error(client.post("/oauth/revoke", data=credentials), 400, "invalid_request")
    oauth_error(client.post("/oauth/revoke", data={"token": "x", "client_id": other.id,
                                                   "client_secret": "wrong"}), 401, "invalid_client")
    assert client.post("/oauth/revoke", data={"token": tokens["refresh_token"], **credentials}).status_code == 200
    assert client.get("/v1/company", headers=bearer(tokens["access_token"])).status_code == 401
    oauth_error(refreshed(client, partner, tokens["refresh_token"]), 400, "invalid_grant")


def test_a_rotated_client_secret_stops_at_once(client, partner, clock):
    code = code_for(partner, clock)
    partner["secret"], old = apps.rotate_secret(partner["app"].id, clock), partner["secret"]
    oauth_error(exchange(client, partner, code, client_secret=old), 401, "invalid_client")
    assert exchange(client, partner, code).status_code == 200


def test_a_tokens_webhook_endpoints_belong_to_its_connection(client, partner, clock, headers):
    tokens = exchange(client, partner, code_for(partner, clock)).get_json()
    made = client.post("/v1/webhooks", headers=bearer(tokens["access_token"]),
                       json={"url": "https://93.184.215.14/hook", "events": ["employee.updated"]})
    assert made.status_code == 201, made.get_json()
    assert client.get("/v1/webhooks", headers=headers).get_json()["data"] == []  # a key of the company sees none
    again = refreshed(client, partner, tokens["refresh_token"]).get_json()
    listed = client.get("/v1/webhooks", headers=bearer(again["access_token"])).get_json()["data"]
    assert [e["id"] for e in listed] == [made.get_json()["id"]]  # still the connection's after a refresh
    assert WebhookEndpoint.get_by_id(made.get_json()["id"]).credential_kind == "oauth"


def test_the_metadata_says_s256_basic_and_post_and_iss(client):
    answer = client.get("/.well-known/oauth-authorization-server")
    assert answer.status_code == 200
    metadata = answer.get_json()
    AuthorizationServerMetadata(metadata).validate()
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    for endpoint in ("token", "revocation"):
        assert metadata[f"{endpoint}_endpoint_auth_methods_supported"] == ["client_secret_basic", "client_secret_post"]
    assert metadata["authorization_response_iss_parameter_supported"] is True
    assert metadata["issuer"] == "http://localhost"
    assert metadata["token_endpoint"].endswith("/oauth/token")
    assert metadata["grant_types_supported"] == ["authorization_code", "refresh_token"]


def test_with_the_preview_off_oauth_is_404_and_v1_refuses_tokens(app, client, partner, clock, monkeypatch):
    tokens = exchange(client, partner, code_for(partner, clock)).get_json()
    monkeypatch.setitem(app.config, "OAUTH_PREVIEW", False)
    assert client.post("/oauth/token", data={"grant_type": "refresh_token"}).status_code == 404
    assert client.post("/oauth/revoke", data={"token": "x"}).status_code == 404
    assert client.get("/.well-known/oauth-authorization-server").status_code == 404
    answer = client.get("/v1/company", headers=bearer(tokens["access_token"]))
    assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
    # The refusal speaks of keys only: it does not offer what is switched off.
    for sent in (bearer(tokens["access_token"]), {}, bearer("svc_test_nothing")):
        refused = client.get("/v1/company", headers=sent).get_json()
        assert "API key" in refused["detail"] and "OAuth" not in refused["detail"], refused
    monkeypatch.setitem(app.config, "OAUTH_PREVIEW", True)
    assert "OAuth access token" in client.get("/v1/company").get_json()["detail"]


# ---- RFC 6749's shape for every answer, and what clients send by default ------------------


def basic(client_id, secret):
    return {"Authorization": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


@pytest.mark.parametrize("path", ["/oauth/token", "/oauth/revoke"])
def test_a_nul_in_client_id_is_invalid_client_in_json(client, partner, path):
    form = {"grant_type": "refresh_token", "refresh_token": "svc_rt_x", "token": "svc_rt_x",
            "client_id": "a\x00b", "client_secret": partner["secret"]}
    oauth_error(client.post(path, data=form), 401, "invalid_client")
    del form["client_id"]
    oauth_error(client.post(path, data=form, headers=basic("a\x00b", partner["secret"])), 401, "invalid_client")


@pytest.mark.parametrize("path", ["/oauth/token", "/oauth/revoke"])
def test_basic_credentials_that_are_not_utf_8_are_invalid_client_in_json(client, partner, path):
    form = {"grant_type": "refresh_token", "refresh_token": "svc_rt_x", "token": "svc_rt_x"}
    refused = client.post(path, data=form, headers={"Authorization": "Basic \xa0"})  # split() takes \xa0 for a space
    oauth_error(refused, 401, "invalid_client")
    for credentials in ("YXBwX3j/OnNlY3JldA==",  # app_x\xff:secret, the case that answered 500
                        base64.b64encode(partner["app"].id.encode() + b":\xc3\x28").decode(),
                        base64.b64encode(b"\xed\xa0\x80:" + partner["secret"].encode()).decode()):  # a surrogate
        refused = client.post(path, data=form, headers={"Authorization": f"Basic {credentials}"})
        oauth_error(refused, 401, "invalid_client")
        assert refused.headers["WWW-Authenticate"].startswith("Basic ")


_SCHEMES = st.sampled_from(["Basic", "basic", "BASIC", "Bearer", "Digest", ""])
_LATIN_1 = st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=255, blacklist_characters="\r\n"),
                   max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scheme=_SCHEMES, credentials=st.one_of(st.binary(max_size=60).map(lambda b: base64.b64encode(b).decode()),
                                               _LATIN_1),
       in_form=st.booleans(), path=st.sampled_from(["/oauth/token", "/oauth/revoke"]))
def test_any_authorization_header_is_an_rfc_6749_answer(client, partner, scheme, credentials, in_form, path):
    """Whatever an Authorization header holds, the answer is RFC 6749's JSON, never a
    fault: the form's credentials (when sent) may still authenticate the client."""
    form = {"grant_type": "refresh_token", "refresh_token": "svc_rt_x", "token": "svc_rt_x"}
    if in_form:
        form |= {"client_id": partner["app"].id, "client_secret": partner["secret"]}
    response = client.post(path, data=form, headers={"Authorization": f"{scheme} {credentials}".strip()})
    assert response.status_code in (200, 400, 401), response.get_data(as_text=True)
    if response.status_code != 200:
        body = response.get_json()
        assert body["error"] in ("invalid_request", "invalid_client", "invalid_grant"), body
        assert response.status_code == (401 if body["error"] == "invalid_client" else 400)


def test_a_nul_in_another_field_is_invalid_request_in_json(client, partner, clock):
    oauth_error(exchange(client, partner, code_for(partner, clock), code="a\x00b"), 400, "invalid_request")
    oauth_error(refreshed(client, partner, "svc_rt_x", scope="employees:read\x00"), 400, "invalid_request")


def test_scopes_a_description_cannot_quote_are_still_invalid_scope(client, partner, clock):
    tokens = exchange(client, partner, code_for(partner, clock)).get_json()
    for scope in ('employees:read "x"', "رواتب", "a\\b", "tab\there"):
        oauth_error(refreshed(client, partner, tokens["refresh_token"], scope=scope), 400, "invalid_scope")


def test_a_body_over_the_limit_or_a_wrong_method_is_json_too(client, partner):
    big = client.post("/oauth/token", data={"grant_type": "refresh_token", "refresh_token": "x" * (1024 * 1024 + 1)})
    assert big.status_code == 413 and big.mimetype == "application/json"
    assert big.get_json()["error"] == "invalid_request" and big.headers["Cache-Control"] == "no-store"
    for path in ("/oauth/token", "/oauth/revoke"):
        wrong = client.get(path)
        assert wrong.status_code == 405 and wrong.get_json()["error"] == "invalid_request"
        assert wrong.headers["Allow"] == "POST"


def test_a_missing_grant_type_is_invalid_request(client, partner, clock):
    oauth_error(exchange(client, partner, code_for(partner, clock), grant_type=None), 400, "invalid_request")
    oauth_error(exchange(client, partner, code_for(partner, clock), grant_type=""), 400, "invalid_request")


def test_client_secret_basic_works_at_the_token_and_revocation_endpoints(client, partner, clock):
    auth = basic(partner["app"].id, partner["secret"])
    form = {"grant_type": "authorization_code", "code": code_for(partner, clock), "redirect_uri": REDIRECT,
            "code_verifier": VERIFIER}
    tokens = client.post("/oauth/token", data=form, headers=auth)
    assert tokens.status_code == 200, tokens.get_json()
    tokens = tokens.get_json()
    again = client.post("/oauth/token", headers=auth, data={"grant_type": "refresh_token",
                                                          "refresh_token": tokens["refresh_token"]})
    assert again.status_code == 200
    wrong = client.post("/oauth/token", headers=basic(partner["app"].id, "svc_cs_wrong"),
                        data={"grant_type": "refresh_token", "refresh_token": again.get_json()["refresh_token"]})
    oauth_error(wrong, 401, "invalid_client")
    assert wrong.headers["WWW-Authenticate"].startswith("Basic ")
    assert client.post("/oauth/revoke", headers=auth, data={"token": again.get_json()["refresh_token"]}).status_code \
        == 200
    assert client.get("/v1/company", headers=bearer(again.get_json()["access_token"])).status_code == 401


@pytest.mark.parametrize("hint", ["access_token", "refresh_token", "id_token", "bogus"])
def test_revocation_treats_token_type_hint_as_a_hint_only(client, partner, clock, hint):
    tokens = exchange(client, partner, code_for(partner, clock)).get_json()
    answer = client.post("/oauth/revoke", data={"token": tokens["refresh_token"], "token_type_hint": hint,
                                                "client_id": partner["app"].id, "client_secret": partner["secret"]})
    assert answer.status_code == 200 and answer.get_json() == {}
    assert client.get("/v1/company", headers=bearer(tokens["access_token"])).status_code == 401


def test_after_a_narrowed_refresh_the_granted_scopes_may_be_asked_for_again(client, partner, clock):
    """RFC 6749, 6: an omitted scope is the one the customer granted; Authlib's client
    resends the session's scope on every refresh."""
    first = exchange(client, partner, code_for(partner, clock)).get_json()
    narrowed = refreshed(client, partner, first["refresh_token"], scope="employees:read").get_json()
    assert narrowed["scope"] == "employees:read"
    again = refreshed(client, partner, narrowed["refresh_token"], scope="employees:read webhooks:manage")
    assert again.status_code == 200 and again.get_json()["scope"] == "employees:read webhooks:manage"
    plain = refreshed(client, partner, again.get_json()["refresh_token"]).get_json()
    assert plain["scope"] == "employees:read webhooks:manage"
    assert client.get("/v1/webhooks", headers=bearer(plain["access_token"])).status_code == 200


def test_a_reused_refresh_token_says_the_connection_was_ended(client, partner, clock):
    first = exchange(client, partner, code_for(partner, clock)).get_json()
    assert refreshed(client, partner, first["refresh_token"]).status_code == 200
    reuse = refreshed(client, partner, first["refresh_token"])
    oauth_error(reuse, 400, "invalid_grant")
    assert "connection is revoked" in reuse.get_json()["error_description"]
    assert "approve again" in reuse.get_json()["error_description"]


def test_a_refused_access_token_says_to_refresh_or_connect_again_not_the_key_message(client, partner, clock):
    first = exchange(client, partner, code_for(partner, clock)).get_json()
    assert refreshed(client, partner, first["refresh_token"]).status_code == 200
    refreshed(client, partner, first["refresh_token"])  # a reuse ends the family
    for token in (first["access_token"], "svc_at_" + "x" * 40):
        body = client.get("/v1/company", headers=bearer(token)).get_json()
        assert body["code"] == "unauthenticated" and "connect the app again" in body["detail"], body
        assert "svc_live_" not in body["detail"]
    key_refusal = client.get("/v1/company", headers=bearer("svc_test_" + "x" * 32)).get_json()
    assert "svc_live_" in key_refusal["detail"]
