"""The integrations page: Partner API status, API keys, connected OAuth apps (preview),
and a sandbox's trigger panel.

Everything here needs `integrations.manage` in the current company.

A new key's secret is shown once, on the page the create form redirects to (so that
reloading it neither posts the form again nor shows the secret again): see show_once in
app/console/common.py.
"""

from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.console.common import console_blueprint, requires, said, sentence, show_errors, show_once, take_shown_once
from app.console.forms import CreateKeyForm, TriggerForm
from app.console.scopes import SCOPE_WORDS
from app.domain import credentials, sandbox_triggers
from app.domain.access import keys
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.oauth import connections as oauth
from app.extensions import runtime

bp = console_blueprint("integrations", url_prefix="/console/integrations")


@bp.get("")
@requires("integrations.manage")
def page():
    key_id, secret = take_shown_once("key")
    new_key = next((key for key in keys.list_keys(g.company.id) if key.id == key_id), None) if secret else None
    return _render(CreateKeyForm(), new_key=new_key, new_secret=secret if new_key else None)


@bp.post("/keys")
@requires("integrations.manage")
def create_key():
    form = CreateKeyForm()
    if not form.validate():
        return _render(form), 422
    try:
        key, secret = keys.create_key(g.company, form.scopes.data or [], runtime(), name=form.name.data.strip(),
                                      created_by=g.user)
    except ValidationFailed as exc:  # the name is one line of text; the domain says why not, on its field
        show_errors(form, exc, rest="name")
        return _render(form), 422
    current_app.logger.info("console key created key=%s company=%s user=%s", key.id, g.company.id, g.user.id)
    show_once("key", key.id, secret)
    return redirect(url_for("integrations.page"))


@bp.post("/keys/<key_id>/revoke")
@requires("integrations.manage")
def revoke_key(key_id):
    key = credentials.revoke_key(key_id, runtime(), company=g.company.id)
    current_app.logger.info("console key revoked key=%s company=%s user=%s", key.id, g.company.id, g.user.id)
    flash(_("Revoked “%(name)s” (%(prefix)s…). Requests with it now get 401.", name=key.name,
            prefix=key.display_prefix), "success")
    return redirect(url_for("integrations.page"))


@bp.post("/connected-apps/<app_id>/revoke")
@requires("integrations.manage")
def disconnect_app(app_id):
    """The customer's Revoke of a connected app: every connection it holds to this
    company ends, its tokens stop at once, and the webhook endpoints it made are disabled."""
    app = oauth.disconnect_app(g.company.id, app_id, runtime())
    current_app.logger.info("console app disconnected app=%s company=%s user=%s", app.id, g.company.id, g.user.id)
    flash(_("Disconnected “%(name)s”. Its tokens stop working at once; it must be approved again.", name=app.name),
          "success")
    return redirect(url_for("integrations.page") + "#connected-apps")


@bp.post("/trigger")
@requires("integrations.manage")
def trigger():
    form = TriggerForm()
    if form.validate():
        try:
            done = sandbox_triggers.trigger(g.company, form.event_type.data, runtime())
        except DomainError as exc:
            flash(said(exc.message), "error")
        else:
            flash(_("%(event)s: %(done)s The event is in the outbox for delivery.", event=form.event_type.data,
                    done=sentence(said(done))), "success")
    else:
        flash(_("Choose an event type."), "error")
    return redirect(url_for("integrations.page") + "#trigger")


def _render(form, **extra):
    # Revoked keys stay on record but out of the way, unless asked for (`?revoked=1`).
    every_key = keys.list_keys(g.company.id)
    show_revoked = request.args.get("revoked") == "1"
    shown = every_key if show_revoked else [key for key in every_key if key.revoked_at is None]
    return render_template(
        "console/integrations.html", form=form, keys=shown, show_revoked=show_revoked,
        revoked_count=sum(key.revoked_at is not None for key in every_key),
        scopes=keys.SCOPES, scope_words=SCOPE_WORDS, trigger_form=TriggerForm(formdata=None),
        connected_apps=oauth.connected_apps(g.company.id) if current_app.config["OAUTH_PREVIEW"] else None, **extra,
    )
