"""The partner's Python client (clients/python, issue 35 part 2): `pip install` puts it in
a fresh virtualenv, and a script calls every method at least once against the service the
README's command runs. And the OpenAPI document stays the one source: every published
operation has a client method."""

import importlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import requests
from standardwebhooks import Webhook

from tests.e2e.processes import flask
from tests.e2e.test_serve import serving
from tests.receivers import Receiver

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys, time
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from partner_api import ApiError, Client, FileCursorStore

base, key = sys.argv[1], sys.argv[2]
with Client(api_key=key, base_url=base) as client:
    company = client.company()
    me = client.credential()
    assert me.type == "api_key" and me.company_id == company.id and not me.livemode and me.app is None, me
    people = list(client.employees.list(limit=3))  # 10 employees, pages of 3: the cursor is followed
    assert len(people) == 10, len(people)
    assert client.employees.get(people[0].id).staff_number == people[0].staff_number
    runs = list(client.payroll_runs.list())
    run = client.payroll_runs.get(runs[0].id)
    assert isinstance(run.totals.net, Decimal) and isinstance(run.journal_entries[0].lines[0].debit, Decimal)
    at = (datetime.now(timezone.utc) - timedelta(days=1)).replace(microsecond=0).isoformat()
    [result] = client.attendance.ingest([{"external_id": "py-1", "employee_ref": {"type": "employee_code",
                                          "value": people[0].staff_number}, "type": "clock_in", "at": at,
                                          "source": "py-client"}])
    assert result.status == "accepted", result
    day = (datetime.now(timezone.utc) - timedelta(days=2)).date().isoformat()
    list(client.attendance.days(from_=day, to=datetime.now(timezone.utc).date().isoformat()))
    made = client.sandbox.trigger("employee.updated")
    assert client.events.get(made.id).id == made.id
    assert any(event.id == made.id for event in client.events.list(types=["employee.updated"], limit=50))
    assert client.event_types() and client.journal_accounts()
    entries = list(client.journal_entries.list(limit=1))  # the sandbox's run's entries, a page each
    assert len(entries) >= 2 and isinstance(entries[0].lines[0].debit, Decimal), entries
    assert list(client.journal_entries.list(after=entries[-1].id)) == []  # nothing posted since
    store = FileCursorStore(sys.argv[3])  # follow: from the place kept, each event once across restarts
    store.set(made.id)
    later = [client.sandbox.trigger("employee.updated").id for _ in range(2)]
    seen = []
    for event in client.events.follow(cursor_store=store, types=["employee.updated"], poll=0.1,
                                      stop=lambda: len(seen) >= 2):
        seen.append(event.id)
    assert seen == later and store.get() == later[-1], (seen, later)
    last = client.sandbox.trigger("employee.updated").id
    again = []
    for event in client.events.follow(cursor_store=store, types=["employee.updated"], poll=0.1,
                                      stop=lambda: len(again) >= 1):
        again.append(event.id)
    assert again == [last], again
    handled, left = [client.sandbox.trigger("employee.updated").id for _ in range(2)]
    for event in client.events.follow(cursor_store=store, types=["employee.updated"], poll=0.1):
        assert event.id == handled, (event.id, handled)
        break  # handled, then the loop is left: its place is kept
    with client.events.follow(cursor_store=store, types=["employee.updated"], poll=0.1) as events:
        for event in events:
            assert event.id == left, (event.id, left)  # nothing repeated
            break
    assert store.get() == left
    hook = client.webhooks.create("https://93.184.215.14/hook", ["employee.updated"])
    assert hook.secret.startswith("whsec_") and [h.id for h in client.webhooks.list()] == [hook.id]
    assert client.webhooks.get(hook.id).url == "https://93.184.215.14/hook"
    assert client.webhooks.update(hook.id, events=["employee.updated", "employee.left"], rate_limit=20).rate_limit == 20
    client.webhooks.test(hook.id)
    client.webhooks.rotate_secret(hook.id, expire_previous_in=0)
    client.webhooks.replay(hook.id, datetime.now(timezone.utc) - timedelta(hours=1))
    deadline = time.monotonic() + 20
    while not (logged := client.webhooks.deliveries(hook.id)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert logged, "no delivery logged"
    client.webhooks.redeliver(hook.id, logged[0].id)
    client.webhooks.delete(hook.id)
    try:
        client.employees.get("emp_nobody")
    except ApiError as refused:
        assert refused.status == 404 and refused.code == "not_found" and refused.request_id
    else:
        raise AssertionError("a missing employee was not refused")
    for wrong in ("../company", "..", "emp_1?x=1#y"):  # one escaped path segment each, never another resource
        try:
            client.employees.get(wrong)
        except ApiError as refused:
            assert refused.status == 404 and refused.code == "not_found", refused
        else:
            raise AssertionError(f"{wrong!r} was not refused")
print("ok", company.id)
"""


def test_every_published_operation_has_a_client_method(client):
    sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))
    try:
        partner_api = importlib.import_module("partner_api")
    finally:
        sys.path.pop(0)
    document = client.get("/v1/openapi.json").get_json()
    published = {op["operationId"] for item in document["paths"].values() for op in item.values()
                 if isinstance(op, dict) and "operationId" in op}
    assert set(partner_api.OPERATIONS) == published
    for method in partner_api.OPERATIONS.values():
        target = partner_api.Client
        for name in method.split("."):
            target = getattr(target, name, None) or getattr(
                sys.modules["partner_api._client"], name.title().replace("_", ""), None)
        assert callable(target), method


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh virtualenv with `pip install ./clients/python` done in it (from a copy:
    building writes beside the sources); its python and the copy."""
    folder = tmp_path_factory.mktemp("client")
    venv.create(folder / "venv", with_pip=True)
    python = folder / "venv" / "bin" / "python"
    package = folder / "partner-api-client"
    shutil.copytree(ROOT / "clients" / "python", package,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(package)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return python, package


def test_the_package_installs_and_calls_every_method_of_the_served_service(tmp_path, installed):
    python, _ = installed
    with serving(tmp_path) as (base, key, _, _):
        run = subprocess.run([str(python), "-c", SCRIPT, base, key, str(tmp_path / "place")], capture_output=True,
                             text=True, timeout=180)
        assert run.returncode == 0 and run.stdout.startswith("ok cmp_"), run.stdout + run.stderr[-3000:]


def test_the_example_sync_reads_every_page_and_balanced_journals_and_says_why_it_is_refused(tmp_path, installed):
    """examples/payroll_sync.py (type-checked with mypy --strict in .ci/run), as a partner
    runs it: every employee, each run's journal in Decimal; a revoked key is one clear line."""
    python, package = installed
    with serving(tmp_path) as (base, key, _, _):
        env = {**os.environ, "PARTNER_API_KEY": key, "PARTNER_API_BASE_URL": base}
        run = subprocess.run([str(python), str(package / "examples" / "payroll_sync.py")], env=env,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr[-3000:]
        assert re.match(r".+: 10 employees\n", run.stdout), run.stdout
        assert re.search(r"^\d{4}-\d{2} (finalized|paid): net \d+\.\d{3} KWD, journal \d+\.\d{3} balanced$",
                         run.stdout, re.M), run.stdout
        wrong = subprocess.run([str(python), str(package / "examples" / "payroll_sync.py")],
                               env={**env, "PARTNER_API_KEY": "svc_test_" + "0" * 40},
                               capture_output=True, text=True, timeout=120)
        assert wrong.returncode == 1 and re.fullmatch(r"refused: 401 unauthenticated: .+ \(request req_\w+\)\n",
                                                      wrong.stderr), wrong.stderr


def test_an_app_connects_through_the_consent_page_and_its_token_is_kept_and_refreshed(tmp_path, installed):
    """examples/connect_app.py: it prints the consent URL, the customer signs in and
    approves (the console's own forms), the script exchanges the code it is given back and
    keeps the token; run again, it uses the kept one."""
    python, package = installed
    printed = []
    with serving(tmp_path) as (base, key, database, output):
        password = re.search(r"sign in as (\S+), password (\S+)\)", output)
        company = requests.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {key}"}, timeout=10).json()
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "REDIS_URL": ""}
        redirect = "http://127.0.0.1:8765/cb"
        made = json.loads(flask(env, "oauth", "apps", "create", "--company", company["id"], "--name", "Ledgerly",
                                "--redirect-uri", redirect, "--scopes", "employees:read", "--json"))
        script = subprocess.Popen(
            [str(python), str(package / "examples" / "connect_app.py"), made["client_id"], made["client_secret"],
             redirect, str(tmp_path / "token.json")], env={**os.environ, "PARTNER_API_BASE_URL": base},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            line = script.stdout.readline()
            printed.append(line)
            url = line.removeprefix("open: ").strip()
            landed = approve(url, password.group(1), password.group(2))
            assert landed.startswith(redirect + "?code="), landed
            out, _ = script.communicate(landed + "\n", timeout=60)
            printed.append(out)
        finally:
            script.kill()
        assert script.returncode == 0 and f"connected to {company['id']}: 10 employees" in out, printed
        kept = json.loads((tmp_path / "token.json").read_text())
        assert kept["access_token"].startswith("svc_at_") and kept["refresh_token"].startswith("svc_rt_")
        kept["expires_at"] = 0  # as if an hour had passed: the next run refreshes and keeps the new one
        (tmp_path / "token.json").write_text(json.dumps(kept))
        again = subprocess.run([str(python), str(package / "examples" / "connect_app.py"), made["client_id"],
                                made["client_secret"], redirect, str(tmp_path / "token.json")],
                               env={**os.environ, "PARTNER_API_BASE_URL": base}, capture_output=True, text=True,
                               timeout=60)
        assert again.returncode == 0 and "10 employees" in again.stdout, again.stdout + again.stderr
        fresh = json.loads((tmp_path / "token.json").read_text())
        assert fresh["refresh_token"] != kept["refresh_token"] and fresh["expires_at"] > 0


def approve(url, email, password):
    """The customer: signs in where the consent URL sends them, then approves; where the
    browser is sent back to (not followed: the app's redirect URI is not listening)."""
    browser = requests.Session()
    page = browser.get(url, timeout=10)
    assert "/console/sign-in" in page.url, page.url
    browser.post(page.url, data={"email": email, "password": password, "csrf_token": _csrf(page.text)}, timeout=10)
    consent = browser.get(url, timeout=10)
    company = re.search(r'<option value="(cmp_\w+)"', consent.text).group(1)
    answer = browser.post(url, data={"csrf_token": _csrf(consent.text), "company_id": company, "decision": "approve"},
                          allow_redirects=False, timeout=10)
    assert answer.status_code in (302, 303), answer.text[:500]
    return answer.headers["Location"]


def _csrf(page):
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page).group(1)


def test_listen_forwards_what_trigger_makes_signed_with_the_printed_secret_and_stops_on_ctrl_c(tmp_path, installed):
    """The Done-when of issue 35 part 3: `partner-api listen` (installed with the package)
    forwards the event `partner-api trigger` made to a receiver on localhost; the receiver
    verifies it with the printed secret, in both header forms; Ctrl-C ends it cleanly."""
    python, _ = installed
    command = python.parent / "partner-api"
    with serving(tmp_path) as (base, key, _, _), Receiver() as receiver:
        env = {**os.environ, "PARTNER_API_KEY": key, "PARTNER_API_BASE_URL": base}
        # Ctrl-C as a terminal sends it: a suite started in the background (`pytest &`) hands
        # its processes SIGINT ignored, and Python then leaves it ignored.
        listening = subprocess.Popen([str(command), "listen", "--forward-to", receiver.url, "--events",
                                      "employee.updated,employee.left", "--poll", "0.2"], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            ready = listening.stdout.readline()
            secret = re.search(r"signing secret (whsec_\S+)", ready)
            assert secret and receiver.url in ready, ready
            made = subprocess.run([str(command), "trigger", "employee.updated"], env=env, capture_output=True,
                                  text=True, timeout=60)
            assert made.returncode == 0 and re.fullmatch(r"evt_\w+\n", made.stdout), made.stdout + made.stderr
            line = listening.stdout.readline()
            assert made.stdout.strip() in line and "employee.updated" in line and "-> 200 (" in line, line
            [delivery] = receiver.requests
            body, headers = delivery["body"], delivery["headers"]
            event = client_verify(body, {"X-SVC-Signature": headers["X-SVC-Signature"]}, secret.group(1))
            assert event["id"] == made.stdout.strip() and event["type"] == "employee.updated"
            standard = {name: headers[name] for name in ("webhook-id", "webhook-timestamp", "webhook-signature")}
            assert Webhook(secret.group(1)).verify(body, standard)["id"] == event["id"]
            served = requests.get(f"{base}/v1/events/{event['id']}", headers={"Authorization": f"Bearer {key}"},
                                  timeout=10).json()
            assert served == event  # the feed's event, field for field
            chosen = subprocess.run([str(command), "trigger", "employee.updated", "--set", "job_title=Cashier",
                                     "--set", "department=Retail", "--employee", event["data"]["employee"]["id"]],
                                    env=env, capture_output=True, text=True, timeout=60)
            assert chosen.returncode == 0, chosen.stdout + chosen.stderr
            changed = requests.get(f"{base}/v1/events/{chosen.stdout.strip()}", timeout=10,
                                   headers={"Authorization": f"Bearer {key}"}).json()["data"]
            assert changed["employee"]["id"] == event["data"]["employee"]["id"], changed
            assert (changed["employee"]["job_title"], changed["employee"]["department"]) == ("Cashier", "Retail")
            assert changed["previous_attributes"]["job_title"] == event["data"]["employee"]["job_title"], changed
            who = subprocess.run([str(command), "whoami"], env=env, capture_output=True, text=True, timeout=60)
            assert who.returncode == 0 and re.search(r"^type: +api_key$", who.stdout, re.M), who.stdout + who.stderr
            assert re.search(r"^mode: +sandbox$", who.stdout, re.M) and "webhooks:manage" in who.stdout, who.stdout
            refused = subprocess.run([str(command), "trigger", "no.such_type"], env=env, capture_output=True,
                                     text=True, timeout=60)
            assert refused.returncode == 1 and "422 validation_failed" in refused.stderr, refused.stderr
            assert "  type: one of employee.created" in refused.stderr, refused.stderr  # what it can make
        finally:
            listening.send_signal(signal.SIGINT)
            _, errors = listening.communicate(timeout=30)
        assert listening.returncode == 0 and errors.strip() == "Stopped.", errors


def client_verify(body, headers, secret):
    sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))
    try:
        from partner_api.webhooks import verify
    finally:
        sys.path.pop(0)
    return verify(body, headers, secret)
