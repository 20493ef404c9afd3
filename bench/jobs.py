"""Jobs per second of one worker process: the Procfile's worker against RQ's default one.

    .venv/bin/python bench/jobs.py [--jobs 3000]

Enqueues trivial jobs (`app.jobs.bench.noop`) into a scratch Redis database and times a burst
run of each worker: `flask --app wsgi jobs worker --burst` (RQ's SimpleWorker, what the
Procfile starts) and `rq worker --burst` (RQ's default, one fork per job). Each worker
runs twice, with a small and a large batch, and the rate is the difference of the two,
so process start-up is not counted. Target: at least 200 jobs/s per process.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from redis import Redis
from rq import Queue

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.jobs.bench import noop  # noqa: E402
from app.jobs.queues import QUEUE_NAME, RESULT_TTL  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/13"


def timed_burst(command, env, count):
    redis = Redis.from_url(REDIS_URL)
    redis.flushdb()
    queue = Queue(QUEUE_NAME, connection=redis)
    with redis.pipeline() as pipe:
        for _ in range(count):
            queue.enqueue(noop, result_ttl=RESULT_TTL, pipeline=pipe)  # as RQJobs does
        pipe.execute()
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    left = queue.count
    if left:
        raise RuntimeError(f"{command[0]} left {left} jobs")
    return elapsed


def rate(command, env, small, large):
    return (large - small) / (timed_burst(command, env, large) - timed_burst(command, env, small))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=3000)
    options = parser.parse_args()
    small = max(50, options.jobs // 10)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "REDIS_URL": REDIS_URL, "DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
        bin_dir = Path(sys.executable).parent
        ours = rate([str(bin_dir / "flask"), "--app", "wsgi", "jobs", "worker", "--burst"], env,
                    small, options.jobs)
        forking = rate([str(bin_dir / "rq"), "worker", "--burst", "--url", REDIS_URL, QUEUE_NAME], env,
                       small, options.jobs // 5)
    Redis.from_url(REDIS_URL).flushdb()
    print(f"\njobs per second, one worker process, trivial jobs ({options.jobs} per burst)")
    print(f"  Procfile worker (SimpleWorker, no fork)   {ours:8.0f}   target >= 200")
    print(f"  RQ default worker (fork per job)            {forking:8.0f}")
    print(f"  ratio                                       {ours / forking:8.1f}x")


if __name__ == "__main__":
    main()
