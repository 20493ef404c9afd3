"""Console pages in Arabic against the same pages in English, side by side in one run.

    .venv/bin/python bench/console_language.py [--requests 200] [--employees 500] [--database-url postgresql://...]

A company whose staff HR imported (`employees import`) and a finalized payroll run, served
by the Procfile's web process (gunicorn with app/gunicorn_settings.py, 2 workers). Two HR
admins are signed in, one who chose English and one who chose Arabic (the `console_lang`
cookie the header's switch sets, kept as their choice when they sign in). For each page the two
ask in turn, `--requests` times each; prints each language's p95 and median and the
ratio. Target: Arabic's p95 within 10% of English's (ratio <= 1.10).
"""

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.client import imported_company, serve  # noqa: E402 (the bench's own helpers, after the path)
from bench.payroll import flask  # noqa: E402
from tests.helpers import free_port  # noqa: E402

PASSWORD = "a long bench password"
EMAILS = {"en": "hr-en@bench.example.com", "ar": "hr-ar@bench.example.com"}  # each keeps their own choice
PAGES = ("/console/employees", "/console/payroll", "/console/payroll/{run}", "/console/integrations",
         "/console/webhooks", "/console/attendance")


def seed(env: dict, employees: int, folder: str) -> str:
    """A live company with imported staff and two HR admins; the company's id."""
    company_id = imported_company(env, "Bench Trading", employees, folder)
    for email in EMAILS.values():
        flask(env, "users", "create", "--email", email, "--password", PASSWORD, "--company", company_id,
              "--role", "hr_admin")
    return company_id


def finalized_run(env: dict, base: str, company_id: str) -> str:
    """A finalized payroll run of the company's entity (read from GET /v1/company); its id."""
    _, out = flask(env, "keys", "create", "--company", company_id, "--scopes", "payroll:read", "--json")
    company = httpx.get(f"{base}/v1/company", headers={"Authorization": f"Bearer {json.loads(out)['api_key']}"})
    entity = company.raise_for_status().json()["entities"][0]["id"]
    _, out = flask(env, "payroll", "draft", "--entity", entity, "--month", "2026-10", "--json")
    run = json.loads(out)["payroll_run_id"]
    flask(env, "payroll", "finalize", run)
    return run


def browser(base: str, language: str) -> httpx.Client:
    """A signed-in browser that chose `language`."""
    client = httpx.Client(base_url=base, timeout=30, cookies={"console_lang": language})
    page = client.get("/console/sign-in").text
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page).group(1)
    signed = client.post("/console/sign-in", data={"email": EMAILS[language], "password": PASSWORD,
                                                   "csrf_token": token})
    assert signed.status_code == 302, signed.text
    assert f'<html lang="{language}"' in client.get("/console/employees").text
    return client


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=200, help="per page and language")
    parser.add_argument("--employees", type=int, default=500)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-console-")
    env = {**os.environ, "DATABASE_URL": options.database_url or f"sqlite:///{folder}/bench.db", "REDIS_URL": ""}
    flask(env, "db", "upgrade")
    company_id = seed(env, options.employees, folder)
    port = free_port()
    web = serve(env, port)
    results = []
    try:
        run = finalized_run(env, f"http://127.0.0.1:{port}", company_id)
        browsers = {language: browser(f"http://127.0.0.1:{port}", language) for language in ("en", "ar")}
        for path in (page.format(run=run) for page in PAGES):
            timings: dict[str, list[float]] = {"en": [], "ar": []}
            for client in browsers.values():  # warm: each worker, each catalog
                for _ in range(10):
                    client.get(path).raise_for_status()
            for _ in range(options.requests):
                for language, client in browsers.items():
                    began = time.perf_counter()
                    client.get(path).raise_for_status()
                    timings[language].append(time.perf_counter() - began)
            results.append((path, timings))
    finally:
        web.terminate()
        web.wait(timeout=30)
    database = env["DATABASE_URL"].split(":")[0]
    print(f"console pages, {options.requests} requests per page and language, interleaved; {database}, "
          f"the Procfile's web process (2 workers), {options.employees} employees")
    print(f"  {'page':<28} {'en p95':>8} {'ar p95':>8} {'ratio':>6}   {'en med':>8} {'ar med':>8}")
    worst = 0.0
    for path, timings in results:
        english, arabic = p95(timings["en"]), p95(timings["ar"])
        worst = max(worst, arabic / english)
        print(f"  {path[:28]:<28} {english * 1000:6.1f}ms {arabic * 1000:6.1f}ms {arabic / english:6.2f}   "
              f"{statistics.median(timings['en']) * 1000:6.1f}ms {statistics.median(timings['ar']) * 1000:6.1f}ms")
    print(f"  worst ratio {worst:.2f}  (target <= 1.10)")


if __name__ == "__main__":
    main()
