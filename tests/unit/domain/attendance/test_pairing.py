"""Pairing rules, one example each, and the properties that must hold for every input:
order independence, every event accounted for exactly once, no kept overlap."""

import random
from datetime import UTC, date, datetime, timedelta
from itertools import count

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.attendance.pairing import EVENT_TYPES, MAX_SHIFT, ClockEvent, pair

T0 = datetime(2026, 11, 20, 5, 0, tzinfo=UTC)  # 08:00 in Riyadh, 09:00 in Dubai
_ids = count(1)


def ev(kind, at, source="pos", channel="partner_api", branch=None):
    n = next(_ids)
    return ClockEvent(id=f"aev_{n:06d}", external_id=f"x-{n}", channel=channel, source=source, type=kind,
                      at=at, branch_ref=branch)


def hours(h, m=0, s=0):
    return T0 + timedelta(hours=h, minutes=m, seconds=s)


def reasons(result):
    return {r.event_id: r.reason for r in result.rejections}


def test_a_shift_with_a_break():
    events = [ev("clock_in", hours(0), branch="HQ"), ev("break_start", hours(4)), ev("break_end", hours(4, 45)),
              ev("clock_out", hours(9))]
    result = pair(events, "Asia/Riyadh", hours(10))
    [shift] = result.shifts
    assert (shift.day, shift.break_minutes, shift.worked_minutes) == (date(2026, 11, 20), 45, 8 * 60 + 15)
    assert shift.branch_ref == "HQ" and shift.event_ids == tuple(e.id for e in events)
    assert not result.rejections and not result.open_shifts


def test_a_shift_crossing_midnight_belongs_to_the_day_it_started_in_the_company_timezone():
    # 20:30 UTC is 23:30 in Riyadh (UTC+3) but already 00:30 the next day in Dubai (UTC+4).
    clock_in = datetime(2026, 11, 20, 20, 30, tzinfo=UTC)
    events = [ev("clock_in", clock_in), ev("clock_out", clock_in + timedelta(hours=8))]
    assert pair(events, "Asia/Riyadh", clock_in + timedelta(hours=9)).shifts[0].day == date(2026, 11, 20)
    assert pair(events, "Asia/Dubai", clock_in + timedelta(hours=9)).shifts[0].day == date(2026, 11, 21)


def test_sixteen_hours_is_the_longest_shift():
    exactly = [ev("clock_in", hours(0)), ev("clock_out", hours(16))]
    assert pair(exactly, "Asia/Riyadh", hours(17)).shifts[0].worked_minutes == 16 * 60
    too_long = [ev("clock_in", hours(0)), ev("clock_out", hours(16, 0, 1))]
    result = pair(too_long, "Asia/Riyadh", hours(17))
    assert not result.shifts and set(reasons(result).values()) == {"shift_too_long"} and len(result.rejections) == 2
    assert "16 h 00 min" in result.rejections[0].detail


def test_a_clock_in_is_open_for_sixteen_hours_then_orphaned():
    clock_in = ev("clock_in", hours(0))
    still_open = pair([clock_in], "Asia/Riyadh", hours(16))
    assert still_open.open_shifts[0].event_ids == (clock_in.id,) and not still_open.rejections
    orphaned = pair([clock_in], "Asia/Riyadh", hours(16, 0, 1))
    assert reasons(orphaned) == {clock_in.id: "orphan_clock_in"} and not orphaned.open_shifts


def test_orphan_clock_out_and_a_clock_in_followed_by_another():
    early_out = ev("clock_out", hours(0))
    first_in, second_in, out = ev("clock_in", hours(1)), ev("clock_in", hours(2)), ev("clock_out", hours(8))
    result = pair([out, second_in, first_in, early_out], "Asia/Riyadh", hours(9))
    assert reasons(result) == {early_out.id: "orphan_clock_out", first_in.id: "orphan_clock_in"}
    assert result.shifts[0].clock_in == hours(2)


def test_breaks_outside_a_shift_or_unbalanced_are_rejected_with_a_detail():
    lone_end = ev("break_end", hours(0))
    clock_in, start, second_start = ev("clock_in", hours(1)), ev("break_start", hours(2)), ev("break_start", hours(3))
    out = ev("clock_out", hours(6))
    result = pair([lone_end, clock_in, start, second_start, out], "Asia/Riyadh", hours(7))
    assert reasons(result) == {lone_end.id: "orphan_clock_out", second_start.id: "orphan_clock_in",
                               start.id: "orphan_clock_in"}
    details = {r.event_id: r.detail for r in result.rejections}
    assert details[start.id] == "this break had not ended at clock-out"
    assert result.shifts[0].break_minutes == 0 and result.shifts[0].worked_minutes == 5 * 60


def test_overlapping_shifts_from_other_sources_the_earlier_stands():
    pos = [ev("clock_in", hours(0), source="pos"), ev("clock_out", hours(8), source="pos")]
    app = [ev("clock_in", hours(7), channel="employee_app", source="app"),
           ev("clock_out", hours(12), channel="employee_app", source="app")]
    later_ok = [ev("clock_in", hours(12), source="badge"), ev("clock_out", hours(14), source="badge")]
    result = pair([*app, *later_ok, *pos], "Asia/Riyadh", hours(15))
    assert [s.source for s in result.shifts] == ["pos", "badge"]  # touching at 12:00 is not overlapping
    assert reasons(result) == {app[0].id: "overlapping_shift", app[1].id: "overlapping_shift"}
    assert "overlaps the shift from pos" in result.rejections[0].detail


def test_an_open_shift_overlaps_until_now():
    pos_open = ev("clock_in", hours(0), source="pos")
    manual = [ev("clock_in", hours(2), channel="manual", source="hr"),
              ev("clock_out", hours(3), channel="manual", source="hr")]
    result = pair([pos_open, *manual], "Asia/Riyadh", hours(4))
    assert result.open_shifts[0].event_ids == (pos_open.id,)
    assert set(reasons(result)) == {manual[0].id, manual[1].id}


def test_hr_completes_a_device_shift_missing_its_clock_in_or_its_clock_out():
    """The HR commands guide's example (docs/operators/commands.md): a manual clock-in and
    an app clock-out make one day."""
    app_out = ev("clock_out", hours(9), channel="employee_app", source="app")
    hr_in = ev("clock_in", hours(0), channel="manual", source="hr")
    [shift] = pair([app_out, hr_in], "Asia/Riyadh", hours(10)).shifts
    assert (shift.channel, shift.source, shift.worked_minutes) == ("employee_app", "app", 9 * 60)
    assert shift.channels == ("employee_app", "manual") and set(shift.event_ids) == {app_out.id, hr_in.id}

    pos_in, pos_break = ev("clock_in", hours(24)), ev("break_start", hours(28))
    hr_break_end, hr_out = (ev("break_end", hours(28, 30), channel="manual", source="hr"),
                            ev("clock_out", hours(32), channel="manual", source="hr"))
    result = pair([hr_out, pos_in, hr_break_end, pos_break], "Asia/Riyadh", hours(33))
    [shift] = result.shifts
    assert (shift.source, shift.break_minutes, shift.worked_minutes) == ("pos", 30, 7 * 60 + 30)
    assert not result.rejections


def test_a_manual_punch_goes_to_the_shift_it_completes_nearest_in_time():
    far = ev("clock_out", hours(8), source="badge")  # two clock-outs with no clock-in
    near = ev("clock_out", hours(3), channel="employee_app", source="app")
    hr_in = ev("clock_in", hours(2), channel="manual", source="hr")
    result = pair([far, near, hr_in], "Asia/Riyadh", hours(11))
    assert [(s.source, s.worked_minutes) for s in result.shifts] == [("app", 60)]
    assert reasons(result) == {far.id: "orphan_clock_out"}


def test_a_manual_punch_that_completes_nothing_stands_alone_and_says_why():
    pos = [ev("clock_in", hours(0)), ev("clock_out", hours(8))]  # complete already
    hr_out = ev("clock_out", hours(9), channel="manual", source="hr")
    result = pair([*pos, hr_out], "Asia/Riyadh", hours(10))
    assert [s.source for s in result.shifts] == ["pos"]
    [alone] = result.rejections
    assert alone.event_id == hr_out.id and alone.reason == "orphan_clock_out"
    assert "from HR or any device" in alone.detail
    whole = [ev("clock_in", hours(12), channel="manual", source="hr"),
             ev("clock_out", hours(14), channel="manual", source="hr")]
    assert [s.channels for s in pair([*pos, *whole], "Asia/Riyadh", hours(15)).shifts] == [
        ("partner_api",), ("manual",)]


# ---- properties --------------------------------------------------------------------

events_strategy = st.lists(
    st.tuples(
        st.sampled_from(EVENT_TYPES),
        st.integers(min_value=0, max_value=72 * 60),  # minutes after T0
        st.sampled_from([("partner_api", "pos"), ("partner_api", "badge"), ("employee_app", "app"), ("manual", "hr")]),
    ),
    max_size=40,
)


def build(specs):
    return [ClockEvent(id=f"aev_{i:04d}", external_id=f"x-{i}", channel=channel, source=source, type=kind,
                       at=T0 + timedelta(minutes=minute))
            for i, (kind, minute, (channel, source)) in enumerate(specs)]


@settings(max_examples=300, deadline=None)
@given(events_strategy, st.randoms(use_true_random=False), st.integers(min_value=0, max_value=80 * 60))
def test_the_result_does_not_depend_on_the_order_events_come_in(specs, rng, now_minutes):
    events = build(specs)
    now = T0 + timedelta(minutes=now_minutes)
    shuffled = list(events)
    rng.shuffle(shuffled)
    assert pair(shuffled, "Asia/Dubai", now) == pair(events, "Asia/Dubai", now)


@settings(max_examples=300, deadline=None)
@given(events_strategy, st.integers(min_value=0, max_value=80 * 60))
def test_every_event_is_in_exactly_one_place_and_kept_shifts_never_overlap(specs, now_minutes):
    events = build(specs)
    now = T0 + timedelta(minutes=now_minutes)
    result = pair(events, "Asia/Riyadh", now)
    placed = [i for s in result.shifts for i in s.event_ids] + [i for s in result.open_shifts for i in s.event_ids]
    placed += [r.event_id for r in result.rejections]
    assert sorted(placed) == sorted(e.id for e in events)
    intervals = sorted([(s.clock_in, s.clock_out) for s in result.shifts] +
                       [(s.clock_in, max(now, s.clock_in)) for s in result.open_shifts])
    for (_, end), (start, _) in zip(intervals, intervals[1:], strict=False):
        assert start >= end
    for shift in result.shifts:
        assert shift.clock_out - shift.clock_in <= MAX_SHIFT
        length_minutes = (shift.clock_out - shift.clock_in).total_seconds() // 60
        assert shift.worked_minutes + shift.break_minutes <= length_minutes + 1  # each floored on its own


def test_large_random_input_is_stable_under_shuffling():
    rng = random.Random(5)
    specs = [(rng.choice(EVENT_TYPES), rng.randrange(0, 30 * 24 * 60), ("partner_api", rng.choice(["a", "b"])))
             for _ in range(3000)]
    events = build(specs)
    shuffled = list(events)
    rng.shuffle(shuffled)
    now = T0 + timedelta(days=31)
    assert pair(shuffled, "Asia/Kuwait", now) == pair(events, "Asia/Kuwait", now)
