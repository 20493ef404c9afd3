"""The counters behind `/metrics` (Prometheus text format, prometheus-client).

Counted as they happen, in every process: requests by operation and status, their
latency, rate-limit refusals, jobs run and failed. Read from the database at each
scrape: the outbox's lag, webhook attempts by status and due, disabled endpoints.

gunicorn runs several web processes and the worker is another, so with METRICS_DIR set
(the deploy files set it) each process writes its counters to files there and a scrape
adds up all of them: prometheus-client's multiprocess mode. Without it a scrape sees
the answering process's own counts only (fine for one process, as in the tests).
Each process, as it starts, removes the files of processes that have ended: a web
worker replaced at every reload would otherwise leave its files there for good, and
every scrape reads them all. Their counts leave the sums then, which Prometheus reads
as a counter reset (`rate()` and `increase()` carry on). The directory is best on a
tmpfs (`/run`), emptied at boot.
"""

import os

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest, values
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from app.domain.kernel import events
from app.domain.webhooks import deliveries, endpoints
from app.models.base import connection

PREFIX = "partner_api"
DELIVERY_STATUSES = ("pending", "sending", "succeeded", "failed")

# Every metric has labels, so none holds a value before its first use: `use_directory`
# can still choose where values live.
REQUESTS = Counter(f"{PREFIX}_requests", "HTTP requests answered, by operation and status.",
                   ["operation", "status"])
LATENCY = Histogram(f"{PREFIX}_request_duration_seconds", "Time to answer a request, by operation.",
                    ["operation"], buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
RATE_LIMITED = Counter(f"{PREFIX}_rate_limit_refusals", "Requests refused with 429, by operation.", ["operation"])
JOBS = Counter(f"{PREFIX}_jobs", "Background jobs run, by job and outcome (ok, failed).", ["job", "outcome"])
JOB_SECONDS = Histogram(f"{PREFIX}_job_duration_seconds", "Time a background job ran, by job.", ["job"],
                        buckets=(.01, .05, .1, .5, 1, 5, 10, 30, 60, 300))


def use_directory(path):
    """Multiprocess mode: this process's counters go to files under `path`, where the
    files of ended processes are removed. Call before the first count (create_app does,
    when METRICS_DIR is set)."""
    os.makedirs(path, exist_ok=True)
    remove_ended(path)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    if values.ValueClass is not values.MultiProcessValue:
        values.ValueClass = values.MultiProcessValue()


def remove_ended(path: str) -> int:
    """Remove prometheus-client's files (`<kind>_<pid>.db`) whose process has ended;
    returns how many."""
    removed = 0
    for name in os.listdir(path):
        stem, _, pid = name.removesuffix(".db").rpartition("_")
        if not name.endswith(".db") or not stem or not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            os.remove(os.path.join(path, name))
            removed += 1
        except FileNotFoundError:  # another process starting at the same moment was first
            pass
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def request_done(operation, status, seconds):
    REQUESTS.labels(operation, str(status)).inc()
    LATENCY.labels(operation).observe(seconds)
    if status == 429:
        RATE_LIMITED.labels(operation).inc()


def job_done(name, seconds, ok):
    JOBS.labels(name, "ok" if ok else "failed").inc()
    JOB_SECONDS.labels(name).observe(seconds)


def scrape(directory, now):
    """The text a scrape answers: the counters (all processes' with a directory) and
    what the database holds now."""
    sources = [_Backlog(now)]
    if directory:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=directory)
        sources.append(registry)
    else:
        sources.append(REGISTRY)
    return generate_latest(_Together(sources))


class _Together:
    def __init__(self, sources):
        self.sources = sources

    def collect(self):
        for source in self.sources:
            yield from source.collect()


class _Backlog:
    """The database's view, read at each scrape."""

    def __init__(self, now):
        self.now = now

    def collect(self):
        with connection():
            outbox = events.backlog(self.now)
            due = deliveries.backlog(self.now)
            by_status = deliveries.counts_by_status()
            disabled = endpoints.disabled_counts()
        yield GaugeMetricFamily(f"{PREFIX}_outbox_pending", "Events written and not yet dispatched.",
                                value=outbox.count)
        yield GaugeMetricFamily(f"{PREFIX}_outbox_oldest_pending_seconds",
                                "Age of the oldest event not yet dispatched (0 when none waits).",
                                value=outbox.oldest_seconds or 0)
        attempts = GaugeMetricFamily(f"{PREFIX}_webhook_deliveries", "Webhook attempts in the kept log, by status.",
                                     labels=["status"])
        for status in DELIVERY_STATUSES:
            attempts.add_metric([status], by_status.get(status, 0))
        yield attempts
        yield GaugeMetricFamily(f"{PREFIX}_webhook_deliveries_due", "Webhook attempts due now and not sent.",
                                value=due.count)
        yield GaugeMetricFamily(f"{PREFIX}_webhook_oldest_due_seconds",
                                "How long the oldest due webhook attempt has waited (0 when none).",
                                value=due.oldest_seconds or 0)
        off = GaugeMetricFamily(f"{PREFIX}_webhook_endpoints_disabled", "Webhook endpoints disabled, by reason.",
                                labels=["reason"])
        for reason, count in sorted(disabled.items(), key=lambda item: item[0] or ""):
            off.add_metric([reason or "unknown"], count)
        yield off
