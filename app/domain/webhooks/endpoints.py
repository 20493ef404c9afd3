"""Webhook endpoints: registered by a credential, seen and changed by that credential only.

Another credential of the same company gets 404 for them, exactly like an id that does
not exist (DESIGN.md, Tenancy, per credential). The signing secret is `whsec_` and 32
random bytes (base64url), shown in the create response only and stored sealed. An
endpoint is disabled when its owning key is revoked (`key_revoked`, in the revocation's
transaction), after seven days of failed deliveries (`delivery_failures`), or by its owner
(`PATCH active: false`, reason `manual`); `PATCH active: true` re-enables it.

Beyond the contract (v1.3) a secret is rotated without downtime: the new one is shown
once, and the one it replaces keeps signing beside it (both `v1` values, newest first)
for up to ROTATION_OVERLAP, so receivers can switch at their pace. Only the newest
replaced secret is kept: a second rotation during an overlap ends the oldest.
"""

import base64
import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol, TypeAlias

from peewee import ModelSelect, fn

from app.domain.access.readable_events import SUBSCRIBE_SCOPES
from app.domain.access.users import owners_of
from app.domain.kernel import events
from app.domain.kernel.clock import format_utc, from_db, to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.sealing import Sealer
from app.domain.webhooks.urls import Target
from app.models import ApiKey, Company, OAuthConnection, WebhookEndpoint
from app.models.base import locked, tuple_rows, write_transaction

# Contract, Webhooks rule 5: every event type of Events, `ping` among them. The test
# operation sends its ping to the endpoint whether or not it is subscribed.
SUBSCRIBABLE = events.EVENT_TYPES
# v1.3: an endpoint subscribed to `["*"]` receives every type the company's events have,
# now and later, but `ping`, and a type a scope gates (SUBSCRIBE_SCOPES) only while its
# owner holds that scope (`types_received`).
EVERY_TYPE = "*"
SECRET_PREFIX = "whsec_"
MANAGE_SCOPE = "webhooks:manage"
ROTATION_OVERLAP = timedelta(hours=24)  # how long a replaced secret signs beside the new one, at most and unless told


class Owner(Protocol):
    """Who owns an endpoint: a Principal (the API's caller) or a KeyOwner (the console)."""

    @property
    def company(self) -> Company: ...
    @property
    def kind(self) -> str: ...
    @property
    def credential_id(self) -> str: ...


# Endpoints of one owner or company, to narrow further (WebhookEndpoint.select()...).
Query: TypeAlias = "ModelSelect[WebhookEndpoint]"


def _sealer(runtime: Runtime) -> Sealer:
    if runtime.sealer is None:
        raise RuntimeError("storing a webhook secret needs a Runtime with the app's sealer")
    return runtime.sealer


def new_secret() -> str:
    """`whsec_` and the standard base64 of 32 random bytes: the form Standard Webhooks
    libraries take as it is shown (secrets issued before were URL-safe base64)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def clean_events(chosen: object, held: frozenset[str], *, every: bool = True) -> list[str]:
    """The subscribed event types, as given; 422 naming each bad item, an empty list, a
    repeat, or a type the owner's scopes `held` may not receive (SUBSCRIBE_SCOPES).
    With `every` (while v1.3 is live), `["*"]` alone: every type (EVERY_TYPE)."""
    if not isinstance(chosen, list) or not chosen:
        raise ValidationFailed(Words("invalid events"), [("events", Words("a non-empty list of event types"))])
    if every and chosen == [EVERY_TYPE]:
        return [EVERY_TYPE]
    problems = []
    for index, value in enumerate(chosen):
        if every and value == EVERY_TYPE:
            problems.append((f"events[{index}]", Words("* (every event type) stands alone: [\"*\"]")))
            continue
        needed = next((scope for prefix, scope in SUBSCRIBE_SCOPES.items()
                       if isinstance(value, str) and value.startswith(prefix)), None)
        if value not in SUBSCRIBABLE:
            problems.append((f"events[{index}]", Words("unknown event type %(value)r; one of %(choices)s",
                                                        value=value, choices=", ".join(SUBSCRIBABLE))))
        elif needed is not None and needed not in held:
            problems.append((f"events[{index}]", Words("%(value)s is sent only to credentials with the scope "
                                                        "%(scope)s", value=value, scope=needed)))
        elif value in chosen[:index]:
            problems.append((f"events[{index}]", Words("%(value)s is listed twice", value=value)))
    if problems:
        raise ValidationFailed(Words("invalid events"), problems)
    return list(chosen)


RATE_LIMIT_MAX = 10_000  # deliveries a second an endpoint may ask for at most
UNCHANGED = object()  # update_endpoint's "not given" (None clears a rate limit)


def clean_rate_limit(value: object) -> int | None:
    """A receiver's pace (v1.3): a whole number of deliveries a second, 1 to
    RATE_LIMIT_MAX, or None for none; anything else is refused naming `rate_limit`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= RATE_LIMIT_MAX:
        raise ValidationFailed(Words("invalid rate limit"), [
            ("rate_limit", Words("a whole number of deliveries a second, 1 to %(limit)s, or null for none",
                                 limit=f"{RATE_LIMIT_MAX:,}"))])
    return value


def types_received(subscribed: str, kind: str, credential_id: str) -> frozenset[str]:
    """The event types an endpoint receives, from its stored `events` (space-separated) and
    its owner (the credential's kind and id): those named; for `*`, every type but `ping`,
    one a scope gates only while the owner holds that scope now."""
    return received_by([(subscribed, kind, credential_id)])[0]


def received_by(endpoints: list[tuple[str, str, str]]) -> list[frozenset[str]]:
    """`types_received` of many endpoints ((events, owner's kind, owner's id) each), the
    owners of `*` endpoints read in one query per kind: once a delivery round."""
    every = {(kind, credential_id) for subscribed, kind, credential_id in endpoints
             if EVERY_TYPE in subscribed.split()}
    held: dict[tuple[str, str], frozenset[str]] = {}
    for kind in {kind for kind, _ in every}:
        model = ApiKey if kind == "api_key" else OAuthConnection
        ids = [credential_id for owner_kind, credential_id in every if owner_kind == kind]
        held.update({(kind, row_id): frozenset(scopes.split())
                     for row_id, scopes in tuple_rows(model.select(model.id, model.scopes).where(model.id.in_(ids)))})
    return [frozenset(subscribed.split()) if (kind, credential_id) not in every
            else _every_type(held.get((kind, credential_id), frozenset()))
            for subscribed, kind, credential_id in endpoints]


def _every_type(held: frozenset[str]) -> frozenset[str]:
    return frozenset(event_type for event_type in SUBSCRIBABLE if event_type != "ping" and all(
        scope in held for prefix, scope in SUBSCRIBE_SCOPES.items() if event_type.startswith(prefix)))


def form(endpoint: WebhookEndpoint) -> dict[str, Any]:
    """The endpoint as its owner sees it (DESIGN.md, Webhook endpoint); `rate_limit` is
    v1.3's (the API leaves it out while v1.3 is not live)."""
    return {
        "id": endpoint.id,
        "url": endpoint.url,
        "events": endpoint.events.split(),
        "active": bool(endpoint.active),
        "disabled_reason": endpoint.disabled_reason,
        "rate_limit": endpoint.rate_limit,
        "created_at": format_utc(endpoint.created_at),
        "updated_at": format_utc(endpoint.updated_at),
    }


def create_endpoint(owner: Owner, target: Target, chosen: object, runtime: Runtime, *,
                    rate_limit: object = None) -> tuple[WebhookEndpoint, str]:
    """A new endpoint of the principal `owner` for a judged URL (urls.check_url), paced
    at `rate_limit` deliveries a second if given. Returns (endpoint, the secret, shown
    this once)."""
    chosen = clean_events(chosen, scopes_of(owner.kind, owner.credential_id), every=runtime.beyond_contract)
    rate_limit = clean_rate_limit(rate_limit)
    secret = new_secret()
    now = to_db(runtime.now())
    endpoint = WebhookEndpoint.create(
        id=new_id("whk"), company=owner.company.id, credential_kind=owner.kind, credential_id=owner.credential_id,
        url=target.url, events=" ".join(chosen), active=True, secret_sealed=_sealer(runtime).seal(secret),
        rate_limit=rate_limit, created_at=now, updated_at=now,
    )
    return endpoint, secret


@dataclass(frozen=True)
class KeyOwner:
    """A company's API key as the owner of an endpoint made in the console."""

    company: Company
    credential_id: str
    kind: str = "api_key"


def create_for_key(company: Company, key_id: str, target: Target, chosen: list[str],
                   runtime: Runtime, *, rate_limit: object = None) -> tuple[WebhookEndpoint, str]:
    """A new endpoint owned by one of the company's keys (the console): an active key
    holding `webhooks:manage`, as it would need to make the endpoint through the API,
    which is where the partner then sees it. Returns (endpoint, the secret, shown once)."""
    key = ApiKey.get_or_none(ApiKey.id == key_id, ApiKey.company == company.id, ApiKey.revoked_at.is_null())
    if key is None or MANAGE_SCOPE not in key.scopes.split():
        raise ValidationFailed(Words("invalid webhook endpoint"), [
            ("key", Words("an active key of this company with %(scope)s: the endpoint is that key's",
                          scope=MANAGE_SCOPE))])
    return create_endpoint(KeyOwner(company, key.id), target, chosen, runtime, rate_limit=rate_limit)


def scopes_of(kind: str, credential_id: str) -> frozenset[str]:
    """The scopes the credential owning an endpoint holds now: a key's, or an OAuth
    connection's (app/domain/credentials.py names the kinds)."""
    model = ApiKey if kind == "api_key" else OAuthConnection
    row = model.select(model.scopes).where(model.id == credential_id).first()
    return frozenset(row.scopes.split()) if row is not None else frozenset()


def managing_keys(company_id: str) -> list[ApiKey]:
    """The company's active keys that may own endpoints, by name."""
    return [key for key in ApiKey.select().where(ApiKey.company == company_id, ApiKey.revoked_at.is_null())
            .order_by(ApiKey.name, ApiKey.id) if MANAGE_SCOPE in key.scopes.split()]


def owned_by(owner: Owner) -> Query:
    """The endpoints a principal sees: its own (the API)."""
    return WebhookEndpoint.select().where(
        WebhookEndpoint.company == owner.company.id, WebhookEndpoint.credential_kind == owner.kind,
        WebhookEndpoint.credential_id == owner.credential_id)


def of_company(company_id: str) -> Query:
    """Every endpoint of a company, whoever owns it (the console)."""
    return WebhookEndpoint.select().where(WebhookEndpoint.company == company_id)


def list_endpoints(scope: Query) -> list[WebhookEndpoint]:
    return list(scope.order_by(WebhookEndpoint.created_at, WebhookEndpoint.id))


def with_owners(company_id: str) -> list[tuple[WebhookEndpoint, ApiKey | None]]:
    """[(endpoint, the owning key or None)] of a company, for the console."""
    found = list_endpoints(of_company(company_id))
    owners = {key.id: key for key in ApiKey.select().where(
        ApiKey.id.in_([e.credential_id for e in found if e.credential_kind == "api_key"]))}
    return [(endpoint, owners.get(endpoint.credential_id)) for endpoint in found]


def get_endpoint(scope: Query, endpoint_id: str) -> WebhookEndpoint:
    endpoint: WebhookEndpoint | None = scope.where(WebhookEndpoint.id == endpoint_id).first()
    if endpoint is None:
        raise NotFound(Words("no webhook endpoint %(endpoint)s", endpoint=endpoint_id))
    return endpoint


def update_endpoint(scope: Query, endpoint_id: str, runtime: Runtime, *, target: Target | None = None,
                    chosen: object = None, active: bool | None = None,
                    rate_limit: object = UNCHANGED) -> WebhookEndpoint:
    """Change the URL (judged), the events, the state or the pace (`rate_limit`; None
    removes it). `active: true` re-enables (and clears the reason and the failure
    streak); `false` disables with reason `manual`."""
    values: dict[str, object] = {}
    if rate_limit is not UNCHANGED:
        values["rate_limit"] = clean_rate_limit(rate_limit)
    if target is not None:
        values["url"] = target.url
    if active is True:
        values.update(active=True, disabled_reason=None, failing_since=None, warned_at=None)
    elif active is False:
        values.update(active=False, disabled_reason="manual")
    with write_transaction():
        endpoint = locked(scope.where(WebhookEndpoint.id == endpoint_id))
        if endpoint is None:
            raise NotFound(Words("no webhook endpoint %(endpoint)s", endpoint=endpoint_id))
        if chosen is not None:
            values["events"] = " ".join(clean_events(chosen, scopes_of(endpoint.credential_kind,
                                                                       endpoint.credential_id),
                                                     every=runtime.beyond_contract))
        if active is False and not endpoint.active:
            values.pop("disabled_reason")  # already disabled: keep why
        if values:
            values["updated_at"] = to_db(runtime.now())
            WebhookEndpoint.update(**values).where(WebhookEndpoint.id == endpoint.id).execute()
    return WebhookEndpoint.get_by_id(endpoint.id)


def delete_endpoint(scope: Query, endpoint_id: str) -> None:
    """Remove the endpoint; its deliveries, pending ones included, go with it."""
    with write_transaction():  # reads, then writes: on SQLite it must hold the write lock from the start
        endpoint = get_endpoint(scope, endpoint_id)
        endpoint.delete_instance(recursive=True)


def rotate_secret(scope: Query, endpoint_id: str, runtime: Runtime, *,
                  expire_previous_in: timedelta = ROTATION_OVERLAP,
                  replacing: str | None = None) -> tuple[WebhookEndpoint, str]:
    """A new signing secret for the endpoint. The one it replaces signs beside it for
    `expire_previous_in` (0..ROTATION_OVERLAP; 0: it stops at once); one replaced before
    stops now. Returns (endpoint, the new secret, shown this once).

    Under the endpoint's row lock, so two rotations at once are one after the other:
    each new secret is the endpoint's, or the one the later rotation replaced, and none
    is lost unseen. `replacing` is the `secret_version` the asker saw (the console): a
    second click that finds it replaced already is a Conflict, not another rotation."""
    if not timedelta(0) <= expire_previous_in <= ROTATION_OVERLAP:
        raise ValidationFailed(Words("invalid rotation"), [
            ("expire_previous_in", Words("0 to %(limit)s seconds", limit=int(ROTATION_OVERLAP.total_seconds())))])
    secret = new_secret()
    sealed = _sealer(runtime).seal(secret)
    now = runtime.now()
    with write_transaction():
        endpoint = locked(scope.where(WebhookEndpoint.id == endpoint_id))
        if endpoint is None:
            raise NotFound(Words("no webhook endpoint %(endpoint)s", endpoint=endpoint_id))
        if replacing is not None and secret_version(endpoint) != replacing:
            raise Conflict(Words("this endpoint's signing secret was replaced a moment ago"))
        overlap = expire_previous_in > timedelta(0)
        WebhookEndpoint.update(
            secret_sealed=sealed, previous_secret_sealed=endpoint.secret_sealed if overlap else None,
            previous_secret_expires_at=to_db(now + expire_previous_in) if overlap else None, updated_at=to_db(now),
        ).where(WebhookEndpoint.id == endpoint.id).execute()
    return WebhookEndpoint.get_by_id(endpoint.id), secret


def secret_version(endpoint: WebhookEndpoint) -> str:
    """Which secret the endpoint has now, safe to show: 16 hex digits of the hash of its
    sealed form (a random sealing of 32 random bytes; it reveals nothing usable)."""
    return hashlib.sha256(endpoint.secret_sealed.encode()).hexdigest()[:16]


def previous_secret_until(endpoint: WebhookEndpoint, now: datetime) -> datetime | None:
    """Until when the secret the last rotation replaced still signs; None if none does."""
    until = from_db(endpoint.previous_secret_expires_at)
    return until if endpoint.previous_secret_sealed is not None and until is not None and until > now else None


def forget_expired_secrets(now: datetime) -> int:
    """Daily: replaced secrets past their overlap are dropped, not kept sealed for ever."""
    forgotten: int = (WebhookEndpoint.update(previous_secret_sealed=None, previous_secret_expires_at=None)
                      .where(WebhookEndpoint.previous_secret_expires_at <= to_db(now)).execute())
    return forgotten


def send_test(endpoint: WebhookEndpoint, runtime: Runtime) -> str:
    """Queue a `ping` to this endpoint alone (it is nobody's subscription); a disabled
    endpoint gets it too, so a fixed receiver can be checked before re-enabling."""
    with write_transaction():
        return events.emit(Company.get_by_id(endpoint.company_id), "ping", {"webhook_id": endpoint.id}, runtime)


def disable_for_credential(kind: str, credential_id: str, reason: str, now: datetime) -> int:
    """Inside a revocation's transaction: the credential's active endpoints stop."""
    stopped: int = (WebhookEndpoint.update(active=False, disabled_reason=reason, updated_at=to_db(now))
                    .where(WebhookEndpoint.credential_kind == kind, WebhookEndpoint.credential_id == credential_id,
                           WebhookEndpoint.active == True)  # noqa: E712
                    .execute())
    return stopped


class EndpointNotice(NamedTuple):
    """What the company's owners are told about an endpoint (app/notices.py writes it in
    each one's language)."""

    recipients: list[tuple[str, str | None]]  # (email, language chosen)
    kind: str  # failing (three days), disabled (seven days), gone (its receiver answered 410)
    endpoint_id: str
    url: str
    failing_since: datetime | None
    timezone: str = "UTC"  # the company's: the notice says when in its local time
    country: str | None = None


def endpoint_notice(endpoint_id: str, kind: str) -> EndpointNotice | None:
    """What to tell the company's owners that an endpoint is `failing`, was `disabled`,
    or is `gone`; None if the endpoint no longer exists."""
    endpoint = WebhookEndpoint.get_or_none(WebhookEndpoint.id == endpoint_id)
    if endpoint is None:
        return None
    company = Company.get_by_id(endpoint.company_id)
    return EndpointNotice(owners_of(endpoint.company_id), kind, endpoint.id, endpoint.url,
                          from_db(endpoint.failing_since), company.timezone, company.country)


def disabled_counts() -> dict[str, int]:
    """{disabled_reason: endpoints} of the endpoints not active."""
    return dict(tuple_rows(WebhookEndpoint.select(WebhookEndpoint.disabled_reason, fn.COUNT(WebhookEndpoint.id))
                           .where(~WebhookEndpoint.active).group_by(WebhookEndpoint.disabled_reason)))
