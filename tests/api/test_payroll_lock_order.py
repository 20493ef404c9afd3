"""Every pair of payroll moves at once, on two runs of one entity and on runs of two
entities of one company, never deadlocks (issue 46 part 1; app/domain/kernel/locks.py):
each move is done once or refused as a later click would be (409), never a 500.

PostgreSQL is where this matters (row locks); SQLite, one writer at a time, must hold too.
Before the one lock order, deleting month M and month M+1 at once failed one of them with
"deadlock detected" in most rounds.
"""

import functools
import itertools
from datetime import date

import pytest

from app.domain import sandbox
from app.domain.access import users as access
from app.domain.kernel.clock import to_db
from app.domain.kernel.errors import Conflict
from app.domain.kernel.ids import new_id
from app.domain.payroll import accounts, drafts, moves, provision
from app.domain.payroll.rules import net_by_account
from app.domain.people import actions as hr
from app.models import Employee, Entity, JournalEntry, JournalLine, PayrollRun
from app.models.base import connection
from tests.helpers import one_each

ROUNDS = 3

# What each move needs to start from: no run of its month (None), a draft, or a finalized run.
NEEDS = {"draft": None, "finalize": "draft", "pay": "finalized", "correct": "finalized", "delete": "finalized",
         "discard": "draft", "wps": "finalized", "chart": None}


@pytest.fixture
def company(committed, clock, runtime):
    """A committed sandbox with a second legal entity of three employees, removed afterwards."""
    user = committed(access.get_or_create_user, f"{new_id('u')}@example.com", clock)
    made = committed(sandbox.create_sandbox, user, "KW", runtime, seed=11)
    second = committed(Entity.create, id=new_id("ent"), company=made, country="KW", name_en="Second W.L.L.",
                       currency="KWD", primary=False, created_at=to_db(runtime.now()))
    for number in range(3):
        committed(hr.hire, made, {"staff_number": f"TWO-{number}", "name_en": f"Second {number}",
                                  "employment_type": "full_time", "hire_date": date(2020, 1, 1),
                                  "basic_salary_minor": 600_000 + number, "entity": second.id}, runtime)
    yield made
    committed(lambda: (made.delete_instance(recursive=True), user.delete_instance(recursive=True)))


def months():
    """Months no run has taken yet, two by two, for the rounds of one test."""
    for number in itertools.count():
        year, month = 2030 + number // 6, 2 * (number % 6) + 1
        yield f"{year}-{month:02d}", f"{year}-{month + 1:02d}"


def prepared(committed, entity, month, need, runtime):
    """The run a move needs for `month` of `entity`: None, a draft or a finalized run."""
    if need is None:
        return None
    draft = committed(drafts.build_draft_run, entity, month, runtime.clock)
    return draft if need == "draft" else committed(moves.finalize_run, draft, runtime)


def move(kind, entity, month, run, raise_to, runtime):
    """The move `kind` on `run` (or for `month` of `entity`), as a function of no arguments."""
    actions = {
        "draft": lambda: drafts.build_draft_run(entity, month, runtime.clock),
        "finalize": lambda: moves.finalize_run(run, runtime),
        "pay": lambda: moves.mark_paid(run, runtime),
        "correct": lambda: moves.correct_run(run, {raise_to.id: {"basic": 900_000 + len(month) * 7 + int(month[-2:])}},
                                             runtime),
        "delete": lambda: moves.delete_run(run, runtime),
        "discard": lambda: moves.discard_draft(run),
        "wps": lambda: moves.set_wps_status(run, "submitted", runtime),
        "chart": lambda: accounts.set_mapping(entity.company_id, "end_of_service_provision",
                                              f"P-{month}", runtime.clock),
    }
    return actions[kind]


@pytest.mark.parametrize("where", ["one entity", "two entities"])
def test_every_pair_of_payroll_moves_at_once_is_done_or_refused_never_a_deadlock(committed, race, company, runtime,
                                                                                  where):
    first = committed(lambda: Entity.get(Entity.company == company.id, Entity.primary == True))  # noqa: E712
    second = (first if where == "one entity" else
              committed(lambda: Entity.get(Entity.company == company.id, Entity.primary == False)))  # noqa: E712
    people = {entity.id: committed(lambda e=entity: Employee.select().where(Employee.entity == e.id,
                                                                             Employee.status != "left")
                                   .order_by(Employee.staff_number).first())
              for entity in (first, second)}
    taken = months()
    failures = []
    for kinds in itertools.combinations_with_replacement(NEEDS, 2):
        for _ in range(ROUNDS):
            month_a, month_b = next(taken)
            if where == "two entities":
                month_b = month_a  # the same month of each entity
            sides = [(kinds[0], first, month_a), (kinds[1], second, month_b)]
            runs = [prepared(committed, entity, month, NEEDS[kind], runtime) for kind, entity, month in sides]
            outcomes = race(one_each(*[functools.partial(_done, move(kind, entity, month, run, people[entity.id],
                                                                    runtime))
                                       for (kind, entity, month), run in zip(sides, runs, strict=True)]))
            failures += [(kinds, outcome) for outcome in outcomes
                         if isinstance(outcome, Exception) and not isinstance(outcome, Conflict)]
            with connection():
                for entity in {first.id, second.id}:
                    assert provision.tie(entity).true_up() == [], (kinds, "provision not tied")
    assert not failures, failures
    with connection():  # every entry posted balances, and the books as a whole
        lines = [[(line.account_code, line.account_name, line.debit_minor, line.credit_minor)
                  for line in JournalLine.select().where(JournalLine.entry == entry)]
                 for entry in JournalEntry.select().where(JournalEntry.company == company.id)]
        assert all(sum(debit - credit for *_, debit, credit in entry) == 0 for entry in lines)
        assert sum(net_by_account(lines).values()) == 0
        drafts_left = PayrollRun.select().where(PayrollRun.company == company.id, PayrollRun.status == "draft")
        assert all(run.payroll_month >= "2030-01" for run in drafts_left)


def _done(action):
    action()
    return "done"
