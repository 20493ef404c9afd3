"""Verifying a webhook delivery before trusting it: the contract's `X-SVC-Signature`
(`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, keyed with the secret string) or the
Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), on the
raw body, within 5 minutes of this machine's clock. `sign` makes both, as the service
does (`partner-api listen` signs what it forwards with it)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError

TOLERANCE = 300  # seconds (Contract, Signature 4)


def new_secret() -> str:
    """A signing secret as the service issues them: `whsec_` and 24 random bytes in
    standard base64 (so Standard Webhooks libraries take it as it is)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def sign(body: bytes, secret: str, event_id: str, *, now: float | None = None) -> dict[str, str]:
    """The headers the service puts on a delivery of `body`: `X-SVC-Signature` and the
    Standard Webhooks three, signed with `secret` at `now` (this machine's clock)."""
    timestamp = int(time.time() if now is None else now)
    contract = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    standard = Webhook(secret).sign(event_id, datetime.fromtimestamp(timestamp, timezone.utc), body.decode())
    return {"Content-Type": "application/json", "X-SVC-Signature": f"t={timestamp},v1={contract}",
            "webhook-id": event_id, "webhook-timestamp": str(timestamp), "webhook-signature": standard}


class SignatureError(Exception):
    """The delivery is not from the service (or is too old): answer 400 and drop it."""


def verify(body: bytes, headers: Mapping[str, str], secret: str, *, now: float | None = None) -> dict[str, Any]:
    """The event of a delivery whose signature (either form) matches `secret`; any `v1`
    value of the contract's header may match (a rotation signs with both secrets).
    Whatever the headers and body hold, anything short of that is a `SignatureError`
    (as Stripe's `verify_header` turns every unreadable header into its one error): a
    receiver answers it with 400, never 500."""
    lowered = {name.lower(): value for name, value in headers.items()}
    now = time.time() if now is None else now
    if "x-svc-signature" in lowered:
        parts = [[piece.strip() for piece in part.split("=", 1)]
                 for part in lowered["x-svc-signature"].split(",") if "=" in part]
        stamps = [value for name, value in parts if name == "t"]
        stamp = _seconds(stamps[0]) if stamps else None
        if stamp is None:
            raise SignatureError("no timestamp in X-SVC-Signature (t=, Unix seconds in ASCII digits)")
        if abs(now - stamp) > TOLERANCE:
            raise SignatureError("the timestamp is more than 5 minutes away")
        signed = stamps[0].encode() + b"." + body  # the timestamp as sent (ASCII digits by now)
        expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        # A non-ASCII value cannot be a hex digest (and compare_digest raises TypeError on one).
        if not any(value.isascii() and hmac.compare_digest(expected, value) for name, value in parts if name == "v1"):
            raise SignatureError("no v1 signature matches this secret")
        return _event(body)
    if "webhook-signature" in lowered:
        # The package reads the timestamp with float() (Arabic-Indic digits, "1e9") and
        # raises ValueError on a signature it cannot split or decode; the rule here is
        # Unix seconds in ASCII digits, and every failure is this module's one error.
        stamp = _seconds(lowered.get("webhook-timestamp", ""))
        if stamp is None:
            raise SignatureError("no timestamp in webhook-timestamp (Unix seconds in ASCII digits)")
        if abs(now - stamp) > TOLERANCE:
            raise SignatureError("the timestamp is more than 5 minutes away")
        try:
            Webhook(secret).verify(body, dict(lowered), json_parse=False)
        except (WebhookVerificationError, ValueError) as exc:
            raise SignatureError(str(exc) or type(exc).__name__) from None
        return _event(body)
    raise SignatureError("no signature header")


def _seconds(text: str) -> int | None:
    """A Unix time in ASCII digits (`str.isdigit()` also says yes to '²' and Arabic-Indic
    digits), at most 12 of them (beyond the year 30000: never within the tolerance; int()
    refuses over 4,300), else None."""
    text = text.strip()
    return int(text) if re.fullmatch(r"[0-9]{1,12}", text) else None


def _event(body: bytes) -> dict[str, Any]:
    """The signed body as the event it must be: a JSON object."""
    try:
        event = json.loads(body)
    except ValueError:  # not JSON, or not UTF-8
        raise SignatureError("the signed body is not a JSON event") from None
    if not isinstance(event, dict):
        raise SignatureError("the signed body is not a JSON event")
    return event
