"""HR commands: drive every employee and payroll transition from a shell.

    flask --app wsgi employees hire --company ID --staff-number E-1 --name "..." ...
    flask --app wsgi employees update|end|archive EMPLOYEE [--company ID] ...   (end: --date, --resigned)
    flask --app wsgi employees import FILE.csv --company ID
    flask --app wsgi payroll draft --entity ID --month 2026-11
    flask --app wsgi payroll finalize|delete|discard RUN_ID
    flask --app wsgi payroll pay RUN_ID [--date YYYY-MM-DD]
    flask --app wsgi payroll correct RUN_ID --employee ID --basic 1250.500
    flask --app wsgi payroll wps RUN_ID --status submitted|accepted|rejected
    flask --app wsgi payroll journal RUN_ID|--entity ID --period 2026-11 [--format csv|xero|quickbooks] [--output FILE]
    flask --app wsgi payroll accounts list|set|reset --company ID [--entity ID] [--key KEY --code CODE ...]
    flask --app wsgi payroll books show|close|reopen --company ID ...   (books.py)
    flask --app wsgi payroll provision carried|show --entity ID ...   (provision.py)

Money options are in major units of the company's currency ("1250.500" KWD).
"""

from decimal import InvalidOperation

import click
from flask.cli import AppGroup

from app.cli.books import books_cli
from app.cli.common import day_of, emit, json_option, one_line_errors, shown
from app.cli.provision import provision_cli
from app.domain.access.companies import get_company, get_entity
from app.domain.kernel.errors import NotFound, ValidationFailed
from app.domain.kernel.money import example_amount, format_minor, parse_major
from app.domain.payroll import accounts, drafts, journal_file, moves
from app.domain.payroll.runs import journal_of
from app.domain.people import actions as hr
from app.domain.people import bulk
from app.domain.people.employees import resolve_employee
from app.extensions import runtime

employees_cli = AppGroup("employees", help="Hire, update, end employment, archive, bulk import.")
payroll_cli = AppGroup("payroll", help="Payroll runs: draft, finalize, pay, correct, delete, WPS status.")

# option name -> field; money options are converted to minor units
TEXT_OPTIONS = {
    "staff_number": "staff_number", "name": "name_en", "name_ar": "name_ar", "job_title": "job_title",
    "department": "department", "employment_type": "employment_type", "status": "status",
    "email": "contact_email", "phone": "contact_phone", "entity": "entity", "branch": "branch",
    "manager": "manager", "nationality": "nationality", "iban": "iban", "bank_name": "bank_name",
    "civil_id": "civil_id", "passport_number": "passport_number",
}
MONEY_OPTIONS = {"basic_salary": "basic_salary_minor", "housing": "housing_allowance_minor",
                 "transport": "transport_allowance_minor", "other_allowance": "other_allowance_minor"}
DATE_OPTIONS = {"hire_date": "hire_date", "date_of_birth": "date_of_birth"}


def employee_options(command):
    for option in reversed([*TEXT_OPTIONS, *MONEY_OPTIONS, *DATE_OPTIONS]):
        command = click.option(f"--{option.replace('_', '-')}", option, default=None)(command)
    return command


def fields_from(options, currency):
    fields = {TEXT_OPTIONS[k]: v for k, v in options.items() if k in TEXT_OPTIONS and v is not None}
    errors = []
    for option, field in MONEY_OPTIONS.items():
        if options.get(option) is not None:
            try:
                fields[field] = parse_major(options[option], currency)
            except (ValueError, InvalidOperation):
                errors.append((option, f"an amount in {currency}, like {example_amount(currency)}"))
    for option, field in DATE_OPTIONS.items():
        if options.get(option) is not None:
            fields[field] = parse_date(options[option], option, errors)
    if errors:
        raise ValidationFailed("invalid options", errors)
    return fields


def parse_date(text, name, errors):
    day = day_of(text)
    if day is None:
        errors.append((name, "a date (YYYY-MM-DD)"))
    return day


company_option = click.option("--company", "company_id", default=None,
                              help="The company, to name the employee by staff number.")


def employee(text, company_id=None):
    """The employee named as every command names one (payroll and attendance alike): an
    id, or a staff number within --company."""
    if company_id:
        return hr.hr_employee(company_id, resolve_employee(company_id, text))
    try:
        return hr.hr_employee(None, text)
    except NotFound:
        raise NotFound(f"No employee {text!r}: give an employee id (emp_...), or a staff number with "
                       "--company COMPANY_ID.") from None


def run(run_id):
    return drafts.get_hr_run(None, run_id)


@employees_cli.command("hire")
@click.option("--company", "company_id", required=True)
@employee_options
@json_option
@one_line_errors
def employees_hire(company_id, as_json, **options):
    """Hire an employee (writes employee.created)."""
    company = get_company(company_id)
    hired = hr.hire(company, fields_from(options, company.currency), runtime())
    emit(as_json, {"employee_id": hired.id}, f"hired {shown(hired.staff_number)} ({hired.id})")


@employees_cli.command("update")
@click.argument("employee_ref", metavar="EMPLOYEE")
@company_option
@employee_options
@one_line_errors
def employees_update(employee_ref, company_id, **options):
    """Change an employee (writes employee.updated if a partner field changed). EMPLOYEE:
    an id, or a staff number with --company."""
    found = employee(employee_ref, company_id)
    fields = fields_from(options, get_company(found.company_id).currency)
    if not fields:
        raise click.UsageError("name at least one field to change, e.g. --job-title")
    hr.update_employee(found.company_id, found.id, fields, runtime())
    click.echo(f"updated {shown(found.staff_number)} ({found.id})")


@employees_cli.command("end")
@click.argument("employee_ref", metavar="EMPLOYEE")
@company_option
@click.option("--date", "termination_date", required=True, help="Last day, YYYY-MM-DD.")
@click.option("--reason", default=None, help="Kept internal; partners only see status `left`.")
@click.option("--resigned", is_flag=True, help="The employee resigned (the employer did not end it): kept internal; "
                                               "it decides the end-of-service benefit owed.")
@one_line_errors
def employees_end(employee_ref, company_id, termination_date, reason, resigned):
    """End an employment on its last day: employee.left now if that day has come, else
    the date is recorded (employee.updated) and the employee leaves on it."""
    found = employee(employee_ref, company_id)
    errors = []
    day = parse_date(termination_date, "date", errors)
    if errors:
        raise ValidationFailed("invalid date", errors)
    ended = hr.end_employment(found.company_id, found.id, day, runtime(), reason=reason, resigned=resigned)
    if ended.status == "left":
        click.echo(f"{shown(found.staff_number)} has left as of {day}")
    else:
        click.echo(f"{shown(found.staff_number)} leaves on {day}: active until then, then employee.left")


@employees_cli.command("archive")
@click.argument("employee_ref", metavar="EMPLOYEE")
@company_option
@one_line_errors
def employees_archive(employee_ref, company_id):
    """Hide a record from partners for good (no event)."""
    found = employee(employee_ref, company_id)
    hr.archive_employee(found.company_id, found.id)
    click.echo(f"archived {shown(found.staff_number)} ({found.id})")


@employees_cli.command("import")
@click.argument("path", type=click.File("rb"))
@click.option("--company", "company_id", required=True)
@json_option
@one_line_errors
def employees_import(path, company_id, as_json):
    """Create or update employees from a CSV file, without per-row events (the nightly
    reconciliation announces them). Columns: staff_number and any employee field."""
    data = path.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:  # Excel's "Unicode text" is UTF-16, its plain "CSV" a code page
        raise click.ClickException(f"{path.name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                                   f"{exc.start}): save it as \"CSV UTF-8\"") from None
    counts = bulk.import_employees(get_company(company_id), text, runtime())
    emit(as_json, counts, ", ".join(f"{n} {what}" for what, n in counts.items()))


@payroll_cli.command("draft")
@click.option("--entity", "entity_id", required=True, help="Legal entity ID (see GET /v1/company).")
@click.option("--month", required=True, help="YYYY-MM")
@json_option
@one_line_errors
def payroll_draft(entity_id, month, as_json):
    """Build a draft run from the entity's employees (invisible to partners)."""
    entity = get_entity(entity_id)
    current = runtime()
    draft = drafts.build_draft_run(entity, month, current, end_of_service=current.beyond_contract)
    emit(as_json, {"payroll_run_id": draft.id}, f"draft {draft.id} for {month}")


@payroll_cli.command("finalize")
@click.argument("run_id")
@one_line_errors
def payroll_finalize(run_id):
    """Close a draft and post its accrual journal (payroll_run.finalized)."""
    moves.finalize_run(run(run_id), runtime())
    click.echo(f"finalized {run_id}")


@payroll_cli.command("pay")
@click.argument("run_id")
@click.option("--date", "value_date", default=None,
              help="The bank's value date, YYYY-MM-DD: the payment's accounting date (default: today, in the "
                   "company's time zone).")
@one_line_errors
def payroll_pay(run_id, value_date):
    """Pay what a run owes and post the payment journal (payroll_run.paid): a finalized
    run's net pay, or what a correction after payment left owing."""
    errors = []
    day = parse_date(value_date, "--date", errors) if value_date is not None else None
    if errors:
        raise ValidationFailed("invalid date", errors)
    try:
        paid = moves.mark_paid(run(run_id), runtime(), on=day)
    except ValidationFailed as exc:  # the value date: named as the command spells it
        raise ValidationFailed(exc.message, [("--date" if path == "date" else path, message)
                                             for path, message in exc.errors]) from None
    journal = journal_of(paid)
    entry, lines = journal[-1]  # the payment just posted
    owing = sum(1 for posted, _lines in journal if posted.kind == "payment") > 1
    amount = format_minor(sum(line.debit_minor for line in lines), paid.currency)
    click.echo(f"paid {'what it still owed, ' if owing else ''}{amount} {paid.currency}, of {run_id}, "
               f"dated {entry.accounting_date}")


@payroll_cli.command("correct")
@click.argument("run_id")
@click.option("--employee", "employee", required=True, help="Employee id or staff number.")
@click.option("--basic", default=None)
@click.option("--housing", default=None)
@click.option("--transport", default=None)
@click.option("--other-allowance", "other_allowance", default=None)
@one_line_errors
def payroll_correct(run_id, employee, **amounts):
    """Change one employee's earnings in a finalized or paid run (payroll_run.corrected)."""
    target = run(run_id)
    errors, earnings = [], {}
    for name, text in amounts.items():
        if text is not None:
            try:
                earnings[name] = parse_major(text, target.currency)
            except (ValueError, InvalidOperation):
                errors.append((name, f"an amount in {target.currency}"))
    if errors:
        raise ValidationFailed("invalid amounts", errors)
    if not earnings:
        raise click.UsageError("give at least one of --basic, --housing, --transport, --other-allowance")
    employee_id = resolve_employee(target.company_id, employee)
    moves.correct_run(target, {employee_id: earnings}, runtime())
    click.echo(f"corrected {run_id}")


@payroll_cli.command("delete")
@click.argument("run_id")
@one_line_errors
def payroll_delete(run_id):
    """Delete a finalized run: its journal is reversed (payroll_run.deleted)."""
    moves.delete_run(run(run_id), runtime())
    click.echo(f"deleted {run_id}")


@payroll_cli.command("discard")
@click.argument("run_id")
@one_line_errors
def payroll_discard(run_id):
    """Throw a draft away (partners never saw it; no event)."""
    moves.discard_draft(run(run_id))
    click.echo(f"discarded {run_id}")


@payroll_cli.command("wps")
@click.argument("run_id")
@click.option("--status", "wps_status", required=True, type=click.Choice(moves.WPS_STATUSES[1:]),
              help="Where the run's salary file now stands with the bank.")
@one_line_errors
def payroll_wps(run_id, wps_status):
    """Record where a closed run stands with the bank under the Wage Protection System
    (payroll_run.wps_updated, v1.3): submitted, then accepted or rejected (and submitted again)."""
    moves.set_wps_status(run(run_id), wps_status, runtime())
    click.echo(f"{run_id} is {wps_status} with the bank")


@payroll_cli.command("journal")
@click.argument("run_id", required=False)
@click.option("--entity", "entity_id", default=None, help="A legal entity's month: its ID (with --period).")
@click.option("--period", default=None, help="YYYY-MM: the entries dated in that month (with --entity).")
@click.option("--format", "file_format", type=click.Choice(journal_file.FORMATS), default="csv", show_default=True)
@click.option("--tax-rate", default=None,
              help=f"xero: the tax rate's name in your organisation [default: {journal_file.XERO_TAX_RATE}]")
@click.option("--date-format", type=click.Choice(list(journal_file.QUICKBOOKS_DATE_FORMATS)), default=None,
              help=f"quickbooks: your company's date format [default: {journal_file.QUICKBOOKS_DATE_FORMAT}]")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the file here instead of to standard output (several Xero files: FILE-1.csv, ...).")
@one_line_errors
def payroll_journal(run_id, entity_id, period, file_format, tax_rate, date_format, output):
    """Journal entries as a file an accountant imports: a closed run's (a deleted run's
    too), or with --entity and --period a legal entity's month, each entry once;
    docs/partners/journals.md, "Importing a period's journal"."""
    if (run_id is None) == (entity_id is None and period is None) or (entity_id is None) != (period is None):
        raise click.ClickException("name exactly one: a run (RUN_ID), or a legal entity's month (--entity ID "
                                   "with --period YYYY-MM)")
    posted = (journal_file.run_entries(None, run_id)[1] if run_id is not None
              else journal_file.period_entries(get_entity(entity_id), period))
    texts = journal_file.files(posted, file_format, tax_rate=tax_rate, date_format=date_format)
    if output is None and len(texts) > 1:
        raise click.ClickException(f"the Xero journal takes {len(texts)} files of at most "
                                   f"{journal_file.XERO_LINES_PER_FILE} lines: name one with --output FILE and they "
                                   "are written as FILE-1.csv, FILE-2.csv ...; nothing was written")
    if output is None:
        click.echo(texts[0], nl=False)
        return
    paths = [output] if len(texts) == 1 else [numbered(output, n) for n in range(1, len(texts) + 1)]
    for path, text in zip(paths, texts, strict=True):
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    click.echo(f"wrote {', '.join(paths)}")


def numbered(output, n):
    """FILE-n.csv for the n-th of several files (july.csv: july-1.csv)."""
    stem = output[:-4] if output.lower().endswith(".csv") else output
    return f"{stem}-{n}.csv"


accounts_cli = AppGroup("accounts", help="The company's chart of accounts for its journals (v1.3).")
payroll_cli.add_command(accounts_cli)
payroll_cli.add_command(books_cli)
payroll_cli.add_command(provision_cli)


def _chart_options(command):
    command = click.option("--entity", "entity_id", default=None,
                           help="One legal entity's mapping (it wins over the company's).")(command)
    return click.option("--company", "company_id", required=True)(command)


@accounts_cli.command("list")
@_chart_options
@json_option
@one_line_errors
def accounts_list(company_id, entity_id, as_json):
    """Every journal account: its key, the code and name mapped now, type, default code."""
    get_company(company_id)
    mapped = accounts.chart(company_id, entity_id)
    emit(as_json, {"data": [m.as_dict() for m in mapped]},
         "\n".join(f"{m.account.key:<32} {shown(m.code):<12} {shown(m.name_en)} "
                   f"({m.account.type}, default {m.account.default_code})" for m in mapped))


@accounts_cli.command("set")
@_chart_options
@click.option("--key", required=True, help="The account's key (see `payroll accounts list`).")
@click.option("--code", required=True, help="The company's own code: 1 to 40 printable characters.")
@click.option("--name-en", default=None, help="The company's name for it (the default name if left out).")
@click.option("--name-ar", default=None, help="Its Arabic name.")
@one_line_errors
def accounts_set(company_id, entity_id, key, code, name_en, name_ar):
    """Map an account to the company's own code and name; entries posted from now on use it."""
    get_company(company_id)
    mapped = accounts.set_mapping(company_id, key, code, runtime(), entity_id=entity_id, name_en=name_en,
                                  name_ar=name_ar)
    click.echo(f"{mapped.account.key} is {shown(mapped.code)} {shown(mapped.name_en)}")


@accounts_cli.command("split")
@click.option("--company", "company_id", required=True)
@click.option("--by", "split_by", required=True, type=click.Choice(accounts.SPLITS),
              help="Split each run's expense lines by the employees' department or branch (never a line for fewer "
                   "than three people), or not at all.")
@one_line_errors
def accounts_split(company_id, split_by):
    """Cost centres: split the expense lines of the journals posted from now on."""
    get_company(company_id)
    accounts.set_split(company_id, split_by)
    click.echo(f"expense lines are split by {split_by}" if split_by != "none" else "expense lines are not split")


@accounts_cli.command("reset")
@_chart_options
@click.option("--key", required=True)
@one_line_errors
def accounts_reset(company_id, entity_id, key):
    """Drop a mapping: the account falls back to the company's mapping, or its default."""
    get_company(company_id)
    mapped = accounts.reset_mapping(company_id, key, entity_id=entity_id)
    click.echo(f"{mapped.account.key} is {shown(mapped.code)} {shown(mapped.name_en)}")


GROUPS = (employees_cli, payroll_cli)
