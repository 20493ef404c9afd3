"""`Idempotency-Key` on every POST under /v1 (issue 46 part 4; v1.3, beyond the contract):
the same key and request within 24 hours get the first answer again and nothing is done
twice; another request with the key is 422, the key of a request still running 409, a key
that is not 1 to 255 printable ASCII characters 400. Keys are the company's, kept in the
database, and pruned by the nightly job. On whichever database the suite runs; the
requests at once below hold on PostgreSQL (and SQLite)."""

import json
import threading

import pytest

from app.domain.access import keys
from app.domain.access.users import get_or_create_user
from app.domain.kernel import events, idempotency
from app.domain.kernel.ids import new_id
from app.domain.sandbox import create_sandbox
from app.domain.webhooks import endpoints
from app.domain.webhooks.urls import parse_networks
from app.egress import Sender
from app.jobs import periodic
from app.jobs.idempotency import prune_idempotency_keys
from app.limits import make_limiter
from app.models import ApiKey, AttendanceEvent, IdempotencyKey, OutboxEvent, WebhookDelivery, WebhookEndpoint, db
from tests.api.test_openapi_conformance import contract, validated
from tests.conftest import bearer
from tests.helpers import assert_problem, deliver_all, punch

HOOK = {"url": "http://127.0.0.1:9/hook", "events": ["employee.updated"]}  # loopback: allowed by the fixture
ROUNDS = 10


def keyed(headers, key):
    return {**headers, "Idempotency-Key": key}


def endpoints_of(company):
    return WebhookEndpoint.select().where(WebhookEndpoint.company == company.id).count()


def replays(first, second):
    """`second` is `first` given again, saying so; `first` was not a replay."""
    assert first.status_code == second.status_code, (first.get_data(as_text=True), second.get_data(as_text=True))
    assert second.get_data() == first.get_data()
    assert second.headers.get("Content-Type") == first.headers.get("Content-Type")
    assert second.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert second.headers["X-Request-Id"] != first.headers["X-Request-Id"]  # a request of its own


@pytest.fixture
def document(client):
    return client.get("/v1/openapi.json").get_json()


@pytest.fixture
def endpoint(client, headers, loopback):
    made = client.post("/v1/webhooks", headers=headers, json=HOOK)
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


# The same key and request: the first answer, and nothing done twice, on every POST

def test_a_create_sent_again_gets_the_first_answer_and_makes_one_endpoint(client, headers, sandbox, loopback):
    first = client.post("/v1/webhooks", headers=keyed(headers, "create-1"), json=HOOK)
    # the same JSON written another way (key order, white space) is the same request
    again = client.post("/v1/webhooks", headers=keyed(headers, "create-1"), content_type="application/json",
                        data='{ "events": ["employee.updated"],\n  "url": "http://127.0.0.1:9/hook" }')
    assert first.status_code == 201
    replays(first, again)
    assert again.get_json()["secret"] == first.get_json()["secret"]  # the one secret, shown to its creator again
    kept = IdempotencyKey.get(IdempotencyKey.key == "create-1").body
    assert first.get_json()["secret"].encode() not in bytes(kept)  # sealed: a copy of the database reveals none
    assert endpoints_of(sandbox) == 1
    assert client.post("/v1/webhooks", headers=keyed(headers, "create-2"), json=HOOK).status_code == 201
    assert endpoints_of(sandbox) == 2  # another key is another request


def test_an_ingest_sent_again_is_answered_as_the_first_time(client, headers, sandbox):
    batch = {"events": [punch(1, "clock_in", "2026-11-20T08:00:00+03:00"),
                        punch(2, "clock_out", "2026-11-20T16:00:00+03:00")]}
    first = client.post("/v1/attendance/events", headers=keyed(headers, "batch-7"), json=batch)
    again = client.post("/v1/attendance/events", headers=keyed(headers, "batch-7"), json=batch)
    replays(first, again)
    assert [r["status"] for r in again.get_json()["results"]] == ["accepted", "accepted"]  # not `duplicate`
    assert AttendanceEvent.select().where(AttendanceEvent.company == sandbox.id).count() == 2


def test_a_test_ping_sent_again_is_queued_once(client, headers, sandbox, endpoint):
    first = client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "ping-1"))
    again = client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "ping-1"))
    assert first.status_code == 202 and "Content-Type" not in again.headers
    replays(first, again)
    assert OutboxEvent.select().where(OutboxEvent.company == sandbox.id, OutboxEvent.type == "ping").count() == 1


def test_a_redelivery_sent_again_is_one_new_attempt(app, client, headers, loopback, receiver):
    endpoint = client.post("/v1/webhooks", headers=headers, json={**HOOK, "url": receiver.url}).get_json()["id"]
    client.post(f"/v1/webhooks/{endpoint}/test", headers=headers)
    deliver_all(app)
    [logged] = client.get(f"/v1/webhooks/{endpoint}/deliveries", headers=headers).get_json()["data"]
    url = f"/v1/webhooks/{endpoint}/deliveries/{logged['id']}/redeliver"
    first = client.post(url, headers=keyed(headers, "again-1"))
    again = client.post(url, headers=keyed(headers, "again-1"))
    assert first.status_code == 202
    replays(first, again)
    assert WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint).count() == 2


def test_a_rotation_sent_again_rotates_once(client, headers, endpoint):
    first = client.post(f"/v1/webhooks/{endpoint}/rotate-secret", headers=keyed(headers, "roll-1"),
                        json={"expire_previous_in": 3600})
    again = client.post(f"/v1/webhooks/{endpoint}/rotate-secret", headers=keyed(headers, "roll-1"),
                        json={"expire_previous_in": 3600})
    assert first.status_code == 200
    replays(first, again)  # the secret in force is the one both answers show


def test_a_replay_sent_again_queues_once(client, headers, sandbox, endpoint, runtime, clock):
    clock.advance(seconds=1)
    event = events.emit(sandbox, "employee.updated", {"employee": {"id": "emp_x"}}, runtime)
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.id == event).execute()  # handed on before
    body = {"since": "2026-11-21T00:00:00Z"}
    first = client.post(f"/v1/webhooks/{endpoint}/replay", headers=keyed(headers, "replay-1"), json=body)
    again = client.post(f"/v1/webhooks/{endpoint}/replay", headers=keyed(headers, "replay-1"), json=body)
    assert first.get_json() == {"queued": 1}
    replays(first, again)
    assert WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint).count() == 1


def test_a_sandbox_trigger_sent_again_makes_one_event(client, headers, sandbox):
    before = OutboxEvent.select().where(OutboxEvent.company == sandbox.id).count()
    first = client.post("/v1/sandbox/events", headers=keyed(headers, "trigger-1"), json={"type": "employee.updated"})
    again = client.post("/v1/sandbox/events", headers=keyed(headers, "trigger-1"), json={"type": "employee.updated"})
    assert first.status_code == 201
    replays(first, again)
    assert OutboxEvent.select().where(OutboxEvent.company == sandbox.id).count() == before + 1


# Another request with the key: 422, nothing done

def test_another_body_with_the_key_is_422_and_does_nothing(client, headers, sandbox, loopback):
    assert client.post("/v1/webhooks", headers=keyed(headers, "k-1"), json=HOOK).status_code == 201
    other = client.post("/v1/webhooks", headers=keyed(headers, "k-1"), json={**HOOK, "events": ["employee.left"]})
    problem = assert_problem(other, 422, "idempotency_key_reused")
    assert "another request" in problem["detail"] and "errors" not in problem
    assert "Idempotent-Replayed" not in other.headers
    assert endpoints_of(sandbox) == 1


def test_the_key_on_another_operation_or_credential_is_another_request(client, headers, sandbox, make_key, endpoint):
    assert client.post("/v1/sandbox/events", headers=keyed(headers, "k-2"),
                       json={"type": "employee.updated"}).status_code == 201
    assert_problem(client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "k-2")),
                   422, "idempotency_key_reused")
    # the key is the company's: another credential of it never gets this one's answer
    assert_problem(client.post("/v1/sandbox/events", headers=keyed(bearer(make_key(sandbox)), "k-2"),
                               json={"type": "employee.updated"}), 422, "idempotency_key_reused")


def test_a_key_is_its_companys_alone(client, headers, sandbox, make_sandbox, make_key, loopback):
    elsewhere = make_sandbox("KW")
    first = client.post("/v1/webhooks", headers=keyed(headers, "shared"), json=HOOK)
    there = client.post("/v1/webhooks", headers=keyed(bearer(make_key(elsewhere)), "shared"), json=HOOK)
    assert first.status_code == there.status_code == 201 and "Idempotent-Replayed" not in there.headers
    assert endpoints_of(sandbox) == endpoints_of(elsewhere) == 1


# A key still running: 409; a request that died lets go of it

def test_a_key_held_by_a_request_that_died_is_409_until_its_lease_runs_out(client, headers, sandbox, clock, runtime):
    body = {"type": "employee.updated"}
    # What a process killed in the middle of this very request leaves: the key claimed, never answered.
    credential = f"api_key:{ApiKey.get(ApiKey.company == sandbox.id).id}"
    request = idempotency.fingerprint(credential, "POST", "/v1/sandbox/events?", json.dumps(body).encode())
    claimed = idempotency.claim(sandbox.id, "orphan", request, clock.now(), runtime.sealer)
    assert isinstance(claimed, idempotency.Claimed)
    assert_problem(client.post("/v1/sandbox/events", headers=keyed(headers, "orphan"), json=body),
                   409, "idempotency_key_in_use")
    clock.advance(seconds=idempotency.LEASE.total_seconds())
    taken = client.post("/v1/sandbox/events", headers=keyed(headers, "orphan"), json=body)
    assert taken.status_code == 201 and "Idempotent-Replayed" not in taken.headers
    replays(taken, client.post("/v1/sandbox/events", headers=keyed(headers, "orphan"), json=body))


# What is not kept: refusals before or in the operation, and server faults

def test_a_refused_request_keeps_nothing_and_frees_the_key(client, headers, sandbox, loopback):
    bad = client.post("/v1/webhooks", headers=keyed(headers, "fix-me"), json={**HOOK, "events": ["nope"]})
    assert_problem(bad, 422, "validation_failed")
    assert_problem(client.post("/v1/webhooks", headers=keyed(headers, "fix-me"), data="{",
                               content_type="application/json"), 400, "invalid_request")
    assert_problem(client.post("/v1/webhooks/whk_nope/test", headers=keyed(headers, "fix-me")), 404, "not_found")
    fixed = client.post("/v1/webhooks", headers=keyed(headers, "fix-me"), json=HOOK)  # corrected, same key
    assert fixed.status_code == 201 and "Idempotent-Replayed" not in fixed.headers
    assert endpoints_of(sandbox) == 1


def test_a_401_or_429_is_never_the_first_answer(app, client, sandbox, make_key, monkeypatch, clock, loopback):
    assert_problem(client.post("/v1/webhooks", headers={"Authorization": "Bearer svc_test_nope",
                                                        "Idempotency-Key": "first"}, json=HOOK),
                   401, "unauthenticated")
    monkeypatch.setattr(app.extensions["authenticator"], "limiter", make_limiter(1, app.extensions["redis"]))
    fresh = bearer(make_key(sandbox))
    assert client.post("/v1/webhooks", headers=keyed(fresh, "first"), json=HOOK).status_code == 201
    assert_problem(client.post("/v1/webhooks", headers=keyed(fresh, "second"), json=HOOK), 429, "rate_limited")
    clock.advance(seconds=60)
    made = client.post("/v1/webhooks", headers=keyed(fresh, "second"), json=HOOK)
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers
    assert endpoints_of(sandbox) == 2


def test_a_server_fault_frees_the_key(app, client, headers, sandbox, monkeypatch, loopback):
    real = endpoints.create_endpoint

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(endpoints, "create_endpoint", broken)
    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)
    assert_problem(client.post("/v1/webhooks", headers=keyed(headers, "retry-me"), json=HOOK), 500, "internal_error")
    monkeypatch.setattr(endpoints, "create_endpoint", real)
    made = client.post("/v1/webhooks", headers=keyed(headers, "retry-me"), json=HOOK)
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers
    assert endpoints_of(sandbox) == 1


# The key itself

@pytest.mark.parametrize("sent", ["x" * 256, "caf\u00e9", "tab\there", "\x7f", '""'])
def test_a_key_that_is_not_1_to_255_printable_ascii_characters_is_400(client, headers, sandbox, sent):
    problem = assert_problem(client.post("/v1/sandbox/events", headers=keyed(headers, sent.encode().decode("latin-1")),
                                         json={"type": "employee.updated"}), 400, "invalid_request")
    assert "Idempotency-Key" in problem["detail"]
    assert not IdempotencyKey.select().where(IdempotencyKey.company == sandbox.id).exists()


def test_an_empty_key_is_400(client, headers):
    assert_problem(client.post("/v1/sandbox/events", headers=keyed(headers, ""), json={"type": "employee.updated"}),
                   400, "invalid_request")


def test_255_printable_characters_are_a_key_and_the_drafts_quoted_form_names_the_same_key(client, headers):
    longest = "~" * 254 + "!"
    body = {"type": "employee.updated"}
    first = client.post("/v1/sandbox/events", headers=keyed(headers, longest), json=body)
    replays(first, client.post("/v1/sandbox/events", headers=keyed(headers, longest), json=body))
    bare = client.post("/v1/sandbox/events", headers=keyed(headers, '8e03978e "x\\y"'), json=body)
    quoted = client.post("/v1/sandbox/events", headers=keyed(headers, '"8e03978e \\"x\\\\y\\""'), json=body)
    replays(bare, quoted)


# 24 hours, and the nightly job

def test_after_24_hours_the_key_is_new_again(client, headers, sandbox, clock, loopback):
    assert client.post("/v1/webhooks", headers=keyed(headers, "daily"), json=HOOK).status_code == 201
    clock.advance(hours=23, minutes=59)
    assert client.post("/v1/webhooks", headers=keyed(headers, "daily"), json=HOOK).headers["Idempotent-Replayed"]
    clock.advance(minutes=1)
    made = client.post("/v1/webhooks", headers=keyed(headers, "daily"), json={**HOOK, "events": ["employee.left"]})
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers
    assert endpoints_of(sandbox) == 2


def test_the_nightly_job_prunes_keys_past_their_24_hours(app, client, headers, sandbox, clock, loopback):
    client.post("/v1/webhooks", headers=keyed(headers, "old"), json=HOOK)
    clock.advance(hours=12)
    client.post("/v1/webhooks", headers=keyed(headers, "young"), json=HOOK)
    clock.advance(hours=12, seconds=1)
    with app.app_context():
        assert prune_idempotency_keys() == 1
    assert [row.key for row in IdempotencyKey.select().where(IdempotencyKey.company == sandbox.id)] == ["young"]
    nightly = periodic()["prune_idempotency_keys"]
    assert nightly.function is prune_idempotency_keys and nightly.cron == "50 23 * * *"


# While v1.3 is not live the header is one the contract does not know: ignored

def test_without_v1_3_the_header_is_ignored(client, headers, sandbox, loopback, live_releases):
    live_releases(["v1.0", "v1.1", "v1.2"])
    first = client.post("/v1/webhooks", headers=keyed(headers, "k"), json=HOOK)
    again = client.post("/v1/webhooks", headers=keyed(headers, "k"), json=HOOK)
    assert first.status_code == again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert client.post("/v1/webhooks", headers=keyed(headers, "caf\u00e9"), json=HOOK).status_code == 201
    assert endpoints_of(sandbox) == 3
    assert not IdempotencyKey.select().where(IdempotencyKey.company == sandbox.id).exists()


# The document says so of every POST, and real answers match it

def test_every_post_documents_the_key_its_problems_and_the_replay_header(document):
    posts = [op for item in document["paths"].values() for method, op in item.items() if method == "post"]
    assert {op["operationId"] for op in posts} == {
        "ingestAttendanceEvents", "createWebhookEndpoint", "sendTestWebhook", "redeliverWebhook",
        "rotateWebhookSecret", "replayWebhookEvents", "triggerSandboxEvent", "resetSandbox"}
    for op in posts:
        [parameter] = [p for p in op["parameters"] if p["name"] == "Idempotency-Key"]
        assert parameter["in"] == "header" and not parameter["required"] and parameter["x-release"] == "v1.3"
        assert parameter["schema"]["maxLength"] == 255
        [ok] = [status for status in op["responses"] if status.startswith("2")]
        assert "Idempotent-Replayed" in op["responses"][ok]["headers"], op["operationId"]
        assert "idempotency_key_in_use" in op["responses"]["409"]["description"], op["operationId"]
        assert "idempotency_key_reused" in op["responses"]["422"]["description"], op["operationId"]
        assert "Idempotency-Key" in op["responses"]["400"]["description"], op["operationId"]
    assert document["components"]["headers"]["Idempotent-Replayed"]["x-release"] == "v1.3"
    gets = [op for item in document["paths"].values() for method, op in item.items() if method == "get"]
    assert not any(p["name"] == "Idempotency-Key" for op in gets for p in op.get("parameters", []))


def test_replays_and_key_problems_validate_against_the_document(client, headers, sandbox, document, loopback, clock,
                                                                runtime):
    openapi = contract(document)
    first = validated(openapi, client.post("/v1/webhooks", headers=keyed(headers, "doc"), json=HOOK))
    validated(openapi, client.post("/v1/webhooks", headers=keyed(headers, "doc"), json=HOOK))
    validated(openapi, client.post("/v1/webhooks", headers=keyed(headers, "doc"), json={**HOOK, "events": []}))
    endpoint = first.get_json()["id"]
    validated(openapi, client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "doc-ping")))
    replay = validated(openapi, client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "doc-ping")))
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert_problem(validated(openapi, client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "doc"))),
                   422, "idempotency_key_reused")
    assert_problem(validated(openapi, client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "\t"))),
                   400, "invalid_request")
    credential = f"api_key:{ApiKey.get(ApiKey.company == sandbox.id).id}"  # a request with this key still runs
    running = idempotency.fingerprint(credential, "POST", f"/v1/webhooks/{endpoint}/test?", b"")
    claimed = idempotency.claim(sandbox.id, "doc-busy", running, clock.now(), runtime.sealer)
    assert isinstance(claimed, idempotency.Claimed)
    assert_problem(validated(openapi, client.post(f"/v1/webhooks/{endpoint}/test", headers=keyed(headers, "doc-busy"))),
                   409, "idempotency_key_in_use")


def test_the_errors_page_lists_the_two_codes(client):
    page = client.get("/errors").get_data(as_text=True)
    assert 'id="idempotency_key_in_use"' in page and "HTTP 409" in page
    assert 'id="idempotency_key_reused"' in page and "HTTP 422" in page


# Requests at once, committed on their own connections

@pytest.fixture
def live_sandbox(app, clock, runtime, monkeypatch):
    """A sandbox and a webhooks key, committed, removed afterwards; loopback URLs allowed."""
    monkeypatch.setitem(app.extensions, "webhook_sender", Sender(parse_networks("127.0.0.0/8"), timeout=2))
    with app.app_context():
        db.connect(reuse_if_open=True)
        user = get_or_create_user(f"{new_id('u')}@example.com", clock)
        company = create_sandbox(user, "KW", runtime, seed=7)
        secret = keys.create_key(company, ("webhooks:manage",), clock)[1]
        db.close()
    yield company, bearer(secret)
    with app.app_context():
        db.connect(reuse_if_open=True)
        company.delete_instance(recursive=True)
        user.delete_instance(recursive=True)
        db.close()


def committed_count(app, query):
    with app.app_context():
        db.connect(reuse_if_open=True)
        try:
            return query.count()
        finally:
            db.close()


def at_once(app, *sends):
    """The answers of `send(client)` for each of `sends`, started together, each on a
    thread (and so a database connection) of its own."""
    barrier, answers = threading.Barrier(len(sends)), [None] * len(sends)

    def one(index):
        client = app.test_client()
        barrier.wait()
        answers[index] = sends[index](client)

    threads = [threading.Thread(target=one, args=(index,)) for index in range(len(sends))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_requests_with_one_key_at_once_run_it_once(app, live_sandbox):
    company, headers = live_sandbox
    for round_ in range(ROUNDS):
        def send(client, key=f"race-{round_}"):
            return client.post("/v1/webhooks", headers=keyed(headers, key), json=HOOK)

        answers = at_once(app, send, send)
        statuses = sorted((a.status_code, a.headers.get("Idempotent-Replayed", "")) for a in answers)
        # one ran; the other met it running (409) or answered (the same 201, replayed)
        assert statuses in ([(201, ""), (201, "true")], [(201, ""), (409, "")]), \
            [a.get_data(as_text=True) for a in answers]
        if statuses[1][0] == 409:
            assert_problem(next(a for a in answers if a.status_code == 409), 409, "idempotency_key_in_use")
        else:
            assert answers[0].get_data() == answers[1].get_data()
        made = WebhookEndpoint.select().where(WebhookEndpoint.company == company.id)
        assert committed_count(app, made) == round_ + 1


def test_a_request_meeting_its_key_still_running_gets_409_then_the_answer(app, live_sandbox, monkeypatch):
    company, headers = live_sandbox
    real, started, go = endpoints.create_endpoint, threading.Event(), threading.Event()

    def held(*args, **kwargs):  # the first request, held inside its operation until told
        started.set()
        assert go.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(endpoints, "create_endpoint", held)
    answers = []
    first = threading.Thread(target=lambda: answers.append(
        app.test_client().post("/v1/webhooks", headers=keyed(headers, "slow"), json=HOOK)))
    first.start()
    assert started.wait(30)
    client = app.test_client()
    assert_problem(client.post("/v1/webhooks", headers=keyed(headers, "slow"), json=HOOK),
                   409, "idempotency_key_in_use")
    assert_problem(client.post("/v1/webhooks", headers=keyed(headers, "slow"), json={**HOOK, "events": []}),
                   422, "idempotency_key_reused")
    go.set()
    first.join(60)
    [answered] = answers
    assert answered.status_code == 201
    replays(answered, client.post("/v1/webhooks", headers=keyed(headers, "slow"), json=HOOK))
    assert committed_count(app, WebhookEndpoint.select().where(WebhookEndpoint.company == company.id)) == 1
