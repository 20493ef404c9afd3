"""A provision the books already carry (issue 47 part 5): a Kuwaiti company moving from
another payroll system says what its ledger's 2300 held on 30 June 2026; its first run
(July) posts only what HR's figure exceeds it, and the provision, as the ledger holds it
(what it carried and our entries), ties to what the latest run owes after deletions,
corrections and redone months.

HR's figure, by Kuwait's Law 6/2010 art. 51 (15 days' wage a year for the first five
years, a month's wage a year after, at most 18 months' wage): K-1 (hired 1 March 2000,
1,300.000 a month) and K-2 (hired 15 September 1999, 900.000) have served over 26 years,
past the cap, so each is owed 18 months' wage on any day of 2026, however the days are
counted: 18 x 1,300.000 = 23,400.000 and 18 x 900.000 = 16,200.000, 39,600.000 together,
on 30 June as on 31 July. K-3 (hired 1 February 2023) is under the cap: what the law owes
them, month by month, is `books.owed`.
"""

import functools
import json
from datetime import date

import pytest

from app.domain.access import companies
from app.domain.kernel.errors import ValidationFailed
from app.domain.kernel.money import format_minor
from app.domain.payroll import drafts, moves, provision
from app.domain.people import actions as hr
from app.models import Entity, JournalEntry, JournalLine, PayrollRun
from tests.helpers import ok, one_each, refused

JUNE_END = date(2026, 6, 30)
HR = 39_600_000  # 18 x 1,300.000 + 18 x 900.000


def staffed(books):
    return [books.hire("K-1", date(2000, 3, 1), 1_300_000), books.hire("K-2", date(1999, 9, 15), 900_000)]


def opening_of(client, books, run):
    body = client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()
    [entry] = [e for e in body["journal_entries"] if e["kind"] == "opening"  # the end-of-service one (not 2310)
               and any(line["account_code"] == "2300" for line in e["lines"])]
    return entry, sorted((line["account_code"], line["debit"], line["credit"]) for line in entry["lines"])


def ties(client, books, carried):
    """2300 as the ledger holds it (what it carried, and our entries) is what the latest
    run owes, and no true-up is pending."""
    state = provision.tie(books.entity.id)
    assert state.true_up() == [] and provision.tie(books.entity.id, provision.LEAVE).true_up() == []
    return -books.posted(client, "2300") + carried


def test_the_first_run_posts_only_what_hr_exceeds_the_carried_provision(client, books, run):
    staffed(books)
    said = ok(run("payroll", "provision", "carried", "--entity", books.entity.id, "--as-of", "2026-06-30",
                  "--amount", "39000"))
    assert "carried 39,000.000 KWD" in said and "2026-06-30" in said
    july = books.run("2026-07")
    entry, lines = opening_of(client, books, july)
    # 39,600.000 - 39,000.000 = 600.000
    assert lines == [("2300", "0.000", "600.000"), ("3100", "600.000", "0.000")]
    assert entry["memo"] == ("Payroll 2026-07, Ledger Test Co, end-of-service provision earned before the books "
                             "carried them (HR's 39600.000 less the 39000.000 the books carried on 2026-06-30)")
    assert ties(client, books, 39_000_000) == HR == books.owed(date(2026, 7, 31))
    shown = json.loads(ok(run("payroll", "provision", "show", "--entity", books.entity.id, "--json")))
    # Ours: the opening's 600.000 (the provision, capped, did not grow in July).
    assert shown == {"entity_id": books.entity.id, "currency": "KWD", "carried": "39000.000",
                     "carried_as_of": "2026-06-30", "posted": "600.000", "held": "39600.000",
                     "latest_run_id": july.id, "latest_month": "2026-07", "owed": "39600.000"}
    assert "the books hold 39,600.000 KWD; the latest run (2026-07" in ok(
        run("payroll", "provision", "show", "--entity", books.entity.id))


def test_a_carried_provision_above_hr_is_given_back_the_other_way(client, books):
    staffed(books)
    provision.set_carried(books.entity.id, JUNE_END, 40_000_000)
    july = books.run("2026-07")
    # 39,600.000 - 40,000.000 = -400.000: Dr 2300 / Cr 3100.
    assert opening_of(client, books, july)[1] == [("2300", "400.000", "0.000"), ("3100", "0.000", "400.000")]
    assert ties(client, books, 40_000_000) == HR


def test_the_provision_ties_after_the_first_run_is_deleted_corrected_and_redone(client, books):
    people = [*staffed(books), books.hire("K-3", date(2023, 2, 1), 1_000_000)]  # K-3's provision grows
    carried = 41_000_000
    provision.set_carried(books.entity.id, JUNE_END, carried)
    july, _ = books.run("2026-07"), books.run("2026-08")
    assert ties(client, books, carried) == books.owed(date(2026, 8, 31))
    moves.delete_run(july, books.runtime)  # the first run: the books now begin in August
    assert ties(client, books, carried) == books.owed(date(2026, 8, 31))
    # What was earned to 31 July is opening now: what the books carried and the rest ours
    # (and the leave salary held to 31 July, which no other system carried).
    assert books.posted(client, "3100") + carried == books.opening_owed(date(2026, 7, 31))
    again = books.run("2026-07")  # redone: not the first any more, it brings HR's whole opening
    june = books.owed(JUNE_END)
    assert opening_of(client, books, again)[1] == [("2300", "0.000", format_minor(june, "KWD")),
                                                   ("3100", format_minor(june, "KWD"), "0.000")]
    assert ties(client, books, carried) == books.owed(date(2026, 8, 31))
    assert books.posted(client, "3100") + carried == june + books.leave_held(JUNE_END)  # begun in July again
    moves.correct_run(again, {people[2].id: {"basic": 1_100_000}}, books.runtime)
    assert ties(client, books, carried) == books.owed(date(2026, 8, 31))
    books.run("2026-09")
    assert ties(client, books, carried) == books.owed(date(2026, 9, 30))


def test_it_is_said_once_before_the_first_run_and_months_it_covers_are_not_drafted(books, run, clock):
    staffed(books)
    entity = books.entity.id

    def carried(*args):
        return run("payroll", "provision", "carried", "--entity", entity, *args)

    refused(carried("--as-of", "2026-06-15", "--amount", "1"), "--as-of: the last day of a month")
    refused(carried("--as-of", "30/06/2026", "--amount", "1"), "--as-of: a date, YYYY-MM-DD")
    refused(carried("--as-of", "2026-06-30", "--amount", "1.0001"), "--amount: an amount in KWD, like 1250.500")
    refused(carried("--as-of", "2026-06-30", "--amount", "-1"), "--amount: an amount of zero or more")
    june = drafts.build_draft_run(books.entity, "2026-06", clock)
    refused(carried("--as-of", "2026-06-30", "--amount", "1"),
            f"--as-of: discard the draft {june.id} for 2026-06 first: the other system paid the months to 2026-06-30")
    moves.discard_draft(june)
    ok(carried("--as-of", "2026-06-30", "--amount", "1"))
    ok(carried("--as-of", "2026-06-30", "--amount", "39000"))  # said again before the first run: replaced
    assert Entity.get_by_id(entity).eos_carried_minor == 39_000_000
    refused(run("payroll", "draft", "--entity", entity, "--month", "2026-06"),
            "payroll_month: the books of Ledger Test Co carried the end-of-service provision from another payroll "
            "system on 2026-06-30: draft a month after it")
    july = books.run("2026-07")
    refused(carried("--as-of", "2026-06-30", "--amount", "2"),
            "--entity: Ledger Test Co has journal entries already (its run for 2026-07 was finalized)")
    moves.delete_run(july, books.runtime)
    refused(carried("--as-of", "2026-06-30", "--amount", "2"), "--entity: Ledger Test Co has journal entries")
    assert Entity.get_by_id(entity).eos_carried_minor == 39_000_000


@pytest.fixture
def fresh(committed, clock, runtime):
    """A committed Kuwaiti company (the staff of `staffed`), removed afterwards."""
    company = committed(companies.create_company, "Carried Race Co", "KW", clock)
    entity = committed(Entity.get, Entity.company == company.id)
    for number, hired, basic in (("K-1", date(2000, 3, 1), 1_300_000), ("K-2", date(1999, 9, 15), 900_000)):
        committed(hr.hire, company, {"staff_number": number, "name_en": number, "employment_type": "full_time",
                                     "hire_date": hired, "basic_salary_minor": basic, "entity": entity.id}, runtime)
    yield entity
    committed(lambda: company.delete_instance(recursive=True))


def opened(run_id):
    """What the run's opening credited to 2300."""
    return [line.credit_minor - line.debit_minor for line in JournalLine.select().join(JournalEntry).where(
        JournalEntry.run == run_id, JournalEntry.kind == "opening",
        JournalLine.account_key == provision.PROVISION_KEY)]


def test_said_while_the_first_run_is_finalized_it_is_either_counted_or_refused(committed, race, fresh, runtime):
    """Both take the entity's lock: the carried amount lands before the first run posts
    (and its opening is HR's excess) or after (refused: the run has posted), never
    between, so the provision ties either way."""
    for _ in range(4):
        draft = committed(drafts.build_draft_run, fresh, "2026-07", runtime.clock)
        outcomes = race(one_each(lambda: provision.set_carried(fresh.id, JUNE_END, 39_000_000),
                                 functools.partial(moves.finalize_run, draft, runtime)))
        [finalized] = [outcome for outcome in outcomes if isinstance(outcome, PayrollRun)]
        [said] = [outcome for outcome in outcomes if outcome is not finalized]
        state = committed(provision.tie, fresh.id)
        assert state.true_up() == [] and state.provision == state.provision_owed == HR
        opening = committed(opened, draft.id)
        if isinstance(said, Entity):  # set first: the opening is HR's excess, 600.000
            assert opening == [600_000]
        else:  # the first run posted first: refused, naming the entity
            assert isinstance(said, ValidationFailed) and said.errors[0][0] == "entity", said
            assert opening == [HR]
        committed(lambda: Entity.update(eos_carried_minor=None, eos_carried_as_of=None)
                  .where(Entity.id == fresh.id).execute())
        committed(lambda: [run.delete_instance(recursive=True) for run in
                           PayrollRun.select().where(PayrollRun.entity == fresh.id)])
