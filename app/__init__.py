"""Application factory: wires configuration, extensions, blueprints and error handlers."""

import logging
from types import FunctionType
from typing import Any

from flask import Flask

from app import cli, console, i18n, metrics, telemetry
from app.api import attendance as attendance_api
from app.api import (
    auth,
    company,
    conditional,
    credential,
    docs,
    employees,
    event_types,
    events,
    journal_accounts,
    journal_entries,
    leave,
    payroll,
    problems,
    request_id,
    request_limits,
    sandbox_events,
    sandbox_reset,
)
from app.api import webhooks as webhooks_api
from app.api.openapi import PartnerApi
from app.api.principal_cache import make_authenticator
from app.console.common import error_page as console_error_page
from app.console.throttle import SignInThrottle
from app.domain.kernel.clock import SystemClock
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.sealing import Sealer
from app.domain.webhooks.urls import parse_networks
from app.egress import Sender, dns_resolver, parse_dns_servers, resolve
from app.extensions import connect_redis
from app.jobs import attendance, outbox, periodic, webhooks
from app.jobs.queues import InProcessRunner, RQJobs
from app.limits import SharedPacer, make_limiter
from app.mail import make_mailer
from app.models import db, make_database
from app.models.base import private_file
from app.oauth import routes as oauth_routes
from app.oauth.server import make_server as make_oauth_server
from app.ops import routes as ops_routes
from config import ADDITIONS, ConfigurationError, config_from_env, rate_limit_file

log = logging.getLogger(__name__)

API_DESCRIPTION = """\
Read one company, its partner-safe employee records and its closed payroll runs (v1.0);
push clock events and read the paired attendance days back (v1.1); register webhook
endpoints and receive signed events, with a delivery log (v1.2).

Every request sends `Authorization: Bearer <API key>`. Sandbox keys start with `svc_test_`
and reach only sandbox companies; live keys start with `svc_live_`. Errors are
`application/problem+json`: branch on `code`. Each operation carries `x-release`; one whose
release is not live on this server answers 404 `not_found`. v1 only adds: ignore fields and
enum values you do not know. Unknown or repeated query parameters are refused (400).
"""


class PartnerFlask(Flask):
    _sync_functions: dict[FunctionType, Any] = {}

    def ensure_sync(self, func):
        # Flask asks, for every hook and view of every request, whether it is a
        # coroutine function; nothing here is async, and plain functions are asked once.
        if isinstance(func, FunctionType):
            checked = self._sync_functions.get(func)
            if checked is None:
                checked = self._sync_functions[func] = super().ensure_sync(func)
            return checked
        return super().ensure_sync(func)

    def log_exception(self, exc_info):
        # Flask's own line names the raw path (an id, a reset token) and the error handler
        # that answers would log the traceback again: one line, with the request id.
        telemetry.log_server_error(exc_info[1])


def create_app(config=None, **overrides):
    """Build the app. `config` is a config class (default: from APP_ENV); `overrides`
    replace single settings (tests pass DATABASE_URL, CLOCK, ...)."""
    app = PartnerFlask(__name__)
    config = config or config_from_env()
    config.check()
    app.config.from_object(config)
    app.config.update(overrides)
    telemetry.configure_logging(app.config["LOG_FORMAT"])
    if app.config["METRICS_DIR"]:
        try:
            metrics.use_directory(app.config["METRICS_DIR"])
        except OSError as exc:
            raise ConfigurationError(f"METRICS_DIR {app.config['METRICS_DIR']} cannot be used: {exc.strerror}; "
                                     "make it writable by the service's user, or unset it") from None
    # Settings that can be wrong are read before anything is wired.
    sender = Sender(_private_networks(app), ca_file=app.config["WEBHOOK_CA_FILE"], resolver=_webhook_resolver(app))

    _init_database(app)
    redis_client = connect_redis(app.config["REDIS_URL"]) if app.config["REDIS_URL"] else None
    app.extensions["redis"] = redis_client
    limits_file = rate_limit_file(app.config)
    authenticator = app.extensions["authenticator"] = make_authenticator(
        app.config["RATE_LIMIT_PER_MINUTE"], redis_client, limits_file=limits_file,
        last_used_resolution=app.config["KEY_LAST_USED_RESOLUTION"],
    )
    app.extensions["sign_in_throttle"] = SignInThrottle(**{
        kind: make_limiter(app.config[setting], redis_client, window_seconds=window, prefix=f"login:{kind}:",
                           path=limits_file)
        for kind, setting, window in (("by_email_and_address", "LOGIN_ATTEMPTS_PER_EMAIL_AND_ADDRESS", 900),
                                      ("by_address", "LOGIN_ATTEMPTS_PER_ADDRESS", 900),
                                      ("by_email", "LOGIN_ATTEMPTS_PER_EMAIL_PER_HOUR", 3600))
    })
    app.extensions["mailer"] = make_mailer(app.config["SMTP_URL"], app.config["MAIL_FROM"])
    app.extensions["webhook_sender"] = sender
    app.extensions["delivery_pacer"] = SharedPacer(redis_client, limits_file)
    jobs = _init_jobs(app, redis_client)
    # Where work goes after an action commits (app/domain/kernel/runtime.py). Events queue
    # a drain of the outbox (one while one waits to start), which fans them out into
    # webhook deliveries and sends them; deliveries due later are queued for sending; new clock
    # events for pairing; if queueing fails (Redis down) the periodic jobs find them. A changed
    # credential retires every worker's cached copy.
    app.extensions["runtime"] = Runtime(
        app.config.get("CLOCK") or SystemClock(),
        **_hand_offs(jobs),
        on_credentials_changed=authenticator.versions.changed if authenticator.versions is not None else None,
        sealer=Sealer([app.config["SECRET_KEY"], *app.config["SECRET_KEY_FALLBACKS"]]),
        beyond_contract=ADDITIONS in app.config["LIVE_RELEASES"],
    )

    telemetry.register(app)  # before the request's own hooks: its clock includes them
    request_id.register(app)
    request_limits.register(app)
    api = PartnerApi(app, spec_kwargs={"info": {"description": API_DESCRIPTION,
                                                "x-contract-version": app.config["CONTRACT_VERSION"]}})
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer",
                       "description": "API key (`svc_live_...` or `svc_test_...`), or an OAuth access token "
                                      "(`svc_at_...`, preview) with the same scopes."}
    )
    for blueprint in (company.blp, credential.blp, employees.blp, payroll.blp, attendance_api.blp, webhooks_api.blp,
                      event_types.blp, events.blp, journal_accounts.blp, journal_entries.blp,
                      leave.blp, leave.balances_blp, sandbox_events.blp, sandbox_reset.blp):
        api.register_blueprint(blueprint)
    event_types.register_schemas(api.spec)
    app.extensions["partner_api"] = api
    app.register_blueprint(docs.blp)
    app.register_blueprint(ops_routes.bp)
    i18n.register(app)  # the console's pages and the emails to people; never the API's answers
    console.register(app)
    app.extensions["oauth_server"] = make_oauth_server()
    app.register_blueprint(oauth_routes.blp)
    app.extensions["csrf"].exempt(oauth_routes.blp)  # clients post forms, not browsers with a session
    problems.register(app, elsewhere={path: oauth_routes.http_error for path in oauth_routes.ENDPOINT_PATHS},
                      pages=console_error_page)
    auth.register(app)
    conditional.register(app)
    cli.register(app)
    return app


def _init_database(app):
    url = app.config["DATABASE_URL"]
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        private_file(url[len("sqlite:///"):])
    # Connections are opened on a request's first query (Peewee's autoconnect, from
    # the pool), so a request that needs no SQL borrows none.
    db.initialize(make_database(url))

    @app.teardown_request
    def close_connection(exc):
        # Inside a test's transaction the connection stays open (closing would raise).
        if not db.is_closed() and not db.in_transaction():
            db.close()


def _hand_offs(jobs):
    """The Runtime's after-commit hand-offs that queue a job, by name."""

    def drain_the_outbox(event_id):  # one drain takes every event written meanwhile
        jobs.enqueue_once(outbox.DRAIN, outbox.drain_outbox)

    def pair_clock_events(company_id, employee_ids):
        jobs.enqueue(attendance.pair_attendance, company_id, employee_ids)

    def send_due_deliveries(delivery_ids):
        jobs.enqueue(webhooks.send_deliveries, delivery_ids)

    def tell_the_owner(endpoint_id, notice):
        jobs.enqueue(webhooks.notify_endpoint, endpoint_id, notice)

    return {"on_event_written": drain_the_outbox, "on_clock_events_stored": pair_clock_events,
            "on_deliveries_due": send_due_deliveries, "on_endpoint_notice": tell_the_owner}


def _private_networks(app):
    try:
        networks = parse_networks(app.config["WEBHOOK_ALLOW_PRIVATE_NETWORKS"])
    except ValueError as exc:
        raise ConfigurationError(f"WEBHOOK_ALLOW_PRIVATE_NETWORKS: {exc}") from None
    if networks:
        log.warning("webhooks may be delivered to the private networks %s (WEBHOOK_ALLOW_PRIVATE_NETWORKS), "
                    "over http too", ", ".join(map(str, networks)))
    return networks


def _webhook_resolver(app):
    try:
        servers = parse_dns_servers(app.config["WEBHOOK_DNS_SERVERS"])
    except ValueError as exc:
        raise ConfigurationError(f"WEBHOOK_DNS_SERVERS: {exc}") from None
    return dns_resolver(servers) if servers else resolve


def _init_jobs(app, redis_client):
    if redis_client is not None:
        jobs = RQJobs(redis_client, now=lambda: app.extensions["runtime"].now())  # the app's clock, read when asked
    else:
        jobs = InProcessRunner(app, periodic(app.config["SWEEP_SECONDS"]), autostart=app.config["JOBS_AUTOSTART"])
        # Each web process (gunicorn forks after import) starts its runner, and with it
        # the periodic drain and sweeper and the nightly reconciliation, on its first request.
        app.before_request(jobs.ensure_started)
    app.extensions["jobs"] = jobs
    return jobs
