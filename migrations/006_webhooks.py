"""006: webhook endpoints (owned by a credential, secret sealed) and their deliveries,
one row per attempt."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class WebhookEndpoint(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        company = pw.ForeignKeyField(column_name="company_id", field="id", model=migrator.orm["company"],
                                     on_delete="CASCADE")
        credential_kind = pw.CharField(max_length=16)
        credential_id = pw.CharField(max_length=40)
        url = pw.TextField()
        events = pw.TextField()
        active = pw.BooleanField(default=True)
        disabled_reason = pw.CharField(max_length=32, null=True)
        secret_sealed = pw.TextField()
        failing_since = pw.DateTimeField(null=True)
        warned_at = pw.DateTimeField(null=True)
        created_at = pw.DateTimeField()
        updated_at = pw.DateTimeField()

        class Meta:
            table_name = "webhook_endpoint"
            indexes = ((("company", "credential_kind", "credential_id"), False),)

    @migrator.create_model
    class WebhookDelivery(pw.Model):
        id = pw.CharField(max_length=40, primary_key=True)
        endpoint = pw.ForeignKeyField(column_name="endpoint_id", field="id", model=migrator.orm["webhook_endpoint"],
                                      on_delete="CASCADE")
        event = pw.ForeignKeyField(column_name="event_id", field="id", model=migrator.orm["outbox_event"],
                                   on_delete="CASCADE")
        event_type = pw.CharField(max_length=64)
        attempt = pw.IntegerField()
        status = pw.CharField(max_length=16)
        due_at = pw.DateTimeField()
        sent_at = pw.DateTimeField(null=True)
        response_status = pw.IntegerField(null=True)
        response_body = pw.TextField(null=True)
        error = pw.TextField(null=True)
        duration_ms = pw.IntegerField(null=True)
        next_retry_at = pw.DateTimeField(null=True)
        retries = pw.BooleanField(default=True)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "webhook_delivery"
            indexes = ((("status", "due_at"), False), (("endpoint", "created_at"), False))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("webhook_delivery")
    migrator.remove_model("webhook_endpoint")
