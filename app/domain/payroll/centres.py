"""The month's cost centres (issue 47): who a run paid and the department and branch each
was in when it was finalized (`payroll_member`), and what the provision's true-up owes
each of them.

A run's accrual is split by that record, and so is every later correction of the month
(its difference is taken group by group against what was posted, so a correction for
one person moves only that person's amounts, under the group they had that month),
whatever HR has changed since. Someone a correction adds to a month is recorded then.
Runs finalized before the record was kept fall back to HR's departments and branches
now (drafts.cost_centres). A reversal undoes what was posted, group by group, and needs
no record.

A true-up (provision.py) corrects accruals that were measured from a stale figure: run r
carried employee e from `booked`, where the books held e's balance in the posted run
before r that carries e (for e's first posted run, what e had earned before its month:
their opening). The difference is r's "break" for e. The true-up expense owed to a
group, over the entity's history, is the sum of the breaks of its employees, each under
the group e had in run r (the floor of three applied to r's staff as rules.floor_groups
does); what earlier true-ups posted to it is in their 5300 lines; this true-up posts the
difference, each group on the side its net falls. Anything the breaks cannot account for
(a history the model does not know) goes to the unassigned group, so the entry balances
and the totals stay provision.Tie's to the minor unit.
"""

from collections import defaultdict
from collections.abc import Collection, Hashable

from peewee import JOIN, Value, fn

from app.domain.payroll.drafts import cost_centres
from app.domain.payroll.provision import EXPENSE_KEY, POSTED, Tie
from app.domain.payroll.rules import EOS_EXPENSE, EOS_PROVISION, OPENING_EQUITY, SplitLine, floor_groups
from app.models import (
    Branch,
    Employee,
    EndOfServiceBalance,
    JournalEntry,
    JournalLine,
    PayrollLine,
    PayrollMember,
    PayrollRun,
)
from app.models.base import tuple_rows


def record(run: PayrollRun, employee_ids: Collection[str] | None = None) -> None:
    """Record the department and branch (its name) HR holds now for each employee the run
    pays (or `employee_ids`, whom a correction names) who is not recorded yet: one
    INSERT ... SELECT, inside the caller's transaction (finalize, or the correction)."""
    recorded = PayrollMember.select(PayrollMember.employee).where(PayrollMember.run == run.id)
    named = (list(employee_ids) if employee_ids is not None
             else PayrollLine.select(PayrollLine.employee).where(PayrollLine.run == run.id))
    query = (Employee.select(Value(run.id), Employee.id, Employee.department, Branch.name)
             .join(Branch, JOIN.LEFT_OUTER)
             .where(Employee.id.in_(named), Employee.id.not_in(recorded)))
    PayrollMember.insert_from(query, [PayrollMember.run, PayrollMember.employee, PayrollMember.department,
                                      PayrollMember.branch]).execute()


def recorded(run: PayrollRun) -> bool:
    """Whether the run's cost centres were recorded (it was finalized since they are)."""
    return PayrollMember.select().where(PayrollMember.run == run.id).exists()


def of_run(run: PayrollRun, employee_ids: Collection[str], split_by: str) -> dict[str, str | None]:
    """{employee: their department, or their branch's name, in the run's month} (None for
    none): as recorded when the run was finalized; HR's now for anyone not recorded (a
    run finalized before the record was kept)."""
    column = PayrollMember.branch if split_by == "branch" else PayrollMember.department
    month = {employee_id: (group or "").strip() or None for employee_id, group in
             tuple_rows(PayrollMember.select(PayrollMember.employee, column).where(PayrollMember.run == run.id))}
    missing = [employee_id for employee_id in employee_ids if employee_id not in month]
    now = cost_centres(missing, split_by) if missing else {}
    return {employee_id: month[employee_id] if employee_id in month else now.get(employee_id)
            for employee_id in employee_ids}


def true_up(state: Tie, split_by: str) -> list[SplitLine]:
    """The true-up that brings the entity's provision to what its latest run owes
    (`state`), its expense split by `split_by` as the module's docstring says: the
    opening's part against 3100 (whole), each group's 5300, and the provision (2300,
    whole) for their sum; [] when nothing moves."""
    assert state.latest is not None
    owed: defaultdict[Hashable, int] = defaultdict(int)  # the breaks, by group
    counts: dict[Hashable, int] = {}
    for run_id, breaks in _breaks(state.latest).items():
        run = PayrollRun.get_by_id(run_id)
        carriers = [employee_id for (employee_id,) in
                    tuple_rows(EndOfServiceBalance.select(EndOfServiceBalance.employee)
                               .where(EndOfServiceBalance.run == run_id))]
        shown = floor_groups(of_run(run, carriers, split_by))
        sizes: defaultdict[str | None, int] = defaultdict(int)
        for group in shown.values():
            sizes[group] += 1
        for employee_id, amount in breaks.items():
            key = (split_by, shown[employee_id])
            owed[key] += amount
            counts[key] = max(counts.get(key, 0), sizes[shown[employee_id]])
    posted = _posted_true_ups(state.latest.entity_id)
    change = {key: owed.get(key, 0) - posted.get(key, (0, 0))[0] for key in set(owed) | set(posted)}
    unassigned: Hashable = (split_by, None)
    change[unassigned] = change.get(unassigned, 0) + state.expense_change - sum(change.values())
    counts.setdefault(unassigned, state.latest.employee_count or 1)
    opening = state.opening_change
    lines: list[SplitLine] = []
    provision = opening + state.expense_change
    if provision:
        lines.append((*EOS_PROVISION, max(-provision, 0), max(provision, 0), None, 0))
    if opening:
        lines.append((*OPENING_EQUITY, max(opening, 0), max(-opening, 0), None, 0))
    for centre in sorted((k for k, amount in change.items() if amount), key=lambda k: (k is not None, repr(k))):
        amount = change[centre]
        count = counts[centre] if centre in counts else posted[centre][1]
        lines.append((*EOS_EXPENSE, max(amount, 0), max(-amount, 0), centre, count if centre is not None else 0))
    return lines


def in_step(latest: PayrollRun) -> bool:
    """Whether the latest run carried everyone the posted run before it carries, each
    from the balance that run holds for them (or, in the entity's first run, from their
    opening): then it has no break and leaves none behind. Two runs' rows, whatever the
    length of the history: what lets a move of the latest run skip `true_up`'s
    attribution when nothing else is off (moves._tie)."""
    before = (PayrollRun.select(PayrollRun.id).where(PayrollRun.entity == latest.entity_id,
                                                      PayrollRun.status.in_(POSTED),
                                                      PayrollRun.payroll_month < latest.payroll_month)
              .order_by(PayrollRun.payroll_month.desc()).first())
    previous_id = before.id if before is not None else ""
    Now, Then = EndOfServiceBalance.alias(), EndOfServiceBalance.alias()
    broken = (Now.select(Now.id)
              .join(Then, JOIN.LEFT_OUTER, on=((Then.run == previous_id) & (Then.employee == Now.employee)))
              .where(Now.run == latest.id, Now.booked_minor != fn.COALESCE(Then.balance_minor, Now.opening_minor,
                                                                            Now.booked_minor)))
    carried_on = Now.select(Now.id).where(Now.run == latest.id, Now.employee == Then.employee)
    dropped = Then.select(Then.id).where(Then.run == previous_id, ~Then.settled, ~fn.EXISTS(carried_on))
    return not broken.exists() and not dropped.exists()


def _breaks(latest: PayrollRun) -> dict[str, dict[str, int]]:
    """{run id: {employee id: break}} over the entity's posted runs, the nonzero ones:
    what each run booked for an employee less the balance of the posted run before it
    that carries them (their opening in the first); and for one still carried (not
    settled) by a run before the latest that the latest does not carry, the latest
    "booked" nothing for them: minus that balance, under the group they had there.
    Measured in the database (an entity's history is every month times its staff)."""
    order = {"partition_by": [EndOfServiceBalance.employee], "order_by": [PayrollRun.payroll_month, PayrollRun.id]}
    history = (EndOfServiceBalance
               .select(EndOfServiceBalance.run.alias("run_id"), EndOfServiceBalance.employee.alias("employee_id"),
                       (EndOfServiceBalance.booked_minor - fn.COALESCE(
                           fn.LAG(EndOfServiceBalance.balance_minor).over(**order),
                           EndOfServiceBalance.opening_minor, EndOfServiceBalance.booked_minor)).alias("gap"),
                       fn.LEAD(EndOfServiceBalance.run).over(**order).alias("next_run"),
                       EndOfServiceBalance.settled.alias("settled"),
                       EndOfServiceBalance.balance_minor.alias("balance"))
               .join(PayrollRun)
               .where(PayrollRun.entity == latest.entity_id, PayrollRun.status.in_(POSTED)))
    h = history.alias("history")
    dangling = h.c.next_run.is_null() & ~h.c.settled & (h.c.run_id != latest.id)
    rows = (EndOfServiceBalance.select(h.c.run_id, h.c.employee_id, h.c.gap, dangling, h.c.balance)
            .from_(h).where((h.c.gap != 0) | dangling))
    found: defaultdict[str, dict[str, int]] = defaultdict(dict)
    for run_id, employee_id, broken, left, balance in tuple_rows(rows):
        amount = int(broken) - (int(balance) if left else 0)
        if amount:
            found[run_id][employee_id] = amount
    return found


def _posted_true_ups(entity_id: str) -> dict[Hashable, tuple[int, int]]:
    """{group key: (net debit, headcount)} of the 5300 lines of the true-ups on the
    entity's posted runs (a deleted run's true-ups are undone by its reversal): a key is
    (split_by, group) for a split line, None for a whole one."""
    found: dict[Hashable, tuple[int, int]] = {}
    query = (JournalLine.select(JournalLine.split_by, JournalLine.split_group, JournalLine.employee_count,
                                JournalLine.debit_minor - JournalLine.credit_minor)
             .join(JournalEntry).join(PayrollRun)
             .where(PayrollRun.entity == entity_id, PayrollRun.status.in_(POSTED), JournalEntry.kind == "true_up",
                    JournalLine.account_key == EXPENSE_KEY))
    for split_by, group, count, net in tuple_rows(query):
        key = (split_by, group) if split_by else None
        amount, _ = found.get(key, (0, 0))
        found[key] = (amount + int(net), count or 0)
    return found
