"""The README's run command, as a newcomer runs it: `flask --app wsgi serve` starts
gunicorn on a fresh SQLite file and prints a working sandbox key."""

import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/serve.db", "REDIS_URL": ""}
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "wsgi", "serve", "--port", str(port), "--workers", "2"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    output = []
    try:
        deadline = time.monotonic() + 60
        key = None
        while key is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            output.append(line)
            match = re.search(r"sandbox API key: (svc_test_\w+)", line)
            key = match.group(1) if match else None
        assert key, "".join(output)
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):  # wait for gunicorn to bind, bounded
            try:
                requests.get(f"{base}/errors", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.05)
        yield base, key, tmp_path / "serve.db"
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_serve_prints_a_key_that_works_over_http(served):
    base, key, _ = served
    headers = {"Authorization": f"Bearer {key}"}
    company = requests.get(f"{base}/v1/company", headers=headers, timeout=5)
    assert company.status_code == 200 and company.json()["sandbox"] is True
    assert company.headers["X-RateLimit-Limit"] == "600"
    employees = requests.get(f"{base}/v1/employees", headers=headers, timeout=5).json()
    assert len(employees["data"]) == 10
    run = requests.get(f"{base}/v1/payroll-runs", headers=headers, timeout=5).json()["data"][0]
    assert requests.get(f"{base}/v1/payroll-runs/{run['id']}", headers=headers, timeout=5).status_code == 200
    missing = requests.get(f"{base}/v1/employees/nope", headers=headers, timeout=5)
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
    assert requests.get(f"{base}/v1/openapi.json", timeout=5).json()["info"]["title"]


def test_without_redis_the_served_processes_run_the_jobs(served):
    """The embedded default: the sweeper, on a thread of each web process, dispatches
    the demo sandbox's events (ten employee.created, one payroll_run.finalized)."""
    base, key, database = served
    requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"}, timeout=5)
    deadline = time.monotonic() + 30
    while True:  # waiting on other processes, bounded; no test clock to move here
        with sqlite3.connect(database) as connection:
            pending, total = connection.execute(
                "SELECT SUM(dispatched_at IS NULL), COUNT(*) FROM outbox_event").fetchone()
        if total >= 11 and pending == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert total >= 11 and pending == 0
