"""Resetting a sandbox (issue 51 part 4, v1.3): its data back to what a new sandbox holds,
its keys, webhook endpoints, OAuth apps and connections and its people kept.

Everything the sandbox's HR, payroll and partners made goes: employees, their leave and
attendance, runs and their journals, the chart's mappings and cost-centre split, the
books' closing and leave settings, the events and their delivery log. Remembered
idempotent answers stay: they are the credentials', which stay (a retried POST must not
make a second endpoint), and the nightly prune expires them. Then
`sandbox.generate` makes its staff, leave and last month's run again, as `create_sandbox`
does, so the events feed starts again with ten `employee.created` and one
`payroll_run.finalized`, delivered to the endpoints kept like any events. The records
that went are not announced as left: a reset is the developer's, not HR's.

One transaction: the company's lock, the first of every payroll move, every trigger and
every HR change to an employee (kernel/locks.py), then every employee's row in id order
(as the reconciliation takes them), before anything is deleted: an HR change under way
finishes first (it writes that employee's announcement, which the reset deletes), and
any move after waits, then finds the new staff. Feeds' cursors (`after`) that named a removed event or
journal entry no longer do: a follower starts again from a time (`since`).
"""

import random
from collections.abc import Iterable
from typing import Any

from app.domain.kernel.errors import Conflict, Words
from app.domain.kernel.locks import hold
from app.domain.kernel.runtime import Runtime
from app.domain.sandbox import generate
from app.models import (
    AccountMapping,
    AttendanceDay,
    AttendanceEvent,
    BooksClosing,
    Company,
    Employee,
    EmployeeAnnouncement,
    EndOfServiceBalance,
    IdentityLink,
    JournalEntry,
    JournalLine,
    LeaveProvisionBalance,
    LeaveRequest,
    OutboxEvent,
    PayrollComponent,
    PayrollLeave,
    PayrollLine,
    PayrollMember,
    PayrollRun,
    WebhookDelivery,
    WebhookEndpoint,
)
from app.models.base import lock_for_update, write_transaction

# The settings HR may change on the company's row, back to their defaults as a new one holds them.
SETTINGS = (Company.journal_split, Company.books_closed_through, Company.leave_annual_days,
            Company.leave_carry_over_days, Company.leave_negative_allowed)


def reset(company: Company, by: str, runtime: Runtime, *, seed: int | None = None) -> dict[str, Any]:
    """Reset the sandbox `company` (a Conflict for a live one): {"removed": {what: how
    many}, and what it holds now (`summary`)}, its data made again (`by`: who asked, as
    its leave records it; `seed`: the generator's, for tests)."""
    if not company.sandbox:
        raise Conflict(Words("only a sandbox company can be reset"))
    with write_transaction():
        hold(company.id)
        lock_for_update(Employee.select(Employee.id).where(Employee.company == company.id).order_by(Employee.id))
        removed = _remove(company.id)
        Company.update({field: field.default for field in SETTINGS}).where(Company.id == company.id).execute()
        generate(Company.get_by_id(company.id), by, runtime, random.Random(seed))
        return {"removed": removed, **summary(company.id)}


def _remove(company_id: str) -> dict[str, int]:
    """Delete the company's data, children before parents (each named: no cascade is
    relied on, so both databases do the same)."""
    runs = PayrollRun.select(PayrollRun.id).where(PayrollRun.company == company_id)
    entries = JournalEntry.select(JournalEntry.id).where(JournalEntry.company == company_id)
    events = OutboxEvent.select(OutboxEvent.id).where(OutboxEvent.company == company_id)
    endpoints = WebhookEndpoint.select(WebhookEndpoint.id).where(WebhookEndpoint.company == company_id)
    steps: Iterable[tuple[str, Any]] = (
        ("webhook_deliveries", WebhookDelivery.delete().where(
            WebhookDelivery.endpoint.in_(endpoints) | WebhookDelivery.event.in_(events))),
        ("events", OutboxEvent.delete().where(OutboxEvent.company == company_id)),
        ("announcements", EmployeeAnnouncement.delete().where(EmployeeAnnouncement.company == company_id)),
        ("attendance_days", AttendanceDay.delete().where(AttendanceDay.company == company_id)),
        ("identity_links", IdentityLink.delete().where(IdentityLink.company == company_id)),
        ("attendance_events", AttendanceEvent.delete().where(AttendanceEvent.company == company_id)),
        ("journal_lines", JournalLine.delete().where(JournalLine.entry.in_(entries))),
        ("journal_entries", JournalEntry.delete().where(JournalEntry.company == company_id)),
        *((name, model.delete().where(model.run.in_(runs))) for name, model in (
            ("payroll_leave", PayrollLeave), ("leave_provision_balances", LeaveProvisionBalance),
            ("payroll_lines", PayrollLine), ("end_of_service_balances", EndOfServiceBalance),
            ("payroll_components", PayrollComponent), ("payroll_members", PayrollMember))),
        ("payroll_runs", PayrollRun.delete().where(PayrollRun.company == company_id)),
        ("leave", LeaveRequest.delete().where(LeaveRequest.company == company_id)),
        ("books_closings", BooksClosing.delete().where(BooksClosing.company == company_id)),
        ("account_mappings", AccountMapping.delete().where(AccountMapping.company == company_id)),
        ("employees", Employee.delete().where(Employee.company == company_id)),
    )
    return {name: query.execute() for name, query in steps}


def summary(company_id: str) -> dict[str, Any]:
    """What the sandbox holds now: its employees, closed runs and events (a reset's answer)."""
    return {"company_id": company_id,
            "employees": Employee.select().where(Employee.company == company_id).count(),
            "payroll_runs": PayrollRun.select().where(PayrollRun.company == company_id,
                                                      PayrollRun.status.in_(("finalized", "paid"))).count(),
            "events": OutboxEvent.select().where(OutboxEvent.company == company_id).count()}
