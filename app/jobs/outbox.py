"""Handing outbox events on (app/domain/kernel/events.py): each becomes one webhook
delivery per subscribed endpoint (app/domain/webhooks/claims.py), sent in the same
job. Batching pays: a commit queues a drain of the outbox only while none waits to start,
so a burst of events is one job that takes them in rounds, not a job per event. A drain
also runs every DRAIN_EVERY seconds on its own (app/jobs/__init__.py): it finds events
written while Redis was down, retries that fell due, and attempts whose worker's claim
ran out (a worker frozen, killed or cut off), so another worker takes those over within
a claim and DRAIN_EVERY. Nightly, the events past their 30 days go (the feed's and
replay's reach)."""

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app

from app.domain.kernel import events
from app.domain.webhooks import claims
from app.domain.webhooks.deliveries import Attempt
from app.extensions import runtime
from app.jobs.queues import JobQueue, job_queue
from app.jobs.webhooks import Round, claim_seconds, send_now
from app.models.base import connection

log = logging.getLogger(__name__)


def dispatch_events(event_ids):
    """Fan these outbox events out and send their deliveries now (on a few threads, so
    one slow receiver holds up no other). Idempotent: an event already dispatched writes
    nothing. Returns how many events were new. What the sweeper queued before the drains
    took every event: a job an older worker left in the queue still runs."""
    with connection():
        fresh, attempts = claims.fan_out(event_ids, runtime().now(), timedelta(seconds=claim_seconds()))
    send_now(attempts)
    return fresh


DRAIN = "drain_outbox"  # the mark of a queued drain (app/jobs/queues.py, enqueue_once)
DRAIN_EVERY = 4  # seconds between the drains that run on their own
DRAIN_BATCH = 500  # events taken per round of a drain (~0.2 s to a fast receiver)
ROUND_ATTEMPTS = 1000  # deliveries per round at most: an event with many endpoints makes a round of fewer events
DUE_ATTEMPTS = 500  # of which attempts due (retries, claims run out) at most
DRAIN_SECONDS = 60  # a drain's own limit, far below RQ's job timeout (180 s)
ROUNDS_AT_ONCE = 4  # rounds sending (or recording, or waiting on a straggler) side by side at most


@dataclass(frozen=True)
class Drained:
    events: int  # events dispatched
    sent: int  # attempts sent
    finished: bool  # whether none was left


def drain_outbox() -> int:
    """Every event not yet dispatched, and every attempt due, a round at a time (at most
    DRAIN_BATCH events and ROUND_ATTEMPTS deliveries), the companies taking turns within
    a round (so another company's event waits for one round of a burst, not the whole of
    it), until none is left. What a commit queues, once while a drain waits to start: a
    burst of events is one job, not one per event, and a backlog is never loaded whole.

    Workers share a backlog: each round is claimed (on PostgreSQL, rows another worker's
    round holds are skipped), and a drain with a full round asks for one more drain, so
    an idle worker joins it. After DRAIN_SECONDS it queues its own sequel and stops: a
    long backlog never meets the queue's job timeout, and other jobs (pairing) get their
    turn. Returns how many events it dispatched."""
    queue = job_queue()
    queue.started(DRAIN)
    drained = drain_rounds(DRAIN_SECONDS, helpers=queue)
    if not drained.finished:
        queue.enqueue_once(DRAIN, drain_outbox)
    return drained.events


def drain_rounds(seconds: float | None, helpers: JobQueue | None = None) -> Drained:
    """drain_outbox's rounds, in this process (`jobs run-due` runs them so, Redis or not:
    it asks for no drain job, and a paced attempt it cannot queue for later is left to the
    drains, due then): until nothing is left, or after `seconds` (None: no limit). With
    `helpers`, the first full round asks it for another drain.

    A round is claimed while the round before it is sent (on a thread of its own), so
    the receivers never wait for the database between rounds, and its lanes start as
    soon as the lanes of the round before end (while that round's last outcomes are
    recorded): an endpoint never has more connections than one round gives it. A lane
    waiting on a hanging receiver does not hold the next round back (after STRAGGLING
    seconds): that endpoint's attempts in the rounds after are given back, due once the
    hanging answer has had its time. A round whose claim has run half its time by the
    time it is sent (it waited on a slow round) has its claim renewed first."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's app, for the sending thread
    lease = timedelta(seconds=claim_seconds())
    dispatched, sent, began, finished, asked = 0, 0, time.monotonic(), True, helpers is None

    def send(round_):
        with app.app_context():
            return round_.send()

    with ThreadPoolExecutor(max_workers=ROUNDS_AT_ONCE) as sender:
        rounds: Rounds = {}  # rounds sending
        before: Round | None = None
        while True:
            now = runtime().now()
            with connection():
                due = claims.claim_due(now, now + lease, DUE_ATTEMPTS)
                fresh, attempts = claims.fan_out_pending(DRAIN_BATCH, now, now + lease, ROUND_ATTEMPTS - len(due))
            claimed, took = due + attempts, bool(fresh or due)
            if before is not None:
                before.lanes_free.wait()  # the round before has no lane moving: its connections are this round's
            try:  # the rounds that ended; with nothing claimed, all of them (what they give back is due now)
                counted, gave_back = _collect([done for done in rounds if done.done() or not took], rounds)
            except BaseException:  # a round's fault is the drain's; what it claimed for the next is due again
                with connection():
                    claims.release(claimed, runtime().now())
                raise
            sent += counted
            if not took:
                if gave_back:
                    continue  # claimed again at once
                break
            dispatched += fresh
            if claimed:  # (none, for events no endpoint listens to)
                before = _send_round(claimed, now, lease, rounds, sender, send)
            if not asked and (fresh >= DRAIN_BATCH or len(claimed) >= ROUND_ATTEMPTS // 2):
                helpers.enqueue_once(DRAIN, drain_outbox)  # type: ignore[union-attr]  # room for another worker
                asked = True
            if seconds is not None and time.monotonic() - began > seconds:
                finished = False
                break
        sent += _collect(list(rounds), rounds)[0]  # what they give back due now is the sequel's
    return Drained(dispatched, sent, finished)


Rounds = dict[Future[tuple[int, list[Attempt]]], Round]


def _send_round(claimed: list[Attempt], claimed_at: datetime, lease: timedelta, rounds: Rounds,
                sender: ThreadPoolExecutor, send: Callable[[Round], tuple[int, list[Attempt]]]) -> Round:
    """Start sending a round on `sender`, added to `rounds`: its claim renewed first if it
    waited on a slow round for half of it, and its attempts to endpoints the rounds
    still sending straggle on held back."""
    if runtime().now() > claimed_at + lease / 2:
        with connection():
            claimed = claims.renew(claimed, runtime().now() + lease)
    round_ = Round(claimed, frozenset().union(*(running.straggling for running in rounds.values())))
    rounds[sender.submit(send, round_)] = round_
    return round_


def _collect(ended: list[Future[tuple[int, list[Attempt]]]], rounds: Rounds) -> tuple[int, bool]:
    """Take these rounds out of `rounds`, once each has ended (its fault raised): (how
    many they sent, whether any gave attempts back due now)."""
    sent, gave_back = 0, False
    for future in ended:
        del rounds[future]
        count, released = future.result()
        sent, gave_back = sent + count, gave_back or bool(released)
    return sent, gave_back


def dispatch_event(event_id):
    """One event: what a commit queued before drains were (a job an older worker left in
    the queue still runs), and what tests hand a worker. Returns whether it was new."""
    return dispatch_events([event_id]) == 1


def prune_events():
    """Daily: delete the events older than 30 days, with their deliveries."""
    with connection():
        removed = events.prune(runtime().now())
    if removed:
        log.info("pruned %d event(s) older than %d days from the outbox", removed, events.EVENT_DAYS)
    return removed
