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

Refusals are `OAuthError`s with the RFC 6749 code. One found while a state change must
stay (a reuse ends the family) is raised after that change commits.
"""

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import timedelta

from peewee import JOIN

from app.domain.access.keys import SCOPES
from app.domain.access.principal import Principal, Unauthenticated, hash_secret
from app.domain.access.users import permissions_of
from app.domain.kernel.clock import from_db, to_db
from app.domain.kernel.errors import NotFound
from app.domain.kernel.ids import new_id, random_token
from app.domain.kernel.runtime import Runtime
from app.domain.oauth.apps import may_reach
from app.domain.webhooks import endpoints
from app.models import Company, Entity, Membership, OAuthApp, OAuthCode, OAuthConnection, OAuthToken, User
from app.models.base import locked, write_transaction

CODE_SECONDS = 60  # Contract, Limits
ACCESS_PREFIX, REFRESH_PREFIX = "svc_at_", "svc_rt_"
ACCESS_PATTERN = re.compile(r"^svc_at_[A-Za-z0-9]{40}$")
CHALLENGE_PATTERN = re.compile(r"^[A-Za-z0-9_-]{43}$")  # base64url of a SHA-256, unpadded
VERIFIER_PATTERN = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")  # RFC 7636, 4.1
DISABLED_REASON = "connection_revoked"


class OAuthError(Exception):
    """A refusal in RFC 6749's terms (`error`, `description`)."""

    def __init__(self, error, description):
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
    scopes: tuple
    connection_id: str


def s256(verifier):
    """RFC 7636: BASE64URL(SHA256(ASCII(verifier))), unpadded."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=").decode()


def requested_scopes(app, text):
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
    return tuple(s for s in SCOPES if s in asked)


def companies_managed_by(user):
    """The companies where the user holds integrations.manage (and so may connect an
    app), by name."""
    rows = (Membership.select(Membership, Company).join(Company).where(Membership.user == user)
            .order_by(Company.sandbox, Company.name_en, Company.id))
    return [m.company for m in rows if "integrations.manage" in permissions_of(m)]


def companies_to_offer(app, user):
    """The companies the consent page offers: those the user manages that the app may
    connect to."""
    return [company for company in companies_managed_by(user) if may_reach(app, company)]


def issue_code(app, user, company, redirect_uri, scopes, challenge, clock):
    """A code for this approval (shown to the app once, stored as a hash). The user must
    hold integrations.manage in `company`, and the app may need to be in production mode
    to reach it (unauthorized_client)."""
    if not may_reach(app, company):
        raise OAuthError("unauthorized_client", "an app in development mode connects only to sandbox companies "
                                                "of its own organisation's members")
    membership = Membership.get_or_none(Membership.user == user, Membership.company == company)
    if "integrations.manage" not in permissions_of(membership):
        raise OAuthError("access_denied", "the user may not connect apps to this company")
    if not isinstance(challenge, str) or not CHALLENGE_PATTERN.fullmatch(challenge):
        raise OAuthError("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (S256)")
    code, now = random_token(43), clock.now()
    OAuthCode.create(id=new_id("oac"), code_hash=hash_secret(code), app=app, company=company, user=user,
                     redirect_uri=redirect_uri, scopes=" ".join(scopes), code_challenge=challenge,
                     created_at=to_db(now), expires_at=to_db(now + timedelta(seconds=CODE_SECONDS)))
    return code


def redeem_code(app, code, redirect_uri, verifier, runtime, lifetimes=Lifetimes()):
    """Tokens for a code: it must be this app's, unused, under 60 seconds old, for this
    redirect URI, and the verifier must match its challenge. The code is used up by the
    first redemption that reaches it, matching or not."""
    if not verifier:
        raise OAuthError("invalid_request", "code_verifier is missing")
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
        elif redirect_uri != found.redirect_uri:
            refusal = OAuthError("invalid_grant", "redirect_uri differs from the one the code was issued for")
        elif not VERIFIER_PATTERN.fullmatch(verifier) or not hmac.compare_digest(s256(verifier), found.code_challenge):
            refusal = OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
        else:
            connection = OAuthConnection.create(
                id=new_id("con"), app=app.id, company=found.company_id, granted_by=found.user_id,
                scopes=found.scopes, created_at=to_db(now))
            OAuthCode.update(connection=connection.id).where(OAuthCode.id == found.id).execute()
            tokens = _issue(connection.id, found.scopes.split(), now, lifetimes)
    if refusal is not None:
        raise refusal
    return tokens


def refresh(app, refresh_token, scope_text, runtime, lifetimes=Lifetimes()):
    """The next tokens for a refresh token of this app's, which is used up. The tokens
    carry the scopes asked for: any of those the customer granted, all of them when none
    are named (RFC 6749, 6), so a narrower refresh can be followed by a wider one up to
    the grant. More than was granted is invalid_scope (and uses nothing). A refresh token
    used before ends its connection."""
    now, refusal = runtime.now(), None
    with write_transaction():
        token = (OAuthToken.select(OAuthToken, OAuthConnection).join(OAuthConnection)
                 .where(OAuthToken.token_hash == hash_secret(refresh_token or ""), OAuthToken.kind == "refresh",
                        OAuthConnection.app == app.id).first())
        if token is None:
            raise OAuthError("invalid_grant", "unknown refresh token, or issued to another client")
        granted = token.connection.scopes.split()  # RFC 6749, 6: measured against the approval
        asked = scope_text.split() if scope_text else granted
        if any(s not in granted for s in asked):
            raise OAuthError("invalid_scope", "a refresh may ask for the scopes the customer granted, or fewer, "
                                              "never more")
        # Every use of one family takes its turn on the connection's row, then sees the
        # token as the one before left it.
        connection = locked(OAuthConnection.select().where(OAuthConnection.id == token.connection_id))
        token = OAuthToken.get_by_id(token.id)
        if connection.revoked_at is not None or token.revoked_at is not None:
            raise OAuthError("invalid_grant", "the refresh token was revoked")
        taken = (OAuthToken.update(used_at=to_db(now))
                 .where(OAuthToken.id == token.id, OAuthToken.used_at.is_null(), OAuthToken.revoked_at.is_null())
                 .execute())
        if not taken:  # presented again after its use: the whole family ends
            _end(token.connection_id, "refresh_token_reused", runtime)
            refusal = OAuthError("invalid_grant", "the refresh token was used already; the connection is revoked "
                                                  "and the customer must approve again")
        elif now >= from_db(token.expires_at):
            refusal = OAuthError("invalid_grant", "the refresh token expired")
        else:
            tokens = _issue(token.connection_id, [s for s in SCOPES if s in asked], now, lifetimes)
    if refusal is not None:
        raise refusal
    return tokens


def revoke_token(app, token, runtime):
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
            raise NotFound(f"no app {app_id} is connected to this company")
        for connection in working:
            _end(connection.id, reason, runtime)
    return OAuthApp.get_by_id(app_id)


@dataclass(frozen=True)
class ConnectedApp:
    """One app as the customer sees it connected: what its working connections hold
    together (the scopes of all, the first connection, the latest use, who approved last)."""

    app: OAuthApp
    scopes: tuple
    connected_at: object
    last_used_at: object
    granted_by: User | None
    connections: int


def connected_apps(company_id: str) -> list[ConnectedApp]:
    """The company's connected apps, one per app, most recently approved first (the
    console's "Connected apps")."""
    rows = (OAuthConnection.select(OAuthConnection, OAuthApp, User).join(OAuthApp)
            .switch(OAuthConnection).join(User, JOIN.LEFT_OUTER)
            .where(OAuthConnection.company == company_id, OAuthConnection.revoked_at.is_null())
            .order_by(OAuthConnection.created_at.desc(), OAuthConnection.id))
    by_app = {}
    for row in rows:  # newest first
        by_app.setdefault(row.app_id, []).append(row)
    return [ConnectedApp(app=group[0].app,
                         scopes=tuple(s for s in SCOPES if any(s in row.scopes.split() for row in group)),
                         connected_at=min(row.created_at for row in group),
                         last_used_at=max((row.last_used_at for row in group if row.last_used_at), default=None),
                         granted_by=group[0].granted_by, connections=len(group))
            for group in by_app.values()]


def load_principal(token_hash):
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


def record_use(connection_id, last_used_at, now, resolution_seconds):
    """The connection's "last used", written at most once per `resolution_seconds`."""
    if last_used_at is not None and now - last_used_at < timedelta(seconds=resolution_seconds):
        return last_used_at
    OAuthConnection.update(last_used_at=to_db(now)).where(OAuthConnection.id == connection_id).execute()
    return now


def _issue(connection_id, scopes, now, lifetimes):
    access, refresh_token = ACCESS_PREFIX + random_token(40), REFRESH_PREFIX + random_token(40)
    for kind, token, lifetime in (("access", access, lifetimes.access), ("refresh", refresh_token, lifetimes.refresh)):
        OAuthToken.create(id=new_id("tok"), connection=connection_id, kind=kind, token_hash=hash_secret(token),
                          scopes=" ".join(scopes), created_at=to_db(now), expires_at=to_db(now + lifetime))
    return Tokens(access, refresh_token, int(lifetimes.access.total_seconds()), tuple(scopes), connection_id)


def _end(connection_id, reason, runtime):
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
