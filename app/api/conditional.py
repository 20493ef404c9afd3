"""Conditional GETs (v1.3, beyond the contract): every successful GET under /v1 carries a
strong `ETag` of its body, and a request whose `If-None-Match` names it is answered
`304 Not Modified`, with no body and the same `X-Request-Id` and `X-RateLimit-*`.

The tag is a hash of the bytes the view built, so it changes exactly when the body does
(a new field, a moved `updated_at`, another page). A partner polling a list or the events
feed is spared the body, not the request: the 304 is decided after the same checks and
counts against the rate limit like any answer. `If-None-Match` is compared weakly, as
RFC 9110 (13.1.2) says for it, and `*` matches any body.

Whatever the release, every answer of an operation says it belongs to the credential
that asked (`Cache-Control: private, no-cache`, `Vary: Authorization`): no shared cache
may hand one key's answer to another, and a client's own cache revalidates (with the
ETag) before it reuses one. The public pages under /v1 (the document, its explorer) are
left as they are.
"""

import hashlib

from flask import Flask, Response, request
from werkzeug.http import parse_etags

from app.api.auth import additions_live

CONDITIONAL_METHODS = ("GET", "HEAD")


def body_tag(body: bytes) -> str:
    """The strong entity tag of a body, without its quotes: 128 bits of BLAKE2b."""
    return hashlib.blake2b(body, digest_size=16).hexdigest()


def tag_or_not_modified(response: Response) -> Response:
    """after_request: tag a 200 answer to a /v1 GET; turn it into a 304 when the request
    already holds that tag."""
    if (request.method not in CONDITIONAL_METHODS or response.status_code != 200
            or not request.path.startswith("/v1/") or response.is_streamed or not additions_live()):
        return response
    tag = body_tag(response.get_data())
    response.headers["ETag"] = f'"{tag}"'
    sent = request.headers.get("If-None-Match")
    if sent and parse_etags(sent).contains_weak(tag):
        response.status_code = 304
        response.set_data(b"")  # Werkzeug drops Content-Type and Content-Length from a 304
    return response


PUBLIC_BLUEPRINTS = ("docs", "api-docs")  # the explorer and /v1/openapi.json
CACHE_CONTROL = "private, no-cache"


def private_to_the_credential(response: Response) -> Response:
    """after_request: an answer of a /v1 operation may be kept only by the client that
    asked, and only to revalidate."""
    if request.path.startswith("/v1/") and request.blueprint not in PUBLIC_BLUEPRINTS:
        response.headers["Cache-Control"] = CACHE_CONTROL
        response.vary.add("Authorization")
    return response


def register(app: Flask) -> None:
    app.after_request(tag_or_not_modified)
    app.after_request(private_to_the_credential)
