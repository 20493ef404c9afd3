"""Cost centres that never stand for fewer than three people (issue 34 part 2, v1.3):
with the department split on, each expense line of a run's accrual splits by the
employees' department, a split line covers at least three employees, liabilities,
components and totals stay whole, and corrections and reversals group the same way."""

import csv
import io
from collections import defaultdict
from datetime import date
from decimal import Decimal

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.domain.payroll import accounts, moves, posting
from app.models import Branch, Employee, JournalEntry, JournalLine
from tests.helpers import ok

PEOPLE = [("S-1", "Sales"), ("S-2", "Sales"), ("S-3", "Sales"), ("S-4", "Sales"), ("O-1", "Ops"), ("O-2", "Ops"),
          ("N-1", None)]


def staffed(books):
    people = {}
    for number, department in PEOPLE:
        person = books.hire(number, date(2018, 1, 1), 1_000_000)
        Employee.update(department=department).where(Employee.id == person.id).execute()
        people[number] = person
    return people


def lines_of(client, books, run, kind=None):
    body = client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()
    return body, [line for entry in body["journal_entries"] if kind in (None, entry["kind"]) for line in entry["lines"]]


def test_expense_lines_split_by_department_never_under_three_and_liabilities_stay_whole(client, books, run):
    staffed(books)
    assert "split by department" in ok(run("payroll", "accounts", "split", "--company", books.company.id,
                                           "--by", "department"))
    july = books.run("2026-07")
    body, accrual = lines_of(client, books, july, "accrual")
    basic = [line for line in accrual if line["account_key"] == "basic_salaries"]
    # Ops (2) is under the floor: unassigned with the one who has none (3).
    assert sorted((line["dimensions"]["department"] or "", line["employee_count"], line["debit"]) for line in basic) \
        == [("", 3, "3000.000"), ("Sales", 4, "4000.000")]
    assert all(line["employee_count"] >= 3 for line in accrual if "employee_count" in line)
    payable = [line for line in accrual if line["account_key"] == "salaries_payable"]
    assert len(payable) == 1 and "dimensions" not in payable[0]
    assert next(c for c in body["components"] if c["code"] == "basic")["amount"] == "7000.000"  # unchanged
    debit = sum(Decimal(line["debit"]) for line in accrual)
    assert debit == sum(Decimal(line["credit"]) for line in accrual)
    rows = list(csv.DictReader(io.StringIO(ok(run("payroll", "journal", july.id)))))
    assert {row["Department"] for row in rows if row["Account code"] == "5100"} == {"Sales", "Unassigned"}


def test_corrections_and_reversals_group_the_same_way(client, books, clock):
    people = staffed(books)
    accounts.set_split(books.company.id, "department")
    july = books.run("2026-07")
    moves.correct_run(july, {people["S-1"].id: {"basic": 1_100_000}}, books.runtime)
    _, correction = lines_of(client, books, july, "correction")
    [moved] = [line for line in correction if line["account_key"] == "basic_salaries"]
    assert (moved["dimensions"], moved["employee_count"], moved["debit"]) == ({"department": "Sales"}, 4, "100.000")
    august = books.run("2026-08")
    moves.delete_run(august, books.runtime)
    net = defaultdict(int)
    for entry in posting.posted_lines(august):
        for code, _, debit, credit, group, _ in entry:
            net[(code, group)] += debit - credit
    assert set(net.values()) == {0}  # each cost centre's line reversed on its own


def test_with_the_split_off_lines_are_whole(client, books):
    staffed(books)
    july = books.run("2026-07")
    _, accrual = lines_of(client, books, july, "accrual")
    assert not any("dimensions" in line for line in accrual)
    assert len([line for line in accrual if line["account_key"] == "basic_salaries"]) == 1


def test_a_mapped_chart_and_a_split_together(client, books, clock):
    staffed(books)
    accounts.set_mapping(books.company.id, "basic_salaries", "6100", clock, name_en="Salaries")
    accounts.set_split(books.company.id, "department")
    _, accrual = lines_of(client, books, books.run("2026-07"), "accrual")
    basic = [line for line in accrual if line["account_key"] == "basic_salaries"]
    assert {(line["account_code"], line["account_name"]) for line in basic} == {("6100", "Salaries")}
    assert len(basic) == 2 and all(line["employee_count"] >= 3 for line in basic)


def test_the_split_by_branch_names_each_branch_of_three_or_more(client, books, clock):
    people = staffed(books)
    branch = Branch.create(id=new_id("brn"), company=books.company.id, entity=books.entity.id, name="Salmiya",
                           created_at=to_db(clock.now()))
    Employee.update(branch=branch.id).where(Employee.id.in_([people[n].id for n in ("S-1", "O-1", "N-1")])).execute()
    accounts.set_split(books.company.id, "branch")
    _, accrual = lines_of(client, books, books.run("2026-07"), "accrual")
    basic = [line for line in accrual if line["account_key"] == "basic_salaries"]
    assert sorted((line["dimensions"]["branch"] or "", line["employee_count"]) for line in basic) == [
        ("", 4), ("Salmiya", 3)]


def test_a_line_keeps_what_it_was_split_by_when_the_setting_changes(client, books, clock):
    """Split by branch when posted, the split turned off, then the run deleted: the
    reversal undoes each branch line as a branch line, not as a line of the new setting."""
    people = staffed(books)
    branch = Branch.create(id=new_id("brn"), company=books.company.id, entity=books.entity.id, name="Salmiya",
                           created_at=to_db(clock.now()))
    Employee.update(branch=branch.id).where(Employee.id.in_([p.id for p in people.values()][:3])).execute()
    accounts.set_split(books.company.id, "branch")
    july = books.run("2026-07")
    accounts.set_split(books.company.id, "none")
    moves.delete_run(july, books.runtime)
    reversal = [line for line in JournalLine.select().join(JournalEntry)
                .where(JournalEntry.run == july.id, JournalEntry.kind == "reversal") if line.split_by]
    assert reversal and {line.split_by for line in reversal} == {"branch"}
    assert {line.split_group for line in reversal} == {"Salmiya", None}
