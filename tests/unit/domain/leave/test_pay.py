"""What leave does to pay, for all inputs (pure): the month's paid share never goes
below nothing nor above the days employed, annual leave never changes it, every sick
day of a service year is paid by its place in that year's tiers, and the spans
pay.segments works out are what a walk of every day gives (`walked`, the rule as the
law reads: day by day)."""

import signal
from contextlib import contextmanager
from datetime import date, timedelta
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from app.domain.leave.days import add_months, service_year
from app.domain.leave.law import FULL, LAWS, NONE, TYPES, kind_of
from app.domain.leave.pay import Leave, segments, tier_share
from app.domain.payroll.rules import employed_share

HIRE = date(2024, 3, 15)


@st.composite
def leaves(draw, types=TYPES):
    """Non-overlapping leave in 2026, by first day."""
    out, day = [], date(2026, 1, 1)
    for n in range(draw(st.integers(0, 6))):
        day += timedelta(days=draw(st.integers(0, 40)))
        length = draw(st.integers(1, 60))
        out.append(Leave(f"leave_{n}", draw(st.sampled_from(types)), day, day + timedelta(days=length - 1)))
        day += timedelta(days=length)
    return out


def walked(country, hire, rows, first, last):
    """{day: (its leave, the share paid)} for each day of `rows` from `first` to `last`,
    walking every day of every leave from its first (the later leave on a day two give)."""
    out, counted = {}, {}
    for row in sorted(rows, key=lambda row: row.start):
        if row.start > last:
            break
        kind = None if row.type == "annual" else kind_of(country, row.type)
        qualified = add_months(hire, kind.after_months) if kind else hire
        index, day = 0, row.start
        while day <= min(row.end, last):
            if kind is None:
                share = FULL
            elif day < qualified:
                share = NONE
            else:
                if kind.per == "year":
                    year = (row.type, service_year(hire, day)[0])
                    index = counted.get(year, 0)
                    counted[year] = index + 1
                share = tier_share(kind.tiers, index)
                index += 1
            if day >= first:
                out[day] = (row, share)
            day += timedelta(days=1)
    return out


def day_shares(country, hire, rows, first, last):
    """segments, one entry a day."""
    return {segment.first + timedelta(days=n): (segment.leave, segment.paid)
            for segment in segments(country, hire, rows, first, last) for n in range(segment.days)}


def paid_share(country, rows, month_start, month_end):
    employed = employed_share(country, month_start, month_end, HIRE, None)
    off = sum(employed_share(country, month_start, month_end, s.first, s.last) * (1 - s.paid)
              for s in segments(country, HIRE, rows, month_start, month_end))
    return employed, employed - off


@given(st.sampled_from(sorted(LAWS)), leaves(), st.integers(1, 12))
def test_the_paid_share_stays_between_nothing_and_the_days_employed(country, rows, month):
    start = date(2026, month, 1)
    end = (start.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    employed, paid = paid_share(country, rows, start, end)
    assert 0 <= paid <= employed == 1


@given(st.sampled_from(sorted(LAWS)), leaves(types=("annual",)), st.integers(1, 12))
def test_annual_leave_never_changes_pay(country, rows, month):
    start = date(2026, month, 1)
    end = (start.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    assert paid_share(country, rows, start, end) == (1, 1)


@given(st.sampled_from(sorted(LAWS)), leaves(types=("sick",)))
def test_each_sick_day_is_paid_by_its_place_in_the_service_year(country, rows):
    """The year runs from each 15 March (the hire date's anniversary)."""
    shares = day_shares(country, HIRE, rows, date(2026, 1, 1), date(2027, 12, 31))
    kind = kind_of(country, "sick")
    place: dict[date, int] = {}
    for day in sorted(shares):
        year = date(day.year if (day.month, day.day) >= (3, 15) else day.year - 1, 3, 15)
        place[year] = place.get(year, -1) + 1
        assert shares[day][1] == tier_share(kind.tiers, place[year]), (day, place[year])  # served two years


@given(st.sampled_from(sorted(LAWS)), leaves(), st.dates(date(2024, 1, 1), date(2026, 12, 31)),
       st.dates(date(2025, 1, 1), date(2027, 3, 31)), st.integers(0, 45))
@example("SA", [Leave("leave_s", "sick", date(2025, 2, 20), date(2025, 3, 5))], date(2024, 2, 29), date(2025, 2, 1), 40)
def test_the_spans_are_what_a_walk_of_every_day_gives(country, rows, hire, first, length):
    """Days before those asked for are counted into the tiers and the rest split at the
    tiers' and service years' ends (pay._pieces), not walked: the same shares."""
    last = first + timedelta(days=length)
    assert day_shares(country, hire, rows, first, last) == walked(country, hire, rows, first, last)


@given(st.sampled_from(sorted(LAWS)), leaves(), st.dates(date(2024, 1, 1), date(2026, 12, 31)),
       st.integers(1, 12))
def test_a_month_s_segments_are_the_longest_runs_of_one_leave_at_one_share(country, rows, hire, month):
    first = date(2026, month, 1)
    last = (first.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    runs = segments(country, hire, rows, first, last)
    for run in runs:
        assert first <= run.first <= run.last <= last
    for before, after in zip(runs, runs[1:], strict=False):
        assert before.last < after.first  # in order, no day twice
        assert not (before.leave == after.leave and before.paid == after.paid
                    and (after.first - before.last).days == 1)  # else one run


@given(st.sampled_from(sorted(LAWS)), st.lists(st.tuples(st.sampled_from(TYPES), st.integers(0, 60),
                                                         st.integers(1, 40)), max_size=4))
def test_overlapping_leave_gives_each_day_the_later_leave_s_share(country, spans):
    """Overlaps are refused when leave is asked for; should rows overlap, the walk's
    answer still holds."""
    rows = [Leave(f"leave_{n}", kind, date(2026, 1, 1) + timedelta(days=offset),
                  date(2026, 1, 1) + timedelta(days=offset + length - 1))
            for n, (kind, offset, length) in enumerate(spans)]
    first, last = date(2026, 1, 20), date(2026, 2, 28)
    assert day_shares(country, HIRE, rows, first, last) == walked(country, HIRE, rows, first, last)


@pytest.mark.parametrize(("first", "last"), [(date(2025, 2, 1), date(2025, 2, 28)),
                                           (date(2025, 4, 1), date(2025, 4, 30))])
def test_a_29_february_hire_s_sick_leave_across_the_28th_a_year_on(first, last):
    """The 28th is the anniversary and still the year before (service_year): the spans
    end (they once looped on a year that ended before its own day) and are the walk's."""
    rows = [Leave("leave_sick", "sick", date(2025, 2, 20), date(2025, 3, 5)),
            Leave("leave_annual", "annual", date(2025, 4, 6), date(2025, 4, 9))]
    hire = date(2024, 2, 29)
    with _ends_within(seconds=5):
        assert day_shares("SA", hire, rows, first, last) == walked("SA", hire, rows, first, last)


@contextmanager
def _ends_within(seconds):
    """Fail, not hang, when the block does not end."""
    def stop(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")
    before = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def test_a_leave_begun_before_the_month_keeps_its_place_in_its_own_tiers():
    """Saudi Hajj leave: 15 days on full pay (art. 114), then unpaid; begun ten days before
    the month, its 16th day is the month's sixth."""
    hajj = Leave("leave_hajj", "hajj", date(2026, 5, 22), date(2026, 6, 10))
    shares = day_shares("SA", HIRE, [hajj], date(2026, 6, 1), date(2026, 6, 30))
    assert [shares[date(2026, 6, d)][1] for d in range(1, 11)] == [1] * 5 + [0] * 5


def test_tiers_in_order_then_unpaid():
    tiers = kind_of("SA", "sick").tiers  # art. 117: 30 full, 60 at three quarters, 30 unpaid
    assert [tier_share(tiers, i) for i in (0, 29, 30, 89, 90, 119, 120, 500)] == [
        1, 1, Fraction(3, 4), Fraction(3, 4), 0, 0, 0, 0]


@given(st.dates(date(1990, 1, 1), date(2060, 12, 31)), st.integers(0, 600), st.integers(0, 20_000))
def test_months_and_service_years_move_as_dateutil_moves_them(hire, months, later):
    """days.add_months and service_year stand in for relativedelta (for speed)."""
    from dateutil.relativedelta import relativedelta

    from app.domain.leave.days import add_months, service_year
    day = hire + timedelta(days=later)
    assert add_months(hire, months) == hire + relativedelta(months=months)
    years = relativedelta(day, hire).years
    first, last = service_year(hire, day)
    assert first == hire + relativedelta(years=years) <= day <= last  # the day is in its own year
    assert last == max(hire + relativedelta(years=years + 1) - timedelta(days=1), day)
