"""Sending webhook deliveries, telling owners about failing endpoints, and pruning the
delivery log (app/domain/webhooks/).

A job sends its attempts in lanes, one per endpoint, on up to THREADS threads: one
endpoint's attempts go one after the other over one kept-alive connection (the cheapest
way to send a burst, and gentle on the receiver), while different endpoints are sent to
side by side, so a receiver that hangs holds up its own lane only. A lane whose attempt
got no answer (timeout, refused, TLS) sends nothing more to that endpoint in this job:
the rest fail at once, saying why, and follow the retry schedule. A lane that has run
for LANE_SECONDS gives its unsent attempts back, due now, for the next job.
"""

import logging
import queue
import time
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import timedelta

from flask import current_app

from app.domain.webhooks import deliveries, endpoints, signing
from app.domain.webhooks.deliveries import Outcome
from app.extensions import mailer, runtime, webhook_sender
from app.models.base import connection

log = logging.getLogger(__name__)
THREADS = 16  # lanes sent side by side
BATCH = 50  # deliveries per job that the sweeper queues
RECORD_EVERY = 100  # outcomes recorded per transaction at most
RECORD_WAIT = 0.05  # seconds: what came back is recorded at least this often
LANE_SECONDS = 20  # then a lane gives its unsent attempts back (well within the claim)


def send_deliveries(delivery_ids):
    """Send these attempts if they are (still) due. Idempotent: an attempt another
    worker holds, or one finished, is skipped. Returns how many were sent."""
    hold = timedelta(seconds=current_app.config["WEBHOOK_CLAIM_SECONDS"])
    with connection():
        attempts = deliveries.claim_many(delivery_ids, runtime().now(), hold)
    return send_attempts(attempts)


def send_attempts(attempts):
    """Send attempts this worker has taken, in lanes (see above), and record their
    outcomes a group at a time as they come back, each group in one transaction; no
    database connection is held while a receiver is waited on. Returns how many were
    sent (skipped and given back ones are not)."""
    if not attempts:
        return 0
    current, sender = runtime(), webhook_sender()
    lanes = {}
    for attempt in attempts:
        lanes.setdefault(attempt.endpoint_id, []).append(attempt)
    secrets, results = {}, queue.SimpleQueue()

    def post(attempt):
        try:
            if attempt.secret_sealed not in secrets:
                secrets[attempt.secret_sealed] = current.sealer.open(attempt.secret_sealed)
        except ValueError as exc:  # sealed under a key no longer configured
            return Outcome(None, error=f"signing secret unreadable: {exc}")
        header = signing.signature(secrets[attempt.secret_sealed], current.now().timestamp(), attempt.body)
        return sender.post(attempt.url, attempt.body, {"X-SVC-Signature": header})

    def run(lane):
        started, settled = time.monotonic(), 0
        try:
            for attempt in lane:
                outcome = post(attempt)
                results.put((attempt, outcome, "sent"))
                settled += 1
                if outcome.status is None:
                    skipped = Outcome(None, error=f"not sent: the attempt before it to this endpoint got no "
                                                  f"answer ({outcome.error})")
                    for rest in lane[settled:]:
                        results.put((rest, skipped, "skipped"))
                    settled = len(lane)
                    break
                if time.monotonic() - started > LANE_SECONDS:
                    break
        finally:  # out of time, or a fault here: the rest go back to be sent by another job
            for rest in lane[settled:]:
                results.put((rest, None, "released"))

    sent, released = 0, []
    with ThreadPoolExecutor(max_workers=min(THREADS, len(lanes))) as pool:
        lanes_running = {pool.submit(run, lane) for lane in lanes.values()}
        running = lanes_running
        while running:
            # What came back is recorded when every lane is done, or every RECORD_WAIT
            # seconds while some still run: a hanging receiver delays no other record.
            # (Woken per outcome instead, this thread would fight the lanes for the GIL.)
            _, running = wait(running, timeout=RECORD_WAIT)
            ready = []
            while not results.empty():
                attempt, outcome, what = results.get()
                if what == "released":
                    released.append(attempt.delivery_id)
                else:
                    ready.append((attempt, outcome))
                    sent += what == "sent"
            for start in range(0, len(ready), RECORD_EVERY):
                with connection():
                    deliveries.record_many(ready[start:start + RECORD_EVERY], current.now(), current)
    if released:
        with connection():
            deliveries.release(released, current.now())
        log.info("gave %d webhook attempt(s) back after %d s of sending", len(released), LANE_SECONDS)
    for lane in lanes_running:
        lane.result()  # a fault in a lane is the job's fault, once its attempts are settled
    return sent


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
