"""partner_api.webhooks.verify: either signature form, any `v1` of a rotation, the 5-minute
tolerance, and the raw body."""

import base64
import hashlib
import hmac
import json

import pytest
from standardwebhooks import Webhook

from partner_api.webhooks import SignatureError, verify

SECRET = "whsec_" + base64.b64encode(b"k" * 24).decode()
BODY = json.dumps({"id": "evt_1", "type": "ping", "data": {"webhook_id": "whk_1"}}).encode()


def contract_header(secret, t, body=BODY):
    return f"t={t},v1=" + hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def test_the_contracts_header_verifies_with_either_secret_of_a_rotation():
    header = contract_header("whsec_old", 1000) + "," + contract_header(SECRET, 1000).split(",")[1]
    assert verify(BODY, {"X-SVC-Signature": header}, SECRET, now=1000)["id"] == "evt_1"
    assert verify(BODY, {"x-svc-signature": header}, "whsec_old", now=1100)["type"] == "ping"


@pytest.mark.parametrize("headers, now", [
    ({"X-SVC-Signature": contract_header("whsec_other", 1000)}, 1000),  # another secret
    ({"X-SVC-Signature": contract_header(SECRET, 1000)}, 1301),  # over five minutes
    ({"X-SVC-Signature": contract_header(SECRET, 1000, BODY + b" ")}, 1000),  # another body
    ({"X-SVC-Signature": "v1=abc"}, 1000), ({}, 1000),
])
def test_anything_else_is_a_signature_error(headers, now):
    with pytest.raises(SignatureError):
        verify(BODY, headers, SECRET, now=now)


def test_the_standard_webhooks_headers_verify_too():
    from datetime import datetime, timezone
    stamp = datetime.now(timezone.utc)
    signature = Webhook(SECRET).sign("evt_1", stamp, BODY.decode())
    headers = {"webhook-id": "evt_1", "webhook-timestamp": str(int(stamp.timestamp())),
               "webhook-signature": signature}
    assert verify(BODY, headers, SECRET)["data"] == {"webhook_id": "whk_1"}
    with pytest.raises(SignatureError):
        verify(BODY + b"x", headers, SECRET)
