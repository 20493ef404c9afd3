"""Which events a credential may read from the events feed (v1.3): an event is data of
the area its type names, so it takes that area's read scope. An event type no scope
reads (`ping`, a receiver's test) is in no feed."""

from collections.abc import Collection

from app.domain.kernel.events import EVENT_TYPES

# Event type prefix -> the scopes any one of which reads it.
READ_SCOPES = {
    "employee.": ("employees:read",),
    "payroll_run.": ("payroll:read",),
    "attendance.": ("attendance:read", "attendance:write"),
    "leave.": ("leave:read",),  # v1.3
}


# Event type prefix -> the scope a credential must hold to subscribe a webhook endpoint
# to it (v1.3). `webhooks:manage` alone receives every other type (the consent page
# says so); leave, which can hint at someone's health, only with `leave:read`.
SUBSCRIBE_SCOPES = {"leave.": "leave:read"}


def readable_types(scopes: Collection[str]) -> tuple[str, ...]:
    """The event types a credential with `scopes` reads, in EVENT_TYPES' order."""
    return tuple(event_type for event_type in EVENT_TYPES
                 for prefix, readers in READ_SCOPES.items()
                 if event_type.startswith(prefix) and any(scope in scopes for scope in readers))


FEED_TYPES = readable_types({scope for readers in READ_SCOPES.values() for scope in readers})
