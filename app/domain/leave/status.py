"""An employee's `status` follows approved leave: `active` becomes `on_leave` on a leave's
first day (in the company's timezone) and `active` again after its last, announced as
`employee.updated` like any change of the partner form. Only leave's own `on_leave`
ends with the leave (`Employee.on_leave_by`): a status HR set by hand stays, and a
`suspended` or `left` employee is left as HR or the law made them.

`follow` decides for one employee under their row lock (leave's moves call it);
`follow_all` is the hourly job's sweep over everyone whose leave starts or ends around
today.
"""

from datetime import timedelta

from app.domain.kernel.clock import to_db
from app.domain.kernel.runtime import Runtime
from app.domain.people.actions import announce, local_today
from app.models import Company, Employee, LeaveRequest
from app.models.base import locked, write_transaction


def follow(employee: Employee, runtime: Runtime) -> bool:
    """Move `employee`'s status (locked by the caller) to what their approved leave says
    today; announce it. Whether it moved."""
    company = Company.get_by_id(employee.company_id)
    today = local_today(company, runtime.now())
    current = (LeaveRequest.select(LeaveRequest.id)
               .where(LeaveRequest.employee == employee.id, LeaveRequest.status == "approved",
                      LeaveRequest.start_date <= today, LeaveRequest.end_date >= today)
               .order_by(LeaveRequest.start_date).first())
    if employee.status == "active" and current is not None:
        values = {"status": "on_leave", "on_leave_by": current.id}
    elif employee.status == "on_leave" and employee.on_leave_by is not None and current is None:
        values = {"status": "active", "on_leave_by": None}
    elif employee.status == "on_leave" and current is not None and employee.on_leave_by not in (None, current.id):
        Employee.update(on_leave_by=current.id).where(Employee.id == employee.id).execute()  # one leave after another
        return False
    else:
        return False
    Employee.update(**values, updated_at=to_db(runtime.now())).where(Employee.id == employee.id).execute()
    announce(company, employee.id, "employee.updated", runtime)
    return True


def follow_all(runtime: Runtime) -> int:
    """Bring every employee with an approved (or cancelled) leave over the days around today
    (UTC; a company's day is within a day of it) to what their leave says, and everyone
    leave made `on_leave`. How many moved. A leave that began while the job was not
    running is still found: it covers today."""
    today = runtime.now().date()
    candidates = {row.employee_id for row in LeaveRequest.select(LeaveRequest.employee).where(
        LeaveRequest.status.in_(("approved", "cancelled")), LeaveRequest.start_date <= today + timedelta(days=1),
        LeaveRequest.end_date >= today - timedelta(days=2))}
    candidates |= {row.id for row in Employee.select(Employee.id).where(
        Employee.status == "on_leave", Employee.on_leave_by.is_null(False))}
    moved = 0
    for employee_id in sorted(candidates):
        with write_transaction():
            employee = locked(Employee.select().where(Employee.id == employee_id, Employee.archived == False),  # noqa: E712
                              keys_kept=True)
            if employee is not None and follow(employee, runtime):
                moved += 1
    return moved
