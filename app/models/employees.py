import peewee as pw

from app.models.base import BaseModel
from app.models.company import Branch, Company, Entity


class Employee(BaseModel):
    """One employee. Partner-safe fields first; the internal fields below the line are
    never serialized by the Partner API (contract: "Data never returned")."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="employees", on_delete="CASCADE")
    company_id: str
    entity = pw.ForeignKeyField(Entity, backref="employees")
    entity_id: str
    branch = pw.ForeignKeyField(Branch, null=True, backref="employees")
    branch_id: str | None
    manager = pw.ForeignKeyField("self", null=True, backref="reports")
    manager_id: str | None
    staff_number = pw.CharField(max_length=40)
    name_en = pw.CharField(max_length=200)
    name_ar = pw.CharField(max_length=200, null=True)
    job_title = pw.CharField(max_length=200, null=True)
    department = pw.CharField(max_length=200, null=True)
    status = pw.CharField(max_length=16)  # active, on_leave, suspended, left
    # The approved leave that made the status `on_leave` (app/domain/leave/status.py); None
    # when HR set the status: only leave's own `on_leave` ends with the leave.
    on_leave_by = pw.CharField(max_length=40, null=True)
    # The annual leave balance another system (or a paper record) carried on a day: the
    # balance from then on is this plus what is earned after it, less leave after it
    # (app/domain/leave/carried.py). None: counted from the hire date.
    leave_carried_days = pw.DecimalField(max_digits=12, decimal_places=4, null=True)
    leave_carried_as_of = pw.DateField(null=True)
    employment_type = pw.CharField(max_length=16)  # full_time, part_time, contract
    country = pw.CharField(max_length=2)
    contact_email = pw.CharField(max_length=254, null=True)
    contact_phone = pw.CharField(max_length=20, null=True)  # E.164
    hire_date = pw.DateField()
    termination_date = pw.DateField(null=True)
    created_at = pw.DateTimeField()
    updated_at = pw.DateTimeField()

    # ---- internal only --------------------------------------------------------------
    nationality = pw.CharField(max_length=2)
    is_national = pw.BooleanField()
    basic_salary_minor = pw.BigIntegerField()
    housing_allowance_minor = pw.BigIntegerField(default=0)
    transport_allowance_minor = pw.BigIntegerField(default=0)
    other_allowance_minor = pw.BigIntegerField(default=0)
    bank_name = pw.CharField(max_length=100, null=True)
    iban = pw.CharField(max_length=34, null=True)
    civil_id = pw.CharField(max_length=20, null=True)
    passport_number = pw.CharField(max_length=20, null=True)
    date_of_birth = pw.DateField(null=True)
    social_insurance_number = pw.CharField(max_length=20, null=True)
    leaving_reason = pw.TextField(null=True)
    leaving_kind = pw.CharField(max_length=16, null=True)  # resignation or termination: what the law pays
    archived = pw.BooleanField(default=False)

    class Meta:
        indexes = (
            (("company", "staff_number"), True),
            # Keyset order of listEmployees: oldest first.
            (("company", "created_at", "id"), False),
            # ... and with `updated_since` (v1.3): oldest change first.
            (("company", "updated_at", "id"), False),
        )
