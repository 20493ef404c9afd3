"""`previous_attributes` on `employee.updated` (issue 51 part 1, v1.3): each partner-visible
field that changed since the form partners were last sent, with its value then; nothing
that is not partner-visible, never `updated_at`, and still no event for a change partners
do not see. Domain functions against the real database; events as the outbox holds them."""

from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.leave import requests as leave_requests
from app.domain.people import actions as hr
from app.domain.people import bulk
from app.models import Employee
from tests.helpers import event_ids, new_events, staff

# Partner-visible changes an HR admin makes, and changes partners never see.
SEEN = {"job_title": "Head of Sales", "department": "Retail", "name_ar": "سلمى", "contact_email": "s@example.com",
        "employment_type": "contract", "status": "suspended"}
UNSEEN = {"basic_salary_minor": 1_234_000, "iban": "KW81CBKU0000000000001234560101", "civil_id": "287010100001",
          "bank_name": "NBK"}
FORM_NAMES = {"job_title": "job_title", "department": "department", "name_ar": "name",
              "contact_email": "contact_email", "employment_type": "employment_type", "status": "status"}


def updated(sandbox, seen):
    [event] = new_events(sandbox, seen)
    assert event["type"] == "employee.updated"
    return event["data"]


def test_an_update_says_which_fields_changed_and_what_each_was(sandbox, clock, runtime):
    person = staff(sandbox)
    before = (person.job_title, person.name_en, person.name_ar)
    seen = event_ids(sandbox)
    clock.advance(hours=1)
    hr.update_employee(sandbox.id, person.id, {"job_title": "Head of Sales", "name_en": "Salma K."}, runtime)
    data = updated(sandbox, seen)
    assert data["previous_attributes"] == {"job_title": before[0], "name": {"en": before[1], "ar": before[2]}}
    assert data["employee"]["job_title"] == "Head of Sales" and data["employee"]["name"]["en"] == "Salma K."


def test_a_change_partners_do_not_see_is_never_listed_and_alone_sends_nothing(sandbox, clock, runtime):
    person = staff(sandbox)
    seen = event_ids(sandbox)
    hr.update_employee(sandbox.id, person.id, dict(UNSEEN), runtime)
    assert new_events(sandbox, seen) == []
    hr.update_employee(sandbox.id, person.id, {"basic_salary_minor": 999_000, "department": "Retail"}, runtime)
    assert updated(sandbox, seen)["previous_attributes"] == {"department": person.department}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seen_changes=st.sets(st.sampled_from(sorted(SEEN)), min_size=1),
       unseen_changes=st.sets(st.sampled_from(sorted(UNSEEN))))
def test_for_any_edit_previous_attributes_are_exactly_the_partner_fields_it_changed(sandbox, clock, runtime,
                                                                                    seen_changes, unseen_changes):
    person = Employee.get_by_id(staff(sandbox).id)
    before = hr.partner_form(person.id)
    seen = event_ids(sandbox)
    clock.advance(minutes=1)
    changes = {name: SEEN[name] for name in seen_changes} | {name: UNSEEN[name] for name in unseen_changes}
    hr.update_employee(sandbox.id, person.id, changes, runtime)
    events = new_events(sandbox, seen)
    changed = {FORM_NAMES[name] for name in seen_changes} & {
        name for name, value in hr.partner_form(person.id).items() if before[name] != value}
    if not changed:  # every value was already as asked: nothing partners see moved
        assert events == []
    else:
        [event] = events
        assert event["data"]["previous_attributes"] == {name: before[name] for name in changed}
    hr.update_employee(sandbox.id, person.id, {"job_title": "Sales Executive", "department": "Sales",
                                               "name_ar": None, "contact_email": None,
                                               "employment_type": "full_time", "status": "active"}, runtime)


def test_leave_that_moves_the_status_says_what_it_was(sandbox, clock, runtime):
    person = staff(sandbox)
    seen = event_ids(sandbox)
    today = date(2026, 11, 21)  # the FrozenClock's day
    leave = leave_requests.request_leave(sandbox.id, person.id, "annual", today, today, "hr", runtime, approve=True)
    assert leave.status == "approved"
    statuses = [event["data"]["previous_attributes"] for event in new_events(sandbox, seen)
                if event["type"] == "employee.updated"]
    assert statuses == [{"status": "active"}]


def test_the_reconciliation_says_what_an_import_changed_since_partners_were_told(sandbox, clock, runtime):
    person = staff(sandbox)
    bulk.import_employees(sandbox, f"staff_number,job_title\n{person.staff_number},Night Manager\n", clock)
    seen = event_ids(sandbox)
    bulk.reconcile(runtime)
    assert updated(sandbox, seen)["previous_attributes"] == {"job_title": person.job_title}


def test_without_v13_the_event_is_as_the_contract_has_it(sandbox, clock, runtime, live_releases, app):
    live_releases(["v1.0", "v1.1", "v1.2"])
    person = staff(sandbox)
    seen = event_ids(sandbox)
    hr.update_employee(sandbox.id, person.id, {"job_title": "Head of Sales"}, app.extensions["runtime"])
    assert set(updated(sandbox, seen)) == {"employee"}
