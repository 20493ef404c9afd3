"""Helpers that tests of several modules share (fixtures live in the conftest files)."""

from app.domain.webhooks import deliveries
from app.models import OutboxEvent


def pending_deliveries(now):
    """The deliveries of every event not dispatched yet, written as a worker writes them
    and then given back unsent: pending and due, not sent. Their ids."""
    events = [event.id for event in OutboxEvent.select(OutboxEvent.id).where(OutboxEvent.dispatched_at.is_null())]
    _, attempts = deliveries.fan_out(events, now)
    written = [attempt.delivery_id for attempt in attempts]
    deliveries.release(written, now)
    return written
