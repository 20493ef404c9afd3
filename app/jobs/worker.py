"""The worker the Procfile starts: RQ's SimpleWorker (no fork per job), with its
standalone heartbeat sent at most every few seconds.

RQ refreshes the worker's key ("I am alive") several times per job, three Redis round
trips each, which is most of the cost of a short job. The key lives for the worker TTL
(minutes), so refreshing it every few seconds keeps the worker just as alive; the
heartbeats RQ sends inside a job's own pipeline are left as they are.
"""

import time

from rq import SimpleWorker


class Worker(SimpleWorker):
    heartbeat_every = 5.0  # seconds; far below RQ's worker TTL (420 s by default)
    _heartbeat_sent = None

    def heartbeat(self, timeout=None, pipeline=None):
        if pipeline is None and timeout is None:
            now = time.monotonic()
            if self._heartbeat_sent is not None and now - self._heartbeat_sent < self.heartbeat_every:
                return
            self._heartbeat_sent = now
        super().heartbeat(timeout, pipeline=pipeline)
