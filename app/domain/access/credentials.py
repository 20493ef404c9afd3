"""The kinds of bearer credential /v1 accepts, told apart by their prefix.

Each kind says what its tokens look like, how to load the principal of one by the
token's hash, and what to note when one is used (`record_use`: keys keep a "last used"
time; a kind without it notes nothing). Today there is one kind, the Partner API key
(app/domain/access/keys.py); an OAuth access token is added here as a second, and gets
the same scopes, rate limit and errors. Revoking any credential calls
`Runtime.credentials_changed()` in its transaction, so every worker drops its copy.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from app.domain.access import keys
from app.domain.access.principal import Unauthenticated, hash_secret


@dataclass(frozen=True)
class CredentialKind:
    name: str
    prefixes: tuple
    pattern: re.Pattern  # the whole token
    load: Callable  # secret hash -> Principal, or raise Unauthenticated
    record_use: Callable | None = None  # (credential id, last used, now, resolution) -> last used


KINDS = (
    CredentialKind("api_key", tuple(keys.PREFIXES.values()), keys.KEY_PATTERN, keys.load_principal,
                   keys.record_use),
)
_BY_NAME = {kind.name: kind for kind in KINDS}


class Bearer(NamedTuple):
    """A presented credential: its kind and the hash of its token (never the token)."""

    kind: str
    secret_hash: str


def identify(authorization):
    """`Authorization` header value -> Bearer, or raise Unauthenticated."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    if scheme.lower() == "bearer":
        for kind in KINDS:
            if token.startswith(kind.prefixes) and kind.pattern.fullmatch(token):
                return Bearer(kind.name, hash_secret(token))
    raise Unauthenticated("missing or malformed bearer credential")


def load_principal(bearer):
    return _BY_NAME[bearer.kind].load(bearer.secret_hash)


def record_use(principal, last_used_at, now, resolution_seconds):
    """Note the use where the kind keeps one; returns the last-used time to remember."""
    note = _BY_NAME[principal.kind].record_use
    if note is None:
        return last_used_at
    return note(principal.credential_id, last_used_at, now, resolution_seconds)
