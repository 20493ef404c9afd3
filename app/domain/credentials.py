"""Every credential /v1 accepts: the kinds, told apart by their prefix, and revoking a
key with what it owns.

Each kind says what its tokens look like, how to load the principal of one by the
token's hash, and what to note when one is used (a "last used" time, at most once a
minute): `identify` finds a token's kind once, and `authenticate` goes down to it once.
Two kinds: the Partner API key (app/domain/access/keys.py), and the OAuth access token
(app/domain/oauth/connections.py; its principal is the connection, so the rate limit and
webhook ownership are per connection, and it is accepted only while the OAuth preview is
on), with the same scopes, rate limit and errors. Revoking any credential calls
`Runtime.credentials_changed()` in its transaction, so every worker drops its copy, and
stops the webhook endpoints it made in that transaction too: an OAuth connection's end is
oauth's (`connections._end`), a key's is here, above both access and webhooks, so that
no Runtime's wiring decides whether a revoked key's endpoints keep receiving events.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from app.domain.access import keys
from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.kernel.clock import format_utc, to_db
from app.domain.kernel.errors import NotFound, Words
from app.domain.kernel.runtime import Runtime
from app.domain.oauth import connections
from app.domain.webhooks import endpoints
from app.models import ApiKey, Company, OAuthApp, OAuthConnection, OAuthToken, User
from app.models.base import lock_for_update, row_of, write_transaction


@dataclass(frozen=True, eq=False)
class CredentialKind:
    """How a kind's tokens look (told apart by prefix, then checked whole), how to load
    the principal of one by the token's hash, and how to note its use."""

    name: str
    prefixes: tuple[str, ...]
    pattern: re.Pattern[str]  # the whole token
    load: Callable[[str], Principal]
    record_use: Callable[[str, datetime | None, datetime, int], datetime]
    preview: bool = False  # accepted only while the OAuth preview is on


KINDS = (
    CredentialKind("api_key", tuple(keys.PREFIXES.values()), keys.KEY_PATTERN, keys.load_principal, keys.record_use),
    CredentialKind("oauth", (connections.ACCESS_PREFIX,), connections.ACCESS_PATTERN, connections.load_principal,
                   connections.record_use, preview=True),
)


class Bearer(NamedTuple):
    """A presented credential: its kind and the hash of its token (never the token)."""

    kind: CredentialKind
    secret_hash: str


class Used(NamedTuple):
    """A credential's principal, and its "last used" time to remember for the next request."""

    principal: Principal
    last_used_at: datetime


def identify(authorization: str | None, *, preview: bool) -> Bearer:
    """`Authorization` header value -> Bearer, or raise Unauthenticated. Without the OAuth
    preview (`preview` false, the setting OAUTH_PREVIEW), an OAuth access token is not
    accepted: the caller says which, there is no default to forget."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    if scheme.lower() == "bearer":
        for kind in KINDS:
            if token.startswith(kind.prefixes) and kind.pattern.fullmatch(token):
                if kind.preview and not preview:
                    raise Unauthenticated("OAuth access tokens are not accepted: the preview is off")
                return Bearer(kind, hash_secret(token))
    raise Unauthenticated("missing or malformed bearer credential")


def authenticate(bearer: Bearer, now: datetime, resolution_seconds: int, *, known: Principal | None = None,
                 last_used_at: datetime | None = None) -> Used:
    """The principal of a presented credential, its use noted (a key's or a connection's
    "last used", at most once per `resolution_seconds`): the one call /v1 makes of a
    request's credential. A key acts for its company, an OAuth access token for its
    connection. `known`: the principal a cache holds for this bearer, with the
    `last_used_at` it remembered; not loaded again. Raises Unauthenticated."""
    principal = known if known is not None else bearer.kind.load(bearer.secret_hash)
    if principal.expired(now):
        raise Unauthenticated("expired credential")
    remembered = last_used_at if known is not None else principal.last_used_at
    return Used(principal, bearer.kind.record_use(principal.credential_id, remembered, now, resolution_seconds))


def describe(bearer: Bearer, principal: Principal) -> dict[str, Any]:
    """What the caller's own credential is and may do (getCredential, v1.3), nothing
    secret: a key's id and name, or an access token's id, expiry and app; the company, its
    mode and the scopes. Called for a bearer just authenticated (its row exists)."""
    common = {"company_id": principal.company.id, "livemode": not principal.company.sandbox,
              "scopes": sorted(principal.scopes)}
    if bearer.kind.name == "api_key":
        key = ApiKey.get(ApiKey.secret_hash == bearer.secret_hash)
        return {"type": "api_key", "id": key.id, "name": key.name, **common,
                "created_at": format_utc(key.created_at), "last_used_at": format_utc(key.last_used_at),
                "expires_at": None, "app": None}
    token = (OAuthToken.select(OAuthToken, OAuthConnection, OAuthApp).join(OAuthConnection).join(OAuthApp)
             .where(OAuthToken.token_hash == bearer.secret_hash).get())
    connection = token.connection
    return {"type": "oauth_access_token", "id": token.id, "name": None, **common,
            "created_at": format_utc(token.created_at), "last_used_at": format_utc(connection.last_used_at),
            "expires_at": format_utc(token.expires_at),
            "app": {"client_id": connection.app.id, "name": connection.app.name}}


def reissue_key(company: Company, name: str, scopes: list[str] | tuple[str, ...], runtime: Runtime, *,
                created_by: User | None = None) -> tuple[ApiKey, str, int]:
    """A new key named `name`, revoking the company's earlier working keys of that name:
    one working copy of a demo key, not one more per start of `serve`. Returns (ApiKey,
    secret, how many were revoked)."""
    with write_transaction():
        revoked = _revoke((ApiKey.company == company.id) & (ApiKey.name == name), runtime)
        key, secret = keys.create_key(company, scopes, runtime.clock, name=name, created_by=created_by)
    return key, secret, len(revoked)


def still_working(company: Company, secret: str, scopes: tuple[str, ...] | list[str]) -> bool:
    """Whether `secret` is a working (not revoked) key of `company` holding exactly `scopes`."""
    key = ApiKey.get_or_none(ApiKey.company == company.id, ApiKey.secret_hash == hash_secret(secret),
                             ApiKey.revoked_at.is_null())
    return key is not None and key.scopes.split() == list(scopes)


def revoke_key(key_id: str, runtime: Runtime, *, company: str | None = None) -> ApiKey:
    """Revoke a key (of `company`, when given) and stop its webhook endpoints; NotFound if
    there is no such key. Revoking one already revoked changes nothing and tells no one."""
    query = row_of(ApiKey, key_id, company)
    with write_transaction():
        _revoke(query, runtime)
        key = ApiKey.get_or_none(query)
    if key is None:
        raise NotFound(Words("no API key %(key)s", key=key_id))
    return key


def _revoke(condition: object, runtime: Runtime) -> list[str]:
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
