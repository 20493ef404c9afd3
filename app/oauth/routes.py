"""`/oauth/token`, `/oauth/revoke` and the RFC 8414 metadata (the consent page,
`/oauth/authorize`, lives with the console's sign-in).

Every answer of the token and revocation endpoints is Authlib's, in RFC 6749's JSON
(5.2), its errors too: a missing or repeated parameter found here, a body too large,
text no database can store, a wrong method, a fault of ours (`http_error`, which
create_app hands every HTTP error on these paths) are Authlib errors the server renders.
"""

from authlib.oauth2.rfc6749 import errors as rfc6749
from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from app.domain.access.keys import SCOPES
from app.extensions import oauth_server
from app.models.base import write_transaction
from app.oauth.server import AUTH_METHODS, ServerError, describable, issuer
from app.telemetry import log_server_error

blp = Blueprint("oauth", __name__)


@blp.before_request
def preview_only():
    if not current_app.config["OAUTH_PREVIEW"]:
        abort(404)
    repeated = sorted({key for key in request.form if len(request.form.getlist(key)) > 1})
    if repeated:  # RFC 6749, 3.2: no parameter more than once
        return _server().refuse(rfc6749.InvalidRequestError(f"'{describable(repeated[0])}' is repeated"))
    return None


@blp.after_request
def never_stored(response):
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


@blp.post("/oauth/token")
def token():
    if not request.form.get("grant_type"):  # RFC 6749, 5.2: a missing parameter (Authlib says unsupported)
        return _server().refuse(rfc6749.InvalidRequestError(
            "Missing 'grant_type' in request: authorization_code or refresh_token."))
    # One transaction: a code or refresh token is taken, checked and replaced by its
    # tokens together, and a second use at once waits for the first (its row locks).
    with write_transaction():
        return _server().create_token_response()


@blp.post("/oauth/revoke")
def revoke():
    return _server().create_endpoint_response("revocation")


def _server():
    return oauth_server()


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


class _HttpRefusal(rfc6749.InvalidRequestError):
    """An HTTP error of these endpoints (413, 405, ...) as invalid_request, with its status."""

    def __init__(self, exc: HTTPException):
        super().__init__(describable(exc.description or exc.name), status_code=exc.code)

    def get_headers(self):
        headers = super().get_headers()
        return headers + [("Allow", "POST")] if self.status_code == 405 else headers


def http_error(exc: HTTPException) -> Response:
    """An HTTP error of the token or revocation endpoint as RFC 6749 JSON, with its own
    status. A client id no database can hold names no client (invalid_client)."""
    if exc.code is None or exc.code >= 500:
        if not isinstance(getattr(exc, "original_exception", None), BaseException):
            log_server_error()  # an exception's traceback is logged already, once (PartnerFlask.log_exception)
        error: rfc6749.OAuth2Error = ServerError()
    elif getattr(exc, "field", None) == "client_id":  # app/api/request_limits.py: UnstorableField
        error = rfc6749.InvalidClientError(description="Unknown client ID.")
    else:
        error = _HttpRefusal(exc)
    return never_stored(_server().refuse(error))
