"""What the published OpenAPI document says beyond the schemas. Partners generate
clients from it, so it describes every header and error the service really sends.

- Every response declares `X-Request-Id` (Contract, Conventions 7), and the
  `Cache-Control` and `Vary` that keep it the caller's (app/api/conditional.py). Every response sent
  after the rate-limit step (all but 401) declares the three `X-RateLimit-*`; 429 also
  `Retry-After` (Contract, Limits).
- The `default` response is a Problem in `application/problem+json` (Contract, Errors).
- Every GET (v1.3, beyond the contract) declares the `ETag` of its 200, takes
  `If-None-Match`, and documents the bodiless `304` it answers when the tag still holds
  (app/api/conditional.py).
- Every POST (v1.3, beyond the contract) takes `Idempotency-Key`, declares
  `Idempotent-Replayed` on its success, and the problems a key may answer: 400 (not a
  key), 409 `idempotency_key_in_use`, 422 `idempotency_key_reused`
  (app/api/idempotency.py).
- flask-smorest's own pagination and ETag components are left out: the API uses neither
  (its ETag machinery needs a schema pass per response; ours hashes the bytes sent).
"""

from typing import Any

from apispec import BasePlugin
from flask import Flask
from flask_smorest import Api
from flask_smorest.spec import prepare_response

from app.api.problems import PROBLEM_MIMETYPE
from app.api.schemas import ProblemSchema
from app.extensions import service
from config import ADDITIONS

HEADERS = {
    "X-Request-Id": {"description": "A unique id of this request; quote it when asking for help.",
                     "schema": {"type": "string"}},
    "X-RateLimit-Limit": {"description": "Requests allowed per minute.", "schema": {"type": "integer"}},
    "X-RateLimit-Remaining": {"description": "Requests left in the window.", "schema": {"type": "integer"}},
    "X-RateLimit-Reset": {"description": "Seconds until the allowance is fully restored.",
                          "schema": {"type": "integer"}},
    "Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}},
    "Cache-Control": {"description": "`private, no-cache`: this answer is the calling credential's alone; no "
                                     "shared cache may keep it, and a client revalidates before reusing it.",
                      "schema": {"type": "string", "example": "private, no-cache"}},
    "Vary": {"description": "`Authorization`: another credential gets its own answer.",
             "schema": {"type": "string", "example": "Authorization"}},
    "ETag": {"description": "A strong tag of this body (beyond the contract, v1.3): send it back in "
                            "`If-None-Match` to be answered 304 while the body is the same.",
             "schema": {"type": "string", "example": '"5d41402abc4b2a76b9719d911017c592"'}, "x-release": ADDITIONS},
    "Idempotent-Replayed": {"description": "`true` on an answer given again (beyond the contract, v1.3): a request "
                                           "with this `Idempotency-Key` was answered before, and this is that "
                                           "answer, its status and body; nothing was done again. Absent otherwise.",
                            "schema": {"type": "string", "enum": ["true"]}, "x-release": ADDITIONS},
}
RATE_LIMIT = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def header_refs(*names: str) -> dict[str, dict[str, str]]:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


def headers_of(status: int | str) -> dict[str, dict[str, str]]:
    """The headers a response with this status carries (401 comes before any counting)."""
    names = ["X-Request-Id", "Cache-Control", "Vary"]
    if str(status) != "401":
        names.extend(RATE_LIMIT)
    if str(status) == "429":
        names.append("Retry-After")
    return header_refs(*names)


IF_NONE_MATCH = {
    "name": "If-None-Match", "in": "header", "required": False, "x-release": ADDITIONS,
    "description": "The `ETag` of a body received before (beyond the contract, v1.3): while this "
                   "operation would answer the same body, it answers 304 with no body.",
    "schema": {"type": "string"},
}
NOT_MODIFIED = {
    "description": "Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body "
                   "this request would get. No body; the request still counts against the rate limit.",
    "x-release": ADDITIONS,
}

IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False, "x-release": ADDITIONS,
    "description": "Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable "
                   "ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with "
                   "the same key within 24 hours, and you get the first answer again (its status and body, with "
                   "`Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error "
                   "the key is free again. The key is your company's; another request with it (another body, "
                   "operation or credential) is 422 `idempotency_key_reused`, and the same one while the first "
                   "still runs 409 `idempotency_key_in_use`.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]([ -~]*[!-~])?$",
               "example": "8e03978e-40d5-43e8-bc93-6894a57f9324"},
}
IDEMPOTENCY_PROBLEMS = {
    "400": "Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 "
           "printable ASCII characters.",
    "409": "Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still "
           "running; send it again in a moment.",
    "422": "Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request "
           "in the last 24 hours; nothing was done.",
}


def document_idempotency(operation: dict[str, Any]) -> None:
    """What every POST says of `Idempotency-Key`: the parameter, the header of a replayed
    success, and the problems a key may answer (beside the operation's own, or added)."""
    operation["parameters"] = [*operation.get("parameters", []), IDEMPOTENCY_KEY]
    responses = operation.setdefault("responses", {})
    for status, response in responses.items():
        if str(status).startswith("2") and isinstance(response, dict):
            response["headers"] = {**response.get("headers", {}), **header_refs("Idempotent-Replayed")}
    for status, text in IDEMPOTENCY_PROBLEMS.items():
        known = next((known for known in responses if str(known) == status), None)
        if known is not None:
            responses[known]["description"] = f"{responses[known]['description']} {text}"
        else:
            responses[status] = {"description": text, "x-release": ADDITIONS,
                                 "content": {PROBLEM_MIMETYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}


class ResponseHeadersPlugin(BasePlugin):
    """Adds the headers above to every response of every operation, and the conditional
    GET's parameter, 304 and ETag to every GET."""

    def init_spec(self, spec: Any) -> None:
        for name, header in HEADERS.items():
            spec.components.header(name, header)

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            responses = operation.get("responses", {})
            ok = next((status for status in responses if str(status) == "200"), None)
            if method == "get" and ok is not None:
                responses["304"] = {**NOT_MODIFIED, "headers": header_refs("ETag")}
                responses[ok]["headers"] = {**header_refs("ETag"), **responses[ok].get("headers", {})}
                operation["parameters"] = [*operation.get("parameters", []), IF_NONE_MATCH]
            if method == "post":
                document_idempotency(operation)
            for status, response in responses.items():
                if isinstance(response, dict) and "$ref" not in response:
                    response["headers"] = {**headers_of(status), **response.get("headers", {})}


class PartnerApi(Api):
    """flask-smorest's Api with our Problem as the documented error body. Error
    handling itself lives in `app/api/problems.py`."""

    ERROR_SCHEMA = ProblemSchema

    def init_app(self, app: Flask, *, spec_kwargs: dict | None = None) -> None:
        spec_kwargs = {**(spec_kwargs or {}), "extra_plugins": [ResponseHeadersPlugin()]}
        super().init_app(app, spec_kwargs=spec_kwargs)

    def _register_error_handlers(self) -> None:
        pass

    def _register_responses(self) -> None:
        response = {"description": "Any other error, such as `internal_error` (500): a Problem.",
                    "schema": self.ERROR_SCHEMA, "headers": headers_of("default")}
        prepare_response(response, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response)

    def _register_etag_headers(self) -> None:
        pass

    def _register_pagination_header(self) -> None:
        pass


def partner_api() -> PartnerApi:
    """This app's flask-smorest Api: the OpenAPI document it makes."""
    return service("partner_api", PartnerApi)
