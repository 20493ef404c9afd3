"""resetSandbox (issue 51 part 4, v1.3): the sandbox back to its generated staff, runs and
journals, with a fresh event history; its keys, endpoints and apps kept. Live keys are
403 `sandbox_only`; the scope is `webhooks:manage` or `sandbox:manage`; resets and
triggers at once take turns (PostgreSQL: each on a connection of its own)."""

import json
import threading
from datetime import date
from decimal import Decimal

import pytest

from app.domain.kernel.errors import NotFound
from app.domain.payroll import accounts
from app.domain.people import actions as hr
from app.domain.sandbox_reset import reset
from app.models import AccountMapping, Company, Employee, OutboxEvent, PayrollRun, WebhookDelivery, WebhookEndpoint
from tests.api.test_sandbox_events import committed_sandbox  # noqa: F401 (the fixture)
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all, ok, staff

SEED = [f"SBX-{n:03d}" for n in range(1, 11)]


def held(company_id):
    return {"staff": sorted(e.staff_number for e in Employee.select().where(Employee.company == company_id)),
            "runs": [(r.status, r.payroll_month) for r in PayrollRun.select().where(PayrollRun.company == company_id)],
            "events": sorted(e.type for e in OutboxEvent.select().where(OutboxEvent.company == company_id))}


def balanced(client, headers):
    """Every journal entry the ledger feed gives balances, debits against credits."""
    entries = client.get("/v1/journal-entries?limit=200", headers=headers).get_json()["data"]
    assert entries
    for entry in entries:
        assert sum(Decimal(line["debit"]) for line in entry["lines"]) == sum(
            Decimal(line["credit"]) for line in entry["lines"]), entry["id"]


def test_a_reset_makes_the_sandbox_new_again_and_keeps_its_keys_and_endpoints(app, client, headers, sandbox, clock,
                                                                               runtime, loopback, receiver):
    endpoint = create_webhook(client, headers, receiver.url, ["employee.created", "employee.updated"]).get_json()
    for event_type in ("employee.created", "payroll_run.finalized", "payroll_run.paid", "employee.left"):
        assert client.post("/v1/sandbox/events", headers=headers, json={"type": event_type}).status_code == 201
    hr.update_employee(sandbox.id, staff(sandbox).id, {"job_title": "Auditor"}, runtime)
    accounts.set_mapping(sandbox.id, "bank", "1011", clock)
    accounts.set_split(sandbox.id, "department")
    deliver_all(app)
    gone = staff(sandbox).id
    clock.advance(minutes=5)
    answer = client.post("/v1/sandbox/reset", headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json() == {"company_id": sandbox.id, "employees": 10, "payroll_runs": 1, "events": 11}
    now = held(sandbox.id)
    assert now["staff"] == SEED and [status for status, _ in now["runs"]] == ["finalized"]
    assert now["events"] == ["employee.created"] * 10 + ["payroll_run.finalized"]
    assert_problem(client.get(f"/v1/employees/{gone}", headers=headers), 404, "not_found")
    assert not AccountMapping.select().where(AccountMapping.company == sandbox.id).exists()
    assert Company.get_by_id(sandbox.id).journal_split == "none"
    assert not WebhookDelivery.select().join(WebhookEndpoint).where(WebhookEndpoint.company == sandbox.id).exists()
    kept = client.get(f"/v1/webhooks/{endpoint['id']}", headers=headers)  # the key works, its endpoint is there
    assert kept.status_code == 200 and kept.get_json()["active"] is True
    balanced(client, headers)
    receiver.requests.clear()
    deliver_all(app)  # the new staff reach the endpoint kept, as on a new sandbox
    assert sorted(json.loads(r["body"])["type"] for r in receiver.requests) == ["employee.created"] * 10


def test_a_post_retried_with_its_key_after_a_reset_is_still_answered_once(client, headers, loopback, receiver):
    """Remembered answers are the credentials', which a reset keeps: a retried create makes
    no second endpoint."""
    keyed = {**headers, "Idempotency-Key": "create-hook-1"}
    body = {"url": receiver.url, "events": ["employee.created"]}
    first = client.post("/v1/webhooks", headers=keyed, json=body)
    assert client.post("/v1/sandbox/reset", headers=headers).status_code == 200
    again = client.post("/v1/webhooks", headers=keyed, json=body)
    assert again.headers.get("Idempotent-Replayed") == "true" and again.get_json()["id"] == first.get_json()["id"]
    assert len(client.get("/v1/webhooks", headers=headers).get_json()["data"]) == 1


def test_a_live_key_is_sandbox_only_and_nothing_changes(client, live_company, make_key, runtime):
    hr.hire(live_company, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                           "hire_date": date(2026, 11, 1), "basic_salary_minor": 900_000}, runtime)
    before = held(live_company.id)
    assert_problem(client.post("/v1/sandbox/reset", headers=bearer(make_key(live_company))), 403, "sandbox_only")
    assert held(live_company.id) == before


def test_either_scope_will_do_and_no_other(client, sandbox, make_key):
    assert_problem(client.post("/v1/sandbox/reset", headers=bearer(make_key(sandbox, scopes=["employees:read"]))),
                   403, "insufficient_scope")
    for scope in ("sandbox:manage", "webhooks:manage"):
        assert client.post("/v1/sandbox/reset", headers=bearer(make_key(sandbox, scopes=[scope]))).status_code == 200
    trigger = client.post("/v1/sandbox/events", headers=bearer(make_key(sandbox, scopes=["sandbox:manage"])),
                          json={"type": "employee.created"})
    assert trigger.status_code == 201


def test_the_operators_command_resets_a_sandbox_and_refuses_a_live_company(run, sandbox, live_company, runtime):
    hr.update_employee(sandbox.id, staff(sandbox).id, {"job_title": "Auditor"}, runtime)
    out = json.loads(ok(run("sandbox", "reset", sandbox.id, "--json")))
    assert out["employees"] == 10 and out["removed"]["employees"] == 10 and out["removed"]["events"] == 12
    refused = run("sandbox", "reset", live_company.id)
    assert refused.exit_code != 0 and "only a sandbox company can be reset" in refused.output


@pytest.mark.usefixtures("wide_pool")
def test_resets_and_triggers_at_once_take_turns(app, race, committed, committed_sandbox):  # noqa: F811
    """Two resets and two triggers of one sandbox at once: each succeeds, one after the
    other under the company's lock, and the sandbox ends as one reset left it, plus the
    triggers that came after it (PostgreSQL: every request on its own connection)."""
    company, headers = committed_sandbox
    moves = {0: ("/v1/sandbox/reset", None), 1: ("/v1/sandbox/reset", None),
             2: ("/v1/sandbox/events", {"type": "employee.created"}),
             3: ("/v1/sandbox/events", {"type": "employee.updated"})}
    taken = iter(range(4))
    lock = threading.Lock()

    def one():
        with lock:
            path, body = moves[next(taken)]
        answer = app.test_client().post(path, headers=headers, json=body)
        return path, answer.status_code

    outcomes = race(one, threads=4)
    assert sorted(status for _, status in outcomes) == [200, 200, 201, 201], outcomes
    now = committed(held, company.id)
    assert now["staff"][:10] == SEED and len(now["staff"]) in (10, 11)
    assert [status for status, _ in now["runs"]] == ["finalized"]
    assert now["events"].count("payroll_run.finalized") == 1
    assert 11 <= len(now["events"]) <= 13


@pytest.mark.usefixtures("wide_pool")
def test_a_reset_and_hr_edits_at_once_never_deadlock(app, race, committed, committed_sandbox, runtime):  # noqa: F811
    """HR's edits lock the company, then the employee, then write it twice (the second
    write re-checks its manager's row) and its announcement; a reset locks the company,
    then every employee, before it deletes announcements: one waits for the other, never
    a deadlock (PostgreSQL: taken employee first, an edit waited on the manager's row the
    reset held, 1 run in 3). An edit after the reset finds its employee gone (404)."""
    company, _ = committed_sandbox
    people = committed(lambda: [e.id for e in Employee.select().where(Employee.company == company.id)
                                .order_by(Employee.staff_number)])
    taken = iter(range(6))
    lock = threading.Lock()

    def one():
        with lock:
            turn = next(taken)
        if turn == 0:
            return reset(Company.get_by_id(company.id), "test", runtime)["employees"]
        return hr.update_employee(company.id, people[turn], {"job_title": f"Title {turn}"}, runtime).id

    outcomes = race(one, threads=6)
    assert all(not isinstance(outcome, Exception) or isinstance(outcome, NotFound) for outcome in outcomes), outcomes
    assert 10 in outcomes
