"""What a month's leave does to pay (pure; no I/O): each approved leave's days in the
month, in runs of days paid at one share of the wage (`Segment`).

Annual leave is paid in full (law.py: on the leave's wage; the month's pay is that
wage). Unpaid leave is paid nothing. Every other kind pays its days by its tiers, in
order: sick leave within the service year (from each anniversary of the hire date)
across all its sick leaves, the others within the one leave; days past the last tier,
and days before the kind's qualifying service, are unpaid (and take no place in the
tiers: the law's days begin after that service). Payroll turns segments into
money by the same day-count rule as a part month (app/domain/payroll/rules.py,
`employed_share`).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from itertools import pairwise

from app.domain.leave.days import DAY, add_months, service_year
from app.domain.leave.law import FULL, NONE, Kind, Tier, kind_of


@dataclass(frozen=True)
class Leave:
    """An approved leave, as pay reads it."""

    id: str
    type: str
    start: date
    end: date


@dataclass(frozen=True)
class Segment:
    """Days `first` to `last` (calendar days, in one month) of leave `leave`, paid at
    `paid` of the wage."""

    leave: Leave
    first: date
    last: date
    paid: Fraction

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1


def tier_share(tiers: tuple[Tier, ...], index: int) -> Fraction:
    """The share of the wage paid for the day `index` (0: the first) of a kind's days."""
    return _tier_at(tiers, index)[0]


def _tier_at(tiers: tuple[Tier, ...], index: int) -> tuple[Fraction, int | None]:
    """(the share paid for the day `index` of a kind's days, how many days from it on are
    paid the same: None past the last tier, where every day is unpaid)."""
    for tier in tiers:
        if index < tier.days:
            return tier.paid, tier.days - index
        index -= tier.days
    return NONE, None


def segments(country: str, hire: date, leave: Iterable[Leave], first: date, last: date) -> list[Segment]:
    """The days of approved `leave` from `first` to `last`, in runs of consecutive days of
    one leave paid at one share, in order (all of the employee's leave is given: sick
    days earlier in a service year move later ones down the tiers). Worked out by
    spans, not day by day: a leave's days before `first` only take their places in the
    tiers."""
    counted: dict[tuple[str, date], int] = {}  # (type, service year) -> days of it so far
    pieces: list[Segment] = []
    for row in sorted(leave, key=lambda row: row.start):
        if row.start > last:
            break
        pieces.extend(_pieces(country, hire, row, first, last, counted))
    if any(later.first <= earlier.last for earlier, later in pairwise(pieces)):
        pieces = _later_wins(pieces)  # overlapping leave (refused when asked for; kept exact)
    runs: list[Segment] = []
    for piece in pieces:
        before = runs[-1] if runs else None
        if (before is not None and before.leave == piece.leave and before.paid == piece.paid
                and before.last + DAY == piece.first):
            runs[-1] = Segment(piece.leave, before.first, piece.last, piece.paid)
        else:
            runs.append(piece)
    return runs


def _pieces(country: str, hire: date, row: Leave, first: date, last: date,
            counted: dict[tuple[str, date], int]) -> list[Segment]:
    """`row`'s days from `first` to `last` in spans paid at one share each, its days (and
    those before `first`) counted into `counted` by service year for a kind that counts
    them so."""
    start, end = max(row.start, first), min(row.end, last)
    if row.type == "annual":
        return [Segment(row, start, end, FULL)] if start <= end else []
    kind: Kind = kind_of(country, row.type)
    if kind.per != "year" and row.end < first:
        return []  # its tiers are its own: it pays nothing in the days asked for
    qualified = add_months(hire, kind.after_months)
    index = _places_before(row, kind, hire, qualified, first, counted)  # the next day's place in the leave
    out = []
    if start < qualified and start <= end:  # before the kind's qualifying service: unpaid, no place in the tiers
        out.append(Segment(row, start, min(end, qualified - DAY), NONE))
    day = max(start, qualified)
    while day <= end:
        stop = end
        if kind.per == "year":
            year_first, year_last = service_year(hire, day)
            index = counted.get((row.type, year_first), 0)
            stop = min(stop, year_last)
        paid, left = _tier_at(kind.tiers, index)
        if left is not None:
            stop = min(stop, day + (left - 1) * DAY)
        assert stop >= day, "a span that ends before its first day: the loop would never end"
        out.append(Segment(row, day, stop, paid))
        taken = (stop - day).days + 1
        index += taken
        if kind.per == "year":
            counted[(row.type, year_first)] = index
        day = stop + DAY
    return out


def _later_wins(pieces: list[Segment]) -> list[Segment]:
    """Pieces that overlap made one piece per day, the later leave's share on a day two give."""
    days: dict[date, tuple[Leave, Fraction]] = {}
    for piece in pieces:
        day = piece.first
        while day <= piece.last:
            days[day] = (piece.leave, piece.paid)
            day += DAY
    return [Segment(row, day, day, paid) for day, (row, paid) in sorted(days.items())]


def _places_before(row: Leave, kind: Kind, hire: date, qualified: date, first: date,
                   counted: dict[tuple[str, date], int]) -> int:
    """The tier places the days of `row` before `first` take (each day on or after
    `qualified`, the kind's qualifying service): added to `counted` per service year for
    a kind counted by the year; for one counted by the leave, returned (the next day's
    place in the leave)."""
    early_last = min(row.end, first - DAY)
    day = max(row.start, qualified)
    if early_last < day:
        return 0
    if kind.per != "year":
        return (early_last - day).days + 1
    while day <= early_last:
        year_first, year_last = service_year(hire, day)
        upto = min(early_last, year_last)
        assert upto >= day, "a service year that ends before its own day: the loop would never end"
        key = (row.type, year_first)
        counted[key] = counted.get(key, 0) + (upto - day).days + 1
        day = upto + DAY
    return 0
