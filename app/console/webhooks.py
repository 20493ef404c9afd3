"""Webhook pages: every endpoint of the company (whoever's key owns it), its delivery
log, one delivery's request and answer, and Send test, Redeliver, Re-enable.

Everything here needs `integrations.manage` in the current company.
"""

import json

from flask import flash, g, redirect, render_template, url_for

from app.console.common import console_blueprint, requires
from app.domain.kernel.errors import Conflict
from app.domain.webhooks import deliveries, endpoints
from app.extensions import runtime

bp = console_blueprint("console_webhooks", url_prefix="/console/webhooks")


@bp.get("")
@requires("integrations.manage")
def page():
    return render_template("console/webhooks.html", endpoints=endpoints.with_owners(g.company.id))


@bp.get("/<endpoint_id>")
@requires("integrations.manage")
def endpoint(endpoint_id):
    found = _endpoint(endpoint_id)
    owners = dict(endpoints.with_owners(g.company.id))
    return render_template("console/webhook.html", endpoint=found, owner=owners.get(found),
                           log=deliveries.log(found))


@bp.get("/<endpoint_id>/deliveries/<delivery_id>")
@requires("integrations.manage")
def delivery(endpoint_id, delivery_id):
    found = _endpoint(endpoint_id)
    shown = deliveries.detail(found, delivery_id)
    return render_template("console/webhook_delivery.html", endpoint=found, delivery=shown,
                           pretty_body=_pretty(shown["request_body"]))


@bp.post("/<endpoint_id>/test")
@requires("integrations.manage")
def send_test(endpoint_id):
    endpoints.send_test(_endpoint(endpoint_id), runtime())
    flash("A ping is on its way; it shows in the log below.", "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


@bp.post("/<endpoint_id>/enable")
@requires("integrations.manage")
def enable(endpoint_id):
    endpoints.update_endpoint(endpoints.of_company(g.company.id), endpoint_id, runtime(), active=True)
    flash("Re-enabled: new events are delivered again. Redeliver what it missed from the log.", "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


@bp.post("/<endpoint_id>/deliveries/<delivery_id>/redeliver")
@requires("integrations.manage")
def redeliver(endpoint_id, delivery_id):
    try:
        deliveries.redeliver(_endpoint(endpoint_id), delivery_id, runtime())
    except Conflict as exc:  # a disabled endpoint; another company's delivery stays a 404, as in the API
        flash(exc.message, "error")
    else:
        flash("Sent again: same event id and body, with a fresh signature.", "success")
    return redirect(url_for("console_webhooks.endpoint", endpoint_id=endpoint_id))


def _endpoint(endpoint_id):
    return endpoints.get_endpoint(endpoints.of_company(g.company.id), endpoint_id)


def _pretty(body):
    try:
        return json.dumps(json.loads(body), ensure_ascii=False, indent=2)
    except ValueError:
        return body
