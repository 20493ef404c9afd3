"""Past one VM: two web processes on different ports (as on two VMs behind a load
balancer) over one PostgreSQL and one Redis, with a worker and two schedulers. What
must hold without any stickiness: a key works on both, the rate limit counts across
both, a revocation on one is seen by the other at once, a console session made on one
is good on the other, webhooks made through one are delivered, and only one scheduler
leads. Logs: tests/output/scale-out/."""

import json
import os
import re

import pytest
import redis
import requests

from tests.e2e.databases import rows
from tests.e2e.processes import ROOT, flask, procfile, redis_server, stop, wait_for, wait_until_serving
from tests.helpers import free_port
from tests.receivers import Receiver

LOGS = ROOT / "tests" / "output" / "scale-out"
PASSWORD = "a console password for two hosts"


@pytest.fixture
def two_hosts(databases):
    url = databases.new("scale_out")
    if not url.startswith("postgres"):
        pytest.skip("past one VM, PostgreSQL is the one database (the PostgreSQL + Redis pass runs this)")
    LOGS.mkdir(parents=True, exist_ok=True)
    processes = []
    with redis_server() as redis_port, open(LOGS / "processes.log", "w") as log:
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
               "SECRET_KEY": "one-secret-key-shared-by-every-host-of-the-service", "WEB_CONCURRENCY": "2",
               "RATE_LIMIT_PER_MINUTE": "20", "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "127.0.0.0/8", "SWEEP_SECONDS": "1"}
        try:
            flask(env, "db", "upgrade")
            bases = []
            for _ in range(2):
                port = free_port()
                processes.append(procfile("web", {**env, "PORT": str(port)}, log))
                bases.append(f"http://127.0.0.1:{port}")
            processes += [procfile("worker", env, log), procfile("scheduler", env, log),
                          procfile("scheduler", env, log)]
            for base in bases:
                wait_until_serving(base)
            yield env, bases, redis.Redis(port=redis_port), LOGS / "processes.log"
        finally:
            stop(processes)


def test_two_web_hosts_share_everything_through_postgresql_and_redis(two_hosts):
    env, (a, b), shared_redis, log = two_hosts
    made = json.loads(flask(env, "sandbox", "create", "--country", "QA", "--email", "lead@example.com", "--json"))
    headers = {"Authorization": f"Bearer {made['api_key']}"}

    # The rate limit counts across hosts: 20 a minute in all, not 20 on each.
    statuses = [requests.get(f"{host}/v1/company", headers=headers, timeout=10).status_code
                for host in [a, b] * 15]
    assert statuses == [200] * 20 + [429] * 10, statuses

    # A console session made on one host is good on the other (no sticky sessions).
    flask(env, "users", "password", "--email", "lead@example.com", "--password", PASSWORD)
    browser = requests.Session()
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get(f"{a}/console/sign-in", timeout=10).text)
    signed_in = browser.post(f"{a}/console/sign-in", timeout=10,
                             data={"email": "lead@example.com", "password": PASSWORD, "csrf_token": token.group(1)})
    assert signed_in.url == f"{a}/console/integrations"
    on_b = browser.get(f"{b}/console/integrations", timeout=10, allow_redirects=False)
    assert on_b.status_code == 200 and "API keys" in on_b.text

    # A webhook made through one host is delivered by the worker; an HR change made by
    # an operator's command reaches it.
    with Receiver() as receiver:
        issued = json.loads(flask(env, "keys", "create", "--company", made["company_id"], "--scopes",
                                  "webhooks:manage,employees:read", "--json"))
        key = issued["api_key"]
        hook = requests.post(f"{b}/v1/webhooks", headers={"Authorization": f"Bearer {key}"}, timeout=10,
                             json={"url": receiver.url, "events": ["employee.updated"]})
        assert hook.status_code == 201, hook.text
        person = rows(env["DATABASE_URL"], "SELECT id FROM employee ORDER BY staff_number")[0][0]
        flask(env, "employees", "update", person, "--job-title", "Two Host Lead")
        assert wait_for(lambda: receiver.requests), "the event never arrived"

        # A key revoked through one host stops on both at once (both hosts' workers had it cached).
        for host in (a, b, a, b):
            assert requests.get(f"{host}/v1/employees", headers={"Authorization": f"Bearer {key}"},
                                timeout=10).status_code == 200
        flask(env, "keys", "revoke", issued["key_id"])
        for host in (a, b, a, b):
            assert requests.get(f"{host}/v1/employees", headers={"Authorization": f"Bearer {key}"},
                                timeout=10).status_code == 401

    # Two schedulers, one leader: the other stands by.
    assert wait_for(lambda: "another scheduler leads; standing by" in log.read_text())
    assert shared_redis.exists("partner-api:scheduler:leader")
