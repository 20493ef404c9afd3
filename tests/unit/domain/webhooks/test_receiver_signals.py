"""A receiver's Retry-After, read as RFC 9110 says (delay-seconds or an HTTP date), and
capped at 24 hours (app/domain/webhooks/outcomes.py, asked_later)."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.webhooks.outcomes import RETRY_AFTER_CAP, asked_later

NOW = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("header, later", [
    ("120", timedelta(seconds=120)), (" 3600 ", timedelta(hours=1)), ("0", timedelta(0)),
    ("Sat, 21 Nov 2026 10:30:00 GMT", timedelta(hours=1, minutes=30)),
    ("Sat, 21 Nov 2026 08:00:00 GMT", timedelta(0)),  # a date gone by: now
    ("999999999", RETRY_AFTER_CAP), ("Mon, 30 Nov 2026 09:00:00 GMT", RETRY_AFTER_CAP),
    ("9" * 5000, RETRY_AFTER_CAP),  # past what int() takes (4,300 digits)
    ("0" * 5000 + "90", timedelta(seconds=90)), ("0" * 5000, timedelta(0)),
])
def test_seconds_or_an_http_date_capped_at_a_day(header, later):
    assert asked_later(header, NOW) == NOW + later


@pytest.mark.parametrize("header", [None, "", "  ", "-5", "soon", "1.5", "Sat, 99 Nov 2026 10:30:00 GMT",
                                    "2026-11-21T10:00:00Z", "²", "٣٠"])
def test_anything_else_asks_for_nothing(header):
    assert asked_later(header, NOW) is None


@given(st.one_of(st.text(max_size=40), st.text(min_size=4000, max_size=6000),
                 st.integers(0, 6000).map(lambda n: "7" * n)))
def test_never_before_now_nor_past_the_cap(header):
    asked = asked_later(header, NOW)
    assert asked is None or NOW <= asked <= NOW + RETRY_AFTER_CAP
