"""Companies and their legal entities and branches, and switching the Partner API on."""

from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.countries import get_country
from app.domain.kernel.errors import NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.text import line_problem
from app.models import Branch, Company, Entity, User, db
from app.models.base import row_of, write_transaction


def create_company(name_en: str, country_code: str, clock: Clock, *, name_ar: str | None = None, sandbox: bool = False,
                   sandbox_owner: User | None = None) -> Company:
    """A company with one primary legal entity in its country (named as the company). The
    Partner API starts off. Each name is one line of text (kernel/text.py)."""
    if not (name_en or "").strip():
        raise ValidationFailed(Words("name required"), [("name", Words("must not be empty"))])
    problems = [(field, problem) for field, value in (("name", name_en), ("name_ar", name_ar))
                if isinstance(value, str) and (problem := line_problem(value)) is not None]
    if problems:
        raise ValidationFailed(Words("invalid company name"), problems)
    try:
        country = get_country(country_code)
    except ValueError as exc:
        raise ValidationFailed(Words("unknown country"), [("country", exc.args[0])]) from None
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


def get_company(company_id: str) -> Company:
    company = Company.get_or_none(Company.id == company_id)
    if company is None:
        raise NotFound(Words("no company %(company)s", company=company_id))
    return company


def enable_partner_api(company_id: str, runtime: Runtime) -> Company:
    """Switch the Partner API on for a company, in one transaction with the credentials
    version it moves (every worker's kept principals say "off" until then)."""
    with write_transaction():
        company = get_company(company_id)
        if Company.update(api_enabled=True).where(Company.id == company.id, ~Company.api_enabled).execute():
            runtime.credentials_changed()
        company.api_enabled = True
    return company


def entities_of(company_id: str) -> dict[str, Entity]:
    """{id: legal entity} of a company, the primary first, then by name."""
    return {entity.id: entity for entity in
            Entity.select().where(Entity.company == company_id).order_by(Entity.primary.desc(), Entity.name_en)}


def get_entity(entity_id: str, *, company_id: str | None = None) -> Entity:
    entity = Entity.get_or_none(row_of(Entity, entity_id, company_id))
    if entity is None:
        raise NotFound(Words("no legal entity %(entity)s", entity=entity_id))
    return entity


def branches_of(company_id: str) -> list[Branch]:
    """A company's branches by name."""
    return list(Branch.select().where(Branch.company == company_id).order_by(Branch.name))
