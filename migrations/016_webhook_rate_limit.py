"""016: a receiver's own pace (issue 36 part 3, v1.3): at most `rate_limit` deliveries a
second to an endpoint, across every worker; null for none."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("webhook_endpoint", rate_limit=pw.IntegerField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("webhook_endpoint", "rate_limit")
