"""The client package's OAuth helper against the real authorization server (the Flask app
through httpx's WSGI transport, a real database): the URL it makes is one the server's
PKCE check accepts, the exchange and the refresh rotate as the server rules, and a
`Client` on a token the API stops accepting refreshes once and goes on. The consent page
itself is driven in tests/e2e/test_python_client.py."""

import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from app.domain.oauth import apps
from app.domain.oauth.connections import issue_code
from app.models import User

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "src"))
from partner_api import ApiError, Client, OAuthApp, OAuthError  # noqa: E402 (the package's sources, not installed here)

BASE = "http://localhost"  # Authlib accepts plain http on loopback only
REDIRECT = "http://127.0.0.1:8765/cb"


@pytest.fixture
def connected(app, transaction, sandbox, clock):
    """A development app of the sandbox's organisation, as the client package holds it,
    the owner's approval of `asked` (what the consent page would do), and its secret."""
    registered, secret = apps.create_app(sandbox, "Ledgerly", [REDIRECT], ["employees:read", "payroll:read"], clock)
    oauth = OAuthApp(registered.id, secret, REDIRECT, base_url=BASE, transport=httpx.WSGITransport(app=app))
    owner = User.get_by_id(sandbox.sandbox_owner_id)

    def approve(asked, scopes=("employees:read",)):
        challenge = parse_qs(urlsplit(asked.url).query)["code_challenge"][0]
        code = issue_code(registered, owner, sandbox, REDIRECT, scopes, challenge, clock)
        return f"{REDIRECT}?code={code}&state={asked.state}&iss={BASE}"

    return oauth, approve, secret


def test_the_code_is_exchanged_and_a_client_refreshes_when_the_api_stops_its_token(app, connected, sandbox, clock):
    oauth, approve, secret = connected
    asked = oauth.authorization_url(["employees:read"])
    assert asked.url.startswith(f"{BASE}/oauth/authorize?")
    token = oauth.exchange(approve(asked), asked)
    assert token.access_token.startswith("svc_at_") and token.scope == "employees:read"
    kept = []
    client = Client(oauth_token=token, oauth_app=oauth, on_token_refresh=kept.append, base_url=BASE,
                    transport=httpx.WSGITransport(app=app))
    assert client.company().id == sandbox.id and kept == []
    clock.advance(seconds=3601)  # the server's clock: the access token has expired there
    assert len(list(client.employees.list(limit=5))) == 10
    assert len(kept) == 1 and kept[0].refresh_token != token.refresh_token  # rotated, handed on
    assert oauth.refresh(token) == kept[0]  # asked again, the app gives what that refresh token became
    elsewhere = OAuthApp(oauth.client_id, secret, REDIRECT, base_url=BASE,
                         transport=httpx.WSGITransport(app=app))  # another process, which never saw it
    with pytest.raises(OAuthError) as reused:
        elsewhere.refresh(token)  # the first refresh token again: the server ends the connection
    assert reused.value.error == "invalid_grant" and "again" in (reused.value.description or "")
    with pytest.raises(ApiError):
        Client(oauth_token=kept[0], base_url=BASE, transport=httpx.WSGITransport(app=app)).company()


def test_a_verifier_that_is_not_the_authorizations_is_refused(connected):
    oauth, approve, _ = connected
    asked, other = oauth.authorization_url(["employees:read"]), oauth.authorization_url(["employees:read"])
    with pytest.raises(OAuthError) as refused:
        oauth.exchange(approve(asked).replace(asked.state, other.state), other)
    assert refused.value.error == "invalid_grant"
