"""Opaque, tamper-evident keyset cursors (DESIGN.md, Cursors).

A cursor is base64url(JSON [query fingerprint, position]) + "." + a truncated
HMAC-SHA256 of it under the app's secret key. The fingerprint ties it to one query of
one company, so a cursor altered, forged, or carried over to other filters is 400.
"""

import base64
import hashlib
import hmac
import json

from flask import current_app

from app.api.problems import ApiProblem


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(payload):
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, b"cursor:" + payload, hashlib.sha256).digest()[:16]


def fingerprint(*parts):
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:16]


def encode_cursor(query_fingerprint, position):
    payload = json.dumps([query_fingerprint, list(position)], separators=(",", ":")).encode()
    return f"{_b64(payload)}.{_b64(_sign(payload))}"


def decode_cursor(query_fingerprint, cursor):
    """The position in `cursor`, or 400 if it was not issued for this very query."""
    try:
        body, signature = cursor.split(".")
        payload = _unb64(body)
        valid = hmac.compare_digest(_unb64(signature), _sign(payload))
        issued_for, position = json.loads(payload) if valid else (None, None)
    except (ValueError, TypeError):
        valid, issued_for, position = False, None, None
    if not valid or issued_for != query_fingerprint or not isinstance(position, list):
        raise ApiProblem(
            "invalid_request",
            "Unknown cursor: pass back the next_cursor of the previous page, with the same filters.",
        )
    return position


def page(rows, limit, form, position_of, query_fingerprint):
    """The Page envelope from up to `limit + 1` rows."""
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = encode_cursor(query_fingerprint, position_of(rows[-1])) if more else None
    return {"data": [form(row) for row in rows], "next_cursor": next_cursor}
