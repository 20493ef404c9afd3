"""Connected apps in the console (preview): who is connected, and the customer's Revoke."""

from app.domain.oauth import apps
from app.domain.oauth.connections import issue_code, redeem_code, s256
from app.models import User, WebhookEndpoint
from tests.api.test_console import (  # noqa: F401  (fixtures)
    admin,
    csrf,
    fresh_login_limiters,
    live_company,
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
