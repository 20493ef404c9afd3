"""The webhook sender (app/egress.py): its DNS settings (WEBHOOK_DNS_SERVERS, and a
resolver that asks those servers: a real one, dnslib, on loopback), and how it connects,
sends and reads, against real receivers on loopback."""

import socket

import pytest
from dnslib import AAAA, QTYPE, RR, A
from dnslib.server import BaseResolver, DNSServer

from app.domain.webhooks.urls import parse_networks
from app.egress import READ_LIMIT, Sender, dns_resolver, parse_dns_servers
from tests.receivers import Receiver


@pytest.mark.parametrize("text,servers", [
    ("", []), ("  ", []), ("9.9.9.9", [("9.9.9.9", 53)]), ("127.0.0.1:5353", [("127.0.0.1", 5353)]),
    ("[2620:fe::fe]:5353, 1.1.1.1", [("2620:fe::fe", 5353), ("1.1.1.1", 53)]), ("2620:fe::fe", [("2620:fe::fe", 53)]),
    ("[::1]", [("::1", 53)]),
])
def test_dns_servers_are_addresses_with_an_optional_port(text, servers):
    assert parse_dns_servers(text) == servers


@pytest.mark.parametrize("text", ["dns.google", "1.1.1.1:0", "1.1.1.1:70000", "1.1.1.1:dns", "[::1]:x", "[::1",
                                  "300.1.1.1"])
def test_a_bad_dns_server_is_named(text):
    with pytest.raises(ValueError, match="not an IP address|no valid port"):
        parse_dns_servers(text)


class Zone(BaseResolver):
    records = {"both.test.": ("203.0.113.7", "2001:db8::7"), "v4.test.": ("203.0.113.8", None)}

    def resolve(self, request, handler):
        reply, name = request.reply(), str(request.q.qname)
        v4, v6 = self.records.get(name, (None, None))
        if QTYPE[request.q.qtype] == "A" and v4:
            reply.add_answer(RR(name, QTYPE.A, rdata=A(v4)))
        if QTYPE[request.q.qtype] == "AAAA" and v6:
            reply.add_answer(RR(name, QTYPE.AAAA, rdata=AAAA(v6)))
        if name not in self.records:
            reply.header.rcode = 3  # NXDOMAIN
        return reply


@pytest.fixture
def zone():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = DNSServer(Zone(), address="127.0.0.1", port=port)
    server.start_thread()
    yield dns_resolver([("127.0.0.1", port)], lifetime=2)
    server.stop()


def test_the_resolver_asks_its_servers_for_both_families(zone):
    assert zone("both.test", 443) == ["203.0.113.7", "2001:db8::7"]
    assert zone("v4.test", 443) == ["203.0.113.8"]


def test_a_name_without_an_address_is_a_lookup_error(zone):
    with pytest.raises(LookupError, match="nowhere.test"):
        zone("nowhere.test", 443)


def test_a_server_that_does_not_answer_is_a_lookup_error():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as silent:  # bound, never answers
        silent.bind(("127.0.0.1", 0))
        with pytest.raises(LookupError, match="silent.test"):
            dns_resolver([silent.getsockname()], lifetime=0.3)("silent.test", 443)


# The sender itself (libcurl through pycurl) against real receivers on loopback.
LOOPBACK = parse_networks("127.0.0.0/8")


def test_the_connection_goes_to_the_judged_address_and_speaks_to_the_host_name():
    """The name is resolved by the sender's resolver alone (".invalid" has no DNS), the
    request reaches the address it answered, and the Host header is still the name."""
    sender = Sender(LOOPBACK, timeout=2, resolver=lambda host, port: ["127.0.0.1"])
    with Receiver() as receiver:
        outcome = sender.post(f"http://receiver.invalid:{receiver.port}/hook?x=1", b'{"a": 1}',
                              {"X-SVC-Signature": "t=1,v1=ab"})
        assert outcome.status == 200 and outcome.body == b"ok" and outcome.error is None
        [request] = receiver.requests
    assert request["path"] == "/hook?x=1" and request["body"] == b'{"a": 1}'
    assert request["headers"]["Host"] == f"receiver.invalid:{receiver.port}"
    assert request["headers"]["X-SVC-Signature"] == "t=1,v1=ab"
    assert request["headers"]["Content-Type"] == "application/json"
    assert request["headers"]["User-Agent"].startswith("SVC-Partner-API-Webhooks/")
    assert "Expect" not in request["headers"]


def test_an_address_that_refuses_is_passed_over_for_the_next_judged_one():
    sender = Sender(LOOPBACK, timeout=2, resolver=lambda host, port: ["127.0.0.2", "127.0.0.1"])
    with Receiver() as receiver:  # listens on 127.0.0.1 only
        outcome = sender.post(f"http://two.invalid:{receiver.port}/hook", b"{}", {})
        assert outcome.status == 200 and len(receiver.requests) == 1


def test_an_address_outside_the_rules_is_never_connected_to():
    sender = Sender((), timeout=2, resolver=lambda host, port: ["127.0.0.1"])
    with Receiver() as receiver:
        outcome = sender.post(f"http://rebind.invalid:{receiver.port}/hook", b"{}", {})
        assert outcome.status is None and outcome.error.startswith("refused: ") and receiver.requests == []


def test_the_environments_proxy_is_never_used(monkeypatch):
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")  # nothing listens on the discard port
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    sender = Sender(LOOPBACK, timeout=2)
    with Receiver() as receiver:
        assert sender.post(receiver.url, b"{}", {}).status == 200 and len(receiver.requests) == 1


def test_attempts_to_one_receiver_reuse_a_kept_alive_connection():
    sender = Sender(LOOPBACK, timeout=2)
    with Receiver(keep_alive=True) as receiver:
        for _ in range(5):
            assert sender.post(receiver.url, b"{}", {}).status == 200
        assert len({request["peer"] for request in receiver.requests}) == 1


def test_a_long_answer_is_read_up_to_the_limit_and_its_connection_is_not_reused():
    sender = Sender(LOOPBACK, timeout=2)
    with Receiver(keep_alive=True, status=503, body=b"x" * (READ_LIMIT * 4), headers={"Retry-After": "120"}) as big:
        outcome = sender.post(big.url, b"{}", {})
        assert (outcome.status, len(outcome.body), outcome.retry_after) == (503, READ_LIMIT, "120")
        big.body = b"ok"
        assert sender.post(big.url, b"{}", {}).status == 503
        first, second = big.requests
    assert first["peer"] != second["peer"]


def test_a_redirect_is_the_answer_and_is_not_followed():
    sender = Sender(LOOPBACK, timeout=2)
    with Receiver() as target, Receiver(status=307, headers={"Location": "/elsewhere"}) as redirecting:
        redirecting.headers["Location"] = target.url
        outcome = sender.post(redirecting.url, b"{}", {})
        assert outcome.status == 307 and target.requests == []


def test_nothing_listening_is_a_failed_connection():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    outcome = Sender(LOOPBACK, timeout=2).post(f"http://127.0.0.1:{port}/hook", b"{}", {})
    assert outcome.status is None and outcome.error.startswith("connection failed: ")
