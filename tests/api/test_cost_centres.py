"""Cost centres that never stand for fewer than three people (issue 34 part 2, v1.3):
with the department split on, each expense line of a run's accrual splits by the
employees' department, a split line covers at least three employees, liabilities,
components and totals stay whole, and corrections and reversals group the same way."""

import csv
import io
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.domain.payroll import accounts, drafts, moves, posting, provision
from app.domain.people import actions as hr
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


# Issue 47 part 6: the month's cost centres. Long service (hired 2000) puts the provision at
# Kuwait's cap, art. 51: at most 18 months' wage, so it does not grow month to month and a
# raise of 100.000 moves it by 18 x 100.000 = 1,800.000; the others (hired 2020) accrue.
MONTHS_CAP = 18


def moved_staff(books):
    """Sales: S-1 (long service), S-2, S-3, S-4 and C (long service, 7,000.000 basic); Ops:
    O-1, O-2, O-3. Each 1,000.000 basic but C; expatriates (no PIFSS share: Kuwait's
    social insurance is for Kuwaitis)."""
    people = {}
    for number, department, hired, basic in [
            ("S-1", "Sales", date(2000, 1, 1), 1_000_000), ("S-2", "Sales", date(2020, 1, 1), 1_000_000),
            ("S-3", "Sales", date(2020, 1, 1), 1_000_000), ("S-4", "Sales", date(2020, 1, 1), 1_000_000),
            ("C", "Sales", date(2000, 1, 1), 7_000_000), ("O-1", "Ops", date(2020, 1, 1), 1_000_000),
            ("O-2", "Ops", date(2020, 1, 1), 1_000_000), ("O-3", "Ops", date(2020, 1, 1), 1_000_000)]:
        person = books.hire(number, hired, basic)
        Employee.update(department=department, nationality="IN", is_national=False) \
            .where(Employee.id == person.id).execute()
        people[number] = person
    accounts.set_split(books.company.id, "department")
    return people


def move(books, person, department):
    hr.update_employee(books.company.id, person.id, {"department": department}, books.runtime)


def shown_lines(client, books, run, kind):
    """(account code, department or None for a whole line, headcount, debit, credit) of
    the run's `kind` entries, as a partner reads them."""
    _, lines = lines_of(client, books, run, kind)
    return sorted([(line["account_code"], line.get("dimensions", {}).get("department"), line.get("employee_count"),
                    line["debit"], line["credit"]) for line in lines], key=repr)


def test_a_correction_after_a_transfer_moves_only_that_persons_amount_in_their_months_department(client, books):
    """The issue's case: C moved from Sales to Ops after July; July's 100.000 correction
    for S-1 used to re-split July by today's departments and post C's whole 7,000.000
    basic from Sales to Ops. Only S-1's 100.000 moves, in Sales, where July had them."""
    people = moved_staff(books)
    july = books.run("2026-07")
    move(books, people["C"], "Ops")
    moves.correct_run(july, {people["S-1"].id: {"basic": 1_100_000}}, books.runtime)
    # 5100: Sales had S-1 to S-4 and C in July (5). 5300: S-1's provision, capped, moves by
    # 18 x 100.000 = 1,800.000; July's 5300 line in Sales now stands for S-1 to S-4 (C's
    # capped provision did not move in July: C has no amount on it). 5310: the leave S-1
    # holds (26 years and 219 days, none taken: art. 70's 30 days a year, 798 days) at the
    # raised day's wage, 798 x 1,100.000 / 26 = 33,761.538 less 798 x 1,000.000 / 26 =
    # 30,692.308: 3,069.230, in Sales, whose five all hold leave.
    assert shown_lines(client, books, july, "correction") == [
        ("2110", None, None, "0.000", "100.000"),
        ("2300", None, None, "0.000", "1800.000"),
        ("2310", None, None, "0.000", "3069.230"),
        ("5100", "Sales", 5, "100.000", "0.000"),
        ("5300", "Sales", 4, "1800.000", "0.000"),
        ("5310", "Sales", 5, "3069.230", "0.000"),
    ]
    assert MONTHS_CAP * 100_000 == 1_800_000


def test_a_true_up_after_correcting_an_earlier_month_carries_the_departments_it_adjusts(client, books):
    """C (Sales in July, Ops from August) is raised by 100.000 in July after August was
    posted. July's correction grows C's provision by 1,800.000 in Sales; August had
    carried C from July's old figure, so the true-up gives back 1,800.000 of expense in
    Ops, C's department in August: each month's provision movement in its department."""
    people = moved_staff(books)
    july = books.run("2026-07")
    move(books, people["C"], "Ops")
    august = books.run("2026-08")
    moves.correct_run(july, {people["C"].id: {"basic": 7_100_000}}, books.runtime)
    # C's 798 days of leave held at the raised wage: 798 x 7,100.000 / 26 = 217,915.385
    # less 798 x 7,000.000 / 26 = 214,846.154: 3,069.231.
    assert shown_lines(client, books, july, "correction") == [
        ("2110", None, None, "0.000", "100.000"),
        ("2300", None, None, "0.000", "1800.000"),
        ("2310", None, None, "0.000", "3069.231"),
        ("5100", "Sales", 5, "100.000", "0.000"),
        ("5300", "Sales", 4, "1800.000", "0.000"),  # S-2, S-3, S-4 accrue; C's moved
        ("5310", "Sales", 5, "3069.231", "0.000"),
    ]
    # August's staff: Sales S-1 to S-4 (4), Ops O-1, O-2, O-3 and C (4). The leave salary's
    # true-up gives back the same way what August carried C from, whole (not split:
    # docs/partners/journals.md).
    assert shown_lines(client, books, august, "true_up") == [
        ("2300", None, None, "1800.000", "0.000"),
        ("2310", None, None, "3069.231", "0.000"),
        ("5300", "Ops", 4, "0.000", "1800.000"),
        ("5310", None, None, "0.000", "3069.231"),
    ]
    assert provision.tie(books.entity.id).true_up() == []
    assert provision.tie(books.entity.id, provision.LEAVE).true_up() == []


@pytest.mark.parametrize("history", ["an earlier month corrected", "a month drafted before the one before moved"])
def test_a_true_up_moves_expense_between_departments_when_the_changes_cancel_out(client, books, history):
    """S-1 (Sales) is raised by 100.000 and C (Ops since August) cut by 100.000 in a month
    a later run carried them from: their provisions, capped, move by +1,800.000 and
    -1,800.000 (18 x 100.000), so 2300 is already right, but Sales was charged 1,800.000
    too much and Ops too little in the later month. The true-up says so, with no 2300
    line: each department on the side its own net falls. Either way round: August
    corrected after September was posted, or September drafted before August was."""
    people = moved_staff(books)
    books.run("2026-07")
    move(books, people["C"], "Ops")
    august = books.run("2026-08")
    cancelling = {people["S-1"].id: {"basic": 1_100_000}, people["C"].id: {"basic": 6_900_000}}
    if history == "an earlier month corrected":
        september = books.run("2026-09")
        moves.correct_run(august, cancelling, books.runtime)
    else:
        draft = drafts.build_draft_run(books.entity, "2026-09", books.runtime.clock)  # from August as it is
        moves.correct_run(august, cancelling, books.runtime)  # the latest month then: nothing off yet
        assert shown_lines(client, books, august, "true_up") == []
        september = moves.finalize_run(draft, books.runtime)
    # September's staff: Sales S-1 to S-4 (4); Ops O-1 to O-3 and C (4).
    assert shown_lines(client, books, september, "true_up") == [
        ("5300", "Ops", 4, "1800.000", "0.000"),  # C: September carried 126,000.000, August holds 124,200.000
        ("5300", "Sales", 4, "0.000", "1800.000"),  # S-1: carried 18,000.000, August holds 19,800.000
    ]
    assert provision.tie(books.entity.id).true_up() == []
