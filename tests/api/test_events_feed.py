"""The events feed (v1.3): listEvents and getEvent through the Flask client, on whichever
database the suite runs. The events are the outbox's own rows, byte for byte; what a
credential sees follows its scopes; cursors are tied to their query; 30 days are kept."""

import json
from datetime import timedelta

import pytest

from app.domain import sandbox_triggers as sandboxes
from app.domain.kernel import events
from app.domain.kernel.clock import to_db
from app.domain.oauth import apps
from app.domain.oauth.connections import issue_code, s256
from app.jobs.outbox import prune_events
from app.models import OutboxEvent, User, WebhookDelivery
from tests.conftest import bearer
from tests.helpers import assert_problem, create_webhook, deliver_all

FEED_TYPES = ["employee.created", "employee.updated", "employee.left", "payroll_run.finalized",
              "payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted", "attendance.rejected"]


def fire(company, event_type, runtime, clock):
    """A second later, make `event_type` happen in the sandbox; the new event's id."""
    clock.advance(seconds=1)
    if event_type == "attendance.rejected":
        return events.emit(company, event_type, {"external_id": "pos-1", "event_id": None,
                                                 "reason": "orphan_clock_out", "detail": None}, runtime)
    if event_type == "ping":
        return events.emit(company, event_type, {"webhook_id": "wh_none"}, runtime)
    sandboxes.trigger(company, event_type, runtime)
    return OutboxEvent.get(OutboxEvent.company == company.id, OutboxEvent.type == event_type,
                           OutboxEvent.created_at == to_db(clock.now())).id


@pytest.fixture
def every_type(sandbox, runtime, clock):
    """One more event of each type, ping included."""
    for event_type in ("employee.updated", "employee.left", "payroll_run.paid", "payroll_run.corrected",
                       "attendance.rejected", "payroll_run.deleted", "ping", "employee.created"):
        fire(sandbox, event_type, runtime, clock)
    return sandbox


def stored(company, types=FEED_TYPES):
    """The company's events of `types` as the outbox holds them: {id: payload text}."""
    return {row.id: row.payload for row in OutboxEvent.select().where(OutboxEvent.company == company.id,
                                                                      OutboxEvent.type.in_(types))}


def walk(client, headers, query="", limit=3):
    """Every page of the feed from the start: the raw texts of the events, in order."""
    pages, cursor = [], None
    while True:
        url = f"/v1/events?limit={limit}{query}" + (f"&cursor={cursor}" if cursor else "")
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        pages.append(answer)
        cursor = answer.get_json()["next_cursor"]
        if cursor is None:
            return pages


def texts(pages):
    """The events of the pages, each as JSON text written as the outbox writes it."""
    return [json.dumps(event, ensure_ascii=False, separators=(",", ":"))
            for page in pages for event in page.get_json()["data"]]


def test_the_feed_is_the_outbox_byte_for_byte_oldest_first_without_pings(client, headers, every_type):
    pages = walk(client, headers)
    outbox = stored(every_type)
    listed = texts(pages)
    assert sorted(listed) == sorted(outbox.values()) and len(listed) == len(set(listed))
    for text in listed:  # the body carries each stored envelope verbatim
        assert any(text.encode() in page.get_data() for page in pages)
    times = [page_event["created_at"] for page in pages for page_event in page.get_json()["data"]]
    assert times == sorted(times)
    assert OutboxEvent.select().where(OutboxEvent.company == every_type.id, OutboxEvent.type == "ping").exists()
    assert "ping" not in {event["type"] for page in pages for event in page.get_json()["data"]}


def test_asking_after_the_last_event_handled_gives_what_came_since_once(client, headers, sandbox, runtime, clock):
    listed = [event["id"] for page in walk(client, headers) for event in page.get_json()["data"]]
    assert client.get(f"/v1/events?after={listed[-1]}", headers=headers).get_json() == {"data": [],
                                                                                        "next_cursor": None}
    news = [fire(sandbox, "employee.updated", runtime, clock) for _ in range(4)]
    pages = walk(client, headers, f"&after={listed[-1]}")
    assert [event["id"] for page in pages for event in page.get_json()["data"]] == news
    middle = [event["id"] for page in walk(client, headers, f"&after={listed[2]}") for event in page.get_json()["data"]]
    assert middle == listed[3:] + news
    assert_problem(client.get("/v1/events?after=evt_nope", headers=headers), 400, "invalid_request")


def test_types_and_since_narrow_the_feed(client, headers, every_type, clock, runtime):
    chosen = walk(client, headers, "&types=employee.left,payroll_run.paid")
    assert sorted(texts(chosen)) == sorted(stored(every_type, ["employee.left", "payroll_run.paid"]).values())
    clock.advance(hours=1)
    since = clock.now()
    later_event = fire(every_type, "employee.updated", runtime, clock)
    at_plus_three = since.strftime("%Y-%m-%dT%H:%M:%S") + "%2B03:00"  # three hours before `since` in UTC
    assert [e["id"] for p in walk(client, headers, f"&since={at_plus_three}") for e in p.get_json()["data"]] != []
    in_utc = since.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert [e["id"] for p in walk(client, headers, f"&since={in_utc}") for e in p.get_json()["data"]] == [later_event]


@pytest.mark.parametrize("query, says", [
    ("types=ping", "ping"),
    ("types=employee.hired", "employee.hired"),
    ("types=", "''"),
    ("since=2026-11-20", "RFC 3339"),
    ("since=2026-11-20T00:00:00", "RFC 3339"),
    ("limit=0", "limit"),
    ("limit=201", "limit"),
    ("cursor=abc", "cursor"),
    ("order=desc", "order"),
])
def test_bad_queries_are_400_naming_what_is_wrong(client, headers, query, says):
    answer = client.get(f"/v1/events?{query}", headers=headers)
    assert_problem(answer, 400, "invalid_request")
    assert says in answer.get_json()["detail"], answer.get_json()["detail"]


def test_a_cursor_works_only_for_its_own_query(client, headers, every_type):
    cursor = client.get("/v1/events?limit=2", headers=headers).get_json()["next_cursor"]
    assert_problem(client.get(f"/v1/events?limit=2&types=employee.left&cursor={cursor}", headers=headers),
                   400, "invalid_request")
    forged = cursor[:-2] + ("AA" if not cursor.endswith("AA") else "BB")
    assert_problem(client.get(f"/v1/events?cursor={forged}", headers=headers), 400, "invalid_request")
    assert client.get(f"/v1/events?limit=7&cursor={cursor}", headers=headers).status_code == 200  # limit may change


def test_get_event_is_the_stored_envelope_and_404_for_others(client, headers, every_type, make_sandbox, make_key):
    for event_id, payload in stored(every_type).items():
        answer = client.get(f"/v1/events/{event_id}", headers=headers)
        assert answer.status_code == 200 and answer.get_data(as_text=True) == payload
        assert answer.mimetype == "application/json"
    ping = OutboxEvent.get(OutboxEvent.company == every_type.id, OutboxEvent.type == "ping")
    assert_problem(client.get(f"/v1/events/{ping.id}", headers=headers), 404, "not_found")
    assert_problem(client.get("/v1/events/evt_nope", headers=headers), 404, "not_found")
    other = make_sandbox("SA")
    theirs = next(iter(stored(other)))
    assert_problem(client.get(f"/v1/events/{theirs}", headers=headers), 404, "not_found")
    assert theirs not in {e["id"] for p in walk(client, headers, limit=200) for e in p.get_json()["data"]}
    assert client.get(f"/v1/events/{theirs}", headers=bearer(make_key(other))).status_code == 200


@pytest.mark.parametrize("scopes, sees", [
    (["employees:read"], ["employee.created", "employee.updated", "employee.left"]),
    (["payroll:read"], ["payroll_run.finalized", "payroll_run.paid", "payroll_run.corrected", "payroll_run.deleted"]),
    (["attendance:read"], ["attendance.rejected"]),
    (["attendance:write"], ["attendance.rejected"]),
    (["webhooks:manage"], []),
    ([], []),
])
def test_a_key_sees_the_events_its_scopes_read(client, every_type, make_key, scopes, sees):
    key = bearer(make_key(every_type, scopes=scopes))
    listed = texts(walk(client, key))
    assert sorted(listed) == sorted(stored(every_type, sees).values())
    for event_id in stored(every_type, sorted(set(FEED_TYPES) - set(sees))):
        assert_problem(client.get(f"/v1/events/{event_id}", headers=key), 404, "not_found")
    # asking for a type the key does not read is no error: the feed has none of it
    assert client.get("/v1/events?types=payroll_run.paid", headers=key).status_code == 200


def test_an_oauth_token_sees_what_its_scopes_read(client, every_type, clock):
    made, secret = apps.create_app(every_type, "Ledgerly", ["https://partner.example/cb"], ["payroll:read"], clock)
    owner = User.get_by_id(every_type.sandbox_owner_id)
    verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    code = issue_code(made, owner, every_type, "https://partner.example/cb", ["payroll:read"], s256(verifier), clock)
    tokens = client.post("/oauth/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": "https://partner.example/cb",
        "code_verifier": verifier, "client_id": made.id, "client_secret": secret}).get_json()
    token = bearer(tokens["access_token"])
    payroll_events = [t for t in FEED_TYPES if t.startswith("payroll_run.")]
    assert sorted(texts(walk(client, token))) == sorted(stored(every_type, payroll_events).values())


def test_a_webhook_and_the_feed_carry_the_same_bytes(client, headers, sandbox, runtime, clock, loopback, receiver,
                                                     app):
    endpoint = create_webhook(client, headers, receiver.url).get_json()
    event_id = fire(sandbox, "employee.updated", runtime, clock)
    deliver_all(app)
    delivered = WebhookDelivery.get(WebhookDelivery.endpoint == endpoint["id"], WebhookDelivery.event == event_id)
    body = next(request["body"] for request in receiver.requests if event_id.encode() in request["body"])
    assert client.get(f"/v1/events/{event_id}", headers=headers).get_data() == body
    assert delivered.status == "succeeded"


def test_the_nightly_prune_drops_events_older_than_30_days_with_their_deliveries(app, client, headers, sandbox,
                                                                                  clock, runtime, loopback, receiver):
    create_webhook(client, headers, receiver.url)
    old = fire(sandbox, "employee.updated", runtime, clock)
    deliver_all(app)
    undispatched = fire(sandbox, "employee.updated", runtime, clock)
    OutboxEvent.update(dispatched_at=None).where(OutboxEvent.id == undispatched).execute()
    clock.advance(days=events.EVENT_DAYS, seconds=1)
    recent = fire(sandbox, "employee.updated", runtime, clock)
    assert WebhookDelivery.select().where(WebhookDelivery.event == old).exists()
    with app.app_context():
        removed = prune_events()
    assert removed >= 1
    assert not OutboxEvent.select().where(OutboxEvent.id == old).exists()
    assert not WebhookDelivery.select().where(WebhookDelivery.event == old).exists()
    assert OutboxEvent.select().where(OutboxEvent.id.in_([undispatched, recent])).count() == 2  # not handed on yet
    assert_problem(client.get(f"/v1/events/{old}", headers=headers), 404, "not_found")
    assert OutboxEvent.select().where(OutboxEvent.company == sandbox.id,
                                      OutboxEvent.created_at < to_db(clock.now() - timedelta(days=30)),
                                      OutboxEvent.dispatched_at.is_null(False)).count() == 0


def test_without_v1_3_the_feed_is_not_there(app, client, headers, every_type, monkeypatch, live_releases):
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert_problem(client.get("/v1/events", headers=headers), 404, "not_found")
    event_id = next(iter(stored(every_type)))
    assert_problem(client.get(f"/v1/events/{event_id}", headers=headers), 404, "not_found")
    monkeypatch.setitem(app.config, "LIVE_OPERATIONS", ["listEvents"])
    assert client.get("/v1/events", headers=headers).status_code == 200
