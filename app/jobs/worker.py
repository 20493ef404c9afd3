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
from rq import SimpleWorker
from rq.cron import CronScheduler
from rq.exceptions import StopRequested

from app.telemetry import job_finished

log = logging.getLogger(__name__)


class Worker(SimpleWorker):
    heartbeat_every = 5.0  # seconds; far below RQ's worker TTL (420 s by default)
    _heartbeat_sent = None
    stopping = False

    def request_stop(self, signum, frame):  # RQ's SIGTERM/SIGINT handler
        self.stopping = True
        super().request_stop(signum, frame)

    _error = None

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
    """RQ's cron scheduler, telling a stop asked for from Redis going away."""

    stopping = False

    def _request_stop(self, signum, frame):  # RQ's SIGTERM/SIGINT handler
        self.stopping = True
        super()._request_stop(signum, frame)


def outliving_redis(name, make, run):
    """`run(make())` until it returns. RQ's worker and scheduler stop for good when Redis
    goes away at the wrong moment, and a Procfile runner would stop every process with
    them: this says so, waits (1 s, doubling to 30 s) and starts a new one, unless a stop
    was asked for. The database holds all pending work, so the
    sweeper then queues what was written meanwhile."""
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
