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
    value of the contract's header may match (a rotation signs with both secrets)."""
    lowered = {name.lower(): value for name, value in headers.items()}
    now = time.time() if now is None else now
    if "x-svc-signature" in lowered:
        parts = [part.split("=", 1) for part in lowered["x-svc-signature"].split(",") if "=" in part]
        stamps = [value for name, value in parts if name.strip() == "t"]
        if not stamps or not stamps[0].isdigit():
            raise SignatureError("no timestamp in X-SVC-Signature")
        if abs(now - int(stamps[0])) > TOLERANCE:
            raise SignatureError("the timestamp is more than 5 minutes away")
        expected = hmac.new(secret.encode(), stamps[0].encode() + b"." + body, hashlib.sha256).hexdigest()
        if not any(hmac.compare_digest(expected, value.strip()) for name, value in parts if name.strip() == "v1"):
            raise SignatureError("no v1 signature matches this secret")
        event: dict[str, Any] = json.loads(body)
        return event
    if "webhook-signature" in lowered:
        try:
            return Webhook(secret).verify(body, dict(lowered))  # type: ignore[no-any-return]
        except WebhookVerificationError as exc:
            raise SignatureError(str(exc)) from None
    raise SignatureError("no signature header")
