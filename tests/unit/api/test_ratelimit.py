from app.api.ratelimit import WINDOW_US, MemoryLimiter

SECOND = 1_000_000


def test_a_fresh_key_may_spend_its_whole_minute_at_once_then_is_limited():
    limiter = MemoryLimiter(600)
    results = [limiter.hit("k", 0) for _ in range(601)]
    assert all(r.allowed for r in results[:600])
    assert [r.remaining for r in results[:3]] == [599, 598, 597]
    assert results[599].remaining == 0
    denied = results[600]
    assert not denied.allowed and denied.remaining == 0
    assert denied.retry_after_seconds == 1  # one request drips back every 100 ms
    assert denied.reset_seconds == 60
    assert denied.headers()["Retry-After"] == "1"


def test_allowance_drips_back_and_is_fully_restored_after_reset_seconds():
    limiter = MemoryLimiter(60)
    for _ in range(60):
        limiter.hit("k", 0)
    assert not limiter.hit("k", 0).allowed
    assert limiter.hit("k", 1 * SECOND).allowed  # one per second comes back
    assert not limiter.hit("k", 1 * SECOND).allowed
    restored = limiter.hit("k", 1 * SECOND + WINDOW_US)
    assert restored.allowed and restored.remaining == 59


def test_keys_are_limited_independently():
    limiter = MemoryLimiter(1)
    assert limiter.hit("a", 0).allowed
    assert not limiter.hit("a", 0).allowed
    assert limiter.hit("b", 0).allowed


def test_reset_counts_seconds_until_the_allowance_is_full_again():
    limiter = MemoryLimiter(600)
    first = limiter.hit("k", 0)
    assert first.reset_seconds == 1
    for _ in range(299):
        last = limiter.hit("k", 0)
    assert last.reset_seconds == 30 and last.remaining == 300


def test_a_longer_window_refills_one_attempt_per_window_over_limit():
    # The console's sign-in throttle: 10 attempts per 15 minutes.
    limiter = MemoryLimiter(10, window_us=900 * SECOND)
    assert all(limiter.hit("k", 0).allowed for _ in range(10))
    refused = limiter.hit("k", 0)
    assert not refused.allowed and refused.retry_after_seconds == 90
    assert limiter.hit("k", 90 * SECOND).allowed
    assert not limiter.hit("k", 90 * SECOND).allowed
