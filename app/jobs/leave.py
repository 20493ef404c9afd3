"""Employees' status follows approved leave: `on_leave` from a leave's first day, `active`
again after its last, hourly (app/domain/leave/status.py, follow_all). A status HR set by
hand is never ended by it."""

import logging

from app.domain.leave import status
from app.extensions import runtime
from app.models.base import connection

log = logging.getLogger(__name__)


def follow_leave():
    with connection():
        moved = status.follow_all(runtime())
    if moved:
        log.info("%d employee status(es) moved to follow their approved leave", moved)
    return moved
