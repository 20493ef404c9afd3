"""Fixtures the end-to-end tests share."""

import pytest

from tests.e2e.databases import Databases


@pytest.fixture
def databases(tmp_path):
    made = Databases(tmp_path)
    yield made
    if made.admin:
        made.drop()
