"""The nightly reconciliation: announce what bulk tools changed (app/domain/people/bulk.py)."""

import logging

from app.domain.people import bulk
from app.extensions import runtime
from app.models.base import connection

log = logging.getLogger(__name__)


def reconcile():
    with connection():
        counts = bulk.reconcile(runtime())
    log.info("reconciliation wrote %s", counts)
    return counts
