"""The company's journal entries as a ledger feed (issue 47): every entry once, in the
order it was posted, deleted runs' entries included, narrowed by legal entity and by the
month its accounting date falls in, continued after the last entry handled.

This is what an accountant's ledger is built from: listJournalEntries pages it, and a
period's file (journal_file.py) is the same entries. Positions are the company's posting
order (posting.py), which commits in order (every posting holds the company's lock), so
a reader that keeps the last entry it handled never skips one posted later.
"""

from dataclasses import dataclass
from datetime import date

from peewee import prefetch

from app.domain.access.companies import get_entity
from app.domain.kernel.errors import ValidationFailed, Words
from app.domain.kernel.paging import Page, Position, page_of
from app.domain.payroll.drafts import is_month, month_bounds
from app.models import JournalEntry, JournalLine, PayrollRun


@dataclass(frozen=True)
class Posted:
    """One posted entry, its run (deleted or not) and its lines in order."""

    entry: JournalEntry
    run: PayrollRun
    lines: list[JournalLine]


def entries(company_id: str, *, entity_id: str | None = None, period: str | None = None,
            after: Position | None = None, after_entry: str | None = None,
            limit: int | None = None) -> Page[Posted]:
    """A page of `limit` (None: all) of the company's entries in posting order: of one
    legal entity, of one month `period` (YYYY-MM: entries whose accounting date falls in
    it), after the position `after` (a page's `next_after`: the entry's `position`) or
    else after the entry `after_entry` (an id of one of the company's entries;
    ValidationFailed naming `after` if it is none of them). An `entity_id` that is not
    the company's is NotFound, as its id is everywhere else."""
    if entity_id is not None:
        get_entity(entity_id, company_id=company_id)
    query = (JournalEntry.select(JournalEntry, PayrollRun).join(PayrollRun)
             .where(JournalEntry.company == company_id))
    if entity_id is not None:
        query = query.where(PayrollRun.entity == entity_id)
    if period is not None:
        first, last = period_bounds(period)
        query = query.where(JournalEntry.accounting_date.between(first, last))
    if after is None and after_entry is not None:
        position = (JournalEntry.select(JournalEntry.position)
                    .where(JournalEntry.id == after_entry, JournalEntry.company == company_id).scalar())
        if position is None:
            raise ValidationFailed(Words("invalid after"), [("after", Words(
                "no journal entry %(entry)s in this company's books (the id of an entry this list gave)",
                entry=after_entry))])
        after = (position,)
    if after is not None:
        query = query.where(JournalEntry.position > after[0])
    query = query.order_by(JournalEntry.position)
    if limit is not None:
        query = query.limit(limit + 1)
    rows = prefetch(query, JournalLine.select().order_by(JournalLine.position))
    posted = [Posted(entry, entry.run, list(entry.lines)) for entry in rows]
    if limit is None:
        return Page(posted, None)
    return page_of(posted, limit, _position)


def _position(posted: Posted) -> Position:
    """An entry's place in the feed: every entry has one (posting.py numbers each as it is
    posted; migration 021 numbered those posted before)."""
    position = posted.entry.position
    assert position is not None
    return (position,)


def period_bounds(period: str) -> tuple[date, date]:
    """The first and last day of the month `period` (YYYY-MM); ValidationFailed naming
    `period` otherwise."""
    if not is_month(period):
        raise ValidationFailed(Words("invalid period"), [("period", Words(
            "a month YYYY-MM (the month 01 to 12), written with the digits 0 to 9 (e.g. 2026-11)"))])
    return month_bounds(period)
