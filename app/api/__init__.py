"""The Partner API: one flask-smorest Blueprint per resource, schemas beside it.

Views parse with a schema (`@blp.arguments`: query strings and JSON bodies alike, so what
the document says of a request is what is checked), call one domain function and answer
with the partner-safe form from `app.domain.partner_safe`. The response schemas document
those forms in the OpenAPI document; `json_response` sends the already-built dict without
a second pass through marshmallow (the read path is benchmarked against bare Flask).
"""

import json
from typing import Any

import flask_smorest
from flask import Response, current_app, g, request
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge

from app.api.problems import ApiProblem


def json_response(data: object, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), status=status,
                    mimetype="application/json")


def empty_response(status: int) -> Response:
    """An answer with no body, and so no Content-Type (a 204, the test webhook's 202)."""
    response = Response(status=status)
    del response.headers["Content-Type"]
    return response


def read_body() -> bytes:
    """The request body, at most MAX_CONTENT_LENGTH bytes (Contract, Limits: 1 MB), read
    once per request: the Idempotency-Key's fingerprint (app/api/idempotency.py) and the
    view's arguments read the same bytes."""
    body = g.get("request_body")
    if body is None:
        body = g.request_body = _read_body()
    return body


def _read_body() -> bytes:
    """A declared length over the limit was refused before any reading (request_id.py).
    A chunked body has no declared length: Werkzeug's own reader stops at the limit
    without saying the body was longer, so it is read here, to one byte past the
    limit, from the stream the server ends at the body's end."""
    if request.content_length is not None or "wsgi.input_terminated" not in request.environ:
        return request.get_data(cache=False)
    limit, size = current_app.config["MAX_CONTENT_LENGTH"], 0
    chunks: list[bytes] = []
    while size <= limit:
        try:
            chunk = request.input_stream.read(min(65536, limit + 1 - size))
        except Exception as exc:  # the server's own reader: chunk framing it cannot parse (`zz`)
            current_app.logger.info("unreadable chunked body: %r", exc)
            detail = "The chunked body is malformed (bad chunk size or framing)."
            raise ApiProblem("invalid_request", detail) from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise RequestEntityTooLarge()


def read_json_object(*, optional: bool = False) -> dict[str, Any]:
    """The body as a JSON object: 400 `invalid_request` for JSON that does not parse,
    422 `validation_failed` for JSON that is not an object. An `optional` body may be
    left out (no bytes at all): that is `{}`."""
    raw = read_body()
    if optional and not raw:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiProblem("invalid_request", f"The body is not valid JSON: {exc}") from None
    except RecursionError:
        raise ApiProblem("invalid_request", "The body's JSON is nested too deep.") from None
    if not isinstance(body, dict):
        raise ApiProblem("validation_failed", "The body must be a JSON object.", errors=[("$", "must be an object")])
    return body


class _Parser(FlaskParser):
    """webargs' parser, reading a JSON body as /v1 reads every body (`read_json_object`):
    whatever its Content-Type, 400 for JSON that does not parse, 422 for JSON that is not
    an object, 413 past the limit, chunked bodies included. A schema whose class says
    `BODY_OPTIONAL = True` takes no body at all as `{}` (its fields' defaults)."""

    def load_json(self, req: Any, schema: Any) -> Any:
        return read_json_object(optional=getattr(schema, "BODY_OPTIONAL", False))


class ApiBlueprint(flask_smorest.Blueprint):
    """The Blueprint of every /v1 resource: flask-smorest's, with the body reading above."""

    ARGUMENTS_PARSER = _Parser()

