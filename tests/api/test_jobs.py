"""Jobs: the outbox is the record of due work, so losing Redis loses nothing."""

import contextlib
import json
import logging
import time
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from rq import Queue
from rq.exceptions import SchedulerNotFound

from app.domain.access import keys
from app.domain.access.companies import create_company
from app.domain.access.principal import Principal
from app.domain.kernel import events
from app.domain.kernel.clock import from_db
from app.domain.kernel.runtime import Runtime
from app.domain.leave import requests as leave
from app.domain.people import actions as hr
from app.domain.webhooks import endpoints
from app.domain.webhooks.urls import check_url, parse_networks
from app.egress import Sender
from app.extensions import connect_redis
from app.jobs import leave as leave_jobs
from app.jobs import outbox, periodic, sweeper
from app.jobs.queues import InProcessRunner, RQJobs
from app.jobs.worker import Scheduler
from app.models import Company, Employee, OutboxEvent, WebhookDelivery, WebhookEndpoint, db
from tests.helpers import run_queued_jobs
from tests.receivers import Receiver


@pytest.fixture
def committed(app):
    """Work that really commits (the after-commit hooks must fire), removed afterwards."""
    made = []
    with app.app_context():
        db.connect(reuse_if_open=True)
        yield made
        for company in made:
            company.delete_instance(recursive=True)
        db.close()


def test_hr_actions_commit_while_redis_is_down_and_the_periodic_drain_catches_up(app, committed, clock, caplog,
                                                                                 runtime):
    dead = RQJobs(connect_redis("redis://127.0.0.1:1/0"))
    redis_down = replace(runtime, on_event_written=lambda event_id: dead.enqueue(outbox.dispatch_event, event_id))
    company = create_company("Outage Co", "OM", clock)
    committed.append(company)
    with caplog.at_level(logging.WARNING):
        employee = hr.hire(company, {"staff_number": "O-1", "name_en": "Salim Al Harthy",
                                     "employment_type": "full_time", "hire_date": date(2026, 1, 1),
                                     "basic_salary_minor": 600_000}, redis_down)
        hr.end_employment(company.id, employee.id, date(2026, 11, 20), redis_down)
    assert "the periodic jobs will find it" in caplog.text
    stored = OutboxEvent.select().where(OutboxEvent.company == company.id)
    assert sorted(e.type for e in stored) == ["employee.created", "employee.left"]
    assert all(e.dispatched_at is None for e in stored)

    # Redis is back: the drain that runs on its own every few seconds.
    with app.app_context():
        assert periodic()["drain"].function() >= 2  # ours, and any other pending event in this database
        assert all(e.dispatched_at is not None for e in OutboxEvent.select().where(OutboxEvent.company == company.id))
        assert periodic()["drain"].function() == 0


def test_committed_events_are_queued_at_once(app, committed, clock, runtime):
    company = Company.get_by_id(create_company("Prompt Co", "BH", clock).id)
    committed.append(company)
    hr.hire(company, {"staff_number": "P-1", "name_en": "Fatima Janahi", "employment_type": "part_time",
                      "hire_date": date(2026, 2, 1), "basic_salary_minor": 300_000}, runtime)
    run_queued_jobs(app)
    [event] = OutboxEvent.select().where(OutboxEvent.company == company.id)
    assert event.dispatched_at is not None


def test_dispatch_is_idempotent(app, committed, clock, runtime):
    company = create_company("Twice Co", "QA", clock)
    committed.append(company)
    event_id = events.emit(company, "ping", {"webhook_id": "whk_x"}, runtime)
    assert outbox.dispatch_event(event_id) is True
    assert outbox.dispatch_event(event_id) is False


def test_run_due_dispatches_everything_pending(app, committed, clock):
    company = create_company("Manual Co", "KW", clock)
    committed.append(company)
    no_queue = Runtime(clock)  # nothing is handed on: the events wait in the outbox
    for _ in range(3):
        events.emit(company, "ping", {"webhook_id": "whk_x"}, no_queue)
    assert sweeper.run_due()["events_dispatched"] >= 3
    assert sweeper.run_due()["events_dispatched"] == 0


def test_run_due_drains_the_outbox_here_while_redis_is_down(app, committed, clock, monkeypatch):
    """`jobs run-due` is what an operator runs when the workers cannot: it asks no queue."""
    company = create_company("Offline Co", "KW", clock)
    committed.append(company)
    monkeypatch.setitem(app.extensions, "jobs", RQJobs(connect_redis("redis://127.0.0.1:1/0")))
    no_queue = Runtime(clock)
    made = [events.emit(company, "ping", {"webhook_id": "whk_x"}, no_queue) for _ in range(3)]
    assert sweeper.run_due()["events_dispatched"] >= 3
    assert not OutboxEvent.select().where(OutboxEvent.id.in_(made),
                                          OutboxEvent.dispatched_at.is_null())


def test_the_hourly_job_brings_status_to_what_approved_leave_says_and_leaves_hrs_own_alone(app, committed,
                                                                                             clock, runtime):
    """An approved leave that starts on a day ahead makes the employee `on_leave` on
    that day (in Riyadh) and `active` after its last, each an employee.updated; a
    status HR set by hand stays when the leave behind it ends."""
    assert periodic()["follow_leave"].cron == "7 * * * *"
    company = create_company("Away Co", "SA", clock)
    committed.append(company)
    hired = {"employment_type": "full_time", "hire_date": date(2025, 1, 1), "basic_salary_minor": 800_000}
    away = hr.hire(company, {"staff_number": "A-1", "name_en": "Away", **hired}, runtime)
    kept = hr.hire(company, {"staff_number": "A-2", "name_en": "Kept", **hired}, runtime)
    leave.request_leave(company.id, away.id, "annual", date(2026, 11, 22), date(2026, 11, 24), "hr", runtime,
                        approve=True)
    leave.request_leave(company.id, kept.id, "annual", date(2026, 11, 21), date(2026, 11, 24), "hr", runtime,
                        approve=True)  # on leave at once; then HR records a longer absence by hand
    hr.update_employee(company.id, kept.id, {"status": "on_leave"}, runtime)

    def statuses():
        return [Employee.get_by_id(person.id).status for person in (away, kept)]

    def updates():
        rows = OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.type == "employee.updated",
                                          OutboxEvent.payload.contains(away.id)).order_by(OutboxEvent.created_at)
        return [json.loads(row.payload)["data"]["employee"]["status"] for row in rows]

    assert statuses() == ["active", "on_leave"] and updates() == []
    leave_jobs.follow_leave()  # 2026-11-21 12:00 in Riyadh: not yet
    assert statuses() == ["active", "on_leave"] and updates() == []
    clock.set(datetime(2026, 11, 21, 21, 7, tzinfo=UTC))  # 00:07 on the 22nd in Riyadh
    leave_jobs.follow_leave()
    assert statuses() == ["on_leave", "on_leave"] and updates() == ["on_leave"]
    leave_jobs.follow_leave()  # again: nothing more
    assert len(updates()) == 1
    clock.set(datetime(2026, 11, 24, 20, 7, tzinfo=UTC))  # 23:07 on the 24th: the last day still
    leave_jobs.follow_leave()
    assert statuses() == ["on_leave", "on_leave"]
    clock.set(datetime(2026, 11, 24, 21, 7, tzinfo=UTC))  # the 25th: both leaves are over
    leave_jobs.follow_leave()
    assert statuses() == ["active", "on_leave"] and updates() == ["on_leave", "active"]


def test_one_scheduler_leads_and_a_second_stands_by_until_it_stops(shared_redis):
    """Two `jobs scheduler` processes (a second host, a unit started twice) must not
    both enqueue every periodic job: one holds the lock; the other takes over when the
    first stops."""
    queue = Queue("scheduler-test", connection=shared_redis)

    def scheduler():
        made = Scheduler(connection=shared_redis)
        made.register(sweeper.sweep, queue.name, interval=60)
        made.register_birth()  # as start() does
        return made

    first, second = scheduler(), scheduler()
    try:
        assert len(first.enqueue_jobs()) == 1 and first.leading
        assert second.enqueue_jobs() == [] and not second.leading
        assert second.calculate_sleep_interval() == Scheduler.STANDBY_SECONDS  # not a busy loop
        assert first.enqueue_jobs() == [] and first.leading  # renewed; its job is not due again yet
        assert 0 < shared_redis.pttl(Scheduler.LEADER_KEY) <= Scheduler.LEADER_SECONDS * 1000
        first.register_death()  # a stop: the lock is let go at once
        assert len(second.enqueue_jobs()) == 1 and second.leading
        assert queue.count == 2
    finally:
        for made in (first, second):
            with contextlib.suppress(SchedulerNotFound):  # the first already stopped
                made.register_death()
        queue.empty()


def test_a_burst_of_commits_queues_one_drain_that_takes_every_event(app, committed, clock, runtime, monkeypatch):
    """A drain waiting to start takes whatever more is written: ten hires queue one job,
    not ten; once it has started, the next commit queues the next."""
    company = Company.get_by_id(create_company("Burst Co", "KW", clock).id)
    committed.append(company)
    jobs = InProcessRunner(app, {}, autostart=False)  # the app's wiring, with a queue this test can read
    monkeypatch.setitem(app.extensions, "jobs", jobs)
    runtime = replace(runtime, on_event_written=lambda _: jobs.enqueue_once(outbox.DRAIN, outbox.drain_outbox))
    for n in range(10):
        hr.hire(company, {"staff_number": f"B-{n}", "name_en": f"Burst {n}", "employment_type": "full_time",
                          "hire_date": date(2026, 2, 1), "basic_salary_minor": 300_000}, runtime)
    assert [function.__name__ for function, _ in list(jobs._queue.queue)] == ["drain_outbox"]
    jobs.run_pending()
    assert not OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.dispatched_at.is_null())
    hr.hire(company, {"staff_number": "B-10", "name_en": "Burst 10", "employment_type": "full_time",
                      "hire_date": date(2026, 2, 1), "basic_salary_minor": 300_000}, runtime)
    assert [function.__name__ for function, _ in list(jobs._queue.queue)] == ["drain_outbox"]
    jobs.run_pending()


def test_events_no_queue_holds_are_taken_by_the_drain_that_runs_on_its_own(app, committed, clock, monkeypatch):
    """Events no queue holds (written while Redis was down) take the commits' road: the
    drain that runs every few seconds on its own, not a job of the sweeper's."""
    company = Company.get_by_id(create_company("Swept Co", "QA", clock).id)
    committed.append(company)
    no_queue = Runtime(clock)
    for _ in range(250):
        events.emit(company, "ping", {"webhook_id": "whk_x"}, no_queue)
    jobs = InProcessRunner(app, {}, autostart=False)
    monkeypatch.setitem(app.extensions, "jobs", jobs)
    sweeper.sweep()
    assert "drain_outbox" not in [function.__name__ for function, _ in list(jobs._queue.queue)]
    drain = periodic()["drain"]
    assert (drain.function, drain.every) == (outbox.drain_outbox, outbox.DRAIN_EVERY)
    with app.app_context():
        drain.function()
    assert not OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.dispatched_at.is_null())


def test_a_drain_takes_rounds_that_give_every_company_a_place(app, committed, clock, monkeypatch):
    """One company's backlog is dispatched in rounds of DRAIN_BATCH; another company's
    event, made after the whole backlog, goes in the first round."""
    busy, quiet_co = (create_company(name, "KW", clock) for name in ("Busy Co", "Quiet Co"))
    committed.extend([busy, quiet_co])
    no_queue = Runtime(clock)
    backlog = [events.emit(busy, "ping", {"webhook_id": "whk_x"}, no_queue) for _ in range(9)]
    clock.advance(seconds=1)
    lone = events.emit(quiet_co, "ping", {"webhook_id": "whk_y"}, no_queue)
    rounds = []
    real = events.claim_fairly
    monkeypatch.setattr(events, "claim_fairly", lambda limit: rounds.append(real(limit)) or rounds[-1])
    monkeypatch.setattr(outbox, "DRAIN_BATCH", 4)
    with app.app_context():
        assert outbox.drain_outbox() >= 10
    mine = [[event for event in batch if event in {*backlog, lone}] for batch in rounds]
    assert lone in mine[0] and all(len(batch) <= 4 for batch in rounds)
    assert sorted(event for batch in mine for event in batch if event != lone) == sorted(backlog)  # each once


def test_enqueue_once_holds_until_the_job_starts_in_redis_too(shared_redis):
    jobs = RQJobs(shared_redis)
    # A queue of its own: emptying the app's would drop a drain another test queued and
    # leave that drain's mark holding the next one back.
    jobs.queue = Queue("enqueue-once-test", connection=shared_redis)
    jobs.queue.empty()
    jobs.started("test-mark")
    for _ in range(5):
        jobs.enqueue_once("test-mark", outbox.drain_outbox)
    assert jobs.queue.count == 1
    jobs.started("test-mark")
    jobs.enqueue_once("test-mark", outbox.drain_outbox)
    assert jobs.queue.count == 2
    jobs.queue.empty()
    jobs.started("test-mark")


def test_a_long_drain_stops_in_time_and_queues_its_sequel(app, committed, clock, monkeypatch):
    """A backlog longer than DRAIN_SECONDS is drained by a chain of jobs, each well within
    the queue's job timeout (RQ's 180 s killed a 100,000-event drain before this)."""
    company = create_company("Long Co", "KW", clock)
    committed.append(company)
    no_queue = Runtime(clock)
    backlog = [events.emit(company, "ping", {"webhook_id": "whk_x"}, no_queue) for _ in range(5)]
    jobs = InProcessRunner(app, {}, autostart=False)
    monkeypatch.setitem(app.extensions, "jobs", jobs)
    monkeypatch.setattr(outbox, "DRAIN_BATCH", 2)
    monkeypatch.setattr(outbox, "DRAIN_SECONDS", -1)  # out of time after every round
    with app.app_context():
        outbox.drain_outbox()
    assert [function.__name__ for function, _ in list(jobs._queue.queue)] == ["drain_outbox"]
    jobs.run_pending()  # the chain runs to the end
    assert not OutboxEvent.select().where(OutboxEvent.id.in_(backlog), OutboxEvent.dispatched_at.is_null()).exists()


def test_a_hanging_receiver_holds_back_neither_the_next_round_nor_another_companys_event(
        app, committed, clock, runtime, monkeypatch):
    """One company's endpoint hangs on every request; its burst is drained in rounds of
    4 beside another company's endpoint. The other's events all arrive long before the
    hang ends (one answer's time: 4 s here; a round waits on a straggler for 1 s); the
    hanging endpoint gets one connection, its attempts in later rounds are given back for
    after that answer's time."""
    monkeypatch.setitem(app.extensions, "webhook_sender", Sender(parse_networks("127.0.0.0/8"), timeout=4))
    jobs = InProcessRunner(app, {}, autostart=False)
    monkeypatch.setitem(app.extensions, "jobs", jobs)
    monkeypatch.setattr(outbox, "DRAIN_BATCH", 4)
    hanging_co, quiet_co = (create_company(name, "KW", clock) for name in ("Hanging Co", "Quiet Co"))
    committed.extend([hanging_co, quiet_co])
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.dispatched_at.is_null()).execute()
    no_queue = Runtime(clock)
    with Receiver(delay=5) as hanging, Receiver() as fine:
        for company, receiver in ((hanging_co, hanging), (quiet_co, fine)):
            key, _ = keys.create_key(company, ["webhooks:manage"], clock, name="test")
            owner = Principal(kind="api_key", credential_id=key.id, company=company, entities=(),
                              scopes=frozenset({"webhooks:manage"}))
            target = check_url(receiver.url, lambda host, port: [host], parse_networks("127.0.0.0/8"))
            endpoints.create_endpoint(owner, target, ["ping"], runtime)
        OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.dispatched_at.is_null()).execute()
        for _ in range(6):
            events.emit(hanging_co, "ping", {"webhook_id": _endpoint_of(hanging_co)}, no_queue)
        for _ in range(6):
            events.emit(quiet_co, "ping", {"webhook_id": _endpoint_of(quiet_co)}, no_queue)
        began = time.monotonic()
        with app.app_context():
            assert outbox.drain_outbox() == 12
        assert len(fine.requests) == 6 and max(request["at"] for request in fine.requests) - began < 2.5
        assert len(hanging.requests) == 1  # one connection, which hung; the rest were held back
    held = WebhookDelivery.select().where(WebhookDelivery.endpoint == _endpoint_of(hanging_co),
                                          WebhookDelivery.status == "pending")
    assert held.count() >= 1 and all(from_db(row.due_at) > clock.now() for row in held)


def _endpoint_of(company):
    return WebhookEndpoint.get(WebhookEndpoint.company == company.id).id


def test_a_leave_that_began_while_the_job_was_not_running_still_makes_its_employee_on_leave(app, committed, clock,
                                                                                            runtime):
    company = create_company("Late Co", "SA", clock)
    committed.append(company)
    person = hr.hire(company, {"staff_number": "L-1", "name_en": "Late", "employment_type": "full_time",
                               "hire_date": date(2025, 1, 1), "basic_salary_minor": 800_000}, runtime)
    leave.request_leave(company.id, person.id, "annual", date(2026, 11, 22), date(2026, 12, 10), "hr", runtime,
                        approve=True)
    clock.set(datetime(2026, 11, 27, 9, 0, tzinfo=UTC))  # five days in: no job ran since it began
    leave_jobs.follow_leave()
    assert Employee.get_by_id(person.id).status == "on_leave"


def test_a_job_queued_for_later_runs_once_the_apps_clock_reaches_its_time(app, clock):
    """The in-process runner's delayed enqueue: a heap checked against the app's clock,
    not a timer; jobs due together run in the order of their times."""
    ran = []
    jobs = InProcessRunner(app, {}, autostart=False)
    jobs.enqueue_in(2, ran.append, "second")
    jobs.enqueue_in(1, ran.append, "first")
    jobs.run_pending()
    assert ran == []
    clock.advance(seconds=1)
    jobs.run_pending()
    assert ran == ["first"]
    clock.advance(seconds=5)
    jobs.run_pending()
    assert ran == ["first", "second"]


def test_rq_queues_a_job_for_later_at_the_whole_second_after_its_time(shared_redis, clock):
    """RQ's delayed enqueue keeps whole seconds and cuts the fraction off: rounded up
    instead, a job never runs before its time (a paced attempt would not be due yet)."""
    from rq.registry import ScheduledJobRegistry

    jobs = RQJobs(shared_redis, now=clock.now)
    jobs.queue = Queue("enqueue-in-test", connection=shared_redis)
    clock.advance(seconds=0.25)
    jobs.enqueue_in(1.5, outbox.drain_outbox)
    later = ScheduledJobRegistry(queue=jobs.queue)
    [job_id] = later.get_job_ids()
    at = later.get_scheduled_time(job_id)
    assert at.timestamp() == int(clock.now().timestamp()) + 2  # 1.75 s on, rounded up to the second
    later.remove(job_id, delete_job=True)
