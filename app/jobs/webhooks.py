"""Sending webhook deliveries, telling owners about failing endpoints, and pruning the
delivery log (app/domain/webhooks/).

The rules of sending (lanes per endpoint, what a lane does after an attempt with no
answer, when it gives attempts back) are app/domain/webhooks/sending.py's. Here: the
lanes on up to THREADS threads with the real sender, and what they settle recorded a
group at a time, each group in one transaction; no database connection is held while a
receiver is waited on.
"""

import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import timedelta

from flask import current_app

from app.domain.webhooks import deliveries, delivery_log, endpoints, sending
from app.domain.webhooks.deliveries import Attempt, Outcome
from app.extensions import delivery_pacer, mailer, runtime, webhook_sender
from app.jobs.queues import job_queue
from app.models.base import connection
from app.notices import endpoint_notice_email

log = logging.getLogger(__name__)
THREADS = 16  # lanes sent side by side
BATCH = 50  # deliveries per job that the sweeper queues
RECORD_EVERY = 500  # outcomes recorded per transaction at most
RECORD_WAIT = 0.05  # seconds: what came back is recorded at least this often
STRAGGLING = 1.0  # seconds a lane waits on one answer before the drain's next round stops waiting for it


def send_deliveries(delivery_ids):
    """Send these attempts if they are (still) due. Idempotent: an attempt another
    worker holds, or one finished, is skipped. Returns how many were sent."""
    hold = timedelta(seconds=current_app.config["WEBHOOK_CLAIM_SECONDS"])
    with connection():
        attempts = deliveries.claim_many(delivery_ids, runtime().now(), hold)
    return send_attempts(attempts)


def send_attempts(attempts: list[Attempt], lanes_done: Callable[[set[str]], None] | None = None,
                  hold_back: frozenset[str] = frozenset()) -> int:
    """Send attempts this worker has taken, lane by lane on threads, and record their
    outcomes as they come back. Returns how many were sent (skipped and given back ones
    are not).

    For a drain's rounds: `lanes_done(straggling)` is called once, when no lane runs or
    every lane still running has waited STRAGGLING seconds on one answer (`straggling`:
    their endpoints), before the last outcomes are recorded; the attempts of endpoints
    in `hold_back` (another round's stragglers) are not sent now: they are given back,
    due once a straggler's answer has had its time, so a hanging receiver holds up
    neither the next round nor gets more connections."""
    current = runtime()
    held = [attempt.delivery_id for attempt in attempts if attempt.endpoint_id in hold_back]
    attempts = [attempt for attempt in attempts if attempt.endpoint_id not in hold_back]
    if held:
        _give_back_until(held, webhook_sender().timeout, current)
    if not attempts:
        if lanes_done is not None:
            lanes_done(set())
        return 0
    # While v1.3 (beyond the contract) is live: the Standard Webhooks headers are sent, and
    # a receiver's 410 and Retry-After are heeded.
    if current.sealer is None:
        raise RuntimeError("this app's Runtime has no sealer to open the signing secrets (create_app gives it one)")
    post = sending.signed_post(webhook_sender().post, current.sealer, lambda: current.now().timestamp(),
                               beyond_contract=current.beyond_contract)
    settled: queue.SimpleQueue[tuple[Attempt, Outcome | None, str]] = queue.SimpleQueue()

    pacer = delivery_pacer()

    def pace(attempt):  # an endpoint's own pace, v1.3's like its other signals
        paced = current.beyond_contract and attempt.rate_limit
        return pacer.wait(attempt.endpoint_id, attempt.rate_limit) if paced else 0.0

    waiting: list[tuple[list[str], float]] = []  # (attempts, seconds to their endpoint's turn)

    flights: dict[int, tuple[str, float]] = {}  # lane -> (its endpoint, when its attempt in hand went out)

    def run(number, lane):
        def timed(attempt):
            flights[number] = (attempt.endpoint_id, time.monotonic())
            try:
                return post(attempt)
            finally:
                del flights[number]

        started = time.monotonic()
        sending.send_lane(lane, timed, lambda: time.monotonic() - started,
                          lambda attempt, outcome, what: settled.put((attempt, outcome, what)), pace, time.sleep,
                          lambda attempts, wait: waiting.append(([a.delivery_id for a in attempts], wait)))

    lanes = sending.lanes(attempts)
    sent, released = 0, []
    with ThreadPoolExecutor(max_workers=min(THREADS, len(lanes))) as pool:
        number_of = {pool.submit(run, number, lane): number for number, lane in enumerate(lanes)}
        lanes_running = set(number_of)
        running = lanes_running
        while running:
            # What came back is recorded when every lane is done, or every RECORD_WAIT
            # seconds while some still run: a hanging receiver delays no other record.
            # (Woken per outcome instead, this thread would fight the lanes for the GIL.)
            _, running = wait(running, timeout=RECORD_WAIT)
            if lanes_done is not None:
                straggling = _straggling([number_of[lane] for lane in running], flights)
                if straggling is not None:
                    lanes_done(straggling)
                    lanes_done = None
            ready: list[tuple[Attempt, Outcome]] = []
            while not settled.empty():
                attempt, outcome, what = settled.get()
                if outcome is None:  # released: given back unsent
                    released.append(attempt.delivery_id)
                else:
                    ready.append((attempt, outcome))
                    sent += what == "sent"
            for start in range(0, len(ready), RECORD_EVERY):
                with connection():
                    deliveries.record_many(ready[start:start + RECORD_EVERY], current.now(), current,
                                           beyond_contract=current.beyond_contract)
    jobs = job_queue()
    if released:
        with connection():
            deliveries.release(released, current.now())
        if not any(lane.exception() for lane in lanes_running):  # out of time: the next job goes on at once
            jobs.enqueue(send_deliveries, released)  # (after a fault, the sweeper's minute paces any repeat)
        log.info("gave %d webhook attempt(s) back after %d s of sending", len(released), sending.LANE_SECONDS)
    for delivery_ids, seconds in waiting:  # an endpoint's pace: due at its turn, queued then
        _give_back_until(delivery_ids, seconds, current)
    for lane in lanes_running:
        lane.result()  # a fault in a lane is the job's fault, once its attempts are settled
    return sent


def _straggling(running, flights):
    """None while a running lane is still moving; else the endpoints of the lanes that
    have each waited STRAGGLING seconds on one answer (none, when no lane runs)."""
    now, endpoints = time.monotonic(), set()
    for number in running:
        flight = flights.get(number)
        if flight is None or now - flight[1] < STRAGGLING:
            return None
        endpoints.add(flight[0])
    return endpoints


def _give_back_until(delivery_ids, seconds, current):
    """Attempts this worker holds, given back due in `seconds` and queued then (a worker
    that stops first leaves them to the sweeper: they are due then)."""
    with connection():
        deliveries.release(delivery_ids, current.now(), due=current.now() + timedelta(seconds=seconds))
    timer = threading.Timer(seconds, job_queue().enqueue, (send_deliveries, delivery_ids))
    timer.daemon = True
    timer.start()


def notify_endpoint(endpoint_id, notice):
    """Email the company's owner that an endpoint is failing, was disabled, or is gone."""
    with connection():
        told = endpoints.endpoint_notice(endpoint_id, notice)
    if told is None:
        return False
    for recipient, language in told.recipients:
        mailer().send(recipient, *endpoint_notice_email(told, language))
    return True


def prune_deliveries():
    """Daily: keep each endpoint's last 100 deliveries of the last 30 days, and drop the
    secrets rotations replaced once they no longer sign."""
    with connection():
        removed = delivery_log.prune(runtime().now())
        forgotten = endpoints.forget_expired_secrets(runtime().now())
    if removed:
        log.info("pruned %d webhook delivery(ies) from the log", removed)
    if forgotten:
        log.info("dropped %d replaced webhook secret(s) past their overlap", forgotten)
    return removed
