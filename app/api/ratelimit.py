"""Per-key rate limit with GCRA (the generic cell rate algorithm).

Why GCRA and not a library: the contract's `X-RateLimit-Reset` is "seconds until the
allowance is fully restored", which GCRA gives directly (theoretical arrival time
minus now), and its state is one number per key, updated atomically by a short Lua
script in Redis so every gunicorn worker shares it. Without Redis (the embedded
default) the same arithmetic runs in process memory, so the limit is per process.

A key may spend its whole minute's allowance at once (burst = limit); after that one
request is allowed every 60/limit seconds. All times are integer microseconds.
"""

import logging
import math
import threading
from dataclasses import dataclass

import redis

log = logging.getLogger(__name__)
WINDOW_US = 60_000_000


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int  # until the full allowance is back
    retry_after_seconds: int  # 0 when allowed

    def headers(self):
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset_seconds),
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after_seconds)
        return headers


def gcra(stored_tat, now, interval):
    """One GCRA step. Returns (allowed, tat to store or None, backlog_us, wait_us)."""
    tat = max(stored_tat if stored_tat is not None else now, now)
    new_tat = tat + interval
    allow_at = new_tat - WINDOW_US
    if now < allow_at:
        return False, None, tat - now, allow_at - now
    return True, new_tat, new_tat - now, 0


def decision(limit, interval, allowed, backlog_us, wait_us):
    remaining = max(0, (WINDOW_US - backlog_us) // interval) if allowed else 0
    return Decision(
        allowed=allowed, limit=limit, remaining=int(remaining),
        reset_seconds=math.ceil(backlog_us / 1_000_000),
        retry_after_seconds=max(1, math.ceil(wait_us / 1_000_000)) if not allowed else 0,
    )


class MemoryLimiter:
    def __init__(self, limit):
        self.limit, self.interval = limit, WINDOW_US // limit
        self._tats, self._lock = {}, threading.Lock()

    def hit(self, key, now_us):
        with self._lock:
            allowed, new_tat, backlog, wait = gcra(self._tats.get(key), now_us, self.interval)
            if allowed:
                self._tats[key] = new_tat
                if len(self._tats) > 100_000:  # forget keys whose allowance is restored
                    self._tats = {k: t for k, t in self._tats.items() if t > now_us}
        return decision(self.limit, self.interval, allowed, backlog, wait)


# The same step as `gcra`, atomic in Redis. ARGV: now_us, interval_us, window_us.
GCRA_LUA = """
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - window
if now < allow_at then
  return {0, tat - now, allow_at - now}
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.max(1, math.ceil((new_tat - now) / 1000)))
return {1, new_tat - now, 0}
"""


class RedisLimiter:
    def __init__(self, limit, client, prefix="ratelimit:"):
        self.limit, self.interval = limit, WINDOW_US // limit
        self.prefix = prefix
        self._script = client.register_script(GCRA_LUA)
        self._fallback = MemoryLimiter(limit)

    def hit(self, key, now_us):
        try:
            allowed, backlog, wait = self._script(
                keys=[self.prefix + key], args=[now_us, self.interval, WINDOW_US]
            )
        except redis.RedisError as exc:
            # Redis down: keep limiting, per process, rather than fail every request.
            log.warning("rate limiter falling back to process memory: %s", exc)
            return self._fallback.hit(key, now_us)
        return decision(self.limit, self.interval, bool(allowed), int(backlog), int(wait))


def make_limiter(limit, redis_client=None):
    if not 1 <= limit <= WINDOW_US:
        raise ValueError(f"RATE_LIMIT_PER_MINUTE must be between 1 and {WINDOW_US}, not {limit}")
    return RedisLimiter(limit, redis_client) if redis_client is not None else MemoryLimiter(limit)
