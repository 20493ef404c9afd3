"""Listing employees through the partner's Python client against a bare httpx loop over the
same pages, side by side in one run.

    .venv/bin/python bench/client.py [--employees 10000] [--limit 200] [--rounds 5] [--database-url postgresql://...]
                                     [--typescript]

A company whose staff HR imported (`flask --app wsgi employees import`, 10,000 rows), served
by the Procfile's web process (gunicorn with app/gunicorn_settings.py, 2 workers). Each
round lists every employee twice, interleaved: with `Client.employees.list(limit=...)`
(models, money, retries, the cursor followed for you) and with a plain `httpx.Client` loop
that asks each page, parses its JSON and follows `next_cursor`; both read each employee's
staff number. Prints the best time of
each and the ratio. Target: the client costs at most 1.2x the bare loop.

With --typescript, the same service is then listed by the TypeScript client against a bare
fetch loop in one Node process (bench/client.mjs; the package built in place first: `cd
clients/typescript && npm ci && npm run build`), with the same target.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))

from partner_api import Client  # noqa: E402

from bench.payroll import flask, staff_csv  # noqa: E402 (the bench's own helpers, after the path)
from tests.helpers import free_port  # noqa: E402


def imported_company(env: dict, name: str, employees: int, folder: str) -> str:
    """A live Kuwaiti company with `employees` imported as HR imports them; its id."""
    _, out = flask(env, "companies", "create", "--name", name, "--country", "KW", "--json")
    company_id = json.loads(out)["company_id"]
    flask(env, "partner-api", "enable", company_id)
    path = Path(folder) / "staff.csv"
    path.write_text(staff_csv(employees), encoding="utf-8")
    flask(env, "employees", "import", str(path), "--company", company_id)
    return company_id


def seed(env: dict, employees: int, folder: str) -> str:
    """A live company with `employees` imported as HR imports them; a key that reads them."""
    company_id = imported_company(env, "Listing Co", employees, folder)
    _, out = flask(env, "keys", "create", "--company", company_id, "--scopes", "employees:read", "--json")
    return json.loads(out)["api_key"]


def serve(env: dict, port: int) -> subprocess.Popen:
    """The Procfile's `web` line, as honcho or systemd runs it."""
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "python:app.gunicorn_settings", "wsgi:app"],
        cwd=ROOT, env={**env, "PORT": str(port), "WEB_CONCURRENCY": "2", "HOST": "127.0.0.1"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the web process did not start")


def with_client(base: str, key: str, limit: int) -> tuple[float, int]:
    started = time.perf_counter()
    with Client(api_key=key, base_url=base) as client:
        count = len({employee.staff_number for employee in client.employees.list(limit=limit)})
    return time.perf_counter() - started, count


def bare(base: str, key: str, limit: int) -> tuple[float, int]:
    started = time.perf_counter()
    count, params = 0, {"limit": str(limit)}
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as http:
        while True:
            page = http.get("/v1/employees", params=params).json()
            count += len({employee["staff_number"] for employee in page["data"]})
            if not page["next_cursor"]:
                break
            params["cursor"] = page["next_cursor"]
    return time.perf_counter() - started, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--employees", type=int, default=10_000)
    parser.add_argument("--limit", type=int, default=200, help="the page size both ask for")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--typescript", action="store_true", help="also the TypeScript client against bare fetch")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-client-")
    env = {**os.environ, "DATABASE_URL": options.database_url or f"sqlite:///{folder}/bench.db", "REDIS_URL": "",
           "RATE_LIMIT_PER_MINUTE": "6000000"}
    flask(env, "db", "upgrade")
    key = seed(env, options.employees, folder)
    port = free_port()
    web = serve(env, port)
    base = f"http://127.0.0.1:{port}"
    try:
        bare(base, key, options.limit)  # warm both workers and the database's cache
        timings: dict[str, list[float]] = {"client": [], "bare": []}
        for _ in range(options.rounds):
            for name, run in (("client", with_client), ("bare", bare)):
                seconds, count = run(base, key, options.limit)
                assert count == options.employees, (name, count)
                timings[name].append(seconds)
        if options.typescript:
            done = subprocess.run(["node", str(ROOT / "bench" / "client.mjs"), base, key, str(options.employees),
                                   str(options.limit), str(options.rounds)], capture_output=True, text=True,
                                  check=True)
            node = json.loads(done.stdout)
    finally:
        web.terminate()
        web.wait(timeout=30)
    client_best, bare_best = min(timings["client"]), min(timings["bare"])
    pages = -(-options.employees // options.limit)
    print(f"{options.employees:,} employees in {pages} pages of {options.limit}, best of {options.rounds}, "
          f"{env['DATABASE_URL'].split(':')[0]}, the Procfile's web process (2 workers)")
    print(f"  partner_api client  {client_best:7.3f} s  ({options.employees / client_best:,.0f} employees/s)")
    print(f"  bare httpx loop     {bare_best:7.3f} s  ({options.employees / bare_best:,.0f} employees/s)")
    print(f"  ratio {client_best / bare_best:.2f}x  (target <= 1.2x)")
    if options.typescript:
        print(f"  TypeScript client   {node['client']:7.3f} s  ({options.employees / node['client']:,.0f} employees/s)")
        print(f"  bare fetch loop     {node['bare']:7.3f} s  ({options.employees / node['bare']:,.0f} employees/s)")
        print(f"  ratio {node['client'] / node['bare']:.2f}x  (target <= 1.2x)")


if __name__ == "__main__":
    main()
