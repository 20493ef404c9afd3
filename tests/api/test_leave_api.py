"""Leave for partners (issue 48 part 4, v1.3, scope `leave:read`): listLeave and
listLeaveBalances, the leave.approved and leave.cancelled events. A partner never sees a
health-related kind of leave, HR's note, another company's leave or an archived
employee's; every answer is what the published document says."""

import json
from datetime import date, timedelta

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playhouse.test_utils import count_queries

from app.domain.leave import balances, requests
from app.domain.leave.law import TYPES
from app.domain.people import actions as hr
from app.models import Company, Employee, LeaveRequest
from tests.api.test_openapi_conformance import contract, validated
from tests.conftest import bearer
from tests.helpers import assert_problem, event_ids, new_events, staff

HR = "hr@example.com"
PARTNER_TYPES = {"annual": "annual", "unpaid": "unpaid"}  # every other kind is "other"


@pytest.fixture
def leave_key(sandbox, make_key):
    return bearer(make_key(sandbox, ["leave:read"]))


def walk(client, headers, path, limit=2):
    """Every item of a list, page by page, and how many pages."""
    separator = "&" if "?" in path else "?"
    url, found, pages = f"{path}{separator}limit={limit}", [], 0
    while url:
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        found += answer.get_json()["data"]
        pages += 1
        cursor = answer.get_json()["next_cursor"]
        url = cursor and f"{path}{separator}limit={limit}&cursor={cursor}"
    return found, pages


def ask(company, number, leave_type, start, end, runtime, **kwargs):
    return requests.request_leave(company.id, staff(company, number).id, leave_type, start, end, HR, runtime,
                                  **kwargs)


@pytest.mark.parametrize("path", ["/v1/leave", "/v1/leave-balances"])
def test_without_leave_read_both_lists_are_403_problems(client, sandbox, make_key, path):
    every_other = [scope for scope in make_key.__defaults__[0] if scope != "leave:read"]
    body = assert_problem(client.get(path, headers=bearer(make_key(sandbox, every_other))), 403,
                          "insufficient_scope")
    assert "leave:read" in body["detail"] if "detail" in body else "leave:read" in body["title"]


def test_the_sandbox_leave_comes_in_pages_without_its_kind_or_note(client, sandbox, leave_key):
    stored = LeaveRequest.select().where(LeaveRequest.company == sandbox.id)
    LeaveRequest.update(note="Doctor's letter: surgery").where(LeaveRequest.company == sandbox.id).execute()
    found, pages = walk(client, leave_key, "/v1/leave")
    assert len(found) == stored.count() == 6 and pages == 3
    assert sorted(item["id"] for item in found) == sorted(row.id for row in stored)
    assert sorted(item["type"] for item in found) == ["annual"] * 4 + ["other", "unpaid"]
    assert {item["status"] for item in found} == {"approved", "requested"}
    assert all(set(item) == {"id", "employee_id", "type", "status", "start_date", "end_date", "days", "updated_at"}
               for item in found)
    text = json.dumps(found)
    assert "sick" not in text and "surgery" not in text


def test_filters_by_employee_status_and_window(client, sandbox, leave_key, runtime):
    everything, _ = walk(client, leave_key, "/v1/leave", limit=50)
    six = staff(sandbox, "SBX-006").id
    mine, _ = walk(client, leave_key, f"/v1/leave?employee_id={six}")
    assert {item["employee_id"] for item in mine} == {six} and len(mine) == 2
    asked, _ = walk(client, leave_key, "/v1/leave?status=requested")
    assert len(asked) == 2 and {item["status"] for item in asked} == {"requested"}
    assert walk(client, leave_key, "/v1/leave?status=cancelled")[0] == []
    day = date.fromisoformat(everything[0]["end_date"])  # one leave's last day: it touches [day, day]
    touching, _ = walk(client, leave_key, f"/v1/leave?from={day}&to={day}")
    assert touching and all(item["start_date"] <= str(day) <= item["end_date"] for item in touching)
    after, _ = walk(client, leave_key, f"/v1/leave?from={day + timedelta(days=1)}")
    assert {item["id"] for item in after} == {item["id"] for item in everything if item["end_date"] > str(day)}
    assert_problem(client.get("/v1/leave?status=sick", headers=leave_key), 400, "invalid_request")
    assert_problem(client.get("/v1/leave?status=on_leave", headers=leave_key), 400, "invalid_request")
    assert_problem(client.get("/v1/leave?from=2026-12-01&to=2026-11-01", headers=leave_key), 400,
                   "invalid_request")
    assert_problem(client.get("/v1/leave?from=٢٠٢٦-11-01", headers=leave_key), 400, "invalid_request")
    assert_problem(client.get("/v1/leave?type=annual", headers=leave_key), 400, "invalid_request")


def test_another_companys_leave_and_employees_are_never_shown(client, sandbox, make_sandbox, leave_key):
    other = make_sandbox("SA")
    theirs = staff(other, "SBX-006").id
    assert walk(client, leave_key, f"/v1/leave?employee_id={theirs}")[0] == []
    assert walk(client, leave_key, f"/v1/leave-balances?employee_id={theirs}")[0] == []
    found, _ = walk(client, leave_key, "/v1/leave", limit=200)
    ours = {row.id for row in Employee.select().where(Employee.company == sandbox.id)}
    assert found and {item["employee_id"] for item in found} <= ours
    listed, _ = walk(client, leave_key, "/v1/leave-balances", limit=200)
    assert {item["employee_id"] for item in listed} == ours


def test_archived_employees_leave_and_leavers_balances_are_not_shown(client, sandbox, leave_key, runtime):
    six, eight = staff(sandbox, "SBX-006"), staff(sandbox, "SBX-008")
    hr.archive_employee(sandbox.id, six.id)
    hr.end_employment(sandbox.id, eight.id, date(2026, 11, 21), runtime)
    found, _ = walk(client, leave_key, "/v1/leave")
    assert found and six.id not in {item["employee_id"] for item in found}
    assert eight.id in {item["employee_id"] for item in found}  # a leaver's leave stays listed
    listed, _ = walk(client, leave_key, "/v1/leave-balances")
    assert len(listed) == 8 and not {six.id, eight.id} & {item["employee_id"] for item in listed}


def test_updated_since_walks_ties_without_dropping_one(client, sandbox, leave_key, runtime, clock):
    clock.advance(minutes=1)
    tied = [ask(sandbox, "SBX-001", "sick", date(2027, 2, day), date(2027, 2, day), runtime) for day in (1, 3, 5)]
    since = "2026-11-21T09:01:00Z"
    found, pages = walk(client, leave_key, f"/v1/leave?updated_since={since}", limit=1)
    assert sorted(item["id"] for item in found) == sorted(leave.id for leave in tied) and pages == 3  # each once
    clock.advance(minutes=1)
    requests.cancel_leave(sandbox.id, tied[2].id, HR, runtime)
    latest = max(item["updated_at"] for item in found)
    again, _ = walk(client, leave_key, f"/v1/leave?updated_since={latest}", limit=1)
    assert tied[2].id in {item["id"] for item in again}
    assert next(item for item in again if item["id"] == tied[2].id)["status"] == "cancelled"
    cursor = client.get(f"/v1/leave?updated_since={since}&limit=1", headers=leave_key).get_json()["next_cursor"]
    assert_problem(client.get(f"/v1/leave?limit=1&cursor={cursor}", headers=leave_key), 400, "invalid_request")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(TYPES), start=st.integers(0, 300), length=st.integers(1, 20))
def test_no_kind_but_annual_or_unpaid_is_ever_named(client, sandbox, leave_key, runtime, kind, start, length):
    """Whatever kind HR records, partners read `annual`, `unpaid` or `other`, in the list
    and in the event (health and family never leave the service)."""
    Company.update(leave_negative_allowed=True).where(Company.id == sandbox.id).execute()
    first = date(2027, 1, 1) + timedelta(days=start)
    LeaveRequest.delete().where(LeaveRequest.employee == staff(sandbox, "SBX-001").id).execute()
    seen = event_ids(sandbox)
    leave = ask(sandbox, "SBX-001", kind, first, first + timedelta(days=length - 1), runtime, approve=True,
                note=f"{kind}: private")
    found, _ = walk(client, leave_key, "/v1/leave?status=approved", limit=200)
    [item] = [item for item in found if item["id"] == leave.id]
    [event] = [event for event in new_events(sandbox, seen) if event["type"] == "leave.approved"]
    assert item == event["data"]["leave"]
    assert item["type"] == PARTNER_TYPES.get(kind, "other")
    assert kind in ("annual", "unpaid", "other") or kind not in json.dumps(found) + json.dumps(event)
    assert "private" not in json.dumps(found) + json.dumps(event)


def test_balances_are_the_domains_in_pages_by_employee_and_read_in_two_queries(client, sandbox, leave_key):
    ids = sorted(row.id for row in Employee.select().where(Employee.company == sandbox.id))
    found, pages = walk(client, leave_key, "/v1/leave-balances", limit=4)
    assert [item["employee_id"] for item in found] == ids and pages == 3
    for item in found:
        expected = balances.balance_of(Employee.get_by_id(item["employee_id"]), date(2026, 11, 21))
        assert item == {"employee_id": expected.employee_id, "type": "annual", "as_of": "2026-11-21",
                        "accrued_days": balances.in_days(expected.accrued), "taken_days": expected.taken,
                        "balance_days": balances.in_days(expected.balance)}
    assert sum(item["taken_days"] for item in found) > 0  # the sandbox's approved annual leave
    ahead, _ = walk(client, leave_key, "/v1/leave-balances?as_of=2027-11-21", limit=50)
    assert all(later["accrued_days"] > now["accrued_days"] for later, now in zip(ahead, found, strict=True))
    assert {item["as_of"] for item in ahead} == {"2027-11-21"}
    key_and_company = 2  # the credential's one query, and its last use
    with count_queries() as one_page:
        client.get("/v1/leave-balances?limit=200", headers=leave_key)
    assert one_page.count <= key_and_company + 2, one_page.count  # employees, then their leave: not one per person
    assert_problem(client.get("/v1/leave-balances?as_of=2026-02-30", headers=leave_key), 400, "invalid_request")


def test_the_events_reach_only_leave_read_and_match_the_catalog(client, sandbox, make_key, runtime, leave_key,
                                                                clock):
    seen = event_ids(sandbox)
    leave = ask(sandbox, "SBX-001", "sick", date(2027, 3, 1), date(2027, 3, 4), runtime)
    assert new_events(sandbox, seen) == []  # a request alone is not news; listLeave shows it
    clock.advance(seconds=1)  # one event a second: the outbox orders ties of one instant by id
    requests.approve_leave(sandbox.id, leave.id, HR, runtime)
    clock.advance(seconds=1)
    requests.cancel_leave(sandbox.id, leave.id, HR, runtime)
    clock.advance(seconds=1)
    asked = ask(sandbox, "SBX-002", "annual", date(2027, 3, 1), date(2027, 3, 2), runtime)
    requests.cancel_leave(sandbox.id, asked.id, HR, runtime)  # a requested leave cancelled is news too
    made = [event for event in new_events(sandbox, seen)]
    assert [(event["type"], event["data"]["leave"]["id"]) for event in made] == [
        ("leave.approved", leave.id), ("leave.cancelled", leave.id), ("leave.cancelled", asked.id)]
    assert made[0]["data"]["leave"]["type"] == "other" and made[1]["data"]["leave"]["status"] == "cancelled"
    catalog = {item["type"]: item for item in client.get("/v1/event-types", headers=leave_key).get_json()["data"]}
    for event in made:
        jsonschema.validate(event["data"], catalog[event["type"]]["schema"])
        assert catalog[event["type"]]["release"] == "v1.3"
    feed = client.get("/v1/events?types=leave.approved,leave.cancelled", headers=leave_key).get_json()["data"]
    assert [event["id"] for event in feed] == [event["id"] for event in made]
    without = bearer(make_key(sandbox, ["employees:read", "payroll:read", "attendance:read", "webhooks:manage"]))
    assert not [e for e in client.get("/v1/events?limit=200", headers=without).get_json()["data"]
                if e["type"].startswith("leave.")]
    assert_problem(client.get(f"/v1/events/{made[0]['id']}", headers=without), 404, "not_found")
    assert client.get("/v1/events?types=leave.approved", headers=without).get_json()["data"] == []


def test_with_v1_3_off_no_leave_event_is_written_and_the_lists_are_dark(client, sandbox, leave_key, runtime,
                                                                        live_releases, app):
    live_releases(("v1.0", "v1.1", "v1.2"))
    seen = event_ids(sandbox)
    ask(sandbox, "SBX-001", "annual", date(2027, 3, 1), date(2027, 3, 2), app.extensions["runtime"], approve=True)
    assert new_events(sandbox, seen) == []
    assert_problem(client.get("/v1/leave", headers=leave_key), 404, "not_found")
    assert_problem(client.get("/v1/leave-balances", headers=leave_key), 404, "not_found")


def test_only_a_credential_with_leave_read_subscribes_to_leave_events(client, sandbox, make_key, loopback,
                                                                       receiver):
    manage = bearer(make_key(sandbox, ["webhooks:manage"]))
    body = {"url": receiver.url, "events": ["employee.updated", "leave.approved"]}
    refused = assert_problem(client.post("/v1/webhooks", headers=manage, json=body), 422, "validation_failed")
    assert [error["path"] for error in refused["errors"]] == ["events[1]"]
    assert "leave:read" in refused["errors"][0]["message"]
    both = bearer(make_key(sandbox, ["webhooks:manage", "leave:read"]))
    made = client.post("/v1/webhooks", headers=both, json=body)
    assert made.status_code == 201, made.get_data(as_text=True)
    patched = client.patch(f"/v1/webhooks/{made.get_json()['id']}", headers=manage, json={"events": ["ping"]})
    assert patched.status_code == 404  # another credential's endpoint, as always
    owned = client.post("/v1/webhooks", headers=manage, json={**body, "events": ["employee.updated"]}).get_json()
    assert_problem(client.patch(f"/v1/webhooks/{owned['id']}", headers=manage, json={"events": ["leave.cancelled"]}),
                   422, "validation_failed")


def test_every_answer_is_as_documented(client, sandbox, make_key, leave_key, runtime):
    openapi = contract(client.get("/v1/openapi.json").get_json())
    ask(sandbox, "SBX-001", "maternity", date(2027, 1, 3), date(2027, 3, 27), runtime, approve=True)
    for url in ("/v1/leave", "/v1/leave?limit=2", "/v1/leave?status=approved&from=2026-01-01&to=2027-12-31",
                "/v1/leave?updated_since=2026-11-21T09:00:00Z", "/v1/leave-balances",
                "/v1/leave-balances?as_of=2027-01-01&limit=3", "/v1/leave?status=nope", "/v1/leave?limit=0",
                "/v1/leave-balances?as_of=tomorrow"):
        validated(openapi, client.get(url, headers=leave_key))
    validated(openapi, client.get("/v1/leave", headers=bearer(make_key(sandbox, ["employees:read"]))))
    validated(openapi, client.get("/v1/leave-balances", headers={}))


def test_balances_follow_the_companys_leave_choices(client, sandbox, leave_key):
    """A key's principal carries only some of the company's columns: the balances read the
    choices as stored (more annual days, a carry-over cap), as the console and CLI do."""
    Company.update(leave_annual_days=40, leave_carry_over_days=0).where(Company.id == sandbox.id).execute()
    found, _ = walk(client, leave_key, "/v1/leave-balances", limit=50)
    for item in found:
        expected = balances.balance_of(Employee.get_by_id(item["employee_id"]), date(2026, 11, 21))
        assert (item["accrued_days"], item["balance_days"]) == (balances.in_days(expected.accrued),
                                                                balances.in_days(expected.balance))
    assert any(balances.balance_of(Employee.get_by_id(item["employee_id"]), date(2026, 11, 21)).forfeited
               for item in found)
