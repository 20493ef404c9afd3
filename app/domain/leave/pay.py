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

from app.domain.leave.days import DAY, add_months, each_day, service_year
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
    for tier in tiers:
        if index < tier.days:
            return tier.paid
        index -= tier.days
    return NONE


def day_shares(country: str, hire: date, leave: Iterable[Leave], first: date,
               last: date) -> dict[date, tuple[Leave, Fraction]]:
    """{day: (its leave, the share of the wage paid for it)} for each day of approved
    `leave` from `first` to `last` (all of the employee's leave is given: sick days
    earlier in a service year move later ones down the tiers)."""
    leave = sorted(leave, key=lambda row: row.start)
    out: dict[date, tuple[Leave, Fraction]] = {}
    counted: dict[tuple[str, date], int] = {}  # (type, service year) -> days of it so far
    for row in leave:
        if row.start > last:
            break
        if row.type == "annual":
            shares = {day: FULL for day in each_day(max(row.start, first), min(row.end, last))}
        else:
            kind: Kind = kind_of(country, row.type)
            if kind.per != "year" and row.end < first:
                continue  # its tiers are its own: it pays nothing in the days asked for
            qualified = add_months(hire, kind.after_months)
            shares = {}
            # The days before `first` only take their places in the tiers: counted, not paid.
            index = _places_before(row, kind, hire, qualified, first, counted)  # of the next day in the leave
            year = (date.min, date.min)  # the service year of the day before
            for day in each_day(max(row.start, first), min(row.end, last)):
                if day < qualified:
                    share = NONE
                else:
                    if kind.per == "year":
                        if day > year[1]:
                            year = service_year(hire, day)
                        index = counted.get((row.type, year[0]), 0)
                        counted[(row.type, year[0])] = index + 1
                    share = tier_share(kind.tiers, index)
                    index += 1
                shares[day] = share
        for day, share in shares.items():
            out[day] = (row, share)
    return out


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
        key = (row.type, year_first)
        counted[key] = counted.get(key, 0) + (upto - day).days + 1
        day = upto + DAY
    return 0


def segments(country: str, hire: date, leave: Iterable[Leave], month_start: date, month_end: date) -> list[Segment]:
    """The month's leave in runs of consecutive days of one leave paid at one share."""
    shares = day_shares(country, hire, leave, month_start, month_end)
    runs: list[tuple[Leave, Fraction, date, date]] = []  # (leave, share, first, last)
    for day in sorted(shares):
        row, share = shares[day]
        if runs and runs[-1][0] == row and runs[-1][1] == share and (day - runs[-1][3]).days == 1:
            runs[-1] = (row, share, runs[-1][2], day)
        else:
            runs.append((row, share, day, day))
    return [Segment(row, first, last, share) for row, share, first, last in runs]
