"""Fixtures the end-to-end tests share."""

import pytest

from tests.e2e.databases import Databases

E2E = __file__.rsplit("/", 1)[0]


def pytest_collection_modifyitems(config, items):
    """Every test under tests/e2e is `e2e` (`pytest -m "not e2e"` leaves them out)."""
    for item in items:
        if str(item.path).startswith(E2E):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def databases(tmp_path):
    made = Databases(tmp_path)
    yield made
    if made.admin:
        made.drop()
