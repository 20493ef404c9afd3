"""The rules of an Idempotency-Key on values alone: which header values are keys, and
which requests are the same request (app/domain/kernel/idempotency.py)."""

import pytest

from app.domain.kernel.idempotency import MAX_LENGTH, InvalidKey, fingerprint, read_key


@pytest.mark.parametrize("sent,key", [
    ("8e03978e-40d5-43e8-bc93-6894a57f9324", "8e03978e-40d5-43e8-bc93-6894a57f9324"),  # Stripe's bare form
    ('"8e03978e-40d5-43e8-bc93-6894a57f9324"', "8e03978e-40d5-43e8-bc93-6894a57f9324"),  # the draft's String
    ('"a \\"b\\" \\\\c"', 'a "b" \\c'),  # RFC 8941 escapes
    ('"a"b"', '"a"b"'),  # not one String: the key as it is
    ('"', '"'), ("~" * MAX_LENGTH, "~" * MAX_LENGTH), ("a b", "a b"),
])
def test_a_key_is_its_value_or_the_strings_content(sent, key):
    assert read_key(sent) == key


@pytest.mark.parametrize("sent", ["", "x" * (MAX_LENGTH + 1), "caf\u00e9", "a\tb", "a\x00", "\x7f", " a", "a ",
                                  '""', "\u202e"])
def test_anything_else_is_refused(sent):
    with pytest.raises(InvalidKey) as refused:
        read_key(sent)
    assert refused.value.code == "invalid_request" and "Idempotency-Key" in refused.value.message


def test_the_same_json_written_another_way_is_the_same_request():
    one = fingerprint("api_key:key_1", "POST", "/v1/webhooks?", b'{"url": "https://a.example", "events": ["x"]}')
    assert one == fingerprint("api_key:key_1", "POST", "/v1/webhooks?", b'{"events":["x"],\n"url":"https://a.example"}')
    assert len(one) == 64


@pytest.mark.parametrize("credential,method,target,body", [
    ("api_key:key_2", "POST", "/v1/webhooks?", b'{"url": "https://a.example", "events": ["x"]}'),
    ("oauth:key_1", "POST", "/v1/webhooks?", b'{"url": "https://a.example", "events": ["x"]}'),
    ("api_key:key_1", "POST", "/v1/sandbox/events?", b'{"url": "https://a.example", "events": ["x"]}'),
    ("api_key:key_1", "POST", "/v1/webhooks?", b'{"url": "https://a.example", "events": ["x", "y"]}'),
    ("api_key:key_1", "POST", "/v1/webhooks?", b'{"url": "https://a.example", "events": ["x"], "extra": 1}'),
    ("api_key:key_1", "POST", "/v1/webhooks?", b""),
    ("api_key:key_1", "POST", "/v1/webhooks?a=1", b'{"url": "https://a.example", "events": ["x"]}'),
])
def test_any_other_credential_path_or_body_is_another_request(credential, method, target, body):
    one = fingerprint("api_key:key_1", "POST", "/v1/webhooks?", b'{"url": "https://a.example", "events": ["x"]}')
    assert fingerprint(credential, method, target, body) != one


def test_a_body_that_is_not_json_counts_by_its_bytes():
    assert fingerprint("k", "POST", "/p?", b"{") == fingerprint("k", "POST", "/p?", b"{")
    assert fingerprint("k", "POST", "/p?", b"{") != fingerprint("k", "POST", "/p?", b"{ ")
    assert fingerprint("k", "POST", "/p?", b"\xff\xfe") != fingerprint("k", "POST", "/p?", b"\xff")
    assert fingerprint("k", "POST", "/p?", b"[" * 100000)  # too deep to parse: its bytes
    # the parts cannot run into each other
    assert fingerprint("k", "POST", "/ab", b"c") != fingerprint("k", "POST", "/a", b"bc")
