"""012: what each employee had earned before a run's month (issue 33): the opening an
entity's books owe them, whichever run first carries them; and whether a run was built
with the end-of-service lines (those with balances were)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("end_of_service_balance", opening_minor=pw.BigIntegerField(null=True))
    migrator.add_fields("payroll_run", end_of_service_lines=pw.BooleanField(default=False))
    migrator.sql("UPDATE payroll_run SET end_of_service_lines = TRUE WHERE id IN "
                 "(SELECT DISTINCT run_id FROM end_of_service_balance)")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("payroll_run", "end_of_service_lines")
    migrator.remove_fields("end_of_service_balance", "opening_minor")
