"""Outbound HTTP to webhook receivers, pinned to addresses that passed the URL rules.

Every attempt resolves the host again and judges every address it gets
(app/domain/webhooks/urls.py); the connection then goes to a judged address only, with
TLS's SNI and certificate check still made for the host name. A name that resolves to a
public address first and to 127.0.0.1 next (DNS rebinding) can therefore never reach
loopback: the address connected to is the one judged. Redirects are never followed; a
3xx is a failed attempt. The whole attempt (connect, request, the whole response) has 10
seconds.

libcurl (pycurl) sends: a third of the CPU per request of urllib3's, which was most of a
worker's time (bench/delivery.py). Its handles are kept per receiver address and host,
each with one kept-alive connection (up to POOL_SIZE per receiver), so a worker sending
many deliveries to one receiver reuses its connections, across jobs too.
"""

import ipaddress
import logging
import re
import socket
import ssl
import threading
import time
from urllib.parse import urlsplit

import dns.exception
import dns.nameserver
import dns.resolver
import pycurl

from app.domain.webhooks.deliveries import Outcome
from app.domain.webhooks.urls import check_url

log = logging.getLogger(__name__)
USER_AGENT = "SVC-Partner-API-Webhooks/1.2"
READ_LIMIT = 64 * 1024  # more than the log keeps (1 KB); the rest is not read
POOL_SIZE = 16  # kept-alive connections per receiver: one per sending thread (app/jobs/webhooks.py)


def resolve(host, port):
    """The addresses a host name resolves to (LookupError if none)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise LookupError(f"{host}: {exc}") from None
    return [info[4][0] for info in infos]


_DNS_SERVER = re.compile(r"(?:\[(?P<bracketed>[^\]]+)\]|(?P<plain>[^:\[\]]+))(?::(?P<port>\d+))?")


def parse_dns_servers(text):
    """`WEBHOOK_DNS_SERVERS`: "address" or "address:port" ("[v6 address]:port"), comma-
    separated, as (address, port) pairs; ValueError naming a bad one."""
    servers = []
    for item in (part.strip() for part in (text or "").split(",")):
        if not item:
            continue
        # A bare IPv6 address has colons of its own; with a port it is written in brackets.
        found = _DNS_SERVER.fullmatch(item) if item.count(":") < 2 or item.startswith("[") else None
        address = (found["bracketed"] or found["plain"]) if found else item
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address with an optional :port") from None
        port = int(found["port"]) if found and found["port"] else 53
        if not 0 < port < 65536:
            raise ValueError(f"{item!r} has no valid port")
        servers.append((address, port))
    return servers


def dns_resolver(servers, lifetime=5.0):
    """A resolver (like `resolve`) that asks these DNS servers ((address, port) pairs)
    instead of the system's, with dnspython: for an operator who wants webhook hosts
    resolved by a server of their choosing (and for the DNS-rebinding test)."""
    asking = dns.resolver.Resolver(configure=False)
    asking.nameservers = [dns.nameserver.Do53Nameserver(address, port) for address, port in servers]
    asking.lifetime = lifetime

    def resolve_with_servers(host, port):
        found = []
        for record_type in ("A", "AAAA"):
            try:
                found += [record.address for record in asking.resolve(host, record_type, search=False)]
            except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
                continue
            except dns.exception.DNSException as exc:
                raise LookupError(f"{host}: {exc}") from None
        if not found:
            raise LookupError(f"{host}: no address")
        return found

    return resolve_with_servers


class Sender:
    """Sends webhook attempts with libcurl (pycurl), one kept-alive connection per
    handle and handles kept per receiver address, like a pool of connections."""

    def __init__(self, allowed_networks=(), *, ca_file=None, timeout=10.0, resolver=resolve):
        self.allowed, self.timeout, self.resolver = allowed_networks, timeout, resolver
        if ca_file:  # this CA alone, as ssl.create_default_context(cafile=...) trusts
            self._trust = {pycurl.CAINFO: ca_file}
        else:  # the system's store, the one Python's ssl module trusts
            paths = ssl.get_default_verify_paths()
            self._trust = {option: path for option, path in ((pycurl.CAINFO, paths.cafile),
                                                             (pycurl.CAPATH, paths.capath)) if path}
        self._idle, self._lock = {}, threading.Lock()

    def post(self, url, body, headers):
        """POST `body` to `url`; the Outcome. Never raises: whatever the receiver answers
        (or a fault of ours reading it) is an Outcome, since a raise would give the lane's
        attempts back to be sent again and again."""
        started = time.monotonic()
        try:
            return self._post(url, body, headers, started)
        except Exception as exc:
            log.exception("a webhook receiver's answer could not be read")
            return Outcome(None, error=f"the answer could not be read ({type(exc).__name__})",
                           duration_ms=_ms(started))

    def _post(self, url, body, headers, started):
        deadline = started + self.timeout
        try:
            target = check_url(url, self.resolver, self.allowed)
        except Exception as exc:  # ValidationFailed: the address is not deliverable now
            message = getattr(exc, "errors", None) and exc.errors[0][1] or str(exc)
            return Outcome(None, error=f"refused: {message}", duration_ms=_ms(started))
        parts = urlsplit(url)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        address_url = f"{target.scheme}://{_literal(target.host)}:{target.port}{path}"  # as judged (the host in ASCII)
        lines = [f"User-Agent: {USER_AGENT}", "Content-Type: application/json", "Expect:"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        last_error = "no address"
        for address in target.addresses:  # the judged addresses, and only those
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                last_error = "timeout"
                break
            key = (target.scheme, str(address), target.port, target.host)
            handle = self._take(key)
            answer = _Answer()
            try:
                handle.setopt(pycurl.URL, address_url)
                handle.setopt(pycurl.HTTPHEADER, lines)
                handle.setopt(pycurl.POSTFIELDS, body)
                handle.setopt(pycurl.TIMEOUT_MS, max(1, int(remaining * 1000)))
                handle.setopt(pycurl.WRITEFUNCTION, answer.body)
                handle.setopt(pycurl.HEADERFUNCTION, answer.header)
                try:
                    handle.perform()
                except pycurl.error as exc:
                    code, message = exc.args
                    failed = self._failed(handle, answer, code, message, started)
                    if failed is None:  # no connection: the next judged address
                        last_error = _connect_error(code, message)
                        continue
                    return failed
                return self._read(handle, answer, started)
            finally:
                self._give_back(key, handle)
        return Outcome(None, error=last_error, duration_ms=_ms(started))

    def _failed(self, handle, answer, code, message, started):
        """The Outcome of a transfer libcurl ended with an error; None when it never
        connected (another address may). Reading stopped at READ_LIMIT is an answer."""
        if code == pycurl.E_WRITE_ERROR and answer.cut:
            return self._read(handle, answer, started)
        if code in _NO_CONNECTION:
            return None
        if code == pycurl.E_OPERATION_TIMEDOUT:
            if not handle.getinfo(pycurl.CONNECT_TIME):
                return None
            how = "the answer took over" if answer.status_line else "no answer within"
            return Outcome(None, error=f"timeout: {how} 10 seconds", duration_ms=_ms(started))
        if code in _TLS:
            return Outcome(None, error=f"TLS: {message[:200]}", duration_ms=_ms(started))
        return Outcome(None, error=f"HTTP: {message[:200]}", duration_ms=_ms(started))

    def _read(self, handle, answer, started):
        """The status, up to READ_LIMIT bytes of the body and the Retry-After header of
        a transfer that got an answer."""
        return Outcome(handle.getinfo(pycurl.RESPONSE_CODE), b"".join(answer.chunks), duration_ms=_ms(started),
                       retry_after=answer.retry_after)

    def _take(self, key):
        with self._lock:
            idle = self._idle.get(key)
            if idle:
                return idle.pop()
        handle = pycurl.Curl()
        options = {
            pycurl.NOSIGNAL: 1,  # threads: no SIGALRM for timeouts
            pycurl.PROTOCOLS: pycurl.PROTO_HTTP | pycurl.PROTO_HTTPS,
            pycurl.FOLLOWLOCATION: 0,  # a 3xx is the answer; redirects are never followed
            pycurl.PROXY: "",  # never the environment's proxy: the connection goes where it was judged
            pycurl.HTTP_VERSION: pycurl.CURL_HTTP_VERSION_1_1,
            pycurl.MAXCONNECTS: 1,  # this handle's one kept-alive connection
            pycurl.SSL_VERIFYPEER: 1,
            pycurl.SSL_VERIFYHOST: 2,  # the certificate is checked for the host name, as SNI names it
            # Every connection goes to the judged address and only there, whatever the
            # host name would resolve to now (DNS rebinding); TLS still speaks to the name.
            pycurl.CONNECT_TO: [f"::{_literal(key[1])}:{key[2]}"],
            **self._trust,
        }
        for option, value in options.items():
            handle.setopt(option, value)
        return handle

    def _give_back(self, key, handle):
        with self._lock:
            idle = self._idle.setdefault(key, [])
            if len(idle) < POOL_SIZE:
                idle.append(handle)
                return
        handle.close()


class _Answer:
    """What a receiver sends back, gathered by libcurl's callbacks: the status line,
    the Retry-After header and up to READ_LIMIT bytes of the body."""

    def __init__(self):
        self.chunks, self.size, self.cut = [], 0, False
        self.status_line, self.retry_after = None, None

    def header(self, line):
        if line[:5] == b"HTTP/":  # a new answer (after a 1xx, the real one): its own headers
            self.status_line, self.retry_after = line, None
        elif line[:12].lower() == b"retry-after:":
            self.retry_after = line[12:].strip().decode("latin-1")

    def body(self, chunk):
        room = READ_LIMIT - self.size
        self.chunks.append(chunk[:room])
        self.size += min(room, len(chunk))
        if len(chunk) > room:
            self.cut = True  # enough is read: the transfer stops and its connection is closed
            return 0
        return None


# libcurl's errors that mean no connection was made (another judged address may answer)
_NO_CONNECTION = {pycurl.E_COULDNT_CONNECT}
_TLS = {pycurl.E_SSL_CONNECT_ERROR, pycurl.E_PEER_FAILED_VERIFICATION, pycurl.E_SSL_CERTPROBLEM,
        pycurl.E_SSL_CIPHER, pycurl.E_SSL_CACERT_BADFILE, pycurl.E_SSL_ISSUER_ERROR}


def _literal(address):
    return f"[{address}]" if ":" in address else address


def _connect_error(code, message):
    if code == pycurl.E_OPERATION_TIMEDOUT:
        return "timeout connecting"
    return f"connection failed: {message[:200]}"


def _ms(started):
    return int((time.monotonic() - started) * 1000)
