"""Finding due work that no queue holds, and doing all due work at once."""

import logging

from app.domain.attendance import days
from app.domain.leave import status as leave_status
from app.domain.people import actions
from app.extensions import runtime
from app.jobs.attendance import pair_attendance
from app.jobs.outbox import drain_rounds
from app.jobs.queues import job_queue
from app.models.base import connection

log = logging.getLogger(__name__)


def sweep():
    """Every minute: queue what the database says is due and no queue holds: clock events
    not paired yet, and clock events whose fate falls due. (Events and webhook attempts
    are the drains', which run every few seconds on their own: app/jobs/outbox.py.)
    Returns how many jobs were asked for."""
    with connection():
        attendance = days.due_for_pairing(runtime().now())
    queue = job_queue()
    for company_id, employee_ids in attendance.items():
        queue.enqueue(pair_attendance, company_id, employee_ids)
    if attendance:
        log.info("sweeper queued the attendance of %d company(ies)", len(attendance))
    return len(attendance)


def run_due():
    """Do all due work now, in this process (`flask --app wsgi jobs run-due`)."""
    current = runtime()
    with connection():
        left = actions.end_due_employments(current)
        on_leave = leave_status.follow_all(current)
        expired = days.expire_unmatched(current)
        paired = [days.settle(company_id, employee_ids, current)
                  for company_id, employee_ids in days.due_for_pairing(current.now()).items()]
    drained = drain_rounds(None)  # every pending event and due attempt, here (no drain job is asked for)
    return {"employments_ended": left, "leave_statuses_moved": on_leave, "events_dispatched": drained.events,
            "attendance_employees": sum(c["employees"] for c in paired),
            "attendance_rejected": sum(c["rejected"] for c in paired) + expired, "webhooks_sent": drained.sent}
