"""Payroll runs through their states, each step one function with its outbox event.

    build_draft_run   (not visible)                      no event
    finalize_run      draft -> finalized, accrual posted  payroll_run.finalized
    mark_paid         finalized -> paid, payment posted   payroll_run.paid
    correct_run       finalized or paid, lines changed,   payroll_run.corrected
                      a correcting entry posted
    delete_run        finalized -> deleted, reversed      payroll_run.deleted
    discard_draft     a draft is removed                  no event (never visible)
    set_wps_status    a closed run's state with the bank  payroll_run.wps_updated (v1.3)

Posted journal entries are never edited: a correction or a deletion posts a new entry
(Contract, Payroll run states; DESIGN, payroll run full form). A run also carries the
end-of-service benefit (v1.3): the month's change in each employee's provision and the
leavers' settlement as components, and, on an entity's first run, an `opening` entry
posted before the accrual (`_end_of_service`).

Each step re-reads the run under its row lock in the transaction that posts the journal
and writes the event, and decides there (STYLE 14): of two clicks at once, the second
waits, sees the moved state and is refused exactly as a later click would be. A run
passed in is only a hint of which run is meant.
"""

from calendar import monthrange
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from app.domain.kernel import events
from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.countries import get_country
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed
from app.domain.kernel.ids import new_id
from app.domain.kernel.money import MAX_AMOUNT_MINOR
from app.domain.kernel.runtime import Runtime
from app.domain.partner_safe import payroll_run_summary
from app.domain.payroll import provision
from app.domain.payroll.end_of_service import Service, liability, owed, provision_lines, sio_contribution
from app.domain.payroll.rules import (
    COMPONENTS,
    EOS_PROVISION,
    OPENING_EQUITY,
    ComponentTotal,
    Pay,
    accrual_journal,
    check_balanced,
    difference_journal,
    employed_share,
    employee_lines,
    monthly_terms,
    pay_of,
    payment_journal,
    pro_rata,
    summarize,
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
from app.models.base import locked, row_of, write_transaction

ACCRUAL_KINDS = ("accrual", "correction")  # what a correction or a reversal is measured against


def get_run_for_update(company_id: str, run_id: str) -> PayrollRun:
    """Any run of the company, drafts included (HR's side, not the partner's).
    `company_id` None: of any company, for an operator's command."""
    run = PayrollRun.get_or_none(row_of(PayrollRun, run_id, company_id), PayrollRun.status != "deleted")
    if run is None:
        raise NotFound(f"no payroll run {run_id}")
    return run


def build_draft_run(entity: Entity, payroll_month: str, clock: Clock, *, end_of_service: bool = True) -> PayrollRun:
    """A draft run for `entity` and `payroll_month` from its employees' pay terms.

    Everyone employed during the month is paid for the days employed (a joiner's first
    month and a leaver's last, `rules.employed_share`); the archived are not. One live run per entity
    and month: a second draft, or a draft beside a finalized run, is refused. With
    `end_of_service` (v1.3: callers pass their Runtime's `beyond_contract`), the run also
    moves each employee's end-of-service provision to what they have earned at the
    month's end, and settles the leavers not yet settled (`_end_of_service`).
    """
    if not isinstance(entity, Entity):
        entity = Entity.get_by_id(entity)
    _check_month(payroll_month)
    country = get_country(entity.country)
    month_start, month_end = _month_bounds(payroll_month)
    paid = list(
        Employee.select().where(
            Employee.entity == entity, Employee.archived == False, Employee.hire_date <= month_end,  # noqa: E712
            (Employee.status != "left") | (Employee.termination_date >= month_start),
        ).order_by(Employee.created_at, Employee.id)
    )
    lines = {employee.id: _lines_for(employee, pay_of(employee), country, payroll_month, sio=end_of_service)
             for employee in paid}
    staying = [employee for employee in paid if employee.status != "left" or employee.termination_date > month_end]
    balances, opening = _end_of_service(entity, payroll_month, staying, lines) if end_of_service else ({}, 0)
    components, totals = summarize(lines.values())
    now = to_db(clock.now())
    with write_transaction():
        # The entity's row lock makes "one live run per entity and month" hold for two
        # drafts built at once: the second waits, then finds the first.
        locked(Entity.select(Entity.id).where(Entity.id == entity.id))
        existing = PayrollRun.get_or_none(PayrollRun.entity == entity, PayrollRun.payroll_month == payroll_month,
                                          PayrollRun.status != "deleted")
        if existing is not None:
            raise Conflict(f"{entity.name_en} already has a {existing.status} run for {payroll_month} "
                           f"({existing.id})")
        run = PayrollRun.create(
            id=new_id("prun"), company=entity.company_id, entity=entity, country=entity.country,
            payroll_month=payroll_month, status="draft", currency=entity.currency,
            employee_count=sum(1 for per_employee in lines.values() if per_employee), created_at=now,
            updated_at=now, eos_opening_minor=opening, end_of_service_lines=end_of_service, **_totals_fields(totals),
        )
        _store_lines(run, lines)
        _store_components(run, components)
        if balances:
            EndOfServiceBalance.insert_many([
                {"run": run.id, "employee": employee_id, "booked_minor": held.booked, "balance_minor": held.balance,
                 "opening_minor": held.opening, "settled": held.settled}
                for employee_id, held in balances.items()]).execute()
    return run


def _month_bounds(payroll_month):
    year, month = int(payroll_month[:4]), int(payroll_month[5:])
    return date(year, month, 1), date(year, month, monthrange(year, month)[1])


def _service(employee, pay, country_code):
    return Service(country_code, employee.hire_date, pay.is_national, pay.basic,
                   pay.housing + pay.transport + pay.other_allowance)


@dataclass(frozen=True)
class Carried:
    """One employee's end-of-service provision around a run."""

    booked: int  # what the books carried for them before the run
    balance: int  # after it: what they have earned at the month's end (0 once settled)
    opening: int  # what they had earned before the month; brought in by this run if the books did not carry them
    settled: bool = False  # a leaver paid in this run (or one this entity no longer employs): nothing after it


def _end_of_service(entity, payroll_month, employees, lines):
    """Add each employee's end-of-service lines to `lines` (app/domain/payroll/end_of_service.py):
    those paid move the provision the books carry for them to what they have earned at
    the month's end; a leaver not yet settled is paid what the law owes (by how they
    left) out of it, and the rest is released; one the entity carried but no longer
    employs (moved to another entity, archived) is released. What the books carry
    comes from the entity's run before this month; an employee it does not carry yet
    (the entity's first run, or someone entered or moved in since, with earlier
    service) comes in with what they had earned before the month: the `opening`,
    Dr 3100 and never the month's expense. Returns ({employee id: Carried}, opening)."""
    month_start, month_end = _month_bounds(payroll_month)
    eve = month_start - timedelta(days=1)
    before = (PayrollRun.select().where(PayrollRun.entity == entity, PayrollRun.payroll_month < payroll_month,
                                        PayrollRun.status.in_(("finalized", "paid")))
              .order_by(PayrollRun.payroll_month.desc()).first())
    booked = {row.employee_id: row.balance_minor for row in
              EndOfServiceBalance.select().where(EndOfServiceBalance.run == before, ~EndOfServiceBalance.settled)}
    carried, opening_total = {}, 0

    def bring(employee, service):
        """What the books carry for `employee` before the month, and what they had earned
        by then (the opening, if the books do not carry them yet)."""
        nonlocal opening_total
        earned_before = liability(service, eve)
        if employee.id in booked:
            return booked[employee.id], earned_before
        opening_total += earned_before
        return earned_before, earned_before

    for employee in employees:
        service = _service(employee, pay_of(employee), entity.country)
        held, opening = bring(employee, service)
        earned = liability(service, month_end)
        lines[employee.id].update(provision_lines(held, earned))
        carried[employee.id] = Carried(held, earned, opening)
    # Leavers not yet settled: carried by the run before, or whose last day is this month.
    leavers = Employee.select().where(Employee.entity == entity, Employee.status == "left",
                                      Employee.termination_date <= month_end,
                                      (Employee.termination_date >= month_start) | Employee.id.in_(list(booked)))
    for employee in leavers:
        service = _service(employee, pay_of(employee), entity.country)
        held, opening = bring(employee, service)
        last_day = employee.termination_date
        lines.setdefault(employee.id, {}).update(provision_lines(  # with their last days' pay: the final settlement
            held, liability(service, last_day), owed(service, last_day, employee.leaving_kind or "termination")))
        carried[employee.id] = Carried(held, 0, opening, settled=True)
    for employee_id in set(booked) - set(carried):  # moved to another entity, or archived
        lines.setdefault(employee_id, {}).update(provision_lines(booked[employee_id], 0))
        carried[employee_id] = Carried(booked[employee_id], 0, 0, settled=True)
    return carried, opening_total


def finalize_run(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Close a draft run and post its accrual journal."""
    with write_transaction():
        run = _locked(run)
        if run.status != "draft":
            raise Conflict(f"payroll run {run.id} is {run.status}; only a draft can be finalized")
        if run.eos_opening_minor:  # its own entry, so the accrual is this month's cost only
            _post(run, "opening", [(*OPENING_EQUITY, run.eos_opening_minor, 0),
                                   (*EOS_PROVISION, 0, run.eos_opening_minor)], runtime.now())
        run = _move(run, "finalized", "accrual", accrual_journal(_components_of(run), run.country), runtime,
                    stamp="finalized_at")
        _tie(run, runtime)
        return run


def mark_paid(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Record that a finalized run's net pay went out, and post the payment journal."""
    with write_transaction():
        run = _locked(run)
        if run.status == "draft":
            raise Conflict(f"payroll run {run.id} is a draft; finalize it before marking it paid")
        if run.status == "paid":
            raise Conflict(f"payroll run {run.id} is already paid")
        if run.status != "finalized":
            raise Conflict(f"payroll run {run.id} is {run.status}")
        return _move(run, "paid", "payment", payment_journal(run.net_minor), runtime, stamp="paid_at")


def correct_run(run: PayrollRun, earnings_by_employee: dict[str, dict[str, int]], runtime: Runtime) -> PayrollRun:
    """Change some employees' earnings in a finalized or paid run.

    `earnings_by_employee` is {employee id: {"basic", "housing", "transport",
    "other_allowance": minor units}} (keys left out keep their value). Each named
    employee's lines are recomputed by the country's rules, the run's totals and
    components follow, and one correcting entry moves the posted accrual to the new one.
    The lines and the posted journal are read under the run's lock, so two corrections at
    once each move the accounts from what the other posted.
    """
    if not earnings_by_employee:
        raise ValidationFailed("nothing to correct", [("lines", "name at least one employee")])
    with write_transaction():
        run = _locked(run)
        if run.status not in ("finalized", "paid"):
            raise Conflict(f"payroll run {run.id} is {run.status}; only a finalized or paid run can be corrected")
        run = _correct(run, earnings_by_employee, runtime)
        _tie(run, runtime)
        return run


def _correct(run, earnings_by_employee, runtime):
    country = get_country(run.country)
    lines = lines_by_employee(run)
    eos = {row.employee_id: row for row in EndOfServiceBalance.select().where(EndOfServiceBalance.run == run)}
    employees = {e.id: e for e in Employee.select().where(Employee.id.in_(list(earnings_by_employee)),
                                                          Employee.entity == run.entity_id)}
    errors = []
    for employee_id, earnings in earnings_by_employee.items():
        employee = employees.get(employee_id)
        if employee is None:
            errors.append((f"lines.{employee_id}", f"not an employee of this run's legal entity ({run.entity_id})"))
            continue
        unknown = set(earnings) - {"basic", "housing", "transport", "other_allowance"}
        negative = [k for k, v in earnings.items()
                    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_AMOUNT_MINOR]
        if unknown or negative:
            errors.append((f"lines.{employee_id}", "earnings are basic, housing, transport and "
                           "other_allowance, each zero or more (at most 10^15 minor units)"))
            continue
        current = lines.get(employee_id, {})
        if "end_of_service_benefit" in current or (employee_id in eos and eos[employee_id].settled):
            errors.append((f"lines.{employee_id}", "a leaver's final settlement is not corrected"))
            continue
        # What the month pays (a part month's amounts as paid, as HR sees and edits them).
        paid = Pay(**{k: earnings.get(k, current.get(k, 0)) for k in ("basic", "housing", "transport",
                                                                        "other_allowance")},
                   is_national=employee.is_national)
        lines[employee_id] = _lines_for(employee, paid, country, run.payroll_month, sio=bool(eos), as_paid=True)
        carried = eos.get(employee_id)
        if carried is not None:  # the provision follows the corrected wage (the month's terms)
            monthly = monthly_terms(paid, _share(employee, country.code, run.payroll_month))
            earned = liability(_service(employee, monthly, run.country), _month_bounds(run.payroll_month)[1])
            lines[employee_id].update(provision_lines(carried.booked_minor, earned))
            carried.balance_minor = earned
    if errors:
        raise ValidationFailed("invalid correction", errors)
    components, totals = summarize(lines.values())
    correction = difference_journal(_posted_lines(run, ACCRUAL_KINDS), accrual_journal(components, run.country))
    if not correction:
        raise ValidationFailed("the correction changes no amount", [("lines", "no amount differs")])
    now = runtime.now()
    PayrollLine.delete().where(PayrollLine.run == run).execute()
    _store_lines(run, lines)
    PayrollComponent.delete().where(PayrollComponent.run == run).execute()
    _store_components(run, components)
    for employee_id in earnings_by_employee:
        if employee_id in eos:
            eos[employee_id].save()
    _post(run, "correction", correction, now)
    for field, value in _totals_fields(totals).items():
        setattr(run, field, value)
    run.employee_count = sum(1 for per_employee in lines.values() if per_employee)
    run.updated_at = to_db(now)
    run.save()
    _announce(run, "payroll_run.corrected", runtime)
    return run


def delete_run(run: PayrollRun, runtime: Runtime) -> PayrollRun:
    """Delete a finalized run: its journal is reversed and it leaves the API."""
    with write_transaction():
        run = _locked(run)
        if run.status == "paid":
            raise Conflict(f"payroll run {run.id} is paid; a paid run cannot be deleted (correct it instead)")
        if run.status == "draft":
            raise Conflict(f"payroll run {run.id} is a draft; discard it instead")
        if run.status != "finalized":
            raise Conflict(f"payroll run {run.id} is {run.status}")
        run = _move(run, "deleted", "reversal", difference_journal(_posted_lines(run), []), runtime)
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
        raise ValidationFailed("unknown WPS status", [("wps_status", f"one of {', '.join(WPS_STATUSES)}")])
    with write_transaction():
        run = _locked(run)
        if run.status not in ("finalized", "paid"):
            raise Conflict(f"payroll run {run.id} is {run.status}; only a finalized or paid run goes to the bank")
        if wps_status not in WPS_NEXT[run.wps_status]:
            allowed = " or ".join(WPS_NEXT[run.wps_status]) or "nothing else (it is final)"
            raise Conflict(f"payroll run {run.id} is {run.wps_status} with the bank; it can become {allowed}")
        run.wps_status = wps_status
        run.updated_at = to_db(runtime.now())
        run.save()
        if runtime.beyond_contract:
            _announce(run, "payroll_run.wps_updated", runtime)
    return run


def wps_step(wps_status: str) -> Callable[[PayrollRun, Runtime], PayrollRun]:
    """`set_wps_status` to one status, as the console's run actions take a move."""
    return lambda run, runtime: set_wps_status(run, wps_status, runtime)


def discard_draft(run: PayrollRun) -> None:
    with write_transaction():
        run = _locked(run)
        if run.status != "draft":
            raise Conflict(f"payroll run {run.id} is {run.status}; only a draft can be discarded")
        run.delete_instance(recursive=True)


def _locked(run):
    """The run as stored now, locked until the transaction ends; a deleted (or discarded)
    run is gone, as for a later click."""
    fresh = locked(PayrollRun.select().where(PayrollRun.id == run.id, PayrollRun.status != "deleted"))
    if fresh is None:
        raise NotFound(f"no payroll run {run.id}")
    return fresh


def _check_month(payroll_month):
    valid = (isinstance(payroll_month, str) and len(payroll_month) == 7 and payroll_month[4] == "-"
             and payroll_month[:4].isdigit() and payroll_month[5:].isdigit() and 1 <= int(payroll_month[5:]) <= 12)
    if not valid:
        raise ValidationFailed("invalid month", [("payroll_month", "use YYYY-MM")])


def _move(run, status, journal_kind, lines, runtime, *, stamp=None):
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
    its correction when it is not the run that moved. Under the entity's lock, so two
    moves at once each see what the other posted (v1.3, like the provision itself)."""
    if not runtime.beyond_contract:
        return
    locked(Entity.select(Entity.id).where(Entity.id == moved.entity_id))
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


def _announce(run, event_type, runtime):
    # Contract, Events: a deleted run is announced by its id only.
    data = ({"payroll_run_id": run.id} if event_type == "payroll_run.deleted"
            else {"payroll_run": payroll_run_summary(run, additions=runtime.beyond_contract)})
    events.emit(Company.get_by_id(run.company_id), event_type, data, runtime)


def _lines_for(employee, pay, country, payroll_month, *, sio=True, as_paid=False):
    """One employee's lines for a month: `pay` (monthly terms) by the country's rules for
    the days they were employed in it, and (`sio`, v1.3) in Bahrain the SIO end-of-service
    contribution of an expatriate (end_of_service.py). `as_paid`: `pay` is already what
    the month pays (a correction states the month's amounts)."""
    share = _share(employee, country.code, payroll_month)
    earned, monthly = (pay, monthly_terms(pay, share)) if as_paid else (pro_rata(pay, share), pay)
    if not sio:
        return employee_lines(earned, country)
    month_start = _month_bounds(payroll_month)[0]
    return employee_lines(earned, country,
                          sio=sio_contribution(_service(employee, monthly, country.code), month_start))


def _share(employee, country_code, payroll_month):
    return employed_share(country_code, *_month_bounds(payroll_month), employee.hire_date, employee.termination_date)


def _components_of(run):
    return [ComponentTotal(c.code, c.amount_minor, c.employee_count)
            for c in run.components.order_by(PayrollComponent.position)]


def hr_runs(company_id: str, limit: int = 120) -> list[PayrollRun]:
    """The company's runs as HR sees them, drafts included, newest month first."""
    return list(PayrollRun.select().where(PayrollRun.company == company_id, PayrollRun.status != "deleted")
                .order_by(PayrollRun.payroll_month.desc(), PayrollRun.entity, PayrollRun.id).limit(limit))


def lines_by_employee(run: PayrollRun) -> dict[str, dict[str, int]]:
    """{employee id: {component code: amount}} of a run."""
    lines: dict[str, dict[str, int]] = {}
    for line in PayrollLine.select().where(PayrollLine.run == run):
        lines.setdefault(line.employee_id, {})[line.component_code] = line.amount_minor
    return lines


def _posted_lines(run, kinds=None):
    """The lines of the run's posted entries (of `kinds`), one list per entry."""
    query = JournalEntry.select().where(JournalEntry.run == run)
    if kinds:
        query = query.where(JournalEntry.kind.in_(kinds))
    entries = {entry.id: [] for entry in query}
    for line in JournalLine.select().where(JournalLine.entry.in_(list(entries))).order_by(JournalLine.position):
        entries[line.entry_id].append((line.account_code, line.account_name, line.debit_minor, line.credit_minor))
    return list(entries.values())


MEMO_WORDS = {
    "accrual": "accrual",
    "opening": "end-of-service provision earned before the books carried them",
    "payment": "payment of net pay",
    "correction": "correction",
    "reversal": "reversal (the run was deleted)",
    "true_up": "end-of-service provision true-up after a change to an earlier month",
}


def _post(run, kind, lines, now):
    """Post one balanced entry on `run`, dated for the accountant (v1.3): an accrual or an
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
    JournalLine.insert_many(
        [{"entry": entry.id, "position": i, "account_code": code, "account_name": name,
          "debit_minor": debit, "credit_minor": credit}
         for i, (code, name, debit, credit) in enumerate(lines)]
    ).execute()
    return entry


def _accounting_date(run, kind, now):
    if kind in ("accrual", "opening"):
        return _month_bounds(run.payroll_month)[1]
    if kind == "payment":
        return now.astimezone(ZoneInfo(Company.get_by_id(run.company_id).timezone)).date()
    latest = (PayrollRun.select(PayrollRun.payroll_month)
              .where(PayrollRun.entity == run.entity_id, PayrollRun.status.in_(("finalized", "paid")))
              .order_by(PayrollRun.payroll_month.desc()).first())
    return _month_bounds(latest.payroll_month if latest is not None else run.payroll_month)[1]


def _totals_fields(totals):
    return {
        "gross_minor": totals.gross, "deductions_minor": totals.deductions,
        "net_minor": totals.net, "employer_contributions_minor": totals.employer_contributions,
        "total_cost_minor": totals.total_cost, "provisions_minor": totals.provisions,
    }


def _store_lines(run, lines):
    rows = [{"run": run.id, "employee": employee_id, "component_code": code, "amount_minor": amount}
            for employee_id, per_employee in lines.items() for code, amount in per_employee.items()]
    if rows:
        PayrollLine.insert_many(rows).execute()


def _store_components(run, components):
    rows = [{"run": run.id, "position": i, "code": c.code, "name_en": COMPONENTS[c.code].name_en,
             "name_ar": COMPONENTS[c.code].name_ar, "kind": COMPONENTS[c.code].kind,
             "amount_minor": c.amount, "employee_count": c.employee_count}
            for i, c in enumerate(components)]
    if rows:
        PayrollComponent.insert_many(rows).execute()
