"""Every HR transition, the outbox event it writes (or does not), and what partners
then read. Domain functions against the real database; reads through the API."""

import json
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from app.domain.access.companies import create_company
from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.payroll import drafts, moves
from app.domain.payroll.rules import net_by_account
from app.domain.people import actions as hr
from app.domain.people import bulk
from app.models import Employee, JournalEntry, JournalLine, PayrollRun
from tests.helpers import assert_problem, event_ids, new_events, outbox, staff

HIRE = {"staff_number": "N-100", "name_en": "Layla Haddad", "employment_type": "full_time",
        "hire_date": date(2026, 11, 1), "basic_salary_minor": 950_000, "job_title": "Analyst",
        "contact_phone": "+965 5551 2345", "contact_email": "layla@example.com"}


def test_hire_writes_employee_created_with_the_partner_form(client, headers, sandbox, clock, runtime):
    seen = event_ids(sandbox)
    employee = hr.hire(sandbox, HIRE, runtime)
    [event] = new_events(sandbox, seen)
    assert set(event) == {"id", "type", "created_at", "company_id", "livemode", "data"}
    assert event["type"] == "employee.created" and event["company_id"] == sandbox.id
    assert event["livemode"] is False and event["id"].startswith("evt_")
    assert event["created_at"] == "2026-11-21T09:00:00Z"
    api_form = client.get(f"/v1/employees/{employee.id}", headers=headers).get_json()
    assert event["data"] == {"employee": api_form}
    assert api_form["contact_phone"] == "+96555512345"  # stored in E.164


def test_live_companies_have_livemode_true(clock, runtime):
    company = create_company("Live Co", "SA", clock)
    hr.hire(company, {**HIRE, "contact_phone": "+966 50 123 4567"}, runtime)
    assert [e["livemode"] for e in outbox(company)] == [True]


def test_a_partner_field_change_writes_employee_updated(client, headers, sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    clock.advance(hours=1)
    hr.update_employee(sandbox.id, employee.id, {"job_title": "Senior Sales Executive"}, runtime)
    [event] = new_events(sandbox, seen)
    assert event["type"] == "employee.updated"
    assert event["data"]["employee"]["job_title"] == "Senior Sales Executive"
    assert event["data"]["employee"]["updated_at"] == "2026-11-21T10:00:00Z"
    assert client.get(f"/v1/employees/{employee.id}", headers=headers).get_json() == event["data"]["employee"]


def test_an_internal_field_change_writes_nothing_and_keeps_updated_at(sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    clock.advance(hours=1)
    hr.update_employee(sandbox.id, employee.id, {"basic_salary_minor": 1_234_000,
                                                 "iban": "KW81CBKU0000000000001234560101"}, runtime)
    assert new_events(sandbox, seen) == []
    stored = Employee.get_by_id(employee.id)
    assert stored.basic_salary_minor == 1_234_000 and stored.updated_at == employee.updated_at


def test_an_unchanged_value_writes_nothing(sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    hr.update_employee(sandbox.id, employee.id, {"job_title": employee.job_title}, runtime)
    assert new_events(sandbox, seen) == []


def test_invalid_changes_are_all_listed_and_nothing_is_stored(sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    with pytest.raises(ValidationFailed) as failure:
        hr.update_employee(sandbox.id, employee.id, {
            "job_title": "Lead", "status": "left", "contact_phone": "12", "contact_email": "nope",
            "staff_number": "SBX-001", "iban": "KW00XXXX", "employment_type": "intern", "salary": 5,
        }, runtime)
    paths = {path for path, _ in failure.value.errors}
    assert paths == {"status", "contact_phone", "contact_email", "staff_number", "iban", "employment_type",
                     "salary"}
    assert Employee.get_by_id(employee.id).job_title == employee.job_title
    assert new_events(sandbox, seen) == []


def test_another_companys_records_are_not_found(sandbox, make_sandbox, clock, runtime):
    other = make_sandbox("SA")
    with pytest.raises(Exception) as failure:
        hr.update_employee(other.id, staff(sandbox).id, {"job_title": "x"}, runtime)
    assert failure.value.code == "not_found"
    with pytest.raises(ValidationFailed):
        hr.update_employee(sandbox.id, staff(sandbox).id, {"manager": staff(other, "SBX-001").id}, runtime)


def test_end_employment_writes_employee_left_without_the_reason(client, headers, sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    hr.end_employment(sandbox.id, employee.id, date(2026, 11, 21), runtime, reason="Resigned: SENTINEL-REASON")
    [event] = new_events(sandbox, seen)
    assert event["type"] == "employee.left"  # today (the clock's 2026-11-21) is the last day: left now
    form = event["data"]["employee"]
    assert form["status"] == "left" and form["termination_date"] == "2026-11-21"
    assert "SENTINEL-REASON" not in json.dumps(event)
    assert client.get(f"/v1/employees/{employee.id}", headers=headers).get_json()["status"] == "left"
    with pytest.raises(Conflict):
        hr.end_employment(sandbox.id, employee.id, date(2026, 12, 1), runtime)
    with pytest.raises(Conflict):
        hr.update_employee(sandbox.id, employee.id, {"status": "active"}, runtime)


def test_a_last_day_ahead_is_announced_now_and_takes_effect_on_that_day(client, headers, sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    hr.end_employment(sandbox.id, employee.id, date(2026, 11, 30), runtime, reason="Contract ends")
    [scheduled] = new_events(sandbox, seen)
    assert scheduled["type"] == "employee.updated"
    assert scheduled["data"]["employee"]["status"] == "active"
    assert scheduled["data"]["employee"]["termination_date"] == "2026-11-30"
    hr.end_employment(sandbox.id, employee.id, date(2026, 11, 30), runtime, reason="Contract ends")  # a double click
    assert len(new_events(sandbox, seen)) == 1
    assert hr.end_due_employments(runtime) == 0
    # Kuwait's 2026-11-30 begins at 21:00 UTC on the 29th.
    clock.set(datetime(2026, 11, 29, 20, 59, tzinfo=UTC))
    assert hr.end_due_employments(runtime) == 0
    clock.set(datetime(2026, 11, 29, 21, 0, tzinfo=UTC))
    assert hr.end_due_employments(runtime) == 1
    assert hr.end_due_employments(runtime) == 0  # each leaver once
    left = new_events(sandbox, seen)[1:]
    assert [e["type"] for e in left] == ["employee.left"]
    assert left[0]["data"]["employee"]["status"] == "left"
    assert client.get(f"/v1/employees/{employee.id}", headers=headers).get_json()["status"] == "left"
    with pytest.raises(Conflict):
        hr.end_employment(sandbox.id, employee.id, date(2026, 12, 31), runtime)


def test_a_last_day_ahead_may_be_moved_or_brought_forward(sandbox, clock, runtime):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    hr.end_employment(sandbox.id, employee.id, date(2026, 12, 31), runtime)
    hr.end_employment(sandbox.id, employee.id, date(2027, 1, 31), runtime)
    hr.end_employment(sandbox.id, employee.id, date(2026, 11, 20), runtime)  # it ended yesterday after all
    assert [(e["type"], e["data"]["employee"]["termination_date"]) for e in new_events(sandbox, seen)] == [
        ("employee.updated", "2026-12-31"), ("employee.updated", "2027-01-31"), ("employee.left", "2026-11-20")]
    assert hr.end_due_employments(runtime) == 0


def test_archive_writes_nothing_and_the_record_leaves_the_api(client, headers, sandbox, clock):
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    hr.archive_employee(sandbox.id, employee.id)
    assert new_events(sandbox, seen) == []
    assert_problem(client.get(f"/v1/employees/{employee.id}", headers=headers), 404, "not_found")


# ---- payroll ------------------------------------------------------------------------

def entry_lines(run):
    """{kind: [(account, debit, credit)]} per posted entry, in posting order."""
    entries = JournalEntry.select().where(JournalEntry.run == run).order_by(JournalEntry.sequence)
    return [(entry.kind, [(line.account_code, line.account_name, line.debit_minor, line.credit_minor)
                          for line in entry.lines.order_by(JournalLine.position)]) for entry in entries]


def assert_every_entry_balances(run):
    for _, lines in entry_lines(run):
        assert sum(line[2] for line in lines) == sum(line[3] for line in lines)


@pytest.fixture
def finalized(sandbox, clock, runtime):
    entity = sandbox.entities.get()
    return moves.finalize_run(drafts.build_draft_run(entity, "2026-11", runtime), runtime)


def test_build_and_finalize(sandbox, clock, client, headers, runtime):
    seen = event_ids(sandbox)
    draft = drafts.build_draft_run(sandbox.entities.get(), "2026-11", clock)
    assert new_events(sandbox, seen) == [] and draft.status == "draft"
    with pytest.raises(Conflict):
        drafts.build_draft_run(sandbox.entities.get(), "2026-11", clock)
    with pytest.raises(Conflict):
        moves.mark_paid(draft, runtime)
    moves.finalize_run(draft, runtime)
    [event] = new_events(sandbox, seen)
    assert event["type"] == "payroll_run.finalized"
    api = client.get(f"/v1/payroll-runs/{draft.id}", headers=headers).get_json()
    assert event["data"] == {"payroll_run": {k: v for k, v in api.items()
                                             if k not in ("components", "journal_entries")}}


def test_mark_paid_posts_the_payment_journal(sandbox, finalized, clock, client, headers, runtime):
    seen = event_ids(sandbox)
    clock.advance(days=3)
    moves.mark_paid(finalized, runtime)
    [event] = new_events(sandbox, seen)
    assert event["type"] == "payroll_run.paid" and event["data"]["payroll_run"]["status"] == "paid"
    assert event["data"]["payroll_run"]["paid_at"] == "2026-11-24T09:00:00Z"
    kinds = [kind for kind, _ in entry_lines(finalized)]
    assert kinds == ["accrual", "payment"]
    balances = net_by_account([lines for _, lines in entry_lines(finalized)])
    assert balances[("2110", "Salaries payable")] == 0  # the net pay went out
    assert balances[("1010", "Bank")] == -finalized.net_minor
    assert_every_entry_balances(finalized)
    with pytest.raises(Conflict):
        moves.mark_paid(finalized, runtime)
    run = client.get(f"/v1/payroll-runs/{finalized.id}", headers=headers).get_json()
    assert [e["kind"] for e in run["journal_entries"]] == ["accrual", "payment"]


@pytest.mark.parametrize("pay_first", [False, True])
def test_correct_recomputes_totals_and_posts_a_correcting_entry(sandbox, finalized, clock, pay_first, runtime):
    if pay_first:
        moves.mark_paid(finalized, runtime)
    before = PayrollRun.get_by_id(finalized.id)
    gross_before, status_before = before.gross_minor, before.status
    employee = staff(sandbox)
    seen = event_ids(sandbox)
    raised = employee.basic_salary_minor + 100_000
    moves.correct_run(before, {employee.id: {"basic": raised}}, runtime)
    after = PayrollRun.get_by_id(finalized.id)
    [event] = new_events(sandbox, seen)
    assert event["type"] == "payroll_run.corrected"
    assert event["data"]["payroll_run"]["totals"]["gross"] != "0"
    assert after.status == status_before
    assert after.gross_minor == gross_before + 100_000
    assert after.net_minor == after.gross_minor - after.deductions_minor
    kinds = [kind for kind, _ in entry_lines(after)]
    assert kinds == (["accrual", "payment", "correction"] if pay_first else ["accrual", "correction"])
    assert_every_entry_balances(after)
    # Accrual and corrections together now say what a fresh accrual of the new lines says.
    accrued = net_by_account([lines for kind, lines in entry_lines(after) if kind != "payment"])
    assert accrued[("5100", "Basic salaries")] == sum(
        c.amount_minor for c in after.components if c.code == "basic")
    assert -accrued[("2110", "Salaries payable")] == after.net_minor


def test_a_correction_that_changes_nothing_is_refused(sandbox, finalized, clock, runtime):
    employee = staff(sandbox)
    with pytest.raises(ValidationFailed):
        moves.correct_run(finalized, {employee.id: {"basic": employee.basic_salary_minor}}, runtime)
    with pytest.raises(ValidationFailed):
        moves.correct_run(finalized, {"emp_nobody": {"basic": 1}}, runtime)


def test_delete_reverses_the_journal_and_the_run_vanishes(sandbox, finalized, clock, client, headers, runtime):
    seen = event_ids(sandbox)
    moves.delete_run(finalized, runtime)
    [event] = new_events(sandbox, seen)
    assert event["type"] == "payroll_run.deleted" and event["data"] == {"payroll_run_id": finalized.id}
    assert [kind for kind, _ in entry_lines(finalized)] == ["accrual", "reversal"]
    assert_every_entry_balances(finalized)
    assert not any(net_by_account([lines for _, lines in entry_lines(finalized)]).values())
    assert_problem(client.get(f"/v1/payroll-runs/{finalized.id}", headers=headers), 404, "not_found")
    assert finalized.id not in [r["id"] for r in client.get("/v1/payroll-runs", headers=headers).get_json()["data"]]


def test_a_paid_run_cannot_be_deleted_nor_a_draft(sandbox, finalized, clock, runtime):
    moves.mark_paid(finalized, runtime)
    with pytest.raises(Conflict, match="paid run cannot be deleted"):
        moves.delete_run(finalized, runtime)
    draft = drafts.build_draft_run(sandbox.entities.get(), "2026-12", clock)
    with pytest.raises(Conflict, match="draft"):
        moves.delete_run(draft, runtime)
    moves.discard_draft(draft)
    assert PayrollRun.get_or_none(PayrollRun.id == draft.id) is None


def test_money_totals_stay_exact_strings(sandbox, finalized, clock, runtime):
    moves.correct_run(finalized, {staff(sandbox).id: {"housing": 123_456}}, runtime)
    [event] = [e for e in outbox(sandbox) if e["type"] == "payroll_run.corrected"]
    gross = event["data"]["payroll_run"]["totals"]["gross"]
    assert Decimal(gross) == Decimal(PayrollRun.get_by_id(finalized.id).gross_minor) / 1000


# ---- bulk import and reconciliation --------------------------------------------------

CSV = """staff_number,name_en,employment_type,hire_date,basic_salary,housing_allowance,contact_phone,job_title
B-001,Omar Saleh,full_time,2026-10-01,850.000,200.000,+96555500001,Clerk
B-002,Sara Nasser,part_time,2026-10-15,400.500,0,,Cashier
SBX-004,{name},full_time,2020-01-01,730.000,182.000,,Regional Sales Executive
"""


def test_bulk_import_writes_no_events_and_reconciliation_announces_once(sandbox, clock, runtime):
    existing = staff(sandbox)
    seen = event_ids(sandbox)
    counts = bulk.import_employees(sandbox, CSV.format(name=existing.name_en), clock)
    assert counts == {"created": 2, "updated": 1, "unchanged": 0}
    assert new_events(sandbox, seen) == []
    assert Employee.get(Employee.staff_number == "B-002").basic_salary_minor == 400_500

    assert bulk.reconcile(runtime) == {"employee.created": 2, "employee.updated": 1, "employee.left": 0}
    written = new_events(sandbox, seen)
    assert sorted(e["type"] for e in written) == ["employee.created", "employee.created", "employee.updated"]
    updated = next(e for e in written if e["type"] == "employee.updated")
    assert updated["data"]["employee"]["job_title"] == "Regional Sales Executive"
    assert bulk.reconcile(runtime) == {"employee.created": 0, "employee.updated": 0, "employee.left": 0}


def test_reconciliation_announces_in_batches_each_employee_once_with_its_form(sandbox, clock, runtime):
    """250 imported employees, announced 100 to a transaction: 250 employee.created, one
    each, carrying the form the API serves; an employee HR already announced in between
    is skipped, and nothing is left for a second run."""
    rows = "".join(f"B-{n:03},Person {n},full_time,2026-10-01,{500 + n}.000\n" for n in range(250))
    bulk.import_employees(sandbox, "staff_number,name_en,employment_type,hire_date,basic_salary\n" + rows, clock)
    announced = Employee.get(Employee.staff_number == "B-123")
    hr.update_employee(sandbox.id, announced.id, {"job_title": "Announced by HR"}, runtime)
    seen = event_ids(sandbox)
    assert bulk.reconcile(runtime, announce_batch=100) == {"employee.created": 249, "employee.updated": 0,
                                                           "employee.left": 0}
    written = new_events(sandbox, seen)
    by_employee = {event["data"]["employee"]["id"]: event for event in written}
    assert len(written) == len(by_employee) == 249 and announced.id not in by_employee
    some = Employee.get(Employee.staff_number == "B-042")
    assert by_employee[some.id]["data"]["employee"] == hr.partner_form(some.id)
    assert sum(bulk.reconcile(runtime, announce_batch=100).values()) == 0


def test_reconciliation_announces_a_leaver_as_left(sandbox, clock, runtime):
    employee = staff(sandbox, "SBX-007")
    Employee.update(status="left", termination_date=date(2026, 11, 20)).where(Employee.id == employee.id).execute()
    seen = event_ids(sandbox)
    assert bulk.reconcile(runtime)["employee.left"] == 1
    [event] = new_events(sandbox, seen)
    assert event["type"] == "employee.left" and event["data"]["employee"]["id"] == employee.id


def test_a_new_sandbox_has_nothing_to_reconcile(sandbox, clock, runtime):
    assert sum(bulk.reconcile(runtime).values()) == 0


def test_a_bad_file_imports_nothing_and_names_every_problem(sandbox, clock):
    bad = ("staff_number,name_en,employment_type,hire_date,basic_salary\n"
           "B-001,Omar,full_time,2026-10-01,850.0001\n"
           "B-002,,intern,yesterday,100\n"
           "B-001,Again,full_time,2026-10-01,100\n")
    with pytest.raises(ValidationFailed) as failure:
        bulk.import_employees(sandbox, bad, clock)
    paths = {path for path, _ in failure.value.errors}
    assert {"row 2: basic_salary", "row 3: name_en", "row 3: hire_date", "row 4: staff_number"} <= paths
    assert not Employee.select().where(Employee.staff_number.startswith("B-")).exists()
    with pytest.raises(ValidationFailed):
        bulk.import_employees(sandbox, "name,salary\nx,1\n", clock)


def test_a_column_named_twice_or_an_amount_too_large_is_named_as_the_file_names_it(sandbox, clock):
    with pytest.raises(ValidationFailed) as twice:  # DictReader kept the last job_title and dropped the first
        bulk.import_employees(sandbox, "staff_number,job_title,job_title\nT-1,Clerk,Driver\n", clock)
    assert twice.value.errors == [("header", "each column once; named more than once: job_title")]
    with pytest.raises(ValidationFailed) as large:
        bulk.import_employees(sandbox, "staff_number,name_en,employment_type,hire_date,basic_salary\n"
                                       "T-2,Tall,full_time,2026-10-01,99999999999999999\n", clock)
    assert [path for path, _ in large.value.errors] == ["row 2: basic_salary"]


def test_amounts_beyond_any_salary_are_refused_before_they_reach_a_column(sandbox, clock, runtime):
    with pytest.raises(ValidationFailed) as refused:
        hr.hire(sandbox, {**HIRE, "staff_number": "N-999", "basic_salary_minor": 10**19}, runtime)
    assert refused.value.errors == [("basic_salary_minor", "an amount of zero or more (at most 10^15 minor units)")]
