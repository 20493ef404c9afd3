"""Whether this process can do its work: the database answers and has every migration,
Redis answers (when configured), and the background jobs keep up (the oldest event not
yet dispatched, and the oldest webhook attempt due, are younger than
READY_MAX_LAG_SECONDS).

Each check is `{"ok": bool, ...facts}`. No check names a host, a user or a secret: a
failure's detail goes to the log, with the request id.
"""

import logging

from app.domain.kernel import events
from app.domain.webhooks import deliveries
from app.models.base import connection, db
from app.models.schema import pending

log = logging.getLogger(__name__)


def check(redis_client, now, max_lag_seconds):
    """{name: check}, and whether every check is ok."""
    checks = {"database": _database(), "redis": _redis(redis_client)}
    if checks["database"]["ok"]:
        checks["migrations"] = _migrations()
        if checks["migrations"]["ok"]:  # before them, the tables the jobs use may not exist
            checks.update(_jobs(now, max_lag_seconds))
    return checks, all(found["ok"] for found in checks.values())


def _database():
    try:
        with connection():
            db.execute_sql("SELECT 1")
    except Exception as exc:  # noqa: BLE001 (any failure means "not reachable"; the log says which)
        log.warning("readiness: the database does not answer: %s", exc)
        return {"ok": False, "problem": "the database does not answer"}
    return {"ok": True}


def _migrations():
    with connection():
        waiting = pending()
    if waiting:
        return {"ok": False, "pending": waiting,
                "problem": "migrations not applied: run `flask --app wsgi db upgrade`"}
    return {"ok": True, "pending": []}


def _redis(redis_client):
    if redis_client is None:
        return {"ok": True, "configured": False}
    try:
        redis_client.ping()
    except Exception as exc:  # noqa: BLE001 (as for the database)
        log.warning("readiness: Redis does not answer: %s", exc)
        return {"ok": False, "configured": True, "problem": "Redis does not answer"}
    return {"ok": True, "configured": True}


def _jobs(now, max_lag_seconds):
    with connection():
        lags = {"outbox": events.backlog(now), "webhook_deliveries": deliveries.backlog(now)}
    found = {}
    for name, lag in lags.items():
        stalled = lag.oldest_seconds is not None and lag.oldest_seconds > max_lag_seconds
        found[name] = {"ok": not stalled, "waiting": lag.count,
                       "oldest_seconds": None if lag.oldest_seconds is None else round(lag.oldest_seconds, 1)}
        if stalled:
            found[name]["problem"] = (f"the oldest has waited over {max_lag_seconds} s: are the worker and the "
                                      "scheduler running?")
    return found
