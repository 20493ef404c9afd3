"""The one seam for "now". Everything that needs the time takes a clock.

Datetimes handed around are timezone-aware UTC; the database stores them as naive UTC.
"""

from datetime import UTC, datetime, timedelta


class SystemClock:
    def now(self):
        return datetime.now(UTC)


class FrozenClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, at):
        self._now = at if at.tzinfo else at.replace(tzinfo=UTC)

    def now(self):
        return self._now

    def set(self, at):
        self._now = at if at.tzinfo else at.replace(tzinfo=UTC)

    def advance(self, **delta):
        self._now += timedelta(**delta)


def to_db(moment):
    """Aware datetime -> naive UTC for storage."""
    return moment.astimezone(UTC).replace(tzinfo=None)


def from_db(stored):
    """Naive UTC from storage -> aware UTC."""
    return stored.replace(tzinfo=UTC) if stored is not None else None


def format_utc(moment):
    """RFC 3339 in UTC with a `Z` suffix (Contract, Conventions 2)."""
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
