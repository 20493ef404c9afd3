"""What an outcome decides (app/domain/webhooks/outcomes.py), without a database: the
next attempt by the schedule, a receiver's "later" and "gone", and the failure streak."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.webhooks import outcomes

NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("attempt, due", [(n, NOW + outcomes.RETRY_DELAYS[n - 1]) for n in range(1, 7)] + [(7, None)])
def test_a_failure_plans_the_schedules_next_attempt_until_the_seventh(attempt, due):
    assert outcomes.next_attempt_at(attempt, True, False, 500, None, NOW, gone=False, beyond_contract=True) == due


def test_a_success_a_ping_or_a_gone_endpoint_plans_nothing():
    assert outcomes.next_attempt_at(1, True, True, 200, None, NOW, gone=False, beyond_contract=True) is None
    assert outcomes.next_attempt_at(1, False, False, 500, None, NOW, gone=False, beyond_contract=True) is None
    assert outcomes.next_attempt_at(1, True, False, 410, None, NOW, gone=True, beyond_contract=True) is None
    assert outcomes.says_gone(410, True) and not outcomes.says_gone(410, False) and not outcomes.says_gone(404, True)


def test_later_moves_the_attempt_no_earlier_than_asked_and_only_with_the_signals_on():
    asked = outcomes.next_attempt_at(1, True, False, 429, "3600", NOW, gone=False, beyond_contract=True)
    assert asked == NOW + timedelta(hours=1)
    sooner = outcomes.next_attempt_at(3, True, False, 503, "5", NOW, gone=False, beyond_contract=True)
    assert sooner == NOW + outcomes.RETRY_DELAYS[2]  # never earlier than the schedule
    off = outcomes.next_attempt_at(1, True, False, 429, "3600", NOW, gone=False, beyond_contract=False)
    assert off == NOW + outcomes.RETRY_DELAYS[0]


def test_the_streak_starts_warns_once_disables_and_ends():
    start = outcomes.streak_move(True, None, False, False, NOW)
    assert start.changes == {"failing_since": NOW} and start.notice is None
    assert outcomes.streak_move(True, NOW - timedelta(days=2), False, False, NOW).changes == {}
    warned = outcomes.streak_move(True, NOW - timedelta(days=3), False, False, NOW)
    assert warned.changes == {"warned_at": NOW} and warned.notice == "failing"
    assert outcomes.streak_move(True, NOW - timedelta(days=4), True, False, NOW).notice is None  # once
    disabled = outcomes.streak_move(True, NOW - timedelta(days=7), True, False, NOW)
    assert disabled.changes["active"] is False and disabled.changes["disabled_reason"] == "delivery_failures"
    assert disabled.notice == "disabled"
    assert outcomes.streak_move(False, NOW - timedelta(days=8), True, False, NOW).notice is None  # already off
    ended = outcomes.streak_move(True, NOW - timedelta(days=5), True, True, NOW)
    assert ended.changes == {"failing_since": None, "warned_at": None}
    assert outcomes.streak_move(True, None, False, True, NOW).changes == {}


@given(st.integers(1, 7), st.booleans(), st.booleans(), st.sampled_from([None, 200, 410, 429, 500, 503]),
       st.one_of(st.none(), st.text(max_size=20)), st.booleans(), st.booleans())
def test_a_next_attempt_is_never_before_the_schedule_nor_past_the_cap(attempt, retries, succeeded, status,
                                                                      retry_after, gone, signals):
    due = outcomes.next_attempt_at(attempt, retries, succeeded, status, retry_after, NOW, gone=gone,
                                   beyond_contract=signals)
    if due is not None:
        assert not succeeded and retries and not gone and attempt < outcomes.MAX_ATTEMPTS
        assert NOW + outcomes.RETRY_DELAYS[attempt - 1] <= due <= NOW + max(outcomes.RETRY_DELAYS[attempt - 1],
                                                                            outcomes.RETRY_AFTER_CAP)
