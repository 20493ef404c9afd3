"""Handing outbox events on (app/domain/kernel/events.py): each becomes one webhook
delivery per subscribed endpoint (app/domain/webhooks/deliveries.py), sent in the same
job. Batching pays: a commit queues a drain of the outbox only while none waits to start,
so a burst of events is one job that takes them in rounds, not a job per event. Nightly,
the events past their 30 days go (the feed's and replay's reach)."""

import logging
import time
from datetime import timedelta

from flask import current_app

from app.domain.kernel import events
from app.domain.webhooks import deliveries
from app.extensions import job_queue, runtime
from app.jobs.webhooks import send_attempts
from app.models.base import connection

log = logging.getLogger(__name__)


def dispatch_events(event_ids):
    """Fan these outbox events out and send their deliveries now (on a few threads, so
    one slow receiver holds up no other). Idempotent: an event already dispatched writes
    nothing. Returns how many events were new."""
    hold = timedelta(seconds=current_app.config["WEBHOOK_CLAIM_SECONDS"])
    with connection():  # written already taken by this worker: no claim, no job of their own
        fresh, attempts = deliveries.fan_out(event_ids, runtime().now(), hold)
    send_attempts(attempts)
    return fresh


DRAIN = "drain_outbox"  # the mark of a queued drain (app/jobs/queues.py, enqueue_once)
DRAIN_BATCH = 500  # events fanned out and sent per round of a drain (~0.2 s to a fast receiver)
DRAIN_SECONDS = 60  # a drain's own limit, far below RQ's job timeout (180 s)


def drain_outbox():
    """Every event not yet dispatched, a round of DRAIN_BATCH at a time, the companies
    taking turns within a round (so another company's event waits for one round of a
    burst, not the whole of it), until none is left. What a commit queues,
    once while a drain waits to start: a burst of events is one job, not one per event,
    and a backlog is never loaded whole. After DRAIN_SECONDS it queues its own sequel and
    stops: a long backlog never meets the queue's job timeout, and other jobs (retries,
    pairing) get their turn. Returns how many events it dispatched."""
    queue = job_queue()
    queue.started(DRAIN)
    dispatched, began = 0, time.monotonic()
    while True:
        with connection():
            batch = events.pending_fairly(DRAIN_BATCH)
        if not batch:
            return dispatched
        fresh = dispatch_events(batch)
        if not fresh:  # another worker dispatched them first, and drains the rest
            return dispatched
        dispatched += fresh
        if time.monotonic() - began > DRAIN_SECONDS:
            queue.enqueue_once(DRAIN, drain_outbox)
            return dispatched


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
