import peewee as pw

from app.models.base import BaseModel


class User(BaseModel):
    id = pw.CharField(primary_key=True, max_length=40)
    email = pw.CharField(max_length=254, unique=True)  # stored lower-cased
    name = pw.CharField(max_length=200)
    password_hash = pw.CharField(max_length=255, null=True)
    language = pw.CharField(max_length=8, null=True)  # the console's, as they chose it: "ar", "en"; null: not chosen
    created_at = pw.DateTimeField()

    class Meta:
        table_name = "app_user"


class Company(BaseModel):
    id = pw.CharField(primary_key=True, max_length=40)
    name_en = pw.CharField(max_length=200)
    name_ar = pw.CharField(max_length=200, null=True)
    country = pw.CharField(max_length=2)
    currency = pw.CharField(max_length=3)
    timezone = pw.CharField(max_length=64)
    sandbox = pw.BooleanField(default=False)
    api_enabled = pw.BooleanField(default=False)
    journal_split = pw.CharField(max_length=16, default="none")  # cost centres: none, department, branch (v1.3)
    # No journal entry is dated on or before this date (issue 47; BooksClosing is its log).
    books_closed_through = pw.DateField(null=True)
    # Leave where the law leaves the choice to the contract (app/domain/leave/law.py): more
    # annual days a year than the law's (None: the law's), a cap on the days carried into
    # the next leave year (None: all carried), and whether annual leave may go below zero.
    leave_annual_days = pw.IntegerField(null=True)
    leave_carry_over_days = pw.IntegerField(null=True)
    leave_negative_allowed = pw.BooleanField(default=False)
    # The user a sandbox was made for; unique, so each user has at most one sandbox.
    sandbox_owner = pw.ForeignKeyField(User, null=True, unique=True, backref="sandboxes")
    sandbox_owner_id: str | None
    created_at = pw.DateTimeField()


class Membership(BaseModel):
    """A user's role in a company. Permissions follow from the role (domain/access.py)."""

    user = pw.ForeignKeyField(User, backref="memberships", on_delete="CASCADE")
    user_id: str
    company = pw.ForeignKeyField(Company, backref="memberships", on_delete="CASCADE")
    company_id: str
    role = pw.CharField(max_length=32)
    created_at = pw.DateTimeField()

    class Meta:
        indexes = ((("user", "company"), True),)


class Entity(BaseModel):
    """A legal entity of a company."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="entities", on_delete="CASCADE")
    company_id: str
    country = pw.CharField(max_length=2)
    name_en = pw.CharField(max_length=200)
    name_ar = pw.CharField(max_length=200, null=True)
    currency = pw.CharField(max_length=3)
    primary = pw.BooleanField(default=False)
    # The end-of-service provision its books already carried from another payroll system
    # on `eos_carried_as_of` (issue 47): its first run's opening posts only HR's excess.
    eos_carried_minor = pw.BigIntegerField(null=True)
    eos_carried_as_of = pw.DateField(null=True)
    created_at = pw.DateTimeField()


class Branch(BaseModel):
    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.ForeignKeyField(Company, backref="branches", on_delete="CASCADE")
    company_id: str
    entity = pw.ForeignKeyField(Entity, backref="branches", on_delete="CASCADE")
    entity_id: str
    name = pw.CharField(max_length=200)
    created_at = pw.DateTimeField()
