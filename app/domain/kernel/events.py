"""The outbox: events written in the same transaction as the change that causes them.

An event is stored as its whole webhook envelope (Contract, Webhook event envelope):
`id`, `type`, `created_at`, `company_id`, `livemode` (false for sandboxes) and `data`,
whose objects come from `partner_safe`, the same forms the API serves. Workers fan
events out later (app/jobs/outbox.py); the table, not the queue, is the record of what
is due: an event without `dispatched_at` is still to be handed on.
"""

import json
from datetime import datetime

from peewee import fn

from app.domain.kernel.backlog import Backlog
from app.domain.kernel.clock import format_utc, to_db
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.models import Company, OutboxEvent
from app.models.base import first_tuple, tuple_rows

EVENT_TYPES = (
    "employee.created", "employee.updated", "employee.left",
    "payroll_run.finalized", "payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted",
    "attendance.rejected", "ping",
)


def envelope(event_id: str, event_type: str, created_at: datetime, company: Company, data: dict) -> dict:
    return {
        "id": event_id,
        "type": event_type,
        "created_at": format_utc(created_at),
        "company_id": company.id,
        "livemode": not company.sandbox,
        "data": data,
    }


def emit(company: Company, event_type: str, data: dict, runtime: Runtime) -> str:
    """Write one event to the outbox; call inside the change's transaction. Its dispatch
    is handed on after commit (app/domain/kernel/runtime.py)."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type!r}")
    now = runtime.now()
    event_id = new_id("evt")
    body = envelope(event_id, event_type, now, company, data)
    OutboxEvent.create(
        id=event_id, company=company.id, type=event_type,
        payload=json.dumps(body, ensure_ascii=False, separators=(",", ":")), created_at=to_db(now),
    )
    runtime.event_written(event_id)
    return event_id


def backlog(now: datetime) -> Backlog:
    """The events not yet dispatched: how many, and the age of the oldest."""
    count, oldest = first_tuple(OutboxEvent.select(fn.COUNT(OutboxEvent.id), fn.MIN(OutboxEvent.created_at))
                                .where(OutboxEvent.dispatched_at.is_null()))
    return Backlog.of(count, oldest, now)


def pending(limit: int = 500) -> list[str]:
    """Ids of events not yet dispatched, oldest first."""
    return [event_id for (event_id,) in tuple_rows(
        OutboxEvent.select(OutboxEvent.id)
        .where(OutboxEvent.dispatched_at.is_null())
        .order_by(OutboxEvent.created_at, OutboxEvent.id)
        .limit(limit))]
