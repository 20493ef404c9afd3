"""Two workers share a burst, and a frozen one holds nothing back for longer than its
claim (issue 49): the Procfile's web, scheduler and two workers drain a burst that HR's
own commands wrote (`employees import` + `jobs reconcile`); the busier worker is frozen
(SIGSTOP to its process group: a stalled host, not a dead one) in the middle of it.
Every event still reaches the receiver within the takeover bound (the claim,
WEBHOOK_CLAIM_SECONDS, then a drain's DRAIN_EVERY); once the frozen worker wakes, it
sends nothing more than what it had in flight when it froze, and what arrives twice is
only what it had claimed.
A Redis of its own, and PostgreSQL (.ci/run's second pass): on SQLite a process frozen in
a write transaction holds the one write lock of the host's file, so nothing takes over."""

import json
import os
import signal
import time
from collections import Counter

import pytest
import requests
from redis import Redis
from rq import Worker

from app.jobs.outbox import DRAIN_EVERY, ROUNDS_AT_ONCE
from app.jobs.webhooks import THREADS
from tests.e2e import processes
from tests.e2e.databases import rows
from tests.e2e.processes import flask, procfile_line, staff
from tests.receivers import Receiver

BURST = 3000
CLAIM = 6  # seconds: WEBHOOK_CLAIM_SECONDS here, so the test takes seconds, not the default's 20 + 5


def cpu_seconds(pid):
    """User and system CPU time of a process so far (/proc/PID/stat), in clock ticks."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def stopped(group):
    """Whether every process of a process group is stopped (state T in /proc/PID/stat)."""
    states = []
    for entry in os.listdir("/proc"):
        try:
            fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # not a process, or gone
        if int(fields[2]) == group:
            states.append(fields[0])
    return bool(states) and all(state == "T" for state in states)


@pytest.fixture
def stack(databases):
    if not databases.admin:
        # A process frozen inside SQLite's write transaction holds the file's one write
        # lock: no other process on the host can write until it wakes. Taking over a
        # frozen worker's claims is PostgreSQL's (workers on several hosts); SQLite is one
        # host's, and keeps working as it did.
        pytest.skip("a frozen worker is taken over on PostgreSQL (the PostgreSQL + Redis pass runs this)")
    with processes.procfile_stack(databases, "freeze", WEBHOOK_CLAIM_SECONDS=str(CLAIM)) as made:
        yield made


def test_two_workers_share_a_burst_and_a_frozen_one_holds_nothing_back_past_its_claim(stack, tmp_path):
    env, base, started = stack
    log = open(tmp_path / "processes.log", "w")
    flask(env, "db", "upgrade")
    made = json.loads(flask(env, "sandbox", "create", "--country", "KW", "--email", "freeze@example.com", "--json"))
    started.append(procfile_line("web", env, log))
    processes.wait_until_serving(base)
    with Receiver() as receiver:
        hook = requests.post(f"{base}/v1/webhooks", timeout=10, headers={"Authorization": f"Bearer {made['api_key']}"},
                             json={"url": receiver.url, "events": ["employee.created"]})
        assert hook.status_code == 201, hook.text
        (tmp_path / "staff.csv").write_text(staff(BURST, prefix="F"), encoding="utf-8")
        flask(env, "employees", "import", str(tmp_path / "staff.csv"), "--company", made["company_id"])
        workers = [procfile_line("worker", env, log) for _ in range(2)]
        started.extend([*workers, procfile_line("scheduler", env, log)])
        queue = Redis.from_url(env["REDIS_URL"])
        assert processes.wait_for(lambda: Worker.count(connection=queue) >= 2, 30), "the workers did not start"
        flask(env, "jobs", "reconcile")  # BURST employee.created, each committed and handed to the queue
        expected = {event_id for (event_id,) in rows(env["DATABASE_URL"], (
            "SELECT id FROM outbox_event WHERE type = 'employee.created' AND company_id = "
            f"'{made['company_id']}' AND payload LIKE '%F-0%'"))}
        assert len(expected) == BURST

        assert processes.wait_for(lambda: len(receiver.requests) >= BURST // 5, 60), "the workers sent nothing"
        busy = {worker.pid: cpu_seconds(worker.pid) for worker in workers}
        assert min(busy.values()) > 0.2 * max(busy.values()), busy  # both took part
        busier = max(workers, key=lambda worker: busy[worker.pid])
        os.killpg(busier.pid, signal.SIGSTOP)  # mid-burst, its claims held, outcomes unrecorded
        frozen_at, at_freeze = time.monotonic(), len(receiver.requests)
        assert processes.wait_for(lambda: stopped(busier.pid), 5), "the worker did not stop"
        claimed = {event_id for (event_id,) in rows(env["DATABASE_URL"], (
            "SELECT event_id FROM webhook_delivery WHERE status = 'sending'"))}  # by either worker
        assert at_freeze < BURST, "the burst was over before the freeze: make it larger"

        def arrived():
            whole = Counter()
            for request in list(receiver.requests):
                try:
                    whole[json.loads(request["body"])["id"]] += 1
                except ValueError:
                    pass  # cut short: not a delivery
            return whole

        bound = CLAIM + DRAIN_EVERY + 10  # the claim runs out, the next drain takes it over, then sends it
        assert processes.wait_for(lambda: expected <= set(arrived()), bound + 20), \
            f"{len(expected - set(arrived()))} event(s) had not arrived {bound + 20} s after the freeze"
        took = time.monotonic() - frozen_at
        assert took <= bound, f"the last event arrived {took:.1f} s after the freeze; the bound is {bound} s"

        os.killpg(busier.pid, signal.SIGCONT)  # it wakes, its claims long taken over
        before_waking = sum(arrived().values())
        time.sleep(3)  # what it would still send, it sends now
        after_waking = sum(arrived().values())
    seen = arrived()
    twice = {event_id: n for event_id, n in seen.items() if n > 1}
    # What arrives twice was claimed at the freeze and sent by both: the frozen worker
    # sent it before (its outcome not yet recorded: recording trails sending by up to
    # RECORD_WAIT) or after it woke (a request in flight), and the worker that took the
    # claim over sent it again. Nothing arrives three times, and nothing it had not claimed twice.
    in_flight = THREADS * ROUNDS_AT_ONCE  # one request a lane, in each round a worker sends at once
    assert set(twice) <= claimed and max(seen.values()) <= 2, (set(twice) - claimed, twice)
    assert after_waking - before_waking <= in_flight
    delivered = rows(env["DATABASE_URL"], "SELECT count(*) FROM webhook_delivery WHERE status = 'succeeded' "
                                          f"AND event_id IN (SELECT id FROM outbox_event WHERE company_id = "
                                          f"'{made['company_id']}' AND type = 'employee.created')")[0][0]
    assert delivered >= BURST
    print(f"worker CPU ticks at the freeze {sorted(busy.values())}; froze the busier after {at_freeze} of "
          f"{BURST} arrivals ({len(claimed)} attempts claimed); "
          f"every event arrived {took:.1f} s later (bound {bound} s); "
          f"{len(twice)} arrived twice, {after_waking - before_waking} request(s) after it woke")
    log.close()
