"""Payroll runs through their states, each move one function with its outbox event.

    finalize_run      draft -> finalized, accrual posted  payroll_run.finalized
    mark_paid         finalized -> paid, payment posted;  payroll_run.paid
                      paid and owing, the rest paid
    correct_run       finalized or paid, lines changed,   payroll_run.corrected
                      a correcting entry posted
    delete_run        finalized -> deleted, reversed      payroll_run.deleted
    discard_draft     a draft is removed                  no event (never visible)
    set_wps_status    a closed run's state with the bank  payroll_run.wps_updated (v1.3)

MOVES says which states each move starts from and what a click from another state is
told. Posted journal entries are never edited: a correction or a deletion posts a new
entry (Contract, Payroll run states; DESIGN, payroll run full form). A run built with the
end-of-service lines (v1.3) posts its `opening` entries before the accrual (one per
provision: end of service, leave salary), and after every move its entity's provisions
are tied to what the latest run owes (`_tie`, provision.py).

Each move re-reads the run under its lock in the transaction that posts the journal and
writes the event, and decides there (STYLE 14): of two clicks at once, the second waits,
sees the moved state and is refused exactly as a later click would be. A run passed in is
only a hint of which run is meant. Every move locks in locks.py's one order (company,
entity, run), so two moves of different runs at once queue instead of deadlocking.
Drafting is drafts.py's.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from app.domain.kernel import events
from app.domain.kernel.clock import to_db
from app.domain.kernel.countries import get_country
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.locks import hold
from app.domain.kernel.memory import collector_paused
from app.domain.kernel.money import MAX_AMOUNT_MINOR, format_minor
from app.domain.kernel.runtime import Runtime
from app.domain.leave.balances import approved_leave, leave_digest
from app.domain.partner_safe import payroll_run_summary
from app.domain.payroll import books, centres, leave_provision, posting, provision
from app.domain.payroll.drafts import (
    EARNINGS,
    annual_leave_rows,
    in_days,
    leave_held,
    lines_by_employee,
    lines_for,
    month_bounds,
    service_of,
    share_of,
    store_components,
    store_lines,
    totals_fields,
)
from app.domain.payroll.end_of_service import liability, provision_lines
from app.domain.payroll.rules import (
    SALARIES_PAYABLE,
    Line,
    Pay,
    SplitLine,
    monthly_terms,
    payment_journal,
    split_difference,
    summarize,
)
from app.models import (
    Company,
    Employee,
    EndOfServiceBalance,
    JournalEntry,
    LeaveProvisionBalance,
    PayrollComponent,
    PayrollLine,
    PayrollRun,
)
from app.models.base import write_transaction


@dataclass(frozen=True)
class Move:
    """Which states a move starts from, and what a click from any other is told: one
    sentence, "payroll run %(run)s is %(status)s; <why>", a whole template each (the
    console says it from its catalogs). `refused` and `refused_from` read the why."""

    starts: tuple[str, ...]
    told: str  # the refusal's template
    told_from: dict[str, str] = field(default_factory=dict)  # a better word for some states

    def refusal(self, run_id: str, status: str) -> Words:
        """What a click on run `run_id`, in `status`, is told."""
        return Words(self.told_from.get(status, self.told), run=run_id, status=status)

    @property
    def refused(self) -> str:
        return _why(self.told)

    @property
    def refused_from(self) -> dict[str, str]:
        return {status: _why(told) for status, told in self.told_from.items()}


def _why(template: str) -> str:
    """What a refusal's template says after the run's id and state."""
    return template.partition("; ")[2]


MOVES = {
    "finalize": Move(("draft",), Words("payroll run %(run)s is %(status)s; only a draft can be finalized")),
    # A paid run is paid again only for what a correction left owing (mark_paid).
    "pay": Move(("finalized", "paid"),
                Words("payroll run %(run)s is %(status)s; only a finalized or paid run can be paid"),
                {"draft": Words("payroll run %(run)s is %(status)s; finalize it before marking it paid")}),
    "correct": Move(("finalized", "paid"),
                    Words("payroll run %(run)s is %(status)s; only a finalized or paid run can be corrected")),
    "delete": Move(("finalized",), Words("payroll run %(run)s is %(status)s; only a finalized run can be deleted"),
                   {"paid": Words("payroll run %(run)s is %(status)s; a paid run cannot be deleted "
                                  "(correct it instead)"),
                    "draft": Words("payroll run %(run)s is %(status)s; discard it instead")}),
    "discard": Move(("draft",), Words("payroll run %(run)s is %(status)s; only a draft can be discarded")),
    "wps": Move(("finalized", "paid"),
                Words("payroll run %(run)s is %(status)s; only a finalized or paid run goes to the bank")),
}


def _taken(run: PayrollRun, move: str) -> PayrollRun:
    """The run as stored now, locked until the transaction ends with its company (so
    what this move posts, it posts under one chart of accounts) and its entity (so its
    provision's true-up sees every other move's), if `move` starts from its state;
    Conflict saying why not. A deleted (or discarded) run is gone, as for a later click
    (NotFound). A run's company and entity never change, so the hint names them."""
    fresh = hold(run.company_id, run.entity_id, run.id)
    if fresh is None:
        raise NotFound(Words("no payroll run %(run)s", run=run.id))
    rule = MOVES[move]
    if fresh.status not in rule.starts:
        raise Conflict(rule.refusal(fresh.id, fresh.status))
    return fresh


def finalize_run(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Close a draft run and post its accrual journal, split by the cost centres its
    employees have now, which it records as the month's (centres.py). A draft that
    approved leave has overtaken (approved or cancelled since it was built: its pay or
    leave provision would be stale) is refused: draft the month again."""
    with write_transaction(), collector_paused():  # every employee's lines, and no cycles among them
        run = _taken(run, "finalize")
        if run.leave_digest is not None and leave_digest(run.entity_id,
                                                         month_bounds(run.payroll_month)[1]) != run.leave_digest:
            raise Conflict(Words("leave was approved or cancelled since draft %(run)s was built: discard it and "
                                 "draft %(month)s again", run=run.id, month=run.payroll_month))
        opening, because = provision.opening(run)  # less what the books carried, in the first run
        if opening:  # its own entry, so the accrual is this month's cost only
            posting.post(run, "opening", opening, runtime.now(), because=because)
        leave_opening = provision.leave_opening(run)
        if leave_opening:  # an entry of its own too: a provision's part of 3100 is its entries'
            posting.post(run, "opening", leave_opening, runtime.now(), words="leave_opening")
        centres.record(run)
        lines = posting.accrual_lines(run, posting.components_of(run), lines_by_employee(run))
        run, accrual = _move(run, "finalized", "accrual", lines, runtime, stamp="finalized_at")
        _tie(run, accrual, runtime, "the accrual")
        return run


def mark_paid(run: PayrollRun, runtime: Runtime, *, on: date | None = None) -> PayrollRun:
    """Record that what a run owes its employees went out, and post the payment journal
    (Dr salaries payable / Cr bank), dated `on` (the bank's value date; default the
    company's today: books.payment_day judges it).

    A finalized run pays its net pay and becomes paid. A paid run that a correction left
    owing (salaries payable, over its entries, in credit: `owed`) pays the difference: it
    stays paid, `paid_at` keeps the first payment, and `payroll_run.paid` is announced
    again (a payment entry was posted; `payroll_run.corrected` while v1.3 is not live, as
    the contract's states have no paid run paid again). A paid run that owes nothing, or
    was overpaid, is refused (Conflict), nothing posted. What is owed is read under the
    run's lock: of two clicks at once the second sees the first's payment and is refused."""
    with write_transaction():
        run = _taken(run, "pay")
        if run.status == "finalized":
            day = books.payment_day(run, on, runtime.now())
            return _move(run, "paid", "payment", payment_journal(run.net_minor), runtime, stamp="paid_at",
                         on=day)[0]
        due = owed(run)
        if due == 0:
            raise Conflict(Words("payroll run %(run)s is %(status)s and owes nothing: its salaries payable is "
                                 "settled", run=run.id, status=run.status))
        if due < 0:
            raise Conflict(Words("payroll run %(run)s is %(status)s and owes nothing: it paid %(amount)s %(currency)s "
                                 "more than it owes now, which is recovered outside payroll, not by a payment",
                                 run=run.id, status=run.status, amount=format_minor(-due, run.currency),
                                 currency=run.currency))
        day = books.payment_day(run, on, runtime.now())
        posting.post(run, "payment", payment_journal(due), runtime.now(), on=day,
                     because="what corrections added since it was paid")
        run.updated_at = to_db(runtime.now())  # partners read the new entry in the run's journal
        run.save()
        # A paid run paid again is beyond the contract's states (v1.3); without v1.3 it is
        # told as the contract tells a change to a paid run's journal lines.
        _announce(run, "payroll_run.paid" if runtime.beyond_contract else "payroll_run.corrected", runtime)
        return run


def owed(run: PayrollRun) -> int:
    """What the run still owes its employees, in minor units: the credit balance of
    salaries payable (by key) over every entry posted on it (negative: paid more than it
    owes)."""
    code = SALARIES_PAYABLE[0]
    return sum(credit - debit for entry in posting.posted_lines(run) for account, _name, debit, credit, *_ in entry
               if account == code)


def correct_run(run: PayrollRun, earnings_by_employee: dict[str, dict[str, int]], runtime: Runtime) -> PayrollRun:
    """Change some employees' earnings in a finalized or paid run.

    `earnings_by_employee` is {employee id: {"basic", "housing", "transport",
    "other_allowance": minor units}}, what the month pays (keys left out keep their
    value). Each named employee's lines are recomputed by the country's rules, the run's
    totals and components follow, and one correcting entry moves the posted accrual to
    the new one. The lines and the posted journal are read under the run's lock, so two
    corrections at once each move the accounts from what the other posted.
    """
    if not earnings_by_employee:
        raise ValidationFailed(Words("nothing to correct"), [("lines", Words("name at least one employee"))])
    with write_transaction():
        run = _taken(run, "correct")
        run, correction = _correct(run, earnings_by_employee, runtime)
        _tie(run, correction, runtime, "the correction")
        return run


def changed_earnings(run: PayrollRun, entered: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Of the earnings HR entered for a run's employees ({employee id: {code: minor
    units}}), those that differ from what the run pays: the correction to make."""
    lines = lines_by_employee(run)
    changes: dict[str, dict[str, int]] = {}
    for employee_id, amounts in entered.items():
        for code, value in amounts.items():
            if code in EARNINGS and employee_id in lines and value != lines[employee_id].get(code, 0):
                changes.setdefault(employee_id, {})[code] = value
    return changes


def _correct(run: PayrollRun, earnings_by_employee: dict[str, dict[str, int]],
             runtime: Runtime) -> tuple[PayrollRun, JournalEntry]:
    country = get_country(run.country)
    lines = lines_by_employee(run)
    eos = {row.employee_id: row for row in EndOfServiceBalance.select().where(EndOfServiceBalance.run == run)}
    held = {row.employee_id: row for row in LeaveProvisionBalance.select().where(LeaveProvisionBalance.run == run)}
    employees = {e.id: e for e in Employee.select().where(Employee.id.in_(list(earnings_by_employee)),
                                                          Employee.entity == run.entity_id)}
    leave = approved_leave(employees, since=month_bounds(run.payroll_month)[0] - timedelta(days=366))
    annual = annual_leave_rows(list(employees)) if held else {}
    company = Company.get_by_id(run.company_id)
    errors: list[tuple[str, str]] = []
    for employee_id, earnings in earnings_by_employee.items():
        employee = employees.get(employee_id)
        if employee is None:
            errors.append((f"lines.{employee_id}", Words("not an employee of this run's legal entity (%(entity)s)",
                                                         entity=run.entity_id)))
            continue
        unknown = set(earnings) - {"basic", "housing", "transport", "other_allowance"}
        negative = [k for k, v in earnings.items()
                    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_AMOUNT_MINOR]
        if unknown or negative:
            errors.append((f"lines.{employee_id}", Words("earnings are basic, housing, transport and "
                                                         "other_allowance, each zero or more (at most 10^15 "
                                                         "minor units)")))
            continue
        current = lines.get(employee_id, {})
        if ("end_of_service_benefit" in current or "leave_encashment" in current
                or (employee_id in eos and eos[employee_id].settled)
                or (employee_id in held and held[employee_id].settled)):
            errors.append((f"lines.{employee_id}", Words("a leaver's final settlement is not corrected")))
            continue
        # What the month pays (a part month's amounts as paid, as HR sees and edits them).
        paid = Pay(**{k: earnings.get(k, current.get(k, 0)) for k in ("basic", "housing", "transport",
                                                                        "other_allowance")},
                   is_national=employee.is_national)
        share = share_of(employee, country.code, run.payroll_month, leave.get(employee_id, ()))
        lines[employee_id] = lines_for(employee, paid, country, run.payroll_month, sio=bool(eos), as_paid=True,
                                       leave=leave.get(employee_id, ()), share=share)
        monthly = monthly_terms(paid, share)
        carried = eos.get(employee_id)
        if carried is not None:  # the provision follows the corrected wage (the month's terms)
            earned = liability(service_of(employee, monthly, run.country, leave.get(employee_id, ())),
                               month_bounds(run.payroll_month)[1])
            lines[employee_id].update(provision_lines(carried.booked_minor, earned))
            carried.balance_minor = earned
        row = held.get(employee_id)
        if row is not None:  # so does the leave salary's, on the days it holds now
            balance, days = leave_held(employee, company, monthly, annual.get(employee_id, ()),
                                       month_bounds(run.payroll_month)[1])
            lines[employee_id].update(leave_provision.lines(row.booked_minor, balance))
            row.balance_minor, row.days = balance, in_days(days)
    if errors:
        raise ValidationFailed(Words("invalid correction"), errors)
    if centres.recorded(run):  # someone new to the month joins it in the group they have now
        centres.record(run, list(earnings_by_employee))
    components, totals = summarize(lines.values())
    correction = split_difference(posting.posted_lines(run, posting.ACCRUAL_KINDS),
                                  posting.accrual_lines(run, components, lines))
    if not correction:
        raise ValidationFailed(Words("the correction changes no amount"), [("lines", Words("no amount differs"))])
    now = runtime.now()
    PayrollLine.delete().where(PayrollLine.run == run).execute()
    store_lines(run, lines)
    PayrollComponent.delete().where(PayrollComponent.run == run).execute()
    store_components(run, components)
    for employee_id in earnings_by_employee:
        if employee_id in eos:
            eos[employee_id].save()
        if employee_id in held:
            held[employee_id].save()
    entry = posting.post(run, "correction", correction, now)
    for name, value in totals_fields(totals).items():
        setattr(run, name, value)
    run.employee_count = sum(1 for per_employee in lines.values() if per_employee)
    run.updated_at = to_db(now)
    run.save()
    _announce(run, "payroll_run.corrected", runtime)
    return run, entry


def delete_run(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Delete a finalized run: its journal is reversed and it leaves the API."""
    with write_transaction():
        run = _taken(run, "delete")
        run, reversal = _move(run, "deleted", "reversal", split_difference(posting.posted_lines(run), []), runtime)
        _tie(run, reversal, runtime, "the deletion")
        return run


# The Wage Protection System (v1.3): where a closed run's salary file stands with the
# bank, as HR records it (the file itself never leaves the service: it holds IBANs and
# each employee's pay). A rejected file is submitted again.
WPS_STATUSES = ("not_submitted", "submitted", "accepted", "rejected")


WPS_NEXT = {"not_submitted": ("submitted",), "submitted": ("accepted", "rejected"), "rejected": ("submitted",),
            "accepted": ()}


def set_wps_status(run: PayrollRun, wps_status: str, runtime: Runtime) -> PayrollRun:
    """Record where a finalized or paid run stands with the bank, and announce it
    (`payroll_run.wps_updated`, while v1.3 is live). Only the moves of WPS_NEXT: of two
    clicks at once the second finds the state moved and is refused."""
    if wps_status not in WPS_STATUSES:
        raise ValidationFailed(Words("unknown WPS status"), [("wps_status", Words("one of %(choices)s",
                                                                                   choices=", ".join(WPS_STATUSES)))])
    with write_transaction():
        run = _taken(run, "wps")
        if wps_status not in WPS_NEXT[run.wps_status]:
            raise Conflict(_bank_refusal(run))
        run.wps_status = wps_status
        run.updated_at = to_db(runtime.now())
        run.save()
        if runtime.beyond_contract:
            _announce(run, "payroll_run.wps_updated", runtime)
    return run


def _bank_refusal(run: PayrollRun) -> Words:
    """What a move the bank's state does not allow is told (WPS_NEXT), a whole sentence each."""
    allowed = WPS_NEXT[run.wps_status]
    if not allowed:
        return Words("payroll run %(run)s is %(status)s with the bank; it can become nothing else (it is final)",
                     run=run.id, status=run.wps_status)
    if len(allowed) == 1:
        return Words("payroll run %(run)s is %(status)s with the bank; it can become %(next)s",
                     run=run.id, status=run.wps_status, next=allowed[0])
    return Words("payroll run %(run)s is %(status)s with the bank; it can become %(first)s or %(last)s",
                 run=run.id, status=run.wps_status, first=" or ".join(allowed[:-1]), last=allowed[-1])


def wps_step(wps_status: str) -> Callable[[PayrollRun, Runtime], PayrollRun]:
    """`set_wps_status` to one status, as the console's run actions take a move."""
    return lambda run, runtime: set_wps_status(run, wps_status, runtime)


def discard_draft(run: PayrollRun) -> None:
    with write_transaction():
        run = _taken(run, "discard")
        run.delete_instance(recursive=True)


def _move(run: PayrollRun, status: str, journal_kind: str, lines: Sequence[Line | SplitLine],
          runtime: Runtime, *, stamp: str | None = None, on: date | None = None) -> tuple[PayrollRun, JournalEntry]:
    """Post one journal entry (a payment dated `on`) and move the locked run to `status`,
    with its event (inside the caller's write transaction): the run and the entry."""
    now = runtime.now()
    entry = posting.post(run, journal_kind, lines, now, on=on)
    run.status = status
    run.updated_at = to_db(now)
    if stamp:
        setattr(run, stamp, run.updated_at)
    run.save()
    _announce(run, f"payroll_run.{status}", runtime)
    return run, entry


def _tie(moved: PayrollRun, cause: JournalEntry, runtime: Runtime, change: str) -> None:
    """After a run moved: bring its entity's provisions (end of service, leave salary) back
    to what the latest run owes (app/domain/payroll/provision.py), each with a `true_up`
    entry of its own on that run, linked to the entry the move posted (`cause`), its memo
    naming the `change` ("the correction") and the run it changed, announced as its
    correction when it is not the run that moved. The end-of-service expense is split by
    the company's cost centres as the entries it adjusts were (centres.true_up); the
    leave salary's is posted whole (docs/partners/journals.md). Under the entity's lock,
    which the move took first (`_taken`), so two moves at once each see what the other
    posted (v1.3, like the provisions themselves)."""
    if not runtime.beyond_contract:
        return
    split_by = Company.get_by_id(moved.company_id).journal_split
    trued: PayrollRun | None = None
    for kind in provision.PROVISIONS:
        state = provision.tie(moved.entity_id, kind)
        latest = state.latest
        if latest is None:
            continue
        lines: Sequence[Line | SplitLine]
        if kind is provision.END_OF_SERVICE:
            # The expense tied and the latest run moved in step with the one before: no group can
            # be off either (centres.in_step), so only the opening's part, if any, is posted, whole.
            whole = split_by == "none" or (not state.expense_change and moved.id == latest.id
                                           and moved.status != "deleted" and centres.in_step(latest))
            lines = state.true_up() if whole else centres.true_up(state, split_by)
        else:
            lines = state.true_up()
        if not lines:
            continue
        posting.post(latest, "true_up", lines, runtime.now(), caused_by=cause,
                     because=f"after {change} of payroll {moved.payroll_month}, {moved.id}",
                     words="true_up" if kind is provision.END_OF_SERVICE else "leave_true_up")
        trued = latest
    if trued is not None and trued.id != moved.id:
        trued.updated_at = to_db(runtime.now())
        trued.save()
        _announce(trued, "payroll_run.corrected", runtime)


def _announce(run: PayrollRun, event_type: str, runtime: Runtime) -> None:
    # Contract, Events: a deleted run is announced by its id only.
    data = ({"payroll_run_id": run.id} if event_type == "payroll_run.deleted"
            else {"payroll_run": payroll_run_summary(run, beyond_contract=runtime.beyond_contract)})
    events.emit(Company.get_by_id(run.company_id), event_type, data, runtime)
