"""The date through which a company's books are closed, and what it refuses (issue 47).

An accountant closes a period in the ledger (QuickBooks' closing date, Xero's lock date)
and the payroll closes its books through the same date: no journal entry is ever dated on
or before it. An entry whose own date falls there (a correction, reversal or true-up dated
in the latest posted month, a month finalized late) is dated the first open day, the day
after the date closed through (`first_open_day`): the earliest date the ledger accepts,
in the first open period, and never in the future as the next month-end would be. A
payment is dated by the bank's value date, which the books cannot move: one that falls
in a closed period is refused (`payment_day`).

Closing through a later date is any payroll user's act; moving the date earlier or
clearing it (reopening) is an owner's only (`is_owner`: a company's CEOs, or a sandbox's
owner, as users.owners_of says). Every change is a BooksClosing row (who, when, the date
before and after) and a log line an operator reads.

A change takes the company's lock (locks.hold), and every posting holds it while it
reads the date (posting.accounting_date, under the move's locks), so a close and a
posting take turns: an entry is either posted before the close (it is among what was
closed) or dated after the new date, never posted later into the closed period.
"""

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from peewee import fn

from app.domain.access.signin import normalize_email
from app.domain.access.users import owners_of
from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.locks import hold
from app.models import BooksClosing, Company, JournalEntry, PayrollRun
from app.models.base import write_transaction

log = logging.getLogger(__name__)

COMMAND = "operator"  # who a command's close is logged as (BooksClosing.by)


@dataclass(frozen=True)
class Change:
    """One change of the date closed through, as stored (its BooksClosing row) and, for a
    close, the last entry posted before it (`last_position`, the company's posting order;
    None: none yet): every entry posted after it is dated after `closed_through`."""

    company_id: str
    closed_through: date | None
    previous: date | None
    by: str
    at: datetime
    last_position: int | None = None


@dataclass(frozen=True)
class Books:
    """A company's books: the date they are closed through (None: open) and every change,
    oldest first."""

    closed_through: date | None
    log: list[BooksClosing]


def first_open_day(day: date, closed_through: date | None) -> date:
    """The date an entry whose own date is `day` is posted on: `day`, or, if the books are
    closed through it, the day after the date closed through."""
    if closed_through is not None and day <= closed_through:
        return closed_through + timedelta(days=1)
    return day


def today(company: Company, now: datetime) -> date:
    """The company's date at `now`, in its time zone."""
    return now.astimezone(ZoneInfo(company.timezone)).date()


def books_of(company_id: str) -> Books:
    company = _company(company_id)
    rows = (BooksClosing.select().where(BooksClosing.company == company_id)
            .order_by(BooksClosing.at, BooksClosing._meta.primary_key))  # ties: the order written
    return Books(company.books_closed_through, list(rows))


def is_owner(company_id: str, email: str) -> bool:
    """Whether `email` is an owner of the company (users.owners_of: its CEOs, or the
    sandbox's owner): who may reopen its books."""
    wanted = email.strip().lower()
    return any(owner == wanted for owner, _language in owners_of(company_id))


def close(company_id: str, through: date, by: str, clock: Clock) -> Change:
    """Close the company's books through `through` (a later date than they are closed
    through, and not after the company's today), as `by` (a user's email, or COMMAND)."""
    with write_transaction():
        hold(company_id)  # postings read the date under this lock: they wait, then see it
        company = _company(company_id)
        previous = company.books_closed_through
        if through > today(company, clock.now()):
            raise ValidationFailed(Words("invalid closing date"), [("through", Words(
                "%(date)s is in the future: books close through today (%(today)s in %(zone)s) at the latest",
                date=through.isoformat(), today=today(company, clock.now()).isoformat(), zone=company.timezone))])
        if previous is not None and through == previous:
            raise Conflict(Words("the books are already closed through %(date)s", date=through.isoformat()))
        if previous is not None and through < previous:
            raise Conflict(Words("the books are closed through %(closed)s; closing them through %(date)s would "
                                 "reopen the days after it, which only an owner does (reopen them instead)",
                                 closed=previous.isoformat(), date=through.isoformat()))
        last = (JournalEntry.select(fn.MAX(JournalEntry.position))
                .where(JournalEntry.company == company_id).scalar())
        change = _changed(company, through, by, clock, last)
    log.info("books of company %s closed through %s (before: %s) by %s; the last entry posted before it: %s",
             company_id, through, previous or "open", by, f"#{last}" if last is not None else "none")
    return change


def reopen(company_id: str, through: date | None, by: str, clock: Clock, *, by_command: bool = False) -> Change:
    """Move the date the company's books are closed through earlier (`through`), or clear
    it (None: every period open), as `by`, who must be an owner (`is_owner`).
    `by_command`: an operator's command named the owner (who did not sign in), so the log
    says "operator for <email>"."""
    email = normalize_email(by)
    logged = f"{COMMAND} for {email}" if by_command else email
    with write_transaction():
        hold(company_id)
        company = _company(company_id)
        if not is_owner(company_id, email):
            raise ValidationFailed(Words("not an owner"), [("by", Words(
                "%(email)s is not an owner of %(company)s: reopening the books is an owner's act (the company's "
                "CEO, or the sandbox's owner)", email=email, company=company_id))])
        previous = company.books_closed_through
        if previous is None:
            raise Conflict(Words("the books are not closed: there is nothing to reopen"))
        if through is not None and through >= previous:
            raise Conflict(Words("the books are closed through %(closed)s; reopening moves that date earlier (to "
                                 "close through a later date, close them)", closed=previous.isoformat()))
        change = _changed(company, through, logged, clock, None)
    log.warning("books of company %s reopened by %s: closed through %s (before: %s)",
                company_id, logged, through or "none (every period open)", previous)
    return change


def payment_day(run: PayrollRun, on: date | None, now: datetime) -> date:
    """The accounting date of a payment of `run` made now: the bank's value date `on`, or
    the company's today. Call under the company's lock (a move's): the closed date is
    read there. One rule whichever door the payment comes through: a value date after
    today, or in a closed period, is refused (ValidationFailed naming `date`); so is a
    payment without one on a day the books are closed through (Conflict). A date before
    the payroll month is a payment in advance (salaries paid before Eid), and is taken."""
    company = _company(run.company_id)
    day, current = on or today(company, now), today(company, now)
    closed = company.books_closed_through
    if on is not None and on > current:
        raise ValidationFailed(Words("invalid value date"), [("date", Words(
            "%(date)s is in the future: the value date is the day the bank paid, today (%(today)s) at the latest",
            date=on.isoformat(), today=current.isoformat()))])
    if closed is not None and day <= closed and on is not None:
        raise ValidationFailed(Words("invalid value date"), [("date", Words(
            "%(date)s is in a closed period: the books are closed through %(closed)s, so a payment is dated "
            "after it (or an owner reopens them)", date=on.isoformat(), closed=closed.isoformat()))])
    if closed is not None and day <= closed:
        raise Conflict(Words("the books are closed through %(closed)s, today included: a payment is dated after "
                             "it, so pay tomorrow or have an owner reopen them", closed=closed.isoformat()))
    return day


def _changed(company: Company, through: date | None, by: str, clock: Clock, last: int | None) -> Change:
    now = clock.now()
    previous = company.books_closed_through
    Company.update(books_closed_through=through).where(Company.id == company.id).execute()
    BooksClosing.create(company=company.id, closed_through=through, previous=previous, by=by, at=to_db(now))
    return Change(company.id, through, previous, by, now, last)


def _company(company_id: str) -> Company:
    company = Company.get_or_none(Company.id == company_id)
    if company is None:
        raise NotFound(Words("no company %(company)s", company=company_id))
    return company
