"""009: the events feed (v1.3) reads the outbox in the order events became visible, and
`updated_since` (v1.3) pages employees and payroll runs by (updated_at, id).

`commit_seq` orders them (app/domain/kernel/events.py): on PostgreSQL the writing
transaction's id, on SQLite one more than the company's largest. Events written before
this migration keep 0: they come first, by time. The feed pages on (company, commit_seq,
created_at, id); `since` and the nightly prune find times by (company, created_at).
"""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("outbox_event", commit_seq=pw.BigIntegerField(default=0))
    migrator.add_index("outbox_event", "company", "commit_seq", "created_at", "id")
    migrator.add_index("outbox_event", "company", "created_at")
    migrator.add_index("employee", "company", "updated_at", "id")
    migrator.add_index("payroll_run", "company", "updated_at", "id")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.drop_index("payroll_run", "company", "updated_at", "id")
    migrator.drop_index("employee", "company", "updated_at", "id")
    migrator.drop_index("outbox_event", "company", "created_at")
    migrator.drop_index("outbox_event", "company", "commit_seq", "created_at", "id")
    migrator.remove_fields("outbox_event", "commit_seq")
