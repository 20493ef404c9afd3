"""The X-SVC-Signature scheme, checked against vectors computed by an independent
implementation (the `hmac` module driven by hand, and OpenSSL's command line)."""

import base64
import hashlib
import hmac
import pathlib
import re
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.webhooks.signing import signature, standard_signature, verify

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
BODY = b'{"id":"evt_1","type":"ping","created_at":"2026-11-21T09:00:00Z","company_id":"cmp_1","livemode":false,' \
       b'"data":{"webhook_id":"whk_1"}}'


def by_hand(secret, timestamp, body):
    return hmac.new(secret.encode(), b"%d." % timestamp + body, hashlib.sha256).hexdigest()


def test_the_header_is_t_and_v1():
    assert signature(SECRET, 1763715600, BODY) == f"t=1763715600,v1={by_hand(SECRET, 1763715600, BODY)}"


def test_openssl_computes_the_same_mac():
    # .ci/run installs the openssl command where it is missing.
    out = subprocess.run(["openssl", "dgst", "-sha256", "-hmac", SECRET], input=b"1763715600." + BODY,
                         capture_output=True, check=True).stdout.decode()
    assert out.strip().endswith(signature(SECRET, 1763715600, BODY).split("v1=")[1])


@given(st.binary(max_size=300), st.integers(0, 2**33), st.text(min_size=1, max_size=60))
def test_any_body_and_time_sign_as_the_scheme_says(body, timestamp, secret):
    assert signature(secret, timestamp, body) == f"t={timestamp},v1={by_hand(secret, timestamp, body)}"


def test_a_receiver_accepts_within_five_minutes_and_with_any_current_secret():
    header = signature(SECRET, 1000, BODY)
    assert verify([SECRET], header, BODY, 1000 + 300)
    assert verify(["whsec_old", SECRET], header, BODY, 1000 - 300)  # during a rotation
    assert not verify([SECRET], header, BODY, 1000 + 301)
    assert not verify([SECRET], header, BODY + b" ", 1000)
    assert not verify(["whsec_other"], header, BODY, 1000)
    assert not verify([SECRET], "v1=" + header.split("v1=")[1], BODY, 1000)
    assert not verify([SECRET], None, BODY, 1000)


@pytest.mark.parametrize("stamp", ["١٠٠٠", "1_000", "+1000", "1000²", "9" * 5000, ""])
def test_a_time_is_read_only_from_the_digits_0_to_9(stamp):
    """int() takes "١٠٠٠" and "1_000" for 1000 (and refuses 5,000 digits with a ValueError):
    a header not written as the sender writes it is not verified."""
    mac = signature(SECRET, 1000, BODY).split("v1=")[1]
    assert verify([SECRET], f"t=1000,v1={mac}", BODY, 1000)
    assert not verify([SECRET], f"t={stamp},v1={mac}", BODY, 1000)


def test_a_signature_that_is_not_ascii_is_not_verified_and_raises_nothing():
    """hmac.compare_digest raises TypeError on a str with non-ASCII characters: a
    receiver would answer 500 to an unauthenticated request."""
    mac = signature(SECRET, 1000, BODY).split("v1=")[1]
    assert not verify([SECRET], "t=1000,v1=é", BODY, 1000)
    assert verify([SECRET], f"t=1000,v1=é,v1={mac}", BODY, 1000)  # the good one among them still counts


def test_a_header_with_several_v1_values_verifies_against_any_of_them():
    """Stripe sends one `v1` per secret in force while a secret rolls: a receiver that
    reads the header into a dict keeps only the last and refuses the first secret's."""
    new, old = "whsec_new", SECRET
    header = f"{signature(new, 1000, BODY)},v1={by_hand(old, 1000, BODY)}"
    assert verify([old], header, BODY, 1000) and verify([new], header, BODY, 1000)
    assert verify([old], f"{signature(old, 1000, BODY)},v1={by_hand(new, 1000, BODY)}", BODY, 1000)
    assert not verify(["whsec_other"], header, BODY, 1000)
    assert not verify([old], f"t=1000,t=2000,v1={by_hand(old, 1000, BODY)}", BODY, 1000)  # one t only


def test_the_guides_receiver_verifies_against_any_v1_value(monkeypatch):
    """The webhooks guide's receiver (its `valid`), run on the same headers."""
    readme = (pathlib.Path(__file__).resolve().parents[4] / "docs" / "partners" / "webhooks.md").read_text()
    code = re.search(r"<!-- receiver.py -->\n```python\n(.*?)```", readme, re.S).group(1)
    monkeypatch.setenv("WEBHOOK_SECRETS", SECRET)
    scope = {}
    exec(code.split("class Handler")[0], scope)  # the definitions, not the server
    now = int(scope["time"].time())
    header = f"t={now},v1={by_hand('whsec_new', now, BODY)},v1={by_hand(SECRET, now, BODY)}"
    assert scope["valid"](header, BODY)
    assert not scope["valid"](f"t={now},v1={by_hand('whsec_new', now, BODY)}", BODY)
    # refused, never raising: a time not in the digits 0-9 (signed as it is), a non-ASCII v1
    arabic = str(now).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for stamp in (arabic, f"+{now}", "9" * 5000, "²"):
        assert not scope["valid"](f"t={stamp},v1={by_hand(SECRET, now, BODY)}", BODY)
    assert not scope["valid"](f"t={now},v1=é", BODY)


@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=3), st.integers(0, 2**33),
       st.binary(max_size=200))
def test_each_secret_in_force_adds_one_v1_in_the_order_given(secrets, timestamp, body):
    header = signature(secrets[0], timestamp, body, secrets[1:])
    assert header == f"t={timestamp}," + ",".join(f"v1={by_hand(s, timestamp, body)}" for s in secrets)
    assert all(verify([s], header, body, timestamp) for s in secrets)


def test_the_standard_signature_has_one_value_per_key_space_separated_newest_first():
    new, old = b"\x01" * 32, b"\x02" * 32
    both = standard_signature(new, "evt_1", 1000, BODY, [old])
    assert both == f"{standard_signature(new, 'evt_1', 1000, BODY)} {standard_signature(old, 'evt_1', 1000, BODY)}"
    expected = base64.b64encode(hmac.new(old, b"evt_1.1000." + BODY, hashlib.sha256).digest()).decode()
    assert both.split(" ")[1] == "v1," + expected
