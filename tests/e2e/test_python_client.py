"""The partner's Python client (clients/python, issue 35 part 2): `pip install` puts it in
a fresh virtualenv, and a script calls every method at least once against the service the
README's command runs. And the OpenAPI document stays the one source: every published
operation has a client method."""

import importlib
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from tests.e2e.test_serve import serving

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys, time
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from partner_api import ApiError, Client, FileCursorStore

base, key = sys.argv[1], sys.argv[2]
with Client(api_key=key, base_url=base) as client:
    company = client.company()
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
    hook = client.webhooks.create("https://93.184.215.14/hook", ["employee.updated"])
    assert hook.secret.startswith("whsec_") and [h.id for h in client.webhooks.list()] == [hook.id]
    assert client.webhooks.get(hook.id).url == "https://93.184.215.14/hook"
    client.webhooks.update(hook.id, events=["employee.updated", "employee.left"])
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


def test_the_package_installs_and_calls_every_method_of_the_served_service(tmp_path):
    with serving(tmp_path) as (base, key, _, _):
        venv.create(tmp_path / "venv", with_pip=True)
        python = tmp_path / "venv" / "bin" / "python"
        package = tmp_path / "partner-api-client"  # a copy: building writes beside the sources
        shutil.copytree(ROOT / "clients" / "python", package,
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(package)],
                                   capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, installed.stderr[-2000:]
        run = subprocess.run([str(python), "-c", SCRIPT, base, key, str(tmp_path / "place")], capture_output=True,
                             text=True, timeout=180)
        assert run.returncode == 0 and run.stdout.startswith("ok cmp_"), run.stdout + run.stderr[-3000:]
