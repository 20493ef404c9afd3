"""A journal as Xero's manual journal import reads it (issue 47 part 2), judged from
Xero's own help, "Import manual journals" (help.xero.com/ManualJournalsImport): the
template's columns; Narration and Date mandatory, and rows with one narration and date
one journal; dates dd/mm/yyyy; AccountCode the chart's code; TaxRate a rate's full name;
Amount a debit when positive, a credit when negative; up to 300 lines in one file. An
account code is at most 10 characters (Xero's Accounting API, Accounts: Code).

Over two months with two corrections of a paid run and a deleted run
(tests/api/journal_history.py), every figure summed by hand in the test."""

import csv
import io
import re
import zipfile
from collections import defaultdict
from datetime import date, datetime
from decimal import Decimal

import pytest

from app.domain.kernel.errors import Conflict
from app.domain.payroll import accounts, journal_file
from app.domain.payroll.ledger import Posted
from app.models import JournalLine
from tests.api.console import member, sign_in
from tests.api.journal_history import history
from tests.helpers import ok, refused

TEMPLATE = ("*Narration", "*Date", "Description", "*AccountCode", "*TaxRate", "*Amount", "TrackingName1",
            "TrackingOption1", "TrackingName2", "TrackingOption2")


def journals_of(*texts):
    """{(narration, date): [rows]}: the manual journals Xero makes of the files, each
    row checked as the help says (mandatory fields, dd/mm/yyyy, a signed amount in two
    decimals, a code of at most 10 characters), each file at most 300 lines."""
    journals = defaultdict(list)
    for text in texts:
        reader = csv.DictReader(io.StringIO(text))
        rows = list(reader)
        assert tuple(reader.fieldnames or ()) == TEMPLATE
        assert len(rows) <= 300
        for row in rows:
            assert all(row[column] for column in TEMPLATE if column.startswith("*"))
            assert re.fullmatch(r"\d\d/\d\d/\d{4}", row["*Date"]) and re.fullmatch(r"-?\d+\.\d\d", row["*Amount"])
            assert len(row["*AccountCode"]) <= 10
            journals[(row["*Narration"], datetime.strptime(row["*Date"], "%d/%m/%Y").date())].append(row)
    return journals


def by_code(journals):
    totals = defaultdict(Decimal)
    for rows in journals.values():
        for row in rows:
            totals[row["*AccountCode"]] += Decimal(row["*Amount"])
    return dict(totals)


def test_each_entry_is_one_journal_that_balances_signed_and_dated_as_xero_reads(run, clock, runtime):
    books = history(clock, runtime)
    july = journals_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-07",
                              "--format", "xero")))
    # The accrual and two corrections, all dated 31 July; the corrections share a memo,
    # and stay two journals.
    assert len(july) == 3 and {day for _narration, day in july} == {date(2026, 7, 31)}
    assert sorted(narration for narration, _day in july) == [
        "Payroll 2026-07, Gulf Ledger LLC, accrual [PAYROLL-1]",
        "Payroll 2026-07, Gulf Ledger LLC, correction [PAYROLL-3]",
        "Payroll 2026-07, Gulf Ledger LLC, correction [PAYROLL-4]"]
    for rows in july.values():
        assert sum(Decimal(row["*Amount"]) for row in rows) == 0
        assert {row["*TaxRate"] for row in rows} == {"Tax Exempt"}
    accrual = july[("Payroll 2026-07, Gulf Ledger LLC, accrual [PAYROLL-1]", date(2026, 7, 31))]
    assert sorted((r["*AccountCode"], r["*Amount"], r["TrackingName1"], r["TrackingOption1"]) for r in accrual) == [
        ("2110", "-54000.00", "", ""),  # a credit: negative; a liability is not split
        ("5100", "24000.00", "Department", "Ops"),  # 3 x 8,000.00
        ("5100", "30000.00", "Department", "Sales")]  # 3 x 10,000.00
    # July's books: 54,000.00 accrued, then +1,000.00 (Sales) and +500.00 (Ops) corrected.
    assert by_code(july) == {"5100": Decimal("55500.00"), "2110": Decimal("-55500.00")}

    august = journals_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-08",
                                "--format", "xero", "--tax-rate", "No VAT")))
    # July's payment on 3 August; August's deleted accrual, its reversal and the redone
    # accrual on 31 August: four journals, each balanced.
    assert sorted((day, narration.rsplit(", ", 1)[1]) for narration, day in august) == [
        (date(2026, 8, 3), "payment of net pay [PAYROLL-2]"), (date(2026, 8, 31), "accrual [PAYROLL-5]"),
        (date(2026, 8, 31), "accrual [PAYROLL-7]"), (date(2026, 8, 31), "reversal (the run was deleted) [PAYROLL-6]")]
    assert all(sum(Decimal(row["*Amount"]) for row in rows) == 0 for rows in august.values())
    assert {row["*TaxRate"] for rows in august.values() for row in rows} == {"No VAT"}
    # 54,000.00 expensed once (accrued, reversed, accrued again); salaries payable: July's
    # 54,000.00 paid, August's 54,000.00 accrued, reversed and accrued again: 0.
    assert by_code(august) == {"5100": Decimal("54000.00"), "2110": Decimal("0.00"), "1010": Decimal("-54000.00")}


def test_more_than_300_lines_are_numbered_files_that_never_split_an_entry(run, client, clock, runtime, tmp_path):
    # 25 departments of three, each paid basic, housing, transport and other: an accrual
    # is 25 x 4 expense lines + salaries payable = 101 lines; August holds July's payment
    # (2 lines), the deleted accrual, its reversal and the new accrual: 2 + 3 x 101 = 305.
    books = history(clock, runtime, teams={f"D{n:02d}": 500_000 for n in range(25)},
                    allowances={"housing": 200_000, "transport": 50_000, "other": 25_000})
    period = ("--entity", books.entity.id, "--period", "2026-08", "--format", "xero")
    refused(run("payroll", "journal", *period), "--output")
    written = tmp_path / "august.csv"
    assert ok(run("payroll", "journal", *period, "--output", str(written))).strip() == \
        f"wrote {tmp_path}/august-1.csv, {tmp_path}/august-2.csv"
    assert not written.exists()
    texts = [(tmp_path / f"august-{n}.csv").read_bytes().decode("utf-8") for n in (1, 2)]
    files = [journals_of(text) for text in texts]
    # 2 + 101 + 101 = 204 fit the first; the third accrual's 101 would make 305.
    assert [sum(len(rows) for rows in found.values()) for found in files] == [204, 101]
    assert not set(files[0]) & set(files[1])  # no journal in two files
    everything = journals_of(*texts)
    assert len(everything) == 4 and all(sum(Decimal(r["*Amount"]) for r in rows) == 0 for rows in everything.values())
    # July's net, paid on 3 August: 75 people x (5,000.00 + 2,000.00 + 500.00 + 250.00) = 581,250.00
    assert sum(Decimal(r["*Amount"]) for rows in everything.values() for r in rows if r["*AccountCode"] == "2110") == 0
    assert sum(Decimal(r["*Amount"]) for rows in everything.values() for r in rows if r["*AccountCode"] == "1010") \
        == Decimal("-581250.00")

    sign_in(client, member(books.company, "hr_admin", clock).email)
    answer = client.get(f"/console/payroll/journal?entity={books.entity.id}&month=2026-08&file_format=xero")
    assert answer.status_code == 200 and answer.mimetype == "application/zip"
    assert f'filename="journal-2026-08-{books.entity.id}-xero.zip"' in answer.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(answer.get_data())) as archive:
        assert [archive.read(f"journal-2026-08-{books.entity.id}-xero-{n}.csv").decode() for n in (1, 2)] == texts


def test_an_entry_of_more_lines_than_a_file_is_written_by_account_and_one_beyond_even_that_is_refused(
        transaction, clock, runtime):
    books = history(clock, runtime)
    accrual = journal_file.period_entries(books.entity, "2026-07")[0]
    # 101 x its 3 lines = 303 lines cannot be one journal in one file: each account's
    # lines are summed (101 x each amount), tracking left out, and it still balances.
    oversized = Posted(accrual.entry, accrual.run, accrual.lines * 101)
    [written] = journals_of(*journal_file.files([oversized], "xero")).values()
    assert len(written) == len({(line.account_code, line.debit_minor > 0) for line in accrual.lines})
    assert sum(Decimal(row["*Amount"]) for row in written) == 0
    assert all(row["TrackingName1"] == "" for row in written)
    expected = defaultdict(Decimal)
    for line in accrual.lines:
        expected[line.account_code] += Decimal(101 * (line.debit_minor - line.credit_minor)) / 100
    assert {row["*AccountCode"]: Decimal(row["*Amount"]) for row in written} == expected
    # 301 accounts cannot be fewer than 301 lines.
    many = [JournalLine(account_code=f"X{n}", account_name=f"X{n}", debit_minor=100, credit_minor=0)
            for n in range(301)] + [JournalLine(account_code="2110", account_name="Salaries payable",
                                                debit_minor=0, credit_minor=30_100)]
    with pytest.raises(Conflict, match="PAYROLL-1 .* has 302 lines: Xero imports at most 300"):
        journal_file.files([Posted(accrual.entry, accrual.run, many)], "xero")


def test_a_code_longer_than_xeros_10_characters_is_refused_naming_it_and_nothing_is_written(run, client, clock,
                                                                                          runtime, tmp_path):
    books = history(clock, runtime, before=lambda company: accounts.set_mapping(
        company.id, "basic_salaries", "SALARIES-5100", clock, name_en="Salaries"))
    written = tmp_path / "july.csv"
    result = run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-07", "--format", "xero",
                 "--output", str(written))
    refused(result, "account basic_salaries was posted under code SALARIES-5100, 13 characters: Xero's account "
                    "codes are at most 10 characters")
    assert len(result.output.strip().splitlines()) == 1 and not written.exists()
    assert "SALARIES-5100" in ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-07"))
    sign_in(client, member(books.company, "hr_admin", clock).email)
    answer = client.get(f"/console/payroll/journal?entity={books.entity.id}&month=2026-07&file_format=xero",
                        follow_redirects=True)
    assert answer.mimetype == "text/html" and "code SALARIES-5100, 13 characters" in answer.get_data(as_text=True)


def test_a_kuwaiti_entitys_fils_are_written_in_hundredths_and_each_journal_still_balances(run, books, clock):
    # Kuwait's dinar has three decimals; Xero keeps two. Basic 1,234.567 and 987.654 KWD:
    # the accrual debits 5100 with 2,222.221, written 2,222.22; every other line is
    # within a hundredth of what was posted, and every journal sums to zero.
    books.hire("K-1", date(2014, 3, 1), 1_234_567)
    books.hire("K-2", date(2015, 3, 1), 987_654)
    books.run("2026-07")
    journals = journals_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-07",
                                  "--format", "xero")))
    for rows in journals.values():
        assert sum(Decimal(row["*Amount"]) for row in rows) == 0
    assert by_code(journals)["5100"] == Decimal("2222.22")
    posted = defaultdict(Decimal)
    for found in journal_file.period_entries(books.entity, "2026-07"):
        for line in found.lines:
            posted[line.account_code] += Decimal(line.debit_minor - line.credit_minor) / 1000
    assert set(by_code(journals)) == set(posted)
    assert all(abs(by_code(journals)[code] - posted[code]) < Decimal("0.01") for code in posted)
