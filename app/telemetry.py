"""One log line per request and per job, and the counters /metrics reads.

A request's line names its request id, method, path template (`/v1/employees/<employee_id>`,
never the path itself, so no id or email from a URL reaches the log), status, duration,
and who: the credential and company under /v1, the user and company in the console.
Never a header, a query string, a body or a secret. Health probes and scrapes are logged
at DEBUG, so a load balancer's probes every few seconds do not bury the rest.

`LOG_FORMAT=json` writes every line as one JSON object (python-json-logger), with
these facts as fields; the default is plain text.
"""

import logging
import time

from flask import current_app, g, has_app_context, request
from pythonjsonlogger.json import JsonFormatter

from app.metrics import job_done, request_done

log = logging.getLogger("app.request")
job_log = logging.getLogger("app.job")
error_log = logging.getLogger("app.error")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
QUIET_PATHS = ("/healthz", "/readyz", "/metrics")
JSON_NAMES = {"asctime": "time", "levelname": "level", "name": "logger"}


def configure_logging(log_format):
    """Lines on stderr, as text or JSON, at INFO. Leaves a logging set up already (a test
    runner's, a gunicorn log config) as it is, as logging.basicConfig does."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(log_format))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("peewee_migrate").setLevel(logging.WARNING)


def gunicorn_logging(log_format):
    """gunicorn's `logconfig_dict` for LOG_FORMAT=json: its own lines (the master's
    start, reload and stop, workers booting) as JSON on stderr like the service's, and
    the root handler the app's lines then use; None for text (gunicorn's own format)."""
    if log_format != "json":
        return None
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter, "fmt": TEXT_FORMAT, "rename_fields": JSON_NAMES}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "root": {"level": "INFO", "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": [], "propagate": True},
            # gunicorn writes an access line whenever a log config is given: the raw path and
            # query string (a reset token, an OAuth state, an api_key). The app's own line
            # per request (route_of) replaces it.
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
    }


def formatter(log_format):
    if log_format == "json":
        return JsonFormatter(TEXT_FORMAT, rename_fields=JSON_NAMES)
    return logging.Formatter(TEXT_FORMAT)


def register(app):
    """Call first in create_app: its before_request must run before any other."""
    app.before_request(_started)
    app.after_request(_finished)


def _started():
    request.environ.setdefault("app.started", time.perf_counter())


def _finished(response):
    began = request.environ.get("app.started")
    seconds = time.perf_counter() - began if began is not None else 0.0
    operation = g.get("operation_id") or request.endpoint or "unrouted"
    if _counting():
        request_done(operation, response.status_code, seconds)
    facts = {"request_id": g.get("request_id"), "method": request.method, "path": route_of(),
             "status": response.status_code, "duration_ms": round(seconds * 1000, 1), "operation": operation}
    principal = g.get("principal")
    if principal is not None:
        facts.update(credential_id=principal.credential_id, company_id=principal.company.id)
    elif g.get("user") is not None:
        facts.update(user_id=g.user.id, company_id=g.company.id if g.get("company") else None)
    level = logging.DEBUG if request.path in QUIET_PATHS else logging.INFO
    log.log(level, "%s %s %s %.1f ms%s", facts["method"], facts["path"], facts["status"], facts["duration_ms"],
            _tail(facts, ("request_id", "credential_id", "user_id", "company_id")), extra=facts)
    return response


def log_server_error(exc_info: BaseException | None = None) -> None:
    """A server fault of this request, once: its request id, method and route template
    (never the path: it may hold an id or a token), with the traceback when an exception
    lies behind it. Flask asks for it for every unhandled exception
    (`PartnerFlask.log_exception`); an error handler, for a 5xx raised without one."""
    error_log.error("server error request_id=%s %s %s", g.get("request_id"), request.method, route_of(),
                    exc_info=exc_info)


def route_of() -> str:
    """The request's path as a template (`/console/reset-password/<token>`), the only form
    of a path any log line carries: the path itself may hold a secret or an id."""
    return request.url_rule.rule if request.url_rule is not None else "(no route)"


def job_finished(name, seconds, error=None, job_id=None, *, quiet=False):
    """A job's line, and its counters: ok, or failed with the exception's type. `quiet`:
    an ok job's line at DEBUG (a CLI command's own jobs, done before it returns)."""
    if _counting():
        job_done(name, seconds, error is None)
    facts = {"job": name, "job_id": job_id, "duration_ms": round(seconds * 1000, 1),
             "outcome": "ok" if error is None else "failed"}
    if error is not None:
        facts["error"] = type(error).__name__
    level = logging.ERROR if error is not None else logging.DEBUG if quiet else logging.INFO
    job_log.log(level, "job %s %s %.1f ms%s", name, facts["outcome"],
                facts["duration_ms"], _tail(facts, ("job_id", "error")), extra=facts)


def _counting():
    """Counters are kept only while /metrics can be read (METRICS_TOKEN set)."""
    return has_app_context() and bool(current_app.config.get("METRICS_TOKEN"))


def _tail(facts, names):
    return "".join(f" {name}={facts[name]}" for name in names if facts.get(name) is not None)
