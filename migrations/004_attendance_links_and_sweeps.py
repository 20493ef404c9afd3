"""004: identity links for every kind of `employee_ref` (HR can link an unmatched email or
staff number too, not only a partner's own id), and the indexes the attendance sweeps
read by: events never paired yet, and unmatched events by when they arrived (72-hour
expiry)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("identity_link", ref_type=pw.CharField(max_length=16, default="external_id"))
    migrator.sql("DROP INDEX identitylink_company_id_source_value")  # as 003 named it, after the model
    migrator.add_index("identity_link", "company", "source", "ref_type", "value", unique=True)
    migrator.add_index("attendance_event", "state", "paired_at")
    migrator.add_index("attendance_event", "state", "received_at")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.drop_index("attendance_event", "state", "received_at")
    migrator.drop_index("attendance_event", "state", "paired_at")
    migrator.drop_index("identity_link", "company", "source", "ref_type", "value")
    migrator.add_index("identity_link", "company", "source", "value", unique=True)
    migrator.remove_fields("identity_link", "ref_type")
