"""Leave as partners read it (v1.3, scope `leave:read`): the company's leave in keyset
pages, and each active employee's annual balance in pages by employee id.

Archived records are never shown (Contract, Employee): neither their leave nor a
balance. A balance page reads its employees and all their approved leave in two
queries, whatever the page's size: `balances.compute` works on the rows it is given.
"""

from datetime import date, datetime

from peewee import Tuple

from app.domain.kernel.clock import to_db
from app.domain.kernel.paging import Page, Position, page_of
from app.domain.leave.balances import Balance, compute
from app.domain.leave.requests import narrowed
from app.domain.people.actions import local_today
from app.models import Company, Employee, LeaveRequest

L = LeaveRequest
STATUSES = ("requested", "approved", "declined", "cancelled")


def list_leave(company_id: str, *, employee_id: str | None = None, status: str | None = None,
               start: date | None = None, end: date | None = None, updated_since: datetime | None = None,
               after: Position | None = None, limit: int = 50) -> Page[LeaveRequest]:
    """A page of the company's leave, oldest recorded first, after the keyset position
    `after`: leave that touches `start`..`end` (either may be left open). With
    `updated_since`, only leave whose partner form changed at or after it, ordered by
    (updated_at, id), so a tie is sent again rather than missed; else by (created_at, id).
    Another company's `employee_id` finds nothing, as an unknown one does."""
    query = (L.select(L.id, L.employee, L.type, L.status, L.start_date, L.end_date, L.days, L.created_at,
                      L.updated_at)
             .join(Employee, on=(L.employee == Employee.id))
             .where(L.company == company_id, Employee.archived == False))  # noqa: E712
    query = narrowed(query, employee_id=employee_id, status=status, start=start, end=end)
    order = (L.created_at, L.id)
    if updated_since is not None:
        query, order = query.where(L.updated_at >= to_db(updated_since)), (L.updated_at, L.id)
    if after is not None:
        query = query.where(Tuple(*order) > Tuple(*after))
    moment = "updated_at" if updated_since is not None else "created_at"
    return page_of(list(query.order_by(*order).limit(limit + 1)), limit,
                   lambda row: (getattr(row, moment), row.id))


def list_balances(company: Company, now: datetime, *, as_of: date | None = None, employee_id: str | None = None,
                  after: Position | None = None, limit: int = 50) -> Page[Balance]:
    """A page of annual balances, by employee id, of the company's active employees
    (not `left`, not archived), as of the end of `as_of` (default: the company's today at
    `now`; a day ahead is projected, balances.py)."""
    day = as_of or local_today(company, now)
    # The company's leave choices as stored: a request's principal carries only some of
    # its columns (access/keys.py).
    choices = Company.select(Company.id, Company.leave_annual_days, Company.leave_carry_over_days,
                             Company.leave_negative_allowed).where(Company.id == company.id).get()
    query = Employee.select().where(Employee.company == company.id, Employee.archived == False,  # noqa: E712
                                    Employee.status != "left")
    if employee_id is not None:
        query = query.where(Employee.id == employee_id)
    if after is not None:
        query = query.where(Employee.id > after[0])
    found = page_of(list(query.order_by(Employee.id).limit(limit + 1)), limit, lambda employee: (employee.id,))
    leave: dict[str, list[LeaveRequest]] = {employee.id: [] for employee in found.items}
    if leave:
        for row in (L.select(L.employee, L.type, L.status, L.start_date, L.end_date)
                    .where(L.employee.in_(list(leave)), L.status == "approved").order_by(L.start_date, L.id)):
            leave[row.employee_id].append(row)
    return Page([compute(employee, choices, leave[employee.id], day) for employee in found.items],
                found.next_after)
