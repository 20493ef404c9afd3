"""An employee's annual leave as of any date: accrued, taken, planned, balance.

`accrued` is what the law owes to the end of the day (`days.Accrual.accrued`: earned
day by day, nothing before the qualifying service), less what a company's carry-over
cap forfeited at the end of each leave year; `taken` the approved annual days on or
before the day; `planned` the approved annual days after it; `balance` accrued less
taken. A day ahead is projected: service to it, and the leave approved until then;
nothing is earned after a leaver's last day. With a balance another system carried
(carried.py), that balance is the start, and only leave after its day is taken.
"""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Protocol

from app.domain.leave.days import DAY, Accrual, Span, excluded_spans, working_days
from app.domain.leave.law import LAWS
from app.domain.leave.pay import Leave
from app.models import Company, Employee, LeaveRequest
from app.models.base import tuple_rows

# The statuses of a leave still in force: what another leave may not overlap (only approved
# leave is taken or planned, and pays).
LIVE = ("requested", "approved")


class LeaveRow(Protocol):
    """A leave as a balance reads it: a LeaveRequest, or `Taken`."""

    @property
    def type(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def start_date(self) -> date: ...
    @property
    def end_date(self) -> date: ...


@dataclass(frozen=True)
class Taken:
    """The four columns of a leave a balance reads, without a model (a payroll reads every
    employee's leave at once)."""

    type: str
    status: str
    start_date: date
    end_date: date


@dataclass(frozen=True)
class Balance:
    employee_id: str
    as_of: date
    accrued: Fraction
    taken: int
    planned: int
    forfeited: Fraction = Fraction(0)
    earned: Fraction = Fraction(0)  # days earned from the first day, before any qualifying service (days.Accrual)

    @property
    def balance(self) -> Fraction:
        return self.accrued - self.taken

    def as_dict(self) -> dict[str, object]:
        return {"employee_id": self.employee_id, "type": "annual", "as_of": self.as_of.isoformat(),
                "accrued_days": in_days(self.accrued), "taken_days": self.taken, "planned_days": self.planned,
                "balance_days": in_days(self.balance), "forfeited_days": in_days(self.forfeited)}


def in_days(days: Fraction | int) -> float:
    """Days to two decimals, half up (what people read; the provision keeps them exact)."""
    exact = Fraction(days)
    return float((Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(Decimal("0.01"),
                                                                                rounding=ROUND_HALF_UP))


def accrual_of(employee: Employee, company: Company, unpaid: Iterable[Span]) -> Accrual:
    law = LAWS[employee.country]
    carried = None
    if employee.leave_carried_as_of is not None and employee.leave_carried_days is not None:
        carried = (employee.leave_carried_as_of, Fraction(Decimal(employee.leave_carried_days)))
    return Accrual(law, employee.hire_date, company.leave_annual_days, tuple(excluded_spans(law, unpaid)), carried)


def annual_days_through(law_country: str, counted_in: str, spans: Iterable[Span], through: date) -> int:
    """Annual leave days of `spans` on or before `through`."""
    if counted_in == "calendar":
        return sum(max((min(last, through) - first).days + 1, 0) for first, last in spans)
    return sum(working_days(law_country, first, min(last, through)) for first, last in spans)


def compute(employee: Employee, company: Company, leave: Iterable[LeaveRow], as_of: date,
            *, extra: Span | None = None, extra_unpaid: Span | None = None) -> Balance:
    """The balance of `employee` as of the end of `as_of` from their `leave` (any
    statuses; approved ones count), and `extra`, an annual leave not yet approved (the
    one asked for, to check it fits), or `extra_unpaid`, an unpaid one (which may take
    days out of service). Pure once the rows are read."""
    leave = [row for row in leave if row.status == "approved"]
    unpaid = [(row.start_date, row.end_date) for row in leave if row.type == "unpaid"]
    if extra_unpaid is not None:  # an unpaid leave asked for, which may shorten service
        unpaid.append(extra_unpaid)
    accrual = accrual_of(employee, company, unpaid)
    annual = [(row.start_date, row.end_date) for row in leave if row.type == "annual"]
    if extra is not None:
        annual.append(extra)
    if accrual.carried is not None:  # leave on or before the day carried is in the balance carried
        after = accrual.carried[0] + DAY
        annual = [(max(first, after), last) for first, last in annual if last >= after]
    law = accrual.law
    last = employee.termination_date
    if last is not None and as_of > last:  # nothing is earned after the last day
        balance = compute(employee, company, leave, last, extra=extra, extra_unpaid=extra_unpaid)
        return Balance(employee.id, as_of, balance.accrued, balance.taken, balance.planned, balance.forfeited,
                       balance.earned)
    cap = company.leave_carry_over_days
    forfeited = Fraction(0)
    if cap is not None:
        for year_end in accrual.anniversaries(as_of):
            left = accrual.accrued(year_end) - forfeited - annual_days_through(law.country, law.counted_in, annual,
                                                                             year_end)
            forfeited += max(left - cap, Fraction(0))
    taken = annual_days_through(law.country, law.counted_in, annual, as_of)
    total = annual_days_through(law.country, law.counted_in, annual, date.max)
    earned = accrual.earned(as_of)
    accrued = earned if accrual.qualified(as_of) else Fraction(0)
    return Balance(employee.id, as_of, accrued - forfeited, taken, total - taken, forfeited, earned)


def leave_of(employee_id: str) -> list[LeaveRequest]:
    return list(LeaveRequest.select().where(LeaveRequest.employee == employee_id,
                                            LeaveRequest.status.in_(LIVE)).order_by(LeaveRequest.start_date))


def balance_of(employee: Employee, as_of: date) -> Balance:
    """`employee`'s annual leave as of the end of `as_of`."""
    return compute(employee, Company.get_by_id(employee.company_id), leave_of(employee.id), as_of)


def approved_leave(employee_ids: Iterable[str] | None = None, *, entity_id: str | None = None,
                   since: date = date.min) -> dict[str, list[Leave]]:
    """{employee id: their approved leave, by first day} for the employees named (or every
    employee of `entity_id`): each leave that ends on or after `since`, and every unpaid
    leave whenever it was (it may shorten service, days.excluded_spans)."""
    query = LeaveRequest.select(LeaveRequest.id, LeaveRequest.employee, LeaveRequest.type, LeaveRequest.start_date,
                                LeaveRequest.end_date).where(
        LeaveRequest.status == "approved", (LeaveRequest.end_date >= since) | (LeaveRequest.type == "unpaid"))
    if employee_ids is not None:
        query = query.where(LeaveRequest.employee.in_(list(employee_ids)))
    if entity_id is not None:
        query = query.join(Employee).where(Employee.entity == entity_id)
    out: dict[str, list[Leave]] = {}
    for leave_id, employee_id, leave_type, first, last in tuple_rows(query.order_by(LeaveRequest.start_date,
                                                                                    LeaveRequest.id)):
        out.setdefault(employee_id, []).append(Leave(leave_id, leave_type, first, last))
    return out


def unpaid_spans(leave: Iterable[Leave]) -> list[Span]:
    return [(row.start, row.end) for row in leave if row.type == "unpaid"]


def leave_digest(entity_id: str, through: date) -> str:
    """What the approved leave of the entity's employees that begins on or before
    `through` is now, in 64 hex digits: a draft of a month stores it, and finalize
    refuses the draft when leave has been approved or cancelled since (its pay or its
    leave provision would be stale)."""
    ids = [leave_id for leave_id, in tuple_rows(
        LeaveRequest.select(LeaveRequest.id).join(Employee)
        .where(Employee.entity == entity_id, LeaveRequest.status == "approved", LeaveRequest.start_date <= through)
        .order_by(LeaveRequest.id))]
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()
