"""A leaver's leave provision is zero after their settlement, whatever leave was taken
(issue 48, "Done when"), as a hypothesis state machine: the provision machine's steps
(runs, payments, corrections and deletions of any month, hires with past service,
leavers, raises; test_provision_machine.py) and approved annual, unpaid and sick leave of
any length in the months not yet run. Its invariants hold after every step: the entity's
2310 holds the leave salary of the annual leave the latest run's staff hold at its
month's end (earned, less taken and forfeited, at a day's leave wage) and ties to that
run's balances, 2300 still ties with unpaid leave out of service where the law says so,
3100 holds both provisions' openings, and every leaver settled was paid the unused days
the law owes and carries nothing after their run."""

import os
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule, run_state_machine_as_test
from peewee import fn

from app.domain.kernel.errors import ValidationFailed
from app.domain.leave import requests
from app.domain.payroll import moves, provision
from app.models import LeaveProvisionBalance, LeaveRequest, PayrollRun
from tests.db.test_provision_machine import ProvisionMachine, month_end, month_start


class LeaveMachine(ProvisionMachine):
    def __init__(self):
        super().__init__()
        self.approved: dict[str, list[LeaveRequest]] = {}  # employee id -> their approved leave

    def leave_of(self, employee_id):
        return self.approved.get(employee_id, [])

    @rule(data=st.data(), kind=st.sampled_from(["annual", "annual", "unpaid", "sick"]),
          offset=st.integers(0, 75), length=st.integers(1, 40))
    @precondition(lambda self: any(p["left"] is None for p in self.people.values()) and self.next_month() < 34)
    def take_leave(self, data, kind, offset, length):
        # Only months not run yet: a posted month's balances stay what they were built on.
        employee_id = data.draw(st.sampled_from([e for e, p in self.people.items() if p["left"] is None]))
        first = max(month_start(self.next_month()) + timedelta(days=offset), self.people[employee_id]["hired"])
        last = first + timedelta(days=length - 1)
        try:
            leave = requests.request_leave(self.company.id, employee_id, kind, first, last, "hr@machine.test",
                                           self.runtime, approve=True)
        except ValidationFailed:  # over the balance, overlapping, outside the employment
            return
        self.approved.setdefault(employee_id, []).append(
            LeaveRequest(type=leave.type, status="approved", start_date=leave.start_date, end_date=leave.end_date))

    def _paid_in_part(self, employee_id, month):
        """Whether leave that may be paid less than in full touches the month (a correction
        then states the month's pay, not the monthly terms the machine records)."""
        return any(row.type != "annual" and row.start_date <= month_end(month) and row.end_date >= month_start(month)
                   for row in self.leave_of(employee_id))

    @rule(data=st.data(), basic=st.integers(1, 5_000).map(lambda n: n * 1000))
    @precondition(lambda self: any(run["members"] for run in self.posted().values()))
    def correct(self, data, basic):
        run_id = data.draw(st.sampled_from([r for r, run in self.posted().items() if run["members"]]))
        employee_id = data.draw(st.sampled_from([e for e in self.people if e in self.runs[run_id]["members"]]))
        month = self.runs[run_id]["month"]
        if self._paid_in_part(employee_id, month) or self.people[employee_id]["hired"] > month_start(month):
            return
        try:
            moves.correct_run(PayrollRun.get_by_id(run_id), {employee_id: {"basic": basic}}, self.runtime)
        except ValidationFailed:
            return
        self.runs[run_id]["terms"][employee_id] = basic

    @invariant()
    def the_leave_provision_ties_to_the_latest_runs_balances(self):
        if self.company is None:
            return
        state = provision.tie(self.entity.id, provision.LEAVE)
        if state.latest is None:
            return
        owed = LeaveProvisionBalance.select(fn.COALESCE(fn.SUM(LeaveProvisionBalance.balance_minor), 0)).where(
            LeaveProvisionBalance.run == state.latest.id, ~LeaveProvisionBalance.settled).scalar()
        assert state.provision == state.provision_owed == int(owed) and state.true_up() == []


@pytest.mark.parametrize("examples", [int(os.environ.get("LEAVE_MACHINE_EXAMPLES", 0)) or None])
def test_a_leavers_leave_provision_is_zero_after_settlement_whatever_leave_was_taken(transaction, runtime, examples):
    on_postgres = bool(os.environ.get("TEST_DATABASE_URL"))
    LeaveMachine.runtime = runtime
    run_state_machine_as_test(LeaveMachine, settings=settings(
        max_examples=examples or (15 if on_postgres else 50), stateful_step_count=30, deadline=None,
        suppress_health_check=list(HealthCheck)))

