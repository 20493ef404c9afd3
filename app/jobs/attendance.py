"""Pairing stored clock events into days, and expiring those no one claims
(app/domain/attendance/days.py)."""

import logging

from app.domain.attendance import days
from app.extensions import runtime
from app.models.base import connection

log = logging.getLogger(__name__)


def pair_attendance(company_id, employee_ids):
    """Re-pair the days these employees' new or 16-hour-old clock events touch. Idempotent."""
    with connection():
        counts = days.settle(company_id, employee_ids, runtime())
    if counts["rejected"]:
        log.info("attendance of %s: %s", company_id, counts)
    return counts


def expire_attendance():
    """Every 5 minutes: reject clock events unmatched for 72 hours."""
    with connection():
        expired = days.expire_unmatched(runtime())
    if expired:
        log.info("expired %d unmatched clock event(s)", expired)
    return expired
