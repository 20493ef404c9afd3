"""Attendance ingest: one result per clock event, in request order (Contract,
ingestAttendanceEvents; DESIGN.md, Decisions).

Each event is checked on its own; one bad event never fails its neighbours. The whole
batch then costs a handful of queries: one per kind of `employee_ref` to match people,
one insert that skips what is already stored (the unique index on company, channel,
source and external id decides a resend, even one racing in another request), and one
read of the original ids of duplicates.

Result `reason`s start with a short code a client can branch on, then say what to fix:
`invalid_at: ...`.

Every text field is one line of text (kernel/text.py, `line_problem`): the references
reach HR's console, the `attendance unmatched` command and partners' results as sent, so an
event whose `external_id`, `source`, `branch_ref` or `employee_ref.value` holds a line
break, a control or a bidirectional control character is `invalid_text`, not stored.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import peewee as pw
import phonenumbers
from peewee import fn

from app.domain.attendance.pairing import EVENT_TYPES
from app.domain.kernel.clock import from_db, parse_rfc3339, to_db
from app.domain.kernel.errors import NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.text import line_problem
from app.models import AttendanceEvent, Company, Employee, IdentityLink
from app.models.attendance import NEW_EVENT_COLUMNS, insert_new_events
from app.models.base import dict_rows, write_transaction

REF_TYPES = ("external_id", "employee_code", "email", "phone")
# HR and the employee app know exactly whom they mean; partners never send our ids.
INTERNAL_REF_TYPES = (*REF_TYPES, "employee_id")
MAX_FUTURE = timedelta(minutes=5)
MAX_PAST = timedelta(days=35)
TEXT_LIMITS = {"external_id": 200, "source": 100, "branch_ref": 100}
REF_VALUE_LIMIT = 254


# The sending system's name for events that do not come from a partner.
INTERNAL_SOURCES = {"manual": "hr", "employee_app": "employee_app"}

@dataclass(frozen=True)
class Result:
    external_id: str | None
    status: str  # accepted, duplicate, unmatched_employee, rejected
    event_id: str | None = None
    reason: str | None = None  # `code: words`, as the API answers it
    words: Words | None = field(default=None, compare=False)  # the reason's words alone, for people

    def as_dict(self) -> dict[str, str | None]:
        shown = {"external_id": self.external_id, "status": self.status}
        if self.event_id:
            shown["event_id"] = self.event_id
        if self.reason:
            shown["reason"] = self.reason
        return shown


def ingest(company: Company, events: Sequence[Any], runtime: Runtime, *,
           channel: str = "partner_api") -> list[Result]:
    """Store what is valid and new; return one Result per input event, in order."""
    now = runtime.now()
    results: list[Any] = [None] * len(events)  # each index gets its Result below
    rows: list[tuple[int, dict[str, Any]]] = []
    for index, raw in enumerate(events):
        parsed = _check(raw, now, REF_TYPES if channel == "partner_api" else INTERNAL_REF_TYPES, company.country)
        if isinstance(parsed, tuple):
            code, words = parsed
            external_id = raw.get("external_id") if isinstance(raw, dict) else None
            # The result echoes a string or null, never what a wrong type carried, nor
            # text that is not one line (that cannot be written back as UTF-8, or that
            # would break the line or reorder the text of whoever prints the result).
            echo = external_id if isinstance(external_id, str) and not line_problem(external_id) else None
            results[index] = Result(echo, "rejected", reason=f"{code}: {words}", words=words)
        else:
            rows.append((index, parsed))
    if not rows:
        return results
    who = _match(company, [row for _, row in rows])
    received = to_db(now)
    for _, row in rows:
        employee_id = who(row["ref_type"], row["ref_value"], row["source"])
        row.update(id=new_id("aev"), company=company.id, channel=channel, employee=employee_id,
                   received_at=received, state="pending" if employee_id else "unmatched")
    stored = insert_new_events([tuple(row[c] for c in NEW_EVENT_COLUMNS) for _, row in rows])
    matched = {row["employee"] for _, row in rows if row["id"] in stored and row["employee"]}
    runtime.clock_events_stored(company.id, matched)
    originals = _originals(company, channel, [row for _, row in rows if row["id"] not in stored])
    for index, row in rows:
        if row["id"] in stored:
            status = "accepted" if row["employee"] else "unmatched_employee"
            results[index] = Result(row["external_id"], status, row["id"])
        else:
            results[index] = Result(row["external_id"], "duplicate",
                                    originals.get((row["source"], row["external_id"])))
    return results


def _check(raw: object, now: datetime, ref_types: Sequence[str],
           region: str) -> dict[str, Any] | tuple[str, Words]:
    """The event's row (without ids), or why it is rejected: (a short code, what to fix)."""
    if not isinstance(raw, dict):
        return "invalid_event", Words("each event is a JSON object")
    for name in ("external_id", "employee_ref", "type", "at", "source"):
        if raw.get(name) in (None, ""):
            return "missing_field", Words("`%(field)s` is required", field=name)
    ref = raw["employee_ref"]
    texts = {**{name: raw.get(name) for name in ("external_id", "type", "at", "source", "branch_ref")},
             **({"employee_ref.type": ref.get("type"), "employee_ref.value": ref.get("value")}
                if isinstance(ref, dict) else {})}
    for name, value in texts.items():
        problem = line_problem(value) if isinstance(value, str) else None
        if problem:
            return "invalid_text", Words("`%(field)s` %(problem)s", field=name, problem=problem)
    for name, limit in TEXT_LIMITS.items():
        value = raw.get(name)
        if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > limit):
            return f"invalid_{name}", Words("`%(field)s` is a non-empty string of at most %(limit)s characters",
                                            field=name, limit=limit)
    if not isinstance(raw["type"], str):
        return "unknown_type", Words("`type` is a string, one of %(choices)s", choices=", ".join(EVENT_TYPES))
    if raw["type"] not in EVENT_TYPES:
        return "unknown_type", Words("`type` %(value)r is not one of %(choices)s", value=raw["type"][:40],
                                     choices=", ".join(EVENT_TYPES))
    if not isinstance(ref, dict) or not isinstance(ref.get("type"), str) or not isinstance(ref.get("value"), str):
        return "invalid_employee_ref", Words("`employee_ref` is an object with string `type` and `value`")
    if ref["type"] not in ref_types:
        return "unknown_employee_ref_type", Words("%(value)r is not one of %(choices)s", value=ref["type"][:40],
                                                  choices=", ".join(ref_types))
    if not ref["value"].strip() or len(ref["value"]) > REF_VALUE_LIMIT:
        return "invalid_employee_ref", Words("`employee_ref.value` is a non-empty string of at most %(limit)s "
                                             "characters", limit=REF_VALUE_LIMIT)
    ref_value = ref_key(ref["type"], ref["value"], region)
    if len(ref_value) > REF_VALUE_LIMIT:  # lower-casing can lengthen text ("İ" is two characters lower)
        return "invalid_employee_ref", Words("`employee_ref.value` is over %(limit)s characters once normalized",
                                             limit=REF_VALUE_LIMIT)
    at = parse_rfc3339(raw["at"])
    if at is None:
        return "invalid_at", Words("`at` is an RFC 3339 time with a UTC offset, like 2026-11-21T08:00:00+03:00")
    if at > now + MAX_FUTURE:
        return "at_in_future", Words("`at` is more than 5 minutes in the future (check the device clock)")
    if at < now - MAX_PAST:
        return "at_too_old", Words("`at` is more than 35 days in the past")
    return {
        "external_id": raw["external_id"], "source": raw["source"], "type": raw["type"], "at": to_db(at),
        "branch_ref": raw.get("branch_ref"), "ref_type": ref["type"], "ref_value": ref_value,
    }


def ref_key(ref_type: str, value: str, region: str) -> str:
    """The form a reference is matched in: emails without case, phones in E.164. A phone
    is read as dialled in `region` (the company's country), so a Kuwaiti company's
    `55952568`, `0096555952568` and `+965 5595 2568` are one number."""
    value = value.strip()
    if ref_type == "email":
        return value.lower()
    if ref_type == "phone":
        try:
            number = phonenumbers.parse(value, region)
        except phonenumbers.NumberParseException:
            return value
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return value


def _match(company: Company, rows: Iterable[dict[str, Any]]) -> Callable[[str, str, str], str | None]:
    """who(ref type, value, source) -> employee id or None, after one query per kind of
    reference named in `rows` and one for HR's links. A reference that names someone
    directly wins over a link; links are per sending system."""
    wanted: dict[str, set[str]] = {}
    for row in rows:
        wanted.setdefault(row["ref_type"], set()).add(row["ref_value"])
    people = Employee.select(Employee.id, Employee.staff_number, Employee.contact_email, Employee.contact_phone) \
        .where(Employee.company == company.id, Employee.archived == False)  # noqa: E712
    direct: dict[tuple[str, str | None], str] = {}
    for ref_type, column, key in _DIRECT:
        if ref_type in wanted:
            # Oldest first, so when two people share an email or phone the same one always wins.
            for person in people.where(column.in_(wanted[ref_type])).order_by(Employee.created_at, Employee.id):
                direct.setdefault((ref_type, key(person)), person.id)
    unresolved = {value for ref_type, values in wanted.items() for value in values if (ref_type, value) not in direct}
    linked: dict[tuple[str, str, str], str] = {}
    if unresolved:
        links = (IdentityLink.select(IdentityLink.source, IdentityLink.ref_type, IdentityLink.value,
                                     IdentityLink.employee)
                 .join(Employee)
                 .where(IdentityLink.company == company.id, IdentityLink.value.in_(unresolved),
                        Employee.archived == False))  # noqa: E712
        linked = {(link.ref_type, link.value, link.source): link.employee_id for link in links}

    def who(ref_type: str, value: str, source: str) -> str | None:
        return direct.get((ref_type, value)) or linked.get((ref_type, value, source))

    return who


# ref type -> the column it is matched against, and that column's value in matching form
_DIRECT: tuple[tuple[str, pw.ColumnBase, Callable[[Employee], str | None]], ...] = (
    ("employee_id", Employee.id, lambda person: person.id),
    ("employee_code", Employee.staff_number, lambda person: person.staff_number),
    # Only people whose email matched are keyed, so `contact_email` is never null here.
    ("email", fn.LOWER(Employee.contact_email), lambda person: person.contact_email and person.contact_email.lower()),
    ("phone", Employee.contact_phone, lambda person: person.contact_phone),
)


def _originals(company: Company, channel: str, duplicates: Sequence[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """{(source, external id): stored event id} for the duplicates of this batch."""
    if not duplicates:
        return {}
    external_ids = {row["external_id"] for row in duplicates}
    stored = AttendanceEvent.select(AttendanceEvent.id, AttendanceEvent.source, AttendanceEvent.external_id).where(
        AttendanceEvent.company == company.id, AttendanceEvent.channel == channel,
        AttendanceEvent.external_id.in_(external_ids))
    return {(event.source, event.external_id): event.id for event in stored}


def record_punch(company: Company, employee_id: str, kind: str, at: datetime, runtime: Runtime, *, channel: str,
                 external_id: str | None = None, branch_ref: str | None = None) -> Result:
    """One punch entered by HR (`manual`) or sent by the employee app (`employee_app`),
    stored and paired exactly like a partner's event. The app passes its own id for the
    punch, so a resend is a `duplicate`. Refusals raise ValidationFailed."""
    if channel not in INTERNAL_SOURCES:
        raise ValueError(f"unknown channel {channel!r}")
    _employee_of(company, employee_id)
    event = {"external_id": external_id or new_id("pun"), "employee_ref": {"type": "employee_id", "value": employee_id},
             "type": kind, "at": at.isoformat() if isinstance(at, datetime) else at,
             "source": INTERNAL_SOURCES[channel], "branch_ref": branch_ref or None}
    [result] = ingest(company, [event], runtime, channel=channel)
    if result.status == "rejected":
        code, _, message = (result.reason or "").partition(": ")
        said = result.words or message
        field = (result.words.values.get("field") if code == "invalid_text" and result.words else None)
        raise ValidationFailed(said, errors=[(str(field) if field else {"unknown_type": "type"}.get(code, "at"), said)])
    return result


def unmatched_references(company_id: str) -> list[dict[str, Any]]:
    """Each way a sending system named a person no employee matched, with the number of
    events waiting for HR to link it, most waiting first."""
    count = fn.COUNT(AttendanceEvent.id)
    rows = dict_rows(AttendanceEvent.select(AttendanceEvent.source, AttendanceEvent.ref_type, AttendanceEvent.ref_value,
                                   count.alias("events"), fn.MIN(AttendanceEvent.at).alias("first_at"),
                                   fn.MAX(AttendanceEvent.at).alias("last_at"),
                                   fn.MIN(AttendanceEvent.received_at).alias("first_received_at"))
            .where(AttendanceEvent.company == company_id, AttendanceEvent.state == "unmatched")
            .group_by(AttendanceEvent.source, AttendanceEvent.ref_type, AttendanceEvent.ref_value)
            .order_by(count.desc(), AttendanceEvent.source, AttendanceEvent.ref_type, AttendanceEvent.ref_value))
    return [{**row, **{k: from_db(_as_datetime(row[k])) for k in ("first_at", "last_at", "first_received_at")}}
            for row in rows]


def link_reference(company: Company, source: str, ref_type: str, value: str, employee_id: str,
                   runtime: Runtime) -> int:
    """HR says whom a sending system's reference means (DESIGN.md: employee_ref
    matching). The link is kept, so later events match at once, and the events waiting
    for it are handed to pairing. Returns how many were waiting."""
    if ref_type not in REF_TYPES:
        raise ValidationFailed(Words("Unknown kind of reference."),
                               errors=[("ref_type", Words("one of %(choices)s", choices=", ".join(REF_TYPES)))])
    _employee_of(company, employee_id)
    key = ref_key(ref_type, value, company.country)
    with write_transaction():
        # One statement decides, even for two links of the same reference at once: the
        # unique index keeps one link, and the later one names the employee.
        (IdentityLink.insert(company=company.id, source=source, ref_type=ref_type, value=key,
                             employee=employee_id, created_at=to_db(runtime.now()))
         .on_conflict(conflict_target=[IdentityLink.company, IdentityLink.source, IdentityLink.ref_type,
                                       IdentityLink.value],
                      update={IdentityLink.employee: employee_id})
         .execute())
        waiting: int = (AttendanceEvent.update(employee=employee_id, state="pending", paired_at=None)
                        .where(AttendanceEvent.company == company.id, AttendanceEvent.source == source,
                               AttendanceEvent.ref_type == ref_type, AttendanceEvent.ref_value == key,
                               AttendanceEvent.state == "unmatched")
                        .execute())
        if waiting:
            runtime.clock_events_stored(company.id, [employee_id])
    return waiting


def _employee_of(company: Company, employee_id: str) -> Employee:
    employee: Employee | None = (Employee.select(Employee.id)
                                 .where(Employee.id == employee_id, Employee.company == company.id,
                                        Employee.archived == False)  # noqa: E712
                                 .first())
    if employee is None:
        raise NotFound(Words("No such employee in this company."))
    return employee


def _as_datetime(value: str | datetime) -> datetime:
    """Aggregates come back as text on SQLite."""
    return datetime.fromisoformat(value) if isinstance(value, str) else value
