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

from app.domain.attendance import days as attendance_days
from app.domain.kernel.clock import to_db
from app.domain.kernel.events import pending
from app.domain.people import bulk
from app.models import OutboxEvent
from app.models.base import connection

log = logging.getLogger(__name__)

# name -> (interval in seconds or None, cron expression in UTC or None)
PERIODIC = {
    "sweep": (60, None),
    "expire_attendance": (300, None),
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


def pair_attendance(company_id, employee_ids):
    """Re-pair the days these employees' new or 16-hour-old clock events touch
    (app/domain/attendance/days.py). Idempotent."""
    with connection():
        counts = attendance_days.settle(company_id, employee_ids, _clock())
    if counts["rejected"]:
        log.info("attendance of %s: %s", company_id, counts)
    return counts


def expire_attendance():
    """Every 5 minutes: reject clock events unmatched for 72 hours."""
    with connection():
        expired = attendance_days.expire_unmatched(_clock())
    if expired:
        log.info("expired %d unmatched clock event(s)", expired)
    return expired


def sweep():
    """Every minute: queue what the database says is due and no queue holds: events
    written while Redis was down, clock events not paired yet, and clock events whose
    fate falls due. Returns how many jobs were queued."""
    with connection():
        due = pending()
        attendance = attendance_days.due_for_pairing(_clock().now())
    jobs = current_app.extensions["jobs"]
    for event_id in due:
        jobs.enqueue(dispatch_event, event_id)
    for company_id, employee_ids in attendance.items():
        jobs.enqueue(pair_attendance, company_id, employee_ids)
    if due or attendance:
        log.info("sweeper queued %d pending event(s) and the attendance of %d company(ies)", len(due),
                 len(attendance))
    return len(due) + len(attendance)


def reconcile():
    """Nightly: announce what bulk tools changed (app/domain/people/bulk.py)."""
    with connection():
        counts = bulk.reconcile(_clock())
    log.info("reconciliation wrote %s", counts)
    return counts


def run_due():
    """Do all due work now, in this process (`flask --app wsgi jobs run-due`)."""
    clock = _clock()
    with connection():
        expired = attendance_days.expire_unmatched(clock)
        paired = [attendance_days.settle(company_id, employee_ids, clock)
                  for company_id, employee_ids in attendance_days.due_for_pairing(clock.now()).items()]
        due = pending()
    dispatched = sum(dispatch_event(event_id) for event_id in due)
    return {"events_dispatched": dispatched, "attendance_employees": sum(c["employees"] for c in paired),
            "attendance_rejected": sum(c["rejected"] for c in paired) + expired}


def noop():
    """For bench/jobs: the cost of the machinery alone."""
    return None


JOBS = {"sweep": sweep, "reconcile": reconcile, "expire_attendance": expire_attendance}
