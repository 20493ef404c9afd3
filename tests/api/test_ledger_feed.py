"""The company's journal entries as one ledger feed (issue 47 part 1): every entry once,
in posting order, deleted runs' entries included, by entity and by accounting month, and
each true-up linked to the entry whose change caused it."""

from datetime import date

import pytest

from app.domain.kernel.errors import ValidationFailed
from app.domain.payroll import drafts, ledger, moves
from app.models import JournalEntry


def test_every_entry_once_in_posting_order_with_deleted_runs_and_linked_true_ups(books):
    person = books.hire("K-1", date(2014, 3, 1), 900_000)
    june, july = books.run("2026-06"), books.run("2026-07")
    moves.correct_run(june, {person.id: {"basic": 950_000}}, books.runtime)  # an earlier month: a true-up
    moves.delete_run(july, books.runtime)
    found = ledger.entries(books.company.id).items
    assert [p.entry.position for p in found] == list(range(1, len(found) + 1))
    assert len({p.entry.id for p in found}) == JournalEntry.select().count() == len(found)
    kinds = [(p.run.payroll_month, p.entry.kind) for p in found]
    assert ("2026-07", "reversal") in kinds  # a deleted run's reversal is read
    correction = next(p.entry for p in found if p.entry.kind == "correction")
    true_up = next(p.entry for p in found if p.entry.kind == "true_up" and p.entry.position > correction.position)
    assert true_up.caused_by == correction.id
    assert f"after the correction of payroll 2026-06, {june.id}" in true_up.memo
    reversal = next(p.entry for p in found if p.entry.kind == "reversal")
    assert reversal.reverses is not None


def test_pages_periods_and_after(books):
    books.hire("K-1", date(2014, 3, 1), 900_000)
    for month in ("2026-05", "2026-06", "2026-07"):
        books.run(month)
    everything = [p.entry.id for p in ledger.entries(books.company.id).items]
    first = ledger.entries(books.company.id, limit=2)
    rest = ledger.entries(books.company.id, after=first.next_after)
    assert [p.entry.id for p in first.items + rest.items] == everything
    assert [p.entry.id for p in ledger.entries(books.company.id, after_entry=everything[1]).items] == everything[2:]
    june = ledger.entries(books.company.id, period="2026-06").items
    assert june and all(p.entry.accounting_date == date(2026, 6, 30) for p in june)
    with pytest.raises(ValidationFailed):
        ledger.entries(books.company.id, after_entry="jrn_nothing")
    with pytest.raises(ValidationFailed):
        ledger.entries(books.company.id, period="2026-13")
    assert drafts.is_month("2026-06")
