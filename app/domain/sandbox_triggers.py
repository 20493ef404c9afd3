"""Sandbox events on demand (v1.3's triggerSandboxEvent, the console's trigger panel, `flask
--app wsgi sandbox trigger`): each event type made by the real HR or payroll action behind
it, under the company's lock, on the employee or run a developer chose or one the trigger
chooses, so a partner developer gets any webhook when they need it.
"""

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import peewee as pw

from app.domain.kernel import events
from app.domain.kernel.countries import get_country
from app.domain.kernel.errors import Conflict, ValidationFailed, Words
from app.domain.kernel.locks import hold
from app.domain.kernel.money import minor_digits
from app.domain.kernel.runtime import Runtime
from app.domain.leave.days import leave_days
from app.domain.leave.law import LAWS
from app.domain.leave.requests import cancel_leave, request_leave
from app.domain.payroll.drafts import build_draft_run
from app.domain.payroll.moves import correct_run, delete_run, finalize_run, mark_paid, set_wps_status
from app.domain.people.actions import end_employment, hire, update_employee
from app.domain.sandbox import EXPATRIATES, phone_number, pick_name, previous_month, scaled_minor
from app.models import Company, Employee, Entity, LeaveRequest, PayrollLine, PayrollRun
from app.models.base import write_transaction

TRIGGERS = ("employee.created", "employee.updated", "employee.left", "payroll_run.finalized",
            "payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted", "payroll_run.wps_updated",
            "leave.approved", "leave.cancelled")


# What a trigger may be told to act on (v1.3): which employee, which run, and for
# `employee.updated` the partner-visible fields to change (as HR edits them).
ON_EMPLOYEE = ("employee.updated", "employee.left", "leave.approved")
ON_RUN = ("payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted", "payroll_run.wps_updated")
SETTABLE = ("name_en", "name_ar", "job_title", "department", "employment_type", "status", "contact_email",
            "contact_phone")


@dataclass(frozen=True)
class Overrides:
    """What a developer asked a trigger to act on; None: the trigger chooses, as ever."""

    employee_id: str | None = None
    payroll_run_id: str | None = None
    changes: dict[str, Any] | None = None  # employee.updated's fields to set

    def check(self, event_type: str) -> None:
        """ValidationFailed naming each override `event_type` does not take, or a field
        `changes` may not set (only partner-visible ones: partners see what changed)."""
        problems: list[tuple[str, str]] = []
        if self.employee_id is not None and event_type not in ON_EMPLOYEE:
            problems.append(("employee_id", Words("only %(types)s act on an employee you choose",
                                                  types=", ".join(ON_EMPLOYEE))))
        if self.payroll_run_id is not None and event_type not in ON_RUN:
            problems.append(("payroll_run_id", Words("only %(types)s act on a run you choose",
                                                     types=", ".join(ON_RUN))))
        if self.changes is not None:
            if event_type != "employee.updated":
                problems.append(("set", Words("only employee.updated sets fields")))
            elif not self.changes:
                problems.append(("set", Words("at least one field to change")))
            problems += [(f"set.{name}", Words("not a field partners see that a trigger sets; one of %(fields)s",
                                               fields=", ".join(SETTABLE)))
                         for name in sorted(self.changes) if name not in SETTABLE]
        if problems:
            raise ValidationFailed(Words("invalid trigger"), problems)


def trigger_event(company: Company, event_type: str, runtime: Runtime, overrides: Overrides = Overrides()) -> str:
    """`trigger`, for a partner over the API (`triggerSandboxEvent`, v1.3): the id of the
    `event_type` event this very action wrote (the last, should it write several), found
    among the events of its own transaction, so triggers at once never name each other's."""
    if event_type not in TRIGGERS:
        raise ValidationFailed(Words("unknown event type"),
                               [("type", Words("one of %(choices)s", choices=", ".join(TRIGGERS)))])
    overrides.check(event_type)
    with write_transaction():
        mark = events.transaction_mark(company.id)
        trigger(company, event_type, runtime, overrides)
        written = events.written_since(company.id, event_type, mark)
        if not written:  # every trigger writes its event; this would be a fault of ours
            raise Conflict(Words("%(event_type)s was not written", event_type=event_type))
        return written[-1]


def trigger(company: Company, event_type: str, runtime: Runtime, overrides: Overrides = Overrides()) -> str:
    """Make `event_type` happen in a sandbox by doing the real HR action behind it, so a
    partner developer can get any webhook on demand. Returns what was done, in words.

    The action is chosen and done under the company's lock, the first lock of every
    payroll move (app/domain/kernel/locks.py): triggers of one sandbox at once take
    turns, each choosing its employee, staff number or run after the one before it has
    committed, so none is refused for what another did."""
    if not company.sandbox:
        raise Conflict(Words("events can be triggered in sandbox companies only"))
    if event_type not in TRIGGERS:
        raise ValidationFailed(Words("unknown event type"),
                               [("event_type", Words("one of %(choices)s", choices=", ".join(TRIGGERS)))])
    overrides.check(event_type)
    with write_transaction():
        hold(company.id)
        return _act(company, event_type, runtime, overrides)


def _chosen(query: "pw.ModelSelect[Any]", wanted: str | None, field: str, none: Words) -> "pw.ModelSelect[Any]":
    """`query` narrowed to the record a developer chose (`wanted`), refused naming `field`
    with the words `none` when it is none of them (another company's, unknown, or not one
    a trigger can act on)."""
    if wanted is None:
        return query
    model = query.model
    narrowed = query.where(model.id == wanted)
    if not narrowed.exists():
        raise ValidationFailed(Words("invalid trigger"), [(field, none)])
    return narrowed


def _act(company: Company, event_type: str, runtime: Runtime, overrides: Overrides) -> str:
    active = _chosen(Employee.select().where(Employee.company == company.id, Employee.status != "left",
                                             Employee.archived == False)  # noqa: E712
                     .order_by(Employee.staff_number), overrides.employee_id, "employee_id",
                     Words("no active employee %(id)s in this sandbox", id=overrides.employee_id))
    if event_type == "employee.created":
        return _hire_someone(company, runtime)
    if event_type == "leave.approved":
        return _approve_some_leave(company, active, runtime)[1]
    if event_type == "leave.cancelled":
        return _cancel_some_leave(company, active, runtime)
    if event_type in ("employee.updated", "employee.left"):
        employee = active.first() if event_type == "employee.updated" else active.order_by(
            Employee.staff_number.desc()).first()
        if employee is None:
            raise Conflict(Words("the sandbox has no active employee left; trigger employee.created first"))
        if event_type == "employee.updated" and overrides.changes is not None:
            mark = events.transaction_mark(company.id)
            try:
                update_employee(company.id, employee.id, overrides.changes, runtime)
            except ValidationFailed as refused:  # named as the developer sent them: set.<field>
                raise ValidationFailed(refused.message, [(f"set.{path}", told) for path, told in refused.errors]
                                       ) from None
            if not events.written_since(company.id, event_type, mark):
                raise ValidationFailed(Words("invalid trigger"), [("set", Words(
                    "%(staff_number)s has these values already: nothing partners see changes",
                    staff_number=employee.staff_number))])
            return Words("%(staff_number)s is updated", staff_number=employee.staff_number)
        if event_type == "employee.updated":
            title = (employee.job_title or "Associate")
            title = title[len("Senior "):] if title.startswith("Senior ") else f"Senior {title}"[:200]
            update_employee(company.id, employee.id, {"job_title": title}, runtime)
            return Words("%(staff_number)s is now %(title)s", staff_number=employee.staff_number, title=title)
        today = runtime.now().astimezone(ZoneInfo(company.timezone)).date()
        end_employment(company.id, employee.id, max(today, employee.hire_date), runtime,
                       reason="Sandbox trigger")
        return Words("%(staff_number)s has left", staff_number=employee.staff_number)
    runs = PayrollRun.select().where(PayrollRun.company == company.id, PayrollRun.status != "deleted")
    # A run the developer chose is acted on as it stands: the move refuses what it cannot do.
    chosen = _chosen(runs.where(PayrollRun.status.in_(("finalized", "paid"))), overrides.payroll_run_id,
                     "payroll_run_id", Words("no closed run %(id)s in this sandbox", id=overrides.payroll_run_id)
                     ).get() if overrides.payroll_run_id else None
    if chosen is not None:
        runs = runs.where(PayrollRun.id == chosen.id)
    if event_type == "payroll_run.wps_updated":  # the newest closed run's file, one step on with the bank
        run = chosen or (runs.where(PayrollRun.status.in_(("finalized", "paid")), PayrollRun.wps_status != "accepted")
                         .order_by(PayrollRun.payroll_month.desc()).first()) or _finalize_next_month(company, runs,
                                                                                                 runtime)
        step = "accepted" if run.wps_status == "submitted" else "submitted"
        set_wps_status(run, step, runtime)
        if step == "accepted":
            return Words("the %(month)s run's salary file is now accepted with the bank", month=run.payroll_month)
        return Words("the %(month)s run's salary file is now submitted with the bank", month=run.payroll_month)
    if event_type == "payroll_run.finalized":
        run = _finalize_next_month(company, runs, runtime)
        return Words("finalized the %(month)s run", month=run.payroll_month)
    if event_type == "payroll_run.corrected":
        return _correct_latest(runs, runtime)
    finalized = runs.where(PayrollRun.status == "finalized").order_by(PayrollRun.payroll_month.desc()).first()
    run = chosen or finalized or _finalize_next_month(company, runs, runtime)
    if event_type == "payroll_run.paid":
        mark_paid(run, runtime)
        return Words("paid the %(month)s run", month=run.payroll_month)
    delete_run(run, runtime)
    return Words("deleted the %(month)s run", month=run.payroll_month)


SANDBOX_HR = "sandbox trigger"


def _approve_some_leave(company: Company, active: "pw.ModelSelect[Employee]",
                        runtime: Runtime) -> tuple[LeaveRequest, Words]:
    """Two working days of annual leave, asked and approved at once, for the first active
    employee (by staff number) whose balance holds them: four weeks after their latest
    leave, and at least two weeks ahead, so it can be triggered again and again."""
    today = runtime.now().astimezone(ZoneInfo(company.timezone)).date()
    for employee in active:
        if employee.hire_date > today:
            continue
        law = LAWS[employee.country]
        latest = (LeaveRequest.select(LeaveRequest.end_date)
                  .where(LeaveRequest.employee == employee.id, LeaveRequest.status.in_(("requested", "approved")))
                  .order_by(LeaveRequest.end_date.desc()).first())
        start = max(today + timedelta(days=14), latest.end_date + timedelta(days=28) if latest else today)
        while leave_days(law, "annual", start, start + timedelta(days=1)) < 2:  # a weekend day: a day later
            start += timedelta(days=1)
        if employee.termination_date is not None and start + timedelta(days=1) > employee.termination_date:
            continue
        try:
            leave = request_leave(company.id, employee.id, "annual", start, start + timedelta(days=1), SANDBOX_HR,
                                  runtime, approve=True)
        except ValidationFailed:  # no balance left for it: the next one
            continue
        return leave, Words("approved %(staff_number)s's annual leave from %(start)s",
                            staff_number=employee.staff_number, start=start.isoformat())
    raise Conflict(Words("no active employee has annual leave left to approve; trigger employee.created first"))


def _cancel_some_leave(company: Company, active: "pw.ModelSelect[Employee]", runtime: Runtime) -> Words:
    """Cancel the annual leave of an active employee that starts latest, after today
    (approved or requested; approving one first if there is none)."""
    today = runtime.now().astimezone(ZoneInfo(company.timezone)).date()
    leave = (LeaveRequest.select().join(Employee, on=(LeaveRequest.employee == Employee.id))
             .where(LeaveRequest.company == company.id, LeaveRequest.type == "annual",
                    LeaveRequest.status.in_(("requested", "approved")), LeaveRequest.start_date > today,
                    Employee.status != "left", Employee.archived == False)  # noqa: E712
             .order_by(LeaveRequest.start_date.desc(), LeaveRequest.id).first())
    if leave is None:
        leave = _approve_some_leave(company, active, runtime)[0]
    cancel_leave(company.id, leave.id, SANDBOX_HR, runtime)
    return Words("cancelled leave %(leave)s", leave=leave.id)


def _correct_latest(runs: "pw.ModelSelect[PayrollRun]", runtime: Runtime) -> str:
    """Raise the basic pay of someone paid in the newest closed run by one unit of its
    currency, from what the run pays them now: every trigger changes an amount, so it can
    be triggered again and again (a leaver settled in the run is not corrected)."""
    run = runs.where(PayrollRun.status.in_(("finalized", "paid"))).order_by(PayrollRun.payroll_month.desc()).first()
    line = (PayrollLine.select(PayrollLine.employee, PayrollLine.amount_minor).join(Employee)
            .where(PayrollLine.run == run, PayrollLine.component_code == "basic", Employee.status != "left")
            .order_by(Employee.staff_number).first()) if run else None
    if run is None:
        raise Conflict(Words("no run to correct; trigger payroll_run.finalized first"))
    if line is None:
        raise Conflict(Words("no one paid in the %(month)s run is still employed; trigger employee.created, then "
                             "payroll_run.finalized", month=run.payroll_month))
    employee = Employee.get_by_id(line.employee_id)
    correct_run(run, {employee.id: {"basic": line.amount_minor + 10 ** minor_digits(run.currency)}}, runtime)
    return Words("corrected the %(month)s run (%(staff_number)s's basic pay)", month=run.payroll_month,
                 staff_number=employee.staff_number)


def _finalize_next_month(company: Company, runs: "pw.ModelSelect[PayrollRun]", runtime: Runtime) -> PayrollRun:
    latest: PayrollRun | None = runs.order_by(PayrollRun.payroll_month.desc()).first()
    if latest is not None and latest.payroll_month >= LAST_MONTH:
        raise Conflict(Words("the sandbox's latest run is for %(month)s; no month follows it to run",
                             month=latest.payroll_month))
    month = previous_month(runtime.now(), company.timezone) if latest is None else _month_after(latest.payroll_month)
    entity = Entity.get(Entity.company == company.id, Entity.primary == True)  # noqa: E712
    return finalize_run(build_draft_run(entity, month, runtime.clock, end_of_service=runtime.beyond_contract), runtime)


LAST_MONTH = "9999-12"  # the last a run may be for (YYYY-MM): none follows it


def _month_after(month: str) -> str:
    year, number = int(month[:4]), int(month[5:])
    return f"{year + number // 12}-{number % 12 + 1:02d}"


def _hire_someone(company: Company, runtime: Runtime) -> Words:
    country = get_country(company.country)
    taken = {e.staff_number for e in Employee.select(Employee.staff_number).where(Employee.company == company.id)}
    number = next((n for n in range(11, 1000) if f"SBX-{n:03d}" not in taken), None)
    if number is None:
        raise Conflict(Words("every sandbox staff number up to SBX-999 is taken; no one more can be hired"))
    rng = random.Random(f"{company.id}-{number}")
    nationality, first_names, family_names = rng.choice(EXPATRIATES)
    first, family = pick_name(rng, first_names, family_names, set())
    employee = hire(company, {
        "staff_number": f"SBX-{number:03d}", "name_en": f"{first[0]} {family[0]}", "job_title": "Associate",
        "department": "Operations", "employment_type": "full_time",
        "hire_date": runtime.now().astimezone(ZoneInfo(company.timezone)).date(),
        "basic_salary_minor": scaled_minor(7000 * rng.uniform(0.9, 1.1), country.currency),
        "nationality": nationality, "contact_phone": phone_number(rng, country.code),
    }, runtime)
    return Words("hired %(staff_number)s %(name)s", staff_number=employee.staff_number, name=employee.name_en)
