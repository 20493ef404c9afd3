"""Handing outbox events on (app/domain/kernel/events.py)."""

from app.domain.kernel import events
from app.extensions import runtime
from app.models.base import connection


def dispatch_event(event_id):
    """Hand one outbox event on. Today that is marking it dispatched; webhook delivery
    (one delivery per subscribed endpoint) hooks in here. Idempotent."""
    with connection():
        return events.mark_dispatched(event_id, runtime().now())
