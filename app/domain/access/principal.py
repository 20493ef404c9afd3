"""Who is calling /v1: a principal, whatever kind of credential it presented.

A principal is a credential (its kind and id), the company it acts for with the
company's legal entities, the scopes it holds and when it stops working. The API's
guard, its rate limit (counted per credential) and its principal cache see only this;
which kinds exist and how each is found is app/domain/credentials.py.
"""

import hashlib
from dataclasses import dataclass
from datetime import datetime

from app.models import Company, Entity


class Unauthenticated(Exception):
    """Missing, malformed, unknown, expired, revoked or wrong-environment credential."""


@dataclass(frozen=True)
class Principal:
    kind: str  # "api_key" or "oauth" (app/domain/credentials.py)
    credential_id: str  # the key's id: what the rate limit counts and revocation names
    company: Company
    entities: tuple[Entity, ...]  # the company's legal entities, primary first
    scopes: frozenset[str]
    expires_at: datetime | None = None  # None: until revoked
    last_used_at: datetime | None = None  # as loaded; the credential's row is updated on use

    def expired(self, now: datetime) -> bool:
        return self.expires_at is not None and now >= self.expires_at


def hash_secret(secret: str) -> str:
    """Credentials are high-entropy random strings: a fast hash is the right tool, and
    lets a request find its credential with one indexed lookup."""
    return hashlib.sha256(secret.encode()).hexdigest()
