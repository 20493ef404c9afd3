"""Issue 48's "done when": a year of leave in each of the six countries, against a hand
computation from the rules table (app/domain/leave/law.py; docs/partners/leave.md
gives each rule's article and source).

One employee per country, hired 1 January 2025 on a basic of 1,860.000 (or 18,600.00)
and a housing allowance of half that: annual leave 1-10 March 2026 approved; annual
leave in May requested, then cancelled; unpaid leave in April declined; sick leave 20
June to 14 July (25 days, across a month's end, the first sick days of the service
year); unpaid leave 30 August to 3 September (across a month's end); the employment
ends on 31 October with days unused. Every month from January to October is drafted and
finalized in turn, on a real database (SQLite, or PostgreSQL in CI's second pass).
"""

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from peewee import fn

from app.domain.access import companies
from app.domain.leave import balances, requests
from app.domain.payroll import drafts, moves
from app.domain.people import actions as hr
from app.models import Employee, Entity, JournalEntry, JournalLine, LeaveProvisionBalance

HR = "hr@example.com"
BASIC, HOUSING = 1_860_000, 930_000  # minor units; both divide by 30 and by 31
HIRED, LAST_DAY = date(2025, 1, 1), date(2026, 10, 31)


@dataclass(frozen=True)
class Case:
    """The rules table, restated by hand for this history."""

    year_days: int  # annual leave a year (service under five years)
    first_year_days: int | None  # within the first year (UAE: 2 days a month)
    march_days: int  # 1-10 March as annual leave counts it
    wage: int  # what a day of leave is paid on: the basic, or the full wage
    day_of_month: int  # a day's wage is the month over this
    excluded: int  # days of the 5-day unpaid leave the law takes out of service
    july: Fraction  # the part of July's pay the sick days past the full tier take off
    august: Fraction  # the part of August's pay the unpaid days take off (30-31 August)
    september: Fraction  # and of September's (1-3 September)


CASES = {
    # Art. 109: 21 days; art. 117: 30 sick days in full (25 taken); art. 116: 20 unpaid
    # days still count. 30-day month: 30 and 31 August are the month's day 30, one day.
    "SA": Case(21, None, 10, BASIC + HOUSING, 30, 0, Fraction(0), Fraction(1, 30), Fraction(3, 30)),
    # Art. 29: 30 days (2 a month in the first year), on the basic; art. 31: 15 sick days
    # in full, then half (5-14 July: 10 days); art. 51(4): unpaid days are not service.
    # Calendar days: 2 of August's 31.
    "AE": Case(30, 24, 10, BASIC, 30, 5, Fraction(10, 2 * 31), Fraction(2, 31), Fraction(3, 30)),
    # Art. 70: 30 working days (1-10 March 2026 holds one Friday and Saturday: 8 days);
    # art. 69: 15 sick days in full, then 10 at three quarters (5-14 July).
    "KW": Case(30, None, 8, BASIC + HOUSING, 26, 0, Fraction(10, 4 * 31), Fraction(2, 31), Fraction(3, 30)),
    # Art. 79: three weeks, on the basic; art. 82: 14 sick days in full, then half
    # (4-14 July: 11 days). 30-day month.
    "QA": Case(21, None, 10, BASIC, 30, 0, Fraction(11, 2 * 30), Fraction(1, 30), Fraction(3, 30)),
    # Art. 58: 30 days; art. 65: 15 sick days in full, then half (5-14 July: 10 days).
    "BH": Case(30, None, 10, BASIC + HOUSING, 30, 0, Fraction(10, 2 * 30), Fraction(1, 30), Fraction(3, 30)),
    # 30 days; sick leave: 21 days in full, then three quarters (11-14 July: 4 days).
    "OM": Case(30, None, 10, BASIC + HOUSING, 30, 0, Fraction(4, 4 * 30), Fraction(1, 30), Fraction(3, 30)),
}


def half_up(amount: Fraction) -> int:
    return int((Decimal(amount.numerator) / Decimal(amount.denominator)).quantize(Decimal(1), ROUND_HALF_UP))


def earned(case: Case, through: date) -> Fraction:
    """Annual leave days earned by service from 1 January 2025 to the end of `through`
    (the unpaid days the law excludes, all in August/September 2026, off after them)."""
    served = (through - HIRED).days + 1 - (case.excluded if through >= date(2026, 9, 3) else 0)
    if served < 365:
        return Fraction((case.first_year_days or case.year_days) * served, 365)
    return case.year_days + Fraction(case.year_days * (served - 365), 365)


@pytest.fixture(params=sorted(CASES))
def history(request, transaction, clock, runtime):
    country = request.param
    company = companies.create_company(f"History {country}", country, clock)
    entity = Entity.get(Entity.company == company.id)
    person = hr.hire(company, {"staff_number": "H-1", "name_en": "Hanan", "employment_type": "full_time",
                               "hire_date": HIRED, "basic_salary_minor": BASIC, "housing_allowance_minor": HOUSING,
                               "is_national": False, "entity": entity.id}, runtime)

    def ask(kind, first, last, **options):
        return requests.request_leave(company.id, person.id, kind, first, last, HR, runtime, **options)

    ask("annual", date(2026, 3, 1), date(2026, 3, 10), approve=True)
    requests.cancel_leave(company.id, ask("annual", date(2026, 5, 3), date(2026, 5, 7)).id, HR, runtime)
    requests.decline_leave(company.id, ask("unpaid", date(2026, 4, 5), date(2026, 4, 6)).id, HR, runtime)
    sick = ask("sick", date(2026, 6, 20), date(2026, 7, 14))
    requests.approve_leave(company.id, sick.id, HR, runtime)
    ask("unpaid", date(2026, 8, 30), date(2026, 9, 3), approve=True)
    hr.end_employment(company.id, person.id, LAST_DAY, runtime)
    runs = {}
    for month in range(1, 11):
        draft = drafts.build_draft_run(entity, f"2026-{month:02d}", clock)
        runs[month] = moves.finalize_run(draft, runtime)
    return CASES[country], Employee.get_by_id(person.id), runs


def test_balances_as_of_any_day(history):
    case, person, _ = history
    before = balances.balance_of(person, date(2026, 2, 28))
    assert (before.accrued, before.taken, before.planned) == (earned(case, date(2026, 2, 28)), 0, case.march_days)
    june = balances.balance_of(person, date(2026, 6, 30))
    assert (june.accrued, june.taken, june.planned) == (earned(case, date(2026, 6, 30)), case.march_days, 0)
    last = balances.balance_of(person, LAST_DAY)
    assert last.balance == earned(case, LAST_DAY) - case.march_days


def test_each_months_pay(history):
    case, person, runs = history
    off = {6: Fraction(0), 7: case.july, 8: case.august, 9: case.september}
    for month, run in runs.items():
        lines = drafts.lines_by_employee(run)[person.id]
        share = 1 - off.get(month, Fraction(0))
        assert (lines["basic"], lines["housing"]) == (half_up(BASIC * share), half_up(HOUSING * share)), month


def test_the_provision_each_month_and_the_settlement(history):
    """The leave-salary provision at a month's end is the days earned and not taken times a
    day's wage (the leave's wage over the law's month); the leaver is paid the unused
    days in the run of their last month (`leave_encashment`), and nothing is left on the
    provision after it."""
    case, person, runs = history
    day = Fraction(case.wage, case.day_of_month)
    march = LeaveProvisionBalance.get(LeaveProvisionBalance.run == runs[3].id,
                                      LeaveProvisionBalance.employee == person.id)
    assert march.balance_minor == half_up((earned(case, date(2026, 3, 31)) - case.march_days) * day)
    settled = LeaveProvisionBalance.get(LeaveProvisionBalance.run == runs[10].id,
                                        LeaveProvisionBalance.employee == person.id)
    assert (settled.settled, settled.balance_minor) == (True, 0)
    lines = drafts.lines_by_employee(runs[10])[person.id]
    assert lines["leave_encashment"] == half_up((earned(case, LAST_DAY) - case.march_days) * day)
    held = (JournalLine.select(fn.SUM(JournalLine.credit_minor - JournalLine.debit_minor)).join(JournalEntry)
            .where(JournalEntry.run.in_([run.id for run in runs.values()]),
                   JournalLine.account_key == "leave_provision").scalar())
    assert held == 0
