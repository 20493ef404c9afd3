"""A webhook endpoint's deliveries as partners and HR see and move them: the log (the
last 100 of 30 days), one delivery's detail, a redelivery, a replay since a moment, and
the daily pruning. Taking attempts is claims.py's, recording them deliveries.py's.
"""

from datetime import datetime, timedelta
from typing import Any

from peewee import Field, SelectQuery, fn

from app.domain.kernel.clock import format_utc, from_db, to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.runtime import Runtime
from app.domain.webhooks.deliveries import attempt_row, write_attempts
from app.domain.webhooks.endpoints import types_received
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint
from app.models.base import locked, tuple_rows, write_transaction

LOG_SIZE, LOG_DAYS = 100, 30
REPLAY_DAYS = 30  # how far back a replay reaches
STATUSES = ("succeeded", "failed", "pending")  # what partners see; `sending` shows as pending


def log(endpoint: WebhookEndpoint, status: str | None = None) -> list[dict[str, Any]]:
    """The endpoint's delivery log, newest first, at most 100, as partners see it."""
    query = (WebhookDelivery.select(WebhookDelivery, OutboxEvent.id, OutboxEvent.payload).join(OutboxEvent)
             .where(WebhookDelivery.endpoint == endpoint.id))
    if status == "pending":
        query = query.where(WebhookDelivery.status.in_(("pending", "sending")))
    elif status is not None:
        query = query.where(WebhookDelivery.status == status)
    rows = query.order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.attempt.desc(),
                          WebhookDelivery.id.desc()).limit(LOG_SIZE)
    return [form(row) for row in rows]


def form(delivery: WebhookDelivery) -> dict[str, Any]:
    """One delivery as partners see it (DESIGN.md, Webhook delivery)."""
    return {
        "id": delivery.id,
        "event_id": delivery.event_id,
        "event_type": delivery.event_type,
        "status": "pending" if delivery.status == "sending" else delivery.status,
        "attempt": delivery.attempt,
        "sent_at": format_utc(delivery.sent_at),
        "request_body": delivery.event.payload,
        "response_status": delivery.response_status,
        "response_body": delivery.response_body,
        "duration_ms": delivery.duration_ms,
        "next_retry_at": format_utc(planned_at(delivery)),
        "error": delivery.error,  # why no answer was recorded (v1.3)
    }


def planned_at(delivery: WebhookDelivery) -> datetime | None:
    """When a retry is planned, shown on both rows it concerns: the failed attempt that
    planned it, and the pending attempt itself (its due time) until it is sent. None for
    a first attempt waiting to go, one being sent, and one that plans nothing."""
    if delivery.status == "pending":
        return from_db(delivery.due_at) if delivery.attempt > 1 else None
    return delivery.next_retry_at


def redeliver(endpoint: WebhookEndpoint, delivery_id: str, runtime: Runtime) -> dict[str, Any]:
    """One more attempt of a logged delivery's event, now: same event id and body, fresh
    signature. 409 for a disabled endpoint. Returns the new delivery's form."""
    now = runtime.now()
    with write_transaction():
        original = WebhookDelivery.get_or_none(WebhookDelivery.id == delivery_id,
                                               WebhookDelivery.endpoint == endpoint.id)
        if original is None:
            raise NotFound(Words("no delivery %(delivery)s of this endpoint", delivery=delivery_id))
        if not endpoint.active:
            raise Conflict(Words("the endpoint is disabled; re-enable it with PATCH active: true first"))
        [created] = write_attempts([attempt_row(endpoint.id, original.event_id, original.event_type, 1, now,
                                                retries=False)])
        runtime.deliveries_due([created])
    row = (WebhookDelivery.select(WebhookDelivery, OutboxEvent.id, OutboxEvent.payload).join(OutboxEvent)
           .where(WebhookDelivery.id == created).first())
    return form(row)


def prune(now: datetime) -> int:
    """Keep each endpoint's last 100 deliveries of the last 30 days; returns how many went."""
    removed: int = (WebhookDelivery.delete()
                    .where(WebhookDelivery.created_at < to_db(now - timedelta(days=LOG_DAYS)),
                           WebhookDelivery.status.not_in(("pending", "sending"))).execute())
    for endpoint_id in tuple_rows(WebhookDelivery.select(WebhookDelivery.endpoint).group_by(WebhookDelivery.endpoint)
                                  .having(fn.COUNT(WebhookDelivery.id) > LOG_SIZE)):
        keep = (WebhookDelivery.select(WebhookDelivery.id).where(WebhookDelivery.endpoint == endpoint_id[0])
                .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.attempt.desc(),
                          WebhookDelivery.id.desc()).limit(LOG_SIZE))
        removed += (WebhookDelivery.delete()
                    .where(WebhookDelivery.endpoint == endpoint_id[0], WebhookDelivery.id.not_in(keep),
                           WebhookDelivery.status.not_in(("pending", "sending"))).execute())
    return removed


def replay(endpoint_id: str, since: datetime, runtime: Runtime, *, only_failed: bool = False) -> list[str]:
    """Send again, now, what the endpoint should have received since `since`, from when
    it existed: every event of its subscribed types, or with `only_failed` those whose
    latest delivery to it did not succeed; the same event ids and bodies, signed anew.
    Nothing is queued twice: an event waiting for its next attempt has that attempt
    brought forward to now, one already due or being sent is left as it is, so replays in
    a row never stack copies of a backlog. At most REPLAY_DAYS back (ValidationFailed
    naming `since`); refused for a disabled endpoint (Conflict). Under the endpoint's row
    lock, so two replays at once take turns. Returns the ids of the attempts it queued or
    brought forward: exactly the events it will send."""
    now = runtime.now()
    if since < now - timedelta(days=REPLAY_DAYS):
        raise ValidationFailed(Words("too far back"), [("since", Words("at most %(days)s days back (the events "
                                                                        "kept for replay)", days=REPLAY_DAYS))])
    with write_transaction():
        endpoint = locked(WebhookEndpoint.select().where(WebhookEndpoint.id == endpoint_id))
        if endpoint is None:
            raise NotFound(Words("no webhook endpoint %(endpoint)s", endpoint=endpoint_id))
        if not endpoint.active:
            raise Conflict(Words("the endpoint is disabled (%(reason)s); re-enable it first",
                                  reason=endpoint.disabled_reason))

        received = types_received(endpoint.events, endpoint.credential_kind, endpoint.credential_id)

        def waiting(*statuses: str) -> SelectQuery:
            return WebhookDelivery.select(WebhookDelivery.event).where(
                WebhookDelivery.endpoint == endpoint.id, WebhookDelivery.status.in_(statuses))

        def wanted(*columns: Field) -> SelectQuery:
            query = OutboxEvent.select(*columns).where(
                OutboxEvent.company == endpoint.company_id,
                OutboxEvent.created_at >= to_db(max(since, from_db(endpoint.created_at))),
                OutboxEvent.type.in_(sorted(received)), OutboxEvent.dispatched_at.is_null(False),
                OutboxEvent.id.not_in(waiting("sending")))
            return query.where(OutboxEvent.id.in_(_last_not_succeeded(endpoint.id))) if only_failed else query

        later = WebhookDelivery.select(WebhookDelivery.id).where(
            WebhookDelivery.endpoint == endpoint.id, WebhookDelivery.status == "pending",
            WebhookDelivery.due_at > to_db(now), WebhookDelivery.event.in_(wanted(OutboxEvent.id)))
        hastened = [delivery_id for (delivery_id,) in tuple_rows(later)]
        for chunk in range(0, len(hastened), 500):
            (WebhookDelivery.update(due_at=to_db(now))
             .where(WebhookDelivery.id.in_(hastened[chunk:chunk + 500])).execute())
        fresh = (wanted(OutboxEvent.id, OutboxEvent.type).where(OutboxEvent.id.not_in(waiting("pending")))
                 .order_by(OutboxEvent.created_at, OutboxEvent.id))
        created = write_attempts([attempt_row(endpoint.id, event_id, event_type, 1, now)
                           for event_id, event_type in tuple_rows(fresh)])
        runtime.deliveries_due(hastened + created)
    return hastened + created


def _last_not_succeeded(endpoint_id: str) -> SelectQuery:
    """The events whose latest delivery to the endpoint (by when it was made) did not
    succeed: it failed, or it waits for its next attempt. Of deliveries made in the same
    instant, a success counts as the latest: what arrived is never sent again for it."""
    last = (WebhookDelivery.select(WebhookDelivery.event, fn.MAX(WebhookDelivery.created_at).alias("made"))
            .where(WebhookDelivery.endpoint == endpoint_id).group_by(WebhookDelivery.event))
    latest = WebhookDelivery.alias()
    arrived = (latest.select(latest.event)
               .join(last, on=(latest.event == last.c.event_id) & (latest.created_at == last.c.made))
               .where(latest.endpoint == endpoint_id, latest.status == "succeeded"))
    return (WebhookDelivery.select(WebhookDelivery.event)
            .where(WebhookDelivery.endpoint == endpoint_id, WebhookDelivery.event.not_in(arrived)))


def detail(endpoint: WebhookEndpoint, delivery_id: str) -> dict[str, Any]:
    """One delivery of the endpoint as the console shows it."""
    row = (WebhookDelivery.select(WebhookDelivery, OutboxEvent.id, OutboxEvent.payload).join(OutboxEvent)
           .where(WebhookDelivery.id == delivery_id, WebhookDelivery.endpoint == endpoint.id).first())
    if row is None:
        raise NotFound(Words("no delivery %(delivery)s of this endpoint", delivery=delivery_id))
    return form(row)
