"""Webhook commands for operators.

    flask --app wsgi webhooks replay --endpoint whk_... --since 2026-11-20T00:00:00Z [--status failed]

`replay` sends again every event the endpoint should have received since a time (its
subscribed types, at most 30 days back), or with `--status failed` only those it never
received successfully: after a receiver's outage, beyond the contract (like Svix's
"recover"); the API's replayWebhookEvents (v1.3) does the same.
"""

import click
from flask.cli import AppGroup

from app.cli.common import emit, json_option, one_line_errors
from app.domain.kernel.clock import parse_rfc3339
from app.domain.kernel.errors import ValidationFailed
from app.domain.webhooks import delivery_log
from app.extensions import runtime

webhooks_cli = AppGroup("webhooks", help="Webhook endpoints: replay what a receiver missed.")


@webhooks_cli.command("replay")
@click.option("--endpoint", "endpoint_id", required=True, help="Webhook endpoint id (whk_...).")
@click.option("--since", required=True, help="RFC 3339 time, e.g. 2026-11-20T00:00:00Z.")
@click.option("--status", type=click.Choice(["failed"]), default=None,
              help="Only events whose latest delivery to the endpoint did not succeed.")
@json_option
@one_line_errors
def replay(endpoint_id, since, status, as_json):
    """Send again the events an endpoint should have received since a time."""
    moment = parse_rfc3339(since)
    if moment is None:
        raise ValidationFailed("invalid time", [("since", "an RFC 3339 time with its offset, e.g. "
                                                          "2026-11-20T00:00:00Z")])
    created = delivery_log.replay(endpoint_id, moment, runtime(), only_failed=status == "failed")
    emit(as_json, {"deliveries": created}, f"queued {len(created)} delivery(ies) to {endpoint_id}")
