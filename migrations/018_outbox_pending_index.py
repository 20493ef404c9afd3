"""018: the outbox's undispatched events indexed company by company, oldest first, and
only while undispatched (issue 36): a drain's round takes each company's first events
from it instead of ranking the whole backlog, and dispatching an event leaves it. It
replaces the index on `dispatched_at` (read only as "is null") and the one on
`company_id` alone (the two (company_id, ...) indexes lead with it), so marking an
event dispatched writes two index entries fewer."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.sql("CREATE INDEX outbox_event_pending ON outbox_event (company_id, created_at, id) "
                 "WHERE dispatched_at IS NULL")
    migrator.sql("DROP INDEX outboxevent_dispatched_at")
    migrator.sql("DROP INDEX outboxevent_company_id")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.sql("CREATE INDEX outboxevent_company_id ON outbox_event (company_id)")
    migrator.sql("CREATE INDEX outboxevent_dispatched_at ON outbox_event (dispatched_at)")
    migrator.sql("DROP INDEX outbox_event_pending")
