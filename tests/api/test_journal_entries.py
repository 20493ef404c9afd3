"""listJournalEntries, the ledger feed (issue 47 part 1, v1.3): the company's journal
entries, each once, in posting order, in cursor pages, deleted runs' entries included,
narrowed by legal entity, by accounting month and by the last entry handled; each with
getPayrollRun's lines. A ledger built from it alone holds the runs' balances."""

from collections import Counter
from datetime import date, timedelta
from decimal import Decimal

import pytest

from app.domain.kernel.clock import to_db
from app.domain.kernel.ids import new_id
from app.domain.payroll import moves
from app.domain.payroll.runs import journal_of
from app.domain.people import actions as hr
from app.models import Entity, JournalEntry, PayrollRun
from tests.api.test_openapi_conformance import contract, validated
from tests.conftest import bearer
from tests.helpers import assert_problem

K1 = ("K-1", date(2014, 3, 1), 900_000)  # KWD 900.000
K2 = ("K-2", date(2019, 6, 15), 1_250_000)


def hire(books, staff_number, hire_date, basic, entity=None):
    """An expatriate: outside PIFSS in Kuwait (its table covers Kuwaiti nationals), so
    nothing is withheld and the net pay is the gross; owed the end-of-service benefit of
    Law 6/2010 art. 51."""
    return hr.hire(books.company, {"staff_number": staff_number, "name_en": staff_number, "nationality": "IN",
                                   "employment_type": "full_time", "hire_date": hire_date,
                                   "basic_salary_minor": basic, "entity": (entity or books.entity).id},
                   books.runtime)


def walk(client, headers, query="", limit=2):
    """Every entry of the feed, page by page (`limit` to a page), and how many pages."""
    url = f"/v1/journal-entries?limit={limit}{query}"
    found, pages = [], 0
    while url:
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        page = answer.get_json()
        found += page["data"]
        pages += 1
        cursor = page["next_cursor"]
        url = cursor and f"/v1/journal-entries?limit={limit}{query}&cursor={cursor}"
    return found, pages


def history(books):
    """Two employees; May, June and July run; May paid, then corrected (K-1's basic
    900.000 -> 950.000: an earlier month, so a true-up follows); July deleted."""
    k1, _ = hire(books, *K1), hire(books, *K2)
    may, june, july = books.run("2026-05"), books.run("2026-06"), books.run("2026-07")
    may = moves.mark_paid(may, books.runtime)
    moves.correct_run(may, {k1.id: {"basic": 950_000}}, books.runtime)
    moves.delete_run(july, books.runtime)
    return may, june, july


def posted_order(company_id):
    return [entry.id for entry in JournalEntry.select().where(JournalEntry.company == company_id)
            .order_by(JournalEntry.position)]


def test_every_entry_once_in_posting_order_with_the_lines_getpayrollrun_shows(client, books):
    may, june, july = history(books)
    found, pages = walk(client, books.headers)
    assert pages > 3  # the cursor was followed
    assert [entry["id"] for entry in found] == posted_order(books.company.id)  # each once, as posted
    assert len(found) == len({entry["id"] for entry in found})
    by_id = {entry["id"]: entry for entry in found}
    for run in (may, june):
        shown = client.get(f"/v1/payroll-runs/{run.id}", headers=books.headers).get_json()
        for entry in shown["journal_entries"]:
            listed = by_id[entry["id"]]
            assert {key: listed[key] for key in entry} == entry  # the same entry, the same lines
            assert (listed["payroll_run_id"], listed["payroll_month"], listed["entity_id"], listed["currency"]) == (
                run.id, run.payroll_month, books.entity.id, "KWD")
    assert [(e["payroll_month"], e["kind"]) for e in found][:3] == [
        ("2026-05", "opening"), ("2026-05", "opening"), ("2026-05", "accrual")]  # end of service, then leave
    assert Counter(e["kind"] for e in found)["accrual"] == 3


def test_a_deleted_runs_entries_are_listed_its_reversal_included(client, books):
    _, _, july = history(books)
    assert_problem(client.get(f"/v1/payroll-runs/{july.id}", headers=books.headers), 404, "not_found")
    found, _ = walk(client, books.headers, limit=200)
    of_july = [entry for entry in found if entry["payroll_run_id"] == july.id]
    [accrual] = [entry for entry in of_july if entry["kind"] == "accrual"]
    [reversal] = [entry for entry in of_july if entry["kind"] == "reversal"]
    assert reversal["reverses"] == accrual["id"] and reversal["memo"].endswith("reversal (the run was deleted)")
    assert [entry["id"] for entry in of_july] == [entry.id for entry, _ in journal_of(july)]
    for account in {line["account_key"] for entry in of_july for line in entry["lines"]}:  # undone, to the fils
        assert sum(Decimal(line["debit"]) - Decimal(line["credit"]) for entry in of_july for line in entry["lines"]
                   if line["account_key"] == account) == 0, account


def test_a_correction_and_the_true_up_it_caused_are_linked(client, books):
    may, _, _ = history(books)
    found, _ = walk(client, books.headers, limit=200)
    [correction] = [entry for entry in found if entry["kind"] == "correction"]
    may_accrual = next(e for e in found if e["kind"] == "accrual" and e["payroll_run_id"] == may.id)
    assert correction["corrects"] == may_accrual["id"] and correction["caused_by"] is None
    caused = [entry for entry in found if entry["caused_by"] == correction["id"]]
    assert caused and all(entry["kind"] == "true_up" for entry in caused)
    assert f"after the correction of payroll 2026-05, {may.id}" in caused[0]["memo"]
    assert all(entry["kind"] == "true_up" for entry in found if entry["caused_by"])
    assert all(entry["caused_by"] is None for entry in found if entry["kind"] != "true_up")


def test_a_ledger_built_from_the_feed_alone_holds_every_runs_balances(client, books):
    """Summing every line of every page by account key gives what every run's posted
    journal holds (deleted runs included), after a correction of an earlier month, a
    payment and a deletion."""
    may, june, july = history(books)
    found, _ = walk(client, books.headers, limit=3)
    ledger = Counter()
    for entry in found:
        assert sum(Decimal(line["debit"]) for line in entry["lines"]) == \
            sum(Decimal(line["credit"]) for line in entry["lines"]), entry["id"]
        for line in entry["lines"]:
            ledger[line["account_key"]] += int((Decimal(line["debit"]) - Decimal(line["credit"])) * 1000)
    runs = Counter()
    for run in PayrollRun.select().where(PayrollRun.company == books.company.id):
        for _, lines in journal_of(run):
            for line in lines:
                runs[line.account_key] += line.debit_minor - line.credit_minor
    assert {key: value for key, value in ledger.items() if value} == {key: value for key, value in runs.items()
                                                                       if value}
    # By hand: basic salaries are May 900.000 + 1,250.000 corrected to 950.000 + 1,250.000
    # = 2,200.000, June 2,150.000, July 2,150.000 reversed: 4,350.000. Salaries payable:
    # May's 2,150.000 paid, its correction's 50.000 still owed, June's 2,150.000, July's
    # reversed: 2,200.000 credit. The bank paid May's 2,150.000.
    assert ledger["basic_salaries"] == 4_350_000
    assert ledger["salaries_payable"] == -2_200_000
    assert ledger["bank"] == -2_150_000
    assert ledger["end_of_service_provision"] == -books.owed(date(2026, 6, 30))  # what the law owes, June's end
    assert sum(ledger.values()) == 0


def test_narrowed_by_legal_entity_and_by_accounting_month(client, books):
    history(books)
    second = Entity.create(id=new_id("ent"), company=books.company.id, country="KW", name_en="Second W.L.L.",
                           currency="KWD", primary=False, created_at=to_db(books.runtime.now()))
    hire(books, "S-1", date(2020, 1, 5), 700_000, entity=second)
    books.run("2026-06", entity=second)
    everything, _ = walk(client, books.headers, limit=200)
    of_second, _ = walk(client, books.headers, f"&entity_id={second.id}")
    of_first, _ = walk(client, books.headers, f"&entity_id={books.entity.id}")
    assert {e["entity_id"] for e in of_second} == {second.id}
    assert {e["entity_id"] for e in of_first} == {books.entity.id}
    assert sorted(e["id"] for e in of_first + of_second) == sorted(e["id"] for e in everything)
    assert [e["kind"] for e in of_second] == ["opening", "opening", "accrual"]
    june, _ = walk(client, books.headers, "&period=2026-06")
    assert [(e["payroll_month"], e["kind"], e["entity_id"]) for e in june] == [  # July's deletion left June latest
        ("2026-06", "accrual", books.entity.id), ("2026-06", "true_up", books.entity.id),
        ("2026-06", "true_up", books.entity.id),  # the end-of-service provision's, then the leave salary's
        ("2026-06", "opening", second.id), ("2026-06", "opening", second.id), ("2026-06", "accrual", second.id)]
    assert all(e["accounting_date"] == "2026-06-30" for e in june)
    paid_on = client.get("/v1/journal-entries?limit=200&period=2026-11", headers=books.headers).get_json()["data"]
    assert [(e["kind"], e["accounting_date"]) for e in paid_on] == [("payment", "2026-11-21")]  # the day it was paid
    both, _ = walk(client, books.headers, f"&period=2026-06&entity_id={second.id}")
    assert [e["id"] for e in both] == [e["id"] for e in june[3:]]
    assert walk(client, books.headers, "&period=2025-06")[0] == []


def test_after_the_last_entry_handled_comes_what_was_posted_since_each_once(client, books):
    k1 = hire(books, *K1)
    books.run("2026-05")
    handled, _ = walk(client, books.headers)
    last = handled[-1]["id"]
    assert walk(client, books.headers, f"&after={last}")[0] == []
    june = books.run("2026-06")
    books.runtime.clock.set(books.runtime.now() + timedelta(days=1))
    moves.correct_run(june, {k1.id: {"basic": 950_000}}, books.runtime)
    since, _ = walk(client, books.headers, f"&after={last}", limit=1)
    assert [e["id"] for e in since] == posted_order(books.company.id)[len(handled):]
    assert [e["kind"] for e in since] == ["accrual", "correction"]
    assert walk(client, books.headers, f"&after={since[0]['id']}")[0] == since[1:]
    assert walk(client, books.headers, f"&after={handled[0]['id']}&period=2026-06")[0] == since  # with a filter


@pytest.mark.parametrize("query, named", [
    ("period=2026-13", "period"), ("period=2026-6", "period"), ("period=0000-01", "period"),
    ("period=%D9%A2%D9%A0%D9%A2%D9%A6-06", "period"),  # Arabic-Indic digits
    ("limit=0", "limit"), ("limit=201", "limit"), ("limit=ten", "limit"),
    ("after=", "after"), ("after=jrn_nothing", "after"), ("cursor=forged", None), ("entity=ent_x", "entity"),
])
def test_a_bad_parameter_is_400_naming_it(client, books, query, named):
    hire(books, *K1)
    books.run("2026-05")
    body = assert_problem(client.get(f"/v1/journal-entries?{query}", headers=books.headers), 400, "invalid_request")
    assert named is None or named in body["detail"], body


def test_a_cursor_of_other_filters_is_refused(client, books):
    hire(books, *K1)
    books.run("2026-05")
    cursor = client.get("/v1/journal-entries?limit=1", headers=books.headers).get_json()["next_cursor"]
    assert cursor
    assert_problem(client.get(f"/v1/journal-entries?limit=1&period=2026-05&cursor={cursor}", headers=books.headers),
                   400, "invalid_request")


def test_only_the_companys_own_entries_entities_and_ids(client, books, make_sandbox, make_key):
    """Tenancy: another company's entries are never listed; its entity is 404 and its
    entry is no place to continue from (400, as the events feed's `after`)."""
    hire(books, *K1)
    books.run("2026-05")
    other = make_sandbox("SA")
    theirs = posted_order(other.id)
    assert theirs  # the sandbox's finalized run
    ours, _ = walk(client, books.headers, limit=200)
    assert [e["id"] for e in ours] == posted_order(books.company.id) and not set(theirs) & {e["id"] for e in ours}
    entity = other.entities.get()
    assert_problem(client.get(f"/v1/journal-entries?entity_id={entity.id}", headers=books.headers), 404, "not_found")
    assert_problem(client.get("/v1/journal-entries?entity_id=ent_nope", headers=books.headers), 404, "not_found")
    body = assert_problem(client.get(f"/v1/journal-entries?after={theirs[0]}", headers=books.headers), 400,
                          "invalid_request")
    assert body["detail"].startswith(f"after: no journal entry {theirs[0]}")
    mine, _ = walk(client, bearer(make_key(other)), limit=200)
    assert [e["id"] for e in mine] == theirs


def test_it_needs_payroll_read(client, books, make_key):
    for scopes in ((), ("employees:read", "attendance:read", "webhooks:manage")):
        assert_problem(client.get("/v1/journal-entries", headers=bearer(make_key(books.company, scopes=scopes))),
                       403, "insufficient_scope")
    assert client.get("/v1/journal-entries", headers=bearer(make_key(books.company, scopes=("payroll:read",)))
                      ).status_code == 200


def test_without_v1_3_it_is_not_there_unless_live_operations_names_it(app, client, books, live_releases,
                                                                       monkeypatch):
    hire(books, *K1)
    books.run("2026-05")
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert_problem(client.get("/v1/journal-entries", headers=books.headers), 404, "not_found")
    monkeypatch.setitem(app.config, "LIVE_OPERATIONS", ["listJournalEntries"])
    [opening, leave_opening, accrual] = client.get("/v1/journal-entries", headers=books.headers).get_json()["data"]
    assert accrual["kind"] == "accrual" and accrual["lines"][0]["account_key"]  # the operation's whole shape


def test_answers_validate_against_the_document(client, books, make_key):
    history(books)
    openapi = contract(client.get("/v1/openapi.json").get_json())

    def check(url, status, headers=books.headers):
        answer = client.get(url, headers=headers)
        assert answer.status_code == status, (url, answer.get_data(as_text=True))
        return validated(openapi, answer)

    first = check("/v1/journal-entries?limit=2", 200).get_json()
    check(f"/v1/journal-entries?limit=2&cursor={first['next_cursor']}", 200)
    check("/v1/journal-entries?limit=200", 200)
    check(f"/v1/journal-entries?after={first['data'][0]['id']}&period=2026-07&entity_id={books.entity.id}", 200)
    check("/v1/journal-entries?period=2026-13", 400)
    check("/v1/journal-entries?after=jrn_nothing", 400)
    check("/v1/journal-entries?entity_id=ent_nope", 404)
    check("/v1/journal-entries", 401, headers={})
    check("/v1/journal-entries", 403, headers=bearer(make_key(books.company, scopes=())))
