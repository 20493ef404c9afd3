"""Books that close (issue 47, "Done when"): a ledger built only from the ledger feed
holds the runs' balances over any history, as a hypothesis state machine.

The provision machine's steps (runs, corrections and deletions of any month, hires with
past service, leavers, raises; test_provision_machine.py) and three more: paying what a
run still owes (a finalized run, or a paid one a correction left owing, on a value date),
closing the books through a month's end, and an owner reopening them. After every step:

- the feed, read in small pages and continued after the last entry handled as an
  accountant's sync does, lists every entry of the company exactly once, in posting
  order, deleted runs' entries included, and its lines summed by account equal every
  run's posted journal;
- no entry is dated on or before the date the books were closed through when it was
  posted;
- both provisions still tie to HR (the provision machine's invariants: 2300, and 2310 the
  leave salary, issue 48), and the feed's ledger holds every account the runs' journals
  hold, 2310 and 5310 among them.

And once every run is paid what it owes, salaries payable in the feed's ledger holds
only what corrections after payment left overpaid (recovered outside payroll): zero
when no paid run was corrected down.
"""

import os
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule, run_state_machine_as_test
from peewee import fn

from app.domain.access import users
from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.payroll import books, ledger, moves
from app.models import JournalEntry, JournalLine, PayrollRun
from tests.db.test_provision_machine import ProvisionMachine, month_end, month_start

TODAY = date(2026, 11, 21)  # the suite's frozen today (tests/conftest.py)


class LedgerMachine(ProvisionMachine):
    def __init__(self):
        super().__init__()
        self.synced: list[str] = []  # entry ids as the accountant's sync read them, in order
        self.closings: list[tuple[int, date | None]] = []  # (last position before it, closed through)
        self.paid_terms: dict[str, dict[str, int]] = {}  # run id -> each employee's basic when last paid

    def _last_position(self):
        return JournalEntry.select(fn.MAX(JournalEntry.position)).where(
            JournalEntry.company == self.company.id).scalar() or 0

    # -- more steps ------------------------------------------------------------------------
    @rule(data=st.data())
    @precondition(lambda self: any(run["status"] in ("finalized", "paid") for run in self.runs.values()))
    def pay(self, data):
        run_id = data.draw(st.sampled_from([r for r, run in self.runs.items() if run["status"] in ("finalized",
                                                                                                  "paid")]))
        run = PayrollRun.get_by_id(run_id)
        first = month_start(self.runs[run_id]["month"])
        on = data.draw(st.one_of(st.none(), st.integers(0, (TODAY - first).days).map(lambda d: first + timedelta(d))))
        due = run.net_minor if run.status == "finalized" else moves.owed(run)
        closed = self.company.__class__.get_by_id(self.company.id).books_closed_through
        try:
            moves.mark_paid(run, self.runtime, on=on)
        except ValidationFailed:
            assert on is not None and closed is not None and on <= closed, "a value date refused while open"
            return
        except Conflict:
            assert run.status == "paid" and due <= 0, "a run that owes was refused"
            return
        assert run.status == "finalized" or due > 0
        self.runs[run_id]["status"] = "paid"
        self.paid_terms[run_id] = dict(self.runs[run_id]["terms"])

    @rule(data=st.data())
    @precondition(lambda self: self.company is not None and self.runs)
    def close_books(self, data):
        months = sorted({run["month"] for run in self.runs.values()})
        through = month_end(data.draw(st.sampled_from(months)))
        closed = self.company.__class__.get_by_id(self.company.id).books_closed_through
        last = self._last_position()
        try:
            books.close(self.company.id, through, "operator", self.runtime.clock)
        except Conflict:
            assert closed is not None and through <= closed
            return
        self.closings.append((last, through))

    @rule(data=st.data())
    @precondition(lambda self: self.closings and self.closings[-1][1] is not None)
    def reopen_books(self, data):
        if not users.owners_of(self.company.id):
            owner = users.get_or_create_user("owner@machine.test", self.runtime.clock)
            users.add_membership(owner, self.company, "ceo", self.runtime.clock)
        closed = self.closings[-1][1]
        through = data.draw(st.one_of(st.none(), st.integers(1, 90).map(lambda d: closed - timedelta(d))))
        last = self._last_position()
        books.reopen(self.company.id, through, "owner@machine.test", self.runtime.clock)
        self.closings.append((last, through))

    # -- what must hold --------------------------------------------------------------------
    @invariant()
    def the_feed_lists_every_entry_once_and_ties_to_the_runs(self):
        if self.company is None:
            return
        page = ledger.entries(self.company.id, limit=3)
        read = list(page.items)
        while page.next_after is not None:
            page = ledger.entries(self.company.id, after=page.next_after, limit=3)
            read += page.items
        ids = [found.entry.id for found in read]
        assert len(ids) == len(set(ids)) == JournalEntry.select().where(
            JournalEntry.company == self.company.id).count(), "an entry missing or listed twice"
        assert [found.entry.position for found in read] == sorted(found.entry.position for found in read)
        # The accountant's sync: what was read before, then only what was posted since.
        new = ledger.entries(self.company.id, after_entry=self.synced[-1] if self.synced else None).items
        self.synced += [found.entry.id for found in new]
        assert self.synced == ids, "the sync after the last entry handled skipped or repeated one"
        from_feed: dict[str, int] = {}
        for found in read:
            for line in found.lines:
                from_feed[line.account_key] = from_feed.get(line.account_key, 0) + line.debit_minor - line.credit_minor
        by_runs = dict(JournalLine.select(JournalLine.account_key,
                                          fn.SUM(JournalLine.debit_minor - JournalLine.credit_minor))
                       .join(JournalEntry).join(PayrollRun).where(PayrollRun.company == self.company.id)
                       .group_by(JournalLine.account_key).tuples())
        assert {k: v for k, v in from_feed.items() if v} == {k: int(v) for k, v in by_runs.items() if v}

    @invariant()
    def no_entry_is_dated_in_a_period_closed_when_it_was_posted(self):
        if self.company is None or not self.closings:
            return
        for entry in JournalEntry.select().where(JournalEntry.company == self.company.id):
            in_force = [closed for last, closed in self.closings if last < entry.position]
            if in_force and in_force[-1] is not None:
                assert entry.accounting_date > in_force[-1], (entry.kind, entry.accounting_date, in_force[-1])

    def teardown(self):
        try:
            if self.company is not None:
                self._pay_everything()
        finally:
            super().teardown()

    def _pay_everything(self):
        """Pay every run what it owes, today; then a run none of whose pay was corrected
        down since it was paid owes nothing, one whose pay was only corrected down was
        overpaid, and the feed's salaries payable is what the runs' journals hold."""
        if self.company.__class__.get_by_id(self.company.id).books_closed_through == TODAY:
            return  # nothing can be paid today
        for run_id, run in self.runs.items():
            if run["status"] in ("finalized", "paid"):
                stored = PayrollRun.get_by_id(run_id)
                if stored.status == "finalized" or moves.owed(stored) > 0:
                    moves.mark_paid(stored, self.runtime)
                    self.paid_terms[run_id] = dict(run["terms"])
        for run_id, paid in self.paid_terms.items():
            if self.runs[run_id]["status"] == "deleted":
                continue
            now, owed = self.runs[run_id]["terms"], moves.owed(PayrollRun.get_by_id(run_id))
            if all(now[e] >= paid[e] for e in paid):
                assert owed == 0, f"run {run_id} still owes {owed} after it was paid what it owed"
            elif all(now[e] <= paid[e] for e in paid):
                assert owed < 0, f"run {run_id} was corrected down after payment but is not overpaid"
        payable = sum(line.credit_minor - line.debit_minor for found in ledger.entries(self.company.id).items
                      for line in found.lines if line.account_key == "salaries_payable")
        assert payable == sum(moves.owed(PayrollRun.get_by_id(run_id)) for run_id, run in self.runs.items()
                              if run["status"] != "deleted")


@pytest.mark.parametrize("examples", [int(os.environ.get("LEDGER_MACHINE_EXAMPLES", 0)) or None])
def test_a_ledger_from_the_feed_holds_the_runs_balances_after_any_history(transaction, runtime, examples):
    on_postgres = bool(os.environ.get("TEST_DATABASE_URL"))
    LedgerMachine.runtime = runtime
    run_state_machine_as_test(LedgerMachine, settings=settings(
        max_examples=examples or (10 if on_postgres else 30), stateful_step_count=30, deadline=None,
        suppress_health_check=list(HealthCheck)))
