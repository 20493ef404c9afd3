"""The database proxy and the base model. No Flask here."""

from contextlib import contextmanager

import peewee as pw
from playhouse.db_url import parse as parse_db_url
from playhouse.pool import PooledPostgresqlDatabase, PooledSqliteDatabase

db = pw.DatabaseProxy()

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 5000,
    "synchronous": "normal",
}


def make_database(url):
    """A pooled database for a `sqlite:///path` or `postgresql://...` URL.

    Pooled, so that a request borrows an open connection instead of opening one.
    """
    if url.startswith("sqlite:"):
        path = url.split("sqlite:///", 1)[1] if "sqlite:///" in url else ":memory:"
        return PooledSqliteDatabase(
            path or ":memory:", pragmas=SQLITE_PRAGMAS, max_connections=32,
            stale_timeout=300, check_same_thread=False,
        )
    if url.startswith(("postgres://", "postgresql://")):
        params = parse_db_url(url)
        return PooledPostgresqlDatabase(
            params.pop("database"), max_connections=32, stale_timeout=300, **params
        )
    raise ValueError(f"DATABASE_URL must be sqlite:/// or postgresql://, not {url.split(':')[0]!r}")


@contextmanager
def connection():
    """An open connection for the block; closed after only if this block opened it
    (so it nests inside a request or a test's transaction)."""
    opened = db.is_closed()
    if opened:
        db.connect()
    try:
        yield db
    finally:
        if opened:
            db.close()


class BaseModel(pw.Model):
    class Meta:
        database = db
        legacy_table_names = False
