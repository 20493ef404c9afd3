from datetime import UTC, datetime, timedelta, timezone

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
