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


def standard_headers(secret, stamp, body=BODY, event_id="evt_1"):
    from datetime import datetime, timezone
    signature = Webhook(secret).sign(event_id, datetime.fromtimestamp(stamp, timezone.utc), body.decode())
    return {"webhook-id": event_id, "webhook-timestamp": str(stamp), "webhook-signature": signature}


@pytest.mark.parametrize("header", [
    "t=" + "9" * 5000 + ",v1=abc",  # more digits than int() takes (it raised ValueError)
    "t=²,v1=abc",  # str.isdigit() says yes, int() says no
    contract_header(SECRET, "١٠٠٠"),  # Arabic-Indic digits, even signed as they are: only ASCII digits count
    contract_header(SECRET, "1000").replace("v1=", "v1=é", 1),  # compare_digest raised TypeError on non-ASCII
    "t=1e3,v1=abc", "t=,v1=abc", "t=1000,v1",
])
def test_a_contract_header_it_cannot_read_is_a_signature_error_not_a_crash(header):
    """A receiver that answers 400 on SignatureError (as the docstring says) must never see
    another exception for an unauthenticated request: it would answer 500."""
    with pytest.raises(SignatureError):
        verify(BODY, {"X-SVC-Signature": header}, SECRET, now=1000)


def test_standard_webhooks_headers_it_cannot_read_are_signature_errors_not_crashes():
    import time
    now = int(time.time())
    good = standard_headers(SECRET, now)
    arabic = str(now).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for headers, body in [
        ({**good, "webhook-signature": "v1"}, BODY),  # no comma: the package's unpacking raised ValueError
        ({**good, "webhook-signature": "v1,a"}, BODY),  # not base64: binascii.Error
        ({**good, "webhook-timestamp": arabic}, BODY),  # float() reads Arabic-Indic digits; the rule is ASCII
        ({**good, "webhook-timestamp": "9" * 5000}, BODY),
        (good, b"\xff\xfe"),  # not UTF-8: UnicodeDecodeError
    ]:
        with pytest.raises(SignatureError):
            verify(body, headers, SECRET)


@pytest.mark.parametrize("body", [b"not json", b"\xff\xfe", b"[1, 2]"])
def test_a_signed_body_that_is_not_a_json_event_is_a_signature_error_too(body):
    with pytest.raises(SignatureError):
        verify(body, {"X-SVC-Signature": contract_header(SECRET, 1000, body)}, SECRET, now=1000)


def test_spaces_after_the_contracts_commas_are_allowed():
    header = contract_header(SECRET, 1000).replace(",", ", ")
    assert verify(BODY, {"X-SVC-Signature": header}, SECRET, now=1000)["id"] == "evt_1"
