"""015: cost centres (issue 34 part 2): whether a company's journals split expense lines
by department or branch, and on each journal line the group it stands for and how many
people it covers (lines posted before, and liability lines, are not split)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("company", journal_split=pw.CharField(max_length=16, default="none"))
    migrator.add_fields("journal_line", split_by=pw.CharField(max_length=16, null=True),
                        split_group=pw.CharField(max_length=200, null=True),
                        employee_count=pw.IntegerField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("journal_line", "split_by", "split_group", "employee_count")
    migrator.remove_fields("company", "journal_split")
