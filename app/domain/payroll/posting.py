"""Posting a run's journal entries: each balanced entry with its lines under the chart in
force, its place in the company's posting order, its accounting date, memo and links
(what moves.py's moves post; issue 47 for the ledger feed).

Every entry gets the next `position` of its company (1, 2, 3 ...): the order
listJournalEntries gives. Posting happens only under the company's lock (locks.py: every
move holds it first), so two postings never take one number; the unique index on
(company, position) would refuse it if they did.
"""

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, cast

from peewee import fn

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.domain.payroll import accounts, books, centres
from app.domain.payroll.drafts import month_bounds
from app.domain.payroll.rules import (
    ComponentTotal,
    Line,
    SplitLine,
    accrual_journal,
    check_balanced,
    expense_side,
    split_journal,
    whole,
)
from app.models import Company, Entity, JournalEntry, JournalLine, PayrollComponent, PayrollRun

ACCRUAL_KINDS = ("accrual", "correction")  # what a correction or a reversal is measured against


def components_of(run: PayrollRun) -> list[ComponentTotal]:
    return [ComponentTotal(c.code, c.amount_minor, c.employee_count)
            for c in PayrollComponent.select().where(PayrollComponent.run == run).order_by(PayrollComponent.position)]


def posted_lines(run: PayrollRun, kinds: Sequence[str] | None = None) -> list[list[SplitLine]]:
    """The lines of the run's posted entries (of `kinds`), one list per entry, by account
    key in its default code and name (accounts.py): differences are taken by key,
    whatever codes the company's chart gave them when they were posted."""
    query = JournalEntry.select().where(JournalEntry.run == run)
    if kinds:
        query = query.where(JournalEntry.kind.in_(kinds))
    entries: dict[str, list[SplitLine]] = {entry.id: [] for entry in query}
    for line in JournalLine.select().where(JournalLine.entry.in_(list(entries))).order_by(JournalLine.position):
        account = (accounts.BY_KEY[line.account_key] if line.account_key in accounts.BY_KEY
                   else accounts.BY_DEFAULT_CODE[line.account_code])
        entries[line.entry_id].append((account.default_code, account.name_en, line.debit_minor, line.credit_minor,
                                       (line.split_by, line.split_group) if line.split_by else None,
                                       line.employee_count or 0))
    return list(entries.values())


def accrual_lines(run: PayrollRun, components: list[ComponentTotal],
                  lines: dict[str, dict[str, int]]) -> list[SplitLine]:
    """The run's accrual journal as posted now: split by the company's cost centres
    (department or branch, never a line for fewer than three people) when it asks for
    them, each employee under the group they had in the run's month (centres.py), whole
    otherwise."""
    journal = accrual_journal(components, run.country)
    split_by = Company.get_by_id(run.company_id).journal_split
    if split_by == "none":
        return whole(journal)
    by_account: dict[tuple[str, str], dict[str, int]] = {}
    for employee_id, amounts in lines.items():
        for code, amount in amounts.items():
            side = expense_side(code, run.country)
            if side is not None:
                by_account.setdefault(side, {})
                by_account[side][employee_id] = by_account[side].get(employee_id, 0) + amount
    return [(code, name, debit, credit, (split_by, group) if count else None, count)  # what it was split by
            for code, name, debit, credit, group, count in
            split_journal(journal, by_account, centres.of_run(run, list(lines), split_by))]


MEMO_WORDS = {
    "accrual": "accrual",
    "opening": "end-of-service provision earned before the books carried them",
    "payment": "payment of net pay",
    "correction": "correction",
    "reversal": "reversal (the run was deleted)",
    "true_up": "end-of-service provision true-up",  # and which change it follows (`because`)
    # The leave-salary provision's opening and true-up (provision.LEAVE), of the same kinds.
    "leave_opening": "leave-salary provision held before the books carried them",
    "leave_true_up": "leave-salary provision true-up",
}


def post(run: PayrollRun, kind: str, lines: Sequence[Line | SplitLine], now: datetime, *,
         caused_by: JournalEntry | None = None, because: str | None = None, on: date | None = None,
         words: str | None = None) -> JournalEntry:
    """Post one balanced entry on `run` (its lines in default codes), each line under the
    code and name the company's chart gives its account now, with its key, as the next
    entry of the company's posting order; dated for the accountant (`accounting_date`,
    a payment on the bank's value date `on` when given). A correction names the accrual
    it corrects, a reversal the accrual it reverses, a true-up the entry that `caused_by`
    it, whose change `because` says in its memo; `words`: which of MEMO_WORDS the memo
    says, when not the kind's own (the leave provision's opening and true-up)."""
    check_balanced(lines)
    sequence = JournalEntry.select().where(JournalEntry.run == run).count() + 1
    position = (JournalEntry.select(fn.MAX(JournalEntry.position)).where(JournalEntry.company == run.company_id)
                .scalar() or 0) + 1
    accrual = (JournalEntry.select(JournalEntry.id).where(JournalEntry.run == run, JournalEntry.kind == "accrual")
               .order_by(JournalEntry.sequence).first()) if kind in ("correction", "reversal") else None
    entity = Entity.get_by_id(run.entity_id)
    memo = f"Payroll {run.payroll_month}, {entity.name_en}, {MEMO_WORDS[words or kind]}"
    entry = JournalEntry.create(
        id=new_id("jrn"), company=run.company_id, run=run, kind=kind,
        currency=run.currency, posted_at=to_db(now), sequence=sequence, position=position,
        accounting_date=accounting_date(run, kind, now, on=on), memo=(f"{memo} ({because})" if because else memo)[:200],
        corrects=accrual.id if accrual is not None and kind == "correction" else None,
        reverses=accrual.id if accrual is not None and kind == "reversal" else None,
        caused_by=caused_by.id if caused_by is not None else None,
    )
    chart = accounts.in_force(run.company_id, run.entity_id)  # the rules speak in default codes
    JournalLine.insert_many(
        [{"entry": entry.id, "position": i, **_account_fields(chart[line[0]]), "debit_minor": line[2],
          "credit_minor": line[3], **split_fields(line)}
         for i, line in enumerate(lines)]
    ).execute()
    return entry


def _account_fields(mapped: accounts.Mapped) -> dict[str, Any]:
    """A line's account as the chart names it now: posted lines never change."""
    return {"account_key": mapped.account.key, "account_code": mapped.code, "account_name": mapped.name_en,
            "account_name_ar": mapped.name_ar}


def split_fields(line: Line | SplitLine) -> dict[str, Any]:
    """A split line's cost centre ((split_by, group)) and headcount (SplitLine: its
    headcount > 0); every row names all three, as one multi-row insert takes its columns
    from its first row."""
    if len(line) < 6 or not line[5]:
        return {"split_by": None, "split_group": None, "employee_count": None}
    split_by, group = cast(tuple[str, str | None], line[4])  # posted lines name (split_by, group)
    return {"split_by": split_by, "split_group": group, "employee_count": line[5]}


def accounting_date(run: PayrollRun, kind: str, now: datetime, *, on: date | None = None) -> date:
    """The date an entry of `kind` posted on `run` now is dated (v1.3): an accrual or an
    opening on the payroll month's last day; a payment on the bank's value date `on`, or
    else the company's date it was paid; a correction, reversal or true-up in the latest
    period, the last day of the entity's latest posted month (posted months are not
    reopened: provision.py). Whatever the kind, never on or before the date the company's
    books are closed through: such an entry is dated the first open day, the day after it
    (books.py; a payment there was refused before it got here). Read under the company's
    lock, which every posting holds, so a close of the books waits for it or it for the
    close."""
    company = Company.get_by_id(run.company_id)
    if kind in ("accrual", "opening"):
        day = month_bounds(run.payroll_month)[1]
    elif kind == "payment":
        day = on or books.today(company, now)
    else:
        latest = (PayrollRun.select(PayrollRun.payroll_month)
                  .where(PayrollRun.entity == run.entity_id, PayrollRun.status.in_(("finalized", "paid")))
                  .order_by(PayrollRun.payroll_month.desc()).first())
        day = month_bounds(latest.payroll_month if latest is not None else run.payroll_month)[1]
    return books.first_open_day(day, company.books_closed_through)
