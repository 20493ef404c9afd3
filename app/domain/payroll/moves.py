"""Payroll runs through their states, each move one function with its outbox event.

    finalize_run      draft -> finalized, accrual posted  payroll_run.finalized
    mark_paid         finalized -> paid, payment posted   payroll_run.paid
    correct_run       finalized or paid, lines changed,   payroll_run.corrected
                      a correcting entry posted
    delete_run        finalized -> deleted, reversed      payroll_run.deleted
    discard_draft     a draft is removed                  no event (never visible)
    set_wps_status    a closed run's state with the bank  payroll_run.wps_updated (v1.3)

MOVES says which states each move starts from and what a click from another state is
told. Posted journal entries are never edited: a correction or a deletion posts a new
entry (Contract, Payroll run states; DESIGN, payroll run full form). A run built with the
end-of-service lines (v1.3) posts its `opening` before the accrual, and after every move
its entity's provision is tied to what the latest run owes (`_tie`, provision.py).

Each move re-reads the run under its lock in the transaction that posts the journal and
writes the event, and decides there (STYLE 14): of two clicks at once, the second waits,
sees the moved state and is refused exactly as a later click would be. A run passed in is
only a hint of which run is meant. Every move locks in locks.py's one order (company,
entity, run), so two moves of different runs at once queue instead of deadlocking.
Drafting is drafts.py's.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast
from zoneinfo import ZoneInfo

from app.domain.kernel import events
from app.domain.kernel.clock import to_db
from app.domain.kernel.countries import get_country
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.money import MAX_AMOUNT_MINOR
from app.domain.kernel.runtime import Runtime
from app.domain.partner_safe import payroll_run_summary
from app.domain.payroll import accounts, provision
from app.domain.payroll.drafts import (
    EARNINGS,
    cost_centres,
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
from app.domain.payroll.locks import hold
from app.domain.payroll.rules import (
    EOS_PROVISION,
    OPENING_EQUITY,
    ComponentTotal,
    Line,
    Pay,
    SplitLine,
    accrual_journal,
    check_balanced,
    expense_side,
    monthly_terms,
    payment_journal,
    split_difference,
    split_journal,
    summarize,
    whole,
)
from app.models import (
    Company,
    Employee,
    EndOfServiceBalance,
    Entity,
    JournalEntry,
    JournalLine,
    PayrollComponent,
    PayrollLine,
    PayrollRun,
)
from app.models.base import write_transaction

ACCRUAL_KINDS = ("accrual", "correction")  # what a correction or a reversal is measured against


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
    "pay": Move(("finalized",), Words("payroll run %(run)s is %(status)s; only a finalized run can be marked paid"),
                {"draft": Words("payroll run %(run)s is %(status)s; finalize it before marking it paid"),
                 "paid": Words("payroll run %(run)s is %(status)s; a run is marked paid once")}),
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
    """Close a draft run and post its accrual journal."""
    with write_transaction():
        run = _taken(run, "finalize")
        if run.eos_opening_minor:  # its own entry, so the accrual is this month's cost only
            _post(run, "opening", [(*OPENING_EQUITY, run.eos_opening_minor, 0),
                                   (*EOS_PROVISION, 0, run.eos_opening_minor)], runtime.now())
        run = _move(run, "finalized", "accrual", _accrual_lines(run, _components_of(run), lines_by_employee(run)),
                    runtime, stamp="finalized_at")
        _tie(run, runtime)
        return run


def mark_paid(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Record that a finalized run's net pay went out, and post the payment journal."""
    with write_transaction():
        run = _taken(run, "pay")
        return _move(run, "paid", "payment", payment_journal(run.net_minor), runtime, stamp="paid_at")


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
        run = _correct(run, earnings_by_employee, runtime)
        _tie(run, runtime)
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


def _correct(run: PayrollRun, earnings_by_employee: dict[str, dict[str, int]], runtime: Runtime) -> PayrollRun:
    country = get_country(run.country)
    lines = lines_by_employee(run)
    eos = {row.employee_id: row for row in EndOfServiceBalance.select().where(EndOfServiceBalance.run == run)}
    employees = {e.id: e for e in Employee.select().where(Employee.id.in_(list(earnings_by_employee)),
                                                          Employee.entity == run.entity_id)}
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
        if "end_of_service_benefit" in current or (employee_id in eos and eos[employee_id].settled):
            errors.append((f"lines.{employee_id}", Words("a leaver's final settlement is not corrected")))
            continue
        # What the month pays (a part month's amounts as paid, as HR sees and edits them).
        paid = Pay(**{k: earnings.get(k, current.get(k, 0)) for k in ("basic", "housing", "transport",
                                                                        "other_allowance")},
                   is_national=employee.is_national)
        lines[employee_id] = lines_for(employee, paid, country, run.payroll_month, sio=bool(eos), as_paid=True)
        carried = eos.get(employee_id)
        if carried is not None:  # the provision follows the corrected wage (the month's terms)
            monthly = monthly_terms(paid, share_of(employee, country.code, run.payroll_month))
            earned = liability(service_of(employee, monthly, run.country), month_bounds(run.payroll_month)[1])
            lines[employee_id].update(provision_lines(carried.booked_minor, earned))
            carried.balance_minor = earned
    if errors:
        raise ValidationFailed(Words("invalid correction"), errors)
    components, totals = summarize(lines.values())
    correction = split_difference(_posted_lines(run, ACCRUAL_KINDS), _accrual_lines(run, components, lines))
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
    _post(run, "correction", correction, now)
    for name, value in totals_fields(totals).items():
        setattr(run, name, value)
    run.employee_count = sum(1 for per_employee in lines.values() if per_employee)
    run.updated_at = to_db(now)
    run.save()
    _announce(run, "payroll_run.corrected", runtime)
    return run


def delete_run(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Delete a finalized run: its journal is reversed and it leaves the API."""
    with write_transaction():
        run = _taken(run, "delete")
        run = _move(run, "deleted", "reversal", split_difference(_posted_lines(run), []), runtime)
        _tie(run, runtime)
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
          runtime: Runtime, *, stamp: str | None = None) -> PayrollRun:
    """Post one journal entry and move the locked run to `status`, with its event (inside
    the caller's write transaction)."""
    now = runtime.now()
    _post(run, journal_kind, lines, now)
    run.status = status
    run.updated_at = to_db(now)
    if stamp:
        setattr(run, stamp, run.updated_at)
    run.save()
    _announce(run, f"payroll_run.{status}", runtime)
    return run


def _tie(moved: PayrollRun, runtime: Runtime) -> None:
    """After a run moved: bring its entity's provision back to what the latest run owes
    (app/domain/payroll/provision.py) with a `true_up` entry on that run, announced as
    its correction when it is not the run that moved. Under the entity's lock, which the
    move took first (`_taken`), so two moves at once each see what the other posted
    (v1.3, like the provision itself)."""
    if not runtime.beyond_contract:
        return
    state = provision.tie(moved.entity_id)
    latest = state.latest
    lines = state.true_up() if latest is not None else []
    if latest is None or not lines:
        return
    _post(latest, "true_up", lines, runtime.now())
    if latest.id != moved.id:
        latest.updated_at = to_db(runtime.now())
        latest.save()
        _announce(latest, "payroll_run.corrected", runtime)


def _announce(run: PayrollRun, event_type: str, runtime: Runtime) -> None:
    # Contract, Events: a deleted run is announced by its id only.
    data = ({"payroll_run_id": run.id} if event_type == "payroll_run.deleted"
            else {"payroll_run": payroll_run_summary(run, beyond_contract=runtime.beyond_contract)})
    events.emit(Company.get_by_id(run.company_id), event_type, data, runtime)


def _components_of(run: PayrollRun) -> list[ComponentTotal]:
    return [ComponentTotal(c.code, c.amount_minor, c.employee_count)
            for c in PayrollComponent.select().where(PayrollComponent.run == run).order_by(PayrollComponent.position)]


def _posted_lines(run: PayrollRun, kinds: Sequence[str] | None = None) -> list[list[SplitLine]]:
    """The lines of the run's posted entries (of `kinds`), one list per entry, by account
    key in its default code and name (accounts.py): differences are taken by key,
    whatever codes the company's chart gave them when they were posted."""
    query = JournalEntry.select().where(JournalEntry.run == run)
    if kinds:
        query = query.where(JournalEntry.kind.in_(kinds))
    entries: dict[str, list[SplitLine]] = {entry.id: [] for entry in query}
    for line in JournalLine.select().where(JournalLine.entry.in_(list(entries))).order_by(JournalLine.position):
        account = (accounts.BY_KEY[line.account_key] if line.account_key in accounts.BY_KEY
                   else accounts.BY_DEFAULT_CODE[line.account_code])
        entries[line.entry_id].append((account.default_code, account.name_en, line.debit_minor, line.credit_minor,
                                       (line.split_by, line.split_group) if line.split_by else None,
                                       line.employee_count or 0))
    return list(entries.values())


def _accrual_lines(run: PayrollRun, components: list[ComponentTotal],
                   lines: dict[str, dict[str, int]]) -> list[SplitLine]:
    """The run's accrual journal as posted now: split by the company's cost centres
    (department or branch, never a line for fewer than three people) when it asks for
    them, whole otherwise."""
    journal = accrual_journal(components, run.country)
    split_by = Company.get_by_id(run.company_id).journal_split
    if split_by == "none":
        return whole(journal)
    by_account: dict[tuple[str, str], dict[str, int]] = {}
    for employee_id, amounts in lines.items():
        for code, amount in amounts.items():
            side = expense_side(code, run.country)
            if side is not None:
                by_account.setdefault(side, {})
                by_account[side][employee_id] = by_account[side].get(employee_id, 0) + amount
    return [(code, name, debit, credit, (split_by, group) if count else None, count)  # what it was split by
            for code, name, debit, credit, group, count in
            split_journal(journal, by_account, cost_centres(list(lines), split_by))]


MEMO_WORDS = {
    "accrual": "accrual",
    "opening": "end-of-service provision earned before the books carried them",
    "payment": "payment of net pay",
    "correction": "correction",
    "reversal": "reversal (the run was deleted)",
    "true_up": "end-of-service provision true-up after a change to an earlier month",
}


def _post(run: PayrollRun, kind: str, lines: Sequence[Line | SplitLine], now: datetime) -> JournalEntry:
    """Post one balanced entry on `run` (its lines in default codes), each line under the
    code and name the company's chart gives its account now, with its key; dated for the
    accountant (v1.3): an accrual or an
    opening on the payroll month's last day; a payment on the day it was paid (the
    company's date); a correction, reversal or true-up in the latest period, the last day
    of the entity's latest posted month (posted months are not reopened: provision.py).
    A correction names the accrual it corrects, a reversal the accrual it reverses."""
    check_balanced(lines)
    sequence = JournalEntry.select().where(JournalEntry.run == run).count() + 1
    accrual = (JournalEntry.select(JournalEntry.id).where(JournalEntry.run == run, JournalEntry.kind == "accrual")
               .order_by(JournalEntry.sequence).first()) if kind in ("correction", "reversal") else None
    entity = Entity.get_by_id(run.entity_id)
    entry = JournalEntry.create(
        id=new_id("jrn"), company=run.company_id, run=run, kind=kind,
        currency=run.currency, posted_at=to_db(now), sequence=sequence,
        accounting_date=_accounting_date(run, kind, now), memo=f"Payroll {run.payroll_month}, {entity.name_en}, "
                                                                 f"{MEMO_WORDS[kind]}"[:200],
        corrects=accrual.id if accrual is not None and kind == "correction" else None,
        reverses=accrual.id if accrual is not None and kind == "reversal" else None,
    )
    chart = accounts.in_force(run.company_id, run.entity_id)  # the rules speak in default codes
    JournalLine.insert_many(
        [{"entry": entry.id, "position": i, "account_key": chart[line[0]].account.key,
          "account_code": chart[line[0]].code, "account_name": chart[line[0]].name_en, "debit_minor": line[2],
          "credit_minor": line[3], **_split_fields(line)}
         for i, line in enumerate(lines)]
    ).execute()
    return entry


def _split_fields(line: Line | SplitLine) -> dict[str, Any]:
    """A split line's cost centre ((split_by, group)) and headcount (SplitLine: its
    headcount > 0); every row names all three, as one multi-row insert takes its columns
    from its first row."""
    if len(line) < 6 or not line[5]:
        return {"split_by": None, "split_group": None, "employee_count": None}
    split_by, group = cast(tuple[str, str | None], line[4])  # posted lines name (split_by, group)
    return {"split_by": split_by, "split_group": group, "employee_count": line[5]}


def _accounting_date(run: PayrollRun, kind: str, now: datetime) -> date:
    if kind in ("accrual", "opening"):
        return month_bounds(run.payroll_month)[1]
    if kind == "payment":
        return now.astimezone(ZoneInfo(Company.get_by_id(run.company_id).timezone)).date()
    latest = (PayrollRun.select(PayrollRun.payroll_month)
              .where(PayrollRun.entity == run.entity_id, PayrollRun.status.in_(("finalized", "paid")))
              .order_by(PayrollRun.payroll_month.desc()).first())
    return month_bounds(latest.payroll_month if latest is not None else run.payroll_month)[1]
