import peewee as pw

from app.models.base import BaseModel
from app.models.company import Company, Entity
from app.models.employees import Employee


class PayrollRun(BaseModel):
    """A run per legal entity per month. `draft` runs are never shown to partners."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="payroll_runs", on_delete="CASCADE")
    company_id: str
    entity = pw.ForeignKeyField(Entity, backref="payroll_runs")
    entity_id: str
    country = pw.CharField(max_length=2)
    payroll_month = pw.CharField(max_length=7)  # YYYY-MM; sorts as text
    status = pw.CharField(max_length=16)  # draft, finalized, paid, deleted
    wps_status = pw.CharField(max_length=16, default="not_submitted")  # with the bank (WPS), v1.3
    currency = pw.CharField(max_length=3)
    employee_count = pw.IntegerField(default=0)
    gross_minor = pw.BigIntegerField(default=0)
    deductions_minor = pw.BigIntegerField(default=0)
    net_minor = pw.BigIntegerField(default=0)
    employer_contributions_minor = pw.BigIntegerField(default=0)
    total_cost_minor = pw.BigIntegerField(default=0)
    provisions_minor = pw.BigIntegerField(default=0)  # end-of-service accruals less releases (v1.3)
    eos_opening_minor = pw.BigIntegerField(default=0)  # the provision earned before the books carried its staff
    end_of_service_lines = pw.BooleanField(default=False)  # built with the end-of-service lines (v1.3)
    # The approved leave the draft read (app/domain/leave/balances.py, `leave_digest`): finalize
    # refuses a draft whose leave has changed since (issue 48). None on runs from before it.
    leave_digest = pw.CharField(max_length=64, null=True)
    finalized_at = pw.DateTimeField(null=True)
    paid_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField()
    updated_at = pw.DateTimeField()

    class Meta:
        indexes = (
            (("company", "payroll_month", "id"), False),
            (("company", "updated_at", "id"), False),  # listPayrollRuns with `updated_since` (v1.3)
        )


class PayrollLine(BaseModel):
    """One employee's amount for one pay component. Internal: never leaves the service."""

    run = pw.ForeignKeyField(PayrollRun, backref="lines", on_delete="CASCADE")
    run_id: str
    employee = pw.ForeignKeyField(Employee, backref="payroll_lines")
    employee_id: str
    component_code = pw.CharField(max_length=40)
    amount_minor = pw.BigIntegerField()


class EndOfServiceBalance(BaseModel):
    """The end-of-service provision the books carry for one employee: before a run
    (`booked_minor`) and after it (`balance_minor`). A leaver paid in the run is
    `settled` (and carries 0 after it): later runs leave them be. Internal: a run's
    journal carries only the totals (app/domain/payroll/provision.py ties them)."""

    run = pw.ForeignKeyField(PayrollRun, backref="end_of_service", on_delete="CASCADE")
    run_id: str
    employee = pw.ForeignKeyField(Employee, backref="end_of_service")
    employee_id: str
    booked_minor = pw.BigIntegerField()
    balance_minor = pw.BigIntegerField()
    # What they had earned before the run's month: brought in by the run (Dr 3100) when
    # the books did not carry them yet. None on rows from before it was kept.
    opening_minor = pw.BigIntegerField(null=True)
    settled = pw.BooleanField(default=False)

    class Meta:
        indexes = ((("run", "employee"), True),)


class PayrollComponent(BaseModel):
    """Run-level total of one pay component, with the number of employees it applies to."""

    run = pw.ForeignKeyField(PayrollRun, backref="components", on_delete="CASCADE")
    run_id: str
    position = pw.IntegerField()
    code = pw.CharField(max_length=40)
    name_en = pw.CharField(max_length=100)
    name_ar = pw.CharField(max_length=100, null=True)
    kind = pw.CharField(max_length=24)  # earning, deduction, employer_contribution
    amount_minor = pw.BigIntegerField()
    employee_count = pw.IntegerField()


class JournalEntry(BaseModel):
    """A posted double-entry journal entry. Never edited once posted."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="journal_entries", on_delete="CASCADE")
    company_id: str
    run = pw.ForeignKeyField(PayrollRun, backref="journal_entries", on_delete="CASCADE")
    run_id: str
    kind = pw.CharField(max_length=16)  # accrual, payment, correction, reversal; v1.3: opening, true_up
    currency = pw.CharField(max_length=3)
    posted_at = pw.DateTimeField()
    sequence = pw.IntegerField(default=1)  # posting order within the run
    # v1.3: the date of the period it belongs to, what it is, and the entry it changes
    # (None on entries posted before these were kept).
    accounting_date = pw.DateField(null=True)
    memo = pw.CharField(max_length=200, null=True)
    reverses = pw.CharField(max_length=40, null=True)  # a reversal: the run's accrual entry
    corrects = pw.CharField(max_length=40, null=True)  # a correction: the run's accrual entry
    # v1.3 (issue 47): the entry's place in its company's posting order (1, 2, 3 ...), what
    # listJournalEntries pages by; and a true-up's cause, the entry whose posting left the
    # provision off (a correction, a reversal, an accrual measured from a stale month).
    position = pw.BigIntegerField(null=True)
    caused_by = pw.CharField(max_length=40, null=True)

    class Meta:
        indexes = ((("company", "position"), True),)


class JournalLine(BaseModel):
    entry = pw.ForeignKeyField(JournalEntry, backref="lines", on_delete="CASCADE")
    entry_id: str
    position = pw.IntegerField()
    account_key = pw.CharField(max_length=60, null=True)  # v1.3: the account, whatever its code (accounts.py)
    # v1.3 cost centres: an expense line split by `split_by` (department, branch) stands
    # for `split_group` (None: unassigned) and `employee_count` people; None when not split.
    split_by = pw.CharField(max_length=16, null=True)
    split_group = pw.CharField(max_length=200, null=True)
    employee_count = pw.IntegerField(null=True)
    account_code = pw.CharField(max_length=40)  # the company's code (accounts.py), up to 40
    account_name = pw.CharField(max_length=100)
    account_name_ar = pw.CharField(max_length=100, null=True)  # as posted; for Arabic pages (issue 50)
    debit_minor = pw.BigIntegerField(default=0)
    credit_minor = pw.BigIntegerField(default=0)


class PayrollMember(BaseModel):
    """Who a run paid, and the department and branch they were in when it was finalized:
    what its accrual was split by, and what a later correction, reversal or true-up of
    that month splits by (issue 47), whatever HR has changed since. Internal."""

    run = pw.ForeignKeyField(PayrollRun, backref="members", on_delete="CASCADE")
    run_id: str
    employee = pw.ForeignKeyField(Employee, backref="payroll_memberships")
    employee_id: str
    department = pw.CharField(max_length=200, null=True)
    branch = pw.CharField(max_length=200, null=True)  # the branch's name

    class Meta:
        indexes = ((("run", "employee"), True),)


class BooksClosing(BaseModel):
    """One change of the date through which a company's books are closed (issue 47): who
    closed them (or reopened them, to an earlier date or none) and when. The company's
    `books_closed_through` is the latest; these rows are its log."""

    company = pw.ForeignKeyField(Company, backref="books_closings", on_delete="CASCADE")
    company_id: str
    closed_through = pw.DateField(null=True)  # None: reopened entirely
    previous = pw.DateField(null=True)
    by = pw.CharField(max_length=254)  # the user's email, or "operator" for a command
    at = pw.DateTimeField()

    class Meta:
        indexes = ((("company", "at"), False),)


class AccountMapping(BaseModel):
    """A company's own code and name for one journal account (its stable `key`), for the
    company (`entity` empty) or one legal entity, whose mapping wins (v1.3)."""

    company = pw.ForeignKeyField(Company, backref="account_mappings", on_delete="CASCADE")
    company_id: str
    entity = pw.CharField(max_length=40, default="")  # "" for the company's own mapping
    key = pw.CharField(max_length=60)
    code = pw.CharField(max_length=40)
    name_en = pw.CharField(max_length=100)
    name_ar = pw.CharField(max_length=100, null=True)
    updated_at = pw.DateTimeField()

    class Meta:
        indexes = ((("company", "entity", "key"), True),)
