"""`/oauth/token`, `/oauth/revoke` and the RFC 8414 metadata (the consent page,
`/oauth/authorize`, lives with the console's sign-in)."""

from flask import Blueprint, abort, current_app, jsonify, request, url_for

from app.domain.access.keys import SCOPES

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
    return _answered(current_app.extensions["oauth_server"].create_token_response())


@blp.post("/oauth/revoke")
def revoke():
    return _answered(current_app.extensions["oauth_server"].create_endpoint_response("revocation"))


@blp.get("/.well-known/oauth-authorization-server")
def metadata():
    """RFC 8414, for clients that configure themselves."""
    issuer = request.host_url.rstrip("/")
    return jsonify({
        "issuer": issuer,
        "authorization_endpoint": f"{issuer}/oauth/authorize",
        "token_endpoint": url_for("oauth.token", _external=True),
        "revocation_endpoint": url_for("oauth.revoke", _external=True),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "revocation_endpoint_auth_methods_supported": ["client_secret_post"],
        "scopes_supported": list(SCOPES),
    })


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
    if error == "invalid_client":
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Bearer realm="oauth", error="invalid_client"'
    return response


def _error(error, description):
    response = jsonify({"error": error, "error_description": description})
    response.status_code = 400
    return response
