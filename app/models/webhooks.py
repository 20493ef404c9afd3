import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company
from app.models.events import OutboxEvent


class WebhookEndpoint(BaseModel):
    """A URL a credential registered for some event types. The signing secret must be
    read back to sign, so it is stored sealed with the app's secret key, never in clear.
    After a rotation the secret it replaced still signs, beside it, until it expires."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="webhook_endpoints", on_delete="CASCADE")
    company_id: str
    credential_kind = pw.CharField(max_length=16)  # api_key (OAuth connections later)
    credential_id = pw.CharField(max_length=40)  # the owner: only it sees the endpoint
    url = pw.TextField()
    events = pw.TextField()  # space-separated event types
    active = pw.BooleanField(default=True)
    disabled_reason = pw.CharField(max_length=32, null=True)  # delivery_failures, key_revoked
    secret_sealed = pw.TextField()
    previous_secret_sealed = pw.TextField(null=True)  # the secret a rotation replaced (v1.3)
    previous_secret_expires_at = pw.DateTimeField(null=True)  # it signs until then
    failing_since = pw.DateTimeField(null=True)  # the first failure since the last success
    warned_at = pw.DateTimeField(null=True)  # the "failing for 3 days" email of this streak
    rate_limit = pw.IntegerField(null=True)  # deliveries a second at most, across workers (v1.3); null: none
    created_at = pw.DateTimeField()
    updated_at = pw.DateTimeField()

    class Meta:
        indexes = ((("company", "credential_kind", "credential_id"), False),)


class WebhookDelivery(BaseModel):
    """One attempt to deliver one event to one endpoint. A failed attempt with a retry
    planned names its time (`next_retry_at`); the retry is the next row (`attempt` + 1).
    `due_at` orders the work: a `pending` row is sent at or after it, a `sending` row is
    claimed by a worker until then (a worker that died leaves it to be sent again)."""

    id = pw.CharField(primary_key=True, max_length=40)
    endpoint = pw.ForeignKeyField(WebhookEndpoint, backref="deliveries", on_delete="CASCADE")
    endpoint_id: str
    event = pw.ForeignKeyField(OutboxEvent, backref="deliveries", on_delete="CASCADE")
    event_id: str
    event_type = pw.CharField(max_length=64)
    attempt = pw.IntegerField()
    status = pw.CharField(max_length=16)  # pending, sending, succeeded, failed
    due_at = pw.DateTimeField()
    sent_at = pw.DateTimeField(null=True)
    response_status = pw.IntegerField(null=True)
    response_body = pw.TextField(null=True)  # at most 1 KB of text
    error = pw.TextField(null=True)  # why there was no answer (timeout, TLS, refused address)
    duration_ms = pw.IntegerField(null=True)
    next_retry_at = pw.DateTimeField(null=True)
    retries = pw.BooleanField(default=True)  # False for a manual redelivery: one attempt
    created_at = pw.DateTimeField()

    class Meta:
        indexes = (
            (("status", "due_at"), False),
            (("endpoint", "created_at"), False),
        )
