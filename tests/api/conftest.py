"""Fixtures the API test modules share: a live company and its signed-in HR admin in
the console, the admin's own sandbox, the CLI runner, and webhook deliveries allowed to
loopback. (tests/conftest.py holds the database, clock and keys under them all.)"""

import pytest
from aiosmtpd.controller import Controller

from app.domain.access import companies
from app.domain.access import users as access
from app.domain.webhooks.urls import parse_networks
from app.egress import Sender
from app.mail import SmtpMailer
from app.models import Company, OutboxEvent
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
