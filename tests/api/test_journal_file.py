"""A run's journal as a file an accountant imports (issue 34 part 3): the CLI and the
console download give one row per journal line, under the chart's codes, dated, with
debits equal to credits; read back with the csv module as an importer would."""

import csv
import io
from datetime import date
from decimal import Decimal

from app.domain.payroll import accounts, drafts, moves
from app.domain.payroll.journal_file import COLUMNS
from app.models import JournalLine
from tests.helpers import ok, refused


def rows_of(text):
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    assert tuple(reader.fieldnames or ()) == COLUMNS
    return rows


def test_the_cli_writes_every_line_of_every_entry_and_they_balance(run, books, clock, tmp_path):
    person = books.hire("K-1", date(2014, 3, 1), 900_000)
    accounts.set_mapping(books.company.id, "basic_salaries", "6100", clock, name_en="Salaries")
    july = books.run("2026-07")
    moves.correct_run(july, {person.id: {"basic": 950_000}}, books.runtime)
    moves.mark_paid(july, books.runtime)
    rows = rows_of(ok(run("payroll", "journal", july.id, "--format", "csv")))
    assert len(rows) == JournalLine.select().join(JournalLine.entry.rel_model).where(
        JournalLine.entry.rel_model.run == july.id).count()
    assert {row["Entry"] for row in rows} == {f"2026-07-{july.id[-4:]}-{n}" for n in (1, 2, 3, 4)}
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
