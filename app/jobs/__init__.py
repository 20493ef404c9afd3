"""Background jobs: thin shells over domain functions, run by RQ or in process.

The database holds all pending work (the outbox); a queue only says "look now". So a
job may run twice, or never until the sweeper finds what it was for: every job here is
idempotent. With Redis, jobs go to RQ and `flask --app wsgi jobs worker` runs them in a
non-forking worker; `flask --app wsgi jobs scheduler` enqueues the periodic ones.
Without Redis, `InProcessRunner` (app/jobs/runner.py) runs the same functions on a
thread of the web process.
"""

import logging

from flask import current_app

from app.domain import bulk
from app.domain.clock import to_db
from app.domain.events import pending
from app.models import OutboxEvent
from app.models.base import connection

log = logging.getLogger(__name__)

# name -> (interval in seconds or None, cron expression in UTC or None)
PERIODIC = {
    "sweep": (60, None),
    # 23:00 UTC is 02:00-03:00 in the Gulf: after the working day everywhere.
    "reconcile": (None, "0 23 * * *"),
}


def _clock():
    return current_app.extensions["clock"]


def dispatch_event(event_id):
    """Hand one outbox event on. Today that is marking it dispatched; webhook delivery
    (one delivery per subscribed endpoint) hooks in here. Idempotent."""
    with connection():
        updated = (
            OutboxEvent.update(dispatched_at=to_db(_clock().now()))
            .where(OutboxEvent.id == event_id, OutboxEvent.dispatched_at.is_null())
            .execute()
        )
    return bool(updated)


def sweep():
    """Every minute: queue what the database says is due and no queue holds, for example
    events written while Redis was down. Returns how many were queued."""
    with connection():
        due = pending()
    jobs = current_app.extensions["jobs"]
    for event_id in due:
        jobs.enqueue(dispatch_event, event_id)
    if due:
        log.info("sweeper queued %d pending event(s)", len(due))
    return len(due)


def reconcile():
    """Nightly: announce what bulk tools changed (app/domain/bulk.py)."""
    with connection():
        counts = bulk.reconcile(_clock())
    log.info("reconciliation wrote %s", counts)
    return counts


def run_due():
    """Do all due work now, in this process (`flask --app wsgi jobs run-due`)."""
    with connection():
        due = pending()
    dispatched = sum(dispatch_event(event_id) for event_id in due)
    return {"events_dispatched": dispatched}


def noop():
    """For bench/jobs: the cost of the machinery alone."""
    return None


JOBS = {"sweep": sweep, "reconcile": reconcile}
