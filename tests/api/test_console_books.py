"""The console's Pay on a value date and its Closing the books page (issue 47 parts 3 and
4), through the Flask client.

The signed-in user is the HR admin of "Gulf Trading" (Kuwait), not its owner; its one
expatriate earns a basic of 1,000.000 KWD (no PIFSS share: Kuwaitis only), so the net pay
is the basic. Today is 2026-11-21 in Kuwait.
"""

from datetime import date

import pytest

from app.domain.payroll import books, drafts, moves
from app.domain.people import actions as hr
from app.models import BooksClosing, Company, Entity, JournalEntry, JournalLine, PayrollRun
from tests.api.console import csrf, member, post, sign_in, text

KWD = 1000


@pytest.fixture
def october(live_company, runtime):
    entity = Entity.get(Entity.company == live_company.id)
    hr.hire(live_company, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                           "hire_date": date(2020, 1, 1), "basic_salary_minor": 1_000 * KWD, "nationality": "IN",
                           "entity": entity.id}, runtime)
    return moves.finalize_run(drafts.build_draft_run(entity, "2026-10", runtime.clock), runtime)


def payments(run):
    return [(entry.accounting_date, sum(line.debit_minor for line in entry.lines.order_by(JournalLine.position)))
            for entry in JournalEntry.select().where(JournalEntry.run == run.id, JournalEntry.kind == "payment")
            .order_by(JournalEntry.sequence)]


def test_mark_paid_takes_the_value_date_today_by_default(client, admin, october):
    path = f"/console/payroll/{october.id}"
    page = text(client.get(path))
    assert 'type="date" value="2026-11-21">' in page and "Mark paid" in page  # today in Kuwait
    assert "2026-11-22 is in the future" in text(post(client, f"{path}/pay", {"on": "2026-11-22"}, page=path))
    assert payments(october) == []
    assert "Give the value date as YYYY-MM-DD" in text(post(client, f"{path}/pay", {"on": "31/10"}, page=path))
    done = post(client, f"{path}/pay", {"on": "2026-10-31"}, page=path)
    assert "Marked paid, dated 2026-10-31" in text(done)
    assert payments(october) == [(date(2026, 10, 31), 1_000 * KWD)]


def test_a_paid_run_shows_and_pays_what_a_correction_left_owing(client, admin, october, runtime):
    path = f"/console/payroll/{october.id}"
    post(client, f"{path}/pay", page=path)  # today: 2026-11-21
    person = drafts.lines_by_employee(october)
    [employee_id] = person
    post(client, f"{path}/correct", {f"{employee_id}.basic": "1250.000"}, page=path)
    page = text(client.get(path))
    # 1,250.000 owed by the correction, 1,000.000 paid: 250.000 left in 2110.
    assert "A correction after payment left 250.000 KWD owed to the employees" in page and "Pay what is owed" in page
    done = post(client, f"{path}/pay", {"on": "2026-11-21"}, page=path)
    assert "Paid what the run still owed, dated 2026-11-21" in text(done)
    assert payments(october) == [(date(2026, 11, 21), 1_000 * KWD), (date(2026, 11, 21), 250 * KWD)]
    assert "Owed after a correction" not in text(done)
    again = post(client, f"{path}/pay", page=path)
    assert "owes nothing: its salaries payable is settled" in text(again) and len(payments(october)) == 2

    post(client, f"{path}/correct", {f"{employee_id}.basic": "1200.000"}, page=path)  # 50.000 paid too much
    assert "The employees were paid 50.000 KWD more than the run owes" in text(client.get(path))
    assert PayrollRun.get_by_id(october.id).status == "paid"


def test_close_the_books_from_the_console_and_no_reopening_for_a_non_owner(client, admin, live_company, october):
    page = text(client.get("/console/payroll/books"))
    assert "The books are open" in page and 'value="2026-10-31"' in page  # last month's end, offered
    assert "Reopen" not in page
    future = client.post("/console/payroll/books/close", data={
        "through": "2026-11-22", "csrf_token": csrf(client, "/console/payroll/books")})
    assert future.status_code == 422 and "2026-11-22 is in the future" in text(future)
    done = post(client, "/console/payroll/books/close", {"through": "2026-10-31"}, page="/console/payroll/books")
    assert "The books are closed through 2026-10-31: every entry posted from now on is dated after it." in text(done)
    assert '<bdi lang="en" dir="ltr">2026-11-01</bdi>, the first open day' in text(done) and admin.email in text(done)
    assert Company.get_by_id(live_company.id).books_closed_through == date(2026, 10, 31)

    reopen = client.post("/console/payroll/books/reopen", data={
        "keep_through": "", "csrf_token": csrf(client, "/console/payroll/books")})
    assert reopen.status_code == 403 and "Only an owner of the company" in text(reopen)
    assert Company.get_by_id(live_company.id).books_closed_through == date(2026, 10, 31)

    path = f"/console/payroll/{october.id}"
    refused = post(client, f"{path}/pay", {"on": "2026-10-31"}, page=path)
    assert "2026-10-31 is in a closed period: the books are closed through 2026-10-31" in text(refused)
    assert payments(october) == []


def test_an_owner_reopens_the_books_and_every_change_is_in_the_log(client, live_company, clock):
    books.close(live_company.id, date(2026, 10, 31), "accountant@example.com", clock)
    owner = member(live_company, "ceo", clock)
    assert sign_in(client, owner.email).status_code == 302
    page = text(client.get("/console/payroll/books"))
    assert "Reopen (owners only)" in page
    earlier = post(client, "/console/payroll/books/reopen", {"keep_through": "2026-09-30"},
                   page="/console/payroll/books")
    assert "Reopened: the books are closed through 2026-09-30." in text(earlier)
    opened = post(client, "/console/payroll/books/reopen", {"keep_through": ""}, page="/console/payroll/books")
    assert "Reopened: every period is open." in text(opened) and "The books are open" in text(opened)
    assert [(row.previous, row.closed_through, row.by) for row in BooksClosing.select()
            .where(BooksClosing.company == live_company.id).order_by(BooksClosing.id)] == [
        (None, date(2026, 10, 31), "accountant@example.com"), (date(2026, 10, 31), date(2026, 9, 30), owner.email),
        (date(2026, 9, 30), None, owner.email)]


def test_a_payroll_officer_closes_but_cannot_reopen_and_others_do_not_see_the_page(client, live_company, clock):
    officer = member(live_company, "payroll_officer", clock)
    assert sign_in(client, officer.email).status_code == 302
    post(client, "/console/payroll/books/close", {"through": "2026-10-31"}, page="/console/payroll/books")
    assert Company.get_by_id(live_company.id).books_closed_through == date(2026, 10, 31)
    assert client.post("/console/payroll/books/reopen", data={
        "csrf_token": csrf(client, "/console/payroll/books")}).status_code == 403
    staff = member(live_company, "employee", clock)
    assert sign_in(client, staff.email).status_code == 302
    assert client.get("/console/payroll/books").status_code == 403


def test_the_books_page_reads_in_arabic(client, admin):
    page = text(client.get("/console/payroll/books?lang=ar"))
    assert "إقفال الدفاتر" in page and "الدفاتر مفتوحة: لا فترة مقفلة." in page
