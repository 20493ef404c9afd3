"""Backups that restore: `flask --app wsgi backup create PATH` and `backup restore PATH`.

SQLite: the online backup API (a consistent snapshot while the service writes on).
PostgreSQL: `pg_dump --format=custom` (one snapshot transaction), restored by
`pg_restore --single-transaction` into an empty database only. A backup is written
beside its name first and renamed when whole, readable by this user only, so a failed
or interrupted one never looks like a good one.

A backup holds the data, not the keys: webhook secrets are sealed with SECRET_KEY and
console sessions are signed with it, so keep the `.env` (SECRET_KEY and
SECRET_KEY_FALLBACKS) with the backups, apart from them.
"""

import os
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from app.models.base import connection, db, private_file

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
NAME_PREFIX, SUFFIX = "partner-api-", ".backup"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Written:
    path: Path
    size: int
    engine: str
    pruned: tuple = ()


def create(database_url, target, *, keep_days=None, now=None):
    """Back the database up to `target`, a file, or a folder where the file is named
    `partner-api-<UTC time>.backup` (and, with `keep_days`, older such files are removed)."""
    folder_given = str(target).endswith(os.sep) or Path(target).is_dir()
    target = Path(target)
    if folder_given:
        target.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
        target = target / f"{NAME_PREFIX}{stamp}{SUFFIX}"
    elif keep_days is not None:
        raise BackupError("--keep-days needs a folder to keep backups in, not a file name")
    if target.exists():
        raise BackupError(f"{target} exists already; a backup never overwrites one")
    partial = target.with_name(target.name + ".partial")
    try:
        engine = _sqlite_backup(database_url, partial) if _is_sqlite(database_url) else _pg_dump(database_url, partial)
        os.rename(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    pruned = _prune(target.parent, keep_days, now) if folder_given and keep_days is not None else ()
    return Written(target, target.stat().st_size, engine, pruned)


def restore(database_url, source):
    """Restore `source` into the database DATABASE_URL names, which must be empty."""
    source = Path(source)
    if not source.is_file():
        raise BackupError(f"no backup file at {source}")
    with open(source, "rb") as file:
        magic = file.read(16)
    sqlite_target = _is_sqlite(database_url)
    if magic.startswith(SQLITE_MAGIC) != sqlite_target or not (magic.startswith(SQLITE_MAGIC)
                                                               or magic.startswith(PG_MAGIC)):
        kind = "SQLite" if magic.startswith(SQLITE_MAGIC) else "PostgreSQL" if magic.startswith(PG_MAGIC) else None
        if kind is None:
            raise BackupError(f"{source} is not a backup made by `backup create`")
        raise BackupError(f"{source} is a {kind} backup, and DATABASE_URL names "
                          f"{'SQLite' if sqlite_target else 'PostgreSQL'}: restore it into the same kind")
    tables = _tables()
    if tables:
        raise BackupError(f"the database DATABASE_URL names is not empty ({len(tables)} tables): restore goes into "
                          "an empty one. Create a new database and point DATABASE_URL at it")
    db.close_all()  # the restore writes through its own connection
    if sqlite_target:
        _sqlite_restore(source, _sqlite_path(database_url))
    else:
        _pg_restore(database_url, source)


def _tables():
    with connection():
        return db.get_tables()


def _is_sqlite(url):
    return url.startswith("sqlite:")


def _sqlite_path(url):
    path = url.split("sqlite:///", 1)[1] if "sqlite:///" in url else ""
    if not path or path == ":memory:":
        raise BackupError("DATABASE_URL names an in-memory SQLite database: there is nothing to back up")
    return path


def _sqlite_backup(url, partial):
    private_file(str(partial))
    source = sqlite3.connect(_sqlite_path(url), timeout=30)
    copy = sqlite3.connect(partial)
    try:
        source.backup(copy)  # one step: a consistent snapshot; the service's writers carry on (WAL)
    finally:
        copy.close()
        source.close()
    return "SQLite"


def _sqlite_restore(source, path):
    private_file(path)
    backup = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    target = sqlite3.connect(path, timeout=30)
    try:
        backup.backup(target)
    finally:
        target.close()
        backup.close()


def _libpq(url):
    """The URL for pg_dump/pg_restore without its password (which would show in `ps`),
    and the environment that carries the password instead."""
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = unquote(parts.password)
        netloc = parts.netloc.replace(f":{parts.password}@", "@", 1)
        parts = parts._replace(netloc=netloc)
    scheme = "postgresql" if parts.scheme in ("postgres", "postgresql") else parts.scheme
    return urlunsplit(parts._replace(scheme=scheme)), env


def _pg_dump(url, partial):
    uri, env = _libpq(url)
    private_file(str(partial))
    _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}", f"--dbname={uri}"],
         env, "pg_dump")
    return "PostgreSQL"


def _pg_restore(url, source):
    uri, env = _libpq(url)
    _run(["pg_restore", "--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges",
          f"--dbname={uri}", str(source)], env, "pg_restore")


def _run(command, env, name):
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    except FileNotFoundError:
        raise BackupError(f"{name} is not installed: apt-get install postgresql-client "
                          "(the same major version as the server, or newer)") from None
    if done.returncode != 0:
        raise BackupError(f"{name} failed: {' '.join(done.stderr.split())[:500]}")


def _prune(folder, keep_days, now):
    """Remove this tool's backups in `folder` older than `keep_days`; their names."""
    cutoff = (now if now is not None else time.time()) - keep_days * 86400
    removed = []
    for path in sorted(folder.glob(f"{NAME_PREFIX}*{SUFFIX}")):
        if path.stat().st_mtime < cutoff:
            path.unlink()
            removed.append(path.name)
    return tuple(removed)
