"""The annual leave balance another system carried for an employee (a company moving its
payroll here, or from paper): on a day, so many days. From then on the balance is that,
plus what service earns after the day, less annual leave after it (days.Accrual), and
the leave-salary provision follows (a run brings in what the books did not carry yet, as
for any employee new to them). Without it the balance is counted from the hire date,
which for someone with years of service and no leave recorded is every day since.
"""

from datetime import date
from decimal import Decimal, InvalidOperation

from app.domain.kernel.errors import ValidationFailed, Words
from app.domain.leave.requests import hold_employee
from app.models import Employee
from app.models.base import write_transaction

LIMIT = Decimal(10_000)  # days either way: more than any life's leave


def set_carried_balance(company_id: str, employee_id: str, days: object, as_of: object) -> Employee:
    """Record that `employee_id`'s annual leave balance was `days` (up to four places; below
    zero where leave was taken ahead) at the end of `as_of`, a day of their employment;
    `days` None clears it. ValidationFailed naming the field; nothing changes then."""
    amount: Decimal | None = None
    errors: list[tuple[str, Words]] = []
    if days is not None:
        try:
            amount = Decimal(str(days)) if not isinstance(days, bool) else None
        except InvalidOperation:
            amount = None
        if amount is None or not amount.is_finite() or abs(amount) >= LIMIT or amount != amount.quantize(
                Decimal("0.0001")):
            errors.append(("days", Words("a number of days, at most four decimal places, under 10,000 either way")))
        if not isinstance(as_of, date):
            errors.append(("as_of", Words("a date YYYY-MM-DD of the calendar")))
    if errors:
        raise ValidationFailed(Words("invalid carried balance"), errors)
    with write_transaction():
        employee = hold_employee(company_id, employee_id)
        if amount is not None:
            assert isinstance(as_of, date)
            if as_of < employee.hire_date or (employee.termination_date is not None
                                              and as_of > employee.termination_date):
                raise ValidationFailed(Words("invalid carried balance"), [("as_of", Words(
                    "a day of the employment (hired %(hired)s)", hired=employee.hire_date.isoformat()))])
        Employee.update(leave_carried_days=amount, leave_carried_as_of=as_of if amount is not None else None).where(
            Employee.id == employee.id).execute()
    return Employee.get_by_id(employee.id)
