"""023: a journal line keeps its account's Arabic name as it was when posted (issue 50),
beside the English one, for Arabic pages; null on lines posted before, and where the
company's mapping gave no Arabic name."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("journal_line", account_name_ar=pw.CharField(max_length=100, null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("journal_line", "account_name_ar")
