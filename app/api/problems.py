"""Problem responses (RFC 9457 `application/problem+json`) for everything under /v1.

The one place where domain exceptions and HTTP errors become the contract's Problem
shape: `type`, `title`, `status`, `code`, `request_id`, and `errors` for
`validation_failed`. A `detail` line says what exactly was wrong.
"""

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Flask, current_app, g, request, url_for
from peewee import IntegrityError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from app.domain.kernel.errors import DomainError
from app.telemetry import log_server_error, route_of

PROBLEM_MIMETYPE = "application/problem+json"

# code -> (status, title). The errors page (`/errors`) lists the same table.
CODES = {
    "invalid_request": (400, "The request is not valid"),
    "unauthenticated": (401, "Missing, malformed, revoked or wrong-environment credential"),
    "insufficient_scope": (403, "The key lacks the scope this operation needs"),
    "api_not_enabled": (403, "The Partner API is not enabled for this company"),
    "sandbox_only": (403, "This operation works in sandbox companies only"),
    "not_found": (404, "No such resource"),
    "method_not_allowed": (405, "This method is not allowed on this resource"),
    "conflict": (409, "The request conflicts with the current state"),
    "idempotency_key_in_use": (409, "A request with this Idempotency-Key is still running"),
    "payload_too_large": (413, "The request body is too large"),
    "validation_failed": (422, "The request body failed validation"),
    "idempotency_key_reused": (422, "This Idempotency-Key was sent with another request"),
    "rate_limited": (429, "Too many requests"),
    "internal_error": (500, "Internal server error; retry with backoff"),
}
STATUS_CODES = {400: "invalid_request", 401: "unauthenticated", 403: "insufficient_scope",
                404: "not_found", 405: "method_not_allowed", 409: "conflict",
                413: "payload_too_large", 422: "validation_failed", 429: "rate_limited"}


class ApiProblem(Exception):
    """Raise anywhere in a request to answer with a problem (`status` overrides the
    code's own, as 414 for an over-long URL)."""

    def __init__(self, code: str, detail: str | None = None, *, errors: Iterable[tuple[str, str]] | None = None,
                 headers: dict[str, str] | None = None, status: int | None = None) -> None:
        super().__init__(detail or code)
        self.code, self.detail, self.errors, self.headers = code, detail, errors, headers or {}
        self.status = status


def problem_response(code: str, detail: str | None = None, *, errors: Iterable[tuple[str, str]] | None = None,
                     headers: dict[str, str] | None = None, status: int | None = None) -> Response:
    default_status, title = CODES[code]
    body = {
        "type": f"{errors_url()}#{code}",
        "title": title,
        "status": status or default_status,
        "code": code,
        "request_id": g.get("request_id"),
    }
    if detail:
        body["detail"] = detail
    if code == "validation_failed":
        body["errors"] = [{"path": path, "message": message} for path, message in (errors or [])]
    response = Response(json.dumps(body), status=body["status"], mimetype=PROBLEM_MIMETYPE)
    response.headers.update(headers or {})
    return response


def errors_url() -> str:
    """ERRORS_URL, or this service's errors page at the address the request came to."""
    return current_app.config["ERRORS_URL"] or url_for("docs.errors_page", _external=True)


def is_api_request() -> bool:
    return request.path == "/v1" or request.path.startswith("/v1/")


def handle_api_problem(exc: ApiProblem) -> Response:
    return problem_response(exc.code, exc.detail, errors=exc.errors, headers=exc.headers, status=exc.status)


def handle_domain_error(exc: DomainError) -> Response:
    return problem_response(exc.code, exc.message or None, errors=getattr(exc, "errors", None))


def handle_http_exception(exc: Any) -> Response:
    """HTTP errors under /v1 become problems: routing 404/405, 413, webargs 422, 500."""
    if exc.code == 500:
        if not isinstance(getattr(exc, "original_exception", None), BaseException):
            log_server_error()  # an exception's traceback is logged already, once (PartnerFlask.log_exception)
        return problem_response("internal_error")
    code = STATUS_CODES.get(exc.code)
    headers = {}
    if exc.code == 405:
        headers["Allow"] = ", ".join(exc.valid_methods or ())
    if code is None:
        return problem_response("internal_error", status=exc.code) if exc.code >= 500 else \
            problem_response("invalid_request", exc.description, status=exc.code)
    data = getattr(exc, "data", None) or {}
    messages = data.get("messages") or {}
    if messages:  # webargs: query (400) or body (422) arguments failed their schema
        return _webargs_problem(messages)
    detail = {404: "No such resource or path.", 405: f"{request.method} is not allowed here.",
              413: "The request body is over 1 MB."}.get(exc.code, exc.description)
    return problem_response(code, detail, headers=headers)


def _webargs_problem(messages: Mapping[str, Any]) -> Response:
    """webargs reports {location: {field: [messages]}}. Query and path errors are
    400 `invalid_request` (Contract, Errors: bad query parameter); body errors are
    422 `validation_failed` with one `errors[]` item per field."""
    errors: list[tuple[str, str, str]] = []
    for location, fields in messages.items():
        errors.extend((location, path, message) for path, message in flatten_messages(fields))
    if any(location != "json" for location, _, _ in errors):
        detail = "; ".join(f"{path}: {message}" for _, path, message in errors)
        return problem_response("invalid_request", detail)
    return problem_response("validation_failed", "The body has invalid fields.",
                            errors=[(path, message) for _, path, message in errors])


def flatten_messages(messages: Any, prefix: str = "") -> list[tuple[str, str]]:
    """marshmallow's nested {field: [msgs] | {...}} -> [(path, message)], with list
    indexes as `[i]`: `events[3].employee_ref.type`."""
    if isinstance(messages, list | tuple):
        if all(isinstance(m, str) for m in messages):
            return [(prefix or "$", m) for m in messages]
        return [pair for m in messages for pair in flatten_messages(m, prefix)]
    if isinstance(messages, str):
        return [(prefix or "$", messages)]
    pairs: list[tuple[str, str]] = []
    for key, value in messages.items():
        if isinstance(key, int):
            path = f"{prefix}[{key}]"
        elif key == "_schema":
            path = prefix or "$"
        else:
            path = f"{prefix}.{key}" if prefix else str(key)
        pairs.extend(flatten_messages(value, path))
    return pairs


def handle_integrity_error(exc: IntegrityError) -> Response:
    """A unique index refused a row a concurrent request stored first: the request
    conflicts with the state it meets, which is 409, never a 500."""
    if not is_api_request():
        raise exc
    current_app.logger.warning("conflict request_id=%s %s %s: %s", g.get("request_id"), request.method,
                               route_of(), exc)
    return problem_response("conflict", "A concurrent request changed this first; read it again and retry.")


ErrorPage = Callable[[HTTPException], Any]


def register(app: Flask, elsewhere: Mapping[str, ErrorPage] | None = None, pages: ErrorPage | None = None) -> None:
    """Problem handlers for /v1. `elsewhere` maps other paths to the handler of their
    HTTP errors (OAuth's endpoints answer RFC 6749 JSON); `pages` answers the rest (an
    address no route has, a method a page does not take: the console's own page, in the
    reader's language); without it they keep Flask's pages."""
    elsewhere = dict(elsewhere or {})

    def http_exception(exc: HTTPException) -> Any:
        if is_api_request():
            return handle_http_exception(exc)
        handler = elsewhere.get(request.path, pages)
        return handler(exc) if handler is not None else exc

    app.register_error_handler(HTTPException, http_exception)
    app.register_error_handler(IntegrityError, handle_integrity_error)
    app.register_error_handler(ApiProblem, handle_api_problem)
    app.register_error_handler(DomainError, handle_domain_error)
