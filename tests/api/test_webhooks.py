"""Webhooks v1.2 through the API, against a real receiver on loopback: endpoints owned
by their key, URL rules, signed deliveries of the stored envelope, retries on the
contract's schedule, the failure streak, the log and redelivery."""

import base64
import hashlib
import hmac
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from standardwebhooks import Webhook

from app.domain import credentials
from app.domain.access import keys
from app.domain.kernel.clock import to_db
from app.domain.kernel.sealing import Sealer
from app.domain.people import actions as hr
from app.domain.people.employees import roster
from app.domain.webhooks import claims, deliveries, sending
from app.egress import Sender
from app.jobs.outbox import dispatch_events
from app.jobs.webhooks import send_deliveries
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint
from app.models.base import among, insert_rows, update_rows
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all, ok, pending_deliveries, refused
from tests.receivers import Receiver

EVENTS = ["employee.created", "employee.updated", "employee.left"]


def independent_signature(secret, timestamp, body):
    """The contract's scheme, written again here: hex HMAC-SHA256 of "<t>.<raw body>"."""
    return hmac.new(secret.encode("utf-8"), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def test_an_endpoint_is_created_once_with_its_secret_and_then_seen_without(client, headers, loopback, receiver):
    made = create_webhook(client, headers, receiver.url)
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert body["secret"].startswith("whsec_") and len(base64.b64decode(body["secret"][6:], validate=True)) == 32
    assert body["events"] == EVENTS and body["active"] is True and body["disabled_reason"] is None
    stored = WebhookEndpoint.get_by_id(body["id"])
    assert body["secret"] not in stored.secret_sealed  # sealed, not in clear
    listed = client.get("/v1/webhooks", headers=headers).get_json()["data"]
    assert [e["id"] for e in listed] == [body["id"]] and "secret" not in listed[0]
    assert "secret" not in client.get(f"/v1/webhooks/{body['id']}", headers=headers).get_json()


def test_another_key_of_the_same_company_neither_sees_nor_finds_it(client, headers, sandbox, make_key, loopback,
                                                                    receiver):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    other = bearer(make_key(sandbox))
    assert client.get("/v1/webhooks", headers=other).get_json() == {"data": []}
    for method, path in (("get", ""), ("patch", ""), ("delete", ""), ("post", "/test"), ("get", "/deliveries")):
        response = getattr(client, method)(f"/v1/webhooks/{endpoint['id']}{path}", headers=other,
                                           **({"json": {"active": True}} if method == "patch" else {}))
        assert_problem(response, 404, "not_found")
    assert client.get(f"/v1/webhooks/{endpoint['id']}", headers=headers).status_code == 200


@pytest.mark.parametrize("events,paths", [
    (["employee.hired"], ["events[0]"]), ([], ["events"]),
    (["employee.created", "employee.created"], ["events[1]"]), ("employee.created", ["events"]),
    (["employee.created", "nope", "ping", "ping"], ["events[1]", "events[3]"]), (["\ud800"], ["events[0]"]),
])
def test_events_are_checked_item_by_item(client, headers, loopback, receiver, events, paths):
    response = create_webhook(client, headers, receiver.url, events)
    assert_problem(response, 422, "validation_failed")
    assert [e["path"] for e in response.get_json()["errors"]] == paths


def test_ping_may_be_subscribed_to_like_every_event_type_of_the_contract(client, headers, loopback, receiver):
    """Contract, Webhooks rule 5: `events` holds values of the event types under Events,
    `ping` among them."""
    made = create_webhook(client, headers, receiver.url, ["ping", "employee.created"])
    assert made.status_code == 201 and made.get_json()["events"] == ["ping", "employee.created"]
    changed = client.patch(f"/v1/webhooks/{made.get_json()['id']}", headers=headers, json={"events": ["ping"]})
    assert changed.status_code == 200 and changed.get_json()["events"] == ["ping"]


@pytest.mark.parametrize("url", ["https://93.184.216.34/\ud800x", "https://93.184.216.34/a\u0000b",
                                 "https://\udcff.example/h"])
def test_a_url_no_database_can_store_is_422_naming_url_and_changes_nothing(client, headers, loopback, receiver,
                                                                           url):
    response = create_webhook(client, headers, url)
    assert_problem(response, 422, "validation_failed")
    assert [e["path"] for e in response.get_json()["errors"]] == ["url"]
    made = create_webhook(client, headers, receiver.url).get_json()
    changed = client.patch(f"/v1/webhooks/{made['id']}", headers=headers, json={"url": url})
    assert_problem(changed, 422, "validation_failed")
    assert [e["path"] for e in changed.get_json()["errors"]] == ["url"]
    assert client.get(f"/v1/webhooks/{made['id']}", headers=headers).get_json()["url"] == receiver.url


@pytest.mark.parametrize("url", ["https://127.0.0.1/h", "https://2130706433/h", "https://[::1]/h",
                                 "https://10.0.0.1/h", "https://169.254.169.254/h", "http://93.184.215.14/h",
                                 "https://user:pw@93.184.215.14/h", "https://93.184.215.14/" + "a" * 2048, 17])
def test_urls_off_the_public_internet_are_refused(client, headers, url):
    response = create_webhook(client, headers, url)
    assert_problem(response, 422, "validation_failed")
    assert [e["path"] for e in response.get_json()["errors"]] == ["url"]
    assert WebhookEndpoint.select().count() == 0


def test_a_receiver_on_the_developers_own_machine_is_told_which_setting_allows_it(client, headers):
    for url in ("https://127.0.0.1:8443/hook", "https://192.168.1.20/hook"):
        [error] = create_webhook(client, headers, url).get_json()["errors"]
        assert "WEBHOOK_ALLOW_PRIVATE_NETWORKS" in error["message"] and "shell" in error["message"]


def test_a_public_address_is_accepted_without_any_allowance(client, headers):
    assert create_webhook(client, headers, "https://93.184.215.14/hook").status_code == 201


def test_bad_bodies_are_problems_and_change_nothing(client, headers, loopback, receiver):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    path = f"/v1/webhooks/{endpoint['id']}"
    assert_problem(client.post("/v1/webhooks", headers=headers, data="{", content_type="application/json"),
                   400, "invalid_request")
    assert_problem(client.patch(path, headers=headers, json=["active"]), 422, "validation_failed")
    assert_problem(client.patch(path, headers=headers, json={"active": "yes"}), 422, "validation_failed")
    assert_problem(client.patch(path, headers=headers, json={"url": "https://10.0.0.1/x"}), 422, "validation_failed")
    endpoint.pop("secret")
    assert client.get(path, headers=headers).get_json() == endpoint


def test_revoking_the_key_disables_its_endpoints_and_patch_re_enables(client, sandbox, make_key, loopback, receiver,
                                                                       runtime):
    secret = make_key(sandbox)
    endpoint = create_webhook(client, bearer(secret), receiver.url).get_json()
    key = keys.ApiKey.get(keys.ApiKey.secret_hash == keys.hash_secret(secret))
    credentials.revoke_key(key.id, runtime)
    stored = WebhookEndpoint.get_by_id(endpoint["id"])
    assert not stored.active and stored.disabled_reason == "key_revoked"


def test_manual_disable_and_re_enable(client, headers, loopback, receiver):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    path = f"/v1/webhooks/{endpoint['id']}"
    off = client.patch(path, headers=headers, json={"active": False}).get_json()
    assert off["active"] is False and off["disabled_reason"] == "manual"
    on = client.patch(path, headers=headers, json={"active": True, "events": ["employee.left"]}).get_json()
    assert on["active"] is True and on["disabled_reason"] is None and on["events"] == ["employee.left"]


def test_an_hr_action_is_delivered_signed_byte_for_byte(app, client, headers, sandbox, loopback, receiver, runtime):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Chief Accountant"}, runtime)
    deliver_all(app)
    [sent] = receiver.requests
    [event] = OutboxEvent.select().where(OutboxEvent.company == sandbox.id, OutboxEvent.type == "employee.updated")
    assert sent["body"] == event.payload.encode()
    assert sent["headers"]["Content-Type"] == "application/json"
    assert "SVC-Partner-API" in sent["headers"]["User-Agent"]
    fields = dict(part.split("=", 1) for part in sent["headers"]["X-SVC-Signature"].split(","))
    assert fields["v1"] == independent_signature(endpoint["secret"], int(fields["t"]), sent["body"])
    [logged] = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"]
    assert logged["status"] == "succeeded" and logged["event_id"] == event.id and logged["attempt"] == 1
    assert logged["request_body"] == event.payload and logged["response_status"] == 200
    assert logged["response_body"] == "ok" and logged["next_retry_at"] is None


def test_a_receivers_bytes_that_are_not_utf8_show_in_the_log_as_replacement_characters(app, client, headers, sandbox,
                                                                                        loopback, runtime):
    """A partner reading the log sees that their receiver answered something there,
    where dropping the bytes showed `ab`, an answer it never gave."""
    with Receiver(status=200, body=b"a\xed\xa0\x80b") as answering:
        endpoint = create_webhook(client, headers, answering.url).get_json()
        hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Cashier"}, runtime)
        deliver_all(app)
        assert len(answering.requests) == 1
    [logged] = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"]
    assert logged["status"] == "succeeded" and logged["response_body"] == "a\ufffd\ufffd\ufffdb"


def test_unsubscribed_events_and_other_companies_are_not_delivered(app, client, headers, sandbox, make_sandbox,
                                                                    loopback, receiver, runtime):
    create_webhook(client, headers, receiver.url, ["employee.left"])
    hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Auditor"}, runtime)
    other = make_sandbox("SA")
    hr.end_employment(other.id, _someone(other), other.created_at.date(), runtime)
    deliver_all(app)
    assert receiver.requests == []


def test_failures_retry_on_the_contracts_schedule_then_stop(app, client, headers, sandbox, loopback, runtime, clock):
    with Receiver(status=503, body=b"down for maintenance") as failing:
        endpoint = create_webhook(client, headers, failing.url).get_json()
        hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Treasurer"}, runtime)
        deliver_all(app)
        waits = [timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2),
                 timedelta(hours=12), timedelta(hours=24)]
        for attempt, wait in enumerate(waits, start=2):
            planned, latest = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries",
                                         headers=headers).get_json()["data"][:2]
            assert (planned["status"], planned["attempt"], planned["sent_at"]) == ("pending", attempt, None)
            assert latest["status"] == "failed" and latest["attempt"] == attempt - 1
            assert latest["next_retry_at"] == (clock.now() + wait).strftime("%Y-%m-%dT%H:%M:%SZ")
            assert planned["next_retry_at"] == latest["next_retry_at"]  # the row that will be sent shows it too
            clock.advance(seconds=wait.total_seconds() - 1)
            deliver_all(app)
            assert len(failing.requests) == attempt - 1  # not yet
            clock.advance(seconds=1)
            deliver_all(app)
            assert len(failing.requests) == attempt
        log = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"]
        assert [d["attempt"] for d in log] == [7, 6, 5, 4, 3, 2, 1]
        assert log[0]["status"] == "failed" and log[0]["next_retry_at"] is None
        assert log[0]["response_status"] == 503 and log[0]["response_body"] == "down for maintenance"
        assert len({d["event_id"] for d in log}) == 1
        clock.advance(days=3)
        deliver_all(app)
        assert len(failing.requests) == 7


def test_seven_days_of_failures_disable_the_endpoint_after_a_warning(app, client, headers, sandbox, loopback,
                                                                       runtime, clock):
    with Receiver(status=500) as failing:
        endpoint = create_webhook(client, headers, failing.url).get_json()
        for day in range(9):
            hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": f"Clerk {day}"}, runtime)
            with app.app_context():
                pending_deliveries(clock.now())
                # Once the endpoint is disabled, nothing more is taken for sending.
                for attempt in claims.claim_many(deliveries.due(clock.now()), clock.now()):
                    outcome = app.extensions["webhook_sender"].post(attempt.url, attempt.body, {})
                    deliveries.record_many([(attempt, outcome)], clock.now(), runtime)
            stored = WebhookEndpoint.get_by_id(endpoint["id"])
            assert (stored.warned_at is not None) == (day >= 3), day  # the owner is warned at 3 days
            assert stored.active == (day < 7), day
            clock.advance(days=1)
    stored = client.get(f"/v1/webhooks/{endpoint['id']}", headers=headers).get_json()
    assert stored["active"] is False and stored["disabled_reason"] == "delivery_failures"
    with app.app_context():
        sent = WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"],
                                              WebhookDelivery.sent_at.is_null(False))
        assert len(failing.requests) == sent.count()
        unsent = WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"],
                                                WebhookDelivery.sent_at.is_null())
        assert unsent.count() > 0 and {(d.status, d.error) for d in unsent} == {
            ("failed", "not sent: the endpoint was disabled (delivery_failures)")}
        assert not deliveries.due(clock.now() + timedelta(days=2))


def test_redelivery_sends_the_same_event_with_a_fresh_signature(app, client, headers, sandbox, loopback, receiver,
                                                                runtime, clock):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Analyst"}, runtime)
    deliver_all(app)
    [first] = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"]
    clock.advance(seconds=90)
    again = client.post(f"/v1/webhooks/{endpoint['id']}/deliveries/{first['id']}/redeliver", headers=headers)
    assert again.status_code == 202
    new = again.get_json()
    assert new["status"] == "pending" and new["event_id"] == first["event_id"] and new["id"] != first["id"]
    deliver_all(app)
    one, two = receiver.requests
    assert one["body"] == two["body"]
    assert one["headers"]["X-SVC-Signature"] != two["headers"]["X-SVC-Signature"]
    client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"active": False})
    assert_problem(client.post(f"/v1/webhooks/{endpoint['id']}/deliveries/{first['id']}/redeliver", headers=headers),
                   409, "conflict")
    assert_problem(client.post(f"/v1/webhooks/{endpoint['id']}/deliveries/whd_nope/redeliver", headers=headers),
                   404, "not_found")


def test_the_test_operation_pings_that_endpoint_alone(app, client, headers, loopback, receiver):
    first = create_webhook(client, headers, receiver.url).get_json()
    create_webhook(client, headers, receiver.url)
    queued = client.post(f"/v1/webhooks/{first['id']}/test", headers=headers)
    assert queued.status_code == 202 and queued.data == b"" and "Content-Type" not in queued.headers
    deliver_all(app)
    [ping] = receiver.requests
    envelope = json.loads(ping["body"])
    assert envelope["type"] == "ping" and envelope["data"] == {"webhook_id": first["id"]}
    assert envelope["livemode"] is False


def test_the_log_filters_by_status_and_refuses_unknown_ones(app, client, headers, sandbox, loopback, receiver,
                                                            runtime):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Cashier"}, runtime)
    path = f"/v1/webhooks/{endpoint['id']}/deliveries"
    pending_deliveries(runtime.now())  # written, not sent yet
    assert [d["status"] for d in client.get(f"{path}?status=pending", headers=headers).get_json()["data"]] == [
        "pending"]
    assert client.get(f"{path}?status=succeeded", headers=headers).get_json()["data"] == []
    assert_problem(client.get(f"{path}?status=sent", headers=headers), 400, "invalid_request")


def test_deleting_an_endpoint_cancels_its_pending_deliveries(app, client, headers, sandbox, loopback, receiver,
                                                             runtime):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Buyer"}, runtime)
    pending_deliveries(runtime.now())  # written, not sent yet
    assert WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"]).count() == 1
    removed = client.delete(f"/v1/webhooks/{endpoint['id']}", headers=headers)
    assert removed.status_code == 204 and removed.data == b"" and "Content-Type" not in removed.headers
    assert WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"]).count() == 0
    deliver_all(app)
    assert receiver.requests == []
    assert_problem(client.get(f"/v1/webhooks/{endpoint['id']}", headers=headers), 404, "not_found")


def _someone(company):
    return roster(company.id)[0].id


def test_dns_rebinding_never_reaches_loopback(app, client, headers, sandbox, monkeypatch, runtime):
    """The name answers a public address when the endpoint is made, then 127.0.0.1: the
    sender judges what it connects to, so the loopback receiver sees no connection."""
    answers = iter([["93.184.215.14"], ["127.0.0.1"], ["127.0.0.1"]])
    with Receiver() as local:
        port = local.server.server_address[1]
        monkeypatch.setitem(app.extensions, "webhook_sender",
                            Sender((), timeout=2, resolver=lambda host, _port: next(answers)))
        OutboxEvent.update(dispatched_at=runtime.now()).where(OutboxEvent.dispatched_at.is_null()).execute()
        endpoint = create_webhook(client, headers, f"https://rebind.example.com:{port}/hook").get_json()
        assert endpoint["active"] is True
        client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
        deliver_all(app)
        assert local.requests == []
        [logged] = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"][1:]
        assert logged["status"] == "failed" and logged["response_status"] is None


def test_a_redirect_is_a_failure_and_is_not_followed(app, client, headers, loopback, receiver):
    with Receiver(status=302, body=b"", headers={"Location": receiver.url}) as redirecting:
        endpoint = create_webhook(client, headers, redirecting.url).get_json()
        client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
        deliver_all(app)
        assert len(redirecting.requests) == 1 and receiver.requests == []
    logged = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"]
    assert [(d["status"], d["response_status"]) for d in logged] == [("pending", None), ("failed", 302)]


def test_an_answer_slower_than_the_limit_is_a_timeout(app, client, headers, loopback):
    with Receiver(delay=2.5) as slow:
        endpoint = create_webhook(client, headers, slow.url).get_json()
        client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
        deliver_all(app)  # the loopback fixture's sender allows 2 seconds
    failed = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"][1]
    assert failed["status"] == "failed" and failed["response_status"] is None and failed["duration_ms"] >= 1900


def _burst(app, sandbox, runtime, titles):
    """HR updates whose events one dispatch job takes together (what an older worker's
    queued dispatch_events still does)."""
    for title in titles:
        hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": title}, runtime)
    with app.app_context():
        pending = [event.id for event in OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null())]
        assert dispatch_events(pending) == len(titles)


def _attempts(endpoint_id):
    return list(WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint_id)
                .order_by(WebhookDelivery.event, WebhookDelivery.attempt))


def test_an_endpoint_that_does_not_answer_holds_up_its_own_lane_only(app, client, headers, sandbox, loopback,
                                                                     receiver, runtime):
    with Receiver(delay=2.5) as hanging:
        stuck = create_webhook(client, headers, hanging.url, ["employee.updated"]).get_json()
        healthy = create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()
        _burst(app, sandbox, runtime, ["Clerk", "Senior Clerk", "Head Clerk"])
        assert len(hanging.requests) == 1  # one 2-second wait (the loopback sender's limit), not three
    assert len(receiver.requests) == 3
    tried = [a for a in _attempts(stuck["id"]) if a.attempt == 1]
    [first] = [a for a in tried if a.error.startswith("timeout")]  # the one sent (they share a created_at)
    rest = [a for a in tried if a.id != first.id]
    assert first.sent_at is not None
    assert [(a.status, a.response_status, a.error) for a in rest] == [
        ("failed", None, f"not sent: the attempt before it to this endpoint got no answer ({first.error})")] * 2
    assert all(a.next_retry_at is not None for a in [first, *rest])  # each follows the retry schedule
    assert {a.status for a in _attempts(healthy["id"])} == {"succeeded"}


def test_a_lane_out_of_time_gives_its_unsent_attempts_back(app, client, headers, sandbox, loopback, receiver,
                                                          runtime, monkeypatch):
    endpoint = create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()
    monkeypatch.setattr(sending, "LANE_SECONDS", -1)  # out of time after each attempt
    _burst(app, sandbox, runtime, ["Clerk", "Senior Clerk", "Head Clerk"])
    assert len(receiver.requests) == 1
    given_back = [a for a in _attempts(endpoint["id"]) if a.status == "pending"]
    assert [(a.attempt, a.sent_at) for a in given_back] == [(1, None), (1, None)]  # not counted as sent
    deliver_all(app)
    assert len(receiver.requests) == 3
    assert [(a.status, a.attempt) for a in _attempts(endpoint["id"])] == [("succeeded", 1)] * 3


def test_a_retry_for_an_endpoint_disabled_meanwhile_is_not_sent(app, client, sandbox, make_key, loopback,
                                                                 runtime, clock):
    secret = make_key(sandbox)
    with Receiver(status=500) as failing:
        endpoint = create_webhook(client, bearer(secret), failing.url).get_json()
        hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": "Cashier"}, runtime)
        deliver_all(app)
        credentials.revoke_key(keys.ApiKey.get(keys.ApiKey.secret_hash == keys.hash_secret(secret)).id, runtime)
        clock.advance(minutes=1)
        deliver_all(app)
        assert len(failing.requests) == 1
    first, retry = _attempts(endpoint["id"])
    assert first.status == "failed" and first.next_retry_at is not None
    assert (retry.status, retry.sent_at, retry.next_retry_at, retry.error) == (
        "failed", None, None, "not sent: the endpoint was disabled (key_revoked)")
    with app.app_context():
        assert deliveries.due(clock.now() + timedelta(days=3)) == []


def test_a_disabled_endpoint_still_gets_its_test_ping(app, client, headers, loopback, receiver, clock):
    """So a fixed receiver can be checked before the endpoint is re-enabled; the ping goes
    through the claim a retry or the sweeper's job takes (Runtime without hand-offs)."""
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"active": False})
    assert client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers).status_code == 202
    with app.app_context():
        [delivery_id] = pending_deliveries(clock.now())
        assert send_deliveries([delivery_id]) == 1
    [ping] = receiver.requests
    assert json.loads(ping["body"])["type"] == "ping"


def test_bulk_writes_set_each_rows_own_values_and_skip_rows_moved_meanwhile(app, client, headers, sandbox, loopback,
                                                                           receiver, runtime, clock):
    """models.base.insert_rows / update_rows, as the delivery paths use them: a column
    that is NULL in every row, and a row whose condition no longer holds."""
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    [event] = OutboxEvent.select().limit(1)
    fields = (WebhookDelivery.id, WebhookDelivery.endpoint, WebhookDelivery.event, WebhookDelivery.event_type,
              WebhookDelivery.attempt, WebhookDelivery.status, WebhookDelivery.due_at, WebhookDelivery.retries,
              WebhookDelivery.created_at)
    now = to_db(clock.now())
    insert_rows(fields, [(f"whd_{n}", endpoint["id"], event.id, event.type, 1, "sending", now, True, now)
                         for n in range(3)])
    WebhookDelivery.update(status="succeeded").where(WebhookDelivery.id == "whd_2").execute()
    changed = update_rows(
        (WebhookDelivery.status, WebhookDelivery.response_status, WebhookDelivery.error),
        [("failed", None, "refused", "whd_0"), ("failed", None, "timeout", "whd_1"), ("failed", None, "late", "whd_2")],
        only_if=(WebhookDelivery.status, "sending"))
    assert changed == {"whd_0", "whd_1"}
    stored = {d.id: (d.status, d.response_status, d.error) for d in WebhookDelivery.select().where(
        WebhookDelivery.id.in_(["whd_0", "whd_1", "whd_2"]))}
    assert stored == {"whd_0": ("failed", None, "refused"), "whd_1": ("failed", None, "timeout"),
                      "whd_2": ("succeeded", None, None)}
    assert update_rows((WebhookDelivery.status,), [], only_if=(WebhookDelivery.status, "sending")) == set()


HOSTILE_TEXTS = ['say "hi"', "back\\slash", "\\\"", "{braces}", "a,b", "NULL", "null", " NULL ", "", "  ", "it's",
                 "new\nline\ttab", " padded ", "العربية ✓", "]}\\,\"{[", "\\N", "emoji 👩‍💻 \U0010ffff", "\x01\x1f\x7f"]


def test_bulk_writes_store_every_text_and_time_as_given(app, client, headers, sandbox, loopback, receiver, clock):
    """Bulk writes pass each column as one array literal on PostgreSQL: quotes,
    backslashes, braces, commas, the word NULL, empty and non-ASCII texts, and times with
    and without microseconds come back exactly as written; NULL stays NULL."""
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    [event] = OutboxEvent.select().limit(1)
    fields = (WebhookDelivery.id, WebhookDelivery.endpoint, WebhookDelivery.event, WebhookDelivery.event_type,
              WebhookDelivery.attempt, WebhookDelivery.status, WebhookDelivery.due_at, WebhookDelivery.retries,
              WebhookDelivery.created_at)
    whole, fine = datetime(2026, 11, 26, 5, 0, 0), datetime(2026, 11, 26, 5, 0, 0, 123456)
    insert_rows(fields, [(f"whd_{n}", endpoint["id"], event.id, text, n, "sending", whole, n % 2 == 0, fine)
                         for n, text in enumerate(HOSTILE_TEXTS)])
    ended = [("failed", text, None if n % 3 else text, f"whd_{n}") for n, text in enumerate(HOSTILE_TEXTS)]
    changed = update_rows((WebhookDelivery.status, WebhookDelivery.response_body, WebhookDelivery.error), ended,
                          only_if=(WebhookDelivery.status, "sending"))
    assert changed == {f"whd_{n}" for n in range(len(HOSTILE_TEXTS))}
    stored = {d.id: d for d in WebhookDelivery.select().where(WebhookDelivery.id.in_(changed))}
    for n, text in enumerate(HOSTILE_TEXTS):
        row = stored[f"whd_{n}"]
        assert (row.event_type, row.response_body, row.error) == (text, text, None if n % 3 else text), n
        assert (row.attempt, row.retries, row.due_at, row.created_at) == (n, n % 2 == 0, whole, fine), n

    assert {d.id for d in WebhookDelivery.select().where(among(WebhookDelivery.id, ["whd_1", "whd_3", "nope"]))} \
        == {"whd_1", "whd_3"}
    assert not WebhookDelivery.select().where(among(WebhookDelivery.id, [])).exists()


def test_bulk_writes_refuse_on_both_databases_what_one_could_not_write(transaction, clock):
    """A type without an array-literal form (a Decimal, a date), a key given twice, and
    an id with NUL are refused on SQLite as on PostgreSQL, before anything is written."""
    fields = (WebhookDelivery.id, WebhookDelivery.attempt)
    for value in (Decimal("1.5"), clock.now().date(), 1.5):
        with pytest.raises(TypeError, match=f"not {type(value).__name__}"):
            insert_rows(fields, [("whd_typed", value)])
        with pytest.raises(TypeError, match=f"not {type(value).__name__}"):
            update_rows((WebhookDelivery.attempt,), [(value, "whd_typed")], only_if=(WebhookDelivery.status, "x"))
    with pytest.raises(ValueError, match="given twice"):
        update_rows((WebhookDelivery.attempt,), [(1, "whd_a"), (2, "whd_a")], only_if=(WebhookDelivery.status, "x"))
    with pytest.raises(ValueError, match="NUL"):
        list(WebhookDelivery.select().where(among(WebhookDelivery.id, ["whd_a\x00b"])))
    assert not WebhookDelivery.select().where(WebhookDelivery.id.in_(["whd_typed", "whd_a"])).exists()


def test_bulk_writes_refuse_a_time_with_an_offset(transaction, clock):
    """A cast to TIMESTAMP would drop an aware time's offset, not convert it, and SQLite
    would keep text a read does not parse: refused on both, the row not written."""
    with pytest.raises(ValueError, match="naive UTC"):
        insert_rows((WebhookDelivery.id, WebhookDelivery.created_at), [("whd_aware", clock.now())])
    with pytest.raises(ValueError, match="naive UTC"):
        update_rows((WebhookDelivery.sent_at,), [(clock.now(), "whd_aware")], only_if=(WebhookDelivery.status, "x"))
    assert not WebhookDelivery.select().where(WebhookDelivery.id == "whd_aware").exists()


def test_replay_resends_what_an_endpoint_should_have_had(app, client, headers, sandbox, loopback, runtime, clock):
    runner = app.test_cli_runner()
    with Receiver(status=500) as failing:
        endpoint = create_webhook(client, headers, failing.url, ["employee.updated"]).get_json()
        since = clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
        for title in ("Teller", "Senior Teller"):
            hr.update_employee(sandbox.id, _someone(sandbox), {"job_title": title}, runtime)
        hr.end_employment(sandbox.id, _someone(sandbox), sandbox.created_at.date(), runtime)  # not subscribed
        deliver_all(app)
    out = json.loads(ok(runner.invoke(args=["webhooks", "replay", "--endpoint", endpoint["id"], "--since", since,
                                            "--status", "failed", "--json"])))
    assert len(out["deliveries"]) == 2
    refused(runner.invoke(args=["webhooks", "replay", "--endpoint", endpoint["id"], "--since", "yesterday"]),
            "an RFC 3339 time")
    client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"active": False})
    refused(runner.invoke(args=["webhooks", "replay", "--endpoint", endpoint["id"], "--since", since]), "disabled")


def test_after_a_secret_key_rotation_endpoints_still_sign_with_their_secret(app, client, headers, loopback, receiver,
                                                                             monkeypatch, runtime):
    """SECRET_KEY moves to SECRET_KEY_FALLBACKS and a new one takes its place (create_app
    seals with the first and opens with all): secrets sealed before still open, and
    deliveries are signed with the secret partners hold."""
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    new_key = "a-new-secret-key-after-rotation-0123456789"
    rotated = replace(runtime, sealer=Sealer([new_key, app.config["SECRET_KEY"]]))
    monkeypatch.setitem(app.extensions, "runtime", rotated)
    client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
    deliver_all(app)
    [ping] = receiver.requests
    fields = dict(part.split("=", 1) for part in ping["headers"]["X-SVC-Signature"].split(","))
    assert fields["v1"] == independent_signature(endpoint["secret"], int(fields["t"]), ping["body"])
    with pytest.raises(ValueError):  # without the fallback, the old seal cannot be opened
        Sealer([new_key]).open(WebhookEndpoint.get_by_id(endpoint["id"]).secret_sealed)


def test_a_delivery_never_sent_says_why_in_v1_3s_error(app, client, headers, loopback, receiver, monkeypatch,
                                                       live_releases):
    """A sender that may not reach loopback (a command run without the web's
    WEBHOOK_ALLOW_PRIVATE_NETWORKS, say) records the refusal on the delivery."""
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    monkeypatch.setitem(app.extensions, "webhook_sender", Sender(()))  # no private networks
    assert client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers).status_code == 202
    deliver_all(app)
    [logged] = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"][-1:]
    assert logged["status"] == "failed" and logged["response_status"] is None and receiver.requests == []
    assert logged["error"].startswith("refused: ") and "loopback" in logged["error"]
    answered = create_webhook(client, headers, receiver.url)  # refused at create too, as before
    assert answered.status_code == 422
    live_releases(["v1.0", "v1.1", "v1.2"])  # v1.3 off: the contract's shape
    [plain] = client.get(f"/v1/webhooks/{endpoint['id']}/deliveries", headers=headers).get_json()["data"][-1:]
    assert "error" not in plain and plain["id"] == logged["id"]


def test_the_document_marks_the_delivery_error_as_v1_3(client):
    schema = client.get("/v1/openapi.json").get_json()["components"]["schemas"]["WebhookDelivery"]
    assert schema["properties"]["error"]["x-release"] == "v1.3" and "error" not in schema.get("required", [])


def test_a_delivery_carries_the_standard_webhooks_headers_while_v1_3_is_live(app, client, headers, loopback,
                                                                              receiver, monkeypatch, live_releases):
    """Beyond the contract (v1.3): webhook-id, webhook-timestamp and webhook-signature as
    the standardwebhooks package computes them for the secret as shown (its verify()
    also checks the time against the real clock: tests/e2e runs that)."""
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
    deliver_all(app)
    [ping] = receiver.requests
    sent = {name.lower(): value for name, value in ping["headers"].items()}
    envelope = json.loads(ping["body"])
    assert sent["webhook-id"] == envelope["id"]
    assert sent["x-svc-signature"].startswith(f"t={sent['webhook-timestamp']},")  # one moment, both headers
    moment = datetime.fromtimestamp(int(sent["webhook-timestamp"]), UTC)
    assert sent["webhook-signature"] == Webhook(endpoint["secret"]).sign(envelope["id"], moment, ping["body"].decode())
    live_releases(["v1.0", "v1.1", "v1.2"])
    client.post(f"/v1/webhooks/{endpoint['id']}/test", headers=headers)
    deliver_all(app)
    assert not {"webhook-id", "webhook-signature"} & {name.lower() for name in receiver.requests[-1]["headers"]}
