"""Sending webhook deliveries, telling owners about failing endpoints, and pruning the
delivery log (app/domain/webhooks/).

The rules of sending (lanes per endpoint, what a lane does next) are
app/domain/webhooks/sending.py's: each lane answers with decisions. Here a `Round`
carries them out: its lanes on up to THREADS threads with the real sender, what they
settle recorded a group at a time, each group in one transaction; no database
connection is held while a receiver is waited on. Attempts handed back for later are
queued with the job queue's own delayed enqueue, at their time on the app's clock.
"""

import logging
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import timedelta

from flask import current_app

from app.domain.kernel.runtime import Runtime
from app.domain.webhooks import claims, deliveries, delivery_log, endpoints, sending
from app.domain.webhooks.deliveries import Attempt, Outcome
from app.domain.webhooks.sending import GiveBack, Lane, Send, Skip, Wait
from app.extensions import delivery_pacer, mailer, runtime, webhook_sender
from app.jobs.queues import job_queue
from app.models.base import connection
from app.notices import endpoint_notice_email

log = logging.getLogger(__name__)
THREADS = 16  # lanes sent side by side
RECORD_EVERY = 500  # outcomes recorded per transaction at most
RECORD_WAIT = 0.05  # seconds: what came back is recorded at least this often
STRAGGLING = 1.0  # seconds a lane waits on one answer before the drain's next round stops waiting for it
RECORDING = 2.0  # seconds allowed, past the sender's timeout, for an answer to be recorded inside its claim
AFTER_A_FAULT = 60.0  # seconds before a lane's attempts are due again after a fault of ours (not every drain)


def claim_seconds() -> float:
    """How long a worker's claim on attempts lasts (WEBHOOK_CLAIM_SECONDS): its lease."""
    return float(current_app.config["WEBHOOK_CLAIM_SECONDS"])


def send_deliveries(delivery_ids):
    """Send these attempts if they are (still) due. Idempotent: an attempt another
    worker holds, or one finished, is skipped. Returns how many were sent."""
    hold = timedelta(seconds=claim_seconds())
    with connection():
        attempts = claims.claim_many(delivery_ids, runtime().now(), hold)
    return send_now(attempts)


def send_now(attempts: list[Attempt]) -> int:
    """Send attempts this job holds in one Round; those it gives back due now (out of
    time) go on at once in the next job. How many were sent."""
    sent, released = Round(attempts).send()
    if released:
        job_queue().enqueue(send_deliveries, [attempt.delivery_id for attempt in released])
    return sent


class Round:
    """Attempts this worker holds, sent lane by lane on threads, their outcomes recorded
    as they come back.

    For a drain's rounds: `lanes_free` is set once no lane is moving, or every lane still
    running has waited STRAGGLING seconds on one answer (`straggling`: their endpoints),
    before the last outcomes are recorded; the attempts of endpoints in `hold_back`
    (another round's stragglers) are not sent now: they are given back, due once a
    straggler's answer has had its time, so a hanging receiver holds up neither the next
    round nor gets more connections."""

    def __init__(self, attempts: list[Attempt], hold_back: frozenset[str] = frozenset(),
                 current: Runtime | None = None) -> None:
        self.current = current or runtime()
        self.held = [attempt for attempt in attempts if attempt.endpoint_id in hold_back]
        self.attempts = [attempt for attempt in attempts if attempt.endpoint_id not in hold_back]
        self.lanes_free, self.straggling = threading.Event(), set[str]()
        self.sender = webhook_sender()
        # An attempt is sent only while its answer can come back and be recorded inside its
        # claim (the default claim, 24 s, leaves a 12-second window). A claim shorter than
        # twice that (a test's few seconds) sends in its first half, and an answer may then
        # come after the claim has run out: another worker may send the attempt meanwhile.
        self.answer_within = min(self.sender.timeout + RECORDING, claim_seconds() / 2)
        self.settled: queue.SimpleQueue[tuple[Attempt, Outcome, bool]] = queue.SimpleQueue()  # (.., sent)
        self.given_back: list[GiveBack] = []
        self.flights: dict[int, tuple[str, float]] = {}  # lane -> (its endpoint, when its attempt in hand went out)
        self.began_at, self.began = self.current.now().timestamp(), time.monotonic()

    def now(self) -> float:
        """Unix seconds on the app's clock, moving with this round's time."""
        return self.began_at + (time.monotonic() - self.began)

    def send(self) -> tuple[int, list[Attempt]]:
        """Send, record, hand back. (how many were sent, those given back due now: out of
        time in their claim or their lane)."""
        if self.held:
            self.given_back.append(GiveBack(self.held, due_in=self.sender.timeout))
        try:
            return self._send()
        finally:
            self.lanes_free.set()

    def _send(self) -> tuple[int, list[Attempt]]:
        if not self.attempts:
            return 0, self._hand_back()
        # While v1.3 (beyond the contract) is live: the Standard Webhooks headers are sent,
        # and a receiver's 410 and Retry-After are heeded.
        if self.current.sealer is None:
            raise RuntimeError("this app's Runtime has no sealer to open the signing secrets (create_app gives it one)")
        self.post = sending.signed_post(self.sender.post, self.current.sealer, self.now,
                                        beyond_contract=self.current.beyond_contract)
        self.pacer = delivery_pacer()
        lanes = [Lane(attempts, self.answer_within) for attempts in sending.lanes(self.attempts)]
        sent = 0
        with ThreadPoolExecutor(max_workers=min(THREADS, len(lanes))) as pool:
            number_of = {pool.submit(self._run, number, lane): number for number, lane in enumerate(lanes)}
            running = set(number_of)
            while running:
                # What came back is recorded when every lane is done, or every RECORD_WAIT
                # seconds while some still run: a hanging receiver delays no other record.
                # (Woken per outcome instead, this thread would fight the lanes for the GIL.)
                _, running = wait(running, timeout=RECORD_WAIT)
                if not self.lanes_free.is_set():
                    straggling = self._straggling([number_of[lane] for lane in running])
                    if straggling is not None:
                        self.straggling.update(straggling)
                        self.lanes_free.set()
                sent += self._record()
        released = self._hand_back()
        for lane in number_of:
            lane.result()  # a fault in a lane is the job's fault, once its attempts are settled
        return sent, released

    def _run(self, number: int, lane: Lane) -> None:
        """Carry out one lane's decisions."""
        began = time.monotonic()
        try:
            while True:
                elapsed, now = time.monotonic() - began, self.now()
                decision = lane.decide(self._turn(lane.to_send(elapsed, now)), elapsed, now)
                if decision is None:
                    return
                if isinstance(decision, Send):
                    self.flights[number] = (decision.attempt.endpoint_id, time.monotonic())
                    try:
                        outcome = self.post(decision.attempt)
                    except BaseException:  # not sent, or not known to be: back with the rest
                        self.given_back.append(GiveBack([decision.attempt], due_in=AFTER_A_FAULT))
                        raise
                    finally:
                        del self.flights[number]
                    lane.sent(outcome)
                    self.settled.put((decision.attempt, outcome, True))
                elif isinstance(decision, Wait):
                    time.sleep(decision.seconds)
                elif isinstance(decision, Skip):
                    for attempt in decision.attempts:
                        self.settled.put((attempt, decision.outcome, False))
                else:
                    self.given_back.append(decision)
        except BaseException:  # a fault of ours: what is left goes back, due after a pause, then the fault goes on up
            self.given_back.append(GiveBack(lane.rest(), due_in=AFTER_A_FAULT))
            raise

    def _turn(self, attempt: Attempt | None) -> float:
        """Seconds until the attempt's endpoint has its turn (0: now, and it is taken): an
        endpoint's own pace, v1.3's like its other signals."""
        if attempt is None or not (self.current.beyond_contract and attempt.rate_limit):
            return 0.0
        return self.pacer.wait(attempt.endpoint_id, attempt.rate_limit, now_us=int(self.now() * 1_000_000))

    def _straggling(self, running: list[int]) -> set[str] | None:
        """None while a running lane is still moving; else the endpoints of the lanes that
        have each waited STRAGGLING seconds on one answer (none, when no lane runs)."""
        now, straggling = time.monotonic(), set()
        for number in running:
            flight = self.flights.get(number)
            if flight is None or now - flight[1] < STRAGGLING:
                return None
            straggling.add(flight[0])
        return straggling

    def _record(self) -> int:
        """Record what has come back; how many of those were sent."""
        ready: list[tuple[Attempt, Outcome]] = []
        sent = 0
        while not self.settled.empty():
            attempt, outcome, was_sent = self.settled.get()
            ready.append((attempt, outcome))
            sent += was_sent
        for start in range(0, len(ready), RECORD_EVERY):
            with connection():
                deliveries.record_many(ready[start:start + RECORD_EVERY], self.current.now(), self.current,
                                       beyond_contract=self.current.beyond_contract)
        return sent

    def _hand_back(self) -> list[Attempt]:
        """Give back what the lanes handed back: due now (returned, for the next round or
        job) or at an endpoint's turn (queued then, on the app's clock; a worker that stops
        first leaves them to the drains: they are due then)."""
        now, released = self.current.now(), []
        given_back = [given for given in self.given_back if given.attempts]
        for given in given_back:
            with connection():
                claims.release(given.attempts, now, due=now + timedelta(seconds=given.due_in))
            if not given.due_in:
                released += given.attempts
        for given in given_back:
            if given.due_in:
                try:
                    job_queue().enqueue_in(given.due_in, send_deliveries, [a.delivery_id for a in given.attempts])
                except Exception:  # Redis away: their due_at is in the database, and a drain takes them then
                    log.warning("could not queue %d paced webhook attempt(s) for later; the periodic drain "
                                "will take them when due", len(given.attempts), exc_info=True)
        if released:
            log.info("gave %d webhook attempt(s) back unsent (out of time in their claim or lane)",
                     len(released))
        return released


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
