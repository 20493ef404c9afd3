"""Attendance commands: punches from HR and the employee app, and linking the people
partners name that no employee matched.

    flask --app wsgi attendance punch --company ID --employee SBX-001 --type clock_in --at "2026-11-21 08:00"
    flask --app wsgi attendance app-punch --company ID --employee SBX-001 --type clock_out --at ... --id DEVICE-ID
    flask --app wsgi attendance unmatched --company ID
    flask --app wsgi attendance link --company ID --source acme-pos --ref-type external_id --value P-77 \
        --employee SBX-004

A time without an offset is read in the company's timezone.
"""

from zoneinfo import ZoneInfo

import click
from flask.cli import AppGroup

from app.cli.common import emit, json_option, one_line_errors, shown
from app.domain.access.companies import get_company
from app.domain.attendance import ingest as attendance
from app.domain.attendance.pairing import EVENT_TYPES
from app.domain.kernel.clock import format_utc, parse_rfc3339
from app.domain.kernel.errors import ValidationFailed
from app.domain.people.employees import resolve_employee
from app.extensions import runtime

attendance_cli = AppGroup("attendance", help="Punches from HR and the employee app; link unmatched people.")

company_option = click.option("--company", "company_id", required=True, help="Company id.")
employee_option = click.option("--employee", "employee", required=True, help="Employee id or staff number.")
punch_options = (
    click.option("--type", "kind", required=True, type=click.Choice(EVENT_TYPES)),
    click.option("--at", required=True, help="When: 2026-11-21T08:00:00+03:00, or local time 2026-11-21 08:00."),
    click.option("--branch", default=None, help="Branch reference."),
)


def with_punch_options(command):
    for option in reversed(punch_options):
        command = option(command)
    return command


@attendance_cli.command("punch")
@company_option
@employee_option
@with_punch_options
@json_option
@one_line_errors
def punch(company_id, employee, kind, at, branch, as_json):
    """Enter a punch as HR (source `manual`)."""
    _record(company_id, employee, kind, at, branch, "manual", None, as_json)


@attendance_cli.command("app-punch")
@company_option
@employee_option
@with_punch_options
@click.option("--id", "external_id", required=True, help="The app's own id for this punch (resends are duplicates).")
@json_option
@one_line_errors
def app_punch(company_id, employee, kind, at, branch, external_id, as_json):
    """Record a punch from the employee app (source `employee_app`)."""
    _record(company_id, employee, kind, at, branch, "employee_app", external_id, as_json)


@attendance_cli.command("unmatched")
@company_option
@json_option
@one_line_errors
def unmatched(company_id, as_json):
    """References partners sent that matched no employee, with the events waiting for each
    (as sent, with any control or bidirectional control character printed as its escape)."""
    rows = attendance.unmatched_references(get_company(company_id).id)
    data = [{**row, **{k: format_utc(row[k]) for k in ("first_at", "last_at", "first_received_at")}} for row in rows]
    text = "\n".join(f"{r['events']:>5}  {shown(r['source'])}  {r['ref_type']}={shown(r['ref_value'])}  "
                     f"(first {r['first_at']}, last {r['last_at']})" for r in data) or "nothing unmatched"
    emit(as_json, data, text)


@attendance_cli.command("link")
@company_option
@click.option("--source", required=True, help="The sending system, as in its events.")
@click.option("--ref-type", required=True, type=click.Choice(attendance.REF_TYPES))
@click.option("--value", required=True, help="The reference's value, as in its events.")
@employee_option
@one_line_errors
def link(company_id, source, ref_type, value, employee):
    """Say which employee a reference means; the events waiting for it are paired."""
    company = get_company(company_id)
    employee_id = resolve_employee(company.id, employee)
    waiting = attendance.link_reference(company, source, ref_type, value, employee_id, runtime())
    click.echo(f"linked {shown(source)} {ref_type}={shown(value)} to {employee_id}; "
               f"{waiting} waiting event(s) handed to pairing")


def _record(company_id, employee, kind, at, branch, channel, external_id, as_json):
    company = get_company(company_id)
    result = attendance.record_punch(company, resolve_employee(company.id, employee), kind,
                                     _moment(at, company.timezone), runtime(), channel=channel,
                                     external_id=external_id, branch_ref=branch)
    emit(as_json, result.as_dict(), f"{result.status}: {result.event_id}")


def _moment(text, timezone):
    """An aware datetime from RFC 3339, or from a local time in the company's timezone."""
    moment = parse_rfc3339(text.strip(), ZoneInfo(timezone))
    if moment is None:
        raise ValidationFailed("Bad time.", errors=[("at", "a time like 2026-11-21 08:00 or with an offset")])
    return moment


GROUPS = (attendance_cli,)
