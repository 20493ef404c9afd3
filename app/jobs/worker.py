"""The worker and the scheduler the Procfile starts.

The worker is RQ's SimpleWorker (no fork per job), with its standalone heartbeat sent
at most every few seconds. Both outlive a Redis outage (`outliving_redis`).

RQ refreshes the worker's key ("I am alive") several times per job, three Redis round
trips each, which is most of the cost of a short job. The key lives for the worker TTL
(minutes), so refreshing it every few seconds keeps the worker just as alive; the
heartbeats RQ sends inside a job's own pipeline are left as they are.
"""

import logging
import time

import redis
from redis.exceptions import LockError
from rq import SimpleWorker
from rq.cron import CronScheduler
from rq.exceptions import StopRequested

from app.telemetry import job_finished

log = logging.getLogger(__name__)


class Worker(SimpleWorker):
    heartbeat_every = 5.0  # seconds; far below RQ's worker TTL (420 s by default)
    _heartbeat_sent = None
    _error = None  # the exception of the job in hand, if it raised
    stopping = False

    def request_stop(self, signum, frame):  # RQ's SIGTERM/SIGINT handler
        self.stopping = True
        super().request_stop(signum, frame)

    def perform_job(self, job, queue, *args, **kwargs):
        """RQ's, plus one line (and the counters) per job. RQ's own lines per job are
        turned down to warnings by the `jobs worker` command; its traceback of a failed
        job stays."""
        began, self._error = time.perf_counter(), None
        ok = super().perform_job(job, queue, *args, **kwargs)
        job_finished(job.func_name.rsplit(".", 1)[-1], time.perf_counter() - began,
                     None if ok else self._error or RuntimeError("failed"), job_id=job.id)
        return ok

    def handle_exception(self, job, *exc_info):
        self._error = exc_info[1]
        super().handle_exception(job, *exc_info)

    def heartbeat(self, timeout=None, pipeline=None):
        if pipeline is None and timeout is None:
            now = time.monotonic()
            if self._heartbeat_sent is not None and now - self._heartbeat_sent < self.heartbeat_every:
                return
            self._heartbeat_sent = now
        super().heartbeat(timeout, pipeline=pipeline)


class Scheduler(CronScheduler):
    """RQ's cron scheduler, telling a stop asked for from Redis going away, and one
    leader at a time: RQ's own would let two schedulers (a second host, a second unit
    started by mistake) each enqueue every periodic job.

    The leader holds a Redis lock (redis-py's, expiring after LEADER_SECONDS) and renews
    it on every pass of its loop (at most 60 s apart). Any other scheduler stands by,
    trying for the lock every STANDBY_SECONDS, and takes over when the leader stops or
    dies (at most LEADER_SECONDS later). Every job is idempotent, so a takeover that
    runs a job the old leader ran just before it died costs nothing but the work."""

    LEADER_KEY = "partner-api:scheduler:leader"
    LEADER_SECONDS = 150
    STANDBY_SECONDS = 15
    stopping = False
    leading = None  # not yet asked: its first answer is logged either way
    _lock = None

    def _request_stop(self, signum, frame):  # RQ's SIGTERM/SIGINT handler
        self.stopping = True
        super()._request_stop(signum, frame)

    def enqueue_jobs(self):
        return super().enqueue_jobs() if self.lead() else []

    def calculate_sleep_interval(self):
        return super().calculate_sleep_interval() if self.leading else self.STANDBY_SECONDS

    def lead(self):
        """Take or renew the lock; whether this scheduler leads now."""
        if self._lock is None:
            self._lock = self.connection.lock(self.LEADER_KEY, timeout=self.LEADER_SECONDS, blocking=False)
        was = self.leading
        try:
            self.leading = self._lock.reacquire() if self._lock.owned() else self._lock.acquire()
        except LockError:  # lost between asking and renewing: another took it
            self.leading = False
        if self.leading != was:
            log.info("scheduler %s: %s", self.name, "leads: it enqueues the periodic jobs" if self.leading else
                     "another scheduler leads; standing by")
        return self.leading

    def register_death(self, pipeline=None):
        if self.leading:
            try:
                self._lock.release()  # a standby takes over at its next try, not LEADER_SECONDS later
            except LockError:
                pass
            self.leading = False
        super().register_death(pipeline)


def outliving_redis(name, make, run):
    """`run(make())` until it returns. RQ's worker and scheduler stop for good when Redis
    goes away at the wrong moment, and a Procfile runner would stop every process with
    them: this says so, waits (1 s, doubling to 30 s) and starts a new one, unless a stop
    was asked for. The database holds all pending work, so the
    periodic jobs (the drain, the sweeper) then find what was written meanwhile."""
    wait = 1.0
    while True:
        running, began = None, time.monotonic()
        try:
            running = make()  # RQ's worker asks Redis things as it is made
            run(running)
            return
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            if running is not None and running.stopping:
                return
            wait = 1.0 if time.monotonic() - began > 60 else wait
            log.error("%s: Redis unreachable (%s); starting again in %.0f s", name, exc, wait)
        try:
            time.sleep(wait)  # SIGTERM still stops it here: RQ's handlers raise StopRequested
        except (StopRequested, KeyboardInterrupt):
            return
        wait = min(wait * 2, 30)
