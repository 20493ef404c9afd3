"""Helpers that tests of several modules share (fixtures live in the conftest files;
starting the service's processes is tests/e2e/processes.py's)."""

import json
import socket
import threading
import traceback

from rq import Queue
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from app.domain.attendance.days import due_for_pairing, settle
from app.domain.webhooks import claims, deliveries
from app.jobs.outbox import dispatch_event
from app.jobs.queues import QUEUE_NAME, RQJobs
from app.jobs.webhooks import send_deliveries
from app.jobs.worker import Worker
from app.models import AttendanceDay, Employee, OutboxEvent

WEBHOOK_EVENTS = ["employee.created", "employee.updated", "employee.left"]


def pending_deliveries(now):
    """The deliveries of every event not dispatched yet, written as a worker writes them
    and then given back unsent: pending and due, not sent. Their ids."""
    events = [event.id for event in OutboxEvent.select(OutboxEvent.id).where(OutboxEvent.dispatched_at.is_null())]
    _, attempts = claims.fan_out(events, now)
    claims.release(attempts, now)
    return [attempt.delivery_id for attempt in attempts]


def assert_problem(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith(f"/errors#{code}")
    assert body["request_id"] == response.headers["X-Request-Id"]
    return body


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ok(result):
    assert result.exit_code == 0, result.output
    return result.output


def refused(result, words):
    assert result.exit_code != 0 and words in result.output, result.output
    assert "Traceback" not in result.output


def outbox(company):
    """The company's events as envelopes, oldest first (ties, at one frozen instant, in
    no particular order)."""
    rows = OutboxEvent.select().where(OutboxEvent.company == company.id).order_by(OutboxEvent.created_at)
    return [json.loads(row.payload) for row in rows]


def event_ids(company):
    return {event["id"] for event in outbox(company)}


def new_events(company, seen):
    """Events written since `seen = event_ids(company)`."""
    return [event for event in outbox(company) if event["id"] not in seen]


def staff(sandbox, number="SBX-004"):
    return Employee.get(Employee.company == sandbox.id, Employee.staff_number == number)


def punch(n, kind, at, source="acme-pos", person="SBX-001", **extra):
    return {"external_id": f"p-{n}", "employee_ref": {"type": "employee_code", "value": person}, "type": kind,
            "at": at, "source": source, **extra}


def settle_due(runtime):
    """What the sweeper and the jobs it queues do."""
    for company_id, employee_ids in due_for_pairing(runtime.now()).items():
        settle(company_id, employee_ids, runtime)


def settle_later(runtime):
    """Settle once every fate is due: 16 hours after the events arrived."""
    runtime.clock.advance(hours=16, minutes=1)
    settle_due(runtime)


def days_of(company, person="SBX-001"):
    employee = staff(company, person)
    rows = AttendanceDay.select().where(AttendanceDay.employee == employee.id).order_by(AttendanceDay.date)
    return {row.date.isoformat(): json.loads(row.record) for row in rows}


def rejections(company):
    rows = OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.type == "attendance.rejected")
    return sorted((json.loads(row.payload)["data"] for row in rows), key=lambda d: d["external_id"])


def run_queued_jobs(app):
    """What the Procfile's worker does (RQ), or the in-process runner without Redis."""
    runner = app.extensions["jobs"]
    if isinstance(runner, RQJobs):
        redis = app.extensions["redis"]
        queue = Queue(QUEUE_NAME, connection=redis)
        # What RQ's scheduler does, by the app's clock (the test's): jobs queued for later
        # whose time has come join the queue.
        later = ScheduledJobRegistry(queue=queue)
        for job_id in later.get_jobs_to_schedule(int(app.extensions["runtime"].now().timestamp())):
            queue.enqueue_job(Job.fetch(job_id, connection=redis))
            later.remove(job_id)
        Worker([queue], connection=redis).work(burst=True)
    else:
        runner.run_pending()


def create_webhook(client, headers, url, events=WEBHOOK_EVENTS):
    return client.post("/v1/webhooks", headers=headers, json={"url": url, "events": events})


def deliver_all(app):
    """What the worker does: fan events out, then send every due attempt (one at a time,
    inside the test's transaction)."""
    with app.app_context():
        for event in OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null()):
            dispatch_event(event.id)
        for delivery_id in deliveries.due(app.extensions["runtime"].now()):
            send_deliveries([delivery_id])


CONTRACT_NAMES = {"getCompany", "listEmployees", "getEmployee", "listPayrollRuns", "getPayrollRun",
                  "ingestAttendanceEvents", "listAttendanceDays", "listWebhookEndpoints", "createWebhookEndpoint",
                  "getWebhookEndpoint", "updateWebhookEndpoint", "deleteWebhookEndpoint", "sendTestWebhook",
                  "listWebhookDeliveries", "redeliverWebhook"}
# What this service adds past the contract (x-release v1.3; README and docs/reference/beyond-the-contract.md).
ADDITION_NAMES = {"replayWebhookEvents", "listEventTypes", "rotateWebhookSecret", "listEvents", "getEvent",
                  "listJournalAccounts", "listJournalEntries", "triggerSandboxEvent", "listLeave",
                  "listLeaveBalances", "getCredential", "resetSandbox"}


def one_won(outcomes, refusal):
    """Exactly one outcome succeeded, and every other is `refusal` (not a 500 in waiting)."""
    failures = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert len(failures) == len(outcomes) - 1, outcomes
    unexpected = [failure for failure in failures if not isinstance(failure, refusal)]
    assert not unexpected, "".join(line for failure in unexpected for line in traceback.format_exception(failure))


def one_each(*moves):
    """A function that does the next of `moves` each time it is called (one per thread)."""
    waiting, taking = iter(moves), threading.Lock()

    def one():
        with taking:
            move = next(waiting)
        return move()

    return one
