"""Partner API keys: issue, revoke, and turn a bearer credential into a principal.

A key is `svc_live_` or `svc_test_` followed by 32 base62 characters (~190 bits). Only
its SHA-256 is stored: the key is high-entropy, so a fast hash is the right tool and
lets a request be authenticated with one indexed lookup.
"""

import hashlib
import re
from dataclasses import dataclass
from datetime import timedelta

from app.domain.clock import from_db, to_db
from app.domain.errors import NotFound, ValidationFailed
from app.domain.ids import new_id, random_token
from app.models import ApiKey, Company

SCOPES = ("employees:read", "payroll:read", "attendance:read", "attendance:write", "webhooks:manage")
PREFIXES = {"live": "svc_live_", "test": "svc_test_"}
KEY_PATTERN = re.compile(r"^svc_(live|test)_[A-Za-z0-9]{32}$")


class Unauthenticated(Exception):
    """Missing, malformed, unknown, revoked or wrong-environment credential."""


@dataclass(frozen=True)
class Principal:
    key_id: str
    company: Company
    scopes: frozenset


def hash_secret(secret):
    return hashlib.sha256(secret.encode()).hexdigest()


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


def revoke_key(key_id, clock, *, company=None):
    query = ApiKey.id == key_id
    if company is not None:
        query &= ApiKey.company == company
    key = ApiKey.get_or_none(query)
    if key is None:
        raise NotFound(f"no API key {key_id}")
    if key.revoked_at is None:
        key.revoked_at = to_db(clock.now())
        key.save(only=[ApiKey.revoked_at])
    return key


def authenticate(authorization, clock, last_used_resolution=60):
    """`Authorization` header value -> Principal, or raise Unauthenticated.

    One query. "Last used" is written at most once per `last_used_resolution` seconds
    per key, so reads do not turn into a write on every request.
    """
    scheme, _, secret = (authorization or "").partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not KEY_PATTERN.match(secret):
        raise Unauthenticated("missing or malformed bearer credential")
    key = (
        ApiKey.select(ApiKey, Company)
        .join(Company)
        .where(ApiKey.secret_hash == hash_secret(secret))
        .first()
    )
    if key is None or key.revoked_at is not None:
        raise Unauthenticated("unknown or revoked key")
    # Contract, API keys: live keys only for live companies, sandbox keys only for sandboxes.
    if (key.environment == "test") != bool(key.company.sandbox):
        raise Unauthenticated("key environment does not match the company")
    now = clock.now()
    last = from_db(key.last_used_at)
    if last is None or now - last >= timedelta(seconds=last_used_resolution):
        ApiKey.update(last_used_at=to_db(now)).where(ApiKey.id == key.id).execute()
    return Principal(key_id=key.id, company=key.company, scopes=frozenset(key.scopes.split()))
