"""A journal as QuickBooks Online's "Import journal entries" reads it (issue 47 part 2),
judged from Intuit's help: the columns Journal No., Journal Date, Account Name,
Description, Debits, Credits (Name where an A/R or A/P account needs one; Class with
class tracking on); rows with one journal number one entry, whose debits equal its
credits; a sub-account as Parent:Subaccount; the journal number at most 21 characters
(Intuit's Accounting API, JournalEntry: DocNumber); dates in the company's date format.

Over two months with two corrections of a paid run and a deleted run
(tests/api/journal_history.py), every figure summed by hand in the test."""

import csv
import io
import re
from collections import defaultdict
from datetime import date, datetime
from decimal import Decimal

from app.domain.payroll import accounts
from tests.api.journal_history import history
from tests.helpers import ok, refused

COLUMNS = ("Journal No", "Journal Date", "Account Name", "Debits", "Credits", "Description", "Name", "Class")


def entries_of(text, date_format):
    """{journal no: (date, [rows])}: the journal entries QuickBooks makes of the file,
    each row checked (one date per entry, one side of a line, two decimals)."""
    reader = csv.DictReader(io.StringIO(text))
    entries = defaultdict(list)
    for row in reader:
        assert 1 <= len(row["Journal No"]) <= 21
        assert bool(row["Debits"]) != bool(row["Credits"])
        assert re.fullmatch(r"\d+\.\d\d", row["Debits"] or row["Credits"])
        entries[row["Journal No"]].append(row)
    assert tuple(reader.fieldnames or ()) == COLUMNS
    dated = {}
    for number, rows in entries.items():
        [day] = {datetime.strptime(row["Journal Date"], date_format).date() for row in rows}
        dated[number] = (day, rows)
    return dated


def balance(rows):
    return sum(Decimal(row["Debits"] or 0) - Decimal(row["Credits"] or 0) for row in rows)


def test_each_entry_has_its_own_journal_number_and_balances_in_the_companys_date_format(run, clock, runtime):
    books = history(clock, runtime, before=lambda company: accounts.set_mapping(
        company.id, "basic_salaries", "5100", clock, name_en="Payroll:Salaries"))
    period = ("--entity", books.entity.id, "--period", "2026-07", "--format", "quickbooks")
    july = entries_of(ok(run("payroll", "journal", *period)), "%d/%m/%Y")  # dd/MM/yyyy unless told
    # The accrual and two corrections (one memo, one date): three entries, three numbers.
    assert sorted(july) == ["PAYROLL-1", "PAYROLL-3", "PAYROLL-4"]
    assert {day for day, _rows in july.values()} == {date(2026, 7, 31)}
    assert all(balance(rows) == 0 for _day, rows in july.values())
    _day, accrual = july["PAYROLL-1"]
    assert sorted((r["Account Name"], r["Debits"], r["Credits"], r["Class"], r["Name"]) for r in accrual) == [
        ("Payroll:Salaries", "24000.00", "", "Ops", ""),  # 3 x 8,000.00; the sub-account as written
        ("Payroll:Salaries", "30000.00", "", "Sales", ""),  # 3 x 10,000.00
        ("Salaries payable", "", "54000.00", "", "")]  # a liability is not split: no class
    assert {r["Description"] for r in accrual} == {"Payroll 2026-07, Gulf Ledger LLC, accrual"}

    august = entries_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-08",
                               "--format", "quickbooks", "--date-format", "MM/dd/yyyy")), "%m/%d/%Y")
    assert {number: day for number, (day, _rows) in august.items()} == {
        "PAYROLL-2": date(2026, 8, 3),  # July's payment
        "PAYROLL-5": date(2026, 8, 31), "PAYROLL-6": date(2026, 8, 31), "PAYROLL-7": date(2026, 8, 31)}
    assert all(balance(rows) == 0 for _day, rows in august.values())
    by_account = defaultdict(Decimal)
    for _day, rows in august.values():
        for row in rows:
            by_account[row["Account Name"]] += balance([row])
    # 54,000.00 expensed once (accrued, reversed, accrued again); salaries payable: July's
    # 54,000.00 paid, August's accrued, reversed and accrued again: 0.
    assert dict(by_account) == {"Payroll:Salaries": Decimal("54000.00"), "Salaries payable": Decimal("0.00"),
                                "Bank": Decimal("-54000.00")}
    assert "08/31/2026" in ok(run("payroll", "journal", books.august.id, "--format", "quickbooks",
                                  "--date-format", "MM/dd/yyyy"))


def test_options_of_another_format_are_refused(run, clock, runtime):
    books = history(clock, runtime)
    period = ("--entity", books.entity.id, "--period", "2026-07")
    refused(run("payroll", "journal", *period, "--format", "xero", "--date-format", "MM/dd/yyyy"),
            "date_format: only for the QuickBooks format")
    refused(run("payroll", "journal", *period, "--format", "quickbooks", "--tax-rate", "No VAT"),
            "tax_rate: only for the Xero format")
    refused(run("payroll", "journal", *period, "--format", "quickbooks", "--date-format", "yyyy/dd/MM"), "MM/dd/yyyy")


def test_a_kuwaiti_entitys_fils_are_written_in_hundredths_and_each_entry_still_balances(run, books):
    # As Xero's (test_journal_xero.py works it by hand): basic 1,234.567 + 987.654 =
    # 2,222.221 KWD is written 2,222.22; every entry still balances.
    books.hire("K-1", date(2014, 3, 1), 1_234_567)
    books.hire("K-2", date(2015, 3, 1), 987_654)
    books.run("2026-07")
    entries = entries_of(ok(run("payroll", "journal", "--entity", books.entity.id, "--period", "2026-07",
                                "--format", "quickbooks")), "%d/%m/%Y")
    for _day, rows in entries.values():
        assert balance(rows) == 0
    # QuickBooks reads a colon in Account Name as Parent:Sub: no default name has one
    # (PIFSS's employer contributions among them).
    assert "PIFSS employer contributions" in {row["Account Name"] for _day, rows in entries.values() for row in rows}
    assert not any(":" in row["Account Name"] for _day, rows in entries.values() for row in rows)
    salaries = [row for _day, rows in entries.values() for row in rows if row["Account Name"] == "Basic salaries"]
    assert [row["Debits"] for row in salaries] == ["2222.22"]
