"""The HR commands drive every transition, with one clear line on a refusal."""

import json

import pytest

from app.domain import sandbox_triggers as sandbox_domain
from app.models import Employee, OutboxEvent, PayrollRun
from tests.helpers import ok, refused


def types_of(company_id):
    """Event types written for the company, sorted (the clock stands still in tests)."""
    return sorted(row.type for row in OutboxEvent.select().where(OutboxEvent.company == company_id))


def test_employee_lifecycle_from_the_shell(run, sandbox):
    hired = json.loads(ok(run("employees", "hire", "--company", sandbox.id, "--staff-number", "E-77",
                              "--name", "Huda Kareem", "--employment-type", "contract", "--hire-date", "2026-11-02",
                              "--basic-salary", "1200.250", "--phone", "55512345", "--json")))
    employee = Employee.get_by_id(hired["employee_id"])
    assert employee.basic_salary_minor == 1_200_250 and employee.contact_phone == "+96555512345"
    ok(run("employees", "update", employee.id, "--job-title", "Designer"))
    ok(run("employees", "update", employee.id, "--basic-salary", "1300"))
    ok(run("employees", "end", employee.id, "--date", "2026-11-20", "--reason", "End of contract"))
    ok(run("employees", "archive", employee.id))
    assert types_of(sandbox.id).count("employee.created") == 11  # ten from the sandbox
    assert types_of(sandbox.id).count("employee.updated") == 1 and types_of(sandbox.id).count("employee.left") == 1


def test_employees_are_named_by_id_or_by_staff_number_with_the_company(run, sandbox):
    """One rule with the payroll and attendance commands."""
    assert "updated SBX-010" in ok(run("employees", "update", "SBX-010", "--company", sandbox.id,
                                       "--job-title", "Storekeeper"))
    assert Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-010").job_title == "Storekeeper"
    refused(run("employees", "end", "SBX-010", "--date", "2026-11-20"), "staff number with --company")
    refused(run("employees", "end", "SBX-999", "--company", sandbox.id, "--date", "2026-11-20"), "No employee")
    assert "has left as of 2026-11-20" in ok(run("employees", "end", "SBX-010", "--company", sandbox.id,
                                                 "--date", "2026-11-20"))
    assert "archived SBX-010" in ok(run("employees", "archive", "SBX-010", "--company", sandbox.id))


def test_an_end_date_ahead_leaves_the_employee_active_until_that_day(run, sandbox, clock, app):
    """2026-11-21 in the tests' clock: the 30th is ahead."""
    assert "leaves on 2026-11-30" in ok(run("employees", "end", "SBX-009", "--company", sandbox.id,
                                            "--date", "2026-11-30"))
    person = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-009")
    assert person.status != "left" and str(person.termination_date) == "2026-11-30"
    assert types_of(sandbox.id).count("employee.left") == 0


def test_employee_commands_refuse_in_one_line(run, sandbox):
    refused(run("employees", "hire", "--company", sandbox.id, "--name", "X", "--basic-salary", "1.0001"),
            "basic_salary")
    refused(run("employees", "hire", "--company", sandbox.id, "--staff-number", "SBX-001", "--name", "X",
                "--employment-type", "full_time", "--hire-date", "2026-01-01", "--basic-salary", "1"),
            "already taken")
    refused(run("employees", "update", "emp_nobody", "--job-title", "x"), "No employee")
    refused(run("employees", "end", Employee.get(Employee.company == sandbox.id).id, "--date", "soon"), "date")


def test_payroll_lifecycle_from_the_shell(run, sandbox, tmp_path):
    entity = sandbox.entities.get()
    draft = json.loads(ok(run("payroll", "draft", "--entity", entity.id, "--month", "2026-11", "--json")))
    run_id = draft["payroll_run_id"]
    refused(run("payroll", "pay", run_id), "finalize it before")
    ok(run("payroll", "finalize", run_id))
    ok(run("payroll", "pay", run_id))
    refused(run("payroll", "delete", run_id), "paid run cannot be deleted")
    someone = Employee.get(Employee.company == sandbox.id)
    ok(run("payroll", "correct", run_id, "--employee", someone.id, "--basic", "999.999"))
    second = json.loads(ok(run("payroll", "draft", "--entity", entity.id, "--month", "2026-12", "--json")))
    ok(run("payroll", "finalize", second["payroll_run_id"]))
    ok(run("payroll", "delete", second["payroll_run_id"]))
    third = json.loads(ok(run("payroll", "draft", "--entity", entity.id, "--month", "2027-01", "--json")))
    ok(run("payroll", "discard", third["payroll_run_id"]))
    assert PayrollRun.get_or_none(PayrollRun.id == third["payroll_run_id"]) is None
    payroll_types = [t for t in types_of(sandbox.id) if t.startswith("payroll_run.")]
    assert payroll_types == ["payroll_run.corrected", "payroll_run.deleted", "payroll_run.finalized",
                             "payroll_run.finalized", "payroll_run.finalized", "payroll_run.paid"]
    refused(run("payroll", "draft", "--entity", entity.id, "--month", "2026-13"), "YYYY-MM")


def test_bulk_import_from_a_file(run, sandbox, tmp_path):
    path = tmp_path / "staff.csv"
    path.write_text("staff_number,name_en,employment_type,hire_date,basic_salary\n"
                    "C-1,Ali Hassan,full_time,2026-11-01,700.000\n", encoding="utf-8")
    assert json.loads(ok(run("employees", "import", str(path), "--company", sandbox.id, "--json"))) == {
        "created": 1, "updated": 0, "unchanged": 0}
    path.write_text("staff_number,name_en\nC-2,\n", encoding="utf-8")
    refused(run("employees", "import", str(path), "--company", sandbox.id), "row 2: name_en")


# Excel's "Unicode text" (UTF-16), and its plain CSV on an Arabic Windows (code page 1256)
@pytest.mark.parametrize("encoding, byte", [("utf-16", "0xff"), ("cp1256", "0xda")])
def test_a_file_that_is_not_utf8_is_one_line_naming_the_byte(run, sandbox, tmp_path, encoding, byte):
    path = tmp_path / "staff.csv"
    path.write_text("staff_number,name_en,employment_type,hire_date,basic_salary\n"
                    "C-3,علي,full_time,2026-11-01,700.000\n", encoding=encoding)
    result = run("employees", "import", str(path), "--company", sandbox.id)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith(f"Error: {path} is not UTF-8 text (byte {byte} at ")
    assert 'save it as "CSV UTF-8"' in result.output


def test_sandbox_trigger_makes_each_event_happen(run, sandbox, make_sandbox):
    for event_type in sandbox_domain.TRIGGERS:
        before = {row.id for row in OutboxEvent.select().where(OutboxEvent.company == sandbox.id)}
        output = ok(run("sandbox", "trigger", event_type, "--company", sandbox.id))
        written = [row.type for row in OutboxEvent.select().where(OutboxEvent.company == sandbox.id)
                   if row.id not in before]
        assert event_type in written, (event_type, written, output)
    refused(run("sandbox", "trigger", "ping", "--company", sandbox.id), "Invalid value")


def test_sandbox_trigger_refuses_live_companies(run):
    company_id = json.loads(ok(run("companies", "create", "--name", "Live", "--country", "AE", "--json")))["company_id"]
    refused(run("sandbox", "trigger", "employee.created", "--company", company_id), "sandbox companies only")


def test_payroll_correct_takes_a_staff_number_and_names_what_it_expects(run, sandbox):
    entity = sandbox.entities.get()
    run_id = json.loads(ok(run("payroll", "draft", "--entity", entity.id, "--month", "2026-11", "--json")))[
        "payroll_run_id"]
    ok(run("payroll", "finalize", run_id))
    ok(run("payroll", "correct", run_id, "--employee", "SBX-001", "--basic", "999.999"))
    assert "payroll_run.corrected" in types_of(sandbox.id)
    refused(run("payroll", "correct", run_id, "--employee", "SBX-999", "--basic", "1"),
            "give an employee id (emp_...) or a staff number")
