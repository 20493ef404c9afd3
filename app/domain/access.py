"""Users, companies and who may do what.

Permissions follow from a membership's role. `integrations.manage` (create and revoke
API keys, create a sandbox, manage webhooks) is held by the CEO and the HR admin.
"""

import hashlib

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.domain import credentials
from app.domain.clock import to_db
from app.domain.countries import get_country
from app.domain.errors import Conflict, NotFound, ValidationFailed
from app.domain.ids import new_id
from app.models import Company, Entity, Membership, User, db

ROLE_PERMISSIONS = {
    "ceo": frozenset({"integrations.manage", "hr.manage", "payroll.manage"}),
    "hr_admin": frozenset({"integrations.manage", "hr.manage", "payroll.manage"}),
    "payroll_officer": frozenset({"payroll.manage"}),
    "employee": frozenset(),
}

_hasher = PasswordHasher()
_unknown_user_hash = []  # a hash to verify against when no user matches (made once)


def hash_password(password):
    return _hasher.hash(password)


def check_password(user, password):
    if not user.password_hash:
        return False
    try:
        return _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def authenticate(email, password):
    """The user with this email and password, or None.

    An unknown email costs the same Argon2 verification as a wrong password, so the
    time taken does not tell which emails have accounts. A hash made with older
    parameters is upgraded on a successful sign-in.
    """
    try:
        email = normalize_email(email)
    except ValidationFailed:
        email = None
    user = User.get_or_none(User.email == email) if email else None
    if user is None or not user.password_hash:
        if not _unknown_user_hash:
            _unknown_user_hash.append(hash_password("no such user"))
        try:
            _hasher.verify(_unknown_user_hash[0], password or "")
        except VerificationError:
            pass
        return None
    if not check_password(user, password or ""):
        return None
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
        user.save(only=[User.password_hash])
    return user


def session_fingerprint(user):
    """Changes when the user's password does, so that sessions signed in with the old
    password end (console sessions are signed cookies and carry this value)."""
    return hashlib.sha256((user.password_hash or "").encode()).hexdigest()[:16]


def memberships_of(user):
    """[(membership, company)] of a user: live companies by name, then sandboxes."""
    rows = (Membership.select(Membership, Company).join(Company)
            .where(Membership.user == user).order_by(Company.sandbox, Company.name_en, Company.id))
    return [(membership, membership.company) for membership in rows]


def sandbox_of(user):
    return Company.get_or_none(Company.sandbox_owner == user)


def permissions_of(membership):
    return ROLE_PERMISSIONS.get(membership.role, frozenset()) if membership else frozenset()


def normalize_email(email):
    email = (email or "").strip().lower()
    local, at, domain = email.partition("@")
    if not (local and at and "." in domain) or " " in email or len(email) > 254:
        raise ValidationFailed("invalid email", [("email", f"{email!r} is not an email address")])
    return email


MIN_PASSWORD_LENGTH = 10
MAX_PASSWORD_LENGTH = 1024  # Argon2 takes any length; this bounds the work one attempt costs


def check_password_rule(password):
    """The one rule for every console password, wherever it is set."""
    length = len(password or "")
    if not MIN_PASSWORD_LENGTH <= length <= MAX_PASSWORD_LENGTH:
        message = f"must be {MIN_PASSWORD_LENGTH} to {MAX_PASSWORD_LENGTH} characters (this one has {length})"
        raise ValidationFailed("password refused", [("password", message)])


def set_password(email, password):
    """Give the user with this email a new password; their console sessions end."""
    check_password_rule(password)
    user = User.get_or_none(User.email == normalize_email(email))
    if user is None:
        raise NotFound(f"no user {email}")
    user.password_hash = hash_password(password)
    user.save(only=[User.password_hash])
    return user


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
