"""The one seam for "now". Everything that needs the time takes a clock.

Datetimes handed around are timezone-aware UTC; the database stores them as naive UTC.
"""

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
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
# A time a person types at a command line: seconds optional, the offset too (without it,
# the company's wall clock).
LOCAL_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))?",
    re.ASCII)


def parse_rfc3339(text: object, local_zone: tzinfo | None = None) -> datetime | None:
    """An aware datetime from an RFC 3339 timestamp with its offset, or None for anything
    else (ISO week dates, `+03` or `+0300`, no seconds, a comma, a space before the
    offset, an impossible date) and for a time UTC cannot hold (its offset carries it
    before year 1 or past 9999). Fractions finer than microseconds are cut. With
    `local_zone` (a person at a command line), seconds may be left out, and a time
    without an offset (`2026-11-21 08:00`) is read in that zone. The one parser of every
    time the service is sent (the API, the CLI)."""
    if not isinstance(text, str):
        return None
    if (match := RFC3339.fullmatch(text)) is not None:
        year, month, day, hour, minute, second, fraction, utc, sign, off_hours, off_minutes = match.groups()
        if not utc and (int(off_hours) > 23 or int(off_minutes) > 59):
            return None
        offset = timedelta(0) if utc else (1 if sign == "+" else -1) * timedelta(hours=int(off_hours),
                                                                               minutes=int(off_minutes))
        zone: tzinfo = timezone(offset)
    elif local_zone is not None and (match := LOCAL_TIME.fullmatch(text)) is not None:
        year, month, day, hour, minute, second, fraction, utc, sign, off_hours, off_minutes = match.groups()
        if sign and (int(off_hours) > 23 or int(off_minutes) > 59):
            return None
        zone = (UTC if utc else local_zone if not sign else
                timezone((1 if sign == "+" else -1) * timedelta(hours=int(off_hours), minutes=int(off_minutes))))
    else:
        return None
    try:
        moment = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0),
                          int((fraction or "0")[:6].ljust(6, "0")), tzinfo=zone)
        moment.astimezone(UTC)  # 9999-12-31T23:59:59-00:01 is a valid time past UTC's calendar
    except (ValueError, OverflowError):  # Feb 30, hour 24, year 0, past the calendar
        return None
    return moment
