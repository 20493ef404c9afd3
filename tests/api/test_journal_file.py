"""Journal entries as a CSV file an accountant imports (issue 34 part 3, issue 47): a
run's (a deleted run's too) or a legal entity's month, from the CLI and the console,
one row per journal line, under the chart's codes, dated, with debits equal to credits
and every field of its entry; read back with the csv module as an importer would.
(The Xero and QuickBooks Online files: test_journal_xero.py, test_journal_quickbooks.py.)"""

import csv
import io
from datetime import date
from decimal import Decimal

from app.domain.payroll import accounts, drafts, moves
from app.domain.payroll.journal_file import COLUMNS
from app.models import JournalEntry, JournalLine
from tests.api.console import member, sign_in
from tests.api.journal_history import history
from tests.helpers import ok, refused


def rows_of(text):
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    assert tuple(reader.fieldnames or ()) == COLUMNS
    return rows


def entry(run, kind):
    return JournalEntry.get(JournalEntry.run == run, JournalEntry.kind == kind)


def lines_of(answer):
    """A download's text as the CLI runner shows a command's output (CR LF as LF)."""
    return answer.get_data(as_text=True).replace("\r\n", "\n")


def test_the_cli_writes_every_line_of_every_entry_and_they_balance(run, books, clock, tmp_path):
    person = books.hire("K-1", date(2014, 3, 1), 900_000)
    accounts.set_mapping(books.company.id, "basic_salaries", "6100", clock, name_en="Salaries")
    july = books.run("2026-07")
    moves.correct_run(july, {person.id: {"basic": 950_000}}, books.runtime)
    moves.mark_paid(july, books.runtime)
    rows = rows_of(ok(run("payroll", "journal", july.id, "--format", "csv")))
    assert len(rows) == JournalLine.select().join(JournalLine.entry.rel_model).where(
        JournalLine.entry.rel_model.run == july.id).count()
    # The journal number: the entry's place in the company's posting order.
    # (both openings, the accrual, the correction, the payment)
    assert {row["Entry"] for row in rows} == {f"PAYROLL-{n}" for n in (1, 2, 3, 4, 5)}
    salary = next(row for row in rows if row["Account code"] == "6100")
    assert (salary["Date"], salary["Account name"], salary["Debit"], salary["Credit"]) == (
        "2026-07-31", "Salaries", "900.000", "")
    assert salary["Description"] == "Payroll 2026-07, Ledger Test Co, accrual"
    for entry in {row["Entry"] for row in rows}:
        lines = [row for row in rows if row["Entry"] == entry]
        assert sum(Decimal(r["Debit"] or 0) for r in lines) == sum(Decimal(r["Credit"] or 0) for r in lines)
    written = tmp_path / "july.csv"
    assert "wrote" in ok(run("payroll", "journal", july.id, "--output", str(written)))
    assert rows_of(written.read_text(encoding="utf-8")) == rows


def test_a_draft_has_no_journal_and_the_console_downloads_a_closed_run(client, run, admin, live_company, clock,
                                                                      runtime):
    entity = live_company.entities.get()
    draft = drafts.build_draft_run(entity, "2026-10", clock)
    refused(run("payroll", "journal", draft.id), "no journal")
    assert client.get(f"/console/payroll/{draft.id}/journal.csv").status_code == 404
    closed = moves.finalize_run(draft, runtime)
    answer = client.get(f"/console/payroll/{closed.id}/journal.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert "attachment" in answer.headers["Content-Disposition"]
    assert rows_of(answer.get_data(as_text=True)) == []  # a company with no staff: an empty accrual


def test_a_name_a_spreadsheet_would_run_is_quoted(run, books, clock):
    books.hire("K-1", date(2014, 3, 1), 900_000)
    accounts.set_mapping(books.company.id, "bank", "1010", clock, name_en="=HYPERLINK(\"x\")")
    july = books.run("2026-07")
    moves.mark_paid(july, books.runtime)
    [bank] = [row for row in rows_of(ok(run("payroll", "journal", july.id))) if row["Account code"] == "1010"]
    assert bank["Account name"] == "'=HYPERLINK(\"x\")"
    # The same in Xero's Description and QuickBooks' Account Name.
    xero = csv.DictReader(io.StringIO(ok(run("payroll", "journal", july.id, "--format", "xero"))))
    assert [row["Description"] for row in xero if row["*AccountCode"] == "1010"] == ["'=HYPERLINK(\"x\")"]
    quickbooks = csv.DictReader(io.StringIO(ok(run("payroll", "journal", july.id, "--format", "quickbooks"))))
    assert "'=HYPERLINK(\"x\")" in [row["Account Name"] for row in quickbooks]


def test_a_months_file_lists_each_entry_dated_in_it_once_with_its_links_and_headcounts(run, clock, runtime):
    books = history(clock, runtime)
    rows = rows_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-08")))
    entries = {}
    for row in rows:
        entries.setdefault(row["Entry id"], []).append(row)
    deleted_accrual, reversal = entry(books.deleted, "accrual"), entry(books.deleted, "reversal")
    accrual, payment = entry(books.august, "accrual"), entry(books.july, "payment")
    # In posting order: July's payment (3 August), the deleted run's accrual and reversal,
    # the redone accrual (31 August); July's accrual and corrections are July's.
    assert list(entries) == [payment.id, deleted_accrual.id, reversal.id, accrual.id]
    assert [(group[0]["Kind"], group[0]["Date"], group[0]["Entry"]) for group in entries.values()] == [
        ("payment", "2026-08-03", "PAYROLL-2"), ("accrual", "2026-08-31", "PAYROLL-5"),
        ("reversal", "2026-08-31", "PAYROLL-6"), ("accrual", "2026-08-31", "PAYROLL-7")]
    assert {row["Reverses"] for row in entries[reversal.id]} == {deleted_accrual.id}
    assert {(row["Currency"], row["Entity"]) for row in rows} == {("AED", books.entity.id)}
    for group in entries.values():
        assert sum(Decimal(r["Debit"] or 0) for r in group) == sum(Decimal(r["Credit"] or 0) for r in group)
    assert sorted((r["Department"], r["Employee count"], r["Debit"]) for r in entries[accrual.id]) == [
        ("", "", ""), ("Ops", "3", "24000.00"), ("Sales", "3", "30000.00")]  # 3 x 8,000.00; 3 x 10,000.00

    july = rows_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-07")))
    july_accrual = entry(books.july, "accrual")
    corrections = [row for row in july if row["Kind"] == "correction"]
    assert {row["Corrects"] for row in corrections} == {july_accrual.id}
    assert sorted((r["Department"], r["Debit"]) for r in corrections if r["Account code"] == "5100") == [
        ("Ops", "500.00"), ("Sales", "1000.00")]  # the two corrections: +500.00 and +1,000.00


def test_a_deleted_runs_journal_is_its_accrual_and_reversal(run, client, clock, runtime):
    books = history(clock, runtime)
    rows = rows_of(ok(run("payroll", "journal", books.deleted.id)))
    assert [row["Kind"] for row in rows] == ["accrual"] * 3 + ["reversal"] * 3
    net = {}
    for row in rows:
        key = (row["Account code"], row["Department"])
        net[key] = net.get(key, 0) + Decimal(row["Debit"] or 0) - Decimal(row["Credit"] or 0)
    assert set(net.values()) == {0}  # each account back to where it was
    sign_in(client, member(books.company, "hr_admin", clock).email)
    answer = client.get(f"/console/payroll/{books.deleted.id}/journal.csv")
    assert answer.status_code == 200 and rows_of(answer.get_data(as_text=True)) == rows


def test_the_command_takes_a_run_or_a_month_never_both_or_neither(run, clock, runtime):
    books = history(clock, runtime)
    words = "name exactly one: a run (RUN_ID), or a legal entity's month (--entity ID with --period YYYY-MM)"
    for args in ((), (books.july.id, "--entity", books.entity.id, "--period", "2026-07"),
                 ("--entity", books.entity.id), ("--period", "2026-07"), (books.july.id, "--period", "2026-07")):
        result = run("payroll", "journal", *args)
        refused(result, words)
        assert len(result.output.strip().splitlines()) == 1
    refused(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-13"), "period: a month YYYY-MM")
    refused(run("payroll", "journal", "--entity", "ent_nothing", "--period", "2026-07"), "no legal entity ent_nothing")
    refused(run("payroll", "journal", "prun_nothing"), "no payroll run prun_nothing")


def test_the_console_downloads_a_month_and_a_run_in_each_format(run, client, clock, runtime, make_sandbox):
    books = history(clock, runtime)
    sign_in(client, member(books.company, "hr_admin", clock).email)
    page = client.get("/console/payroll").get_data(as_text=True)
    assert 'action="/console/payroll/journal"' in page and books.entity.id in page
    assert page.count('id="entity"') == page.count('id="journal-entity"') == 1  # beside the draft form's
    month = f"/console/payroll/journal?entity={books.entity.id}&month=2026-08"
    for query, args, name in (
            ("&file_format=csv", (), "journal-2026-08-{entity}.csv"),
            ("&file_format=xero&tax_rate=No+VAT", ("--format", "xero", "--tax-rate", "No VAT"),
             "journal-2026-08-{entity}-xero.csv"),
            ("&file_format=quickbooks&date_format=MM/dd/yyyy",
             ("--format", "quickbooks", "--date-format", "MM/dd/yyyy"), "journal-2026-08-{entity}-quickbooks.csv")):
        answer = client.get(month + query)
        assert answer.status_code == 200 and answer.mimetype == "text/csv"
        assert f'attachment; filename="{name.format(entity=books.entity.id)}"' == answer.headers["Content-Disposition"]
        assert lines_of(answer) == ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-08",
                                          *args))
    assert 'action="/console/payroll/' in client.get(f"/console/payroll/{books.july.id}").get_data(as_text=True)
    answer = client.get(f"/console/payroll/{books.july.id}/journal.csv?file_format=quickbooks&date_format=dd/MM/yyyy")
    assert lines_of(answer) == ok(run("payroll", "journal", books.july.id, "--format", "quickbooks"))
    # Another company's legal entity, or a month not written as one, is asked again.
    other = make_sandbox("AE").entities.get()
    for query in (f"entity={other.id}&month=2026-08", f"entity={books.entity.id}&month=٢٠٢٦-٠٨"):
        answer = client.get(f"/console/payroll/journal?{query}", follow_redirects=True)
        assert answer.mimetype == "text/html" and "Choose a legal entity, a month and a format." in answer.get_data(
            as_text=True)
