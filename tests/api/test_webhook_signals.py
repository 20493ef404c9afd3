"""Receivers that say "gone" or "later" (beyond the contract, v1.3): a 410 disables the
endpoint at once, tells the owner and cancels what was pending; a 429 or 503 with
Retry-After puts the next attempt no earlier than asked (at most a day on)."""

from datetime import timedelta

from app.domain.kernel.clock import from_db
from app.domain.people import actions as hr
from app.domain.people.employees import roster
from app.domain.webhooks.endpoints import endpoint_notice
from app.models import WebhookDelivery, WebhookEndpoint
from app.notices import endpoint_notice_email
from tests.helpers import create_webhook, deliver_all, pending_deliveries
from tests.receivers import Receiver


def change(sandbox, runtime, title):
    hr.update_employee(sandbox.id, roster(sandbox.id)[0].id, {"job_title": title}, runtime)


def attempts(endpoint_id):
    return list(WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint_id)
                .order_by(WebhookDelivery.created_at, WebhookDelivery.attempt))


def test_a_410_disables_the_endpoint_tells_the_owner_and_cancels_what_was_pending(
        app, client, headers, sandbox, loopback, runtime, clock):
    """(The owner's email goes after commit: tests/e2e/test_webhooks_flow.py reads it.)"""
    with Receiver(status=410, body=b"no such hook") as gone:
        endpoint = create_webhook(client, headers, gone.url, ["employee.updated"]).get_json()
        change(sandbox, runtime, "Clerk")
        pending_deliveries(clock.now())  # one waiting behind the first
        change(sandbox, runtime, "Senior Clerk")
        deliver_all(app)
        assert len(gone.requests) == 1  # the second was never sent
    seen = client.get(f"/v1/webhooks/{endpoint['id']}", headers=headers).get_json()
    assert seen["active"] is False and seen["disabled_reason"] == "endpoint_gone"
    rows = attempts(endpoint["id"])
    assert {row.status for row in rows} == {"failed"} and all(row.next_retry_at is None for row in rows)
    assert any(row.response_status == 410 for row in rows)
    assert any(row.error and "410 Gone" in row.error for row in rows)
    # Re-enabled, it receives again.
    assert client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"active": True}).status_code == 200
    assert WebhookEndpoint.get_by_id(endpoint["id"]).disabled_reason is None


def test_the_owners_email_says_the_receiver_answered_gone(app, client, headers, loopback, clock):
    with Receiver(status=410) as gone:
        endpoint = create_webhook(client, headers, gone.url).get_json()
    notice = endpoint_notice(endpoint["id"], "gone")
    with app.app_context():
        subject, body = endpoint_notice_email(notice, None)
    assert notice.recipients and subject.startswith("Webhook endpoint gone") and "410 Gone" in body


def test_retry_after_puts_the_next_attempt_no_earlier_than_asked(app, client, headers, sandbox, loopback, runtime,
                                                                  clock):
    for status, header, later in ((503, "3600", timedelta(hours=1)), (429, "90000", timedelta(hours=24)),
                                  (503, None, timedelta(minutes=1)), (500, "3600", timedelta(minutes=1)),
                                  (503, "5", timedelta(minutes=1))):  # never earlier than the schedule
        headers_sent = {"Retry-After": header} if header else {}
        with Receiver(status=status, headers=headers_sent) as busy:
            endpoint = create_webhook(client, headers, busy.url, ["employee.updated"]).get_json()
            change(sandbox, runtime, f"Clerk {status} {header}")
            deliver_all(app)
            WebhookEndpoint.update(active=False).where(WebhookEndpoint.id == endpoint["id"]).execute()
        first, retry = attempts(endpoint["id"])
        assert (first.status, first.response_status) == ("failed", status)
        assert retry.attempt == 2 and from_db(retry.due_at) == clock.now() + later, (status, header)
        shown = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"]
        assert {d["next_retry_at"] for d in shown if d["next_retry_at"]} == {
            (clock.now() + later).strftime("%Y-%m-%dT%H:%M:%SZ")}


def test_with_v1_3_off_a_410_and_retry_after_are_ordinary_failures(app, client, headers, sandbox, loopback,
                                                                  runtime, clock, monkeypatch, live_releases):
    live_releases(["v1.0", "v1.1", "v1.2"])
    with Receiver(status=410) as gone:
        endpoint = create_webhook(client, headers, gone.url, ["employee.updated"]).get_json()
        change(sandbox, runtime, "Clerk")
        deliver_all(app)
    assert WebhookEndpoint.get_by_id(endpoint["id"]).active
    first, retry = attempts(endpoint["id"])
    assert retry.status == "pending" and from_db(retry.due_at) == clock.now() + timedelta(minutes=1)
