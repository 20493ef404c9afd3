"""019: the `Idempotency-Key` of POSTs under /v1 (issue 46 part 4, v1.3): one row per
key and company, the first request's fingerprint and, once answered, its answer; a
unique (company, key) index claims a key for one request at a time."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class IdempotencyKey(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=migrator.orm["company"],
                                     on_delete="CASCADE", index=False)
        key = pw.CharField(max_length=255)
        fingerprint = pw.CharField(max_length=64)
        lease = pw.CharField(max_length=40)
        locked_until = pw.DateTimeField(null=True)
        created_at = pw.DateTimeField()
        status = pw.IntegerField(null=True)
        content_type = pw.CharField(max_length=100, null=True)
        body = pw.BlobField(null=True)

        class Meta:
            table_name = "idempotency_key"
            indexes = ((("company", "key"), True), (("created_at",), False))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("idempotency_key")
