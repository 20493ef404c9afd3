"""Bulk tools and the nightly reconciliation that covers for them.

`import_employees` writes many rows from a CSV file without an event per row (Contract,
Delivery rules 6: "a nightly reconciliation catches changes made through bulk tools").
`reconcile` compares every employee's partner form with the one last announced and
writes the missing `employee.created`, `employee.updated` or `employee.left`. Running
it again writes nothing: each event it writes also records the form it announced.
"""

import csv
import io
from datetime import date
from decimal import InvalidOperation
from typing import Any

from peewee import JOIN

from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.errors import ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.money import example_amount, parse_major
from app.domain.kernel.runtime import Runtime
from app.domain.partner_safe import employee_form
from app.domain.people.actions import FIELDS, MONEY_FIELDS, announce_owed, canonical, clean_fields, partner_form
from app.domain.people.employees import EMPLOYEE_COLUMNS
from app.models import Branch, Company, Employee, EmployeeAnnouncement, db
from app.models.base import dict_rows

# CSV column -> field. Money columns are in major units of the company's currency.
MONEY_COLUMNS = {"basic_salary": "basic_salary_minor", "housing_allowance": "housing_allowance_minor",
                 "transport_allowance": "transport_allowance_minor", "other_allowance": "other_allowance_minor"}
COLUMN_OF = {field: column for column, field in MONEY_COLUMNS.items()}  # a field's problem, named as the file does
DATE_COLUMNS = ("hire_date", "date_of_birth")
CSV_COLUMNS = tuple(f for f in FIELDS if f not in MONEY_FIELDS) + tuple(MONEY_COLUMNS)
MAX_ROWS = 10_000


def import_employees(company: Company, csv_text: str, clock: Clock) -> dict[str, int]:
    """Create or update (by staff number) the employees of a CSV file; all rows or none.

    Returns {"created": n, "updated": n, "unchanged": n}. Every problem of every row is
    reported at once, as `row N: column` paths.
    """
    reader = csv.DictReader(io.StringIO(csv_text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if not header or "staff_number" not in header or unknown:
        raise ValidationFailed(Words("unusable header"), [("header", Words(
            "columns are staff_number and any of %(columns)s; unknown: %(unknown)s",
            columns=", ".join(CSV_COLUMNS), unknown=", ".join(unknown)))])
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:  # csv.DictReader would keep the last cell of each and drop the others unsaid
        raise ValidationFailed(Words("unusable header"), [("header", Words(
            "each column once; named more than once: %(columns)s", columns=", ".join(twice)))])
    reader.fieldnames = header
    existing: dict[str | None, Employee] = {
        e.staff_number: e for e in Employee.select().where(Employee.company == company.id)}
    errors, planned, seen = [], [], set()
    for number, row in enumerate(reader, start=2):  # row 1 is the header
        if number - 1 > MAX_ROWS:
            raise ValidationFailed(Words("too many rows"),
                                   [("file", Words("at most %(limit)s rows per file", limit=MAX_ROWS))])
        fields, row_errors = row_fields(row, company.currency)
        staff_number = fields.get("staff_number")
        if staff_number in seen:
            row_errors.append(("staff_number", Words("%(staff_number)s appears twice in the file",
                                                      staff_number=staff_number)))
        seen.add(staff_number)
        employee = existing.get(staff_number)
        try:
            values = clean_fields(company, fields, creating=employee is None, employee=employee)
        except ValidationFailed as failure:
            unparsed = {path for path, _ in row_errors}  # already reported, not "missing"
            row_errors += [(COLUMN_OF.get(path, path), message) for path, message in failure.errors
                           if COLUMN_OF.get(path, path) not in unparsed]
        errors += [(f"row {number}: {path}", message) for path, message in row_errors]
        if not row_errors:
            planned.append((employee, values))
    if errors:
        raise ValidationFailed(Words("the file was not imported"), errors)
    counts = {"created": 0, "updated": 0, "unchanged": 0}
    now = to_db(clock.now())
    with db.atomic():
        for employee, values in planned:
            if employee is None:
                Employee.create(id=new_id("emp"), company=company.id, status="active", created_at=now,
                                updated_at=now, **values)
                counts["created"] += 1
            elif any(getattr(employee, _attribute(k)) != v for k, v in values.items()):
                # `updated_at` is the partner form's: a salary alone leaves it (updated_since, v1.3).
                before = partner_form(employee.id)
                Employee.update(**values).where(Employee.id == employee.id).execute()
                if partner_form(employee.id, updated_at=before["updated_at"]) != before:
                    Employee.update(updated_at=now).where(Employee.id == employee.id).execute()
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1
    return counts


def _attribute(field: str) -> str:
    return f"{field}_id" if field in ("entity", "branch", "manager") else field


def row_fields(row: dict[str, str], currency: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """One CSV row (column -> text) as employee fields, and the problems of its cells:
    money in major units, ISO dates, `is_national` as 1/true/yes/y, blanks as None."""
    fields: dict[str, Any] = {}
    errors: list[tuple[str, str]] = []
    for column, text in row.items():
        if column is None:  # more cells than columns
            errors.append(("row", Words("more cells than the header has columns")))
            continue
        text = (text or "").strip()
        if column in MONEY_COLUMNS:
            try:
                fields[MONEY_COLUMNS[column]] = parse_major(text or "0", currency)
            except (ValueError, InvalidOperation):
                errors.append((column, Words("an amount in %(currency)s, like %(example)s", currency=currency,
                                               example=example_amount(currency))))
        elif column in DATE_COLUMNS:
            try:
                fields[column] = date.fromisoformat(text) if text else None
            except ValueError:
                errors.append((column, Words("a date (YYYY-MM-DD)")))
        elif column == "is_national":
            fields[column] = text.lower() in ("1", "true", "yes", "y")
        else:
            fields[column] = text or None
    return fields, errors


def reconcile(runtime: Runtime, *, batch: int = 500, announce_batch: int = 100) -> dict[str, int]:
    """Announce what bulk tools changed without an event. Returns counts per type. The
    employees owed an event are announced `announce_batch` of one company at a time, each
    batch one transaction (10,000 imported employees are 100 commits, not 10,000)."""
    counts = {"employee.created": 0, "employee.updated": 0, "employee.left": 0}
    companies = {c.id: c for c in Company.select()}
    after = ("", "")
    while True:
        rows = dict_rows(
            Employee.select(*EMPLOYEE_COLUMNS, Employee.company, EmployeeAnnouncement.form.alias("announced"))
            .join(Branch, JOIN.LEFT_OUTER, on=(Employee.branch == Branch.id))
            .switch(Employee)
            .join(EmployeeAnnouncement, JOIN.LEFT_OUTER, on=(EmployeeAnnouncement.employee == Employee.id))
            .where(Employee.archived == False,  # noqa: E712
                   (Employee.company > after[0]) | ((Employee.company == after[0]) & (Employee.id > after[1])))
            .order_by(Employee.company, Employee.id)
            .limit(batch)
        )
        owed: dict[str, list[str]] = {}  # the cheap look, without a lock; announce_owed decides under one
        for row in rows:
            if row["announced"] != canonical(employee_form(row)):
                owed.setdefault(row["company"], []).append(row["id"])
        for company_id, employee_ids in owed.items():
            for start in range(0, len(employee_ids), announce_batch):
                for event_type in announce_owed(companies[company_id], employee_ids[start:start + announce_batch],
                                                runtime):
                    counts[event_type] += 1
        if len(rows) < batch:
            return counts
        after = (rows[-1]["company"], rows[-1]["id"])
