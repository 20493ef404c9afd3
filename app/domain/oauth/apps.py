"""OAuth apps (clients), registered under an organisation: a company.

The app's id is its `client_id`. Its client secret (`svc_cs_` and 40 base62 characters)
is shown once and stored as a SHA-256; rotating it stops the old one at once. Redirect
URIs are exact strings: `https://`, or `http://` on a loopback address (127.0.0.0/8,
[::1]) for native apps (RFC 8252), never with a fragment or a user name.

A new app is in development mode: it may connect only to sandbox companies whose owner
is a member of its organisation. An operator moves it to production mode.
"""

import hmac
import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from peewee import Expression, fn

from app.domain.access.keys import parse_scopes
from app.domain.access.principal import hash_secret
from app.domain.kernel.clock import Clock, to_db
from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.ids import new_id, random_token
from app.domain.kernel.text import line_problem, text_problem
from app.models import Company, Membership, OAuthApp, User
from app.models.base import locked, write_transaction

MODES = ("development", "production")
SECRET_PREFIX = "svc_cs_"
MAX_REDIRECT_URI = 2048
# What RFC 3986 lets a URI hold, and so what an RFC 6749 error may quote back: printable
# ASCII but the space, `"` and `\`. A redirect_uri outside it can never match a registered one.
URI_CHARACTER = re.compile(r'[!#-\[\]-~]')


def clean_redirect_uris(uris: Any) -> list[str]:
    """The redirect URIs as given; 422 naming each one that breaks a rule."""
    if isinstance(uris, str) or not uris:
        raise ValidationFailed(Words("invalid redirect URIs"), [("redirect_uris", Words("at least one redirect URI"))])
    problems = []
    for index, uri in enumerate(uris):
        problem = _redirect_problem(uri)
        if problem is None and uri in uris[:index]:
            problem = Words("listed twice")
        if problem:
            problems.append((f"redirect_uris.{index}", problem))
    if problems:
        raise ValidationFailed(Words("invalid redirect URIs"), problems)
    return list(uris)


def _redirect_problem(uri: object) -> Words | None:
    if not isinstance(uri, str) or not uri:
        return Words("a URI")
    if len(uri) > MAX_REDIRECT_URI:
        return Words("at most %(limit)s characters", limit=MAX_REDIRECT_URI)
    if not all(URI_CHARACTER.fullmatch(ch) for ch in uri):
        return Words("printable ASCII only, no spaces, quotes or backslashes (percent-encode anything else)")
    try:
        parts = urlsplit(uri)
        host = parts.hostname
    except ValueError:
        return Words("not a URI")
    if "#" in uri:
        return Words("no fragment (#...)")
    if parts.username is not None or parts.password is not None:
        return Words("no user name or password")
    if not host:
        return Words("an absolute URI with a host")
    if parts.scheme == "https":
        return None
    if parts.scheme == "http":
        try:
            if ipaddress.ip_address(host).is_loopback:
                return None
        except ValueError:
            pass
        return Words("http:// only on a loopback address (127.0.0.1 or [::1]) for a native app; otherwise https://")
    return Words("https://, or http:// on a loopback address")


def create_app(organisation: Company, name: Any, redirect_uris: Any, scopes: Any, clock: Clock, *,
               created_by: User | None = None) -> tuple[OAuthApp, str]:
    """A new app in development mode; returns (OAuthApp, the client secret shown once).
    Its name is one line of text (kernel/text.py)."""
    problems: list[tuple[str, str]] = []
    unfit = line_problem(name) if isinstance(name, str) else None
    if unfit is not None:  # customers read it on the consent page and in Connected apps
        problems.append(("name", unfit))
    elif not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        problems.append(("name", Words("a name of 1 to 100 characters")))
    try:
        uris = clean_redirect_uris(redirect_uris)
    except ValidationFailed as exc:
        problems += exc.errors
    try:
        chosen = parse_scopes(scopes)
    except ValidationFailed as exc:
        problems += exc.errors
    if problems:
        raise ValidationFailed(Words("invalid app"), problems)
    secret = _new_secret()
    with write_transaction():
        # The organisation's row, locked, lets one registration at a time judge the name.
        locked(Company.select(Company.id).where(Company.id == _id_of(organisation)))
        if _named(_id_of(organisation), name.strip()):
            raise ValidationFailed(Words("invalid app"), [("name", Words(
                "this organisation has an app named “%(name)s” already; choose another name", name=name.strip()))])
        app = OAuthApp.create(id=new_id("app"), organisation=organisation, name=name.strip(),
                              redirect_uris="\n".join(uris), scopes=" ".join(chosen), mode="development",
                              secret_hash=hash_secret(secret), created_by=created_by, created_at=to_db(clock.now()))
    return app, secret


def _named(organisation_id: str, name: str) -> bool:
    """Whether the organisation has an app of this name, whatever its case: customers
    tell apps apart by name on the consent page and in Connected apps."""
    return (OAuthApp.select(OAuthApp.id)
            .where(OAuthApp.organisation == organisation_id, fn.LOWER(OAuthApp.name) == name.lower()).exists())


def _id_of(organisation: Company | str) -> str:
    return organisation if isinstance(organisation, str) else organisation.id


def rotate_secret(client_id: str, clock: Clock, *, organisation_id: str | None = None,
                  replacing: str | None = None) -> str:
    """A new client secret, shown once; the old one stops at once.

    `replacing` is the `secret_version` of the secret the asker saw: a second click (or
    another admin) that finds it already replaced is a Conflict, not another rotation
    that would leave the first new secret dead on the screen."""
    condition = _this(client_id, organisation_id)
    if replacing is not None:
        app = get_app(client_id, organisation_id)
        if secret_version(app) != replacing:
            raise Conflict(Words("this app's client secret was replaced a moment ago"))
        condition &= OAuthApp.secret_hash == app.secret_hash
    secret = _new_secret()
    changed: int = (OAuthApp.update(secret_hash=hash_secret(secret), secret_rotated_at=to_db(clock.now()))
               .where(condition).execute())
    if not changed:
        if replacing is not None and find_app(client_id) is not None:
            raise Conflict(Words("this app's client secret was replaced a moment ago"))
        raise NotFound(Words("no OAuth app %(app)s", app=client_id))
    return secret


def secret_version(app: OAuthApp) -> str:
    """Which client secret the app now has, safe to show: the first 16 hex digits of
    its hash (the secret is 238 random bits; this reveals nothing usable)."""
    return app.secret_hash[:16]


def set_mode(client_id: str, mode: str) -> OAuthApp:
    """An operator's move between development and production mode."""
    if mode not in MODES:
        raise ValidationFailed(Words("invalid mode"), [("mode", Words("one of %(choices)s", choices=", ".join(MODES)))])
    if not OAuthApp.update(mode=mode).where(OAuthApp.id == client_id).execute():
        raise NotFound(Words("no OAuth app %(app)s", app=client_id))
    return get_app(client_id)


def get_app(client_id: str, organisation_id: str | None = None) -> OAuthApp:
    app = OAuthApp.get_or_none(_this(client_id, organisation_id))
    if app is None:
        raise NotFound(Words("no OAuth app %(app)s", app=client_id))
    return app


def find_app(client_id: object) -> OAuthApp | None:
    """The app with this client id, or None (also for text no id can hold: a NUL would
    fail PostgreSQL's query, and HTTP Basic credentials reach here unjudged)."""
    if not isinstance(client_id, str) or text_problem(client_id):
        return None
    return OAuthApp.get_or_none(OAuthApp.id == client_id)


def apps_of(organisation_id: str) -> list[OAuthApp]:
    return list(OAuthApp.select().where(OAuthApp.organisation == organisation_id).order_by(OAuthApp.created_at))


def authenticate(client_id: object, secret: object) -> OAuthApp | None:
    """The app if `secret` is its client secret, else None (unknown id or wrong secret)."""
    app = OAuthApp.get_or_none(OAuthApp.id == (client_id or ""))
    return app if app is not None and secret_matches(app, secret) else None


def secret_matches(app: OAuthApp, secret: object) -> bool:
    """Whether `secret` is this (already loaded) app's client secret; constant time."""
    return isinstance(secret, str) and hmac.compare_digest(app.secret_hash, hash_secret(secret))


def redirect_uris_of(app: OAuthApp) -> list[str]:
    return app.redirect_uris.split("\n")


def may_reach(app: OAuthApp, company: Company) -> bool:
    """Whether the app may connect to `company`: anywhere in production mode; in
    development mode only a sandbox whose owner is a member of the app's organisation."""
    if app.mode == "production":
        return True
    if not company.sandbox or company.sandbox_owner_id is None:
        return False
    return Membership.select().where(Membership.company == app.organisation_id,
                                     Membership.user == company.sandbox_owner_id).exists()


def form(app: OAuthApp) -> dict[str, Any]:
    return {"client_id": app.id, "name": app.name, "organisation_id": app.organisation_id,
            "redirect_uris": redirect_uris_of(app), "scopes": app.scopes.split(), "mode": app.mode}


def _this(client_id: str, organisation_id: str | None) -> Expression:
    """This app, of this organisation (None: an operator's command names the app alone)."""
    condition = OAuthApp.id == client_id
    return condition if organisation_id is None else condition & (OAuthApp.organisation == organisation_id)


def _new_secret() -> str:
    return SECRET_PREFIX + random_token(40)
