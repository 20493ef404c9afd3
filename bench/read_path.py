"""Read-path benchmark: the service against the bare stack, side by side in one run.

    .venv/bin/python bench/read_path.py [--db postgres|sqlite] [--seconds 10]

Starts the service (`wsgi:app`) and `bench/bare_app.py` under the same gunicorn settings
(1 sync worker), loads each in turn with wrk (1 thread, 4 connections), `--rounds` times
interleaved, and prints the best req/s and p99 of each and their ratios for:
  GET /v1/company                 vs a bare JSON endpoint          target >= 0.5
  GET /v1/company, OAuth token    vs the same with a key           target >= 0.9
  GET /v1/employees?limit=200     vs bare Peewee select of 200 rows target >= 0.5
  page 500 vs page 1 of a 100,000-employee company (p99)          target <= 1.3x
  GET /v1/employees?limit=200&updated_since=... (v1.3) vs the same bare 200 rows  >= 0.5
  GET /v1/events?limit=200 (v1.3) vs the same bare 200 rows       target >= 0.5
  events page 500 vs page 1 of a company with 1,000,000 events (p99)  target <= 1.3x
  resident memory of one worker after 2,000 requests             target <= 2x bare
Every answer of the service carries its ETag (v1.3), so the company ratio is also what
the ETag costs.
With --db postgres (default) a fresh database is made on 127.0.0.1 and Redis is used for
the rate limit, as in production.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def flask(env, *args):
    out = subprocess.run([PY, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout


def seed_big_company(env, employees):
    """A live company with `employees` employees, inserted in bulk; returns (id, key)."""
    company_id = json.loads(flask(env, "companies", "create", "--name", "Big Co", "--country", "SA",
                                  "--json"))["company_id"]
    flask(env, "partner-api", "enable", company_id)
    key = json.loads(flask(env, "keys", "create", "--company", company_id, "--scopes",
                           "employees:read,payroll:read", "--json"))["api_key"]
    code = f"""
import os
from datetime import datetime, timedelta, date
from app.models import db, make_database, Employee, Entity
from app.domain.kernel.ids import new_id
db.initialize(make_database(os.environ["DATABASE_URL"]))
entity = Entity.get(Entity.company == {company_id!r})
start = datetime(2020, 1, 1)
with db.atomic():
    for chunk in range(0, {employees}, 1000):
        Employee.insert_many([dict(
            id=new_id("emp"), company={company_id!r}, entity=entity.id, staff_number=f"E{{i:06d}}",
            name_en=f"Employee {{i}}", name_ar=None, job_title="Associate", department="Operations",
            status="active", employment_type="full_time", country="SA",
            contact_email=f"e{{i}}@big.example.com", contact_phone="+966500000000",
            hire_date=date(2020, 1, 1), created_at=start + timedelta(seconds=i), updated_at=start,
            nationality="IN", is_national=False, basic_salary_minor=500000,
        ) for i in range(chunk, min(chunk + 1000, {employees}))]).execute()
db.execute_sql("ANALYZE")  # as autovacuum would on a live table
"""
    subprocess.run([PY, "-c", code], cwd=ROOT, env=env, check=True)
    return company_id, key


def seed_events(env, company_id, count):
    """`count` employee.updated events of the company, in one SQL statement (each with
    its own id and its own envelope text, as the outbox holds them)."""
    code = f"""
import os
import peewee as pw
from app.models import db, make_database
db.initialize(make_database(os.environ["DATABASE_URL"]))
template = ('{{"id":"EVT","type":"employee.updated","created_at":"2026-11-01T00:00:00Z","company_id":"{company_id}",'
            '"livemode":true,"data":{{"employee":{{"id":"emp_5hGk2LmQ9wXr3TbN7vYc1P","staff_number":"E000001",'
            '"name":{{"en":"Employee 1","ar":null}},"job_title":"Associate","department":"Operations",'
            '"status":"active","employment_type":"full_time","country":"SA","entity_id":"ent_8sQw2ZfLk4PnTr6YbVx0Md",'
            '"branch":null,"manager_id":null,"contact_email":"e1@big.example.com","contact_phone":"+966500000000",'
            '"hire_date":"2020-01-01","termination_date":null,"created_at":"2020-01-01T00:00:00Z",'
            '"updated_at":"2026-11-01T00:00:00Z"}}}}}}')
if isinstance(db.obj, pw.SqliteDatabase):
    rows = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT i FROM n"
    stamp = "datetime('2026-11-01', '+' || (i / 1000) || ' seconds')"
    ident = "'evt_' || substr('0000000000000000000000' || i, -22)"
else:
    rows = "SELECT i FROM generate_series(1, %s) AS n(i)"
    stamp = "timestamp '2026-11-01' + (i / 1000) * interval '1 second'"
    ident = "'evt_' || lpad(i::text, 22, '0')"
db.execute_sql(f"INSERT INTO outbox_event (id, company_id, type, payload, created_at, dispatched_at, commit_seq) "
               f"SELECT {{ident}}, '{company_id}', 'employee.updated', replace({{repr(template)}}, 'EVT', {{ident}}), "
               f"{{stamp}}, {{stamp}}, i FROM ({{rows}}) AS numbers", ({count},))
db.execute_sql("ANALYZE")
"""
    subprocess.run([PY, "-c", code], cwd=ROOT, env=env, check=True)


def oauth_access_token(env, company_id):
    """An OAuth access token for the sandbox `company_id`: an app registered under it
    (development mode reaches its owner's sandbox), approved by the owner, the code
    redeemed, as /oauth/token does."""
    client_id = json.loads(flask(env, "oauth", "apps", "create", "--company", company_id, "--name", "Bench",
                                 "--redirect-uri", "https://bench.example/cb", "--scopes", "employees:read",
                                 "--json"))["client_id"]
    code = f"""
import os
from app import create_app
from app.domain.oauth import apps, connections
from app.models import Company, User
app = create_app(DATABASE_URL=os.environ["DATABASE_URL"])
with app.app_context():
    company = Company.get_by_id({company_id!r})
    owner, client = User.get_by_id(company.sandbox_owner_id), apps.get_app({client_id!r})
    verifier = "v" * 43
    issued = connections.issue_code(client, owner, company, "https://bench.example/cb", ("employees:read",),
                                    connections.s256(verifier), app.extensions["runtime"])
    print(connections.redeem_code(client, issued, "https://bench.example/cb", verifier,
                                  app.extensions["runtime"]).access_token)
"""
    done = subprocess.run([PY, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return done.stdout.strip().splitlines()[-1]


def start_gunicorn(app_spec, env, port):
    process = subprocess.Popen(
        [PY, "-m", "gunicorn", "--workers", "1", "--bind", f"127.0.0.1:{port}", "--log-level", "warning", app_spec],
        cwd=ROOT, env=env,
    )
    for _ in range(300):
        try:
            requests.get(f"http://127.0.0.1:{port}/nothing", timeout=(1, 10))  # a booting worker may be slow
            return process
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.05)
    raise RuntimeError(f"{app_spec} did not start")


def worker_pid(master_pid):
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master_pid:
                return int(entry)
    raise RuntimeError("no worker")


def rss_kib(pid):
    return int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1))


def wrk(url, seconds, headers=()):
    args = ["wrk", "-t1", "-c4", f"-d{seconds}s", "--latency"]
    for header in headers:
        args += ["-H", header]
    out = subprocess.run([*args, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx:
        raise RuntimeError(f"{url}: {non2xx.group(1)} non-2xx responses")
    return rps, p99_ms


def best(kept, measured):
    """Best of the rounds: highest req/s and lowest p99 (other processes on the machine
    only ever make a run slower)."""
    if kept is None:
        return measured
    return max(kept[0], measured[0]), min(kept[1], measured[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each load; the best is kept")
    parser.add_argument("--employees", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=1_000_000)
    options = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: sudo apt-get install -y wrk")

    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    env = {**os.environ, "RATE_LIMIT_PER_MINUTE": "6000000", "REDIS_URL": ""}
    if options.db == "postgres":
        database = f"partner_api_bench_{os.getpid()}"
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-q", "-c",
                        f"CREATE DATABASE {database}"], check=True)
        env.update(DATABASE_URL=f"postgresql://postgres@127.0.0.1:5432/{database}", REDIS_URL="redis://127.0.0.1:6379/14")
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.db"
    processes = []
    try:
        flask(env, "db", "upgrade")
        sandbox = json.loads(flask(env, "sandbox", "create", "--country", "KW", "--email", "bench@example.com",
                                   "--json"))
        big_company, big_key = seed_big_company(env, options.employees)
        seed_events(env, big_company, options.events)
        access_token = oauth_access_token(env, sandbox["company_id"])
        service_port, bare_port = free_port(), free_port()
        service = start_gunicorn("wsgi:app", env, service_port)
        bare = start_gunicorn("bench.bare_app:app", {**env, "BENCH_COMPANY_ID": big_company}, bare_port)
        processes += [service, bare]
        svc, raw = f"http://127.0.0.1:{service_port}", f"http://127.0.0.1:{bare_port}"
        sandbox_auth = [f"Authorization: Bearer {sandbox['api_key']}"]
        token_auth = [f"Authorization: Bearer {access_token}"]
        big_auth = [f"Authorization: Bearer {big_key}"]
        auth_header = {"Authorization": f"Bearer {big_key}"}

        # Warm up, then memory after 2,000 requests of the employees read.
        session = requests.Session()
        for _ in range(1000):
            session.get(f"{svc}/v1/employees?limit=200", headers=auth_header).raise_for_status()
            session.get(f"{raw}/employees").raise_for_status()
        for _ in range(500):
            session.get(f"{svc}/v1/company", headers=auth_header).raise_for_status()
            session.get(f"{raw}/json").raise_for_status()
        svc_rss, raw_rss = rss_kib(worker_pid(service.pid)), rss_kib(worker_pid(bare.pid))

        # The cursor of page 500 (limit 200: the last page of 100,000).
        cursor, url = None, None
        for _ in range(499):
            url = f"{svc}/v1/employees?limit=200" + (f"&cursor={cursor}" if cursor else "")
            cursor = session.get(url, headers=auth_header).json()["next_cursor"]
        page500 = f"{svc}/v1/employees?limit=200&cursor={cursor}"
        assert len(session.get(page500, headers=auth_header).json()["data"]) == 200
        cursor = None
        for _ in range(499):
            url = f"{svc}/v1/events?limit=200" + (f"&cursor={cursor}" if cursor else "")
            cursor = session.get(url, headers=auth_header).json()["next_cursor"]
        events500 = f"{svc}/v1/events?limit=200&cursor={cursor}"
        assert len(session.get(events500, headers=auth_header).json()["data"]) == 200
        since = f"{svc}/v1/employees?limit=200&updated_since=2019-12-31T00:00:00Z"
        assert len(session.get(since, headers=auth_header).json()["data"]) == 200

        loads = {
            "company": ((f"{svc}/v1/company", sandbox_auth), (f"{raw}/json", ())),
            "token": ((f"{svc}/v1/company", token_auth), (f"{svc}/v1/company", sandbox_auth)),
            "employees": ((f"{svc}/v1/employees?limit=200", big_auth), (f"{raw}/employees", ())),
            "pk_select": (None, (f"{raw}/pk", ())),
            "page": ((f"{svc}/v1/employees?limit=200", big_auth), (page500, big_auth)),
            "updated_since": ((since, big_auth), (f"{raw}/employees", ())),
            "events": ((f"{svc}/v1/events?limit=200", big_auth), (f"{raw}/employees", ())),
            "events_page": ((f"{svc}/v1/events?limit=200", big_auth), (events500, big_auth)),
        }
        results = {load: [None, None] for load in loads}
        for _ in range(options.rounds):  # interleaved, so a noisy moment hits both sides
            for measured, pair in loads.items():
                for side, load in enumerate(pair):
                    if load:
                        results[measured][side] = best(results[measured][side], wrk(load[0], options.seconds, load[1]))
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=20)
        if options.db == "postgres":
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-q", "-c",
                            f"DROP DATABASE IF EXISTS {database}"], check=False)
        shutil.rmtree(tmp, ignore_errors=True)

    ((c_svc, c_raw), (t_svc, t_key), (e_svc, e_raw), (_, pk_raw), (p1, p500), (u_svc, u_raw), (f_svc, f_raw),
     (f1, f500)) = results.values()
    print(f"\nread path, {options.db}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
          f"1 gunicorn sync worker each, wrk -t1 -c4 -d{options.seconds}s, best of {options.rounds}")
    print(f"{'':34}{'req/s':>10}{'p99 ms':>10}")
    rows = [("GET /v1/company", c_svc), ("bare JSON endpoint", c_raw), ("bare one-PK-select endpoint", pk_raw),
            ("GET /v1/company, OAuth token", t_svc), ("GET /v1/company, same key again", t_key),
            ("GET /v1/employees?limit=200", e_svc), ("bare Peewee 200 rows", e_raw),
            ("employees page 1 (100k company)", p1), ("employees page 500", p500),
            ("GET /v1/employees?updated_since=", u_svc), ("bare Peewee 200 rows, again", u_raw),
            ("GET /v1/events?limit=200", f_svc), ("bare Peewee 200 rows, once more", f_raw),
            (f"events page 1 ({options.events:,} events)", f1), ("events page 500", f500)]
    for label, (rps, p99) in rows:
        print(f"{label:34}{rps:>10.0f}{p99:>10.2f}")
    print(f"\ncompany / bare JSON          {c_svc[0] / c_raw[0]:.2f}  (target >= 0.5; "
          f"bare PK select / bare JSON = {pk_raw[0] / c_raw[0]:.2f})")
    print(f"company: token / key         {t_svc[0] / t_key[0]:.2f}  (target >= 0.9)")
    print(f"employees / bare 200 rows    {e_svc[0] / e_raw[0]:.2f}  (target >= 0.5)")
    print(f"page 500 / page 1 p99        {p500[1] / p1[1]:.2f}x (req/s {p500[0] / p1[0]:.2f}; target <= 1.3x)")
    print(f"updated_since / bare 200     {u_svc[0] / u_raw[0]:.2f}  (target >= 0.5)")
    print(f"events / bare 200 rows       {f_svc[0] / f_raw[0]:.2f}  (target >= 0.5)")
    print(f"events page 500 / page 1 p99 {f500[1] / f1[1]:.2f}x (req/s {f500[0] / f1[0]:.2f}; target <= 1.3x)")
    print(f"worker RSS service / bare    {svc_rss / raw_rss:.2f}  ({svc_rss} KiB vs {raw_rss} KiB; target <= 2)")


if __name__ == "__main__":
    main()
