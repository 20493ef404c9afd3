"""Starting and stopping the service's processes as an operator's Procfile runner does,
and waiting on them."""

import contextlib
import csv
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]


def procfile(name, env, log):
    """Start the Procfile's own command line `name` (web, worker, scheduler) as a process,
    its `${VAR:-default}`s filled from `env`, its output appended to `log`; in a process
    group of its own, which `stop` ends whole (a worker forks RQ's scheduler)."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith(f"{name}:"))
    command = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: env.get(m.group(1)) or m.group(2),
                     line.split(":", 1)[1]).split()
    command = command[1:] if command[0] == "exec" else command  # the shell's exec: the process itself
    return subprocess.Popen([sys.executable, "-m", *command], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def procfile_line(name, env, log):
    """A Procfile process, as the runner starts it: in a process group of its own (so a
    signal to the group reaches what it forks, RQ's scheduler beside a worker)."""
    command = {"web": ["gunicorn", "-c", "python:app.gunicorn_settings", "wsgi:app"],
               "worker": ["flask", "--app", "wsgi", "jobs", "worker"],
               "scheduler": ["flask", "--app", "wsgi", "jobs", "scheduler"]}[name]
    return subprocess.Popen([str(ROOT / ".venv" / "bin" / command[0]), *command[1:]], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


@contextlib.contextmanager
def procfile_stack(databases, name, **settings):
    """What a Procfile runner's processes share: a Redis of the test's own, a database of
    the suite's engine and the environment, with `settings` over it. Yields (env, the web
    process's base URL, a list to append started processes to); each is killed after,
    with its process group (woken first, if a test froze it)."""
    with redis_server() as redis_port:
        port = free_port()
        env = {**os.environ, "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
               "DATABASE_URL": databases.new(name), "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
               "PORT": str(port), "WEB_CONCURRENCY": "1", "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "127.0.0.0/8",
               "RATE_LIMIT_PER_MINUTE": "100000", **settings}
        started = []
        try:
            yield env, f"http://127.0.0.1:{port}", started
        finally:
            for process in started:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGCONT)
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)


def staff(count, prefix="K"):
    """An `employees import` CSV of `count` people."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["staff_number", "name_en", "employment_type", "hire_date", "basic_salary"])
    for n in range(count):
        writer.writerow([f"{prefix}-{n:05d}", f"Burst Test {n}", "full_time", "2024-01-15", "700.000"])
    return out.getvalue()


def stop(processes, timeout=20):
    """SIGTERM to all at once, then wait for each (a graceful stop each, side by side);
    then what each left of its process group (a child whose parent was killed) goes too."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=timeout)
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # nothing of it is left


def wait_for(check, seconds=15, tolerate=()):
    """`check()`'s first truthy answer within `seconds`, polled every 0.05 s; else its
    last answer. Exceptions of the `tolerate` types count as "not yet"."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = check()
        except tolerate:
            found = None
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(0.05)


@contextlib.contextmanager
def redis_server():
    """A `redis-server` of the test's own on a free port, answering before the block runs
    and stopped after it; yields its port. Skipped where none is installed (see
    require_redis_server)."""
    require_redis_server()
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: redis.Redis(port=port).ping(), 10, tolerate=redis.ConnectionError), "no redis-server"
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def require_redis_server():
    """Skip the test where `redis-server` is missing, unless REDIS_SERVER_REQUIRED=1 (set
    by .ci/run, which installs it): then that is a failure."""
    if shutil.which("redis-server") is None:
        if os.environ.get("REDIS_SERVER_REQUIRED") == "1":
            pytest.fail("redis-server is required (REDIS_SERVER_REQUIRED): apt-get install redis-server")
        pytest.skip("redis-server is not installed")


def flask(env, *args):
    """Run a `flask --app wsgi` command as an operator would; its output."""
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def wait_until_serving(base, seconds=30):
    """Wait, bounded, for gunicorn to bind and answer; fail the test if it never does."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            requests.get(f"{base}/errors", timeout=(1, 10))  # a worker still booting may be slow to answer
            return
        except (requests.ConnectionError, requests.Timeout) as exc:
            if time.monotonic() > deadline:
                pytest.fail(f"nothing answered at {base} within {seconds} s: {exc}")
            time.sleep(0.05)


def e2e_redis_url():
    """A Redis database of its own: the one below the suite's TEST_REDIS_URL (each test
    process has its own two, tests/conftest.py), or None without Redis."""
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        return None
    base, _, suite_db = url.rpartition("/")
    return f"{base}/{int(suite_db) - 1 if int(suite_db) > 0 else 1}"
