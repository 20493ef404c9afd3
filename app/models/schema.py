"""The schema is created and changed only by the migrations in `migrations/`."""

import logging
from pathlib import Path

from peewee_migrate import Router

from app.models.base import connection, db

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def router():
    return Router(db, migrate_dir=MIGRATIONS_DIR, logger=logging.getLogger("migrations"))


def upgrade():
    """Apply every migration not yet applied; returns their names."""
    with connection():
        migrations = router()
        pending = list(migrations.diff)
        migrations.run()
    return pending
