"""Webhook pages: every endpoint of the company (whoever's key owns it), its delivery
log, one delivery's request and answer; adding an endpoint for one of the company's
keys (its secret shown once), and Send test, Redeliver, Disable, Re-enable, Delete,
Change pace, and Roll secret (v1.3: the new secret shown once, the current one signing beside it for
the overlap chosen).

Everything here needs `integrations.manage` in the current company.
"""

import json
from datetime import timedelta

from flask import abort, current_app, flash, g, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.console.common import console_blueprint, requires, said, show_errors, show_once, take_shown_once
from app.console.forms import AddEndpointForm, EndpointPaceForm, RollEndpointSecretForm, stored_options
from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.webhooks import delivery_log, endpoints
from app.domain.webhooks.urls import check_url
from app.extensions import beyond_contract, runtime, webhook_sender
from app.i18n import lazy_text as _l
from app.i18n import number

bp = console_blueprint("console_webhooks", url_prefix="/console/webhooks")

# A delivery's status (the API's words, delivery_log.STATUSES) as the page says it.
STATUS_LABELS = {"succeeded": _l("succeeded"), "failed": _l("failed"), "pending": _l("pending")}


@bp.get("")
@requires("integrations.manage")
def page():
    return _render(AddEndpointForm(formdata=None))


@bp.post("")
@requires("integrations.manage")
def add():
    form = AddEndpointForm()
    if not form.validate():
        return _render(form), 422
    sender = webhook_sender()
    try:
        made, secret = endpoints.create_for_key(g.company, form.key.data,
                                                check_url(form.url.data.strip(), sender.resolver, sender.allowed),
                                                form.events.data, runtime(), rate_limit=form.rate_limit.data)
    except ValidationFailed as exc:
        show_errors(form, exc, rest="url")
        return _render(form), 422
    current_app.logger.info("console webhook endpoint added endpoint=%s company=%s user=%s", made.id, g.company.id,
                            g.user.id)
    show_once("webhook_secret", made.id, secret)
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=made.id))


@bp.get("/<endpoint_id>")
@requires("integrations.manage")
def endpoint(endpoint_id):
    found = _endpoint(endpoint_id)
    return _render_endpoint(found, EndpointPaceForm(formdata=None, rate_limit=found.rate_limit))


@bp.post("/<endpoint_id>/pace")
@requires("integrations.manage")
def pace(endpoint_id):
    found = _endpoint(endpoint_id)
    form = EndpointPaceForm()
    if form.validate():
        try:
            endpoints.update_endpoint(endpoints.of_company(g.company.id), found.id, runtime(),
                                      rate_limit=form.rate_limit.data)
        except ValidationFailed as exc:
            form.rate_limit.errors = [said(message) for _path, message in exc.errors]
        else:
            limit = form.rate_limit.data
            flash(ngettext("At most %(limit)s deliveries a second from now.",
                           "At most %(limit)s deliveries a second from now.", limit, limit=number(limit)) if limit else
                  _("No limit: deliveries go as fast as the receiver answers."), "success")
            return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))
    return _render_endpoint(found, form), 422


@bp.get("/<endpoint_id>/deliveries/<delivery_id>")
@requires("integrations.manage")
def delivery(endpoint_id, delivery_id):
    found = _endpoint(endpoint_id)
    shown = delivery_log.detail(found, delivery_id)
    return render_template("console/webhook_delivery.html", endpoint=found, delivery=shown,
                           pretty_body=_pretty(shown["request_body"]), statuses=STATUS_LABELS)


@bp.post("/<endpoint_id>/test")
@requires("integrations.manage")
def send_test(endpoint_id):
    endpoints.send_test(_endpoint(endpoint_id), runtime())
    flash(_("A ping is on its way; it shows in the log below."), "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


@bp.post("/<endpoint_id>/enable")
@requires("integrations.manage")
def enable(endpoint_id):
    endpoints.update_endpoint(endpoints.of_company(g.company.id), endpoint_id, runtime(), active=True)
    flash(_("Re-enabled: new events are delivered again. Redeliver what it missed from the log."), "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


@bp.post("/<endpoint_id>/disable")
@requires("integrations.manage")
def disable(endpoint_id):
    endpoints.update_endpoint(endpoints.of_company(g.company.id), endpoint_id, runtime(), active=False)
    flash(_("Disabled: nothing is delivered to it until it is re-enabled (what happens meanwhile can be "
            "redelivered from the log)."), "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


@bp.post("/<endpoint_id>/roll-secret")
@requires("integrations.manage")
def roll_secret(endpoint_id):
    if not _rolling_live():
        abort(404)
    form = RollEndpointSecretForm()
    if not form.validate():
        abort(400)
    try:
        _rolled, secret = endpoints.rotate_secret(endpoints.of_company(g.company.id), endpoint_id, runtime(),
                                                  expire_previous_in=timedelta(seconds=int(form.overlap.data)),
                                                  replacing=form.secret_version.data)
    except Conflict:
        flash(_("This endpoint's signing secret was already replaced a moment ago (another click, or another "
                "admin), and the new one was shown there. If you did not copy it, roll again."), "error")
        return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))
    current_app.logger.info("console webhook secret rolled endpoint=%s company=%s user=%s", endpoint_id,
                            g.company.id, g.user.id)
    show_once("webhook_secret", endpoint_id, secret)
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


@bp.post("/<endpoint_id>/delete")
@requires("integrations.manage")
def delete(endpoint_id):
    found = _endpoint(endpoint_id)
    endpoints.delete_endpoint(endpoints.of_company(g.company.id), found.id)
    current_app.logger.info("console webhook endpoint deleted endpoint=%s company=%s user=%s", found.id,
                            g.company.id, g.user.id)
    flash(_("Deleted the endpoint %(url)s; its pending deliveries are cancelled.", url=found.url), "success")
    return redirect(url_for("console_webhooks.page"))


@bp.post("/<endpoint_id>/deliveries/<delivery_id>/redeliver")
@requires("integrations.manage")
def redeliver(endpoint_id, delivery_id):
    try:
        delivery_log.redeliver(_endpoint(endpoint_id), delivery_id, runtime())
    except Conflict as exc:  # a disabled endpoint; another company's delivery stays a 404, as in the API
        flash(said(exc.message), "error")
    else:
        flash(_("Sent again: same event id and body, with a fresh signature."), "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


def _render(form):
    keys = endpoints.managing_keys(g.company.id)
    form.key.choices = stored_options((key.id, f"{key.name} ({key.display_prefix}…)") for key in keys)
    return render_template("console/webhooks.html", endpoints=endpoints.with_owners(g.company.id), form=form,
                           keys=keys)


def _render_endpoint(found, pace_form):
    owners = dict(endpoints.with_owners(g.company.id))
    shown_id, secret = take_shown_once("webhook_secret")
    roll_form = RollEndpointSecretForm(formdata=None, secret_version=endpoints.secret_version(found))
    return render_template("console/webhook.html", endpoint=found, owner=owners.get(found),
                           log=delivery_log.log(found), statuses=STATUS_LABELS,
                           new_secret=secret if shown_id == found.id else None,
                           roll_form=roll_form if _rolling_live() else None, pace_form=pace_form,
                           previous_until=endpoints.previous_secret_until(found, runtime().now()))


def _rolling_live():
    """Rolling a secret is v1.3's (rotateWebhookSecret): offered while the API offers it."""
    return beyond_contract() or "rotateWebhookSecret" in current_app.config["LIVE_OPERATIONS"]


def _endpoint(endpoint_id):
    return endpoints.get_endpoint(endpoints.of_company(g.company.id), endpoint_id)


def _pretty(body):
    try:
        return json.dumps(json.loads(body), ensure_ascii=False, indent=2)
    except ValueError:
        return body
