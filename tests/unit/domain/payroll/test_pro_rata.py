"""A joiner's first month and a leaver's last are paid for the days employed
(app/domain/payroll/rules.py, employed_share): over a 30-day month in Saudi Arabia, Qatar,
Bahrain and Oman, over the month's calendar days in the UAE and Kuwait."""

from calendar import monthrange
from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.payroll.rules import THIRTY_DAY_MONTH, Pay, employed_share, pro_rata

COUNTRIES = ("SA", "AE", "KW", "QA", "BH", "OM")
SEPTEMBER = (date(2026, 9, 1), date(2026, 9, 30))
OCTOBER = (date(2026, 10, 1), date(2026, 10, 31))
FEBRUARY = (date(2026, 2, 1), date(2026, 2, 28))


@pytest.mark.parametrize("country", COUNTRIES)
def test_hired_on_the_16th_of_september_is_half_a_month_everywhere(country):
    assert employed_share(country, *SEPTEMBER, date(2026, 9, 16), None) == Fraction(1, 2)
    assert pro_rata(Pay(basic=900_000), Fraction(1, 2)).basic == 450_000  # 900.000 -> 450.000


@pytest.mark.parametrize("country, joined_16th, left_15th, feb_from_15th", [
    ("SA", Fraction(15, 30), Fraction(15, 30), Fraction(16, 30)),
    ("QA", Fraction(15, 30), Fraction(15, 30), Fraction(16, 30)),
    ("AE", Fraction(16, 31), Fraction(15, 31), Fraction(14, 28)),
    ("KW", Fraction(16, 31), Fraction(15, 31), Fraction(14, 28)),
])
def test_a_31_day_october_and_a_february_by_each_convention(country, joined_16th, left_15th, feb_from_15th):
    assert employed_share(country, *OCTOBER, date(2026, 10, 16), None) == joined_16th
    assert employed_share(country, *OCTOBER, date(2020, 1, 1), date(2026, 10, 15)) == left_15th
    assert employed_share(country, *FEBRUARY, date(2026, 2, 15), None) == feb_from_15th


def test_whole_months_none_and_the_edges():
    for country in COUNTRIES:
        assert employed_share(country, *OCTOBER, date(2020, 1, 1), None) == 1
        assert employed_share(country, *OCTOBER, date(2026, 11, 1), None) == 0  # hired after the month
        assert employed_share(country, *OCTOBER, date(2020, 1, 1), date(2026, 9, 30)) == 0  # gone before it
        assert employed_share(country, *OCTOBER, date(2026, 10, 1), date(2026, 10, 31)) == 1
    assert employed_share("SA", *OCTOBER, date(2026, 10, 31), None) == Fraction(1, 30)  # day 31 is day 30
    assert employed_share("SA", *FEBRUARY, date(2020, 1, 1), date(2026, 2, 28)) == 1  # to the month's end


months = st.builds(lambda year, month: (date(year, month, 1), date(year, month, monthrange(year, month)[1])),
                   st.integers(2000, 2040), st.integers(1, 12))


@given(months, st.integers(0, 40), st.integers(0, 40), st.sampled_from(COUNTRIES))
def test_a_share_is_between_none_and_all_and_grows_with_the_days(month, start, end, country):
    start_day = month[0] + timedelta(days=start - 5)
    last_day = month[0] + timedelta(days=end - 5)
    share = employed_share(country, *month, start_day, last_day)
    assert 0 <= share <= 1
    if last_day >= month[1]:
        assert share >= employed_share(country, *month, start_day, month[1] - timedelta(days=1))


@given(st.integers(2000, 2040), st.sampled_from([4, 6, 9, 11]), st.integers(1, 30), st.integers(1, 30))
def test_any_30_day_month_gives_the_same_share_under_either_convention(year, month, first, last):
    bounds = (date(year, month, 1), date(year, month, 30))
    hired, leaving = date(year, month, min(first, last)), date(year, month, max(first, last))
    shares = {employed_share(country, *bounds, hired, leaving) for country in COUNTRIES}
    assert len(shares) == 1 and {"SA", "QA", "BH", "OM"} == THIRTY_DAY_MONTH
