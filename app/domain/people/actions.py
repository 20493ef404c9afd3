"""HR actions on employees, each with the outbox event it owes partners.

    hire              employee.created
    update_employee   employee.updated, only if a field of the partner form changed
                      (a salary or an IBAN alone writes nothing, and leaves updated_at)
    end_employment    employee.left (status `left`, termination date, internal reason); a
                      last day still ahead is employee.updated now and employee.left on
                      that day (end_due_employments, hourly)
    archive_employee  no event: the record leaves the API, and `archived` is internal

`updated_at` is the time the partner form last changed, so that what partners see and
what they are told agree. Every event also records the form it announced
(EmployeeAnnouncement), which the nightly reconciliation compares against.

Each change reads the employee under its row lock in the transaction that writes the
event (STYLE 14): two "End employment" clicks give one `employee.left` and a refusal,
two identical edits one `employee.updated`. The company's lock comes first, in
kernel/locks.py's one order: a sandbox reset holds it while it locks every employee, and
a change that writes its employee twice has PostgreSQL check the row's foreign keys again
on the second write (the row version is its own), its manager's row among them, which
such a reset may hold: taken employee first, each would wait for the other. A staff
number taken by a concurrent hire is refused like one taken earlier, by the unique
index, never a 500.
"""

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import phonenumbers
from peewee import IntegrityError

from app.domain.kernel import events
from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.locks import hold
from app.domain.kernel.money import MAX_AMOUNT_MINOR
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.text import line_problem
from app.domain.partner_safe import employee_form
from app.domain.people.employees import employee_row, employee_rows
from app.models import Branch, Company, Employee, EmployeeAnnouncement, Entity, db
from app.models.base import lock_for_update, locked, row_of, tuple_rows, write_transaction

EDITABLE_STATUSES = ("active", "on_leave", "suspended")  # `left` only through end_employment
EMPLOYMENT_TYPES = ("full_time", "part_time", "contract")
MONEY_FIELDS = ("basic_salary_minor", "housing_allowance_minor", "transport_allowance_minor",
                "other_allowance_minor")
TEXT_LIMITS = {"staff_number": 40, "name_en": 200, "name_ar": 200, "job_title": 200, "department": 200,
               "bank_name": 100, "civil_id": 20, "passport_number": 20, "social_insurance_number": 20}
# Every field HR may set; `status` and dates have rules of their own below.
FIELDS = (*TEXT_LIMITS, "status", "employment_type", "country", "entity", "branch", "manager",
          "contact_email", "contact_phone", "hire_date", "nationality", "is_national", *MONEY_FIELDS,
          "iban", "date_of_birth")
REQUIRED_TO_HIRE = ("staff_number", "name_en", "employment_type", "hire_date", "basic_salary_minor")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def hr_employee(company_id: str | None, employee_id: str) -> Employee:
    """Any employee of the company as HR sees it, archived ones included (a hint for a
    form; every change below reads it again under its lock). `company_id` None: of any
    company, for an operator's command that names the employee alone."""
    employee = Employee.get_or_none(row_of(Employee, employee_id, company_id))
    if employee is None:
        raise NotFound(Words("no employee %(employee)s", employee=employee_id))
    return employee


def _locked_employee(company_id: str, employee_id: str) -> Employee:
    hold(company_id)  # the company first (see the module's docstring)
    employee = locked(Employee.select().where(Employee.id == employee_id, Employee.company == company_id))
    if employee is None:
        raise NotFound(Words("no employee %(employee)s", employee=employee_id))
    return employee


def hire(company: Company, fields: dict[str, Any], runtime: Runtime) -> Employee:
    """A new employee of `company` from `fields` (names as on Employee; money in minor
    units); the legal entity defaults to the company's primary one."""
    company = _company(company)
    values = clean_fields(company, fields, creating=True)
    now = to_db(runtime.now())
    with write_transaction():
        with _staff_number_unique(company.id, values):
            employee = Employee.create(
                id=new_id("emp"), company=company.id, status="active", created_at=now, updated_at=now, **values,
            )
        announce(company, employee.id, "employee.created", runtime)
    return employee


def update_employee(company_id: str, employee_id: str, changes: dict[str, Any], runtime: Runtime) -> Employee:
    company = Company.get_by_id(company_id)
    with write_transaction():
        employee = _locked_employee(company_id, employee_id)
        if employee.status == "left" and "status" in changes:
            raise Conflict(Words("%(staff_number)s has left; the status of a leaver does not change",
                                 staff_number=employee.staff_number))
        values = clean_fields(company, changes, employee=employee)
        if "status" in values:  # HR's status, even the one leave set: no longer leave's to end
            values["on_leave_by"] = None  # (app/domain/leave/status.py)
        before = partner_form(employee.id)
        with _staff_number_unique(company_id, values):
            Employee.update(**values).where(Employee.id == employee.id).execute()
        if partner_form(employee.id, updated_at=before["updated_at"]) != before:
            Employee.update(updated_at=to_db(runtime.now())).where(Employee.id == employee.id).execute()
            announce(company, employee.id, "employee.updated", runtime)
    return Employee.get_by_id(employee.id)


def end_employment(company_id: str, employee_id: str, termination_date: Any, runtime: Runtime, *,
                   reason: str | None = None, resigned: bool = False) -> Employee:
    """End an employment on `termination_date`, the last day worked. `resigned`: the
    employee resigned, rather than the employer ending it (internal, like `reason`: it
    decides the end-of-service benefit owed, app/domain/payroll/end_of_service.py). A day that has come
    in the company's timezone makes the employee `left` now (employee.left). A later one
    is recorded (employee.updated: partners see the date ahead) and takes effect on that
    day (end_due_employments, an hourly job), as HR expects; ending again before then moves
    the date. Returns the employee."""
    if not isinstance(termination_date, date):
        raise ValidationFailed(Words("invalid date"), [("termination_date", Words("a date is required"))])
    with write_transaction():
        employee = _locked_employee(company_id, employee_id)
        if employee.status == "left":
            raise Conflict(Words("%(staff_number)s has already left", staff_number=employee.staff_number))
        if termination_date < employee.hire_date:
            raise ValidationFailed(Words("invalid date"), [("termination_date", Words("is before the hire date"))])
        company = Company.get_by_id(company_id)
        leaves_now = termination_date <= local_today(company, runtime.now())
        moved = leaves_now or employee.termination_date != termination_date  # the partner form changes
        values: dict[str, object] = {"leaving_reason": reason or None,  # internal: no event, updated_at stays
                                     "leaving_kind": "resignation" if resigned else "termination"}
        if moved:
            values.update(termination_date=termination_date, updated_at=to_db(runtime.now()),
                          **({"status": "left"} if leaves_now else {}))
        Employee.update(**values).where(Employee.id == employee.id).execute()
        if moved:  # the same last day again (a double click) announces nothing
            announce(company, employee.id, "employee.left" if leaves_now else "employee.updated", runtime)
    return Employee.get_by_id(employee.id)


def end_due_employments(runtime: Runtime) -> int:
    """Make `left` every employee (archived ones aside: partners no longer see them) whose
    recorded last day has come in their company's timezone (employee.left each). Each is
    decided under the employee's row lock, so two runs at once announce each leaver once.
    Returns how many left."""
    now = runtime.now()
    horizon = now.date() + timedelta(days=1)  # no company's day is more than a day ahead of UTC's
    due = list(Employee.select(Employee.id, Company).join(Company)  # read whole before any write
               .where(Employee.status != "left", Employee.termination_date.is_null(False),
                      Employee.termination_date <= horizon, Employee.archived == False))  # noqa: E712
    left = 0
    for candidate in due:
        company = candidate.company
        with write_transaction():
            employee = locked(Employee.select().where(Employee.id == candidate.id))
            if (employee is None or employee.status == "left" or employee.termination_date is None
                    or employee.termination_date > local_today(company, now)):
                continue
            Employee.update(status="left", updated_at=to_db(now)).where(Employee.id == employee.id).execute()
            announce(company, employee.id, "employee.left", runtime)
            left += 1
    return left


def local_today(company: Company, now: datetime) -> date:
    """The company's calendar day at `now`."""
    return now.astimezone(ZoneInfo(company.timezone)).date()


def archive_employee(company_id: str, employee_id: str) -> Employee:
    """Hide a record from partners for good (a duplicate, say). `archived` is internal,
    so no event; partners no longer find the employee. Archiving twice changes nothing."""
    employee = hr_employee(company_id, employee_id)
    Employee.update(archived=True).where(Employee.id == employee.id, Employee.archived == False).execute()  # noqa: E712
    return Employee.get_by_id(employee.id)


@contextmanager
def _staff_number_unique(company_id: str, values: dict[str, Any]) -> Iterator[None]:
    """Within a savepoint (so the transaction lives on): the unique index's refusal of a
    staff number taken meanwhile, as the same ValidationFailed a taken one gets."""
    try:
        with db.atomic():
            yield
    except IntegrityError:
        taken = values.get("staff_number")
        if not taken or not Employee.select().where(Employee.company == company_id,
                                                    Employee.staff_number == taken).exists():
            raise
        message = Words("%(staff_number)s is already taken in this company", staff_number=taken)
        raise ValidationFailed(Words("invalid employee"), [("staff_number", message)]) from None


def announce(company: Company, employee_id: str, event_type: str, runtime: Runtime) -> str:
    """Emit `event_type` with the employee's current partner form (with what changed since
    the form partners were last sent, on `employee.updated`), and remember the form."""
    form = partner_form(employee_id)
    announced = EmployeeAnnouncement.select(EmployeeAnnouncement.form).where(
        EmployeeAnnouncement.employee == employee_id).scalar()
    event_id = events.emit(company, event_type, event_data(event_type, form, announced, runtime), runtime)
    remember_announcement(company.id, employee_id, form, event_id, runtime.clock)
    return event_id


def event_data(event_type: str, form: dict[str, Any], announced: str | None, runtime: Runtime) -> dict[str, Any]:
    """An employee event's `data`: the partner form, and on `employee.updated` (while v1.3
    is live) `previous_attributes`, each field that changed since the form partners were
    last sent (`announced`, canonical JSON) with its value then, as Stripe's events say it.
    `updated_at` is not listed (it changes with every update), nor a field the form gained
    since (it had no value then); nothing is when no form was ever announced (an employee
    from before announcements were kept)."""
    data: dict[str, Any] = {"employee": form}
    if event_type == "employee.updated" and runtime.beyond_contract and announced is not None:
        before = json.loads(announced)
        data["previous_attributes"] = {name: before[name] for name, value in form.items()
                                       if name != "updated_at" and name in before and before[name] != value}
    return data


def announce_owed(company: Company, employee_ids: list[str], runtime: Runtime) -> list[str]:
    """The events partners are owed for these employees of `company`, decided and written
    in one transaction under their row locks (taken in id order; an HR action on one has
    finished, or waits): `employee.created` if never announced, `employee.left` if it left
    since, else `employee.updated`; nothing for one whose form is already announced (by
    an HR action, or by a reconciliation running beside this one) or that is gone. The
    types written, in id order. The nightly reconciliation's one write: a batch commits,
    and hands its events on, once."""
    ids = sorted(set(employee_ids))
    with write_transaction():
        lock_for_update(Employee.select(Employee.id)
                        .where(Employee.id.in_(ids), Employee.company == company.id).order_by(Employee.id))
        forms = {row["id"]: employee_form(row) for row in employee_rows(ids, company.id)}
        announced: dict[str, str] = dict(tuple_rows(  # (employee id, form) pairs
            EmployeeAnnouncement.select(EmployeeAnnouncement.employee, EmployeeAnnouncement.form)
            .where(EmployeeAnnouncement.employee.in_(ids))))
        owed = [(employee_id, form) for employee_id, form in sorted(forms.items())
                 if announced.get(employee_id) != canonical(form)]
        written = [owed_event(announced.get(employee_id), form) for employee_id, form in owed]
        event_ids = events.emit_many(company, [(event_type, event_data(event_type, form, announced.get(employee_id),
                                                                       runtime))
                                               for event_type, (employee_id, form) in zip(written, owed, strict=True)],
                                     runtime)
        remember_announcements(company.id, [(employee_id, form, event_id) for (employee_id, form), event_id
                                            in zip(owed, event_ids, strict=True)], runtime.clock)
    return written


def owed_event(announced: str | None, form: dict[str, Any]) -> str:
    """The event partners are owed for an employee whose partner form is `form` and
    whose last announced form is `announced` (canonical JSON, or None if never)."""
    if announced is None:
        return "employee.created"
    if form["status"] == "left" and json.loads(announced)["status"] != "left":
        return "employee.left"
    return "employee.updated"


def remember_announcement(company_id: str, employee_id: str, form: dict[str, Any], event_id: str, clock: Clock) -> None:
    remember_announcements(company_id, [(employee_id, form, event_id)], clock)


def remember_announcements(company_id: str, announced: list[tuple[str, dict[str, Any], str]], clock: Clock) -> None:
    """Record (employee id, form, event id) as each employee's last announced form, in
    one statement."""
    if not announced:
        return
    now = to_db(clock.now())
    rows = [{"employee": employee_id, "company": company_id, "form": canonical(form), "event_id": event_id,
             "announced_at": now} for employee_id, form, event_id in announced]
    announcement = EmployeeAnnouncement
    (announcement.insert_many(rows)
     .on_conflict(conflict_target=[announcement.employee],
                  preserve=[announcement.form, announcement.event_id, announcement.announced_at])
     .execute())


def canonical(form: dict[str, Any]) -> str:
    return json.dumps(form, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def partner_form(employee_id: str, *, updated_at: str | None = None) -> dict[str, Any]:
    """The employee's partner form as the API serves it (with `updated_at` in place of
    the stored one: to compare two forms apart from it)."""
    form = employee_form(employee_row(employee_id))
    if updated_at is not None:
        form["updated_at"] = updated_at
    return form


def _company(company: Company | str) -> Company:
    return company if isinstance(company, Company) else Company.get_by_id(company)


def clean_fields(company: Company, fields: dict[str, Any], *, creating: bool = False,
                 employee: Employee | None = None) -> dict[str, Any]:
    """Check `fields` against the rules; return the values to store, or raise
    ValidationFailed listing every problem. Also used by the bulk import. Each text field
    (names, job title, department, staff number, email) is one line of text, judged as
    given (kernel/text.py's line_problem): partners, webhooks and files get it as stored."""
    errors: list[tuple[str, str]] = []
    values: dict[str, Any] = {}
    unknown = sorted(set(fields) - set(FIELDS))
    errors += [(name, Words("not a field that can be set")) for name in unknown]
    if creating:
        errors += [(name, Words("is required")) for name in REQUIRED_TO_HIRE if fields.get(name) in (None, "")]
    for name, limit in TEXT_LIMITS.items():
        if name in fields:
            value = fields[name]
            problem = line_problem(value) if isinstance(value, str) else None
            value = value.strip() if isinstance(value, str) else value
            if problem is not None:  # judged as given: a line break is refused, not trimmed away
                errors.append((name, problem))
            elif value in (None, ""):
                if name in ("staff_number", "name_en"):
                    errors.append((name, Words("cannot be empty")))
                values[name] = None
            elif not isinstance(value, str) or len(value) > limit:
                errors.append((name, Words("text of at most %(limit)s characters", limit=limit)))
            else:
                values[name] = value
    if "status" in fields and fields["status"] not in EDITABLE_STATUSES:
        errors.append(("status", Words("one of %(choices)s (end the employment to make it left)",
                                       choices=", ".join(EDITABLE_STATUSES))))
    elif "status" in fields:
        values["status"] = fields["status"]
    if "employment_type" in fields:
        if fields["employment_type"] not in EMPLOYMENT_TYPES:
            errors.append(("employment_type", Words("one of %(choices)s", choices=", ".join(EMPLOYMENT_TYPES))))
        else:
            values["employment_type"] = fields["employment_type"]
    _clean_references(company, fields, values, errors, creating, employee)
    _clean_contact(company, fields, values, errors)
    for name in ("hire_date", "date_of_birth"):
        if name in fields and fields[name] is not None:
            if isinstance(fields[name], date):
                values[name] = fields[name]
            else:
                errors.append((name, Words("a date (YYYY-MM-DD)")))
    for name in MONEY_FIELDS:
        if name in fields:
            value = fields[name]
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_AMOUNT_MINOR:
                errors.append((name, Words("an amount of zero or more (at most 10^15 minor units)")))
            else:
                values[name] = value
    _clean_nationality(company, fields, values, errors, creating)
    if "iban" in fields:
        iban = re.sub(r"\s", "", fields["iban"] or "").upper()
        if iban and not valid_iban(iban):
            errors.append(("iban", Words("not a valid IBAN (check digits or length)")))
        values["iban"] = iban or None
    if "staff_number" in values and values["staff_number"]:
        clash = Employee.select().where(Employee.company == company.id,
                                        Employee.staff_number == values["staff_number"])
        if employee is not None:
            clash = clash.where(Employee.id != employee.id)
        if clash.exists():
            errors.append(("staff_number", Words("%(staff_number)s is already taken in this company",
                                                     staff_number=values["staff_number"])))
    if errors:
        raise ValidationFailed(Words("invalid employee"), errors)
    return values


def _clean_references(company: Company, fields: dict[str, Any], values: dict[str, Any], errors: list[tuple[str, str]],
                      creating: bool, employee: Employee | None) -> None:
    if "entity" in fields or creating:
        entity_id = fields.get("entity")
        entity = (Entity.get_or_none(Entity.id == entity_id, Entity.company == company.id) if entity_id
                  else Entity.get_or_none(Entity.company == company.id, Entity.primary == True))  # noqa: E712
        if entity is None:
            errors.append(("entity", Words("no such legal entity in this company")))
        else:
            values["entity"] = entity.id
            if creating and "country" not in fields:
                values["country"] = entity.country
    if "country" in fields:
        if fields["country"] not in COUNTRIES:
            errors.append(("country", Words("one of %(choices)s", choices=", ".join(COUNTRIES))))
        else:
            values["country"] = fields["country"]
    if "branch" in fields:
        branch_id = fields["branch"]
        if branch_id and not Branch.select().where(Branch.id == branch_id, Branch.company == company.id).exists():
            errors.append(("branch", Words("no such branch in this company")))
        values["branch"] = branch_id or None
    if "manager" in fields:
        manager_id = fields["manager"]
        if manager_id and employee is not None and manager_id == employee.id:
            errors.append(("manager", Words("an employee cannot manage themselves")))
        elif manager_id and not Employee.select().where(Employee.id == manager_id,
                                                        Employee.company == company.id).exists():
            errors.append(("manager", Words("no such employee in this company")))
        values["manager"] = manager_id or None


def _clean_contact(company: Company, fields: dict[str, Any], values: dict[str, Any],
                   errors: list[tuple[str, str]]) -> None:
    if "contact_email" in fields:
        email = (fields["contact_email"] or "").strip()
        problem = line_problem(fields["contact_email"]) if isinstance(fields["contact_email"], str) else None
        if problem is not None:
            errors.append(("contact_email", problem))
        elif email and (len(email) > 254 or not EMAIL.match(email)):
            errors.append(("contact_email", Words("not an email address")))
        values["contact_email"] = email or None
    if "contact_phone" in fields:
        phone = (fields["contact_phone"] or "").strip()
        if phone:
            try:
                number = phonenumbers.parse(phone, company.country)
                if not phonenumbers.is_valid_number(number):
                    raise phonenumbers.NumberParseException(0, "invalid")
                phone = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
            except phonenumbers.NumberParseException:
                errors.append(("contact_phone", Words("not a valid phone number")))
        values["contact_phone"] = phone or None


def _clean_nationality(company: Company, fields: dict[str, Any], values: dict[str, Any],
                       errors: list[tuple[str, str]], creating: bool) -> None:
    if "nationality" in fields:
        nationality = (fields["nationality"] or "").upper()
        if not re.fullmatch(r"[A-Z]{2}", nationality):
            errors.append(("nationality", Words("an ISO 3166-1 alpha-2 code")))
        else:
            values["nationality"] = nationality
    elif creating:
        values["nationality"] = COUNTRIES[company.country].nationality
    if "is_national" in fields:
        values["is_national"] = bool(fields["is_national"])
    elif creating or "nationality" in values:
        # National social insurance applies to citizens of the company's country.
        values["is_national"] = values.get("nationality") == COUNTRIES[company.country].nationality


def valid_iban(iban: str) -> bool:
    """ISO 13616: letters and digits, 15 to 34 long, mod 97 of the rearranged number is 1."""
    if not re.fullmatch(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}", iban):
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1
