"""`updated_since` on listEmployees and listPayrollRuns (v1.3): the items whose partner
form changed at or after a time, oldest change first, ties by id, so that a partner
asking again from the largest `updated_at` it saw misses nothing; an internal change
(a salary) never moves `updated_at`."""

from datetime import timedelta

import pytest

from app.domain.kernel.clock import format_utc
from app.domain.payroll import drafts, moves
from app.domain.people import actions as hr
from app.domain.people import bulk
from app.models import Employee, PayrollRun
from tests.helpers import assert_problem


def since(moment):
    return format_utc(moment)


def listed(client, headers, path, query, limit=2):
    """Every item of a list with `query`, following next_cursor."""
    items, cursor = [], None
    while True:
        answer = client.get(f"{path}?limit={limit}&{query}" + (f"&cursor={cursor}" if cursor else ""),
                            headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        items += answer.get_json()["data"]
        cursor = answer.get_json()["next_cursor"]
        if cursor is None:
            return items


def people(sandbox):
    return list(Employee.select().where(Employee.company == sandbox.id).order_by(Employee.staff_number))


def test_only_employees_changed_since_oldest_change_first(client, headers, sandbox, clock, runtime):
    first, second, third = people(sandbox)[:3]
    clock.advance(hours=1)
    mark = clock.now()
    clock.advance(minutes=1)
    hr.update_employee(sandbox.id, third.id, {"job_title": "Buyer"}, runtime)
    clock.advance(minutes=1)
    hr.update_employee(sandbox.id, first.id, {"department": "Sales"}, runtime)
    items = listed(client, headers, "/v1/employees", f"updated_since={since(mark)}")
    assert [item["id"] for item in items] == [third.id, first.id]
    assert [item["updated_at"] for item in items] == sorted(item["updated_at"] for item in items)
    everything = listed(client, headers, "/v1/employees", f"updated_since={since(mark - timedelta(days=3650))}")
    assert len(everything) == len(people(sandbox)) and second.id in {item["id"] for item in everything}


def test_an_internal_change_moves_nothing(client, headers, sandbox, clock, runtime):
    person = people(sandbox)[0]
    clock.advance(hours=1)
    mark = clock.now()
    hr.update_employee(sandbox.id, person.id, {"basic_salary_minor": person.basic_salary_minor + 50_000}, runtime)
    csv = ("staff_number,name_en,employment_type,hire_date,basic_salary,job_title\n"
           f"{person.staff_number},{person.name_en},{person.employment_type},{person.hire_date},999.000,"
           f"{person.job_title}\n")
    assert bulk.import_employees(sandbox, csv, clock)["updated"] == 1  # the salary changed, in bulk
    assert Employee.get_by_id(person.id).basic_salary_minor == 999_000
    assert listed(client, headers, "/v1/employees", f"updated_since={since(mark)}") == []
    csv = csv.replace(f",{person.job_title}\n", ",Chief Buyer\n")
    bulk.import_employees(sandbox, csv, clock)  # a partner-visible change in bulk moves it
    assert [item["id"] for item in listed(client, headers, "/v1/employees", f"updated_since={since(mark)}")] == [
        person.id]


def test_two_changes_at_one_instant_are_never_missed(client, headers, sandbox, clock, runtime):
    """A partner takes one page, keeps the largest updated_at it saw, and asks again from
    it: the other change of that instant comes (and the first again: dedupe by id)."""
    a, b = sorted(people(sandbox)[:2], key=lambda person: person.id)
    clock.advance(hours=1)
    tie = clock.now()
    for person in (b, a):
        hr.update_employee(sandbox.id, person.id, {"job_title": "Same instant"}, runtime)
    page = client.get(f"/v1/employees?limit=1&updated_since={since(tie)}", headers=headers).get_json()
    assert [item["id"] for item in page["data"]] == [a.id]  # ties by id
    largest = max(item["updated_at"] for item in page["data"])
    again = listed(client, headers, "/v1/employees", f"updated_since={largest}", limit=1)
    assert [item["id"] for item in again] == [a.id, b.id]


def test_payroll_runs_changed_since_oldest_change_first(client, headers, sandbox, clock, runtime):
    another_run(sandbox, clock, runtime)
    runs = list(PayrollRun.select().where(PayrollRun.company == sandbox.id, PayrollRun.status == "finalized"))
    clock.advance(hours=1)
    mark = clock.now()
    assert listed(client, headers, "/v1/payroll-runs", f"updated_since={since(mark)}") == []
    clock.advance(minutes=1)
    moves.mark_paid(runs[0], runtime)
    items = listed(client, headers, "/v1/payroll-runs", f"updated_since={since(mark)}")
    assert [(item["id"], item["status"]) for item in items] == [(runs[0].id, "paid")]
    assert items[0]["updated_at"] == format_utc(clock.now())
    filtered = listed(client, headers, "/v1/payroll-runs", f"updated_since={since(mark)}&status=finalized")
    assert filtered == []
    every = listed(client, headers, "/v1/payroll-runs", f"updated_since={since(mark - timedelta(days=3650))}")
    assert [item["updated_at"] for item in every] == sorted(item["updated_at"] for item in every)
    assert {item["id"] for item in every} == {run.id for run in runs}


def another_run(sandbox, clock, runtime, month="2026-09"):
    draft = drafts.build_draft_run(sandbox.entities.get(), month, clock)
    return moves.finalize_run(draft, runtime)


@pytest.mark.parametrize("path", ["/v1/employees", "/v1/payroll-runs"])
def test_a_cursor_of_the_plain_list_is_not_one_of_updated_since(client, headers, sandbox, clock, runtime, path):
    another_run(sandbox, clock, runtime)
    cursor = client.get(f"{path}?limit=1", headers=headers).get_json()["next_cursor"]
    assert cursor
    answer = client.get(f"{path}?limit=1&updated_since=2020-01-01T00:00:00Z&cursor={cursor}", headers=headers)
    assert_problem(answer, 400, "invalid_request")


@pytest.mark.parametrize("value", ["2026-11-20", "2026-11-20T00:00:00", "yesterday", "2026-13-01T00:00:00Z"])
@pytest.mark.parametrize("path", ["/v1/employees", "/v1/payroll-runs"])
def test_updated_since_must_be_rfc_3339(client, headers, path, value):
    answer = client.get(f"{path}?updated_since={value}", headers=headers)
    assert_problem(answer, 400, "invalid_request")
    assert "updated_since" in answer.get_json()["detail"]


@pytest.mark.parametrize("path", ["/v1/employees", "/v1/payroll-runs"])
def test_without_v1_3_updated_since_is_an_unknown_parameter(app, client, headers, path, monkeypatch, live_releases):
    live_releases(["v1.0", "v1.1", "v1.2"])
    answer = client.get(f"{path}?updated_since=2026-11-20T00:00:00Z", headers=headers)
    assert_problem(answer, 400, "invalid_request")
    assert "Unknown query parameter `updated_since`" in answer.get_json()["detail"]
    assert client.get(path, headers=headers).status_code == 200
