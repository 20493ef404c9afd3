"""Jobs: the outbox is the record of due work, so losing Redis loses nothing."""

import contextlib
import logging
from dataclasses import replace
from datetime import date

import pytest
from rq import Queue
from rq.exceptions import SchedulerNotFound

from app.domain.access.companies import create_company
from app.domain.kernel import events
from app.domain.kernel.runtime import Runtime
from app.domain.people import actions as hr
from app.extensions import connect_redis
from app.jobs import outbox, sweeper
from app.jobs.queues import RQJobs
from app.jobs.worker import Scheduler
from app.models import Company, OutboxEvent, db
from tests.helpers import run_queued_jobs


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


def test_hr_actions_commit_while_redis_is_down_and_the_sweeper_catches_up(app, committed, clock, caplog, runtime):
    dead = RQJobs(connect_redis("redis://127.0.0.1:1/0"))
    redis_down = replace(runtime, on_event_written=lambda event_id: dead.enqueue(outbox.dispatch_event, event_id))
    company = create_company("Outage Co", "OM", clock)
    committed.append(company)
    with caplog.at_level(logging.WARNING):
        employee = hr.hire(company, {"staff_number": "O-1", "name_en": "Salim Al Harthy",
                                     "employment_type": "full_time", "hire_date": date(2026, 1, 1),
                                     "basic_salary_minor": 600_000}, redis_down)
        hr.end_employment(company.id, employee.id, date(2026, 11, 20), redis_down)
    assert "the sweeper will" in caplog.text
    stored = OutboxEvent.select().where(OutboxEvent.company == company.id)
    assert sorted(e.type for e in stored) == ["employee.created", "employee.left"]
    assert all(e.dispatched_at is None for e in stored)

    # Redis is back: the app's own queue.
    assert sweeper.sweep() >= 1  # a dispatch job with ours, and any other pending work in this database
    run_queued_jobs(app)
    assert all(e.dispatched_at is not None for e in OutboxEvent.select().where(OutboxEvent.company == company.id))
    assert sweeper.sweep() == 0


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
