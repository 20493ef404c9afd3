"""listEventTypes (beyond the contract, v1.3): every event type with the JSON Schema of
its `data`, and every event the service delivers valid against the schema it publishes."""

import json

import jsonschema
import pytest

from app.domain import sandbox_triggers as sandboxes
from app.domain.attendance.ingest import ingest
from app.domain.kernel.events import EVENT_TYPES
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all, punch, settle_later
from tests.receivers import Receiver


def test_every_event_type_is_listed_with_a_schema(client, sandbox, make_key):
    headers = bearer(make_key(sandbox, ["employees:read"]))  # any valid credential
    answer = client.get("/v1/event-types", headers=headers)
    assert answer.status_code == 200
    listed = {item["type"]: item for item in answer.get_json()["data"]}
    assert set(listed) == set(EVENT_TYPES)
    for item in listed.values():
        added = item["type"] in ("payroll_run.wps_updated", "leave.approved", "leave.cancelled")
        assert item["release"] == ("v1.3" if added else "v1.2")
        assert item["description"]
        jsonschema.Draft7Validator.check_schema(item["schema"])
        assert "$ref" not in json.dumps(item["schema"])  # self-contained
    assert listed["payroll_run.deleted"]["schema"]["required"] == ["payroll_run_id"]


def test_it_is_v1_3_and_needs_a_credential(app, client, headers, monkeypatch, live_releases):
    operation = client.get("/v1/openapi.json").get_json()["paths"]["/v1/event-types"]["get"]
    assert operation["operationId"] == "listEventTypes" and operation["x-release"] == "v1.3"
    assert_problem(client.get("/v1/event-types"), 401, "unauthenticated")
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert_problem(client.get("/v1/event-types", headers=headers), 404, "not_found")


def test_the_document_holds_the_same_schemas(client, headers):
    components = client.get("/v1/openapi.json").get_json()["components"]["schemas"]
    assert {"EmployeeEventData", "PayrollRunEventData", "PayrollRunDeletedEventData", "AttendanceRejectedEventData",
            "PingEventData"} <= set(components)


def test_every_delivered_event_is_valid_against_its_published_schema(app, client, headers, sandbox, loopback,
                                                                     runtime, clock):
    schemas = {item["type"]: item["schema"]
               for item in client.get("/v1/event-types", headers=headers).get_json()["data"]}
    with Receiver() as receiver:
        endpoint = create_webhook(client, headers, receiver.url, list(EVENT_TYPES)).get_json()
        for event_type in sandboxes.TRIGGERS:
            sandboxes.trigger(sandbox, event_type, runtime)
        client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
        ingest(sandbox, [punch(1, "clock_out", clock.now().isoformat())], runtime)  # a clock-out alone
        settle_later(runtime)
        deliver_all(app)
        delivered = [json.loads(request["body"]) for request in receiver.requests]
    assert {envelope["type"] for envelope in delivered} == set(EVENT_TYPES)
    for envelope in delivered:
        try:
            jsonschema.validate(envelope["data"], schemas[envelope["type"]], cls=jsonschema.Draft7Validator)
        except jsonschema.ValidationError as error:
            pytest.fail(f"{envelope['type']}: {error.message} at {list(error.absolute_path)}")
