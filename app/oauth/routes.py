"""`/oauth/token`, `/oauth/revoke` and the RFC 8414 metadata (the consent page,
`/oauth/authorize`, lives with the console's sign-in).

Every answer of the token and revocation endpoints is RFC 6749 JSON (5.2), their
errors too: a body too large, text no database can store, a wrong method, a fault of
ours (`http_error`, which create_app hands every HTTP error on these paths).
"""

import logging

from flask import Blueprint, Response, abort, current_app, g, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from app.domain.access.keys import SCOPES
from app.oauth.server import AUTH_METHODS, describable, issuer
from app.telemetry import route_of

log = logging.getLogger(__name__)

blp = Blueprint("oauth", __name__)


@blp.before_request
def preview_only():
    if not current_app.config["OAUTH_PREVIEW"]:
        abort(404)
    repeated = sorted({key for key in request.form if len(request.form.getlist(key)) > 1})
    if repeated:  # RFC 6749, 3.2: no parameter more than once
        return _error("invalid_request", f"'{repeated[0]}' is repeated")
    return None


@blp.after_request
def never_stored(response):
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


@blp.post("/oauth/token")
def token():
    if not request.form.get("grant_type"):  # RFC 6749, 5.2: a missing parameter
        return _error("invalid_request", "Missing 'grant_type' in request: authorization_code or refresh_token.")
    return _answered(current_app.extensions["oauth_server"].create_token_response())


@blp.post("/oauth/revoke")
def revoke():
    return _answered(current_app.extensions["oauth_server"].create_endpoint_response("revocation"))


@blp.get("/.well-known/oauth-authorization-server")
def metadata():
    """RFC 8414, for clients that configure themselves."""
    return jsonify({
        "issuer": issuer(),
        "authorization_endpoint": f"{issuer()}/oauth/authorize",
        "token_endpoint": url_for("oauth.token", _external=True),
        "revocation_endpoint": url_for("oauth.revoke", _external=True),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": AUTH_METHODS,
        "revocation_endpoint_auth_methods_supported": AUTH_METHODS,
        "scopes_supported": list(SCOPES),
        "authorization_response_iss_parameter_supported": True,  # RFC 9207
    })


ENDPOINT_PATHS = ("/oauth/token", "/oauth/revoke")


def http_error(exc: HTTPException) -> Response:
    """An HTTP error of the token or revocation endpoint as RFC 6749 JSON, with its own
    status. A client id no database can hold names no client (invalid_client)."""
    if exc.code is None or exc.code >= 500:
        original = getattr(exc, "original_exception", None)
        log.error("oauth error request_id=%s %s %s", g.get("request_id"), request.method, route_of(),
                  exc_info=original if isinstance(original, BaseException) else None)
        response = _error("server_error", "The server failed; it is logged. Try again with backoff.")
        response.status_code = 500
    elif getattr(exc, "field", None) == "client_id":  # app/api/request_limits.py: UnstorableField
        return _invalid_client("Unknown client ID.")
    else:
        response = _error("invalid_request", describable(exc.description or exc.name))
        response.status_code = exc.code
        if exc.code == 405:
            response.headers["Allow"] = "POST"
    return never_stored(response)


# The contract's OAuth error table, for an error Authlib leaves without a description.
DESCRIPTIONS = {
    "invalid_request": "A parameter is missing or repeated, or the redirect URI does not exactly match a "
                       "registered one.",
    "invalid_client": "Unknown client ID or wrong secret.",
    "invalid_grant": "The code or refresh token is expired, used, revoked or issued to another client or redirect "
                     "URI, or the PKCE verifier does not match.",
    "invalid_scope": "The scope does not exist, or exceeds what the app requested or the connection was granted.",
    "unauthorized_client": "The app may not connect to this company.",
    "unsupported_grant_type": "grant_type must be authorization_code or refresh_token.",
}


def _answered(response):
    """Every error with its description; an unknown client or a wrong secret is 401
    (RFC 6749, 5.2)."""
    body = response.get_json(silent=True) or {}
    error = body.get("error")
    if error is None:
        return response
    if not body.get("error_description"):
        response.set_data(jsonify({**body, "error_description": DESCRIPTIONS.get(error, error)}).get_data())
    return _unauthorized(response) if error == "invalid_client" else response


def _invalid_client(description):
    return never_stored(_unauthorized(_error("invalid_client", description)))


def _unauthorized(response):
    """invalid_client is 401, with the challenge of the scheme clients may use (RFC 6749, 5.2)."""
    response.status_code = 401
    response.headers["WWW-Authenticate"] = 'Basic realm="oauth", error="invalid_client"'
    return response


def _error(error, description):
    response = jsonify({"error": error, "error_description": description})
    response.status_code = 400
    return response
