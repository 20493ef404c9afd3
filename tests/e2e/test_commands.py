"""What an operator sees when a setting is wrong or a service is away: one clear line
and a non-zero exit, from every command and from gunicorn, never a traceback."""

import json
import os
import subprocess
import sys

import pytest

from tests.e2e.processes import ROOT

BAD_SETTINGS = [
    ({"APP_ENV": "production", "SECRET_KEY": ""}, "Configuration error: SECRET_KEY must be set"),
    ({"APP_ENV": "prod"}, "Configuration error: APP_ENV must be one of development, production, not 'prod'"),
    ({"DATABASE_URL": "mysql://db/x"}, "Configuration error: DATABASE_URL must be sqlite:/// or postgresql://"),
    ({"RATE_LIMIT_PER_MINUTE": "lots"}, "Configuration error: RATE_LIMIT_PER_MINUTE must be a whole number"),
    ({"LIVE_OPERATIONS": "getCompny"}, "Configuration error: LIVE_OPERATIONS names getCompny"),
    ({"METRICS_DIR": "/proc/partner-api-metrics"}, "Configuration error: METRICS_DIR /proc/partner-api-metrics "
                                                   "cannot be used"),
    ({"LOG_FORMAT": "xml"}, "Configuration error: LOG_FORMAT must be text or json, not 'xml'"),
    ({"DATABASE_URL": "postgresql://partner:s3cret@127.0.0.1:1/partner_api"},
     "Error: database error at postgresql://partner:***@127.0.0.1:1/partner_api: connection to server"),
]


def run(env, *command, timeout=60):
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, "REDIS_URL": "", **env}, capture_output=True,
                          text=True, timeout=timeout)
    return done.returncode, (done.stdout + done.stderr).strip()


@pytest.mark.parametrize("env, line", BAD_SETTINGS)
@pytest.mark.parametrize("command", [("db", "upgrade"), ("keys", "revoke", "key_x"), ("jobs", "run-due")])
def test_a_command_with_a_bad_setting_prints_one_line(env, line, command):
    status, output = run(env, sys.executable, "-m", "flask", "--app", "wsgi", *command)
    assert status != 0
    assert output.startswith(line) and len(output.splitlines()) == 1, output


def test_a_worker_without_redis_says_so_in_one_line():
    status, output = run({"REDIS_URL": "redis://:pw@127.0.0.1:1/0"}, sys.executable, "-m", "flask", "--app",
                         "wsgi", "jobs", "worker", "--burst")
    assert status == 1 and output.startswith("Error: cannot reach Redis at redis://:***@127.0.0.1:1/0")
    assert len(output.splitlines()) == 1, output


def test_gunicorn_with_a_bad_setting_stops_at_once_naming_it():
    """The Procfile's web process: the master stops instead of rebooting workers forever."""
    status, output = run({"APP_ENV": "production", "SECRET_KEY": "short"}, sys.executable, "-m", "gunicorn",
                         "--bind", "127.0.0.1:0", "wsgi:app", timeout=30)
    assert status == 3
    assert "Configuration error: SECRET_KEY must be set" in output and "Traceback" not in output
    assert output.count("Configuration error") == 1


def test_doctor_names_each_problem_and_passes_once_they_are_fixed(tmp_path):
    """As an operator runs it on a fresh host: the unapplied migrations are a problem
    (exit 1), the development key a warning (in development; production refuses to start
    with it); with a real key and `db upgrade`, all is ok."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/doctor.db", "SECRET_KEY": ""}
    flask = (sys.executable, "-m", "flask", "--app", "wsgi")
    status, output = run(env, *flask, "doctor")
    assert status == 1, output
    assert "warning  secret key" in output and "PROBLEM  migrations" in output and "db upgrade" in output
    assert "Traceback" not in output
    fixed = {**env, "SECRET_KEY": "a-real-secret-key-of-forty-and-more-characters"}
    assert run(fixed, *flask, "db", "upgrade")[0] == 0
    status, output = run(fixed, *flask, "doctor")
    assert status == 0 and "No problems found." in output, output
    assert f"{tmp_path}/doctor.db is mode 600" in output and fixed["SECRET_KEY"] not in output


def test_hr_records_an_approved_leave_and_reads_the_balance_from_the_shell(tmp_path):
    """`leave request ... --approve --json` and `leave balance --json` as an operator runs
    them: a Saudi employee hired on 2025-01-01 has earned 21 days a year (art. 109(1)),
    21 + 21 + 21 x 31 / 365 = 43.78 by 2027-01-31, ten of them taken in January."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path}/leave.db"}
    flask = (sys.executable, "-m", "flask", "--app", "wsgi")

    def ok(*command):
        status, output = run(env, *flask, *command)
        assert status == 0, output
        return output

    ok("db", "upgrade")
    company = json.loads(ok("companies", "create", "--name", "Leave Co", "--country", "SA", "--json"))["company_id"]
    ok("employees", "hire", "--company", company, "--staff-number", "E-1", "--name", "Huda Kareem",
       "--employment-type", "full_time", "--hire-date", "2025-01-01", "--basic-salary", "10000")
    leave = json.loads(ok("leave", "request", "E-1", "--company", company, "--type", "annual", "--from", "2027-01-10",
                          "--to", "2027-01-19", "--approve", "--json"))
    assert (leave["status"], leave["days"], leave["decided_by"]) == ("approved", 10, "operator")
    balance = json.loads(ok("leave", "balance", "E-1", "--company", company, "--on", "2027-01-31", "--json"))
    assert balance == {"employee_id": leave["employee_id"], "type": "annual", "as_of": "2027-01-31",
                       "accrued_days": 43.78, "taken_days": 10, "planned_days": 0, "balance_days": 33.78,
                       "forfeited_days": 0.0}
    status, output = run(env, *flask, "leave", "request", "E-1", "--company", company, "--type", "annual",
                         "--from", "2027-01-15", "--to", "2027-01-16")
    assert status == 1 and output.startswith(f"Error: --from: overlaps leave {leave['id']}"), output
    assert len(output.splitlines()) == 1
