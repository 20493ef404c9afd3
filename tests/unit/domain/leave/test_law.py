"""The leave rules pinned to the laws' figures (docs/partners/leave.md gives each source):
an edit that moves a figure away from the text fails here."""

from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.countries import COUNTRIES
from app.domain.leave.days import working_days
from app.domain.leave.law import DISCRETIONARY, LAWS, TYPES, kind_of, law_of


def sick_days(country: str) -> int:
    return sum(tier.days for tier in LAWS[country].kinds["sick"].tiers)


def test_every_country_has_its_law() -> None:
    assert set(LAWS) == {"SA", "AE", "KW", "QA", "BH", "OM"}
    for law in LAWS.values():
        assert set(law.kinds) <= set(TYPES)  # no kind the requests cannot name
        assert "sick" in law.kinds and "maternity" in law.kinds


@pytest.mark.parametrize(("country", "first", "later", "after_years"), [
    ("SA", 21, 30, 5),  # art. 109: 21 days, 30 after five consecutive years
    ("QA", 21, 28, 5),  # art. 79: three weeks, four from five years
    ("AE", 30, 30, 0),  # art. 29
    ("KW", 30, 30, 0),  # art. 70
    ("BH", 30, 30, 0),  # art. 58
    ("OM", 30, 30, 0),
])
def test_annual_days_grow_with_service(country: str, first: int, later: int, after_years: int) -> None:
    law = law_of(country)
    assert law.annual_days_in_year(0) == first
    assert law.annual_days_in_year(max(after_years - 1, 0)) == (first if after_years else later)
    assert law.annual_days_in_year(after_years) == later
    assert law.annual_days_in_year(0, company_days=35) == 35  # a company may give more
    assert law.annual_days_in_year(after_years, company_days=10) == later  # never less


@given(st.sampled_from(sorted(LAWS)), st.integers(-5, 80), st.none() | st.integers(0, 60))
def test_the_days_of_whole_years_are_each_year_s_days_summed(country: str, years: int,
                                                             company_days: int | None) -> None:
    law = law_of(country)
    assert law.annual_days_before(years, company_days) == sum(
        law.annual_days_in_year(year, company_days) for year in range(years))


@pytest.mark.parametrize(("country", "months", "counted_in", "wage", "day"), [
    ("SA", 0, "calendar", "full", Fraction(30)),
    ("AE", 6, "calendar", "basic", Fraction(30)),  # the basic over 30 (docs/partners/leave.md)
    ("KW", 6, "working", "full", Fraction(26)),  # art. 70 as amended by Law 85/2017
    ("QA", 12, "calendar", "basic", Fraction(30)),
    ("BH", 0, "calendar", "full", Fraction(30)),
    ("OM", 6, "calendar", "full", Fraction(30)),
])
def test_when_annual_leave_is_owed_and_how_it_is_paid(country: str, months: int, counted_in: str, wage: str,
                                                      day: Fraction) -> None:
    law = law_of(country)
    assert (law.qualifying_months, law.counted_in, law.leave_wage, law.day_of_month) == (months, counted_in, wage,
                                                                                        day)


@pytest.mark.parametrize(("country", "days", "after_months"), [
    ("SA", 120, 0),  # art. 117: 30 full, 60 at three quarters, 30 unpaid
    ("AE", 90, 6),  # art. 31: 15 full, 30 half, 45 unpaid, after probation
    ("KW", 75, 0),  # art. 69: 15, 10, 10, 10, 30
    ("QA", 84, 3),  # art. 82: two weeks full, four half, then unpaid
    ("BH", 55, 3),  # art. 65: 15 full, 20 half, 20 unpaid, after three months
    ("OM", 182, 0),  # RD 53/2023: 21 full, to day 35 at 75%, to 70 at 50%, to 182 at 35%
])
def test_sick_leave_tiers(country: str, days: int, after_months: int) -> None:
    sick = LAWS[country].kinds["sick"]
    assert sick_days(country) == days
    assert sick.per == "year"
    assert sick.after_months == after_months


def test_sick_pay_by_tier() -> None:
    assert [(t.days, t.paid) for t in LAWS["SA"].kinds["sick"].tiers] == [
        (30, 1), (60, Fraction(3, 4)), (30, 0)]
    assert [(t.days, t.paid) for t in LAWS["KW"].kinds["sick"].tiers] == [
        (15, 1), (10, Fraction(3, 4)), (10, Fraction(1, 2)), (10, Fraction(1, 4)), (30, 0)]
    assert [(t.days, t.paid) for t in LAWS["OM"].kinds["sick"].tiers] == [
        (21, 1), (14, Fraction(3, 4)), (35, Fraction(1, 2)), (112, Fraction(35, 100))]


@pytest.mark.parametrize(("country", "tiers"), [
    ("SA", [(84, 1)]),  # art. 151 as amended in 2025: twelve weeks
    ("AE", [(45, 1), (15, Fraction(1, 2))]),  # art. 30
    ("KW", [(70, 1)]),  # art. 24
    ("QA", [(50, 1)]),  # art. 96
    ("BH", [(60, 1), (15, 0)]),  # art. 32
    ("OM", [(98, 1)]),  # art. 84
])
def test_maternity(country: str, tiers: list[tuple[int, Fraction]]) -> None:
    assert [(t.days, t.paid) for t in LAWS[country].kinds["maternity"].tiers] == tiers


def test_other_kinds() -> None:
    hajj = {c: [(t.days, t.paid, law.kinds["hajj"].after_months) for t in law.kinds["hajj"].tiers]
            for c, law in LAWS.items() if "hajj" in law.kinds}
    assert hajj == {"SA": [(15, 1, 24)], "KW": [(21, 1, 24)], "QA": [(14, 0, 0)], "BH": [(14, 1, 60)],
                    "OM": [(15, 1, 12)]}
    bereavement = {c: law.kinds["bereavement"].tiers[0].days for c, law in LAWS.items() if "bereavement" in law.kinds}
    assert bereavement == {"SA": 5, "AE": 5, "KW": 3, "BH": 3, "OM": 10}
    marriage = {c: law.kinds["marriage"].tiers[0].days for c, law in LAWS.items() if "marriage" in law.kinds}
    assert marriage == {"SA": 5, "BH": 3, "OM": 3}
    assert kind_of("AE", "marriage") is DISCRETIONARY  # not a statutory kind in the UAE


def test_unpaid_leave_and_service() -> None:
    # SA art. 116: beyond 20 days the contract is suspended; AE art. 33(2), 51(4): none counts.
    assert {c: law.unpaid_service_days for c, law in LAWS.items()} == {
        "SA": 20, "AE": 0, "KW": None, "QA": None, "BH": None, "OM": None}
    assert kind_of("SA", "unpaid").tiers == ()


@given(st.sampled_from(sorted(LAWS)), st.dates(date(2000, 1, 1), date(2040, 12, 31)), st.integers(-3, 800))
def test_working_days_are_the_days_off_the_weekend_counted_one_by_one(country: str, first: date,
                                                                       length: int) -> None:
    last = first + timedelta(days=length - 1)
    weekend = COUNTRIES[country].weekend
    walked = sum(1 for n in range(max(length, 0)) if (first + timedelta(days=n)).isoweekday() not in weekend)
    assert working_days(country, first, last) == walked
