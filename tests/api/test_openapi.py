from app.api.company import CompanySchema
from app.api.employees import EmployeeSchema
from app.api.payroll import PayrollRunSchema, PayrollRunSummarySchema
from app.models import Employee, PayrollRun

OPERATIONS = {
    ("/v1/company", "get"): ("v1.0", {"401", "403", "429"}),
    ("/v1/employees", "get"): ("v1.0", {"400", "401", "403", "429"}),
    ("/v1/employees/{employee_id}", "get"): ("v1.0", {"401", "403", "404", "429"}),
    ("/v1/payroll-runs", "get"): ("v1.0", {"400", "401", "403", "429"}),
    ("/v1/payroll-runs/{payroll_run_id}", "get"): ("v1.0", {"401", "403", "404", "429"}),
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
        assert "example" in op["responses"]["200"]["content"]["application/json"]
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
