"""Background work: `flask --app wsgi jobs worker|scheduler|run-due|reconcile`."""

import gc
import json
import os
import time

import click
from flask import current_app
from flask.cli import AppGroup
from rq import Queue

from app.cli.common import one_line_errors, reported
from app.jobs import periodic, reconcile, sweeper
from app.jobs.queues import QUEUE_NAME
from app.jobs.worker import Scheduler, Worker, outliving_redis

jobs_cli = AppGroup("jobs", help="Background jobs (RQ with Redis; in process without).")


def _redis_for_workers():
    from redis import Redis

    url = current_app.config["REDIS_URL"]
    if not url:
        raise click.ClickException("REDIS_URL is not set: without Redis the web process runs the jobs itself")
    connection = Redis.from_url(url)  # no socket timeout: the worker blocks on the queue
    # Unreachable at start is a setting to fix, said in one line; an outage later is
    # outlived (app/jobs/worker.py).
    connection.ping()
    return connection


@jobs_cli.command("worker")
@click.option("--burst", is_flag=True, help="Stop when the queue is empty.")
@click.option("--log-level", default="WARNING", help="RQ's own log level (INFO adds its lines per job to ours).")
@reported
def worker(burst, log_level):
    """Run queued jobs in this process, without a fork per job (app/jobs/worker.py), with
    RQ's scheduler beside it: it queues the jobs queued for later (`enqueue_in`) when
    they fall due (one worker's scheduler does it at a time)."""
    connection = _redis_for_workers()
    # What starting made (modules, the app: most of the heap) is left out of every
    # collection from now on: a full collection held the GIL for 40-80 ms while a drain
    # ran, and every lane stood still meanwhile.
    gc.freeze()
    outliving_redis("worker", lambda: Worker([Queue(QUEUE_NAME, connection=connection)], connection=connection),
                    lambda worker: worker.work(burst=burst, logging_level=log_level, with_scheduler=True))


@jobs_cli.command("scheduler")
@reported
def scheduler():
    """Enqueue the periodic jobs: a drain of the outbox every few seconds, the sweeper every
    SWEEP_SECONDS, reconciliation nightly.
    One leads at a time; another stands by (app/jobs/worker.py)."""
    connection = _redis_for_workers()
    # RQ reads cron times in the host's local time zone; the schedule is written in UTC.
    os.environ["TZ"] = "UTC"
    time.tzset()

    def make():
        made = Scheduler(connection=connection)
        for job in periodic(current_app.config["SWEEP_SECONDS"]).values():
            made.register(job.function, QUEUE_NAME, interval=job.every, cron=job.cron)
        return made

    outliving_redis("scheduler", make, Scheduler.start)


@jobs_cli.command("run-due")
@one_line_errors
def run_due():
    """Do all due work now, in this process (no worker needed)."""
    click.echo(json.dumps(sweeper.run_due()))


@jobs_cli.command("reconcile")
@one_line_errors
def reconcile_now():
    """Run the nightly reconciliation now."""
    click.echo(json.dumps(reconcile.reconcile()))
