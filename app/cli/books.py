"""Closing a company's books (issue 47): the date through which no journal entry is dated.

    flask --app wsgi payroll books show   --company ID [--json]
    flask --app wsgi payroll books close  --company ID --through 2026-10-31
    flask --app wsgi payroll books reopen --company ID [--through 2026-09-30] --by OWNER_EMAIL

Closing through a later date is the operator's (logged as "operator"); reopening, to an
earlier date or none, is an owner's act, named by `--by` (app/domain/payroll/books.py).
"""

from datetime import date, timedelta

import click
from flask.cli import AppGroup

from app.cli.common import day_of, emit, json_option, one_line_errors, shown
from app.domain.access.companies import get_company
from app.domain.kernel.clock import format_utc, from_db
from app.domain.kernel.errors import ValidationFailed
from app.domain.payroll import books
from app.extensions import runtime

books_cli = AppGroup("books", help="Close the company's books through a date: no journal entry is dated on or "
                                   "before it.")


def day_named(text: str, option: str) -> date:
    """A date written YYYY-MM-DD (common.day_of); a refusal naming `option` otherwise."""
    day = day_of(text)
    if day is None:
        raise ValidationFailed("invalid date", [(option, "a date (YYYY-MM-DD)")])
    return day


def _named(exc: ValidationFailed, options: dict[str, str]) -> ValidationFailed:
    """The refusal with each field named as the command spells its option."""
    return ValidationFailed(exc.message, [(options.get(path, path), message) for path, message in exc.errors])


def _closed(through: date | None) -> str:
    return f"closed through {through}" if through is not None else "open (no period closed)"


@books_cli.command("show")
@click.option("--company", "company_id", required=True)
@json_option
@one_line_errors
def books_show(company_id, as_json):
    """The date the books are closed through, and every closing and reopening."""
    get_company(company_id)
    found = books.books_of(company_id)
    log = [{"at": format_utc(from_db(row.at)), "by": row.by,
            "closed_through": row.closed_through.isoformat() if row.closed_through else None,
            "previous": row.previous.isoformat() if row.previous else None} for row in found.log]
    lines = [f"the books are {_closed(found.closed_through)}"]
    lines += [f"{row['at']}  {_closed(row['closed_through'])} (before: {row['previous'] or 'open'})  "
              f"by {shown(row['by'])}" for row in log]
    closed = found.closed_through.isoformat() if found.closed_through else None
    emit(as_json, {"company_id": company_id, "closed_through": closed, "log": log}, "\n".join(lines))


@books_cli.command("close")
@click.option("--company", "company_id", required=True)
@click.option("--through", required=True, help="YYYY-MM-DD: the last day closed (today at the latest).")
@one_line_errors
def books_close(company_id, through):
    """Close the books through a later date: every entry posted from now on is dated after it."""
    get_company(company_id)
    try:
        change = books.close(company_id, day_named(through, "--through"), books.COMMAND, runtime())
    except ValidationFailed as exc:
        raise _named(exc, {"through": "--through"}) from None
    last = f"#{change.last_position}" if change.last_position is not None else "none yet"
    click.echo(f"the books are closed through {change.closed_through} (before: {change.previous or 'open'}); "
               f"the last entry posted before: {last}; entries posted from now on are dated "
               f"{change.closed_through + timedelta(days=1)} or later")


@books_cli.command("reopen")
@click.option("--company", "company_id", required=True)
@click.option("--through", default=None, help="YYYY-MM-DD: an earlier date to keep closed through; left out, "
                                              "every period opens.")
@click.option("--by", "by", required=True, help="The email of an owner of the company (its CEO, or the "
                                                "sandbox's owner), logged as who reopened.")
@one_line_errors
def books_reopen(company_id, through, by):
    """Reopen the books (an owner's act): move the closing date earlier, or clear it."""
    get_company(company_id)
    day = day_named(through, "--through") if through is not None else None
    try:
        change = books.reopen(company_id, day, by, runtime(), by_command=True)
    except ValidationFailed as exc:
        raise _named(exc, {"through": "--through", "by": "--by", "email": "--by"}) from None
    click.echo(f"reopened by {shown(change.by)}: the books are {_closed(change.closed_through)} "
               f"(before: closed through {change.previous})")
