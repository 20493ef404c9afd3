"""Sandbox events over the API (issue 35 part 4, v1.3): triggerSandboxEvent makes the
event by the console trigger's own HR action and answers 201 with it as the feed has it;
a live key is 403 sandbox_only; an unknown type is 422 naming `type`."""

import pytest

from app.api.sandbox_events import SandboxChangesSchema
from app.domain import sandbox as sandbox_companies
from app.domain.access import keys
from app.domain.access import users as access
from app.domain.kernel.ids import new_id
from app.domain.payroll.drafts import build_draft_run
from app.domain.sandbox_triggers import SETTABLE, TRIGGERS
from app.models import Employee, Entity, OutboxEvent, PayrollRun
from tests.conftest import bearer
from tests.helpers import assert_problem


@pytest.mark.parametrize("event_type", TRIGGERS)
def test_each_type_is_made_and_answered_as_the_feed_has_it(client, headers, sandbox, event_type):
    made = client.post("/v1/sandbox/events", headers=headers, json={"type": event_type})
    assert made.status_code == 201, made.get_data(as_text=True)
    event = made.get_json()
    assert event["type"] == event_type and event["livemode"] is False and event["company_id"] == sandbox.id
    assert made.get_data(as_text=True) == OutboxEvent.get_by_id(event["id"]).payload  # byte for byte
    fed = client.get(f"/v1/events/{event['id']}", headers=headers)
    assert fed.get_data() == made.get_data()


def test_a_live_key_is_sandbox_only_and_nothing_is_made(client, live_company, make_key):
    before = OutboxEvent.select().count()
    answer = client.post("/v1/sandbox/events", headers=bearer(make_key(live_company)),
                         json={"type": "employee.created"})
    assert_problem(answer, 403, "sandbox_only")
    assert OutboxEvent.select().count() == before
    assert "sandbox_only" in client.get("/errors").get_data(as_text=True)


@pytest.mark.parametrize("body, path", [({"type": "ping"}, "type"), ({"type": "employee.hired"}, "type"), ({}, "type"),
                                        ({"type": "employee.created", "typo": 1}, "typo")])
def test_an_unknown_type_or_field_is_422_naming_it(client, headers, body, path):
    answer = client.post("/v1/sandbox/events", headers=headers, json=body)
    assert_problem(answer, 422, "validation_failed")
    assert [e["path"] for e in answer.get_json()["errors"]] == [path]


def test_it_needs_webhooks_manage(client, sandbox, make_key):
    answer = client.post("/v1/sandbox/events", headers=bearer(make_key(sandbox, scopes=["employees:read"])),
                         json={"type": "employee.created"})
    assert_problem(answer, 403, "insufficient_scope")


@pytest.fixture
def committed_sandbox(committed, clock, runtime):
    """A committed sandbox and a key of it, as a partner's requests find them; removed afterwards."""
    user = committed(access.get_or_create_user, f"{new_id('u')}@example.com", clock)
    made = committed(sandbox_companies.create_sandbox, user, "KW", runtime, seed=5)
    secret = committed(keys.create_key, made, keys.SCOPES, clock)[1]
    yield made, bearer(secret)
    committed(lambda: (made.delete_instance(recursive=True), user.delete_instance(recursive=True)))


def trigger(app, headers):
    """POST /v1/sandbox/events as a partner would, on a connection of its own: (status, body)."""
    def post(event_type):
        answer = app.test_client().post("/v1/sandbox/events", headers=headers, json={"type": event_type})
        return answer.status_code, answer.get_json()
    return post


# (type, requests at once): forty edits of one person, ten hires, ten of each payroll move.
AT_ONCE = [("employee.updated", 40), ("employee.created", 10), ("employee.left", 5), ("payroll_run.finalized", 10),
           ("payroll_run.paid", 10), ("payroll_run.deleted", 10), ("payroll_run.corrected", 10),
           ("payroll_run.wps_updated", 10)]


@pytest.mark.parametrize("event_type, count", AT_ONCE)
def test_triggers_at_once_each_answer_the_event_they_made(app, race, committed, committed_sandbox, wide_pool,
                                                           event_type, count):
    """Issue 46 part 2: every 201 names the event its own request made, that event
    exists, and no trigger is refused for what another did at the same moment."""
    company, headers = committed_sandbox
    before = committed(lambda: {event.id for event in OutboxEvent.select(OutboxEvent.id).where(
        OutboxEvent.company == company.id, OutboxEvent.type == event_type)})
    outcomes = race(trigger(app, headers), event_type, threads=count)
    assert [status for status, _ in outcomes] == [201] * count, outcomes
    named = [body["id"] for _, body in outcomes]
    assert len(set(named)) == count, "two answers named one event"
    written = committed(lambda: {event.id for event in OutboxEvent.select(OutboxEvent.id).where(
        OutboxEvent.company == company.id, OutboxEvent.type == event_type)}) - before
    assert set(named) <= written
    assert {body["type"] for _, body in outcomes} == {event_type}


def test_payroll_run_corrected_can_be_triggered_again_and_again(client, headers):
    runs = set()
    for _ in range(4):
        made = client.post("/v1/sandbox/events", headers=headers, json={"type": "payroll_run.corrected"})
        assert made.status_code == 201, made.get_data(as_text=True)
        runs.add(made.get_json()["data"]["payroll_run"]["id"])
    assert len(runs) == 1  # the newest closed run, corrected four times


@pytest.mark.parametrize("event_type, words", [
    ("employee.left", "no active employee left"),  # no one left to end
    ("payroll_run.corrected", "still employed; trigger employee.created"),  # no one paid in the run still employed
])
def test_with_everyone_gone_a_trigger_is_409_saying_why_and_what_helps(client, headers, sandbox, event_type, words):
    for _ in range(10):
        assert client.post("/v1/sandbox/events", headers=headers, json={"type": "employee.left"}).status_code == 201
    answer = client.post("/v1/sandbox/events", headers=headers, json={"type": event_type})
    assert_problem(answer, 409, "conflict")
    assert words in answer.get_json()["detail"]


def test_a_run_for_the_last_month_there_is_makes_the_payroll_triggers_409_saying_so(client, headers, sandbox, clock):
    """A run for 9999-12 (HR may draft it) has no month after it: a trigger that would run
    the next month says so, where it answered 422 on a `payroll_month` it was never sent."""
    build_draft_run(Entity.get(Entity.company == sandbox.id), "9999-12", clock)
    # finalized: the next month; paid: the sandbox's own finalized run; then none left to pay or delete
    for event_type, status in (("payroll_run.finalized", 409), ("payroll_run.paid", 201),
                               ("payroll_run.deleted", 409), ("payroll_run.paid", 409)):
        answer = client.post("/v1/sandbox/events", headers=headers, json={"type": event_type})
        assert answer.status_code == status, (event_type, answer.get_json())
        if status == 409:
            assert_problem(answer, 409, "conflict")
            assert "latest run is for 9999-12; no month follows it" in answer.get_json()["detail"]


# ---- overrides (issue 51 part 4): the employee, the run, the fields to change ----------


def test_an_update_of_the_employee_and_fields_a_developer_chose(client, headers, sandbox):
    person = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-007")
    made = client.post("/v1/sandbox/events", headers=headers, json={
        "type": "employee.updated", "employee_id": person.id, "set": {"job_title": "Cashier", "department": "Retail"}})
    assert made.status_code == 201, made.get_data(as_text=True)
    data = made.get_json()["data"]
    assert data["employee"]["id"] == person.id and data["employee"]["job_title"] == "Cashier"
    changed = {"job_title": person.job_title, "department": person.department}
    assert data["previous_attributes"] == {name: was for name, was in changed.items() if was != data["employee"][name]}


@pytest.mark.parametrize("body, path", [
    ({"type": "employee.updated", "set": {"basic_salary_minor": 1}}, "set.basic_salary_minor"),
    ({"type": "employee.updated", "set": {"employment_type": "intern"}}, "set.employment_type"),
    ({"type": "employee.updated", "set": {}}, "set"),
    ({"type": "employee.created", "set": {"job_title": "Cashier"}}, "set"),
    ({"type": "employee.created", "employee_id": "emp_x"}, "employee_id"),
    ({"type": "employee.updated", "employee_id": "emp_nobody"}, "employee_id"),
    ({"type": "payroll_run.finalized", "payroll_run_id": "prun_x"}, "payroll_run_id"),
    ({"type": "payroll_run.paid", "payroll_run_id": "prun_nobody"}, "payroll_run_id"),
])
def test_an_override_a_type_does_not_take_or_a_field_partners_do_not_see_is_422_naming_it(client, headers, sandbox,
                                                                                          body, path):
    before = OutboxEvent.select().count()
    answer = client.post("/v1/sandbox/events", headers=headers, json=body)
    assert_problem(answer, 422, "validation_failed")
    assert path in [error["path"] for error in answer.get_json()["errors"]], answer.get_json()
    assert OutboxEvent.select().count() == before


def test_another_companys_employee_is_none_this_trigger_can_act_on(client, headers, make_sandbox):
    stranger = Employee.get(Employee.company == make_sandbox("SA").id)
    answer = client.post("/v1/sandbox/events", headers=headers,
                         json={"type": "employee.left", "employee_id": stranger.id})
    assert_problem(answer, 422, "validation_failed")
    assert Employee.get_by_id(stranger.id).status != "left"


def test_a_change_that_leaves_what_partners_see_as_it_was_is_refused(client, headers, sandbox):
    person = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-002")
    answer = client.post("/v1/sandbox/events", headers=headers, json={
        "type": "employee.updated", "employee_id": person.id, "set": {"job_title": person.job_title}})
    assert_problem(answer, 422, "validation_failed")
    assert answer.get_json()["errors"][0]["path"] == "set"


def test_the_run_a_developer_chose_takes_the_move_or_it_is_refused_as_it_stands(client, headers, sandbox):
    [run] = PayrollRun.select().where(PayrollRun.company == sandbox.id, PayrollRun.status == "finalized")
    paid = client.post("/v1/sandbox/events", headers=headers,
                       json={"type": "payroll_run.paid", "payroll_run_id": run.id})
    assert paid.status_code == 201 and paid.get_json()["data"]["payroll_run"]["id"] == run.id
    answer = client.post("/v1/sandbox/events", headers=headers,
                         json={"type": "payroll_run.deleted", "payroll_run_id": run.id})
    assert_problem(answer, 409, "conflict")
    assert PayrollRun.get_by_id(run.id).status == "paid"


def test_the_document_names_every_field_a_trigger_sets():
    assert set(SandboxChangesSchema().fields) == set(SETTABLE)
