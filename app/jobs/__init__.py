"""Background jobs: thin shells over domain functions, run by RQ or in process.

The database holds all pending work (the outbox, unpaired clock events); a queue only
says "look now". So a job may run twice, or never until a periodic job (the drain every
few seconds, the sweeper every minute) finds what it was for: every job is idempotent.
With Redis, jobs go to RQ and `flask --app wsgi jobs worker` runs them in a non-forking
worker; `flask --app wsgi jobs scheduler` enqueues the periodic ones. Without Redis,
`InProcessRunner` (app/jobs/queues.py) runs the same functions on a thread of the web
process.

One module per family: `outbox` (fanning events out into webhook deliveries, and the
events' 30-day retention),
`webhooks` (sending them, owner notices, the log's retention), `attendance` (pairing and
expiring clock events), `employments` (ending those whose last day has come, hourly),
`leave` (employees' status following their approved leave, hourly),
`reconcile` (the nightly announcement of bulk changes), `idempotency` (the nightly
pruning of POSTs' Idempotency-Keys past their 24 hours),
`sweeper` (finding attendance no queue holds). Jobs reach the app's Runtime and queue
through `app.extensions.runtime()` and `app.jobs.queues.job_queue()`: they run inside an
app context.
"""

from dataclasses import dataclass

from app.jobs import attendance, employments, idempotency, leave, outbox, reconcile, sweeper, webhooks


@dataclass(frozen=True)
class Periodic:
    function: object
    every: int | None = None  # seconds
    cron: str | None = None  # in UTC


def periodic(sweep_seconds=60):
    """The periodic jobs, by name; the sweeper runs every `sweep_seconds` (SWEEP_SECONDS)."""
    return {
        "sweep": Periodic(sweeper.sweep, every=sweep_seconds),
        # Events and due webhook attempts no queue holds, and claims whose worker stopped.
        "drain": Periodic(outbox.drain_outbox, every=outbox.DRAIN_EVERY),
        "expire_attendance": Periodic(attendance.expire_attendance, every=300),
        # Hourly: a company's day begins at its own midnight (20:00 or 21:00 UTC in the Gulf).
        "end_employments": Periodic(employments.end_due_employments, cron="5 * * * *"),
        "follow_leave": Periodic(leave.follow_leave, cron="7 * * * *"),
        # 23:00 UTC is 02:00-03:00 in the Gulf: after the working day everywhere.
        "reconcile": Periodic(reconcile.reconcile, cron="0 23 * * *"),
        "prune_deliveries": Periodic(webhooks.prune_deliveries, cron="30 23 * * *"),
        "prune_events": Periodic(outbox.prune_events, cron="45 23 * * *"),
        "prune_idempotency_keys": Periodic(idempotency.prune_idempotency_keys, cron="50 23 * * *"),
    }
