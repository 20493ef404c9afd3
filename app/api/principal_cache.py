"""Principals cached in each web process, kept honest by one service-wide version in Redis.

A principal (app/domain/access/principal.py) is a credential of any kind, its company
and the company's legal entities. With Redis, each process keeps the principals of
recently used credentials in memory, keyed by the presented credential (its kind and
hash), so that a request needs no SQL to authenticate (bench/read_path).

The protocol, all of it here:
- One version for everything principals are made of, a random token in Redis under
  VERSION_KEY (never a counter: a Redis restart cannot bring an old one back).
- Every change to a credential, a company or an entity calls `CredentialsVersion.changed`
  inside its transaction (through `Runtime.credentials_changed`). The version is bumped
  then and again after commit: between the two, another process may reload the old rows
  under the new version, and the second bump retires that copy.
- Each request reads the version in the round trip it makes anyway, its rate-limit step
  (RedisLimiter's `version_key`), and uses a cached principal only while the version is
  the one it was loaded under, and for at most `max_age`: the bound on staleness if a
  bump was lost while Redis was down.
Without Redis (or while it is down) there is no version: nothing is kept, and every
request loads its principal with one query.
"""

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import redis

from app.api.ratelimit import Decision, Limiter, make_limiter
from app.domain import credentials
from app.domain.access.principal import Principal, Unauthenticated
from app.extensions import service
from app.models import db

log = logging.getLogger(__name__)


class CredentialsVersion:
    KEY = "partner-api:credentials-version"

    def __init__(self, client: redis.Redis) -> None:
        self._client = client

    @staticmethod
    def fresh() -> str:
        return secrets.token_hex(8)

    def changed(self) -> None:
        self._bump()
        if db.in_transaction():
            db.after_commit(self._bump)

    def current(self) -> str | None:
        """The current version (made if missing), or None if Redis is down."""
        fresh = self.fresh()
        try:
            stored = self._client.set(self.KEY, fresh, nx=True, get=True)
        except redis.RedisError as exc:
            log.warning("credentials version unreadable: %s", exc)
            return None
        return cast(bytes, stored).decode() if stored is not None else fresh

    def _bump(self) -> None:
        try:
            self._client.set(self.KEY, self.fresh())
        except redis.RedisError as exc:
            # Cached principals still expire on their own (Authenticator.max_age).
            log.error("could not bump the credentials version: %s", exc)


def make_authenticator(limit_per_minute: int, redis_client: redis.Redis | None = None, *,
                       limits_file: str | None = None, **options: Any) -> "Authenticator":
    """The Authenticator of a web process: its rate limit reads the credentials version
    when there is Redis; without Redis nothing is cached."""
    versions = CredentialsVersion(redis_client) if redis_client is not None else None
    limiter = make_limiter(limit_per_minute, redis_client, path=limits_file,
                           version_key=(CredentialsVersion.KEY, CredentialsVersion.fresh))
    return Authenticator(limiter, versions, **options)


@dataclass
class _Entry:
    principal: Principal
    version: str | None
    loaded_at: datetime
    last_used_at: datetime | None


class Authenticator:
    """Presented credential -> (principal, rate-limit decision), in as few round trips
    as possible: a warm entry costs one Redis call and no SQL. The rate limit counts per
    credential."""

    def __init__(self, limiter: Limiter, versions: CredentialsVersion | None, *, last_used_resolution: int,
                 max_entries: int = 10_000, max_age: timedelta = timedelta(seconds=30)) -> None:
        self.limiter, self.versions = limiter, versions  # versions: None without Redis
        self.last_used_resolution = last_used_resolution
        self.max_entries, self.max_age = max_entries, max_age
        self._entries: dict[credentials.Bearer, _Entry] = {}

    def __call__(self, bearer: credentials.Bearer, now: datetime) -> tuple[Principal, Decision | None]:
        """(principal, decision) for a `credentials.Bearer`. The decision is None when the
        company has the Partner API off and the principal was just loaded: that request
        is refused uncounted. Raises Unauthenticated."""
        now_us = int(now.timestamp() * 1_000_000)
        entry, verdict = self._entries.get(bearer), None
        if entry is not None and now - entry.loaded_at < self.max_age:
            verdict = self.limiter.hit(entry.principal.credential_id, now_us)
            if verdict.version != entry.version:
                # Something changed since it was loaded. The version came back before
                # this reload, so any later change still shows as a newer version.
                entry, version = None, verdict.version
        else:
            entry, version = None, self.versions.current() if self.versions else None
        try:
            used = credentials.authenticate(bearer, now, self.last_used_resolution,
                                            known=entry.principal if entry else None,
                                            last_used_at=entry.last_used_at if entry else None)
        except Unauthenticated:
            self._entries.pop(bearer, None)
            raise
        if entry is None:
            entry = self._keep(bearer, used.principal, version, now)
            if verdict is None and used.principal.company.api_enabled:
                verdict = self.limiter.hit(used.principal.credential_id, now_us)
        entry.last_used_at = used.last_used_at
        return entry.principal, verdict

    def _keep(self, bearer: credentials.Bearer, principal: Principal, version: str | None, now: datetime) -> _Entry:
        """A just-loaded principal, kept while its version holds (never without Redis, nor
        for a company with the Partner API off)."""
        self._entries.pop(bearer, None)
        entry = _Entry(principal, version, now, principal.last_used_at)
        if version is not None and principal.company.api_enabled:
            if len(self._entries) >= self.max_entries:
                del self._entries[next(iter(self._entries))]  # the oldest loaded
            self._entries[bearer] = entry
        return entry


def authenticator() -> Authenticator:
    """This web process's Authenticator (create_app makes it with make_authenticator)."""
    return service("authenticator", Authenticator)
