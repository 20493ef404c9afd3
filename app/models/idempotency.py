import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company


class IdempotencyKey(BaseModel):
    """A POST's `Idempotency-Key` (v1.3) within its company, the request it was first sent
    with (`fingerprint`), and the first answer, kept to be given again for 24 hours
    (app/domain/kernel/idempotency.py). While that request runs, `locked_until` is its
    lease: past it, a request that died no longer holds the key."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="idempotency_keys", on_delete="CASCADE",
                                 index=False)  # the (company, key) index leads with it
    company_id: str
    key = pw.CharField(max_length=255)  # printable ASCII, as sent
    fingerprint = pw.CharField(max_length=64)  # SHA-256 hex of the request: credential, method, path, body
    lease = pw.CharField(max_length=40)  # the attempt that holds (or held) the key; changes at a takeover
    locked_until = pw.DateTimeField(null=True)  # while its request runs; null once answered
    created_at = pw.DateTimeField()  # the 24 hours count from here
    status = pw.IntegerField(null=True)  # the first answer, once there is one
    content_type = pw.CharField(max_length=100, null=True)  # null: a body-less answer (202, 204)
    body = pw.BlobField(null=True)  # sealed (app/domain/kernel/sealing.py): a new endpoint's answer holds its secret

    class Meta:
        indexes = ((("company", "key"), True), (("created_at",), False))
