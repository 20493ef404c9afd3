"""The README's run command, as a newcomer runs it: `flask --app wsgi serve` starts
gunicorn on a fresh SQLite file and prints a working sandbox key."""

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from tests.e2e.processes import wait_for, wait_until_serving
from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def serving(folder, later=None, args=(), **env):
    """`flask --app wsgi serve` (2 workers, no Redis) on a fresh SQLite file in `folder`:
    (base URL, printed key, database path, everything printed before serving). What it
    prints after that is appended to `later` once it has stopped."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/serve.db", "REDIS_URL": "", **env}
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "wsgi", "serve", "--port", str(port), "--workers", "2", *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    output, starting = [], []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("console:" in line for line in output):
            line = process.stdout.readline()
            if not line:
                break
            output.append(line)
        printed = "".join(output)
        # Every worker booted (a TERM that reaches one before it sets its own handlers is
        # lost, and gunicorn then waits its 30 s graceful timeout for it).
        booted = 0
        while time.monotonic() < deadline and booted < 2:
            line = process.stdout.readline()
            if not line:
                break
            starting.append(line)
            booted += "Booting worker with pid" in line
        key = re.search(r"sandbox API key: (svc_test_\w+)", printed)
        assert key, printed
        key = key.group(1)
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(base)
        yield base, key, folder / "serve.db", printed
    finally:
        process.terminate()
        rest = process.communicate(timeout=45)[0]  # past gunicorn's graceful timeout, its own end
        if later is not None:
            later.append("".join(starting) + rest)


@pytest.fixture
def served(tmp_path):
    with serving(tmp_path) as running:
        yield running


def test_serve_prints_a_key_that_works_over_http(served):
    base, key, _, _ = served
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
    assert missing.json()["type"] == f"{base}/errors#not_found"  # where serve listens, not a fixed port
    assert requests.get(missing.json()["type"], timeout=5).status_code == 200
    assert requests.get(f"{base}/v1/openapi.json", timeout=5).json()["info"]["title"]


def test_without_redis_the_served_processes_run_the_jobs(served):
    """The embedded default: the sweeper, on a thread of each web process, dispatches
    the demo sandbox's events (ten employee.created, one payroll_run.finalized)."""
    base, key, database, _ = served
    requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"}, timeout=5)

    def all_dispatched():
        with sqlite3.connect(database) as connection:
            pending, total = connection.execute(
                "SELECT SUM(dispatched_at IS NULL), COUNT(*) FROM outbox_event").fetchone()
        return total >= 11 and pending == 0

    assert wait_for(all_dispatched, 30), "the demo sandbox's events were not all dispatched"


def test_serve_prints_a_console_sign_in_that_works(served):
    base, _, _, printed = served
    email, password = re.search(r"console: \S+ \(sign in as (\S+), password (\S+)\)", printed).groups()
    browser = requests.Session()
    form = browser.get(f"{base}/console/sign-in", timeout=5).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    signed_in = browser.post(f"{base}/console/sign-in", timeout=5,
                             data={"email": email, "password": password, "csrf_token": token})
    assert signed_in.url == f"{base}/console/integrations" and "Kuwait Sandbox Trading Co." in signed_in.text


def _sign_in_form(browser, base):
    form = browser.get(f"{base}/console/sign-in", timeout=5).text
    return re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)


def test_each_visitor_of_serve_gets_their_own_csrf_token_and_signs_in(served):
    """No request sees another's `g`: two browsers get two tokens, and both sign in."""
    base, _, _, printed = served
    email, password = re.search(r"console: \S+ \(sign in as (\S+), password (\S+)\)", printed).groups()
    browsers = [requests.Session() for _ in range(4)]
    tokens = [_sign_in_form(browser, base) for browser in browsers]
    assert len(set(tokens)) == len(tokens)
    for browser, token in zip(browsers, tokens, strict=True):
        signed_in = browser.post(f"{base}/console/sign-in", timeout=5,
                                 data={"email": email, "password": password, "csrf_token": token})
        assert signed_in.url == f"{base}/console/integrations", signed_in.text


def test_a_request_of_serve_carries_no_other_requests_rate_limit_headers(served):
    base, key, _, _ = served
    for _ in range(12):  # enough for every worker to have served the key
        known = requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"}, timeout=5)
        assert "X-RateLimit-Remaining" in known.headers
        stranger = requests.get(f"{base}/v1/company", timeout=5)
        assert stranger.status_code == 401
        assert not [name for name in stranger.headers if name.startswith("X-RateLimit")], stranger.headers


def test_without_redis_the_rate_limit_of_serve_holds_exactly_across_its_workers(tmp_path):
    """The contract's limit per key holds in the embedded default: 2 workers share one
    count, so exactly N requests pass, then 429 with Retry-After."""
    with serving(tmp_path, RATE_LIMIT_PER_MINUTE="20") as (base, key, _, _):
        answers = [requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"}, timeout=5)
                   for _ in range(30)]
    statuses = [answer.status_code for answer in answers]
    assert statuses == [200] * 20 + [429] * 10, statuses
    remaining = [int(answer.headers["X-RateLimit-Remaining"]) for answer in answers]
    assert remaining[:20] == list(range(19, -1, -1)) and set(remaining[20:]) == {0}
    assert all(int(answer.headers["Retry-After"]) >= 1 for answer in answers[20:])


def test_a_restart_of_serve_keeps_its_key_and_new_key_replaces_it(tmp_path):
    """A partner's stored key survives a restart; `--new-key` revokes it and prints another;
    either way one demo key works."""
    with serving(tmp_path) as (_, first, database, printed):
        assert "revoked" not in printed and "same as the previous start" not in printed
    with serving(tmp_path) as (base, again, _, printed):
        assert again == first and "(the same as the previous start; --new-key for another)" in printed
        assert requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {first}"},
                            timeout=5).status_code == 200
    with serving(tmp_path, args=("--new-key",)) as (base, second, _, printed):
        assert second != first and "(the key printed by the previous start is revoked)" in printed
        assert requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {first}"},
                            timeout=5).status_code == 401
        assert requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {second}"},
                            timeout=5).status_code == 200
    assert oct((tmp_path / "serve.db.serve-key").stat().st_mode & 0o777) == "0o600"
    assert first not in (tmp_path / "serve.db.serve-key").read_text()  # sealed, not in the clear
    with sqlite3.connect(database) as connection:
        working = connection.execute("SELECT COUNT(*) FROM api_key WHERE name = 'serve command key' "
                                     "AND revoked_at IS NULL").fetchone()[0]
    assert working == 1


def _raw(base, request):
    """Send bytes as they are (no client library would send these) and read the answer."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.decode("latin-1"), body


def test_serve_answers_a_malformed_chunked_body_with_a_problem(served):
    base, key, _, _ = served
    head, body = _raw(base, (
        "POST /v1/attendance/events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        f"Authorization: Bearer {key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        "zz\r\n{}\r\n0\r\n\r\n").encode())
    assert head.startswith("HTTP/1.1 400") and "application/problem+json" in head, head
    assert b"chunked body is malformed" in body


def test_serve_answers_an_over_long_url_with_a_problem(served):
    base, key, _, _ = served
    response = requests.get(f"{base}/v1/employees?entity_id={'x' * 6000}", timeout=5,
                            headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 414 and response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "invalid_request" and "at most 4096" in response.json()["detail"]


def test_without_redis_sign_in_attempts_are_counted_exactly_across_workers(served):
    """10 guesses from one address for one email, then the 11th is refused, whichever of
    the two workers answers each (each counted its own before: 20 passed)."""
    base, _, _, printed = served
    email = re.search(r"sign in as (\S+),", printed).group(1)
    browser = requests.Session()
    statuses = []
    for _ in range(12):
        token = _sign_in_form(browser, base)
        statuses.append(browser.post(f"{base}/console/sign-in", timeout=10,
                                     data={"email": email, "password": "not the password", "csrf_token": token})
                        .status_code)
    assert statuses == [401] * 10 + [429] * 2, statuses


def test_serve_logs_json_lines_and_its_metrics_count_across_workers(tmp_path):
    """LOG_FORMAT=json: every request is one JSON line (no key in it); METRICS_TOKEN: a
    scrape answered by either worker counts the requests both served."""
    token, later = "metrics-token-of-this-test", []
    with serving(tmp_path, later, LOG_FORMAT="json", METRICS_TOKEN=token) as (base, key, _, printed):
        for _ in range(12):
            assert requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"},
                                timeout=5).status_code == 200
        scrapes = [requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {token}"}, timeout=5).text
                   for _ in range(4)]
    assert f"{base}/metrics" in printed
    for scraped in scrapes:  # whichever worker answered
        assert 'partner_api_requests_total{operation="getCompany",status="200"} 12.0' in scraped, scraped[:2000]
    lines = [json.loads(line) for line in later[0].splitlines() if line.strip()]  # gunicorn's own lines too
    served = [line for line in lines if line.get("logger") == "app.request" and line.get("path") == "/v1/company"]
    assert len(served) == 12 and {line["status"] for line in served} == {200}
    assert all(line["credential_id"].startswith("key_") and line["request_id"] for line in served)
    assert key not in "\n".join(map(json.dumps, lines)) and token not in "\n".join(map(json.dumps, lines))
    assert any(line["logger"] == "gunicorn.error" and "Booting worker" in line["message"] for line in lines)


def test_what_gunicorn_refuses_itself_is_a_problem_too(served):
    """A request line past gunicorn's 8,190 characters, or a header past its limit, is
    answered by the worker (app/gunicorn_worker.py) as the API answers, not with HTML."""
    base, key, _, _ = served
    for answer, status in (
            (requests.get(f"{base}/v1/employees?cursor={'x' * 9000}", headers={"Authorization": f"Bearer {key}"},
                          timeout=10), 414),
            (requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}", "X-Big": "y" * 9000},
                          timeout=10), 431)):
        assert answer.status_code == status and answer.headers["Content-Type"] == "application/problem+json"
        body = answer.json()
        assert body["code"] == "invalid_request" and body["status"] == status
        assert body["request_id"] == answer.headers["X-Request-Id"] and body["type"].endswith("#invalid_request")
    long_url = requests.get(f"{base}/v1/employees?cursor={'x' * 5000}", headers={"Authorization": f"Bearer {key}"},
                            timeout=10)  # under gunicorn's limit, over the app's: the app's own problem
    assert long_url.status_code == 414 and long_url.headers["Content-Type"] == "application/problem+json"


def test_serve_on_a_port_in_use_says_so_in_one_line_and_never_says_running(tmp_path):
    """A newcomer met "Partner API running at ..." and then gunicorn's "Connection in use"
    five times: the banner lied, and their requests reached whatever held the port."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/serve.db", "REDIS_URL": ""}
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", "serve", "--port", str(port)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "running" not in done.stdout
    assert done.stderr.strip() == (f"Error: 127.0.0.1:{port} is already in use (another service, or a serve still "
                                   f"running): stop it, or choose another port with --port")
