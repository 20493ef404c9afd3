"""The console's OAuth pages (preview): Connected apps with the customer's Revoke, and
the consent page at /oauth/authorize."""

from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from app.domain.oauth import apps
from app.domain.oauth.connections import issue_code, redeem_code, s256
from app.models import User, WebhookEndpoint
from tests.api.test_console import (  # noqa: F401  (fixtures)
    PASSWORD,
    admin,
    csrf,
    fresh_login_limiters,
    live_company,
    member,
    post,
    text,
)
from tests.conftest import bearer

REDIRECT = "https://ledgerly.example/cb"
VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"


def connect(company, user, clock, runtime, name="Ledgerly Sync"):
    """An approved connection of a production-mode app to `company`, made by `user`."""
    app, _ = apps.create_app(company, name, [REDIRECT], ["employees:read", "webhooks:manage"], clock)
    app = apps.set_mode(app.id, "production")
    code = issue_code(app, user, company, REDIRECT, ("employees:read", "webhooks:manage"), s256(VERIFIER), clock)
    return redeem_code(app, code, REDIRECT, VERIFIER, runtime)


def test_the_customer_sees_a_connected_app_and_revokes_it(app, client, admin, live_company, clock,  # noqa: F811
                                                           runtime):
    tokens = connect(live_company, admin, clock, runtime)
    api = app.test_client()
    made = api.post("/v1/webhooks", headers=bearer(tokens.access_token),
                    json={"url": "https://93.184.215.14/hook", "events": ["employee.updated"]})
    assert made.status_code == 201 and api.get("/v1/company", headers=bearer(tokens.access_token)).status_code == 200
    page = text(client.get("/console/integrations"))
    assert "Connected apps" in page and "Ledgerly Sync" in page and admin.email in page
    done = post(client, f"/console/integrations/connections/{tokens.connection_id}/revoke",
                page="/console/integrations")
    assert "Disconnected “Ledgerly Sync”" in text(done) and "No apps are connected" in text(done)
    answer = api.get("/v1/company", headers=bearer(tokens.access_token))
    assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
    endpoint = WebhookEndpoint.get_by_id(made.get_json()["id"])
    assert not endpoint.active and endpoint.disabled_reason == "connection_revoked"


def test_another_companys_connection_cannot_be_revoked_here(app, client, admin, make_sandbox, clock,  # noqa: F811
                                                            runtime):
    other = make_sandbox("BH", email="other@example.com")
    tokens = connect(other, User.get_by_id(other.sandbox_owner_id), clock, runtime, name="Elsewhere")
    answer = client.post(f"/console/integrations/connections/{tokens.connection_id}/revoke",
                         data={"csrf_token": csrf(client, "/console/integrations")})
    assert answer.status_code == 404
    assert app.test_client().get("/v1/company", headers=bearer(tokens.access_token)).status_code == 200


def test_without_the_preview_the_console_shows_no_connected_apps(app, client, admin, monkeypatch):  # noqa: F811
    monkeypatch.setitem(app.config, "OAUTH_PREVIEW", False)
    assert "Connected apps" not in text(client.get("/console/integrations"))


# ---- the consent page (/oauth/authorize) -------------------------------------------------


def authorize_url(app_id, **changes):
    params = {"response_type": "code", "client_id": app_id, "redirect_uri": REDIRECT,
              "scope": "employees:read", "state": "st-42", "code_challenge": s256(VERIFIER),
              "code_challenge_method": "S256", **changes}
    return "/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})


@pytest.fixture
def ledgerly(live_company, clock):  # noqa: F811
    """A production-mode app registered under the live company."""
    made, secret = apps.create_app(live_company, "Ledgerly Sync", [REDIRECT], ["employees:read", "payroll:read"],
                                   clock)
    return apps.set_mode(made.id, "production"), secret


def redirected_to(response):
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    location = urlsplit(response.headers["Location"])
    return f"{location.scheme}://{location.netloc}{location.path}", dict(parse_qsl(location.query))


def test_sign_in_first_then_back_to_the_same_request(client, ledgerly, live_company, clock):  # noqa: F811
    url = authorize_url(ledgerly[0].id)
    first = client.get(url)
    assert first.status_code == 302 and "/console/sign-in?next=" in first.headers["Location"]
    user = member(live_company, "hr_admin", clock)
    back = client.post(first.headers["Location"], data={"email": user.email, "password": PASSWORD,
                                                        "csrf_token": csrf(client)})
    assert back.status_code == 302 and back.headers["Location"].endswith(url), back.headers.get("Location")


def test_the_page_names_the_app_its_organisation_and_the_scopes_in_words(client, admin, ledgerly):  # noqa: F811
    page = client.get(authorize_url(ledgerly[0].id, scope="employees:read payroll:read"))
    body = text(page)
    assert page.status_code == 200 and "Ledgerly Sync" in body and "Gulf Trading" in body
    assert "Read your employees" in body and "Read closed payroll runs" in body
    assert "Approve" in body and "Decline" in body and 'name="csrf_token"' in body
    assert "form-action 'self' https://ledgerly.example" in page.headers["Content-Security-Policy"]


def test_approve_redirects_with_a_code_that_becomes_tokens(app, client, admin, ledgerly, live_company):  # noqa: F811
    url = authorize_url(ledgerly[0].id)
    answer = client.post(url, data={"decision": "approve", "company_id": live_company.id,
                                    "csrf_token": csrf(client, url)})
    target, params = redirected_to(answer)
    assert target == REDIRECT and params["state"] == "st-42" and set(params) == {"code", "state"}
    tokens = app.test_client().post("/oauth/token", data={
        "grant_type": "authorization_code", "code": params["code"], "redirect_uri": REDIRECT,
        "code_verifier": VERIFIER, "client_id": ledgerly[0].id, "client_secret": ledgerly[1]}).get_json()
    assert tokens["scope"] == "employees:read"
    company = app.test_client().get("/v1/company", headers=bearer(tokens["access_token"]))
    assert company.status_code == 200 and company.get_json()["id"] == live_company.id


def test_decline_redirects_with_access_denied_and_the_state(client, admin, ledgerly):  # noqa: F811
    url = authorize_url(ledgerly[0].id)
    target, params = redirected_to(client.post(url, data={"decision": "decline", "csrf_token": csrf(client, url)}))
    assert target == REDIRECT and params["error"] == "access_denied" and params["state"] == "st-42"


@pytest.mark.parametrize("changes", [{"client_id": "app_unknown"}, {"client_id": None},
                                     {"redirect_uri": REDIRECT + "/other"}, {"redirect_uri": "https://evil.example/cb"},
                                     {"redirect_uri": None}])
def test_an_unknown_client_or_redirect_uri_is_an_error_page_never_a_redirect(client, admin, ledgerly,  # noqa: F811
                                                                              changes):
    page = client.get(authorize_url(ledgerly[0].id, **changes))
    assert page.status_code == 400 and "Location" not in page.headers
    assert "Nothing was shared" in text(page)


@pytest.mark.parametrize("changes,error", [
    ({"code_challenge": None, "code_challenge_method": None}, "invalid_request"),
    ({"code_challenge_method": "plain"}, "invalid_request"),
    ({"code_challenge_method": None}, "invalid_request"),
    ({"scope": "webhooks:manage"}, "invalid_scope"),
    ({"scope": "admin:all"}, "invalid_scope"),
])
def test_other_errors_go_back_to_the_app_with_the_state(client, admin, ledgerly, changes, error):  # noqa: F811
    target, params = redirected_to(client.get(authorize_url(ledgerly[0].id, **changes)))
    assert target == REDIRECT and params["error"] == error and params["state"] == "st-42"


def test_a_development_app_offers_no_company_outside_its_reach(client, admin, live_company, clock):  # noqa: F811
    made, _ = apps.create_app(live_company, "Early", [REDIRECT], ["employees:read"], clock)  # development mode
    url = authorize_url(made.id)
    page = client.get(url)
    assert "You manage no company this app may connect to" in text(page) and "Approve" not in text(page)
    forced = client.post(url, data={"decision": "approve", "company_id": live_company.id,
                                    "csrf_token": csrf(client, url)})
    assert forced.status_code == 400


def test_an_approval_without_the_forms_csrf_token_is_refused(client, admin, ledgerly, live_company):  # noqa: F811
    answer = client.post(authorize_url(ledgerly[0].id), data={"decision": "approve", "company_id": live_company.id})
    assert answer.status_code == 400 and "Location" not in answer.headers
