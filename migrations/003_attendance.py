"""003: attendance (v1.1): stored clock events, identity links HR makes for a partner's
own person ids, and each employee's paired days."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    company_table, employee_table = migrator.orm["company"], migrator.orm["employee"]

    @migrator.create_model
    class AttendanceEvent(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=company_table, on_delete="CASCADE")
        channel = pw.CharField(max_length=16)
        source = pw.CharField(max_length=100)
        external_id = pw.CharField(max_length=200)
        employee = pw.ForeignKeyField(column_name="employee_id", field="id", model=employee_table, null=True,
                                      on_delete="CASCADE")
        ref_type = pw.CharField(max_length=16)
        ref_value = pw.CharField(max_length=254)
        type = pw.CharField(max_length=16)
        at = pw.DateTimeField()
        branch_ref = pw.CharField(max_length=100, null=True)
        received_at = pw.DateTimeField()
        state = pw.CharField(max_length=16)
        reason = pw.CharField(max_length=40, null=True)
        detail = pw.TextField(null=True)
        decided_at = pw.DateTimeField(null=True)
        paired_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "attendance_event"
            indexes = (
                (("company", "channel", "source", "external_id"), True),
                (("employee", "at"), False),
                (("state", "at"), False),
                (("company", "ref_type", "ref_value"), False),
            )

    @migrator.create_model
    class IdentityLink(pw.Model):
        id = pw.AutoField()
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=company_table, on_delete="CASCADE")
        source = pw.CharField(max_length=100)
        value = pw.CharField(max_length=254)
        employee = pw.ForeignKeyField(column_name="employee_id", field="id", model=employee_table, on_delete="CASCADE")
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "identity_link"
            indexes = ((("company", "source", "value"), True),)

    @migrator.create_model
    class AttendanceDay(pw.Model):
        id = pw.AutoField()
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=company_table, on_delete="CASCADE")
        employee = pw.ForeignKeyField(column_name="employee_id", field="id", model=employee_table, on_delete="CASCADE")
        date = pw.DateField()
        record = pw.TextField()
        updated_at = pw.DateTimeField()

        class Meta:
            table_name = "attendance_day"
            indexes = (
                (("employee", "date"), True),
                (("company", "date", "employee"), False),
            )


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("attendance_day")
    migrator.remove_model("identity_link")
    migrator.remove_model("attendance_event")
