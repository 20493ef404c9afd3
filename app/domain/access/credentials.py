"""The kinds of bearer credential /v1 accepts, told apart by their prefix.

Each kind says what its tokens look like, how to load the principal of one by the
token's hash, and what to note when one is used (`record_use`: a "last used" time, at
most once a minute). Two kinds: the Partner API key (app/domain/access/keys.py), and
the OAuth access token (app/domain/oauth/connections.py; its principal is the
connection, so the rate limit and webhook ownership are per connection), with the same
scopes, rate limit and errors. Revoking any credential calls
`Runtime.credentials_changed()` in its transaction, so every worker drops its copy.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from app.domain.access import keys
from app.domain.access.principal import Unauthenticated, hash_secret
from app.domain.oauth import connections


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
    CredentialKind("oauth", (connections.ACCESS_PREFIX,), connections.ACCESS_PATTERN, connections.load_principal,
                   connections.record_use),
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
