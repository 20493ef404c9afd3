"""Sending webhook deliveries, telling owners about failing endpoints, and pruning the
delivery log (app/domain/webhooks/).

One job sends a batch of deliveries on a few threads, so a receiver that hangs for its
whole 10 seconds holds up one thread, not the other receivers of the same event.
"""

import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from flask import current_app

from app.domain.webhooks import deliveries, endpoints, signing
from app.extensions import mailer, runtime, webhook_sender
from app.models.base import connection

log = logging.getLogger(__name__)
THREADS = 16
BATCH = 50  # deliveries per job that the sweeper queues


def send_deliveries(delivery_ids):
    """Send these attempts if they are (still) due. Idempotent: a claimed or finished
    attempt is skipped. Returns how many were sent."""
    current, sender = runtime(), webhook_sender()
    hold = timedelta(seconds=current_app.config["WEBHOOK_CLAIM_SECONDS"])
    if len(delivery_ids) == 1:
        return int(_send(delivery_ids[0], current, sender, hold))
    with ThreadPoolExecutor(max_workers=min(THREADS, len(delivery_ids))) as pool:
        return sum(pool.map(lambda delivery_id: _send(delivery_id, current, sender, hold), delivery_ids))


def _send(delivery_id, current, sender, hold):
    try:
        with connection():
            attempt = deliveries.claim(delivery_id, current.now(), hold)
            if attempt is None:
                return False
            body = attempt.body
            header = signing.signature(current.sealer.open(attempt.secret_sealed), current.now().timestamp(), body)
        # No database connection is held while waiting on the receiver.
        outcome = sender.post(attempt.url, body, {"X-SVC-Signature": header})
        with connection():
            deliveries.record(delivery_id, outcome, current.now(), current)
        return True
    except Exception:
        log.exception("delivery %s failed in the sender; the sweeper will send it again", delivery_id)
        return False


def notify_endpoint(endpoint_id, notice):
    """Email the company's owner that an endpoint is failing or was disabled."""
    with connection():
        message = endpoints.notice_email(endpoint_id, notice)
    if message is None:
        return False
    recipients, subject, body = message
    for recipient in recipients:
        mailer().send(recipient, subject, body)
    return True


def prune_deliveries():
    """Daily: keep each endpoint's last 100 deliveries of the last 30 days."""
    with connection():
        removed = deliveries.prune(runtime().now())
    if removed:
        log.info("pruned %d webhook delivery(ies) from the log", removed)
    return removed
