"""What every console page shares: who is signed in, in which company, may they, and
the headers and error pages that keep a page with secrets and personal data safe.

The signed-in user and their current company are loaded once per request into `g`:
`g.user`, `g.memberships` [(membership, company)], `g.company`, `g.permissions`.
"""

import functools
from datetime import datetime
from urllib.parse import urlencode, urlsplit
from zoneinfo import ZoneInfo

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, CSRFProtect
from markupsafe import Markup
from peewee import IntegrityError, PeeweeException
from werkzeug.exceptions import HTTPException

from app.domain.access import signin
from app.domain.access import users as access
from app.domain.kernel.clock import format_utc, from_db
from app.domain.kernel.errors import DomainError, Words
from app.domain.kernel.sealing import Sealer
from app.extensions import runtime
from app.i18n import (
    COOKIE,
    RIGHT_TO_LEFT,
    amount,
    chosen,
    current_language,
    date_time,
    isolated,
    keep_choice,
    money,
)
from app.i18n import lazy_text as _l
from app.telemetry import log_server_error, route_of

csrf = CSRFProtect()

# No inline script or style anywhere: the console's own files only.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; form-action 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    # Pages show API keys once, salaries and IBANs: never from a cache.
    "Cache-Control": "no-store",
}
ERROR_MESSAGES = {
    400: _l("The request was not valid."),
    403: _l("Your role in this company does not allow this page."),
    404: _l("There is no such page or record in this company."),
    405: _l("That action is not available here."),
    413: _l("The upload is too large."),
    429: _l("Too many attempts. Wait a few minutes and try again."),
}

assets = Blueprint("console_assets", __name__, static_folder="static", static_url_path="/console/static")


def console_blueprint(name, url_prefix=None):
    """A console blueprint: sign-in state loaded, every POST CSRF-checked, safe headers,
    and HTML error pages."""
    blueprint = Blueprint(name, __name__, url_prefix=url_prefix, template_folder="templates")
    blueprint.before_request(_before_request)
    blueprint.after_request(_security_headers)
    blueprint.register_error_handler(CSRFError, _csrf_error)
    blueprint.register_error_handler(HTTPException, _error_page)
    blueprint.register_error_handler(DomainError, _domain_error)
    blueprint.register_error_handler(IntegrityError, _integrity_error)
    return blueprint


def _before_request():
    # `?lang=` chooses the language of this request's page only (app/i18n.py): a GET
    # changes nothing; the switch keeps a choice, by a POST (signin.choose_language).
    if request.method == "POST":
        csrf.protect()
    load_signed_in_user()


def keep_language(language):
    """The language switch's choice kept: this browser's cookie, and the signed-in user's
    profile, so it follows them to another browser; then the page it was made on."""
    if g.user is not None and g.user.language != language:
        access.choose_language(g.user, language)
    return keep_choice(redirect(safe_next(request.form.get("next")) or url_for("signin.home")), language)


def here_without_language():
    """This page's path and query, less `lang`: where the language switch comes back to."""
    rest = [(name, value) for name, value in request.args.items(multi=True) if name != "lang"]
    return request.path + ("?" + urlencode(rest) if rest else "")


def load_signed_in_user():
    g.user, g.memberships, g.company, g.permissions = None, [], None, frozenset()
    token = session.get("session")
    if not token:
        return
    user = signin.user_of_session(token, runtime())
    if user is None:
        session.clear()  # signed out, password changed, ended by an operator, or expired
        return
    g.user = user
    g.memberships = access.memberships_of(user)
    chosen = session.get("company_id")
    current = next((pair for pair in g.memberships if pair[1].id == chosen), None)
    current = current or (g.memberships[0] if g.memberships else None)
    if current is not None:
        membership, g.company = current
        g.permissions = access.permissions_of(membership)


def sign_in(user):
    # A fresh session: nothing from before signing in carries over. The cookie holds
    # only the session's token; the server decides whether it still holds.
    session.clear()
    session.permanent = True
    session["session"] = signin.start_session(user, runtime())
    made_here = chosen(request.cookies.get(COOKIE))
    if user.language is None and made_here:  # a choice made before signing in is theirs
        access.choose_language(user, made_here)


def sign_out():
    signin.end_session(session.get("session"), runtime())
    session.clear()


def signed_in(view):
    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        if g.user is None:
            return redirect(url_for("signin.sign_in", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapper


def requires(permission):
    """Signed in, with a current company in which the user's role grants `permission`;
    others get 403."""

    def decorator(view):
        @functools.wraps(view)
        @signed_in
        def wrapper(*args, **kwargs):
            if g.company is None or permission not in g.permissions:
                abort(403)
            return view(*args, **kwargs)

        return wrapper

    return decorator


def show_once(kind, record_id, secret):
    """Carry a new secret (an API key, an app's client secret) across the redirect to
    the page that shows it: sealed in the session cookie, with a key derived from
    SECRET_KEY for this purpose, so that reloading that page neither posts the form
    again nor shows the secret again."""
    session["shown_once"] = {"kind": kind, "id": record_id, "company": g.company.id,
                             "sealed": _once_sealer().seal(secret)}


def take_shown_once(kind):
    """(record id, secret) that show_once carried for this kind in the current company,
    taken out of the session; (None, None) if there is none. The secret is None if it
    was sealed under another SECRET_KEY: the record exists, its secret is gone."""
    held = session.get("shown_once")
    if not held or held.get("kind") != kind or held.get("company") != g.company.id:
        return None, None
    session.pop("shown_once")
    try:
        return held["id"], _once_sealer().open(held["sealed"])
    except (ValueError, KeyError):
        return held.get("id"), None


def _once_sealer():
    return Sealer([current_app.config["SECRET_KEY"]], purpose="console: a new secret, shown once")


def safe_next(target):
    """A redirect target from a query string, only if it stays on this site's console
    (or its OAuth consent page)."""
    if not target:
        return None
    parts = urlsplit(target)
    on_console = parts.path.startswith("/console") or parts.path == "/oauth/authorize"
    if parts.scheme or parts.netloc or not on_console or "\\" in target:
        return None
    if any(ord(character) < 0x20 or ord(character) == 0x7F for character in target):
        return None  # a line break would reach the Location header
    return target


def _security_headers(response):  # error pages of these blueprints pass through here too
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _csrf_error(exc):
    current_app.logger.warning("console form refused: %s (%s %s) request_id=%s", exc.description, request.method,
                               route_of(), g.get("request_id"))
    message = _("This form could not be checked: it may have been open for too long, or the browser did not send "
                "this site's cookie. Nothing was changed. Reload the page and send it again; if it keeps "
                "happening, give your administrator the reference %(reference)s.", reference=g.get("request_id"))
    return _render_error(400, message)


def error_page(exc: HTTPException) -> Response:
    """The console's page for an HTTP error raised outside its blueprints (an address no
    route has, a method a page does not take), in the reader's language, with the
    console's headers (and the methods the address does take, for a 405)."""
    body, status = _error_page(exc)
    response = make_response(body, status)
    response.headers.extend([(name, value) for name, value in exc.get_headers() if name.lower() == "allow"])
    return _security_headers(response)


def _error_page(exc):
    if exc.code is None or exc.code >= 500:
        if not isinstance(getattr(exc, "original_exception", None), BaseException):
            log_server_error()  # an exception's traceback is logged already, once (PartnerFlask.log_exception)
        return _render_error(500, _("Something went wrong on our side, and it is logged. Try again in a minute; "
                                    "if it keeps happening, give your administrator the reference %(reference)s.",
                                    reference=g.get("request_id")))
    # A description given where the error was raised says what was wrong; a class's own
    # default gets our words.
    told = exc.description if exc.description != type(exc).description else None
    return _render_error(exc.code, told or ERROR_MESSAGES.get(exc.code, exc.description))


def _domain_error(exc):
    """A refusal no view turned into a message of its own (another company's record, say)."""
    status = {"not_found": 404, "conflict": 409, "validation_failed": 422}.get(exc.code, 400)
    # A refusal the catalogs cannot say in another language is said in general there.
    told = said(exc.message) if isinstance(exc.message, Words) or current_language() == "en" else None
    return _render_error(status, told or ERROR_MESSAGES.get(status))


def _integrity_error(exc):
    """A unique index refused what another click or user stored a moment before."""
    current_app.logger.warning("console conflict request_id=%s %s %s: %s", g.get("request_id"), request.method,
                               route_of(), exc)
    return _render_error(409, _("Someone changed this at the same moment. Nothing of yours was saved; "
                                "reload the page to see what is stored now."))


def _render_error(status, message):
    if not hasattr(g, "user"):
        try:
            load_signed_in_user()
        except PeeweeException:  # the database is the fault: the page still renders, signed out
            pass
    return render_template("console/error.html", status=status, message=message), status


def refusal(exc: DomainError) -> str:
    """What a refused action says on its page: each field's problem, or the refusal."""
    errors = getattr(exc, "errors", None)
    return "; ".join(said(message) for _path, message in errors) if errors else said(exc.message) or _("Refused.")


def show_errors(form, exc: DomainError, fields: dict[str, str] | None = None, *, rest: str | None = None) -> None:
    """Each of a refusal's problems beside the form field it names: the domain's path
    (`events.2` is the `events` field's), or `fields[path]` where the form calls it
    otherwise; the rest beside the field `rest`, or above the form."""
    for path, told in getattr(exc, "errors", None) or [("", exc.message)]:
        message = said(told)
        name = (fields or {}).get(path, path.split(".")[0])
        if not (name and name in form):
            name = rest
        if name is not None:
            form[name].errors = [*form[name].errors, message]
        else:
            form.form_errors.append(f"{path}: {message}" if path else message)


def said(message: str) -> str:
    """The domain's words (a refusal, a field's problem) in the page's language: from the
    catalogs where the domain wrote them as Words; as they are (English) otherwise."""
    if not isinstance(message, Words):
        return message
    right_to_left = current_language() in RIGHT_TO_LEFT
    values = {}
    for name, value in message.values.items():
        if isinstance(value, Words):  # "`name` must not be empty" inside a bigger sentence
            value = said(value)
        elif right_to_left and f"%({name})s" in message.template:
            value = f"\u2066{value}\u2069"  # an ID or a code, left to right inside the sentence
        values[name] = value
    return _(message.template, **values) if values else _(message.template)


def sentence(text: str) -> str:
    """`text` ending in one full stop: a name or message that ends in one already ("Gulf
    Trading Co.", Authlib's "... in request.") gets no second."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def local_time(moment, timezone=None):
    """Stored (naive UTC), aware, or API (`...Z`) time, shown in the company's time zone (or
    `timezone`) and saying which: `2026-11-21 12:00 +03`, the zone's name and UTC on hover."""
    if moment is None or moment == "":
        return "—"
    zone_name = timezone or (g.company.timezone if g.get("company") else "UTC")
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    moment = from_db(moment) if moment.tzinfo is None else moment
    local = moment.astimezone(ZoneInfo(zone_name))
    return Markup('<time datetime="{}" title="{} · {}">{} <bdi dir="ltr">{}</bdi></time>').format(
        format_utc(moment), zone_name, format_utc(moment)[:16].replace("T", " ") + " UTC",
        date_time(local), local.strftime("%Z"))


def register_filters(app):
    app.add_template_filter(local_time, "local")
    app.add_template_filter(isolated, "isolated")  # flashes, refusals, help: no invisible marks copied

    app.add_template_filter(money, "money")
    app.add_template_filter(amount, "amount")  # for reading, or as a form field's value (`grouped=False`)

    @app.context_processor
    def console_globals():
        return {"can": lambda permission: permission in g.get("permissions", ()),
                "here_without_language": here_without_language}
