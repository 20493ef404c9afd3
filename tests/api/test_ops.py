"""`/healthz` and `/readyz`: outside /v1, no key, nothing secret, and readiness that
turns on what an operator must fix (the database, migrations, Redis, stalled jobs)."""

import logging
from types import SimpleNamespace

import redis
from peewee import OperationalError, Table

from app.jobs.outbox import dispatch_events
from app.models import OutboxEvent
from app.models.base import db
from app.ops import readiness
from tests.api.test_webhooks import create


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
    hook = create(client, headers, "http://127.0.0.1:9/hook", ["employee.updated"]).get_json()
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
