"""012: what each employee had earned before a run's month (issue 33): the opening an
entity's books owe them, whichever run first carries them."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("end_of_service_balance", opening_minor=pw.BigIntegerField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("end_of_service_balance", "opening_minor")
