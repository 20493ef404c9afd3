"""008: a webhook endpoint's previous signing secret, which still signs every attempt
until it expires (a rotation's overlap, v1.3)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("webhook_endpoint", previous_secret_sealed=pw.TextField(null=True),
                        previous_secret_expires_at=pw.DateTimeField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("webhook_endpoint", "previous_secret_sealed", "previous_secret_expires_at")
