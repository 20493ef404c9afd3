"""What partners see: the one place that turns stored rows into partner-safe dicts.

Used by the API and (later) by webhook payloads, so both carry the same shapes. Each
function lists the fields it returns explicitly; none of the internal fields
(salaries, allowances, bank, IDs, birth date, social insurance, leaving reason) is
ever read here. The marshmallow schemas in `app/api/` document these shapes, and a
test holds the two together.
"""

from collections.abc import Iterable
from datetime import date
from typing import Any

from app.domain.kernel.clock import format_utc
from app.domain.kernel.money import format_minor
from app.models import Company, Entity, JournalEntry, JournalLine, LeaveRequest, PayrollComponent, PayrollRun


def _iso_date(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None


def company_form(company: Company, entities: Iterable[Entity]) -> dict[str, Any]:
    return {
        "id": company.id,
        "name": {"en": company.name_en, "ar": company.name_ar},
        "country": company.country,
        "currency": company.currency,
        "timezone": company.timezone,
        "sandbox": bool(company.sandbox),
        "entities": [
            {
                "id": e.id,
                "country": e.country,
                "name": {"en": e.name_en, "ar": e.name_ar},
                "currency": e.currency,
                "primary": bool(e.primary),
            }
            for e in entities
        ],
    }


def employee_form(row: dict[str, Any]) -> dict[str, Any]:
    """`row` is a dict from `domain.employees.EMPLOYEE_COLUMNS`."""
    return {
        "id": row["id"],
        "staff_number": row["staff_number"],
        "name": {"en": row["name_en"], "ar": row["name_ar"]},
        "job_title": row["job_title"],
        "department": row["department"],
        "status": row["status"],
        "employment_type": row["employment_type"],
        "country": row["country"],
        "entity_id": row["entity"],
        "branch": {"id": row["branch"], "name": row["branch_name"]} if row["branch"] else None,
        "manager_id": row["manager"],
        "contact_email": row["contact_email"],
        "contact_phone": row["contact_phone"],
        "hire_date": _iso_date(row["hire_date"]),
        "termination_date": _iso_date(row["termination_date"]),
        "created_at": format_utc(row["created_at"]),
        "updated_at": format_utc(row["updated_at"]),
    }


def payroll_run_summary(run: PayrollRun, *, beyond_contract: bool = True) -> dict[str, Any]:
    """The run's summary form; with `beyond_contract` (while v1.3 is live), its `wps_status`
    and `totals.provisions` too."""
    money = run.currency
    totals = {
        "gross": format_minor(run.gross_minor, money),
        "deductions": format_minor(run.deductions_minor, money),
        "net": format_minor(run.net_minor, money),
        "employer_contributions": format_minor(run.employer_contributions_minor, money),
        "total_cost": format_minor(run.total_cost_minor, money),
    }
    if beyond_contract:
        totals["provisions"] = format_minor(run.provisions_minor, money)
    form = {
        "id": run.id,
        "entity_id": run.entity_id,
        "country": run.country,
        "payroll_month": run.payroll_month,
        "status": run.status,
        "currency": money,
        "employee_count": run.employee_count,
        "totals": totals,
        "finalized_at": format_utc(run.finalized_at),
        "paid_at": format_utc(run.paid_at),
        "updated_at": format_utc(run.updated_at),
    }
    if beyond_contract:
        form["wps_status"] = run.wps_status
    return form


def payroll_run_full(run: PayrollRun, components: Iterable[PayrollComponent],
                     entries: Iterable[tuple[JournalEntry, list[JournalLine]]], *,
                     beyond_contract: bool = True) -> dict[str, Any]:
    """`entries` is a list of (JournalEntry, [JournalLine]) in posting order."""
    money = run.currency
    form = payroll_run_summary(run, beyond_contract=beyond_contract)
    form["components"] = [
        {
            "code": c.code,
            "name": {"en": c.name_en, "ar": c.name_ar},
            "kind": c.kind,
            "amount": format_minor(c.amount_minor, money),
            "employee_count": c.employee_count,
        }
        for c in components
    ]
    form["journal_entries"] = [journal_entry_form(entry, lines, money, beyond_contract=beyond_contract)
                               for entry, lines in entries]
    return form


def journal_entry_form(entry: JournalEntry, lines: Iterable[JournalLine], currency: str, *,
                       beyond_contract: bool = True) -> dict[str, Any]:
    """One posted entry as getPayrollRun shows it, amounts in `currency`; with
    `beyond_contract`, its v1.3 fields and each line's key and cost centre."""
    return {
        "id": entry.id,
        "kind": entry.kind,
        "posted_at": format_utc(entry.posted_at),
        **(_entry_additions(entry) if beyond_contract else {}),
        "lines": [_line_form(line, currency, beyond_contract) for line in lines],
    }


def ledger_entry_form(entry: JournalEntry, run: PayrollRun, lines: Iterable[JournalLine]) -> dict[str, Any]:
    """One entry of the ledger feed (listJournalEntries, v1.3): the entry as getPayrollRun
    shows it (the same lines), with what a ledger files it under (its run, month, legal
    entity and currency) and, on a true-up, the entry whose change caused it. The run may
    be deleted: its entries stay in the books."""
    return {"id": entry.id, "kind": entry.kind, "payroll_run_id": run.id, "payroll_month": run.payroll_month,
            "entity_id": run.entity_id, "currency": entry.currency, "posted_at": format_utc(entry.posted_at),
            **_entry_additions(entry), "caused_by": entry.caused_by,
            "lines": [_line_form(line, entry.currency, True) for line in lines]}


def _line_form(line: JournalLine, currency: str, beyond_contract: bool) -> dict[str, Any]:
    return {
        **({"account_key": line.account_key} if beyond_contract else {}),
        "account_code": line.account_code,
        "account_name": line.account_name,
        "debit": format_minor(line.debit_minor, currency),
        "credit": format_minor(line.credit_minor, currency),
        **(_split(line) if beyond_contract and line.split_by else {}),
    }


def _entry_additions(entry: JournalEntry) -> dict[str, Any]:
    """v1.3: what an accountant dates and traces an entry by."""
    return {"accounting_date": entry.accounting_date.isoformat() if entry.accounting_date else None,
            "memo": entry.memo, "reverses": entry.reverses, "corrects": entry.corrects}


def _split(line: JournalLine) -> dict[str, Any]:
    """v1.3 cost centres: the group a split expense line stands for, and how many people
    (never fewer than three, app/domain/payroll/rules.py floor_groups)."""
    return {"dimensions": {line.split_by: line.split_group}, "employee_count": line.employee_count}


# What a partner is told of a leave's type (v1.3): health and family stay in the service.
PARTNER_LEAVE_TYPE = {"annual": "annual", "unpaid": "unpaid"}  # every other type is "other"


def leave_form(leave: LeaveRequest) -> dict[str, Any]:
    """A leave as partners see it (v1.3): its type only as `annual`, `unpaid` or `other`
    (sick leave, maternity and the other kinds that tell of health or family never leave
    the service), and never HR's note."""
    return {"id": leave.id, "employee_id": leave.employee_id, "type": PARTNER_LEAVE_TYPE.get(leave.type, "other"),
            "status": leave.status, "start_date": leave.start_date.isoformat(), "end_date": leave.end_date.isoformat(),
            "days": leave.days, "updated_at": format_utc(leave.updated_at)}


# What an annual balance shows partners (v1.3): the days, never the pay they are worth.
LEAVE_BALANCE_FIELDS = ("employee_id", "type", "accrued_days", "taken_days", "balance_days", "as_of")


def leave_balance_form(balance: dict[str, Any]) -> dict[str, Any]:
    """An employee's annual balance as partners see it (v1.3), from the balance's own
    form (app/domain/leave/balances.py, `Balance.as_dict`): the fields above only."""
    return {name: balance[name] for name in LEAVE_BALANCE_FIELDS}
