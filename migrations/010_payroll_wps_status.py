"""010: where a payroll run stands with the bank under the Wage Protection System (v1.3):
`not_submitted` until HR says otherwise."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("payroll_run", wps_status=pw.CharField(max_length=16, default="not_submitted"))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("payroll_run", "wps_status")
