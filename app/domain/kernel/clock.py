"""The one seam for "now". Everything that needs the time takes a clock.

Datetimes handed around are timezone-aware UTC; the database stores them as naive UTC.
"""

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Protocol, overload


class Clock(Protocol):
    """Anything that tells the time: `now()`, aware UTC (a SystemClock, a FrozenClock, a
    Runtime)."""

    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FrozenClock:
    """A clock that stands still until a test moves it."""

    def __init__(self, at: datetime) -> None:
        self._now = at if at.tzinfo else at.replace(tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, at: datetime) -> None:
        self._now = at if at.tzinfo else at.replace(tzinfo=UTC)

    def advance(self, **delta: float) -> None:
        self._now += timedelta(**delta)


def to_db(moment: datetime) -> datetime:
    """Aware datetime -> naive UTC for storage."""
    return moment.astimezone(UTC).replace(tzinfo=None)


@overload
def from_db(stored: datetime) -> datetime: ...
@overload
def from_db(stored: None) -> None: ...
def from_db(stored: datetime | None) -> datetime | None:
    """Naive UTC from storage -> aware UTC."""
    return stored.replace(tzinfo=UTC) if stored is not None else None


@overload
def format_utc(moment: datetime) -> str: ...
@overload
def format_utc(moment: None) -> None: ...
def format_utc(moment: datetime | None) -> str | None:
    """RFC 3339 in UTC with a `Z` suffix (Contract, Conventions 2)."""
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# RFC 3339, section 5.6: full-date "T" full-time, seconds required, fraction after a dot,
# and an offset that is `Z` or `+hh:mm` (its note lets a space stand for the "T").
RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))", re.ASCII)


def parse_rfc3339(text: object) -> datetime | None:
    """An aware datetime from an RFC 3339 timestamp with its offset, or None for anything
    else (ISO week dates, `+03` or `+0300`, no seconds, a comma, a space before the
    offset, an impossible date). Fractions finer than microseconds are cut."""
    match = RFC3339.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction, utc, sign, off_hours, off_minutes = match.groups()
    if not utc and (int(off_hours) > 23 or int(off_minutes) > 59):
        return None
    try:
        offset = timedelta(0) if utc else (1 if sign == "+" else -1) * timedelta(hours=int(off_hours),
                                                                               minutes=int(off_minutes))
        return datetime(int(year), int(month), int(day), int(hour), int(minute), int(second),
                        int((fraction or "0")[:6].ljust(6, "0")), tzinfo=timezone(offset))
    except ValueError:  # Feb 30, hour 24, an offset of a day or more
        return None
