"""The webhook sender's DNS settings (app/egress.py): WEBHOOK_DNS_SERVERS, and a resolver
that asks those servers (a real one, dnslib, on loopback)."""

import socket

import pytest
from dnslib import AAAA, QTYPE, RR, A
from dnslib.server import BaseResolver, DNSServer

from app.egress import dns_resolver, parse_dns_servers


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
