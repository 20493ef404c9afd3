"""What an attempt's outcome decides, as rules with no database in them (as sending.py's
are for lanes): how the attempt ends, when the next one is due (the schedule, a
receiver's Retry-After, a 410 that plans nothing), and how the endpoint's failure streak
moves (a warning after three days of failures, disabled after seven).
deliveries.record_many applies them to the rows, in one transaction per batch.
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Literal

from app.domain.kernel.text import ascii_digits

RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2),
                timedelta(hours=12), timedelta(hours=24))
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
DISABLE_AFTER = timedelta(days=7)
WARN_AFTER = timedelta(days=3)
RETRY_AFTER_CAP = timedelta(hours=24)  # the latest a receiver's Retry-After may push an attempt
HTTP_DATE_LIMIT = 64  # "Sunday, 06-Nov-1994 08:49:37 GMT" and its kin are far shorter
LATER = (429, 503)  # "come back later", with Retry-After (v1.3)
GONE = 410  # "stop": the endpoint is disabled at once (v1.3)

Ended = Literal["succeeded", "failed"]
Notice = Literal["failing", "disabled"]


def ended(succeeded: bool) -> Ended:
    """How an attempt that got this outcome ends."""
    return "succeeded" if succeeded else "failed"


def says_gone(status: int | None, beyond_contract: bool) -> bool:
    """A 410 from the receiver, heeded while v1.3's receiver signals are."""
    return beyond_contract and status == GONE


def next_attempt_at(attempt: int, retries: bool, succeeded: bool, status: int | None, retry_after: str | None,
                    now: datetime, *, gone: bool, beyond_contract: bool) -> datetime | None:
    """When attempt `attempt + 1` is due, or None when there is none: it succeeded, it was
    the last (MAX_ATTEMPTS), it plans no retries (a test ping), or its endpoint said
    "gone". A receiver's "later" (429 or 503 with Retry-After) moves it no earlier than
    asked, never earlier than the schedule: it stays the schedule's next attempt."""
    if succeeded or not retries or attempt >= MAX_ATTEMPTS or gone:
        return None
    due = now + RETRY_DELAYS[attempt - 1]
    if beyond_contract and status in LATER:
        due = max(due, asked_later(retry_after, now) or due)
    return due


def asked_later(retry_after: str | None, now: datetime) -> datetime | None:
    """When a receiver's Retry-After (delay-seconds, or an HTTP date) asks to be called
    again, at most RETRY_AFTER_CAP from `now`; None when it asks for nothing usable. The
    header is the receiver's to write: nothing in it raises."""
    text = retry_after.strip() if isinstance(retry_after, str) else ""
    if not text:
        return None
    if ascii_digits(text):  # delay-seconds: the digits 0-9 only ("²" and "٣" are digits to str)
        # Any length: past 6 digits it is over the cap anyway (and int() refuses 4,300).
        digits = text.lstrip("0") or "0"
        seconds = int(digits) if len(digits) <= 6 else RETRY_AFTER_CAP.total_seconds()
        return now + min(timedelta(seconds=seconds), RETRY_AFTER_CAP)
    if len(text) > HTTP_DATE_LIMIT:  # longer than any date RFC 9110 allows
        return None
    try:
        asked = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if asked.tzinfo is None:
        return None
    return min(max(asked, now), now + RETRY_AFTER_CAP)


@dataclass(frozen=True)
class StreakMove:
    """What one outcome does to its endpoint's failure streak: the fields that change
    (by their model names), and the owner's notice to send, if any."""

    changes: dict[str, object] = field(default_factory=dict)
    notice: Notice | None = None


def streak_move(active: bool, failing_since: datetime | None, warned: bool, succeeded: bool,
                now: datetime) -> StreakMove:
    """A success ends a streak; a first failure starts one; a failure seven days into one
    disables an active endpoint (`delivery_failures`), three days in warns its owner once."""
    if succeeded:
        return StreakMove({"failing_since": None, "warned_at": None} if failing_since is not None else {})
    if failing_since is None:
        return StreakMove({"failing_since": now})
    if active and now - failing_since >= DISABLE_AFTER:
        return StreakMove({"active": False, "disabled_reason": "delivery_failures", "updated_at": now}, "disabled")
    if active and not warned and now - failing_since >= WARN_AFTER:
        return StreakMove({"warned_at": now}, "failing")
    return StreakMove()
