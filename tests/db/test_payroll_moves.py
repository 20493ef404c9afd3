"""One table says which states each move of a payroll run starts from
(app/domain/payroll/moves.py, MOVES); every move from any other state is refused with
the table's words and changes nothing."""

import pytest

from app.domain.kernel.errors import Conflict
from app.domain.payroll import drafts, moves
from app.models import Employee, JournalEntry, PayrollRun

MONTH = "2026-11"


def run_in(sandbox, runtime, status):
    run = drafts.build_draft_run(sandbox.entities.get(), MONTH, runtime.clock)
    if status in ("finalized", "paid"):
        run = moves.finalize_run(run, runtime)
    if status == "paid":
        run = moves.mark_paid(run, runtime)
    return run


def attempt(move, run, runtime, sandbox):
    person = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-001")
    return {"finalize": lambda: moves.finalize_run(run, runtime),
            "pay": lambda: moves.mark_paid(run, runtime),
            "correct": lambda: moves.correct_run(run, {person.id: {"basic": 123_000}}, runtime),
            "delete": lambda: moves.delete_run(run, runtime),
            "discard": lambda: moves.discard_draft(run),
            "wps": lambda: moves.set_wps_status(run, "submitted", runtime)}[move]()


@pytest.mark.parametrize("status", ["draft", "finalized", "paid"])
@pytest.mark.parametrize("move", sorted(moves.MOVES))
def test_each_move_starts_only_from_the_states_the_table_names(sandbox, runtime, status, move):
    run = run_in(sandbox, runtime, status)
    entries = JournalEntry.select().where(JournalEntry.run == run.id).count()
    rule = moves.MOVES[move]
    if status in rule.starts:
        if move == "pay" and status == "paid":  # paid again only for what a correction left owing
            person = Employee.get(Employee.company == sandbox.id, Employee.staff_number == "SBX-001")
            basic = drafts.lines_by_employee(run)[person.id]["basic"]
            run = moves.correct_run(run, {person.id: {"basic": basic + 1_000}}, runtime)
        attempt(move, run, runtime, sandbox)
        return
    with pytest.raises(Conflict) as refusal:
        attempt(move, run, runtime, sandbox)
    assert refusal.value.message.endswith(rule.refused_from.get(status, rule.refused))
    assert PayrollRun.get_by_id(run.id).status == status
    assert JournalEntry.select().where(JournalEntry.run == run.id).count() == entries


def test_the_correction_to_make_is_what_differs_from_what_the_run_pays(sandbox, runtime):
    run = run_in(sandbox, runtime, "finalized")
    lines = drafts.lines_by_employee(run)
    someone, other = list(lines)[:2]
    entered = {someone: {"basic": lines[someone]["basic"], "housing": lines[someone].get("housing", 0) + 1},
               other: {"basic": lines[other]["basic"]}, "emp_not_in_the_run": {"basic": 5}}
    assert moves.changed_earnings(run, entered) == {someone: {"housing": lines[someone].get("housing", 0) + 1}}
