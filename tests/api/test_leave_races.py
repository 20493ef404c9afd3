"""Leave's moves at the same time as each other and as payroll's (issue 48 part 2). Each
move locks the company, the employee's legal entity, then the employee, in payroll's
order (app/domain/kernel/locks.py), and decides under those locks, so:

- two approvals of one leave at once: one approves, the other is refused as a later
  click would be (Conflict);
- two annual leaves that each fit the balance but not together, approved at once:
  exactly one is approved, the other refused for the balance (each reads the other's
  approval, or waits for it);
- an approval and a cancellation of one leave at once: the leave ends cancelled either
  way, and the employee's status with it;
- a leave approved while a payroll draft or finalize of the employee's entity runs:
  one waits for the other, never a deadlock.

PostgreSQL is where this matters (row locks); SQLite, one writer at a time, must hold too.
"""

from datetime import date, timedelta

import pytest

from app.domain.access import companies
from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.leave import balances, requests
from app.domain.payroll import drafts, moves
from app.domain.people import actions as hr
from app.models import Employee, Entity, LeaveRequest, PayrollLeave, PayrollRun
from app.models.base import connection
from tests.helpers import one_each, one_won

ROUNDS = 4
HR = "hr@example.com"


@pytest.fixture
def company(committed, clock, runtime):
    """A committed Saudi company, one employee hired on 2025-01-01 (21 days a year, art.
    109(1): 39.70 earned by today, 2026-11-21), removed afterwards."""
    made = committed(companies.create_company, "Racing Leave Co", "SA", clock)
    entity = committed(lambda: Entity.get(Entity.company == made.id))
    person = committed(hr.hire, made, {"staff_number": "E-1", "name_en": "E-1", "employment_type": "full_time",
                                       "hire_date": date(2025, 1, 1), "basic_salary_minor": 1_000_000,
                                       "nationality": "IN", "entity": entity.id}, runtime)
    made.entity, made.person = entity, person
    yield made
    committed(lambda: made.delete_instance(recursive=True))


def ask(committed, company, leave_type, start, end, runtime):
    return committed(requests.request_leave, company.id, company.person.id, leave_type, start, end, HR, runtime)


def approve(company, leave, runtime):
    return lambda: requests.approve_leave(company.id, leave.id, HR, runtime)


def statuses(*leave):
    with connection():
        return [LeaveRequest.get_by_id(row.id).status for row in leave]


def test_two_approvals_of_one_leave_at_once_approve_it_once(committed, race, company, runtime):
    for number in range(ROUNDS):
        day = date(2026, 12, 1) + timedelta(days=7 * number)
        leave = ask(committed, company, "annual", day, day, runtime)
        outcomes = race(approve(company, leave, runtime))
        one_won(outcomes, Conflict)
        assert "is approved; only a leave requested can be approved" in str(
            next(o for o in outcomes if isinstance(o, Conflict)).message)
        assert statuses(leave) == ["approved"]


def test_two_leaves_that_fit_the_balance_apart_but_not_together_approved_at_once_one_is_refused(
        committed, race, company, runtime):
    """25 days in December and 25 in January: each alone leaves about 17 days (41.6 and
    43.5 earned by their last days); both would leave -6.5 on 2027-01-25."""
    for _ in range(ROUNDS):
        december = ask(committed, company, "annual", date(2026, 12, 1), date(2026, 12, 25), runtime)
        january = ask(committed, company, "annual", date(2027, 1, 1), date(2027, 1, 25), runtime)
        outcomes = race(one_each(approve(company, december, runtime), approve(company, january, runtime)))
        one_won(outcomes, ValidationFailed)
        refusal = next(o for o in outcomes if isinstance(o, ValidationFailed))
        assert [path for path, _ in refusal.errors] == ["to"]
        assert "more annual leave than the balance allows" in refusal.errors[0][1]
        assert sorted(statuses(december, january)) == ["approved", "requested"]
        with connection():
            person = Employee.get_by_id(company.person.id)
            assert balances.balance_of(person, date(2027, 1, 25)).balance >= 0
        for leave in (december, january):
            committed(requests.cancel_leave, company.id, leave.id, HR, runtime)


def test_an_approval_and_a_cancellation_at_once_end_with_the_leave_cancelled_and_the_employee_active(
        committed, race, company, runtime):
    """The leave starts today: approved first, it makes the employee on_leave, and the
    cancellation after it brings them back; cancelled first, the approval is refused."""
    for _ in range(ROUNDS):
        leave = ask(committed, company, "annual", date(2026, 11, 21), date(2026, 11, 22), runtime)
        outcomes = race(one_each(approve(company, leave, runtime),
                                 lambda: requests.cancel_leave(company.id, leave.id, HR, runtime)))  # noqa: B023
        failures = [o for o in outcomes if isinstance(o, Exception)]
        assert all(isinstance(o, Conflict) for o in failures) and len(failures) <= 1, outcomes
        assert statuses(leave) == ["cancelled"]
        with connection():
            person = Employee.get_by_id(company.person.id)
            assert (person.status, person.on_leave_by) == ("active", None)


@pytest.mark.parametrize("payroll", ["draft", "finalize"])
def test_a_leave_approved_while_the_entitys_payroll_runs_never_deadlocks(committed, race, company, runtime,
                                                                        wide_pool, payroll):
    """Leave takes company, entity, employee; a draft and a finalize take company, entity,
    run: they queue on the company. An unpaid leave in the run's month changes its pay:
    a finalize first refuses the approval (correct the run instead), an approval first
    refuses the finalize of the draft it overtook (draft again); a draft builds again
    when an approval came between its read and its lock. Never a deadlock."""
    for number in range(ROUNDS):
        month = f"2030-{number + 1:02d}"
        first = date(2030, number + 1, 10)
        leave = ask(committed, company, "unpaid", first, first + timedelta(days=2), runtime)
        draft = (committed(drafts.build_draft_run, company.entity, month, runtime.clock)
                 if payroll == "finalize" else None)
        run_move = ((lambda: drafts.build_draft_run(company.entity, month, runtime.clock)) if draft is None  # noqa: B023
                    else (lambda: moves.finalize_run(draft, runtime)))  # noqa: B023
        outcomes = race(one_each(approve(company, leave, runtime), run_move))
        refused_approval = [o for o in outcomes if isinstance(o, ValidationFailed) and payroll == "finalize"
                            and "this leave would change its pay" in o.errors[0][1]]
        refused_finalize = [o for o in outcomes if isinstance(o, Conflict) and payroll == "finalize"
                            and "leave was approved or cancelled since draft" in str(o)]
        unexpected = [o for o in outcomes if isinstance(o, Exception)
                      and not any(o is known for known in refused_approval + refused_finalize)]
        assert not unexpected and len(refused_approval) + len(refused_finalize) <= 1, outcomes
        with connection():
            run = PayrollRun.get(PayrollRun.entity == company.entity.id, PayrollRun.payroll_month == month)
            assert run.status == ("draft" if payroll == "draft" or refused_finalize else "finalized")
            if PayrollLeave.select().where(PayrollLeave.run == run.id).exists():  # it read the leave approved
                assert statuses(leave) == ["approved"]
