"""The nightly pruning of `Idempotency-Key`s past their 24 hours (app/domain/kernel/idempotency.py)."""

import logging

from app.domain.kernel import idempotency
from app.extensions import runtime
from app.models.base import connection

log = logging.getLogger(__name__)


def prune_idempotency_keys():
    """Daily: delete the keys claimed more than 24 hours ago, with the answers they kept."""
    with connection():
        removed = idempotency.prune(runtime().now())
    if removed:
        log.info("pruned %d Idempotency-Key(s) older than %s", removed, idempotency.KEPT)
    return removed
