"""replayWebhookEvents (beyond the contract, v1.3): what an endpoint missed since a time,
sent again with the same event ids and bodies, as the CLI's `webhooks replay` does."""

import json
from datetime import timedelta

import pytest

from app.domain.kernel.clock import format_utc, from_db
from app.domain.people import actions as hr
from app.domain.people.employees import roster
from app.models import WebhookDelivery
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all, ok
from tests.receivers import Receiver


def replay(client, headers, webhook_id, **body):
    return client.post(f"/v1/webhooks/{webhook_id}/replay", headers=headers, json=body)


def change(sandbox, runtime, title):
    hr.update_employee(sandbox.id, roster(sandbox.id)[0].id, {"job_title": title}, runtime)


def test_replay_sends_again_what_the_receiver_missed_with_the_same_ids_and_bodies(
        app, client, headers, sandbox, loopback, runtime, clock):
    with Receiver(status=500) as down:
        endpoint = create_webhook(client, headers, down.url, ["employee.updated"]).get_json()
        since = format_utc(clock.now())
        change(sandbox, runtime, "Clerk")
        change(sandbox, runtime, "Senior Clerk")
        deliver_all(app)
        missed = [json.loads(r["body"]) for r in down.requests]
    assert len(missed) == 2 and len({m["id"] for m in missed}) == 2
    with Receiver() as back:
        client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"url": back.url})
        answer = replay(client, headers, endpoint["id"], since=since, status="failed")
        assert answer.status_code == 202 and answer.get_json() == {"queued": 2}
        deliver_all(app)
        again = [json.loads(r["body"]) for r in back.requests]
    by_id = lambda envelopes: sorted(envelopes, key=lambda e: e["id"])  # noqa: E731  (one frozen instant: any order)
    assert by_id(again) == by_id(missed)  # the same events, ids and bodies
    # Now they succeeded: a replay of the failed ones finds none; a whole replay finds both.
    assert replay(client, headers, endpoint["id"], since=since, status="failed").get_json() == {"queued": 0}
    assert replay(client, headers, endpoint["id"], since=since).get_json() == {"queued": 2}


def test_only_events_since_the_time_and_of_the_endpoints_types(app, client, headers, sandbox, loopback, runtime,
                                                              clock, receiver):
    endpoint = create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()
    change(sandbox, runtime, "Before")
    clock.advance(minutes=5)
    since = format_utc(clock.now())
    change(sandbox, runtime, "After")
    hr.end_employment(sandbox.id, roster(sandbox.id)[1].id, sandbox.created_at.date(), runtime)  # not subscribed
    deliver_all(app)  # dispatched: an event not dispatched yet is on its way anyway
    WebhookDelivery.delete().execute()
    assert replay(client, headers, endpoint["id"], since=since).get_json() == {"queued": 1}
    [queued] = WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"],
                                             WebhookDelivery.status == "pending")
    assert queued.event_type == "employee.updated"


@pytest.mark.parametrize("body, path", [
    ({}, "since"), ({"since": "yesterday"}, "since"), ({"since": "2026-11-20T00:00:00"}, "since"),
    ({"since": 1}, "since"), ({"since": "2026-11-20T00:00:00Z", "status": "succeeded"}, "status"),
])
def test_a_bad_body_is_422_naming_the_field(client, headers, loopback, receiver, body, path):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    answer = replay(client, headers, endpoint["id"], **body)
    assert_problem(answer, 422, "validation_failed")
    assert [e["path"] for e in answer.get_json()["errors"]] == [path]


def test_at_most_30_days_back_in_the_api_and_the_cli(app, client, headers, loopback, receiver, clock):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    too_old = format_utc(clock.now() - timedelta(days=30, minutes=1))
    answer = replay(client, headers, endpoint["id"], since=too_old)
    assert_problem(answer, 422, "validation_failed")
    assert answer.get_json()["errors"][0]["path"] == "since" and "30 days" in answer.get_json()["errors"][0]["message"]
    thirty_days = format_utc(clock.now() - timedelta(days=30))
    assert replay(client, headers, endpoint["id"], since=thirty_days).status_code == 202
    refused = app.test_cli_runner().invoke(args=["webhooks", "replay", "--endpoint", endpoint["id"], "--since",
                                                 too_old])
    assert refused.exit_code != 0 and "30 days" in refused.output
    refused = app.test_cli_runner().invoke(args=["webhooks", "replay", "--endpoint", endpoint["id"], "--since",
                                                 "9999-12-31T23:59:59-00:01"])  # past UTC's calendar
    assert refused.exit_code == 1 and "since" in refused.output and "Traceback" not in refused.output
    ok(app.test_cli_runner().invoke(args=["webhooks", "replay", "--endpoint", endpoint["id"], "--since",
                                          format_utc(clock.now())]))


def test_a_disabled_endpoint_is_409_and_another_credentials_is_404(client, headers, sandbox, make_key, loopback,
                                                                   receiver, clock):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    since = format_utc(clock.now())
    client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"active": False})
    assert_problem(replay(client, headers, endpoint["id"], since=since), 409, "conflict")
    other = bearer(make_key(sandbox))  # the same company, another key: not its endpoint
    assert_problem(replay(client, other, endpoint["id"], since=since), 404, "not_found")
    assert_problem(replay(client, headers, "whk_madeup", since=since), 404, "not_found")


def test_it_is_v1_3_and_answers_only_while_v1_3_is_live(app, client, headers, loopback, receiver, clock,
                                                        monkeypatch, live_releases):
    document = client.get("/v1/openapi.json").get_json()
    operation = document["paths"]["/v1/webhooks/{webhook_id}/replay"]["post"]
    assert operation["operationId"] == "replayWebhookEvents" and operation["x-release"] == "v1.3"
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert_problem(replay(client, headers, endpoint["id"], since=format_utc(clock.now())), 404, "not_found")
    monkeypatch.setitem(app.config, "LIVE_OPERATIONS", ["replayWebhookEvents"])
    assert replay(client, headers, endpoint["id"], since=format_utc(clock.now())).status_code == 202


def test_a_misspelt_field_is_422_naming_it_and_nothing_is_queued(client, headers, loopback, receiver, clock):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    since = format_utc(clock.now() - timedelta(days=1))
    answer = replay(client, headers, endpoint["id"], since=since, only_failed=True)  # `status`, misspelt
    assert_problem(answer, 422, "validation_failed")
    assert [e["path"] for e in answer.get_json()["errors"]] == ["only_failed"]
    assert not WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"]).exists()


def pending_events(endpoint_id):
    return [row.event_id for row in WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint_id,
                                                                   WebhookDelivery.status == "pending")]


def test_failed_names_only_the_events_whose_latest_delivery_failed(app, client, headers, sandbox, loopback, runtime,
                                                                   clock):
    """The issue's case: one delivery failed among fourteen that arrived, and the endpoint
    is younger than some of the company's events. `status: failed` queues that one; a
    whole replay queues the endpoint's events from when it existed, never older ones."""
    change(sandbox, runtime, "Before the endpoint")  # dispatched with no endpoint to go to
    deliver_all(app)
    clock.advance(minutes=1)
    since = format_utc(clock.now() - timedelta(hours=1))
    with Receiver() as up:
        endpoint = create_webhook(client, headers, up.url, ["employee.updated"]).get_json()
        for n in range(14):
            clock.advance(seconds=1)
            change(sandbox, runtime, f"Clerk {n}")
            deliver_all(app)
    with Receiver(status=500) as down:
        client.patch(f"/v1/webhooks/{endpoint['id']}", headers=headers, json={"url": down.url})
        clock.advance(seconds=1)
        change(sandbox, runtime, "The one that failed")
        deliver_all(app)
    assert len(down.requests) == 1
    WebhookDelivery.update(due_at=clock.now() + timedelta(hours=2)).where(
        WebhookDelivery.endpoint == endpoint["id"], WebhookDelivery.status == "pending").execute()  # a later retry
    clock.advance(seconds=1)
    answer = replay(client, headers, endpoint["id"], since=since, status="failed")
    assert answer.status_code == 202 and answer.get_json() == {"queued": 1}
    [waiting] = WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint["id"],
                                               WebhookDelivery.status == "pending")
    assert waiting.attempt == 2 and from_db(waiting.due_at) == clock.now()  # its retry, brought forward, not copied
    assert replay(client, headers, endpoint["id"], since=since).get_json() == {"queued": 14}  # 15 events, 1 waiting
    assert len(pending_events(endpoint["id"])) == 15 == len(set(pending_events(endpoint["id"])))


def test_replays_in_a_row_never_queue_an_event_twice(app, client, headers, sandbox, loopback, runtime, clock,
                                                    receiver):
    endpoint = create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()
    since = format_utc(clock.now())
    for n in range(5):
        change(sandbox, runtime, f"Title {n}")
    deliver_all(app)
    counts = [replay(client, headers, endpoint["id"], since=since).get_json()["queued"] for _ in range(30)]
    assert counts == [5] + [0] * 29
    assert len(pending_events(endpoint["id"])) == 5 == len(set(pending_events(endpoint["id"])))
    deliver_all(app)
    assert replay(client, headers, endpoint["id"], since=since).get_json() == {"queued": 5}  # sent: again if asked
