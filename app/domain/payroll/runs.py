"""Payroll runs as partners read them: only `finalized` and `paid`, never drafts."""

from datetime import datetime

from peewee import Tuple, prefetch

from app.domain.kernel.clock import to_db
from app.domain.kernel.errors import NotFound, Words
from app.domain.kernel.paging import Page, Position, page_of
from app.models import JournalEntry, JournalLine, PayrollComponent, PayrollRun

VISIBLE_STATUSES = ("finalized", "paid")
R = PayrollRun
PostedJournal = list[tuple[JournalEntry, list[JournalLine]]]  # [(entry, its lines)], in posting order


def list_runs(company_id: str, *, month_from: str | None = None, month_to: str | None = None,
              status: str | None = None, updated_since: datetime | None = None, after: Position | None = None,
              limit: int = 50) -> Page[PayrollRun]:
    """A page of `limit` visible runs, newest month first, after the keyset position
    `after` (the previous page's `next_after`), a run's (payroll_month, id). With
    `updated_since`, only runs whose partner form changed at or after it, oldest change
    first, and the position is (updated_at, id)."""
    query = R.select().where(
        R.company == company_id,
        R.status.in_([status] if status else VISIBLE_STATUSES),
    )
    if month_from:
        query = query.where(R.payroll_month >= month_from)
    if month_to:
        query = query.where(R.payroll_month <= month_to)
    if updated_since is not None:
        query = query.where(R.updated_at >= to_db(updated_since))
        if after is not None:
            query = query.where(Tuple(R.updated_at, R.id) > Tuple(*after))
        return page_of(list(query.order_by(R.updated_at, R.id).limit(limit + 1)), limit,
                       lambda run: (run.updated_at, run.id))
    if after is not None:
        query = query.where(Tuple(R.payroll_month, R.id) < Tuple(*after))
    return page_of(list(query.order_by(R.payroll_month.desc(), R.id.desc()).limit(limit + 1)), limit,
                   lambda run: (run.payroll_month, run.id))


def get_run(company_id: str, run_id: str) -> tuple[PayrollRun, list[PayrollComponent], PostedJournal]:
    """(run, components, [(entry, lines)]) of a visible run; drafts are not found."""
    run = R.get_or_none(R.id == run_id, R.company == company_id, R.status.in_(VISIBLE_STATUSES))
    if run is None:
        raise NotFound(Words("no payroll run %(run)s", run=run_id))
    components = list(PayrollComponent.select().where(PayrollComponent.run == run.id)
                      .order_by(PayrollComponent.position))
    return run, components, journal_of(run)


def journal_of(run: PayrollRun) -> PostedJournal:
    """[(entry, lines)] of a run's posted journal, in posting order."""
    entries = prefetch(
        JournalEntry.select().where(JournalEntry.run == run).order_by(JournalEntry.sequence),
        JournalLine.select().order_by(JournalLine.position),
    )
    return [(entry, list(entry.lines)) for entry in entries]
