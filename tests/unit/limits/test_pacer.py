"""The pace of a webhook endpoint (v1.3, app/limits.py SharedPacer): GCRA with a
one-second window, in this process when there is neither Redis nor a limits file."""

from app.limits import SharedPacer

SECOND = 1_000_000


def test_a_pace_allows_a_seconds_worth_then_one_turn_per_interval():
    pacer = SharedPacer()
    now = 10 * SECOND
    assert [pacer.wait("whk_a", 10, now) for _ in range(10)] == [0.0] * 10
    wait = pacer.wait("whk_a", 10, now)
    assert 0.09 <= wait <= 0.1
    assert pacer.wait("whk_a", 10, now + int(wait * SECOND)) == 0.0
    assert pacer.wait("whk_b", 10, now) == 0.0  # each endpoint its own


def test_over_ten_seconds_a_pace_holds_within_ten_percent():
    pacer, sent, now = SharedPacer(), 0, 0
    while now < 10 * SECOND:  # a sender asking every millisecond
        sent += pacer.wait("whk_a", 50, now) == 0.0
        now += 1000
    assert 500 <= sent <= 550
