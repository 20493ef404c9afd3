"""The one order in which payroll, leave and HR's changes take their locks: the company,
then the legal entity, then the run (payroll) or the employee (leave,
app/domain/leave/requests.py; HR's changes, app/domain/people/actions.py; a sandbox
reset, every employee in id order).

Every move of payroll (a draft, finalize, pay, correct, delete, discard, a WPS step, the
provision's true-up, a change to the chart of accounts or its split, closing or reopening
the books, recording a provision the books already carried) locks through `hold`
before it decides, whichever door it comes through (console, CLI, the API's sandbox
triggers, jobs). What a move writes afterwards is its company's, entity's or run's, or
rows only movers of that entity write (the true-up posts on the entity's latest run,
another run than the one `hold` took, which only a mover holding the entity may write).
Two moves at once then queue on the first lock they share: one waits for the other, or is
refused as a later click would be (409), and neither is ever chosen as a deadlock's
victim (a 500). Before this order a move locked its run and then the company,
while another locked its own run, then the company, and then posted its true-up on the
first one's run: each waited for the other.

On PostgreSQL each row is taken FOR NO KEY UPDATE: the keys of these rows never change,
and rows that merely refer to them (an outbox event, a new draft, a journal entry, an
employee) are still written meanwhile, their foreign-key checks (KEY SHARE) waiting for
nobody. On SQLite the write transaction (`write_transaction`) already excludes every other
writer, so `hold` locks nothing there. Call it inside `write_transaction()`.
"""

from app.models import Company, Entity, PayrollRun
from app.models.base import locked


def hold(company_id: str, entity_id: str | None = None, run_id: str | None = None) -> PayrollRun | None:
    """Lock the company, then (if named) its legal entity, then the run, until the
    transaction ends; the run as stored now, unless it is gone (deleted, discarded) or
    not one of the entity's (None). Taking a row twice in one transaction is harmless,
    so a move may call this again for what an enclosing one already holds."""
    locked(Company.select(Company.id).where(Company.id == company_id), keys_kept=True)
    if entity_id is not None:
        locked(Entity.select(Entity.id).where(Entity.id == entity_id, Entity.company == company_id), keys_kept=True)
    if run_id is None:
        return None
    return locked(PayrollRun.select().where(
        PayrollRun.id == run_id, PayrollRun.company == company_id, PayrollRun.status != "deleted",
        *([PayrollRun.entity == entity_id] if entity_id is not None else [])), keys_kept=True)
