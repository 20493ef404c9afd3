"""Employments whose last day has come end: HR recorded a later date earlier
(app/domain/people/actions.py, end_due_employments)."""

import logging

from app.domain.people import actions
from app.extensions import runtime
from app.models.base import connection

log = logging.getLogger(__name__)


def end_due_employments():
    with connection():
        left = actions.end_due_employments(runtime())
    if left:
        log.info("%d employment(s) ended on their last day", left)
    return left
