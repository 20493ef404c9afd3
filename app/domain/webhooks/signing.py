"""The signature on every delivery (Contract, Events, Signature):

    X-SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">

keyed with the endpoint's secret, the whole `whsec_...` string as UTF-8. It is made
anew for every attempt (a redelivery has a fresh `t`); the body is the stored envelope,
byte for byte. `verify` is what a receiver does, and what the webhooks guide's receiver does.
While a rotated secret's predecessor is still in force (v1.3), the header carries one
`v1` per secret, newest first: `t=<t>,v1=<new>,v1=<old>`.

Beyond the contract (v1.3), every attempt also carries the Standard Webhooks headers
(`webhook-id`: the event id, `webhook-timestamp`: the same `t`, `webhook-signature`),
keyed as that specification keys a `whsec_` secret (`standard_key`), so any of its
libraries verifies a delivery with the secret string as shown; during an overlap
`webhook-signature` holds one `v1,<base64>` per secret, newest first, space separated.
"""

import base64
import binascii
import hashlib
import hmac
from collections.abc import Iterable, Sequence

from app.domain.kernel.text import ascii_int

TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: float, body: bytes, older: Sequence[str] = ()) -> str:
    """`t=<t>,v1=<hex>` keyed with `secret`; with the `older` secrets still in force (a
    rotation's overlap), one more `v1` for each, newest first, as Stripe's header is."""
    signed = f"{int(timestamp)}.".encode() + body
    return ",".join([f"t={int(timestamp)}", *(f"v1={hmac.new(key.encode(), signed, hashlib.sha256).hexdigest()}"
                                              for key in (secret, *older))])


def standard_key(secret: str) -> bytes | None:
    """The key the Standard Webhooks libraries derive from a `whsec_` secret: the base64
    after the prefix, decoded as the Python `standardwebhooks` package decodes it (a
    secret issued before they were sent, URL-safe base64, may not decode: None)."""
    try:
        key = base64.b64decode(secret.removeprefix("whsec_") + "==")
    except (binascii.Error, ValueError):
        return None
    return key or None


def standard_signature(key: bytes, message_id: str, timestamp: float, body: bytes,
                       older: Sequence[bytes] = ()) -> str:
    """Standard Webhooks' `webhook-signature` value: `v1,<base64 HMAC-SHA256 of
    "<id>.<timestamp>.<body>">`, and one more, space separated, for each of the `older`
    keys still in force, newest first."""
    signed = f"{message_id}.{int(timestamp)}.".encode() + body
    return " ".join("v1," + base64.b64encode(hmac.new(one, signed, hashlib.sha256).digest()).decode()
                    for one in (key, *older))


def verify(secrets: Iterable[str], header: str | None, body: bytes, now_seconds: float,
           tolerance: float = TOLERANCE_SECONDS) -> bool:
    """True if `header` signs `body` with any of `secrets` (several during a rotation),
    by any of its `v1` values (a header carries several while a secret rolls, as Stripe's
    does), and its one `t` is within `tolerance` seconds of now."""
    pairs = [(key.strip(), value.strip()) for key, value in
             (part.split("=", 1) for part in (header or "").split(",") if "=" in part)]
    stamps = [ascii_int(value) for key, value in pairs if key == "t"]  # "t=١٧٩٠..." or "t=²" is no time
    if len(stamps) != 1 or stamps[0] is None:
        return False
    timestamp = stamps[0]
    if abs(now_seconds - timestamp) > tolerance:
        return False
    given = [value for key, value in pairs if key == "v1" and value.isascii()]  # compare_digest takes ASCII str only
    return any(hmac.compare_digest(signature(secret, timestamp, body).split("v1=")[1], value)
               for secret in secrets for value in given)
