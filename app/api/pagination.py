"""Opaque, tamper-evident keyset cursors (DESIGN.md, Cursors).

A cursor is base64url(JSON [query fingerprint, position]) + "." + a truncated
HMAC-SHA256 of it under the app's secret key. The fingerprint ties it to one query of
one company, so a cursor altered, forged, or carried over to other filters is 400.
A list view pages with `paginate`: the query's fingerprint, how to load rows after a
position, and how a row's position is written into a cursor and read back.
"""

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import current_app

from app.api.problems import ApiProblem


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(payload):
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, b"cursor:" + payload, hashlib.sha256).digest()[:16]


def fingerprint(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:16]


def encode_cursor(query_fingerprint: str, position: Sequence[Any]) -> str:
    payload = json.dumps([query_fingerprint, list(position)], separators=(",", ":")).encode()
    return f"{_b64(payload)}.{_b64(_sign(payload))}"


UNKNOWN_CURSOR = "Unknown cursor: pass back the next_cursor of the previous page, with the same filters."


def decode_cursor(query_fingerprint: str, cursor: str) -> list:
    """The position in `cursor`, or 400 if it was not issued for this very query."""
    try:
        body, signature = cursor.split(".")
        payload = _unb64(body)
        valid = hmac.compare_digest(_unb64(signature), _sign(payload))
        issued_for, position = json.loads(payload) if valid else (None, None)
    except (ValueError, TypeError):
        valid, issued_for, position = False, None, None
    if not valid or issued_for != query_fingerprint or not isinstance(position, list):
        raise ApiProblem("invalid_request", UNKNOWN_CURSOR)
    return position


def page(rows: Sequence[Any], limit: int, form: Callable[[Any], Any], position_of: Callable[[Any], Sequence[Any]],
         query_fingerprint: str) -> dict[str, Any]:
    """The Page envelope from up to `limit + 1` rows."""
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = encode_cursor(query_fingerprint, position_of(rows[-1])) if more else None
    return {"data": [form(row) for row in rows], "next_cursor": next_cursor}


def paginate(args: Mapping[str, Any], query_fingerprint: str, load: Callable[[Any, int], Sequence[Any]],
             form: Callable[[Any], Any], position_of: Callable[[Any], tuple], parse: Callable[..., Any] | None = None,
             ) -> dict[str, Any]:
    """One page of a list: `args` are the view's PageArgsSchema arguments (`limit`, and
    `cursor` when given). `load(after, limit)` reads up to `limit + 1` rows after a
    position (None: from the start); `position_of(row)` is a row's position as JSON values, and
    `parse(*values)` turns a cursor's values back into the `after` that `load` takes
    (default: the values as a tuple)."""
    after = None
    if "cursor" in args:
        values = decode_cursor(query_fingerprint, args["cursor"])
        try:
            after = parse(*values) if parse is not None else tuple(values)
        except (TypeError, ValueError):  # signed by us for another shape of position
            raise ApiProblem("invalid_request", UNKNOWN_CURSOR) from None
    return page(load(after, args["limit"]), args["limit"], form, position_of, query_fingerprint)

