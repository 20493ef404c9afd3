"""Journal files for ledgers that keep two decimal places (Xero, QuickBooks Online; issue
47 part 2): an entry in a three-decimal currency (KWD, BHD, OMR) is written in hundredths,
each line within a hundredth of what was posted, and still balances."""

from hypothesis import given
from hypothesis import strategies as st

from app.domain.payroll.journal_file import in_two_decimals
from app.domain.payroll.ledger import Posted
from app.models import JournalEntry, JournalLine, PayrollRun


def entry(currency, pairs):
    return Posted(JournalEntry(currency=currency), PayrollRun(),
                  [JournalLine(debit_minor=debit, credit_minor=credit) for debit, credit in pairs])


@st.composite
def balanced(draw):
    """Debit amounts and credit amounts (fils) with one total, as a posted entry's lines."""
    debits = draw(st.lists(st.integers(1, 10**9), min_size=1, max_size=12))
    total, credits = sum(debits), []
    while total:
        part = total if draw(st.booleans()) or len(credits) > 10 else draw(st.integers(1, total))
        credits.append(part)
        total -= part
    return [(d, 0) for d in debits] + [(0, c) for c in credits]


@given(balanced(), st.sampled_from(["KWD", "BHD", "OMR"]))
def test_a_three_decimal_entry_is_written_in_hundredths_that_balance_each_within_a_hundredth(pairs, currency):
    written = in_two_decimals(entry(currency, pairs))
    assert sum(debit for debit, _ in written) == sum(credit for _, credit in written)
    for (debit, credit), (posted_debit, posted_credit) in zip(written, pairs, strict=True):
        assert abs(debit * 10 - posted_debit) < 10 and abs(credit * 10 - posted_credit) < 10
        assert debit == 0 or posted_debit > 0  # no amount on a side that had none
        assert debit > 0 or posted_debit < 10  # only a line under a hundredth can vanish
    assert sum(debit for debit, _ in written) == (sum(d for d, _ in pairs) + 5) // 10  # the total, half up


def test_by_hand():
    # 1,234.565 + 0.005 = 1,234.570 KWD against one credit: 1234.565 cuts to 1234.56 and
    # 0.005 to 0.00, the total 1234.57, so the hundredth left over goes to the line that
    # lost most (both lost 0.005: the first). Two-decimal currencies are as posted.
    assert in_two_decimals(entry("KWD", [(1_234_565, 0), (5, 0), (0, 1_234_570)])) == [
        (123_457, 0), (0, 0), (0, 123_457)]
    assert in_two_decimals(entry("AED", [(123_456, 0), (0, 123_456)])) == [(123_456, 0), (0, 123_456)]
