"""The end-of-service rules per country (app/domain/payroll/end_of_service.py), from worked
examples computed by hand from each article, and properties that hold for all inputs.

Service spans are whole multiples of 365 days, the rules' year, so each example's years
are exact: `after(3)` is the last day of three years' service, both the first and the last
day served (365 x 3 days in all). Amounts are minor units (fils, halalas, dirhams, baisa)
and each expected figure shows its arithmetic."""

from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.money import percent_of
from app.domain.payroll.end_of_service import (
    BAHRAIN_SIO_FROM,
    OMAN_LAW_OF_2023_FROM,
    Service,
    liability,
    owed,
    sio_contribution,
    years_served,
)

HIRED = date(2010, 1, 4)


def after(years: float, start: date = HIRED) -> date:
    """The last day of `years` of service begun on `start` (that day and the first both served)."""
    return start + timedelta(days=round(365 * years) - 1)


# ---- Saudi Arabia: art. 84 (half a month's wage a year for 5 years, a month after), art. 85
SA = Service("SA", HIRED, is_national=True, basic=700_000, allowances=300_000)  # wage SAR 10,000.00


def test_saudi_arabia_termination_uses_the_whole_wage_half_then_whole_months():
    assert liability(SA, after(3)) == 1_000_000 * 3 // 2  # 3 x 1/2 month = 1.5 months
    assert owed(SA, after(7), "termination") == 4_500_000  # 5 x 1/2 + 2 x 1 = 4.5 months of 1,000,000
    assert owed(SA, after(12), "termination") == 9_500_000  # 5 x 1/2 + 7 x 1 = 9.5 months


@pytest.mark.parametrize("years, expected", [
    (1.5, 0),  # under 2 years: nothing
    (4, 666_667),  # 4 x 1/2 = 2 months = 2,000,000; a third = 666,666.67, half up
    (7, 3_000_000),  # 4.5 months = 4,500,000; two thirds
    (12, 9_500_000),  # from 10 years: all of 9.5 months
])
def test_saudi_arabia_resignation_keeps_a_third_two_thirds_or_all(years, expected):
    assert owed(SA, after(years), "resignation") == expected


# ---- UAE: art. 51 (21 then 30 days' basic a year, from one year, at most two years' basic)
AE = Service("AE", HIRED, is_national=False, basic=1_200_000, allowances=800_000)  # basic AED 12,000.00


def test_uae_and_qatar_accrue_from_the_first_day_but_pay_only_from_one_year():
    """IAS 19: the provision builds from the first day at the year's rate; a leaver
    before the year is owed nothing (the accrual is released)."""
    assert owed(AE, after(0.9), "termination") == 0
    # 328 days: 21 days' basic a year (14,400,000 / 365 a day) x 328/365 = 744,509.29
    assert liability(AE, after(0.9)) == 744_509
    assert owed(QA, after(0.5), "termination") == 0
    assert liability(QA, after(0.5)) == 314_137  # 900,000 / 30 x 21 x 182/365 = 314,136.99
    assert liability(AE, after(1)) == owed(AE, after(1), "termination")  # from the year on, one figure


@pytest.mark.parametrize("years, expected", [
    (3, 2_485_479),  # 63 days x (1,200,000 x 12 / 365) = 907,200,000 / 365 = 2,485,479.45
    (7, 6_509_589),  # (105 + 60) days: 165 x 14,400,000 / 365 = 6,509,589.04
    (30, 28_800_000),  # 855 days would be 33,731,507; the cap is 24 x 1,200,000
])
def test_uae_basic_only_21_then_30_days_capped_at_two_years(years, expected):
    assert owed(AE, after(years), "termination") == expected
    assert owed(AE, after(years), "resignation") == expected  # no reduction under the 2021 law
    assert liability(AE, after(years)) == expected


def test_uae_nationals_are_in_the_pension_scheme():
    national = Service("AE", HIRED, is_national=True, basic=1_200_000)
    assert liability(national, after(10)) == 0 == owed(national, after(10), "termination")


# ---- Kuwait: art. 51 (15 days a year for 5 years, a month after; /26; 18 months at most), art. 53
KW = Service("KW", HIRED, is_national=False, basic=500_000, allowances=100_000)  # wage KWD 600.000


@pytest.mark.parametrize("years, termination, resignation", [
    (2, 692_308, 0),  # 30 days x 600,000 / 26 = 692,307.69; resigning under 3 years: nothing
    (4, 1_384_615, 692_308),  # 60 x 600,000 / 26 = 1,384,615.38; half = 692,307.69
    (8, 3_530_769, 2_353_846),  # 75 x 600,000 / 26 = 1,730,769.23 + 3 x 600,000; two thirds = 2,353,846.15
    (12, 5_930_769, 5_930_769),  # 1,730,769.23 + 7 x 600,000; all from 10 years
    (30, 10_800_000, 10_800_000),  # 1,730,769.23 + 25 x 600,000 = 16,730,769 > 18 x 600,000
])
def test_kuwait_15_days_over_26_then_months_capped_at_18_with_resignation_shares(years, termination, resignation):
    assert owed(KW, after(years), "termination") == termination == liability(KW, after(years))
    assert owed(KW, after(years), "resignation") == resignation


def test_kuwaitis_get_the_whole_indemnity_with_nothing_set_against_their_pifss_contributions():
    """Art. 51 as replaced by Law 85/2017 and the 2020 amendment: the full indemnity,
    without deducting what the employer paid to PIFSS for the worker (not, as art. 51
    said in 2010, only the net difference above what the PIFSS subscription accrued)."""
    national = Service("KW", HIRED, is_national=True, basic=500_000, allowances=100_000)
    assert owed(national, after(8), "termination") == 3_530_769  # as an expatriate's, above
    assert liability(national, after(8)) == 3_530_769


# ---- Qatar: art. 54 (three weeks' basic a year, from one year)
QA = Service("QA", HIRED, is_national=False, basic=900_000, allowances=300_000)  # basic QAR 9,000.00


def test_qatar_three_weeks_of_basic_a_year_from_the_first_year():
    assert owed(QA, after(0.5), "termination") == 0
    assert owed(QA, after(4), "resignation") == 2_520_000  # 900,000 / 30 x 21 x 4 = 30,000 x 84
    assert liability(Service("QA", HIRED, is_national=True, basic=900_000), after(4)) == 0


# ---- Bahrain: art. 116 until March 2024, then SIO contributions (Edict 109/2023)
def test_bahrain_expatriates_book_only_the_service_before_march_2024():
    service = Service("BH", BAHRAIN_SIO_FROM - timedelta(days=5 * 365), is_national=False, basic=600_000,
                      allowances=200_000)  # wage BHD 800.000, five years booked
    assert liability(service, BAHRAIN_SIO_FROM) == 2_800_000  # 3 x 1/2 + 2 x 1 = 3.5 months of 800,000
    assert liability(service, date(2026, 11, 30)) == 2_800_000  # the SIO carries the rest
    assert owed(service, date(2026, 11, 30), "resignation") == 2_800_000  # no reduction in art. 116
    assert sio_contribution(service, date(2026, 11, 1)) == 67_200  # 8.4% of 800,000: over 3 years
    assert sio_contribution(service, date(2024, 2, 1)) == 0  # before the scheme


def test_bahrain_sio_contribution_is_4_2_percent_in_the_first_three_years():
    service = Service("BH", date(2023, 6, 1), is_national=False, basic=800_000)
    # 274 days to 1 March 2024 (June to February, a leap February): 800,000 x 1/2 x 274 / 365 = 300,273.97
    assert liability(service, date(2026, 11, 30)) == 300_274
    assert sio_contribution(service, date(2024, 3, 1)) == 33_600  # 4.2% of 800,000
    assert sio_contribution(service, date(2026, 6, 1)) == 67_200  # three years complete on 1 June 2026
    assert sio_contribution(Service("BH", date(2023, 6, 1), is_national=True, basic=800_000),
                            date(2026, 6, 1)) == 0


# ---- Oman: art. 61 (a month's basic a year), the old rate for service before the law
def test_oman_a_month_of_basic_a_year_and_the_old_rate_before_the_law():
    straddling = Service("OM", OMAN_LAW_OF_2023_FROM - timedelta(days=2 * 365), is_national=False,
                         basic=700_000, allowances=150_000)  # basic OMR 700.000
    # 2 years to 25 July 2023 at 15 days (1/2 month) + 3 from 26 July 2023 at a month = 4 months of basic
    assert owed(straddling, after(3, OMAN_LAW_OF_2023_FROM), "termination") == 2_800_000
    hired_since = Service("OM", OMAN_LAW_OF_2023_FROM, is_national=False, basic=700_000)
    assert owed(hired_since, after(4, OMAN_LAW_OF_2023_FROM), "resignation") == 2_800_000  # 4 x 1 month
    assert liability(Service("OM", HIRED, is_national=True, basic=700_000), after(10)) == 0


# ---- Days of service: the first day and the last both count (issue 47 part 7)
def test_a_full_year_worked_is_exactly_one_year():
    assert years_served(date(2025, 3, 1), date(2026, 2, 28)) == 1  # 1 March to 28 February: 365 days
    assert years_served(date(2025, 3, 1), date(2025, 3, 1)) == Fraction(1, 365)  # the first day alone is a day
    assert years_served(date(2025, 3, 1), date(2025, 2, 28)) == 0  # a last day before the first: none
    assert years_served(date(2023, 3, 1), date(2024, 2, 29)) == Fraction(366, 365)  # the leap year's 366 days


@pytest.mark.parametrize("country, hired, last_day, expected", [
    # basic 1,000,000 (10,000.00), allowances 200,000: a year's figure, where the old count (364 days) fell short
    ("AE", date(2025, 3, 1), date(2026, 2, 28), 690_411),  # 21 x 1,000,000 x 12 / 365 = 690,410.96 (old: 0, unvested)
    ("QA", date(2025, 3, 1), date(2026, 2, 28), 700_000),  # 21 x 1,000,000 / 30 (old: 0, unvested)
    ("SA", date(2025, 3, 1), date(2026, 2, 28), 600_000),  # 1/2 x 1,200,000 (old: x 364/365 = 598,356)
    ("KW", date(2025, 3, 1), date(2026, 2, 28), 692_308),  # 15 x 1,200,000 / 26 = 692,307.69
    ("OM", date(2024, 3, 1), date(2025, 2, 28), 1_000_000),  # after the 2023 law: a month's basic
    ("OM", date(2022, 7, 26), date(2023, 7, 25), 500_000),  # all before it: 1/2 month's basic (art. 39)
    ("BH", date(2022, 3, 1), date(2023, 2, 28), 600_000),  # before the SIO: 1/2 x 1,200,000
])
def test_a_year_worked_to_the_anniversarys_eve_earns_a_years_benefit_in_every_country(
        country, hired, last_day, expected):
    service = Service(country, hired, is_national=False, basic=1_000_000, allowances=200_000)
    assert owed(service, last_day, "termination") == expected == liability(service, last_day)


def test_the_issues_example_a_uae_year_on_a_basic_of_10000_is_6904_11():
    service = Service("AE", date(2025, 3, 1), is_national=False, basic=1_000_000)
    # 21 days x 10,000 x 12 / 365 = 6,904.109... -> 6,904.11 (Decree-Law 33/2021 art. 51)
    assert owed(service, date(2026, 2, 28), "termination") == 690_411
    assert owed(service, date(2026, 2, 28), "resignation") == 690_411  # no reduction in the UAE
    assert owed(service, date(2026, 2, 27), "termination") == 0  # 364 days: a day short of the year


@pytest.mark.parametrize("country, hired, last_day, resigning", [
    # SA art. 85 and KW art. 53 on a wage of 1,200,000 (a KW day: 1,200,000 / 26). A span without
    # a 29 February reaches its threshold on the anniversary's eve exactly, and not the day before:
    ("SA", date(2022, 3, 1), date(2024, 2, 28), 400_000),  # 730 days, two years: 2 x 1/2 month = 1,200,000; a third
    ("SA", date(2022, 3, 1), date(2024, 2, 27), 0),  # 729 days: under two years, nothing
    ("KW", date(2021, 3, 1), date(2024, 2, 28), 1_038_462),  # 1,095 days: 45 days' wage = 2,076,923.08; half
    ("KW", date(2021, 3, 1), date(2024, 2, 27), 0),  # 1,094 days: under three years
    # a span holding a 29 February reaches it a day earlier for each one served (a year is 365 days):
    ("SA", date(2019, 3, 1), date(2024, 2, 27), 2_000_000),  # 1,825 days (29 Feb 2020 in): 2.5 months; two thirds
    ("SA", date(2019, 3, 1), date(2024, 2, 26), 999_452),  # 1,824: 600,000 x 1,824 / 365 = 2,998,356.16; a third
    ("KW", date(2016, 3, 1), date(2026, 2, 26), 9_461_538),  # 3,650 (2020, 2024 in): 75 + 5 x 26 days' wage, all
    # 3,649 days: (75 + 26 x (3,649 / 365 - 5)) x 1,200,000 / 26 = 9,458,250.79; two thirds = 6,305,500.53
    ("KW", date(2016, 3, 1), date(2026, 2, 25), 6_305_501),
])
def test_resignation_thresholds_are_reached_with_the_last_day_served(country, hired, last_day, resigning):
    service = Service(country, hired, is_national=False, basic=1_000_000, allowances=200_000)
    assert owed(service, last_day, "resignation") == resigning


def test_leap_years_the_366th_day_counts_and_a_february_provision_counts_its_29th():
    service = Service("AE", date(2023, 3, 1), is_national=False, basic=1_000_000)
    assert owed(service, date(2024, 2, 28), "termination") == 690_411  # 365 days: vested, 690,410.96
    # 366 days: 252,000,000 / 365 x 366 / 365 = 692,302.50 -> 692,302 (half up of .4958)
    assert owed(service, date(2024, 2, 29), "termination") == 692_302
    february = Service("AE", date(2024, 2, 1), is_national=False, basic=1_000_000)
    # the month's-end provision: 29 days served, 252,000,000 / 365 x 29 / 365 = 54,854.57 (old: 28 days, 52,963)
    assert liability(february, date(2024, 2, 29)) == 54_855
    assert liability(february, date(2024, 1, 31)) == 0  # the day before the first: nothing served


def test_bahrains_books_keep_29_february_2024_and_the_sio_takes_1_march():
    service = Service("BH", date(2023, 3, 1), is_national=False, basic=800_000)
    assert liability(service, date(2024, 2, 28)) == 400_000  # 365 days: 1/2 x 800,000 (old: 364 days, 398,904)
    assert liability(service, date(2024, 2, 29)) == 401_096  # 366 days: 400,000 x 366 / 365 = 401,095.89
    assert liability(service, date(2024, 3, 1)) == 401_096  # 1 March 2024 on: the SIO's
    assert owed(service, date(2026, 11, 30), "resignation") == 401_096


def test_omans_old_law_ends_on_25_july_2023_and_the_new_law_counts_from_26_july():
    service = Service("OM", date(2022, 7, 26), is_national=False, basic=700_000)
    # 365 days to 25 July 2023 at 1/2 month = 350,000; 26 July 2023 to 25 July 2024 is 366 days
    # (29 Feb 2024 in) at a month: 700,000 x 366 / 365 = 701,917.81; 1,051,917.81 in all (old: 1,050,000)
    assert owed(service, date(2024, 7, 25), "termination") == 1_051_918
    hired_on_the_day = Service("OM", OMAN_LAW_OF_2023_FROM, is_national=False, basic=700_000)
    assert owed(hired_on_the_day, date(2024, 7, 25), "termination") == 701_918  # the new law's rate only


# ---- Properties, for every country and every input
services = st.builds(
    Service, country=st.sampled_from(["SA", "AE", "KW", "QA", "BH", "OM"]),
    hire_date=st.dates(min_value=date(1990, 1, 1), max_value=date(2026, 11, 1)),
    is_national=st.booleans(), basic=st.integers(0, 10**9), allowances=st.integers(0, 10**9))
spans = st.integers(0, 45 * 365)


@given(services, spans, spans)
def test_the_liability_never_falls_while_employed(service, first, second):
    early, late = sorted((first, second))
    start = service.hire_date
    assert liability(service, start + timedelta(days=early)) <= liability(service, start + timedelta(days=late))


@given(services, st.integers(-3, 45 * 365))
def test_a_last_day_one_day_later_serves_one_more_day_and_never_owes_less(service, days):
    last = service.hire_date + timedelta(days=days)
    later = last + timedelta(days=1)
    assert years_served(service.hire_date, last) == Fraction(max(days + 1, 0), 365)  # both ends served
    assert years_served(service.hire_date, later) - years_served(service.hire_date, last) == (
        Fraction(1, 365) if later >= service.hire_date else 0)  # the hire date itself is a day
    assert liability(service, later) >= liability(service, last)
    for reason in ("termination", "resignation"):
        assert owed(service, later, reason) >= owed(service, last, reason)


@given(services, spans, spans, st.sampled_from(["termination", "resignation"]))
def test_a_later_last_day_never_owes_less(service, first, second, reason):
    early, late = sorted((first, second))
    start = service.hire_date
    assert owed(service, start + timedelta(days=early), reason) <= owed(service, start + timedelta(days=late), reason)


@given(services, spans)
def test_caps_hold_and_resigning_never_owes_more(service, days):
    end = service.hire_date + timedelta(days=days)
    full = owed(service, end, "termination")
    vesting = service.country in ("AE", "QA") and days + 1 < 365  # days + 1 served: accrued, not yet owed
    assert full == (0 if vesting else liability(service, end))
    assert 0 <= owed(service, end, "resignation") <= full
    if service.country == "AE":
        assert full <= 24 * service.basic
    if service.country == "KW":
        assert full <= 18 * service.wage


@given(services, st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 1)))
def test_only_bahrain_expatriates_pay_the_sio_4_2_or_8_4_percent_from_march_2024(service, month):
    month = month.replace(day=1)
    paid = sio_contribution(service, month)
    if service.country != "BH" or service.is_national or month < BAHRAIN_SIO_FROM:
        assert paid == 0
    else:
        assert paid in (percent_of(service.wage, "4.2"), percent_of(service.wage, "8.4"))
