"""Attendance end to end: gunicorn and the Procfile's RQ worker as processes (with Redis;
without it, gunicorn alone runs the jobs on a thread), over real HTTP. Clock events go
in, the worker pairs them, the days come back; the same batch sent in parallel to
several gunicorn workers is stored once; a chunked body over 1 MB is refused. The
processes' log is kept in tests/output/attendance/."""

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import redis
import requests

from tests.e2e.processes import ROOT, e2e_redis_url, flask, stop, wait_for, wait_until_serving
from tests.helpers import free_port

RIYADH = ZoneInfo("Asia/Riyadh")
LOGS = ROOT / "tests" / "output" / "attendance"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    folder = tmp_path_factory.mktemp("attendance")
    redis_url = e2e_redis_url()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/attendance.db", "REDIS_URL": redis_url or ""}
    if redis_url:
        redis.Redis.from_url(redis_url).flushdb()
    flask(env, "db", "upgrade")
    made = json.loads(flask(env, "sandbox", "create", "--country", "SA", "--email", "clock@example.com", "--json"))
    port = free_port()
    LOGS.mkdir(parents=True, exist_ok=True)
    log = open(LOGS / "processes.log", "w")  # gunicorn's and the worker's own log, for when a test breaks
    processes = [subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "3", "wsgi:app"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)]
    if redis_url:
        processes.append(subprocess.Popen([sys.executable, "-m", "flask", "--app", "wsgi", "jobs", "worker"],
                                          cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base)
        yield base, {"Authorization": f"Bearer {made['api_key']}"}
    finally:
        stop(processes)
        log.close()


def clock_event(n, kind, at, person="SBX-001"):
    return {"external_id": f"t-{n}", "employee_ref": {"type": "employee_code", "value": person}, "type": kind,
            "at": at.isoformat(), "source": "till-7", "branch_ref": "olaya"}


def test_events_in_days_out(service):
    base, headers = service
    # Two days back, so the whole shift is in the past at any hour the test runs.
    day = datetime.now(RIYADH).date() - timedelta(days=2)
    start = datetime.combine(day, datetime.min.time(), RIYADH) + timedelta(hours=22)  # crosses midnight
    sent = requests.post(f"{base}/v1/attendance/events", headers=headers, timeout=10, json={"events": [
        clock_event(1, "clock_in", start), clock_event(2, "break_start", start + timedelta(hours=3)),
        clock_event(3, "break_end", start + timedelta(hours=3, minutes=30)),
        clock_event(4, "clock_out", start + timedelta(hours=8)),
        {**clock_event(5, "clock_in", start), "at": "2026-01-01T08:00:00"},
    ]})
    assert sent.status_code == 207 and "X-Request-Id" in sent.headers
    assert [r["status"] for r in sent.json()["results"]] == ["accepted"] * 4 + ["rejected"]

    def paired_days():  # the worker process pairs them
        return requests.get(f"{base}/v1/attendance", headers=headers, timeout=10,
                            params={"from": day.isoformat(), "to": day.isoformat()}).json()["data"]

    [record] = wait_for(paired_days, 30)
    assert record["date"] == day.isoformat()  # the day the shift started, in Riyadh
    assert (record["worked_minutes"], record["break_minutes"], record["sources"]) == (450, 30, ["partner_api"])
    assert record["shifts"][0]["branch_ref"] == "olaya" and record["shifts"][0]["source_system"] == "till-7"


def test_the_same_batch_sent_to_several_processes_at_once_is_stored_once(service):
    base, headers = service
    at = datetime.now(RIYADH) - timedelta(days=3)
    batch = {"events": [clock_event(f"p-{n}", "clock_in", at + timedelta(minutes=n), f"SBX-{n % 10 + 1:03d}")
                        for n in range(300)]}

    def send(_):
        return requests.post(f"{base}/v1/attendance/events", headers=headers, json=batch, timeout=30)

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(send, range(6)))
    assert [a.status_code for a in answers] == [207] * 6
    for index in range(300):
        column = [a.json()["results"][index] for a in answers]
        assert sorted(c["status"] for c in column) == ["accepted"] + ["duplicate"] * 5
        assert len({c["event_id"] for c in column}) == 1


def test_a_chunked_body_over_1_mb_is_413(service):
    base, headers = service

    def body():
        yield b'{"events": [], "padding": "'
        for _ in range(16):
            yield b" " * 65536
        yield b'x"}'

    response = requests.post(f"{base}/v1/attendance/events", data=body(), timeout=10,
                             headers={**headers, "Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "payload_too_large"


def test_a_chunked_body_within_1_mb_is_read_whole(service):
    base, headers = service
    at = datetime.now(RIYADH) - timedelta(days=2)
    payload = json.dumps({"events": [clock_event("chunked", "clock_in", at)], "padding": " " * 900_000}).encode()

    def body():
        for offset in range(0, len(payload), 65536):
            yield payload[offset:offset + 65536]

    response = requests.post(f"{base}/v1/attendance/events", data=body(), timeout=10,
                             headers={**headers, "Content-Type": "application/json"})
    assert response.status_code == 207 and response.json()["results"][0]["status"] == "accepted"
