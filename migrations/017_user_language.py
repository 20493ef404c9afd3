"""017: the console's language a user chose (issue 37): `ar` or `en`, null until they
choose; it follows them to another browser, and their emails are written in it."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("app_user", language=pw.CharField(max_length=8, null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("app_user", "language")
