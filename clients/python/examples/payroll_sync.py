"""A partner's nightly sync with the client package: every employee (the pages walked for
you), every closed payroll run's journal checked to balance in Decimal, and a refusal
reported with what support needs. Type-checked with `mypy --strict`.

    PARTNER_API_KEY=svc_test_... PARTNER_API_BASE_URL=http://127.0.0.1:8000 python payroll_sync.py
"""

from __future__ import annotations

import os
import sys
from decimal import Decimal

from partner_api import ApiError, Client, Model


def balanced(run: Model) -> Decimal:
    """The run's journal total, after checking every entry's debits equal its credits."""
    total = Decimal(0)
    for entry in run.journal_entries:
        debit = sum((line.debit for line in entry.lines), Decimal(0))
        credit = sum((line.credit for line in entry.lines), Decimal(0))
        if debit != credit:
            raise ValueError(f"{run.id}: an entry's debits {debit} are not its credits {credit}")
        total += debit
    return total


def main() -> int:
    base_url = os.environ.get("PARTNER_API_BASE_URL", "http://127.0.0.1:8000")
    with Client(api_key=os.environ["PARTNER_API_KEY"], base_url=base_url) as client:
        try:
            company = client.company()
            staff = {employee.id: employee.staff_number for employee in client.employees.list(limit=100)}
            print(f"{company.name.en}: {len(staff)} employees")
            for summary in client.payroll_runs.list():
                run = client.payroll_runs.get(summary.id)
                print(f"{run.payroll_month} {run.status}: net {run.totals.net} {run.currency}, "
                      f"journal {balanced(run)} balanced")
        except ApiError as refused:
            print(f"refused: {refused.status} {refused.code}: {refused.detail or refused.title} "
                  f"(request {refused.request_id})", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
