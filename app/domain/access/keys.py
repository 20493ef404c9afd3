"""Partner API keys: issue, list, and load the principal of a presented key.

A key is `svc_live_` or `svc_test_` followed by 32 base62 characters (~190 bits). Only
its SHA-256 is stored (`hash_secret`). Keys are one kind of credential
(app/domain/credentials.py): they never expire, and they note when last used. Revoking
one stops the webhook endpoints it owns, so it lives above both areas, in credentials.
"""

import re
from collections.abc import Iterable
from datetime import datetime, timedelta

from peewee import JOIN

from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.kernel.clock import Clock, from_db, to_db
from app.domain.kernel.errors import ValidationFailed, Words
from app.domain.kernel.ids import new_id, random_token
from app.domain.kernel.text import line_problem
from app.models import ApiKey, Company, Entity, User
from app.models.base import Prepared

SCOPES = ("employees:read", "payroll:read", "attendance:read", "attendance:write", "webhooks:manage", "leave:read",
          "sandbox:manage")
PREFIXES = {"live": "svc_live_", "test": "svc_test_"}
KEY_PATTERN = re.compile(r"^svc_(live|test)_[A-Za-z0-9]{32}$")


def parse_scopes(scopes: str | Iterable[str]) -> list[str]:
    """A list (or comma/space separated text) of scopes, checked against SCOPES."""
    if isinstance(scopes, str):
        scopes = re.split(r"[\s,]+", scopes.strip())
    chosen = [s for s in scopes if s]
    unknown = sorted(set(chosen) - set(SCOPES))
    if unknown:
        raise ValidationFailed(
            Words("unknown scope"),
            [("scopes", Words("unknown scope %(value)r; expected any of %(choices)s", value=s,
                              choices=", ".join(SCOPES))) for s in unknown],
        )
    return [s for s in SCOPES if s in chosen]


def create_key(company: Company, scopes: str | Iterable[str], clock: Clock, *, name: str | None = "API key",
               created_by: User | None = None) -> tuple[ApiKey, str]:
    """A new key for `company`; returns (ApiKey, the secret shown once).

    The kind follows the company: sandbox companies get `svc_test_` keys, live ones
    `svc_live_` (Contract, API keys). Its name is one line of text (kernel/text.py): the
    console lists it, and a revoke names it.
    """
    label = name or "API key"
    problem = line_problem(label)
    if problem is not None:
        raise ValidationFailed(Words("invalid key name"), [("name", problem)])
    environment = "test" if company.sandbox else "live"
    secret = PREFIXES[environment] + random_token(32)
    key = ApiKey.create(
        id=new_id("key"), company=company, name=label[:100],
        environment=environment, display_prefix=secret[:13], secret_hash=hash_secret(secret),
        scopes=" ".join(parse_scopes(scopes)), created_by=created_by,
        created_at=to_db(clock.now()),
    )
    return key, secret


def list_keys(company_id: str) -> list[ApiKey]:
    """A company's keys, newest first, revoked ones included (the console lists them)."""
    return list(ApiKey.select().where(ApiKey.company == company_id).order_by(ApiKey.created_at.desc(), ApiKey.id))


_KEY_FIELDS = ("id", "environment", "scopes", "revoked_at", "last_used_at")
_COMPANY_FIELDS = ("id", "name_en", "name_ar", "country", "currency", "timezone", "sandbox", "api_enabled")
_ENTITY_FIELDS = ("id", "company", "country", "name_en", "name_ar", "currency", "primary")
_KEY_WIDTH = len(_KEY_FIELDS)
_ENTITY_START = _KEY_WIDTH + len(_COMPANY_FIELDS)

# The one query of every authenticated request: the key, its company and the
# company's legal entities (one row per entity), by the key's hash.
_PRINCIPAL_QUERY = Prepared(lambda: (
    ApiKey.select(
        *(getattr(ApiKey, f) for f in _KEY_FIELDS),
        *(getattr(Company, f) for f in _COMPANY_FIELDS),
        *(getattr(Entity, f) for f in _ENTITY_FIELDS),
    )
    .join(Company)
    .join(Entity, JOIN.LEFT_OUTER, on=(Entity.company == Company.id))
    .where(ApiKey.secret_hash == "")
    .order_by(Entity.primary.desc(), Entity.created_at, Entity.id)
))


def load_principal(secret_hash: str) -> Principal:
    """The principal of a key, in one query; raise Unauthenticated if the key is
    unknown, revoked or of the wrong environment for its company."""
    rows = _PRINCIPAL_QUERY.rows(secret_hash)
    if not rows:
        raise Unauthenticated("unknown key")
    key_id, environment, scopes, revoked_at, last_used_at = rows[0][:_KEY_WIDTH]
    company = Company(**dict(zip(_COMPANY_FIELDS, rows[0][_KEY_WIDTH:_ENTITY_START], strict=True)))
    if revoked_at is not None:
        raise Unauthenticated("revoked key")
    # Contract, API keys: live keys only for live companies, sandbox keys only for sandboxes.
    if (environment == "test") != bool(company.sandbox):
        raise Unauthenticated("key environment does not match the company")
    entities = tuple(
        Entity(**dict(zip(_ENTITY_FIELDS, row[_ENTITY_START:], strict=True)))
        for row in rows if row[_ENTITY_START] is not None
    )
    return Principal(kind="api_key", credential_id=key_id, company=company, entities=entities,
                     scopes=frozenset(scopes.split()), last_used_at=from_db(last_used_at))


def record_use(key_id: str, last_used_at: datetime | None, now: datetime,
               resolution_seconds: int) -> datetime:
    """Note that the key was used at `now`, at most once per `resolution_seconds`, so
    that reads do not turn into a write on every request. Returns the last-used time."""
    if last_used_at is not None and now - last_used_at < timedelta(seconds=resolution_seconds):
        return last_used_at
    ApiKey.update(last_used_at=to_db(now)).where(ApiKey.id == key_id).execute()
    return now
