"""What every command shares: the clock, JSON output and one-line refusals."""

import functools
import json

import click
from flask import current_app

from app.domain.countries import COUNTRY_CODES
from app.domain.errors import DomainError, ValidationFailed
from app.models.base import connection

country_option = click.option(
    "--country", required=True, type=click.Choice(COUNTRY_CODES, case_sensitive=False),
    help="Country code.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


def clock():
    return current_app.extensions["clock"]


def domain_errors(command):
    """Turn domain refusals into one clear line and exit status 1."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            with connection():
                return command(*args, **kwargs)
        except ValidationFailed as exc:
            raise click.ClickException("; ".join(f"{p}: {m}" for p, m in exc.errors) or exc.message) from None
        except DomainError as exc:
            raise click.ClickException(exc.message) from None

    return wrapper


def emit(as_json, data, text):
    click.echo(json.dumps(data) if as_json else text)
