"""`/healthz` and `/readyz`: outside /v1, no key, not rate limited, nothing secret.

`/healthz` answers 200 while the process serves requests, and touches nothing else: a
process supervisor or load balancer restarts or skips a process that does not answer.
`/readyz` answers 200 when the process can do its work (app/ops/readiness.py) and 503
naming what is wrong otherwise: what a deploy waits for, and what monitoring watches.
"""

from flask import Blueprint, current_app, jsonify

from app.extensions import runtime
from app.ops import readiness

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz():
    return _no_store(jsonify(status="ok"))


@bp.get("/readyz")
def readyz():
    checks, ready = readiness.check(current_app.extensions["redis"], runtime().now(),
                                    current_app.config["READY_MAX_LAG_SECONDS"])
    return _no_store(jsonify(status="ready" if ready else "not_ready", checks=checks)), 200 if ready else 503


def _no_store(response):
    response.headers["Cache-Control"] = "no-store"
    return response
