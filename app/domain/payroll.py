"""Payroll: per-employee lines -> run totals, components, and a balanced journal.

The arithmetic is pure (`employee_lines`, `summarize`, `accrual_journal`); the
functions at the bottom store a run built from a legal entity's employees.
Amounts are integer minor units throughout.
"""

from collections import defaultdict
from dataclasses import dataclass

from app.domain.clock import to_db
from app.domain.countries import get_country
from app.domain.errors import Conflict
from app.domain.ids import new_id
from app.domain.money import percent_of
from app.models import (
    Employee,
    JournalEntry,
    JournalLine,
    PayrollComponent,
    PayrollLine,
    PayrollRun,
    db,
)

EARNING, DEDUCTION, EMPLOYER = "earning", "deduction", "employer_contribution"


@dataclass(frozen=True)
class ComponentType:
    code: str
    name_en: str
    name_ar: str
    kind: str
    account_code: str  # expense account (earnings, employer contributions)
    account_name: str


# In the order components are shown.
COMPONENT_TYPES = (
    ComponentType("basic", "Basic salary", "الراتب الأساسي", EARNING, "5100", "Basic salaries"),
    ComponentType("housing", "Housing allowance", "بدل السكن", EARNING, "5110", "Housing allowances"),
    ComponentType("transport", "Transport allowance", "بدل المواصلات", EARNING, "5120", "Transport allowances"),
    ComponentType("other_allowance", "Other allowances", "بدلات أخرى", EARNING, "5130", "Other allowances"),
    ComponentType("social_insurance_employee", "Social insurance (employee share)",
                  "التأمينات الاجتماعية (حصة الموظف)", DEDUCTION, "2120", "Social insurance payable"),
    ComponentType("social_insurance_employer", "Social insurance (employer share)",
                  "التأمينات الاجتماعية (حصة صاحب العمل)", EMPLOYER, "5200",
                  "Employer social insurance expense"),
)
COMPONENTS = {c.code: c for c in COMPONENT_TYPES}
SALARIES_PAYABLE = ("2110", "Salaries payable")
SOCIAL_INSURANCE_PAYABLE = ("2120", "Social insurance payable")


@dataclass(frozen=True)
class Pay:
    """One employee's monthly pay terms (internal fields of Employee)."""

    basic: int
    housing: int = 0
    transport: int = 0
    other_allowance: int = 0
    is_national: bool = False


@dataclass(frozen=True)
class Totals:
    gross: int
    deductions: int
    net: int
    employer_contributions: int
    total_cost: int


@dataclass(frozen=True)
class ComponentTotal:
    code: str
    amount: int
    employee_count: int


def employee_lines(pay, country):
    """{component code: amount} for one employee, zero amounts left out."""
    earnings = {
        "basic": pay.basic, "housing": pay.housing,
        "transport": pay.transport, "other_allowance": pay.other_allowance,
    }
    base = sum(earnings[code] for code in country.contributory)
    if country.contributory_ceiling is not None:
        base = min(base, country.contributory_ceiling)
    rates = country.nationals if pay.is_national else country.expatriates
    lines = dict(earnings)
    lines["social_insurance_employee"] = percent_of(base, rates.employee)
    lines["social_insurance_employer"] = percent_of(base, rates.employer)
    return {code: amount for code, amount in lines.items() if amount}


def summarize(all_lines):
    """Per-employee line dicts -> (component totals in display order, Totals)."""
    amounts, counts = defaultdict(int), defaultdict(int)
    for lines in all_lines:
        for code, amount in lines.items():
            amounts[code] += amount
            counts[code] += 1
    components = [
        ComponentTotal(c.code, amounts[c.code], counts[c.code])
        for c in COMPONENT_TYPES if counts[c.code]
    ]
    by_kind = defaultdict(int)
    for component in components:
        by_kind[COMPONENTS[component.code].kind] += component.amount
    gross, deductions, employer = by_kind[EARNING], by_kind[DEDUCTION], by_kind[EMPLOYER]
    totals = Totals(gross, deductions, gross - deductions, employer, gross + employer)
    return components, totals


def accrual_journal(components):
    """The accrual entry for a closed run: expenses debited, liabilities credited.

    Dr each earning and the employer contribution to its expense account; Cr salaries
    payable with net pay and social insurance payable with both shares. It balances
    because net = gross - employee deductions.
    """
    debits, credits = [], defaultdict(int)
    for component in components:
        kind = COMPONENTS[component.code].kind
        if kind in (EARNING, EMPLOYER):
            debits.append((COMPONENTS[component.code].account_code,
                           COMPONENTS[component.code].account_name, component.amount, 0))
        if kind in (DEDUCTION, EMPLOYER):
            credits[SOCIAL_INSURANCE_PAYABLE] += component.amount
        if kind == EARNING:
            credits[SALARIES_PAYABLE] += component.amount
        elif kind == DEDUCTION:
            credits[SALARIES_PAYABLE] -= component.amount
    lines = debits + [
        (account[0], account[1], 0, amount)
        for account, amount in sorted(credits.items()) if amount
    ]
    check_balanced(lines)
    return lines


def check_balanced(lines):
    debit = sum(line[2] for line in lines)
    credit = sum(line[3] for line in lines)
    if debit != credit:
        raise AssertionError(f"journal does not balance: debit {debit} != credit {credit}")


def pay_of(employee):
    return Pay(
        basic=employee.basic_salary_minor, housing=employee.housing_allowance_minor,
        transport=employee.transport_allowance_minor,
        other_allowance=employee.other_allowance_minor, is_national=employee.is_national,
    )


def build_draft_run(entity, payroll_month, clock):
    """A draft run for `entity` and `payroll_month` from its employees' pay terms.

    Employees who have left, or were archived, are not paid.
    """
    country = get_country(entity.country)
    employees = list(
        Employee.select().where(
            Employee.entity == entity, Employee.status != "left", Employee.archived == False  # noqa: E712
        ).order_by(Employee.created_at, Employee.id)
    )
    lines = {employee.id: employee_lines(pay_of(employee), country) for employee in employees}
    components, totals = summarize(lines.values())
    now = to_db(clock.now())
    with db.atomic():
        run = PayrollRun.create(
            id=new_id("prun"), company=entity.company_id, entity=entity, country=entity.country,
            payroll_month=payroll_month, status="draft", currency=entity.currency,
            employee_count=len(employees), created_at=now, updated_at=now,
            **_totals_fields(totals),
        )
        PayrollLine.insert_many(
            [{"run": run.id, "employee": employee_id, "component_code": code, "amount_minor": amount}
             for employee_id, per_employee in lines.items()
             for code, amount in per_employee.items()]
        ).execute()
        _store_components(run, components)
    return run


def finalize_run(run, clock):
    """Close a draft run and post its accrual journal."""
    if run.status != "draft":
        raise Conflict(f"payroll run {run.id} is {run.status}; only a draft can be finalized")
    components = [
        ComponentTotal(c.code, c.amount_minor, c.employee_count)
        for c in run.components.order_by(PayrollComponent.position)
    ]
    now = clock.now()
    with db.atomic():
        post_journal(run, "accrual", accrual_journal(components), now)
        run.status = "finalized"
        run.finalized_at = run.updated_at = to_db(now)
        run.save()
    return run


def post_journal(run, kind, lines, now):
    check_balanced(lines)
    entry = JournalEntry.create(
        id=new_id("jrn"), company=run.company_id, run=run, kind=kind,
        currency=run.currency, posted_at=to_db(now),
    )
    JournalLine.insert_many(
        [{"entry": entry.id, "position": i, "account_code": code, "account_name": name,
          "debit_minor": debit, "credit_minor": credit}
         for i, (code, name, debit, credit) in enumerate(lines)]
    ).execute()
    return entry


def _totals_fields(totals):
    return {
        "gross_minor": totals.gross, "deductions_minor": totals.deductions,
        "net_minor": totals.net, "employer_contributions_minor": totals.employer_contributions,
        "total_cost_minor": totals.total_cost,
    }


def _store_components(run, components):
    PayrollComponent.insert_many(
        [{"run": run.id, "position": i, "code": c.code, "name_en": COMPONENTS[c.code].name_en,
          "name_ar": COMPONENTS[c.code].name_ar, "kind": COMPONENTS[c.code].kind,
          "amount_minor": c.amount, "employee_count": c.employee_count}
         for i, c in enumerate(components)]
    ).execute()
