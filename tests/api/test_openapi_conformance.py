"""Real answers of every operation, successes and errors, validate against the published
document (openapi-core, as a partner's generated client would read them), on whichever
database the suite runs. A v1-style additive change (a new field anywhere) must too."""

import copy
import json

import pytest
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from werkzeug.wrappers import Request, Response

from app.domain.access import keys
from app.domain.webhooks.urls import parse_networks
from app.egress import Sender
from app.limits import make_limiter
from app.models import Company, Employee, PayrollRun
from tests.conftest import bearer
from tests.helpers import ADDITION_NAMES, CONTRACT_NAMES, deliver_all, punch, settle_due
from tests.receivers import Receiver


@pytest.fixture
def document(client):
    spec = client.get("/v1/openapi.json").get_json()
    validate(spec)  # a valid OpenAPI 3 document, or generators refuse it
    return spec


def contract(document):
    """The document as openapi-core reads it; problems are JSON too."""
    config = Config(extra_media_type_deserializers={"application/problem+json": json.loads})
    return OpenAPI.from_dict(document, config=config)


def validated(openapi, response):
    # The request as sent, less its body: the service has read it, and only the
    # response is checked here.
    sent = response.request
    request = Request.from_values(sent.path, base_url=sent.host_url, method=sent.method,
                                  query_string=sent.query_string.decode(), headers=dict(sent.headers))
    openapi.validate_response(WerkzeugOpenAPIRequest(request), WerkzeugOpenAPIResponse(response))
    return response


def with_new_fields(value):
    """`value` with a field v1 might add in every object."""
    if isinstance(value, dict):
        return {**{key: with_new_fields(item) for key, item in value.items()}, "added_in_v1_9": {"x": 1}}
    if isinstance(value, list):
        return [with_new_fields(item) for item in value]
    return value


def test_operations_carry_the_contract_names_and_document_what_is_sent(document):
    operations = [op for item in document["paths"].values() for op in item.values() if "x-release" in op]
    assert {op["operationId"] for op in operations if op["x-release"] != "v1.3"} == CONTRACT_NAMES
    assert {op["operationId"] for op in operations if op["x-release"] == "v1.3"} == ADDITION_NAMES
    for op in operations:
        for status, response in op["responses"].items():
            if status == "default":
                assert response == {"$ref": "#/components/responses/DEFAULT_ERROR"}
                continue
            assert "X-Request-Id" in response["headers"], (op["operationId"], status)
            assert ("X-RateLimit-Remaining" in response["headers"]) == (status != "401")
            assert ("Retry-After" in response["headers"]) == (status == "429")
            if status == "304":  # a conditional GET's answer (v1.3): no body
                assert "content" not in response and "ETag" in response["headers"], op["operationId"]
            elif not status.startswith("2"):
                assert list(response["content"]) == ["application/problem+json"]
        assert {"400", "404"} <= set(op["responses"]), op["operationId"]  # unknown parameter; not live yet
    default = document["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == ["application/problem+json"]
    assert "X-Request-Id" in default["headers"]


def test_no_schema_forbids_the_fields_v1_will_add(document):
    """Only the request bodies of v1.3's own operations refuse unknown fields (README,
    "Beyond the contract"); no answer's schema does, so tomorrow's fields break no client."""
    forbidding = {name for name, schema in document["components"]["schemas"].items()
                  if schema.get("additionalProperties") is False}
    assert forbidding == {"RotateSecret", "Replay", "TriggerSandboxEvent", "SandboxChanges"}
    answers = json.dumps([response for path in document["paths"].values() for op in path.values()
                          if isinstance(op, dict) for response in op.get("responses", {}).values()])
    assert not any(f'"#/components/schemas/{name}"' in answers for name in forbidding)
    requests = {op["operationId"]: json.dumps(op.get("requestBody")) for path in document["paths"].values()
                for op in path.values() if isinstance(op, dict) and "operationId" in op}
    strict = {"rotateWebhookSecret", "replayWebhookEvents", "triggerSandboxEvent"}
    assert {operation for operation, body in requests.items() if any(name in body for name in forbidding)} == strict
    assert all(document_operation(document, operation)["x-release"] == "v1.3" for operation in strict)
    assert "webhook" in document["info"]["description"].lower()  # v1.2 is built


def document_operation(document, operation_id):
    return next(op for path in document["paths"].values() for op in path.values()
                if isinstance(op, dict) and op.get("operationId") == operation_id)


def test_every_operation_answers_as_documented(app, client, document, sandbox, make_key, monkeypatch, clock,
                                               live_releases):
    openapi = contract(document)
    key = bearer(make_key(sandbox))
    employee = Employee.get(Employee.company == sandbox)
    run = PayrollRun.get(PayrollRun.company == sandbox, PayrollRun.status == "finalized")

    def check(method, url, status, *, headers=key, **kwargs):
        response = getattr(client, method)(url, headers=headers, **kwargs)
        assert response.status_code == status, (url, response.get_data(as_text=True))
        return validated(openapi, response)

    tag = check("get", "/v1/company", 200).headers["ETag"]
    check("get", "/v1/company", 304, headers={**key, "If-None-Match": tag})
    check("get", "/v1/company", 401, headers={})
    check("get", "/v1/company?expand=entities", 400)
    check("get", "/v1/credential", 200)
    check("get", "/v1/credential", 401, headers={})
    check("get", "/v1/employees?limit=2", 200)
    cursor = client.get("/v1/employees?limit=2", headers=key).get_json()["next_cursor"]
    check("get", f"/v1/employees?limit=2&cursor={cursor}", 200)
    check("get", "/v1/employees?limit=500", 400)
    check("get", "/v1/employees?status=gone", 400)
    check("get", "/v1/employees", 403, headers=bearer(make_key(sandbox, scopes=())))
    check("get", f"/v1/employees/{employee.id}", 200)
    check("get", "/v1/employees/emp_nope", 404)
    check("get", "/v1/payroll-runs?from=2026-01&to=2026-12", 200)
    check("get", "/v1/payroll-runs?from=2026-13", 400)
    check("get", f"/v1/payroll-runs/{run.id}", 200)
    check("get", "/v1/payroll-runs/prun_nope", 404)
    results = check("post", "/v1/attendance/events", 207, json={"events": [
        punch(1, "clock_in", "2026-11-20T08:00:00+03:00"), punch(2, "clock_out", "2026-11-20T16:00:00+03:00"),
        punch(3, "clock_in", "2026-11-21T11:00:00+03:00"), punch(1, "clock_in", "2026-11-20T08:00:00+03:00"),
        {**punch(4, "clock_in", "2026-11-20T08:00:00+03:00"), "external_id": 17},
        {**punch(5, "clock_in", "2026-11-20T08:00:00+03:00"), "external_id": {"id": 5}},
        {**punch(6, "clock_in", "2026-11-20T08:00:00+03:00"), "employee_ref": {"type": "email", "value": "x@y.z"}},
    ]}).get_json()["results"]
    assert [r["status"] for r in results] == ["accepted", "accepted", "accepted", "duplicate", "rejected",
                                              "rejected", "unmatched_employee"]
    assert results[4]["external_id"] is None and results[5]["external_id"] is None
    check("post", "/v1/attendance/events", 400, data="{", content_type="application/json")
    check("post", "/v1/attendance/events", 422, json={"events": []})
    check("post", "/v1/attendance/events", 413, json={"events": [{}] * 501})
    settle_due(clock)
    days = check("get", "/v1/attendance?from=2026-11-20&to=2026-11-21", 200).get_json()["data"]
    assert days[1]["open_shift"]
    check("get", f"/v1/attendance?from=2026-11-20&to=2026-11-21&employee_id={employee.id}&limit=1", 200)
    check("get", "/v1/attendance?from=2026-11-20", 400)

    live_releases(("v1.0",))
    check("get", "/v1/attendance?from=2026-11-20&to=2026-11-21", 404)
    monkeypatch.setattr(app.extensions["authenticator"], "limiter", make_limiter(1, app.extensions["redis"]))
    fresh = bearer(make_key(sandbox))  # a key with no requests counted yet (Redis keeps counts)
    check("get", "/v1/company", 200, headers=fresh)
    check("get", "/v1/company", 429, headers=fresh)
    Company.update(api_enabled=False).where(Company.id == sandbox.id).execute()
    check("get", "/v1/company", 403, headers=bearer(make_key(sandbox)))


SHAPES_REFUSED = [  # (operationId, method, path, query, JSON body): refused before anything is looked up
    ("listEmployees", "get", "/v1/employees", {"cursor": ""}, None),
    ("listPayrollRuns", "get", "/v1/payroll-runs", {"cursor": ""}, None),
    ("listAttendanceDays", "get", "/v1/attendance", {"from": "2026-11-20", "to": "2026-11-21", "cursor": ""}, None),
    ("listEvents", "get", "/v1/events", {"cursor": ""}, None),
    ("listEvents", "get", "/v1/events", {"after": ""}, None),
    ("listEvents", "get", "/v1/events", {"types": "employee.created,employee.hired"}, None),
    ("listJournalEntries", "get", "/v1/journal-entries", {"cursor": ""}, None),
    ("listJournalEntries", "get", "/v1/journal-entries", {"after": ""}, None),
    ("listJournalEntries", "get", "/v1/journal-entries", {"period": "0000-01"}, None),
    ("listJournalEntries", "get", "/v1/journal-entries", {"period": "2026-13"}, None),
    ("listLeave", "get", "/v1/leave", {"cursor": ""}, None),
    ("listLeave", "get", "/v1/leave", {"status": "sick"}, None),
    ("listLeaveBalances", "get", "/v1/leave-balances", {"cursor": ""}, None),
    ("createWebhookEndpoint", "post", "/v1/webhooks", {}, {"url": "", "events": ["employee.updated"]}),
    ("createWebhookEndpoint", "post", "/v1/webhooks", {},
     {"url": "https://" + "a" * 2041 + ".com/", "events": ["employee.updated"]}),
    ("updateWebhookEndpoint", "patch", "/v1/webhooks/whk_any", {}, {"url": ""}),
]


@pytest.mark.parametrize(("operation_id", "method", "path", "query", "body"), SHAPES_REFUSED)
def test_a_request_refused_for_its_shape_is_refused_by_the_document_too(client, document, headers, operation_id,
                                                                         method, path, query, body):
    """What `st run --checks all` found: the service refused requests the document
    called valid (an empty cursor or `after`, a webhook URL of no length). Schemathesis
    and generated clients read the document's JSON Schemas: they state each such rule."""
    response = getattr(client, method)(path, query_string=query, headers=headers, json=body)
    assert response.status_code in (400, 422), response.get_data(as_text=True)
    operation = document_operation(document, operation_id)
    schemas = {parameter["name"]: parameter["schema"] for parameter in operation.get("parameters", ())}
    refused = [name for name, value in query.items() if not documented(document, schemas[name]).is_valid(value)]
    if body is not None:
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        refused += ["body"] * (not documented(document, schema).is_valid(body))
    assert refused, f"{operation_id}: the document accepts {query or body}"


def documented(document, schema):
    """A validator of `schema` as the document states it ($refs into its components)."""
    return OAS30Validator({"components": document["components"], **schema})


def test_answers_with_fields_added_later_still_validate(client, document, headers, sandbox):
    """What a generated client meets after v1 adds fields: the document lets them pass."""
    openapi = contract(document)
    run = PayrollRun.get(PayrollRun.company == sandbox, PayrollRun.status == "finalized")
    for url in ("/v1/company", "/v1/employees", f"/v1/payroll-runs/{run.id}", "/v1/employees/emp_nope"):
        real = client.get(url, headers=headers)
        grown = Response(json.dumps(with_new_fields(real.get_json())), status=real.status_code,
                         headers=copy.copy(real.headers))
        grown.request = real.request
        validated(openapi, grown)


def test_a_key_without_scopes_is_refused_every_scoped_operation(client, sandbox, make_key):
    scoped = [("get", "/v1/employees"), ("get", "/v1/payroll-runs"), ("post", "/v1/attendance/events"),
              ("get", "/v1/attendance?from=2026-11-20&to=2026-11-21")]
    key = bearer(make_key(sandbox, scopes=()))
    assert keys.SCOPES
    for method, url in scoped:
        assert getattr(client, method)(url, headers=key).status_code == 403


def test_every_webhook_operation_answers_as_documented(app, client, document, headers, monkeypatch, clock):
    openapi = contract(document)
    monkeypatch.setitem(app.extensions, "webhook_sender", Sender(parse_networks("127.0.0.0/8"), timeout=2))

    def check(method, url, status, **kwargs):
        response = getattr(client, method)(url, headers=headers, **kwargs)
        assert response.status_code == status, (url, response.get_data(as_text=True))
        return validated(openapi, response)

    with Receiver() as receiver:
        made = check("post", "/v1/webhooks", 201, json={"url": receiver.url, "events": ["employee.updated"]})
        endpoint = made.get_json()["id"]
        check("post", "/v1/webhooks", 422, json={"url": "https://10.0.0.1/h", "events": ["employee.updated"]})
        check("post", "/v1/webhooks", 400, data="{", content_type="application/json")
        check("get", "/v1/webhooks", 200)
        check("get", f"/v1/webhooks/{endpoint}", 200)
        check("get", "/v1/webhooks/whk_nope", 404)
        check("patch", f"/v1/webhooks/{endpoint}", 200, json={"events": ["employee.updated", "employee.left"]})
        check("patch", f"/v1/webhooks/{endpoint}", 422, json={"events": ["employee.hired"]})
        check("post", f"/v1/webhooks/{endpoint}/test", 202)
        deliver_all(app)
        [sent, *_] = check("get", f"/v1/webhooks/{endpoint}/deliveries", 200).get_json()["data"]
        check("get", f"/v1/webhooks/{endpoint}/deliveries?status=succeeded", 200)
        check("get", f"/v1/webhooks/{endpoint}/deliveries?status=late", 400)
        check("post", f"/v1/webhooks/{endpoint}/deliveries/{sent['id']}/redeliver", 202)
        check("patch", f"/v1/webhooks/{endpoint}", 200, json={"active": False})
        check("post", f"/v1/webhooks/{endpoint}/deliveries/{sent['id']}/redeliver", 409)
        check("delete", f"/v1/webhooks/{endpoint}", 204)
        check("delete", f"/v1/webhooks/{endpoint}", 404)
