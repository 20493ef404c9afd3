"""Deliveries: at least once, from the database (DESIGN.md, Webhook delivery).

Each outbox event becomes one delivery per subscribed, active endpoint of its company (a
`ping`: its one endpoint), written in the transaction that marks the event dispatched.
Every attempt is a row: `pending` with the time it is due, `sending` while a worker holds
it (claimed by a conditional update, until `due_at`: a worker that died leaves it to be
claimed again, with the same event id), then `succeeded` or `failed`. A failed attempt
plans the next (attempts 2 to 7 after 1 m, 5 m, 30 m, 2 h, 12 h, 24 h) as a new pending
row, and says when (`next_retry_at`). Redis only says "look now": the sweeper queues
whatever is due.

An endpoint whose deliveries have all failed for seven days since its first failure
(the last attempt failed too) is disabled (`delivery_failures`); after three days its
owner is warned. Both notices are handed on after commit.
"""

import json
from dataclasses import dataclass
from datetime import timedelta

from peewee import fn

from app.domain.kernel.clock import format_utc, from_db, to_db
from app.domain.kernel.errors import Conflict, NotFound
from app.domain.kernel.ids import new_id
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint, db
from app.models.base import lock_for_update, write_transaction

RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2),
                timedelta(hours=12), timedelta(hours=24))
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
TIMEOUT_SECONDS = 10  # Contract, Limits: 2xx within 10 seconds
CLAIM = timedelta(seconds=60)  # a claimed attempt is sent again if not finished by then
DISABLE_AFTER = timedelta(days=7)
WARN_AFTER = timedelta(days=3)
RESPONSE_TEXT_LIMIT = 1024
LOG_SIZE, LOG_DAYS = 100, 30
STATUSES = ("succeeded", "failed", "pending")  # what partners see; `sending` shows as pending


@dataclass(frozen=True)
class Attempt:
    """What a worker needs to send one attempt."""

    delivery_id: str
    endpoint_id: str
    url: str
    secret_sealed: str
    body: bytes  # the stored envelope, byte for byte
    event_id: str
    attempt: int


@dataclass(frozen=True)
class Outcome:
    status: int | None  # the HTTP status, None when there was no answer
    body: bytes = b""
    error: str | None = None  # why there was no answer: timeout, TLS, address refused, ...
    duration_ms: int = 0

    @property
    def succeeded(self):
        return self.status is not None and 200 <= self.status < 300


def fan_out(event_id, runtime):
    """Mark the event dispatched and write its deliveries, in one transaction; hand the
    deliveries on after commit. Idempotent: an event already dispatched writes nothing
    (and gives None; a new one gives its delivery ids)."""
    now = runtime.now()
    with write_transaction():
        dispatched = (OutboxEvent.update(dispatched_at=to_db(now))
                      .where(OutboxEvent.id == event_id, OutboxEvent.dispatched_at.is_null()).execute())
        if not dispatched:
            return None
        event = OutboxEvent.get_by_id(event_id)
        created = [_new_attempt(endpoint.id, event, 1, now) for endpoint in _receivers(event)]
        runtime.deliveries_due(created)
    return created


def _receivers(event):
    query = WebhookEndpoint.select(WebhookEndpoint.id, WebhookEndpoint.events).where(
        WebhookEndpoint.company == event.company_id)
    if event.type == "ping":
        return list(query.where(WebhookEndpoint.id == json.loads(event.payload)["data"]["webhook_id"]))
    return [endpoint for endpoint in query.where(WebhookEndpoint.active == True)  # noqa: E712
            if event.type in endpoint.events.split()]


def _new_attempt(endpoint_id, event, attempt, now, *, due=None, retries=True):
    delivery_id = new_id("whd")
    WebhookDelivery.insert(id=delivery_id, endpoint=endpoint_id, event=event.id, event_type=event.type,
                           attempt=attempt, status="pending", due_at=to_db(due or now), retries=retries,
                           created_at=to_db(now)).execute()
    return delivery_id


def claim(delivery_id, now, hold=CLAIM):
    """Take a due attempt for sending, or None if it is not due, done, or another worker
    holds it. A conditional update decides, so two workers never both send it. A worker
    that dies holding it leaves it to be taken again after `hold`."""
    due = (WebhookDelivery.id == delivery_id) & (WebhookDelivery.due_at <= to_db(now)) & (
        WebhookDelivery.status.in_(("pending", "sending")))
    taken = WebhookDelivery.update(status="sending", due_at=to_db(now + hold)).where(due).execute()
    if not taken:
        return None
    row = (WebhookDelivery.select(WebhookDelivery, WebhookEndpoint, OutboxEvent.id, OutboxEvent.payload)
           .join(WebhookEndpoint).switch(WebhookDelivery).join(OutboxEvent)
           .where(WebhookDelivery.id == delivery_id).first())
    return Attempt(row.id, row.endpoint.id, row.endpoint.url, row.endpoint.secret_sealed,
                   row.event.payload.encode(), row.event_id, row.attempt)


def record(delivery_id, outcome, now, runtime):
    """Store what one attempt got back; plan the retry, move the endpoint's failure
    streak, disable it after seven days of failures. Returns the planned retry's id."""
    with write_transaction():
        [delivery] = lock_for_update(WebhookDelivery.select().where(WebhookDelivery.id == delivery_id))
        if delivery.status != "sending":
            return None  # recorded already (a claim that outlived its worker)
        endpoint = WebhookEndpoint.get_by_id(delivery.endpoint_id)
        retry_at = None
        if not outcome.succeeded and delivery.retries and delivery.attempt < MAX_ATTEMPTS:
            retry_at = now + RETRY_DELAYS[delivery.attempt - 1]
        WebhookDelivery.update(
            status="succeeded" if outcome.succeeded else "failed", sent_at=to_db(now),
            response_status=outcome.status, response_body=response_text(outcome.body), error=outcome.error,
            duration_ms=outcome.duration_ms, next_retry_at=to_db(retry_at) if retry_at else None,
        ).where(WebhookDelivery.id == delivery_id).execute()
        retry = None
        if retry_at is not None:
            retry = _new_attempt(endpoint.id, OutboxEvent.get_by_id(delivery.event_id), delivery.attempt + 1, now,
                                 due=retry_at)
        _streak(endpoint, outcome.succeeded, now, runtime)
    return retry


def _streak(endpoint, succeeded, now, runtime):
    if succeeded:
        if endpoint.failing_since is not None:
            WebhookEndpoint.update(failing_since=None, warned_at=None).where(
                WebhookEndpoint.id == endpoint.id).execute()
        return
    since = from_db(endpoint.failing_since)
    if since is None:
        WebhookEndpoint.update(failing_since=to_db(now)).where(WebhookEndpoint.id == endpoint.id).execute()
        return
    if endpoint.active and now - since >= DISABLE_AFTER:
        disabled = (WebhookEndpoint.update(active=False, disabled_reason="delivery_failures", updated_at=to_db(now))
                    .where(WebhookEndpoint.id == endpoint.id, WebhookEndpoint.active == True)  # noqa: E712
                    .execute())
        if disabled:
            runtime.endpoint_notice(endpoint.id, "disabled")
    elif endpoint.active and endpoint.warned_at is None and now - since >= WARN_AFTER:
        WebhookEndpoint.update(warned_at=to_db(now)).where(WebhookEndpoint.id == endpoint.id).execute()
        runtime.endpoint_notice(endpoint.id, "failing")


def response_text(body):
    """At most 1 KB of the receiver's answer as text, cut on a character boundary."""
    text = (body or b"")[:RESPONSE_TEXT_LIMIT].decode("utf-8", errors="ignore")
    while len(text.encode()) > RESPONSE_TEXT_LIMIT:
        text = text[:-1]
    return text


def due(now, limit=1000):
    """Ids of attempts due now (pending, or claimed by a worker that did not finish)."""
    return [delivery_id for (delivery_id,) in
            WebhookDelivery.select(WebhookDelivery.id)
            .where(WebhookDelivery.status.in_(("pending", "sending")), WebhookDelivery.due_at <= to_db(now))
            .order_by(WebhookDelivery.due_at).limit(limit).tuples()]


def log(endpoint, status=None):
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


def form(delivery):
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
        "next_retry_at": format_utc(delivery.next_retry_at),
    }


def redeliver(endpoint, delivery_id, runtime):
    """One more attempt of a logged delivery's event, now: same event id and body, fresh
    signature. 409 for a disabled endpoint. Returns the new delivery's form."""
    now = runtime.now()
    with db.atomic():
        original = WebhookDelivery.get_or_none(WebhookDelivery.id == delivery_id,
                                               WebhookDelivery.endpoint == endpoint.id)
        if original is None:
            raise NotFound(f"no delivery {delivery_id} of this endpoint")
        if not endpoint.active:
            raise Conflict("the endpoint is disabled; re-enable it with PATCH active: true first")
        created = _new_attempt(endpoint.id, OutboxEvent.get_by_id(original.event_id), 1, now, retries=False)
        runtime.deliveries_due([created])
    row = (WebhookDelivery.select(WebhookDelivery, OutboxEvent.id, OutboxEvent.payload).join(OutboxEvent)
           .where(WebhookDelivery.id == created).first())
    return form(row)


def prune(now):
    """Keep each endpoint's last 100 deliveries of the last 30 days; returns how many went."""
    removed = (WebhookDelivery.delete()
               .where(WebhookDelivery.created_at < to_db(now - timedelta(days=LOG_DAYS)),
                      WebhookDelivery.status.not_in(("pending", "sending"))).execute())
    for endpoint_id in (WebhookDelivery.select(WebhookDelivery.endpoint).group_by(WebhookDelivery.endpoint)
                        .having(fn.COUNT(WebhookDelivery.id) > LOG_SIZE).tuples()):
        keep = (WebhookDelivery.select(WebhookDelivery.id).where(WebhookDelivery.endpoint == endpoint_id[0])
                .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.attempt.desc(),
                          WebhookDelivery.id.desc()).limit(LOG_SIZE))
        removed += (WebhookDelivery.delete()
                    .where(WebhookDelivery.endpoint == endpoint_id[0], WebhookDelivery.id.not_in(keep),
                           WebhookDelivery.status.not_in(("pending", "sending"))).execute())
    return removed


def replay(endpoint_id, since, runtime, *, only_failed=False):
    """Send again every event the endpoint should have received since `since` (its
    subscribed types, of its company), or with `only_failed` those it never received
    successfully. Refused for a disabled endpoint. Returns the new deliveries' ids."""
    now = runtime.now()
    with write_transaction():
        endpoint = WebhookEndpoint.get_or_none(WebhookEndpoint.id == endpoint_id)
        if endpoint is None:
            raise NotFound(f"no webhook endpoint {endpoint_id}")
        if not endpoint.active:
            raise Conflict(f"the endpoint is disabled ({endpoint.disabled_reason}); re-enable it first")
        query = (OutboxEvent.select(OutboxEvent.id, OutboxEvent.type)
                 .where(OutboxEvent.company == endpoint.company_id, OutboxEvent.created_at >= to_db(since),
                        OutboxEvent.type.in_(endpoint.events.split()), OutboxEvent.dispatched_at.is_null(False))
                 .order_by(OutboxEvent.created_at, OutboxEvent.id))
        if only_failed:
            delivered = (WebhookDelivery.select(WebhookDelivery.event)
                         .where(WebhookDelivery.endpoint == endpoint.id, WebhookDelivery.status == "succeeded"))
            query = query.where(OutboxEvent.id.not_in(delivered))
        created = [_new_attempt(endpoint.id, event, 1, now) for event in query]
        runtime.deliveries_due(created)
    return created


def detail(endpoint, delivery_id):
    """One delivery of the endpoint as the console shows it: the partner form, and why
    there was no answer when there was none."""
    row = (WebhookDelivery.select(WebhookDelivery, OutboxEvent.id, OutboxEvent.payload).join(OutboxEvent)
           .where(WebhookDelivery.id == delivery_id, WebhookDelivery.endpoint == endpoint.id).first())
    if row is None:
        raise NotFound(f"no delivery {delivery_id} of this endpoint")
    return {**form(row), "error": row.error}
