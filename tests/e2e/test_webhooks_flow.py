"""Webhooks end to end, as processes: gunicorn and (with Redis) the Procfile's worker,
receivers over HTTPS with a certificate from a local CA (trustme) and over http on
loopback (WEBHOOK_ALLOW_PRIVATE_NETWORKS), the webhooks guide's own receiver, a real SMTP server
for the owner's email, a real DNS server whose answer rebinds to 127.0.0.1, and the
Procfile's three processes on a Redis that goes away and comes back. Logs are kept in
tests/output/webhooks/."""

import json
import os
import re
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta

import jsonschema
import pytest
import redis
import requests
import trustme
from aiosmtpd.controller import Controller
from dnslib import QTYPE, RR, A
from dnslib.server import BaseResolver, DNSServer
from rq import Worker
from rq.cron import CronScheduler

from app.domain.webhooks.signing import verify
from tests.e2e.processes import (
    ROOT,
    e2e_redis_url,
    flask,
    procfile,
    require_redis_server,
    stop,
    wait_for,
    wait_until_serving,
)
from tests.helpers import free_port
from tests.receivers import Inbox, Receiver

LOGS = ROOT / "tests" / "output" / "webhooks"
GUIDE = ROOT / "docs" / "partners" / "webhooks.md"  # its receivers run here as written


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    authority = trustme.CA()
    path = tmp_path_factory.mktemp("ca") / "ca.pem"
    authority.cert_pem.write_to_path(str(path))
    return authority, path


@pytest.fixture(scope="module")
def inbox():
    received = Inbox()
    controller = Controller(received, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield received, controller.port
    controller.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory, ca, inbox):
    folder = tmp_path_factory.mktemp("webhooks")
    redis_url = e2e_redis_url()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/webhooks.db", "REDIS_URL": redis_url or "",
           "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "127.0.0.0/8,::1/128", "WEBHOOK_CA_FILE": str(ca[1]),
           "SMTP_URL": f"smtp://127.0.0.1:{inbox[1]}", "WEBHOOK_CLAIM_SECONDS": "2", "PORT": str(free_port()),
           "WEB_CONCURRENCY": "2"}
    if redis_url:
        redis.Redis.from_url(redis_url).flushdb()
    flask(env, "db", "upgrade")
    made = json.loads(flask(env, "sandbox", "create", "--country", "KW", "--email", "hooks@example.com", "--json"))
    LOGS.mkdir(parents=True, exist_ok=True)
    log = open(LOGS / "processes.log", "w")
    started = {}

    def start(name):
        started[name] = procfile(name, env, log)
        return started[name]

    start("web")
    if redis_url:
        start("worker")
    base = f"http://127.0.0.1:{env['PORT']}"
    try:
        wait_until_serving(base)
        yield {"base": base, "headers": {"Authorization": f"Bearer {made['api_key']}"}, "env": env,
               "db": folder / "webhooks.db", "company": made["company_id"], "start": start, "started": started,
               "redis": bool(redis_url)}
    finally:
        stop(started.values())
        log.close()


def create(stack, url, events=("employee.updated", "employee.left")):
    response = requests.post(f"{stack['base']}/v1/webhooks", headers=stack["headers"], timeout=10,
                             json={"url": url, "events": list(events)})
    assert response.status_code == 201, response.text
    return response.json()


def deliveries(stack, endpoint):
    return log_of(stack["base"], stack["headers"], endpoint["id"])


def log_of(base, headers, endpoint_id, status=None):
    """The endpoint's delivery log through the API, optionally only one status."""
    logged = requests.get(f"{base}/v1/webhooks/{endpoint_id}/deliveries", headers=headers, timeout=10).json()["data"]
    return [d for d in logged if status is None or d["status"] == status]


def employee_of(stack):
    with sqlite3.connect(stack["db"]) as db:
        return db.execute("SELECT id FROM employee WHERE company_id = ? ORDER BY staff_number LIMIT 1",
                          (stack["company"],)).fetchone()[0]


def test_a_receiver_over_https_with_a_local_ca_gets_a_signed_ping(stack, ca):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca[0].issue_cert("localhost").configure_cert(context)
    with Receiver(ssl_context=context) as receiver:
        endpoint = create(stack, f"https://localhost:{receiver.port}/hook")
        assert requests.post(f"{stack['base']}/v1/webhooks/{endpoint['id']}/test", headers=stack["headers"],
                             timeout=10).status_code == 202
        assert wait_for(lambda: receiver.requests), "no ping arrived"
        [ping] = receiver.requests
        envelope = json.loads(ping["body"])
        assert envelope["type"] == "ping" and envelope["data"] == {"webhook_id": endpoint["id"]}
        assert verify([endpoint["secret"]], ping["headers"]["X-SVC-Signature"], ping["body"], time.time())
        logged = wait_for(lambda: [d for d in deliveries(stack, endpoint) if d["status"] == "succeeded"])
        assert logged and logged[0]["event_id"] == envelope["id"]


def test_the_guides_receiver_gets_an_hr_change_once_even_when_redelivered(stack):
    port = free_port()
    endpoint = create(stack, f"http://127.0.0.1:{port}/hook")
    code = re.search(r"<!-- receiver.py -->\n```python\n(.*?)```", GUIDE.read_text(), re.S).group(1)
    receiver = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PORT": str(port),
                                     "WEBHOOK_SECRETS": f"whsec_an_old_one,{endpoint['secret']}"})
    try:
        wait_until_listening(port)
        # Without Redis the command sends its own webhooks before it returns; with
        # Redis the worker does.
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Head of Treasury")
        handled = json.loads(receiver.stdout.readline())
        assert handled["type"] == "employee.updated"
        first = wait_for(lambda: [d for d in deliveries(stack, endpoint) if d["status"] == "succeeded"])
        again = requests.post(f"{stack['base']}/v1/webhooks/{endpoint['id']}/deliveries/{first[0]['id']}/redeliver",
                              headers=stack["headers"], timeout=10)
        assert again.status_code == 202 and again.json()["event_id"] == handled["id"]
        assert wait_for(lambda: len([d for d in deliveries(stack, endpoint) if d["status"] == "succeeded"]) == 2)
    finally:
        receiver.terminate()
        out, _ = receiver.communicate(timeout=10)
    assert out.strip() == ""  # the redelivery was answered 200 and not handled twice


def test_replay_through_the_api_resends_what_a_receiver_missed_with_the_same_ids(stack):
    """replayWebhookEvents (v1.3) against the served processes: a receiver that was down
    gets the events it missed, ids and bodies unchanged, once it is back."""
    since = datetime.now(UTC).isoformat().replace("+00:00", "Z")  # to the microsecond: no earlier test's event
    with Receiver(status=503) as down:
        endpoint = create(stack, down.url, ["employee.updated"])
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Night Cashier")
        assert wait_for(lambda: [d for d in deliveries(stack, endpoint) if d["status"] == "failed"], seconds=30)
        missed = down.requests[0]["body"]
    with Receiver() as back:
        changed = requests.patch(f"{stack['base']}/v1/webhooks/{endpoint['id']}", headers=stack["headers"],
                                 json={"url": back.url}, timeout=10)
        assert changed.status_code == 200, changed.text
        answer = requests.post(f"{stack['base']}/v1/webhooks/{endpoint['id']}/replay", headers=stack["headers"],
                               json={"since": since, "status": "failed"}, timeout=10)
        assert answer.status_code == 202 and answer.json() == {"queued": 1}, answer.text
        assert wait_for(lambda: back.requests, seconds=30), "the replay was never delivered"
        [again] = back.requests[:1]
    assert again["body"] == missed  # the stored envelope, byte for byte: the same event id
    assert verify([endpoint["secret"]], again["headers"]["X-SVC-Signature"], again["body"], time.time())


def test_the_events_feed_serves_the_event_its_webhook_delivered_field_by_field(stack):
    """listEvents and getEvent (v1.3) against the served processes: the event a receiver
    got is in the feed, after the last one seen before it, with every field the same
    and the same bytes; a poll after it with its ETag is 304, and with `after` empty."""
    feed = f"{stack['base']}/v1/events"
    page, last = {"next_cursor": ""}, None
    while page["next_cursor"] is not None:  # to the end, keeping the last event seen
        cursor = f"&cursor={page['next_cursor']}" if page["next_cursor"] else ""
        page = requests.get(f"{feed}?limit=200{cursor}", headers=stack["headers"], timeout=10).json()
        last = page["data"][-1]["id"] if page["data"] else last
    with Receiver() as receiver:
        create(stack, receiver.url, ["employee.updated"])
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Feed Reader")
        assert wait_for(lambda: receiver.requests, seconds=30), "no webhook arrived"
        delivered = receiver.requests[0]["body"]
    pushed = json.loads(delivered)
    polled = requests.get(f"{feed}?after={last}", headers=stack["headers"], timeout=10)
    assert polled.status_code == 200, polled.text
    [pulled] = [event for event in polled.json()["data"] if event["id"] == pushed["id"]]
    assert set(pulled) == set(pushed) == {"id", "type", "created_at", "company_id", "livemode", "data"}
    for field in pushed:
        assert pulled[field] == pushed[field], field
    assert delivered in polled.content  # the envelope's bytes, as sent
    one = requests.get(f"{feed}/{pushed['id']}", headers=stack["headers"], timeout=10)
    assert one.content == delivered
    again = requests.get(f"{feed}/{pushed['id']}", timeout=10,
                         headers={**stack["headers"], "If-None-Match": one.headers["ETag"]})
    assert again.status_code == 304 and again.content == b"" and again.headers["X-Request-Id"]
    caught_up = requests.get(f"{feed}?after={polled.json()['data'][-1]['id']}", headers=stack["headers"], timeout=10)
    assert caught_up.json() == {"data": [], "next_cursor": None}


def test_a_receiver_that_answers_gone_or_later_is_heeded(stack, inbox):
    """v1.3 against the served processes: 410 disables the endpoint and emails the owner;
    503 with Retry-After puts the next attempt an hour on, not a minute."""
    with Receiver(status=410) as gone:
        endpoint = create(stack, gone.url, ["employee.updated"])
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Gone Fishing")
        state = wait_for(lambda: requests.get(f"{stack['base']}/v1/webhooks/{endpoint['id']}",
                                              headers=stack["headers"], timeout=10).json()["active"] is False,
                         seconds=30)
    assert state, "the 410 did not disable the endpoint"
    seen = requests.get(f"{stack['base']}/v1/webhooks/{endpoint['id']}", headers=stack["headers"], timeout=10).json()
    assert seen["disabled_reason"] == "endpoint_gone"
    mail = wait_for(lambda: [m for m in inbox[0].messages if endpoint["url"] in m["Subject"]], seconds=20)
    assert mail and "gone" in mail[0]["Subject"]
    with Receiver(status=503, headers={"Retry-After": "3600"}) as busy:
        later = create(stack, busy.url, ["employee.updated"])
        sent_at = datetime.now(UTC)
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Back Tomorrow")
        planned = wait_for(lambda: [d["next_retry_at"] for d in deliveries(stack, later) if d["next_retry_at"]],
                           seconds=30)
    assert planned, "no retry was planned"
    due = datetime.fromisoformat(planned[0].replace("Z", "+00:00"))
    assert timedelta(minutes=59) <= due - sent_at <= timedelta(minutes=61)


def test_every_event_type_delivered_by_the_served_processes_matches_its_published_schema(stack):
    """listEventTypes (v1.3) read from the running service; the sandbox's triggers and a
    test ping delivered to a receiver; each envelope's data valid against its schema."""
    catalog = requests.get(f"{stack['base']}/v1/event-types", headers=stack["headers"], timeout=10)
    assert catalog.status_code == 200, catalog.text
    schemas = {item["type"]: item["schema"] for item in catalog.json()["data"]}
    triggered = ("employee.created", "employee.updated", "payroll_run.finalized", "payroll_run.paid",
                 "payroll_run.corrected", "payroll_run.wps_updated", "payroll_run.deleted", "employee.left")
    with Receiver() as receiver:
        endpoint = create(stack, receiver.url, list(schemas))
        for event_type in triggered:
            flask(stack["env"], "sandbox", "trigger", event_type, "--company", stack["company"])
        requests.post(f"{stack['base']}/v1/webhooks/{endpoint['id']}/test", headers=stack["headers"], timeout=10)
        got = wait_for(lambda: {json.loads(r["body"])["type"] for r in receiver.requests} >= {*triggered, "ping"},
                       seconds=30)
        assert got, sorted({json.loads(r["body"])["type"] for r in receiver.requests})
        delivered = [json.loads(r["body"]) for r in receiver.requests]
    for envelope in delivered:
        jsonschema.validate(envelope["data"], schemas[envelope["type"]], cls=jsonschema.Draft7Validator)


def test_the_guides_standard_webhooks_receiver_verifies_real_deliveries(stack):
    """v1.3: the webhooks guide's receiver built on the `standardwebhooks` package (its verify(),
    real clock and all) handles an HR change delivered by the served processes, with the
    endpoint's secret as shown; a request that is not signed is refused."""
    port = free_port()
    endpoint = create(stack, f"http://127.0.0.1:{port}/hook")
    code = re.search(r"<!-- receiver_standard.py -->\n```python\n(.*?)```", GUIDE.read_text(),
                     re.S).group(1)
    receiver = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PORT": str(port), "WEBHOOK_SECRET": endpoint["secret"]})
    try:
        wait_until_listening(port)
        forged = requests.post(f"http://127.0.0.1:{port}/hook", data=b'{"id":"evt_x","type":"ping"}', timeout=5,
                               headers={"webhook-id": "evt_x", "webhook-timestamp": str(int(time.time())),
                                        "webhook-signature": "v1,AAAA"})
        assert forged.status_code == 400
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Standard Bearer")
        handled = json.loads(receiver.stdout.readline())
        assert handled["type"] == "employee.updated"
        assert wait_for(lambda: [d for d in deliveries(stack, endpoint) if d["status"] == "succeeded"], seconds=30)
    finally:
        receiver.terminate()
        receiver.communicate(timeout=10)


# A receiver process that checks each delivery with Stripe's own verifier (on the
# contract's header, which has Stripe's form) and with the `standardwebhooks` package,
# against each of the secrets it is given, and prints what each said.
VERIFYING_RECEIVER = """
import json, os, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
import stripe
from standardwebhooks import Webhook, WebhookVerificationError

SECRETS = os.environ["SECRETS"].split(",")


def stripe_says(body, header, secret):
    try:
        return stripe.WebhookSignature.verify_header(body, header, secret, tolerance=300)
    except stripe.SignatureVerificationError:
        return False


def standard_says(body, headers, secret):
    try:
        Webhook(secret).verify(body, headers)
        return True
    except WebhookVerificationError:
        return False


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        headers = {name: value for name, value in self.headers.items()}
        print(json.dumps({"type": json.loads(body)["type"],
                          "stripe": [stripe_says(body, self.headers["X-SVC-Signature"], s) for s in SECRETS],
                          "standard": [standard_says(body, headers, s) for s in SECRETS]}), flush=True)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
"""


def verified_by(stack, port, secrets, job_title):
    """What the verifying receiver, given `secrets`, said of the delivery of one HR change."""
    receiver = subprocess.Popen([sys.executable, "-c", VERIFYING_RECEIVER], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PORT": str(port), "SECRETS": ",".join(secrets)})
    try:
        wait_until_listening(port)
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", job_title)
        return json.loads(receiver.stdout.readline())
    finally:
        receiver.terminate()
        receiver.communicate(timeout=10)


def test_during_a_rotation_stripes_verifier_and_the_standard_webhooks_package_accept_either_secret(stack):
    """rotateWebhookSecret (v1.3) against the served processes: while the replaced secret
    is in its overlap, a real delivery verifies with the new one and with the old one,
    by Stripe's verifier and by the `standardwebhooks` package; after a rotation with
    `expire_previous_in: 0`, only with the newest."""
    port = free_port()
    endpoint = create(stack, f"http://127.0.0.1:{port}/hook", ["employee.updated"])
    rotate = f"{stack['base']}/v1/webhooks/{endpoint['id']}/rotate-secret"
    answer = requests.post(rotate, headers=stack["headers"], timeout=10)  # no body: a day's overlap
    assert answer.status_code == 200, answer.text
    rolled = answer.json()["secret"]
    said = verified_by(stack, port, [rolled, endpoint["secret"]], "Key Holder")
    assert said == {"type": "employee.updated", "stripe": [True, True], "standard": [True, True]}

    answer = requests.post(rotate, headers=stack["headers"], json={"expire_previous_in": 0}, timeout=10)
    assert answer.status_code == 200 and answer.json()["previous_secret_expires_at"] is None, answer.text
    newest = answer.json()["secret"]
    said = verified_by(stack, port, [newest, rolled, endpoint["secret"]], "Key Keeper")
    assert said == {"type": "employee.updated", "stripe": [True, False, False], "standard": [True, False, False]}


def test_seven_days_of_failures_disable_the_endpoint_and_email_the_owner(stack, inbox):
    with Receiver(status=500, body=b"broken") as failing:
        endpoint = create(stack, failing.url)
        eight_days_ago = (datetime.now(UTC) - timedelta(days=8)).replace(tzinfo=None).isoformat(" ")
        with sqlite3.connect(stack["db"]) as db:  # as if it had been failing for a week
            db.execute("UPDATE webhook_endpoint SET failing_since = ? WHERE id = ?", (eight_days_ago, endpoint["id"]))
        requests.post(f"{stack['base']}/v1/webhooks/{endpoint['id']}/test", headers=stack["headers"], timeout=10)
        mail = wait_for(lambda: [m for m in inbox[0].messages if endpoint["url"] in m["Subject"]], seconds=20)
    assert mail and mail[0]["To"] == "hooks@example.com" and "disabled" in mail[0]["Subject"]
    state = requests.get(f"{stack['base']}/v1/webhooks/{endpoint['id']}", headers=stack["headers"], timeout=10).json()
    assert state["active"] is False and state["disabled_reason"] == "delivery_failures"
    again = requests.post(f"{stack['base']}/v1/webhooks/{endpoint['id']}/deliveries/"
                          f"{deliveries(stack, endpoint)[0]['id']}/redeliver", headers=stack["headers"], timeout=10)
    assert again.status_code == 409


def test_a_worker_killed_mid_delivery_loses_nothing(stack):
    if not stack["redis"]:
        pytest.skip("the worker process runs with Redis (the PostgreSQL + Redis pass)")
    with Receiver(delay=30) as hanging:
        create(stack, hanging.url, ["employee.updated"])
        flask(stack["env"], "employees", "update", employee_of(stack), "--job-title", "Night Auditor")
        assert wait_for(lambda: hanging.requests), "the worker never sent it"
        os.killpg(stack["started"]["worker"].pid, signal.SIGKILL)  # mid-delivery, the scheduler it forked too
        stack["started"]["worker"].wait(timeout=10)
        hanging.delay = 0
        stack["start"]("worker")
        # The dead worker's hold on the attempt (WEBHOOK_CLAIM_SECONDS, 2 here) runs out; then
        # the sweep (`jobs run-due`, as the scheduler runs it) hands it to the new worker.
        assert wait_for(lambda: flask(stack["env"], "jobs", "run-due") is not None and len(hanging.requests) >= 2,
                        seconds=30)
    first, second = hanging.requests[:2]
    assert json.loads(first["body"])["id"] == json.loads(second["body"])["id"]
    assert first["body"] == second["body"]


def wait_until_listening(port):
    def listening():
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    assert wait_for(listening, 10), f"nothing listens on port {port}"


def test_an_hr_change_made_while_redis_is_down_is_delivered_once_it_is_back(tmp_path):
    """The Procfile's three processes on a Redis of their own, which goes away during an
    HR change and comes back: the event waits in the database, and the scheduler's
    sweeper (SWEEP_SECONDS=1) hands it to the worker, which delivers it."""
    require_redis_server()
    redis_port, web_port = free_port(), free_port()

    def redis_server():
        return subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no"], stdout=subprocess.DEVNULL)

    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/outage.db",
           "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "127.0.0.0/8",
           "SWEEP_SECONDS": "1", "PORT": str(web_port), "WEB_CONCURRENCY": "1"}
    LOGS.mkdir(parents=True, exist_ok=True)
    server, processes = redis_server(), []
    with open(LOGS / "redis-outage.log", "w") as log, Receiver() as receiver:
        try:
            assert wait_for(lambda: redis.Redis(port=redis_port).ping() if _listening(redis_port) else False)
            flask(env, "db", "upgrade")
            made = json.loads(flask(env, "sandbox", "create", "--country", "OM", "--email", "ops@example.com",
                                    "--json"))
            processes = [procfile(name, env, log) for name in ("web", "worker", "scheduler")]
            base = f"http://127.0.0.1:{web_port}"
            wait_until_serving(base)
            # Both running before the outage (one that cannot reach Redis at start says so
            # and stops: a setting to fix).
            running = redis.Redis(port=redis_port)
            assert wait_for(lambda: Worker.all(connection=running) and CronScheduler.all(connection=running),
                            seconds=30)
            headers = {"Authorization": f"Bearer {made['api_key']}"}
            endpoint = requests.post(f"{base}/v1/webhooks", headers=headers, timeout=10,
                                     json={"url": receiver.url, "events": ["employee.updated"]}).json()

            server.terminate()  # Redis goes away
            server.wait(timeout=10)
            with sqlite3.connect(tmp_path / "outage.db") as db:
                person = db.execute("SELECT id FROM employee WHERE company_id = ? LIMIT 1",
                                    (made["company_id"],)).fetchone()[0]
            flask(env, "employees", "update", person, "--job-title", "Storm Planner")  # still succeeds
            with sqlite3.connect(tmp_path / "outage.db") as db:
                [(event_id, dispatched)] = db.execute(
                    "SELECT id, dispatched_at FROM outbox_event WHERE type = 'employee.updated'").fetchall()
            assert dispatched is None  # written, waiting in the database
            time.sleep(2)
            assert receiver.requests == [] and all(p.poll() is None for p in processes)  # nothing lost, nobody died

            server = redis_server()  # Redis is back, empty
            assert wait_for(lambda: receiver.requests, seconds=45), "the event was never delivered"
            [delivered] = receiver.requests
            assert json.loads(delivered["body"])["id"] == event_id
            logged = wait_for(lambda: log_of(base, headers, endpoint["id"], "succeeded"))
            assert [d["event_id"] for d in logged] == [event_id]
        finally:
            stop([*processes, server])


def _listening(port):
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Rebinding(BaseResolver):
    """A DNS server's answers for any name: a public address first, then 127.0.0.1."""

    def __init__(self):
        self.answered = []

    def resolve(self, request, handler):
        reply = request.reply()
        if QTYPE[request.q.qtype] == "A":
            address = "93.184.215.14" if not self.answered else "127.0.0.1"
            self.answered.append(address)
            reply.add_answer(RR(request.q.qname, QTYPE.A, rdata=A(address), ttl=0))
        return reply


def test_dns_rebinding_reaches_no_loopback_listener(tmp_path):
    """The service's processes resolve webhook hosts with a real DNS server
    (WEBHOOK_DNS_SERVERS) that answers a public address when the endpoint is made and
    127.0.0.1 after; no network is allowed beyond the public ones. A listener on
    127.0.0.1 counts the connections it gets: none."""
    rebinding = Rebinding()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        dns_port = probe.getsockname()[1]
    dns = DNSServer(rebinding, address="127.0.0.1", port=dns_port)
    dns.start_thread()
    listener, connections = socket.create_server(("127.0.0.1", 0)), []

    def accept():
        while True:
            try:
                connections.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    redis_url = e2e_redis_url()
    if redis_url:  # not the module stack's queue (e2e_redis_url's), nor the suite's
        base, _, stack_db = redis_url.rpartition("/")
        redis_url = f"{base}/{12 if stack_db == '13' else 13}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/rebinding.db", "REDIS_URL": redis_url or "",
           "WEBHOOK_DNS_SERVERS": f"127.0.0.1:{dns_port}", "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "",
           "PORT": str(free_port()), "WEB_CONCURRENCY": "1"}
    if redis_url:
        redis.Redis.from_url(redis_url).flushdb()
    flask(env, "db", "upgrade")
    made = json.loads(flask(env, "sandbox", "create", "--country", "BH", "--email", "dns@example.com", "--json"))
    LOGS.mkdir(parents=True, exist_ok=True)
    with open(LOGS / "rebinding.log", "w") as log:
        processes = [procfile(name, env, log) for name in (("web", "worker") if redis_url else ("web",))]
        try:
            base, headers = f"http://127.0.0.1:{env['PORT']}", {"Authorization": f"Bearer {made['api_key']}"}
            wait_until_serving(base)
            port = listener.getsockname()[1]
            made_endpoint = requests.post(f"{base}/v1/webhooks", headers=headers, timeout=10, json={
                "url": f"https://rebind.test:{port}/hook", "events": ["employee.updated"]})
            assert made_endpoint.status_code == 201, made_endpoint.text  # judged: 93.184.215.14
            endpoint = made_endpoint.json()
            assert requests.post(f"{base}/v1/webhooks/{endpoint['id']}/test", headers=headers,
                                 timeout=10).status_code == 202
            failed = wait_for(lambda: log_of(base, headers, endpoint["id"], "failed"))
        finally:
            stop(processes)
            dns.stop()
            listener.close()
    assert failed and failed[0]["response_status"] is None
    with sqlite3.connect(tmp_path / "rebinding.db") as db:
        [(error,)] = db.execute("SELECT error FROM webhook_delivery WHERE id = ?", (failed[0]["id"],)).fetchall()
    assert error.startswith("refused: rebind.test resolves to 127.0.0.1"), error
    assert rebinding.answered[:2] == ["93.184.215.14", "127.0.0.1"]  # the name did rebind
    assert connections == []
