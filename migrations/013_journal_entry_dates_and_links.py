"""013: journal entries an accountant can date and trace (issue 33): the accounting date,
a memo, and the entry a correction corrects or a reversal reverses. Entries posted
before keep them empty (their posted_at says when)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("journal_entry", accounting_date=pw.DateField(null=True),
                        memo=pw.CharField(max_length=200, null=True),
                        reverses=pw.CharField(max_length=40, null=True),
                        corrects=pw.CharField(max_length=40, null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("journal_entry", "accounting_date", "memo", "reverses", "corrects")
