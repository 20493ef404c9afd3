"""Conditional GETs (v1.3): every GET under /v1 answers with a strong ETag of its body,
and `If-None-Match` with that tag answers 304, no body, the same request id and rate
limit headers. A changed body has another tag."""

import pytest

from app.api.conditional import body_tag
from app.models import Employee, OutboxEvent, PayrollRun
from tests.conftest import bearer
from tests.helpers import create_webhook


@pytest.fixture
def key(sandbox, make_key):
    return bearer(make_key(sandbox))


def gets_of(document):
    return sorted(op["operationId"] for item in document["paths"].values()
                  for method, op in item.items() if method == "get")


def test_every_get_of_the_document_tags_its_body_and_answers_304_to_that_tag(
        client, sandbox, key, loopback, receiver):
    document = client.get("/v1/openapi.json").get_json()
    employee = Employee.get(Employee.company == sandbox)
    run = PayrollRun.get(PayrollRun.company == sandbox, PayrollRun.status == "finalized")
    endpoint = create_webhook(client, key, receiver.url).get_json()
    urls = {
        "getCompany": "/v1/company", "getCredential": "/v1/credential", "listEmployees": "/v1/employees?limit=3",
        "getEmployee": f"/v1/employees/{employee.id}", "listPayrollRuns": "/v1/payroll-runs",
        "getPayrollRun": f"/v1/payroll-runs/{run.id}",
        "listAttendanceDays": "/v1/attendance?from=2026-11-01&to=2026-11-20",
        "listWebhookEndpoints": "/v1/webhooks", "getWebhookEndpoint": f"/v1/webhooks/{endpoint['id']}",
        "listWebhookDeliveries": f"/v1/webhooks/{endpoint['id']}/deliveries", "listEventTypes": "/v1/event-types",
        "listEvents": "/v1/events?limit=200", "listJournalAccounts": "/v1/journal-accounts",
        "listJournalEntries": "/v1/journal-entries?limit=200", "listLeave": "/v1/leave",
        "listLeaveBalances": "/v1/leave-balances",
        "getEvent": f"/v1/events/{OutboxEvent.get(OutboxEvent.company == sandbox, OutboxEvent.type != 'ping').id}",
    }
    assert sorted(urls) == gets_of(document)  # a new GET is added here too
    for operation_id, url in urls.items():
        first = client.get(url, headers=key)
        assert first.status_code == 200, (operation_id, first.get_data(as_text=True))
        assert first.headers["ETag"] == f'"{body_tag(first.get_data())}"', operation_id
        again = client.get(url, headers={**key, "If-None-Match": first.headers["ETag"],
                                         "X-Request-Id": f"poll-{operation_id}"})
        assert again.status_code == 304, operation_id
        assert again.get_data() == b"" and "Content-Type" not in again.headers
        assert again.headers["ETag"] == first.headers["ETag"]
        assert again.headers["X-Request-Id"] == f"poll-{operation_id}"
        remaining = int(first.headers["X-RateLimit-Remaining"])
        assert int(again.headers["X-RateLimit-Remaining"]) == remaining - 1  # it still counts


def test_a_change_moves_the_tag(client, sandbox, key):
    employee = Employee.get(Employee.company == sandbox)
    before = client.get(f"/v1/employees/{employee.id}", headers=key)
    listed = client.get("/v1/employees", headers=key)
    Employee.update(job_title="Buyer").where(Employee.id == employee.id).execute()
    after = client.get(f"/v1/employees/{employee.id}", headers={**key, "If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.get_json()["job_title"] == "Buyer"
    assert after.headers["ETag"] != before.headers["ETag"]
    relisted = client.get("/v1/employees", headers={**key, "If-None-Match": listed.headers["ETag"]})
    assert relisted.status_code == 200


@pytest.mark.parametrize("sent, modified", [
    ('W/"{tag}"', False),  # If-None-Match compares weakly (RFC 9110, 13.1.2)
    ('"other", "{tag}"', False),
    ("*", False),
    ('"other"', True),
    ("", True),
])
def test_if_none_match_is_read_as_rfc_9110_says(client, key, sent, modified):
    tag = client.get("/v1/company", headers=key).headers["ETag"].strip('"')
    answer = client.get("/v1/company", headers={**key, "If-None-Match": sent.format(tag=tag)})
    assert answer.status_code == (200 if modified else 304)


def test_only_successful_gets_are_tagged(client, key, loopback, receiver):
    assert "ETag" not in client.get("/v1/employees/emp_nope", headers=key).headers
    assert "ETag" not in client.get("/v1/company").headers  # 401
    created = create_webhook(client, key, receiver.url)
    assert created.status_code == 201 and "ETag" not in created.headers
    # a 404 is not turned into a 304 whatever the request holds
    assert client.get("/v1/employees/emp_nope", headers={**key, "If-None-Match": "*"}).status_code == 404


def test_head_answers_as_get_does(client, key):
    got = client.get("/v1/company", headers=key)
    head = client.head("/v1/company", headers=key)
    assert head.status_code == 200 and head.headers["ETag"] == got.headers["ETag"]
    assert client.head("/v1/company", headers={**key, "If-None-Match": got.headers["ETag"]}).status_code == 304


def test_without_v1_3_no_tag_is_sent_and_if_none_match_is_ignored(app, client, key, monkeypatch, live_releases):
    live_releases(["v1.0", "v1.1", "v1.2"])
    answer = client.get("/v1/company", headers={**key, "If-None-Match": "*"})
    assert answer.status_code == 200 and "ETag" not in answer.headers


def test_every_answer_is_the_callers_alone_and_revalidated(client, headers):
    """No shared cache may hand one key's answer to another (Cache-Control: private), and
    a client revalidates with the ETag before reusing one (no-cache); whatever v1.3 says."""
    first = client.get("/v1/employees", headers=headers)
    again = client.get("/v1/employees", headers={**headers, "If-None-Match": first.headers["ETag"]})
    missing = client.get("/v1/employees/emp_nobody", headers=headers)
    posted = client.post("/v1/webhooks", headers=headers, json={"url": "nope"})
    for answer in (first, again, missing, posted):
        assert answer.headers["Cache-Control"] == "private, no-cache", answer.status_code
        assert "Authorization" in answer.headers["Vary"]
    assert again.status_code == 304
    for public in ("/v1/openapi.json", "/v1/docs"):
        assert client.get(public).headers.get("Cache-Control") != "private, no-cache"
