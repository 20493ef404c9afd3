"""The leave-salary provision in runs (issue 48 part 3), on a real database: each month's
run moves 2310 to the annual leave held at its end at a day's leave wage, and a leaver's
final settlement pays the unused days (`leave_encashment`) out of it and leaves nothing.
Figures by hand, from app/domain/leave/law.py's articles."""

from datetime import date

from peewee import fn

from app.domain.access import companies
from app.domain.leave import requests
from app.domain.payroll import drafts, moves, provision
from app.domain.people import actions as hr
from app.models import Entity, JournalEntry, JournalLine, LeaveProvisionBalance, PayrollLine, PayrollRun


def on_books(entity_id: str, key: str) -> int:
    """The account's credit balance over every entry of the entity's runs."""
    return int(JournalLine.select(fn.COALESCE(fn.SUM(JournalLine.credit_minor - JournalLine.debit_minor), 0))
               .join(JournalEntry).join(PayrollRun)
               .where(PayrollRun.entity == entity_id, JournalLine.account_key == key).scalar())


def month(entity, name, runtime):
    return moves.finalize_run(drafts.build_draft_run(entity, name, runtime.clock), runtime)


def lines_of(run, employee_id):
    return {line.component_code: line.amount_minor for line in
            PayrollLine.select().where(PayrollLine.run == run.id, PayrollLine.employee == employee_id)}


def hire(company, entity, runtime, hired, basic, housing=0, number="L-1"):
    return hr.hire(company, {"staff_number": number, "name_en": "Leaver", "employment_type": "full_time",
                             "hire_date": hired, "basic_salary_minor": basic, "housing_allowance_minor": housing,
                             "entity": entity.id}, runtime)


def test_a_saudi_leaver_is_paid_the_unused_days_and_the_provision_is_cleared(transaction, runtime):
    company = companies.create_company("Leave SA", "SA", runtime.clock)
    entity = Entity.get(Entity.company == company.id)
    # Art. 109(1): 21 days a year; art. 111: on the actual wage, 8,000.00 + 2,000.00 housing,
    # a day being the month over 30: 333.3333 SAR.
    worker = hire(company, entity, runtime, date(2026, 1, 1), 800_000, 200_000)
    january = month(entity, "2026-01", runtime)
    # 31 days served: 21 x 31 / 365 = 1.7836 days x 10,000.00 / 30 = 594.5205 -> 594.52.
    assert lines_of(january, worker.id)["leave_accrual"] == 59_452
    assert on_books(entity.id, "leave_provision") == 59_452
    assert on_books(entity.id, "leave_expense") == -59_452  # the month's cost (a debit)
    for name in ("2026-02", "2026-03", "2026-04"):
        month(entity, name, runtime)
    requests.request_leave(company.id, worker.id, "annual", date(2026, 5, 10), date(2026, 5, 14), "hr@test",
                           runtime, approve=True)
    may = month(entity, "2026-05", runtime)
    # 31 May: 151 days served, 21 x 151 / 365 = 8.6877 days less 5 taken = 3.6877 x 333.33
    # = 1,229.2237 -> 1,229.22; 30 April held 120 days' 6.9041 days = 2,301.3699 -> 2,301.37:
    # the leave taken used 1,072.15 more than May earned.
    assert lines_of(may, worker.id)["leave_release"] == 230_137 - 122_922
    held = LeaveProvisionBalance.get(LeaveProvisionBalance.run == may.id, LeaveProvisionBalance.employee == worker.id)
    assert (held.booked_minor, held.balance_minor, str(held.days)) == (230_137, 122_922, "3.6877")
    hr.end_employment(company.id, worker.id, date(2026, 6, 30), runtime)
    june = month(entity, "2026-06", runtime)
    # Last day 30 June: 181 days, 21 x 181 / 365 = 10.4137 days less 5 = 5.4137 (1,976 / 365)
    # x 333.33 = 1,804.5662 -> 1,804.57 paid; the provision first grows to it, then pays it.
    paid = lines_of(june, worker.id)
    assert paid["leave_encashment"] == 180_457
    assert paid["leave_accrual"] == 180_457 - 122_922 and "leave_release" not in paid
    settled = LeaveProvisionBalance.get(LeaveProvisionBalance.run == june.id)
    assert settled.settled and settled.balance_minor == 0
    assert on_books(entity.id, "leave_provision") == 0
    # Paid with the last month, beside the end-of-service benefit (art. 84: half a month's
    # wage a year, 10,000.00 / 2 x 181 / 365 = 2,479.4521 -> 2,479.45).
    assert paid["end_of_service_benefit"] == 247_945
    assert june.gross_minor == 1_000_000 + 180_457 + 247_945
    state = provision.tie(entity.id, provision.LEAVE)
    assert state.true_up() == [] and state.provision == state.provision_owed == 0


def test_a_uae_leaver_before_six_months_is_owed_nothing_and_the_provision_is_released(transaction, runtime):
    company = companies.create_company("Leave AE", "AE", runtime.clock)
    entity = Entity.get(Entity.company == company.id)
    # Art. 29(1): two days a month in the first year, owed from six months; art. 29(9): on
    # the basic (6,000.00 AED; the housing is not in it) over 30.
    worker = hire(company, entity, runtime, date(2026, 1, 1), 600_000, 300_000)
    month(entity, "2026-01", runtime)
    month(entity, "2026-02", runtime)
    hr.end_employment(company.id, worker.id, date(2026, 3, 31), runtime, resigned=True)
    march = month(entity, "2026-03", runtime)
    # 28 Feb held 24 x 59 / 365 = 3.8795 days x 200.00 = 775.8904 -> 775.89; 31 March,
    # 24 x 90 / 365 x 200.00 = 1,183.56, owed none: accrued to it, then released whole.
    paid = lines_of(march, worker.id)
    assert "leave_encashment" not in paid
    assert paid["leave_accrual"] == 118_356 - 77_589 and paid["leave_release"] == 118_356
    assert on_books(entity.id, "leave_provision") == 0


def test_the_first_run_brings_in_leave_held_before_it_and_a_correction_revalues_the_days(transaction, runtime):
    company = companies.create_company("Leave KW", "KW", runtime.clock)
    entity = Entity.get(Entity.company == company.id)
    # Kuwait art. 70: 30 working days a year, a day the month's full wage over 26. Hired a
    # year before the entity's first run: 31 Dec 2025 holds 30 days x 520.000 / 26 = 600.000,
    # brought in from 3100 (never the month's cost); January earns 30 x 31 / 365 = 2.5479
    # days x 20.000 = 50.959.
    worker = hire(company, entity, runtime, date(2025, 1, 1), 400_000, 120_000)
    january = month(entity, "2026-01", runtime)
    opening = JournalEntry.get(JournalEntry.run == january.id, JournalEntry.kind == "opening",
                               JournalEntry.memo.contains("leave-salary"))
    assert {(line.account_key, line.debit_minor, line.credit_minor) for line in opening.lines} == {
        ("retained_earnings", 600_000, 0), ("leave_provision", 0, 600_000)}
    assert lines_of(january, worker.id)["leave_accrual"] == 50_959
    assert on_books(entity.id, "leave_provision") == 650_959
    # A raise to 546.000 for January: 32.5479 days x 21.000 = 683.5068 -> 683.507.
    moves.correct_run(january, {worker.id: {"basic": 426_000}}, runtime)
    assert lines_of(january, worker.id)["leave_accrual"] == 683_507 - 600_000
    assert on_books(entity.id, "leave_provision") == 683_507
    assert provision.tie(entity.id, provision.LEAVE).true_up() == []
    moves.delete_run(PayrollRun.get_by_id(january.id), runtime)
    assert on_books(entity.id, "leave_provision") == 0
