"""`/healthz`, `/readyz` and `/metrics`: outside /v1, no API key, not rate limited,
nothing secret.

`/healthz` answers 200 while the process serves requests, and touches nothing else: a
process supervisor or load balancer restarts or skips a process that does not answer.
`/readyz` answers 200 when the process can do its work (app/ops/readiness.py) and 503
naming what is wrong otherwise: what a deploy waits for, and what monitoring watches.
"""

import hmac

from flask import Blueprint, Response, abort, current_app, jsonify, request
from prometheus_client import CONTENT_TYPE_LATEST

from app.extensions import redis_client, runtime
from app.metrics import scrape
from app.ops import readiness

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz():
    return _no_store(jsonify(status="ok"))


@bp.get("/readyz")
def readyz():
    checks, ready = readiness.check(redis_client(), runtime().now(),
                                    current_app.config["READY_MAX_LAG_SECONDS"])
    return _no_store(jsonify(status="ready" if ready else "not_ready", checks=checks)), 200 if ready else 503


@bp.get("/metrics")
def metrics_page():
    """Prometheus text format; there only when METRICS_TOKEN is set, and only for a
    scraper that sends it as `Authorization: Bearer <METRICS_TOKEN>`."""
    token = current_app.config["METRICS_TOKEN"]
    if not token:
        abort(404)
    sent = request.headers.get("Authorization", "")
    if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return Response("Send Authorization: Bearer <METRICS_TOKEN>.\n", 401, mimetype="text/plain",
                        headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    body = scrape(current_app.config["METRICS_DIR"], runtime().now())
    return _no_store(Response(body, mimetype=CONTENT_TYPE_LATEST))


def _no_store(response):
    response.headers["Cache-Control"] = "no-store"
    return response
