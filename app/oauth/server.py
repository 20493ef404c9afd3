"""Authlib's authorization server, with grants that hand each decision to the domain."""

from datetime import timedelta

from authlib.common.urls import add_params_to_uri
from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6749 import errors as rfc6749
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc9207 import IssuerParameter
from flask import current_app
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


class Client(ClientMixin):
    """An app as Authlib asks about it."""

    def __init__(self, app):
        self.app = app

    def get_client_id(self):
        return self.app.id

    def get_default_redirect_uri(self):
        return None  # redirect_uri is always sent, and must match exactly

    def get_allowed_scope(self, scope):
        """The scope asked for if the app may ask for all of it (all the app's when none
        is named); None (invalid_scope) if it reaches beyond."""
        asked, allowed = (scope or "").split(), self.app.scopes.split()
        return " ".join(asked or allowed) if all(s in allowed for s in asked) else None

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


def _query_client(client_id):
    app = apps.find_app(client_id)
    return Client(app) if app is not None else None


def lifetimes():
    config = current_app.config
    return connections.Lifetimes(access=timedelta(seconds=config["OAUTH_ACCESS_TOKEN_SECONDS"]),
                                 refresh=timedelta(seconds=config["OAUTH_REFRESH_TOKEN_SECONDS"]))


def decided(action, *args, redirect_uri=None):
    """The domain's answer, its refusals as Authlib's errors (sent back to the client's
    redirect URI when it is known)."""
    try:
        return action(*args)
    except connections.OAuthError as refusal:
        raise ERRORS[refusal.error](description=describable(refusal.description), redirect_uri=redirect_uri) from None


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
    """PKCE for every client, public or confidential, and S256 only: Authlib's own
    CodeChallenge(required=True) asks it of public clients alone and accepts `plain`.
    A missing challenge, or any other method, is invalid_request."""

    DEFAULT_CODE_CHALLENGE_METHOD = "S256"
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise rfc6749.InvalidRequestError("code_challenge is required: PKCE with S256", redirect_uri=redirect_uri)
        if data.get("code_challenge_method") != "S256":
            raise rfc6749.InvalidRequestError("code_challenge_method must be S256", redirect_uri=redirect_uri)
        super().validate_code_challenge(grant, redirect_uri)


def token_body(tokens):
    return {"access_token": tokens.access_token, "token_type": "Bearer", "expires_in": tokens.expires_in,
            "refresh_token": tokens.refresh_token, "scope": " ".join(tokens.scopes)}


def _required(request, *names):
    for name in names:
        if not request.form.get(name):
            raise rfc6749.InvalidRequestError(f"Missing '{name}' in request.")


class CodeGrant(grants.AuthorizationCodeGrant):
    """`grant_type=authorization_code`: the code, checked and used up in one transaction
    by the domain (connections.redeem_code)."""

    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS

    def validate_token_request(self):
        client = self.authenticate_token_endpoint_client()
        _required(self.request, "code", "redirect_uri", "code_verifier")
        self.request.client = client

    def create_authorization_response(self, redirect_uri, grant_user):
        """`grant_user`: (user, company) when approved, None when declined, (user, None)
        when the user manages no company the app may reach. The code is the domain's
        (connections.issue_code)."""
        if not grant_user:
            raise rfc6749.AccessDeniedError(redirect_uri=redirect_uri)
        user, company = grant_user
        if company is None:
            raise rfc6749.UnauthorizedClientError("the user manages no company this app may connect to",
                                                  redirect_uri=redirect_uri)
        app, payload = self.request.client.app, self.request.payload
        scopes = decided(connections.requested_scopes, app, payload.scope, redirect_uri=redirect_uri)
        code = decided(connections.issue_code, app, user, company, redirect_uri, scopes,
                       payload.data["code_challenge"], runtime(), redirect_uri=redirect_uri)
        params = [("code", code)] + ([("state", payload.state)] if payload.state else [])
        return 302, "", [("Location", add_params_to_uri(redirect_uri, params))]

    def create_token_response(self):
        form = self.request.form
        tokens = decided(connections.redeem_code, self.request.client.app, form["code"], form["redirect_uri"],
                         form["code_verifier"], runtime(), lifetimes())
        return 200, token_body(tokens), self.TOKEN_RESPONSE_HEADER


class RefreshGrant(grants.RefreshTokenGrant):
    """`grant_type=refresh_token`: rotation and reuse detection are the domain's
    (connections.refresh)."""

    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS

    def validate_token_request(self):
        client = self.authenticate_token_endpoint_client()
        _required(self.request, "refresh_token")
        self.request.client = client

    def create_token_response(self):
        form = self.request.form
        tokens = decided(connections.refresh, self.request.client.app, form["refresh_token"], form.get("scope"),
                         runtime(), lifetimes())
        return 200, token_body(tokens), self.TOKEN_RESPONSE_HEADER


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


ISSUER = Issuer()


class Server(AuthorizationServer):
    """Authlib's server, and what the consent page asks of it beyond Authlib's flow."""

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
    server = Server(query_client=_query_client, save_token=lambda token, request: None)
    server.scopes_supported = list(SCOPES)
    server.register_grant(CodeGrant, [S256Required()])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    server.register_extension(ISSUER)
    return server
