"""HR's leave commands (issue 48): requests and their decisions, balances, the company's choices.

    flask --app wsgi leave request EMPLOYEE --company ID --type annual --from 2026-12-01 --to 2026-12-10 [--approve]
    flask --app wsgi leave approve|decline|cancel LEAVE_ID [--company ID]
    flask --app wsgi leave list --company ID [--employee E] [--status S] [--from DATE] [--to DATE]
    flask --app wsgi leave balance EMPLOYEE --company ID [--on DATE]
    flask --app wsgi leave carried EMPLOYEE --company ID --days N --as-of DATE | --clear
    flask --app wsgi leave settings --company ID [--annual-days N|law] [--carry-over N|none] [--no-negative]

EMPLOYEE is an employee id or a staff number of the company. Decisions are logged as the
operator's (`decided_by`), as `payroll books close` is (app/domain/payroll/books.py).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import click
from flask.cli import AppGroup

from app.cli.common import day_of, emit, json_option, one_line_errors, shown
from app.domain.access.companies import get_company
from app.domain.kernel.clock import format_utc, from_db
from app.domain.kernel.errors import ValidationFailed
from app.domain.kernel.text import ascii_int
from app.domain.leave import carried, requests, settings
from app.domain.leave.balances import balance_of
from app.domain.leave.law import TYPES
from app.domain.payroll.books import COMMAND as OPERATOR
from app.domain.people.actions import hr_employee, local_today
from app.domain.people.employees import by_ids, resolve_employee
from app.extensions import runtime
from app.models import LeaveRequest

leave_cli = AppGroup("leave", help="Leave: request, approve, decline, cancel, list; balances; the company's choices.")

STATUSES = ("requested", "approved", "declined", "cancelled")
# The domain's fields as the commands spell their options.
OPTIONS = {"type": "--type", "from": "--from", "to": "--to", "note": "--note", "employee": "EMPLOYEE",
           "leave_annual_days": "--annual-days", "leave_carry_over_days": "--carry-over", "days": "--days",
           "as_of": "--as-of"}


@contextmanager
def options_named() -> Iterator[None]:
    """A domain refusal with each field named as the command spells its option."""
    try:
        yield
    except ValidationFailed as exc:
        raise ValidationFailed(exc.message, [(OPTIONS.get(path, path), message)
                                             for path, message in exc.errors]) from None


def days_named(**texts: str | None) -> dict[str, date | None]:
    """{option: the date it gives} for dates written YYYY-MM-DD (common.day_of); one
    refusal naming every option that is not a day of the calendar."""
    days, errors = {}, []
    for option, text in texts.items():
        days[option] = day_of(text) if text is not None else None
        if text is not None and days[option] is None:
            errors.append((f"--{option.replace('_', '-')}",
                           f"{shown(text)!s} is not a date of the calendar (YYYY-MM-DD)"))
    if errors:
        raise ValidationFailed("invalid date", errors)
    return days


def as_dict(leave: LeaveRequest) -> dict[str, object]:
    decided = from_db(leave.decided_at) if leave.decided_at is not None else None
    return {"id": leave.id, "employee_id": leave.employee_id, "type": leave.type, "status": leave.status,
            "start_date": leave.start_date.isoformat(), "end_date": leave.end_date.isoformat(), "days": leave.days,
            "note": leave.note, "requested_by": leave.requested_by, "decided_by": leave.decided_by,
            "created_at": format_utc(from_db(leave.created_at)),
            "decided_at": format_utc(decided) if decided is not None else None,
            "updated_at": format_utc(from_db(leave.updated_at))}


def described(leave: LeaveRequest, staff_number: str | None = None) -> str:
    who = shown(staff_number) if staff_number else leave.employee_id
    return (f"{leave.id} {leave.status}: {leave.type} of {who}, {leave.start_date} to {leave.end_date}, "
            f"{leave.days} day{'s' if leave.days != 1 else ''}")


def staff_numbers(company_id: str, rows: list[LeaveRequest]) -> dict[str, str]:
    return {e.id: e.staff_number for e in by_ids(company_id, {row.employee_id for row in rows}).values()}


@leave_cli.command("request")
@click.argument("employee")
@click.option("--company", "company_id", required=True)
@click.option("--type", "leave_type", required=True, help=f"One of {', '.join(TYPES)}.")
@click.option("--from", "start", required=True, help="YYYY-MM-DD: the first day off.")
@click.option("--to", "end", required=True, help="YYYY-MM-DD: the last day off.")
@click.option("--approve", is_flag=True, help="Record it approved at once.")
@click.option("--note", default=None, help="HR's own words (never sent to partners).")
@json_option
@one_line_errors
def leave_request(employee, company_id, leave_type, start, end, approve, note, as_json):
    """Record a leave, requested (or approved at once): refused, naming the option, when it
    overlaps another, falls outside the employment or overdraws the annual balance."""
    get_company(company_id)
    days = days_named(**{"from": start, "to": end})
    employee_id = resolve_employee(company_id, employee)
    with options_named():
        leave = requests.request_leave(company_id, employee_id, leave_type, days["from"], days["to"], OPERATOR,
                                       runtime(), approve=approve, note=note)
    emit(as_json, as_dict(leave), described(leave, staff_numbers(company_id, [leave]).get(leave.employee_id)))


def _decide(move, leave_id: str, company_id: str | None, as_json: bool) -> None:
    hint = requests.hr_leave(company_id, leave_id)
    leave = move(hint.company_id, hint.id, OPERATOR, runtime())
    emit(as_json, as_dict(leave), described(leave, staff_numbers(hint.company_id, [leave]).get(leave.employee_id)))


def _decision(name: str, move, summary: str):
    @leave_cli.command(name, help=summary)
    @click.argument("leave_id")
    @click.option("--company", "company_id", default=None, help="The leave's company (checked when given).")
    @json_option
    @one_line_errors
    def command(leave_id, company_id, as_json):
        _decide(move, leave_id, company_id, as_json)

    return command


leave_approve = _decision("approve", requests.approve_leave,
                          "Approve a requested leave (checked again: overlaps, the employment, the balance).")
leave_decline = _decision("decline", requests.decline_leave, "Decline a requested leave.")
leave_cancel = _decision("cancel", requests.cancel_leave,
                         "Cancel a requested or approved leave (its days are no longer taken or planned).")


@leave_cli.command("list")
@click.option("--company", "company_id", required=True)
@click.option("--employee", default=None, help="An employee id or staff number.")
@click.option("--status", "leave_status", default=None, help=f"One of {', '.join(STATUSES)}.")
@click.option("--from", "start", default=None, help="YYYY-MM-DD: leave that ends on or after it.")
@click.option("--to", "end", default=None, help="YYYY-MM-DD: leave that begins on or before it.")
@json_option
@one_line_errors
def leave_list(company_id, employee, leave_status, start, end, as_json):
    """The company's leave by first day (at most 500)."""
    get_company(company_id)
    if leave_status is not None and leave_status not in STATUSES:
        raise ValidationFailed("invalid status", [("--status", f"one of {', '.join(STATUSES)}")])
    days = days_named(**{"from": start, "to": end})
    employee_id = resolve_employee(company_id, employee) if employee is not None else None
    found = requests.list_leave(company_id, employee_id=employee_id, status=leave_status, start=days["from"],
                                end=days["to"])
    numbers = staff_numbers(company_id, found)
    emit(as_json, {"data": [as_dict(leave) for leave in found]},
         "\n".join(described(leave, numbers.get(leave.employee_id)) for leave in found) or "no leave")


@leave_cli.command("balance")
@click.argument("employee")
@click.option("--company", "company_id", required=True)
@click.option("--on", "on", default=None, help="YYYY-MM-DD: the day, at its end (default: today in the company's "
                                               "timezone; a later day is projected).")
@json_option
@one_line_errors
def leave_balance(employee, company_id, on, as_json):
    """An employee's annual leave as of a day: accrued, taken, planned, balance (and forfeited) days."""
    company = get_company(company_id)
    day = days_named(on=on)["on"] or local_today(company, runtime().now())
    person = hr_employee(company_id, resolve_employee(company_id, employee))
    found = balance_of(person, day).as_dict()
    emit(as_json, found,
         f"{shown(person.staff_number)} on {day}: accrued {found['accrued_days']:.2f}, taken {found['taken_days']}, "
         f"planned {found['planned_days']}, balance {found['balance_days']:.2f} days "
         f"(forfeited {found['forfeited_days']:.2f})")


@leave_cli.command("carried")
@click.argument("employee")
@click.option("--company", "company_id", required=True)
@click.option("--days", default=None, help="The balance the other system (or paper) carried, e.g. 12.5.")
@click.option("--as-of", "as_of", default=None, help="YYYY-MM-DD: the day it carried it, at its end.")
@click.option("--clear", is_flag=True, help="Forget it: count the balance from the hire date.")
@json_option
@one_line_errors
def leave_carried(employee, company_id, days, as_of, clear, as_json):
    """Record the annual leave balance another system carried for an employee on a day
    (before their first run here): the balance goes on from it."""
    if clear == (days is not None):
        raise ValidationFailed("invalid carried balance", [("--days", "give --days and --as-of, or --clear")])
    day = days_named(as_of=as_of)["as_of"]
    if not clear and day is None:
        raise ValidationFailed("invalid carried balance", [("--as-of", "the day the balance was carried (YYYY-MM-DD)")])
    get_company(company_id)
    person_id = resolve_employee(company_id, employee)
    with options_named():
        person = carried.set_carried_balance(company_id, person_id, None if clear else days, day)
    found = {"employee_id": person.id, "days": None if clear else float(person.leave_carried_days),
             "as_of": person.leave_carried_as_of.isoformat() if person.leave_carried_as_of else None}
    emit(as_json, found, f"{shown(person.staff_number)}: " + ("no balance carried: counted from the hire date"
                                                              if clear else f"{days} days carried on {day}"))


def choice(text: str | None, option: str, words: str) -> int | None | settings.Unchanged:
    """An option's whole number of days, None for `words` (the default), UNCHANGED left out."""
    if text is None:
        return settings.UNCHANGED
    if text.strip().lower() == words:
        return None
    number = ascii_int(text)
    if number is None:
        raise ValidationFailed("invalid option", [(option, f"a whole number of days (digits 0-9), or {words}")])
    return number


def settings_lines(found: settings.LeaveSettings) -> str:
    laws = ", ".join(f"{country} {days}" for country, days in found.law_minimums.items())
    annual = "the law's" if found.annual_days is None else f"{found.annual_days}"
    carry = "no cap" if found.carry_over_days is None else f"at most {found.carry_over_days} days"
    negative = "allowed" if found.negative_allowed else "not allowed"
    return "\n".join([f"annual days a year: {annual} (the law's minimum: {laws})",
                      f"carried into the next leave year: {carry}", f"negative balances: {negative}"])


@leave_cli.command("settings")
@click.option("--company", "company_id", required=True)
@click.option("--annual-days", default=None, help="A year's annual days, at least the law's; `law` for the law's.")
@click.option("--carry-over", default=None, help="The days carried into the next leave year at most; `none` for no "
                                                 "cap.")
@click.option("--allow-negative/--no-negative", "negative_allowed", default=None,
              help="Whether annual leave may be taken before it is earned.")
@json_option
@one_line_errors
def leave_settings(company_id, annual_days, carry_over, negative_allowed, as_json):
    """Show the company's leave choices, or set those given (the law's minimum by default)."""
    get_company(company_id)
    annual = choice(annual_days, "--annual-days", "law")
    carried = choice(carry_over, "--carry-over", "none")
    negative = settings.UNCHANGED if negative_allowed is None else negative_allowed
    with options_named():
        found = settings.set_leave_settings(company_id, annual_days=annual, carry_over_days=carried,
                                            negative_allowed=negative) if any(
            not isinstance(value, settings.Unchanged) for value in (annual, carried, negative)) else (
            settings.leave_settings(company_id))
    emit(as_json, found.as_dict(), settings_lines(found))


GROUPS = (leave_cli,)
