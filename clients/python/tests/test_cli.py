"""`partner-api`'s forwarding: what it sends verifies as a delivery does (with this
package, and with the `standardwebhooks` package on its own), and a receiver that fails is
tried 3 more times, then reported. A local HTTP server is the receiver; the served
service's side is tests/e2e/test_python_client.py."""

import io
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from standardwebhooks import Webhook

from partner_api import Model, cli, webhooks

EVENT = Model({"id": "evt_1", "type": "employee.updated", "created_at": "2026-11-25T09:00:00Z",
               "data": {"name": {"en": "Noura", "ar": "نورة"}}})


@pytest.fixture
def receiver():
    """A local receiver answering each POST with the next of `answers` (then 200)."""
    got, answers = [], []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            got.append((dict(self.headers), self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(answers.pop(0) if answers else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", got, answers
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    waits = []
    monkeypatch.setattr(cli.time, "sleep", waits.append)
    return waits


def test_a_forwarded_event_verifies_in_either_form_with_the_printed_secret(receiver):
    url, got, _ = receiver
    secret = webhooks.new_secret()
    with httpx.Client() as http:
        assert cli.forward(http, url, EVENT, secret) == (200, "")
    [(headers, body)] = got
    assert json.loads(body) == EVENT.to_dict() and headers["Content-Type"] == "application/json"
    assert webhooks.verify(body, {"X-SVC-Signature": headers["X-SVC-Signature"]}, secret)["id"] == "evt_1"
    standard = {name: headers[name] for name in ("webhook-id", "webhook-timestamp", "webhook-signature")}
    assert Webhook(secret).verify(body, standard)["type"] == "employee.updated"
    with pytest.raises(webhooks.SignatureError):
        webhooks.verify(body, headers, webhooks.new_secret())


def test_a_failing_receiver_is_tried_three_more_times_then_reported(receiver, no_waiting):
    url, got, answers = receiver
    answers.extend([500, 503])
    with httpx.Client() as http:
        assert cli.forward(http, url, EVENT, webhooks.new_secret()) == (200, "")
        assert len(got) == 3 and no_waiting == [0.5, 1.0]
        answers.extend([500] * 4)
        assert cli.forward(http, url, EVENT, webhooks.new_secret()) == (500, "failed after 4 tries: answered 500")
    assert len(got) == 7


def test_a_receiver_that_is_not_listening_is_reported_without_a_status():
    with httpx.Client() as http:
        status, error = cli.forward(http, "http://127.0.0.1:9/hook", EVENT, webhooks.new_secret())
    assert status is None and error.startswith("failed after 4 tries: ConnectError")


def test_a_time_without_an_offset_or_a_key_is_refused_with_a_reason(capsys, monkeypatch):
    monkeypatch.delenv("PARTNER_API_KEY", raising=False)
    with pytest.raises(SystemExit):
        cli.main(["listen", "--forward-to", "http://x", "--since", "2026-11-25T09:00:00", "--api-key", "k"])
    assert "no UTC offset" in capsys.readouterr().err
    assert cli.main(["trigger", "ping"]) == 2 and "PARTNER_API_KEY" in capsys.readouterr().err


def test_whoami_prints_the_credential_one_fact_a_line():
    written = io.StringIO()
    cli.whoami(Model({"type": "oauth_access_token", "id": "tok_1", "name": None, "company_id": "cmp_1",
                      "livemode": False, "scopes": ["employees:read", "payroll:read"],
                      "expires_at": "2026-11-21T10:00:00Z", "last_used_at": None,
                      "app": {"client_id": "app_1", "name": "Ledgerly"}}), written)
    assert written.getvalue().splitlines() == [
        "type:         oauth_access_token", "id:           tok_1", "company:      cmp_1", "mode:         sandbox",
        "scopes:       employees:read payroll:read", "app:          Ledgerly", "client_id:    app_1",
        "expires_at:   2026-11-21T10:00:00Z"]
