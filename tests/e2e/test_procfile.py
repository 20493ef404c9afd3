"""The Procfile under a real Procfile runner (honcho), as a host without systemd runs it:
web, worker and scheduler over the suite's database engine and a Redis of their own.

readyz turns ready once the migrations are applied; an HR change reaches a webhook
receiver; a web reload with HUP under steady load drops no request; SIGTERM stops all
three; a job cut short when the runner stops (honcho kills what has not stopped after 5
seconds) runs again after the restart. Logs: tests/output/procfile/."""

import json
import os
import re
import signal
import subprocess
import sys
import threading

import pytest
import requests

from tests.e2e import processes
from tests.e2e.databases import rows
from tests.e2e.processes import ROOT, flask
from tests.helpers import free_port
from tests.receivers import Receiver

LOGS = ROOT / "tests" / "output" / "procfile"
SECRET_KEY = "a-procfile-test-secret-key-of-more-than-32-chars"


def wait_for(check, seconds=30):
    return processes.wait_for(check, seconds, tolerate=requests.RequestException)


class Honcho:
    """`honcho start` on the Procfile, its output in a log file."""

    def __init__(self, env, log_path):
        self.env, self.log_path, self.process = env, log_path, None

    def start(self):
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen([sys.executable, "-m", "honcho", "--no-colour", "start", "-f", "Procfile",
                                         "-p", self.env["PORT"]], cwd=ROOT, env=self.env, stdout=self.log,
                                        stderr=subprocess.STDOUT)

    def stop(self, timeout=30):
        """SIGTERM, as systemd or a shell's Ctrl-C would; the runner's exit status."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self.log.close()

    def output(self):
        return self.log_path.read_text()


def gunicorn_processes(runner_pid):
    """(master pid, {worker pids}) of the gunicorn the runner started."""
    listed = subprocess.run(["ps", "-ww", "-eo", "pid=,ppid=,args="], capture_output=True, text=True).stdout
    ours = [line.split(None, 2) for line in listed.splitlines()]
    parents = {int(pid): int(ppid) for pid, ppid, *_ in ours}

    def under_runner(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == runner_pid:
                return True
        return False

    pids = {int(pid): int(ppid) for pid, ppid, *args in ours
            if args and "gunicorn" in args[0] and "python" in args[0] and under_runner(int(pid))}
    masters = [pid for pid, ppid in pids.items() if ppid not in pids]
    assert len(masters) == 1, listed
    [master] = masters
    return master, {pid for pid, ppid in pids.items() if ppid == master}


@pytest.fixture
def stack(databases, tmp_path):
    with processes.redis_server() as redis_port:
        port = free_port()
        env = {**os.environ, "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
               "DATABASE_URL": databases.new("procfile"), "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
               "SECRET_KEY": SECRET_KEY, "PORT": str(port), "WEB_CONCURRENCY": "2",
               "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "127.0.0.0/8", "SWEEP_SECONDS": "1", "WEBHOOK_CLAIM_SECONDS": "4",
               "RATE_LIMIT_PER_MINUTE": "100000", "LOG_FORMAT": "json"}
        LOGS.mkdir(parents=True, exist_ok=True)
        runner = Honcho(env, LOGS / "honcho.log")
        runner.log_path.write_text("")
        try:
            yield runner, f"http://127.0.0.1:{port}", env
        finally:
            if runner.process and runner.process.poll() is None:
                runner.stop()


def test_the_procfile_under_honcho_serves_delivers_reloads_and_stops(stack):
    runner, base, env = stack
    runner.start()

    # Ready only once the schema is there.
    [first] = wait_for(lambda: [requests.get(f"{base}/readyz", timeout=5)])  # a 503 answer is falsy
    assert first.status_code == 503 and first.json()["checks"]["migrations"]["ok"] is False
    flask(env, "db", "upgrade")
    assert wait_for(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200)

    made = json.loads(flask(env, "sandbox", "create", "--country", "BH", "--email", "ops@example.com", "--json"))
    headers = {"Authorization": f"Bearer {made['api_key']}"}
    person = rows(env["DATABASE_URL"], "SELECT id FROM employee ORDER BY staff_number")[0][0]
    with Receiver() as receiver:
        endpoint = requests.post(f"{base}/v1/webhooks", headers=headers, timeout=10,
                                 json={"url": receiver.url, "events": ["employee.updated"]})
        assert endpoint.status_code == 201, endpoint.text

        # An HR change reaches the receiver through the worker.
        flask(env, "employees", "update", person, "--job-title", "Shift Lead")
        assert wait_for(lambda: receiver.requests), "the event never arrived"
        assert json.loads(receiver.requests[0]["body"])["type"] == "employee.updated"

        # A reload with HUP under steady load: new workers, and every request answered.
        master, old_workers = gunicorn_processes(runner.process.pid)
        answers, stop_load = [], threading.Event()

        def load():
            with requests.Session() as session:
                while not stop_load.is_set():
                    try:
                        answers.append(session.get(f"{base}/v1/company", headers=headers, timeout=10).status_code)
                    except requests.RequestException as exc:
                        answers.append(repr(exc))

        loaders = [threading.Thread(target=load) for _ in range(4)]
        for loader in loaders:
            loader.start()
        assert wait_for(lambda: len(answers) >= 50), "the load never started"
        os.kill(master, signal.SIGHUP)
        def replaced():
            workers = gunicorn_processes(runner.process.pid)[1]
            return workers.isdisjoint(old_workers) and len(workers) == 2

        assert wait_for(replaced, seconds=30), "the workers were not replaced"
        served = len(answers)
        assert wait_for(lambda: len(answers) >= served + 50), "the new workers answer nothing"
        stop_load.set()
        for loader in loaders:
            loader.join(timeout=30)
        assert len(answers) > 100 and set(answers) == {200}, [a for a in answers if a != 200][:5]

        # SIGTERM with nothing in flight: all three stop of themselves, with status 0
        # (the Procfile's `exec`: the signal reaches the process, not a shell around it).
        runner.stop()  # honcho itself answers a SIGTERM with 143, as a shell would
        stopped = runner.output()
        for name in ("web.1", "worker.1", "scheduler.1"):
            assert f"{name} stopped (rc=0)" in stopped, stopped[-3000:]
        assert "SIGKILL" not in stopped
        # LOG_FORMAT=json: every line of every process is one JSON object, gunicorn's own too.
        for line in stopped.splitlines():
            name, _, text = line.partition(" | ")
            # honcho prints its own "SIGTERM received" from its signal handler, which may
            # run between a process's line and that line's newline: the two share a line.
            text = re.split(r"\d\d:\d\d:\d\d system +\| ", text)[0]
            if text and "system" not in name:
                assert isinstance(json.loads(text), dict), line
        assert '"logger": "gunicorn.error"' in stopped

        # A delivery in flight when the runner stops (its 5 s are up before the
        # receiver's answer): after the restart the same event is sent again.
        receiver.delay = 30
        runner.start()
        assert wait_for(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200)
        before = len(receiver.requests)
        flask(env, "employees", "update", person, "--job-title", "Night Lead")
        assert wait_for(lambda: len(receiver.requests) > before), "the worker never sent it"
        interrupted = json.loads(receiver.requests[-1]["body"])["id"]
        runner.stop()
        assert "sending SIGKILL to worker.1" in runner.output()  # cut short mid-delivery
        receiver.delay = 0
        runner.start()
        assert wait_for(lambda: len(receiver.requests) > before + 1, seconds=60), "the cut-short job never ran again"
        assert json.loads(receiver.requests[-1]["body"])["id"] == interrupted
        runner.stop()
