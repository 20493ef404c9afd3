"""Fixtures shared by every test.

The backend comes from the environment, as in production: TEST_DATABASE_URL (default a
fresh SQLite file) and TEST_REDIS_URL (default none: in-process rate limiting). The
schema is made once by the real migrations; each test then runs inside a transaction
that is rolled back, and time is a FrozenClock the test moves. Actions that hand work on after commit take
the app's `runtime` (app/domain/kernel/runtime.py), whose clock is that FrozenClock.
"""

import os
from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import urlsplit, urlunsplit

import pytest
from argon2 import Type

from app import create_app
from app.domain.access import keys
from app.domain.access.users import get_or_create_user
from app.domain.kernel.clock import FrozenClock
from app.domain.sandbox import create_sandbox
from app.models import db
from app.models.schema import upgrade
from config import ADDITIONS, TestConfig
from tests.e2e.databases import admin_sql

START = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)


# pytest runs the suite on several processes (pytest-xdist; `-n` in pyproject.toml). Each
# process gets a PostgreSQL database and two Redis databases of its own, beside the ones
# TEST_DATABASE_URL and TEST_REDIS_URL name (SQLite files are per process already): the
# suite's database `<name>_gw1` for process gw1, made empty here and dropped at its end;
# Redis database n - 2i for process i (the end-to-end tests take the one below it).
def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    database = os.environ.get("TEST_DATABASE_URL") or ""
    if database.startswith("postgres"):
        parts = urlsplit(database)
        own = f"{parts.path.lstrip('/')}_{worker}"
        admin_sql(database, f'DROP DATABASE IF EXISTS "{own}" WITH (FORCE)', f'CREATE DATABASE "{own}"')
        os.environ["TEST_DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{own}"))
        config.add_cleanup(lambda: admin_sql(database, f'DROP DATABASE IF EXISTS "{own}" WITH (FORCE)'))
    redis_url = os.environ.get("TEST_REDIS_URL")
    if redis_url:
        base, _, number = redis_url.rpartition("/")
        own_number = int(number) - 2 * int(worker.removeprefix("gw"))
        if own_number < 1:
            raise pytest.UsageError(f"TEST_REDIS_URL's database {number} leaves no Redis database for {worker}: "
                                    f"name a higher one (up to 15), or run fewer processes")
        os.environ["TEST_REDIS_URL"] = f"{base}/{own_number}"


@pytest.fixture(scope="session")
def clock():
    return FrozenClock(START)


@pytest.fixture(scope="session")
def app(tmp_path_factory, clock):
    folder = tmp_path_factory.mktemp("db")
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{folder}/test.db"
    app = create_app(TestConfig, DATABASE_URL=url, CLOCK=clock, RATE_LIMIT_FILE=f"{folder}/rate_limits.sqlite")
    upgrade()
    return app


@pytest.fixture(scope="session")
def runtime(app):
    """The app's Runtime: the FrozenClock above, and the app's real hand-offs."""
    return app.extensions["runtime"]


@pytest.fixture
def live_releases(app, monkeypatch, runtime):
    """`live_releases(["v1.0", ...])`: this test's LIVE_RELEASES, as an operator sets it,
    with the app's Runtime built to match (create_app reads whether v1.3 is live into
    `runtime.beyond_contract` once, and everything asks it there)."""
    def live(releases):
        monkeypatch.setitem(app.config, "LIVE_RELEASES", releases)
        monkeypatch.setitem(app.extensions, "runtime", replace(runtime, beyond_contract=ADDITIONS in releases))

    return live


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes():
    """Argon2id at argon2's CHEAPEST parameters in the test processes: the same algorithm
    and checks, where production's (RFC 9106's second choice: 3 passes over 64 MiB, the
    library's default) takes ~0.1 s a hash and the console tests sign in hundreds of
    times. The processes the end-to-end tests start hash as production does."""
    from argon2 import PasswordHasher, profiles

    from app.domain.access import signin

    production = signin._hasher
    assert (production.type, production.time_cost, production.memory_cost) == (Type.ID, 3, 65536)
    signin._hasher = PasswordHasher.from_parameters(profiles.CHEAPEST)
    yield
    signin._hasher = production


@pytest.fixture(autouse=True)
def _frozen_time(clock):
    clock.set(START)


@pytest.fixture
def shared_redis(app):
    """The Redis the app uses; tests of shared state run in .ci/run's PostgreSQL + Redis pass."""
    if app.extensions["redis"] is None:
        pytest.skip("needs TEST_REDIS_URL (the PostgreSQL + Redis pass of .ci/run sets it)")
    return app.extensions["redis"]


@pytest.fixture
def transaction(app):
    """The test's database work, rolled back at the end.

    No app context is held open around the test: each client request gets its own, as
    in production (a shared one would carry `g` from one request to the next)."""
    db.connect(reuse_if_open=True)
    with db.atomic() as txn:
        yield
        txn.rollback()
    db.close()


@pytest.fixture
def client(app, transaction):
    return app.test_client()


@pytest.fixture
def make_sandbox(transaction, clock, runtime):
    counter = iter(range(1, 1000))

    def make(country="KW", email=None):
        user = get_or_create_user(email or f"user{next(counter)}@example.com", clock)
        return create_sandbox(user, country, runtime, seed=7)

    return make


@pytest.fixture
def make_key(clock):
    def make(company, scopes=keys.SCOPES):
        return keys.create_key(company, scopes, clock)[1]

    return make


def bearer(secret):
    return {"Authorization": f"Bearer {secret}"}


@pytest.fixture
def sandbox(make_sandbox):
    return make_sandbox("KW")


@pytest.fixture
def headers(sandbox, make_key):
    """Auth headers of a key with every scope for the KW sandbox."""
    return bearer(make_key(sandbox))
