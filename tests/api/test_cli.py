import json

import pytest

from app.domain.access import keys
from app.models import ApiKey, Company, Employee, User


def test_sandbox_create_prints_a_working_key(run, client):
    result = run("sandbox", "create", "--country", "KW", "--email", "Ana@Example.com", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out) == {"company_id", "user_email", "api_key", "scopes"}
    assert out["user_email"] == "ana@example.com" and out["api_key"].startswith("svc_test_")
    assert out["scopes"] == list(keys.SCOPES) and "leave:read" in out["scopes"]
    assert Employee.select().where(Employee.company == out["company_id"]).count() == 10
    response = client.get("/v1/company", headers={"Authorization": f"Bearer {out['api_key']}"})
    assert response.status_code == 200 and response.get_json()["id"] == out["company_id"]


def test_second_sandbox_for_the_same_user_is_refused(run):
    run("sandbox", "create", "--country", "KW", "--email", "ana@example.com", "--json")
    result = run("sandbox", "create", "--country", "SA", "--email", "ana@example.com", "--json")
    assert result.exit_code == 1
    assert "already has a sandbox" in result.output and "Traceback" not in result.output


def test_company_starts_with_api_off_then_enable_and_keys(run, client):
    result = run("companies", "create", "--name", "Gulf Foods", "--country", "sa", "--json")
    company_id = json.loads(result.output)["company_id"]
    assert Company.get_by_id(company_id).api_enabled is False
    out = json.loads(run("keys", "create", "--company", company_id, "--scopes",
                         "employees:read,payroll:read", "--json").output)
    assert out["api_key"].startswith("svc_live_")
    assert ApiKey.get_by_id(out["key_id"]).scopes == "employees:read payroll:read"
    headers = {"Authorization": f"Bearer {out['api_key']}"}
    assert client.get("/v1/company", headers=headers).status_code == 403
    assert run("partner-api", "enable", company_id).exit_code == 0
    assert client.get("/v1/company", headers=headers).status_code == 200
    assert run("keys", "revoke", out["key_id"]).exit_code == 0
    assert client.get("/v1/company", headers=headers).status_code == 401


@pytest.mark.parametrize("args", [
    ("companies", "create", "--name", "X", "--country", "US"),
    ("companies", "create", "--name", "  ", "--country", "KW"),
    ("sandbox", "create", "--country", "KW", "--email", "not-an-email"),
    ("keys", "create", "--company", "cmp_missing", "--scopes", "employees:read"),
    ("keys", "revoke", "key_missing"),
    ("partner-api", "enable", "cmp_missing"),
])
def test_bad_arguments_give_one_clear_line_and_nonzero_exit(run, args):
    result = run(*args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith(("Error", "Usage", "Try"))


def test_unknown_scope_is_refused(run):
    company_id = json.loads(run("companies", "create", "--name", "X", "--country", "OM", "--json").output)["company_id"]
    result = run("keys", "create", "--company", company_id, "--scopes", "employees:write", "--json")
    assert result.exit_code == 1 and "unknown scope 'employees:write'" in result.output


def test_keys_create_needs_its_scopes_named_and_says_what_it_granted(run, client):
    company_id = json.loads(run("companies", "create", "--name", "X", "--country", "QA", "--json").output)["company_id"]
    missing = run("keys", "create", "--company", company_id)
    assert missing.exit_code == 2 and "--scopes" in missing.output
    company_only = run("keys", "create", "--company", company_id, "--scopes", "")
    assert company_only.exit_code == 0 and "scopes: none (GET /v1/company only)" in company_only.output
    both = json.loads(run("keys", "create", "--company", company_id, "--scopes", "payroll:read employees:read",
                          "--json").output)
    assert both["scopes"] == ["employees:read", "payroll:read"]


@pytest.mark.parametrize("command", [("users", "create", "--email", "hr@example.com", "--password", "x"),
                                     ("users", "password", "--email", "ana@example.com", "--password", "x")])
def test_one_password_rule_for_every_command(run, command):
    run("users", "create", "--email", "ana@example.com")
    result = run(*command)
    assert result.exit_code == 1
    assert "password: must be 10 to 1024 characters (this one has 1)" in result.output
    assert User.get_or_none(User.email == "hr@example.com") is None
