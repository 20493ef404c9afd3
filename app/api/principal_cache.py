"""Principals cached in each web process, kept honest by the database's credentials
version, and by a copy in Redis that makes a change seen at the next request.

A principal (app/domain/access/principal.py) is a credential of any kind, its company
and the company's legal entities. With Redis, each process keeps the principals of
recently used credentials in memory, keyed by the presented credential (its kind and
hash), so that a request needs no SQL to authenticate (bench/read_path).

The protocol, all of it here (DESIGN.md: revocation's truth is the database; no cache
outlives a revocation by more than a second, Redis up or down):
- The truth: a counter in the database (`CredentialsVersion`, app/models/keys.py) that
  every change to a credential, a company or an entity moves as the last write of its
  transaction (`Runtime.credentials_changed`). A process trusts what it keeps only while
  it has read that counter, unmoved, within the last `recheck` (half a second): one
  primary-key read per process every half second, whatever the traffic. An entry is kept
  under the counter read before its principal was loaded, so a change committed during
  the load still moves the counter past it. Redis plays no part in this: a revocation
  made while Redis is down, or lost by a Redis that came back from an older saved file,
  is refused by every process within `recheck` of its commit.
- The speed-up: a random token in Redis under `RedisVersion.KEY`, which every change
  replaces at once and again after commit (between the two, another process may reload
  the old rows under the new token, and the second replacement retires that copy). Not a
  counter: a Redis that lost its data makes a fresh token, which matches no entry (one
  restarted from an older file brings an old token back: the database's version is for
  that). Each request reads it in the round trip it makes anyway, its rate-limit step
  (RedisLimiter's `version_key`), and uses a cached principal only while the token is the
  one it was loaded under: while Redis is up and keeps its data, a change is seen at once.
- And an entry is at most `max_age` old, for changes made behind the service's back
  (SQL by hand) that move no version.
Without Redis (or while it is down) there is no token: nothing is kept, and every
request loads its principal with one query.
"""

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import redis

from app.domain import credentials
from app.domain.access.principal import Principal, Unauthenticated
from app.extensions import service
from app.limits import Decision, Limiter, make_limiter
from app.models import db
from app.models.keys import credentials_version

log = logging.getLogger(__name__)


class RedisVersion:
    """Redis's copy of "the credentials changed": a random token, replaced at each change."""

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
            # The change holds anyway: the database's version moved with it, and every
            # process checks that within Authenticator.recheck.
            log.warning("could not bump the credentials version in Redis: %s; every process sees the change "
                        "through the database's within a second", exc)


def make_authenticator(limit_per_minute: int, redis_client: redis.Redis | None = None, *,
                       limits_file: str | None = None, **options: Any) -> "Authenticator":
    """The Authenticator of a web process: its rate limit reads Redis's version when
    there is Redis; without Redis nothing is cached."""
    versions = RedisVersion(redis_client) if redis_client is not None else None
    limiter = make_limiter(limit_per_minute, redis_client, path=limits_file,
                           version_key=(RedisVersion.KEY, RedisVersion.fresh))
    return Authenticator(limiter, versions, **options)


@dataclass
class _Entry:
    principal: Principal
    version: str | None  # Redis's token it was loaded under
    database_version: int  # the database's credentials version read before it was loaded
    loaded_at: datetime
    last_used_at: datetime | None


class Authenticator:
    """Presented credential -> (principal, rate-limit decision), in as few round trips
    as possible: a warm entry costs one Redis call and no SQL (and one primary-key read
    per `recheck` for the whole process). The rate limit counts per credential."""

    def __init__(self, limiter: Limiter, versions: RedisVersion | None, *, last_used_resolution: int,
                 max_entries: int = 10_000, max_age: timedelta = timedelta(seconds=30),
                 recheck: timedelta = timedelta(milliseconds=500),
                 database_version: Callable[[], int] = credentials_version) -> None:
        self.limiter, self.versions = limiter, versions  # versions: None without Redis
        self.last_used_resolution = last_used_resolution
        self.max_entries, self.max_age, self.recheck = max_entries, max_age, recheck
        self._database_version = database_version
        self._confirmed: tuple[datetime, int] | None = None  # (when read, the database's version)
        self._entries: dict[credentials.Bearer, _Entry] = {}

    def __call__(self, bearer: credentials.Bearer, now: datetime) -> tuple[Principal, Decision | None]:
        """(principal, decision) for a `credentials.Bearer`. The decision is None when the
        company has the Partner API off and the principal was just loaded: that request
        is refused uncounted. Raises Unauthenticated."""
        now_us = int(now.timestamp() * 1_000_000)
        database_version = self._confirm(now) if self.versions is not None else 0
        entry, verdict = self._entries.get(bearer), None
        if (entry is not None and entry.database_version == database_version
                and now - entry.loaded_at < self.max_age):
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
            entry = self._keep(bearer, used.principal, version, database_version, now)
            if verdict is None and used.principal.company.api_enabled:
                verdict = self.limiter.hit(used.principal.credential_id, now_us)
        entry.last_used_at = used.last_used_at
        return entry.principal, verdict

    def _confirm(self, now: datetime) -> int:
        """The database's credentials version as read at most `recheck` ago (read now if
        older, or if the clock went back). The time kept is the request's, taken before
        the read: a change committed before it is in what the read sees."""
        confirmed = self._confirmed
        if confirmed is None or not timedelta(0) <= now - confirmed[0] < self.recheck:
            confirmed = self._confirmed = (now, self._database_version())
        return confirmed[1]

    def _keep(self, bearer: credentials.Bearer, principal: Principal, version: str | None, database_version: int,
              now: datetime) -> _Entry:
        """A just-loaded principal, kept while its versions hold (never without Redis, nor
        for a company with the Partner API off)."""
        self._entries.pop(bearer, None)
        entry = _Entry(principal, version, database_version, now, principal.last_used_at)
        if version is not None and principal.company.api_enabled:
            if len(self._entries) >= self.max_entries:
                del self._entries[next(iter(self._entries))]  # the oldest loaded
            self._entries[bearer] = entry
        return entry


def authenticator() -> Authenticator:
    """This web process's Authenticator (create_app makes it with make_authenticator)."""
    return service("authenticator", Authenticator)
