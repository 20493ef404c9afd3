"""Fixtures the API test modules share: a live company and its signed-in HR admin in
the console, the admin's own sandbox, the CLI runner, and webhook deliveries allowed to
loopback, and races: work that commits on its own connection (`committed`) and a function
run in several threads at once (`race`). (tests/conftest.py holds the database, clock and
keys under them all.)"""

import threading

import pytest
from aiosmtpd.controller import Controller

from app.domain.access import companies
from app.domain.access import users as access
from app.domain.webhooks.urls import parse_networks
from app.egress import Sender
from app.mail import SmtpMailer
from app.models import Company, OutboxEvent
from app.models.base import connection, db
from tests.api.books import Books
from tests.api.console import member, post, sign_in, throttle
from tests.conftest import bearer
from tests.helpers import free_port
from tests.receivers import Inbox, Receiver


@pytest.fixture(autouse=True)
def fresh_login_limiters(app):
    """Each test starts with no sign-in attempts counted (the clock restarts every test)."""
    saved = app.extensions["sign_in_throttle"]
    app.extensions["sign_in_throttle"] = throttle()
    yield
    app.extensions["sign_in_throttle"] = saved


@pytest.fixture
def live_company(transaction, clock, runtime):
    company = companies.create_company("Gulf Trading", "KW", clock)
    companies.enable_partner_api(company.id, runtime)
    return Company.get_by_id(company.id)


@pytest.fixture
def admin(client, live_company, clock):
    user = member(live_company, "hr_admin", clock)
    assert sign_in(client, user.email).status_code == 302
    return user


@pytest.fixture
def in_sandbox(client, admin, clock):
    post(client, "/console/sandbox", {"country": "KW"}, page="/console/sandbox")
    sandbox = access.sandbox_of(admin)
    post(client, "/console/company", {"company_id": sandbox.id})
    return sandbox


@pytest.fixture
def run(app, transaction):
    runner = app.test_cli_runner()

    def invoke(*args):
        return runner.invoke(args=list(args))

    return invoke


@pytest.fixture
def loopback(app, monkeypatch, sandbox, clock):
    """Deliveries may go to 127.0.0.0/8, as WEBHOOK_ALLOW_PRIVATE_NETWORKS would allow;
    and the events of making the sandbox are behind us (dispatched before any endpoint)."""
    monkeypatch.setitem(app.extensions, "webhook_sender", Sender(parse_networks("127.0.0.0/8"), timeout=2))
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.dispatched_at.is_null()).execute()


@pytest.fixture
def inbox(app, monkeypatch):
    """A real SMTP server on localhost; the app sends to it through SmtpMailer."""
    received = Inbox()
    port = free_port()
    controller = Controller(received, hostname="127.0.0.1", port=port)
    controller.start()
    monkeypatch.setitem(app.extensions, "mailer", SmtpMailer(f"smtp://127.0.0.1:{port}", "console@example.com"))
    yield received
    controller.stop()


@pytest.fixture
def receiver():
    """A webhook receiver on loopback that answers 200 and keeps what it got."""
    with Receiver() as running:
        yield running


@pytest.fixture
def books(transaction, clock, runtime, make_key):
    """A live Kuwaiti company, its key, and a way to hire, run and read its books."""
    company = companies.create_company("Ledger Test Co", "KW", clock)
    companies.enable_partner_api(company.id, runtime)
    return Books(company, bearer(make_key(company)), runtime)


@pytest.fixture
def committed(app):
    """Run a function with its own connection and commit, as a request would."""

    def run(function, *args, **kwargs):
        with app.app_context(), connection():
            return function(*args, **kwargs)

    run.app = app
    return run


@pytest.fixture
def race(app):
    def run(function, *args, threads=2):
        """Outcomes of `function(*args)` run in `threads` threads at once: a result or the exception."""
        barrier, outcomes = threading.Barrier(threads), [None] * threads

        def one(index):
            with app.app_context(), connection():
                barrier.wait()
                try:
                    outcomes[index] = function(*args)
                except Exception as exc:  # noqa: BLE001 (the outcome under test)
                    outcomes[index] = exc

        workers = [threading.Thread(target=one, args=(index,)) for index in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        return outcomes

    return run


@pytest.fixture
def wide_pool(monkeypatch):
    """Room for fifty connections at once (a process's pool holds 32: a gunicorn worker
    serves one request at a time)."""
    monkeypatch.setattr(db.obj, "_max_connections", 64)
