"""What partner_api puts on the wire: ids escaped into their path segment, an
Idempotency-Key on every POST (and a POST retried only with one), Retry-After read as RFC
9110 writes it. Against httpx's MockTransport, as test_client_models.py."""

import json
import uuid

import httpx
import pytest

from partner_api import ApiError, Client
from partner_api._client import DEFAULT_BASE_URL
from partner_api.oauth import DEFAULT_BASE_URL as OAUTH_DEFAULT_BASE_URL

ENDPOINT = {"id": "whk_1", "url": "https://example.com/hook", "events": ["ping"], "secret": "whsec_x"}


def client_of(handler, **options):
    return Client(api_key="svc_test_x", base_url="http://api.test", transport=httpx.MockTransport(handler),
                  **options)


def recording(answer=None):
    """A handler that keeps each request and answers `answer(request)` (default: 200 {})."""
    seen = []

    def handler(request):
        seen.append(request)
        return answer(request) if answer else httpx.Response(200, json={"id": "x", "data": [], "results": []})

    return seen, handler


@pytest.mark.parametrize("given, path", [
    ("../company", "/v1/employees/..%2Fcompany"),  # was /v1/company
    ("..", "/v1/employees/%2E%2E"),  # was /v1/ (httpx removes dot segments)
    (".", "/v1/employees/%2E"),  # was the collection, /v1/employees/
    ("a?status=left#x", "/v1/employees/a%3Fstatus%3Dleft%23x"),  # was a query and a fragment
    ("100%", "/v1/employees/100%25"),
    ("emp_1 2/3", "/v1/employees/emp_1%202%2F3"),
])
def test_an_id_is_one_path_segment_whatever_it_holds(given, path):
    seen, handler = recording()
    client_of(handler).employees.get(given)
    assert seen[0].url.raw_path.decode() == path


def test_every_id_of_every_method_is_escaped():
    seen, handler = recording()
    client = client_of(handler)
    client.payroll_runs.get("../../v1/company")
    client.events.get("..")
    client.webhooks.get("whk_1/deliveries")
    client.webhooks.update("..", active=False)
    client.webhooks.delete("..")
    client.webhooks.test("whk_1/../..")
    client.webhooks.rotate_secret("..")
    client.webhooks.deliveries("..")
    client.webhooks.redeliver("..", "../redeliver")
    from datetime import datetime, timezone
    client.webhooks.replay("..", datetime(2026, 11, 1, tzinfo=timezone.utc))
    assert [request.url.raw_path.decode() for request in seen] == [
        "/v1/payroll-runs/..%2F..%2Fv1%2Fcompany", "/v1/events/%2E%2E", "/v1/webhooks/whk_1%2Fdeliveries",
        "/v1/webhooks/%2E%2E", "/v1/webhooks/%2E%2E", "/v1/webhooks/whk_1%2F..%2F../test",
        "/v1/webhooks/%2E%2E/rotate-secret", "/v1/webhooks/%2E%2E/deliveries",
        "/v1/webhooks/%2E%2E/deliveries/..%2Fredeliver/redeliver", "/v1/webhooks/%2E%2E/replay"]


def test_an_empty_id_is_refused_before_anything_is_sent():
    """An empty id would address the collection (`GET /v1/employees/` lists them)."""
    seen, handler = recording()
    client = client_of(handler)
    for call in (lambda: client.employees.get(""), lambda: client.webhooks.delete(""),
                 lambda: client.webhooks.redeliver("whk_1", "")):
        with pytest.raises(ValueError, match="empty"):
            call()
    assert seen == []


def every_post(client, key=None):
    """Each POST method of the client, called once (with `idempotency_key=key` if given)."""
    from datetime import datetime, timezone
    given = {} if key is None else {"idempotency_key": key}
    client.attendance.ingest([{"external_id": "e1"}], **given)
    client.webhooks.create("https://example.com/hook", ["ping"], **given)
    client.webhooks.test("whk_1", **given)
    client.webhooks.rotate_secret("whk_1", **given)
    client.webhooks.redeliver("whk_1", "dlv_1", **given)
    client.webhooks.replay("whk_1", datetime(2026, 11, 1, tzinfo=timezone.utc), **given)
    client.sandbox.trigger("employee.updated", **given)


def test_every_post_carries_a_fresh_idempotency_key_and_nothing_else_does():
    seen, handler = recording()
    client = client_of(handler)
    every_post(client)
    every_post(client)
    client.company()
    client.webhooks.update("whk_1", active=False)
    client.webhooks.delete("whk_1")
    posts = [request for request in seen if request.method == "POST"]
    keys = [request.headers["Idempotency-Key"] for request in posts]
    assert len(posts) == 14 and len(set(keys)) == 14
    assert all(uuid.UUID(key).version == 4 for key in keys)
    assert not any("Idempotency-Key" in request.headers for request in seen if request.method != "POST")


def test_a_callers_own_key_is_sent_as_given_and_one_the_api_would_refuse_is_refused_here():
    seen, handler = recording()
    client = client_of(handler)
    every_post(client, key="order-42:sync")
    assert {request.headers["Idempotency-Key"] for request in seen} == {"order-42:sync"}
    for bad in ("", "x" * 256, "caf\u00e9", "tab\there", "line\n", " ", " order-42", "order-42 "):  # as the API reads
        with pytest.raises(ValueError, match="idempotency_key"):
            client.sandbox.trigger("employee.updated", idempotency_key=bad)
    assert len(seen) == 7  # none of those was sent
    client.sandbox.trigger("employee.updated", idempotency_key="order 42")  # a space inside is printable ASCII
    client.sandbox.trigger("employee.updated", idempotency_key="~" * 255)  # 255 printable ASCII: the limit


def test_a_post_is_retried_after_a_connection_error_and_a_503_with_the_same_key(monkeypatch):
    slept = []
    monkeypatch.setattr("partner_api._client.time.sleep", slept.append)
    seen = []

    def handler(request):
        seen.append(request)
        if len(seen) == 1:
            raise httpx.ConnectError("refused")
        if len(seen) == 2:
            return httpx.Response(503, json={"code": "unavailable"}, headers={"Retry-After": "1"})
        return httpx.Response(201, json=ENDPOINT, headers={"Idempotent-Replayed": "true"})

    assert client_of(handler).webhooks.create("https://example.com/hook", ["ping"]).id == "whk_1"
    assert [request.method for request in seen] == ["POST"] * 3 and len(slept) == 2
    assert len({request.headers["Idempotency-Key"] for request in seen}) == 1  # one call, one key
    assert len({request.content for request in seen}) == 1  # and one body


def test_a_post_whose_key_is_still_in_use_is_asked_again_until_the_first_answer_is_there(monkeypatch):
    """After a timeout the first request may still be running: the API answers 409
    idempotency_key_in_use, then, once it is done, that request's answer."""
    monkeypatch.setattr("partner_api._client.time.sleep", lambda seconds: None)
    answers = iter([httpx.Response(409, json={"code": "idempotency_key_in_use", "title": "In use"}),
                    httpx.Response(201, json=ENDPOINT, headers={"Idempotent-Replayed": "true"})])
    seen, handler = recording(lambda request: next(answers))
    assert client_of(handler).webhooks.create("https://example.com/hook", ["ping"]).id == "whk_1"
    assert len(seen) == 2 and seen[0].headers["Idempotency-Key"] == seen[1].headers["Idempotency-Key"]
    other = client_of(lambda request: httpx.Response(409, json={"code": "conflict", "title": "Conflict"}))
    with pytest.raises(ApiError) as refused:  # another 409 is the answer
        other.webhooks.create("https://example.com/hook", ["ping"])
    assert refused.value.code == "conflict"


def test_writes_other_than_post_are_not_repeated_after_a_connection_error(monkeypatch):
    monkeypatch.setattr("partner_api._client.time.sleep", lambda seconds: None)
    seen = []

    def handler(request):
        seen.append(request.method)
        raise httpx.ConnectError("refused")

    client = client_of(handler)
    with pytest.raises(httpx.ConnectError):
        client.webhooks.update("whk_1", active=False)
    with pytest.raises(httpx.ConnectError):
        client.webhooks.delete("whk_1")
    assert seen == ["PATCH", "DELETE"]


def waits_for(monkeypatch, headers):
    """The seconds the client sleeps before its one retry of an answer 503 with `headers`
    (sent as UTF-8 bytes, as a server may)."""
    slept = []
    monkeypatch.setattr("partner_api._client.time.sleep", slept.append)
    raw = [(name.encode(), value.encode()) for name, value in headers.items()]
    answers = iter([httpx.Response(503, json={"code": "unavailable"}, headers=raw),
                    httpx.Response(200, json={"id": "cmp_1"})])
    assert client_of(lambda request: next(answers)).company().id == "cmp_1"
    return slept[0]


BACKOFF = 1.0  # the first retry's wait when Retry-After says nothing usable


@pytest.mark.parametrize("value, seconds", [
    ("7", 7.0), (" 7 ", 7.0), ("0", 0.0), ("007", 7.0),
    ("²", BACKOFF),  # str.isdigit() said yes, float() raised ValueError
    ("٣", BACKOFF),  # an Arabic-Indic 3: it waited 3 s
    ("9" * 5000, 60.0), ("3600", 60.0),  # capped, not a crash
    ("-5", BACKOFF), ("1.5", BACKOFF), ("", BACKOFF), ("soon", BACKOFF),
])
def test_retry_after_in_seconds_is_ascii_digits_and_capped(monkeypatch, value, seconds):
    assert waits_for(monkeypatch, {"Retry-After": value}) == seconds


@pytest.mark.parametrize("value, seconds", [
    ("Wed, 21 Oct 2026 07:28:30 GMT", 30.0),  # IMF-fixdate
    ("Wednesday, 21-Oct-26 07:28:30 GMT", 30.0),  # RFC 850, which a recipient must read too
    ("Wed Oct 21 07:28:30 2026", 30.0),  # asctime
    ("Wed, 21 Oct 2026 09:00:00 GMT", 60.0),  # capped
    ("Wed, 21 Oct 2026 07:00:00 GMT", 0.0),  # already past
    ("Wed, ٢١ Oct 2026 07:28:30 GMT", BACKOFF),  # digits are ASCII here too
    ("Wed, 21 Oct 99999 07:28:30 GMT", BACKOFF),
])
def test_retry_after_as_an_http_date_counts_from_the_answers_date(monkeypatch, value, seconds):
    """RFC 9110 10.2.3: an HTTP-date, measured against the answer's own Date header (the
    server's clock against itself: this machine's may be off)."""
    assert waits_for(monkeypatch, {"Retry-After": value, "Date": "Wed, 21 Oct 2026 07:28:00 GMT"}) == seconds


def test_the_default_base_url_is_where_the_service_listens_by_default():
    """`flask --app wsgi serve` listens on port 8000 (issue 46, part 7)."""
    assert DEFAULT_BASE_URL == OAUTH_DEFAULT_BASE_URL == "http://127.0.0.1:8000"
    seen = []
    client = Client(api_key="svc_test_x", transport=httpx.MockTransport(
        lambda request: seen.append(request) or httpx.Response(200, json={"id": "cmp_1"})))
    client.company()
    assert str(seen[0].url) == "http://127.0.0.1:8000/v1/company"


def test_a_trigger_sends_only_the_overrides_given():
    seen, handler = recording()
    client = client_of(handler)
    client.sandbox.trigger("employee.updated", employee_id="emp_1", set={"job_title": "Cashier"})
    client.sandbox.trigger("payroll_run.paid", payroll_run_id="prun_1")
    client.sandbox.trigger("employee.created")
    assert [json.loads(request.content) for request in seen] == [
        {"type": "employee.updated", "employee_id": "emp_1", "set": {"job_title": "Cashier"}},
        {"type": "payroll_run.paid", "payroll_run_id": "prun_1"}, {"type": "employee.created"}]
