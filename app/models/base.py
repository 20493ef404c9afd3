"""The database proxy and the base model. No Flask here."""

import json
import os
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

import peewee as pw
from playhouse.db_url import parse as parse_db_url
from playhouse.pool import PooledPostgresqlDatabase, PooledSqliteDatabase

from config import ConfigurationError

db = pw.DatabaseProxy()
M = TypeVar("M", bound=pw.Model)

# busy_timeout first: the pragmas after it (switching to WAL reads the file's header)
# then wait for a concurrent writer instead of failing at once with "database is locked".
SQLITE_PRAGMAS = {
    "busy_timeout": 5000,
    "journal_mode": "wal",
    "foreign_keys": 1,
    "synchronous": "normal",
}


class PostgresPool(PooledPostgresqlDatabase):
    """Peewee's pool pings the server (`SELECT 1`) at every checkout: one extra round
    trip per request. We trust psycopg2's own `closed` flag instead; a connection the
    server dropped fails one query, is marked closed by the driver, and is discarded
    at its next checkout. `stale_timeout` still recycles old connections."""

    def _is_closed(self, conn: Any) -> bool:
        return bool(conn.closed)


def make_database(url: str) -> pw.Database:
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
        return PostgresPool(
            params.pop("database"), max_connections=32, stale_timeout=300, **params
        )
    raise ConfigurationError(f"DATABASE_URL must be sqlite:/// or postgresql://, not {url.split(':')[0]!r}")


def private_file(path: str) -> None:
    """Make the SQLite file at `path` (and its folder) if missing, readable and writable
    by this user only: it holds salaries and keys. SQLite gives its -wal and -shm files
    the same mode."""
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


@contextmanager
def connection() -> Iterator[pw.DatabaseProxy]:
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


class Prepared:
    """A query compiled to SQL once per database, then run with fresh parameters.

    Peewee renders SQL anew on every execution, which costs more than the round trip
    for a small join; the few queries on every request's path are rendered once here.
    `build()` returns the query with placeholder values in the order `rows()` takes
    them; values come back converted by each column's field, as Peewee would.
    """

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._compiled: tuple[Any, str, list[Any]] | None = None  # (database, sql, converters)

    def rows(self, *params: object) -> list[tuple[Any, ...]]:
        database = db.obj
        if self._compiled is None or self._compiled[0] is not database:
            query = self._build()
            sql, _ = query.sql()
            converters = [getattr(column, "python_value", None) for column in query._returning]
            self._compiled = (database, sql, converters)
        _, sql, converters = self._compiled
        return [
            tuple(value if value is None or convert is None else convert(value)
                  for convert, value in zip(converters, row, strict=True))
            for row in database.execute_sql(sql, params).fetchall()
        ]


class BaseModel(pw.Model):
    class Meta:
        database = db
        legacy_table_names = False


# One SQLite writer at a time in this process. Threads of one process queue here (the
# wait releases the GIL); other processes queue in SQLite's busy handler. Seen without
# it: a thread waiting in `BEGIN IMMEDIATE` stalled the thread holding the write lock
# until the 5-second busy timeout failed the waiter ("database is locked").
_sqlite_writer = threading.RLock()


# What this thread's outermost write_transaction runs as its last statements (None
# outside one): see before_commit.
_last_writes = threading.local()


@contextmanager
def write_transaction() -> Iterator[None]:
    """A transaction that holds the write lock from its start. On SQLite (WAL) a
    transaction that reads and then writes fails at once if another wrote in between;
    `BEGIN IMMEDIATE` waits its turn instead. PostgreSQL locks rows (`lock_for_update`).
    What `before_commit` was given runs at the end of the outermost one."""
    outermost = getattr(_last_writes, "actions", None) is None
    if outermost:
        _last_writes.actions = []
    try:
        if isinstance(db.obj, pw.SqliteDatabase):
            with _sqlite_writer, db.atomic(lock_type="IMMEDIATE"):
                yield
                _run_last_writes(outermost)
        else:
            with db.atomic():
                yield
                _run_last_writes(outermost)
    finally:
        if outermost:
            _last_writes.actions = None


def before_commit(action: Callable[[], object]) -> None:
    """Run `action` (a write) as the last statement of this thread's outermost
    write_transaction, once however often it is asked for; at once outside one. For a
    row every transaction of a kind writes (the credentials version): written last, its
    lock is held only from there to the commit, so it is never one side of a deadlock.
    (A write_transaction inside a plain `db.atomic()` ends before that block commits: the
    lock is held to the block's end, so such a block does nothing else that waits after
    it, as `serve`'s making of its demo sandbox and key does not.)"""
    actions = getattr(_last_writes, "actions", None)
    if actions is None:
        action()
    elif action not in actions:
        actions.append(action)


def _run_last_writes(outermost: bool) -> None:
    if outermost:
        actions, _last_writes.actions = _last_writes.actions, []
        for action in actions:
            action()


def row_of(model: Any, row_id: str, company_id: str | None = None) -> pw.Expression:
    """The condition "this row, of this company": `company_id` None drops the company
    (an operator's command names a row alone). Every tenant lookup by id goes through a
    company; `None` is the one deliberate way round it."""
    condition = model.id == row_id
    return condition if company_id is None else condition & (model.company == company_id)


def is_postgres() -> bool:
    return not isinstance(db.obj, pw.SqliteDatabase)


def locked(query: "pw.ModelSelect[M]", *, keys_kept: bool = False) -> M | None:
    """The first row of `query`, read under a lock until the transaction ends, for a
    state move decided on it (call inside `write_transaction()`). PostgreSQL locks the
    row (`FOR UPDATE`; FOR NO KEY UPDATE with `keys_kept`, as `lock_for_update` says): a
    second transaction waits, then reads the moved state. On SQLite the write transaction
    already excludes every other writer."""
    if not isinstance(db.obj, pw.SqliteDatabase):
        query = query.for_update("FOR NO KEY UPDATE" if keys_kept else True)  # type: ignore[arg-type]  # a clause too
    return query.first()


# Many rows in one statement, for the paths that write in bursts (webhook deliveries):
# Peewee builds its SQL anew for every row, and PostgreSQL parses and plans each
# statement, so on PostgreSQL a burst goes as one statement over `unnest` of one array
# per column, each passed as one array literal (execute_values' per-row templates were an
# eighth of a draining worker's time, psycopg2's adapting of lists a tenth). SQLite runs
# in process: one prepared statement, executed per row.
_POSTGRES_CASTS = {"DATETIME": "TIMESTAMP", "INT": "INTEGER", "BOOL": "BOOLEAN"}


def insert_rows(fields: Sequence[pw.Field], rows: Sequence[Sequence[Any]]) -> None:
    """Insert `rows` (each the values of `fields`, columns of one model, in order). The
    values go in as given, in the types `_ELEMENT` names: no field's db_value converts
    them and no Python-side default fills a column left out."""
    if not rows:
        return
    table = fields[0].model._meta.table_name
    sql = f"INSERT INTO {table} ({', '.join(field.column_name for field in fields)}) "
    cursor = db.cursor()
    if isinstance(db.obj, pw.SqliteDatabase):
        cursor.executemany(sql + f"VALUES ({', '.join('?' * len(fields))})", _bound(rows))
    else:
        cursor.execute(sql + f"SELECT * FROM unnest({_arrays(fields)})", _columns(rows))


def _columns(rows: Sequence[Sequence[Any]]) -> list[str]:
    """Each column of `rows` as one array literal: psycopg2 adapts a list element by
    element (~22 us a row of nine columns, holding the GIL), and quotes one string at once."""
    return [_array_literal(column) for column in zip(*rows, strict=True)]


def _array_literal(values: Iterable[Any]) -> str:
    try:
        return "{" + ",".join([_ELEMENT[type(value)](value) for value in values]) + "}"
    except KeyError as missing:
        raise _unwritable(missing.args[0]) from None


def _unwritable(kind: type) -> TypeError:
    return TypeError(f"bulk writes take {', '.join(t.__name__ for t in _ELEMENT)}, not {kind.__name__}")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _naive(moment: datetime) -> datetime:
    """A time as stored: naive UTC. One with an offset is refused on both databases (a
    cast to TIMESTAMP would drop the offset, not convert it; SQLite would store its text,
    which every comparison then reads as text, the offset ignored)."""
    if moment.tzinfo is not None:
        raise ValueError(f"{moment!r}: times are stored as naive UTC (clock.to_db)")
    return moment


def _timestamp(moment: datetime) -> str:
    return f'"{_naive(moment).isoformat(" ")}"'


def _bound(rows: Sequence[Sequence[Any]]) -> Sequence[Sequence[Any]]:
    """Rows as SQLite binds them, checked as PostgreSQL's array literals check them: the
    same types (a Decimal or a date is refused on both, not written on one), times naive."""
    for row in rows:
        for value in row:
            if type(value) not in _ELEMENT:
                raise _unwritable(type(value))
            if isinstance(value, datetime):
                _naive(value)
    return rows


# How a value is written in an array literal, by its type. Bulk writes refuse any other
# type on both databases (a TypeError): give it its form here first.
_ELEMENT: dict[type, Callable[[Any], str]] = {
    str: _quoted, int: str, bool: lambda value: "t" if value else "f", type(None): lambda value: "NULL",
    datetime: _timestamp}


def among(field: pw.Field, values: Collection[str]) -> pw.Expression:
    """`field IN values` for hundreds of texts (ids) passed as one parameter: Peewee
    renders an IN list node by node (4 ms for a drain's round of 500 ids, then each is
    quoted alone); PostgreSQL compares with `= ANY` of one array literal (0.4 ms), SQLite
    looks in one JSON array. Indexes serve both as they serve IN. A text holding NUL is
    refused on both (PostgreSQL's text cannot hold it; SQLite's json_each would cut it)."""
    if isinstance(db.obj, pw.SqliteDatabase):
        if any("\x00" in value for value in values):
            raise ValueError("a text with NUL (0x00) matches no stored id")
        return field.in_(pw.SQL("(SELECT value FROM json_each(?))", [json.dumps(list(values))]))
    return field == pw.fn.ANY(pw.SQL("%s::text[]", [_array_literal(values)]))


def _arrays(fields: Sequence[pw.Field]) -> str:
    """unnest's arguments: one array of each field's type (an array of NULLs is typed too)."""
    return ", ".join(f"%s::{_POSTGRES_CASTS.get(field.field_type, field.field_type)}[]" for field in fields)


def update_rows(fields: Sequence[pw.Field], rows: Sequence[Sequence[Any]],
                only_if: tuple[pw.Field, object], matching: Sequence[pw.Field] = ()) -> set[Any]:
    """Set `fields` (columns of one model) of many rows, each to its own values: a row is
    the values in `fields`' order, then its values of `matching`, then its primary key
    (each key once). Only a row where `only_if` (field, value) still holds, and whose
    `matching` columns still hold the row's values (a None there matches anything),
    changes. Returns the keys of the rows changed.
    Call it inside `write_transaction()`: on SQLite it reads, then writes."""
    if not rows:
        return set()
    keys = [row[-1] for row in rows]
    if len(set(keys)) != len(keys):
        raise ValueError("update_rows: a key given twice (which of its rows would be written is the plan's choice)")
    model, (condition, expected) = fields[0].model, only_if
    table, primary_key = model._meta.table_name, model._meta.primary_key
    key, width = primary_key.column_name, len(fields)
    cursor = db.cursor()
    if isinstance(db.obj, pw.SqliteDatabase):  # the write transaction excludes other writers
        wanted = {row[-1]: row[width:-1] for row in rows}
        changed = {found for found, *held in model.select(primary_key, *matching).where(
            primary_key.in_(keys), condition == expected).tuples()
            if all(want is None or want == have for want, have in zip(wanted[found], held, strict=True))}
        assignments = ", ".join(f"{field.column_name} = ?" for field in fields)
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE {key} = ?",
                           [(*row[:width], row[-1]) for row in _bound(rows) if row[-1] in changed])
        return changed
    names = [field.column_name for field in fields]
    matched = [field.column_name for field in matching]
    sql = (f"UPDATE {table} AS t SET {', '.join(f'{name} = v.{name}' for name in names)} "
           f"FROM unnest({_arrays([*fields, *matching, primary_key])}) "
           f"AS v({', '.join([*names, *(f'm_{name}' for name in matched)])}, v_key) "
           f"WHERE t.{key} = v.v_key AND t.{condition.column_name} = %s"
           + "".join(f" AND (v.m_{name} IS NULL OR t.{name} = v.m_{name})" for name in matched)
           + f" RETURNING t.{key}")
    # Several rows are locked first, in the order of their keys as the database sorts them
    # (as claim_many locks them): the UPDATE's join would take them in the plan's order,
    # which a hash join makes the table's, and two transactions could then deadlock
    # (2 ms for 500 rows).
    if len(keys) > 1:
        cursor.execute(f"SELECT 1 FROM {table} WHERE {key} = ANY({_arrays([primary_key])}) ORDER BY {key} "
                       f"FOR NO KEY UPDATE", [_array_literal(keys)])
    cursor.execute(sql, [*_columns(rows), expected])
    return {found for (found,) in cursor.fetchall()}


def lock_for_update(query: "pw.ModelSelect[M]", *, keys_kept: bool = False, skip_locked: bool = False) -> list[M]:
    """The rows `query` selects, locked until the transaction ends (PostgreSQL: a second
    transaction waits, then reads them as moved); on SQLite the write transaction already
    excludes every other writer.

    `keys_kept`: the rows will be changed but never their keys, so they are locked FOR NO
    KEY UPDATE, which rows inserted meanwhile that refer to them do not wait for (their
    foreign-key checks take KEY SHARE). A transaction that itself inserted such rows
    first (holding KEY SHARE) then locks its parents without a deadlock against another
    doing the same.

    `skip_locked`: rows another transaction holds are left out instead of waited for
    (PostgreSQL's SKIP LOCKED), so workers taking work side by side each take their own.
    Such a lock never waits, so the order it takes rows in cannot deadlock."""
    if not isinstance(db.obj, pw.SqliteDatabase):
        clause = "FOR NO KEY UPDATE" if keys_kept else "FOR UPDATE"
        query = query.for_update(clause + (" SKIP LOCKED" if skip_locked else ""))  # type: ignore[arg-type]
    return list(query)


def tuple_rows(query: Any) -> Iterator[tuple[Any, ...]]:
    """A query's rows as tuples (Peewee's `.tuples()`: no model per row), typed as such
    for the type checker, whose Peewee stubs call them models."""
    return iter(query.tuples())


def dict_rows(query: Any) -> list[dict[str, Any]]:
    """A query's rows as dicts (Peewee's `.dicts()`), typed as such for the type checker."""
    return list(query.dicts())


def first_tuple(query: Any) -> tuple[Any, ...]:
    """The first row of a query as a tuple (an aggregate's one row)."""
    return query.tuples().get()

