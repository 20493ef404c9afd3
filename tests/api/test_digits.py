"""Numbers are written with the digits 0-9 (issue 46, part 5; the rule:
app/domain/kernel/text.py, ascii_digits). A month, an amount, a page size or a count in
another script's digits ("٢٠٢٦-١١"), or in ones int() reads loosely ("2026-1²", "1_0"), is
refused where it enters: 400 under /v1, the field's error in the console, one line and a
non-zero exit from a command; never stored, never a traceback."""

import json

import pytest

from app.domain.access import keys
from app.models import PayrollRun, WebhookEndpoint
from tests.api.console import text
from tests.api.test_console import hire_form
from tests.api.test_one_line_text import console_post, in_arabic, staff
from tests.helpers import assert_problem, refused


@pytest.mark.parametrize("month", ["٢٠٢٦-١١", "2026-1²", "٢٠٢٦-11", "۲۰۲۶-۱۱", "0000-01", "2026-+1", "2026-1_"])
def test_a_draft_month_not_in_the_digits_0_to_9_is_one_line_and_stores_nothing(run, sandbox, month):
    result = run("payroll", "draft", "--entity", sandbox.entities.get().id, "--month", month)
    refused(result, "payroll_month: a month YYYY-MM (the month 01 to 12), written with the digits 0 to 9")
    assert len(result.output.strip().splitlines()) == 1
    assert not PayrollRun.select().where(PayrollRun.payroll_month == month).exists()
    assert not PayrollRun.select().where(PayrollRun.status == "draft").exists()


def test_the_console_refuses_a_month_or_a_date_in_other_digits_beside_the_field(client, admin, in_sandbox):
    entity = in_sandbox.entities.get()
    page = console_post(client, "/console/payroll", {"entity": entity.id, "month": "٢٠٢٦-11"})
    assert page.status_code == 302 and "Write the digits 0 to 9." in text(client.get(page.headers["Location"]))
    assert not PayrollRun.select().where(PayrollRun.status == "draft").exists()
    in_arabic(admin)
    page = console_post(client, "/console/employees/new", hire_form(in_sandbox, hire_date="٢٠٢٦-11-01"))
    assert page.status_code == 422 and "استخدم الأرقام 0 إلى 9" in text(page)
    assert staff(in_sandbox) == 10


@pytest.mark.parametrize("amount", ["٨٥٠", "850.٥", "1_000", "1e3"])
def test_an_amount_in_other_digits_is_refused_in_the_console_the_shell_and_a_file(client, run, admin, in_sandbox,
                                                                                  tmp_path, amount):
    page = console_post(client, "/console/employees/new", hire_form(in_sandbox, basic_salary_minor=amount))
    assert page.status_code == 422 and "an amount in KWD" in text(page)
    refused(run("employees", "hire", "--company", in_sandbox.id, "--staff-number", "E-5", "--name", "Ali",
                "--employment-type", "full_time", "--hire-date", "2026-11-01", "--basic-salary", amount),
            "an amount in KWD")
    path = tmp_path / "staff.csv"
    path.write_text(f"staff_number,name_en,employment_type,hire_date,basic_salary\nN-1,Ali,full_time,2026-11-01,"
                    f"{amount}\n", encoding="utf-8")
    refused(run("employees", "import", str(path), "--company", in_sandbox.id), "basic_salary: an amount in KWD")
    assert staff(in_sandbox) == 10


@pytest.mark.parametrize("pace", ["٥٠", "5_0", "+50"])  # int() takes each as 50
def test_a_pace_in_other_digits_is_named_on_the_console_form(client, admin, live_company, clock, loopback, receiver,
                                                             pace):
    key = keys.ApiKey.get(keys.ApiKey.secret_hash == keys.hash_secret(
        keys.create_key(live_company, ["webhooks:manage"], clock, name="ERP")[1]))
    page = console_post(client, "/console/webhooks", {"url": receiver.url, "events": ["employee.created"],
                                                      "key": key.id, "rate_limit": pace})
    assert page.status_code == 422 and "Write the digits 0 to 9." in text(page)
    assert not WebhookEndpoint.select().exists()


@pytest.mark.parametrize("url", ["/v1/employees?limit=١٠", "/v1/employees?limit=1_0", "/v1/employees?limit=%2B5",
                                 "/v1/payroll-runs?from=٢٠٢٦-10", "/v1/payroll-runs?to=٢٠٢٦-12"])
def test_a_page_size_or_month_in_other_digits_is_a_400_naming_it(client, headers, url):
    body = assert_problem(client.get(url, headers=headers), 400, "invalid_request")
    assert any(name in json.dumps(body) for name in ("limit", "from", "to"))


@pytest.mark.parametrize("value", ["٧", "7_0"])
def test_a_command_number_in_other_digits_is_one_line(run, tmp_path, value):
    result = run("backup", "create", str(tmp_path), "--keep-days", value)
    assert result.exit_code == 2 and "is not a whole number: the digits 0-9" in result.output
    assert "Traceback" not in result.output and not any(tmp_path.iterdir())
