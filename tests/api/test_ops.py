"""`/healthz` and `/readyz`: outside /v1, no key, nothing secret, and readiness that
turns on what an operator must fix (the database, migrations, Redis, stalled jobs)."""

import json
import logging
from types import SimpleNamespace

import pytest
import redis
from peewee import OperationalError, Table

from app import telemetry
from app.jobs import sweeper
from app.jobs.outbox import dispatch_events
from app.limits import make_limiter
from app.models import OutboxEvent
from app.models.base import db
from app.ops import readiness
from tests.conftest import bearer
from tests.helpers import create_webhook, run_queued_jobs


def test_healthz_answers_without_touching_the_database(client, caplog):
    with caplog.at_level(logging.DEBUG, logger="peewee"):
        answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.get_json() == {"status": "ok"}
    assert not [record for record in caplog.records if record.name == "peewee"]  # no SQL at all
    assert answer.headers["Cache-Control"] == "no-store" and "X-RateLimit-Limit" not in answer.headers


def test_readyz_is_ready_and_says_what_it_checked(app, client):
    answer = client.get("/readyz")
    body = answer.get_json()
    assert answer.status_code == 200 and body["status"] == "ready", body
    assert set(body["checks"]) == {"database", "redis", "migrations", "outbox", "webhook_deliveries"}
    assert body["checks"]["migrations"] == {"ok": True, "pending": []}
    assert body["checks"]["redis"]["configured"] == (app.extensions["redis"] is not None)
    text = answer.get_data(as_text=True)
    assert app.config["SECRET_KEY"] not in text and app.config["DATABASE_URL"] not in text


def test_events_waiting_too_long_make_it_not_ready_until_dispatched(app, client, sandbox, clock):
    waiting = OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null()).count()
    assert waiting and client.get("/readyz").status_code == 200  # the sandbox's events, just written
    clock.advance(seconds=app.config["READY_MAX_LAG_SECONDS"] + 1)
    answer = client.get("/readyz")
    outbox = answer.get_json()["checks"]["outbox"]
    assert answer.status_code == 503 and answer.get_json()["status"] == "not_ready"
    assert outbox["ok"] is False and outbox["waiting"] == waiting and "worker" in outbox["problem"]
    OutboxEvent.update(dispatched_at=clock.now()).execute()
    assert client.get("/readyz").status_code == 200


def test_webhook_attempts_due_too_long_make_it_not_ready(app, client, headers, loopback, clock):
    """A ping's first attempt fails (nothing listens on port 9); its retry falls due a
    minute later, and no worker sends it."""
    hook = create_webhook(client, headers, "http://127.0.0.1:9/hook", ["employee.updated"]).get_json()
    assert client.post(f"/v1/webhooks/{hook['id']}/test", headers=headers).status_code == 202
    with app.app_context():
        dispatch_events([event.id for event in OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null())])
    clock.advance(seconds=60 + app.config["READY_MAX_LAG_SECONDS"])
    assert client.get("/readyz").status_code == 200  # due for exactly the limit
    clock.advance(seconds=1)
    checks = client.get("/readyz").get_json()["checks"]
    assert checks["webhook_deliveries"]["ok"] is False and checks["webhook_deliveries"]["waiting"] == 1


def test_a_migration_not_applied_makes_it_not_ready(client):
    history = Table("migratehistory").bind(db)
    [last] = history.select(history.c.name).order_by(history.c.id.desc()).limit(1).tuples()
    history.delete().where(history.c.name == last[0]).execute()  # rolled back after the test
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.get_json()["checks"]["migrations"]["pending"] == [last[0]]


def test_redis_not_answering_makes_it_not_ready_without_saying_where_it_is(app, client, monkeypatch, caplog):
    unreachable = redis.Redis.from_url("redis://user:hunter2@127.0.0.1:9/0", socket_connect_timeout=0.2)
    monkeypatch.setitem(app.extensions, "redis", unreachable)
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.get_json()["checks"]["redis"]["ok"] is False
    assert "hunter2" not in answer.get_data(as_text=True) and "127.0.0.1" not in answer.get_data(as_text=True)
    assert "Redis does not answer" in caplog.text


def test_a_database_that_does_not_answer_makes_it_not_ready(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("could not connect to server at db.internal:5432")

    monkeypatch.setattr(readiness, "db", SimpleNamespace(execute_sql=refuse))
    answer = client.get("/readyz")
    body = answer.get_json()
    assert answer.status_code == 503 and body["checks"]["database"] == {
        "ok": False, "problem": "the database does not answer"}
    assert "db.internal" not in answer.get_data(as_text=True)


# ---- one log line per request and per job -------------------------------------------------


def request_lines(caplog):
    return [record for record in caplog.records if record.name == "app.request"]


def test_a_request_logs_one_line_with_who_and_the_path_template_never_the_key(client, sandbox, make_key, caplog):
    key = make_key(sandbox)
    employee = client.get("/v1/employees?limit=1", headers=bearer(key)).get_json()["data"][0]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="app.request"):
        answer = client.get(f"/v1/employees/{employee['id']}", headers=bearer(key))
    [line] = request_lines(caplog)
    assert (line.method, line.path, line.status, line.operation) == (
        "GET", "/v1/employees/<employee_id>", 200, "getEmployee")
    assert line.request_id == answer.headers["X-Request-Id"] and line.company_id == sandbox.id
    assert line.credential_id.startswith("key_") and line.duration_ms >= 0
    assert key not in caplog.text and employee["id"] not in caplog.text
    assert line.getMessage().startswith("GET /v1/employees/<employee_id> 200 ")


def test_refusals_and_unknown_paths_are_logged_too(client, caplog):
    with caplog.at_level(logging.INFO, logger="app.request"):
        client.get("/v1/company", headers=bearer("svc_test_wrong"))
        client.get("/no/such/page")
    refused, unknown = request_lines(caplog)
    assert (refused.status, refused.operation, refused.path) == (401, "getCompany", "/v1/company")
    assert "svc_test_wrong" not in caplog.text
    assert (unknown.status, unknown.path) == (404, "(no route)")


def test_health_probes_are_logged_at_debug_only(client, caplog):
    with caplog.at_level(logging.INFO, logger="app.request"):
        client.get("/healthz")
        client.get("/readyz")
    assert request_lines(caplog) == []


def test_console_requests_name_the_user_and_company(client, admin, live_company, caplog):
    with caplog.at_level(logging.INFO, logger="app.request"):
        client.get("/console/integrations")
    [line] = request_lines(caplog)
    assert (line.user_id, line.company_id, line.path) == (admin.id, live_company.id, "/console/integrations")


def explode():
    raise LookupError("a job that fails")


def test_each_job_logs_one_line_ok_or_failed(app, caplog):
    """Through the runner this app has: RQ's worker (as the Procfile runs it) with Redis,
    else the in-process one."""
    runner = app.extensions["jobs"]
    with app.app_context(), caplog.at_level(logging.INFO, logger="app.job"):  # `jobs worker` runs in one
        runner.enqueue(sweeper.sweep)
        runner.enqueue(explode)
        run_queued_jobs(app)
    lines = {record.job: record for record in caplog.records if record.name == "app.job"}
    assert lines["sweep"].outcome == "ok" and lines["sweep"].levelname == "INFO"
    assert lines["explode"].outcome == "failed" and lines["explode"].error == "LookupError"
    assert lines["explode"].levelname == "ERROR"


def test_log_format_json_writes_one_object_per_line_with_the_facts():
    record = logging.LogRecord("app.request", logging.INFO, __file__, 1, "GET %s 200", ("/v1/company",), None)
    record.request_id, record.status, record.company_id = "req_1", 200, "cmp_1"
    line = json.loads(telemetry.formatter("json").format(record))
    assert line["message"] == "GET /v1/company 200" and line["level"] == "INFO" and line["logger"] == "app.request"
    assert (line["request_id"], line["status"], line["company_id"]) == ("req_1", 200, "cmp_1") and line["time"]


def test_an_unknown_log_format_is_refused_at_start(monkeypatch):
    from config import Config, ConfigurationError

    monkeypatch.setattr(Config, "LOG_FORMAT", "xml")
    with pytest.raises(ConfigurationError, match="LOG_FORMAT must be text or json"):
        Config.check()


# ---- /metrics -------------------------------------------------------------------------------


def scrape(client, token="s3cret-metrics-token"):
    return client.get("/metrics", headers={"Authorization": f"Bearer {token}"})


def sample(text, name, **labels):
    """The value of one sample in Prometheus text, or None."""
    wanted = name + ("{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}" if labels else "")
    for line in text.splitlines():
        if line.startswith(wanted + " "):
            return float(line.split()[-1])
    return None


@pytest.fixture
def metrics_on(app, monkeypatch):
    monkeypatch.setitem(app.config, "METRICS_TOKEN", "s3cret-metrics-token")


def test_metrics_are_off_without_a_token_and_need_it(app, client, metrics_on, monkeypatch):
    assert scrape(client, "wrong").status_code == 401 and client.get("/metrics").status_code == 401
    assert scrape(client).status_code == 200
    monkeypatch.setitem(app.config, "METRICS_TOKEN", None)
    assert scrape(client).status_code == 404


def test_metrics_count_requests_refusals_and_read_the_backlog(app, client, sandbox, make_key, metrics_on,
                                                             monkeypatch):
    before = scrape(client).get_data(as_text=True)
    monkeypatch.setattr(app.extensions["authenticator"], "limiter", make_limiter(1, app.extensions["redis"]))
    headers = bearer(make_key(sandbox))
    assert client.get("/v1/company", headers=headers).status_code == 200
    assert client.get("/v1/company", headers=headers).status_code == 429
    answer = scrape(client)
    text = answer.get_data(as_text=True)
    assert answer.headers["Content-Type"].startswith("text/plain; version=")

    def grew(name, **labels):
        return (sample(text, name, **labels) or 0) - (sample(before, name, **labels) or 0)

    assert grew("partner_api_requests_total", operation="getCompany", status="200") == 1
    assert grew("partner_api_rate_limit_refusals_total", operation="getCompany") == 1
    assert grew("partner_api_request_duration_seconds_count", operation="getCompany") == 2
    pending = OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null()).count()
    assert pending and sample(text, "partner_api_outbox_pending") == pending
    assert sample(text, "partner_api_webhook_deliveries", status="failed") == 0
    assert "s3cret" not in text and "svc_test_" not in text
