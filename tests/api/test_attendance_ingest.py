"""Attendance ingest (domain level, real database): every result status and reason, the
time bounds at their edges, idempotency, and matching by each kind of reference."""

from datetime import timedelta

import pytest

from app.domain.attendance.ingest import ingest
from app.models import AttendanceEvent, IdentityLink
from tests.conftest import START
from tests.helpers import staff


def event(n=1, **changes):
    base = {"external_id": f"ev-{n}", "employee_ref": {"type": "employee_code", "value": "SBX-001"},
            "type": "clock_in", "at": "2026-11-21T08:00:00+03:00", "source": "acme-pos", "branch_ref": "B1"}
    return {**base, **changes}


def statuses(results):
    return [r.status for r in results]


def test_accepted_duplicate_and_unmatched_in_request_order(sandbox, clock, runtime):
    results = ingest(sandbox, [event(1), event(2, employee_ref={"type": "employee_code", "value": "NOPE"}),
                               event(1), event(3, type="clock_out")], runtime)
    assert statuses(results) == ["accepted", "unmatched_employee", "duplicate", "accepted"]
    assert results[2].event_id == results[0].event_id  # a duplicate names the stored event
    stored = AttendanceEvent.get_by_id(results[0].event_id)
    assert stored.employee_id == staff(sandbox, "SBX-001").id and stored.state == "pending"
    assert AttendanceEvent.get_by_id(results[1].event_id).state == "unmatched"
    again = ingest(sandbox, [event(1), event(2)], runtime)
    assert statuses(again) == ["duplicate", "duplicate"]
    assert AttendanceEvent.select().where(AttendanceEvent.company == sandbox.id).count() == 3


def test_the_same_external_id_from_another_source_is_another_event(sandbox, clock, runtime):
    assert statuses(ingest(sandbox, [event(1), event(1, source="acme-badge")], runtime)) == ["accepted", "accepted"]


@pytest.mark.parametrize("change, code", [
    ({"external_id": None}, "missing_field"),
    ({"source": ""}, "missing_field"),
    ({"type": "lunch"}, "unknown_type"),
    ({"at": "2026-11-21T08:00:00"}, "invalid_at"),
    ({"at": "2026-11-21"}, "invalid_at"),
    ({"at": "yesterday"}, "invalid_at"),
    ({"at": 1763700000}, "invalid_at"),
    ({"employee_ref": {"type": "badge", "value": "7"}}, "unknown_employee_ref_type"),
    ({"employee_ref": "SBX-001"}, "invalid_employee_ref"),
    ({"employee_ref": {"type": "email", "value": "   "}}, "invalid_employee_ref"),
    ({"branch_ref": 12}, "invalid_branch_ref"),
    ({"external_id": "x" * 201}, "invalid_external_id"),
])
def test_each_bad_event_is_rejected_alone_with_a_reason(sandbox, clock, change, code, runtime):
    results = ingest(sandbox, [event(1), event(2, **change), event(3, type="clock_out")], runtime)
    assert statuses(results) == ["accepted", "rejected", "accepted"]
    assert results[1].reason.startswith(code + ": ") and results[1].event_id is None


def test_a_non_object_event_is_rejected(sandbox, clock, runtime):
    [result] = ingest(sandbox, ["clock_in"], runtime)
    assert result.status == "rejected" and result.reason.startswith("invalid_event")


def test_time_bounds_at_their_edges(sandbox, clock, runtime):
    def at(delta):
        return (START + delta).isoformat()

    results = ingest(sandbox, [
        event(1, at=at(timedelta(minutes=5))), event(2, at=at(timedelta(minutes=5, seconds=1))),
        event(3, at=at(-timedelta(days=35))), event(4, at=at(-timedelta(days=35, seconds=1))),
    ], runtime)
    assert statuses(results) == ["accepted", "rejected", "accepted", "rejected"]
    assert results[1].reason.startswith("at_in_future") and results[3].reason.startswith("at_too_old")


def test_an_unknown_branch_ref_never_rejects(sandbox, clock, runtime):
    assert statuses(ingest(sandbox, [event(1, branch_ref="no-such-branch")], runtime)) == ["accepted"]


def test_matching_by_email_phone_and_identity_link(sandbox, clock, runtime):
    person = staff(sandbox, "SBX-002")
    person.contact_email = "Layla.H@Example.com"
    person.save()
    link = IdentityLink.create(company=sandbox.id, source="acme-pos", value="P-77", employee=person,
                               created_at=START.replace(tzinfo=None))
    results = ingest(sandbox, [
        event(1, employee_ref={"type": "email", "value": "layla.h@example.COM"}),
        event(2, employee_ref={"type": "phone", "value": person.contact_phone}),
        event(3, employee_ref={"type": "external_id", "value": "P-77"}),
        event(4, employee_ref={"type": "external_id", "value": "P-77"}, source="other-system"),
    ], runtime)
    assert statuses(results) == ["accepted", "accepted", "accepted", "unmatched_employee"]
    assert {AttendanceEvent.get_by_id(r.event_id).employee_id for r in results[:3]} == {person.id}
    assert link.employee_id == person.id


def test_another_companys_employee_is_never_matched(sandbox, make_sandbox, clock, runtime):
    other = make_sandbox("SA")
    [result] = ingest(other, [event(1, employee_ref={"type": "employee_code", "value": "SBX-001"})], runtime)
    assert AttendanceEvent.get_by_id(result.event_id).employee_id == staff(other, "SBX-001").id


def test_a_phone_is_read_as_dialled_in_the_companys_country(sandbox, make_sandbox, clock, runtime):
    person = staff(sandbox, "SBX-003")
    person.contact_phone = "+96555952568"
    person.save()
    dialled = ["55952568", "0096555952568", "+965 5595 2568", "00965-5595-2568"]
    results = ingest(sandbox, [event(n, employee_ref={"type": "phone", "value": value})
                               for n, value in enumerate(dialled, start=1)], runtime)
    assert statuses(results) == ["accepted"] * 4
    assert {AttendanceEvent.get_by_id(r.event_id).employee_id for r in results} == {person.id}
    # The same local digits in a Saudi company are a Saudi number: no one there has it.
    [elsewhere] = ingest(make_sandbox("SA"), [event(9, employee_ref={"type": "phone", "value": "55952568"})], runtime)
    assert elsewhere.status == "unmatched_employee"
