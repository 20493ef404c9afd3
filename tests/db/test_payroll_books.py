"""Paying what a correction after payment left owing, and books that stay closed (issue 47
parts 3 and 4; app/domain/payroll/moves.py mark_paid, books.py, posting.accounting_date).

One Kuwaiti company, one expatriate on a basic of 1,000.000 KWD hired in 2020: an
expatriate in Kuwait pays no PIFSS share (Law 61/1976 covers Kuwaitis only), so the month's
net pay, credited to 2110 Salaries payable by the accrual, is the basic itself. The
suite's clock reads 2026-11-21 09:00 UTC, 12:00 in Kuwait (UTC+3).
"""

from dataclasses import replace
from datetime import UTC, date, datetime

import pytest

from app.domain.access import companies
from app.domain.access import users as access
from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.payroll import books, drafts, moves
from app.domain.people import actions as hr
from app.models import BooksClosing, Entity, JournalEntry, JournalLine, OutboxEvent, PayrollRun

KWD = 1000  # minor units in a dinar


@pytest.fixture
def company(transaction, clock, runtime):
    return companies.create_company("Closing Co", "KW", clock)


@pytest.fixture
def person(company, runtime):
    entity = Entity.get(Entity.company == company.id)
    return hr.hire(company, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                             "hire_date": date(2020, 1, 1), "basic_salary_minor": 1_000 * KWD, "nationality": "IN",
                             "entity": entity.id}, runtime)


def finalized(company, month, runtime):
    entity = Entity.get(Entity.company == company.id)
    return moves.finalize_run(drafts.build_draft_run(entity, month, runtime.clock), runtime)


def entries(run, kind=None):
    query = JournalEntry.select().where(JournalEntry.run == run.id)
    return list(query.where(JournalEntry.kind == kind) if kind else query.order_by(JournalEntry.sequence))


def lines_of(entry):
    return [(line.account_code, line.debit_minor, line.credit_minor)
            for line in JournalLine.select().where(JournalLine.entry == entry).order_by(JournalLine.position)]


def salaries_payable(run):
    """Debit less credit of 2110 over everything posted on the run (credit: still owed)."""
    return sum(line.debit_minor - line.credit_minor for line in JournalLine.select().join(JournalEntry)
               .where(JournalEntry.run == run.id, JournalLine.account_code == "2110"))


def paid_events(company):
    return OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.type == "payroll_run.paid").count()


# ---- part 3: what a correction after payment left owing ---------------------------


def test_a_correction_after_payment_is_paid_by_a_payment_for_the_difference(company, person, clock, runtime):
    run = finalized(company, "2026-10", runtime)
    assert salaries_payable(run) == -1_000 * KWD  # the accrual owes the basic: net pay, no PIFSS share
    moves.mark_paid(run, runtime, on=date(2026, 10, 31))
    first_paid_at = PayrollRun.get_by_id(run.id).paid_at
    moves.correct_run(run, {person.id: {"basic": 1_250 * KWD}}, runtime)
    assert moves.owed(run) == 250 * KWD  # 1,250.000 - 1,000.000 paid: the correction's credit to 2110

    clock.advance(days=2)  # 2026-11-23 in Kuwait
    again = moves.mark_paid(run, runtime)
    [first, second] = entries(run, "payment")
    assert lines_of(first) == [("2110", 1_000 * KWD, 0), ("1010", 0, 1_000 * KWD)]
    assert lines_of(second) == [("2110", 250 * KWD, 0), ("1010", 0, 250 * KWD)]
    assert (first.accounting_date, second.accounting_date) == (date(2026, 10, 31), date(2026, 11, 23))
    assert salaries_payable(run) == 0 and moves.owed(run) == 0
    assert again.status == "paid" and again.paid_at == first_paid_at  # paid_at keeps the first payment
    assert paid_events(company) == 2  # announced again: a payment journal was posted


def test_without_v13_a_second_payment_is_told_as_the_contract_tells_a_changed_journal(company, person, runtime):
    """The contract's states have no paid run paid again: while v1.3 is not live, the
    second payment is announced as `payroll_run.corrected` ("journal lines may differ")."""
    contract_only = replace(runtime, beyond_contract=False)
    run = moves.mark_paid(finalized(company, "2026-10", contract_only), contract_only)
    moves.correct_run(run, {person.id: {"basic": 1_250 * KWD}}, contract_only)
    moves.mark_paid(run, contract_only)
    corrected = OutboxEvent.select().where(OutboxEvent.company == company.id,
                                           OutboxEvent.type == "payroll_run.corrected").count()
    assert corrected == 2  # the correction's, and the second payment's
    assert paid_events(company) == 1 and len(entries(run, "payment")) == 2


def test_a_paid_run_that_owes_nothing_is_refused_and_nothing_is_posted(company, person, runtime):
    run = moves.mark_paid(finalized(company, "2026-10", runtime), runtime)
    before = (len(entries(run)), paid_events(company))
    with pytest.raises(Conflict, match="owes nothing: its salaries payable is settled"):
        moves.mark_paid(run, runtime)
    assert (len(entries(run)), paid_events(company)) == before


def test_an_overpaid_run_is_refused_saying_by_how_much_and_that_it_is_recovered_outside_payroll(company, person,
                                                                                              runtime):
    run = moves.mark_paid(finalized(company, "2026-10", runtime), runtime)
    moves.correct_run(run, {person.id: {"basic": 940 * KWD}}, runtime)  # 1,000.000 paid, 940.000 owed: 60.000 over
    assert moves.owed(run) == -60 * KWD
    with pytest.raises(Conflict) as refusal:
        moves.mark_paid(run, runtime)
    assert "paid 60.000 KWD more than it owes now, which is recovered outside payroll" in str(refusal.value.message)
    assert len(entries(run, "payment")) == 1


def test_the_value_date_is_the_payments_date_up_to_today(company, person, clock, runtime):
    run = finalized(company, "2026-10", runtime)
    with pytest.raises(ValidationFailed) as ahead:
        moves.mark_paid(run, runtime, on=date(2026, 11, 22))  # tomorrow in Kuwait
    assert "2026-11-22 is in the future" in ahead.value.errors[0][1]
    assert entries(run, "payment") == [] and PayrollRun.get_by_id(run.id).status == "finalized"

    clock.set(datetime(2026, 11, 21, 21, 30, tzinfo=UTC))  # 00:30 on the 22nd in Kuwait: its today
    moves.mark_paid(run, runtime, on=date(2026, 11, 22))
    assert entries(run, "payment")[0].accounting_date == date(2026, 11, 22)


# ---- part 4: closed periods ---------------------------------------------------------


@pytest.mark.parametrize(("day", "closed", "dated"), [
    (date(2026, 10, 31), None, date(2026, 10, 31)),
    (date(2026, 10, 31), date(2026, 9, 30), date(2026, 10, 31)),
    (date(2026, 10, 31), date(2026, 10, 31), date(2026, 11, 1)),
    (date(2026, 9, 30), date(2026, 10, 15), date(2026, 10, 16)),
    (date(2026, 12, 31), date(2026, 12, 31), date(2027, 1, 1)),
])
def test_an_entry_dated_in_a_closed_period_is_dated_the_first_open_day(day, closed, dated):
    assert books.first_open_day(day, closed) == dated


def test_every_kind_whose_date_is_closed_is_dated_the_day_after_the_closed_date(company, person, runtime):
    september = finalized(company, "2026-09", runtime)  # its opening and accrual: 2026-09-30
    october = finalized(company, "2026-10", runtime)
    books.close(company.id, date(2026, 10, 31), "accountant@example.com", runtime.clock)
    last_before = JournalEntry.select().where(JournalEntry.company == company.id).count()

    moves.correct_run(september, {person.id: {"basic": 1_100 * KWD}}, runtime)  # dated in October: its true-up too
    moves.delete_run(october, runtime)  # the reversal, and a true-up on September
    finalized(company, "2026-10", runtime)  # October again: its accrual belongs to 2026-10-31
    late = (JournalEntry.select().where(JournalEntry.company == company.id, JournalEntry.position > last_before)
            .order_by(JournalEntry.position))
    kinds = [entry.kind for entry in late]
    assert {"correction", "true_up", "reversal", "accrual"} <= set(kinds), kinds
    assert {entry.accounting_date for entry in late} == {date(2026, 11, 1)}
    assert {entry.accounting_date for entry in entries(september) if entry.position <= last_before} == {
        date(2026, 9, 30)}  # what was posted before the close keeps its date


def test_a_first_run_finalized_after_its_month_was_closed_dates_its_opening_after_it_too(company, person, runtime):
    books.close(company.id, date(2026, 10, 31), "accountant@example.com", runtime.clock)
    run = finalized(company, "2026-10", runtime)
    assert [(e.kind, e.accounting_date) for e in entries(run)] == [("opening", date(2026, 11, 1)),
                                                                    ("opening", date(2026, 11, 1)),  # leave's
                                                                    ("accrual", date(2026, 11, 1))]


def test_a_payment_dated_in_a_closed_period_is_refused(company, person, runtime):
    run = finalized(company, "2026-10", runtime)
    books.close(company.id, date(2026, 10, 31), "accountant@example.com", runtime.clock)
    with pytest.raises(ValidationFailed) as closed:
        moves.mark_paid(run, runtime, on=date(2026, 10, 31))
    assert closed.value.errors == [("date", "2026-10-31 is in a closed period: the books are closed through "
                                            "2026-10-31, so a payment is dated after it (or an owner reopens them)")]
    assert entries(run, "payment") == []
    moves.mark_paid(run, runtime, on=date(2026, 11, 1))
    assert entries(run, "payment")[0].accounting_date == date(2026, 11, 1)


def test_a_payment_without_a_value_date_on_a_closed_day_is_refused(company, person, clock, runtime):
    run = finalized(company, "2026-10", runtime)
    books.close(company.id, date(2026, 11, 21), "accountant@example.com", runtime.clock)  # today, in Kuwait
    with pytest.raises(Conflict, match="closed through 2026-11-21, today included"):
        moves.mark_paid(run, runtime)
    assert entries(run, "payment") == []
    clock.set(datetime(2026, 11, 21, 21, 30, tzinfo=UTC))  # the 21st in UTC, the 22nd in Kuwait: open
    moves.mark_paid(run, runtime)
    assert entries(run, "payment")[0].accounting_date == date(2026, 11, 22)  # the company's today


def test_closing_moves_the_date_later_only_and_never_into_the_future(company, clock, runtime):
    with pytest.raises(ValidationFailed) as ahead:
        books.close(company.id, date(2026, 11, 22), "a@example.com", clock)  # tomorrow in Kuwait
    assert ahead.value.errors[0][0] == "through" and "2026-11-22 is in the future" in ahead.value.errors[0][1]
    books.close(company.id, date(2026, 9, 30), "a@example.com", clock)
    with pytest.raises(Conflict, match="already closed through 2026-09-30"):
        books.close(company.id, date(2026, 9, 30), "a@example.com", clock)
    with pytest.raises(Conflict, match="which only an owner does"):
        books.close(company.id, date(2026, 8, 31), "a@example.com", clock)
    books.close(company.id, date(2026, 10, 31), "b@example.com", clock)
    clock.set(datetime(2026, 11, 21, 21, 30, tzinfo=UTC))  # the 22nd has come in Kuwait
    books.close(company.id, date(2026, 11, 22), "b@example.com", clock)
    found = books.books_of(company.id)
    assert found.closed_through == date(2026, 11, 22)
    assert [(row.previous, row.closed_through, row.by) for row in found.log] == [
        (None, date(2026, 9, 30), "a@example.com"), (date(2026, 9, 30), date(2026, 10, 31), "b@example.com"),
        (date(2026, 10, 31), date(2026, 11, 22), "b@example.com")]


def test_reopening_is_an_owners_act_and_every_change_is_logged(company, clock, runtime, caplog):
    owner = access.get_or_create_user("ceo@closing.example.com", clock)
    access.add_membership(owner, company, "ceo", clock)
    officer = access.get_or_create_user("payroll@closing.example.com", clock)
    access.add_membership(officer, company, "payroll_officer", clock)
    with caplog.at_level("INFO", logger="app.domain.payroll.books"):
        books.close(company.id, date(2026, 10, 31), officer.email, clock)
        with pytest.raises(ValidationFailed) as not_owner:
            books.reopen(company.id, date(2026, 9, 30), officer.email, clock)
        assert not_owner.value.errors[0][0] == "by" and "is not an owner" in not_owner.value.errors[0][1]
        with pytest.raises(Conflict, match="reopening moves that date earlier"):
            books.reopen(company.id, date(2026, 10, 31), owner.email, clock)
        books.reopen(company.id, date(2026, 9, 30), "CEO@closing.example.com", clock)
        books.reopen(company.id, None, owner.email, clock)
        with pytest.raises(Conflict, match="not closed"):
            books.reopen(company.id, None, owner.email, clock)
    assert Entity.get(Entity.company == company.id) and books.books_of(company.id).closed_through is None
    assert [(row.previous, row.closed_through, row.by) for row in BooksClosing.select()
            .where(BooksClosing.company == company.id).order_by(BooksClosing.id)] == [
        (None, date(2026, 10, 31), officer.email), (date(2026, 10, 31), date(2026, 9, 30), owner.email),
        (date(2026, 9, 30), None, owner.email)]
    said = [record.getMessage() for record in caplog.records]
    assert said == [
        f"books of company {company.id} closed through 2026-10-31 (before: open) by {officer.email}; the last entry "
        "posted before it: none",
        f"books of company {company.id} reopened by {owner.email}: closed through 2026-09-30 (before: 2026-10-31)",
        f"books of company {company.id} reopened by {owner.email}: closed through none (every period open) "
        "(before: 2026-09-30)"]


def test_a_sandboxs_owner_reopens_its_books(sandbox, clock):
    owner = access.owners_of(sandbox.id)[0][0]
    books.close(sandbox.id, date(2026, 10, 31), "operator", clock)
    assert books.reopen(sandbox.id, None, owner, clock).closed_through is None


def test_a_payment_in_advance_is_taken_with_or_without_a_value_date(company, person, runtime):
    # Salaries are paid before the month ends, or before it begins (before Eid): the
    # value date is what the bank did, whichever door the payment comes through. Today
    # is 21 November in Kuwait; December's run is paid today, and November's on 31 October.
    december = finalized(company, "2026-12", runtime)
    moves.mark_paid(december, runtime)
    assert [entry.accounting_date for entry in entries(december, "payment")] == [date(2026, 11, 21)]
    november = finalized(company, "2026-11", runtime)
    moves.mark_paid(november, runtime, on=date(2026, 10, 31))
    assert [entry.accounting_date for entry in entries(november, "payment")] == [date(2026, 10, 31)]
