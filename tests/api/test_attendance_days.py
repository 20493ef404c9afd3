"""Re-pairing stored clock events into days (real database): shifts in the company's
timezone, breaks, the 16-hour edge, orphans, overlaps between sources, fates decided
once, the 72-hour expiry, and days that do not depend on arrival order or batching."""

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.attendance.days import due_for_pairing, expire_unmatched, settle
from app.domain.attendance.ingest import ingest
from app.models import AttendanceDay, AttendanceEvent, db
from tests.conftest import START
from tests.helpers import days_of, punch, rejections, settle_due, settle_later, staff


def states(results):
    return {AttendanceEvent.get_by_id(r.event_id).external_id: AttendanceEvent.get_by_id(r.event_id).state
            for r in results}


def test_a_shift_with_a_break_becomes_a_day_and_its_events_settle(sandbox, clock, runtime):
    results = ingest(sandbox, [
        punch(1, "clock_in", "2026-11-20T08:00:00+03:00", branch_ref="HQ"),
        punch(2, "break_start", "2026-11-20T12:00:00+03:00"),
        punch(3, "break_end", "2026-11-20T12:45:00+03:00"),
        punch(4, "clock_out", "2026-11-20T17:30:00+03:00"),
    ], runtime)
    settle_due(runtime)
    day = days_of(sandbox)["2026-11-20"]
    assert day == {
        "employee_id": staff(sandbox, "SBX-001").id, "date": "2026-11-20",
        "shifts": [{"clock_in": "2026-11-20T05:00:00Z", "clock_out": "2026-11-20T14:30:00Z", "break_minutes": 45,
                    "worked_minutes": 525, "branch_ref": "HQ", "source": "partner_api",
                    "source_system": "acme-pos"}],
        "worked_minutes": 525, "break_minutes": 45, "open_shift": None, "sources": ["partner_api"],
    }
    assert set(states(results).values()) == {"pending"}  # they arrived just now
    settle_later(runtime)
    # 16 hours after its time and its arrival, waiting can no longer orphan the clock-in.
    assert set(states(results).values()) == {"paired"}
    assert due_for_pairing(clock.now()) == {}


def test_a_shift_crossing_midnight_belongs_to_the_day_it_started_in_riyadh(make_sandbox, clock, runtime):
    riyadh = make_sandbox("SA")
    ingest(riyadh, [
        punch(1, "clock_in", "2026-11-19T22:00:00+03:00"), punch(2, "clock_out", "2026-11-20T06:00:00+03:00"),
        # 21:30 UTC on the 19th is already 00:30 on the 20th in Riyadh.
        punch(3, "clock_in", "2026-11-20T21:30:00Z"), punch(4, "clock_out", "2026-11-21T05:30:00Z"),
    ], runtime)
    settle_due(runtime)
    days = days_of(riyadh)
    assert list(days) == ["2026-11-19", "2026-11-21"]
    assert days["2026-11-19"]["worked_minutes"] == 480
    assert days["2026-11-21"]["shifts"][0]["clock_in"] == "2026-11-20T21:30:00Z"


def test_a_shift_crossing_midnight_in_dubai_time(make_sandbox, clock, runtime):
    dubai = make_sandbox("AE")
    ingest(dubai, [punch(1, "clock_in", "2026-11-20T20:00:00Z"), punch(2, "clock_out", "2026-11-21T04:00:00Z")],
           runtime)
    settle_due(runtime)
    # 20:00 UTC is midnight in Dubai (+04:00): the shift starts, and belongs to, the 21st.
    assert list(days_of(dubai)) == ["2026-11-21"]


def test_sixteen_hours_is_a_shift_and_a_minute_more_is_too_long(sandbox, clock, runtime):
    ingest(sandbox, [
        punch(1, "clock_in", "2026-11-18T06:00:00+03:00"), punch(2, "clock_out", "2026-11-18T22:00:00+03:00"),
        punch(3, "clock_in", "2026-11-19T06:00:00+03:00"), punch(4, "clock_out", "2026-11-19T22:01:00+03:00"),
    ], runtime)
    settle_later(runtime)
    assert days_of(sandbox)["2026-11-18"]["worked_minutes"] == 16 * 60
    assert "2026-11-19" not in days_of(sandbox)
    assert [(r["external_id"], r["reason"]) for r in rejections(sandbox)] == [
        ("p-3", "shift_too_long"), ("p-4", "shift_too_long")]
    assert "16 h 01 min" in rejections(sandbox)[0]["detail"]


def test_an_open_shift_waits_16_hours_then_is_an_orphan_announced_once(sandbox, clock, runtime):
    [result] = ingest(sandbox, [punch(1, "clock_in", START.isoformat())], runtime)
    settle_due(runtime)
    day = days_of(sandbox)["2026-11-21"]
    assert day["open_shift"]["clock_in"] == "2026-11-21T09:00:00Z" and day["sources"] == ["partner_api"]
    assert AttendanceEvent.get_by_id(result.event_id).state == "pending" and rejections(sandbox) == []

    clock.advance(hours=16)  # 16 hours since the clock-in: still open
    settle_due(runtime)
    assert rejections(sandbox) == [] and days_of(sandbox)["2026-11-21"]["open_shift"]
    clock.advance(seconds=1)
    settle_due(runtime)
    settle_due(runtime)
    assert [(r["event_id"], r["reason"]) for r in rejections(sandbox)] == [(result.event_id, "orphan_clock_in")]
    assert AttendanceEvent.get_by_id(result.event_id).state == "rejected"
    assert days_of(sandbox) == {}


def test_a_late_clock_out_within_16_hours_closes_the_open_shift(sandbox, clock, runtime):
    ingest(sandbox, [punch(1, "clock_in", (START - timedelta(hours=9)).isoformat())], runtime)
    settle_due(runtime)
    clock.advance(hours=6)
    ingest(sandbox, [punch(2, "clock_out", (START - timedelta(hours=1)).isoformat())], runtime)
    settle_due(runtime)
    clock.advance(hours=20)
    settle_due(runtime)
    [day] = days_of(sandbox).values()
    assert day["open_shift"] is None and day["worked_minutes"] == 8 * 60
    assert rejections(sandbox) == []


def test_an_orphan_clock_out_is_rejected_once_whatever_runs_twice(sandbox, clock, runtime):
    [result] = ingest(sandbox, [punch(1, "clock_out", "2026-11-20T17:00:00+03:00")], runtime)
    settle_due(runtime)
    settle(sandbox.id, [staff(sandbox, "SBX-001").id], runtime)
    clock.advance(days=1)
    settle_due(runtime)
    [rejection] = rejections(sandbox)
    assert rejection == {"external_id": "p-1", "event_id": result.event_id, "reason": "orphan_clock_out",
                         "detail": "no clock-in before this clock-out in the same source"}
    stored = AttendanceEvent.get_by_id(result.event_id)
    assert (stored.state, stored.reason) == ("rejected", "orphan_clock_out")


def test_a_shift_from_another_source_may_not_overlap(sandbox, clock, runtime):
    ingest(sandbox, [
        punch(1, "clock_in", "2026-11-19T08:00:00+03:00"), punch(2, "clock_out", "2026-11-19T17:00:00+03:00"),
        punch(3, "clock_in", "2026-11-19T16:00:00+03:00", source="acme-badge"),
        punch(4, "clock_out", "2026-11-19T20:00:00+03:00", source="acme-badge"),
        punch(5, "clock_in", "2026-11-19T18:00:00+03:00", source="acme-app"),
        punch(6, "clock_out", "2026-11-19T19:00:00+03:00", source="acme-app"),
    ], runtime)
    settle_later(runtime)
    day = days_of(sandbox)["2026-11-19"]
    assert [s["source_system"] for s in day["shifts"]] == ["acme-pos", "acme-app"]
    assert day["worked_minutes"] == 9 * 60 + 60
    assert [(r["external_id"], r["reason"]) for r in rejections(sandbox)] == [
        ("p-3", "overlapping_shift"), ("p-4", "overlapping_shift")]


def test_only_the_affected_employee_days_are_rewritten(sandbox, clock, runtime):
    ingest(sandbox, [punch(1, "clock_in", "2026-11-01T08:00:00+03:00"),
                     punch(2, "clock_out", "2026-11-01T16:00:00+03:00"),
                     punch(3, "clock_in", "2026-11-01T09:00:00+03:00", person="SBX-002"),
                     punch(4, "clock_out", "2026-11-01T17:00:00+03:00", person="SBX-002")], runtime)
    settle_due(runtime)
    before = {row.id: row.updated_at for row in AttendanceDay.select()}
    clock.advance(minutes=10)
    ingest(sandbox, [punch(5, "clock_in", "2026-11-20T08:00:00+03:00"),
                     punch(6, "clock_out", "2026-11-20T16:00:00+03:00")], runtime)
    with db.atomic():
        settle_due(runtime)
    after = {row.id: row.updated_at for row in AttendanceDay.select()}
    assert all(after[row_id] == stamp for row_id, stamp in before.items())
    assert sorted(days_of(sandbox)) == ["2026-11-01", "2026-11-20"]


def test_a_day_sent_late_in_two_requests_pairs_as_if_sent_at_once(sandbox, clock, runtime):
    ingest(sandbox, [punch(1, "clock_in", "2026-11-18T08:00:00+03:00")], runtime)
    settle_due(runtime)  # already 16 hours past its time, but it has only just arrived
    assert rejections(sandbox) == [] and days_of(sandbox) == {}
    clock.advance(hours=2)
    ingest(sandbox, [punch(2, "clock_out", "2026-11-18T17:00:00+03:00")], runtime)
    settle_due(runtime)
    settle_later(runtime)
    assert days_of(sandbox)["2026-11-18"]["worked_minutes"] == 9 * 60 and rejections(sandbox) == []


def test_each_event_settles_at_its_own_time_and_is_not_swept_again(sandbox, clock, runtime):
    ingest(sandbox, [punch(2, "clock_out", "2026-11-18T17:00:00+03:00")], runtime)
    clock.advance(hours=2)
    ingest(sandbox, [punch(1, "clock_in", "2026-11-18T08:00:00+03:00")], runtime)
    settle_due(runtime)
    clock.advance(hours=14, minutes=1)  # the clock-out is due, the later-arrived clock-in not yet
    settle_due(runtime)
    assert sorted((e.external_id, e.state) for e in AttendanceEvent.select()) == [
        ("p-1", "pending"), ("p-2", "paired")]
    assert due_for_pairing(clock.now()) == {}
    clock.advance(hours=2)
    settle_due(runtime)
    assert {e.state for e in AttendanceEvent.select()} == {"paired"} and due_for_pairing(clock.now()) == {}
    assert days_of(sandbox)["2026-11-18"]["worked_minutes"] == 9 * 60


def test_an_event_arriving_after_its_partner_was_decided_meets_that_decision(sandbox, clock, runtime):
    ingest(sandbox, [punch(1, "clock_in", "2026-11-18T08:00:00+03:00")], runtime)
    settle_later(runtime)
    assert [r["reason"] for r in rejections(sandbox)] == ["orphan_clock_in"]
    ingest(sandbox, [punch(2, "clock_out", "2026-11-18T17:00:00+03:00")], runtime)
    settle_later(runtime)
    assert [r["reason"] for r in rejections(sandbox)] == ["orphan_clock_in", "orphan_clock_out"]
    assert days_of(sandbox) == {}


def test_unmatched_events_expire_after_72_hours_once(sandbox, clock, runtime):
    [result] = ingest(sandbox, [punch(1, "clock_in", "2026-11-20T08:00:00+03:00", person="NOBODY")], runtime)
    clock.advance(hours=71, minutes=59)
    assert expire_unmatched(runtime) == 0
    clock.advance(minutes=1)
    assert expire_unmatched(runtime) == 1
    assert expire_unmatched(runtime) == 0
    [rejection] = rejections(sandbox)
    assert rejection["event_id"] == result.event_id and rejection["reason"] == "unmatched_employee_expired"
    assert "employee_code 'NOBODY' from acme-pos" in rejection["detail"]


# Shifts of one employee from two sources within the 16 hours before now, so every fate
# is still open while the batches arrive.
def _punches():
    start = st.integers(min_value=0, max_value=15 * 60)
    kinds = st.sampled_from(["clock_in", "clock_out", "break_start", "break_end"])
    return st.lists(st.tuples(st.sampled_from(["pos", "badge"]), kinds, start), min_size=1, max_size=14,
                    unique_by=lambda p: (p[0], p[2]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(punches=_punches(), data=st.data())
def test_days_do_not_depend_on_arrival_order_or_batching(sandbox, clock, punches, data, runtime):
    base = START - timedelta(hours=15, minutes=30)
    events = [punch(f"{source}-{minute}", kind, (base + timedelta(minutes=minute)).isoformat(), source=source)
              for source, kind, minute in punches]

    def outcome(batches):
        with db.atomic() as savepoint:
            clock.set(START)
            for batch in batches:
                ingest(sandbox, batch, runtime)
                settle_due(runtime)
            provisional = days_of(sandbox)
            clock.advance(hours=17)
            settle_due(runtime)
            announced = [{k: v for k, v in r.items() if k != "event_id"} for r in rejections(sandbox)]  # ids are random
            final = (days_of(sandbox), announced,
                     sorted((e.external_id, e.state) for e in AttendanceEvent.select()
                            .where(AttendanceEvent.company == sandbox.id)))
            savepoint.rollback()
        return provisional, final

    shuffled = data.draw(st.permutations(events))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(events)), max_size=4)))
    batches = [shuffled[a:b] for a, b in zip([0, *cuts], [*cuts, len(events)], strict=True)]
    together = outcome([events])
    assert outcome(batches) == together
    # Every stored event ended paired or rejected, and each rejection was announced.
    _, (_, announced, fates) = together
    assert {state for _, state in fates} <= {"paired", "rejected"}
    assert len(announced) == sum(state == "rejected" for _, state in fates)


def test_sweeper_finds_unpaired_events(sandbox, clock, runtime):
    ingest(sandbox, [punch(1, "clock_in", datetime(2026, 11, 21, 7, 0, tzinfo=UTC).isoformat())], runtime)
    assert due_for_pairing(clock.now()) == {sandbox.id: [staff(sandbox, "SBX-001").id]}
    settle_due(runtime)
    assert due_for_pairing(clock.now()) == {}
