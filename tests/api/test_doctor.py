"""`flask --app wsgi doctor` against the real database, Redis (in the PostgreSQL pass)
and a real SMTP server: one line per finding, exit 1 on any problem."""

import os

import pytest
import redis

from app.mail import SmtpMailer
from config import DEV_SECRET_KEY

GOOD_KEY = "k" * 48


def findings(result):
    """{name: [(ok, detail)]} from the printed lines."""
    found = {}
    for line in result.output.splitlines():
        if line.startswith(("ok ", "PROBLEM ", "warning ")):
            status, rest = line.split(None, 1)
            name, _, detail = rest.partition("  ")
            found.setdefault(name.strip(), []).append((status != "PROBLEM", detail.strip()))
    return found


@pytest.fixture
def healthy(app, monkeypatch):
    monkeypatch.setitem(app.config, "SECRET_KEY", GOOD_KEY)


def test_a_healthy_setup_is_all_ok_and_exits_0(run, healthy, inbox):
    result = run("doctor")
    found = findings(result)
    assert result.exit_code == 0, result.output
    assert "No problems found." in result.output
    assert {"secret key", "database", "migrations", "redis", "smtp", "clock", "proxy"} <= set(found)
    assert found["migrations"] == [(True, "all applied")]
    assert found["smtp"][0][0] and "answers" in found["smtp"][0][1]
    assert GOOD_KEY not in result.output


def test_the_development_secret_key_is_a_problem_with_its_fix(run):

    result = run("doctor")  # the test key is short
    [(ok, detail)] = findings(result)["secret key"]
    assert result.exit_code == 1 and not ok and "32 or more random characters" in detail
    assert "problem(s)." in result.output


@pytest.mark.parametrize("environment", ["development", "production"])
def test_the_development_secret_key_is_a_warning_in_development_and_a_problem_in_production(
        app, run, inbox, monkeypatch, environment):
    monkeypatch.setitem(app.config, "SECRET_KEY", DEV_SECRET_KEY)
    monkeypatch.setitem(app.config, "ENV_NAME", environment)
    result = run("doctor")
    [(ok, detail)] = findings(result)["secret key"]
    assert "development value" in detail and "token_urlsafe" in detail
    assert ok == (environment == "development") and ("warning " in result.output) == ok
    if environment == "production":
        assert result.exit_code == 1  # (in development, only other findings could make it 1)


def test_an_smtp_server_that_does_not_answer_is_a_problem(app, run, healthy, monkeypatch):
    monkeypatch.setitem(app.extensions, "mailer", SmtpMailer("smtp://mailer:pw@127.0.0.1:9", "x@example.com"))
    result = run("doctor")
    [(ok, detail)] = findings(result)["smtp"]
    assert result.exit_code == 1 and not ok and "127.0.0.1:9 refused" in detail and "pw" not in detail


def test_redis_that_does_not_answer_is_a_problem(app, run, healthy, monkeypatch):
    monkeypatch.setitem(app.extensions, "redis", redis.Redis.from_url("redis://127.0.0.1:9/0",
                                                                      socket_connect_timeout=0.2))
    result = run("doctor")
    assert result.exit_code == 1 and findings(result)["redis"][0][0] is False


def test_production_wants_a_proxy_hop_and_smtp(app, run, healthy, monkeypatch):
    monkeypatch.setitem(app.config, "ENV_NAME", "production")
    monkeypatch.setitem(app.config, "PROXY_HOPS", 0)
    found = findings(run("doctor"))
    assert "PROXY_HOPS=1" in found["proxy"][0][1] and not found["proxy"][0][0]
    if not isinstance(app.extensions["mailer"], SmtpMailer):
        assert not found["smtp"][0][0] and "SMTP_URL" in found["smtp"][0][1]


def test_a_sqlite_file_others_may_read_is_a_problem_with_the_chmod(app, run, healthy, monkeypatch, tmp_path):
    counts = tmp_path / "limits.sqlite"
    counts.write_bytes(b"")
    os.chmod(counts, 0o644)
    monkeypatch.setitem(app.config, "RATE_LIMIT_FILE", str(counts))
    result = run("doctor")
    problems = [detail for ok, detail in findings(result)["files"] if not ok]
    assert result.exit_code == 1 and problems == [f"{counts} is mode 644: others may read salaries and keys. "
                                                  f"chmod 600 {counts}"]


def test_the_service_makes_its_sqlite_files_private(app, tmp_path):
    from app.models.base import private_file

    private_file(str(tmp_path / "new" / "db.sqlite"))
    assert oct((tmp_path / "new" / "db.sqlite").stat().st_mode & 0o777) == "0o600"


def test_db_check_passes_on_a_current_schema_and_refuses_a_missing_migration(run):
    """The deploy units' ExecStartPre: new code never starts on an old schema."""
    from peewee import Table

    from app.models.base import db

    ok = run("db", "check")
    assert ok.exit_code == 0 and "all migrations applied" in ok.output
    history = Table("migratehistory").bind(db)
    [(last,)] = history.select(history.c.name).order_by(history.c.id.desc()).limit(1).tuples()
    history.delete().where(history.c.name == last).execute()  # rolled back after the test
    refused = run("db", "check")
    assert refused.exit_code == 1
    assert f"1 migration(s) not applied ({last}): run flask --app wsgi db upgrade" in refused.output


def test_rows_stored_before_the_one_line_rule_are_listed_by_table_id_and_field(run, healthy, inbox, sandbox, clock,
                                                                              headers, client, loopback, receiver,
                                                                              monkeypatch):
    """Issue 46: names, codes and URLs stored before they had to be one line. Each row is
    named by table, id and field with the character's code point, never its text."""
    from app.domain.payroll import accounts
    from app.models import AccountMapping, Company, Employee, Entity, PayrollRun, WebhookEndpoint
    from tests.helpers import create_webhook

    assert findings(run("doctor"))["stored text"] == [(True, "names, codes, URLs and attendance references are "
                                                             "single lines; months are YYYY-MM")]
    employee = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-003")
    Employee.update(name_en="Huda\u202eKareem", department="Sales\r\nX: 1").where(Employee.id == employee.id).execute()
    Company.update(name_ar="شركة\u2066").where(Company.id == sandbox.id).execute()
    entity = Entity.get(Entity.company == sandbox.id)
    Entity.update(name_en="Gulf\ufeff").where(Entity.id == entity.id).execute()
    accounts.set_mapping(sandbox.id, "bank", "1010", clock, entity_id=entity.id, name_en="Bank")
    AccountMapping.update(name_en="Bank\x85").where(AccountMapping.company == sandbox.id).execute()
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    WebhookEndpoint.update(url=receiver.url + "/\u00a0").where(WebhookEndpoint.id == endpoint["id"]).execute()
    run_row = PayrollRun.get(PayrollRun.company == sandbox.id)
    PayrollRun.update(payroll_month="٢٠٢٦-١٠").where(PayrollRun.id == run_row.id).execute()

    result = run("doctor")
    listed = [detail for ok, detail in findings(result)["stored text"] if not ok]
    assert result.exit_code == 1
    assert listed == [
        f"company {sandbox.id} name_ar holds U+2066: correct the row in the database (no command renames a company)",
        f"entity {entity.id} name_en holds U+FEFF: correct the row in the database (no command renames a legal "
        "entity)",
        f"employee {employee.id} name_en holds U+202E: correct it on the employee's console page, or with flask "
        "--app wsgi employees update",
        f"employee {employee.id} department holds U+000D: correct it on the employee's console page, or with flask "
        "--app wsgi employees update",
        f"account_mapping {sandbox.id}/{entity.id}/bank name_en holds U+0085: set it again: flask --app wsgi payroll "
        "accounts set",
        f"webhook_endpoint {endpoint['id']} url holds U+00A0: its owner sets another URL (PATCH /v1/webhooks/ID); "
        "deliveries to it are refused until then",
        f"payroll_run {run_row.id} payroll_month is '\\u0662\\u0660\\u0662\\u0666-\\u0661\\u0660', not a month "
        "YYYY-MM in the digits 0-9: correct the row in the database",
    ]
    assert not any(ch in result.output for ch in "\u202e\r\u2066\ufeff\x85\u00a0٢")
    PayrollRun.update(payroll_month="2026-13").where(PayrollRun.id == run_row.id).execute()  # digits, no month
    assert (f"payroll_run {run_row.id} payroll_month is '2026-13', not a month YYYY-MM in the digits 0-9: correct "
            "the row in the database") in [detail for _, detail in findings(run("doctor"))["stored text"]]
    monkeypatch.setattr("app.ops.doctor.MAX_LISTED", 2)
    assert [detail for _, detail in findings(run("doctor"))["stored text"]][2:] == ["and 5 more row(s) like these"]


def test_key_and_user_names_and_attendance_references_stored_before_the_rule_are_listed(run, healthy, inbox,
                                                                                       sandbox, runtime):
    """Issue 46: an API key's name, a user's name and email, and a partner's attendance
    references stored before they had to be one line (written here by SQL), named by
    table, id and field, never by their text."""
    from app.domain.access import keys
    from app.domain.attendance.ingest import ingest
    from app.models import ApiKey, AttendanceEvent, User

    key, _ = keys.create_key(sandbox, [], runtime.clock, name="ERP")
    ApiKey.update(name="cli\u202ekey\nline2").where(ApiKey.id == key.id).execute()
    user = User.get(User.id == sandbox.sandbox_owner_id)
    User.update(name="Huda\u2067").where(User.id == user.id).execute()
    event = {"external_id": "e-1", "employee_ref": {"type": "external_id", "value": "P-77"}, "type": "clock_in",
             "at": "2026-11-20T08:00:00+03:00", "source": "acme-pos", "branch_ref": "HQ"}
    [first, second] = ingest(sandbox, [event, {**event, "external_id": "e-2"}], runtime)
    AttendanceEvent.update(source="pos\x1b]0;pwned\x07").where(AttendanceEvent.id == first.event_id).execute()
    AttendanceEvent.update(external_id="e\u202e2", branch_ref="HQ\r\nX", ref_value="P\u200f-77\u2069").where(
        AttendanceEvent.id == second.event_id).execute()

    result = run("doctor")
    listed = [detail for ok, detail in findings(result)["stored text"] if not ok]
    assert result.exit_code == 1
    fix = ("correct the row in the database, or delete it if it is only waiting unmatched (ingest refuses such "
           "references now)")
    assert listed[:2] == [
        f"api_key {key.id} name holds U+202E: correct the row in the database (no command renames a key), or revoke "
        "the key (flask --app wsgi keys revoke ID) and create another",
        f"app_user {user.id} name holds U+2067: correct the row in the database (no command renames a user)",
    ]
    assert sorted(listed[2:]) == sorted([  # the events in id order, as the database sorts ids
        f"attendance_event {first.event_id} source holds U+001B: {fix}",
        f"attendance_event {second.event_id} external_id holds U+202E: {fix}",
        f"attendance_event {second.event_id} branch_ref holds U+000D: {fix}",
        f"attendance_event {second.event_id} ref_value holds U+2069: {fix}",
    ])
    assert not any(ch in result.output for ch in "\u202e\u2067\x1b\x07\r\u2069")
