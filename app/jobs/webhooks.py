"""Sending webhook deliveries, telling owners about failing endpoints, and pruning the
delivery log (app/domain/webhooks/).

One job sends a batch of deliveries on a few threads, so a receiver that hangs for its
whole 10 seconds holds up one thread, not the other receivers of the same event.
"""

import logging
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from datetime import timedelta

from flask import current_app

from app.domain.webhooks import deliveries, endpoints, signing
from app.domain.webhooks.deliveries import Outcome
from app.extensions import mailer, runtime, webhook_sender
from app.models.base import connection

log = logging.getLogger(__name__)
THREADS = 16
BATCH = 50  # deliveries per job that the sweeper queues
RECORD_EVERY = 25  # outcomes recorded per transaction, as they come back


def send_deliveries(delivery_ids):
    """Send these attempts if they are (still) due. Idempotent: an attempt another
    worker holds, or one finished, is skipped. Returns how many were sent.

    The attempts are taken in one transaction, posted on up to THREADS threads (no
    database connection is held while a receiver is waited on), and their outcomes
    recorded a few at a time as they come back, each group in one transaction."""
    current, sender = runtime(), webhook_sender()
    hold = timedelta(seconds=current_app.config["WEBHOOK_CLAIM_SECONDS"])
    with connection():
        attempts = deliveries.claim_many(delivery_ids, current.now(), hold)
    if not attempts:
        return 0
    secrets = {}

    def post(attempt):
        try:
            if attempt.secret_sealed not in secrets:
                secrets[attempt.secret_sealed] = current.sealer.open(attempt.secret_sealed)
        except ValueError as exc:  # sealed under a key no longer configured
            return attempt.delivery_id, Outcome(None, error=f"signing secret unreadable: {exc}")
        header = signing.signature(secrets[attempt.secret_sealed], current.now().timestamp(), attempt.body)
        return attempt.delivery_id, sender.post(attempt.url, attempt.body, {"X-SVC-Signature": header})

    if len(attempts) == 1:
        _record([post(attempts[0])], current)
        return 1
    sent, ready = 0, []
    with ThreadPoolExecutor(max_workers=min(THREADS, len(attempts))) as pool:
        waiting = {pool.submit(post, attempt) for attempt in attempts}
        while waiting:
            finished, waiting = wait(waiting, timeout=0.2, return_when=FIRST_COMPLETED)
            ready.extend(future.result() for future in finished)
            # Recorded in groups, and at once when the rest are slow: a hanging receiver
            # delays no other attempt's record.
            if ready and (len(ready) >= RECORD_EVERY or not finished or not waiting):
                _record(ready, current)
                sent, ready = sent + len(ready), []
    return sent


def _record(outcomes, current):
    with connection():
        deliveries.record_many(outcomes, current.now(), current)


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
