"""HR's moves of leave, each under the locks payroll takes (company, then the employee's
legal entity; app/domain/kernel/locks.py), then the employee's row:

    request_leave    a new leave, `requested` (or `approved` at once)
    approve_leave    requested -> approved
    decline_leave    requested -> declined
    cancel_leave     requested or approved -> cancelled

Beyond the contract (v1.3), partners hear of it: `leave.approved` when a leave becomes
approved (asked and approved at once, or approved later), `leave.cancelled` when one is
cancelled, approved or still requested (partners list requested leave too, so they are
told it is gone). Data: the partner form (partner_safe.leave_form). A decline changes
only `status` and `updated_at` (listLeave's `updated_since` finds it); no event for an
archived employee, whose leave partners never see.

A leave is refused, with one line naming the field, when its type is unknown, its dates
are not days of the calendar or run backwards, it lasts more than MAX_DAYS, it falls
outside the employment, it overlaps another leave of the employee still requested or
approved, it changes pay in a month whose run is closed (finalized or paid: correct that
run instead), or (annual leave) it takes the balance below zero on any day, unless the
company allows negative balances. Approving checks again under the locks, so two leaves
approved at once cannot both spend the same days; of two clicks on one move, the second
finds the state moved and is refused (Conflict).
"""

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import peewee as pw

from app.domain.kernel import events
from app.domain.kernel.clock import to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.locks import hold
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.text import text_problem
from app.domain.leave import status as leave_status
from app.domain.leave.balances import LIVE, compute
from app.domain.leave.days import each_day, leave_days
from app.domain.leave.law import FULL, LAWS, TYPES, kind_of
from app.domain.partner_safe import leave_form
from app.models import Company, Employee, LeaveRequest, PayrollRun
from app.models.base import locked, row_of, write_transaction

MAX_DAYS = 366  # a longer absence is more than one leave
NOTE_LIMIT = 500
# Which states each move starts from.
MOVES = {"approve": ("requested",), "decline": ("requested",), "cancel": ("requested", "approved")}
TO = {"approve": "approved", "decline": "declined", "cancel": "cancelled"}


@dataclass(frozen=True)
class Asked:
    type: str
    start: date
    end: date


def hr_leave(company_id: str | None, leave_id: str) -> LeaveRequest:
    """One leave of the company as HR sees it (`company_id` None: of any company)."""
    leave = LeaveRequest.get_or_none(row_of(LeaveRequest, leave_id, company_id))
    if leave is None:
        raise NotFound(Words("no leave %(leave)s", leave=leave_id))
    return leave


def request_leave(company_id: str, employee_id: str, leave_type: Any, start: Any, end: Any, by: str,
                  runtime: Runtime, *, approve: bool = False, note: str | None = None) -> LeaveRequest:
    """Record a leave of `employee_id` from `start` to `end` (both days off), requested,
    or approved at once (`approve`). ValidationFailed naming the field; nothing stored then."""
    asked = _asked(leave_type, start, end)
    if note is not None and (not isinstance(note, str) or len(note) > NOTE_LIMIT):
        raise ValidationFailed(Words("invalid note"), [("note", Words("text of at most %(limit)s characters",
                                                                      limit=NOTE_LIMIT))])
    problem = text_problem(note) if note else None  # a NUL or lone surrogate no database stores (lines may break)
    if problem is not None:
        raise ValidationFailed(Words("invalid note"), [("note", problem)])
    with write_transaction():
        employee = hold_employee(company_id, employee_id)
        _check(employee, asked, None)
        now = to_db(runtime.now())
        leave = LeaveRequest.create(
            id=new_id("leave"), company=company_id, employee=employee.id, type=asked.type,
            status="approved" if approve else "requested", start_date=asked.start, end_date=asked.end,
            days=leave_days(LAWS[employee.country], asked.type, asked.start, asked.end), note=note or None,
            requested_by=by, decided_by=by if approve else None, created_at=now,
            decided_at=now if approve else None, updated_at=now)
        if approve:
            _approved(employee, leave, runtime)
        return leave


def approve_leave(company_id: str, leave_id: str, by: str, runtime: Runtime) -> LeaveRequest:
    return _move(company_id, leave_id, "approve", by, runtime)


def decline_leave(company_id: str, leave_id: str, by: str, runtime: Runtime) -> LeaveRequest:
    return _move(company_id, leave_id, "decline", by, runtime)


def cancel_leave(company_id: str, leave_id: str, by: str, runtime: Runtime) -> LeaveRequest:
    return _move(company_id, leave_id, "cancel", by, runtime)


def _move(company_id: str, leave_id: str, move: str, by: str, runtime: Runtime) -> LeaveRequest:
    hint = hr_leave(company_id, leave_id)
    with write_transaction():
        employee = hold_employee(company_id, hint.employee_id)
        leave = locked(LeaveRequest.select().where(LeaveRequest.id == leave_id), keys_kept=True)
        assert leave is not None  # a leave is never deleted
        if leave.status not in MOVES[move]:
            raise Conflict(Words("leave %(leave)s is %(status)s; only a leave %(allowed)s can be %(moved)s",
                                 leave=leave.id, status=leave.status, allowed=" or ".join(MOVES[move]),
                                 moved=TO[move]))
        asked = Asked(leave.type, leave.start_date, leave.end_date)
        if move == "approve":
            _check(employee, asked, leave.id)
        elif move == "cancel" and leave.status == "approved":
            _check_closed_months(employee, asked)
        now = to_db(runtime.now())
        was = leave.status
        leave.status, leave.decided_by, leave.decided_at, leave.updated_at = TO[move], by, now, now
        leave.save()
        if move == "approve":
            _approved(employee, leave, runtime)
        elif was == "approved":
            leave_status.follow(employee, runtime)
        if move == "cancel":
            _announce(employee, leave, "leave.cancelled", runtime)
        return leave


def _approved(employee: Employee, leave: LeaveRequest, runtime: Runtime) -> None:
    leave_status.follow(employee, runtime)
    _announce(employee, leave, "leave.approved", runtime)


def _announce(employee: Employee, leave: LeaveRequest, event_type: str, runtime: Runtime) -> None:
    """`event_type` with the leave's partner form, in the move's transaction (v1.3)."""
    if runtime.beyond_contract and not employee.archived:
        events.emit(Company.get_by_id(employee.company_id), event_type, {"leave": leave_form(leave)}, runtime)


def hold_employee(company_id: str, employee_id: str) -> Employee:
    """Lock the company, the employee's entity, then the employee (in payroll's order)."""
    hint = Employee.get_or_none(row_of(Employee, employee_id, company_id))
    if hint is None:
        raise NotFound(Words("no employee %(employee)s", employee=employee_id))
    hold(company_id, hint.entity_id)
    employee = locked(Employee.select().where(Employee.id == hint.id), keys_kept=True)
    assert employee is not None
    if employee.entity_id != hint.entity_id:  # moved meanwhile: take the new entity too; every leave move and
        # payroll move takes the company first, so this later lock waits on no one who waits on us
        hold(company_id, employee.entity_id)
    return employee


def _asked(leave_type: Any, start: Any, end: Any) -> Asked:
    errors: list[tuple[str, Words]] = []
    if leave_type not in TYPES:
        errors.append(("type", Words("one of %(choices)s", choices=", ".join(TYPES))))
    if not isinstance(start, date) or isinstance(start, datetime):
        errors.append(("from", Words("a date YYYY-MM-DD of the calendar")))
    if not isinstance(end, date) or isinstance(end, datetime):
        errors.append(("to", Words("a date YYYY-MM-DD of the calendar")))
    if not errors and end < start:
        errors.append(("to", Words("on or after the first day (%(start)s)", start=start.isoformat())))
    if not errors and (end - start).days + 1 > MAX_DAYS:
        errors.append(("to", Words("a leave lasts at most %(days)s days; record a longer absence as several",
                                   days=MAX_DAYS)))
    if errors:
        raise ValidationFailed(Words("invalid leave"), errors)
    return Asked(leave_type, start, end)


def _check(employee: Employee, asked: Asked, leave_id: str | None) -> None:
    """Refuse a leave that falls outside the employment, overlaps another, changes a
    closed month's pay or (annual) overdraws the balance: ValidationFailed naming the field."""
    if employee.archived:
        raise ValidationFailed(Words("invalid leave"), [("employee", Words("archived: no leave is recorded"))])
    if asked.start < employee.hire_date:
        raise ValidationFailed(Words("invalid leave"), [("from", Words(
            "before the employment began (hired %(hired)s)", hired=employee.hire_date.isoformat()))])
    if employee.termination_date is not None and asked.end > employee.termination_date:
        raise ValidationFailed(Words("invalid leave"), [("to", Words(
            "after the employment ends (last day %(last)s)", last=employee.termination_date.isoformat()))])
    others = list(LeaveRequest.select().where(LeaveRequest.employee == employee.id, LeaveRequest.status.in_(LIVE),
                                              LeaveRequest.start_date <= asked.end,
                                              LeaveRequest.end_date >= asked.start,
                                              *([LeaveRequest.id != leave_id] if leave_id else [])))
    if others:
        other = others[0]
        raise ValidationFailed(Words("invalid leave"), [("from", Words(
            "overlaps leave %(leave)s (%(type)s, %(start)s to %(end)s, %(status)s)", leave=other.id,
            type=other.type, start=other.start_date.isoformat(), end=other.end_date.isoformat(),
            status=other.status))])
    _check_closed_months(employee, asked)
    if asked.type == "annual" or (asked.type == "unpaid" and LAWS[employee.country].unpaid_service_days is not None):
        _check_balance(employee, asked, leave_id)


def changes_pay(country: str, leave_type: str, days: int) -> bool:
    """Whether a leave of `leave_type` lasting `days` calendar days can be paid less than
    in full (app/domain/leave/pay.py decides by how much)."""
    if leave_type == "annual":
        return False
    kind = kind_of(country, leave_type)
    return (kind.per == "year" or kind.after_months > 0 or any(tier.paid != FULL for tier in kind.tiers)
            or days > sum(tier.days for tier in kind.tiers))


def _check_closed_months(employee: Employee, asked: Asked) -> None:
    if not changes_pay(employee.country, asked.type, (asked.end - asked.start).days + 1):
        return
    months = sorted({day.strftime("%Y-%m") for day in each_day(asked.start, asked.end)})
    closed = (PayrollRun.select().where(PayrollRun.entity == employee.entity_id, PayrollRun.payroll_month.in_(months),
                                        PayrollRun.status.in_(("finalized", "paid")))
              .order_by(PayrollRun.payroll_month).first())
    if closed is not None:
        raise ValidationFailed(Words("invalid leave"), [("from", Words(
            "the payroll of %(month)s is %(status)s (%(run)s): this leave would change its pay; record the pay "
            "with a correction of that run", month=closed.payroll_month, status=closed.status, run=closed.id))])


def _check_balance(employee: Employee, asked: Asked, leave_id: str | None) -> None:
    company = Company.get_by_id(employee.company_id)
    if company.leave_negative_allowed:
        return
    leave = [row for row in LeaveRequest.select().where(LeaveRequest.employee == employee.id,
                                                        LeaveRequest.status == "approved")
             if row.id != leave_id]
    span = (asked.start, asked.end)
    if asked.type == "annual":
        # The balance must hold at the end of this leave and of every approved one after it.
        ends = sorted({asked.end, *(row.end_date for row in leave
                                    if row.type == "annual" and row.end_date > asked.end)})
        for end in ends:
            balance = compute(employee, company, leave, end, extra=span)
            if balance.balance < 0:
                raise ValidationFailed(Words("invalid leave"), [("to", Words(
                    "more annual leave than the balance allows: %(balance)s days on %(day)s after it "
                    "(the company does not allow a negative balance)",
                    balance=f"{float(balance.balance):.2f}", day=end.isoformat()))])
        return
    # Unpaid leave the law takes out of service earns no annual leave: the approved annual
    # leave after it must still fit.
    for end in sorted({row.end_date for row in leave if row.type == "annual" and row.end_date >= asked.start}):
        balance = compute(employee, company, leave, end, extra_unpaid=span)
        if balance.balance < 0:
            raise ValidationFailed(Words("invalid leave"), [("from", Words(
                "this unpaid leave is not service, and the annual leave approved to %(day)s would then be more "
                "than the balance allows (%(balance)s days; the company does not allow a negative balance)",
                balance=f"{float(balance.balance):.2f}", day=end.isoformat()))])


def list_leave(company_id: str, *, employee_id: str | None = None, status: str | None = None,
               start: date | None = None, end: date | None = None, limit: int = 500) -> list[LeaveRequest]:
    """The company's leave as HR reads it, by first day (leave that touches `start`..`end`)."""
    query = narrowed(LeaveRequest.select().where(LeaveRequest.company == company_id), employee_id=employee_id,
                     status=status, start=start, end=end)
    return list(query.order_by(LeaveRequest.start_date, LeaveRequest.id).limit(limit))


def narrowed(query: "pw.ModelSelect[LeaveRequest]", *, employee_id: str | None = None, status: str | None = None,
             start: date | None = None, end: date | None = None) -> "pw.ModelSelect[LeaveRequest]":
    """`query` of leave narrowed to one employee, one status, and leave that touches
    `start`..`end` (any of them left out: not narrowed by it)."""
    if employee_id is not None:
        query = query.where(LeaveRequest.employee == employee_id)
    if status is not None:
        query = query.where(LeaveRequest.status == status)
    if start is not None:
        query = query.where(LeaveRequest.end_date >= start)
    if end is not None:
        query = query.where(LeaveRequest.start_date <= end)
    return query
