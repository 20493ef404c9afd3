"""The outbox: events written in the same transaction as the change that causes them.

An event is stored as its whole webhook envelope (Contract, Webhook event envelope):
`id`, `type`, `created_at`, `company_id`, `livemode` (false for sandboxes) and `data`,
whose objects come from `partner_safe`, the same forms the API serves. Workers fan
events out later (app/jobs/outbox.py); the table, not the queue, is the record of what
is due: an event without `dispatched_at` is still to be handed on.

The same rows are the events feed (v1.3): kept EVENT_DAYS, read oldest first in the
order they became visible, so that walking the feed's pages from the start returns
every event once even while others are written. Time cannot give that order: an event
stamped earlier may commit later, behind a reader that has moved past its time. So each
event carries `commit_seq`:

- PostgreSQL: the id of the transaction that wrote it (`txid_current()`), and the feed
  shows only events of transactions that ended before any still running began
  (`txid_snapshot_xmin`): an event of a transaction still open is held back until it
  commits, and whatever commits later has a larger position than any shown.
- SQLite: one more than the company's largest, taken inside the insert; SQLite lets one
  writer at a time, so the order of commits is the order of these numbers.

Events of one transaction share a position and are ordered by (`created_at`, `id`).
"""

import json
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

import peewee as pw
from peewee import SQL, Tuple, fn

from app.domain.kernel.backlog import Backlog
from app.domain.kernel.clock import format_utc, to_db
from app.domain.kernel.errors import DomainError, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.paging import Page, Position, page_of
from app.domain.kernel.runtime import Runtime
from app.models import Company, OutboxEvent
from app.models.base import db, first_tuple, tuple_rows

EVENT_TYPES = (
    "employee.created", "employee.updated", "employee.left",
    "payroll_run.finalized", "payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted",
    "attendance.rejected", "ping",
    "payroll_run.wps_updated",  # v1.3
    "leave.approved", "leave.cancelled",  # v1.3
)
EVENT_DAYS = 30  # how long the outbox keeps an event: the feed's reach, and replay's
FeedPosition = tuple[int, datetime, str]  # (commit_seq, created_at, id)


def envelope(event_id: str, event_type: str, created_at: datetime, company: Company,
             data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": event_id,
        "type": event_type,
        "created_at": format_utc(created_at),
        "company_id": company.id,
        "livemode": not company.sandbox,
        "data": data,
    }


def emit(company: Company, event_type: str, data: dict[str, Any], runtime: Runtime) -> str:
    """Write one event to the outbox; call inside the change's transaction. Its dispatch
    is handed on after commit (app/domain/kernel/runtime.py)."""
    return emit_many(company, [(event_type, data)], runtime)[0]


def emit_many(company: Company, typed_data: list[tuple[str, dict[str, Any]]], runtime: Runtime) -> list[str]:
    """Write several events of one company to the outbox in one statement (a batch of
    the nightly reconciliation), in the order given; call inside the change's
    transaction. Their dispatch is handed on once, after commit. Their ids."""
    unknown = [event_type for event_type, _ in typed_data if event_type not in EVENT_TYPES]
    if unknown:
        raise ValueError(f"unknown event type {unknown[0]!r}")
    if not typed_data:
        return []
    now = runtime.now()
    ids = [new_id("evt") for _ in typed_data]
    rows = []
    for event_id, (event_type, data) in zip(ids, typed_data, strict=True):
        body = envelope(event_id, event_type, now, company, data)
        rows.append({"id": event_id, "company": company.id, "type": event_type,
                     "payload": json.dumps(body, ensure_ascii=False, separators=(",", ":")),
                     "created_at": to_db(now), "commit_seq": _next_commit_seq(company.id)})
    OutboxEvent.insert_many(rows).execute()
    runtime.event_written(ids[-1])
    return ids


def backlog(now: datetime) -> Backlog:
    """The events not yet dispatched: how many, and the age of the oldest."""
    count, oldest = first_tuple(OutboxEvent.select(fn.COUNT(OutboxEvent.id), fn.MIN(OutboxEvent.created_at))
                                .where(OutboxEvent.dispatched_at.is_null()))
    return Backlog.of(count, oldest, now)


def pending_fairly(limit: int = 500) -> list[str]:
    """Ids of up to `limit` events not yet dispatched, the companies taking turns: every
    company's oldest, then each one's next, and so on (oldest first within a turn). One
    company's burst shares each batch with the others' events, so theirs are not held
    behind it, and fills a batch alone when no one else is waiting.

    Read along the pending events' index (company, created_at, id; migration 018). On
    PostgreSQL no company's events past `limit` are read: its companies are found by
    skipping along the index, and each one's first `limit` taken from it (a round of a
    10,000-event burst: ~2 ms, where ranking the whole backlog took ~25)."""
    if _sqlite():  # in process, no LATERAL: every pending event ranked
        place = fn.ROW_NUMBER().over(partition_by=[OutboxEvent.company],
                                     order_by=[OutboxEvent.created_at, OutboxEvent.id])
        ranked = (OutboxEvent.select(OutboxEvent.id, OutboxEvent.created_at, place.alias("place"))
                  .where(OutboxEvent.dispatched_at.is_null())).alias("ranked")
        query = (pw.Select(from_list=[ranked], columns=[ranked.c.id])
                 .order_by(ranked.c.place, ranked.c.created_at, ranked.c.id).limit(limit))
        return [event_id for (event_id,) in query.bind(db).tuples()]
    return [event_id for (event_id,) in db.execute_sql(_PENDING_FAIRLY, (limit, limit)).fetchall()]


_FAIRLY = """
WITH RECURSIVE companies (company_id) AS (
    (SELECT company_id FROM outbox_event WHERE dispatched_at IS NULL ORDER BY company_id LIMIT 1)
  UNION ALL
    SELECT (SELECT e.company_id FROM outbox_event AS e
            WHERE e.dispatched_at IS NULL AND e.company_id > c.company_id ORDER BY e.company_id LIMIT 1)
    FROM companies AS c WHERE c.company_id IS NOT NULL
)
SELECT firsts.id FROM companies AS c CROSS JOIN LATERAL (
    SELECT e.id, e.created_at, ROW_NUMBER() OVER (ORDER BY e.created_at, e.id) AS place
    FROM (SELECT id, created_at FROM outbox_event
          WHERE company_id = c.company_id AND dispatched_at IS NULL
          ORDER BY created_at, id LIMIT %s {locking}) AS e
) AS firsts
WHERE c.company_id IS NOT NULL
ORDER BY firsts.place, firsts.created_at, firsts.id LIMIT %s"""
_PENDING_FAIRLY = _FAIRLY.format(locking="")
# Each company's first `limit`, locked as they are read, those another transaction holds
# skipped (the numbering stays outside the locking subquery: no row of a window is locked).
_CLAIM_FAIRLY = _FAIRLY.format(locking="FOR UPDATE SKIP LOCKED")


def claim_fairly(limit: int = 500) -> list[str]:
    """As pending_fairly, inside the caller's write transaction, with the events it
    returns locked until that transaction ends: on PostgreSQL, events another
    transaction holds are skipped (SKIP LOCKED), so workers taking rounds side by side
    take different events; on SQLite the write transaction already excludes every other
    writer."""
    if _sqlite():
        return pending_fairly(limit)
    return [event_id for (event_id,) in db.execute_sql(_CLAIM_FAIRLY, (limit, limit)).fetchall()]


def pending(limit: int = 500) -> list[str]:
    """Ids of events not yet dispatched, oldest first."""
    return [event_id for (event_id,) in tuple_rows(
        OutboxEvent.select(OutboxEvent.id)
        .where(OutboxEvent.dispatched_at.is_null())
        .order_by(OutboxEvent.created_at, OutboxEvent.id)
        .limit(limit))]


def _sqlite() -> bool:
    return isinstance(db.obj, pw.SqliteDatabase)


def _next_commit_seq(company_id: str) -> pw.Node:
    """The SQL that gives a new event its position in the feed (see the module's text)."""
    if not _sqlite():
        return SQL("txid_current()")
    return _last_commit_seq(company_id, plus=1)


def _last_commit_seq(company_id: str, plus: int = 0) -> pw.Node:
    """SQLite: the company's largest feed position (0 before its first event), plus `plus`."""
    return (OutboxEvent.select(fn.COALESCE(fn.MAX(OutboxEvent.commit_seq), 0) + plus)
            .where(OutboxEvent.company == company_id))


def transaction_mark(company_id: str) -> int:
    """Where the company's events stand as an action begins, inside its write
    transaction: `written_since` then finds the events the action wrote. PostgreSQL: this
    transaction's id, which its events carry. SQLite: the company's last position, which
    only this transaction (the one writer) can move past until it ends."""
    if not _sqlite():
        return int(first_tuple(pw.Select(columns=[fn.txid_current()]).bind(db))[0])
    return int(first_tuple(_last_commit_seq(company_id))[0])


def written_since(company_id: str, event_type: str, mark: int) -> list[str]:
    """Ids of the company's `event_type` events written in this transaction since
    `transaction_mark` gave `mark`, in the order they were written."""
    position = OutboxEvent.commit_seq > mark if _sqlite() else OutboxEvent.commit_seq == mark
    return [event_id for (event_id,) in tuple_rows(
        OutboxEvent.select(OutboxEvent.id)
        .where(OutboxEvent.company == company_id, OutboxEvent.type == event_type, position)
        .order_by(OutboxEvent.commit_seq, OutboxEvent.created_at, OutboxEvent.id))]


def _committed() -> pw.Node | None:
    """PostgreSQL: the condition that an event's transaction ended before any still
    running began (or is this very one). None on SQLite, where it always holds."""
    if _sqlite():
        return None
    return ((OutboxEvent.commit_seq < fn.txid_snapshot_xmin(fn.txid_current_snapshot()))
            | (OutboxEvent.commit_seq == fn.txid_current_if_assigned()))


def feed(company_id: str, types: Collection[str], *, since: datetime | None = None,
         after: Position | None = None, after_event: str | None = None, limit: int = 50) -> Page[str]:
    """A page of `limit` events of the company of `types`, oldest first, each its
    envelope (the stored JSON text), created at or after `since`: after the position
    `after` (the previous page's `next_after`), or else after the event `after_event`
    (an id this feed listed; DomainError if it holds none such), or from the start.
    Pages stay as fast deep down: each is one range of the (company, commit_seq,
    created_at, id) index."""
    if after is None and after_event is not None:
        after = position_of(company_id, after_event, types)
        if after is None:
            raise DomainError(Words("after: no event %(event)s in this feed (an id of an event it listed, at most "
                                    "%(days)s days old)", event=after_event, days=EVENT_DAYS))
    query = (OutboxEvent.select(OutboxEvent.commit_seq, OutboxEvent.created_at, OutboxEvent.id, OutboxEvent.payload)
             .where(OutboxEvent.company == company_id, OutboxEvent.type.in_(list(types))))
    committed = _committed()
    if committed is not None:
        query = query.where(committed)
    if since is not None:
        query = query.where(OutboxEvent.created_at >= to_db(since))
        if after is None:  # start at the first position that can hold such an event
            first = (OutboxEvent.select(fn.MIN(OutboxEvent.commit_seq))
                     .where(OutboxEvent.company == company_id, OutboxEvent.created_at >= to_db(since)))
            query = query.where(OutboxEvent.commit_seq >= first)
    if after is not None:
        query = query.where(Tuple(OutboxEvent.commit_seq, OutboxEvent.created_at, OutboxEvent.id) > Tuple(*after))
    query = query.order_by(OutboxEvent.commit_seq, OutboxEvent.created_at, OutboxEvent.id).limit(limit + 1)
    found = page_of(list(tuple_rows(query)), limit, lambda row: row[:3])  # (commit_seq, created_at, id)
    return Page([payload for _seq, _created_at, _id, payload in found.items], found.next_after)


def position_of(company_id: str, event_id: str, types: Collection[str]) -> FeedPosition | None:
    """The feed position of one of the company's events of `types`, or None."""
    row = (OutboxEvent.select(OutboxEvent.commit_seq, OutboxEvent.created_at, OutboxEvent.id)
           .where(OutboxEvent.id == event_id, OutboxEvent.company == company_id,
                  OutboxEvent.type.in_(list(types))).tuples().first())
    return (row[0], row[1], row[2]) if row else None


def envelope_text(company_id: str, event_id: str, types: Collection[str]) -> str | None:
    """The stored envelope of one of the company's events of `types`, or None."""
    row = (OutboxEvent.select(OutboxEvent.payload)
           .where(OutboxEvent.id == event_id, OutboxEvent.company == company_id,
                  OutboxEvent.type.in_(list(types))).tuples().first())
    return row[0] if row else None


def prune(now: datetime, batch: int = 5000) -> int:
    """Delete the events handed on more than EVENT_DAYS ago (their deliveries go with
    them), company by company along the (company, created_at) index, a batch per
    transaction so that the nightly job never holds a long lock. Returns how many went."""
    cutoff, removed = to_db(now - timedelta(days=EVENT_DAYS)), 0
    for (company_id,) in tuple_rows(Company.select(Company.id)):
        while True:
            with db.atomic():
                old = (OutboxEvent.select(OutboxEvent.id)
                       .where(OutboxEvent.company == company_id, OutboxEvent.created_at < cutoff,
                              OutboxEvent.dispatched_at.is_null(False))
                       .limit(batch))
                ids = [event_id for (event_id,) in tuple_rows(old)]
                if ids:
                    OutboxEvent.delete().where(OutboxEvent.id.in_(ids)).execute()
            removed += len(ids)
            if len(ids) < batch:
                break
    return removed
