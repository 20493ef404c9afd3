"""Users, companies and who may do what.

Permissions follow from a membership's role. `integrations.manage` (create and revoke
API keys, create a sandbox, manage webhooks) is held by the CEO and the HR admin.
"""

from app.domain import credentials
from app.domain.clock import to_db
from app.domain.countries import get_country
from app.domain.errors import Conflict, NotFound, ValidationFailed
from app.domain.ids import new_id
from app.domain.signin import check_password_rule, hash_password, normalize_email
from app.models import Company, Entity, Membership, User, db

ROLE_PERMISSIONS = {
    "ceo": frozenset({"integrations.manage", "hr.manage", "payroll.manage"}),
    "hr_admin": frozenset({"integrations.manage", "hr.manage", "payroll.manage"}),
    "payroll_officer": frozenset({"payroll.manage"}),
    "employee": frozenset(),
}

def memberships_of(user):
    """[(membership, company)] of a user: live companies by name, then sandboxes."""
    rows = (Membership.select(Membership, Company).join(Company)
            .where(Membership.user == user).order_by(Company.sandbox, Company.name_en, Company.id))
    return [(membership, membership.company) for membership in rows]


def sandbox_of(user):
    return Company.get_or_none(Company.sandbox_owner == user)


def permissions_of(membership):
    return ROLE_PERMISSIONS.get(membership.role, frozenset()) if membership else frozenset()


def get_or_create_user(email, clock, name=None, password=None):
    """The user with this email, created (with an optional password) if new."""
    email = normalize_email(email)
    if password is not None:
        check_password_rule(password)
    user = User.get_or_none(User.email == email)
    if user is None:
        user = User.create(
            id=new_id("usr"), email=email, name=name or email.split("@")[0],
            password_hash=hash_password(password) if password else None,
            created_at=to_db(clock.now()),
        )
    return user


def add_membership(user, company, role, clock):
    if role not in ROLE_PERMISSIONS:
        raise ValidationFailed("unknown role", [("role", f"must be one of {', '.join(ROLE_PERMISSIONS)}")])
    membership, _ = Membership.get_or_create(
        user=user, company=company, defaults={"role": role, "created_at": to_db(clock.now())}
    )
    return membership


def create_company(name_en, country_code, clock, *, name_ar=None, sandbox=False, sandbox_owner=None):
    """A company with one primary legal entity in its country. The Partner API starts off."""
    if not (name_en or "").strip():
        raise ValidationFailed("name required", [("name", "must not be empty")])
    try:
        country = get_country(country_code)
    except ValueError as exc:
        raise ValidationFailed("unknown country", [("country", str(exc))]) from None
    now = to_db(clock.now())
    with db.atomic():
        company = Company.create(
            id=new_id("cmp"), name_en=name_en.strip(), name_ar=name_ar, country=country.code,
            currency=country.currency, timezone=country.timezone, sandbox=sandbox,
            api_enabled=False, sandbox_owner=sandbox_owner, created_at=now,
        )
        Entity.create(
            id=new_id("ent"), company=company, country=country.code, name_en=company.name_en,
            name_ar=name_ar, currency=country.currency, primary=True, created_at=now,
        )
    return company


def get_user(email):
    user = User.get_or_none(User.email == normalize_email(email))
    if user is None:
        raise NotFound(f"no user {email}")
    return user


def get_company(company_id):
    company = Company.get_or_none(Company.id == company_id)
    if company is None:
        raise NotFound(f"no company {company_id}")
    return company


def enable_partner_api(company_id):
    company = get_company(company_id)
    if not company.api_enabled:
        Company.update(api_enabled=True).where(Company.id == company.id).execute()
        credentials.changed()
    return company


def ensure_no_sandbox(user):
    if Company.select().where(Company.sandbox_owner == user).exists():
        raise Conflict(f"{user.email} already has a sandbox company (one per user)")
