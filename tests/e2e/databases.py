"""Fresh databases for end-to-end tests, of the engine the suite runs on: SQLite files,
or PostgreSQL databases beside TEST_DATABASE_URL's (made and dropped by the test)."""

import os
import sqlite3
from urllib.parse import urlsplit, urlunsplit

import psycopg2


class Databases:
    """Fresh databases of the engine under test, dropped afterwards."""

    def __init__(self, folder):
        self.folder, self.admin, self.made = folder, os.environ.get("TEST_DATABASE_URL"), []
        if self.admin and not self.admin.startswith("postgres"):
            self.admin = None

    def new(self, name):
        if not self.admin:
            return f"sqlite:///{self.folder}/{name}.db"
        database = f"{urlsplit(self.admin).path.lstrip('/')}_{name}"
        self._sql(f'DROP DATABASE IF EXISTS "{database}"', f'CREATE DATABASE "{database}"')
        self.made.append(database)
        return urlunsplit(urlsplit(self.admin)._replace(path=f"/{database}"))

    def drop(self):
        self._sql(*(f'DROP DATABASE IF EXISTS "{database}"' for database in self.made))

    def _sql(self, *statements):
        admin_sql(self.admin, *statements)


def admin_sql(url, *statements):
    """Statements run outside a transaction on the PostgreSQL server of `url` (CREATE and
    DROP DATABASE refuse one)."""
    if not statements:
        return
    admin = psycopg2.connect(url)
    admin.autocommit = True
    try:
        with admin.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
    finally:
        admin.close()


def rows(url, sql):
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url[len("sqlite:///"):]) as connection:
            return connection.execute(sql).fetchall()
    connection = psycopg2.connect(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchall()
    finally:
        connection.close()
