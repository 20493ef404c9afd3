"""What an approval becomes: an authorization code, then a connection with its tokens.

- A code lives 60 seconds and is used once: it is taken by a conditional update, so of
  many redemptions at once exactly one wins, and a second use also ends the connection
  the first one made (its tokens stop).
- A connection is one app acting for one company with some scopes, granted by a user.
  Its tokens are one family: access tokens (`svc_at_`, an hour by default) and one
  working refresh token (`svc_rt_`, thirty days by default). A refresh uses its token
  (a conditional update again) and gets the next one; a refresh token presented after
  it was used ends the connection, so the customer must approve again (a client must
  not refresh one family from two threads at once). A refresh may ask for any of the
  granted scopes, never more; omitted, it gets all of them.
- The customer's Revoke ends every connection of the app to the company. Ending a
  connection (that Revoke, a reuse, a revoked refresh token) revokes
  every token of it, disables the webhook endpoints it made (`connection_revoked`) and
  tells every worker's principal cache.

The token endpoint (app/oauth/server.py) runs Authlib's own flow over these steps, in one
write transaction: `take_code` (the code's single-use take), `connect` (the connection and
its first tokens); `present_refresh` (reuse detection under the connection's row lock),
`store_tokens` and `use_refresh` (rotation). `redeem_code` and `refresh` are the same
steps for a caller without HTTP (test fixtures, the benchmark). PKCE is `check_challenge`
and `verifier_matches` (S256 for every client, compared in constant time).

Refusals are `OAuthError`s with the RFC 6749 code. One found while a state change must
stay (a reuse ends the family) is raised after that change is written.
"""

import base64
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from peewee import JOIN

from app.domain.access.keys import SCOPES
from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.access.users import permissions_of
from app.domain.kernel.clock import Clock, from_db, to_db
from app.domain.kernel.errors import NotFound, Words
from app.domain.kernel.ids import new_id, random_token
from app.domain.kernel.runtime import Runtime
from app.domain.oauth.apps import may_reach
from app.domain.webhooks import endpoints
from app.models import Company, Entity, Membership, OAuthApp, OAuthCode, OAuthConnection, OAuthToken, User
from app.models.base import locked, write_transaction

CODE_SECONDS = 60  # Contract, Limits
CODE_LENGTH = 43
ACCESS_PREFIX, REFRESH_PREFIX = "svc_at_", "svc_rt_"
ACCESS_PATTERN = re.compile(r"^svc_at_[A-Za-z0-9]{40}$")
CHALLENGE_PATTERN = re.compile(r"^[A-Za-z0-9_-]{43}$")  # base64url of a SHA-256, unpadded
VERIFIER_PATTERN = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")  # RFC 7636, 4.1
DISABLED_REASON = "connection_revoked"


class OAuthError(Exception):
    """A refusal in RFC 6749's terms (`error`, `description`)."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(f"{error}: {description}")
        self.error, self.description = error, description


@dataclass(frozen=True)
class Lifetimes:
    access: timedelta = timedelta(hours=1)
    refresh: timedelta = timedelta(days=30)


@dataclass(frozen=True)
class Tokens:
    """A token response's contents."""

    access_token: str
    refresh_token: str
    expires_in: int
    scopes: tuple[str, ...]
    connection_id: str


def s256(verifier: str) -> str:
    """RFC 7636: BASE64URL(SHA256(ASCII(verifier))), unpadded."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=").decode()


def check_challenge(challenge: object, method: object) -> None:
    """PKCE as this server asks it of every client, public or confidential: a
    `code_challenge` that is the base64url SHA-256 of a verifier, with method S256 (never
    `plain`). OAuthError invalid_request otherwise."""
    if not challenge:
        raise OAuthError("invalid_request", "code_challenge is required: PKCE with S256")
    if method != "S256":
        raise OAuthError("invalid_request", "code_challenge_method must be S256")
    if not isinstance(challenge, str) or not CHALLENGE_PATTERN.fullmatch(challenge):
        raise OAuthError("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (S256)")


def verifier_matches(verifier: str, challenge: str) -> bool:
    """Whether `verifier` is the one `challenge` was made from (RFC 7636, 4.6), compared
    in constant time."""
    return bool(VERIFIER_PATTERN.fullmatch(verifier or "")) and hmac.compare_digest(s256(verifier), challenge)


def new_code() -> str:
    return random_token(CODE_LENGTH)


def new_access_token() -> str:
    return ACCESS_PREFIX + random_token(40)


def new_refresh_token() -> str:
    return REFRESH_PREFIX + random_token(40)


def canonical_scopes(names: Sequence[str]) -> tuple[str, ...]:
    """Scopes in the contract's order, each once."""
    return tuple(s for s in SCOPES if s in names)


def requested_scopes(app: OAuthApp, text: str | None) -> tuple[str, ...]:
    """The scopes an authorization asks for (space-separated), within the app's; all the
    app's when none are named. OAuthError invalid_scope otherwise."""
    allowed = app.scopes.split()
    asked = (text or "").split() or allowed
    unknown = [s for s in asked if s not in SCOPES]
    if unknown:
        raise OAuthError("invalid_scope", f"unknown scope {unknown[0]!r}")
    beyond = [s for s in asked if s not in allowed]
    if beyond:
        raise OAuthError("invalid_scope", f"the app may not ask for {beyond[0]!r}")
    return canonical_scopes(asked)


def companies_managed_by(user: User) -> list[Company]:
    """The companies where the user holds integrations.manage (and so may connect an
    app), by name."""
    rows = (Membership.select(Membership, Company).join(Company).where(Membership.user == user)
            .order_by(Company.sandbox, Company.name_en, Company.id))
    return [m.company for m in rows if "integrations.manage" in permissions_of(m)]


def companies_to_offer(app: OAuthApp, user: User) -> list[Company]:
    """The companies the consent page offers: those the user manages that the app may
    connect to."""
    return [company for company in companies_managed_by(user) if may_reach(app, company)]


def issue_code(app: OAuthApp, user: User, company: Company, redirect_uri: str, scopes: Sequence[str], challenge: str,
               clock: Clock, *, code: str | None = None) -> str:
    """A code for this approval (shown to the app once, stored as a hash): `code`, or a
    new one. The user must hold integrations.manage in `company`, and the app may need
    to be in production mode to reach it (unauthorized_client)."""
    if not may_reach(app, company):
        raise OAuthError("unauthorized_client", "an app in development mode connects only to sandbox companies "
                                                "of its own organisation's members")
    membership = Membership.get_or_none(Membership.user == user, Membership.company == company)
    if "integrations.manage" not in permissions_of(membership):
        raise OAuthError("access_denied", "the user may not connect apps to this company")
    check_challenge(challenge, "S256")
    code, now = code or new_code(), clock.now()
    OAuthCode.create(id=new_id("oac"), code_hash=hash_secret(code), app=app, company=company, user=user,
                     redirect_uri=redirect_uri, scopes=" ".join(scopes), code_challenge=challenge,
                     created_at=to_db(now), expires_at=to_db(now + timedelta(seconds=CODE_SECONDS)))
    return code


@dataclass(frozen=True)
class TakenCode:
    """A code as its redemption took it: what the approval granted, for whom."""

    id: str
    app_id: str
    company_id: str
    user_id: str
    redirect_uri: str
    scopes: tuple[str, ...]
    code_challenge: str


def take_code(app: OAuthApp, code: str, runtime: Runtime) -> TakenCode:
    """The code, used up by this redemption whatever comes of it (a conditional update:
    of many redemptions at once, one takes it). invalid_grant if it is unknown or another
    app's, used before (that second use also ends the connection the first one made), or
    over 60 seconds old. What must still match (the redirect URI, the PKCE verifier) is
    for the caller to judge: the code stays used either way."""
    now, refusal = runtime.now(), None
    with write_transaction():
        found = OAuthCode.get_or_none(OAuthCode.code_hash == hash_secret(code or ""), OAuthCode.app == app.id)
        if found is None:
            raise OAuthError("invalid_grant", "unknown code, or issued to another client")
        taken = (OAuthCode.update(used_at=to_db(now))
                 .where(OAuthCode.id == found.id, OAuthCode.used_at.is_null()).execute())
        if not taken:  # a second use: the first one's connection ends too
            connection_id = OAuthCode.get_by_id(found.id).connection_id
            if connection_id is not None:
                _end(connection_id, "code_reused", runtime)
            refusal = OAuthError("invalid_grant", "the code was used already")
        elif now >= from_db(found.expires_at):
            refusal = OAuthError("invalid_grant", f"the code expired (it lives {CODE_SECONDS} seconds)")
    if refusal is not None:
        raise refusal
    return TakenCode(found.id, found.app_id, found.company_id, found.user_id, found.redirect_uri,
                     tuple(found.scopes.split()), found.code_challenge)


def connect(taken: TakenCode, access_token: str, refresh_token: str, scopes: Sequence[str], runtime: Runtime,
            lifetimes: Lifetimes = Lifetimes()) -> Tokens:
    """The connection a taken code makes: the app acting for the company with the
    granted scopes, and its first tokens."""
    now = runtime.now()
    with write_transaction():
        connection = OAuthConnection.create(
            id=new_id("con"), app=taken.app_id, company=taken.company_id, granted_by=taken.user_id,
            scopes=" ".join(taken.scopes), created_at=to_db(now))
        OAuthCode.update(connection=connection.id).where(OAuthCode.id == taken.id).execute()
        return _store(connection.id, access_token, refresh_token, scopes, now, lifetimes)


@dataclass(frozen=True)
class PresentedRefresh:
    """A refresh token presented for rotation, as its connection's lock left it."""

    token_id: str
    app_id: str
    connection_id: str
    granted: tuple[str, ...]  # the connection's scopes: a refresh may ask for these, or fewer
    granted_by: str | None


def present_refresh(app: OAuthApp, refresh_token: str, runtime: Runtime) -> PresentedRefresh:
    """A refresh token of this app's, read under its connection's row lock: every use of
    one family takes its turn, then sees the token as the one before left it (the token
    endpoint holds the lock until its transaction ends). invalid_grant if it is unknown
    or another app's, revoked, or expired; presented again after its use, it ends the
    whole family (reuse) and says so."""
    now, refusal = runtime.now(), None
    with write_transaction():
        token = (OAuthToken.select(OAuthToken.id, OAuthToken.connection).join(OAuthConnection)
                 .where(OAuthToken.token_hash == hash_secret(refresh_token or ""), OAuthToken.kind == "refresh",
                        OAuthConnection.app == app.id).first())
        if token is None:
            raise OAuthError("invalid_grant", "unknown refresh token, or issued to another client")
        connection = locked(OAuthConnection.select().where(OAuthConnection.id == token.connection_id))
        token = OAuthToken.get_by_id(token.id)
        if connection is None or connection.revoked_at is not None or token.revoked_at is not None:
            raise OAuthError("invalid_grant", "the refresh token was revoked")
        if token.used_at is not None:  # presented again after its use: the whole family ends
            _end(token.connection_id, "refresh_token_reused", runtime)
            refusal = _reused()
        elif now >= from_db(token.expires_at):
            refusal = OAuthError("invalid_grant", "the refresh token expired")
    if refusal is not None:
        raise refusal
    return PresentedRefresh(token.id, app.id, token.connection_id, tuple(connection.scopes.split()),
                            connection.granted_by_id)


def _reused() -> OAuthError:
    return OAuthError("invalid_grant", "the refresh token was used already; the connection is revoked and the "
                                       "customer must approve again")


def refresh_scopes(presented: PresentedRefresh, text: str | None) -> tuple[str, ...]:
    """The scopes a refresh asks for (RFC 6749, 6): any of those the customer granted,
    all of them when none are named, so a narrower refresh can be followed by a wider one
    up to the grant. More than was granted is invalid_scope."""
    asked = text.split() if text else presented.granted
    if any(s not in presented.granted for s in asked):
        raise OAuthError("invalid_scope", "a refresh may ask for the scopes the customer granted, or fewer, never "
                                          "more")
    return canonical_scopes(asked)


def store_tokens(connection_id: str, access_token: str, refresh_token: str, scopes: Sequence[str],
                 runtime: Runtime, lifetimes: Lifetimes = Lifetimes()) -> Tokens:
    """The next tokens of a connection (a refresh's)."""
    with write_transaction():
        return _store(connection_id, access_token, refresh_token, scopes, runtime.now(), lifetimes)


def use_refresh(presented: PresentedRefresh, runtime: Runtime) -> None:
    """Rotation: the presented refresh token is used up, by a conditional update under
    its connection's lock. One already used meanwhile (two refreshes at once outside one
    transaction) ends the family, the tokens just stored included."""
    refused = False
    with write_transaction():
        locked(OAuthConnection.select(OAuthConnection.id).where(OAuthConnection.id == presented.connection_id))
        taken = (OAuthToken.update(used_at=to_db(runtime.now()))
                 .where(OAuthToken.id == presented.token_id, OAuthToken.used_at.is_null(),
                        OAuthToken.revoked_at.is_null()).execute())
        if not taken:
            _end(presented.connection_id, "refresh_token_reused", runtime)
            refused = True
    if refused:
        raise _reused()


def redeem_code(app: OAuthApp, code: str, redirect_uri: str, verifier: str, runtime: Runtime,
                lifetimes: Lifetimes = Lifetimes()) -> Tokens:
    """A code's tokens for a caller without HTTP (test fixtures, the benchmark): the
    token endpoint's steps in one transaction. The code is used up by the first
    redemption that reaches it, matching or not."""
    if not verifier:
        raise OAuthError("invalid_request", "code_verifier is missing")
    refusal = None
    with write_transaction():  # a refusal is raised once what it wrote (a used code, an ended family) commits
        try:
            taken = take_code(app, code, runtime)
            if redirect_uri != taken.redirect_uri:
                raise OAuthError("invalid_grant", "redirect_uri differs from the one the code was issued for")
            if not verifier_matches(verifier, taken.code_challenge):
                raise OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
            tokens = connect(taken, new_access_token(), new_refresh_token(), taken.scopes, runtime, lifetimes)
        except OAuthError as refused:
            refusal = refused
    if refusal is not None:
        raise refusal
    return tokens


def refresh(app: OAuthApp, refresh_token: str, scope_text: str | None, runtime: Runtime,
            lifetimes: Lifetimes = Lifetimes()) -> Tokens:
    """The next tokens for a refresh token, for a caller without HTTP: the token
    endpoint's steps in one transaction. A refusal of scope uses nothing."""
    refusal = None
    with write_transaction():  # a refusal is raised once what it wrote (an ended family) commits
        try:
            presented = present_refresh(app, refresh_token, runtime)
            scopes = refresh_scopes(presented, scope_text)
            tokens = store_tokens(presented.connection_id, new_access_token(), new_refresh_token(), scopes, runtime,
                                  lifetimes)
            use_refresh(presented, runtime)
        except OAuthError as refused:
            refusal = refused
    if refusal is not None:
        raise refusal
    return tokens


def revoke_token(app: OAuthApp, token: str, runtime: Runtime) -> bool:
    """RFC 7009: revoke a token of this app's. A refresh token ends its connection (its
    access tokens stop too); an access token stops alone. Unknown tokens, and those of
    another app, are left as they are (the caller answers 200 either way)."""
    now = runtime.now()
    with write_transaction():
        found = (OAuthToken.select(OAuthToken.id, OAuthToken.kind, OAuthToken.connection)
                 .join(OAuthConnection).where(OAuthToken.token_hash == hash_secret(token or ""),
                                              OAuthConnection.app == app.id).first())
        if found is None:
            return False
        if found.kind == "refresh":
            _end(found.connection_id, "refresh_token_revoked", runtime)
        else:
            OAuthToken.update(revoked_at=to_db(now)).where(OAuthToken.id == found.id,
                                                           OAuthToken.revoked_at.is_null()).execute()
            runtime.credentials_changed()
    return True


def disconnect_app(company_id: str, app_id: str, runtime: Runtime, *, reason: str = "customer") -> OAuthApp:
    """The customer's Revoke of an app (Contract, Token rules 9): every working
    connection of the app to this company ends, however many approvals made them.
    Returns the app; NotFound if it has none here (another company's, or revoked already)."""
    with write_transaction():
        working = list(OAuthConnection.select(OAuthConnection.id).where(
            OAuthConnection.company == company_id, OAuthConnection.app == app_id,
            OAuthConnection.revoked_at.is_null()))
        if not working:
            raise NotFound(Words("no app %(app)s is connected to this company", app=app_id))
        for connection in working:
            _end(connection.id, reason, runtime)
    return OAuthApp.get_by_id(app_id)


@dataclass(frozen=True)
class ConnectedApp:
    """One app as the customer sees it connected: what its working connections hold
    together (the scopes of all, the first connection, the latest use, who approved last)."""

    app: OAuthApp
    scopes: tuple[str, ...]
    connected_at: datetime
    last_used_at: datetime | None
    granted_by: User | None
    connections: int


def connected_apps(company_id: str) -> list[ConnectedApp]:
    """The company's connected apps, one per app, most recently approved first (the
    console's "Connected apps")."""
    rows = (OAuthConnection.select(OAuthConnection, OAuthApp, User).join(OAuthApp)
            .switch(OAuthConnection).join(User, JOIN.LEFT_OUTER)
            .where(OAuthConnection.company == company_id, OAuthConnection.revoked_at.is_null())
            .order_by(OAuthConnection.created_at.desc(), OAuthConnection.id))
    by_app: dict[str, list[OAuthConnection]] = {}
    for row in rows:  # newest first
        by_app.setdefault(row.app_id, []).append(row)
    return [ConnectedApp(app=group[0].app,
                         scopes=tuple(s for s in SCOPES if any(s in row.scopes.split() for row in group)),
                         connected_at=min(row.created_at for row in group),
                         last_used_at=max((row.last_used_at for row in group if row.last_used_at), default=None),
                         granted_by=group[0].granted_by, connections=len(group))
            for group in by_app.values()]


def load_principal(token_hash: str) -> Principal:
    """The principal of an access token: its connection acting for its company with the
    token's scopes, until the token expires (`expires_at`: the API's authenticator
    refuses it after). Unauthenticated if unknown, revoked, or of an ended connection."""
    token = (OAuthToken.select(OAuthToken, OAuthConnection, Company).join(OAuthConnection).join(Company)
             .where(OAuthToken.token_hash == token_hash, OAuthToken.kind == "access").first())
    if token is None:
        raise Unauthenticated("unknown access token")
    if token.revoked_at is not None or token.connection.revoked_at is not None:
        raise Unauthenticated("revoked access token")
    company = token.connection.company
    entities = tuple(Entity.select().where(Entity.company == company.id)
                     .order_by(Entity.primary.desc(), Entity.created_at, Entity.id))
    return Principal(kind="oauth", credential_id=token.connection_id, company=company, entities=entities,
                     scopes=frozenset(token.scopes.split()), expires_at=from_db(token.expires_at),
                     last_used_at=from_db(token.connection.last_used_at))


def record_use(connection_id: str, last_used_at: datetime | None, now: datetime,
               resolution_seconds: int) -> datetime:
    """The connection's "last used", written at most once per `resolution_seconds`."""
    if last_used_at is not None and now - last_used_at < timedelta(seconds=resolution_seconds):
        return last_used_at
    OAuthConnection.update(last_used_at=to_db(now)).where(OAuthConnection.id == connection_id).execute()
    return now


def _store(connection_id: str, access: str, refresh_token: str, scopes: Sequence[str], now: datetime,
           lifetimes: Lifetimes) -> Tokens:
    scopes = canonical_scopes(scopes)
    for kind, token, lifetime in (("access", access, lifetimes.access), ("refresh", refresh_token, lifetimes.refresh)):
        OAuthToken.create(id=new_id("tok"), connection=connection_id, kind=kind, token_hash=hash_secret(token),
                          scopes=" ".join(scopes), created_at=to_db(now), expires_at=to_db(now + lifetime))
    return Tokens(access, refresh_token, int(lifetimes.access.total_seconds()), scopes, connection_id)


def _end(connection_id: str, reason: str, runtime: Runtime) -> None:
    """Inside a write transaction: end the connection and every token of it, disable
    its webhook endpoints, and tell every worker's principal cache. Ending one already
    ended changes nothing."""
    now = runtime.now()
    locked(OAuthConnection.select(OAuthConnection.id).where(OAuthConnection.id == connection_id))  # in turn
    (OAuthConnection.update(revoked_at=to_db(now), revoked_reason=reason)
     .where(OAuthConnection.id == connection_id, OAuthConnection.revoked_at.is_null()).execute())
    (OAuthToken.update(revoked_at=to_db(now))
     .where(OAuthToken.connection == connection_id, OAuthToken.revoked_at.is_null()).execute())
    endpoints.disable_for_credential("oauth", connection_id, DISABLED_REASON, now)
    runtime.credentials_changed()
