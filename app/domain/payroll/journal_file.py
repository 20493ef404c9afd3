"""A run's journal as a file an accountant imports (issue 34 part 3): one row per journal
line, the columns QuickBooks Online's "Import journal entries" maps one to one (Journal
No, Journal Date, Account, Debits, Credits, Description, Class) and Xero's manual journal
import takes after a column rename (docs/partners/journals.md, "Importing a run's journal").

Entry is a short journal number unique to the run's entry (the month, the run's last
four characters, the posting order), since an importer groups lines by it; Date is the
entry's accounting date; amounts are plain decimals in the run's currency, the other
side left empty. Debits equal credits in every entry, so in the file."""

import csv
import io

from app.domain.kernel.errors import Conflict, Words
from app.domain.kernel.money import format_minor
from app.domain.payroll.runs import journal_of
from app.models import PayrollRun

COLUMNS = ("Date", "Entry", "Account code", "Account name", "Description", "Debit", "Credit", "Department")


def journal_csv(run: PayrollRun) -> str:
    """The run's posted entries, every line a row under COLUMNS (a draft has none)."""
    if run.status == "draft":
        raise Conflict(Words("payroll run %(run)s is a draft: it has no journal until it is finalized", run=run.id))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for entry, lines in journal_of(run):
        date = (entry.accounting_date or entry.posted_at.date()).isoformat()
        number = f"{run.payroll_month}-{run.id[-4:]}-{entry.sequence}"
        description = entry.memo or f"Payroll {run.payroll_month}, {entry.kind}"
        for line in lines:
            group = (line.split_group or "Unassigned") if line.split_by else ""
            writer.writerow((date, number, _text(line.account_code), _text(line.account_name), _text(description),
                             _amount(line.debit_minor, run.currency), _amount(line.credit_minor, run.currency),
                             _text(group)))
    return out.getvalue()


def _text(value: str) -> str:
    """A text cell no spreadsheet takes for a formula (OWASP, CSV injection): one that
    begins with = + - @ (or a tab or return) is quoted with a leading apostrophe."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _amount(minor: int, currency: str) -> str:
    return format_minor(minor, currency) if minor else ""
