"""Draft and finalize of a large legal entity, with the department split on and off.

    .venv/bin/python bench/payroll.py [--employees 10000] [--database-url postgresql://...]

Two companies with the same staff (imported by `employees import`, as HR would), one
whose journals split expense lines by department (issue 34, cost centres: 40
departments, a few under the three-person floor), one whose do not. Each month is drafted
and finalized by the commands HR runs (`flask --app wsgi payroll draft`, `payroll
finalize`), as processes, so each figure includes the command's start. Target: with the
split, at most 1.5x the time without it.
"""

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def staff_csv(count: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["staff_number", "name_en", "employment_type", "hire_date", "basic_salary", "housing_allowance",
                     "department", "nationality"])
    for n in range(count):
        department = f"Department {n % 40:02d}" if n % 500 else f"Tiny {n}"  # a few under the floor
        writer.writerow([f"B-{n:05d}", f"Employee {n}", "full_time", f"{2010 + n % 15}-0{1 + n % 9}-15",
                         f"{600 + n % 900}.000", "150.000", department, "IN"])
    return out.getvalue()


def flask(env: dict, *args: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([str(Path(sys.executable).parent / "flask"), "--app", "wsgi", *args], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    return time.perf_counter() - started, done.stdout


def company(env: dict, name: str, staff: str, split: str, folder: str) -> str:
    _, out = flask(env, "companies", "create", "--name", name, "--country", "KW", "--json")
    company_id = json.loads(out)["company_id"]
    path = Path(folder) / f"{name}.csv"
    path.write_text(staff, encoding="utf-8")
    flask(env, "employees", "import", str(path), "--company", company_id)
    flask(env, "payroll", "accounts", "split", "--company", company_id, "--by", split)
    return company_id


def entity_of(env: dict, company_id: str) -> str:
    os.environ.update(DATABASE_URL=env["DATABASE_URL"])
    from app import create_app
    from app.models import Entity
    app = create_app()
    with app.app_context():
        return Entity.get(Entity.company == company_id).id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--employees", type=int, default=10_000)
    parser.add_argument("--database-url", default=None, help="PostgreSQL to measure on (default: a SQLite file)")
    parser.add_argument("--months", type=int, default=2)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": options.database_url or f"sqlite:///{folder}/bench.db"}
        env.pop("REDIS_URL", None)
        flask(env, "db", "upgrade")
        staff = staff_csv(options.employees)
        figures = {}
        for split in ("none", "department"):
            entity = entity_of(env, company(env, f"Bench {split}", staff, split, folder))
            drafts, finals = [], []
            for month in range(1, options.months + 1):
                took, out = flask(env, "payroll", "draft", "--entity", entity, "--month", f"2026-{month:02d}",
                                  "--json")
                drafts.append(took)
                took, _ = flask(env, "payroll", "finalize", json.loads(out)["payroll_run_id"])
                finals.append(took)
            figures[split] = (min(drafts), min(finals))
    (draft_off, final_off), (draft_on, final_on) = figures["none"], figures["department"]
    database = "PostgreSQL" if options.database_url else "SQLite"
    print(f"\npayroll draft + finalize, {options.employees} employees, one entity, {database} "
          f"(seconds, each a `flask` process, best of {options.months} months)")
    print(f"  without a split   draft {draft_off:6.2f}   finalize {final_off:6.2f}   both {draft_off + final_off:6.2f}")
    print(f"  by department     draft {draft_on:6.2f}   finalize {final_on:6.2f}   both {draft_on + final_on:6.2f}")
    print(f"  ratio             {(draft_on + final_on) / (draft_off + final_off):.2f}x   target <= 1.5x")


if __name__ == "__main__":
    main()
