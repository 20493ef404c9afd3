"""Handing outbox events on (app/domain/kernel/events.py): each becomes one webhook
delivery per subscribed endpoint (app/domain/webhooks/deliveries.py), sent in the same
job. Batching pays: a commit queues a drain of the outbox only while none waits to start,
so a burst of events is one job that takes them in rounds, not a job per event; the
minute's sweeper asks for a drain the same way (app/jobs/sweeper.py). Nightly, the
events past their 30 days go (the feed's and replay's reach)."""

import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta

from flask import current_app

from app.domain.kernel import events
from app.domain.webhooks import deliveries
from app.domain.webhooks.deliveries import Attempt
from app.extensions import runtime
from app.jobs.queues import job_queue
from app.jobs.webhooks import send_attempts
from app.models.base import connection

log = logging.getLogger(__name__)


def fan_out(event_ids: list[str], budget: int | None = None, hold_rounds: int = 1) -> tuple[int, list[Attempt]]:
    """Mark these outbox events dispatched and write their deliveries, taken by this
    worker (no claim, no job of their own) for `hold_rounds` claims. With a `budget`,
    only the events whose deliveries fit in it (always the first). (how many events
    were new, their Attempts)."""
    hold = timedelta(seconds=current_app.config["WEBHOOK_CLAIM_SECONDS"] * hold_rounds)
    with connection():
        return deliveries.fan_out(event_ids, runtime().now(), hold, budget)


def dispatch_events(event_ids):
    """Fan these outbox events out and send their deliveries now (on a few threads, so
    one slow receiver holds up no other). Idempotent: an event already dispatched writes
    nothing. Returns how many events were new. What the sweeper queued before it asked
    for drains: a job an older worker left in the queue still runs."""
    fresh, attempts = fan_out(event_ids)
    send_attempts(attempts)
    return fresh


DRAIN = "drain_outbox"  # the mark of a queued drain (app/jobs/queues.py, enqueue_once)
DRAIN_BATCH = 500  # events taken per round of a drain (~0.2 s to a fast receiver)
ROUND_ATTEMPTS = 1000  # deliveries per round at most: an event with many endpoints makes a round of fewer events
DRAIN_SECONDS = 60  # a drain's own limit, far below RQ's job timeout (180 s)
ROUNDS_AT_ONCE = 4  # rounds sending (or recording, or waiting on a straggler) side by side at most


class _LanesFree:
    """Set by a round when none of its lanes is moving; says which endpoints' lanes
    still wait on an answer (a hanging receiver)."""

    def __init__(self):
        self._set, self.straggling = threading.Event(), set()

    def done(self, straggling):
        if not self._set.is_set():
            self.straggling.update(straggling)
            self._set.set()

    def wait(self):
        self._set.wait()


def drain_outbox() -> int:
    """Every event not yet dispatched, a round at a time (DRAIN_BATCH events, at most
    ROUND_ATTEMPTS deliveries), the companies taking turns within a round (so another
    company's event waits for one round of a burst, not the whole of it), until none is
    left. What a commit queues, once while a drain waits to start: a burst of events is
    one job, not one per event, and a backlog is never loaded whole.

    A round is fanned out while the round before it is sent (on a thread of its own),
    so the receivers never wait for the database between rounds, and its lanes start as
    soon as the lanes of the round before end (while that round's last outcomes are
    recorded): an endpoint never has more connections than one round gives it. A lane
    waiting on a hanging receiver does not hold the next round back (after STRAGGLING
    seconds): that endpoint's attempts in the rounds after are given back, due once the
    hanging answer has had its time.
    A round fanned out early is held for two claims (it waits for the round before, at
    most a lane's time and one attempt's, then is sent within its own).

    After DRAIN_SECONDS it queues its own sequel and stops: a long backlog never meets
    the queue's job timeout, and other jobs (retries, pairing) get their turn. Returns
    how many events it dispatched."""
    queue = job_queue()
    queue.started(DRAIN)
    dispatched, finished = drain_rounds(DRAIN_SECONDS)
    if not finished:
        queue.enqueue_once(DRAIN, drain_outbox)
    return dispatched


def drain_rounds(seconds: float | None) -> tuple[int, bool]:
    """drain_outbox's rounds, in this process and without the queue (`jobs run-due` runs
    them so, Redis or not): until no event is left, or after `seconds` (None: no limit).
    (how many events it dispatched, whether none was left)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's app, for the sending thread
    dispatched, began, finished = 0, time.monotonic(), True

    def send(attempts, lanes_free, hold_back):
        try:
            with app.app_context():
                send_attempts(attempts, lanes_free.done, hold_back)
        finally:
            lanes_free.done(set())

    with ThreadPoolExecutor(max_workers=ROUNDS_AT_ONCE) as sender:
        rounds: dict[Future[None], set[str]] = {}  # round (sending) -> its endpoints whose lanes straggle
        lanes_free = _LanesFree()
        lanes_free.done(set())
        while True:
            with connection():
                batch = events.pending_fairly(DRAIN_BATCH)
            fresh, attempts = fan_out(batch, ROUND_ATTEMPTS, hold_rounds=2) if batch else (0, [])
            lanes_free.wait()  # the round before has no lane moving: its connections are this round's
            for ended in [sent for sent in rounds if sent.done()]:
                del rounds[ended]
                ended.result()  # a round's fault is the drain's
            if not fresh:  # none left, or another worker dispatched them first and drains the rest
                break
            dispatched += fresh
            hold_back = frozenset().union(*rounds.values())
            lanes_free = _LanesFree()
            rounds[sender.submit(send, attempts, lanes_free, hold_back)] = lanes_free.straggling
            if seconds is not None and time.monotonic() - began > seconds:
                finished = False
                break
        for sent in rounds:
            sent.result()
    return dispatched, finished


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
