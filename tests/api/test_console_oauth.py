"""The console's OAuth pages (preview): Connected apps with the customer's Revoke, and
the consent page at /oauth/authorize."""

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.kernel.clock import format_utc, from_db
from app.domain.oauth import apps
from app.domain.oauth.connections import issue_code, redeem_code, s256
from app.models import OAuthApp, OAuthConnection, User, WebhookEndpoint
from tests.api.console import PASSWORD, csrf, member, post, sign_in, switch_language, text
from tests.conftest import bearer

REDIRECT = "https://ledgerly.example/cb"
VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"


def connect(company, user, clock, runtime, name="Ledgerly Sync"):
    """An approved connection of a production-mode app to `company`, made by `user`."""
    app, _ = apps.create_app(company, name, [REDIRECT], ["employees:read", "webhooks:manage"], clock)
    app = apps.set_mode(app.id, "production")
    code = issue_code(app, user, company, REDIRECT, ("employees:read", "webhooks:manage"), s256(VERIFIER), clock)
    return redeem_code(app, code, REDIRECT, VERIFIER, runtime)


def connect_again(company, user, clock, runtime):
    """Another approval of the app `connect` registered."""
    app = OAuthApp.get(OAuthApp.name == "Ledgerly Sync")
    code = issue_code(app, user, company, REDIRECT, ("employees:read",), s256(VERIFIER), clock)
    return redeem_code(app, code, REDIRECT, VERIFIER, runtime)


def app_of(tokens):
    return OAuthConnection.get_by_id(tokens.connection_id).app_id


def test_the_customer_sees_a_connected_app_and_revokes_it(app, client, admin, live_company, clock,
                                                           runtime):
    tokens = connect(live_company, admin, clock, runtime)
    clock.advance(minutes=5)  # "Last used" is then not "Connected"
    api = app.test_client()
    made = api.post("/v1/webhooks", headers=bearer(tokens.access_token),
                    json={"url": "https://93.184.215.14/hook", "events": ["employee.updated"]})
    assert made.status_code == 201 and api.get("/v1/company", headers=bearer(tokens.access_token)).status_code == 200
    page = text(client.get("/console/integrations"))
    assert "Connected apps" in page and "Ledgerly Sync" in page and admin.email in page
    used = OAuthConnection.get_by_id(tokens.connection_id).last_used_at
    assert from_db(used) == clock.now() and f'datetime="{format_utc(clock.now())}"' in page  # "Last used"
    again = connect_again(live_company, admin, clock, runtime)  # a second approval of the same app
    page = text(client.get("/console/integrations"))
    assert page.count("<td>Ledgerly Sync</td>") == 1  # one row per app
    done = post(client, f"/console/integrations/connected-apps/{app_of(again)}/revoke",
                page="/console/integrations")
    assert "Disconnected “Ledgerly Sync”" in text(done) and "No apps are connected" in text(done)
    for ended in (tokens, again):
        answer = api.get("/v1/company", headers=bearer(ended.access_token))
        assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
    endpoint = WebhookEndpoint.get_by_id(made.get_json()["id"])
    assert not endpoint.active and endpoint.disabled_reason == "connection_revoked"


def test_another_companys_connection_cannot_be_revoked_here(app, client, admin, make_sandbox, clock,
                                                            runtime):
    other = make_sandbox("BH", email="other@example.com")
    tokens = connect(other, User.get_by_id(other.sandbox_owner_id), clock, runtime, name="Elsewhere")
    answer = client.post(f"/console/integrations/connected-apps/{app_of(tokens)}/revoke",
                         data={"csrf_token": csrf(client, "/console/integrations")})
    assert answer.status_code == 404
    assert app.test_client().get("/v1/company", headers=bearer(tokens.access_token)).status_code == 200


def test_without_the_preview_the_console_shows_no_connected_apps(app, client, admin, monkeypatch):
    monkeypatch.setitem(app.config, "OAUTH_PREVIEW", False)
    assert "Connected apps" not in text(client.get("/console/integrations"))


# ---- the consent page (/oauth/authorize) -------------------------------------------------


def authorize_url(app_id, **changes):
    params = {"response_type": "code", "client_id": app_id, "redirect_uri": REDIRECT,
              "scope": "employees:read", "state": "st-42", "code_challenge": s256(VERIFIER),
              "code_challenge_method": "S256", **changes}
    return "/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})


@pytest.fixture
def ledgerly(live_company, clock):
    """A production-mode app registered under the live company."""
    made, secret = apps.create_app(live_company, "Ledgerly Sync", [REDIRECT], ["employees:read", "payroll:read"],
                                   clock)
    return apps.set_mode(made.id, "production"), secret


def redirected_to(response):
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    location = urlsplit(response.headers["Location"])
    return f"{location.scheme}://{location.netloc}{location.path}", dict(parse_qsl(location.query))


def test_sign_in_first_then_back_to_the_same_request(client, ledgerly, live_company, clock):
    url = authorize_url(ledgerly[0].id)
    first = client.get(url)
    assert first.status_code == 302 and "/console/sign-in?next=" in first.headers["Location"]
    user = member(live_company, "hr_admin", clock)
    back = client.post(first.headers["Location"], data={"email": user.email, "password": PASSWORD,
                                                        "csrf_token": csrf(client)})
    assert back.status_code == 302 and back.headers["Location"].endswith(url), back.headers.get("Location")


def test_the_page_names_the_app_its_organisation_and_the_scopes_in_words(client, admin, ledgerly):
    page = client.get(authorize_url(ledgerly[0].id, scope="employees:read payroll:read"))
    body = text(page)
    assert page.status_code == 200 and "Ledgerly Sync" in body and "Gulf Trading" in body
    assert "Read your employees" in body and "Read closed payroll runs" in body
    assert "Approve" in body and "Decline" in body and 'name="csrf_token"' in body
    assert "form-action 'self' https://ledgerly.example" in page.headers["Content-Security-Policy"]


def test_approve_redirects_with_a_code_that_becomes_tokens(app, client, admin, ledgerly, live_company):
    url = authorize_url(ledgerly[0].id)
    answer = client.post(url, data={"decision": "approve", "company_id": live_company.id,
                                    "csrf_token": csrf(client, url)})
    target, params = redirected_to(answer)
    assert target == REDIRECT and params["state"] == "st-42" and set(params) == {"code", "state", "iss"}
    assert params["iss"] == "http://localhost"  # RFC 9207, as the metadata's issuer
    tokens = app.test_client().post("/oauth/token", data={
        "grant_type": "authorization_code", "code": params["code"], "redirect_uri": REDIRECT,
        "code_verifier": VERIFIER, "client_id": ledgerly[0].id, "client_secret": ledgerly[1]}).get_json()
    assert tokens["scope"] == "employees:read"
    company = app.test_client().get("/v1/company", headers=bearer(tokens["access_token"]))
    assert company.status_code == 200 and company.get_json()["id"] == live_company.id


def test_decline_redirects_with_access_denied_and_the_state(client, admin, ledgerly):
    url = authorize_url(ledgerly[0].id)
    target, params = redirected_to(client.post(url, data={"decision": "decline", "csrf_token": csrf(client, url)}))
    assert target == REDIRECT and params["error"] == "access_denied" and params["state"] == "st-42"
    assert params["iss"] == "http://localhost"


@pytest.mark.parametrize("changes", [{"client_id": "app_unknown"}, {"client_id": None},
                                     {"redirect_uri": REDIRECT + "/other"}, {"redirect_uri": "https://evil.example/cb"},
                                     {"redirect_uri": None}])
def test_an_unknown_client_or_redirect_uri_is_an_error_page_never_a_redirect(client, admin, ledgerly,
                                                                              changes):
    page = client.get(authorize_url(ledgerly[0].id, **changes))
    assert page.status_code == 400 and "Location" not in page.headers
    assert "Nothing was shared" in text(page) and ".." not in text(page)


@pytest.mark.parametrize("changes,error", [
    ({"code_challenge": None, "code_challenge_method": None}, "invalid_request"),
    ({"code_challenge_method": "plain"}, "invalid_request"),
    ({"code_challenge_method": None}, "invalid_request"),
    ({"scope": "webhooks:manage"}, "invalid_scope"),
    ({"scope": "admin:all"}, "invalid_scope"),
])
def test_other_errors_go_back_to_the_app_with_the_state(client, admin, ledgerly, changes, error):
    target, params = redirected_to(client.get(authorize_url(ledgerly[0].id, **changes)))
    assert target == REDIRECT and params["error"] == error and params["state"] == "st-42"
    assert params["iss"] == "http://localhost"


@pytest.mark.parametrize("bad", ["\t", "\n", "\r", '"', "\\", "\x7f", "é", "\u202e", " "])
def test_a_redirect_uri_no_error_can_quote_is_an_error_page(client, admin, ledgerly, bad):
    page = client.get(authorize_url(ledgerly[0].id, redirect_uri=REDIRECT + bad))
    assert page.status_code == 400 and "Location" not in page.headers
    assert "Nothing was shared" in text(page)


@pytest.mark.parametrize("bad", ['co"de', "código", "code\\", "token"])
def test_a_response_type_other_than_code_goes_back_as_unsupported_response_type(client, admin, ledgerly, bad):
    target, params = redirected_to(client.get(authorize_url(ledgerly[0].id, response_type=bad)))
    assert target == REDIRECT and params["error"] == "unsupported_response_type" and params["state"] == "st-42"


@pytest.mark.parametrize("scope", ['employees:read "all"', "رواتب", "a\\b"])
def test_a_scope_no_error_can_quote_goes_back_as_invalid_scope(client, admin, ledgerly, scope):
    target, params = redirected_to(client.get(authorize_url(ledgerly[0].id, scope=scope)))
    assert target == REDIRECT and params["error"] == "invalid_scope" and params["state"] == "st-42"


@pytest.mark.parametrize("repeated", ["state", "scope", "response_type", "code_challenge"])
def test_a_repeated_parameter_goes_back_to_a_valid_client(client, admin, ledgerly, repeated):
    url = authorize_url(ledgerly[0].id) + f"&{repeated}=again"
    target, params = redirected_to(client.get(url))
    assert target == REDIRECT and params["error"] == "invalid_request"


@pytest.mark.parametrize("repeated", ["client_id", "redirect_uri"])
def test_a_repeated_client_or_redirect_uri_is_an_error_page(client, admin, ledgerly, repeated):
    url = authorize_url(ledgerly[0].id) + f"&{repeated}=" + (ledgerly[0].id if repeated == "client_id" else REDIRECT)
    page = client.get(url)
    assert page.status_code == 400 and "Location" not in page.headers


def test_a_nul_in_the_consent_form_is_a_400_and_no_code(client, admin, ledgerly):
    url = authorize_url(ledgerly[0].id)
    answer = client.post(url, data={"decision": "approve", "company_id": "cmp\x00", "csrf_token": csrf(client, url)})
    assert answer.status_code == 400 and "Location" not in answer.headers


def test_the_page_says_what_employees_read_returns_and_never_returns(client, admin, ledgerly):
    body = text(client.get(authorize_url(ledgerly[0].id)))
    assert "pay details" not in body and "work contact details" in body
    assert "salary" in body and "IBAN" in body and "reason for leaving" in body
    assert "single leaver" in body  # what a total over one person gives away


def test_the_page_says_webhooks_manage_delivers_the_data_of_subscribed_events(client, admin, live_company, clock):
    made, _ = apps.create_app(live_company, "Hooks", [REDIRECT], ["webhooks:manage"], clock)
    body = text(client.get(authorize_url(apps.set_mode(made.id, "production").id, scope="webhooks:manage")))
    assert "full data of every event they subscribe to" in body and "even without those scopes" in body


def test_a_development_app_offers_no_company_outside_its_reach(client, admin, live_company, make_sandbox, clock):
    made, _ = apps.create_app(live_company, "Early", [REDIRECT], ["employees:read"], clock)  # development mode
    url = authorize_url(made.id)
    page = client.get(url)
    assert "You manage no company this app may connect to" in text(page) and "Approve" not in text(page)
    back = client.post(url, data={"decision": "unreachable", "csrf_token": csrf(client, url)})
    target, params = redirected_to(back)
    assert target == REDIRECT and params["error"] == "unauthorized_client" and params["state"] == "st-42"
    # Approving a company anyway (a forged form) goes back the same way, with no code.
    forced = client.post(url, data={"decision": "approve", "company_id": live_company.id,
                                    "csrf_token": csrf(client, url)})
    target, params = redirected_to(forced)
    assert params["error"] == "unauthorized_client" and "code" not in params
    # A company the user does not manage is not theirs to approve.
    elsewhere = make_sandbox("QA", email="else@example.com")
    assert client.post(url, data={"decision": "approve", "company_id": elsewhere.id,
                                  "csrf_token": csrf(client, url)}).status_code == 400


def test_an_approval_without_the_forms_csrf_token_is_refused(client, admin, ledgerly, live_company):
    answer = client.post(authorize_url(ledgerly[0].id), data={"decision": "approve", "company_id": live_company.id})
    assert answer.status_code == 400 and "Location" not in answer.headers


# ---- the company's own apps (/console/apps) ----------------------------------------------


def new_secret(response):
    return re.search(r'value="(svc_cs_[A-Za-z0-9]{40})"', text(response)).group(1)


def register(client, **changes):
    form = {"name": "Ledgerly", "redirect_uris": f"{REDIRECT}\r\nhttp://127.0.0.1:8765/cb\r\n",
            "scopes": ["employees:read", "webhooks:manage"], **changes}
    return post(client, "/console/apps", form, page="/console/apps")


def test_register_an_app_with_its_secret_shown_once(client, admin, live_company):
    page = register(client)
    secret = new_secret(page)
    [app] = apps.apps_of(live_company.id)
    assert (app.name, app.mode, app.created_by_id) == ("Ledgerly", "development", admin.id)
    assert apps.redirect_uris_of(app) == [REDIRECT, "http://127.0.0.1:8765/cb"]
    assert app.scopes == "employees:read webhooks:manage" and app.id in text(page)
    assert apps.authenticate(app.id, secret) is not None
    again = text(client.get("/console/apps"))
    assert secret not in again and app.id in again and "development" in again  # once only


def test_an_organisation_names_each_app_once(client, admin, live_company, make_sandbox, clock):
    register(client)
    page = register(client, name="ledgerly ")
    assert page.status_code == 422 and "has an app named “ledgerly” already" in text(page)
    assert [a.name for a in apps.apps_of(live_company.id)] == ["Ledgerly"]
    elsewhere = make_sandbox("QA")
    assert apps.create_app(elsewhere, "Ledgerly", [REDIRECT], ["employees:read"], clock)[0].name == "Ledgerly"


@pytest.mark.parametrize("uris, reason", [
    ("http://ledgerly.example/cb", "http:// only on a loopback address"),
    ("https://ledgerly.example/cb#done", "no fragment"),
    (f"{REDIRECT}\n{REDIRECT}", "listed twice"),
    ("   ", "This field is required."),
    ('https://ledgerly.example/cb?x="1"', "printable ASCII only"),
    ("https://ledgerly.example/ärger", "printable ASCII only"),
])
def test_a_bad_redirect_uri_is_refused_with_the_reason_and_nothing_is_stored(client, admin, live_company, uris,
                                                                             reason):
    page = register(client, redirect_uris=uris)
    assert page.status_code == 422 and reason in text(page)
    assert apps.apps_of(live_company.id) == []


def test_rotate_secret_stops_the_old_one_and_a_second_click_does_not_rotate_again(client, admin,
                                                                                  live_company):
    first = new_secret(register(client))
    [app] = apps.apps_of(live_company.id)
    form = {"secret_version": apps.secret_version(app)}
    rotated = post(client, f"/console/apps/{app.id}/rotate-secret", form, page="/console/apps")
    second = new_secret(rotated)
    assert apps.authenticate(app.id, first) is None and apps.authenticate(app.id, second) is not None
    clicked_again = post(client, f"/console/apps/{app.id}/rotate-secret", form, page="/console/apps")
    assert "already replaced a moment ago" in text(clicked_again) and "svc_cs_" not in text(clicked_again)
    assert apps.authenticate(app.id, second) is not None


def test_another_companys_app_is_not_shown_or_rotated_here(client, admin, make_sandbox, clock):
    other = make_sandbox("OM", email="other@example.com")
    elsewhere, secret = apps.create_app(other, "Elsewhere", [REDIRECT], ["employees:read"], clock)
    assert "Elsewhere" not in text(client.get("/console/apps"))
    answer = client.post(f"/console/apps/{elsewhere.id}/rotate-secret",
                         data={"secret_version": apps.secret_version(elsewhere),
                               "csrf_token": csrf(client, "/console/apps")})
    assert answer.status_code == 404 and apps.authenticate(elsewhere.id, secret) is not None


def test_apps_need_integrations_manage_and_the_preview(app, client, live_company, clock, monkeypatch):
    sign_in(client, member(live_company, "payroll_officer", clock).email)
    assert client.get("/console/apps").status_code == 403
    monkeypatch.setitem(app.config, "OAUTH_PREVIEW", False)
    assert client.get("/console/apps").status_code == 404


_ANY_TEXT = st.one_of(st.none(), st.text(max_size=40), st.sampled_from(["code", "S256", "plain", REDIRECT,
                                                                          "employees:read payroll:read"]))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(params=st.fixed_dictionaries({name: _ANY_TEXT for name in (
           "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
           "code_challenge_method")}), own_client=st.booleans(), approve=st.booleans())
def test_the_consent_page_answers_any_query_without_a_fault(client, admin, ledgerly, params, own_client, approve):
    """GET and POST /oauth/authorize under generated queries: a page, an error page or a
    redirect to a registered URI, never a server error (the endpoints' fuzzing is
    tests/api/test_oauth_generated.py's)."""
    if own_client:
        params["client_id"] = ledgerly[0].id
    url = "/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})
    page = client.get(url)
    assert page.status_code in (200, 302, 400), page.get_data(as_text=True)[:300]
    if page.status_code == 302:
        assert redirected_to(page)[0] == REDIRECT
    token = csrf(client, "/console/")  # the session's token: the consent form's is the same
    answer = client.post(url, data={"decision": "approve" if approve else "decline", "csrf_token": token})
    assert answer.status_code in (200, 302, 400), answer.get_data(as_text=True)[:300]
    if answer.status_code == 302:
        assert redirected_to(answer)[0] == REDIRECT


def test_the_consent_page_reads_in_arabic_with_the_app_and_scopes_as_stored(client, admin, ledgerly):
    url = authorize_url(ledgerly[0].id, scope="employees:read payroll:read")
    assert '<html lang="ar" dir="rtl">' in text(client.get(url + "&lang=ar"))  # that page only
    switched = switch_language(client, "ar", page=url)
    assert switched.status_code == 302 and switched.headers["Location"].endswith(url)  # the request, kept whole
    body = text(client.get(url))
    assert '<html lang="ar" dir="rtl">' in body
    assert 'value="approve">موافقة</button>' in body
    assert '<bdi lang="en" dir="ltr">Ledgerly Sync</bdi>' in body
    assert '<code dir="ltr" lang="en">payroll:read</code>' in body and "Read your employees" not in body


@pytest.mark.parametrize("changes,reason", [
    ({"client_id": "app_unknown"}, "غير مسجّل هنا"), ({"client_id": None}, "client_id مفقود أو مكرر"),
    ({"redirect_uri": REDIRECT + "/other"}, "ليس من العناوين التي سجّلها التطبيق"),
    ({"redirect_uri": None}, "ليس من العناوين التي سجّلها التطبيق"),
])
def test_the_consent_pages_refusals_read_in_arabic_with_no_librarys_english(client, admin, ledgerly, changes, reason):
    """Issue 50: the page said Authlib's "The client does not exist on this server." inside
    Arabic text; each refusal it can show is now ours, in the reader's language."""
    page = text(client.get(authorize_url(ledgerly[0].id, **changes), headers={"Accept-Language": "ar"}))
    assert reason in page and "تعذّر عرض طلب هذا التطبيق" in page
    assert not re.search(r"\b(the|client|does|not|exist|server|missing|request)\b", page.split("<main", 1)[-1]
                         .replace("client_id", "").replace("redirect_uri", ""), re.IGNORECASE)
