"""Deliveries: at least once, from the database (DESIGN.md, Webhook delivery).

Each outbox event becomes one delivery per subscribed, active endpoint of its company (a
`ping`: its one endpoint), written in the transaction that marks the event dispatched.
Every attempt is a row: `pending` with the time it is due, `sending` while a worker holds
it (under a claim, until `due_at`: a worker that died leaves it to be claimed again, with
the same event id; taking attempts is claims.py's), then `succeeded` or `failed`, recorded
here only while the claim it was sent under still holds it. A failed attempt plans the
next (attempts 2 to 7 after 1 m, 5 m, 30 m, 2 h, 12 h, 24 h) as a new pending row, and
says when (`next_retry_at`). Redis only says "look now": the drains that run every few
seconds take whatever is due (claims.claim_due).

An endpoint whose deliveries have all failed for seven days since its first failure
(the last attempt failed too) is disabled (`delivery_failures`); after three days its
owner is warned. Both notices are handed on after commit. What each outcome decides
(how it ends, the next attempt, the streak) is outcomes.py's, as pure rules; here they
are applied to the rows.
"""

import codecs
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from peewee import Field, fn

from app.domain.kernel.backlog import Backlog
from app.domain.kernel.clock import from_db, to_db
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.domain.webhooks import outcomes as rules  # what an outcome decides (pure)
from app.models import WebhookDelivery, WebhookEndpoint
from app.models.base import (
    first_tuple,
    insert_rows,
    lock_for_update,
    tuple_rows,
    update_rows,
    write_transaction,
)

TIMEOUT_SECONDS = 10  # Contract, Limits: 2xx within 10 seconds
RESPONSE_TEXT_LIMIT = 1024
ERROR_TEXT_LIMIT = 500  # why an attempt got no answer, as stored
GONE = "endpoint_gone"  # disabled_reason after a 410 (v1.3)

logger = logging.getLogger(__name__)


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
