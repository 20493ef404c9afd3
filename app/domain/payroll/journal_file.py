"""Journal entries as files an accountant imports (issue 34 part 3, issue 47): a run's
entries (a deleted run's too, its reversal included), or one legal entity's month, the
same entries the ledger feed lists (ledger.py), in one of three formats:

    csv         one row per journal line with every field of its entry (COLUMNS)
    xero        Xero's manual journal import template (XERO_COLUMNS): one signed amount,
                dd/mm/yyyy, a tax rate's name, at most 300 lines a file
    quickbooks  QuickBooks Online's journal entry import (QUICKBOOKS_COLUMNS): the
                account's name, debits and credits, the company's date format

docs/partners/journals.md, "Importing a period's journal", says where each rule comes
from. Xero and QuickBooks Online keep an amount to two decimal places: an entity paid in
a three-decimal currency (KWD, BHD, OMR) has its lines written to two there, each entry's
debits and credits rounded so that they still balance (`in_two_decimals`); the CSV
carries every amount as posted. Every entry carries one journal number (`number`): its place in the company's
posting order, so unique in the company and the same in every file. Debits equal credits
in every entry, so in every group an importer makes of the file's rows.
"""

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import date
from typing import NamedTuple

from app.domain.kernel.errors import Conflict, NotFound, ValidationFailed, Words
from app.domain.kernel.money import format_minor, minor_digits
from app.domain.kernel.text import not_in_a_line
from app.domain.payroll import ledger
from app.domain.payroll.ledger import Posted
from app.domain.payroll.runs import journal_of
from app.models import Entity, JournalEntry, JournalLine, PayrollRun
from app.models.base import row_of

FORMATS = ("csv", "xero", "quickbooks")

COLUMNS = ("Date", "Entry", "Account code", "Account name", "Description", "Debit", "Credit", "Department",
           "Currency", "Entity", "Kind", "Entry id", "Corrects", "Reverses", "Employee count")

# Xero's "Import manual journals" template (help.xero.com, ManualJournalsImport): rows with
# one narration and date are one journal; the amount is a debit when positive; the tax
# rate is the full name of one of the organisation's rates; up to 300 lines a file. Account
# codes are at most 10 characters (Xero's Accounting API, Accounts: Code).
XERO_COLUMNS = ("*Narration", "*Date", "Description", "*AccountCode", "*TaxRate", "*Amount", "TrackingName1",
                "TrackingOption1", "TrackingName2", "TrackingOption2")
XERO_LINES_PER_FILE = 300
XERO_CODE_LENGTH = 10
# The no-tax rate of Xero's international (Global) edition, which organisations in the
# Gulf use: 0%, and the rate Xero's own system accounts carry, so it cannot be deleted.
# Salaries are outside VAT; a UK organisation's rate is "No VAT" (--tax-rate).
XERO_TAX_RATE = "Tax Exempt"
XERO_TRACKING = {"department": "Department", "branch": "Branch"}

# QuickBooks Online's "Import journal entries" (Intuit's help): rows with one journal
# number are one entry, whose number is at most 21 characters (Intuit's Accounting API,
# JournalEntry: DocNumber); dates as the company's date format (Account and settings,
# Advanced, Other preferences); the account by its full name, a sub-account as
# Parent:Sub; Class on each line (Location is the whole entry's).
QUICKBOOKS_COLUMNS = ("Journal No", "Journal Date", "Account Name", "Debits", "Credits", "Description", "Name",
                      "Class")
QUICKBOOKS_NUMBER_LENGTH = 21
QUICKBOOKS_DATE_FORMATS = {"dd/MM/yyyy": "%d/%m/%Y", "MM/dd/yyyy": "%m/%d/%Y"}
QUICKBOOKS_DATE_FORMAT = "dd/MM/yyyy"


class CsvRow(NamedTuple):
    date: str
    entry: str
    account_code: str
    account_name: str
    description: str
    debit: str
    credit: str
    department: str
    currency: str
    entity: str
    kind: str
    entry_id: str
    corrects: str
    reverses: str
    employee_count: str


class XeroRow(NamedTuple):
    narration: str
    date: str
    description: str
    account_code: str
    tax_rate: str
    amount: str
    tracking_name_1: str
    tracking_option_1: str
    tracking_name_2: str
    tracking_option_2: str


class QuickBooksRow(NamedTuple):
    journal_no: str
    journal_date: str
    account_name: str
    debits: str
    credits: str
    description: str
    name: str
    class_: str


def run_entries(company_id: str | None, run_id: str) -> tuple[PayrollRun, list[Posted]]:
    """A closed run of the company (`company_id` None: of any company, for an operator's
    command), deleted or not, and its entries in posting order: a deleted run's reversal
    is read as its accrual was. A draft has none yet: Conflict."""
    run = PayrollRun.get_or_none(row_of(PayrollRun, run_id, company_id))
    if run is None:
        raise NotFound(Words("no payroll run %(run)s", run=run_id))
    if run.status == "draft":
        raise Conflict(Words("payroll run %(run)s is a draft: it has no journal until it is finalized", run=run.id))
    return run, [Posted(entry, run, lines) for entry, lines in journal_of(run)]


def period_entries(entity: Entity, period: str) -> list[Posted]:
    """The legal entity's entries dated in the month `period` (YYYY-MM), every run's,
    deleted runs' included, in posting order (ledger.entries)."""
    return ledger.entries(entity.company_id, entity_id=entity.id, period=period).items


def files(posted: Sequence[Posted], file_format: str = "csv", *, tax_rate: str | None = None,
          date_format: str | None = None) -> list[str]:
    """The entries as the texts of the files to write, in order: one file, except a Xero
    journal of more than 300 lines, which takes several, an entry never split across
    two. Xero's options: `tax_rate` (XERO_TAX_RATE); QuickBooks': `date_format` (one of
    QUICKBOOKS_DATE_FORMATS, QUICKBOOKS_DATE_FORMAT). Refused, with nothing to write: an
    option of another format, an account code Xero cannot take, an entry over 300 lines."""
    if file_format not in FORMATS:
        raise ValidationFailed(Words("invalid format"), [("format", Words("one of %(choices)s",
                                                                        choices=", ".join(FORMATS)))])
    if tax_rate is not None and file_format != "xero":
        raise ValidationFailed(Words("invalid options"), [("tax_rate", Words("only for the Xero format"))])
    if date_format is not None and file_format != "quickbooks":
        raise ValidationFailed(Words("invalid options"), [("date_format", Words("only for the QuickBooks format"))])
    if file_format == "xero":
        return [_written(XERO_COLUMNS, rows) for rows in _xero_files(posted, _tax_rate(tax_rate))]
    if file_format == "quickbooks":
        return [_written(QUICKBOOKS_COLUMNS, _quickbooks_rows(posted, _date_format(date_format)))]
    return [_written(COLUMNS, _csv_rows(posted))]


def number(entry: JournalEntry) -> str:
    """The entry's journal number: its place in its company's posting order, `PAYROLL-12`
    (at most 21 characters while fewer than 10**13 entries are posted)."""
    return f"PAYROLL-{entry.position}"


def _csv_rows(posted: Iterable[Posted]) -> Iterable[CsvRow]:
    for found in posted:
        entry = found.entry
        for line in found.lines:
            yield CsvRow(
                _date(entry).isoformat(), number(entry), _text(line.account_code), _text(line.account_name),
                _text(_memo(found)), _amount(line.debit_minor, entry.currency),
                _amount(line.credit_minor, entry.currency), _text(_group(line)), entry.currency, found.run.entity_id,
                entry.kind, entry.id, entry.corrects or "", entry.reverses or "",
                str(line.employee_count) if line.employee_count else "")


def _xero_files(posted: Iterable[Posted], tax_rate: str) -> list[list[XeroRow]]:
    """Each entry's rows, gathered into files of at most XERO_LINES_PER_FILE rows, each
    entry whole in one (at least one file, which may hold none). An entry of more lines
    than a file holds (a split accrual of very many cost centres) is written whole by
    account instead, without its tracking (`_by_account`); the CSV keeps its groups."""
    batches: list[list[XeroRow]] = [[]]
    for found in posted:
        entry = found.entry
        lines = list(zip(found.lines, in_two_decimals(found), strict=True))
        if len(lines) > XERO_LINES_PER_FILE:
            lines = _by_account(lines)
        if len(lines) > XERO_LINES_PER_FILE:
            raise Conflict(Words("journal entry %(number)s (%(entry)s) has %(count)s lines: Xero imports at most "
                                 "%(limit)s lines a file and an entry is never split across two files, so nothing "
                                 "was written", number=number(entry), entry=entry.id, count=len(lines),
                                 limit=XERO_LINES_PER_FILE))
        narration = _text(f"{_memo(found)} [{number(entry)}]")  # unique: Xero groups by narration and date
        rows = [XeroRow(narration, _date(entry).strftime("%d/%m/%Y"), _text(line.account_name),
                        _text(_xero_code(line)), _text(tax_rate), _cents(debit - credit),
                        XERO_TRACKING.get(line.split_by, "") if line.split_by else "", _text(_group(line)), "", "")
                for line, (debit, credit) in lines
                if debit or credit]  # a line of less than half a hundredth holds nothing there
        if len(batches[-1]) + len(rows) > XERO_LINES_PER_FILE:
            batches.append([])
        batches[-1].extend(rows)
    return batches


def _by_account(lines: list[tuple[JournalLine, tuple[int, int]]]) -> list[tuple[JournalLine, tuple[int, int]]]:
    """An entry's lines (with their amounts in hundredths) made one per account and side:
    each account's lines summed, split lines no longer split. The entry still balances."""
    merged: dict[tuple[str, str, bool], tuple[JournalLine, list[int]]] = {}
    for line, (debit, credit) in lines:
        key = (line.account_code, line.account_name, debit > 0)
        whole, sums = merged.setdefault(key, (JournalLine(account_code=line.account_code,
                                                          account_name=line.account_name,
                                                          account_key=line.account_key), [0, 0]))
        sums[0] += debit
        sums[1] += credit
    return [(whole, (sums[0], sums[1])) for whole, sums in merged.values()]


def _quickbooks_rows(posted: Iterable[Posted], date_format: str) -> Iterable[QuickBooksRow]:
    for found in posted:
        entry = found.entry
        day = _date(entry).strftime(QUICKBOOKS_DATE_FORMATS[date_format])
        for line, (debit, credit) in zip(found.lines, in_two_decimals(found), strict=True):
            if not debit and not credit:
                continue  # less than half a hundredth: nothing in a two-decimal ledger
            yield QuickBooksRow(number(entry), day, _text(line.account_name), _cents(debit) if debit else "",
                                _cents(credit) if credit else "", _text(_memo(found)), "", _text(_group(line)))


def in_two_decimals(found: Posted) -> list[tuple[int, int]]:
    """Each line's (debit, credit) in hundredths of the entry's currency, for a ledger that
    keeps two decimal places. Two-decimal currencies are as posted. In a three-decimal one
    the entry's total is rounded half up to the hundredth, and each side's lines are its
    amounts cut to the hundredth with the hundredths left over given one each to the lines
    that lost most (ties: the first): every line within a hundredth of what was posted,
    and debits equal to credits, so the entry imports and balances."""
    digits = minor_digits(found.entry.currency)
    pairs = [(line.debit_minor, line.credit_minor) for line in found.lines]
    if digits <= 2:
        scale = 10 ** (2 - digits)
        return [(debit * scale, credit * scale) for debit, credit in pairs]
    unit = 10 ** (digits - 2)
    total = sum(debit for debit, _credit in pairs)
    target = (total + unit // 2) // unit  # half up: amounts are never negative
    sides = [_largest_remainder([pair[side] for pair in pairs], unit, target) for side in (0, 1)]
    return list(zip(sides[0], sides[1], strict=True))


def _largest_remainder(amounts: list[int], unit: int, target: int) -> list[int]:
    """`amounts` divided by `unit`, cut down, then one more for the largest remainders
    until they sum to `target`."""
    cut = [amount // unit for amount in amounts]
    short = target - sum(cut)
    order = sorted(range(len(amounts)), key=lambda i: (-(amounts[i] % unit), i))
    for i in order[:short]:
        cut[i] += 1
    return cut


def _cents(hundredths: int) -> str:
    sign = "-" if hundredths < 0 else ""
    whole, cents = divmod(abs(hundredths), 100)
    return f"{sign}{whole}.{cents:02d}"


def _xero_code(line: JournalLine) -> str:
    if len(line.account_code) > XERO_CODE_LENGTH:
        raise Conflict(Words("account %(key)s was posted under code %(code)s, %(length)s characters: Xero's account "
                             "codes are at most %(limit)s characters, so nothing was written (map it to a shorter "
                             "code for the entries posted from now on, or import the CSV)",
                             key=line.account_key or line.account_name, code=line.account_code,
                             length=len(line.account_code), limit=XERO_CODE_LENGTH))
    return line.account_code


def _tax_rate(tax_rate: str | None) -> str:
    if tax_rate is None:
        return XERO_TAX_RATE
    if not tax_rate.strip() or len(tax_rate) > 100 or not_in_a_line(tax_rate) is not None:
        raise ValidationFailed(Words("invalid tax rate"), [("tax_rate", Words(
            "the name of one of your Xero organisation's tax rates, as its tax settings spell it (1 to 100 "
            "characters on one line)"))])
    return tax_rate


def _date_format(date_format: str | None) -> str:
    if date_format is None:
        return QUICKBOOKS_DATE_FORMAT
    if date_format not in QUICKBOOKS_DATE_FORMATS:
        raise ValidationFailed(Words("invalid date format"), [("date_format", Words(
            "one of %(choices)s, as your QuickBooks company's date format",
            choices=", ".join(QUICKBOOKS_DATE_FORMATS)))])
    return date_format


def _written(header: tuple[str, ...], rows: Iterable[tuple[str, ...]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _date(entry: JournalEntry) -> date:
    """The entry's accounting date (the day it was posted, for an entry posted before
    accounting dates were kept)."""
    return entry.accounting_date or entry.posted_at.date()


def _memo(found: Posted) -> str:
    return found.entry.memo or f"Payroll {found.run.payroll_month}, {found.entry.kind}"


def _group(line: JournalLine) -> str:
    """A split line's cost centre (Unassigned: the group of those without one, or under
    three); empty for a line not split."""
    return (line.split_group or "Unassigned") if line.split_by else ""


def _text(value: str) -> str:
    """A text cell no spreadsheet takes for a formula (OWASP, CSV injection): one that
    begins with = + - @ (or a tab or return) is quoted with a leading apostrophe."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _amount(minor: int, currency: str) -> str:
    return format_minor(minor, currency) if minor else ""
