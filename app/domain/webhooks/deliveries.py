"""Deliveries: at least once, from the database (DESIGN.md, Webhook delivery).

Each outbox event becomes one delivery per subscribed, active endpoint of its company (a
`ping`: its one endpoint), written in the transaction that marks the event dispatched.
Every attempt is a row: `pending` with the time it is due, `sending` while a worker holds
it (claimed by a conditional update, until `due_at`: a worker that died leaves it to be
claimed again, with the same event id), then `succeeded` or `failed`. A failed attempt
plans the next (attempts 2 to 7 after 1 m, 5 m, 30 m, 2 h, 12 h, 24 h) as a new pending
row, and says when (`next_retry_at`). Redis only says "look now": the drains that run
every few seconds take whatever is due (claim_due).

An endpoint whose deliveries have all failed for seven days since its first failure
(the last attempt failed too) is disabled (`delivery_failures`); after three days its
owner is warned. Both notices are handed on after commit. What each outcome decides
(how it ends, the next attempt, the streak) is outcomes.py's, as pure rules; here they
are applied to the rows.
"""

import codecs
import json
import logging
from collections.abc import ItemsView, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from peewee import Field, fn

from app.domain.kernel import events
from app.domain.kernel.backlog import Backlog
from app.domain.kernel.clock import from_db, to_db
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.domain.webhooks import outcomes as rules  # what an outcome decides (pure)
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint
from app.models.base import (
    among,
    first_tuple,
    insert_rows,
    lock_for_update,
    tuple_rows,
    update_rows,
    write_transaction,
)

TIMEOUT_SECONDS = 10  # Contract, Limits: 2xx within 10 seconds
CLAIM = timedelta(seconds=24)  # a claim's length when none is given (WEBHOOK_CLAIM_SECONDS's default)
RESPONSE_TEXT_LIMIT = 1024
ERROR_TEXT_LIMIT = 500  # why an attempt got no answer, as stored
GONE = "endpoint_gone"  # disabled_reason after a 410 (v1.3)

logger = logging.getLogger(__name__)
K = TypeVar("K")


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
    event_type: str
    retries: bool = True  # False for a manual redelivery: one attempt
    previous_sealed: str | None = None  # the secret a rotation replaced (v1.3): it signs too,
    previous_until: float = 0.0  # until this time (Unix seconds)
    rate_limit: int | None = None  # the endpoint's pace (v1.3): deliveries a second at most
    lease: datetime | None = None  # when the claim it is sent under ends (its row's due_at meanwhile)


def _signers(endpoint: WebhookEndpoint) -> dict[str, Any]:
    """An Attempt's secrets (the endpoint's, and the one its last rotation replaced, if
    any) and the endpoint's pace."""
    if endpoint.previous_secret_sealed is None or endpoint.previous_secret_expires_at is None:
        return {"secret_sealed": endpoint.secret_sealed, "rate_limit": endpoint.rate_limit}
    return {"secret_sealed": endpoint.secret_sealed, "previous_sealed": endpoint.previous_secret_sealed,
            "previous_until": from_db(endpoint.previous_secret_expires_at).timestamp(),
            "rate_limit": endpoint.rate_limit}


@dataclass(frozen=True)
class Outcome:
    status: int | None  # the HTTP status, None when there was no answer
    body: bytes = b""
    error: str | None = None  # why there was no answer: timeout, TLS, address refused, ...
    duration_ms: int = 0
    retry_after: str | None = None  # the answer's Retry-After header, as sent

    @property
    def succeeded(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


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
                                           WebhookEndpoint.rate_limit).where(
            WebhookEndpoint.company.in_({company_id for _, company_id, *_ in pending})):
        listening.setdefault(endpoint.company_id, []).append(endpoint)
    rows: list[NewAttempt] = []
    attempts: list[Attempt] = []
    taken: list[str] = []
    place = {event_id: n for n, event_id in enumerate(event_ids)}
    for event_id, company_id, event_type, payload, _ in sorted(pending, key=lambda event: place[event[0]]):
        receivers = _receivers(event_type, payload, listening.get(company_id, ()))
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


def _receivers(event_type: str, payload: str, endpoints: Iterable[WebhookEndpoint]) -> list[WebhookEndpoint]:
    if event_type == "ping":
        target = json.loads(payload)["data"]["webhook_id"]
        return [endpoint for endpoint in endpoints if endpoint.id == target]
    return [endpoint for endpoint in endpoints if endpoint.active and event_type in endpoint.events.split()]


# Attempts are written and ended in bursts (a fan-out, a batch's outcomes and retries):
# each burst is one statement, its rows named records whose fields are the columns.
class NewAttempt(NamedTuple):
    """A delivery attempt as it is written (WebhookDelivery's columns of these names)."""

    id: str
    endpoint: str
    event: str
    event_type: str
    attempt: int
    status: str
    due_at: datetime
    retries: bool
    created_at: datetime


class Ended(NamedTuple):
    """How an attempt ended (WebhookDelivery's columns of these names), then the claim it
    was sent under (matched against due_at: recorded only while that claim holds it) and
    its key, as update_rows takes them."""

    status: str
    sent_at: datetime
    response_status: int | None
    response_body: str | None
    error: str | None
    duration_ms: int | None
    next_retry_at: datetime | None
    lease: datetime | None
    id: str


def _columns(names: Sequence[str]) -> tuple[Field, ...]:
    """WebhookDelivery's columns of these names, in their order."""
    return tuple(getattr(WebhookDelivery, name) for name in names)


_NEW = _columns(NewAttempt._fields)
_ENDED = _columns(Ended._fields[:-2])  # the lease matched, then the key: update_rows' own


def attempt_row(endpoint_id: str, event_id: str, event_type: str, attempt: int, now: datetime, *,
                 due: datetime | None = None, retries: bool = True,
                 taken_until: datetime | None = None) -> NewAttempt:
    """A new attempt, `pending` until `due` (now), or already taken by the worker that
    writes it (`sending` until `taken_until`)."""
    status, due_at = ("sending", taken_until) if taken_until else ("pending", due or now)
    return NewAttempt(new_id("whd"), endpoint_id, event_id, event_type, attempt, status, to_db(due_at), retries,
                      to_db(now))


def write_attempts(rows: Sequence[NewAttempt]) -> list[str]:
    """Write these attempts in one statement; their ids."""
    insert_rows(_NEW, rows)
    return [row.id for row in rows]


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


def record_many(outcomes: Sequence[tuple[Attempt, Outcome]], now: datetime, runtime: Runtime, *,
                beyond_contract: bool = True) -> list[str | None]:
    """Store what attempts (Attempt, Outcome) got back: plan each retry, move the
    endpoints' failure streaks, disable one after seven days of failures. Only an attempt
    still `sending` is recorded (one recorded already, by a worker whose claim it
    outlived, is left as it is). Returns the planned retries' ids (None where none is
    planned).

    With `beyond_contract` (v1.3, beyond the contract), a receiver may also say "gone"
    (410: the endpoint is disabled at once, `endpoint_gone`, its owner told and its
    pending attempts cancelled) or "later" (429 or 503 with Retry-After: the next attempt
    is not sent before then, at most 24 hours on; still the schedule's next attempt).

    Within one call, one answer can never lose another's: the batch is one transaction,
    and should it fail, each outcome is recorded alone; one that still fails is recorded
    with its status only and the fault as its error (`unrecordable`). A fault even then
    is the database's, not the answer's: it is raised once the others are recorded (and
    what the job had not recorded yet is sent again when its claim runs out)."""
    try:
        return _record(outcomes, now, runtime, beyond_contract)
    except Exception:
        if len(outcomes) < 2:
            return _record_alone(outcomes[0], now, runtime, beyond_contract) if outcomes else []
        logger.warning("recording %d webhook outcomes together failed; recording each alone", len(outcomes),
                    exc_info=True)
    planned: list[str | None] = []
    faults: list[Exception] = []
    for pair in outcomes:
        try:
            planned += _record_alone(pair, now, runtime, beyond_contract)
        except Exception as exc:
            faults.append(exc)
            planned.append(None)
    if faults:
        raise faults[0]
    return planned


def _record_alone(pair: tuple[Attempt, Outcome], now: datetime, runtime: Runtime,
                  beyond_contract: bool) -> list[str | None]:
    attempt, outcome = pair
    try:
        return _record([pair], now, runtime, beyond_contract)
    except Exception as exc:
        logger.warning("webhook delivery %s: its answer could not be recorded; recording its status alone",
                    attempt.delivery_id, exc_info=True)
        return _record([(attempt, unrecordable(outcome, exc))], now, runtime, beyond_contract)


def unrecordable(outcome: Outcome, fault: Exception) -> Outcome:
    """What is kept of an answer whose recording failed: its status, how long it took,
    and the fault as its error; nothing else the receiver sent."""
    status = outcome.status if isinstance(outcome.status, int) and 100 <= outcome.status <= 999 else None
    return Outcome(status, duration_ms=outcome.duration_ms if isinstance(outcome.duration_ms, int) else 0,
                   error=f"the answer could not be recorded ({type(fault).__name__}); only its status was kept")


def _record(outcomes: Sequence[tuple[Attempt, Outcome]], now: datetime, runtime: Runtime,
            beyond_contract: bool) -> list[str | None]:
    """record_many's work, in one transaction."""
    gone = {attempt.endpoint_id for attempt, outcome in outcomes
            if rules.says_gone(outcome.status, beyond_contract)}
    with write_transaction():
        ended: list[Ended] = []
        planned: dict[str, NewAttempt] = {}
        for attempt, outcome in outcomes:
            retry_at = rules.next_attempt_at(attempt.attempt, attempt.retries, outcome.succeeded, outcome.status,
                                                 outcome.retry_after, now, gone=attempt.endpoint_id in gone,
                                                 beyond_contract=beyond_contract)
            if retry_at is not None:
                planned[attempt.delivery_id] = attempt_row(attempt.endpoint_id, attempt.event_id, attempt.event_type,
                                                            attempt.attempt + 1, now, due=retry_at)
            ended.append(Ended(rules.ended(outcome.succeeded), to_db(now), outcome.status,
                               response_text(outcome.body), storable(outcome.error, ERROR_TEXT_LIMIT),
                               outcome.duration_ms, to_db(retry_at) if retry_at else None,
                               to_db(attempt.lease) if attempt.lease else None, attempt.delivery_id))
        recorded = update_rows(_ENDED, ended, only_if=(WebhookDelivery.status, "sending"),
                               matching=(WebhookDelivery.due_at,))
        write_attempts([row for delivery_id, row in planned.items() if delivery_id in recorded])
        # The endpoints' rows are locked: two workers recording for one endpoint take
        # turns, so a streak is moved (and an owner told) once. Their keys are kept: the
        # retries just inserted hold KEY SHARE on them, as another worker's may.
        owners = {endpoint.id: endpoint for endpoint in lock_for_update(WebhookEndpoint.select(
            WebhookEndpoint.id, WebhookEndpoint.active, WebhookEndpoint.failing_since, WebhookEndpoint.warned_at)
            .where(WebhookEndpoint.id.in_({a.endpoint_id for a, _ in outcomes if a.delivery_id in recorded}))
            .order_by(WebhookEndpoint.id), keys_kept=True)}
        for attempt, outcome in outcomes:
            if attempt.delivery_id in recorded and attempt.endpoint_id in owners:
                _streak(owners[attempt.endpoint_id], outcome.succeeded, now, runtime)
        for endpoint_id in {attempt.endpoint_id for attempt, outcome in outcomes
                            if attempt.delivery_id in recorded and attempt.endpoint_id in gone} & set(owners):
            _gone(owners[endpoint_id], now, runtime)  # only a 410 this call recorded
    return [planned[attempt.delivery_id].id if attempt.delivery_id in recorded and attempt.delivery_id in planned
            else None for attempt, _ in outcomes]


def _streak(endpoint: WebhookEndpoint, succeeded: bool, now: datetime, runtime: Runtime) -> None:
    """Move the endpoint's failure streak (outcomes.streak_move); `endpoint` (as read in
    this transaction) is kept up to date, so several outcomes of one batch see each other."""
    move = rules.streak_move(endpoint.active, from_db(endpoint.failing_since), endpoint.warned_at is not None,
                                 succeeded, now)
    if move.changes:
        values = {name: to_db(value) if isinstance(value, datetime) else value for name, value in move.changes.items()}
        WebhookEndpoint.update(**values).where(WebhookEndpoint.id == endpoint.id).execute()
        for name, value in values.items():
            setattr(endpoint, name, value)
    if move.notice is not None:
        runtime.endpoint_notice(endpoint.id, move.notice)


def _gone(endpoint: WebhookEndpoint, now: datetime, runtime: Runtime) -> None:
    """The receiver answered 410 Gone: the endpoint stops at once (its row is locked by
    the caller), its owner is told, and its pending attempts end unsent."""
    if endpoint.active:
        (WebhookEndpoint.update(active=False, disabled_reason=GONE, updated_at=to_db(now))
         .where(WebhookEndpoint.id == endpoint.id).execute())
        endpoint.active = False
        runtime.endpoint_notice(endpoint.id, "gone")
    (WebhookDelivery.update(status="failed", error="not sent: the receiver answered 410 Gone; the endpoint is "
                                                   "disabled", next_retry_at=None)
     .where(WebhookDelivery.endpoint == endpoint.id, WebhookDelivery.status == "pending").execute())


def response_text(body: bytes | None) -> str:
    """At most 1 KB of the receiver's answer as text a database can hold, cut on a
    character boundary. Bytes that are not UTF-8 show as U+FFFD, as a browser shows
    them (never dropped: `a\\xed\\xa0\\x80b` is not `ab`); a character the 1 KB cut in
    two is left out whole."""
    body = body or b""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    # Not final when cut: the cut character's first bytes wait for the rest, and are dropped.
    text = decoder.decode(body[:RESPONSE_TEXT_LIMIT], final=len(body) <= RESPONSE_TEXT_LIMIT)
    return storable(text, RESPONSE_TEXT_LIMIT) or ""


def storable(text: str | None, limit: int) -> str | None:
    """`text` as every database can store it, in at most `limit` UTF-8 bytes: NUL
    (PostgreSQL's text refuses it) becomes U+FFFD, and what UTF-8 cannot encode
    (a lone surrogate) "?"."""
    if text is None:
        return None
    encoded = text.replace("\x00", "\ufffd").encode("utf-8", errors="replace")
    return encoded[:limit].decode("utf-8", errors="ignore")  # a character cut in two is dropped


def backlog(now: datetime) -> Backlog:
    """Attempts due and not sent (pending, or held by a worker past their claim): how
    many, and how long the oldest has been due."""
    count, oldest = first_tuple(
        WebhookDelivery.select(fn.COUNT(WebhookDelivery.id), fn.MIN(WebhookDelivery.due_at))
        .where(WebhookDelivery.status.in_(("pending", "sending")), WebhookDelivery.due_at <= to_db(now)))
    return Backlog.of(count, oldest, now)


def counts_by_status() -> dict[str, int]:
    """{status: attempts} over the log kept (pending, sending, succeeded, failed)."""
    return dict(tuple_rows(WebhookDelivery.select(WebhookDelivery.status, fn.COUNT(WebhookDelivery.id))
                           .group_by(WebhookDelivery.status)))


def due(now: datetime, limit: int = 1000) -> list[str]:
    """Ids of attempts due now (pending, or claimed by a worker that did not finish)."""
    return [delivery_id for (delivery_id,) in tuple_rows(
            WebhookDelivery.select(WebhookDelivery.id)
            .where(WebhookDelivery.status.in_(("pending", "sending")), WebhookDelivery.due_at <= to_db(now))
            .order_by(WebhookDelivery.due_at).limit(limit))]
