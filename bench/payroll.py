"""Draft and finalize of a large legal entity: with the department split on and off, and
with a fifth of the staff on leave.

    .venv/bin/python bench/payroll.py [--employees 10000] [--months 3] [--drafts 3] [--database-url ...]

Three companies with the same staff (imported by `employees import`, as HR would): one
whose journals split expense lines by department (issue 34, cost centres: 40
departments, a few under the three-person floor), one whose do not, and one (no split)
where a fifth of the staff have approved leave in each month measured and the year
before: annual, sick across month ends, unpaid (issue 48). The leave is recorded by
`leave.requests.request_leave`, the function `flask leave request --approve` and the
console call, one transaction each, in this process (a process per leave would take
hours). Each month is drafted and finalized by the commands HR runs (`flask --app wsgi
payroll draft`, `payroll discard`, `payroll finalize`), as processes, so each figure
includes the command's start: drafted `--drafts` times (all but the last discarded) and
finalized, the three companies in turn try by try, each figure the best of its tries
(this machine's runs vary by a fifth). Targets: with the split, at most 1.5x
the time without it; with leave, at most 1.2x.
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
    """The company's legal entity, read by a process of its own (this script with
    --entity-of): the bench itself holds no connection to the database its commands use."""
    done = subprocess.run([sys.executable, __file__, "--entity-of", company_id], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout.split()[-1]


def read_entity(company_id: str) -> str:
    from app import create_app
    from app.models import Entity
    app = create_app()
    with app.app_context():
        return str(Entity.get(Entity.company == company_id).id)


def record_leave(company_id: str, months: int) -> int:
    """Approved leave for every fifth employee in each month measured and a year of sick
    leave before them (so the sick tiers have a history to read): how many leaves."""
    from datetime import date

    from app import create_app
    from app.domain.leave import requests
    from app.extensions import runtime as app_runtime
    from app.models import Employee
    app = create_app()
    count = 0
    with app.app_context():
        runtime = app_runtime()
        people = list(Employee.select(Employee.id).where(Employee.company == company_id).order_by(Employee.id))
        for n, person in enumerate(people[::5]):
            kind = ("annual", "sick", "unpaid")[n % 3]
            asked = [(date(2025, 11, 3), date(2025, 11, 9), "sick")] if kind == "sick" else []
            for month in range(1, months + 1):
                first = date(2026, month, 10 + n % 15)
                last = date(2026, month + 1, 2) if kind == "sick" else date(2026, month, 12 + n % 15)
                asked.append((first, last, kind))
            for first, last, leave_type in asked:
                requests.request_leave(company_id, person.id, leave_type, first, last, "bench", runtime,
                                       approve=True)
                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--employees", type=int, default=10_000)
    parser.add_argument("--database-url", default=None, help="PostgreSQL to measure on (default: a SQLite file)")
    parser.add_argument("--months", type=int, default=3)
    parser.add_argument("--drafts", type=int, default=3, help="drafts of each month, all but the last discarded")
    parser.add_argument("--record-leave", metavar="COMPANY", help=argparse.SUPPRESS)  # the leave company's step
    parser.add_argument("--entity-of", metavar="COMPANY", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.entity_of:
        print(read_entity(options.entity_of))
        return
    if options.record_leave:
        print(record_leave(options.record_leave, options.months))
        return
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": options.database_url or f"sqlite:///{folder}/bench.db"}
        env.pop("REDIS_URL", None)
        flask(env, "db", "upgrade")
        staff = staff_csv(options.employees)
        entities = {}
        leave = 0
        for split in ("none", "department", "leave"):
            company_id = company(env, f"Bench {split}", staff, "none" if split == "leave" else split, folder)
            if split == "leave":  # in a process of its own, as the CLI would be
                done = subprocess.run([sys.executable, __file__, "--record-leave", company_id, "--months",
                                       str(options.months)], cwd=ROOT, env=env, check=True, capture_output=True,
                                      text=True)
                leave = int(done.stdout.split()[-1])
            entities[split] = entity_of(env, company_id)
        # Try by try, the three in turn: a machine that slows down for a while (PostgreSQL's
        # autovacuum after a discard, say) slows each of them, not one.
        drafts: dict[str, list[float]] = {split: [] for split in entities}
        finals: dict[str, list[float]] = {split: [] for split in entities}
        for month in range(1, options.months + 1):
            runs = {}
            for _attempt in range(options.drafts):  # HR drafts, discards and drafts again
                for split, entity in entities.items():
                    if split in runs:
                        flask(env, "payroll", "discard", runs[split])
                    took, out = flask(env, "payroll", "draft", "--entity", entity, "--month", f"2026-{month:02d}",
                                      "--json")
                    drafts[split].append(took)
                    runs[split] = json.loads(out)["payroll_run_id"]
            for split, run_id in runs.items():
                took, _ = flask(env, "payroll", "finalize", run_id)
                finals[split].append(took)
        figures = {split: (min(drafts[split]), min(finals[split])) for split in entities}
    (draft_off, final_off), (draft_on, final_on) = figures["none"], figures["department"]
    draft_leave, final_leave = figures["leave"]
    database = "PostgreSQL" if options.database_url else "SQLite"
    print(f"\npayroll draft + finalize, {options.employees} employees, one entity, {database} "
          f"(seconds, each a `flask` process, best of {options.months * options.drafts} drafts and "
          f"{options.months} finalizes, {options.months} months)")
    print(f"  without a split   draft {draft_off:6.2f}   finalize {final_off:6.2f}   both {draft_off + final_off:6.2f}")
    print(f"  by department     draft {draft_on:6.2f}   finalize {final_on:6.2f}   both {draft_on + final_on:6.2f}")
    print(f"  ratio             {(draft_on + final_on) / (draft_off + final_off):.2f}x   target <= 1.5x")
    print(f"  with leave ({leave} leaves)")
    print(f"                    draft {draft_leave:6.2f}   finalize {final_leave:6.2f}   "
          f"both {draft_leave + final_leave:6.2f}")
    print(f"  ratio             {(draft_leave + final_leave) / (draft_off + final_off):.2f}x   target <= 1.2x")
    print("  every try, in order (drafts | finalizes):")
    for split in entities:
        print(f"    {split:<11} {' '.join(f'{took:.2f}' for took in drafts[split])} | "
              f"{' '.join(f'{took:.2f}' for took in finals[split])}")


if __name__ == "__main__":
    main()
