"""011: the end-of-service benefit in payroll runs (issue 25): how an employee left
(internal), the provision the books carry for each employee around each run, and a
run's net provision change and (an entity's first run) opening provision."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("employee", leaving_kind=pw.CharField(max_length=16, null=True))
    migrator.add_fields("payroll_run", provisions_minor=pw.BigIntegerField(default=0),
                        eos_opening_minor=pw.BigIntegerField(default=0))

    @migrator.create_model
    class EndOfServiceBalance(pw.Model):
        id = pw.AutoField()
        run = pw.ForeignKeyField(column_name="run_id", field="id", model=migrator.orm["payroll_run"],
                                 on_delete="CASCADE")
        employee = pw.ForeignKeyField(column_name="employee_id", field="id", model=migrator.orm["employee"])
        booked_minor = pw.BigIntegerField()
        balance_minor = pw.BigIntegerField()
        settled = pw.BooleanField(default=False)

        class Meta:
            table_name = "end_of_service_balance"
            indexes = ((("run", "employee"), True),)


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("end_of_service_balance")
    migrator.remove_fields("payroll_run", "provisions_minor", "eos_opening_minor")
    migrator.remove_fields("employee", "leaving_kind")
