"""The end-of-service provision ties to HR after any history (issue 33 part 1), read as
a partner reads the journals: an entity's 2300 holds what the law owes the staff its
latest run carries at that month's end (2310 the leave salary they hold then, issue 48),
and 3100 what each had earned and held before the books first carried them, whatever was
deleted, corrected or entered late. The cases the
auditors reproduced, each against the same staff with no such history."""

from datetime import date
from decimal import Decimal

from app.domain.access import companies
from app.domain.kernel.ids import new_id
from app.domain.payroll import moves
from app.domain.people import actions as hr
from app.models import Employee, Entity, JournalEntry, OutboxEvent, PayrollRun
from tests.api.books import Books
from tests.conftest import bearer

STAFF = [("K-1", date(2014, 3, 1), 900_000), ("K-2", date(2019, 6, 15), 1_250_000), ("K-3", date(2023, 1, 10), 700_000)]


def kinds(client, books, run):
    return [e["kind"] for e in client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()[
        "journal_entries"]]


def test_deleting_the_first_run_after_later_ones_posts_its_opening_again(client, books):
    for staff in STAFF:
        books.hire(*staff)
    july, _, september = books.run("2026-07"), books.run("2026-08"), books.run("2026-09")
    untouched = books.posted(client, "2300")
    assert -untouched == books.owed(date(2026, 9, 30))
    moves.delete_run(july, books.runtime)
    assert -books.posted(client, "2300") == books.owed(date(2026, 9, 30)) == -untouched
    # The books now begin in August: what was earned (and the leave held) to 31 July is opening equity.
    assert books.posted(client, "3100") == books.opening_owed(date(2026, 7, 31))
    assert -books.posted(client, "2310") == books.leave_held(date(2026, 9, 30))
    assert kinds(client, books, september)[-1] == "true_up"
    corrected = OutboxEvent.select().where(OutboxEvent.company == books.company.id,
                                           OutboxEvent.type == "payroll_run.corrected")
    assert [event.payload for event in corrected if september.id in event.payload]


def test_a_correction_of_an_earlier_month_then_the_raise_in_hr_is_booked_once(client, books, make_key, clock):
    raised = {"K-2": 1_500_000}
    other = Books(companies.create_company("Same Staff Co", "KW", clock), None, books.runtime)
    companies.enable_partner_api(other.company.id, books.runtime)
    other.headers = bearer(make_key(other.company))
    for number, hired, basic in STAFF:  # the raise entered before the runs
        books.hire(number, hired, basic)
        other.hire(number, hired, raised.get(number, basic))
    july = books.run("2026-07")
    for month in ("2026-08", "2026-09"):
        books.run(month)
    for month in ("2026-07", "2026-08", "2026-09", "2026-10"):
        other.run(month)
    person = Employee.get(Employee.company == books.company.id, Employee.staff_number == "K-2")
    moves.correct_run(july, {person.id: {"basic": raised["K-2"]}}, books.runtime)
    assert -books.posted(client, "2300") == books.owed(date(2026, 9, 30))  # September's terms, not July's
    hr.update_employee(books.company.id, person.id, {"basic_salary_minor": raised["K-2"]}, books.runtime)
    books.run("2026-10")
    assert books.posted(client, "2300") == other.posted(client, "2300") == -other.owed(date(2026, 10, 31))


def test_service_entered_after_the_first_run_comes_in_as_opening_not_the_months_cost(client, books):
    books.hire(*STAFF[0])
    books.run("2026-08")
    late = [books.hire(f"L-{n}", date(2014, n, 1), 1_000_000) for n in range(1, 6)]  # five people of 2014
    september = books.run("2026-09")
    body = client.get(f"/v1/payroll-runs/{september.id}", headers=books.headers).get_json()
    assert kinds(client, books, september) == ["opening", "opening", "accrual"]  # end of service, leave
    opening, leave_opening = [e for e in body["journal_entries"] if e["kind"] == "opening"]
    past_service = int(Decimal(opening["lines"][0]["debit"]) * 1000)
    assert past_service == books.owed(date(2026, 8, 31), late) > 50_000_000  # over KWD 50,000
    assert int(Decimal(leave_opening["lines"][0]["debit"]) * 1000) == books.leave_held(date(2026, 8, 31), late)
    accrual = next(c for c in body["components"] if c["code"] == "end_of_service_accrual")
    month = books.owed(date(2026, 9, 30)) - books.owed(date(2026, 8, 31))  # September's growth only
    assert int(Decimal(accrual["amount"]) * 1000) == month and month * 50 < past_service
    assert -books.posted(client, "2300") == books.owed(date(2026, 9, 30))


def test_an_employee_moved_to_another_entity_is_released_here_and_opened_there(client, books, clock):
    branch = Entity.create(id=new_id("ent"), company=books.company.id, country="KW", name_en="Second entity",
                           currency="KWD", primary=False, created_at=clock.now().replace(tzinfo=None))
    people = [books.hire(*staff) for staff in STAFF]
    books.run("2026-08")
    hr.update_employee(books.company.id, people[0].id, {"entity": branch.id}, books.runtime)
    books.run("2026-09")
    books.run("2026-09", entity=branch)
    stayed = Employee.select().where(Employee.id.in_([p.id for p in people[1:]]))
    assert -books.posted(client, "2300") == books.owed(date(2026, 9, 30), stayed)
    moved = Employee.select().where(Employee.id == people[0].id)
    assert -books.posted(client, "2300", branch) == books.owed(date(2026, 9, 30), moved)
    assert books.posted(client, "3100", branch) == books.opening_owed(date(2026, 8, 31), moved)
    assert -books.posted(client, "2310") == books.leave_held(date(2026, 9, 30), stayed)
    assert -books.posted(client, "2310", branch) == books.leave_held(date(2026, 9, 30), moved)


def test_months_run_in_order_post_no_true_up(client, books):
    people = [books.hire(*staff) for staff in STAFF]
    runs = [books.run(month) for month in ("2026-07", "2026-08")]
    moves.correct_run(runs[-1], {people[1].id: {"basic": 1_400_000}}, books.runtime)  # the latest month
    runs.append(books.run("2026-09"))
    assert all("true_up" not in kinds(client, books, run) for run in runs)
    assert PayrollRun.select().where(PayrollRun.entity == books.entity.id).count() == 3


def entries_of(client, books, run):
    return client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()["journal_entries"]


def test_entries_are_dated_described_and_linked_to_what_they_change(client, books, clock):
    people = [books.hire(*staff) for staff in STAFF]
    july, august = books.run("2026-07"), books.run("2026-08")
    moves.mark_paid(august, books.runtime)
    moves.correct_run(july, {people[0].id: {"basic": 950_000}}, books.runtime)  # an earlier month
    september = books.run("2026-09")
    moves.delete_run(september, books.runtime)
    opening, leave_opening, accrual, correction = entries_of(client, books, july)
    assert (opening["kind"], opening["accounting_date"]) == ("opening", "2026-07-31")
    assert (leave_opening["kind"], leave_opening["accounting_date"], leave_opening["memo"]) == (
        "opening", "2026-07-31", "Payroll 2026-07, Ledger Test Co, leave-salary provision held before the books "
                                 "carried them")
    assert (accrual["accounting_date"], accrual["memo"]) == ("2026-07-31", "Payroll 2026-07, Ledger Test Co, accrual")
    assert accrual["reverses"] is None and accrual["corrects"] is None
    # Posted months are not reopened: July's correction belongs to August, the latest month then.
    assert (correction["kind"], correction["accounting_date"], correction["corrects"]) == (
        "correction", "2026-08-31", accrual["id"])
    payment = next(e for e in entries_of(client, books, august) if e["kind"] == "payment")
    assert payment["accounting_date"] == clock.now().date().isoformat()  # the day it was paid (Kuwait's date)
    true_up, leave_true_up = [e for e in entries_of(client, books, august) if e["kind"] == "true_up"]
    assert true_up["accounting_date"] == "2026-08-31" and "end-of-service provision true-up" in true_up["memo"]
    # The raise revalues the leave July's books carried for him, which August booked from.
    assert leave_true_up["accounting_date"] == "2026-08-31" and "leave-salary provision true-up" in leave_true_up[
        "memo"] and JournalEntry.get_by_id(leave_true_up["id"]).caused_by == correction["id"]
    # A deleted run is not readable through the API: its rows say what its reversal reverses.
    rows = {row.kind: row for row in JournalEntry.select().where(JournalEntry.run == september.id)}
    assert rows["reversal"].reverses == rows["accrual"].id and rows["reversal"].accounting_date == date(2026, 9, 30)


def test_without_v1_3_entries_carry_the_contracts_fields_only(app, client, books, monkeypatch, live_releases):
    books.hire(*STAFF[0])
    july = books.run("2026-07")
    live_releases(["v1.0", "v1.1", "v1.2"])
    [*_, accrual] = entries_of(client, books, july)
    assert set(accrual) == {"id", "kind", "posted_at", "lines"}
