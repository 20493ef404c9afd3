"""Handing outbox events on (app/domain/kernel/events.py): each becomes one webhook
delivery per subscribed endpoint (app/domain/webhooks/deliveries.py)."""

from app.domain.webhooks import deliveries
from app.extensions import runtime
from app.models.base import connection


def dispatch_event(event_id):
    """Fan one outbox event out into its deliveries, which are then queued for sending.
    Idempotent: an event already dispatched writes nothing. Returns whether it was new."""
    with connection():
        return deliveries.fan_out(event_id, runtime()) is not None
