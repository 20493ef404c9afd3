"""Finding due work that no queue holds, and doing all due work at once."""

import logging

from app.domain.attendance import days
from app.domain.kernel import events
from app.domain.leave import status as leave_status
from app.domain.people import actions
from app.domain.webhooks import deliveries
from app.extensions import runtime
from app.jobs.attendance import pair_attendance
from app.jobs.outbox import dispatch_events
from app.jobs.queues import job_queue
from app.jobs.webhooks import BATCH, send_deliveries
from app.models.base import connection

log = logging.getLogger(__name__)
EVENT_BATCH = 100  # pending events per dispatch job


def sweep():
    """Every minute: queue what the database says is due and no queue holds: events
    written while Redis was down, clock events not paired yet, clock events whose fate
    falls due, and webhook attempts due (retries, and any a dead worker held). Returns
    how many jobs were queued."""
    now = runtime().now()
    with connection():
        due = events.pending()
        attendance = days.due_for_pairing(now)
        sends = deliveries.due(now)
    queue = job_queue()
    for start in range(0, len(due), EVENT_BATCH):
        queue.enqueue(dispatch_events, due[start:start + EVENT_BATCH])
    for company_id, employee_ids in attendance.items():
        queue.enqueue(pair_attendance, company_id, employee_ids)
    batches = [sends[i:i + BATCH] for i in range(0, len(sends), BATCH)]
    for batch in batches:
        queue.enqueue(send_deliveries, batch)
    if due or attendance or sends:
        log.info("sweeper queued %d pending event(s), the attendance of %d company(ies) and %d webhook "
                 "attempt(s)", len(due), len(attendance), len(sends))
    return len(range(0, len(due), EVENT_BATCH)) + len(attendance) + len(batches)


def run_due():
    """Do all due work now, in this process (`flask --app wsgi jobs run-due`)."""
    current = runtime()
    with connection():
        left = actions.end_due_employments(current)
        on_leave = leave_status.follow_all(current)
        expired = days.expire_unmatched(current)
        paired = [days.settle(company_id, employee_ids, current)
                  for company_id, employee_ids in days.due_for_pairing(current.now()).items()]
        due = events.pending()
    dispatched = dispatch_events(due)
    with connection():
        sends = deliveries.due(current.now())
    sent = send_deliveries(sends) if sends else 0
    return {"employments_ended": left, "leave_statuses_moved": on_leave, "events_dispatched": dispatched,
            "attendance_employees": sum(c["employees"] for c in paired),
            "attendance_rejected": sum(c["rejected"] for c in paired) + expired, "webhooks_sent": sent}
