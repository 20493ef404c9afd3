"""A receiver's answer is the receiver's to write, and nothing in it may cost anyone else
a delivery: whatever comes back (any status line, header or body), every outcome of the
batch is recorded, none is left `sending`, and the job that sent them succeeds
(app/domain/webhooks/deliveries.py, record_many)."""

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.domain.kernel.clock import from_db
from app.domain.people import actions as hr
from app.domain.people.employees import roster
from app.domain.webhooks import deliveries, outcomes
from app.egress import Sender
from app.jobs.outbox import dispatch_events
from app.models import OutboxEvent, WebhookDelivery, WebhookEndpoint, db
from tests.conftest import bearer
from tests.helpers import create_webhook
from tests.receivers import RawReceiver, Receiver


def change(company, runtime, title):
    """An HR change of the company's first employee: one `employee.updated` event."""
    hr.update_employee(company.id, roster(company.id)[0].id, {"job_title": title}, runtime)


def undispatched():
    return [event.id for event in OutboxEvent.select(OutboxEvent.id).where(OutboxEvent.dispatched_at.is_null())]


def attempts(endpoint_id):
    return list(WebhookDelivery.select().where(WebhookDelivery.endpoint == endpoint_id)
                .order_by(WebhookDelivery.created_at, WebhookDelivery.attempt))


def endpoint_for(client, company, make_key, url):
    return create_webhook(client, bearer(make_key(company)), url, ["employee.updated"]).get_json()["id"]


def test_a_retry_after_of_5000_digits_loses_no_other_companys_outcome(app, client, sandbox, make_sandbox, make_key,
                                                                       loopback, runtime, clock):
    """The bug this file was written for: `int()` of 5,000 digits raised inside the
    batch's one transaction, and every outcome of the batch stayed `sending`."""
    neighbour, leaving = make_sandbox("SA"), make_sandbox("AE")
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.dispatched_at.is_null()).execute()
    with (Receiver(status=429, headers={"Retry-After": "9" * 5000}) as busy, Receiver(status=200) as fine,
          Receiver(status=410) as gone):
        busy_id = endpoint_for(client, sandbox, make_key, busy.url)
        fine_id = endpoint_for(client, neighbour, make_key, fine.url)
        gone_id = endpoint_for(client, leaving, make_key, gone.url)
        for company in (sandbox, neighbour, leaving):
            change(company, runtime, "Clerk")
        with app.app_context():
            assert dispatch_events(undispatched()) == 3  # one job, one batch, three companies
    first, retry = attempts(busy_id)
    assert (first.status, first.response_status) == ("failed", 429)
    assert retry.attempt == 2 and from_db(retry.due_at) == clock.now() + outcomes.RETRY_AFTER_CAP
    [delivered] = attempts(fine_id)
    assert delivered.status == "succeeded" and len(fine.requests) == 1
    assert WebhookEndpoint.get_by_id(gone_id).disabled_reason == "endpoint_gone"
    assert not WebhookDelivery.select().where(WebhookDelivery.status == "sending").exists()


def test_a_fault_recording_one_outcome_is_that_deliverys_error_and_the_rest_are_recorded(
        app, client, headers, sandbox, loopback, runtime, clock, monkeypatch):
    real = deliveries.response_text

    def faulty(body):
        if body and b"poison" in body:
            raise RuntimeError("injected: this answer cannot be stored")
        return real(body)

    monkeypatch.setattr(deliveries, "response_text", faulty)
    with Receiver(status=200, body=b"poison") as poisoned, Receiver(status=500, body=b"busy") as failing, \
            Receiver(status=200, body=b"thanks") as fine:
        ids = [create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()["id"]
               for receiver in (poisoned, failing, fine)]
        change(sandbox, runtime, "Clerk")
        with app.app_context():
            dispatch_events(undispatched())  # the job succeeds
    [poisoned_row] = attempts(ids[0])
    assert (poisoned_row.status, poisoned_row.response_status) == ("succeeded", 200)
    assert poisoned_row.response_body == "" and "could not be recorded (RuntimeError)" in poisoned_row.error
    failed, retry = attempts(ids[1])
    assert (failed.status, failed.response_body, retry.attempt) == ("failed", "busy", 2)
    assert from_db(retry.due_at) == clock.now() + timedelta(minutes=1)
    [fine_row] = attempts(ids[2])
    assert (fine_row.status, fine_row.response_body, fine_row.error) == ("succeeded", "thanks", None)


def test_a_fault_the_database_raises_for_every_outcome_is_raised_once_all_are_tried(
        app, client, headers, sandbox, loopback, runtime, monkeypatch):
    """Not the answer's fault but the database's: the job fails (the claim runs out and
    the attempts are sent again), after every outcome was tried."""
    tried = []

    def broken(fields, rows, only_if, matching=()):
        tried.append([row[-1] for row in rows])
        raise OSError("injected: the database is gone")

    monkeypatch.setattr(deliveries, "update_rows", broken)
    with Receiver() as first, Receiver() as second:
        for receiver in (first, second):
            create_webhook(client, headers, receiver.url, ["employee.updated"])
        change(sandbox, runtime, "Clerk")
        with app.app_context():
            try:
                dispatch_events(undispatched())
            except OSError:
                pass
            else:
                raise AssertionError("the database's fault was swallowed")
    alone = {ids[0] for ids in tried if len(ids) == 1}
    assert len(alone) == 2  # each outcome was tried on its own


# Answers no HTTP library would write: a status of any digits (or none), header names and
# values of any bytes and length (Retry-After of thousands of digits among them), bodies of
# any bytes, with a Content-Length that may be true, false or absent.
_status = st.one_of(st.sampled_from([200, 204, 299, 301, 410, 429, 503, 500, 100, 999]).map(lambda n: str(n).encode()),
                    st.integers(0, 99_999).map(lambda n: str(n).encode()), st.binary(max_size=12))
_header_bytes = st.binary(max_size=80).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b""))
_retry_after = st.one_of(st.integers(0, 6000).map(lambda n: b"9" * n), _header_bytes,
                         st.text(max_size=40).map(lambda t: t.encode("utf-8", "replace")))
_headers = st.lists(st.one_of(st.tuples(_header_bytes, _header_bytes),
                              st.tuples(st.just(b"Retry-After"), _retry_after),
                              st.tuples(st.just(b"Content-Type"), _header_bytes),
                              st.tuples(st.just(b"Content-Encoding"), st.sampled_from([b"gzip", b"br", b"x"]))),
                    max_size=6)
_body = st.one_of(st.binary(max_size=3000), st.text(max_size=600).map(lambda t: t.encode("utf-8", "replace")))


@st.composite
def answers(draw):
    status_line = b"HTTP/1.1 " + draw(_status) + b" " + draw(_header_bytes)
    if draw(st.integers(0, 9)) == 0:  # now and then, no status line at all
        status_line = draw(st.binary(max_size=40))
    body = draw(_body)
    length = draw(st.sampled_from(["true", "false", "absent"]))
    lines = [status_line] + [name + b": " + value for name, value in draw(_headers)]
    if length == "true":
        lines.append(b"Content-Length: %d" % len(body))
    elif length == "false":
        lines.append(b"Content-Length: %d" % draw(st.integers(0, 10_000)))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


@pytest.fixture
def hostile_and_fine(client, headers, loopback):
    """A raw receiver told per example what to answer, and a well-behaved one, each with
    an endpoint subscribed to `employee.updated`: made once for all of a test's examples."""
    with RawReceiver() as hostile, Receiver(status=200) as fine:
        ids = [create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()["id"]
               for receiver in (hostile, fine)]
        yield hostile, ids


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answer=answers())
@example(answer=b"HTTP/1.1 429 Slow down\r\nRetry-After: " + b"9" * 5000 + b"\r\nContent-Length: 0\r\n\r\n")
@example(answer=b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\na\x00b")  # PostgreSQL's text holds no NUL
@example(answer=b"HTTP/1.1 503 \xff\xfe\r\nRetry-After: \x00\xff\r\n\r\n" + bytes(range(256)) * 8)
def test_whatever_a_receiver_answers_every_outcome_of_the_batch_is_recorded(app, sandbox, runtime,
                                                                            hostile_and_fine, answer):
    hostile, (hostile_id, fine_id) = hostile_and_fine
    hostile.answer = answer
    with db.atomic() as example:
        change(sandbox, runtime, "Clerk")
        with app.app_context():
            dispatch_events(undispatched())  # never raises
        assert not WebhookDelivery.select().where(WebhookDelivery.status == "sending").exists()
        [first] = [row for row in attempts(hostile_id) if row.attempt == 1]
        assert first.status in ("succeeded", "failed") and first.sent_at is not None
        assert first.response_status is not None or first.error
        assert [row.status for row in attempts(fine_id)] == ["succeeded"]
        example.rollback()


def test_a_fault_reading_an_answer_is_that_attempts_error_not_the_jobs(app, client, headers, sandbox, loopback,
                                                                     runtime, monkeypatch):
    def unreadable(self, response, deadline, started):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "injected")

    monkeypatch.setattr(Sender, "_read", unreadable)
    with Receiver() as receiver:
        endpoint_id = create_webhook(client, headers, receiver.url, ["employee.updated"]).get_json()["id"]
        change(sandbox, runtime, "Clerk")
        with app.app_context():
            dispatch_events(undispatched())
    first, retry = attempts(endpoint_id)
    assert first.status == "failed" and "could not be read (UnicodeDecodeError)" in first.error
    assert retry.attempt == 2
