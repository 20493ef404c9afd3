"""The console's attendance page: days as partners read them, punches HR enters, and
linking the people partners named that no employee matched."""

from app.domain.attendance.ingest import ingest, record_punch
from app.models import AttendanceEvent
from tests.api.console import post, text
from tests.helpers import punch, settle_due, settle_later, staff


def span(start, end):
    """A shift's times as the page shows them, each an ID that never breaks."""
    time = '<bdi lang="en" dir="ltr" class="id">{}</bdi>'.format
    return f"{time(start)}–{time(end)}"


def stored(company):
    return list(AttendanceEvent.select().where(AttendanceEvent.company == company.id).order_by(AttendanceEvent.at))


def test_hr_enters_punches_in_local_time_and_sees_the_day(client, in_sandbox, clock):
    person = staff(in_sandbox, "SBX-002")
    for kind, time in (("clock_in", "07:30"), ("clock_out", "15:45")):
        page = post(client, "/console/attendance/punch", {"employee": person.id, "kind": kind, "day": "2026-11-19",
                                                          "time": time, "branch_ref": "Salmiya"},
                    page="/console/attendance")
        assert f"Recorded {kind.replace('_', ' ')} at 2026-11-19 {time}" in text(page)
    first, last = stored(in_sandbox)
    assert (first.channel, first.source, first.ref_type) == ("manual", "hr", "employee_id")
    assert first.at.isoformat() == "2026-11-19T04:30:00"  # Kuwait is UTC+3
    settle_due(clock)
    page = text(client.get("/console/attendance?from=2026-11-19&to=2026-11-19"))
    assert span("07:30", "15:45") in page and "8 h 15" in page and ">manual<" in page
    # Right to left, a bare dash between two times reads end first: Arabic says from and to.
    arabic = text(client.get("/console/attendance?from=2026-11-19&to=2026-11-19&lang=ar"))
    assert "من " + span("07:30", "15:45").replace("–", " إلى ") in arabic


def test_a_punch_without_an_employee_or_for_another_company_stores_nothing(client, in_sandbox,
                                                                           make_sandbox):
    page = post(client, "/console/attendance/punch", {"kind": "clock_in", "day": "2026-11-19", "time": "08:00"},
                page="/console/attendance")
    assert "Choose the employee" in text(page)
    stranger = staff(make_sandbox("SA"), "SBX-001")
    page = post(client, "/console/attendance/punch", {"employee": stranger.id, "kind": "clock_in",
                                                      "day": "2026-11-19", "time": "08:00"}, page="/console/attendance")
    assert "Choose the employee" in text(page)
    page = post(client, "/console/attendance/punch", {"employee": staff(in_sandbox, "SBX-001").id,
                                                      "kind": "clock_in", "day": "2026-12-30", "time": "08:00"},
                page="/console/attendance")
    assert "in the future" in text(page)
    assert stored(in_sandbox) == []


def test_hr_links_an_unmatched_reference_from_the_list(client, in_sandbox, clock, runtime):
    badge = {"type": "external_id", "value": "BADGE-9"}
    ingest(in_sandbox, [{**punch(1, "clock_in", "2026-11-19T08:00:00+03:00"), "employee_ref": badge},
                        {**punch(2, "clock_out", "2026-11-19T16:00:00+03:00"), "employee_ref": badge}], runtime)
    page = text(client.get("/console/attendance"))
    assert "People no employee matched" in page and "BADGE-9" in page
    person = staff(in_sandbox, "SBX-007")
    page = post(client, "/console/attendance/link", {"source": "acme-pos", "ref_type": "external_id",
                                                     "value": "BADGE-9", "employee": person.id},
                page="/console/attendance")
    assert "2 waiting event(s)" in text(page) and "People no employee matched" not in text(page)
    assert {e.employee_id for e in stored(in_sandbox)} == {person.id}
    settle_due(clock)
    assert span("08:00", "16:00") in text(client.get("/console/attendance?from=2026-11-19&to=2026-11-19"))


def test_a_range_over_62_days_falls_back_to_the_last_week(client, in_sandbox):
    page = text(client.get("/console/attendance?from=2026-01-01&to=2026-11-01"))
    assert "at most 62 days" in page and 'value="2026-11-15"' in page


def test_hr_completes_an_app_shift_and_sees_why_a_punch_stands_alone(client, in_sandbox, clock, runtime):
    person = staff(in_sandbox, "SBX-006")
    record_punch(in_sandbox, person.id, "clock_out", "2026-11-19T16:00:00+03:00", runtime, channel="employee_app",
                 external_id="phone-out")
    post(client, "/console/attendance/punch", {"employee": person.id, "kind": "clock_in", "day": "2026-11-19",
                                               "time": "08:00"}, page="/console/attendance")
    post(client, "/console/attendance/punch", {"employee": person.id, "kind": "clock_out", "day": "2026-11-18",
                                               "time": "17:00"}, page="/console/attendance")  # nothing to close
    before = clock.now()
    settle_later(runtime)
    clock.set(before)  # the HR admin's session is still fresh
    page = text(client.get("/console/attendance?from=2026-11-18&to=2026-11-19"))
    assert span("08:00", "16:00") in page and ">employee_app<" in page and ">manual<" in page
    assert "Punches that made no shift" in page and "orphan_clock_out" in page
    assert "2026-11-18 17:00" in page and "from HR or any device" in page
