"""OAuth apps, codes, connections and tokens (app/domain/oauth/): the rules, on a real
database, with the clock moved (never slept)."""

from datetime import timedelta

import pytest

from app.domain.access import companies
from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.access.users import add_membership, get_or_create_user
from app.domain.kernel.errors import NotFound, ValidationFailed
from app.domain.kernel.runtime import Runtime
from app.domain.oauth import apps
from app.domain.oauth.connections import (
    Lifetimes,
    OAuthError,
    connected_apps,
    disconnect_app,
    issue_code,
    load_principal,
    redeem_code,
    refresh,
    revoke_token,
    s256,
)
from app.domain.webhooks import endpoints
from app.domain.webhooks.urls import check_url, parse_networks
from app.models import OAuthConnection, OAuthToken, WebhookEndpoint

VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"  # RFC 7636, appendix B
CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
REDIRECT = "https://partner.example/callback"


def test_the_rfc_7636_appendix_b_vector():
    assert s256(VERIFIER) == CHALLENGE


@pytest.mark.parametrize("uri", [REDIRECT, "https://partner.example:8443/cb?x=1", "http://127.0.0.1:8765/cb",
                                 "http://127.8.9.10/cb", "http://[::1]:9000/cb"])
def test_redirect_uris_that_are_accepted(uri):
    assert apps.clean_redirect_uris([uri]) == [uri]


@pytest.mark.parametrize("uri", ["http://partner.example/cb", "http://localhost:8765/cb", "https://p.example/cb#x",
                                 "https://user:pw@p.example/cb", "ftp://p.example/cb", "/cb", "https://", "",
                                 "https://p.example/" + "a" * 2048, "myapp://callback", 7])
def test_redirect_uris_that_are_refused(uri):
    with pytest.raises(ValidationFailed) as refused:
        apps.clean_redirect_uris([uri])
    assert [path for path, _ in refused.value.errors] == ["redirect_uris.0"]


@pytest.fixture
def world(transaction, clock, runtime, make_sandbox):
    """An organisation with a member whose sandbox a development-mode app may reach, a
    stranger's sandbox, and a live company the member administers."""
    organisation = companies.create_company("Ledgerly", "KW", clock)
    developer = get_or_create_user("dev@ledgerly.example", clock)
    add_membership(developer, organisation, "ceo", clock)
    own = make_sandbox("KW", email="dev@ledgerly.example")
    stranger = make_sandbox("SA", email="someone@else.example")
    live = companies.create_company("Gulf Trading", "AE", clock)
    add_membership(developer, live, "hr_admin", clock)
    app, secret = apps.create_app(organisation, "Ledgerly Sync", [REDIRECT], ["employees:read", "payroll:read"],
                                  clock, created_by=developer)
    return {"app": app, "secret": secret, "developer": developer, "own": own, "stranger": stranger, "live": live}


def approve(world, clock, company=None, scopes=("employees:read", "payroll:read")):
    return issue_code(world["app"], world["developer"], company or world["own"], REDIRECT, scopes, CHALLENGE, clock)


def test_a_new_app_is_in_development_mode_and_its_secret_rotates(world, clock):
    app = world["app"]
    assert app.mode == "development" and world["secret"].startswith("svc_cs_")
    assert apps.authenticate(app.id, world["secret"]) == app
    new = apps.rotate_secret(app.id, clock)
    assert apps.authenticate(app.id, world["secret"]) is None  # the old one stops at once
    assert apps.authenticate(app.id, new) == app and apps.authenticate("app_nope", new) is None
    with pytest.raises(NotFound):
        apps.rotate_secret("app_nope", clock)


def test_development_mode_reaches_its_members_sandboxes_only(world, clock):
    assert approve(world, clock)
    for company in (world["stranger"], world["live"]):
        with pytest.raises(OAuthError) as refused:
            approve(world, clock, company)
        assert refused.value.error in ("unauthorized_client", "access_denied")
    with pytest.raises(OAuthError) as refused:
        approve(world, clock, world["live"])
    assert refused.value.error == "unauthorized_client"
    world["app"] = apps.set_mode(world["app"].id, "production")
    assert approve(world, clock, world["live"])


def test_a_code_gives_tokens_once_within_60_seconds(world, clock, runtime):
    code = approve(world, clock)
    clock.advance(seconds=59)
    tokens = redeem_code(world["app"], code, REDIRECT, VERIFIER, runtime)
    assert tokens.access_token.startswith("svc_at_") and tokens.refresh_token.startswith("svc_rt_")
    assert tokens.expires_in == 3600 and tokens.scopes == ("employees:read", "payroll:read")
    late = approve(world, clock)
    clock.advance(seconds=61)
    with pytest.raises(OAuthError, match="expired") as refused:
        redeem_code(world["app"], late, REDIRECT, VERIFIER, runtime)
    assert refused.value.error == "invalid_grant"


def test_a_second_use_of_a_code_ends_what_the_first_made(world, clock, runtime):
    code = approve(world, clock)
    tokens = redeem_code(world["app"], code, REDIRECT, VERIFIER, runtime)
    with pytest.raises(OAuthError, match="used already"):
        redeem_code(world["app"], code, REDIRECT, VERIFIER, runtime)
    with pytest.raises(Unauthenticated):
        load_principal(hash_secret(tokens.access_token))
    assert OAuthConnection.get_by_id(tokens.connection_id).revoked_reason == "code_reused"


@pytest.mark.parametrize("change,error", [
    ({"redirect_uri": REDIRECT + "/other"}, "invalid_grant"), ({"verifier": "x" * 43}, "invalid_grant"),
    ({"verifier": ""}, "invalid_request"), ({"code": "not-a-code"}, "invalid_grant"),
])
def test_a_redemption_must_match_what_the_code_was_issued_for(world, clock, runtime, change, error):
    code = approve(world, clock)
    given = {"code": code, "redirect_uri": REDIRECT, "verifier": VERIFIER, **change}
    with pytest.raises(OAuthError) as refused:
        redeem_code(world["app"], given["code"], given["redirect_uri"], given["verifier"], runtime)
    assert refused.value.error == error


def test_a_code_of_another_app_is_not_this_apps(world, clock, runtime):
    code = approve(world, clock)
    other, _ = apps.create_app(world["app"].organisation, "Other", [REDIRECT], ["employees:read"], clock)
    with pytest.raises(OAuthError) as refused:
        redeem_code(other, code, REDIRECT, VERIFIER, runtime)
    assert refused.value.error == "invalid_grant"
    assert redeem_code(world["app"], code, REDIRECT, VERIFIER, runtime)  # still unused


def test_a_refresh_rotates_and_a_reused_refresh_token_ends_the_family(world, clock, runtime):
    first = redeem_code(world["app"], approve(world, clock), REDIRECT, VERIFIER, runtime)
    second = refresh(world["app"], first.refresh_token, None, runtime)
    assert second.refresh_token != first.refresh_token and second.connection_id == first.connection_id
    assert load_principal(hash_secret(first.access_token))  # access tokens live their hour
    with pytest.raises(OAuthError, match="used already") as refused:
        refresh(world["app"], first.refresh_token, None, runtime)
    assert refused.value.error == "invalid_grant"
    for token in (first.access_token, second.access_token):
        with pytest.raises(Unauthenticated):
            load_principal(hash_secret(token))
    with pytest.raises(OAuthError):
        refresh(world["app"], second.refresh_token, None, runtime)  # the customer must approve again


def test_a_refresh_may_ask_for_any_granted_scopes_never_more(world, clock, runtime):
    """RFC 6749, 6: an omitted scope is the one originally granted, and a narrower refresh
    does not shrink what later refreshes may ask for."""
    first = redeem_code(world["app"], approve(world, clock, scopes=("employees:read", "payroll:read")), REDIRECT,
                        VERIFIER, runtime)
    with pytest.raises(OAuthError) as refused:
        refresh(world["app"], first.refresh_token, "employees:read webhooks:manage", runtime)
    assert refused.value.error == "invalid_scope"
    narrowed = refresh(world["app"], first.refresh_token, "payroll:read", runtime)  # not used up by the refusal
    assert narrowed.scopes == ("payroll:read",)
    assert load_principal(hash_secret(narrowed.access_token)).scopes == frozenset({"payroll:read"})
    widened = refresh(world["app"], narrowed.refresh_token, "employees:read payroll:read", runtime)
    assert widened.scopes == ("employees:read", "payroll:read")
    narrowed = refresh(world["app"], widened.refresh_token, "employees:read", runtime)
    later = refresh(world["app"], narrowed.refresh_token, None, runtime)
    assert later.scopes == ("employees:read", "payroll:read")
    with pytest.raises(OAuthError, match="never more"):
        refresh(world["app"], later.refresh_token, "webhooks:manage", runtime)


def test_revoking_a_refresh_token_stops_its_access_tokens_and_another_apps_revocation_does_nothing(
        world, clock, runtime):
    tokens = redeem_code(world["app"], approve(world, clock), REDIRECT, VERIFIER, runtime)
    other, _ = apps.create_app(world["app"].organisation, "Other", [REDIRECT], ["employees:read"], clock)
    assert revoke_token(other, tokens.refresh_token, runtime) is False
    assert revoke_token(world["app"], "svc_rt_" + "x" * 40, runtime) is False
    assert load_principal(hash_secret(tokens.access_token))
    assert revoke_token(world["app"], tokens.refresh_token, runtime) is True
    with pytest.raises(Unauthenticated):
        load_principal(hash_secret(tokens.access_token))


def test_revoking_an_access_token_stops_it_alone(world, clock, runtime):
    tokens = redeem_code(world["app"], approve(world, clock), REDIRECT, VERIFIER, runtime)
    assert revoke_token(world["app"], tokens.access_token, runtime)
    with pytest.raises(Unauthenticated):
        load_principal(hash_secret(tokens.access_token))
    assert refresh(world["app"], tokens.refresh_token, None, runtime)


def test_an_access_token_works_until_it_expires(world, clock, runtime):
    tokens = redeem_code(world["app"], approve(world, clock), REDIRECT, VERIFIER, runtime,
                         Lifetimes(access=timedelta(minutes=5)))
    principal = load_principal(hash_secret(tokens.access_token))
    assert principal.kind == "oauth" and principal.credential_id == tokens.connection_id
    assert principal.company.id == world["own"].id and principal.entities
    assert not principal.expired(clock.now())
    clock.advance(minutes=5)
    assert principal.expired(clock.now())  # the API's authenticator refuses it from now


def test_the_customers_revoke_ends_every_connection_of_the_app_and_disables_their_endpoints(world, clock,
                                                                                            runtime):
    told = []
    watching = Runtime(clock, on_credentials_changed=lambda: told.append(1), sealer=runtime.sealer)
    approvals = [redeem_code(world["app"], approve(world, clock), REDIRECT, VERIFIER, runtime) for _ in range(3)]
    [shown] = connected_apps(world["own"].id)
    assert shown.app.id == world["app"].id and shown.connections == 3  # one row per app
    principal = load_principal(hash_secret(approvals[0].access_token))
    target = check_url("https://93.184.215.14/hook", lambda host, port: [host], parse_networks(""))
    endpoint, _ = endpoints.create_endpoint(principal, target, ["employee.updated"], runtime)
    with pytest.raises(NotFound):  # not connected to the stranger: nothing ends
        disconnect_app(world["stranger"].id, world["app"].id, watching)
    assert not told
    disconnect_app(world["own"].id, world["app"].id, watching)
    assert told  # every worker drops its cached principal
    for tokens in approvals:
        with pytest.raises(Unauthenticated):
            load_principal(hash_secret(tokens.access_token))
        assert OAuthToken.select().where(OAuthToken.connection == tokens.connection_id,
                                         OAuthToken.revoked_at.is_null()).count() == 0
    stored = WebhookEndpoint.get_by_id(endpoint.id)
    assert not stored.active and stored.disabled_reason == "connection_revoked"
    assert connected_apps(world["own"].id) == []
    with pytest.raises(NotFound):  # a second click finds nothing left to end
        disconnect_app(world["own"].id, world["app"].id, watching)
    assert isinstance(principal, Principal)
