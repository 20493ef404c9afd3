"""Finding due work that no queue holds, and doing all due work at once."""

import logging

from app.domain.attendance import days
from app.domain.kernel import events
from app.domain.leave import status as leave_status
from app.domain.people import actions
from app.domain.webhooks import deliveries
from app.extensions import runtime
from app.jobs.attendance import pair_attendance
from app.jobs.outbox import DRAIN, drain_outbox, drain_rounds
from app.jobs.queues import job_queue
from app.jobs.webhooks import BATCH, send_deliveries
from app.models.base import connection

log = logging.getLogger(__name__)


def sweep():
    """Every minute: queue what the database says is due and no queue holds: events
    written while Redis was down (a drain of the outbox, asked for as a commit asks for
    one: one road from the outbox to a recorded attempt), clock events not paired yet,
    clock events whose fate falls due, and webhook attempts due (retries, and any a dead
    worker held). Returns how many jobs were asked for."""
    now = runtime().now()
    with connection():
        due = bool(events.pending(limit=1))  # any at all: the drain takes them all, round by round
        attendance = days.due_for_pairing(now)
        sends = deliveries.due(now)
    queue = job_queue()
    if due:  # none queued if a drain waits to start already: it takes them
        queue.enqueue_once(DRAIN, drain_outbox)
    for company_id, employee_ids in attendance.items():
        queue.enqueue(pair_attendance, company_id, employee_ids)
    batches = [sends[i:i + BATCH] for i in range(0, len(sends), BATCH)]
    for batch in batches:
        queue.enqueue(send_deliveries, batch)
    if due or attendance or sends:
        log.info("sweeper queued %s, the attendance of %d company(ies) and %d webhook attempt(s)",
                 "a drain of the outbox's pending events" if due else "no drain", len(attendance), len(sends))
    return int(due) + len(attendance) + len(batches)


def run_due():
    """Do all due work now, in this process (`flask --app wsgi jobs run-due`)."""
    current = runtime()
    with connection():
        left = actions.end_due_employments(current)
        on_leave = leave_status.follow_all(current)
        expired = days.expire_unmatched(current)
        paired = [days.settle(company_id, employee_ids, current)
                  for company_id, employee_ids in days.due_for_pairing(current.now()).items()]
    dispatched = drain_rounds(None)[0]  # every pending event, here: no queue is asked
    with connection():
        sends = deliveries.due(current.now())
    sent = send_deliveries(sends) if sends else 0
    return {"employments_ended": left, "leave_statuses_moved": on_leave, "events_dispatched": dispatched,
            "attendance_employees": sum(c["employees"] for c in paired),
            "attendance_rejected": sum(c["rejected"] for c in paired) + expired, "webhooks_sent": sent}
