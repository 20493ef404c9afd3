"""002: the last announced form of each employee (nightly reconciliation), and the posting
order of a run's journal entries (several may be posted within one second)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class EmployeeAnnouncement(pw.Model):
        employee = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=migrator.orm["company"],
                                     on_delete="CASCADE")
        form = pw.TextField()
        event_id = pw.CharField(max_length=40)
        announced_at = pw.DateTimeField()

        class Meta:
            table_name = "employee_announcement"

    migrator.add_fields("journal_entry", sequence=pw.IntegerField(default=1))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("journal_entry", "sequence")
    migrator.remove_model("employee_announcement")
