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

from app.domain.leave.days import add_months, each_day, service_year_start
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
            qualified = add_months(hire, kind.after_months)
            shares = {}
            index = 0  # the day's place in the leave's paid days (days before the qualifying service take none)
            for day in each_day(row.start, min(row.end, last)):
                if day < qualified:
                    share = NONE
                else:
                    if kind.per == "year":
                        year = (row.type, service_year_start(hire, day))
                        index = counted.get(year, 0)
                        counted[year] = index + 1
                    share = tier_share(kind.tiers, index)
                    index += 1
                if day >= first:
                    shares[day] = share
        for day, share in shares.items():
            out[day] = (row, share)
    return out


def segments(country: str, hire: date, leave: Iterable[Leave], month_start: date, month_end: date) -> list[Segment]:
    """The month's leave in runs of consecutive days of one leave paid at one share."""
    shares = day_shares(country, hire, leave, month_start, month_end)
    out: list[Segment] = []
    for day in sorted(shares):
        row, share = shares[day]
        if out and out[-1].leave == row and out[-1].paid == share and (day - out[-1].last).days == 1:
            out[-1] = Segment(row, out[-1].first, day, share)
        else:
            out.append(Segment(row, day, day, share))
    return out
