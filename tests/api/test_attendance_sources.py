"""Other sources of attendance (HR's manual entries, the employee app) and linking the
people partners name that no employee matched: domain functions and their commands."""

import json
from dataclasses import replace

import pytest

from app.domain.attendance.days import due_for_pairing
from app.domain.attendance.ingest import ingest, link_reference, record_punch, unmatched_references
from app.domain.kernel.errors import NotFound, ValidationFailed
from app.models import AttendanceEvent, IdentityLink
from tests.helpers import days_of, ok, punch, refused, rejections, settle_due, settle_later, staff


def test_a_day_can_come_only_from_hr_and_the_employee_app(run, sandbox, clock, runtime):
    person = staff(sandbox, "SBX-003")
    ok(run("attendance", "punch", "--company", sandbox.id, "--employee", "SBX-003", "--type", "clock_in",
           "--at", "2026-11-19 08:00", "--branch", "HQ"))
    ok(run("attendance", "punch", "--company", sandbox.id, "--employee", person.id, "--type", "clock_out",
           "--at", "2026-11-19T12:00:00+03:00"))
    out = json.loads(ok(run("attendance", "app-punch", "--company", sandbox.id, "--employee", "SBX-003",
                            "--type", "clock_in", "--at", "2026-11-19 13:00", "--id", "phone-1", "--json")))
    assert out["status"] == "accepted"
    again = json.loads(ok(run("attendance", "app-punch", "--company", sandbox.id, "--employee", "SBX-003",
                              "--type", "clock_in", "--at", "2026-11-19 13:00", "--id", "phone-1", "--json")))
    assert again == {**out, "status": "duplicate"}
    record_punch(sandbox, person.id, "clock_out", "2026-11-19T17:30:00+03:00", runtime, channel="employee_app",
                 external_id="phone-2")
    settle_due(runtime)
    day = days_of(sandbox, "SBX-003")["2026-11-19"]
    assert day["sources"] == ["employee_app", "manual"]
    assert [(s["source"], s["source_system"], s["worked_minutes"]) for s in day["shifts"]] == [
        ("manual", "hr", 240), ("employee_app", "employee_app", 270)]
    assert day["shifts"][0]["branch_ref"] == "HQ" and day["worked_minutes"] == 510


def test_hr_fixes_a_missed_device_punch_with_the_commands_of_the_readme(run, sandbox, clock, runtime):
    """A manual clock-in and an app clock-out for one day make that day; before, pairing
    per source left both alone."""
    ok(run("attendance", "punch", "--company", sandbox.id, "--employee", "SBX-005", "--type", "clock_in",
           "--at", "2026-11-19 08:00"))
    ok(run("attendance", "app-punch", "--company", sandbox.id, "--employee", "SBX-005", "--type", "clock_out",
           "--at", "2026-11-19T17:00:00+03:00", "--id", "phone-9"))
    ingest(sandbox, [punch(1, "clock_in", "2026-11-18T08:00:00+03:00", person="SBX-005")], runtime)  # POS, no out
    ok(run("attendance", "punch", "--company", sandbox.id, "--employee", "SBX-005", "--type", "clock_out",
           "--at", "2026-11-18 16:30"))
    settle_later(runtime)
    days = days_of(sandbox, "SBX-005")
    assert days["2026-11-19"]["sources"] == ["employee_app", "manual"]
    assert [(s["source"], s["worked_minutes"]) for s in days["2026-11-19"]["shifts"]] == [("employee_app", 540)]
    assert days["2026-11-18"]["sources"] == ["partner_api", "manual"]
    assert days["2026-11-18"]["worked_minutes"] == 510
    assert rejections(sandbox) == []


def test_a_partner_shift_overlapping_an_app_shift_is_rejected(sandbox, clock, runtime):
    person = staff(sandbox, "SBX-001")
    record_punch(sandbox, person.id, "clock_in", "2026-11-19T07:55:00+03:00", runtime, channel="employee_app",
                 external_id="a-1")
    record_punch(sandbox, person.id, "clock_out", "2026-11-19T16:00:00+03:00", runtime, channel="employee_app",
                 external_id="a-2")
    ingest(sandbox, [punch(1, "clock_in", "2026-11-19T08:00:00+03:00"),
                     punch(2, "clock_out", "2026-11-19T16:05:00+03:00")], runtime)
    settle_later(runtime)
    assert days_of(sandbox)["2026-11-19"]["sources"] == ["employee_app"]
    assert {r["reason"] for r in rejections(sandbox)} == {"overlapping_shift"}
    assert "employee_app" in rejections(sandbox)[0]["detail"]


def test_punches_are_checked_like_partner_events(run, sandbox, clock, runtime):
    person = staff(sandbox, "SBX-001")
    with pytest.raises(ValidationFailed) as refusal:
        record_punch(sandbox, person.id, "clock_in", "2026-12-25T08:00:00+03:00", runtime, channel="manual")
    assert refusal.value.errors[0][0] == "at" and "future" in refusal.value.errors[0][1]
    with pytest.raises(NotFound):
        record_punch(sandbox, "emp_nobody", "clock_in", "2026-11-20T08:00:00+03:00", runtime, channel="manual")
    refused(run("attendance", "punch", "--company", sandbox.id, "--employee", "SBX-001", "--type", "clock_in",
                "--at", "around eight"), "at:")
    for past_the_calendar in ("9999-12-31T23:59:59-00:01", "0001-01-01 01:00"):  # the second in Kuwait's time
        refused(run("attendance", "punch", "--company", sandbox.id, "--employee", "SBX-001", "--type", "clock_in",
                    "--at", past_the_calendar), "at:")
    refused(run("attendance", "punch", "--company", sandbox.id, "--employee", "NOPE", "--type", "clock_in",
                "--at", "2026-11-20 08:00"), "No employee 'NOPE'")
    assert AttendanceEvent.select().where(AttendanceEvent.company == sandbox.id).count() == 0


def test_linking_a_reference_pairs_its_waiting_events_and_matches_later_ones(app, run, sandbox, clock,
                                                                             monkeypatch, runtime):
    queued = []
    monkeypatch.setitem(app.extensions, "runtime", replace(
        runtime, on_clock_events_stored=lambda company_id, ids: queued.append((company_id, ids))))
    badge = {"type": "external_id", "value": "B-17"}
    ingest(sandbox, [{**punch(1, "clock_in", "2026-11-19T08:00:00+03:00"), "employee_ref": badge},
                     {**punch(2, "clock_out", "2026-11-19T17:00:00+03:00"), "employee_ref": badge},
                     {**punch(3, "clock_in", "2026-11-19T08:00:00+03:00"),
                      "employee_ref": {"type": "email", "value": "New.Hire@Example.com"}}], runtime)
    listed = json.loads(ok(run("attendance", "unmatched", "--company", sandbox.id, "--json")))
    assert [(r["source"], r["ref_type"], r["ref_value"], r["events"]) for r in listed] == [
        ("acme-pos", "external_id", "B-17", 2), ("acme-pos", "email", "new.hire@example.com", 1)]
    assert listed[0]["first_at"] == "2026-11-19T05:00:00Z" and listed[0]["last_at"] == "2026-11-19T14:00:00Z"

    out = ok(run("attendance", "link", "--company", sandbox.id, "--source", "acme-pos", "--ref-type", "external_id",
                 "--value", "B-17", "--employee", "SBX-004"))
    assert "2 waiting event(s)" in out
    person = staff(sandbox, "SBX-004")
    # Queued once the link commits (this test's transaction never does); the sweeper sees it too.
    assert queued == [] and due_for_pairing(clock.now()) == {sandbox.id: [person.id]}
    settle_due(runtime)
    assert days_of(sandbox, "SBX-004")["2026-11-19"]["worked_minutes"] == 9 * 60
    assert [r["ref_value"] for r in unmatched_references(sandbox.id)] == ["new.hire@example.com"]

    [later] = ingest(sandbox, [{**punch(4, "clock_in", "2026-11-20T08:00:00+03:00"), "employee_ref": badge}], runtime)
    assert later.status == "accepted" and AttendanceEvent.get_by_id(later.event_id).employee_id == person.id


def test_an_email_reference_can_be_linked_and_relinked(sandbox, clock, runtime):
    ref = {"type": "email", "value": "Nick@Example.com"}
    ingest(sandbox, [{**punch(1, "clock_in", "2026-11-20T08:00:00+03:00"), "employee_ref": ref}], runtime)
    first, second = staff(sandbox, "SBX-005"), staff(sandbox, "SBX-006")
    assert link_reference(sandbox, "acme-pos", "email", "NICK@example.com", first.id, runtime) == 1
    assert link_reference(sandbox, "acme-pos", "email", "nick@example.com", second.id, runtime) == 0
    [link] = IdentityLink.select().where(IdentityLink.company == sandbox.id)
    assert (link.ref_type, link.value, link.employee_id) == ("email", "nick@example.com", second.id)
    [result] = ingest(sandbox, [{**punch(2, "clock_out", "2026-11-20T16:00:00+03:00"), "employee_ref": ref}], runtime)
    assert AttendanceEvent.get_by_id(result.event_id).employee_id == second.id


def test_linking_refuses_another_companys_employee(run, sandbox, make_sandbox, clock, runtime):
    other = staff(make_sandbox("SA"), "SBX-001")
    with pytest.raises(NotFound):
        link_reference(sandbox, "acme-pos", "external_id", "B-1", other.id, runtime)
    with pytest.raises(ValidationFailed):
        link_reference(sandbox, "acme-pos", "badge", "B-1", staff(sandbox, "SBX-001").id, runtime)
    refused(run("attendance", "link", "--company", sandbox.id, "--source", "s", "--ref-type", "external_id",
                "--value", "v", "--employee", other.id), "No employee")
