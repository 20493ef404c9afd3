"""No secret reaches a log line, under either LOG_FORMAT: the Procfile's web process is
sent requests that carry planted secrets where clients and attackers put them (a reset
token in the path, an OAuth `state` and `code` in the query, an `api_key` parameter, a
bearer key, a password and a client secret in form bodies, a NUL-bearing form, a body
too large), and its whole output is searched for each. Lines stay one per request,
with the path template. Logs: tests/output/logs/."""

import os

import pytest
import requests

from tests.e2e import processes
from tests.e2e.processes import ROOT, flask, wait_until_serving
from tests.helpers import free_port

LOGS = ROOT / "tests" / "output" / "logs"
PLANTED = {
    "reset": "PLANTEDresetTOKEN0123456789abcdef",
    "state": "PLANTEDstate0123456789",
    "code": "PLANTEDcode0123456789",
    "query_key": "svc_test_PLANTEDqueryKEY0123456789012345678",
    "bearer": "svc_test_PLANTEDbearerKEY012345678901234567",
    "password": "PLANTEDpassword-correct-horse",
    "client_secret": "svc_cs_PLANTEDclientSECRET01234567890123456",
    "refresh": "svc_rt_PLANTEDrefresh0123456789012345678901234",
}


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_no_planted_secret_reaches_the_log(databases, log_format):
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / f"web-{log_format}.log"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": databases.new(f"logs_{log_format}"), "REDIS_URL": "",
           "SECRET_KEY": "a-log-privacy-test-secret-key-of-32-chars-or-more", "PORT": str(port),
           "WEB_CONCURRENCY": "1", "LOG_FORMAT": log_format}
    flask(env, "db", "upgrade")
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as log:
        web = processes.procfile("web", env, log)
        try:
            wait_until_serving(base)
            send_every_planted_secret(base)
        finally:
            processes.stop([web])
    output = log_path.read_text()
    assert "GET /console/reset-password/<token>" in output or "/console/reset-password/<token>" in output, output
    leaked = {name: value for name, value in PLANTED.items() if value in output}
    assert not leaked, f"{leaked} in {log_path}"
    assert "?" not in "".join(line for line in output.splitlines() if "/oauth/authorize" in line)
    assert "Control socket" not in output and "ERROR" not in output  # gunicorn's control socket is off


def send_every_planted_secret(base):
    with requests.Session() as session:
        session.get(f"{base}/console/reset-password/{PLANTED['reset']}", timeout=10)
        session.get(f"{base}/oauth/authorize", timeout=10, allow_redirects=False,
                    params={"response_type": "code", "client_id": "app_x", "state": PLANTED["state"],
                            "redirect_uri": "https://a.example/cb"})
        session.get(f"{base}/v1/company", params={"api_key": PLANTED["query_key"]}, timeout=10)
        session.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {PLANTED['bearer']}"}, timeout=10)
        session.get(f"{base}/v1/employees/{PLANTED['bearer']}", timeout=10)
        session.post(f"{base}/console/sign-in", data={"email": "a@example.com", "password": PLANTED["password"]},
                     timeout=10)
        session.post(f"{base}/oauth/token", timeout=10, data={
            "grant_type": "authorization_code", "code": PLANTED["code"], "client_id": "app_x\x00",
            "client_secret": PLANTED["client_secret"]})
        session.post(f"{base}/oauth/token", timeout=10, data={
            "grant_type": "refresh_token", "refresh_token": PLANTED["refresh"], "client_id": "app_x",
            "client_secret": PLANTED["client_secret"]})
        session.post(f"{base}/oauth/revoke", timeout=10, data={"token": PLANTED["refresh"], "padding": "x" * 1_100_000})
        session.get(f"{base}/healthz?state={PLANTED['state']}", timeout=10)
