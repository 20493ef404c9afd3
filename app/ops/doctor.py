"""`flask --app wsgi doctor`: what an operator checks before starting (or at 3 a.m.),
one finding per line, each a problem with its fix or fine.

Checks the secret key, the database, its migrations, Redis, SMTP, the clock against
the database's and Redis's, the proxy settings, who may read the SQLite files, and the
stored names, codes, URLs, partners' attendance references and months that today's rules
refuse (rows stored before them).
"""

import os
import stat
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import current_app

from app.domain.kernel.text import not_in_a_line
from app.domain.payroll.drafts import is_month
from app.domain.webhooks.urls import unfit_character
from app.extensions import mailer, redis_client
from app.mail import SmtpMailer
from app.models import (
    AccountMapping,
    ApiKey,
    AttendanceEvent,
    Branch,
    Company,
    Employee,
    Entity,
    OAuthApp,
    PayrollRun,
    User,
    WebhookEndpoint,
)
from app.models.base import connection, db
from app.models.schema import pending
from config import DEV_SECRET_KEY, rate_limit_file

MAX_SKEW_SECONDS = 5  # webhook receivers reject signatures more than 5 minutes off; be far inside
# What each table stores as one line of text (app/domain/kernel/text.py, line_problem; a
# webhook URL holds no whitespace either), and how an operator corrects a row.
ONE_LINE_FIELDS = (
    (Company, ("name_en", "name_ar"), "correct the row in the database (no command renames a company)"),
    (Entity, ("name_en", "name_ar"), "correct the row in the database (no command renames a legal entity)"),
    (Branch, ("name",), "correct the row in the database (no command renames a branch)"),
    (Employee, ("staff_number", "name_en", "name_ar", "job_title", "department", "contact_email"),
     "correct it on the employee's console page, or with flask --app wsgi employees update"),
    (AccountMapping, ("code", "name_en", "name_ar"), "set it again: flask --app wsgi payroll accounts set"),
    (OAuthApp, ("name",), "correct the row in the database (no command renames an app)"),
    (ApiKey, ("name",), "correct the row in the database (no command renames a key), or revoke the key "
                        "(flask --app wsgi keys revoke ID) and create another"),
    (User, ("name", "email"), "correct the row in the database (no command renames a user)"),
    # Partners' references, shown to HR in the console and by `attendance unmatched` (the
    # largest table here: read in batches like the rest).
    (AttendanceEvent, ("source", "external_id", "branch_ref", "ref_value"),
     "correct the row in the database, or delete it if it is only waiting unmatched (ingest refuses such "
     "references now)"),
    (WebhookEndpoint, ("url",), "its owner sets another URL (PATCH /v1/webhooks/ID); deliveries to it are "
                                "refused until then"),
)
MAX_LISTED = 50  # rows named one per line; past that, a count
SCAN_BATCH = 2000


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    detail: str  # what was found; for a problem, also the fix
    warning: bool = False  # fine here, a problem elsewhere (said, not counted)


def examine():
    """Every finding, in the order an operator fixes things."""
    config = current_app.config
    findings = [_secret_key(config)]
    database = _database()
    findings.append(database)
    migrations = _migrations() if database.ok else None
    if migrations is not None:
        findings.append(migrations)
    findings += [_redis(), _smtp(config), *_clocks(database.ok), _proxy(config), *_files(config)]
    if migrations is not None and migrations.ok:  # the tables are as this code reads them
        findings += _stored_text()
    return findings


def _secret_key(config):
    key = config["SECRET_KEY"] or ""
    fix = "set SECRET_KEY to the output of python3 -c 'import secrets; print(secrets.token_urlsafe(48))', and keep it"
    if key == DEV_SECRET_KEY:
        if config.get("ENV_NAME") != "production":  # a newcomer's first run: fine here, refused in production
            return Finding("secret key", True, f"the development value, fine for development; before production, "
                                               f"{fix}", warning=True)
        return Finding("secret key", False, f"the development value: {fix}")
    if len(key) < 32:
        return Finding("secret key", False, f"{len(key)} characters: set SECRET_KEY to 32 or more random characters")
    fallbacks = len(config["SECRET_KEY_FALLBACKS"])
    return Finding("secret key", True, f"set, {len(key)} characters" +
                   (f"; {fallbacks} earlier key(s) still open old sessions and secrets" if fallbacks else ""))


def _database():
    engine = "PostgreSQL" if "postgres" in type(db.obj).__name__.lower() else "SQLite"
    try:
        with connection():
            db.execute_sql("SELECT 1")
    except Exception as exc:  # noqa: BLE001 (whatever the driver says is the finding)
        return Finding("database", False, f"{engine} does not answer: {_one_line(exc)}. Check DATABASE_URL and "
                                          "that the server runs")
    return Finding("database", True, f"{engine} answers")


def _migrations():
    with connection():
        waiting = pending()
    if waiting:
        return Finding("migrations", False, f"{len(waiting)} not applied ({', '.join(waiting)}): run "
                                            "flask --app wsgi db upgrade")
    return Finding("migrations", True, "all applied")


def _redis():
    client = redis_client()
    if client is None:
        return Finding("redis", True, "not configured: jobs run on a thread of each web process (one host only)")
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001
        return Finding("redis", False, f"does not answer: {_one_line(exc)}. Check REDIS_URL and that redis-server "
                                       "runs")
    return Finding("redis", True, "answers")


def _smtp(config):
    sender = mailer()
    if not isinstance(sender, SmtpMailer):
        if config["ENV_NAME"] == "production":
            return Finding("smtp", False, "SMTP_URL is not set: password-reset and webhook emails only reach the "
                                          "log. Set SMTP_URL=smtp://user:password@host:587")
        return Finding("smtp", True, "not configured: emails are written to the log")
    try:
        sender.check()
    except Exception as exc:  # noqa: BLE001
        return Finding("smtp", False, f"{sender.host}:{sender.port} refused: {_one_line(exc)}. Check SMTP_URL")
    return Finding("smtp", True, f"{sender.host}:{sender.port} accepts a sign-in" if sender.user else
                   f"{sender.host}:{sender.port} answers")


def _clocks(database_ok):
    """This host's clock against the database server's and Redis's: signatures, token
    expiry and retries all read it."""
    found = []
    if database_ok and "postgres" in type(db.obj).__name__.lower():
        with connection():
            found.append(_skew("clock", "PostgreSQL", lambda: db.execute_sql("SELECT now()").fetchone()[0]))
    client = redis_client()
    if client is not None:
        def redis_time():
            seconds, micros = client.time()
            return datetime.fromtimestamp(seconds + micros / 1e6, UTC)
        try:
            found.append(_skew("clock", "Redis", redis_time))
        except Exception:  # noqa: BLE001 (Redis's own finding says it does not answer)
            pass
    return found or [Finding("clock", True, "no other clock to compare with (SQLite, no Redis); keep NTP on")]


def _skew(name, other, read):
    before = time.time()
    theirs = read().timestamp()
    after = time.time()
    skew = theirs - (before + after) / 2
    if abs(skew) > MAX_SKEW_SECONDS:
        return Finding(name, False, f"{abs(skew):.1f} s {'behind' if skew > 0 else 'ahead of'} {other}: turn on "
                                    "time sync (systemd-timesyncd or chrony) on both hosts")
    return Finding(name, True, f"within {abs(skew):.2f} s of {other}")


def _proxy(config):
    hops = config["PROXY_HOPS"]
    if config["ENV_NAME"] == "production" and hops < 1:
        return Finding("proxy", False, "PROXY_HOPS=0 in production: behind Caddy or nginx set PROXY_HOPS=1, so "
                                       "client addresses and https are seen")
    if hops:
        return Finding("proxy", True, f"trusting X-Forwarded-* from {hops} proxy hop(s): the service must listen "
                                      "on 127.0.0.1 only, behind the proxy")
    return Finding("proxy", True, "no proxy trusted (PROXY_HOPS=0): X-Forwarded-* headers are ignored")


def _files(config):
    """SQLite files (the database, its WAL, the rate-limit counts) and their folders:
    readable by this user only, and writable by it."""
    paths = [rate_limit_file(config)]
    url = config["DATABASE_URL"]
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        paths.insert(0, url[len("sqlite:///"):])
    found = []
    for path in paths:
        for each in (path, f"{path}-wal", f"{path}-shm"):
            if os.path.exists(each):
                found.append(_permissions(each))
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(folder) and not os.access(folder, os.W_OK):
            found.append(Finding("files", False, f"{folder} is not writable by this user: SQLite needs to write "
                                                 "its journal there. chown it to the service user"))
    return found


def _permissions(path):
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if not os.access(path, os.R_OK | os.W_OK):
        return Finding("files", False, f"{path} is not readable and writable by this user: chown it to the "
                                       "service user")
    if mode & 0o077:
        return Finding("files", False, f"{path} is mode {mode:o}: others may read salaries and keys. chmod 600 {path}")
    return Finding("files", True, f"{path} is mode {mode:o}")


def _one_line(exc):
    return " ".join(str(exc).split()) or type(exc).__name__


def _stored_text():
    """Rows stored before today's rules whose names, codes, URLs or attendance references
    hold what one line of
    text may not (a line break, a control or bidirectional control character), and runs
    whose month is not YYYY-MM in the digits 0-9: one line each, naming the table, the row
    and the field (never the text itself, which may hold the very characters in question)."""
    found, total = [], 0
    with connection():
        for model, names, fix in ONE_LINE_FIELDS:
            for row, name, character in _unfit_rows(model, names):
                total += 1
                if total <= MAX_LISTED:
                    found.append(Finding("stored text", False, f"{model._meta.table_name} {row} {name} holds "
                                                               f"U+{ord(character):04X}: {fix}"))
        for run_id, month, status in _keyset(PayrollRun, (PayrollRun.payroll_month, PayrollRun.status)):
            if not is_month(month):
                total += 1
                fix = (f"discard the draft (flask --app wsgi payroll discard {run_id}) and draft the month again"
                       if status == "draft" else "correct the row in the database")
                if total <= MAX_LISTED:
                    found.append(Finding("stored text", False, f"payroll_run {run_id} payroll_month is {ascii(month)}, "
                                                               f"not a month YYYY-MM in the digits 0-9: {fix}"))
    if total > MAX_LISTED:
        found.append(Finding("stored text", False, f"and {total - MAX_LISTED} more row(s) like these"))
    return found or [Finding("stored text", True, "names, codes, URLs and attendance references are single lines; "
                                                  "months are YYYY-MM")]


def _unfit_rows(model, names):
    """(row, field, first refused character) of the model's rows, the row named by its id
    (an account mapping by its company, entity and key)."""
    mapping = model is AccountMapping
    extra = (AccountMapping.company, AccountMapping.entity, AccountMapping.key) if mapping else ()
    for row_id, *values in _keyset(model, (*extra, *(getattr(model, name) for name in names))):
        label = row_id
        if mapping:
            company, entity, key, *values = values
            label = f"{company}{f'/{entity}' if entity else ''}/{key}"
        for name, value in zip(names, values, strict=True):
            if not isinstance(value, str):
                continue
            character = unfit_character(value) if model is WebhookEndpoint else not_in_a_line(value)
            if character is not None:
                yield label, name, character


def _keyset(model, columns):
    """(id, *columns) of every row of `model`, read in batches by id."""
    key = model._meta.primary_key
    after = None
    while True:
        query = model.select(key, *columns).order_by(key).limit(SCAN_BATCH)
        rows = list((query.where(key > after) if after is not None else query).tuples())
        yield from rows
        if len(rows) < SCAN_BATCH:
            return
        after = rows[-1][0]
