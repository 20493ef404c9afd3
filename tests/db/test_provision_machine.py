"""The end-of-service provision ties to HR after any history (issue 33 part 1), as a
hypothesis state machine: runs, payments, corrections and deletions of any month, hires
with past service, leavers and raises, in any order. After every step an entity's 2300
holds what the law owes the staff of its latest run at that month's end, on that run's
pay terms, 2310 the leave salary of the annual leave they hold then (issue 48), and
3100 what each employee had earned and held before the first run that carries them; all
computed here from the machine's own record of what HR entered (and the rules'
functions), never from the service's balances. A leaver's settlement pays the leave
days the law owes and leaves nothing in the provision. Every entry balances (the
service refuses to post one that does not). Long on SQLite; a shorter run on
PostgreSQL (.ci/run's second pass)."""

import os
from calendar import monthrange
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from peewee import fn

from app.domain.access import companies
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import ValidationFailed
from app.domain.leave.days import excluded_spans
from app.domain.leave.law import LAWS
from app.domain.payroll import drafts, leave_provision, moves
from app.domain.payroll.end_of_service import Service, liability
from app.domain.payroll.rules import Pay
from app.domain.people import actions as hr
from app.models import (
    Company,
    Employee,
    EndOfServiceBalance,
    Entity,
    JournalEntry,
    JournalLine,
    LeaveProvisionBalance,
    PayrollLine,
    PayrollRun,
    db,
)

FIRST_MONTH = (2024, 1)  # months stay before the suite's frozen today (2026-11-21): leavers leave at once


def month_name(index):
    year, month = divmod(FIRST_MONTH[0] * 12 + FIRST_MONTH[1] - 1 + index, 12)
    return f"{year:04d}-{month + 1:02d}"


def month_end(index):
    year, month = int(month_name(index)[:4]), int(month_name(index)[5:])
    return date(year, month, monthrange(year, month)[1])


def month_start(index):
    return month_end(index).replace(day=1)


class ProvisionMachine(RuleBasedStateMachine):
    runtime = None  # set by the test

    def __init__(self):
        super().__init__()
        self.savepoint = db.savepoint()
        self.savepoint.__enter__()
        self.company = None
        self.people = {}  # employee id -> {"hired": date, "basic": int, "left": date | None}
        self.runs = {}  # run id -> {"month": index, "status": str, "terms": {employee id: basic}, "members": set}

    def teardown(self):
        self.savepoint.rollback()
        self.savepoint.__exit__(None, None, None)

    # -- what the machine knows ------------------------------------------------------------
    def posted(self):
        return {run_id: run for run_id, run in self.runs.items() if run["status"] in ("finalized", "paid")}

    def latest(self):
        posted = self.posted()
        return max(posted.items(), key=lambda item: item[1]["month"]) if posted else None

    def next_month(self):
        latest = self.latest()
        return latest[1]["month"] + 1 if latest else 0

    def leave_of(self, employee_id):
        """The employee's approved leave as the machine recorded it (LeaveRequest values, never stored)."""
        return []

    def service(self, employee_id, basic):
        person = self.people[employee_id]
        unpaid = [(row.start_date, row.end_date) for row in self.leave_of(employee_id) if row.type == "unpaid"]
        return Service(self.country, person["hired"], person["national"], basic,
                       excluded=tuple(excluded_spans(LAWS[self.country], unpaid)))

    def worker(self, employee_id):
        return Employee(id=employee_id, country=self.country, hire_date=self.people[employee_id]["hired"])

    def leave_held(self, employee_id, basic, through):
        """The leave salary held at the end of `through` (leave_provision.py's rules, on the machine's record)."""
        days = leave_provision.held_days(self.worker(employee_id), Company(), self.leave_of(employee_id), through)
        return leave_provision.value(days, LAWS[self.country], Pay(basic=basic))

    # -- steps -----------------------------------------------------------------------------
    @rule(country=st.sampled_from(sorted(COUNTRIES)))
    @precondition(lambda self: self.company is None)
    def open_books(self, country):
        self.country = country
        self.company = companies.create_company(f"Machine {country}", country, self.runtime.clock)
        self.entity = Entity.get(Entity.company == self.company.id)

    @rule(years=st.integers(0, 15), days=st.integers(0, 364), basic=st.integers(1, 5_000).map(lambda n: n * 1000),
          national=st.booleans())
    @precondition(lambda self: self.company is not None and len(self.people) < 6)
    def hire(self, years, days, basic, national):
        hired = month_start(self.next_month()) - timedelta(days=years * 365 + days)
        employee = hr.hire(self.company, {"staff_number": f"M-{len(self.people)}", "name_en": "Machine",
                                          "employment_type": "full_time", "hire_date": hired,
                                          "basic_salary_minor": basic, "entity": self.entity.id,
                                          "is_national": national}, self.runtime)
        self.people[employee.id] = {"hired": hired, "basic": basic, "left": None, "national": national}

    @rule(data=st.data())
    @precondition(lambda self: any(p["left"] is None for p in self.people.values()) and self.next_month() < 34)
    def leave(self, data):
        employee_id = data.draw(st.sampled_from([e for e, p in self.people.items() if p["left"] is None]))
        month = self.next_month()
        last_day = max(self.people[employee_id]["hired"],
                       month_start(month) + timedelta(days=data.draw(st.integers(0, 27))))
        if last_day > month_end(month):
            return  # hired after this month: nothing to end yet
        hr.end_employment(self.company.id, employee_id, last_day, self.runtime, resigned=data.draw(st.booleans()))
        self.people[employee_id]["left"] = last_day

    @rule(data=st.data(), basic=st.integers(1, 5_000).map(lambda n: n * 1000))
    @precondition(lambda self: any(p["left"] is None for p in self.people.values()))
    def raise_pay(self, data, basic):
        employee_id = data.draw(st.sampled_from([e for e, p in self.people.items() if p["left"] is None]))
        hr.update_employee(self.company.id, employee_id, {"basic_salary_minor": basic}, self.runtime)
        self.people[employee_id]["basic"] = basic

    def _run(self, month):
        draft = drafts.build_draft_run(self.entity, month_name(month), self.runtime.clock)
        run = moves.finalize_run(draft, self.runtime)
        staying = {e for e, p in self.people.items()
                   if p["hired"] <= month_end(month) and (p["left"] is None or p["left"] > month_end(month))}
        # Leavers are settled in the run of their last month, or in the next run after
        # one that still carried them (the run of their last month was deleted).
        before = max((r for r in self.posted().values() if r["month"] < month), key=lambda r: r["month"],
                     default=None)
        carried = before["members"] if before else set()
        settled = {e for e, p in self.people.items() if p["left"] is not None and p["left"] <= month_end(month)
                   and (p["left"] >= month_start(month) or e in carried)}
        terms = {e: self.people[e]["basic"] for e in staying | settled}
        self.runs[run.id] = {"month": month, "status": "finalized", "members": staying, "terms": terms,
                             "built": dict(terms)}  # what the run began with; corrections change `terms`

    @rule()
    @precondition(lambda self: self.company is not None and self.next_month() < 34)
    def run_next_month(self):
        self._run(self.next_month())

    @rule(data=st.data())
    @precondition(lambda self: any(self.holes()))
    def run_a_month_that_was_deleted(self, data):
        self._run(data.draw(st.sampled_from(self.holes())))

    def holes(self):
        months = {run["month"] for run in self.posted().values()}
        return [m for m in range(min(months, default=0), max(months, default=0)) if m not in months]

    @rule(data=st.data())
    @precondition(lambda self: any(run["status"] == "finalized" for run in self.runs.values()))
    def pay(self, data):
        run_id = data.draw(st.sampled_from([r for r, run in self.runs.items() if run["status"] == "finalized"]))
        moves.mark_paid(PayrollRun.get_by_id(run_id), self.runtime)
        self.runs[run_id]["status"] = "paid"

    @rule(data=st.data())
    @precondition(lambda self: any(run["status"] == "finalized" for run in self.runs.values()))
    def delete(self, data):
        run_id = data.draw(st.sampled_from([r for r, run in self.runs.items() if run["status"] == "finalized"]))
        moves.delete_run(PayrollRun.get_by_id(run_id), self.runtime)
        self.runs[run_id]["status"] = "deleted"

    @rule(data=st.data(), basic=st.integers(1, 5_000).map(lambda n: n * 1000))
    @precondition(lambda self: any(run["members"] for run in self.posted().values()))
    def correct(self, data, basic):
        run_id = data.draw(st.sampled_from([r for r, run in self.posted().items() if run["members"]]))
        employee_id = data.draw(st.sampled_from([e for e in self.people if e in self.runs[run_id]["members"]]))
        if self.people[employee_id]["hired"] > month_start(self.runs[run_id]["month"]):
            return  # a correction states what a joiner's part month pays, not the monthly terms recorded here
        try:
            moves.correct_run(PayrollRun.get_by_id(run_id), {employee_id: {"basic": basic}}, self.runtime)
        except ValidationFailed:  # the same amount again: nothing to correct
            return
        self.runs[run_id]["terms"][employee_id] = basic

    # -- what must hold --------------------------------------------------------------------
    @invariant()
    def the_books_tie_to_hr(self):
        if self.company is None:
            return
        posted = dict(JournalLine.select(JournalLine.account_code,
                                         fn.SUM(JournalLine.debit_minor - JournalLine.credit_minor))
                      .join(JournalEntry).join(PayrollRun)
                      .where(PayrollRun.entity == self.entity.id).group_by(JournalLine.account_code).tuples())
        latest = self.latest()
        if latest is None:
            assert not any(int(posted.get(code) or 0) for code in ("2300", "2310", "3100"))
            return
        latest_id, run = latest
        owed = sum(liability(self.service(e, run["terms"][e]), month_end(run["month"])) for e in run["members"])
        assert -int(posted.get("2300") or 0) == owed, "2300 is not what the latest run owes"
        carried = {row.employee_id for row in EndOfServiceBalance.select().where(
            EndOfServiceBalance.run == latest_id, ~EndOfServiceBalance.settled)}
        assert carried == run["members"]
        held = sum(self.leave_held(e, run["terms"][e], month_end(run["month"])) for e in run["members"])
        assert -int(posted.get("2310") or 0) == held, "2310 is not the leave the latest run's staff hold"
        assert {row.employee_id for row in LeaveProvisionBalance.select().where(
            LeaveProvisionBalance.run == latest_id, ~LeaveProvisionBalance.settled)} == run["members"]
        opening = 0
        for employee_id in self.people:
            first = min((r for r in self.posted().values() if employee_id in r["built"]),
                        key=lambda r: r["month"], default=None)
            if first is not None:  # measured on the pay it was built with: a correction leaves the opening
                eve = month_start(first["month"]) - timedelta(days=1)
                opening += liability(self.service(employee_id, first["built"][employee_id]), eve)
                opening += self.leave_held(employee_id, first["built"][employee_id], eve)
        assert int(posted.get("3100") or 0) == opening, "3100 is not what was earned before the books"

    @invariant()
    def a_leaver_is_paid_the_leave_owed_and_leaves_nothing_in_the_provision(self):
        for run_id, run in self.posted().items():
            for row in LeaveProvisionBalance.select().where(LeaveProvisionBalance.run == run_id,
                                                            LeaveProvisionBalance.settled):
                lines = {line.component_code: line.amount_minor for line in PayrollLine.select().where(
                    PayrollLine.run == run_id, PayrollLine.employee == row.employee_id)}
                assert row.balance_minor == 0
                assert (row.booked_minor + lines.get("leave_accrual", 0) - lines.get("leave_release", 0)
                        - lines.get("leave_encashment", 0)) == 0, "a leaver's leave provision is not cleared"
                last_day = self.people[row.employee_id]["left"]
                if last_day is not None and row.employee_id not in run["members"]:
                    days = leave_provision.owed_days(self.worker(row.employee_id), Company(),
                                                     self.leave_of(row.employee_id), last_day)
                    owed = leave_provision.value(days, LAWS[self.country], Pay(basic=run["terms"][row.employee_id]))
                    assert lines.get("leave_encashment", 0) == owed, "the unused days are not what was paid"


@pytest.mark.parametrize("examples", [int(os.environ.get("PROVISION_MACHINE_EXAMPLES", 0)) or None])
def test_the_provision_ties_to_hr_after_any_history(transaction, runtime, examples):
    on_postgres = bool(os.environ.get("TEST_DATABASE_URL"))
    ProvisionMachine.runtime = runtime
    run_state_machine_as_test(ProvisionMachine, settings=settings(
        max_examples=examples or (15 if on_postgres else 60), stateful_step_count=30, deadline=None,
        suppress_health_check=list(HealthCheck)))
