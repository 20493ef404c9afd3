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

A provision the books already carried (issue 47): an entity moving from another payroll
system may say what its ledger's 2300 held on a month's last day before its first run
(`set_carried`). The books then hold that figure besides our entries: the first run that
brings the provision in posts only what HR's figure exceeds it (`opening`; the other way,
Dr 2300 / Cr 3100, when it falls short), and the tie counts it as held, so "2300 as the
ledger holds it = what the latest run owes" stays true through deletions, corrections
and redone months, which true-up against it as against any opening.

The leave-salary provision (issue 48; leave_provision.py) is tied the same way, by the
same rules (`Provision`: LEAVE, its 2310 against 5310, its balances in
LeaveProvisionBalance): each provision's `tie` and `true_up` reads and moves its own two
accounts. Both share 3100 for what was earned before the books carried it: a provision's
part of 3100 is what the opening and true-up entries of posted runs that reach its own
accounts put there (each opening and each true-up is an entry of one provision; a
deleted run's entries and its reversal cancel out, so its own are left out). The leave
provision has no figure carried from another system: its opening is what each employee
held before the first posted run that carries them (`leave_opening`).
"""

from dataclasses import dataclass
from datetime import date, timedelta

from peewee import fn

from app.domain.kernel.errors import NotFound, ValidationFailed, Words
from app.domain.kernel.locks import hold
from app.domain.kernel.money import MAX_AMOUNT_MINOR, format_minor
from app.domain.payroll.rules import (
    EOS_EXPENSE,
    EOS_PROVISION,
    LEAVE_EXPENSE,
    LEAVE_PROVISION,
    OPENING_EQUITY,
    Line,
    difference_journal,
)
from app.models import EndOfServiceBalance, Entity, JournalEntry, JournalLine, LeaveProvisionBalance, PayrollRun
from app.models.base import first_tuple, write_transaction

POSTED = ("finalized", "paid")
PROVISION_KEY, OPENING_KEY = "end_of_service_provision", "retained_earnings"  # 2300 and 3100 by default
EXPENSE_KEY = "end_of_service_expense"  # 5300 by default


@dataclass(frozen=True)
class Provision:
    """A provision the runs carry per employee, and the accounts it is tied on."""

    name: str  # what a memo calls it
    key: str  # its liability's account key
    expense_key: str
    account: tuple[str, str]  # its liability's default code and name
    expense: tuple[str, str]
    balances: type[EndOfServiceBalance] | type[LeaveProvisionBalance]  # per employee and run


END_OF_SERVICE = Provision("end-of-service provision", PROVISION_KEY, EXPENSE_KEY, EOS_PROVISION, EOS_EXPENSE,
                           EndOfServiceBalance)
LEAVE = Provision("leave-salary provision", "leave_provision", "leave_expense", LEAVE_PROVISION, LEAVE_EXPENSE,
                  LeaveProvisionBalance)
PROVISIONS = (END_OF_SERVICE, LEAVE)


@dataclass(frozen=True)
class Tie:
    """Where an entity's provision stands: what the books hold and what they should."""

    latest: PayrollRun | None  # the latest posted run, where a true-up is posted; None: nothing to tie
    provision: int  # 2300 as the ledger holds it (credit balance): our entries and what it carried before them
    provision_owed: int  # the latest run's balances
    opening: int  # 3100 as posted (debit balance), and the carried provision's side of it
    opening_owed: int  # each carried employee's opening, in the first posted run that carries them
    carried: int = 0  # what the ledger carried before our first entry on 2300 (`set_carried`)
    kind: Provision = END_OF_SERVICE  # which provision (its accounts; the leave's figures otherwise alike)

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
        account, expense = self.kind.account, self.kind.expense
        moves: list[Line] = [(*OPENING_EQUITY, opening, 0), (*account, 0, opening),
                             (*expense, rest, 0), (*account, 0, rest)]
        return difference_journal([], [(code, name, max(debit - credit, 0), max(credit - debit, 0))
                                       for code, name, debit, credit in moves])


def tie(entity_id: str, kind: Provision = END_OF_SERVICE) -> Tie:
    """The entity's provision of `kind` as posted and as owed (read inside the caller's
    transaction, under the entity's lock)."""
    provision = first_tuple(  # by key: the codes are the company's to choose
        JournalLine.select(fn.COALESCE(fn.SUM(JournalLine.credit_minor - JournalLine.debit_minor), 0))
        .join(JournalEntry).join(PayrollRun)
        .where(PayrollRun.entity == entity_id, JournalLine.account_key == kind.key))[0]
    latest = (PayrollRun.select().where(PayrollRun.entity == entity_id, PayrollRun.status.in_(POSTED))
              .order_by(PayrollRun.payroll_month.desc(), PayrollRun.id.desc()).first())
    Balance = kind.balances
    owed = first_tuple(Balance.select(fn.COALESCE(fn.SUM(Balance.balance_minor), 0))
                       .where(Balance.run == (latest.id if latest else ""), ~Balance.settled))[0]
    if latest is not None and not latest.end_of_service_lines:
        latest = None  # built without v1.3's lines: it says nothing of the provision
    # The ledger's 2300 held the carried figure before our first entry, against whatever
    # the other system credited: to the tie it is an opening the books already posted.
    carried = (Entity.select(Entity.eos_carried_minor).where(Entity.id == entity_id).scalar() or 0
               if kind is END_OF_SERVICE else 0)
    return Tie(latest, provision=int(provision) + carried, provision_owed=int(owed),
               opening=_opening_posted(entity_id, kind) + carried, opening_owed=_opening_owed(entity_id, kind),
               carried=carried, kind=kind)


def _opening_posted(entity_id: str, kind: Provision) -> int:
    """3100 (debit balance) as the opening and true-up entries of the entity's posted runs
    that reach `kind`'s accounts left it: that provision's part of 3100 (a true-up whose
    parts cancel on the provision reaches its expense only)."""
    Other = JournalLine.alias()
    reaches = Other.select(Other.id).where(Other.entry == JournalLine.entry,
                                           Other.account_key.in_((kind.key, kind.expense_key)))
    return int(first_tuple(
        JournalLine.select(fn.COALESCE(fn.SUM(JournalLine.debit_minor - JournalLine.credit_minor), 0))
        .join(JournalEntry).join(PayrollRun)
        .where(PayrollRun.entity == entity_id, PayrollRun.status.in_(POSTED),
               JournalEntry.kind.in_(("opening", "true_up")), JournalLine.account_key == OPENING_KEY,
               fn.EXISTS(reaches)))[0])


def _opening_owed(entity_id: str, kind: Provision, run_id: str | None = None) -> int:
    """Each employee's opening (`kind`'s balances), in the first posted run that carries
    them (or only those whose first is `run_id`, posted or being posted), summed in the
    database: an entity's history is every month times its staff."""
    Balance = kind.balances
    Earlier, EarlierRun = Balance.alias(), PayrollRun.alias()
    carried_before = (Earlier.select(Earlier.id).join(EarlierRun, on=(Earlier.run == EarlierRun.id))
                      .where(Earlier.employee == Balance.employee, EarlierRun.entity == entity_id,
                             EarlierRun.status.in_(POSTED), EarlierRun.payroll_month < PayrollRun.payroll_month))
    query = (Balance.select(fn.COALESCE(fn.SUM(fn.COALESCE(Balance.opening_minor, Balance.booked_minor)), 0))
             .join(PayrollRun).where(PayrollRun.entity == entity_id, ~fn.EXISTS(carried_before)))
    query = query.where(PayrollRun.id == run_id) if run_id is not None else query.where(PayrollRun.status.in_(POSTED))
    return int(first_tuple(query)[0])


def leave_opening(run: PayrollRun) -> list[Line]:
    """The leave-salary provision's `opening` entry a run being finalized posts (Dr 3100 /
    Cr 2310): what each employee it is the first posted run to carry held before its
    month; [] when none. Call under the entity's lock."""
    if not run.end_of_service_lines:
        return []
    amount = _opening_owed(run.entity_id, LEAVE, run.id)
    if not amount:
        return []
    return [(*OPENING_EQUITY, max(amount, 0), max(-amount, 0)), (*LEAVE_PROVISION, max(-amount, 0), max(amount, 0))]


def opening(run: PayrollRun) -> tuple[list[Line], str | None]:
    """The `opening` entry a run being finalized posts, and why it differs from HR's
    figure (the run's `eos_opening_minor`) if it does: the first run whose entries
    reach the entity's provision posts only what HR's figure exceeds the provision the
    books carried (Dr 3100 / Cr 2300; Dr 2300 / Cr 3100 for a shortfall); every other
    run, HR's figure. [] when there is nothing to post. Call under the entity's lock."""
    amount, because = run.eos_opening_minor, None
    entity = Entity.get_by_id(run.entity_id)
    if entity.eos_carried_minor is not None and run.end_of_service_lines and not _reached(entity.id):
        assert entity.eos_carried_as_of is not None  # set_carried sets both
        amount -= entity.eos_carried_minor
        because = (f"HR's {format_minor(run.eos_opening_minor, run.currency)} less the "
                   f"{format_minor(entity.eos_carried_minor, run.currency)} the books carried on "
                   f"{entity.eos_carried_as_of.isoformat()}")
    if not amount:
        return [], because
    return [(*OPENING_EQUITY, max(amount, 0), max(-amount, 0)), (*EOS_PROVISION, max(-amount, 0), max(amount, 0))], \
        because


def _reached(entity_id: str) -> bool:
    """Whether any of our entries has reached the entity's provision (2300) yet."""
    return (JournalLine.select().join(JournalEntry).join(PayrollRun)
            .where(PayrollRun.entity == entity_id, JournalLine.account_key == PROVISION_KEY).exists())


def month_end(day: date) -> bool:
    return (day + timedelta(days=1)).day == 1


def set_carried(entity_id: str, as_of: object, amount: object) -> Entity:
    """Record that the entity's books carried `amount` (minor units of its currency) in
    the end-of-service provision on `as_of`, the last day of the month before its first
    run's (or earlier): only while the entity has no journal entry and no draft for a
    month on or before `as_of` (the other system paid those months). Set again, it
    replaces the figure. ValidationFailed naming the field; nothing changes then."""
    errors: list[tuple[str, str]] = []
    if not isinstance(as_of, date) or not month_end(as_of):
        errors.append(("as_of", Words("the last day of a month (the books' provision at a month's end, before the "
                                      "first run's month), e.g. 2026-06-30")))
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= MAX_AMOUNT_MINOR:
        errors.append(("amount", Words("an amount of zero or more (at most 10^15 minor units)")))
    if errors:
        raise ValidationFailed(Words("invalid carried provision"), errors)
    assert isinstance(as_of, date) and isinstance(amount, int)
    with write_transaction():
        hint = Entity.get_or_none(Entity.id == entity_id)  # its company, which never changes
        if hint is None:
            raise NotFound(Words("no legal entity %(entity)s", entity=entity_id))
        hold(hint.company_id, hint.id)  # a finalize of its first run waits, or is waited for
        entity = Entity.get_by_id(hint.id)  # as stored now, under the lock
        first = (PayrollRun.select().join(JournalEntry, on=(JournalEntry.run == PayrollRun.id))
                 .where(PayrollRun.entity == entity.id).order_by(JournalEntry.position).first())
        if first is not None:
            raise ValidationFailed(Words("the books carry our entries already"), [("entity", Words(
                "%(entity)s has journal entries already (its run for %(month)s was finalized): a provision the books "
                "carried is set before the entity's first run", entity=entity.name_en, month=first.payroll_month))])
        draft = (PayrollRun.select().where(PayrollRun.entity == entity.id, PayrollRun.status == "draft",
                                           PayrollRun.payroll_month <= as_of.isoformat()[:7])
                 .order_by(PayrollRun.payroll_month).first())
        if draft is not None:
            raise ValidationFailed(Words("a draft is in the way"), [("as_of", Words(
                "discard the draft %(run)s for %(month)s first: the other system paid the months to %(as_of)s",
                run=draft.id, month=draft.payroll_month, as_of=as_of.isoformat()))])
        Entity.update(eos_carried_minor=amount, eos_carried_as_of=as_of).where(Entity.id == entity.id).execute()
        entity.eos_carried_minor, entity.eos_carried_as_of = amount, as_of
    return entity


@dataclass(frozen=True)
class Standing:
    """What `payroll provision show` says of an entity's provision."""

    entity: Entity
    carried: int | None  # what the books carried before our first entry, None if not said
    carried_as_of: date | None
    posted: int  # what our entries left on 2300 (credit balance)
    latest: PayrollRun | None  # the latest posted run with end-of-service lines
    owed: int  # what it owes (0 without one)


def standing(entity_id: str) -> Standing:
    entity = Entity.get_or_none(Entity.id == entity_id)
    if entity is None:
        raise NotFound(Words("no legal entity %(entity)s", entity=entity_id))
    state = tie(entity.id)
    return Standing(entity, entity.eos_carried_minor, entity.eos_carried_as_of, state.provision - state.carried,
                    state.latest, state.provision_owed if state.latest is not None else 0)
