"""`X-Request-Id` on every response (Contract, Conventions 7).

A client-sent id is echoed only when it is a short, safe token; otherwise a fresh one
is made, so logs and headers never carry arbitrary client text.
"""

import re
import secrets

from flask import Flask, Response, g, request

SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def assign_request_id() -> None:
    sent = request.headers.get("X-Request-Id", "")
    g.request_id = sent if SAFE_REQUEST_ID.match(sent) else f"req_{secrets.token_hex(12)}"


def add_request_id_header(response: Response) -> Response:
    response.headers["X-Request-Id"] = g.get("request_id") or f"req_{secrets.token_hex(12)}"
    return response


def register(app: Flask) -> None:
    app.before_request(assign_request_id)
    app.after_request(add_request_id_header)
