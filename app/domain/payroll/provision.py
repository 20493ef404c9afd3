"""The end-of-service provision ties to HR, whatever happened before (issue 33).

Invariant: after any run, correction or deletion, an entity's provision account (2300)
holds what its latest posted run says the law owes the staff it carries at that month's
end (the run's per-employee balances), and its opening-equity account (3100) what each
of them had earned before the books first carried them (each employee's `opening` in
the first posted run that carries them).

How (the policy the accountant's guide states): the months already posted are not
reopened. Runs carry each employee's provision from the run before; an action that
changes an earlier month (a correction of a month that is not the latest, a deletion of
any run but the latest, a draft built before an earlier month moved) leaves the books
off by a known amount, and that difference is posted at once as one `true_up` entry in
the latest period (the latest posted run): the part that is service from before the
books (Dr or Cr 3100) apart from the rest (the expense, 5300). In the ordinary flow
(runs month after month, corrections of the latest month) the true-up is zero and
nothing is posted.
"""

from dataclasses import dataclass

from peewee import fn

from app.domain.payroll.rules import EOS_EXPENSE, EOS_PROVISION, OPENING_EQUITY, Line, difference_journal
from app.models import EndOfServiceBalance, JournalEntry, JournalLine, PayrollRun
from app.models.base import first_tuple, tuple_rows

POSTED = ("finalized", "paid")
PROVISION_KEY, OPENING_KEY = "end_of_service_provision", "retained_earnings"  # 2300 and 3100 by default
EXPENSE_KEY = "end_of_service_expense"  # 5300 by default


@dataclass(frozen=True)
class Tie:
    """Where an entity's provision stands: what the books hold and what they should."""

    latest: PayrollRun | None  # the latest posted run, where a true-up is posted; None: nothing to tie
    provision: int  # 2300 as posted: credit balance
    provision_owed: int  # the latest run's balances
    opening: int  # 3100 as posted: debit balance
    opening_owed: int  # each carried employee's opening, in the first posted run that carries them

    @property
    def opening_change(self) -> int:
        """What the true-up moves between 3100 and 2300: the opening's part."""
        return self.opening_owed - self.opening

    @property
    def expense_change(self) -> int:
        """What the true-up moves between 5300 and 2300: the rest."""
        return (self.provision_owed - self.provision) - self.opening_change

    def true_up(self) -> list[Line]:
        """The lines that bring the books to what they should hold: the opening's part
        against 3100, the rest against the expense; [] when they already do."""
        opening, rest = self.opening_change, self.expense_change
        moves: list[Line] = [(*OPENING_EQUITY, opening, 0), (*EOS_PROVISION, 0, opening),
                             (*EOS_EXPENSE, rest, 0), (*EOS_PROVISION, 0, rest)]
        return difference_journal([], [(code, name, max(debit - credit, 0), max(credit - debit, 0))
                                       for code, name, debit, credit in moves])


def tie(entity_id: str) -> Tie:
    """The entity's provision as posted and as owed (read inside the caller's transaction,
    under the entity's lock)."""
    posted = dict(tuple_rows(  # by key: the codes are the company's to choose
        JournalLine.select(JournalLine.account_key, fn.SUM(JournalLine.debit_minor - JournalLine.credit_minor))
        .join(JournalEntry).join(PayrollRun)
        .where(PayrollRun.entity == entity_id, JournalLine.account_key.in_((PROVISION_KEY, OPENING_KEY)))
        .group_by(JournalLine.account_key)))
    latest = (PayrollRun.select().where(PayrollRun.entity == entity_id, PayrollRun.status.in_(POSTED))
              .order_by(PayrollRun.payroll_month.desc(), PayrollRun.id.desc()).first())
    owed = first_tuple(EndOfServiceBalance.select(fn.COALESCE(fn.SUM(EndOfServiceBalance.balance_minor), 0))
                       .where(EndOfServiceBalance.run == (latest.id if latest else ""),
                              ~EndOfServiceBalance.settled))[0]
    # Each employee's opening, in the first posted run that carries them (summed in the
    # database: an entity's history is every month times its staff).
    Earlier, EarlierRun = EndOfServiceBalance.alias(), PayrollRun.alias()
    carried_before = (Earlier.select(Earlier.id).join(EarlierRun, on=(Earlier.run == EarlierRun.id))
                      .where(Earlier.employee == EndOfServiceBalance.employee, EarlierRun.entity == entity_id,
                             EarlierRun.status.in_(POSTED), EarlierRun.payroll_month < PayrollRun.payroll_month))
    opening_owed = first_tuple(
        EndOfServiceBalance.select(fn.COALESCE(fn.SUM(fn.COALESCE(EndOfServiceBalance.opening_minor,
                                                                  EndOfServiceBalance.booked_minor)), 0))
        .join(PayrollRun)
        .where(PayrollRun.entity == entity_id, PayrollRun.status.in_(POSTED), ~fn.EXISTS(carried_before)))[0]
    if latest is not None and not latest.end_of_service_lines:
        latest = None  # built without v1.3's lines: it says nothing of the provision
    return Tie(latest, provision=-int(posted.get(PROVISION_KEY) or 0), provision_owed=int(owed),
               opening=int(posted.get(OPENING_KEY) or 0), opening_owed=int(opening_owed))
