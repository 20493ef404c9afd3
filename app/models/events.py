import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company


class OutboxEvent(BaseModel):
    """An event written in the same transaction as the change that caused it.

    `payload` is the full webhook envelope as JSON text. Workers fan it out and set
    `dispatched_at`; the database, not the queue, is the source of truth.
    """

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="events", on_delete="CASCADE")
    type = pw.CharField(max_length=64)
    payload = pw.TextField()
    created_at = pw.DateTimeField()
    dispatched_at = pw.DateTimeField(null=True, index=True)
