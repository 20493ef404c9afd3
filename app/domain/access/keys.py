"""Partner API keys: issue, revoke, and load the principal of a presented key.

A key is `svc_live_` or `svc_test_` followed by 32 base62 characters (~190 bits). Only
its SHA-256 is stored (`hash_secret`). Keys are one kind of credential
(app/domain/access/credentials.py): they never expire, and they note when last used.
"""

import re
from datetime import timedelta

from peewee import JOIN

from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.kernel.clock import from_db, to_db
from app.domain.kernel.errors import NotFound, ValidationFailed
from app.domain.kernel.ids import new_id, random_token
from app.domain.webhooks import endpoints
from app.models import ApiKey, Company, Entity
from app.models.base import Prepared, lock_for_update, row_of, write_transaction

SCOPES = ("employees:read", "payroll:read", "attendance:read", "attendance:write", "webhooks:manage")
PREFIXES = {"live": "svc_live_", "test": "svc_test_"}
KEY_PATTERN = re.compile(r"^svc_(live|test)_[A-Za-z0-9]{32}$")


def parse_scopes(scopes):
    """A list (or comma/space separated text) of scopes, checked against SCOPES."""
    if isinstance(scopes, str):
        scopes = re.split(r"[\s,]+", scopes.strip())
    chosen = [s for s in scopes if s]
    unknown = sorted(set(chosen) - set(SCOPES))
    if unknown:
        raise ValidationFailed(
            "unknown scope",
            [("scopes", f"unknown scope {s!r}; expected any of {', '.join(SCOPES)}") for s in unknown],
        )
    return [s for s in SCOPES if s in chosen]


def create_key(company, scopes, clock, *, name="API key", created_by=None):
    """A new key for `company`; returns (ApiKey, the secret shown once).

    The kind follows the company: sandbox companies get `svc_test_` keys, live ones
    `svc_live_` (Contract, API keys).
    """
    environment = "test" if company.sandbox else "live"
    secret = PREFIXES[environment] + random_token(32)
    key = ApiKey.create(
        id=new_id("key"), company=company, name=(name or "API key")[:100],
        environment=environment, display_prefix=secret[:13], secret_hash=hash_secret(secret),
        scopes=" ".join(parse_scopes(scopes)), created_by=created_by,
        created_at=to_db(clock.now()),
    )
    return key, secret


def reissue_key(company, name, scopes, runtime, *, created_by=None):
    """A new key named `name`, revoking the company's earlier working keys of that name:
    one working copy of a demo key, not one more per start of `serve`. Returns (ApiKey,
    secret, how many were revoked)."""
    with write_transaction():
        revoked = _revoke((ApiKey.company == company.id) & (ApiKey.name == name), runtime)
        key, secret = create_key(company, scopes, runtime.clock, name=name, created_by=created_by)
    return key, secret, len(revoked)


def list_keys(company_id):
    """A company's keys, newest first, revoked ones included (the console lists them)."""
    return list(ApiKey.select().where(ApiKey.company == company_id).order_by(ApiKey.created_at.desc(), ApiKey.id))


def revoke_key(key_id, runtime, *, company=None):
    query = row_of(ApiKey, key_id, company)
    with write_transaction():
        _revoke(query, runtime)
        key = ApiKey.get_or_none(query)
    if key is None:
        raise NotFound(f"no API key {key_id}")
    return key


def _revoke(condition, runtime):
    """Inside a write transaction: revoke the working keys `condition` selects, and
    disable their webhook endpoints (`key_revoked`). Decided under the rows' lock: of two
    revocations at once, one revokes and the other finds nothing. Returns their ids."""
    now = runtime.now()
    ids = [key.id for key in lock_for_update(ApiKey.select(ApiKey.id).where(condition, ApiKey.revoked_at.is_null()))]
    if ids:
        ApiKey.update(revoked_at=to_db(now)).where(ApiKey.id.in_(ids)).execute()
        for key_id in ids:
            endpoints.disable_for_credential("api_key", key_id, "key_revoked", now)
        runtime.credentials_changed()
    return ids


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


def load_principal(secret_hash):
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


def record_use(key_id, last_used_at, now, resolution_seconds):
    """Note that the key was used at `now`, at most once per `resolution_seconds`, so
    that reads do not turn into a write on every request. Returns the last-used time."""
    if last_used_at is not None and now - last_used_at < timedelta(seconds=resolution_seconds):
        return last_used_at
    ApiKey.update(last_used_at=to_db(now)).where(ApiKey.id == key_id).execute()
    return now
