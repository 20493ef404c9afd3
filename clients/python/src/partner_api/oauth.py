"""OAuth 2.0 for an app a customer connects: the authorization URL with PKCE (S256) and
`state`, the code exchange, and refreshing with rotation.

    app = OAuthApp(client_id, client_secret, "http://127.0.0.1:8765/cb", base_url=BASE)
    asked = app.authorization_url(["employees:read"])     # send the customer to asked.url
    token = app.exchange(callback_url, asked)              # where the customer came back to
    client = Client(oauth_token=token, oauth_app=app, on_token_refresh=save, base_url=BASE)

Authlib makes the challenge, the URL and the token requests; httpx sends them. Every
refresh token works once (the server rotates it, and a second use ends the connection),
so keep the token `on_token_refresh` hands you, and refresh from one process at a time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
from authlib.common.security import generate_token
from authlib.oauth2.rfc6749.parameters import prepare_grant_uri
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from partner_api._version import VERSION

DEFAULT_BASE_URL = "http://127.0.0.1:8000"  # where `flask --app wsgi serve` listens
LEEWAY = 30.0  # seconds: a token this close to its end is refreshed before it is used
KEPT_REFRESHES = 64  # refresh tokens whose new token is remembered


class OAuthError(Exception):
    """The authorization server said no (RFC 6749's `error`), or the callback could not be
    trusted (`state_mismatch`, `issuer_mismatch`). `invalid_grant` on a refresh means the
    customer must connect the app again."""

    def __init__(self, error: str, description: str | None = None) -> None:
        super().__init__(f"{error}: {description}" if description else error)
        self.error, self.description = error, description


@dataclass(frozen=True)
class Token:
    """What the token endpoint gave: keep it whole (`to_dict()`), read it back with
    `Token.from_dict`."""

    access_token: str
    refresh_token: str | None
    expires_at: float | None  # Unix seconds
    scope: str

    def expired(self, leeway: float = LEEWAY) -> bool:
        return self.expires_at is not None and self.expires_at - leeway <= time.time()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Token:
        return cls(str(data["access_token"]), data.get("refresh_token"), data.get("expires_at"),
                   str(data.get("scope", "")))

    @classmethod
    def _answered(cls, body: Mapping[str, Any]) -> Token:
        expires_in = body.get("expires_in")
        return cls(str(body["access_token"]), body.get("refresh_token"),
                   time.time() + float(expires_in) if expires_in is not None else None, str(body.get("scope", "")))


@dataclass(frozen=True)
class Authorization:
    """One request for consent: send the customer to `url`; keep `state` and
    `code_verifier` (in their session) until they come back."""

    url: str
    state: str
    code_verifier: str


class OAuthApp:
    """A registered app (its client id, secret and one of its redirect URIs) against one
    server, whose endpoints come from its metadata (RFC 8414)."""

    def __init__(self, client_id: str, client_secret: str, redirect_uri: str, *, base_url: str = DEFAULT_BASE_URL,
                 timeout: float = 30.0, transport: httpx.BaseTransport | None = None) -> None:
        self.client_id, self.redirect_uri = client_id, redirect_uri
        self._http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, transport=transport,
                                  auth=httpx.BasicAuth(client_id, client_secret),
                                  headers={"User-Agent": f"partner-api-client/{VERSION}"})
        self._metadata: dict[str, Any] | None = None
        self._refreshing = threading.Lock()
        # Each refresh token's new token: a second caller with the same token (two Clients
        # sharing this app, say) gets it, and never spends the refresh token again.
        self._refreshed: dict[str, Token] = {}

    def metadata(self) -> dict[str, Any]:
        """The server's `/.well-known/oauth-authorization-server`, asked once."""
        if self._metadata is None:
            answer = self._http.get("/.well-known/oauth-authorization-server", auth=None)
            answer.raise_for_status()
            self._metadata = dict(answer.json())
        return self._metadata

    def authorization_url(self, scopes: Sequence[str], *, state: str | None = None) -> Authorization:
        """Where to send the customer: the consent page, asking for `scopes`, with a fresh
        PKCE verifier (S256) and `state`."""
        verifier, state = generate_token(64), state or generate_token(32)
        url = prepare_grant_uri(self.metadata()["authorization_endpoint"], client_id=self.client_id,
                                response_type="code", redirect_uri=self.redirect_uri, scope=" ".join(scopes),
                                state=state, code_challenge=create_s256_code_challenge(verifier),
                                code_challenge_method="S256")
        return Authorization(url, state, verifier)

    def exchange(self, callback_url: str, authorization: Authorization) -> Token:
        """The tokens for the code the customer came back with. Refuses a callback whose
        `state` is not this authorization's, or whose `iss` is another server's (RFC 9207);
        a declined consent raises `OAuthError("access_denied")`."""
        answer = dict(parse_qsl(urlsplit(callback_url).query))
        if answer.get("state") != authorization.state:
            raise OAuthError("state_mismatch", "the callback's state is not the one this authorization sent")
        if "iss" in answer and answer["iss"] != self.metadata()["issuer"]:
            raise OAuthError("issuer_mismatch", f"the callback came from {answer['iss']!r}")
        if "error" in answer:
            raise OAuthError(answer["error"], answer.get("error_description"))
        if "code" not in answer:
            raise OAuthError("invalid_request", "the callback has no code")
        return self._token({"grant_type": "authorization_code", "code": answer["code"],
                            "redirect_uri": self.redirect_uri, "code_verifier": authorization.code_verifier})

    def refresh(self, token: Token) -> Token:
        """A new token for `token`'s refresh token, which then stops working. One refresh at
        a time per app object, and one per refresh token: asked again with a token it has
        refreshed (two Clients sharing this app), it gives the new token it got (a refresh
        token spent twice would end the connection)."""
        if not token.refresh_token:
            raise OAuthError("invalid_grant", "this token has no refresh token")
        with self._refreshing:
            if token.refresh_token in self._refreshed:
                return self._refreshed[token.refresh_token]
            fresh = self._token({"grant_type": "refresh_token", "refresh_token": token.refresh_token})
            self._refreshed[token.refresh_token] = fresh
            while len(self._refreshed) > KEPT_REFRESHES:
                del self._refreshed[next(iter(self._refreshed))]
            return fresh

    def revoke(self, token: Token) -> None:
        """Ends the connection (RFC 7009): its refresh token, and with it every token of it."""
        self._http.post(self.metadata()["revocation_endpoint"],
                        data={"token": token.refresh_token or token.access_token}).raise_for_status()

    def _token(self, form: Mapping[str, str]) -> Token:
        answer = self._http.post(self.metadata()["token_endpoint"], data=dict(form))
        try:
            body = answer.json()
        except ValueError:
            body = {}
        if answer.status_code != 200 or not isinstance(body, dict) or "access_token" not in body:
            error = body.get("error", "server_error") if isinstance(body, dict) else "server_error"
            description = body.get("error_description") if isinstance(body, dict) else None
            raise OAuthError(error, description or f"the token endpoint answered {answer.status_code}")
        return Token._answered(body)

    def close(self) -> None:
        self._http.close()
