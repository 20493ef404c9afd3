"""Application factory: wires configuration, extensions, blueprints and error handlers."""

import logging
import os

import redis
from flask import Flask

from app import cli
from app.api import auth, company, docs, employees, payroll, problems, request_id
from app.api.ratelimit import make_limiter
from app.domain.clock import SystemClock
from app.extensions import api
from app.models import db, make_database
from config import config_from_env

API_DESCRIPTION = """\
Read one company's HR and payroll data, push clock events and receive signed webhooks.

Every request sends `Authorization: Bearer <API key>`. Sandbox keys start with `svc_test_`
and reach only sandbox companies; live keys start with `svc_live_`. Errors are
`application/problem+json`: branch on `code`. Each operation carries `x-release`.
"""


def create_app(config=None, **overrides):
    """Build the app. `config` is a config class (default: from APP_ENV); `overrides`
    replace single settings (tests pass DATABASE_URL, CLOCK, ...)."""
    app = Flask(__name__)
    config = config or config_from_env()
    if hasattr(config, "check"):
        config.check()
    app.config.from_object(config)
    app.config.update(overrides)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("peewee_migrate").setLevel(logging.WARNING)

    _init_database(app)
    redis_client = redis.Redis.from_url(app.config["REDIS_URL"]) if app.config["REDIS_URL"] else None
    app.extensions["redis"] = redis_client
    app.extensions["clock"] = app.config.get("CLOCK") or SystemClock()
    app.extensions["rate_limiter"] = make_limiter(app.config["RATE_LIMIT_PER_MINUTE"], redis_client)

    request_id.register(app)
    api.init_app(app, spec_kwargs={"info": {"description": API_DESCRIPTION}})
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer", "description": "API key (`svc_live_...` or `svc_test_...`)."}
    )
    for blueprint in (company.blp, employees.blp, payroll.blp):
        api.register_blueprint(blueprint)
    app.register_blueprint(docs.blp)
    problems.register(app)
    auth.register(app)
    cli.register(app)
    return app


def _init_database(app):
    url = app.config["DATABASE_URL"]
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        directory = os.path.dirname(url[len("sqlite:///"):])
        if directory:
            os.makedirs(directory, exist_ok=True)
    db.initialize(make_database(url))

    @app.before_request
    def open_connection():
        db.connect(reuse_if_open=True)

    @app.teardown_request
    def close_connection(exc):
        # Inside a test's transaction the connection stays open (closing would raise).
        if not db.is_closed() and not db.in_transaction():
            db.close()
