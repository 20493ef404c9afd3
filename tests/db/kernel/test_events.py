"""The outbox: an event is its whole envelope, written with the change, and handed on
only once that change commits."""

import json
import logging
from datetime import UTC, datetime

import pytest

from app.domain.access.companies import create_company
from app.domain.kernel import events
from app.domain.kernel.runtime import Runtime
from app.domain.webhooks import claims
from app.models import Company, OutboxEvent, db

AT = datetime(2026, 11, 21, 9, 0, 0, 123456, tzinfo=UTC)


def test_the_envelope_has_the_contracts_fields_and_livemode_follows_the_company():
    for sandbox, livemode in ((True, False), (False, True)):
        body = events.envelope("evt_1", "ping", AT, Company(id="cmp_1", sandbox=sandbox), {"webhook_id": "whk_1"})
        assert body == {"id": "evt_1", "type": "ping", "created_at": "2026-11-21T09:00:00Z",
                        "company_id": "cmp_1", "livemode": livemode, "data": {"webhook_id": "whk_1"}}


def test_an_unknown_event_type_is_refused_before_anything_is_written(sandbox, clock):
    with pytest.raises(ValueError, match="unknown event type"):
        events.emit(sandbox, "employee.hired", {}, Runtime(clock))
    assert not OutboxEvent.select().where(OutboxEvent.type == "employee.hired").exists()


def test_the_stored_payload_is_the_envelope_as_compact_utf8_json(sandbox, clock):
    event_id = events.emit(sandbox, "ping", {"webhook_id": "whk_1", "note": "رواتب"}, Runtime(clock))
    stored = OutboxEvent.get_by_id(event_id)
    assert stored.payload == json.dumps(json.loads(stored.payload), ensure_ascii=False, separators=(",", ":"))
    assert "رواتب" in stored.payload and json.loads(stored.payload)["id"] == event_id
    assert stored.dispatched_at is None and event_id in events.pending(limit=10_000)


def test_dispatching_marks_an_event_once(sandbox, clock):
    event_id = events.emit(sandbox, "ping", {"webhook_id": "whk_1"}, Runtime(clock))
    assert claims.fan_out([event_id], clock.now()) == (1, [])  # dispatched; no endpoint listens
    assert claims.fan_out([event_id], clock.now()) == (0, [])  # once
    assert event_id not in events.pending(limit=10_000)


def test_the_hand_off_waits_for_the_commit_and_a_rollback_cancels_it(sandbox, clock):
    handed = []
    runtime = Runtime(clock, on_event_written=handed.append)
    with db.atomic() as savepoint:  # the test's own transaction is open around this
        events.emit(sandbox, "ping", {"webhook_id": "whk_1"}, runtime)
        assert handed == []
        savepoint.rollback()
    assert handed == []


def test_a_failing_hand_off_is_logged_and_the_change_stands(app, clock, caplog):
    def queue_down(event_id):
        raise ConnectionError("Redis is down")

    with app.app_context():
        db.connect(reuse_if_open=True)
        company = create_company("Hand-off Co", "KW", clock)  # committed: the hand-off must fire
        try:
            with caplog.at_level(logging.WARNING), db.atomic():
                event_id = events.emit(company, "ping", {"webhook_id": "whk_1"}, Runtime(clock, queue_down))
            assert "the periodic jobs will find it" in caplog.text and event_id in caplog.text
            assert OutboxEvent.get_by_id(event_id).dispatched_at is None
        finally:
            company.delete_instance(recursive=True)
            db.close()


def test_without_hand_offs_nothing_is_queued_and_nothing_fails(sandbox, clock):
    runtime = Runtime(clock)
    runtime.credentials_changed()
    runtime.clock_events_stored(sandbox.id, ["emp_1"])
    assert events.emit(sandbox, "ping", {"webhook_id": "whk_1"}, runtime)


def test_clock_events_are_handed_on_sorted_and_only_when_there_are_some(clock):
    handed = []
    runtime = Runtime(clock, on_clock_events_stored=lambda company, ids: handed.append((company, ids)))
    runtime.clock_events_stored("cmp_1", set())
    runtime.clock_events_stored("cmp_1", {"emp_b", "emp_a"})  # no transaction open: at once
    assert handed == [("cmp_1", ["emp_a", "emp_b"])]


def test_pending_fairly_lets_the_companies_take_turns_oldest_first(sandbox, make_sandbox, clock):
    """One company's burst shares a drain's round with another's event instead of going
    first whole (issue 36, fairness)."""
    quiet, elsewhere = Runtime(clock), make_sandbox("QA")
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.dispatched_at.is_null()).execute()
    burst = []
    for _ in range(7):
        burst.append(events.emit(sandbox, "ping", {"webhook_id": "whk_1"}, quiet))
        clock.advance(seconds=1)
    other = events.emit(elsewhere, "ping", {"webhook_id": "whk_2"}, quiet)
    assert events.pending_fairly(limit=3) == [burst[0], other, burst[1]]
    assert events.pending_fairly(limit=1) == burst[:1]
    assert events.pending_fairly(limit=100) == [burst[0], other, *burst[1:]]


def test_pending_fairly_is_each_companys_turn_by_place_then_time_then_id(sandbox, make_sandbox, clock):
    """Three companies, times interleaved and tied: the round is every company's first
    event, then each one's second, and so on, a turn ordered by time then id; a company
    with fewer events drops out of later turns, and dispatched events are not taken."""
    quiet = Runtime(clock)
    companies = [sandbox, make_sandbox("QA"), make_sandbox("OM")]
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.dispatched_at.is_null()).execute()
    for step, (company, count) in enumerate([(0, 2), (1, 1), (2, 1), (0, 3), (1, 2), (0, 1)]):
        for _ in range(count):  # several events at one time: their ids break the tie
            events.emit(companies[company], "ping", {"webhook_id": f"whk_{step}"}, quiet)
        clock.advance(seconds=step % 2)  # some steps share their time with the next
    taken = (OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null())
             .order_by(OutboxEvent.created_at, OutboxEvent.id).first())
    OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.id == taken.id).execute()
    pending = list(OutboxEvent.select().where(OutboxEvent.dispatched_at.is_null()))
    place = {event.id: sum(1 for other in pending if other.company_id == event.company_id
                           and (other.created_at, other.id) < (event.created_at, event.id)) for event in pending}
    expected = [event.id for event in sorted(pending, key=lambda e: (place[e.id], e.created_at, e.id))]
    assert len(expected) == 9
    for limit in (1, 2, 3, 4, 5, 9, 50):
        assert events.pending_fairly(limit=limit) == expected[:limit], limit
