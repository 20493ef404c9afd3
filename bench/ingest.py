"""Ingest benchmark: 500-event batches through the service against a bare Peewee
`insert_many` of 500 similar rows, side by side in one run.

    .venv/bin/python bench/ingest.py [--db postgres|sqlite|both] [--batches 40] [--rounds 3]

The service is `wsgi:app` under gunicorn (1 sync worker) on a fresh database, with Redis
for the job queue (no worker runs, so only ingest is measured: validation, matching,
the insert, queueing the pairing job). One client posts batches of 500 new events, one
after the other: once without a header, and once with a fresh `Idempotency-Key` on each
batch, as the partner's client package sends one on every POST (the key claimed, the 207
kept sealed for 24 hours: two short write transactions more a batch). The bare side, in
this process, inserts 500 dict rows with Peewee's `insert_many(...).on_conflict_ignore()`
into a table with the same columns and the same unique index, in the same database.
Prints events/s of each and the ratios (target >= 0.5, with the key as without).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import peewee as pw
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.kernel.ids import new_id  # noqa: E402
from app.models import AttendanceEvent, db, make_database  # noqa: E402
from bench.read_path import flask, free_port, start_gunicorn  # noqa: E402

BATCH = 500


class BareEvent(pw.Model):
    """AttendanceEvent's columns and unique index, without the service around it."""

    id = pw.CharField(primary_key=True, max_length=40)
    company = pw.CharField(max_length=40)
    channel = pw.CharField(max_length=16)
    source = pw.CharField(max_length=100)
    external_id = pw.CharField(max_length=200)
    employee = pw.CharField(max_length=40, null=True)
    ref_type = pw.CharField(max_length=16)
    ref_value = pw.CharField(max_length=254)
    type = pw.CharField(max_length=16)
    at = pw.DateTimeField()
    branch_ref = pw.CharField(max_length=100, null=True)
    received_at = pw.DateTimeField()
    state = pw.CharField(max_length=16)

    class Meta:
        database = db
        table_name = "bench_bare_event"
        indexes = ((("company", "channel", "source", "external_id"), True),)


def batches(count, prefix):
    """`count` batches of 500 new events for the sandbox's ten employees."""
    now = datetime.now(UTC)
    for number in range(count):
        yield [{"external_id": f"{prefix}-{number}-{i}",
                "employee_ref": {"type": "employee_code", "value": f"SBX-{i % 10 + 1:03d}"},
                "type": ("clock_in", "clock_out")[i % 2],
                "at": (now - timedelta(days=2, minutes=number * BATCH + i)).isoformat(),
                "source": "bench-pos", "branch_ref": "B1"} for i in range(BATCH)]


def run_service(url, key, count, prefix, *, keyed=False):
    session = requests.Session()
    session.headers.update({"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    bodies = [json.dumps({"events": batch}) for batch in batches(count, prefix)]
    keys = [{"Idempotency-Key": str(uuid.uuid4())} if keyed else {} for _ in bodies]
    started = time.perf_counter()
    for body, headers in zip(bodies, keys, strict=True):
        response = session.post(f"{url}/v1/attendance/events", data=body, headers=headers)
        assert response.status_code == 207, response.text[:300]
    elapsed = time.perf_counter() - started
    assert all(r["status"] == "accepted" for r in response.json()["results"])
    return count * BATCH / elapsed


def run_bare(company_id, count, prefix):
    received = datetime.now(UTC).replace(tzinfo=None)
    prepared = [[{"id": new_id("aev"), "company": company_id, "channel": "partner_api", "source": e["source"],
                  "external_id": e["external_id"], "employee": None, "ref_type": "employee_code",
                  "ref_value": e["employee_ref"]["value"], "type": e["type"],
                  "at": datetime.fromisoformat(e["at"]).replace(tzinfo=None), "branch_ref": e["branch_ref"],
                  "received_at": received, "state": "pending"} for e in batch]
                for batch in batches(count, prefix)]
    started = time.perf_counter()
    for rows in prepared:
        BareEvent.insert_many(rows).on_conflict_ignore().execute()
    return count * BATCH / (time.perf_counter() - started)


def measure(kind, options):
    tmp = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    env = {**os.environ, "RATE_LIMIT_PER_MINUTE": "6000000", "REDIS_URL": "redis://127.0.0.1:6379/13"}
    database = f"partner_api_bench_ingest_{os.getpid()}"
    if kind == "postgres":
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-q", "-c",
                        f"CREATE DATABASE {database}"], check=True)
        env["DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:5432/{database}"
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.db"
    service = None
    try:
        flask(env, "db", "upgrade")
        sandbox = json.loads(flask(env, "sandbox", "create", "--country", "KW", "--email", "bench@example.com",
                                   "--json"))
        db.initialize(make_database(env["DATABASE_URL"]))
        db.connect()
        db.create_tables([BareEvent])
        port = free_port()
        service = start_gunicorn("wsgi:app", env, port)
        url = f"http://127.0.0.1:{port}"
        run_service(url, sandbox["api_key"], 4, "warm")  # warm up every side
        run_service(url, sandbox["api_key"], 4, "warm-keyed", keyed=True)
        run_bare(sandbox["company_id"], 4, "warm")
        best_service = best_keyed = best_bare = 0.0
        for number in range(options.rounds):  # interleaved; the best of each is kept
            best_service = max(best_service, run_service(url, sandbox["api_key"], options.batches, f"r{number}"))
            best_keyed = max(best_keyed, run_service(url, sandbox["api_key"], options.batches, f"k{number}",
                                                     keyed=True))
            best_bare = max(best_bare, run_bare(sandbox["company_id"], options.batches, f"r{number}"))
        stored = AttendanceEvent.select().where(AttendanceEvent.company == sandbox["company_id"]).count()
        expected = (8 + 2 * options.rounds * options.batches) * BATCH
        assert stored == expected, (stored, expected)
        db.close()
    finally:
        if service:
            service.send_signal(signal.SIGTERM)
            service.wait(timeout=20)
        if kind == "postgres":
            db.close_all()
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-q", "-c",
                            f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"], check=False)
    ratio = best_service / best_bare
    print(f"{kind:9} service {best_service:9,.0f} events/s   with Idempotency-Key {best_keyed:9,.0f} events/s   "
          f"bare insert_many {best_bare:9,.0f} rows/s   ratio {ratio:.2f}, with the key {best_keyed / best_bare:.2f} "
          f"(target >= 0.5)")
    return ratio


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("postgres", "sqlite", "both"), default="both")
    parser.add_argument("--batches", type=int, default=40, help="500-event batches per round and side")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    for kind in ("sqlite", "postgres") if options.db == "both" else (options.db,):
        measure(kind, options)


if __name__ == "__main__":
    main()
