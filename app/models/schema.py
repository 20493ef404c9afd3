"""The schema is created and changed only by the migrations in `migrations/`."""

import logging
from pathlib import Path

from peewee_migrate import Router

from app.models.base import connection, db

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
HISTORY_TABLE = "migratehistory"  # peewee-migrate's record of what was applied


def router() -> Router:
    return Router(db, migrate_dir=MIGRATIONS_DIR, migrate_table=HISTORY_TABLE,
                  logger=logging.getLogger("migrations"))


def pending() -> list[str]:
    """Names of the migrations on disk not yet applied (all of them on an empty
    database). Reads only: unlike the router, it never creates the history table."""
    on_disk = list(router().todo)
    if not db.table_exists(HISTORY_TABLE):
        return on_disk
    done = {name for (name,) in db.execute_sql(f"SELECT name FROM {HISTORY_TABLE}")}
    return [name for name in on_disk if name not in done]


def upgrade() -> list[str]:
    """Apply every migration not yet applied; returns their names."""
    with connection():
        migrations = router()
        pending = list(migrations.diff)
        migrations.run()
    return pending
