"""The signature on every delivery (Contract, Events, Signature):

    X-SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">

keyed with the endpoint's secret, the whole `whsec_...` string as UTF-8. It is made
anew for every attempt (a redelivery has a fresh `t`); the body is the stored envelope,
byte for byte. `verify` is what a receiver does, and what the README's receiver does.
"""

import hashlib
import hmac
from collections.abc import Iterable

TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: float, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{int(timestamp)}.".encode() + body, hashlib.sha256)
    return f"t={int(timestamp)},v1={mac.hexdigest()}"


def verify(secrets: Iterable[str], header: str | None, body: bytes, now_seconds: float,
           tolerance: float = TOLERANCE_SECONDS) -> bool:
    """True if `header` signs `body` with any of `secrets` (several during a rotation),
    by any of its `v1` values (a header carries several while a secret rolls, as Stripe's
    does), and its one `t` is within `tolerance` seconds of now."""
    pairs = [(key.strip(), value.strip()) for key, value in
             (part.split("=", 1) for part in (header or "").split(",") if "=" in part)]
    stamps = [value for key, value in pairs if key == "t"]
    try:
        [timestamp] = [int(value) for value in stamps]
    except ValueError:
        return False
    if abs(now_seconds - timestamp) > tolerance:
        return False
    given = [value for key, value in pairs if key == "v1"]
    return any(hmac.compare_digest(signature(secret, timestamp, body).split("v1=")[1], value)
               for secret in secrets for value in given)
