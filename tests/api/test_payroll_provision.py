"""The end-of-service provision ties to HR after any history (issue 33 part 1), read as
a partner reads the journals: an entity's 2300 holds what the law owes the staff its
latest run carries at that month's end, and 3100 what each had earned before the books
first carried them, whatever was deleted, corrected or entered late. The cases the
auditors reproduced, each against the same staff with no such history."""

from datetime import date
from decimal import Decimal

from app.domain.access import companies
from app.domain.kernel.ids import new_id
from app.domain.payroll import actions as payroll
from app.domain.people import actions as hr
from app.models import Employee, Entity, OutboxEvent, PayrollRun
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
    payroll.delete_run(july, books.runtime)
    assert -books.posted(client, "2300") == books.owed(date(2026, 9, 30)) == -untouched
    # The books now begin in August: what was earned to 31 July is opening equity.
    assert books.posted(client, "3100") == books.owed(date(2026, 7, 31))
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
    payroll.correct_run(july, {person.id: {"basic": raised["K-2"]}}, books.runtime)
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
    assert kinds(client, books, september) == ["opening", "accrual"]
    [opening] = [e for e in body["journal_entries"] if e["kind"] == "opening"]
    past_service = int(Decimal(opening["lines"][0]["debit"]) * 1000)
    assert past_service == books.owed(date(2026, 8, 31), late) > 50_000_000  # over KWD 50,000
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
    assert books.posted(client, "3100", branch) == books.owed(date(2026, 8, 31), moved)


def test_months_run_in_order_post_no_true_up(client, books):
    people = [books.hire(*staff) for staff in STAFF]
    runs = [books.run(month) for month in ("2026-07", "2026-08")]
    payroll.correct_run(runs[-1], {people[1].id: {"basic": 1_400_000}}, books.runtime)  # the latest month
    runs.append(books.run("2026-09"))
    assert all("true_up" not in kinds(client, books, run) for run in runs)
    assert PayrollRun.select().where(PayrollRun.entity == books.entity.id).count() == 3
