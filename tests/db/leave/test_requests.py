"""HR's leave moves on a real database: what is refused (one line naming the field),
balances as of any day, and the status that follows approved leave."""

from datetime import date
from fractions import Fraction

import pytest

from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.leave import balances, requests
from app.domain.people import actions as hr
from app.models import Company, Employee, OutboxEvent

HR = "hr@example.com"


@pytest.fixture
def saudi(make_sandbox):
    company = make_sandbox("SA")
    employee = Employee.select().where(Employee.company == company.id).order_by(Employee.staff_number).first()
    Employee.update(hire_date=date(2025, 1, 1), status="active", termination_date=None, leave_carried_days=None,
                    leave_carried_as_of=None).where(
        Employee.id == employee.id).execute()
    return company, Employee.get_by_id(employee.id)


def refusal(move, *args, **kwargs):
    with pytest.raises(ValidationFailed) as refused:
        move(*args, **kwargs)
    return dict(refused.value.errors)


def test_a_year_of_saudi_service_earns_21_days_and_approved_leave_is_taken_or_planned(saudi, runtime):
    company, employee = saudi
    leave = requests.request_leave(company.id, employee.id, "annual", date(2026, 12, 1), date(2026, 12, 10), HR,
                                   runtime)
    assert (leave.status, leave.days) == ("requested", 10)
    assert balances.balance_of(employee, date(2025, 12, 31)).accrued == 21  # art. 109: 365 days served
    before = balances.balance_of(employee, date(2026, 11, 21))
    assert (before.taken, before.planned) == (0, 0)  # requested is neither
    requests.approve_leave(company.id, leave.id, HR, runtime)
    now = balances.balance_of(employee, date(2026, 11, 21))
    assert (now.taken, now.planned) == (0, 10)
    later = balances.balance_of(employee, date(2026, 12, 5))
    assert later.taken == 5 and later.accrued == 21 + Fraction(21 * 339, 365)
    assert later.balance == later.accrued - 5


def test_refusals_name_their_field(saudi, runtime):
    company, employee = saudi
    assert refusal(requests.request_leave, company.id, employee.id, "holiday", date(2026, 1, 1), date(2026, 1, 2),
                   HR, runtime) == {"type": "one of annual, sick, unpaid, maternity, hajj, bereavement, marriage, "
                                            "other"}
    assert "before the employment began" in refusal(requests.request_leave, company.id, employee.id, "sick",
                                                    date(2024, 12, 30), date(2025, 1, 2), HR, runtime)["from"]
    assert set(refusal(requests.request_leave, company.id, employee.id, "sick", date(2026, 3, 2), date(2026, 3, 1),
                       HR, runtime)) == {"to"}
    first = requests.request_leave(company.id, employee.id, "sick", date(2026, 12, 1), date(2026, 12, 3), HR, runtime)
    assert f"overlaps leave {first.id}" in refusal(requests.request_leave, company.id, employee.id, "annual",
                                                   date(2026, 12, 3), date(2026, 12, 4), HR, runtime)["from"]
    assert "more annual leave than the balance allows" in refusal(
        requests.request_leave, company.id, employee.id, "annual", date(2026, 1, 1), date(2026, 2, 28), HR, runtime,
        approve=True)["to"]
    Company.update(leave_negative_allowed=True).where(Company.id == company.id).execute()
    assert requests.request_leave(company.id, employee.id, "annual", date(2026, 1, 1), date(2026, 2, 28), HR, runtime,
                                  approve=True).status == "approved"


def test_a_second_click_finds_the_move_made(saudi, runtime):
    company, employee = saudi
    leave = requests.request_leave(company.id, employee.id, "unpaid", date(2027, 1, 4), date(2027, 1, 5), HR, runtime)
    requests.decline_leave(company.id, leave.id, HR, runtime)
    with pytest.raises(Conflict):
        requests.approve_leave(company.id, leave.id, HR, runtime)
    with pytest.raises(Conflict):
        requests.decline_leave(company.id, leave.id, HR, runtime)


def test_the_status_follows_approved_leave_and_only_leaves_own(saudi, runtime, clock):
    company, employee = saudi
    seen = {event.id for event in OutboxEvent.select(OutboxEvent.id).where(OutboxEvent.company == company.id)}
    leave = requests.request_leave(company.id, employee.id, "annual", date(2026, 11, 20), date(2026, 11, 22), HR,
                                   runtime, approve=True)
    assert Employee.get_by_id(employee.id).status == "on_leave"
    # The frozen clock gives every event one created_at: the new ones are those not seen before.
    written = OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.id.not_in(seen))
    assert sorted(event.type for event in written) == ["employee.updated", "leave.approved"]  # v1.3
    requests.cancel_leave(company.id, leave.id, HR, runtime)
    assert Employee.get_by_id(employee.id).status == "active"


def test_unpaid_leave_that_is_not_service_cannot_overdraw_annual_leave_approved(saudi, runtime):
    """Art. 116: an unpaid leave's days beyond twenty are not service, so they earn no
    annual leave. Hired 2025-01-01, 42 days earned by the end of 2026, 39 of them approved
    for 23 November to 31 December: 92 days unpaid from March (72 not service, 4.14 days
    fewer earned) would leave -1.14 on 31 December."""
    company, employee = saudi
    requests.request_leave(company.id, employee.id, "annual", date(2026, 11, 23), date(2026, 12, 31), HR, runtime,
                           approve=True)
    assert "the annual leave approved to 2026-12-31 would then be more than the balance allows (-1.14 days" in (
        refusal(requests.request_leave, company.id, employee.id, "unpaid", date(2026, 3, 1), date(2026, 5, 31), HR,
                runtime, approve=True)["from"])
    shorter = requests.request_leave(company.id, employee.id, "unpaid", date(2026, 3, 1), date(2026, 4, 30), HR,
                                     runtime, approve=True)  # 41 days not service: 2.36 fewer, 0.64 left
    assert shorter.status == "approved"


def test_nothing_is_earned_after_the_last_day(saudi, runtime):
    company, employee = saudi
    hr.end_employment(company.id, employee.id, date(2026, 11, 30), runtime)
    leaver = Employee.get_by_id(employee.id)
    last = balances.balance_of(leaver, date(2026, 11, 30))
    later = balances.balance_of(leaver, date(2027, 6, 30))
    assert (later.accrued, later.balance) == (last.accrued, last.balance) == (21 + Fraction(21 * 334, 365),) * 2


@pytest.mark.parametrize("note", ["knee\x00surgery", "knee\ud800"])
def test_a_note_no_database_can_store_is_refused_naming_it(saudi, runtime, note):
    """The console's note is a text area: lines may break, but a NUL or a lone surrogate
    would be a 500 on PostgreSQL."""
    company, employee = saudi
    assert "note" in refusal(requests.request_leave, company.id, employee.id, "sick", date(2026, 12, 1),
                             date(2026, 12, 2), HR, runtime, note=note)
    kept = requests.request_leave(company.id, employee.id, "sick", date(2026, 12, 1), date(2026, 12, 2), HR, runtime,
                                  note="knee\nsurgery")
    assert kept.note == "knee\nsurgery"
