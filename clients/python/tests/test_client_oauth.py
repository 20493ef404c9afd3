"""The OAuth helper's own rules, against httpx's MockTransport standing in for the
authorization server (tests/api/test_client_oauth_served.py and the e2e test run it
against the real one): PKCE S256 and state in the URL, the callback checked before the
code is spent, a refresh on expiry and once on a refusal, each new token handed on."""

import base64
import hashlib
import threading
import time
from urllib.parse import parse_qs, parse_qsl, urlsplit

import httpx
import pytest

from partner_api import ApiError, Client, OAuthApp, OAuthError, Token

BASE = "http://api.test"
METADATA = {"issuer": BASE, "authorization_endpoint": f"{BASE}/oauth/authorize",
            "token_endpoint": f"{BASE}/oauth/token", "revocation_endpoint": f"{BASE}/oauth/revoke"}


class Server:
    """A token endpoint that rotates: each refresh token works once."""

    def __init__(self):
        self.live_refresh, self.access, self.forms, self.n = "rt_0", {"at_0"}, [], 0
        self.lock, self.refuse_all = threading.Lock(), False

    def __call__(self, request):
        if request.url.path == "/.well-known/oauth-authorization-server":
            return httpx.Response(200, json=METADATA)
        if request.url.path == "/oauth/token":
            assert request.headers["Authorization"] == "Basic " + base64.b64encode(b"app_1:svc_cs_1").decode()
            form = dict(parse_qsl(request.content.decode()))
            with self.lock:
                self.forms.append(form)
                if form["grant_type"] == "refresh_token" and form["refresh_token"] != self.live_refresh:
                    return httpx.Response(400, json={"error": "invalid_grant", "error_description": "reused"})
                time.sleep(0.05)  # long enough for a second thread to arrive while this one refreshes
                self.n += 1
                self.live_refresh, access = f"rt_{self.n}", f"at_{self.n}"
                self.access = {access}
            return httpx.Response(200, json={"access_token": access, "token_type": "Bearer", "expires_in": 3600,
                                             "refresh_token": self.live_refresh, "scope": "employees:read"})
        token = request.headers["Authorization"].removeprefix("Bearer ")
        if token not in self.access or self.refuse_all:
            return httpx.Response(401, json={"code": "unauthenticated", "title": "no", "status": 401})
        return httpx.Response(200, json={"id": "cmp_1", "token": token})


def app_of(server):
    return OAuthApp("app_1", "svc_cs_1", "http://127.0.0.1:8765/cb", base_url=BASE,
                    transport=httpx.MockTransport(server))


def test_the_authorization_url_carries_an_s256_challenge_of_the_verifier_and_a_state():
    asked = app_of(Server()).authorization_url(["employees:read", "payroll:read"])
    query = parse_qs(urlsplit(asked.url).query)
    digest = base64.urlsafe_b64encode(hashlib.sha256(asked.code_verifier.encode()).digest()).rstrip(b"=").decode()
    assert asked.url.startswith(f"{BASE}/oauth/authorize?")
    assert query["code_challenge"] == [digest] and query["code_challenge_method"] == ["S256"]
    assert query["state"] == [asked.state] and query["scope"] == ["employees:read payroll:read"]
    assert query["client_id"] == ["app_1"] and query["redirect_uri"] == ["http://127.0.0.1:8765/cb"]
    assert 43 <= len(asked.code_verifier) <= 128 and len(asked.state) >= 32
    assert app_of(Server()).authorization_url([]).state != asked.state


def test_the_code_is_exchanged_with_its_verifier():
    server = Server()
    app = app_of(server)
    asked = app.authorization_url(["employees:read"])
    token = app.exchange(f"http://127.0.0.1:8765/cb?code=c1&state={asked.state}&iss={BASE}", asked)
    assert token.access_token == "at_1" and token.refresh_token == "rt_1" and not token.expired()
    assert server.forms[-1] == {"grant_type": "authorization_code", "code": "c1", "code_verifier": asked.code_verifier,
                                "redirect_uri": "http://127.0.0.1:8765/cb"}
    assert Token.from_dict(token.to_dict()) == token


@pytest.mark.parametrize("query,error", [
    ("code=c1&state=forged", "state_mismatch"),
    ("code=c1&state={state}&iss=https://evil.example", "issuer_mismatch"),
    ("error=access_denied&error_description=no&state={state}", "access_denied"),
    ("state={state}", "invalid_request"),
])
def test_a_callback_that_cannot_be_trusted_spends_no_code(query, error):
    server = Server()
    app = app_of(server)
    asked = app.authorization_url(["employees:read"])
    with pytest.raises(OAuthError) as refused:
        app.exchange("http://127.0.0.1:8765/cb?" + query.format(state=asked.state), asked)
    assert refused.value.error == error and server.forms == []


def test_an_expired_token_is_refreshed_before_use_and_the_new_one_handed_on():
    server = Server()
    kept = []
    expired = Token("at_0", "rt_0", time.time() - 1, "employees:read")
    client = Client(oauth_token=expired, oauth_app=app_of(server), on_token_refresh=kept.append, base_url=BASE,
                    transport=httpx.MockTransport(server))
    assert client.company().token == "at_1" and client.company().token == "at_1"
    assert [t.refresh_token for t in kept] == ["rt_1"] and len(server.forms) == 1


def test_a_refused_token_is_refreshed_once_and_a_second_refusal_stands():
    server = Server()
    server.access = {"revoked-early"}  # the API refuses at_0 though it has not expired
    kept = []
    client = Client(oauth_token=Token("at_0", "rt_0", time.time() + 3600, ""), oauth_app=app_of(server),
                    on_token_refresh=kept.append, base_url=BASE, transport=httpx.MockTransport(server))
    assert client.company().token == "at_1" and len(kept) == 1
    server.refuse_all = True  # now nothing is accepted: one refresh, then the 401 is the answer
    with pytest.raises(ApiError) as refused:
        client.company()
    assert refused.value.status == 401 and len(kept) == 2


def test_threads_that_find_the_token_expired_together_refresh_it_once():
    server = Server()
    client = Client(oauth_token=Token("at_0", "rt_0", time.time() - 1, ""), oauth_app=app_of(server),
                    base_url=BASE, transport=httpx.MockTransport(server))
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(client.company().token)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == ["at_1"] * 4 and len(server.forms) == 1  # a second refresh would have reused rt_0


def test_a_reused_refresh_token_is_an_oauth_error_saying_connect_again():
    server = Server()
    server.live_refresh = "rt_other"
    with pytest.raises(OAuthError) as refused:
        app_of(server).refresh(Token("at_0", "rt_0", None, ""))
    assert refused.value.error == "invalid_grant"


def test_two_clients_sharing_an_app_and_a_token_spend_its_refresh_token_once():
    """Two Clients (two of a partner's jobs, say) holding the same expired token: the
    second is handed the token the first got, never spends rt_0 again (which would end the
    connection)."""
    server = Server()
    app = app_of(server)
    clients = [Client(oauth_token=Token("at_0", "rt_0", time.time() - 1, ""), oauth_app=app, base_url=BASE,
                      transport=httpx.MockTransport(server)) for _ in range(2)]
    assert [client.company().token for client in clients] == ["at_1", "at_1"]
    assert len(server.forms) == 1
