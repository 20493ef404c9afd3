"""Authlib's authorization server, run through Authlib's own flow, with storage from the
domain (app/domain/oauth/connections.py), as Authlib's Flask integration expects.

- The consent page (app/console/oauth.py) asks `get_consent_grant`, then
  `create_authorization_response`; `save_authorization_code` stores the code through
  the domain, which judges the approval (the company, the app's mode, PKCE).
- `/oauth/token` runs in one write transaction (app/oauth/routes.py). A code:
  `query_authorization_code` takes it (single use, whatever comes of it); Authlib checks
  the redirect URI and, through `S256Required`, the PKCE verifier; `save_token` makes
  the connection and stores its tokens. A refresh: `authenticate_refresh_token` reads
  the token under its connection's row lock (a reuse ends the family); Authlib checks
  the scope against the grant; `save_token` stores the next tokens and
  `revoke_old_credential` uses the presented one up.
- Every refusal is one of Authlib's error classes, in RFC 6749's shape: `Server`
  fills in a description Authlib leaves empty and answers invalid_client with 401.
"""

import base64
import binascii
from datetime import timedelta

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import AuthorizationCodeMixin, ClientMixin, grants
from authlib.oauth2.rfc6749 import errors as rfc6749
from authlib.oauth2.rfc6749.authenticate_client import authenticate_client_secret_basic
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc9207 import IssuerParameter
from flask import Response, current_app
from flask import request as flask_request

from app.domain.access.keys import SCOPES
from app.domain.oauth import apps, connections
from app.extensions import runtime

# Contract, Token rules 2, 4 and 7 send the secret in the form; RFC 6749, 2.3.1 asks every
# server to take HTTP Basic too, and most clients (Authlib's, requests-oauthlib's) send it.
AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
ERRORS = {
    "invalid_request": rfc6749.InvalidRequestError,
    "invalid_client": rfc6749.InvalidClientError,
    "invalid_grant": rfc6749.InvalidGrantError,
    "invalid_scope": rfc6749.InvalidScopeError,
    "unauthorized_client": rfc6749.UnauthorizedClientError,
    "access_denied": rfc6749.AccessDeniedError,
}
# The contract's OAuth error table, for an error Authlib raises without a description.
DESCRIPTIONS = {
    "invalid_request": "A parameter is missing or repeated, or the redirect URI does not exactly match a "
                       "registered one.",
    "invalid_client": "Unknown client ID or wrong secret.",
    "invalid_grant": "The code or refresh token is expired, used, revoked or issued to another client or redirect "
                     "URI, or the PKCE verifier does not match.",
    "invalid_scope": "The scope does not exist, or exceeds what the app requested or the connection was granted.",
    "unauthorized_client": "The app may not connect to this company.",
    "unsupported_grant_type": "grant_type must be authorization_code or refresh_token.",
    "access_denied": "The customer declined.",
    "server_error": "The server failed; it is logged. Try again with backoff.",
}


class Client(ClientMixin):
    """An app as Authlib asks about it."""

    def __init__(self, app):
        self.app = app

    def get_client_id(self):
        return self.app.id

    def get_default_redirect_uri(self):
        return None  # redirect_uri is always sent, and must match exactly

    def get_allowed_scope(self, scope):
        """The scopes asked for, in the contract's order (all the app's when none are
        named), if the app may ask for them; None (invalid_scope) if they reach beyond."""
        try:
            return " ".join(connections.requested_scopes(self.app, scope))
        except connections.OAuthError:
            return None

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in apps.redirect_uris_of(self.app)

    def check_client_secret(self, client_secret):
        return apps.secret_matches(self.app, client_secret)  # the app is loaded already: no second query

    def check_endpoint_auth_method(self, method, endpoint):
        return method in AUTH_METHODS

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in ("authorization_code", "refresh_token")


def _client_secret_basic(query_client, request):
    """Authlib's `client_secret_basic`, but credentials that are not UTF-8 once decoded
    (`app_x\\xff:secret`) authenticate no client (invalid_client, 401): Authlib decodes
    them with no thought that they may not be, and would raise."""
    if not basic_credentials_readable(request.headers.get("Authorization")):
        return None
    return authenticate_client_secret_basic(query_client, request)


def basic_credentials_readable(header: str | None) -> bool:
    """Whether an `Authorization: Basic` header's credentials are text Authlib can read
    (or the header is not Basic at all: that is for another method to judge)."""
    parts = (header or "").split(None, 1)
    if not parts or parts[0].lower() != "basic":
        return True
    if len(parts) != 2:  # "Basic" and only a space Python takes for one (\xa0): Authlib would fail to unpack it
        return False
    try:
        base64.b64decode(parts[1]).decode("utf-8")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return False
    return True


def _query_client(client_id):
    app = apps.find_app(client_id)
    return Client(app) if app is not None else None


def lifetimes() -> connections.Lifetimes:
    config = current_app.config
    return connections.Lifetimes(access=timedelta(seconds=config["OAUTH_ACCESS_TOKEN_SECONDS"]),
                                 refresh=timedelta(seconds=config["OAUTH_REFRESH_TOKEN_SECONDS"]))


def decided(action, *args, redirect_uri=None, **kwargs):
    """The domain's answer, its refusals as Authlib's errors (sent back to the client's
    redirect URI when it is known)."""
    try:
        return action(*args, **kwargs)
    except connections.OAuthError as refusal:
        raise ERRORS[refusal.error](description=describable(refusal.description),
                                    redirect_uri=redirect_uri) from None


def describable(text: str) -> str:
    """`text` as an `error_description` may carry it (RFC 6749, 5.2: printable ASCII but
    `"` and `\\`): what a client sent may be quoted in it."""
    return "".join(ch if ch not in '"\\' and " " <= ch <= "~" else "?" for ch in text)


def issuer() -> str:
    """This server's identifier (RFC 8414 `issuer`, RFC 9207 `iss`): its own origin."""
    return flask_request.host_url.rstrip("/")


class Issuer(IssuerParameter):
    """RFC 9207: every authorization response, errors included, names the issuer."""

    def get_issuer(self):
        return issuer()

    def add_to(self, server, response):
        self.add_issuer_parameter(server, response)
        return response


class S256Required(CodeChallenge):
    """PKCE as the domain rules it: for every client, public or confidential, S256 only
    (`connections.check_challenge`; Authlib's own asks it of public clients alone and
    accepts `plain`), the verifier compared in constant time
    (`connections.verifier_matches`)."""

    DEFAULT_CODE_CHALLENGE_METHOD = "S256"
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]
    CODE_CHALLENGE_METHODS = {"S256": connections.verifier_matches}

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        decided(connections.check_challenge, data.get("code_challenge"), data.get("code_challenge_method"),
                redirect_uri=redirect_uri)
        super().validate_code_challenge(grant, redirect_uri)  # each given once

    def get_authorization_code_challenge_method(self, authorization_code):
        return "S256"


class Code(AuthorizationCodeMixin):
    """A code as its redemption took it (`connections.take_code`), as Authlib reads it."""

    def __init__(self, taken: connections.TakenCode):
        self.taken = taken
        self.code_challenge = taken.code_challenge

    def get_redirect_uri(self):
        return self.taken.redirect_uri

    def get_scope(self):
        return " ".join(self.taken.scopes)


class PresentedRefresh:
    """A refresh token under its connection's lock (`connections.present_refresh`), as
    Authlib reads it: its scope is what the customer granted (RFC 6749, 6)."""

    def __init__(self, presented: connections.PresentedRefresh):
        self.presented = presented

    def check_client(self, client):
        return client.get_client_id() == self.presented.app_id

    def get_scope(self):
        return " ".join(self.presented.granted)


class CodeGrant(grants.AuthorizationCodeGrant):
    """`grant_type=authorization_code`, and the code the consent page's approval makes."""

    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS

    def generate_authorization_code(self):
        return connections.new_code()

    def save_authorization_code(self, code, request):
        """`request.user`: (user, company) when approved, (user, None) when the user
        manages no company the app may reach (unauthorized_client)."""
        user, company = request.user
        redirect_uri = request.payload.redirect_uri
        if company is None:
            raise rfc6749.UnauthorizedClientError("the user manages no company this app may connect to",
                                                  redirect_uri=redirect_uri)
        decided(connections.issue_code, request.client.app, user, company, redirect_uri, request.scope.split(),
                request.payload.data.get("code_challenge"), runtime(), code=code, redirect_uri=redirect_uri)

    def query_authorization_code(self, code, client):
        """The code, taken for this redemption: used up whatever comes of it (a wrong
        redirect URI or verifier included). A request missing a parameter takes nothing."""
        for name in ("redirect_uri", "code_verifier"):
            if not self.request.form.get(name):
                raise rfc6749.InvalidRequestError(f"Missing '{name}' in request.")
        return Code(decided(connections.take_code, client.app, code, runtime()))

    def delete_authorization_code(self, authorization_code):
        """Nothing left to do: the code was used up when it was taken."""

    def authenticate_user(self, authorization_code):
        return authorization_code.taken.user_id


class RefreshGrant(grants.RefreshTokenGrant):
    """`grant_type=refresh_token`: rotation, and reuse detection that ends the family."""

    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token):
        return PresentedRefresh(decided(connections.present_refresh, self.request.client.app, refresh_token,
                                        runtime()))

    def authenticate_user(self, refresh_token):
        return refresh_token.presented.granted_by or refresh_token.presented.connection_id

    def revoke_old_credential(self, refresh_token):
        decided(connections.use_refresh, refresh_token.presented, runtime())


def _save_token(token, request):
    """Authlib's new tokens: a code's make its connection, a refresh's join theirs."""
    scopes = token.get("scope", "").split()
    if isinstance(request.refresh_token, PresentedRefresh):
        connections.store_tokens(request.refresh_token.presented.connection_id, token["access_token"],
                                 token["refresh_token"], scopes, runtime(), lifetimes())
    else:
        connections.connect(request.authorization_code.taken, token["access_token"], token["refresh_token"], scopes,
                            runtime(), lifetimes())


def _token_generator():
    return BearerTokenGenerator(
        access_token_generator=lambda **_: connections.new_access_token(),
        refresh_token_generator=lambda **_: connections.new_refresh_token(),
        expires_generator=lambda client, grant_type: int(lifetimes().access.total_seconds()))


class Revocation(RevocationEndpoint):
    """RFC 7009: 200 whatever the token (unknown, another client's, already revoked).
    `token_type_hint` is only a hint (2.1): every kind is looked up whatever it says."""

    CLIENT_AUTH_METHODS = AUTH_METHODS

    def check_params(self, request, client):
        if not request.form.get("token"):
            raise rfc6749.InvalidRequestError("Missing 'token' in request.")

    def create_endpoint_response(self, request):
        client = self.authenticate_endpoint_client(request)
        self.check_params(request, client)
        connections.revoke_token(client.app, request.form["token"], runtime())
        return 200, {}, [("Content-Type", "application/json"), ("Cache-Control", "no-store")]


class ServerError(rfc6749.OAuth2Error):
    """RFC 6749, 4.1.2.1 and 5.2 name it for the authorization endpoint; the token and
    revocation endpoints answer a fault of ours with it too, in the same JSON."""

    error = "server_error"
    status_code = 500


ISSUER = Issuer()


class Server(AuthorizationServer):
    """Authlib's server, and what the consent page asks of it beyond Authlib's flow."""

    def handle_error_response(self, request, error):
        """Every refusal with a description a client may quote (the contract's words
        where Authlib gives none); invalid_client is 401, with the Basic challenge
        (RFC 6749, 5.2)."""
        error.description = describable(error.description or DESCRIPTIONS.get(error.error, error.error))
        if error.error == "invalid_client":
            error.status_code = 401
        return super().handle_error_response(request, error)

    def refuse(self, error: rfc6749.OAuth2Error) -> Response:
        """An error this server finds before Authlib's flow (a missing or repeated
        parameter, an HTTP error), answered the same way."""
        return self.handle_error_response(None, error)

    def get_consent_grant(self, request=None, end_user=None):
        """Authlib's consent grant. A `redirect_uri` or `response_type` holding what an
        error description cannot (Authlib quotes both in its own) is refused first: such a
        URI is never registered (apps.URI_CHARACTER), and such a type is not `code`."""
        args = flask_request.args
        if describable(args.get("redirect_uri", "")) != args.get("redirect_uri", ""):
            raise rfc6749.InvalidRequestError("redirect_uri is not one of the app's registered redirect URIs")
        response_type = args.get("response_type", "")
        if describable(response_type) != response_type:
            raise rfc6749.UnsupportedResponseTypeError(describable(response_type), state=args.get("state"),
                                                       description="response_type must be code")
        return super().get_consent_grant(request, end_user)

    def send_back(self, error):
        """The redirect that tells the app of `error` (with `state` and `iss`) once its
        client and redirect URI are known to be valid, even when Authlib refused before
        it checked them (a repeated `state`); None when they are not: the user is shown
        the error and not redirected (RFC 6749, 4.1.2.1)."""
        target = error.redirect_uri or _registered_redirect_uri()
        if not target:
            return None
        error.redirect_uri = target
        return ISSUER.add_to(self, self.handle_error_response(None, error))


def _registered_redirect_uri():
    """The request's redirect_uri if it and client_id are each given once and the URI is
    registered for that app; otherwise None."""
    args = flask_request.args
    client_ids, uris = args.getlist("client_id"), args.getlist("redirect_uri")
    if len(client_ids) != 1 or len(uris) != 1:
        return None
    client = _query_client(client_ids[0])
    return uris[0] if client is not None and client.check_redirect_uri(uris[0]) else None


def make_server():
    server = Server(query_client=_query_client, save_token=_save_token)
    server.register_client_auth_method("client_secret_basic", _client_secret_basic)
    server.scopes_supported = list(SCOPES)
    server.register_token_generator("default", _token_generator())
    server.register_grant(CodeGrant, [S256Required()])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    server.register_extension(ISSUER)
    return server
