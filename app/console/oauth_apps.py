"""OAuth apps (preview): the apps registered under the current company (the
organisation), "Register an app", and each app's "Rotate secret".

Everything here needs `integrations.manage`, and the page is there only while
OAUTH_PREVIEW is on. A client secret is shown once, on the page the form redirects to
(show_once in app/console/common.py). A rotation names the secret it replaces, so a
second click does not rotate again and leave the secret on the screen already dead.
Moving an app to production mode is an operator's command, not a button here.
"""

from flask import abort, current_app, flash, g, redirect, render_template, url_for
from flask_babel import gettext as _

from app.console.common import console_blueprint, requires, said, show_once, take_shown_once
from app.console.forms import RegisterAppForm, RotateAppSecretForm
from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.kernel.text import ascii_digits
from app.domain.oauth import apps
from app.extensions import runtime

bp = console_blueprint("console_apps", url_prefix="/console/apps")


@bp.before_request
def _preview_only():
    if not current_app.config["OAUTH_PREVIEW"]:
        abort(404)


@bp.get("")
@requires("integrations.manage")
def page():
    app_id, secret = take_shown_once("app_secret")
    return _render(RegisterAppForm(formdata=None), shown_app_id=app_id if secret else None, new_secret=secret)


@bp.post("")
@requires("integrations.manage")
def register():
    form = RegisterAppForm()
    if not form.validate():
        return _render(form), 422
    try:
        app, secret = apps.create_app(g.company, form.name.data, form.uris(), form.scopes.data or [], runtime(),
                                      created_by=g.user)
    except ValidationFailed as exc:
        for name, message in exc.errors:
            field = getattr(form, name.split(".")[0])
            field.errors = [*field.errors, _on_line(name, form, said(message))]
        return _render(form), 422
    current_app.logger.info("console oauth app registered app=%s company=%s user=%s", app.id, g.company.id,
                            g.user.id)
    show_once("app_secret", app.id, secret)
    return redirect(url_for("console_apps.page") + f"#{app.id}")


@bp.post("/<app_id>/rotate-secret")
@requires("integrations.manage")
def rotate_secret(app_id):
    form = RotateAppSecretForm()
    if not form.validate():
        abort(400)
    try:
        secret = apps.rotate_secret(app_id, runtime(), organisation_id=g.company.id,
                                    replacing=form.secret_version.data)
    except Conflict:
        flash(_("This app's client secret was already replaced a moment ago (another click, or another admin), "
                "and the new one was shown there. If you did not copy it, rotate again."), "error")
        return redirect(url_for("console_apps.page") + f"#{app_id}")
    current_app.logger.info("console oauth app secret rotated app=%s company=%s user=%s", app_id, g.company.id,
                            g.user.id)
    show_once("app_secret", app_id, secret)
    return redirect(url_for("console_apps.page") + f"#{app_id}")


def _on_line(name, form, message):
    """`redirect_uris.1` names the second URI given: show it with the reason."""
    _name, _dot, index = name.partition(".")
    return f"{form.uris()[int(index)]}: {message}" if ascii_digits(index) else message


def _render(form, **extra):
    return render_template("console/oauth_apps.html", form=form, apps=apps.apps_of(g.company.id),
                           rotate_form=RotateAppSecretForm(formdata=None), redirect_uris_of=apps.redirect_uris_of,
                           secret_version=apps.secret_version, **extra)
