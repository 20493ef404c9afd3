"""What every command shares: the clock, JSON output, one-line refusals, and stored text
printed so that it cannot drive the terminal (`shown`)."""

import functools
import json
import re
from datetime import date
from urllib.parse import urlsplit, urlunsplit

import click
import peewee
import redis
from flask import current_app

from app.domain.kernel.countries import COUNTRY_CODES
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.kernel.text import ascii_int, first_unstorable, not_in_a_line
from app.jobs.queues import job_queue
from app.models.base import connection

country_option = click.option(
    "--country", required=True, type=click.Choice(COUNTRY_CODES, case_sensitive=False),
    help="Country code.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


class WholeNumber(click.IntRange):
    """A whole number option, written with the digits 0-9 (app/domain/kernel/text.py):
    click's int is Python's int(), which also takes "٨٠٠٠", " 80" and "8_000"."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, str) and ascii_int(value) is None:
            self.fail(f"{value!r} is not a whole number: the digits 0-9, at most 18 of them.", param, ctx)
        return super().convert(value, param, ctx)


def day_of(text: str) -> date | None:
    """A date written YYYY-MM-DD with the digits 0 to 9, or None. (date.fromisoformat
    alone also takes 20260630 and 2026-W26-2: every command reads dates one way.)"""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def one_line_errors(command):
    """`reported`, for a short command that holds one database connection throughout;
    the jobs it queues are done before it returns when no worker would do them."""

    @reported
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        with job_queue().for_command(), connection():
            return command(*args, **kwargs)

    return wrapper


def reported(command):
    """Turn domain refusals, and a database or Redis that cannot be reached, into one
    clear line and exit status 1 (an operator at 3 a.m. reads the cause, not a traceback)."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        unstorable = first_unstorable(kwargs)
        if unstorable is not None:  # a byte that is not UTF-8 in argv arrives as a lone surrogate
            raise click.BadParameter(unstorable[1], param_hint=option_name(unstorable[0]))
        try:
            return command(*args, **kwargs)
        except ValidationFailed as exc:
            raise click.ClickException(shown("; ".join(f"{p}: {m}" for p, m in exc.errors) or exc.message)) from None
        except DomainError as exc:
            raise click.ClickException(shown(exc.message)) from None
        except peewee.IntegrityError as exc:
            message = f"refused: it conflicts with what was stored meanwhile ({first_line(exc)})"
            raise click.ClickException(message) from None
        except (peewee.OperationalError, peewee.InterfaceError) as exc:
            where = without_password(current_app.config["DATABASE_URL"])
            raise click.ClickException(f"database error at {where}: {first_line(exc)}") from None
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            where = without_password(current_app.config["REDIS_URL"] or "")
            raise click.ClickException(f"cannot reach Redis at {where}: {first_line(exc)}") from None

    return wrapper


def option_name(name: str) -> str:
    """How the command line spells the parameter `name` (`--name-ar`, `EMPLOYEE`)."""
    context = click.get_current_context(silent=True)
    for param in (context.command.params if context is not None else ()):
        if param.name == name:
            return param.get_error_hint(context)
    return name


def first_line(exc):
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def without_password(url):
    """The URL as it may be printed: any password replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


def shown(value: object) -> str:
    """`value` as a terminal may print it: each character one line of text may not hold
    (app/domain/kernel/text.py: a control character such as ESC or CR, a line or paragraph
    separator, a bidirectional control, U+FEFF, a lone surrogate) written as Python's
    escape of it (`\\x1b`, `\\r`, `\\u202e`), the rest as it is (Arabic too).

    Every command prints stored text through it: partners' attendance references, names
    and codes stored before the one-line rule may hold an `ESC ] 0;... BEL` that sets the
    operator's terminal title, a CR LF that forges a line of output, or an override that
    shows "gnp.exe" as "exe.png". (`--json` output is safe as it is: JSON escapes them.)"""
    text = str(value)
    if not_in_a_line(text) is None:
        return text
    return "".join(ascii(character)[1:-1] if not_in_a_line(character) else character for character in text)


def emit(as_json, data, text):
    click.echo(json.dumps(data) if as_json else text)
