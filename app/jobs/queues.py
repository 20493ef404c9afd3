"""Where jobs go: RQ over Redis, or a thread of this process when there is no Redis.

Both take `enqueue(function, *args)` with a job function (app/jobs), so the job code is
the same either way. The in-process runner is also handed the periodic jobs
(`app.jobs.periodic()`) and runs them, so the README's one run command gives a service
whose background work happens.

A job may also be queued to run later (`enqueue_in`), at a time on the app's clock: RQ's
own delayed enqueue (its scheduler, which `jobs worker` runs, moves the job to the queue
when it falls due), or the in-process runner's heap, checked against the same clock.
"""

import heapq
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from croniter import croniter
from rq import Queue

from app.extensions import service
from app.telemetry import job_finished

log = logging.getLogger(__name__)
QUEUE_NAME = "default"
RESULT_TTL = 60


MARK_SECONDS = 60  # a mark whose job was lost stops holding others back after this


@runtime_checkable
class JobQueue(Protocol):
    """Where a job goes, whichever runs it (RQJobs, InProcessRunner)."""

    def enqueue(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run `function(*args)` in a worker, inside the app's context."""

    def enqueue_once(self, mark: str, function: Callable[..., Any], *args: Any) -> None:
        """As enqueue, unless a job queued under `mark` has not started yet."""

    def enqueue_in(self, seconds: float, function: Callable[..., Any], *args: Any) -> None:
        """As enqueue, `seconds` later by the app's clock."""

    def started(self, mark: str) -> None:
        """The job queued under `mark` has started: the next enqueue_once queues again."""

    def for_command(self) -> AbstractContextManager[None]:
        """Around a CLI command: where its jobs run."""


def job_queue() -> JobQueue:
    """Where this app's jobs go: RQ (with Redis) or the in-process runner."""
    return service("jobs", JobQueue)  # type: ignore[type-abstract]


class RQJobs:
    def __init__(self, redis_client, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.redis, self.now = redis_client, now  # the app's clock
        self.queue = Queue(QUEUE_NAME, connection=redis_client)

    def enqueue_once(self, mark, function, *args):
        """Queue `function` unless one queued under `mark` has not started yet: a burst of
        commits queues one job, which takes everything they wrote (the job calls
        `started(mark)` first, so a commit after that queues the next)."""
        if self.redis.set(f"partner-api:queued:{mark}", "1", nx=True, ex=MARK_SECONDS):
            self.enqueue(function, *args)

    def started(self, mark):
        self.redis.delete(f"partner-api:queued:{mark}")

    def enqueue(self, function, *args):
        # Results are not read (the database records what a job did) but are kept a
        # minute: RQ expires a kept result in one call, and deletes one in many.
        return self.queue.enqueue(function, *args, result_ttl=RESULT_TTL, failure_ttl=7 * 24 * 3600)

    def enqueue_in(self, seconds, function, *args):
        """RQ's delayed enqueue, due at the app clock's now plus `seconds`; a worker's
        scheduler (`jobs worker` runs one) queues it then. RQ keeps whole seconds (it cuts
        the fraction off, which would run the job before its time): rounded up."""
        due = self.now() + timedelta(seconds=seconds)
        if due.microsecond:
            due = due.replace(microsecond=0) + timedelta(seconds=1)
        self.queue.enqueue_at(due, function, *args, result_ttl=RESULT_TTL, failure_ttl=7 * 24 * 3600)

    @contextmanager
    def for_command(self):
        """A CLI command's jobs go to the workers, as any process's."""
        yield


class InProcessRunner:
    """A daemon thread that runs queued jobs, the jobs queued for later once the app's
    clock (`now`) reaches their time, and the periodic schedule (name -> Periodic), each
    inside the app's context. Started on first use in each process (gunicorn forks after
    import)."""

    def __init__(self, app, periodic, *, now: Callable[[], datetime] | None = None, autostart=True):
        self.app, self.periodic, self.autostart = app, periodic, autostart
        self.now = now or (lambda: app.extensions["runtime"].now())  # the app's clock, read when asked
        self._queue: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...]]] = queue.Queue()
        self._later: list[tuple[datetime, int, Callable[..., Any], tuple[Any, ...]]] = []  # a heap, by due time
        self._order = itertools.count()  # ties keep their order, and functions are never compared
        self.quiet = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._marks: set[str] = set()

    def enqueue(self, function, *args):
        self._queue.put((function, args))
        self.ensure_started()

    def enqueue_once(self, mark, function, *args):
        """As RQJobs.enqueue_once, within this process."""
        with self._lock:
            if mark in self._marks:
                return
            self._marks.add(mark)
        self.enqueue(function, *args)

    def started(self, mark):
        with self._lock:
            self._marks.discard(mark)

    def enqueue_in(self, seconds, function, *args):
        with self._lock:
            heapq.heappush(self._later, (self.now() + timedelta(seconds=seconds), next(self._order), function, args))
        self.ensure_started()

    def _fallen_due(self):
        """Queue the jobs queued for later whose time the app's clock has reached."""
        now = self.now()
        with self._lock:
            while self._later and self._later[0][0] <= now:
                _, _, function, args = heapq.heappop(self._later)
                self._queue.put((function, args))

    def ensure_started(self):
        if not self.autostart or (self._thread is not None and self._thread.is_alive()):
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="jobs", daemon=True)
                self._thread.start()

    @contextmanager
    def for_command(self):
        """Around a CLI command. Without Redis no worker runs, and the command's process
        ends with it: what it queues runs here, before it returns (no thread is started,
        and the periodic jobs are left to the web process)."""
        before = self.autostart, self.quiet
        self.autostart, self.quiet = False, True  # its jobs' lines at DEBUG, unless one fails
        try:
            yield
        finally:
            try:
                self.run_pending()
            finally:
                self.autostart, self.quiet = before

    def run_pending(self):
        """Run every queued job now, and those queued for later whose time the app's clock
        has reached, in the caller's thread (tests, `jobs run-due`)."""
        self._fallen_due()
        while True:
            try:
                function, args = self._queue.get_nowait()
            except queue.Empty:
                return
            self._run(function, args)

    def _loop(self):
        next_run = {name: self._next(name, datetime.now(UTC), first=True) for name in self.periodic}
        while True:
            self._fallen_due()
            try:
                function, args = self._queue.get(timeout=1)
                self._run(function, args)
            except queue.Empty:
                pass
            now = datetime.now(UTC)
            for name, due in next_run.items():
                if now >= due:
                    self._run(self.periodic[name].function, ())
                    next_run[name] = self._next(name, now)

    def _next(self, name, now, first=False):
        job = self.periodic[name]
        if job.every:
            return now if first else now + timedelta(seconds=job.every)
        return croniter(job.cron, now).get_next(datetime)

    def _run(self, function, args):
        began, error = time.perf_counter(), None
        try:
            with self.app.app_context():
                function(*args)
        except Exception as exc:
            error = exc
            log.exception("job %s%r failed; the periodic jobs will find its work again", function.__name__, args)
        job_finished(function.__name__, time.perf_counter() - began, error, quiet=self.quiet)

