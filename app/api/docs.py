"""Human pages of the API: the OpenAPI explorer (served locally, no CDN) and the
errors page that every problem's `type` URL points into."""

from flask import Blueprint, Response, render_template, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from app.api.problems import CODES

blp = Blueprint("docs", __name__, template_folder="templates", static_folder="static",
                static_url_path="/v1/docs/own")

# The console's framing and sniffing rules, and a policy fitting what these pages load:
# their own script and styles only (Swagger UI sets styles from its script, and draws
# some icons as data: images). No secrets here, so they may be cached.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


@blp.after_request
def page_headers(response: Response) -> Response:
    for name, value in PAGE_HEADERS.items():
        response.headers.setdefault(name, value)
    return response

ERROR_ADVICE = {
    "invalid_request": "Fix the query parameter, JSON syntax, cursor or `Idempotency-Key` named in `detail`. "
                       "Cursors are only valid with the filters they were issued for; an `Idempotency-Key` is 1 to "
                       "255 printable ASCII characters.",
    "unauthenticated": "Send `Authorization: Bearer <key>`. Live keys (`svc_live_`) reach live "
                       "companies only, sandbox keys (`svc_test_`) sandboxes only. Revoked keys stop at once.",
    "insufficient_scope": "Create a key with the scope named in `detail`; scopes of a key never change.",
    "api_not_enabled": "The company has not switched the Partner API on yet.",
    "sandbox_only": "Use a sandbox key (`svc_test_`): a live company's events are made by its people, never on "
                    "demand (beyond the contract, v1.3).",
    "not_found": "No such resource in this company, or it is not visible to partners "
                 "(a draft payroll run), or the operation is not live yet.",
    "method_not_allowed": "Use a method listed in the `Allow` header.",
    "conflict": "The request conflicts with the resource's current state.",
    "idempotency_key_in_use": "A POST with this `Idempotency-Key` is still running (beyond the contract, v1.3). "
                              "Send the same request again in a moment: once the first is answered, you get its "
                              "answer, with `Idempotent-Replayed: true`.",
    "payload_too_large": "Send at most 500 events and at most 1 MB per request.",
    "validation_failed": "Each item of `errors[]` names a field (`path`) and what is wrong with it.",
    "idempotency_key_reused": "This `Idempotency-Key` came with another request (another body, operation or "
                              "credential) in the last 24 hours (beyond the contract, v1.3); nothing was done. "
                              "Send a new key with each new request, and the same key only with the same request.",
    "rate_limited": "Wait `Retry-After` seconds. The allowance is 600 requests per minute per key "
                    "by default; `X-RateLimit-Reset` says when it is fully restored.",
    "internal_error": "A fault on our side, logged with your `request_id`. Retry with backoff.",
}


@blp.get("/errors")
def errors_page() -> str:
    return render_template("errors.html", codes=[
        (code, status, title, ERROR_ADVICE[code]) for code, (status, title) in CODES.items()
    ])


@blp.get("/v1/docs")
def docs_page() -> str:
    return render_template("docs.html")


@blp.get("/v1/docs/static/<path:filename>")
def docs_static(filename: str) -> Response:
    return send_from_directory(swagger_ui_path, filename, max_age=86400)
