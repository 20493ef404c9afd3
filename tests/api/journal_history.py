"""Two months of a legal entity's books as an accountant closes them, for the journal
file tests: July accrued, paid on 3 August, then corrected twice (two entries with one
memo and one date); August finalized, deleted (its reversal) and finalized again.

A UAE company paying dirhams (two decimals, as Xero and QuickBooks Online keep them),
expense lines split by department, runs built without the end-of-service lines so that
each figure is a sum of salaries, checked by hand in each test: everyone is an
expatriate, outside the GPSSA (Federal Decree-Law 57/2023 insures UAE nationals;
app/domain/kernel/countries.py), so there is no social insurance line.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime

from app.domain.access import companies
from app.domain.payroll import accounts, drafts, moves
from app.domain.people import actions as hr
from app.models import Company, Employee, Entity, PayrollRun

# Each department's three people and their monthly basic, in fils: Sales 3 x 10,000.00,
# Ops 3 x 8,000.00, so a month's basic is 30,000.00 + 24,000.00 = 54,000.00.
TEAMS = {"Sales": 1_000_000, "Ops": 800_000}


@dataclass
class History:
    company: Company
    entity: Entity
    people: dict[str, Employee]
    july: PayrollRun
    deleted: PayrollRun  # August's first run
    august: PayrollRun


def at(clock, day):
    clock.set(datetime.combine(day, datetime.min.time(), tzinfo=UTC).replace(hour=9))


def month(entity, payroll_month, runtime):
    return moves.finalize_run(drafts.build_draft_run(entity, payroll_month, runtime.clock, end_of_service=False),
                              runtime)


def history(clock, runtime, *, teams=None, allowances=None, before=None):
    """The two months (`teams`: {department: basic}, three people each; `allowances`:
    {"housing": fils, ...} everyone is also paid; `before(company)` runs first, e.g. to
    map an account). For a test inside the `transaction` fixture (which `run` and
    `client` hold), so that all of it is rolled back."""
    at(clock, date(2026, 7, 1))
    company = companies.create_company("Gulf Ledger LLC", "AE", clock)
    companies.enable_partner_api(company.id, runtime)
    entity = Entity.get(Entity.company == company.id)
    accounts.set_split(company.id, "department")
    if before is not None:
        before(company)
    people = {}
    for department, basic in (teams or TEAMS).items():
        for n in (1, 2, 3):
            number = f"{department}-{n}"
            people[number] = hr.hire(company, {
                "staff_number": number, "name_en": number, "employment_type": "full_time",
                "hire_date": date(2020, 1, 1), "basic_salary_minor": basic, "entity": entity.id,
                "department": department, "nationality": "IN", **{f"{code}_allowance_minor": fils for code, fils in
                                             (allowances or {}).items()}}, runtime)
    at(clock, date(2026, 8, 2))
    july = month(entity, "2026-07", runtime)
    at(clock, date(2026, 8, 3))
    july = moves.mark_paid(july, runtime)
    at(clock, date(2026, 8, 10))
    first, second = list(people.values())[0], list(people.values())[-1]
    july = moves.correct_run(july, {first.id: {"basic": first.basic_salary_minor + 100_000}}, runtime)  # +1,000.00
    july = moves.correct_run(july, {second.id: {"basic": second.basic_salary_minor + 50_000}}, runtime)  # +500.00
    at(clock, date(2026, 9, 2))
    deleted = moves.delete_run(month(entity, "2026-08", runtime), runtime)
    at(clock, date(2026, 9, 5))
    august = month(entity, "2026-08", runtime)
    return History(company, entity, people, july, deleted, august)
