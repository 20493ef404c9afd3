"""No input produces a 500 or an HTML error under /v1, nor a server error in the console:
overflowing dates, pathological nesting, NULs, header injection, huge page numbers and
over-long URLs each get a 4xx problem (or a console message). Runs on both databases."""

import json

import pytest

from app.domain.people.employees import roster
from app.models import ApiKey, Company, Employee, User, WebhookDelivery
from tests.api.console import csrf, sign_in
from tests.helpers import assert_problem, create_webhook

PROBLEM = "application/problem+json"


@pytest.mark.parametrize("url, status", [
    ("/v1/attendance?from=9999-12-31&to=9999-12-31", 200),
    ("/v1/attendance?from=0001-01-01&to=0001-01-02", 200),
    ("/v1/attendance?from=9999-12-01&to=9999-12-31&cursor=abc", 400),
    ("/v1/employees/%00", 404),
    ("/v1/employees/emp_%00x", 404),
    ("/v1/payroll-runs/%00", 404),
    ("/v1/employees?entity_id=%00", 400),
    ("/v1/attendance?from=2026-11-01&to=2026-11-02&employee_id=a%00b", 400),
    ("/v1/employees?cursor=%00", 400),
    ("/v1/employees?limit=1&limit=2", 400),
    ("/v1/employees?limit=99999999999999999999999", 400),
    ("/v1/payroll-runs?from=0000-01", 200),
    (f"/v1/employees?entity_id={'x' * 5000}", 414),
])
def test_hostile_urls_get_a_problem(client, headers, url, status):
    response = client.get(url, headers=headers)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == (PROBLEM if status >= 400 else "application/json")


@pytest.mark.parametrize("url, field", [
    ("/v1/events?since=9999-12-31T23:59:59-00:01", "since"),
    ("/v1/employees?updated_since=0001-01-01T00:00:00%2B00:01", "updated_since"),
    ("/v1/payroll-runs?updated_since=0001-01-01T00:00:00%2B00:01", "updated_since"),
    ("/v1/employees?updated_since=9999-12-31T23:59:59.999999-23:59", "updated_since"),
])
def test_a_time_its_offset_carries_past_the_calendar_is_a_400_naming_it(client, headers, url, field):
    body = assert_problem(client.get(url, headers=headers), 400, "invalid_request")
    assert field in json.dumps(body)


@pytest.mark.parametrize("url", ["/v1/events?since=9999-12-31T23:59:59Z", "/v1/events?since=0001-01-01T00:00:00Z",
                                 "/v1/employees?updated_since=0001-01-01T00:00:00-00:01",
                                 "/v1/payroll-runs?updated_since=9999-12-31T23:59:59Z"])
def test_the_calendars_own_edges_are_read(client, headers, url):
    assert client.get(url, headers=headers).status_code == 200


def test_a_replay_since_past_the_calendar_is_a_422_naming_since_and_queues_nothing(client, headers, loopback,
                                                                                  receiver):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    before = WebhookDelivery.select().count()
    for since in ("9999-12-31T23:59:59-00:01", "0001-01-01T00:00:00+00:01"):
        response = client.post(f"/v1/webhooks/{endpoint['id']}/replay", headers=headers, json={"since": since})
        body = assert_problem(response, 422, "validation_failed")
        assert [error["path"] for error in body["errors"]] == ["since"]
    assert WebhookDelivery.select().count() == before


def test_json_nested_a_thousand_deep_is_a_400(client, headers):
    body = '{"events": ' + "[" * 1000 + "]" * 1000 + "}"
    response = client.post("/v1/attendance/events", headers=headers, data=body, content_type="application/json")
    assert response.status_code == 400 and response.mimetype == PROBLEM
    assert "nested" in response.get_json()["detail"]
    deep_event = {"events": [{"external_id": "d", "type": json.loads("[" * 900 + "]" * 900)}]}
    response = client.post("/v1/attendance/events", headers=headers, data=json.dumps(deep_event),
                           content_type="application/json")
    assert response.status_code in (207, 400) and response.mimetype in (PROBLEM, "application/json")


@pytest.mark.parametrize("url", [
    "/console/employees?page=99999999999999999999",
    "/console/employees?page=-5",
    "/console/employees?q=%00",
    "/console/employees/%00",
    "/console/attendance?from=9999-12-01&to=9999-12-02",
    "/console/attendance?from=0001-01-01&to=0001-01-02",
    "/console/payroll/%00",
])
def test_hostile_console_urls_get_a_page_not_a_server_error(client, admin, url):
    response = client.get(url)
    assert response.status_code < 500, response.get_data(as_text=True)[:300]


def test_a_next_with_a_line_break_never_reaches_a_header(client, live_company, admin):
    response = sign_in(client, admin.email)
    assert response.status_code == 302
    response = client.post("/console/sign-in?next=/console%0d%0aX-Injected:1",
                           data={"email": admin.email, "password": "correct horse battery staple",
                                 "csrf_token": csrf(client)})
    assert response.status_code in (302, 303) and "X-Injected" not in response.headers
    assert "\r" not in response.headers["Location"] and "\n" not in response.headers["Location"]


# ---- text no database can store, refused where it enters (app/domain/kernel/text.py) ----


@pytest.mark.parametrize("path, page, form", [
    ("/console/sign-in", "/console/sign-in", {"email": "a\x00b@example.com", "password": "x"}),
    ("/console/forgot-password", "/console/forgot-password", {"email": "a\x00b@example.com"}),
    ("/console/integrations/keys", "/console/integrations", {"name": "Till\x00", "scopes": "employees:read"}),
])
def test_a_nul_in_a_console_form_is_a_400_page_and_changes_nothing(app, client, admin, path, page, form):
    keys_before = ApiKey.select().count()
    response = client.post(path, data={**form, "csrf_token": csrf(client, page)})
    assert response.status_code == 400 and response.mimetype == "text/html", response.get_data(as_text=True)[:300]
    assert "NUL" in response.get_data(as_text=True) and "Nothing was changed" in response.get_data(as_text=True)
    assert ApiKey.select().count() == keys_before


def test_an_employee_form_with_a_nul_changes_nothing(client, in_sandbox):
    [employee, *_] = roster(in_sandbox.id)
    before = Employee.get_by_id(employee.id).job_title
    page = f"/console/employees/{employee.id}"
    response = client.post(page, data={"job_title": "Chief\x00", "csrf_token": csrf(client, page)})
    assert response.status_code == 400
    assert Employee.get_by_id(employee.id).job_title == before


@pytest.mark.parametrize("args", [
    ["companies", "create", "--name", "Gulf \udcff", "--country", "KW"],
    ["users", "create", "--email", "ops\udcff@example.com"],
])
def test_a_cli_option_that_is_not_text_is_one_line_and_stores_nothing(run, args):
    before = (Company.select().count(), User.select().count())
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "lone surrogate" in result.output and "--" in result.output
    assert (Company.select().count(), User.select().count()) == before


def test_an_offsets_plus_decoded_as_a_space_is_named_with_its_cure(client, headers):
    body = assert_problem(client.get("/v1/events?since=2026-11-20T00:00:00+03:00", headers=headers), 400,
                          "invalid_request")
    assert "%2B" in json.dumps(body)
    assert client.get("/v1/events?since=2026-11-20T00:00:00%2B03:00", headers=headers).status_code == 200
