"""Pairing clock events into shifts: a pure function of one employee's events.

    pair(events, timezone, now) -> Pairing(shifts, open_shifts, rejections)

The same events give the same result whatever order they are passed in (they are sorted
by a total order first), so arrival order and batching cannot change a day. The rules
(DESIGN.md, Pairing; Contract, Attendance):

- Events are paired per stream: one channel (`partner_api`, `employee_app`, `manual`)
  and one sending system (`source`). Within a stream, a clock-in opens a shift and the
  next clock-out closes it; `break_start`/`break_end` inside it are subtracted.
- HR's manual punches correct the person's other streams: each joins the stream it
  completes (a clock-out or break for a shift left open, a clock-in for a clock-out that
  has none), the nearest in time if several do; one that completes nothing stays in
  HR's own stream (a whole shift entered by hand). Manual punches are taken in time
  order, each seeing where the earlier ones went, so the result is still a function of
  the set of events. A shift's `channels` name every channel its events came from.
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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from app.domain.kernel.errors import Words

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
    channel: str  # the stream's: the device's when HR corrected it
    source: str
    clock_in: datetime
    clock_out: datetime
    break_minutes: int
    worked_minutes: int
    branch_ref: str | None
    event_ids: tuple[str, ...]
    channels: tuple[str, ...] = ()  # of all its events, in CHANNELS order


@dataclass(frozen=True, slots=True)
class OpenShift:
    day: date
    channel: str
    source: str
    clock_in: datetime
    break_minutes: int
    branch_ref: str | None
    event_ids: tuple[str, ...]
    channels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rejection:
    event_id: str
    external_id: str
    reason: str
    detail: str
    at: datetime  # the event's time (when the rejection may become final is the caller's rule)


@dataclass(frozen=True, slots=True)
class Pairing:
    shifts: tuple[Shift, ...]  # by clock-in
    open_shifts: tuple[OpenShift, ...]
    rejections: tuple[Rejection, ...]  # by event time, then event id


def sort_key(event: ClockEvent) -> tuple[datetime, int, str, str, str, str]:
    return (event.at, _RANK[event.type], event.channel, event.source, event.external_id, event.id)


def pair(events: Iterable[ClockEvent], timezone: ZoneInfo | str, now: datetime) -> Pairing:
    """Shifts, open shifts and rejections of one employee's `events` at `now`."""
    zone = ZoneInfo(timezone) if isinstance(timezone, str) else timezone
    streams: dict[tuple[str, str], list[ClockEvent]] = {}
    by_id: dict[str, ClockEvent] = {}
    manual: list[ClockEvent] = []
    for event in sorted(events, key=sort_key):
        by_id[event.id] = event
        if event.channel == "manual":
            manual.append(event)
        else:
            streams.setdefault((event.channel, event.source), []).append(event)
    for event in manual:  # in time order, each seeing where the earlier ones went
        stream = streams.setdefault(_completed_stream(event, streams), [])
        stream.append(event)
        stream.sort(key=sort_key)
    shifts: list[Shift] = []
    open_shifts: list[OpenShift] = []
    rejections: list[Rejection] = []
    for key, stream in streams.items():  # in the order of their first events: the same for the same events
        _pair_stream(key, stream, zone, now, shifts, open_shifts, rejections)
    shifts, open_shifts = _without_overlaps(shifts, open_shifts, now, by_id, rejections)
    rejections.sort(key=lambda r: (r.at, r.event_id))
    return Pairing(tuple(shifts), tuple(open_shifts), tuple(rejections))


def _completed_stream(punch: ClockEvent, streams: dict[tuple[str, str], list[ClockEvent]]) -> tuple[str, str]:
    """The stream a manual punch completes, nearest in time first (then by name); its own
    stream when it completes none."""
    fits: list[tuple[timedelta, tuple[str, str]]] = []
    for key, stream in streams.items():
        gap = _gap_filled(punch, stream)
        if gap is not None:
            fits.append((gap, key))
    return min(fits)[1] if fits else (punch.channel, punch.source)


def _gap_filled(punch: ClockEvent, stream: Sequence[ClockEvent]) -> timedelta | None:
    """How far `punch` sits from the event of `stream` it completes, or None if it
    completes nothing there: a clock-out or break inside a shift the stream left open
    (no clock-out of its own follows), a clock-in before a clock-out that has none."""
    key = sort_key(punch)
    opened: ClockEvent | None = None
    for event in stream:
        if sort_key(event) >= key:
            break
        opened = event if event.type == "clock_in" else None if event.type == "clock_out" else opened
    following = next((e for e in stream if sort_key(e) > key and e.type in ("clock_in", "clock_out")), None)
    if punch.type == "clock_in":
        closes = following is not None and following.type == "clock_out"
        if opened is None and closes and following is not None and following.at - punch.at <= MAX_SHIFT:
            return following.at - punch.at
        return None
    if opened is None or punch.at - opened.at > MAX_SHIFT:
        return None
    if punch.type == "clock_out" and following is not None and following.type == "clock_out":
        return None  # the stream closes that shift itself
    return punch.at - opened.at


class _Open:
    """The shift a stream has open: its clock-in, breaks so far, a break in progress."""

    __slots__ = ("clock_in", "break_seconds", "break_start", "events")
    clock_in: ClockEvent
    break_seconds: int
    break_start: ClockEvent | None
    events: list[ClockEvent]

    def __init__(self, clock_in: ClockEvent) -> None:
        self.clock_in, self.break_seconds, self.break_start, self.events = clock_in, 0, None, [clock_in]


def _pair_stream(key: tuple[str, str], stream: Sequence[ClockEvent], zone: ZoneInfo, now: datetime,
                 shifts: list[Shift], open_shifts: list[OpenShift], rejections: list[Rejection]) -> None:
    channel, source = key
    mixed = any(event.channel != channel for event in stream)  # HR completed some of its shifts

    def channels_of(events: Iterable[ClockEvent]) -> tuple[str, ...]:
        return _channels(events) if mixed else (channel,)

    def reject(event: ClockEvent, reason: str, detail: str) -> None:
        rejections.append(Rejection(event.id, event.external_id, reason, detail, event.at))

    def reject_all(events: Iterable[ClockEvent], reason: str, detail: str) -> None:
        for event in events:
            reject(event, reason, detail)

    current: _Open | None = None
    for event in stream:
        kind = event.type
        if kind == "clock_in":
            if current is not None:
                reject_all(current.events, "orphan_clock_in",
                           Words("clock-in at %(first)s UTC was followed by another clock-in at %(second)s UTC "
                                 "with no clock-out between", first=_hhmm(current.clock_in.at),
                                 second=_hhmm(event.at)))
            current = _Open(event)
        elif kind == "clock_out":
            if current is None:
                reject(event, "orphan_clock_out",
                       Words("no clock-in of this person before this clock-out, from HR or any device")
                       if event.channel == "manual" else
                       Words("no clock-in before this clock-out in the same source"))
                continue
            if current.break_start is not None:
                reject(current.break_start, "orphan_clock_in", Words("this break had not ended at clock-out"))
                current.events.remove(current.break_start)
            started = current.clock_in.at
            if event.at - started > MAX_SHIFT:
                hours, minutes = divmod(int((event.at - started).total_seconds()) // 60, 60)
                reject_all([*current.events, event], "shift_too_long",
                           Words("%(hours)d h %(minutes)02d min from clock-in to clock-out; at most 16 hours",
                                 hours=hours, minutes=minutes))
            else:
                seconds = int((event.at - started).total_seconds())
                shifts.append(Shift(
                    day=started.astimezone(zone).date(), channel=channel, source=source,
                    clock_in=started, clock_out=event.at, break_minutes=current.break_seconds // 60,
                    worked_minutes=(seconds - current.break_seconds) // 60,
                    branch_ref=current.clock_in.branch_ref or event.branch_ref,
                    event_ids=tuple(e.id for e in [*current.events, event]),
                    channels=channels_of([*current.events, event]),
                ))
            current = None
        elif kind == "break_start":
            if current is None:
                reject(event, "orphan_clock_in", Words("break_start outside any shift"))
            elif current.break_start is not None:
                reject(event, "orphan_clock_in", Words("break_start while a break had already started"))
            else:
                current.break_start = event
                current.events.append(event)
        else:  # break_end
            if current is None:
                reject(event, "orphan_clock_out", Words("break_end outside any shift"))
            elif current.break_start is None:
                reject(event, "orphan_clock_out", Words("break_end with no break_start before it"))
            else:
                current.break_seconds += int((event.at - current.break_start.at).total_seconds())
                current.break_start = None
                current.events.append(event)
    if current is not None:
        started = current.clock_in.at
        if now - started > MAX_SHIFT:
            reject_all(current.events, "orphan_clock_in", Words("no clock-out within 16 hours of this clock-in"))
        else:
            open_shifts.append(OpenShift(
                day=started.astimezone(zone).date(), channel=channel, source=source, clock_in=started,
                break_minutes=current.break_seconds // 60, branch_ref=current.clock_in.branch_ref,
                event_ids=tuple(e.id for e in current.events), channels=channels_of(current.events),
            ))


def _without_overlaps(shifts: Iterable[Shift], open_shifts: Iterable[OpenShift], now: datetime,
                      by_id: dict[str, ClockEvent], rejections: list[Rejection]) -> tuple[list[Shift], list[OpenShift]]:
    """Keep the earliest of overlapping shifts from different streams. The kept shifts
    never overlap one another, so only the last kept one (the latest end) can overlap
    the next candidate."""
    candidates: list[tuple[datetime, datetime, str, str, Shift | OpenShift]] = [
        (s.clock_in, s.clock_out, s.channel, s.source, s) for s in shifts]
    candidates += [(s.clock_in, max(now, s.clock_in), s.channel, s.source, s) for s in open_shifts]
    candidates.sort(key=lambda c: c[:4])
    kept_shifts: list[Shift] = []
    kept_open: list[OpenShift] = []
    last: tuple[datetime, datetime, str, str] | None = None
    for start, end, channel, source, shift in candidates:
        if last is not None and start < last[1] and (channel, source) != (last[2], last[3]):
            detail = Words("overlaps the shift from %(source)s (%(channel)s) %(start)s–%(end)s UTC, which was "
                           "recorded first by time", source=last[3], channel=last[2], start=_hhmm(last[0]),
                           end=_hhmm(last[1]))
            for event_id in shift.event_ids:
                event = by_id[event_id]
                rejections.append(Rejection(event.id, event.external_id, "overlapping_shift", detail, event.at))
            continue
        if isinstance(shift, Shift):
            kept_shifts.append(shift)
        else:
            kept_open.append(shift)
        if last is None or end > last[1]:
            last = (start, end, channel, source)
    return kept_shifts, kept_open


def _channels(events: Iterable[ClockEvent]) -> tuple[str, ...]:
    present = {event.channel for event in events}
    return tuple(channel for channel in CHANNELS if channel in present)


def _hhmm(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")
