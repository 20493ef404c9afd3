"""Counting leave days, and the annual leave a span of service earns (pure; no I/O).

A leave's days are counted as its type is (law.py): annual leave in the law's days
(calendar, or working days leaving out the country's weekend), every other type in
calendar days. Service for leave is counted in days from the hire date, both ends in,
less the days of unpaid leave the law takes out of service; each 365 days served is a
year, and a year's rate (`LeaveLaw.annual_days_in_year`) is earned day by day over it.
"""

from calendar import monthrange
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

from app.domain.kernel.countries import COUNTRIES
from app.domain.leave.law import LeaveLaw

DAY = timedelta(days=1)
DAYS_A_YEAR = 365
Span = tuple[date, date]  # first and last day, both in


def add_months(day: date, months: int) -> date:
    """`day` moved by whole months, to the month's last day where it has fewer days (29
    February a year on is 28 February), as dateutil's relativedelta does, at a fraction of
    its cost (a payroll of ten thousand asks this for every employee)."""
    years, month = divmod(day.month - 1 + months, 12)
    year = day.year + years
    return date(year, month + 1, min(day.day, monthrange(year, month + 1)[1]))


def service_year(hire: date, day: date) -> Span:
    """The first and last day of the service year `day` falls in: from an anniversary of
    `hire` (whole years by the calendar, as dateutil counts them) to the eve of the next,
    or to `day` itself. A 29 February hire has served no whole year on the 28th a year
    on, whose anniversary that also is: the 28th ends the year before, and the next
    begins on it (its years start the 28th, then the 29th in a leap year)."""
    years = day.year - hire.year - ((day.month, day.day) < (hire.month, hire.day))
    if add_months(hire, 12 * years) > day:
        years -= 1
    return add_months(hire, 12 * years), max(add_months(hire, 12 * (years + 1)) - DAY, day)


def each_day(first: date, last: date) -> Iterator[date]:
    day = first
    while day <= last:
        yield day
        day += DAY


def leave_days(law: LeaveLaw, leave_type: str, first: date, last: date) -> int:
    """The days a leave from `first` to `last` counts."""
    if leave_type != "annual" or law.counted_in == "calendar":
        return max((last - first).days + 1, 0)
    return working_days(law.country, first, last)


def working_days(country: str, first: date, last: date) -> int:
    """The days from `first` to `last` (both in) that are not the country's weekend: by
    whole weeks, not day by day (a balance counts every annual leave ever taken)."""
    length = (last - first).days + 1
    if length <= 0:
        return 0
    weekend = COUNTRIES[country].weekend
    weeks, rest = divmod(length, 7)
    start = first.isoweekday()
    return weeks * (7 - len(weekend)) + sum(1 for n in range(rest) if (start + n - 1) % 7 + 1 not in weekend)


def overlap(span: Span, first: date, last: date) -> int:
    """Calendar days of `span` within `first`..`last`."""
    return max((min(span[1], last) - max(span[0], first)).days + 1, 0)


def excluded_spans(law: LeaveLaw, unpaid: Iterable[Span]) -> list[Span]:
    """The parts of unpaid leaves (`unpaid`: first, last) the law takes out of service:
    each leave's days after its first `law.unpaid_service_days` (None: none)."""
    if law.unpaid_service_days is None:
        return []
    out = []
    for first, last in unpaid:
        start = first + timedelta(days=law.unpaid_service_days)
        if start <= last:
            out.append((start, last))
    return out


def served_days(hire: date, through: date, excluded: Iterable[Span] = ()) -> int:
    """Days of service from `hire` to the end of `through`, both in, less `excluded` days."""
    if through < hire:
        return 0
    return (through - hire).days + 1 - sum(overlap(span, hire, through) for span in excluded)


@dataclass(frozen=True)
class Accrual:
    """How one employee earns annual leave (a law, the company's choice, their service)."""

    law: LeaveLaw
    hire: date
    company_days: int | None = None  # a year's days where the company gives more than the law
    excluded: tuple[Span, ...] = ()  # unpaid leave the law takes out of service
    carried: tuple[date, Fraction] | None = None  # (day, the balance another system carried at its end)

    def earned(self, through: date) -> Fraction:
        """Annual leave days earned by service to the end of `through`, from the first day
        (what the provision carries; IAS 19: earned as the service is rendered). With a
        balance carried on a day: that balance, and what is earned after it (on or before
        that day: the balance carried)."""
        if self.carried is None:
            return self._earned(through)
        day, balance = self.carried
        return balance + max(self._earned(through) - self._earned(day), Fraction(0))

    def _earned(self, through: date) -> Fraction:
        served = served_days(self.hire, through, self.excluded)
        years, rest = divmod(served, DAYS_A_YEAR)
        if years == 0 and self.law.first_year_days is not None:
            return Fraction(self.law.first_year_days * rest, DAYS_A_YEAR)
        whole = self.law.annual_days_before(years, self.company_days)
        return Fraction(whole * DAYS_A_YEAR + self.law.annual_days_in_year(years, self.company_days) * rest,
                        DAYS_A_YEAR)

    def qualified(self, on: date) -> bool:
        """Whether the law owes annual leave yet on `on` (its qualifying service served; a
        balance carried is owed already)."""
        if self.carried is not None:
            return True
        qualifying_end = add_months(self.hire, self.law.qualifying_months) - DAY
        return on >= qualifying_end

    def accrued(self, through: date) -> Fraction:
        """The days the law owes to the end of `through`: those earned, once qualified."""
        return self.earned(through) if self.qualified(through) else Fraction(0)

    def anniversaries(self, through: date) -> list[date]:
        """The last days of each leave year (a year from the hire date) ended by `through`
        (after the day a balance was carried: the other system forfeited before it)."""
        out: list[date] = []
        k = 1
        while True:
            end = add_months(self.hire, 12 * k) - DAY
            if end > through:
                return out
            if self.carried is None or end > self.carried[0]:
                out.append(end)
            k += 1
