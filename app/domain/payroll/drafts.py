"""Drafting a payroll run from what HR holds, and HR's reads of runs (drafts included).

`build_draft_run` makes a draft (never visible to partners, no event) for one legal
entity and month: every employee employed during the month, paid for the days employed
(`rules.employed_share`), and (v1.3) each one's end-of-service provision and leave-salary
provision moved to what they have earned at the month's end, the leavers settled
(`_end_of_service`, `_leave_provision`). Moving a run through its states is
app/domain/payroll/moves.py's.
"""

from calendar import monthrange
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from peewee import JOIN

from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.countries import Country, get_country
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.locks import hold
from app.domain.kernel.memory import collector_paused
from app.domain.kernel.money import round_half_up
from app.domain.kernel.text import ascii_int
from app.domain.leave.balances import LeaveRow, Taken, approved_leave, leave_digest, unpaid_spans
from app.domain.leave.days import excluded_spans
from app.domain.leave.law import LAWS
from app.domain.leave.pay import Leave, Segment, segments
from app.domain.payroll import leave_provision
from app.domain.payroll.end_of_service import Reason, Service, liability, owed, provision_lines, sio_contribution
from app.domain.payroll.rules import (
    COMPONENTS,
    DEDUCTION,
    EARNING,
    THIRTY_DAY_MONTH,
    ComponentTotal,
    Pay,
    Totals,
    employed_share,
    employee_lines,
    monthly_terms,
    pay_of,
    pro_rata,
    summarize,
)
from app.models import (
    Branch,
    Company,
    Employee,
    EndOfServiceBalance,
    Entity,
    LeaveProvisionBalance,
    LeaveRequest,
    PayrollComponent,
    PayrollLeave,
    PayrollLine,
    PayrollRun,
)
from app.models.base import insert_rows, row_of, tuple_rows, write_transaction


def get_hr_run(company_id: str | None, run_id: str) -> PayrollRun:
    """Any run of the company, drafts included (HR's side, not the partner's), read
    without a lock: each move locks it again before it decides (moves.py).
    `company_id` None: of any company, for an operator's command."""
    run = PayrollRun.get_or_none(row_of(PayrollRun, run_id, company_id), PayrollRun.status != "deleted")
    if run is None:
        raise NotFound(Words("no payroll run %(run)s", run=run_id))
    return run


@dataclass(frozen=True)
class PayRow:
    """One employee's month as HR reads it: the earnings paid, the deductions, net pay."""

    employee: Employee
    earnings: dict[str, int]  # code -> amount, each of EARNINGS (0 when not paid)
    deductions: int
    net: int


EARNINGS = ("basic", "housing", "transport", "other_allowance")


def pay_rows(run: PayrollRun) -> list[PayRow]:
    """Each employee's lines of a run, by staff number: what the console's run page shows
    (a leaver's end-of-service benefit is in their net pay, not among the earnings)."""
    lines = lines_by_employee(run)
    people = {e.id: e for e in Employee.select().where(Employee.id.in_(list(lines)))}
    rows = []
    for employee_id, amounts in lines.items():
        paid = sum(amount for code, amount in amounts.items() if COMPONENTS[code].kind == EARNING)
        deductions = sum(amount for code, amount in amounts.items() if COMPONENTS[code].kind == DEDUCTION)
        rows.append(PayRow(people[employee_id], {code: amounts.get(code, 0) for code in EARNINGS}, deductions,
                           paid - deductions))
    return sorted(rows, key=lambda row: row.employee.staff_number)


def cost_centres(employee_ids: list[str], split_by: str) -> dict[str, str | None]:
    """{employee: their department, or their branch's name} as HR holds it now (None for
    none): the group a split journal line shows them under (rules.floor_groups)."""
    if split_by == "branch":
        query = (Employee.select(Employee.id, Branch.name).join(Branch, JOIN.LEFT_OUTER)
                 .where(Employee.id.in_(employee_ids)))
    else:
        query = Employee.select(Employee.id, Employee.department).where(Employee.id.in_(employee_ids))
    return {employee_id: (group or "").strip() or None for employee_id, group in tuple_rows(query)}


def build_draft_run(entity: Entity, payroll_month: str, clock: Clock, *, end_of_service: bool = True) -> PayrollRun:
    """A draft run for `entity` and `payroll_month` from its employees' pay terms.

    Everyone employed during the month is paid for the days employed (a joiner's first
    month and a leaver's last, `rules.employed_share`); the archived are not. One live run per entity
    and month: a second draft, or a draft beside a finalized run, is refused. With
    `end_of_service` (v1.3: callers pass their Runtime's `beyond_contract`), the run also
    moves each employee's end-of-service provision, and their leave-salary provision, to
    what they have earned at the month's end, and settles the leavers not yet settled
    (`_end_of_service`, `_leave_provision`). A month on
    or before the day an entity's books carried its provision from another payroll
    system (provision.set_carried) was that system's: refused.
    """
    if not isinstance(entity, Entity):
        entity = Entity.get_by_id(entity)
    _check_month(payroll_month)
    for _ in range(DRAFT_TRIES):
        with collector_paused():  # every employee's objects, and no cycles among them
            run = _draft_once(entity, payroll_month, clock, end_of_service)
        if run is not None:
            return run
    raise Conflict(Words("leave of %(entity)s was approved or cancelled while the draft was built: draft "
                         "%(month)s again", entity=entity.name_en, month=payroll_month))


DRAFT_TRIES = 3  # attempts at a draft while leave of its entity keeps moving under it


def _draft_once(entity: Entity, payroll_month: str, clock: Clock, end_of_service: bool) -> PayrollRun | None:
    """build_draft_run's one attempt: the run, or None when a leave of the entity was
    approved or cancelled between reading leave and storing the run (try again)."""
    country = get_country(entity.country)
    month_start, month_end = month_bounds(payroll_month)
    paid = list(
        Employee.select().where(
            Employee.entity == entity, Employee.archived == False, Employee.hire_date <= month_end,  # noqa: E712
            (Employee.status != "left") | (Employee.termination_date >= month_start),
        ).order_by(Employee.created_at, Employee.id)
    )
    # Approved leave that may touch the month's pay: a sick leave a year back moves this
    # month's sick days down the tiers (app/domain/leave/pay.py). What it was when read
    # is kept (`seen`): leave approved or cancelled before the run is stored makes this
    # attempt give way (None), and after it, refuses its finalize (moves.finalize_run).
    seen = leave_digest(entity.id, month_end)
    leave = approved_leave(entity_id=entity.id, since=month_start - timedelta(days=366))
    shares = {employee.id: month_share(employee, country.code, payroll_month, leave.get(employee.id, ()))
              for employee in paid}
    lines = {employee.id: lines_for(employee, pay_of(employee), country, payroll_month, sio=end_of_service,
                                    leave=leave.get(employee.id, ()), share=shares[employee.id].paid)
             for employee in paid}
    effects = [row for employee in paid if shares[employee.id].off
               for row in leave_effects(employee, pay_of(employee), shares[employee.id])]
    # Whoever's last day falls in the month (left already, or leaving later this month: HR
    # runs payroll before the month ends) is settled in this run, their final settlement.
    staying = [employee for employee in paid if employee.termination_date is None
               or employee.termination_date > month_end]
    balances, opening = (_end_of_service(entity, payroll_month, staying, lines, leave) if end_of_service
                         else ({}, 0))
    leave_balances = _leave_provision(entity, payroll_month, staying, lines) if end_of_service else {}
    components, totals = summarize(lines.values())
    now = to_db(clock.now())
    with write_transaction():
        # The entity's lock (in locks.py's order) makes "one live run per entity and
        # month" hold for two drafts built at once: the second waits, then finds the first.
        hold(entity.company_id, entity.id)
        if leave_digest(entity.id, month_end) != seen:  # a leave move of the entity came between
            return None
        carried_to = Entity.select(Entity.eos_carried_as_of).where(Entity.id == entity.id).scalar()
        if carried_to is not None and month_start <= carried_to:  # provision.set_carried
            raise ValidationFailed(Words("the other payroll system paid this month"), [("payroll_month", Words(
                "the books of %(entity)s carried the end-of-service provision from another payroll system on "
                "%(as_of)s: draft a month after it", entity=entity.name_en, as_of=carried_to.isoformat()))])
        existing = PayrollRun.get_or_none(PayrollRun.entity == entity, PayrollRun.payroll_month == payroll_month,
                                          PayrollRun.status != "deleted")
        if existing is not None:
            raise Conflict(Words("%(entity)s already has a %(status)s run for %(month)s (%(run)s)",
                                 entity=entity.name_en, status=existing.status, month=payroll_month,
                                 run=existing.id))
        run = PayrollRun.create(
            id=new_id("prun"), company=entity.company_id, entity=entity, country=entity.country,
            payroll_month=payroll_month, status="draft", currency=entity.currency,
            employee_count=sum(1 for per_employee in lines.values() if per_employee), created_at=now,
            updated_at=now, eos_opening_minor=opening, end_of_service_lines=end_of_service, leave_digest=seen,
            **totals_fields(totals),
        )
        store_lines(run, lines)
        store_components(run, components)
        V = PayrollLeave
        insert_rows((V.run, V.employee, V.leave, V.type, V.days, V.paid_percent, V.reduction_minor), [
            (run.id, row["employee"], row["leave"], row["type"], row["days"], str(row["paid_percent"]),
             row["reduction_minor"]) for row in effects])
        # A row an employee, in one statement each (base.insert_rows: Peewee builds a
        # large INSERT's SQL value by value, the largest part of a draft's time).
        E, L = EndOfServiceBalance, LeaveProvisionBalance
        insert_rows((E.run, E.employee, E.booked_minor, E.balance_minor, E.opening_minor, E.settled), [
            (run.id, employee_id, held.booked, held.balance, held.opening, held.settled)
            for employee_id, held in balances.items()])
        insert_rows((L.run, L.employee, L.booked_minor, L.balance_minor, L.opening_minor, L.days, L.settled), [
            (run.id, employee_id, held.booked, held.balance, held.opening, str(held.days), held.settled)
            for employee_id, held in leave_balances.items()])
    return run


def month_bounds(payroll_month: str) -> tuple[date, date]:
    year, month = int(payroll_month[:4]), int(payroll_month[5:])
    return date(year, month, 1), date(year, month, monthrange(year, month)[1])


def is_month(payroll_month: object) -> bool:
    """Whether `payroll_month` is a month YYYY-MM in the digits 0-9 (kernel/text.py):
    "٢٠٢٦-١١" is not a month, nor is "2026-1²" (read by int() into a ValueError), nor
    "2026-13"."""
    return (isinstance(payroll_month, str) and len(payroll_month) == 7 and payroll_month[4] == "-"
            and (year := ascii_int(payroll_month[:4])) is not None
            and (month := ascii_int(payroll_month[5:])) is not None and year >= 1 and 1 <= month <= 12)


def _check_month(payroll_month: object) -> None:
    if not is_month(payroll_month):
        raise ValidationFailed(Words("invalid month"), [("payroll_month", Words(
            "a month YYYY-MM (the month 01 to 12), written with the digits 0 to 9 (e.g. 2026-11)"))])


def service_of(employee: Employee, pay: Pay, country_code: str, leave: Sequence[Leave] = ()) -> Service:
    """What the end-of-service rules need of `employee`: their `leave` (approved, any
    time) takes the unpaid days the law does not count out of their service."""
    return Service(country_code, employee.hire_date, pay.is_national, pay.basic,
                   pay.housing + pay.transport + pay.other_allowance,
                   tuple(excluded_spans(LAWS[country_code], unpaid_spans(leave))))


@dataclass(frozen=True)
class Carried:
    """One employee's end-of-service provision around a run."""

    booked: int  # what the books carried for them before the run
    balance: int  # after it: what they have earned at the month's end (0 once settled)
    opening: int  # what they had earned before the month; brought in by this run if the books did not carry them
    settled: bool = False  # a leaver paid in this run (or one this entity no longer employs): nothing after it


def _end_of_service(entity: Entity, payroll_month: str, employees: Sequence[Employee],
                    lines: dict[str, dict[str, int]],
                    leave: dict[str, list[Leave]]) -> tuple[dict[str, Carried], int]:
    """Add each employee's end-of-service lines to `lines` (app/domain/payroll/end_of_service.py):
    those paid move the provision the books carry for them to what they have earned at
    the month's end; a leaver not yet settled is paid what the law owes (by how they
    left) out of it, and the rest is released; one the entity carried but no longer
    employs (moved to another entity, archived) is released. What the books carry
    comes from the entity's run before this month; an employee it does not carry yet
    (the entity's first run, or someone entered or moved in since, with earlier
    service) comes in with what they had earned before the month: the `opening`,
    Dr 3100 and never the month's expense. Returns ({employee id: Carried}, opening)."""
    month_start, month_end = month_bounds(payroll_month)
    eve = month_start - timedelta(days=1)
    before = (PayrollRun.select().where(PayrollRun.entity == entity, PayrollRun.payroll_month < payroll_month,
                                        PayrollRun.status.in_(("finalized", "paid")))
              .order_by(PayrollRun.payroll_month.desc()).first())
    booked = {row.employee_id: row.balance_minor for row in
              EndOfServiceBalance.select().where(EndOfServiceBalance.run == before, ~EndOfServiceBalance.settled)}
    carried: dict[str, Carried] = {}
    opening_total = 0

    def bring(employee: Employee, service: Service) -> tuple[int, int]:
        """What the books carry for `employee` before the month, and what they had earned
        by then (the opening, if the books do not carry them yet)."""
        nonlocal opening_total
        earned_before = liability(service, eve)
        if employee.id in booked:
            return booked[employee.id], earned_before
        opening_total += earned_before
        return earned_before, earned_before

    for employee in employees:
        service = service_of(employee, pay_of(employee), entity.country, leave.get(employee.id, ()))
        held, opening = bring(employee, service)
        earned = liability(service, month_end)
        lines[employee.id].update(provision_lines(held, earned))
        carried[employee.id] = Carried(held, earned, opening)
    # Leavers not yet settled: carried by the run before, or whose last day is this month
    # (gone already, or leaving before the month ends).
    leavers = Employee.select().where(Employee.entity == entity, Employee.termination_date <= month_end,
                                      (Employee.termination_date >= month_start) | Employee.id.in_(list(booked)))
    for employee in leavers:
        service = service_of(employee, pay_of(employee), entity.country, leave.get(employee.id, ()))
        held, opening = bring(employee, service)
        last_day = employee.termination_date
        assert last_day is not None  # the query's `termination_date <= month_end` holds for no NULL
        reason: Reason = "resignation" if employee.leaving_kind == "resignation" else "termination"
        lines.setdefault(employee.id, {}).update(provision_lines(  # with their last days' pay: the final settlement
            held, liability(service, last_day), owed(service, last_day, reason)))
        carried[employee.id] = Carried(held, 0, opening, settled=True)
    for employee_id in set(booked) - set(carried):  # moved to another entity, or archived
        lines.setdefault(employee_id, {}).update(provision_lines(booked[employee_id], 0))
        carried[employee_id] = Carried(booked[employee_id], 0, 0, settled=True)
    return carried, opening_total


@dataclass(frozen=True)
class LeaveCarried:
    """One employee's leave-salary provision around a run (LeaveProvisionBalance's fields)."""

    booked: int  # what the books carried for them before the run
    balance: int  # after it: the days held at the month's end at a day's leave wage (0 once settled)
    opening: int  # what they held before the month; brought in by this run if the books did not carry them
    days: Decimal  # the days `balance` is for, to four places (0 once settled)
    settled: bool = False  # a leaver paid their unused days in this run (or no longer employed here)


def annual_leave_rows(employee_ids: Sequence[str] | None = None, *,
                      entity_id: str | None = None) -> dict[str, list[Taken]]:
    """{employee id: their approved annual and unpaid leave, whenever it was} for the
    employees named (or every employee of `entity_id`), in one query: what their leave
    balances read (leave_provision.held_days)."""
    query = LeaveRequest.select(LeaveRequest.employee, LeaveRequest.type, LeaveRequest.status,
                                LeaveRequest.start_date, LeaveRequest.end_date).where(
        LeaveRequest.status == "approved", LeaveRequest.type.in_(leave_provision.KINDS))
    if employee_ids is not None:
        query = query.where(LeaveRequest.employee.in_(list(employee_ids)))
    if entity_id is not None:
        query = query.join(Employee).where(Employee.entity == entity_id)
    out: dict[str, list[Taken]] = {}
    for employee_id, *columns in tuple_rows(query.order_by(LeaveRequest.start_date)):
        out.setdefault(employee_id, []).append(Taken(*columns))
    return out


def in_days(days: Fraction) -> Decimal:
    """Days to four places (LeaveProvisionBalance.days), half up: the provision itself is
    valued on the exact days."""
    return (Decimal(days.numerator) / Decimal(days.denominator)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)


def leave_held(employee: Employee, company: Company, pay: Pay, leave: Sequence[LeaveRow],
               through: date) -> tuple[int, Fraction]:
    """(the leave-salary provision for `employee` at the end of `through` on the monthly
    terms `pay`, the days it is for): leave_provision.held_days at a day's leave wage."""
    days = leave_provision.held_days(employee, company, leave, through)
    return leave_provision.value(days, leave_provision.law_of(employee), pay), days


def _leave_provision(entity: Entity, payroll_month: str, employees: Sequence[Employee],
                     lines: dict[str, dict[str, int]]) -> dict[str, LeaveCarried]:
    """Add each employee's leave-salary lines to `lines` (app/domain/payroll/leave_provision.py),
    as `_end_of_service` does for the end-of-service provision: those paid move the
    provision the books carry for them to the annual leave they hold at the month's end
    (earned from the first day, less forfeited and taken) at a day's leave wage; a leaver
    not yet settled is paid the unused days the law owes them (`leave_encashment`) out of
    it, and the rest is released (or first topped up), so the books carry nothing for
    them after the run; one the entity carried but no longer employs is released. What
    the books carry comes from the entity's posted run before this month; an employee
    they do not carry yet comes in with what they held before the month (their
    `opening`, Dr 3100 at finalize: provision.leave_opening)."""
    month_start, month_end = month_bounds(payroll_month)
    eve = month_start - timedelta(days=1)
    company = Company.get_by_id(entity.company_id)
    before = (PayrollRun.select().where(PayrollRun.entity == entity, PayrollRun.payroll_month < payroll_month,
                                        PayrollRun.status.in_(("finalized", "paid")))
              .order_by(PayrollRun.payroll_month.desc()).first())
    booked = {row.employee_id: row.balance_minor for row in
              LeaveProvisionBalance.select().where(LeaveProvisionBalance.run == before,
                                                   ~LeaveProvisionBalance.settled)}
    leave = annual_leave_rows(entity_id=entity.id)
    carried: dict[str, LeaveCarried] = {}

    def bring(employee: Employee, pay: Pay) -> tuple[int, int]:
        """What the books carry for `employee` before the month, and what they held by then."""
        opening = leave_held(employee, company, pay, leave.get(employee.id, ()), eve)[0]
        return booked.get(employee.id, opening), opening

    for employee in employees:
        pay = pay_of(employee)
        held, opening = bring(employee, pay)
        balance, days = leave_held(employee, company, pay, leave.get(employee.id, ()), month_end)
        lines[employee.id].update(leave_provision.lines(held, balance))
        carried[employee.id] = LeaveCarried(held, balance, opening, in_days(days))
    leavers = Employee.select().where(Employee.entity == entity, Employee.termination_date <= month_end,
                                      (Employee.termination_date >= month_start) | Employee.id.in_(list(booked)))
    for employee in leavers:
        pay = pay_of(employee)
        held, opening = bring(employee, pay)
        last_day = employee.termination_date
        assert last_day is not None  # the query's `termination_date <= month_end` holds for no NULL
        own = leave.get(employee.id, ())
        provision = leave_held(employee, company, pay, own, last_day)[0]
        paid = leave_provision.value(leave_provision.owed_days(employee, company, own, last_day),
                                     leave_provision.law_of(employee), pay)
        lines.setdefault(employee.id, {}).update(leave_provision.lines(held, provision, paid))  # the settlement
        carried[employee.id] = LeaveCarried(held, 0, opening, Decimal(0), settled=True)
    for employee_id in set(booked) - set(carried):  # moved to another entity, or archived
        lines.setdefault(employee_id, {}).update(leave_provision.lines(booked[employee_id], 0))
        carried[employee_id] = LeaveCarried(booked[employee_id], 0, 0, Decimal(0), settled=True)
    return carried


def lines_for(employee: Employee, pay: Pay, country: Country, payroll_month: str, *, share: Fraction,
              sio: bool = True, as_paid: bool = False, leave: Sequence[Leave] = ()) -> dict[str, int]:
    """One employee's lines for a month: `pay` (monthly terms) by the country's rules for
    the `share` of the month they were employed in and paid for (`share_of`: the days
    employed, less what their approved `leave` does not pay), and (`sio`, v1.3) in
    Bahrain the SIO end-of-service contribution of an expatriate, whose service their
    `leave` may shorten (end_of_service.py). `as_paid`: `pay` is already what the month
    pays (a correction states the month's amounts)."""
    earned, monthly = (pay, monthly_terms(pay, share)) if as_paid else (pro_rata(pay, share), pay)
    if not sio:
        return employee_lines(earned, country)
    month_start = month_bounds(payroll_month)[0]
    return employee_lines(earned, country,
                          sio=sio_contribution(service_of(employee, monthly, country.code, leave), month_start))


def share_of(employee: Employee, country_code: str, payroll_month: str, leave: Sequence[Leave] = ()) -> Fraction:
    """The part of the month's pay `employee` is paid: the days employed in it
    (`rules.employed_share`) less, for each run of days of `leave` paid at a share of the
    wage, those days (counted by the same rule) times the share not paid."""
    return month_share(employee, country_code, payroll_month, leave).paid


@dataclass(frozen=True)
class MonthShare:
    """The part of a month's pay one employee is paid, and what their leave took off it."""

    employed: Fraction  # the days employed in the month (rules.employed_share)
    paid: Fraction  # less what leave does not pay: share_of
    off: list[tuple[Segment, Fraction]]  # each run of leave days, and the share of the month's pay it took off


def month_share(employee: Employee, country_code: str, payroll_month: str, leave: Sequence[Leave]) -> MonthShare:
    """`employee`'s MonthShare, leave counted only within the employment.

    The month is paid in slots by the part-month rule (`rules.employed_share`): in a
    30-day month, day d is slot d, the 30th and 31st are both slot 30, and a month's last
    day before the 30th (February's) is every slot to 30; otherwise each calendar day is
    a slot of the month's days. Each slot a leave covers is paid at the lowest share of
    the days on it, so two leaves on one slot take it off once."""
    month_start, month_end = month_bounds(payroll_month)
    employed = employed_share(country_code, month_start, month_end, employee.hire_date, employee.termination_date)
    first, last = max(month_start, employee.hire_date), min(month_end, employee.termination_date or month_end)
    if last < first or not any(row.start <= last and row.end >= first for row in leave):
        return MonthShare(employed, employed, [])  # no leave in the month: most of a payroll's people
    runs = segments(country_code, employee.hire_date, leave, first, last)
    thirty = country_code in THIRTY_DAY_MONTH
    size = 30 if thirty else (month_end - month_start).days + 1

    def slots(run: Segment) -> range:
        """The slots of a run's days (consecutive days: consecutive slots)."""
        if not thirty:
            return range(run.first.day, run.last.day + 1)
        return range(min(run.first.day, 30), 31 if run.last == month_end else min(run.last.day, 30) + 1)

    lowest: dict[int, int] = {}  # slot -> the run paying least on it
    for index, run in enumerate(runs):
        for slot in slots(run):
            if slot not in lowest or run.paid < runs[lowest[slot]].paid:
                lowest[slot] = index
    taken = Counter(lowest.values())  # run -> the slots it takes off
    off = [Fraction((run.paid.denominator - run.paid.numerator) * taken[index], run.paid.denominator * size)
           for index, run in enumerate(runs)]  # (1 - paid) * taken / size, one Fraction a run
    return MonthShare(employed, max(employed - sum(off), Fraction(0)), list(zip(runs, off, strict=True)))


def leave_effects(employee: Employee, pay: Pay, share: MonthShare) -> list[dict[str, object]]:
    """What each leave did to `employee`'s pay of the month (`share`, on the monthly terms
    `pay`): PayrollLeave's fields but the run, one row per leave and share paid: its
    days, and the earnings they took off, which add up to the difference leave made to
    the month's earnings (to the minor unit; a rounding difference goes to the last row
    that took anything)."""
    if not share.off:
        return []
    employed, paid = pro_rata(pay, share.employed), pro_rata(pay, share.paid)
    total = sum(getattr(employed, name) - getattr(paid, name) for name in EARNINGS)
    monthly = sum(getattr(pay, name) for name in EARNINGS)
    days: dict[tuple[Leave, Fraction], int] = {}
    exact: dict[tuple[Leave, Fraction], Fraction] = {}
    for segment, taken in share.off:
        key = (segment.leave, segment.paid)
        days[key] = days.get(key, 0) + segment.days
        exact[key] = exact.get(key, Fraction(0)) + monthly * taken
    reductions = {key: round_half_up(amount) for key, amount in exact.items()}
    last = [key for key, amount in reductions.items() if amount] or list(reductions)
    reductions[last[-1]] += total - sum(reductions.values())
    return [{"employee": employee.id, "leave": row.id, "type": row.type, "days": days[(row, paid)],
             "paid_percent": Decimal(paid.numerator * 100) / paid.denominator,
             "reduction_minor": reductions[(row, paid)]} for row, paid in days]


def hr_runs(company_id: str, limit: int = 120) -> list[PayrollRun]:
    """The company's runs as HR sees them, drafts included, newest month first."""
    return list(PayrollRun.select().where(PayrollRun.company == company_id, PayrollRun.status != "deleted")
                .order_by(PayrollRun.payroll_month.desc(), PayrollRun.entity, PayrollRun.id).limit(limit))


def leave_effects_of(run: PayrollRun) -> list[PayrollLeave]:
    """What leave did to pay in `run` (PayrollLeave), in the order the run recorded it."""
    return list(PayrollLeave.select().where(PayrollLeave.run == run.id).order_by(PayrollLeave.id))


def lines_by_employee(run: PayrollRun) -> dict[str, dict[str, int]]:
    """{employee id: {component code: amount}} of a run (read as tuples: a run's lines are
    ten or more an employee, the most of finalize's time as models)."""
    lines: dict[str, dict[str, int]] = {}
    P = PayrollLine
    for employee_id, code, amount in tuple_rows(P.select(P.employee, P.component_code, P.amount_minor)
                                                .where(P.run == run)):
        lines.setdefault(employee_id, {})[code] = amount
    return lines


def totals_fields(totals: Totals) -> dict[str, int]:
    return {
        "gross_minor": totals.gross, "deductions_minor": totals.deductions,
        "net_minor": totals.net, "employer_contributions_minor": totals.employer_contributions,
        "total_cost_minor": totals.total_cost, "provisions_minor": totals.provisions,
    }


def store_lines(run: PayrollRun, lines: dict[str, dict[str, int]]) -> None:
    P = PayrollLine
    insert_rows((P.run, P.employee, P.component_code, P.amount_minor), [
        (run.id, employee_id, code, amount) for employee_id, per_employee in lines.items()
        for code, amount in per_employee.items()])


def store_components(run: PayrollRun, components: list[ComponentTotal]) -> None:
    rows = [{"run": run.id, "position": i, "code": c.code, "name_en": COMPONENTS[c.code].name_en,
             "name_ar": COMPONENTS[c.code].name_ar, "kind": COMPONENTS[c.code].kind,
             "amount_minor": c.amount, "employee_count": c.employee_count}
            for i, c in enumerate(components)]
    if rows:
        PayrollComponent.insert_many(rows).execute()
