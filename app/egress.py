"""Outbound HTTP to webhook receivers, pinned to addresses that passed the URL rules.

Every attempt resolves the host again and judges every address it gets
(app/domain/webhooks/urls.py); the connection then goes to a judged address only, with
TLS's SNI and certificate check still made for the host name. A name that resolves to a
public address first and to 127.0.0.1 next (DNS rebinding) can therefore never reach
loopback: the address connected to is the one judged. Redirects are never followed; a
3xx is a failed attempt. The whole attempt (connect, request, the whole response) has 10
seconds.

urllib3 (the HTTP core of requests) keeps one small keep-alive pool per receiver address
and host, so a worker sending many deliveries to one receiver reuses its connection.
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
import urllib3

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
    def __init__(self, allowed_networks=(), *, ca_file=None, timeout=10.0, resolver=resolve):
        self.allowed, self.timeout, self.resolver = allowed_networks, timeout, resolver
        self.ssl_context = ssl.create_default_context(cafile=ca_file)
        self._pools, self._lock = {}, threading.Lock()

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
        default_port = 443 if target.scheme == "https" else 80
        host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
        headers = {"Host": host_header, "User-Agent": USER_AGENT, "Content-Type": "application/json", **headers}
        last_error = "no address"
        for address in target.addresses:  # the judged addresses, and only those
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                last_error = "timeout"
                break
            pool = self._pool(target.scheme, str(address), target.port, target.host)
            try:
                response = pool.urlopen("POST", path, body=body, headers=headers, redirect=False, retries=False,
                                        preload_content=False, assert_same_host=False,
                                        timeout=urllib3.Timeout(connect=remaining, read=remaining))
            except urllib3.exceptions.NewConnectionError as exc:
                last_error = f"connection failed: {_reason(exc)}"
                continue  # the next judged address
            except urllib3.exceptions.ConnectTimeoutError:
                last_error = "timeout connecting"
                continue
            except urllib3.exceptions.ReadTimeoutError:
                return Outcome(None, error="timeout: no answer within 10 seconds", duration_ms=_ms(started))
            except urllib3.exceptions.SSLError as exc:
                return Outcome(None, error=f"TLS: {_reason(exc)}", duration_ms=_ms(started))
            except urllib3.exceptions.HTTPError as exc:
                return Outcome(None, error=f"HTTP: {_reason(exc)}", duration_ms=_ms(started))
            return self._read(response, deadline, started)
        return Outcome(None, error=last_error, duration_ms=_ms(started))

    def _read(self, response, deadline, started):
        """The status and up to READ_LIMIT bytes, all within the deadline. A connection
        whose answer was not read to its end is closed, never reused."""
        chunks, size, finished = [], 0, False
        try:
            while size < READ_LIMIT:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                sock = getattr(response.connection, "sock", None)
                if sock is not None:
                    sock.settimeout(remaining)
                chunk = response.read(8192)
                if not chunk:
                    finished = True
                    break
                chunks.append(chunk)
                size += len(chunk)
        except (TimeoutError, urllib3.exceptions.ReadTimeoutError):
            return Outcome(None, error="timeout: the answer took over 10 seconds", duration_ms=_ms(started))
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            return Outcome(None, error=f"HTTP: {_reason(exc)}", duration_ms=_ms(started))
        finally:
            if not finished:
                response.close()
            response.release_conn()
        return Outcome(response.status, b"".join(chunks), duration_ms=_ms(started),
                       retry_after=response.headers.get("Retry-After"))

    def _pool(self, scheme, address, port, host):
        key = (scheme, address, port, host)
        with self._lock:
            pool = self._pools.get(key)
            if pool is None:
                if scheme == "https":
                    pool = urllib3.HTTPSConnectionPool(address, port, maxsize=POOL_SIZE, block=False,
                                                       ssl_context=self.ssl_context, server_hostname=host,
                                                       assert_hostname=host)
                else:
                    pool = urllib3.HTTPConnectionPool(address, port, maxsize=POOL_SIZE, block=False)
                self._pools[key] = pool
        return pool


def _ms(started):
    return int((time.monotonic() - started) * 1000)


def _reason(exc):
    reason = getattr(exc, "reason", None) or exc
    return str(reason)[:200]
