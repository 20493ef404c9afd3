"""The console's Leave page, the leave on an employee's page and what leave did to a run's
pay (issue 48, parts 2 and 3), through the Flask client.

The signed-in user is the HR admin of "Gulf Trading" (Kuwait). Its expatriate E-1, hired
on 2020-01-01, earns a basic of 1,000.000 KWD. Today is 2026-11-21 in Kuwait (a
Saturday, of the Friday and Saturday weekend).
"""

import html
import re
from datetime import date

import pytest

from app.domain.leave import requests as leave
from app.domain.payroll import drafts
from app.domain.people import actions as hr
from app.models import Company, Employee, Entity, LeaveRequest, PayrollLeave
from tests.api.console import csrf, member, post, sign_in, text

KWD = 1000
HR = "hr@example.com"


@pytest.fixture
def staff(live_company, runtime):
    entity = Entity.get(Entity.company == live_company.id)
    people = {}
    for number, name, hired in (("E-1", "Salma Haddad", date(2020, 1, 1)), ("E-2", "Omar Aziz", date(2026, 10, 1))):
        people[number] = hr.hire(live_company, {
            "staff_number": number, "name_en": name, "name_ar": "سلمى حداد" if number == "E-1" else None,
            "employment_type": "full_time", "hire_date": hired, "basic_salary_minor": 1_000 * KWD,
            "nationality": "IN", "entity": entity.id}, runtime)
    return people


def shown(response):
    """The page's text with HTML's escapes read (an apostrophe is &#39; in the page)."""
    return html.unescape(text(response))


def record(client, **fields):
    form = {"type": "annual", "note": "", **fields}
    return client.post("/console/leave", data={**form, "csrf_token": csrf(client, "/console/leave")},
                       follow_redirects=True)


def field_error(page, name):
    """The error shown beside the form's field `name` (its id), or None."""
    found = re.search(rf'<div class="field invalid">\s*<label for="{name}">.*?<span class="error">(.*?)</span>', page,
                      re.S)
    return found.group(1) if found else None


def stored(employee):
    return [(row.type, row.status, row.start_date, row.end_date) for row in
            LeaveRequest.select().where(LeaveRequest.employee == employee.id).order_by(LeaveRequest.start_date)]


def test_the_leave_page_reads_in_english_and_arabic(client, admin, staff):
    page = shown(client.get("/console/leave"))
    assert "Leave · " in page and 'aria-current="page">Leave</a>' in page
    assert "Who is away in November 2026" in page and "No leave waits for a decision." in page
    assert 'aria-current="date" data-day="2026-11-21"' in page  # today, in Kuwait
    # The week starts on Sunday, the day after Kuwait's weekend; Friday and Saturday are shaded.
    assert re.search(r"<thead><tr><th scope=\"col\">Sunday</th>.*<th scope=\"col\" class=\"weekend\">Saturday</th>",
                     page)
    assert "The law's minimum: 30 days a year" in page and "No cap: every unused day carries over" in page
    assert "Not allowed: annual leave beyond the balance is refused" in page
    assert 'href="/console/leave?month=2026-10"' in page and 'href="/console/leave?month=2026-12"' in page

    arabic = shown(client.get("/console/leave?lang=ar"))
    assert 'dir="rtl"' in arabic and "الإجازات" in arabic
    assert "من الغائب في نوفمبر 2026" in arabic and "لا إجازة تنتظر قرارًا." in arabic
    assert "الأحد" in arabic and "الحد الأدنى في القانون: 30 يومًا في السنة" in arabic
    assert "تسجيل إجازة" in arabic
    assert "E-1 · سلمى حداد</option>" in arabic  # the picker names people as the page does


def test_the_settings_the_commands_set_are_shown_as_they_are(client, admin, live_company, staff):
    Company.update(leave_annual_days=35, leave_carry_over_days=10, leave_negative_allowed=True).where(
        Company.id == live_company.id).execute()
    page = shown(client.get("/console/leave"))
    assert "35 days a year, where the law gives fewer (the law: 30 days a year)" in page
    assert "At most 10 days carried into the next leave year; days beyond are forfeited" in page
    assert "Allowed: annual leave may take the balance below zero" in page
    assert '<code dir="ltr" lang="en">flask leave settings</code>' in page  # set there, shown here
    arabic = shown(client.get("/console/leave?lang=ar"))
    assert "35 يومًا في السنة" in arabic and "10 أيام على الأكثر" in arabic


def test_record_a_leave_approve_it_and_see_it_on_the_calendar_and_twice_is_refused(client, admin, staff):
    salma = staff["E-1"]
    done = record(client, employee=salma.id, start="2026-12-06", end="2026-12-10", note="Family visit")
    page = shown(done)
    assert ("Recorded annual leave for E-1 from 2026-12-06 to 2026-12-10: it waits for a decision." in page)
    assert "Who is away in December 2026" in page  # the page comes back on the leave's month
    assert stored(salma) == [("annual", "requested", date(2026, 12, 6), date(2026, 12, 10))]
    [waiting] = LeaveRequest.select().where(LeaveRequest.employee == salma.id)
    day = re.search(r'data-day="2026-12-07">(.*?)</td>', page, re.S).group(1)
    assert "E-1" in day and "waiting" in day and 'class="requested"' in day
    assert "E-1" not in re.search(r'data-day="2026-12-11">(.*?)</td>', page, re.S).group(1)

    approved = shown(post(client, f"/console/leave/{waiting.id}/approve", page="/console/leave"))
    assert "Approved annual leave for E-1 from 2026-12-06 to 2026-12-10." in approved
    assert "No leave waits for a decision." in approved
    again = shown(post(client, f"/console/leave/{waiting.id}/approve", page="/console/leave"))
    assert f"leave {waiting.id} is approved; only a leave requested can be approved" in again  # the second click
    assert stored(salma) == [("annual", "approved", date(2026, 12, 6), date(2026, 12, 10))]
    december = shown(client.get("/console/leave?month=2026-12"))
    day = re.search(r'data-day="2026-12-07">(.*?)</td>', december, re.S).group(1)
    assert "E-1" in day and "waiting" not in day and 'class="approved"' in day
    assert "1 person away this month." in december

    # Recording the same leave again (a second submit) overlaps the first: refused, nothing stored.
    twice = record(client, employee=salma.id, start="2026-12-06", end="2026-12-10", note="Family visit")
    assert twice.status_code == 422
    assert field_error(shown(twice), "start") == (
        f"overlaps leave {waiting.id} (annual, 2026-12-06 to 2026-12-10, approved)")
    assert len(stored(salma)) == 1

    cancelled = shown(post(client, f"/console/leave/{waiting.id}/cancel", page="/console/leave"))
    assert "Cancelled annual leave for E-1 from 2026-12-06 to 2026-12-10." in cancelled
    assert "is cancelled; only a leave requested or approved can be cancelled" in shown(
        post(client, f"/console/leave/{waiting.id}/cancel", page="/console/leave"))
    assert stored(salma) == [("annual", "cancelled", date(2026, 12, 6), date(2026, 12, 10))]


def test_approve_now_records_it_approved_and_the_status_follows(client, admin, staff):
    salma = staff["E-1"]
    page = shown(record(client, employee=salma.id, type="sick", start="2026-11-20", end="2026-11-23", approve="y"))
    assert "Recorded and approved sick leave for E-1 from 2026-11-20 to 2026-11-23." in page
    assert stored(salma) == [("sick", "approved", date(2026, 11, 20), date(2026, 11, 23))]
    assert Employee.get_by_id(salma.id).status == "on_leave"
    current = re.search(r'id="approved-heading".*?</section>', page, re.S).group(0)
    assert "E-1" in current and "Cancel leave" in current


def test_a_request_is_declined(client, admin, staff):
    omar = staff["E-2"]
    record(client, employee=omar.id, type="unpaid", start="2026-12-20", end="2026-12-24")
    [asked] = LeaveRequest.select().where(LeaveRequest.employee == omar.id)
    page = shown(post(client, f"/console/leave/{asked.id}/decline?lang=ar", page="/console/leave"))
    # In Arabic, the staff number and the dates are isolated left to right inside the sentence.
    ltr = '<bdi dir="ltr" class="id">{}</bdi>'.format
    assert f"رُفضت إجازة بدون أجر للموظف {ltr('E-2')} من {ltr('2026-12-20')} إلى {ltr('2026-12-24')}." in page
    assert stored(omar) == [("unpaid", "declined", date(2026, 12, 20), date(2026, 12, 24))]
    assert "E-2" not in re.search(r'data-day="2026-12-22">(.*?)</td>',
                                  shown(client.get("/console/leave?month=2026-12")), re.S).group(1)


def test_each_refusal_is_shown_beside_its_field_and_the_form_keeps_what_was_typed(client, admin, staff):
    salma, omar = staff["E-1"], staff["E-2"]
    backwards = record(client, employee=salma.id, start="2026-12-10", end="2026-12-01", note="Umrah with family")
    page = shown(backwards)
    assert backwards.status_code == 422
    assert field_error(page, "end") == "on or after the first day (2026-12-10)"
    assert 'id="start" name="start" required type="date" value="2026-12-10"' in page
    assert 'id="end" name="end" required type="date" value="2026-12-01"' in page
    assert "Umrah with family</textarea>" in page and f'<option dir="ltr" lang="en" selected value="{salma.id}"' in page

    kind = shown(record(client, employee=salma.id, type="holiday", start="2026-12-01", end="2026-12-02"))
    assert field_error(kind, "type") == "one of annual, sick, unpaid, maternity, hajj, bereavement, marriage, other"
    before = shown(record(client, employee=omar.id, type="sick", start="2026-09-28", end="2026-10-02"))
    assert field_error(before, "start") == "before the employment began (hired 2026-10-01)"
    # Omar, hired last month, has served less than Kuwait's six months: no annual leave yet.
    overdrawn = shown(record(client, employee=omar.id, start="2026-12-01", end="2026-12-03"))
    assert field_error(overdrawn, "end").startswith(
        "more annual leave than the balance allows: -3.00 days on 2026-12-03")
    long_note = shown(record(client, employee=salma.id, start="2026-12-01", end="2026-12-01", note="x" * 501))
    assert field_error(long_note, "note") == "text of at most 500 characters"
    nobody = record(client, start="2026-12-01", end="2026-12-01")
    assert nobody.status_code == 422 and field_error(shown(nobody), "employee")
    assert stored(salma) == [] and stored(omar) == []

    arabic = client.post("/console/leave?lang=ar", data={
        "employee": salma.id, "type": "annual", "start": "2026-12-10", "end": "2026-12-01",
        "csrf_token": csrf(client, "/console/leave")})
    assert field_error(shown(arabic), "end") == 'في اليوم الأول (<bdi dir="ltr" class="id">2026-12-10</bdi>) أو بعده'


def test_the_employee_page_shows_the_balance_the_leave_and_a_link_to_record_more(client, admin, staff, runtime):
    salma = staff["E-1"]
    taken = leave.request_leave(salma.company_id, salma.id, "annual",
                                date(2026, 11, 1), date(2026, 11, 5), HR, runtime, approve=True)
    leave.request_leave(salma.company_id, salma.id, "annual", date(2026, 12, 13), date(2026, 12, 17), HR, runtime,
                        approve=True)
    leave.request_leave(salma.company_id, salma.id, "sick", date(2027, 1, 3), date(2027, 1, 4), HR, runtime)
    path = f"/console/employees/{salma.id}"
    page = shown(client.get(path))
    facts = re.search(r"Annual leave on 2026-11-21, in days</h3>(.*?)</dl>", page, re.S).group(1)
    # Kuwait: 30 working days a year (art. 70); 2020-01-01 to 2026-11-21 is 2,517 days served:
    # six years of 365 days and 327 days, so 6 x 30 + 30 x 327/365 = 206.88 days accrued.
    assert re.findall(r"<dd>(?:<strong>)?([^<]*)", facts) == ["206.88", "5", "5", "201.88"]
    assert 'Record leave for <bdi lang="en" dir="ltr" class="id">E-1</bdi>' in page
    assert f'href="/console/leave?employee={salma.id}#record"' in page
    rows = re.search(r"Their leave</h3>(.*?)</section>", page, re.S).group(1)
    assert rows.index("2027-01-03") < rows.index("2026-12-13") < rows.index("2026-11-01")  # latest first
    assert "waiting for a decision" in rows and "Cancel leave" in rows and "Approve" in rows
    # Kuwait counts annual leave in working days (art. 70): 1 November 2026 is a Sunday, so 1 to 5 November are
    # five working days.
    assert LeaveRequest.get_by_id(taken.id).days == 5

    # Cancelled from the employee's page, it comes back there.
    back = client.post(f"/console/leave/{taken.id}/cancel", data={"next": f"{path}#leave",
                                                                   "csrf_token": csrf(client, path)})
    assert back.status_code == 302 and back.headers["Location"].endswith(f"{path}#leave")
    assert LeaveRequest.get_by_id(taken.id).status == "cancelled"

    form = shown(client.get(f"/console/leave?employee={salma.id}"))
    assert f'<option dir="ltr" lang="en" selected value="{salma.id}"' in form
    arabic = shown(client.get(f"{path}?lang=ar"))
    assert "الإجازة السنوية في 2026-11-21، بالأيام" in arabic and "الرصيد" in arabic


def test_the_run_page_shows_what_leave_took_off_each_employees_pay(client, admin, staff, live_company, runtime):
    salma = staff["E-1"]
    leave.request_leave(live_company.id, salma.id, "unpaid", date(2026, 10, 5), date(2026, 10, 9), HR, runtime,
                        approve=True)
    entity = Entity.get(Entity.company == live_company.id)
    run = drafts.build_draft_run(entity, "2026-10", runtime.clock)
    [row] = PayrollLeave.select().where(PayrollLeave.run == run.id)
    # Kuwait pays a part month by calendar days: 5 of October's 31 days of 1,000.000 KWD.
    assert (row.days, row.reduction_minor) == (5, 161_290)
    page = shown(client.get(f"/console/payroll/{run.id}"))
    section = re.search(r'id="leave-heading">What leave did to pay</h2>(.*?)</section>', page, re.S).group(1)
    cells = re.findall(r'<td class="num">([^<]*)</td>', section)
    assert "E-1" in section and "unpaid leave" in section and cells == ["5", "0%", "161.290", "161.290"]
    assert "E-2" not in section
    arabic = shown(client.get(f"/console/payroll/{run.id}?lang=ar"))
    assert "ما فعلته الإجازات بالأجر" in arabic and "إجازة بدون أجر" in arabic


def test_a_run_without_leave_says_so(client, admin, staff, live_company, runtime):
    run = drafts.build_draft_run(Entity.get(Entity.company == live_company.id), "2026-10", runtime.clock)
    assert "No leave lowered anyone's pay in this run." in shown(client.get(f"/console/payroll/{run.id}"))


def test_only_those_who_manage_hr_decide_leave(client, live_company, staff, clock, runtime, make_sandbox):
    asked = leave.request_leave(live_company.id, staff["E-1"].id, "annual", date(2026, 12, 6), date(2026, 12, 7),
                                HR, runtime)
    officer = member(live_company, "payroll_officer", clock)
    assert sign_in(client, officer.email).status_code == 302
    assert client.get("/console/leave").status_code == 403
    assert ">Leave</a>" not in shown(client.get("/console/payroll"))
    token = csrf(client, "/console/payroll")
    assert client.post(f"/console/leave/{asked.id}/approve", data={"csrf_token": token}).status_code == 403
    assert client.post("/console/leave", data={"csrf_token": token, "employee": staff["E-1"].id, "type": "annual",
                                               "start": "2026-12-20", "end": "2026-12-21"}).status_code == 403
    staff_user = member(live_company, "employee", clock)
    assert sign_in(client, staff_user.email).status_code == 302
    assert client.get("/console/leave").status_code == 403
    assert LeaveRequest.get_by_id(asked.id).status == "requested"

    owner = member(live_company, "ceo", clock)
    assert sign_in(client, owner.email).status_code == 302
    assert client.post(f"/console/leave/{asked.id}/approve").status_code == 400  # no CSRF token
    assert "Approved annual leave for E-1" in shown(post(client, f"/console/leave/{asked.id}/approve",
                                                        page="/console/leave"))
    # Another company's leave is not found here, and nothing moves.
    other = make_sandbox("KW")
    theirs = Employee.select().where(Employee.company == other.id).first()
    foreign = leave.request_leave(other.id, theirs.id, "sick", date(2026, 12, 1), date(2026, 12, 1), HR, runtime)
    assert client.post(f"/console/leave/{foreign.id}/decline",
                       data={"csrf_token": csrf(client, "/console/leave")}).status_code == 404
    assert client.post(f"/console/leave/{asked.id}/nap",
                       data={"csrf_token": csrf(client, "/console/leave")}).status_code == 404
    assert LeaveRequest.get_by_id(foreign.id).status == "requested"


def test_a_leavers_balance_is_shown_on_their_last_day(client, admin, staff, runtime):
    salma = staff["E-1"]
    hr.end_employment(salma.company_id, salma.id, date(2026, 6, 30), runtime)
    page = shown(client.get(f"/console/employees/{salma.id}"))
    facts = re.search(r"Annual leave on 2026-06-30, in days</h3>(.*?)</dl>", page, re.S).group(1)
    # 2020-01-01 to 2026-06-30 is 2,373 days served: six years of 365 days and 183 days,
    # so 6 x 30 + 30 x 183/365 = 195.04 days (art. 70), none taken.
    assert re.findall(r"<dd>(?:<strong>)?([^<]*)", facts) == ["195.04", "0", "0", "195.04"]
