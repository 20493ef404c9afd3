from app.api.attendance import AttendanceDaySchema, AttendanceEventResultSchema
from app.api.company import CompanySchema
from app.api.employees import EmployeeSchema
from app.api.payroll import PayrollRunSchema, PayrollRunSummarySchema
from app.models import Employee, PayrollRun
from tests.helpers import punch, settle_due

OPERATIONS = {
    ("/v1/company", "get"): ("v1.0", {"401", "403", "429"}),
    ("/v1/employees", "get"): ("v1.0", {"400", "401", "403", "429"}),
    ("/v1/employees/{employee_id}", "get"): ("v1.0", {"401", "403", "404", "429"}),
    ("/v1/payroll-runs", "get"): ("v1.0", {"400", "401", "403", "429"}),
    ("/v1/payroll-runs/{payroll_run_id}", "get"): ("v1.0", {"401", "403", "404", "429"}),
    ("/v1/attendance/events", "post"): ("v1.1", {"400", "401", "403", "413", "422", "429"}),
    ("/v1/attendance", "get"): ("v1.1", {"400", "401", "403", "429"}),
}


def test_openapi_document_marks_release_security_and_problem_errors(client):
    spec = client.get("/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    found = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert set(OPERATIONS) <= found
    for (path, method), (release, errors) in OPERATIONS.items():
        op = spec["paths"][path][method]
        assert op["x-release"] == release
        assert op["security"] == [{"bearerAuth": []}]
        assert op["summary"]
        assert errors <= set(op["responses"]), (path, errors)
        for status in errors:
            content = op["responses"][status]["content"]
            assert content["application/problem+json"]["schema"]["$ref"].endswith("/Problem")
        success = "207" if method == "post" else "200"
        assert "example" in op["responses"][success]["content"]["application/json"]
    assert "Retry-After" in spec["paths"]["/v1/company"]["get"]["responses"]["429"]["headers"]


def test_docs_page_works_offline(client):
    page = client.get("/v1/docs").get_data(as_text=True)
    assert "http" not in page.replace("http://localhost", "")  # no CDN
    assert client.get("/v1/docs/static/swagger-ui-bundle.js").status_code == 200
    assert client.get("/v1/docs/static/swagger-ui.css").status_code == 200


def test_errors_page_has_an_anchor_per_code(client):
    page = client.get("/errors").get_data(as_text=True)
    for code in ("invalid_request", "unauthenticated", "insufficient_scope", "api_not_enabled",
                 "not_found", "conflict", "payload_too_large", "validation_failed", "rate_limited",
                 "internal_error"):
        assert f'id="{code}"' in page


def test_responses_match_their_documented_schemas(client, headers, sandbox):
    """The dicts the views send and the schemas in the document describe the same shape."""
    employee = Employee.get(Employee.company == sandbox)
    run = PayrollRun.get(PayrollRun.company == sandbox)
    for url, schema in (
        ("/v1/company", CompanySchema()),
        (f"/v1/employees/{employee.id}", EmployeeSchema()),
        (f"/v1/payroll-runs/{run.id}", PayrollRunSchema()),
    ):
        body = client.get(url, headers=headers).get_json()
        assert schema.validate(body) == {}, url
        assert set(body) == set(schema.fields), url
    summary = client.get("/v1/payroll-runs", headers=headers).get_json()["data"][0]
    assert set(summary) == set(PayrollRunSummarySchema().fields)


def test_ingest_documents_its_body_and_its_207(client):
    op = client.get("/v1/openapi.json").get_json()["paths"]["/v1/attendance/events"]["post"]
    body = op["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"].endswith("/IngestRequest") and body["example"]["events"]
    assert op["responses"]["207"]["content"]["application/json"]["schema"]["$ref"].endswith("/IngestResponse")


def test_attendance_answers_match_their_documented_schemas(client, headers, sandbox, clock):
    sent = client.post("/v1/attendance/events", headers=headers, json={"events": [
        punch(1, "clock_in", "2026-11-20T08:00:00+03:00"), punch(2, "clock_out", "2026-11-20T16:00:00+03:00"),
        punch(3, "clock_in", "2026-11-21T11:00:00+03:00")]}).get_json()
    for result in sent["results"]:
        assert AttendanceEventResultSchema().validate(result) == {}
    settle_due(clock)
    days = client.get("/v1/attendance?from=2026-11-20&to=2026-11-21", headers=headers).get_json()["data"]
    assert len(days) == 2 and days[1]["open_shift"]
    for day in days:
        assert AttendanceDaySchema().validate(day) == {} and set(day) == set(AttendanceDaySchema().fields)
