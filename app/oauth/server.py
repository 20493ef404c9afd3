"""Authlib's authorization server, with grants that hand each decision to the domain."""

from datetime import timedelta

from authlib.common.urls import add_params_to_uri
from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6749 import errors as rfc6749
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import current_app

from app.domain.access.keys import SCOPES
from app.domain.oauth import apps, connections
from app.extensions import runtime

AUTH_METHODS = ["client_secret_post"]  # Contract, Token rules 2, 4 and 7
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
        raise ERRORS[refusal.error](description=refusal.description, redirect_uri=redirect_uri) from None


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
    """RFC 7009: 200 whatever the token (unknown, another client's, already revoked)."""

    CLIENT_AUTH_METHODS = AUTH_METHODS

    def create_endpoint_response(self, request):
        client = self.authenticate_endpoint_client(request)
        self.check_params(request, client)
        connections.revoke_token(client.app, request.form["token"], runtime())
        return 200, {}, [("Content-Type", "application/json"), ("Cache-Control", "no-store")]


def make_server():
    server = AuthorizationServer(query_client=_query_client, save_token=lambda token, request: None)
    server.scopes_supported = list(SCOPES)
    server.register_grant(CodeGrant, [S256Required()])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    return server
