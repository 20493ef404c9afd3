"""Unit tests open no database: they test rules on values (pure functions, made-up
clocks and callables). A test that needs the database belongs in tests/db/ (domain rules
on a real database) or tests/api/ (through the Flask client)."""

import peewee
import pytest


@pytest.fixture(autouse=True)
def no_database(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("a unit test opened the database: move it to tests/db/ or tests/api/")

    monkeypatch.setattr(peewee.Database, "cursor", refused)
