"""Users, their memberships, and who may do what.

Permissions follow from a membership's role. `integrations.manage` (create and revoke
API keys, create a sandbox, manage webhooks) is held by the CEO and the HR admin.
"""

from collections.abc import Callable
from typing import cast

from app.domain.access.signin import check_password_rule, hash_password, normalize_email
from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.text import line_problem
from app.models import Company, Membership, User

# The console's languages, English first (the default).
LANGUAGES = ("en", "ar")

ROLE_PERMISSIONS = {
    "ceo": frozenset({"integrations.manage", "hr.manage", "payroll.manage"}),
    "hr_admin": frozenset({"integrations.manage", "hr.manage", "payroll.manage"}),
    "payroll_officer": frozenset({"payroll.manage"}),
    "employee": frozenset(),
}

def memberships_of(user: User) -> list[tuple[Membership, Company]]:
    """[(membership, company)] of a user: live companies by name, then sandboxes."""
    rows = (Membership.select(Membership, Company).join(Company)
            .where(Membership.user == user).order_by(Company.sandbox, Company.name_en, Company.id))
    return [(membership, membership.company) for membership in rows]


def sandbox_of(user: User) -> Company | None:
    return Company.get_or_none(Company.sandbox_owner == user)


def permissions_of(membership: Membership | None) -> frozenset[str]:
    return ROLE_PERMISSIONS.get(membership.role, frozenset()) if membership else frozenset()


def get_or_create_user(email: str, clock: Clock, name: str | None = None, password: str | None = None) -> User:
    """The user with this email, created (with an optional password) if new. The name
    and the email are each one line of text (kernel/text.py): the console and commands
    show them, and the email heads the messages sent to it."""
    email = normalize_email(email)
    unfit = [(field, problem) for field, value in (("email", email), ("name", name))
             if isinstance(value, str) and (problem := line_problem(value)) is not None]
    if unfit:
        raise ValidationFailed(Words("invalid user"), unfit)
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


def add_membership(user: User, company: Company, role: str, clock: Clock) -> Membership:
    if role not in ROLE_PERMISSIONS:
        raise ValidationFailed(Words("unknown role"), [("role", Words("must be one of %(choices)s",
                                                                      choices=", ".join(ROLE_PERMISSIONS)))])
    # Peewee's stubs leave `get_or_create` untyped; it returns (row, whether created).
    get_or_create = cast(Callable[..., tuple[Membership, bool]], Membership.get_or_create)
    membership, _ = get_or_create(
        user=user, company=company, defaults={"role": role, "created_at": to_db(clock.now())}
    )
    return membership


def get_user(email: str) -> User:
    user = User.get_or_none(User.email == normalize_email(email))
    if user is None:
        raise NotFound(Words("no user %(email)s", email=email))
    return user


def ensure_no_sandbox(user: User) -> None:
    if Company.select().where(Company.sandbox_owner == user).exists():
        raise Conflict(Words("%(email)s already has a sandbox company (one per user)", email=user.email))


def owners_of(company_id: str) -> list[tuple[str, str | None]]:
    """Who hears about the company's integrations, as (email, language they chose): the
    sandbox's owner, or its CEOs."""
    owners = [(user.email, user.language) for user in User.select(User.email, User.language)
              .join(Company, on=(Company.sandbox_owner == User.id)).where(Company.id == company_id)]
    return owners or [(user.email, user.language) for user in User.select(User.email, User.language).join(Membership)
                      .where(Membership.company == company_id, Membership.role == "ceo").order_by(User.email)]


def choose_language(user: User, language: str) -> None:
    """The console's language `user` chose (one of LANGUAGES): it follows them to another
    browser, and their emails are written in it."""
    if language not in LANGUAGES:
        raise ValidationFailed(Words("That language is not offered."),
                               [("language", Words("one of %(choices)s", choices=", ".join(LANGUAGES)))])
    User.update(language=language).where(User.id == user.id).execute()
    user.language = language
