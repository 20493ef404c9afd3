"""The attendance endpoints over HTTP (Flask client, real database): ingest's 207 and
its whole-request errors, idempotency under parallel requests, ingest with Redis down,
and reading days back by range, employee and cursor."""

import json
import logging
import threading
from dataclasses import replace
from datetime import timedelta

import pytest

from app.domain.access import keys
from app.domain.access.users import get_or_create_user
from app.domain.attendance.days import due_for_pairing, settle
from app.domain.kernel.ids import new_id
from app.domain.sandbox import create_sandbox
from app.extensions import connect_redis
from app.jobs.attendance import pair_attendance
from app.jobs.queues import RQJobs
from app.jobs.sweeper import sweep
from app.models import AttendanceDay, AttendanceEvent, Employee, db
from tests.conftest import START, bearer
from tests.helpers import assert_problem, run_queued_jobs, staff


def punch(n, kind="clock_in", at="2026-11-20T08:00:00+03:00", person="SBX-001", **extra):
    return {"external_id": f"e-{n}", "employee_ref": {"type": "employee_code", "value": person}, "type": kind,
            "at": at, "source": "acme-pos", **extra}


def post(client, headers, body, **kwargs):
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post("/v1/attendance/events", data=data, headers=headers, content_type="application/json",
                       **kwargs)


def stored(company):
    return AttendanceEvent.select().where(AttendanceEvent.company == company.id).count()


def settle_due(runtime):
    for company_id, employee_ids in due_for_pairing(runtime.now()).items():
        settle(company_id, employee_ids, runtime)


def test_ingest_answers_207_with_one_result_per_event_in_order(client, headers, sandbox):
    response = post(client, headers, {"events": [
        punch(1), punch(2, person="NOBODY"), punch(1), punch(3, at="2026-11-20T08:00:00"), "not an object",
    ]})
    assert response.status_code == 207 and response.mimetype == "application/json"
    results = response.get_json()["results"]
    assert [r["status"] for r in results] == ["accepted", "unmatched_employee", "duplicate", "rejected", "rejected"]
    assert results[2]["event_id"] == results[0]["event_id"]
    assert results[3]["reason"].startswith("invalid_at: ") and "event_id" not in results[3]
    assert results[4] == {"external_id": None, "status": "rejected",
                          "reason": "invalid_event: each event is a JSON object"}
    assert stored(sandbox) == 2


def test_a_resend_changes_nothing(client, headers, sandbox, clock, runtime):
    post(client, headers, {"events": [punch(1), punch(2, "clock_out", "2026-11-20T16:00:00+03:00")]})
    settle_due(runtime)
    before = [(e.id, e.state, e.paired_at) for e in AttendanceEvent.select().order_by(AttendanceEvent.id)]
    clock.advance(minutes=5)
    again = post(client, headers, {"events": [punch(1), punch(2, "clock_out", "2026-11-20T16:00:00+03:00")]})
    assert [r["status"] for r in again.get_json()["results"]] == ["duplicate", "duplicate"]
    assert due_for_pairing(clock.now()) == {}
    assert [(e.id, e.state, e.paired_at) for e in AttendanceEvent.select().order_by(AttendanceEvent.id)] == before


@pytest.mark.parametrize("body, status, code, path", [
    (b"{not json", 400, "invalid_request", None),
    (b"\xff\xfe\x00", 400, "invalid_request", None),
    (b"[]", 422, "validation_failed", "$"),
    (b"{}", 422, "validation_failed", "events"),
    (b'{"events": {"external_id": "x"}}', 422, "validation_failed", "events"),
    (b'{"events": []}', 422, "validation_failed", "events"),
    (b'{"events": null}', 422, "validation_failed", "events"),
])
def test_whole_request_errors_store_nothing(client, headers, sandbox, body, status, code, path):
    problem = assert_problem(post(client, headers, body), status, code)
    if path:
        assert [e["path"] for e in problem["errors"]] == [path]
    assert stored(sandbox) == 0


def test_more_than_500_events_is_413_and_500_is_fine(client, headers, sandbox):
    problem = assert_problem(post(client, headers, {"events": [punch(n) for n in range(501)]}), 413,
                             "payload_too_large")
    assert "501 events" in problem["detail"]
    assert stored(sandbox) == 0
    assert post(client, headers, {"events": [punch(n) for n in range(500)]}).status_code == 207
    assert stored(sandbox) == 500


def test_a_body_over_1_mb_is_413_from_its_length_before_reading(client, headers, sandbox):
    body = json.dumps({"events": [punch(1)], "padding": ""}).encode()
    body = body[:-2] + b" " * (1024 * 1024 + 1 - len(body)) + b'"}'
    assert len(body) == 1024 * 1024 + 1
    assert_problem(post(client, headers, body), 413, "payload_too_large")
    exactly = body[:-3] + b'"}'
    assert post(client, headers, exactly).status_code == 207


def test_scopes(client, sandbox, make_key):
    reader = bearer(make_key(sandbox, ("attendance:read",)))
    writer = bearer(make_key(sandbox, ("attendance:write",)))
    assert_problem(post(client, reader, {"events": [punch(1)]}), 403, "insufficient_scope")
    assert_problem(client.get("/v1/attendance?from=2026-11-01&to=2026-11-02", headers=writer), 403,
                   "insufficient_scope")
    assert post(client, writer, {"events": [punch(1)]}).status_code == 207
    assert client.get("/v1/attendance?from=2026-11-01&to=2026-11-02", headers=reader).status_code == 200


def test_a_500_event_batch_costs_a_handful_of_queries(client, headers, sandbox):
    people = [f"SBX-{n:03d}" for n in range(1, 11)]
    events = [punch(n, person=people[n % 10]) for n in range(250)]
    events += [{**punch(n), "employee_ref": {"type": "email", "value": f"x{n}@example.com"}} for n in range(250, 400)]
    events += [{**punch(n), "employee_ref": {"type": "external_id", "value": f"P-{n}"}} for n in range(400, 500)]
    counter = _QueryCounter()
    logging.getLogger("peewee").addHandler(counter)
    logging.getLogger("peewee").setLevel(logging.DEBUG)
    try:
        response = post(client, headers, {"events": events})
    finally:
        logging.getLogger("peewee").removeHandler(counter)
        logging.getLogger("peewee").setLevel(logging.WARNING)
    assert response.status_code == 207
    assert counter.count <= 8, counter.queries


class _QueryCounter(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.queries = []

    @property
    def count(self):
        return len(self.queries)

    def emit(self, record):
        self.queries.append(record.getMessage()[:120])


def test_days_read_back_by_range_employee_and_cursor(client, headers, sandbox, make_sandbox, clock, runtime):
    events = []
    for person in ("SBX-001", "SBX-002", "SBX-003"):
        for day in (17, 18):
            events += [punch(f"{person}-{day}-in", at=f"2026-11-{day}T08:00:00+03:00", person=person),
                       punch(f"{person}-{day}-out", "clock_out", f"2026-11-{day}T16:30:00+03:00", person=person)]
    post(client, headers, {"events": events})
    settle_due(runtime)

    first = client.get("/v1/attendance?from=2026-11-17&to=2026-11-18&limit=4", headers=headers)
    assert first.status_code == 200 and "X-RateLimit-Limit" in first.headers
    page = first.get_json()
    assert [(d["date"], d["employee_id"]) for d in page["data"]] == sorted(
        (d["date"], d["employee_id"]) for d in page["data"])
    assert all(d["worked_minutes"] == 510 and d["sources"] == ["partner_api"] for d in page["data"])
    rest = client.get(f"/v1/attendance?from=2026-11-17&to=2026-11-18&limit=4&cursor={page['next_cursor']}",
                      headers=headers).get_json()
    assert rest["next_cursor"] is None and len(page["data"]) + len(rest["data"]) == 6
    assert len({(d["date"], d["employee_id"]) for d in page["data"] + rest["data"]}) == 6

    one = staff(sandbox, "SBX-002").id
    only = client.get(f"/v1/attendance?from=2026-11-18&to=2026-11-18&employee_id={one}", headers=headers)
    assert [(d["date"], d["employee_id"]) for d in only.get_json()["data"]] == [("2026-11-18", one)]

    other = staff(make_sandbox("KW"), "SBX-002").id
    assert client.get(f"/v1/attendance?from=2026-11-01&to=2026-11-30&employee_id={other}",
                      headers=headers).get_json() == {"data": [], "next_cursor": None}
    moved = client.get(f"/v1/attendance?from=2026-11-17&to=2026-11-19&limit=4&cursor={page['next_cursor']}",
                       headers=headers)
    assert_problem(moved, 400, "invalid_request")


def test_days_of_archived_employees_are_not_returned(client, headers, sandbox, clock, runtime):
    post(client, headers, {"events": [punch(1), punch(2, "clock_out", "2026-11-20T16:00:00+03:00")]})
    settle_due(runtime)
    Employee.update(archived=True).where(Employee.id == staff(sandbox, "SBX-001").id).execute()
    assert client.get("/v1/attendance?from=2026-11-20&to=2026-11-20", headers=headers).get_json()["data"] == []


@pytest.mark.parametrize("query, message", [
    ("to=2026-11-02", "from: Missing data for required field."),
    ("from=2026-11-02", "to: Missing data for required field."),
    ("from=2026-11-02&to=2026-11-01", "to: must not be before `from`"),
    ("from=2026-01-01&to=2026-03-05", "to: must be at most 62 days after `from` (here 2026-03-04)"),
    ("from=2026-13-01&to=2026-11-01", "from: must be a date, YYYY-MM-DD"),
    ("from=2026-11-01&to=2026-11-02&limit=201", "limit:"),
])
def test_bad_ranges_are_400_saying_what_is_wrong(client, headers, query, message):
    problem = assert_problem(client.get(f"/v1/attendance?{query}", headers=headers), 400, "invalid_request")
    assert message in problem["detail"]


def test_62_days_is_the_longest_range(client, headers):
    assert client.get("/v1/attendance?from=2026-01-01&to=2026-03-04", headers=headers).status_code == 200


# Committed work: requests in parallel, and the after-commit hooks, need real commits.

@pytest.fixture
def live_sandbox(app, clock, runtime):
    """A sandbox and an attendance key, committed, removed afterwards."""
    with app.app_context():
        db.connect(reuse_if_open=True)
        user = get_or_create_user(f"{new_id('u')}@example.com", clock)
        company = create_sandbox(user, "KW", runtime, seed=7)
        secret = keys.create_key(company, ("attendance:write", "attendance:read"), clock)[1]
        db.close()
    yield company, bearer(secret)
    with app.app_context():
        db.connect(reuse_if_open=True)
        company.delete_instance(recursive=True)
        db.close()


def test_the_same_batch_sent_in_parallel_is_stored_once(app, live_sandbox):
    company, headers = live_sandbox
    batch = {"events": [punch(n, person=f"SBX-{n % 10 + 1:03d}") for n in range(200)]}
    barrier, answers = threading.Barrier(6), []

    def send():
        client = app.test_client()
        barrier.wait()
        answers.append(post(client, headers, batch))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [207] * 6, [a.get_data(as_text=True)[:300] for a in answers]
    results = [a.get_json()["results"] for a in answers]
    for index in range(200):
        column = [r[index] for r in results]
        assert sorted(c["status"] for c in column) == ["accepted"] + ["duplicate"] * 5
        assert len({c["event_id"] for c in column}) == 1
    with app.app_context():
        assert stored(company) == 200


def test_ingest_answers_207_with_redis_down_and_the_sweeper_pairs_later(app, live_sandbox, clock, monkeypatch,
                                                                        caplog, runtime):
    company, headers = live_sandbox
    dead = RQJobs(connect_redis("redis://127.0.0.1:1/0"))
    monkeypatch.setitem(app.extensions, "runtime",
                        replace(runtime, on_clock_events_stored=lambda c, e: dead.enqueue(pair_attendance, c, e)))
    with caplog.at_level(logging.WARNING):
        response = post(app.test_client(), headers, {"events": [
            punch(1), punch(2, "clock_out", "2026-11-20T17:00:00+03:00")]})
    assert [r["status"] for r in response.get_json()["results"]] == ["accepted", "accepted"]
    assert "the periodic jobs will find it" in caplog.text
    monkeypatch.undo()  # Redis is back
    with app.app_context():
        assert sweep() >= 1
        run_queued_jobs(app)
        [day] = AttendanceDay.select().where(AttendanceDay.company == company.id)
        assert json.loads(day.record)["worked_minutes"] == 9 * 60
        assert due_for_pairing(clock.now()).get(company.id) is None


def test_pairing_is_queued_as_soon_as_an_ingest_commits(app, live_sandbox, clock):
    company, headers = live_sandbox
    at = (START - timedelta(hours=2)).isoformat()
    post(app.test_client(), headers, {"events": [punch(1, at=at)]})
    with app.app_context():
        run_queued_jobs(app)
        [day] = AttendanceDay.select().where(AttendanceDay.company == company.id)
        assert json.loads(day.record)["open_shift"]["clock_in"] == "2026-11-21T07:00:00Z"


# Hostile values: one bad event is a `rejected` result for that event alone.

BAD_TIMES = ["2026-W47-5T08:00:00+03:00", "2026-11-20T08:00:00+03", "2026-11-20T08:00:00+0300",
             "2026-11-20T08:00+03:00", "2026-11-20T08:00:00 +03:00", "2026-11-20T08:00:00,5+03:00",
             "2026-11-20T08:00:00", "2026-02-30T08:00:00Z", "2026-11-20T08:00:00+03:99", "２０２６-11-20T08:00:00Z"]


def test_text_no_database_can_store_is_rejected_and_its_neighbours_are_stored(client, headers, sandbox):
    events = [
        punch(1),
        {**punch(2), "external_id": "\ud800"},
        {**punch(3), "source": "a\u0000b"},
        {**punch(4), "branch_ref": "x\udfff"},
        {**punch(5), "employee_ref": {"type": "email", "value": "\u0130" * 254}},
        {**punch(6), "employee_ref": {"type": "employee_code", "value": "SBX\u0000001"}},
        punch(7),
    ]
    body = json.dumps({"events": events})  # ASCII, with the lone surrogates as \ud800 escapes
    response = client.post("/v1/attendance/events", headers=headers, data=body, content_type="application/json")
    assert response.status_code == 207
    results = response.get_json()["results"]
    assert [r["status"] for r in results] == ["accepted", "rejected", "rejected", "rejected", "rejected", "rejected",
                                              "accepted"]
    assert results[1]["external_id"] is None and results[1]["reason"].startswith("invalid_text: `external_id`")
    assert results[2]["reason"] == "invalid_text: `source` contains a NUL character"
    assert results[3]["reason"].startswith("invalid_text: `branch_ref` is not valid Unicode text")
    assert results[4]["reason"].startswith("invalid_employee_ref:") and "once normalized" in results[4]["reason"]
    assert results[5]["reason"].startswith("invalid_text: `employee_ref.value`")
    assert stored(sandbox) == 2


def test_times_that_are_not_rfc_3339_are_invalid_at(client, headers, sandbox):
    events = [punch(n, at=at) for n, at in enumerate(BAD_TIMES)]
    results = post(client, headers, {"events": [*events, punch(99, at="2026-11-20T08:00:00.123456789+03:00")]})
    reasons = [r.get("reason", r["status"]) for r in results.get_json()["results"]]
    assert all(reason.startswith("invalid_at") for reason in reasons[:-1]), list(zip(BAD_TIMES, reasons, strict=False))
    assert reasons[-1] == "accepted"
