"""Nothing lost, nothing doubled beyond at-least-once (issue 36, part 6): the Procfile's
worker is killed (SIGKILL) in the middle of draining a burst that HR's own commands wrote
(`employees import` + `jobs reconcile`); after a new worker starts, every event reaches
the receiver with its event id, and the only events it sees twice are those whose attempt
was in flight when the worker died (their claim runs out and they are sent again).
A Redis of its own; the suite's database engine (PostgreSQL in .ci/run's second pass)."""

import json
import os
import signal
import time
from collections import Counter

import pytest
import requests

from tests.e2e import processes
from tests.e2e.databases import rows
from tests.e2e.processes import flask, procfile_line, staff
from tests.receivers import Receiver

BURST = 1500


@pytest.fixture
def stack(databases):
    with processes.procfile_stack(databases, "kill", SWEEP_SECONDS="1", WEBHOOK_CLAIM_SECONDS="3") as made:
        yield made


def test_a_worker_killed_mid_burst_loses_nothing_and_repeats_only_what_was_in_flight(stack, tmp_path):
    env, base, started = stack
    log = open(tmp_path / "processes.log", "w")
    flask(env, "db", "upgrade")
    made = json.loads(flask(env, "sandbox", "create", "--country", "KW", "--email", "kill@example.com", "--json"))
    web = procfile_line("web", env, log)
    started.append(web)
    processes.wait_until_serving(base)
    with Receiver() as receiver:
        hook = requests.post(f"{base}/v1/webhooks", timeout=10, headers={"Authorization": f"Bearer {made['api_key']}"},
                             json={"url": receiver.url, "events": ["employee.created"]})
        assert hook.status_code == 201, hook.text
        (tmp_path / "staff.csv").write_text(staff(BURST), encoding="utf-8")
        flask(env, "employees", "import", str(tmp_path / "staff.csv"), "--company", made["company_id"])
        flask(env, "jobs", "reconcile")  # BURST employee.created, each committed and handed to the queue
        worker = procfile_line("worker", env, log)
        started.append(worker)
        assert processes.wait_for(lambda: len(receiver.requests) >= BURST // 5, 60), "the worker sent nothing"
        os.killpg(worker.pid, signal.SIGKILL)  # mid-burst, claims held, outcomes unrecorded
        worker.wait(timeout=10)
        at_kill = len(receiver.requests)
        assert at_kill < BURST, "the burst was over before the kill: make it larger"
        for name in ("worker", "scheduler"):  # the sweeper finds what the dead worker held
            started.append(procfile_line(name, env, log))
        expected = {event_id for (event_id,) in rows(env["DATABASE_URL"], (
            "SELECT id FROM outbox_event WHERE type = 'employee.created' AND company_id = "
            f"'{made['company_id']}' AND payload LIKE '%K-0%'"))}
        assert len(expected) == BURST

        def received():
            """Event ids by how often they arrived whole. A request the killed worker was in the
            middle of writing arrives cut short (no body, or part of one): not a delivery."""
            whole = Counter()
            for request in list(receiver.requests):
                try:
                    whole[json.loads(request["body"])["id"]] += 1
                except ValueError:
                    cut.add(id(request))
            return whole

        cut: set[int] = set()

        assert processes.wait_for(lambda: expected <= set(received()), 120), \
            f"{len(expected - set(received()))} event(s) never arrived"
        time.sleep(1)  # nothing more should come
    seen = received()
    twice = {event_id: n for event_id, n in seen.items() if n > 1}
    assert max(seen.values()) <= 2, twice
    in_flight_at_kill = at_kill  # at most the round the worker was sending, never the whole burst
    assert len(twice) <= min(500, in_flight_at_kill), len(twice)
    assert len(cut) <= 16  # at most one request in flight per lane
    print(f"killed after {at_kill} of {BURST} arrivals; {len(twice)} event(s) arrived twice, {len(cut)} cut short")
    log.close()
