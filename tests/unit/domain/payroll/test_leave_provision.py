"""The leave-salary provision by hand (app/domain/payroll/leave_provision.py), each figure
from the country's rule in app/domain/leave/law.py (its article cited there and here):
days earned from the first day, less taken and forfeited, at a day's leave wage (the
basic, or the full wage, over the law's days in a month), half up to the minor unit; and
what a leaver is paid: the days the law owes (nothing before the qualifying service)."""

from datetime import date
from fractions import Fraction

from app.domain.payroll import leave_provision
from app.domain.payroll.leave_provision import held_days, law_of, lines, owed_days, value
from app.domain.payroll.rules import Pay
from app.models import Company, Employee, LeaveRequest


def person(country: str, hired: date) -> Employee:
    return Employee(id="emp_hand", country=country, hire_date=hired)


def company(**choices: object) -> Company:
    return Company(id="co_hand", **{"leave_annual_days": None, "leave_carry_over_days": None, **choices})


def annual(first: date, last: date, kind: str = "annual") -> LeaveRequest:
    return LeaveRequest(type=kind, status="approved", start_date=first, end_date=last)


def provision(country: str, hired: date, through: date, pay: Pay, leave: list[LeaveRequest] | None = None,
              **choices: object) -> int:
    employee = person(country, hired)
    return value(held_days(employee, company(**choices), leave or [], through), law_of(employee), pay)


def test_saudi_arabia_a_year_on_the_full_wage_then_five_days_taken() -> None:
    # Art. 109(1): 21 days a year; art. 111: paid on the actual wage (allowances in); a day
    # is the month over 30. 1 Jan to 31 Dec 2025 served (365 days): 21 days; wage
    # 8,000.00 + 2,000.00 housing = 10,000.00 SAR: 21 x 10,000.00 / 30 = 7,000.00.
    pay = Pay(basic=800_000, housing=200_000)
    assert provision("SA", date(2025, 1, 1), date(2025, 12, 31), pay) == 700_000
    # Five calendar days taken in June: 16 x 10,000.00 / 30 = 5,333.333... -> 5,333.33.
    taken = [annual(date(2025, 6, 1), date(2025, 6, 5))]
    assert provision("SA", date(2025, 1, 1), date(2025, 12, 31), pay, taken) == 533_333


def test_saudi_arabia_half_a_year_is_half_the_days_from_the_first_day() -> None:
    # No qualifying period in Saudi Arabia; 1 Jan to 30 Jun 2026 is 181 days served:
    # 21 x 181 / 365 = 10.4137 days x 10,000.00 / 30 = 3,471.2328... -> 3,471.23.
    assert provision("SA", date(2026, 1, 1), date(2026, 6, 30), Pay(basic=1_000_000)) == 347_123


def test_uae_on_the_basic_and_earned_before_six_months_though_not_owed() -> None:
    # Art. 29(1): 2 days a month in the first year (24 a year, day by day), nothing owed
    # before six months; art. 29(9): on the basic wage, over 30. 1 Jan to 31 Mar 2026 is
    # 90 days: 24 x 90 / 365 = 5.9178 days x 6,000.00 / 30 = 1,183.5616... -> 1,183.56
    # (the housing allowance is not in the leave wage).
    pay = Pay(basic=600_000, housing=300_000)
    employee = person("AE", date(2026, 1, 1))
    assert provision("AE", date(2026, 1, 1), date(2026, 3, 31), pay) == 118_356
    # Leaving on 31 March: the law owes nothing yet; the provision is released whole.
    assert owed_days(employee, company(), [], date(2026, 3, 31)) == 0
    assert lines(118_000, 118_356, 0) == {"leave_accrual": 356, "leave_release": 118_356}


def test_kuwait_counts_working_days_on_the_full_wage_over_26() -> None:
    # Art. 70: 30 working days a year; the day's wage is the month's over 26. A year
    # served: 30 days x 520.000 / 26 = 600.000 KWD; a week off from Sunday 1 June 2025 is
    # five working days (Friday and Saturday are the weekend): 25 x 20.000 = 500.000.
    pay = Pay(basic=400_000, housing=120_000)
    assert provision("KW", date(2025, 1, 1), date(2025, 12, 31), pay) == 600_000
    week = [annual(date(2025, 6, 1), date(2025, 6, 7))]
    assert provision("KW", date(2025, 1, 1), date(2025, 12, 31), pay, week) == 500_000


def test_qatar_on_the_basic_and_owed_only_after_a_year() -> None:
    # Art. 79: three weeks a year after a year of service; art. 81: paid on leaving, on
    # the basic over 30. 1 Jul 2025 to 31 Dec 2025 is 184 days: 21 x 184 / 365 = 10.5863
    # days x 9,000.00 / 30 = 3,175.8904... -> 3,175.89; the law owes none of it yet.
    pay = Pay(basic=900_000, other_allowance=100_000)
    employee = person("QA", date(2025, 7, 1))
    assert provision("QA", date(2025, 7, 1), date(2025, 12, 31), pay) == 317_589
    assert owed_days(employee, company(), [], date(2025, 12, 31)) == 0
    # After the year (30 June 2026), all 21 days: 21 x 300.00 = 6,300.00, owed in full.
    assert provision("QA", date(2025, 7, 1), date(2026, 6, 30), pay) == 630_000
    assert owed_days(employee, company(), [], date(2026, 6, 30)) == 21


def test_bahrain_and_oman_thirty_days_on_the_full_wage() -> None:
    # Bahrain art. 58: 30 days a year, 2.5 a month; Oman: 30 days a year from six months.
    # A year on 300.000 + 60.000 = 360.000: 30 x 12.000 = 360.000 (BHD, OMR).
    pay = Pay(basic=300_000, transport=60_000)
    assert provision("BH", date(2025, 1, 1), date(2025, 12, 31), pay) == 360_000
    assert provision("OM", date(2025, 1, 1), date(2025, 12, 31), pay) == 360_000


def test_a_company_cap_forfeits_what_is_carried_past_the_leave_year() -> None:
    # Saudi Arabia, a cap of 10 days carried: at the first year's end (21 earned, none
    # taken) 11 are forfeited; 30 Jun 2026 holds 10 + 21 x 181 / 365 = 20.4137 days x
    # 300.00 = 6,124.1096 -> 6,124.11. At the second year's end, the cap again: 10 days.
    pay = Pay(basic=900_000)
    assert provision("SA", date(2025, 1, 1), date(2026, 6, 30), pay, leave_carry_over_days=10) == 612_411
    assert provision("SA", date(2025, 1, 1), date(2026, 12, 31), pay, leave_carry_over_days=10) == 300_000


def test_more_taken_than_earned_holds_nothing_and_unpaid_leave_may_shorten_service() -> None:
    pay = Pay(basic=900_000)
    early = [annual(date(2026, 1, 1), date(2026, 1, 20))]  # 20 days in the first month (a negative balance)
    assert provision("SA", date(2026, 1, 1), date(2026, 1, 31), pay, early) == 0
    # UAE art. 33(2): unpaid leave is not service. 61 days of it out of 1 Jan to 31 Dec
    # 2026 leave 304 days served: 24 x 304 / 365 = 19.989 days x 9,000.00 / 30 = 5,996.71.
    unpaid = [annual(date(2026, 3, 1), date(2026, 4, 30), kind="unpaid")]
    assert provision("AE", date(2026, 1, 1), date(2026, 12, 31), pay, unpaid) == 599_671


def test_a_leaver_is_paid_what_the_law_owes_and_the_rest_is_released() -> None:
    # The books carried 500.00; the provision at the last day is 700.00; the law owes
    # 600.00 of it: 200.00 accrued, 600.00 paid, 100.00 released, nothing left.
    assert lines(50_000, 70_000, 60_000) == {"leave_accrual": 20_000, "leave_encashment": 60_000,
                                             "leave_release": 10_000}
    assert lines(80_000, 70_000, 70_000) == {"leave_release": 10_000, "leave_encashment": 70_000}
    assert leave_provision.day_wage(law_of(person("SA", date(2025, 1, 1))), Pay(basic=3_000)) == Fraction(100)
