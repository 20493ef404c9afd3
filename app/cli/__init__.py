"""Operator and HR commands: `flask --app wsgi <group> <command>`.

Thin callers of domain functions. Bad arguments print one clear line and exit
non-zero, never a traceback.
"""

import errno
import os
import secrets
import socket
import tempfile

import click
from flask import current_app
from flask.cli import AppGroup, with_appcontext

from app.cli import attendance, hr, leave
from app.cli.backup import backup_cli
from app.cli.common import WholeNumber, country_option, emit, json_option, one_line_errors, reported, shown
from app.cli.jobs import jobs_cli
from app.cli.oauth import oauth_cli
from app.cli.webhooks import webhooks_cli
from app.domain import credentials, sandbox, sandbox_triggers
from app.domain import sandbox_reset as sandbox_reset_domain
from app.domain.access import companies, keys, signin
from app.domain.access import users as access
from app.domain.kernel.countries import COUNTRY_CODES
from app.extensions import runtime
from app.jobs.queues import job_queue
from app.metrics import use_directory
from app.models import db
from app.models.base import connection
from app.models.schema import pending, upgrade
from app.ops import doctor as ops_doctor
from app.serve import run_gunicorn
from config import serve_key_file

db_cli = AppGroup("db", help="Database schema.")


@db_cli.command("upgrade")
@one_line_errors
def db_upgrade():
    """Apply pending migrations."""
    applied = upgrade()
    click.echo(f"applied {len(applied)} migration(s)" + (f": {', '.join(applied)}" if applied else ""))


@db_cli.command("check")
@one_line_errors
def db_check():
    """Exit 1 unless every migration is applied (the deploy units' ExecStartPre: new code
    does not start on an old schema)."""
    waiting = pending()
    if waiting:
        raise click.ClickException(f"{len(waiting)} migration(s) not applied ({', '.join(waiting)}): run "
                                   "flask --app wsgi db upgrade")
    click.echo("all migrations applied")


companies_cli = AppGroup("companies", help="Companies.")


@companies_cli.command("create")
@click.option("--name", required=True, help="English name.")
@click.option("--name-ar", default=None, help="Arabic name.")
@country_option
@click.option("--sandbox", is_flag=True, help="Make a sandbox company (reachable by svc_test_ keys).")
@json_option
@one_line_errors
def companies_create(name, name_ar, country, sandbox, as_json):
    """Create a company (the Partner API starts off)."""
    company = companies.create_company(name, country, runtime(), name_ar=name_ar, sandbox=sandbox)
    emit(as_json, {"company_id": company.id}, f"created company {company.id}")


partner_api_cli = AppGroup("partner-api", help="Partner API access per company.")


@partner_api_cli.command("enable")
@click.argument("company_id")
@one_line_errors
def partner_api_enable(company_id):
    """Switch the Partner API on for a company."""
    companies.enable_partner_api(company_id, runtime())
    click.echo(f"Partner API enabled for {company_id}")


users_cli = AppGroup("users", help="Console users.")


@users_cli.command("create")
@click.option("--email", required=True)
@click.option("--name", default=None)
@click.option("--password", default=None, help="Lets the user sign in to the console.")
@click.option("--company", "company_id", default=None, help="Add a membership in this company.")
@click.option("--role", type=click.Choice(sorted(access.ROLE_PERMISSIONS)), default="hr_admin")
@json_option
@one_line_errors
def users_create(email, name, password, company_id, role, as_json):
    """Create a user, optionally a member of a company."""
    with db.atomic():
        user = access.get_or_create_user(email, runtime(), name=name, password=password)
        if company_id:
            access.add_membership(user, companies.get_company(company_id), role, runtime())
    emit(as_json, {"user_id": user.id, "email": user.email}, f"user {shown(user.email)} ({user.id})")


@users_cli.command("password")
@click.option("--email", required=True)
@click.option("--password", default=None, help="The new password; omit it to have one generated and printed.")
@one_line_errors
def users_password(email, password):
    """Set a user's console password (their signed-in sessions end)."""
    new = password or secrets.token_urlsafe(12)
    user = signin.set_password(email, new, runtime())
    click.echo(f"console password of {shown(user.email)} set" + ("" if password else f": {new}"))


@users_cli.command("end-sessions")
@click.option("--email", required=True)
@one_line_errors
def users_end_sessions(email):
    """Sign a user out of the console everywhere, at once (a lost laptop, a leaver)."""
    user = access.get_user(email)
    click.echo(f"ended {signin.end_all_sessions(user, runtime())} console session(s) of {shown(user.email)}")


sandbox_cli = AppGroup("sandbox", help="Sandbox companies.")


@sandbox_cli.command("create")
@country_option
@click.option("--email", required=True, help="The user the sandbox is for (created if new).")
@json_option
@one_line_errors
def sandbox_create(country, email, as_json):
    """Create a user's sandbox company, enable the API and issue a key with every scope."""
    result = create_sandbox_with_key(email, country)
    emit(as_json, result, "\n".join(f"{k}: {v}" for k, v in result.items()))


@sandbox_cli.command("trigger")
@click.argument("event_type", type=click.Choice(sandbox_triggers.TRIGGERS))
@click.option("--company", "company_id", required=True, help="A sandbox company.")
@one_line_errors
def sandbox_trigger(event_type, company_id):
    """Make an event happen in a sandbox by doing the real HR action behind it."""
    click.echo(shown(sandbox_triggers.trigger(companies.get_company(company_id), event_type, runtime())))


@sandbox_cli.command("reset")
@click.argument("company_id", metavar="COMPANY")
@click.option("--json", "as_json", is_flag=True, help="Print what was removed and what it holds now as JSON.")
@one_line_errors
def sandbox_reset(company_id, as_json):
    """Reset a sandbox company to its generated data: staff, leave, runs, journals, settings
    and events made again; its keys, webhook endpoints and OAuth apps kept."""
    company = companies.get_company(company_id)
    now = sandbox_reset_domain.reset(company, "operator", runtime())
    removed = now["removed"]
    emit(as_json, now, f"{company.id} is reset: {now['employees']} employees, {now['payroll_runs']} closed run, "
                       f"{now['events']} events to deliver; removed {removed['employees']} employees, "
                       f"{removed['payroll_runs']} runs and {removed['events']} events")


def create_sandbox_with_key(email, country, key_name="CLI key"):
    with db.atomic():
        user = access.get_or_create_user(email, runtime())
        company = sandbox.create_sandbox(user, country, runtime())
        _, secret = keys.create_key(company, keys.SCOPES, runtime(), name=key_name, created_by=user)
    return {"company_id": company.id, "user_email": user.email, "api_key": secret, "scopes": list(keys.SCOPES)}


keys_cli = AppGroup("keys", help="Partner API keys.")


@keys_cli.command("create")
@click.option("--company", "company_id", required=True)
@click.option("--scopes", required=True, help=f"Comma-separated, any of {', '.join(keys.SCOPES)}; "
                                             "an empty value ('') for a key that only reads the company.")
@click.option("--name", default="CLI key")
@json_option
@one_line_errors
def keys_create(company_id, scopes, name, as_json):
    """Issue a key (shown once) for a company, with exactly the scopes named."""
    company = companies.get_company(company_id)
    key, secret = keys.create_key(company, scopes, runtime(), name=name)
    granted = key.scopes.split()
    emit(as_json, {"key_id": key.id, "api_key": secret, "scopes": granted},
         f"{key.id}: {secret}\nscopes: {', '.join(granted) or 'none (GET /v1/company only)'}")


@keys_cli.command("revoke")
@click.argument("key_id")
@one_line_errors
def keys_revoke(key_id):
    """Revoke a key; it stops working at once."""
    credentials.revoke_key(key_id, runtime())
    click.echo(f"revoked {key_id}")


def register(app):
    for group in (db_cli, companies_cli, partner_api_cli, users_cli, sandbox_cli, keys_cli, jobs_cli, *hr.GROUPS,
                  *attendance.GROUPS, *leave.GROUPS, webhooks_cli, oauth_cli, backup_cli):
        app.cli.add_command(group)
    app.cli.add_command(serve)
    app.cli.add_command(doctor)


@click.command("doctor")
@with_appcontext
def doctor():
    """Check the settings and what they reach; one line each, exit 1 on any problem."""
    findings = ops_doctor.examine()
    width = max(len(finding.name) for finding in findings)
    for finding in findings:
        mark = "warning" if finding.warning else "ok" if finding.ok else "PROBLEM"
        click.echo(f"{mark:8} {finding.name:{width}}  {finding.detail}")
    problems = sum(not finding.ok for finding in findings)
    click.echo(f"\n{problems} problem(s)." if problems else "\nNo problems found.")
    raise SystemExit(1 if problems else 0)


# The demo key's secret, sealed with SECRET_KEY, beside the database it serves
# (config.serve_key_file): a restart of `serve` prints the same key, so a partner's stored
# key keeps working (only the hash is in the database, as for every key).


def _kept_key(company):
    """The key the last `serve` printed for this sandbox, while it still works; else None."""
    path = serve_key_file(current_app.config)
    try:
        with open(path, encoding="utf-8") as kept:
            secret = runtime().sealer.open(kept.read().strip())
    except (OSError, ValueError):
        return None
    # A key of an earlier release's scopes is replaced, so the printed key reaches every operation.
    return secret if credentials.still_working(company, secret, keys.SCOPES) else None


def _keep_key(secret):
    """Keep the key for the next start; one that cannot be kept (a folder not writable) is
    said, and the next start prints a new one."""
    path = serve_key_file(current_app.config)
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        descriptor = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as kept:
            kept.write(runtime().sealer.seal(secret))
    except OSError as exc:
        click.echo(f"(the key is not kept for the next start: {path}: {exc.strerror})")


def _check_free(host: str, port: int) -> None:
    """Refuse at once, in one line, a port something already listens on: gunicorn would
    fail only after the banner said "running" (and a newcomer's requests would reach
    whatever holds the port)."""
    probe = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds: TIME_WAIT is no hindrance
    try:
        probe.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(f"{host}:{port} is already in use (another service, or a serve still "
                                       f"running): stop it, or choose another port with --port") from None
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    finally:
        probe.close()


@click.command("serve")
@click.option("--host", default="127.0.0.1")
@click.option("--port", default=8000, show_default=True, type=WholeNumber(max=65535),
              help="As the Procfile's web process (PORT).")
@click.option("--workers", default=2, type=WholeNumber(min=1))
@click.option("--email", default="developer@example.com", help="Owner of the demo sandbox.")
@click.option("--country", default="KW", type=click.Choice(COUNTRY_CODES, case_sensitive=False))
@click.option("--new-key", is_flag=True, help="Revoke the sandbox key printed before and print a new one.")
@reported
def serve(host, port, workers, email, country, new_key):
    """Migrate, make sure a demo sandbox exists, print its key (the one printed before, while
    it works; a new one with --new-key), and serve with gunicorn."""
    _check_free(host, port)
    upgrade()
    # Without Redis, jobs run on a thread of each gunicorn worker: none may start here,
    # in the parent, while the demo sandbox is made.
    runner = job_queue()
    autostart, runner.autostart = getattr(runner, "autostart", False), False
    with connection(), db.atomic():
        user = access.get_or_create_user(email, runtime())
        company = access.sandbox_of(user)
        if company is None:
            company = sandbox.create_sandbox(user, country, runtime())
        secret, replaced = _kept_key(company) if not new_key else None, 0
        kept = secret is not None
        if secret is None:
            _, secret, replaced = credentials.reissue_key(company, "serve command key", keys.SCOPES, runtime(),
                                                          created_by=user)
            _keep_key(secret)
        # The demo user gets a console password on the first run, printed that once.
        password = None
        if user.password_hash is None:
            password = secrets.token_urlsafe(12)
            signin.set_password(user.email, password, runtime())
    base = f"http://{host}:{port}"
    metrics = ""
    if current_app.config["METRICS_TOKEN"]:
        metrics = f"  metrics: {base}/metrics (Authorization: Bearer <METRICS_TOKEN>)\n"
        if not current_app.config["METRICS_DIR"]:
            # Several workers: each counts into a folder of this run, and a scrape adds them up.
            current_app.config["METRICS_DIR"] = tempfile.mkdtemp(prefix="partner-api-metrics-")
            use_directory(current_app.config["METRICS_DIR"])
    sign_in = (f"password {password}" if password else
               f"password as first printed; reset: flask --app wsgi users password --email {user.email}")
    click.echo(
        f"\nPartner API running at {base}\n"
        f"  sandbox company: {company.id} ({company.country}), owner {user.email}\n"
        f"  sandbox API key: {secret}"
        f"{' (the key printed by the previous start is revoked)' if replaced else ''}"
        f"{' (the same as the previous start; --new-key for another)' if kept else ''}\n"
        f"  try:  curl -H 'Authorization: Bearer {secret}' {base}/v1/company\n"
        f"  docs: {base}/v1/docs\n"
        f"{metrics}"
        f"  console: {base}/console/ (sign in as {user.email}, {sign_in})\n"
    )
    db.close_all()  # no connection may cross the fork into gunicorn's workers
    runner.autostart = autostart
    run_gunicorn(current_app._get_current_object(), host, port, workers)
