"""022: leave (issue 48).

- Leave requests and their decisions (`leave_request`).
- What leave did to each employee's pay in a run (`payroll_leave`).
- The leave-salary provision the books carry for each employee after each run
  (`leave_provision_balance`).
- On a run, what approved leave its draft read (`leave_digest`), so a draft that leave
  has overtaken is not finalized.
- The company's choices where the law leaves them to the contract (more annual days, a
  carry-over cap, negative balances), and on an employee the leave that made them
  `on_leave`, and the annual leave balance another system carried for them on a day.
"""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("company", leave_annual_days=pw.IntegerField(null=True),
                        leave_carry_over_days=pw.IntegerField(null=True),
                        leave_negative_allowed=pw.BooleanField(default=False))
    migrator.add_fields("employee", on_leave_by=pw.CharField(max_length=40, null=True),
                        leave_carried_days=pw.DecimalField(max_digits=12, decimal_places=4, null=True),
                        leave_carried_as_of=pw.DateField(null=True))
    migrator.add_fields("payroll_run", leave_digest=pw.CharField(max_length=64, null=True))

    @migrator.create_model
    class LeaveRequest(pw.Model):
        id = pw.CharField(primary_key=True, max_length=40)
        company = pw.ForeignKeyField(migrator.orm["company"], on_delete="CASCADE")
        employee = pw.ForeignKeyField(migrator.orm["employee"])
        type = pw.CharField(max_length=16)
        status = pw.CharField(max_length=16)
        start_date = pw.DateField()
        end_date = pw.DateField()
        days = pw.IntegerField()
        note = pw.CharField(max_length=500, null=True)
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

    @migrator.create_model
    class PayrollLeave(pw.Model):
        id = pw.AutoField()
        run = pw.ForeignKeyField(migrator.orm["payroll_run"], on_delete="CASCADE")
        employee = pw.ForeignKeyField(migrator.orm["employee"])
        leave = pw.ForeignKeyField(migrator.orm["leave_request"], null=True)
        type = pw.CharField(max_length=16)
        days = pw.IntegerField()
        paid_percent = pw.DecimalField(max_digits=5, decimal_places=2)
        reduction_minor = pw.BigIntegerField()

        class Meta:
            table_name = "payroll_leave"
            indexes = ((("run", "employee"), False),)

    @migrator.create_model
    class LeaveProvisionBalance(pw.Model):
        id = pw.AutoField()
        run = pw.ForeignKeyField(migrator.orm["payroll_run"], on_delete="CASCADE")
        employee = pw.ForeignKeyField(migrator.orm["employee"])
        booked_minor = pw.BigIntegerField()
        balance_minor = pw.BigIntegerField()
        opening_minor = pw.BigIntegerField(default=0)
        days = pw.DecimalField(max_digits=12, decimal_places=4)
        settled = pw.BooleanField(default=False)

        class Meta:
            table_name = "leave_provision_balance"
            indexes = ((("run", "employee"), True),)


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("leave_provision_balance")
    migrator.remove_model("payroll_leave")
    migrator.remove_model("leave_request")
    migrator.remove_fields("payroll_run", "leave_digest")
    migrator.remove_fields("employee", "on_leave_by", "leave_carried_days", "leave_carried_as_of")
    migrator.remove_fields("company", "leave_annual_days", "leave_carry_over_days", "leave_negative_allowed")
