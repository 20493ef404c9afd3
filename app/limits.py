"""Per-key rate limits with GCRA (the generic cell rate algorithm): the API's rate limit
per credential (app/api/principal_cache.py), the console's sign-in throttle
(app/console/throttle.py) and webhook endpoints' paces for the delivery workers
(`SharedPacer`, behind the domain's `Pacer`), one service beside the app's others.

Why GCRA and not a library: the contract's `X-RateLimit-Reset` is "seconds until the
allowance is fully restored", which GCRA gives directly (theoretical arrival time
minus now), and its state is one number per key. With Redis it is updated atomically
by a short Lua script, so every process on every host shares it. Without Redis (the
embedded default) it lives in a small SQLite file (`RATE_LIMIT_FILE`) that every process
of the host opens and updates with one atomic statement: the contract's 600 per minute
per key holds exactly whatever the number of gunicorn workers. The file is separate from
the application database so that counting never waits on the application's writes.

A key may spend its whole window's allowance at once (burst = limit); after that one
request is allowed every window/limit (60/limit seconds for the API). All times are integer
microseconds. The console's sign-in throttle uses the same limiter with a longer window.

The Redis step can also read one more key in the same round trip (`version_key`): the API
limiter reads the credentials version there (app/api/principal_cache.py), so that a
request checks its cached principal in the round trip it makes anyway.
"""

import hashlib
import logging
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import redis

from app.models.base import private_file
from config import ConfigurationError

log = logging.getLogger(__name__)
WINDOW_US = 60_000_000


class Limiter(Protocol):
    """Counts a request against `key`'s allowance: MemoryLimiter, SharedFileLimiter, RedisLimiter."""

    def hit(self, key: str, now_us: int) -> "Decision": ...


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int  # until the full allowance is back
    retry_after_seconds: int  # 0 when allowed
    version: str | None = None  # the value under `version_key`; None when not read from Redis
    wait_us: int = 0  # until the next request would be allowed, exactly; 0 when allowed

    def headers(self) -> dict[str, str]:
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset_seconds),
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after_seconds)
        return headers


def gcra(stored_tat: int | None, now: int, interval: int, window: int = WINDOW_US) -> tuple[bool, int | None, int, int]:
    """One GCRA step. Returns (allowed, tat to store or None, backlog_us, wait_us)."""
    tat = max(stored_tat if stored_tat is not None else now, now)
    new_tat = tat + interval
    allow_at = new_tat - window
    if now < allow_at:
        return False, None, tat - now, allow_at - now
    return True, new_tat, new_tat - now, 0


def decision(limit: int, interval: int, window: int, allowed: bool, backlog_us: int, wait_us: int,
             version: str | None = None) -> Decision:
    remaining = max(0, (window - backlog_us) // interval) if allowed else 0
    return Decision(
        allowed=allowed, limit=limit, remaining=int(remaining),
        reset_seconds=math.ceil(backlog_us / 1_000_000),
        retry_after_seconds=max(1, math.ceil(wait_us / 1_000_000)) if not allowed else 0,
        version=version, wait_us=0 if allowed else int(wait_us),
    )


class MemoryLimiter:
    def __init__(self, limit: int, window_us: int = WINDOW_US) -> None:
        self.limit, self.window, self.interval = limit, window_us, window_us // limit
        self._tats: dict[str, int] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, now_us: int) -> Decision:
        with self._lock:
            allowed, new_tat, backlog, wait = gcra(self._tats.get(key), now_us, self.interval, self.window)
            if allowed and new_tat is not None:  # allowed: a tat to store
                self._tats[key] = new_tat
                if len(self._tats) > 100_000:  # forget keys whose allowance is restored
                    self._tats = {k: t for k, t in self._tats.items() if t > now_us}
        return decision(self.limit, self.interval, self.window, allowed, backlog, wait)


class SharedFileLimiter:
    """The GCRA state in a SQLite file shared by every process of this host. One
    connection per process (reopened after a fork), used under a lock by its threads."""

    # One GCRA step in one statement: store the new TAT only when the request is
    # allowed (a new key always is: interval <= window). ?1 key, ?2 now, ?3 interval,
    # ?4 window. A refusal returns no row, and the stored TAT is read for the headers.
    STEP = (
        "INSERT INTO gcra (key, tat) VALUES (?1, ?2 + ?3) "
        "ON CONFLICT (key) DO UPDATE SET tat = max(tat, ?2) + ?3 WHERE max(tat, ?2) + ?3 - ?4 <= ?2 "
        "RETURNING tat"
    )
    PRUNE_EVERY = 10_000  # hits of this process; keys whose allowance is back are forgotten

    def __init__(self, limit: int, path: str, window_us: int = WINDOW_US, prefix: str = "ratelimit:") -> None:
        self.limit, self.window, self.interval = limit, window_us, window_us // limit
        self.path, self.prefix = path, prefix
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._pid: int | None = None
        self._hits = 0
        self._fallback = MemoryLimiter(limit, window_us)

    def hit(self, key: str, now_us: int) -> Decision:
        try:
            with self._lock:
                row, stored = self._step(self.prefix + key, now_us)
        except (sqlite3.Error, OSError) as exc:
            # The file is unusable (disk full, locked for seconds): keep limiting, per
            # process, rather than fail every request; the next request tries the file again.
            log.warning("rate limiter falling back to process memory: %s", exc)
            self._connection = None
            return self._fallback.hit(key, now_us)
        if row is not None:
            return decision(self.limit, self.interval, self.window, True, row[0] - now_us, 0)
        _, _, backlog, wait = gcra(stored[0] if stored else None, now_us, self.interval, self.window)
        return decision(self.limit, self.interval, self.window, False, backlog, wait)

    def _step(self, key: str, now_us: int) -> tuple[tuple[int] | None, tuple[int] | None]:
        connection = self._connect()
        row = connection.execute(self.STEP, (key, now_us, self.interval, self.window)).fetchone()
        stored = None
        if row is None:
            stored = connection.execute("SELECT tat FROM gcra WHERE key = ?", (key,)).fetchone()
        self._hits += 1
        if self._hits % self.PRUNE_EVERY == 0:
            connection.execute("DELETE FROM gcra WHERE tat < ?", (now_us,))
        return row, stored

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None or self._pid != os.getpid():
            private_file(self.path)
            # Autocommit: each statement is its own transaction, atomic across processes.
            connection = sqlite3.connect(self.path, timeout=5, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=OFF")  # counters, not records: a crash may lose a few
            connection.execute("CREATE TABLE IF NOT EXISTS gcra (key TEXT PRIMARY KEY, tat INTEGER NOT NULL) "
                               "WITHOUT ROWID")
            self._connection, self._pid = connection, os.getpid()
        return self._connection


# The same step as `gcra`, atomic in Redis, plus reading a version key if one is given.
# KEYS: the key's GCRA state [, the version key]. ARGV: now_us, interval_us, window_us
# [, a fresh version to store if there is none (first use, or Redis restarted)].
GCRA_LUA = """
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local version = false
if #KEYS > 1 then
  version = redis.call('GET', KEYS[2])
  if not version then
    version = ARGV[4]
    redis.call('SET', KEYS[2], version)
  end
end
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - window
if now < allow_at then
  return {0, tat - now, allow_at - now, version}
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.max(1, math.ceil((new_tat - now) / 1000)))
return {1, new_tat - now, 0, version}
"""


class RedisLimiter:
    """`version_key`: (key, function making a fresh value) of a version read in the same
    step; its value comes back as `Decision.version`."""

    def __init__(self, limit: int, client: redis.Redis, prefix: str = "ratelimit:", window_us: int = WINDOW_US,
                 fallback: Limiter | None = None,
                 version_key: tuple[str, Callable[[], str]] | None = None) -> None:
        self.limit, self.window, self.interval = limit, window_us, window_us // limit
        self.prefix, self.version_key = prefix, version_key
        self._client = client
        self._sha = hashlib.sha1(GCRA_LUA.encode()).hexdigest()
        self._fallback = fallback or MemoryLimiter(limit, window_us)

    def hit(self, key: str, now_us: int) -> Decision:
        if self.version_key is None:
            args: tuple = (1, self.prefix + key, now_us, self.interval, self.window)
        else:
            version_key, fresh = self.version_key
            args = (2, self.prefix + key, version_key, now_us, self.interval, self.window, fresh())
        try:
            try:
                # EVALSHA straight away: redis-py's Script wrapper costs more than the step.
                allowed, backlog, wait, version = self._client.evalsha(self._sha, *args)
            except redis.exceptions.NoScriptError:  # first use, or Redis restarted
                allowed, backlog, wait, version = self._client.eval(GCRA_LUA, *args)
        except redis.RedisError as exc:
            # Redis down: keep limiting (shared by this host's processes when there is a
            # limits file) rather than fail every request.
            log.warning("rate limiter falling back to %s: %s", type(self._fallback).__name__, exc)
            return self._fallback.hit(key, now_us)
        return decision(self.limit, self.interval, self.window, bool(allowed), int(backlog), int(wait),
                        version.decode() if version else None)


def make_limiter(limit: int, redis_client: redis.Redis | None = None, *, window_seconds: int = 60,
                 prefix: str = "ratelimit:", path: str | None = None,
                 version_key: tuple[str, Callable[[], str]] | None = None) -> Limiter:
    """`limit` requests per `window_seconds` per key: shared through Redis if given, else
    through the SQLite file at `path` (also Redis's fallback), else in this process only.
    `version_key` as for RedisLimiter (read only with Redis)."""
    window_us = window_seconds * 1_000_000
    if not 1 <= limit <= window_us:
        raise ConfigurationError(f"RATE_LIMIT_PER_MINUTE must be between 1 and {window_us}, not {limit}")
    local = SharedFileLimiter(limit, path, window_us, prefix) if path else MemoryLimiter(limit, window_us)
    if redis_client is None:
        return local
    return RedisLimiter(limit, redis_client, prefix, window_us, fallback=local, version_key=version_key)


class SharedPacer:
    """Paces of differing rates per key (a webhook endpoint's deliveries a second, v1.3):
    GCRA with a one-second window, counted where the API's rate limit is (Redis across
    hosts, else the host's limits file, else this process): the domain's `Pacer`
    (app/domain/webhooks/sending.py). Built by the app factory and used by the delivery
    jobs through `app.extensions`."""

    def __init__(self, redis_client: redis.Redis | None = None, path: str | None = None) -> None:
        self._redis, self._path = redis_client, path
        self._limiters: dict[int, Limiter] = {}
        self._lock = threading.Lock()

    def wait(self, key: str, per_second: int, now_us: int | None = None) -> float:
        """Seconds until `key` may go at `per_second`; 0.0 means now, and the turn is taken."""
        with self._lock:
            limiter = self._limiters.get(per_second)
            if limiter is None:
                limiter = self._limiters[per_second] = make_limiter(
                    per_second, self._redis, window_seconds=1, prefix="webhook-pace:", path=self._path)
        taken = limiter.hit(key, now_us if now_us is not None else time.time_ns() // 1000)
        return 0.0 if taken.allowed else taken.wait_us / 1_000_000
