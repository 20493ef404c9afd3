import multiprocessing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.limits import WINDOW_US, MemoryLimiter, SharedFileLimiter

SECOND = 1_000_000


@pytest.fixture(params=["memory", "file"])
def make(request, tmp_path):
    """Both local limiters obey the same GCRA rules."""
    if request.param == "memory":
        return MemoryLimiter
    return lambda limit, window_us=WINDOW_US: SharedFileLimiter(limit, str(tmp_path / "limits.sqlite"), window_us)


def test_a_fresh_key_may_spend_its_whole_minute_at_once_then_is_limited(make):
    limiter = make(600)
    limiter = make(600)
    results = [limiter.hit("k", 0) for _ in range(601)]
    assert all(r.allowed for r in results[:600])
    assert [r.remaining for r in results[:3]] == [599, 598, 597]
    assert results[599].remaining == 0
    denied = results[600]
    assert not denied.allowed and denied.remaining == 0
    assert denied.retry_after_seconds == 1  # one request drips back every 100 ms
    assert denied.reset_seconds == 60
    assert denied.headers()["Retry-After"] == "1"


def test_allowance_drips_back_and_is_fully_restored_after_reset_seconds(make):
    limiter = make(60)
    for _ in range(60):
        limiter.hit("k", 0)
    assert not limiter.hit("k", 0).allowed
    assert limiter.hit("k", 1 * SECOND).allowed  # one per second comes back
    assert not limiter.hit("k", 1 * SECOND).allowed
    restored = limiter.hit("k", 1 * SECOND + WINDOW_US)
    assert restored.allowed and restored.remaining == 59


def test_keys_are_limited_independently(make):
    limiter = make(1)
    assert limiter.hit("a", 0).allowed
    assert not limiter.hit("a", 0).allowed
    assert limiter.hit("b", 0).allowed


def test_reset_counts_seconds_until_the_allowance_is_full_again(make):
    limiter = make(600)
    first = limiter.hit("k", 0)
    assert first.reset_seconds == 1
    for _ in range(299):
        last = limiter.hit("k", 0)
    assert last.reset_seconds == 30 and last.remaining == 300


def test_a_longer_window_refills_one_attempt_per_window_over_limit(make):
    # The console's sign-in throttle: 10 attempts per 15 minutes.
    limiter = make(10, window_us=900 * SECOND)
    assert all(limiter.hit("k", 0).allowed for _ in range(10))
    refused = limiter.hit("k", 0)
    assert not refused.allowed and refused.retry_after_seconds == 90
    assert limiter.hit("k", 90 * SECOND).allowed
    assert not limiter.hit("k", 90 * SECOND).allowed


def _spend(path, key, tries, allowed):
    limiter = SharedFileLimiter(150, path)
    allowed.put(sum(limiter.hit(key, 0).allowed for _ in range(tries)))


def test_processes_sharing_the_file_spend_one_allowance_exactly(tmp_path):
    """As gunicorn workers without Redis: 4 processes x 100 hits at once, limit 150."""
    path = str(tmp_path / "limits.sqlite")
    SharedFileLimiter(150, path).hit("warm-up", 0)  # the file exists before they race
    context = multiprocessing.get_context("fork")
    allowed = context.Queue()
    workers = [context.Process(target=_spend, args=(path, "k", 100, allowed)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    assert sum(allowed.get(timeout=5) for _ in workers) == 150


def test_a_file_limiter_used_before_a_fork_reopens_its_file_in_the_child(tmp_path):
    limiter = SharedFileLimiter(2, str(tmp_path / "limits.sqlite"))
    assert limiter.hit("k", 0).allowed
    context = multiprocessing.get_context("fork")
    allowed = context.Queue()
    child = context.Process(target=lambda: allowed.put([limiter.hit("k", 0).allowed for _ in range(2)]))
    child.start()
    child.join(30)
    assert allowed.get(timeout=5) == [True, False]


hits = st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 3 * WINDOW_US)), max_size=60)


@settings(max_examples=60, deadline=None)
@given(limit=st.integers(1, 20), sequence=hits)
def test_the_file_limiter_decides_exactly_as_the_memory_limiter(tmp_path_factory, limit, sequence):
    memory = MemoryLimiter(limit)
    shared = SharedFileLimiter(limit, str(tmp_path_factory.mktemp("limits") / "limits.sqlite"))
    for key, now in sorted(sequence, key=lambda hit: hit[1]):
        assert shared.hit(key, now) == memory.hit(key, now)


def test_an_unusable_limits_file_falls_back_to_process_memory(tmp_path, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    limiter = SharedFileLimiter(1, str(blocker / "limits.sqlite"))
    assert limiter.hit("k", 0).allowed and not limiter.hit("k", 0).allowed
    assert "falling back to process memory" in caplog.text
