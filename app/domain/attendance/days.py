"""Attendance days: re-pairing the days that stored clock events touch, deciding each
event's fate, and the records listAttendanceDays serves (DESIGN.md, Pairing).

After an ingest, `settle` re-pairs only the affected employee-days: for each employee,
the local days within reach of the events pairing has not seen yet, read with enough
events around them that a shift or an overlap crossing the edge is seen whole. The
pure function (app/domain/attendance/pairing.py) decides; this module stores what it decided.

When fates become final: once 16 hours (`SETTLE_AFTER`) have passed since an event's
time and since it arrived. Until then a rejection is provisional (the event stays
`pending`, out of the day) and a clock-out may still close the shift, so arrival order
and batching do not change a day; and a day sent late in two requests (HR entering a
missed clock-in, then its clock-out) pairs as if sent at once. Then a rejection is
final: the event becomes `rejected`, is announced once as `attendance.rejected` (a
conditional update decides "once", even with two workers), and is never paired again.
An event that arrives after its partner's fate was decided meets that decision.
"""

import json
from collections.abc import Collection, Iterable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import peewee as pw

from app.domain.attendance.pairing import CHANNELS, MAX_SHIFT, ClockEvent, Pairing, Rejection, Shift, pair
from app.domain.kernel import events
from app.domain.kernel.clock import format_utc, from_db, to_db
from app.domain.kernel.errors import Words
from app.domain.kernel.paging import Page, Position, page_of
from app.domain.kernel.runtime import Runtime
from app.models import AttendanceDay, AttendanceEvent, Company, Employee
from app.models.base import dict_rows, lock_for_update, tuple_rows, write_transaction

SETTLE_AFTER = MAX_SHIFT
UNMATCHED_LIFETIME = timedelta(hours=72)
# Around a changed event at t, shifts that may change start between t - 48 h (a shift
# of up to 16 h before a neighbour that changed, 16 h before t) and t + 32 h.
DAYS_BEFORE, DAYS_AFTER = timedelta(hours=48), timedelta(hours=32)
# Events read beyond the rewritten days: a whole shift (16 h) plus the shift before it.
CONTEXT = timedelta(hours=40)
LIVE_STATES = ("pending", "paired")  # events pairing reads; `rejected` is final, `unmatched` has no one
T = TypeVar("T")


def settle(company_id: str, employee_ids: Iterable[str], runtime: Runtime) -> dict[str, int]:
    """Re-pair the days of these employees that their unseen or 16-hour-old events touch,
    and store the outcome. Idempotent: a second run finds nothing to do. Returns counts."""
    counts = {"employees": 0, "days": 0, "paired": 0, "rejected": 0}
    company = Company.get_or_none(Company.id == company_id)
    if company is None or not employee_ids:
        return counts
    now, zone = runtime.now(), ZoneInfo(company.timezone)
    with write_transaction():
        lock_for_update(Employee.select(Employee.id).where(Employee.id.in_(employee_ids)).order_by(Employee.id))
        spans = _spans(_due(employee_ids, now), zone)
        if not spans:
            return counts
        outcome = _Outcome()
        around, due = _events_around(spans, zone)
        for employee_id, employee_events in around.items():
            for first, last in spans[employee_id]:
                start, end = _local_start(first, zone), _local_start(last + timedelta(days=1), zone)
                window = [e for e in employee_events if start - CONTEXT <= e.at < end + CONTEXT]
                outcome.add(employee_id, first, last, pair(window, zone, now), start, end + SETTLE_AFTER, due, now)
        counts.update(employees=len(spans), **outcome.store(company, runtime, now))
    return counts


def due_for_pairing(now: datetime, limit: int = 5000) -> dict[str, list[str]]:
    """{company id: employee ids} with events pairing has not seen yet, or whose fate is
    due (16 hours old and not final): what the sweeper queues."""
    pending = AttendanceEvent.state == "pending"
    found: dict[str, set[str]] = {}
    for condition in (AttendanceEvent.paired_at.is_null(), _fate_due(now)):
        rows = tuple_rows(AttendanceEvent.select(AttendanceEvent.company, AttendanceEvent.employee).distinct()
                          .where(pending, condition).limit(limit))
        for company_id, employee_id in rows:
            found.setdefault(company_id, set()).add(employee_id)
    return {company_id: sorted(ids) for company_id, ids in found.items()}


def expire_unmatched(runtime: Runtime, batch: int = 500) -> int:
    """Reject events that have waited 72 hours for HR to link their person (Contract,
    Attendance event states), each announced once. Returns how many."""
    now = runtime.now()
    expired = 0
    while True:
        rows = list(AttendanceEvent.select(AttendanceEvent.id, AttendanceEvent.company, AttendanceEvent.external_id,
                                           AttendanceEvent.source, AttendanceEvent.ref_type, AttendanceEvent.ref_value)
                    .where(AttendanceEvent.state == "unmatched",
                           AttendanceEvent.received_at <= to_db(now - UNMATCHED_LIFETIME))
                    .order_by(AttendanceEvent.received_at, AttendanceEvent.id).limit(batch))
        companies = {c.id: c for c in Company.select().where(Company.id.in_({r.company_id for r in rows}))}
        with write_transaction():
            for row in rows:
                detail = Words("no employee matched %(ref_type)s %(value)r from %(source)s within 72 hours; "
                               "link the person and send the event again", ref_type=row.ref_type,
                               value=row.ref_value, source=row.source)
                expired += _reject(companies[row.company_id], row.id, row.external_id,
                                   "unmatched_employee_expired", detail, ("unmatched",), runtime, now)
        if len(rows) < batch:
            return expired


def list_days(company_id: str, start: date, end: date, *, employee_id: str | None = None,
              after: Position | None = None, limit: int = 50) -> Page[str]:
    """A page of `limit` stored days between `start` and `end` (inclusive), each its
    stored record (JSON text), by date and employee id, after the keyset position
    `after` (the previous page's `next_after`: a day's date and employee id)."""
    query = (AttendanceDay.select(AttendanceDay.date, AttendanceDay.employee, AttendanceDay.record)
             .join(Employee)
             .where(AttendanceDay.company == company_id, AttendanceDay.date.between(start, end),
                    Employee.archived == False))  # noqa: E712
    if employee_id is not None:
        query = query.where(AttendanceDay.employee == employee_id)
    if after is not None:
        day, last_employee = after
        query = query.where((AttendanceDay.date > day)
                            | ((AttendanceDay.date == day) & (AttendanceDay.employee > last_employee)))
    rows = dict_rows(query.order_by(AttendanceDay.date, AttendanceDay.employee).limit(limit + 1))
    found = page_of(rows, limit, lambda row: (row["date"], row["employee"]))
    return Page([row["record"] for row in found.items], found.next_after)


def rejected_punches(company_id: str, start: date, end: date, zone: str | ZoneInfo,
                     limit: int = 200) -> list[dict[str, Any]]:
    """The company's clock events of employees, between local days `start` and `end`,
    that became no shift, with why (HR sees why a punch stands alone): newest first."""
    zone = ZoneInfo(zone) if isinstance(zone, str) else zone
    return dict_rows(
        AttendanceEvent.select(AttendanceEvent.employee, AttendanceEvent.channel, AttendanceEvent.source,
                               AttendanceEvent.type, AttendanceEvent.at, AttendanceEvent.reason, AttendanceEvent.detail)
                .where(AttendanceEvent.company == company_id, AttendanceEvent.state == "rejected",
                       AttendanceEvent.employee.is_null(False),
                       AttendanceEvent.at >= to_db(_start_or_edge(start, zone)),
                       AttendanceEvent.at < to_db(_start_or_edge(end, zone, following=True)))
                .order_by(AttendanceEvent.at.desc(), AttendanceEvent.id).limit(limit))


def _due(employee_ids: Iterable[str], now: datetime) -> list[tuple[str, datetime]]:
    """(employee id, event time) of the events that make a day worth re-pairing."""
    return list(tuple_rows(AttendanceEvent.select(AttendanceEvent.employee, AttendanceEvent.at)
                           .where(AttendanceEvent.employee.in_(employee_ids), AttendanceEvent.state == "pending",
                                  AttendanceEvent.paired_at.is_null() | _fate_due(now))))


def _fate_due(now: datetime) -> pw.Expression:
    """Events whose fate is due: 16 hours past their time and their arrival."""
    cutoff = to_db(now - SETTLE_AFTER)
    return (AttendanceEvent.at < cutoff) & (AttendanceEvent.received_at < cutoff)


def _spans(due: Iterable[tuple[str, datetime]], zone: ZoneInfo) -> dict[str, list[tuple[date, date]]]:
    """{employee id: [(first day, last day)]}: the local days to rewrite, merged."""
    days: dict[str, list[tuple[date, date]]] = {}
    for employee_id, at in due:
        at = from_db(at)
        days.setdefault(employee_id, []).append(
            ((at - DAYS_BEFORE).astimezone(zone).date(), (at + DAYS_AFTER).astimezone(zone).date()))
    spans: dict[str, list[tuple[date, date]]] = {}
    for employee_id, ranges in days.items():
        merged: list[tuple[date, date]] = []
        for first, last in sorted(ranges):
            if merged and first <= merged[-1][1] + timedelta(days=1):
                merged[-1] = (merged[-1][0], max(merged[-1][1], last))
            else:
                merged.append((first, last))
        spans[employee_id] = merged
    return spans


def _events_around(spans: dict[str, list[tuple[date, date]]],
                   zone: ZoneInfo) -> tuple[dict[str, list[ClockEvent]], dict[str, datetime]]:
    """{employee id: [ClockEvent]} of every live event within CONTEXT of the spans, and
    {event id: when its fate is due}, in one query."""
    starts = [_local_start(first, zone) for ranges in spans.values() for first, _ in ranges]
    ends = [_local_start(last + timedelta(days=1), zone) for ranges in spans.values() for _, last in ranges]
    rows = tuple_rows(
        AttendanceEvent.select(AttendanceEvent.id, AttendanceEvent.employee, AttendanceEvent.external_id,
                               AttendanceEvent.channel, AttendanceEvent.source, AttendanceEvent.type,
                               AttendanceEvent.at, AttendanceEvent.branch_ref, AttendanceEvent.received_at)
        .where(AttendanceEvent.employee.in_(list(spans)), AttendanceEvent.state.in_(LIVE_STATES),
               AttendanceEvent.at.between(to_db(min(starts) - CONTEXT), to_db(max(ends) + CONTEXT))))
    found: dict[str, list[ClockEvent]] = {employee_id: [] for employee_id in spans}
    due: dict[str, datetime] = {}
    for event_id, employee_id, external_id, channel, source, kind, at, branch_ref, received_at in rows:
        found[employee_id].append(ClockEvent(event_id, external_id, channel, source, kind, from_db(at), branch_ref))
        due[event_id] = from_db(max(at, received_at)) + SETTLE_AFTER
    return found, due


def _local_start(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(), zone).astimezone(UTC)


def _start_or_edge(day: date, zone: ZoneInfo, *, following: bool = False) -> datetime:
    """When local `day` (or the day after it) begins, in UTC; at the ends of the calendar
    (0001-01-01, 9999-12-31), the first or last instant a datetime holds."""
    try:
        return _local_start(day + timedelta(days=1) if following else day, zone)
    except OverflowError:
        return (datetime.max if day.year == 9999 else datetime.min).replace(tzinfo=UTC)


class _Outcome:
    """What re-pairing decided, gathered across employees, then stored in a few statements."""

    days: dict[tuple[str, date, date], dict[date, dict[str, Any]]]
    seen: set[str]
    final_paired: set[str]
    rejections: list[Rejection]

    def __init__(self) -> None:
        self.days = {}  # (employee id, first, last) -> {date: record}
        self.seen, self.final_paired, self.rejections = set(), set(), []

    def add(self, employee_id: str, first: date, last: date, pairing: Pairing, start: datetime,
            fates_until: datetime, due: dict[str, datetime], now: datetime) -> None:
        records: dict[date, dict[str, Any]] = {}
        channels: dict[date, set[str]] = {}
        for shift in pairing.shifts:
            if first <= shift.day <= last:
                records.setdefault(shift.day, _empty_day(employee_id, shift.day))["shifts"].append(_shift_form(shift))
                channels.setdefault(shift.day, set()).update(shift.channels)
                self.seen.update(shift.event_ids)
                # Each settles at its own time; only a straggler could still change it.
                self.final_paired.update(event_id for event_id in shift.event_ids if due[event_id] < now)
        for open_shift in pairing.open_shifts:
            if first <= open_shift.day <= last:
                record = records.setdefault(open_shift.day, _empty_day(employee_id, open_shift.day))
                record["open_shift"] = {
                    "clock_in": format_utc(open_shift.clock_in), "break_minutes": open_shift.break_minutes,
                    "branch_ref": open_shift.branch_ref, "source": open_shift.channel,
                    "source_system": open_shift.source,
                }
                channels.setdefault(open_shift.day, set()).update(open_shift.channels)
                self.seen.update(open_shift.event_ids)
        for rejection in pairing.rejections:
            if start <= rejection.at < fates_until:
                self.seen.add(rejection.event_id)
                if due[rejection.event_id] < now:
                    self.rejections.append(rejection)
        for day, record in records.items():
            _total(record, channels[day])
        self.days[(employee_id, first, last)] = records

    def store(self, company: Company, runtime: Runtime, now: datetime) -> dict[str, int]:
        stamp = to_db(now)
        rejected = sum(_reject(company, r.event_id, r.external_id, r.reason, r.detail, LIVE_STATES, runtime, now)
                       for r in self.rejections)
        final = self.final_paired - {r.event_id for r in self.rejections}
        paired = 0
        for chunk in _chunks(sorted(final)):
            paired += (AttendanceEvent.update(state="paired", decided_at=stamp)
                       .where(AttendanceEvent.id.in_(chunk), AttendanceEvent.state == "pending").execute())
        for chunk in _chunks(sorted(self.seen)):
            AttendanceEvent.update(paired_at=stamp).where(AttendanceEvent.id.in_(chunk),
                                                          AttendanceEvent.state.in_(LIVE_STATES)).execute()
        by_span: dict[tuple[date, date], list[str]] = {}
        for employee_id, first, last in self.days:
            by_span.setdefault((first, last), []).append(employee_id)
        for (first, last), employee_ids in by_span.items():
            for chunk in _chunks(employee_ids):
                AttendanceDay.delete().where(AttendanceDay.employee.in_(chunk),
                                             AttendanceDay.date.between(first, last)).execute()
        rows = [(company.id, employee_id, date.fromisoformat(record["date"]), _dump(record), stamp)
                for (employee_id, _, _), records in self.days.items() for record in records.values()]
        fields = [AttendanceDay.company, AttendanceDay.employee, AttendanceDay.date, AttendanceDay.record,
                  AttendanceDay.updated_at]
        for batch in _chunks(rows, 200):
            AttendanceDay.insert_many(batch, fields=fields).execute()
        return {"days": len(rows), "paired": paired, "rejected": rejected}


def _reject(company: Company, event_id: str, external_id: str, reason: str, detail: str,
            from_states: Collection[str], runtime: Runtime, now: datetime) -> int:
    """Make one event's rejection final and announce it, once: 1 if this call did."""
    changed: int = (AttendanceEvent.update(state="rejected", reason=reason, detail=detail, decided_at=to_db(now),
                                           paired_at=to_db(now))
                    .where(AttendanceEvent.id == event_id, AttendanceEvent.state.in_(from_states)).execute())
    if changed:
        events.emit(company, "attendance.rejected",
                    {"external_id": external_id, "event_id": event_id, "reason": reason, "detail": detail}, runtime)
    return changed


def _empty_day(employee_id: str, day: date) -> dict[str, Any]:
    return {"employee_id": employee_id, "date": day.isoformat(), "shifts": [], "worked_minutes": 0,
            "break_minutes": 0, "open_shift": None, "sources": []}


def _shift_form(shift: Shift) -> dict[str, Any]:
    return {
        "clock_in": format_utc(shift.clock_in), "clock_out": format_utc(shift.clock_out),
        "break_minutes": shift.break_minutes, "worked_minutes": shift.worked_minutes,
        "branch_ref": shift.branch_ref, "source": shift.channel, "source_system": shift.source,
    }


def _total(record: dict[str, Any], channels: Collection[str]) -> None:
    """Totals, and `sources`: every channel any of the day's shifts came from (a device's
    shift that HR completed lists `manual` too)."""
    record["shifts"].sort(key=lambda s: (s["clock_in"], s["source"], s["source_system"]))
    record["worked_minutes"] = sum(s["worked_minutes"] for s in record["shifts"])
    record["break_minutes"] = sum(s["break_minutes"] for s in record["shifts"])
    record["sources"] = [channel for channel in CHANNELS if channel in channels]


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _chunks(items: Iterable[T], size: int = 500) -> list[list[T]]:
    items = list(items)
    return [items[i:i + size] for i in range(0, len(items), size)]
