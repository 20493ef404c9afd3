"""The URL table: every spelling of a private, loopback or otherwise unreachable address
is refused, whatever the string looks like; public hosts pass."""

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.errors import ValidationFailed
from app.domain.webhooks.urls import address_problem, check_url, ip_literal, parse_networks

PUBLIC = {"hooks.example.com": ["93.184.215.14"], "v6.example.com": ["2606:4700::6810:84e5"],
          "both.example.com": ["93.184.215.14", "2606:4700::6810:84e5"]}
# Names whose DNS answers are hostile: a private address among public ones, rebinding, ...
HOSTILE = {"internal.example.com": ["10.0.0.7"], "mixed.example.com": ["93.184.215.14", "127.0.0.1"],
           "metadata.example.com": ["169.254.169.254"], "mapped.example.com": ["::ffff:127.0.0.1"],
           "ula.example.com": ["fd12:3456::1"], "cgnat.example.com": ["100.64.1.1"]}


def resolve(host, port):
    answers = {**PUBLIC, **HOSTILE}
    if host not in answers:
        raise LookupError(host)
    return answers[host]


REFUSED = [
    # loopback, in every spelling
    "https://127.0.0.1/hook", "https://127.1/hook", "https://2130706433/hook", "https://0x7f000001/hook",
    "https://0x7f.0.0.1/hook", "https://0177.0.0.1/hook", "https://0177.1/hook", "https://127.000.000.001/hook",
    "https://[::1]/hook", "https://localhost/hook", "https://127.0.0.1.:8443/hook",
    # private, link-local, metadata
    "https://10.0.0.1/", "https://172.16.5.4/", "https://192.168.1.10/", "https://169.254.169.254/latest/meta-data",
    "https://0xa9fea9fe/", "https://[fe80::1]/", "https://[fd00::1]/", "https://[fc00::1]/",
    # CGNAT, this-network, multicast, reserved, benchmarking, documentation, broadcast
    "https://100.64.0.1/", "https://100.127.255.254/", "https://0.0.0.0/", "https://0/", "https://0.1.2.3/",
    "https://224.0.0.1/", "https://239.255.255.250/", "https://[ff02::1]/", "https://240.0.0.1/",
    "https://255.255.255.255/", "https://198.18.0.1/", "https://198.19.255.1/", "https://192.0.2.10/",
    "https://203.0.113.5/", "https://[2001:db8::1]/", "https://192.88.99.1/",
    # IPv6 forms that carry an IPv4 address
    "https://[::ffff:127.0.0.1]/", "https://[::ffff:8.8.8.8]/", "https://[::127.0.0.1]/", "https://[::8.8.8.8]/",
    "https://[2002:7f00:1::]/", "https://[2002:a00:1::1]/", "https://[64:ff9b::7f00:1]/", "https://[64:ff9b::a00:1]/",
    "https://[64:ff9b:1::a9fe:a9fe]/", "https://[::]/", "https://[2001::1]/",
    # names that resolve badly, or not at all
    "https://internal.example.com/", "https://mixed.example.com/", "https://metadata.example.com/",
    "https://mapped.example.com/", "https://ula.example.com/", "https://cgnat.example.com/",
    "https://nowhere.example.com/",
    # not an https URL on a host
    "http://hooks.example.com/", "ftp://hooks.example.com/", "https://user:pass@hooks.example.com/",
    "https://user@hooks.example.com/", "https:///hook", "hooks.example.com/hook", "https://hooks.example.com:99999/",
    "https://[fe80::1%25eth0]/", "https://hooks.example.com/a b", "https://hooks.example.com/\x00",
    "https://" + "a" * 64 + ".example.com/", "https://hooks.example.com/" + "a" * 2030, "https://1.2.3.4.5/",
    "https://256.1.1.1/", "https://1.256.1.1/", "", None, 42,
]


@pytest.mark.parametrize("url", REFUSED)
def test_refused(url):
    with pytest.raises(ValidationFailed) as refused:
        check_url(url, resolve)
    assert [path for path, _ in refused.value.errors] == ["url"]


@pytest.mark.parametrize("character", ["\u202e", "\u202a", "\u2066", "\u2069", "\x9b", "\x80", "\ufeff", "\u2028",
                                       "\xa0", "\u3000", "\t", "\r\n", "\x7f",
                                       # invisible: a URL that looks like another is refused (a name may hold the marks)
                                       "\u200e", "\u200f", "\u061c", "\u200b", "\u200d", "\u2060", "\xad"])
@pytest.mark.parametrize("where", ["https://hooks.example.com/{}hook", "https://hooks.example.com/h?x={}",
                                   "https://hooks.example.com/h#{}", "https://hooks.example.com/{}"])
def test_no_whitespace_control_or_bidirectional_control_anywhere_in_a_url(character, where):
    """Issue 46: the path, query and fragment took U+202E and C1 controls, and passed
    them to partners as stored. The refusal names the character, never echoes it."""
    with pytest.raises(ValidationFailed) as refused:
        check_url(where.format(character), resolve)
    [(path, message)] = refused.value.errors
    assert path == "url" and f"U+{ord(character[0]):04X}" in message and character not in message


def test_the_table_is_long_enough_and_nothing_in_it_passes():
    assert len(REFUSED) >= 40


@pytest.mark.parametrize("url,addresses", [
    ("https://hooks.example.com/partner/svc?x=1", ["93.184.215.14"]),
    ("https://v6.example.com:8443/h", ["2606:4700::6810:84e5"]),
    ("https://both.example.com/h", ["93.184.215.14", "2606:4700::6810:84e5"]),
    ("https://93.184.215.14/h", ["93.184.215.14"]),
    ("https://[2606:4700::6810:84e5]/h", ["2606:4700::6810:84e5"]),
    ("https://[2002:808:808::1]/h", ["2002:808:808::1"]),  # 6to4 of a public address
    ("HTTPS://Hooks.Example.COM./h", ["93.184.215.14"]),
])
def test_public_hosts_pass_with_the_addresses_judged(url, addresses):
    target = check_url(url, resolve)
    assert [str(a) for a in target.addresses] == addresses and target.scheme == "https"


def test_an_allowed_network_may_be_reached_and_over_http():
    allowed = parse_networks("127.0.0.0/8, 10.1.0.0/16")
    assert check_url("http://127.0.0.1:8080/hook", resolve, allowed).port == 8080
    assert check_url("https://10.1.2.3/hook", resolve, allowed).port == 443
    with pytest.raises(ValidationFailed):
        check_url("https://10.2.0.1/hook", resolve, allowed)
    with pytest.raises(ValidationFailed, match="webhook URL refused"):
        check_url("http://hooks.example.com/", resolve, allowed)  # http to a public host: still https only


def test_a_bad_allow_list_entry_is_an_error():
    with pytest.raises(ValueError):
        parse_networks("10.0.0.0/8, not-a-network")
    assert parse_networks("") == ()


@pytest.mark.parametrize("spelling,address", [
    ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
    ("10.1.258", "10.1.1.2"), ("0", "0.0.0.0"), ("hooks", None), ("deadbeef", None), ("0x", "0.0.0.0"),
])
def test_numeric_hosts_are_read_as_c_resolvers_read_them(spelling, address):
    found = ip_literal(spelling)
    assert (str(found) if found else None) == address


@given(st.integers(0, 2**32 - 1))
def test_every_ipv4_address_is_judged_alike_in_every_spelling(number):
    address = ipaddress.IPv4Address(number)
    expected = address_problem(address) is None
    for spelling in (str(number), hex(number), f"0{number:o}" if number else "0", str(address)):
        assert (address_problem(ip_literal(spelling)) is None) == expected


@given(st.integers(0, 2**32 - 1))
def test_no_ipv4_address_gets_through_by_an_ipv6_spelling_that_embeds_it(number):
    v4 = ipaddress.IPv4Address(number)
    if address_problem(v4) is None:
        return
    for v6 in (f"::ffff:{v4}", f"64:ff9b::{v4}", str(ipaddress.IPv6Address((0x2002 << 112) | (number << 80)))):
        assert address_problem(v6) is not None
