"""Taking webhook attempts for sending (deliveries.py holds what an attempt is and how its
outcome is recorded). A worker takes attempts under a claim: their rows `sending` until
the claim ends (its `lease`, the rows' due_at meanwhile), written so by a fan-out of
outbox events, or claimed when due. A worker that stops, freezes or is cut off holding a
claim leaves its attempts due when the claim ends, for another worker to take over
(`claim_due`); from then on nothing the first one does changes them: giving back
(`release`), renewing (`renew`) and recording (deliveries.record_many) all hold only
while the claim is still the one they were taken under.

On PostgreSQL a drain's rounds take rows no other transaction holds (SKIP LOCKED), so
workers side by side take rounds of their own; SQLite's write transaction excludes every
other writer.
"""

import json
from collections.abc import ItemsView, Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from app.domain.kernel import events
from app.domain.kernel.clock import from_db, to_db
from app.domain.webhooks.deliveries import Attempt, NewAttempt, attempt_row, write_attempts
from app.domain.webhooks.endpoints import received_by
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint
from app.models.base import among, lock_for_update, tuple_rows, write_transaction

CLAIM = timedelta(seconds=24)  # a claim's length when none is given (WEBHOOK_CLAIM_SECONDS's default)
K = TypeVar("K")


def fan_out(event_ids: list[str], now: datetime, hold: timedelta = CLAIM,
            budget: int | None = None) -> tuple[int, list[Attempt]]:
    """Mark these outbox events dispatched and write their deliveries, in one
    transaction, for the worker that sends them at once: they are written already taken
    (`sending` until `now + hold`, as `claim_many` leaves them) and come back as
    Attempts. With a `budget`, the events are taken in the order given while their
    deliveries fit in it (the first always), and the rest are left undispatched.
    Decided under the events' row locks: of two workers given the same events, one
    writes their deliveries; an event already dispatched writes nothing. Returns (how
    many events were taken, the Attempts)."""
    with write_transaction():
        # Found by their keys alone, and the dispatched ones left out here: asked in SQL,
        # "not dispatched" let PostgreSQL walk the whole backlog along the pending index
        # (migration 018) when its statistics were behind a burst, ~90 ms a round.
        locked = lock_for_update(OutboxEvent.select(OutboxEvent.id).where(among(OutboxEvent.id, list(event_ids)))
                                 .order_by(OutboxEvent.id))  # one lock order: no deadlock between batches
        return _fan_out_locked(event_ids if locked else [], now, now + hold, budget)


def fan_out_pending(limit: int, now: datetime, lease: datetime, budget: int | None = None) -> tuple[int, list[Attempt]]:
    """As fan_out, for up to `limit` events not dispatched yet, the companies taking turns
    (events.claim_fairly): a worker's round. Events another worker's round holds are
    left to it, so workers side by side take rounds of their own. Their deliveries are
    taken until `lease`."""
    with write_transaction():
        return _fan_out_locked(events.claim_fairly(limit), now, lease, budget)


def _fan_out_locked(event_ids: list[str], now: datetime, lease: datetime,
                    budget: int | None) -> tuple[int, list[Attempt]]:
    """fan_out's work, on events this transaction holds locked."""
    pending = [event for event in tuple_rows(
        OutboxEvent.select(OutboxEvent.id, OutboxEvent.company, OutboxEvent.type, OutboxEvent.payload,
                           OutboxEvent.dispatched_at)
        .where(among(OutboxEvent.id, list(event_ids))))  # no model per row: a round is hundreds
        if event[4] is None]
    if not pending:
        return 0, []
    listening: dict[str, list[WebhookEndpoint]] = {}
    for endpoint in WebhookEndpoint.select(WebhookEndpoint.id, WebhookEndpoint.company, WebhookEndpoint.events,
                                           WebhookEndpoint.active, WebhookEndpoint.url,
                                           WebhookEndpoint.secret_sealed, WebhookEndpoint.previous_secret_sealed,
                                           WebhookEndpoint.previous_secret_expires_at,
                                           WebhookEndpoint.rate_limit, WebhookEndpoint.credential_kind,
                                           WebhookEndpoint.credential_id).where(
            WebhookEndpoint.company.in_({company_id for _, company_id, *_ in pending})):
        listening.setdefault(endpoint.company_id, []).append(endpoint)
    # What each active endpoint receives, once a round (`*` asks its owner's scopes).
    active = [endpoint for endpoints in listening.values() for endpoint in endpoints if endpoint.active]
    received = dict(zip((endpoint.id for endpoint in active), received_by(
        [(endpoint.events, endpoint.credential_kind, endpoint.credential_id) for endpoint in active]), strict=True))
    rows: list[NewAttempt] = []
    attempts: list[Attempt] = []
    taken: list[str] = []
    place = {event_id: n for n, event_id in enumerate(event_ids)}
    for event_id, company_id, event_type, payload, _ in sorted(pending, key=lambda event: place[event[0]]):
        receivers = _receivers(event_type, payload, listening.get(company_id, ()), received)
        if taken and budget is not None and len(rows) + len(receivers) > budget:
            break
        taken.append(event_id)
        for endpoint in receivers:
            row = attempt_row(endpoint.id, event_id, event_type, 1, now, taken_until=lease)
            rows.append(row)
            attempts.append(Attempt(row.id, endpoint.id, endpoint.url, body=payload.encode(), event_id=event_id,
                                    attempt=1, event_type=event_type, lease=lease, **_signers(endpoint)))
    OutboxEvent.update(dispatched_at=to_db(now)).where(among(OutboxEvent.id, taken)).execute()
    write_attempts(rows)
    return len(taken), attempts


def _receivers(event_type: str, payload: str, endpoints: Iterable[WebhookEndpoint],
               received: dict[str, frozenset[str]]) -> list[WebhookEndpoint]:
    if event_type == "ping":
        target = json.loads(payload)["data"]["webhook_id"]
        return [endpoint for endpoint in endpoints if endpoint.id == target]
    return [endpoint for endpoint in endpoints if endpoint.active and event_type in received[endpoint.id]]


def claim_many(delivery_ids: Iterable[str], now: datetime, hold: timedelta = CLAIM) -> list[Attempt]:
    """The due attempts among `delivery_ids`, taken for sending in one transaction.
    Decided under the rows' locks, so two workers never both send one; one that is not
    due, done, or held by another worker is left out. A worker that dies holding an
    attempt leaves it to be taken again after `hold`. An event's attempt whose endpoint
    was disabled meanwhile is not sent: it ends `failed`, saying why, with no retry
    (after re-enabling, redeliver or replay what was missed). A `ping` is sent all the
    same: it is how a receiver is checked before its endpoint is re-enabled."""
    with write_transaction():
        return _take(lock_for_update(_due_rows(now).where(among(WebhookDelivery.id, list(delivery_ids)))
                                     .order_by(WebhookDelivery.id)), now, now + hold)


def claim_due(now: datetime, lease: datetime, limit: int) -> list[Attempt]:
    """Up to `limit` attempts due now (retries, and those a worker's claim ran out on),
    oldest due first, taken until `lease` as claim_many takes them; those another
    worker's round is taking meanwhile are left to it."""
    with write_transaction():
        return _take(lock_for_update(_due_rows(now).order_by(WebhookDelivery.due_at).limit(limit), skip_locked=True),
                     now, lease)


def _due_rows(now: datetime) -> Any:
    return (WebhookDelivery.select(WebhookDelivery.id, WebhookDelivery.endpoint, WebhookDelivery.event_type)
            .where(WebhookDelivery.due_at <= to_db(now), WebhookDelivery.status.in_(("pending", "sending"))))


def _take(locked_rows: list[WebhookDelivery], now: datetime, lease: datetime) -> list[Attempt]:
    """Claim these due rows (locked by the caller's transaction) until `lease`."""
    disabled: dict[str, str] = dict(tuple_rows(
        WebhookEndpoint.select(WebhookEndpoint.id, WebhookEndpoint.disabled_reason).where(
            WebhookEndpoint.id.in_({row.endpoint_id for row in locked_rows}),
            WebhookEndpoint.active == False)))  # noqa: E712
    stopped = {row.id: disabled[row.endpoint_id] for row in locked_rows
               if row.endpoint_id in disabled and row.event_type != "ping"}
    for reason, ids in _group((reason, delivery_id) for delivery_id, reason in stopped.items()):
        WebhookDelivery.update(status="failed", error=f"not sent: the endpoint was disabled ({reason})",
                               next_retry_at=None).where(among(WebhookDelivery.id, ids)).execute()
    due = [row.id for row in locked_rows if row.id not in stopped]
    if not due:
        return []
    WebhookDelivery.update(status="sending", due_at=to_db(lease)).where(among(WebhookDelivery.id, due)).execute()
    rows = (WebhookDelivery.select(WebhookDelivery, WebhookEndpoint, OutboxEvent.id, OutboxEvent.payload)
            .join(WebhookEndpoint).switch(WebhookDelivery).join(OutboxEvent)
            .where(among(WebhookDelivery.id, due)))
    return [Attempt(row.id, row.endpoint.id, row.endpoint.url, body=row.event.payload.encode(),
                    event_id=row.event_id, attempt=row.attempt, event_type=row.event_type, retries=row.retries,
                    lease=lease, **_signers(row.endpoint))
            for row in rows]


def release(attempts: Iterable[Attempt], now: datetime, due: datetime | None = None) -> None:
    """Give attempts a worker took but did not send back, due now (or at `due`: an
    endpoint's next turn), unchanged (their attempt number counts sends only). Only while
    this worker's claim holds them: one recorded meanwhile, or taken over by another
    worker after the claim ran out, is left as it is."""
    for lease, ids in _group((attempt.lease, attempt.delivery_id) for attempt in attempts):
        held = [WebhookDelivery.status == "sending"] + ([WebhookDelivery.due_at == to_db(lease)] if lease else [])
        (WebhookDelivery.update(status="pending", due_at=to_db(due or now))
         .where(among(WebhookDelivery.id, ids), *held).execute())


def renew(attempts: list[Attempt], lease: datetime) -> list[Attempt]:
    """These attempts' claim, moved on to end at `lease`: those it still held (not
    recorded, not taken over), with their new lease."""
    renewed: set[str] = set()
    with write_transaction():
        for old, ids in _group((attempt.lease, attempt.delivery_id) for attempt in attempts if attempt.lease):
            still = [row.id for row in lock_for_update(
                WebhookDelivery.select(WebhookDelivery.id, WebhookDelivery.due_at)
                .where(among(WebhookDelivery.id, ids), WebhookDelivery.status == "sending")
                .order_by(WebhookDelivery.id), keys_kept=True) if row.due_at == to_db(old)]
            WebhookDelivery.update(due_at=to_db(lease)).where(among(WebhookDelivery.id, still)).execute()
            renewed.update(still)
    return [replace(attempt, lease=lease) for attempt in attempts if attempt.delivery_id in renewed]


def _group(pairs: Iterable[tuple[K, str]]) -> ItemsView[K, list[str]]:
    grouped: dict[K, list[str]] = {}
    for key, value in pairs:
        grouped.setdefault(key, []).append(value)
    return grouped.items()


def _signers(endpoint: WebhookEndpoint) -> dict[str, Any]:
    """An Attempt's secrets (the endpoint's, and the one its last rotation replaced, if
    any) and the endpoint's pace."""
    if endpoint.previous_secret_sealed is None or endpoint.previous_secret_expires_at is None:
        return {"secret_sealed": endpoint.secret_sealed, "rate_limit": endpoint.rate_limit}
    return {"secret_sealed": endpoint.secret_sealed, "previous_sealed": endpoint.previous_secret_sealed,
            "previous_until": from_db(endpoint.previous_secret_expires_at).timestamp(),
            "rate_limit": endpoint.rate_limit}
