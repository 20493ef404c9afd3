from collections.abc import Sequence

import peewee as pw

from app.models.base import BaseModel, db
from app.models.company import Company
from app.models.employees import Employee


class AttendanceEvent(BaseModel):
    """A stored clock event, from a partner (`partner_api`), the employee app or HR
    (`manual`). Idempotent per company, channel, sending system and external id: the
    unique index decides a resend, never a read-then-write.

    `state`: `pending` (stored, its fate not final yet), `paired` (final, part of a
    shift), `unmatched` (no employee yet), `rejected` (final, with `reason`; announced
    once as `attendance.rejected`). `paired_at` is null until pairing has seen the event,
    so the database, not the queue, holds the pairing work still to do.
    """

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="attendance_events", on_delete="CASCADE")
    company_id: str
    channel = pw.CharField(max_length=16)
    source = pw.CharField(max_length=100)
    external_id = pw.CharField(max_length=200)
    employee = pw.ForeignKeyField(Employee, null=True, backref="attendance_events", on_delete="CASCADE")
    employee_id: str | None
    ref_type = pw.CharField(max_length=16)  # how the sender named the person: external_id, employee_code, ...
    ref_value = pw.CharField(max_length=254)
    type = pw.CharField(max_length=16)  # clock_in, clock_out, break_start, break_end
    at = pw.DateTimeField()
    branch_ref = pw.CharField(max_length=100, null=True)
    received_at = pw.DateTimeField()
    state = pw.CharField(max_length=16)
    reason = pw.CharField(max_length=40, null=True)
    detail = pw.TextField(null=True)
    decided_at = pw.DateTimeField(null=True)
    paired_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "attendance_event"
        indexes = (
            (("company", "channel", "source", "external_id"), True),
            (("employee", "at"), False),
            (("state", "at"), False),  # settling events 16 hours old
            (("state", "paired_at"), False),  # events pairing has not seen yet
            (("state", "received_at"), False),  # expiring unmatched events after 72 hours
            (("company", "ref_type", "ref_value"), False),  # relinking a person
        )


NEW_EVENT_COLUMNS = ("id", "company", "channel", "source", "external_id", "employee", "ref_type", "ref_value",
                     "type", "at", "branch_ref", "received_at", "state")


def insert_new_events(rows: Sequence[tuple[object, ...]]) -> set[str]:
    """Insert the events (tuples of NEW_EVENT_COLUMNS) not stored yet, in one statement
    that skips what the unique index already holds, even a row a concurrent request has
    just written; return the ids that went in.

    The SQL is written out here rather than by `insert_many`: Peewee builds a node per
    value, about 25 ms for a 500-event batch, several times the cost of the insert."""
    if not rows:
        return set()
    database = db.obj
    fields = [AttendanceEvent._meta.fields[name] for name in NEW_EVENT_COLUMNS]
    columns = ", ".join(f'"{field.column_name}"' for field in fields)
    one_row = "(" + ", ".join([database.param] * len(fields)) + ")"
    sql = (f'INSERT INTO "{AttendanceEvent._meta.table_name}" ({columns}) VALUES {", ".join([one_row] * len(rows))} '
           'ON CONFLICT DO NOTHING RETURNING "id"')
    cursor = database.execute_sql(sql, [value for row in rows for value in row])
    return {event_id for (event_id,) in cursor.fetchall()}


class IdentityLink(BaseModel):
    """HR's link from how a sending system names a person (an `employee_ref`: a
    partner's own id, or an email or staff number that matched no one) to an employee.
    `value` is in the form references are matched in (app/domain/attendance/ingest.py)."""

    company = pw.ForeignKeyField(Company, backref="identity_links", on_delete="CASCADE")
    company_id: str
    source = pw.CharField(max_length=100)
    ref_type = pw.CharField(max_length=16, default="external_id")
    value = pw.CharField(max_length=254)
    employee = pw.ForeignKeyField(Employee, backref="identity_links", on_delete="CASCADE")
    employee_id: str
    created_at = pw.DateTimeField()

    class Meta:
        table_name = "identity_link"
        indexes = ((("company", "source", "ref_type", "value"), True),)


class AttendanceDay(BaseModel):
    """One employee's day as last paired: the record listAttendanceDays serves, as JSON."""

    company = pw.ForeignKeyField(Company, backref="attendance_days", on_delete="CASCADE")
    company_id: str
    employee = pw.ForeignKeyField(Employee, backref="attendance_days", on_delete="CASCADE")
    employee_id: str
    date = pw.DateField()
    record = pw.TextField()
    updated_at = pw.DateTimeField()

    class Meta:
        table_name = "attendance_day"
        indexes = (
            (("employee", "date"), True),
            (("company", "date", "employee"), False),  # keyset order of listAttendanceDays
        )
