"""Paying what a run owes, and closing the books, at the same time as other moves (issue
47 parts 3 and 4). What is owed is read under the run's lock, and the closed date under
the company's lock (app/domain/kernel/locks.py), so:

- two pays at once of what a correction left owing: one pays it, the other is refused as
  a later click would be (it owes nothing then);
- a pay and a correction at once: each payment pays exactly what the run owed before it
  in posting order, never an amount read before the other's entry;
- a close and a correction at once: every entry posted after the close (after the last
  entry it saw) is dated after the date closed through.

PostgreSQL is where this matters (row locks); SQLite, one writer at a time, must hold too.
"""

from datetime import date

import pytest

from app.domain.access import companies
from app.domain.kernel.errors import Conflict
from app.domain.payroll import books, drafts, moves
from app.domain.payroll.drafts import month_bounds
from app.domain.people import actions as hr
from app.models import Entity, JournalEntry, JournalLine
from app.models.base import connection
from tests.helpers import one_each, one_won

ROUNDS = 4
KWD = 1000


@pytest.fixture
def company(committed, clock, runtime):
    """A committed Kuwaiti company with one expatriate on 1,000.000 KWD, removed afterwards."""
    made = committed(companies.create_company, "Racing Books Co", "KW", clock)
    entity = committed(lambda: Entity.get(Entity.company == made.id))
    person = committed(hr.hire, made, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                                       "hire_date": date(2020, 1, 1), "basic_salary_minor": 1_000 * KWD,
                                       "nationality": "IN", "entity": entity.id}, runtime)
    made.entity, made.person = entity, person
    yield made
    committed(lambda: made.delete_instance(recursive=True))


def finalized(committed, company, month, runtime):
    draft = committed(drafts.build_draft_run, company.entity, month, runtime.clock)
    return committed(moves.finalize_run, draft, runtime)


def correct(run, person, basic, runtime):
    return lambda: moves.correct_run(run, {person.id: {"basic": basic}}, runtime)


def payments_owed_before_them(run):
    """(amount paid, what 2110 owed before it in the run's posting order) of each payment."""
    owed, found = 0, []
    for entry in JournalEntry.select().where(JournalEntry.run == run.id).order_by(JournalEntry.sequence):
        lines = [line for line in JournalLine.select().where(JournalLine.entry == entry, JournalLine.account_code
                                                             == "2110")]
        if entry.kind == "payment":
            found.append((sum(line.debit_minor for line in lines), owed))
        owed += sum(line.credit_minor - line.debit_minor for line in lines)
    return found


def test_two_pays_at_once_of_what_a_correction_left_pay_it_once(committed, race, company, runtime):
    for number in range(ROUNDS):
        run = finalized(committed, company, f"2026-0{number + 1}", runtime)
        committed(moves.mark_paid, run, runtime)
        committed(correct(run, company.person, 1_250 * KWD, runtime))  # 250.000 owed
        outcomes = race(lambda: moves.mark_paid(run, runtime))  # noqa: B023 (each round's run, raced at once)
        one_won(outcomes, Conflict)
        assert "owes nothing" in str(next(o for o in outcomes if isinstance(o, Conflict)).message)
        with connection():
            assert payments_owed_before_them(run) == [(1_000 * KWD, 1_000 * KWD), (250 * KWD, 250 * KWD)]
            assert moves.owed(run) == 0


def test_a_pay_and_a_correction_at_once_each_pay_what_was_owed_before_it(committed, race, company, runtime):
    for number in range(ROUNDS):
        run = finalized(committed, company, f"2026-0{number + 1}", runtime)
        committed(moves.mark_paid, run, runtime)
        committed(correct(run, company.person, 1_100 * KWD, runtime))  # 100.000 owed; 150.000 more corrected meanwhile
        outcomes = race(one_each(lambda: moves.mark_paid(run, runtime),  # noqa: B023
                                 correct(run, company.person, 1_250 * KWD, runtime)))
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():
            paid = payments_owed_before_them(run)
            assert all(amount == owed for amount, owed in paid), paid
            assert paid[1] in ((100 * KWD, 100 * KWD), (250 * KWD, 250 * KWD))  # before the correction, or after
            assert moves.owed(run) == 250 * KWD - paid[1][0]  # what was not paid yet is still owed


def test_a_close_and_a_correction_at_once_never_date_an_entry_in_the_closed_period(committed, race, company,
                                                                                    runtime):
    dated = set()
    for number in range(ROUNDS):
        month = f"2026-0{number + 1}"
        run = finalized(committed, company, month, runtime)
        through = month_bounds(month)[1]  # the correction's own date: the month's last day
        outcomes = race(one_each(lambda: books.close(company.id, through, "operator", runtime.clock),  # noqa: B023
                                 correct(run, company.person, 1_000 * KWD + number + 1, runtime)))
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        change = next(o for o in outcomes if isinstance(o, books.Change))
        with connection():
            later = JournalEntry.select().where(JournalEntry.company == company.id,
                                                JournalEntry.position > (change.last_position or 0))
            assert all(entry.accounting_date > through for entry in later), [
                (e.kind, e.accounting_date) for e in later]
            [correction] = JournalEntry.select().where(JournalEntry.run == run.id, JournalEntry.kind == "correction")
            dated.add(correction.accounting_date == through)  # posted before the close, or moved after it
            assert correction.accounting_date in (through, books.first_open_day(through, through))
    assert dated  # (which one won varies; both are right)
