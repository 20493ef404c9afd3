"""A balance another system carried (app/domain/leave/carried.py): someone with eleven
years of service and no leave recorded here is not owed eleven years of leave; the
provision and the settlement go on from the balance carried."""

from datetime import date
from fractions import Fraction

from app.domain.access import companies
from app.domain.leave import carried, requests
from app.domain.payroll import drafts, moves
from app.domain.people import actions as hr
from app.models import Entity, LeaveProvisionBalance


def test_the_provision_and_settlement_go_on_from_the_balance_carried(transaction, clock, runtime):
    company = companies.create_company("Carried Co", "SA", clock)
    entity = Entity.get(Entity.company == company.id)
    person = hr.hire(company, {"staff_number": "C-1", "name_en": "C-1", "employment_type": "full_time",
                               "hire_date": date(2015, 1, 1), "basic_salary_minor": 900_000,
                               "is_national": False, "entity": entity.id}, runtime)
    carried.set_carried_balance(company.id, person.id, "12.5", date(2025, 12, 31))
    requests.request_leave(company.id, person.id, "annual", date(2026, 2, 1), date(2026, 2, 5), "hr", runtime,
                           approve=True)
    hr.end_employment(company.id, person.id, date(2026, 3, 31), runtime)
    january = moves.finalize_run(drafts.build_draft_run(entity, "2026-01", clock), runtime)
    held = LeaveProvisionBalance.get(LeaveProvisionBalance.run == january.id)
    # Art. 109: 30 days a year after five years; January: 12.5 + 30 x 31/365 days, at 9,000.00 / 30 a day.
    assert held.balance_minor == round((Fraction(25, 2) + Fraction(30 * 31, 365)) * 30_000)
    moves.finalize_run(drafts.build_draft_run(entity, "2026-02", clock), runtime)
    march = moves.finalize_run(drafts.build_draft_run(entity, "2026-03", clock), runtime)
    # The settlement: 12.5 + 30 x 90/365 - 5 = 14.897... days x 300.00 = 4,469.18.
    assert drafts.lines_by_employee(march)[person.id]["leave_encashment"] == 446_918
