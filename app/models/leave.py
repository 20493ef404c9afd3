"""Leave: requests and their decisions, what leave did to a run's pay, and the leave-salary
provision the books carry for each employee (app/domain/leave/)."""

import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company
from app.models.employees import Employee
from app.models.payroll import PayrollRun


class LeaveRequest(BaseModel):
    """One leave of one employee, from `start_date` to `end_date` (both days off).

    `status`: requested, approved, declined or cancelled. `days`: the leave's days as its
    type counts them (annual leave in the law's days, calendar or working; every other
    type in calendar days). `updated_at` moves whenever the partner form changes (every
    field of it is on the row)."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, on_delete="CASCADE")
    company_id: str
    employee = pw.ForeignKeyField(Employee, backref="leave")
    employee_id: str
    type = pw.CharField(max_length=16)
    status = pw.CharField(max_length=16)
    start_date = pw.DateField()
    end_date = pw.DateField()
    days = pw.IntegerField()
    note = pw.CharField(max_length=500, null=True)  # HR's own words; never sent to partners
    requested_by = pw.CharField(max_length=254)
    decided_by = pw.CharField(max_length=254, null=True)
    created_at = pw.DateTimeField()
    decided_at = pw.DateTimeField(null=True)
    updated_at = pw.DateTimeField()

    class Meta:
        table_name = "leave_request"
        indexes = (
            (("employee", "start_date"), False),
            (("company", "updated_at", "id"), False),
            (("company", "status", "start_date"), False),
        )


class PayrollLeave(BaseModel):
    """What one leave did to one employee's pay in a run: its `days` in the month (calendar
    days) paid at `paid_percent` of the wage, and the pay it took off (`reduction_minor`,
    0 for leave paid in full)."""

    id = pw.AutoField()
    run = pw.ForeignKeyField(PayrollRun, backref="leave", on_delete="CASCADE")
    run_id: str
    employee = pw.ForeignKeyField(Employee)
    employee_id: str
    leave = pw.ForeignKeyField(LeaveRequest, null=True)
    leave_id: str | None
    type = pw.CharField(max_length=16)
    days = pw.IntegerField()
    paid_percent = pw.DecimalField(max_digits=5, decimal_places=2)
    reduction_minor = pw.BigIntegerField()

    class Meta:
        table_name = "payroll_leave"
        indexes = ((("run", "employee"), False),)


class LeaveProvisionBalance(BaseModel):
    """The leave-salary provision the books carry for one employee: before a run
    (`booked_minor`) and after it (`balance_minor`), for `days` of annual leave earned and
    not taken at the month's end. A leaver paid their unused days in the run is `settled`
    (and carries 0 after it). Internal, like EndOfServiceBalance."""

    id = pw.AutoField()
    run = pw.ForeignKeyField(PayrollRun, backref="leave_provision", on_delete="CASCADE")
    run_id: str
    employee = pw.ForeignKeyField(Employee)
    employee_id: str
    booked_minor = pw.BigIntegerField()
    balance_minor = pw.BigIntegerField()
    opening_minor = pw.BigIntegerField(default=0)
    days = pw.DecimalField(max_digits=12, decimal_places=4)  # a draft may be for 9999-12
    settled = pw.BooleanField(default=False)

    class Meta:
        table_name = "leave_provision_balance"
        indexes = ((("run", "employee"), True),)
