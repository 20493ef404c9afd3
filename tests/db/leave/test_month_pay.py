"""What leave does to a month's pay (issue 48 part 3), against hand computations from
the laws' articles: unpaid days and the part-paid tiers of sick leave come off the
month's earnings by the part-month rule (a 30-day month in Saudi Arabia, Qatar,
Bahrain and Oman; the month's calendar days in the UAE and Kuwait); annual leave is
paid; the run records what each leave did (PayrollLeave)."""

from datetime import date
from decimal import Decimal

import pytest

from app.domain.access import companies
from app.domain.kernel.errors import Conflict
from app.domain.leave import requests
from app.domain.payroll import drafts, moves
from app.domain.payroll.end_of_service import Service, liability
from app.domain.people import actions as hr
from app.models import EndOfServiceBalance, Entity, PayrollLeave

HR = "hr@example.com"


@pytest.fixture
def hire(transaction, clock, runtime):
    def make(country, hired, basic, housing=0):
        company = companies.create_company(f"Leave {country}", country, clock)
        entity = Entity.get(Entity.company == company.id)
        person = hr.hire(company, {"staff_number": "L-1", "name_en": "Leave test", "employment_type": "full_time",
                                   "hire_date": hired, "basic_salary_minor": basic,
                                   "housing_allowance_minor": housing, "is_national": False, "entity": entity.id},
                         runtime)
        return company, entity, person
    return make


def leave(company, person, kind, first, last, runtime):
    return requests.request_leave(company.id, person.id, kind, first, last, HR, runtime, approve=True)


def pay(entity, person, month, clock):
    run = drafts.build_draft_run(entity, month, clock)
    lines = drafts.lines_by_employee(run)[person.id]
    effects = [(row.type, row.days, row.paid_percent, row.reduction_minor)
               for row in PayrollLeave.select().where(PayrollLeave.run == run.id, PayrollLeave.employee == person.id)
               .order_by(PayrollLeave.id)]
    return lines, effects, run


def test_saudi_unpaid_days_come_off_a_30_day_month(hire, runtime, clock):
    company, entity, person = hire("SA", date(2024, 1, 1), 900_000, 300_000)  # SAR 9,000.00 + 3,000.00
    leave(company, person, "unpaid", date(2026, 3, 10), date(2026, 3, 14), runtime)
    lines, effects, _ = pay(entity, person, "2026-03", clock)
    # 5 of 30 days unpaid: 9,000.00 x 25/30 = 7,500.00; 3,000.00 x 25/30 = 2,500.00.
    assert (lines["basic"], lines["housing"]) == (750_000, 250_000)
    assert effects == [("unpaid", 5, Decimal("0.00"), 200_000)]


def test_saudi_sick_leave_is_paid_in_full_for_30_days_then_three_quarters(hire, runtime, clock):
    """Art. 117: the first 30 days of sick leave in a year on full wage, the next 60 on
    three quarters. 40 days from 10 January (the service year began on 1 January): 10
    January to 8 February in full, 9 to 18 February at three quarters."""
    company, entity, person = hire("SA", date(2024, 1, 1), 1_200_000)
    leave(company, person, "sick", date(2026, 1, 10), date(2026, 2, 18), runtime)
    january, effects, _ = pay(entity, person, "2026-01", clock)
    assert january["basic"] == 1_200_000 and effects == [("sick", 22, Decimal("100.00"), 0)]
    february, effects, _ = pay(entity, person, "2026-02", clock)
    # 10 of 30 days at a quarter off: 12,000.00 x 10/30 x 1/4 = 1,000.00.
    assert february["basic"] == 1_100_000
    assert effects == [("sick", 8, Decimal("100.00"), 0), ("sick", 10, Decimal("75.00"), 100_000)]


def test_annual_leave_is_paid(hire, runtime, clock):
    company, entity, person = hire("SA", date(2024, 1, 1), 1_200_000)
    leave(company, person, "annual", date(2026, 3, 1), date(2026, 3, 10), runtime)
    lines, effects, _ = pay(entity, person, "2026-03", clock)
    assert lines["basic"] == 1_200_000 and effects == [("annual", 10, Decimal("100.00"), 0)]


def test_uae_unpaid_days_come_off_the_months_calendar_days(hire, runtime, clock):
    company, entity, person = hire("AE", date(2024, 1, 1), 1_000_000)  # AED 10,000.00
    leave(company, person, "unpaid", date(2026, 3, 2), date(2026, 3, 4), runtime)
    lines, effects, _ = pay(entity, person, "2026-03", clock)
    # 28 of March's 31 days: 10,000.00 x 28/31 = 9,032.258... -> 9,032.26.
    assert lines["basic"] == 903_226 and effects == [("unpaid", 3, Decimal("0.00"), 96_774)]


def test_kuwait_sick_tiers_step_down_by_quarters(hire, runtime, clock):
    """Art. 69 (as law.py reads it): 15 days in full, 10 at three quarters, 10 at half,
    10 at a quarter, then unpaid. 50 days from 1 March: 1-15 March in full, 16-25 at
    three quarters, 26 March-4 April at half, 5-14 April at a quarter, 15-19 April unpaid."""
    company, entity, person = hire("KW", date(2020, 1, 1), 3_100_000)  # KWD 3,100.000
    leave(company, person, "sick", date(2026, 3, 1), date(2026, 4, 19), runtime)
    march, effects, _ = pay(entity, person, "2026-03", clock)
    # March (31 days): 10 days at 1/4 off, 6 at 1/2 off: 3,100 x (10/4 + 6/2)/31 = 550.000.
    assert march["basic"] == 3_100_000 - 550_000
    assert [e[:3] for e in effects] == [("sick", 15, Decimal("100.00")), ("sick", 10, Decimal("75.00")),
                                        ("sick", 6, Decimal("50.00"))]
    april, effects, _ = pay(entity, person, "2026-04", clock)
    # April (30 days): 4 days at 1/2 off, 10 at 3/4 off, 5 unpaid: 3,100 x (2 + 7.5 + 5)/30 = 1,498.333.
    assert april["basic"] == 3_100_000 - 1_498_333
    assert sum(e[3] for e in effects) == 1_498_333


def test_qatar_sick_leave_in_the_first_three_months_is_unpaid(hire, runtime, clock):
    company, entity, person = hire("QA", date(2026, 1, 1), 900_000)
    leave(company, person, "sick", date(2026, 2, 2), date(2026, 2, 4), runtime)  # art. 82: after three months
    lines, effects, _ = pay(entity, person, "2026-02", clock)
    assert lines["basic"] == 810_000 and effects == [("sick", 3, Decimal("0.00"), 90_000)]  # 3 of 30 days


def test_unpaid_leave_the_uae_excludes_shortens_end_of_service(hire, runtime, clock):
    """Art. 51(4) (law.py): days of unpaid leave do not count as service; the provision
    at March's end is the law's for 30 days less service."""
    company, entity, person = hire("AE", date(2022, 1, 1), 1_000_000)
    leave(company, person, "unpaid", date(2025, 6, 1), date(2025, 6, 30), runtime)
    _, _, run = pay(entity, person, "2026-03", clock)
    held = EndOfServiceBalance.get(EndOfServiceBalance.run == run.id, EndOfServiceBalance.employee == person.id)
    full = liability(Service("AE", date(2022, 1, 1), False, 1_000_000), date(2026, 3, 31))
    shorter = liability(Service("AE", date(2022, 1, 31), False, 1_000_000), date(2026, 3, 31))
    assert held.balance_minor == shorter < full


def test_a_draft_that_leave_overtook_is_not_finalized(hire, runtime, clock):
    """A leave approved (or cancelled) after the month was drafted would leave the draft's
    pay and provision stale: finalize refuses it, and a new draft pays the leave."""
    company, entity, person = hire("SA", date(2024, 1, 1), 900_000)
    draft = drafts.build_draft_run(entity, "2026-03", clock)
    unpaid = leave(company, person, "unpaid", date(2026, 3, 10), date(2026, 3, 12), runtime)
    with pytest.raises(Conflict, match="leave was approved or cancelled since draft"):
        moves.finalize_run(draft, runtime)
    moves.discard_draft(draft)
    again = drafts.build_draft_run(entity, "2026-03", clock)
    assert drafts.lines_by_employee(again)[person.id]["basic"] == 810_000  # 27 of 30 days
    requests.cancel_leave(company.id, unpaid.id, HR, runtime)
    with pytest.raises(Conflict, match="leave was approved or cancelled since draft"):
        moves.finalize_run(again, runtime)


def test_leave_past_the_last_day_takes_nothing_more(hire, runtime, clock):
    """Unpaid leave 20-31 March, then the employment ends on the 25th: 25 of 30 days
    employed, 6 of them unpaid (20-25): 9,000.00 x 19/30 = 5,700.00, not the leave's 12 days
    off the 25 as well."""
    company, entity, person = hire("SA", date(2024, 1, 1), 900_000)
    leave(company, person, "unpaid", date(2026, 3, 20), date(2026, 3, 31), runtime)
    hr.end_employment(company.id, person.id, date(2026, 3, 25), runtime)
    lines, effects, _ = pay(entity, person, "2026-03", clock)
    assert lines["basic"] == 570_000 and effects == [("unpaid", 6, Decimal("0.00"), 180_000)]


def test_the_30th_and_31st_are_one_day_however_the_leave_is_split(hire, runtime, clock):
    company, entity, person = hire("SA", date(2024, 1, 1), 900_000)
    leave(company, person, "unpaid", date(2026, 3, 29), date(2026, 3, 30), runtime)
    leave(company, person, "unpaid", date(2026, 3, 31), date(2026, 3, 31), runtime)
    lines, effects, _ = pay(entity, person, "2026-03", clock)
    assert lines["basic"] == 840_000  # two days of 30 off, as one leave 29-31 March
    assert sum(effect[3] for effect in effects) == 60_000


def test_sick_days_before_the_qualifying_service_take_no_place_in_the_tiers(hire, runtime, clock):
    """UAE art. 31: sick pay after probation (the service takes six months). Sick from 20
    June to 10 July 2025, hired 1 January: 20-30 June unpaid, and 1-10 July are the first
    days of the year's 15 in full."""
    company, entity, person = hire("AE", date(2025, 1, 1), 900_000)
    leave(company, person, "sick", date(2025, 6, 20), date(2025, 7, 10), runtime)
    june, effects, _ = pay(entity, person, "2025-06", clock)
    assert june["basic"] == 570_000 and effects == [("sick", 11, Decimal("0.00"), 330_000)]  # 19 of June's 30 days
    july, effects, _ = pay(entity, person, "2025-07", clock)
    assert july["basic"] == 900_000 and effects == [("sick", 10, Decimal("100.00"), 0)]
