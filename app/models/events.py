import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company


class OutboxEvent(BaseModel):
    """An event written in the same transaction as the change that caused it.

    `payload` is the full webhook envelope as JSON text. Workers fan it out and set
    `dispatched_at`; the database, not the queue, is the source of truth. The events
    feed (v1.3) reads the same rows, ordered by `commit_seq` (the order in which they
    became visible, app/domain/kernel/events.py), for 30 days.
    """

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="events", on_delete="CASCADE", index=False)  # indexes lead with it
    company_id: str
    type = pw.CharField(max_length=64)
    payload = pw.TextField()
    created_at = pw.DateTimeField()
    # Asked "is null" only, through `outbox_event_pending` (migration 018): the events
    # not yet dispatched, by (company, created_at, id), and those alone (a partial index,
    # which Meta.indexes cannot declare).
    dispatched_at = pw.DateTimeField(null=True)
    commit_seq = pw.BigIntegerField(default=0)

    class Meta:
        indexes = (
            (("company", "commit_seq", "created_at", "id"), False),  # the feed's pages
            (("company", "created_at"), False),  # `since`, and the nightly prune
        )


class EmployeeAnnouncement(BaseModel):
    """The partner-safe form of an employee as last announced by an event.

    The nightly reconciliation compares each employee's current form with this one and
    writes the events that bulk tools did not (Contract, Delivery rules 6).
    """

    employee = pw.CharField(primary_key=True, max_length=40)  # Employee.id; kept if the row goes
    company = pw.ForeignKeyField(Company, backref="announcements", on_delete="CASCADE")
    company_id: str
    form = pw.TextField()  # canonical JSON of the announced Employee
    event_id = pw.CharField(max_length=40)
    announced_at = pw.DateTimeField()
