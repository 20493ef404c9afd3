"""Opaque, tamper-evident keyset cursors (DESIGN.md, Cursors).

A cursor is base64url(JSON [query fingerprint, position]) + "." + a truncated
HMAC-SHA256 of it under the app's secret key. The fingerprint ties it to one query of
one company, so a cursor altered, forged, or carried over to other filters is 400.
A list view reads `after_of(args, fingerprint)`, asks the domain for the page after it
(app/domain/kernel/paging.py), and answers `page_body(page, fingerprint, form)`: the
position the domain gives is what the next cursor carries, times and dates tagged.
"""

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from flask import current_app

from app.api.problems import ApiProblem
from app.domain.kernel.paging import Page, Position, Row


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# The cursors' form: one issued in an earlier form (positions written another way) is
# refused as unknown, never read as this one.
FORM = b"cursor:2:"


def _sign(payload: bytes) -> bytes:
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, FORM + payload, hashlib.sha256).digest()[:16]


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


def after_of(args: Mapping[str, Any], query_fingerprint: str) -> Position | None:
    """The position the page asked for starts after: the `cursor` argument's (400 if it
    was not issued for this query), or None from the start. `args` are the view's
    PageArgsSchema arguments."""
    if "cursor" not in args:
        return None
    try:
        return tuple(_value(value) for value in decode_cursor(query_fingerprint, args["cursor"]))
    except (TypeError, ValueError):  # signed by us for another shape of position
        raise ApiProblem("invalid_request", UNKNOWN_CURSOR) from None


def page_body(found: Page[Row], query_fingerprint: str, form: Callable[[Row], Any]) -> dict[str, Any]:
    """The Page envelope of a domain page: its rows in their partner form, and the cursor
    of the next page (null on the last)."""
    after = found.next_after
    return {"data": [form(row) for row in found.items],
            "next_cursor": None if after is None else encode_cursor(query_fingerprint, [_json(v) for v in after])}


def _json(value: object) -> object:
    if isinstance(value, datetime):
        return ["datetime", value.isoformat()]
    if isinstance(value, date):
        return ["date", value.isoformat()]
    return value


def _value(stored: object) -> datetime | date | int | str:
    if isinstance(stored, list) and len(stored) == 2 and stored[0] in ("datetime", "date"):
        kind, text = stored
        return datetime.fromisoformat(text) if kind == "datetime" else date.fromisoformat(text)
    if isinstance(stored, int | str) and not isinstance(stored, bool):
        return stored
    raise ValueError("not a position's value")
