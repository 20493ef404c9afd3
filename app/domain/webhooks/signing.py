"""The signature on every delivery (Contract, Events, Signature):

    X-SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">

keyed with the endpoint's secret, the whole `whsec_...` string as UTF-8. It is made
anew for every attempt (a redelivery has a fresh `t`); the body is the stored envelope,
byte for byte. `verify` is what a receiver does, and what the README's receiver does.
"""

import hashlib
import hmac

TOLERANCE_SECONDS = 300


def signature(secret, timestamp, body):
    mac = hmac.new(secret.encode(), f"{int(timestamp)}.".encode() + body, hashlib.sha256)
    return f"t={int(timestamp)},v1={mac.hexdigest()}"


def verify(secrets, header, body, now_seconds, tolerance=TOLERANCE_SECONDS):
    """True if `header` signs `body` with any of `secrets` (several during a rotation)
    and its `t` is within `tolerance` seconds of now."""
    fields = dict(part.split("=", 1) for part in (header or "").split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    if abs(now_seconds - timestamp) > tolerance:
        return False
    given = [value for key, value in ((k.strip(), v.strip()) for k, v in fields.items()) if key == "v1"]
    return any(hmac.compare_digest(signature(secret, timestamp, body).split("v1=")[1], value)
               for secret in secrets for value in given)
