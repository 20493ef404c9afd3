"""A company's books for payroll tests: hire, run months, and read an account as a
partner reads the journals (the `books` fixture is tests/api/conftest.py's)."""

from decimal import Decimal

from app.domain.payroll import drafts, moves
from app.domain.payroll.end_of_service import Service, liability
from app.domain.payroll.rules import pay_of
from app.domain.people import actions as hr
from app.models import Company, Employee, Entity


class Books:
    def __init__(self, company, headers, runtime):
        self.company, self.headers, self.runtime = company, headers, runtime
        self.entity = Entity.get(Entity.company == company.id)

    def hire(self, staff_number, hire_date, basic, entity=None):
        return hr.hire(self.company, {"staff_number": staff_number, "name_en": staff_number,
                                      "employment_type": "full_time", "hire_date": hire_date,
                                      "basic_salary_minor": basic, "entity": (entity or self.entity).id},
                       self.runtime)

    def run(self, month, entity=None):
        draft = drafts.build_draft_run(entity or self.entity, month, self.runtime.clock)
        return moves.finalize_run(draft, self.runtime)

    def posted(self, client, account, entity=None):
        """An account's balance (debit less credit, minor units) over every run of the
        entity a partner can read."""
        entity_id = (entity or self.entity).id
        runs = client.get("/v1/payroll-runs?limit=200", headers=self.headers).get_json()
        total = Decimal(0)
        for summary in (run for run in runs["data"] if run["entity_id"] == entity_id):
            run = client.get(f"/v1/payroll-runs/{summary['id']}", headers=self.headers).get_json()
            for entry in run["journal_entries"]:
                for line in entry["lines"]:
                    if line["account_code"] == account:
                        total += Decimal(line["debit"]) - Decimal(line["credit"])
        return int(total * 1000)

    def owed(self, at, people=None):
        """What the law owes these employees (default: all still employed) on `at`, on
        their pay terms as HR holds them."""
        people = people or Employee.select().where(Employee.company == self.company.id, Employee.status != "left")
        return sum(liability(Service("KW", p.hire_date, p.is_national, p.basic_salary_minor), at) for p in people)

    def leave_held(self, at, people=None):
        """The leave salary these employees (default: all still employed) hold on `at`:
        the annual leave earned and not taken at a day's leave wage (leave_provision.py)."""
        people = people or Employee.select().where(Employee.company == self.company.id, Employee.status != "left")
        company = Company.get_by_id(self.company.id)
        return sum(drafts.leave_held(p, company, pay_of(p), drafts.annual_leave_rows([p.id]).get(p.id, []), at)[0]
                   for p in people)

    def opening_owed(self, at, people=None):
        """What 3100 holds for these employees brought in on `at`: the end-of-service benefit
        earned and the leave salary held by then."""
        return self.owed(at, people) + self.leave_held(at, people)
