"""Pairing clock events into shifts: a pure function of one employee's events.

    pair(events, timezone, now) -> Pairing(shifts, open_shifts, rejections)

The same events give the same result whatever order they are passed in (they are sorted
by a total order first), so arrival order and batching cannot change a day. The rules
(DESIGN.md, Pairing; Contract, Attendance):

- Events are paired per stream: one channel (`partner_api`, `employee_app`, `manual`)
  and one sending system (`source`). Within a stream, a clock-in opens a shift and the
  next clock-out closes it; `break_start`/`break_end` inside it are subtracted.
- A shift belongs to the local day (company timezone) on which it started, even when it
  crosses midnight.
- A shift longer than 16 hours is `shift_too_long` (all its events).
- A clock-out with no open shift is `orphan_clock_out`. A clock-in with no clock-out is an
  open shift until 16 hours have passed, then `orphan_clock_in` (with its breaks). A
  clock-in followed by another clock-in, with no clock-out between, is `orphan_clock_in`.
- Breaks outside any shift, a second `break_start` before the first ended, or a break
  still open at clock-out are rejected as `orphan_clock_in` (a start with no end) or
  `orphan_clock_out` (an end with no start), with a `detail` that says which.
- Shifts of different streams may not overlap: scanning by start time, the earlier shift
  stands and the later is `overlapping_shift` (all its events). An open shift counts as
  running until `now`.

Whether a rejection is final yet (16 hours after the event, when no straggler can still
change it) is decided by the caller (app/domain/attendance/days.py), not here.
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

MAX_SHIFT = timedelta(hours=16)
EVENT_TYPES = ("clock_in", "clock_out", "break_start", "break_end")
CHANNELS = ("partner_api", "employee_app", "manual")
# At one instant: close what is open before opening anything.
_RANK = {"clock_out": 0, "break_end": 1, "break_start": 2, "clock_in": 3}


@dataclass(frozen=True, slots=True)
class ClockEvent:
    id: str
    external_id: str
    channel: str  # partner_api, employee_app, manual
    source: str  # the sending system's name
    type: str  # one of EVENT_TYPES
    at: datetime  # aware
    branch_ref: str | None = None


@dataclass(frozen=True, slots=True)
class Shift:
    day: date
    channel: str
    source: str
    clock_in: datetime
    clock_out: datetime
    break_minutes: int
    worked_minutes: int
    branch_ref: str | None
    event_ids: tuple


@dataclass(frozen=True, slots=True)
class OpenShift:
    day: date
    channel: str
    source: str
    clock_in: datetime
    break_minutes: int
    branch_ref: str | None
    event_ids: tuple


@dataclass(frozen=True, slots=True)
class Rejection:
    event_id: str
    external_id: str
    reason: str
    detail: str
    at: datetime  # the event's time (when the rejection may become final is the caller's rule)


@dataclass(frozen=True, slots=True)
class Pairing:
    shifts: tuple  # by clock-in
    open_shifts: tuple
    rejections: tuple  # by event time, then event id


def sort_key(event):
    return (event.at, _RANK[event.type], event.channel, event.source, event.external_id, event.id)


def pair(events, timezone, now):
    """Shifts, open shifts and rejections of one employee's `events` at `now`."""
    zone = ZoneInfo(timezone) if isinstance(timezone, str) else timezone
    streams, by_id = {}, {}
    for event in sorted(events, key=sort_key):
        streams.setdefault((event.channel, event.source), []).append(event)
        by_id[event.id] = event
    shifts, open_shifts, rejections = [], [], []
    for stream in streams.values():
        _pair_stream(stream, zone, now, shifts, open_shifts, rejections)
    shifts, open_shifts = _without_overlaps(shifts, open_shifts, now, by_id, rejections)
    rejections.sort(key=lambda r: (r.at, r.event_id))
    return Pairing(tuple(shifts), tuple(open_shifts), tuple(rejections))


class _Open:
    """The shift a stream has open: its clock-in, breaks so far, a break in progress."""

    __slots__ = ("clock_in", "break_seconds", "break_start", "events")

    def __init__(self, clock_in):
        self.clock_in, self.break_seconds, self.break_start, self.events = clock_in, 0, None, [clock_in]


def _pair_stream(stream, zone, now, shifts, open_shifts, rejections):
    def reject(event, reason, detail):
        rejections.append(Rejection(event.id, event.external_id, reason, detail, event.at))

    def reject_all(events, reason, detail):
        for event in events:
            reject(event, reason, detail)

    current = None
    for event in stream:
        kind = event.type
        if kind == "clock_in":
            if current is not None:
                reject_all(current.events, "orphan_clock_in",
                           f"clock-in at {_hhmm(current.clock_in.at)} UTC was followed by another clock-in at "
                           f"{_hhmm(event.at)} UTC with no clock-out between")
            current = _Open(event)
        elif kind == "clock_out":
            if current is None:
                reject(event, "orphan_clock_out", "no clock-in before this clock-out in the same source")
                continue
            if current.break_start is not None:
                reject(current.break_start, "orphan_clock_in", "this break had not ended at clock-out")
                current.events.remove(current.break_start)
            started = current.clock_in.at
            if event.at - started > MAX_SHIFT:
                reject_all([*current.events, event], "shift_too_long",
                           f"{_hours(event.at - started)} from clock-in to clock-out; at most 16 hours")
            else:
                seconds = int((event.at - started).total_seconds())
                shifts.append(Shift(
                    day=started.astimezone(zone).date(), channel=event.channel, source=event.source,
                    clock_in=started, clock_out=event.at, break_minutes=current.break_seconds // 60,
                    worked_minutes=(seconds - current.break_seconds) // 60,
                    branch_ref=current.clock_in.branch_ref or event.branch_ref,
                    event_ids=tuple(e.id for e in [*current.events, event]),
                ))
            current = None
        elif kind == "break_start":
            if current is None:
                reject(event, "orphan_clock_in", "break_start outside any shift")
            elif current.break_start is not None:
                reject(event, "orphan_clock_in", "break_start while a break had already started")
            else:
                current.break_start = event
                current.events.append(event)
        else:  # break_end
            if current is None:
                reject(event, "orphan_clock_out", "break_end outside any shift")
            elif current.break_start is None:
                reject(event, "orphan_clock_out", "break_end with no break_start before it")
            else:
                current.break_seconds += int((event.at - current.break_start.at).total_seconds())
                current.break_start = None
                current.events.append(event)
    if current is not None:
        started = current.clock_in.at
        if now - started > MAX_SHIFT:
            reject_all(current.events, "orphan_clock_in", "no clock-out within 16 hours of this clock-in")
        else:
            open_shifts.append(OpenShift(
                day=started.astimezone(zone).date(), channel=current.clock_in.channel,
                source=current.clock_in.source, clock_in=started, break_minutes=current.break_seconds // 60,
                branch_ref=current.clock_in.branch_ref, event_ids=tuple(e.id for e in current.events),
            ))


def _without_overlaps(shifts, open_shifts, now, by_id, rejections):
    """Keep the earliest of overlapping shifts from different streams. The kept shifts
    never overlap one another, so only the last kept one (the latest end) can overlap
    the next candidate."""
    candidates = [(s.clock_in, s.clock_out, s.channel, s.source, s) for s in shifts]
    candidates += [(s.clock_in, max(now, s.clock_in), s.channel, s.source, s) for s in open_shifts]
    candidates.sort(key=lambda c: c[:4])
    kept_shifts, kept_open, last = [], [], None
    for start, end, channel, source, shift in candidates:
        if last is not None and start < last[1] and (channel, source) != (last[2], last[3]):
            detail = (f"overlaps the shift from {last[3]} ({last[2]}) {_hhmm(last[0])}–{_hhmm(last[1])} UTC, "
                      f"which was recorded first by time")
            for event_id in shift.event_ids:
                event = by_id[event_id]
                rejections.append(Rejection(event.id, event.external_id, "overlapping_shift", detail, event.at))
            continue
        (kept_shifts if isinstance(shift, Shift) else kept_open).append(shift)
        if last is None or end > last[1]:
            last = (start, end, channel, source)
    return kept_shifts, kept_open


def _hhmm(moment):
    return moment.strftime("%Y-%m-%d %H:%M")


def _hours(delta):
    minutes = int(delta.total_seconds()) // 60
    return f"{minutes // 60} h {minutes % 60:02d} min"
