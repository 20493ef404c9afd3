from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.clock import parse_rfc3339

offsets = st.integers(-23 * 60 - 59, 23 * 60 + 59).map(lambda minutes: timezone(timedelta(minutes=minutes)))
moments = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=offsets)


def rfc3339(moment, separator="T"):
    offset = moment.utcoffset()
    sign, minutes = ("-" if offset < timedelta(0) else "+"), abs(int(offset.total_seconds())) // 60
    zone = "Z" if not minutes and sign == "+" else f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"
    fraction = f".{moment.microsecond:06d}" if moment.microsecond else ""
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}{separator}"
            f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}{fraction}{zone}")


@given(moments, st.sampled_from("Tt "))
def test_every_rfc_3339_timestamp_reads_back_as_the_same_instant(moment, separator):
    parsed = parse_rfc3339(rfc3339(moment, separator))
    assert parsed == moment and parsed.utcoffset() == moment.utcoffset()


def test_z_in_either_case_is_utc_and_extra_fraction_digits_are_cut():
    assert parse_rfc3339("2026-11-21T08:00:00.1234567z") == datetime(2026, 11, 21, 8, 0, 0, 123456, tzinfo=UTC)


@given(st.text(max_size=40))
def test_any_other_text_is_refused_or_a_real_rfc_3339_time(text):
    parsed = parse_rfc3339(text)
    assert parsed is None or parsed.tzinfo is not None and text[:4].isascii()


# The calendar's edges: the first and last days UTC holds, with every offset there is.
edge_days = st.sampled_from([date(1, 1, 1), date(1, 1, 2), date(9999, 12, 30), date(9999, 12, 31)])
every_offset = st.integers(-23 * 60 - 59, 23 * 60 + 59)
DAY, FIRST, LAST = 86_400, 0, date(9999, 12, 31).toordinal() * 86_400  # seconds from 0001-01-01T00:00Z


@given(st.one_of(edge_days, st.dates()), st.times(), every_offset)
def test_a_time_its_offset_carries_past_the_calendar_is_refused_and_every_other_is_read(day, clock_time, minutes):
    sign = "-" if minutes < 0 else "+"
    text = f"{day.isoformat()}T{clock_time.replace(microsecond=0).isoformat()}{sign}{abs(minutes) // 60:02d}:" \
           f"{abs(minutes) % 60:02d}"
    # Counted by hand, in seconds since 0001-01-01T00:00:00Z, with no datetime arithmetic.
    in_utc = ((day.toordinal() - 1) * DAY + clock_time.hour * 3600 + clock_time.minute * 60 + clock_time.second
              - minutes * 60)
    parsed = parse_rfc3339(text)
    if FIRST <= in_utc < LAST:
        assert parsed is not None and parsed.astimezone(UTC).replace(tzinfo=None) == (
            datetime(1, 1, 1) + timedelta(seconds=in_utc))
    else:
        assert parsed is None, text


def test_the_examples_that_answered_500_are_refused():
    for text in ("9999-12-31T23:59:59-00:01", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999999-23:59"):
        assert parse_rfc3339(text) is None
    assert parse_rfc3339("9999-12-31T23:59:59Z") == datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
    assert parse_rfc3339("0001-01-01T00:00:00-00:01") is not None  # 00:01 UTC on the first day


def test_a_local_time_is_read_only_where_a_zone_is_given():
    kuwait = ZoneInfo("Asia/Kuwait")
    assert parse_rfc3339("2026-11-21 08:00") is None
    assert parse_rfc3339("2026-11-21 08:00", kuwait) == datetime(2026, 11, 21, 5, 0, tzinfo=UTC)
    assert parse_rfc3339("2026-11-21T08:00:30.5", kuwait) == datetime(2026, 11, 21, 5, 0, 30, 500000, tzinfo=UTC)
    assert parse_rfc3339("2026-11-21T08:00:00Z", kuwait) == datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
    assert parse_rfc3339("0001-01-01 01:00", kuwait) is None  # 22:00 UTC the day before the calendar's first
    assert parse_rfc3339("2026-11-21", kuwait) is None and parse_rfc3339("2026-11-21 8:00", kuwait) is None
    assert parse_rfc3339("2026-11-21 08:00+03:00", kuwait) == datetime(2026, 11, 21, 5, 0, tzinfo=UTC)
    assert parse_rfc3339("2026-11-21 08:00Z", kuwait) == datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
    assert parse_rfc3339("2026-11-21 08:00+03:00") is None  # RFC 3339 itself wants the seconds
    assert parse_rfc3339("9999-12-31 23:59-00:01", kuwait) is None
