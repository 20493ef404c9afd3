"""Handing outbox events on (app/domain/kernel/events.py): each becomes one webhook
delivery per subscribed endpoint (app/domain/webhooks/deliveries.py), sent in the same
job. Batching pays: a burst of events is a few jobs, not two per event."""

from dataclasses import replace

from app.domain.webhooks import deliveries
from app.extensions import runtime
from app.jobs.webhooks import send_deliveries
from app.models.base import connection


def dispatch_events(event_ids):
    """Fan these outbox events out and send their deliveries now (on a few threads, so
    one slow receiver holds up no other). Idempotent: an event already dispatched writes
    nothing. Returns how many events were new."""
    # The deliveries are sent below, so the fan-out queues no job of its own for them.
    quiet = replace(runtime(), on_deliveries_due=None)
    with connection():
        fresh, created = deliveries.fan_out_many(event_ids, quiet)
    if created:
        send_deliveries(created)
    return fresh


def dispatch_event(event_id):
    """One event (what an action's commit queues). Returns whether it was new."""
    return dispatch_events([event_id]) == 1
