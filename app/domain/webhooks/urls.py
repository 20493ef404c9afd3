"""Which webhook URLs may be delivered to: judged by the addresses a host resolves to,
never by the string (Contract, Webhooks rule 1; DESIGN.md, Webhook delivery).

A URL is `https://` on a public host, with no userinfo and at most 2,048 characters, and
holds no whitespace, control character, bidirectional control or other invisible format
character (kernel/text.py; the marks U+200E and U+200F a name may hold too). Every
address its host resolves to must be public: not loopback, private, link-local (the cloud
metadata address 169.254.169.254 among them), CGNAT, `0.0.0.0/8`, multicast, reserved,
benchmarking or documentation space, nor an IPv6 form of one (unique-local, link-local,
IPv4-mapped or -compatible, and 6to4 or NAT64 addresses that embed a private IPv4). A host
written as a number in any of the spellings `inet_aton` accepts (`2130706433`,
`0x7f.1`, `0177.0.0.1`, `127.1`) is that address, and judged as one.

The operator's `WEBHOOK_ALLOW_PRIVATE_NETWORKS` names networks whose addresses pass, and
may then be reached over `http://` too: a developer's machine, the test suite, an ERP on
the VM's own network. Resolution is the caller's (`resolve(host, port) -> [address]`,
raising LookupError): this module does no I/O, and the sender judges again, at every
attempt, the very addresses it then connects to.
"""

import functools
import ipaddress
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.domain.kernel.errors import ValidationFailed, Words
from app.domain.kernel.text import not_in_a_line, text_problem

MAX_URL_LENGTH = 2048
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
# Globally routed by the registry's reckoning, yet never a webhook receiver.
ALSO_REFUSED = (ipaddress.ip_network("192.88.99.0/24"),)  # the retired 6to4 relay anycast
_NUMBER_PART = re.compile(r"^(0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*)$")
_HOST_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


@dataclass(frozen=True)
class Target:
    url: str
    scheme: str
    host: str  # lower case; an IP literal without brackets
    port: int
    addresses: tuple[Address, ...]  # the judged addresses, in the resolver's order


def parse_networks(text: str) -> tuple[Network, ...]:
    """`WEBHOOK_ALLOW_PRIVATE_NETWORKS` -> networks; ValueError naming a bad entry."""
    networks = []
    for item in (text or "").replace(";", ",").split(","):
        if item.strip():
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
    return tuple(networks)


def check_url(text: str, resolve: Callable[[str, int], Iterable[str]], allowed: Iterable[Network] = ()) -> Target:
    """The Target of a webhook URL whose host resolves only to deliverable addresses, or
    ValidationFailed naming `url` with what is wrong."""
    scheme, host, port = _parts(text)
    literal = ip_literal(host)
    addresses: tuple[Address, ...]
    if literal is not None:
        addresses = (literal,)
    else:
        try:
            addresses = tuple(dict.fromkeys(ipaddress.ip_address(a) for a in resolve(host, port)))
        except (LookupError, ValueError):
            addresses = ()
        if not addresses:
            raise _refused(Words("the host %(host)s does not resolve", host=host))
    # Each refusal says what a developer whose receiver runs on their own machine needs to know (issue 35).
    for address in addresses:
        problem = address_problem(address, allowed)
        if problem:
            raise _refused(Words(
                "%(host)s resolves to %(address)s, %(problem)s; webhooks go to public addresses only; for "
                "development, the operator allows a network with WEBHOOK_ALLOW_PRIVATE_NETWORKS (e.g. "
                "127.0.0.0/8), set for the server and for any shell that runs `flask` commands",
                host=host, address=str(address), problem=problem))
    if scheme == "http" and not all(_inside(address, allowed) for address in addresses):
        raise _refused(Words(
            "must be https:// (http:// only to networks the operator allows; for development, the operator "
            "allows a network with WEBHOOK_ALLOW_PRIVATE_NETWORKS (e.g. 127.0.0.0/8), set for the server and for "
            "any shell that runs `flask` commands)"))
    return Target(text, scheme, host, port, addresses)


def address_problem(address: str | Address, allowed: Iterable[Network] = ()) -> str | None:
    """Why `address` may not receive webhooks (None if it may)."""
    return _address_problem(ipaddress.ip_address(address), tuple(allowed))


@functools.lru_cache(maxsize=4096)
def _address_problem(address: Address, allowed: tuple[Network, ...]) -> str | None:
    if _inside(address, allowed):
        return None
    if address.version == 6:
        if address.ipv4_mapped is not None or (int(address) >> 32 == 0 and int(address) > 1):
            return Words("an IPv4 address written as IPv6")
        embedded = address.sixtofour or next(
            (ipaddress.IPv4Address(int(address) & 0xFFFFFFFF) for net in NAT64 if address in net), None)
        if embedded is not None:
            inner = address_problem(embedded, allowed)
            if inner is None:
                return None
            return Words("which embeds %(address)s, %(problem)s", address=str(embedded), problem=inner)
    if address.is_loopback:
        return Words("a loopback address")
    if address.is_link_local:
        return Words("a link-local address")
    if address.is_multicast:
        return Words("a multicast address")
    if address.is_private:
        return Words("a private address")
    if not address.is_global or any(address in net for net in ALSO_REFUSED):
        return Words("not a public address")
    return None


def ip_literal(host: str) -> Address | None:
    """The address a host names as a number, or None for a name. Dotted, hex, octal and
    short IPv4 spellings count, as C resolvers read them."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    parts = host.split(".")
    if not all(_NUMBER_PART.match(part) for part in parts) or not 1 <= len(parts) <= 4:
        return None
    values = [int(part, 16) if part[:2].lower() == "0x" else int(part, 8) if part.startswith("0") else int(part)
              for part in (p if p not in ("0x", "0X") else "0x0" for p in parts)]
    *head, last = values
    if any(value > 255 for value in head) or last >= 256 ** (4 - len(head)):
        raise _refused(Words("%(host)s is not a valid address", host=host))
    number = 0
    for value in head:
        number = number * 256 + value
    return ipaddress.IPv4Address(number * 256 ** (4 - len(head)) + last)


def _parts(text: object) -> tuple[str, str, int]:
    if not isinstance(text, str) or not text:
        raise _refused(Words("a URL is required"))
    return _parsed(text)


@functools.lru_cache(maxsize=4096)
def unfit_character(url: str) -> str | None:
    """The first character a URL may not hold, or None: whitespace, controls (C0, C1),
    bidirectional controls, line separators and U+FEFF (kernel/text.py), as a receiver's
    URL reaches logs, the console and partners as stored; and, unlike a name, any
    invisible format character (Unicode's Cf: the marks U+200E and U+200F, zero-width
    spaces and joiners, a soft hyphen), so two URLs that look the same are the same URL."""
    return next((ch for ch in url if ch.isspace() or unicodedata.category(ch) == "Cf"), None) or not_in_a_line(url)


def _parsed(text: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a URL's text, or ValidationFailed (not kept: it is raised
    anew). Kept per text, since a worker judges the same few URLs at every delivery;
    what the host resolves to is asked every time."""
    if len(text) > MAX_URL_LENGTH:
        raise _refused(Words("at most %(limit)s characters", limit=MAX_URL_LENGTH))
    unstorable = text_problem(text)
    if unstorable:
        raise _refused(Words("the URL %(problem)s", problem=unstorable))
    unfit = unfit_character(text)
    if unfit is not None:
        raise _refused(Words("no spaces, control characters or bidirectional controls (it contains %(character)s)",
                             character=f"U+{ord(unfit):04X}"))
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise _refused(Words("not a valid URL")) from None
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise _refused(Words("must be https://"))
    if "@" in parts.netloc:
        raise _refused(Words("no user name or password in the URL"))
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise _refused(Words("a host is required"))
    try:
        host = host.encode("idna").decode("ascii")  # an international name, as DNS knows it
    except UnicodeError:
        raise _refused(Words("%(host)s is not a valid host name", host=host)) from None
    if "%" in host:
        raise _refused(Words("no IPv6 zone identifiers"))
    if ip_literal_or_none(host) is None and not all(_HOST_LABEL.match(label) for label in host.split(".")):
        raise _refused(Words("%(host)s is not a valid host name", host=host))
    return scheme, host.lower(), port or (443 if scheme == "https" else 80)


def ip_literal_or_none(host: str) -> Address | None:
    try:
        return ip_literal(host)
    except ValidationFailed:
        return None


def _inside(address: Address, allowed: Iterable[Network]) -> bool:
    return any(address.version == net.version and address in net for net in allowed)


def _refused(message: Words) -> ValidationFailed:
    return ValidationFailed(Words("webhook URL refused"), [("url", message)])
