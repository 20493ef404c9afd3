"""Who is calling, and may they: one guard in front of every /v1 operation.

Order of checks (each failure answers at once): the operation's release is live
(else 404), the bearer credential (401), the company has the Partner API on (403
`api_not_enabled`), the credential's rate limit (429), the operation's scope (403
`insufficient_scope`), then no query parameter the operation does not take, and none
given twice (400). Views declare their contract name, release and scope with `@operation`,
which also makes every POST honour `Idempotency-Key` (app/api/idempotency.py).
"""

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Request, Response, current_app, g, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_smorest import Blueprint

from app.api.idempotency import idempotent
from app.api.principal_cache import authenticator
from app.api.problems import PROBLEM_MIMETYPE, ApiProblem
from app.api.schemas import ProblemSchema
from app.domain.access.principal import Principal, Unauthenticated
from app.domain.credentials import Bearer, identify
from app.extensions import beyond_contract, runtime
from app.models import Company
from config import ADDITIONS, ALL_RELEASES, ConfigurationError

ViewFunction = Callable[..., Any]
ERROR_DESCRIPTIONS = {
    400: "Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`).",
    401: "Missing, malformed, revoked or wrong-environment key (`unauthenticated`).",
    403: "Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`).",
    404: "No such resource in this company (`not_found`), or this operation's release is not live yet.",
    409: "Conflicts with the current state (`conflict`).",
    413: "More than 500 events or a body over 1 MB (`payload_too_large`).",
    422: "Well-formed JSON that fails validation (`validation_failed`).",
    429: "Too many requests (`rate_limited`); see Retry-After.",
}
# Every operation may answer these, whatever its own errors: a query parameter it does
# not take, and 404 while its release is not live.
ALWAYS = {400: "Unknown or repeated query parameter (`invalid_request`).",
          404: "This operation's release is not live yet (`not_found`)."}


def operation(blp: Blueprint, operation_id: str, *, release: str, scope: str | tuple[str, ...] | None = None,
              errors: Iterable[int] = (401, 403, 429)) -> Callable[[ViewFunction], ViewFunction]:
    """Declare a view method's contract name, release and scope (or scopes, any one of
    which will do), and document its errors."""
    scopes = (scope,) if isinstance(scope, str) else tuple(scope or ())

    def decorator(func: Any) -> ViewFunction:  # Any: the operation's attributes are set on it below
        # The problems it may answer, written into the view's doc (flask-smorest's `_apidoc`,
        # as `alt_response` writes them) at once: one `alt_response` per status would wrap
        # the view again each time and deep-copy its doc, schemas and all, a fifth of
        # every process's start (the CLI's too).
        responses = func.__dict__.setdefault("_apidoc", {}).setdefault("response", {}).setdefault("responses", {})
        for status in sorted({*errors, *ALWAYS}):
            description = ERROR_DESCRIPTIONS[status] if status in errors else ALWAYS[status]
            responses.setdefault(status, []).append({"schema": ProblemSchema, "description": description,
                                                     "content_type": PROBLEM_MIMETYPE})
        who = f"Scope: {' or '.join(f'`{name}`' for name in scopes)}." if scopes else "Any valid key."
        if func.__name__ == "post":  # every POST takes an Idempotency-Key (v1.3)
            func = idempotent(func)
        func = blp.doc(operationId=operation_id, description=f"{who} Release {release}.",
                       security=[{"bearerAuth": []}], **{"x-release": release})(func)
        func.operation_id, func.release, func.scopes = operation_id, release, scopes
        func.query_names = _query_names(func)
        func.added_query_names = _query_names(func, release=ADDITIONS)
        return func

    return decorator


def _query_names(view: ViewFunction, release: str | None = None) -> frozenset[str]:
    """The query parameters a view declares with `@blp.arguments(..., location="query")`
    (with `release`, only those whose field says it brought them: `x-release`)."""
    names: set[str] = set()
    for argument in getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", ()):
        if argument["in"] == "query":
            schema = argument["schema"]() if isinstance(argument["schema"], type) else argument["schema"]
            names.update(field.data_key or name for name, field in schema.fields.items()
                         if release is None or field.metadata.get("x-release") == release)
    return frozenset(names)


def refuse_unknown_or_repeated_query(op: Any) -> None:
    """A typo (`?stauts=left`) or a parameter the operation does not have
    (`?modified_after=`, or v1.3's `updated_since` while v1.3 is not live) would
    silently return the whole list: name it instead."""
    names = op.query_names if additions_live() else op.query_names - op.added_query_names
    for name, values in request.args.lists():
        if name not in names:
            known = ", ".join(f"`{known}`" for known in sorted(names)) or "none"
            raise ApiProblem("invalid_request", f"Unknown query parameter `{name}` (this operation takes {known}).")
        if len(values) > 1:
            raise ApiProblem("invalid_request", f"The query parameter `{name}` is given {len(values)} times; "
                                                "give it once.")


def _operation_of_request() -> Any:
    """The view method serving this request, which carries `release` and `scope`."""
    found = _operations.get((request.endpoint, request.method), False)
    if found is False:
        view = current_app.view_functions.get(request.endpoint) if request.endpoint is not None else None
        view_class = getattr(view, "view_class", None)
        method = "get" if request.method == "HEAD" else request.method.lower()
        found = _operations[(request.endpoint, request.method)] = (
            getattr(view_class, method, None) if view_class else None
        )
    return found


# (endpoint, HTTP method) -> view method or None; routes are fixed at start
_operations: dict[tuple[str | None, str], Any] = {}


_SEND_A_KEY = ("Send `Authorization: Bearer <API key>` with a valid key of this environment (svc_live_ for live "
               "companies, svc_test_ for sandboxes)")
KEY_REFUSED = _SEND_A_KEY + "."
KEY_OR_TOKEN_REFUSED = _SEND_A_KEY + ", or a valid OAuth access token."
TOKEN_REFUSED = ("This OAuth access token is unknown, expired or revoked. Get a new one with your refresh token "
                 "(POST /oauth/token, grant_type=refresh_token); if that is refused too (a refresh token used "
                 "twice ends the connection, and so does the customer disconnecting the app), the customer must "
                 "connect the app again through the consent screen.")


def guard() -> None:
    """before_request for /v1 operations (not the OpenAPI document or routing errors)."""
    if request.routing_exception is not None or request.method == "OPTIONS":
        return
    op = _operation_of_request()
    if op is None or not hasattr(op, "release"):
        return
    g.operation_id = op.operation_id  # what the request log and metrics call it
    config = current_app.config
    live = beyond_contract() if op.release == ADDITIONS else op.release in config["LIVE_RELEASES"]
    if not live and op.operation_id not in config["LIVE_OPERATIONS"]:
        raise ApiProblem("not_found", "This operation is not live yet.")
    now = runtime().now()
    kind = None
    try:
        bearer = identify(request.headers.get("Authorization"), preview=config["OAUTH_PREVIEW"])
        kind = bearer.kind.name
        principal, verdict = authenticator()(bearer, now)
    except Unauthenticated:
        if not config["OAUTH_PREVIEW"]:
            detail = KEY_REFUSED  # with the preview off, nothing mentions OAuth tokens
        else:
            detail = TOKEN_REFUSED if kind == "oauth" else KEY_OR_TOKEN_REFUSED
        raise ApiProblem("unauthenticated", detail,
                         headers={"WWW-Authenticate": 'Bearer realm="partner-api"'}) from None
    if verdict is None or not principal.company.api_enabled:  # no decision: the Partner API is off
        raise ApiProblem("api_not_enabled", "Ask the company to enable the Partner API.")
    g.rate_limit_headers = verdict.headers()
    if not verdict.allowed:
        raise ApiProblem("rate_limited", f"Limit is {verdict.limit} requests per minute per key.",
                         headers=g.rate_limit_headers)
    if op.scopes and not any(scope in principal.scopes for scope in op.scopes):
        raise ApiProblem("insufficient_scope", f"This operation needs the scope "
                                               f"{' or '.join(f'`{name}`' for name in op.scopes)}.")
    if request.args:
        refuse_unknown_or_repeated_query(op)
    g.principal, g.bearer = principal, bearer


def add_rate_limit_headers(response: Response) -> Response:
    headers = g.get("rate_limit_headers")
    if headers:
        response.headers.update(headers)
    return response


def additions_live() -> bool:
    """Whether the fields v1.3 adds to contract operations are sent: the Runtime's
    `beyond_contract` (app/extensions.py), the one switch."""
    return beyond_contract()


def current_principal() -> Principal:
    """The request's principal: credential, company and entities (app/domain/access/principal.py)."""
    return g.principal


def current_bearer() -> Bearer:
    """The request's credential as presented: its kind and its token's hash (never the token)."""
    return g.bearer


def current_company() -> Company:
    return g.principal.company


def check_live_settings(app: Flask) -> None:
    """Refuse to start on a release or operation id that does not exist: a typo in
    LIVE_OPERATIONS would otherwise keep an operation dark without a word."""
    operation_ids = {view.operation_id for function in app.view_functions.values()
                     for view in vars(getattr(function, "view_class", object)).values()
                     if hasattr(view, "operation_id")}
    for setting, known in (("LIVE_RELEASES", set(ALL_RELEASES)), ("LIVE_OPERATIONS", operation_ids)):
        unknown = sorted(set(app.config[setting]) - known)
        if unknown:
            raise ConfigurationError(f"{setting} names {', '.join(unknown)}, which do not exist; "
                                     f"known: {', '.join(sorted(known))}")


class NoSessionUnderV1(SecureCookieSessionInterface):
    """The Partner API authenticates by bearer key only: under /v1 no session cookie is
    read or set (so no cookie can carry authority there, and no request pays for
    building the cookie signer). The console keeps Flask's signed-cookie sessions."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if request.path.startswith("/v1/"):
            return None  # Flask substitutes a null session, which is never saved
        return super().open_session(app, request)


def register(app: Flask) -> None:
    check_live_settings(app)
    app.session_interface = NoSessionUnderV1()
    app.before_request(guard)
    app.after_request(add_rate_limit_headers)
