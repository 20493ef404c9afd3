"""The end-of-service provision an entity's books already carried (issue 47).

    flask --app wsgi payroll provision carried --entity ID --as-of 2026-06-30 --amount 54000.000
    flask --app wsgi payroll provision show    --entity ID [--json]

`carried` is said before the entity's first run: what the ledger's 2300 held on the
last day of the month before it (app/domain/payroll/provision.py, docs/partners/journals.md
"A provision the books already carry"). The amount is in the entity's currency.
"""

from decimal import InvalidOperation

import click
from flask.cli import AppGroup

from app.cli.common import day_of, emit, json_option, one_line_errors, shown
from app.domain.access.companies import get_entity
from app.domain.kernel.errors import ValidationFailed
from app.domain.kernel.money import example_amount, format_minor, parse_major
from app.domain.payroll import provision

provision_cli = AppGroup("provision", help="The end-of-service provision: what the books carried before the first "
                                           "run, and what they hold.")


@provision_cli.command("carried")
@click.option("--entity", "entity_id", required=True, help="Legal entity ID (see GET /v1/company).")
@click.option("--as-of", "as_of", required=True,
              help="YYYY-MM-DD: the last day of the month before the entity's first run (or of an earlier month).")
@click.option("--amount", required=True, help="What the books' 2300 held that day, in the entity's currency.")
@one_line_errors
def provision_carried(entity_id, as_of, amount):
    """Say what the books already carried in the end-of-service provision (before the
    entity's first run): its first run's opening then posts only HR's excess."""
    entity = get_entity(entity_id)
    errors = []
    day = day_of(as_of)
    if day is None:
        errors.append(("--as-of", "a date, YYYY-MM-DD (the last day of a month)"))
    try:
        minor = parse_major(amount, entity.currency)
    except (ValueError, InvalidOperation):
        minor = None
        errors.append(("--amount", f"an amount in {entity.currency}, like {example_amount(entity.currency)}"))
    if errors:
        raise ValidationFailed("invalid options", errors)
    try:
        provision.set_carried(entity.id, day, minor)
    except ValidationFailed as exc:  # named as the command line spells them
        raise ValidationFailed(exc.message, [(OPTIONS.get(field, field), why) for field, why in exc.errors]) from None
    click.echo(f"{shown(entity.name_en)}: the books carried {format_minor(minor, entity.currency, grouped=True)} "
               f"{entity.currency} in the end-of-service provision on {day.isoformat()}")


OPTIONS = {"as_of": "--as-of", "amount": "--amount", "entity": "--entity"}


@provision_cli.command("show")
@click.option("--entity", "entity_id", required=True, help="Legal entity ID (see GET /v1/company).")
@json_option
@one_line_errors
def provision_show(entity_id, as_json):
    """What the books carried before the first run, what our entries hold on 2300, and
    what the latest run owes."""
    standing = provision.standing(entity_id)
    currency = standing.entity.currency

    def money(amount):
        return None if amount is None else format_minor(amount, currency)

    held = standing.posted + (standing.carried or 0)
    data = {"entity_id": standing.entity.id, "currency": currency, "carried": money(standing.carried),
            "carried_as_of": standing.carried_as_of.isoformat() if standing.carried_as_of else None,
            "posted": money(standing.posted), "held": money(held),
            "latest_run_id": standing.latest.id if standing.latest else None,
            "latest_month": standing.latest.payroll_month if standing.latest else None,
            "owed": money(standing.owed) if standing.latest else None}
    carried = (f"the books carried {format_minor(standing.carried, currency, grouped=True)} {currency} on "
               f"{standing.carried_as_of.isoformat()}" if standing.carried is not None
               else "no provision carried from before the first run")
    latest = (f"the latest run ({standing.latest.payroll_month}, {standing.latest.id}) owes "
              f"{format_minor(standing.owed, currency, grouped=True)} {currency}" if standing.latest
              else "no posted run with end-of-service lines yet")
    emit(as_json, data, "\n".join([
        f"{shown(standing.entity.name_en)} ({standing.entity.id}): {carried}",
        f"our entries hold {format_minor(standing.posted, currency, grouped=True)} {currency} on 2300 (credit)",
        f"the books hold {format_minor(held, currency, grouped=True)} {currency}; {latest}"]))
