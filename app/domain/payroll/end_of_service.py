"""The end-of-service benefit (gratuity) by country: what an employee has earned to a
date, and what is owed when they leave. Pure functions on integer minor units; no I/O.

The provision a journal carries is `liability(service, at)`: what the law would owe if
the employment ended on that date by the employer's act (as Gulf payroll systems compute
the monthly provision), accrued from the first day even where the law pays only from a
year of service (UAE, Qatar: IAS 19, the obligation builds as service is rendered; the
year's rate pro rata, not weighed by the chance of reaching it, so the provision is never
short; a leaver before the year is paid nothing and the accrual is released). What is paid on leaving is
`owed(service, end, reason)`: the same, less what the law takes away from a worker who
resigns. The reason for leaving is never returned (Contract), though a run with a single
leaver lets a partner work it out (docs/partners/authentication.md, What a run reveals).

Service is counted in days, from the first day of work to the last, both served
(`years_served`): hired 1 March 2025 with a last day of 28 February 2026 is 365 days, a
full year. The laws pay parts of a year in proportion to the time worked: "the period of
service" (Kuwait art. 51), "duration of employment" (Qatar art. 54), "the period spent at
work" (UAE art. 51(2)), continuous service running "from the date of commencement of
work" (UAE art. 1); the last day is a day worked, and the payroll pays it as one
(`rules.employed_share`). Gulf
gratuity calculators take the service's start and end (Qatar's ministry's e-service) or
its first and last working day (UAE calculators); a Saudi HR user counts 1 January 2024 to 20 February
2025 as one year, one month and 20 days, both ends in (frappe/hrms#2938); Frappe HRMS's
own `(relieving_date - date_of_joining).days` is the one-day-short count this replaces.
A year is 365 days (as the old UAE Labour Law, Federal Law 8/1980 art. 8, took it) and
every part of a year counts pro rata, so a span that holds a 29 February reaches each
whole year a day before its anniversary's eve. The provision at a date is at the end of
that day, so that day is served too; where a law changes on a date, the day before is
the old law's last. docs/reference/end-of-service-sources.md lists the sources.

Wages are the current monthly terms (the law's "last wage"). Unpaid leave the law takes
out of service (app/domain/leave/law.py, `unpaid_service_days`: the UAE's art. 51, Saudi
Arabia's art. 116) is left out of the days served (`Service.excluded`). The rules, with
the articles they come from (read in the laws' published English texts; where readings
differ, the one Gulf payroll accountants use, as said):

- Saudi Arabia, Labor Law (Royal Decree M/51 of 1426H) art. 84: half a month's wage
  for each of the first five years, a month's wage for each year after; "wage" is the
  actual wage (basic and the regular allowances). Art. 85, on resignation: nothing
  under two years, a third from two to five, two thirds from five to ten, all from ten.
  Saudis and expatriates alike.
- United Arab Emirates, Decree-Law 33 of 2021 art. 51: from one year of continuous
  service, 21 days' basic wage for each of the first five years, 30 days' for each year
  after, at most two years' basic wage; a day's wage is a year's basic over 365 (the
  reading of MOHRE's calculator). No reduction on resignation. UAE nationals are in the
  GPSSA pension scheme instead (Decree-Law 57 of 2023): none here.
- Kuwait, Law 6 of 2010 art. 51: 15 days' wage for each of the first five years, a
  month's wage for each year after, at most 18 months' wage; a day's wage is the
  month's over 26 (the law's working month). Art. 53, on resignation: nothing under
  three years, half from three to five, two thirds from five to ten, all from ten.
  Kuwaitis alike, and in full: art. 51 as enacted in 2010 had the employer pay only "the
  net difference" between the indemnity and what the worker's PIFSS subscription
  accrued (the reading "only the part above PIFSS"), but Law 85 of 2017 replaced that
  sentence (the worker is entitled to the full indemnity without deducting social
  security amounts), and the amendment the National Assembly passed on 19 August 2020
  words it (our translation): the full indemnity when service ends after Law 6/2010 came
  into force, "without deducting the amounts the employer bore for the worker's
  subscription" to PIFSS. So the provision for a Kuwaiti is the whole indemnity.
- Qatar, Law 14 of 2004 art. 54: from one year of service, at least three weeks' (21
  days') basic wage for each year; a day's wage is the month's basic over 30. No
  reduction on resignation. Qataris are under the pension law instead: none here.
- Bahrain, Law 36 of 2012 art. 116 and Edict 109 of 2023: for expatriates, half a
  month's wage for each of the first three years and a month's for each year after,
  earned by the employer's book only until 29 February 2024 (that day served); from 1
  March 2024 the employer pays the SIO 4.2% of the month's wage (8.4% once three years of
  service are complete) and the SIO pays the benefit of that time. The provision is the
  accrual before March 2024 (it stays the employer's, on the last wage); the contribution
  is a cost of each month (`sio_contribution`). Bahrainis are in SIO pensions: none here.
- Oman, Labour Law (Royal Decree 53/2023, in force 26 July 2023) art. 61: for workers
  outside the Social Protection Law (expatriates), at least a month's basic wage for
  each year of service, on the last basic wage. Service to 25 July 2023 (that day
  served) keeps the old law's rate (Royal Decree 35/2003 art. 39: 15 days' wage for each
  of the first three years, a month's after), as the Ministry of Labour's clarification
  of art. 61 says. Omanis are under the Social Protection Fund: none here.
"""

from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Literal

from app.domain.kernel.money import round_half_up
from app.domain.leave.days import Span, served_days

Reason = Literal["termination", "resignation"]
BAHRAIN_SIO_FROM = date(2024, 3, 1)  # Edict 109 of 2023 in force
OMAN_LAW_OF_2023_FROM = date(2023, 7, 26)  # Royal Decree 53/2023 in force
DAY = timedelta(days=1)
DAYS_A_YEAR = 365


@dataclass(frozen=True)
class Service:
    """What the rules need of one employee: where, since when, and the monthly wage in
    minor units (`basic`, and the regular allowances: housing, transport, other)."""

    country: str
    hire_date: date
    is_national: bool
    basic: int
    allowances: int = 0
    excluded: tuple[Span, ...] = ()  # days of unpaid leave the law does not count as service

    @property
    def wage(self) -> int:
        return self.basic + self.allowances


def years_served(first_day: date, last_day: date) -> Fraction:
    """Years of service from `first_day` to `last_day`, both days served (days over 365;
    none when the last day is before the first): 1 March 2025 to 28 February 2026 is one."""
    return Fraction(max((last_day - first_day).days + 1, 0), DAYS_A_YEAR)


def _tiers(years: Fraction, first_years: int, first_rate: Fraction, later_rate: Fraction) -> Fraction:
    """`first_rate` a year for the first `first_years` of `years`, `later_rate` a year after."""
    first = min(years, Fraction(first_years))
    return first_rate * first + later_rate * (years - first)


def _full(service: Service, years: Fraction, *, from_the_first_day: bool = False) -> Fraction:
    """What the law gives for `years` of service on termination, in minor units (exact).
    `from_the_first_day`: where the law pays nothing before a year of service (UAE,
    Qatar), the provision still accrues from the first day, as the law would owe at one
    year, pro rata (IAS 19: the obligation builds as the service is rendered); what is
    paid on leaving keeps the law's year."""
    country = service.country
    if country == "OM" and not service.is_national:
        before = min(years, served(service, OMAN_LAW_OF_2023_FROM - DAY))  # the old law's days
        return service.basic * (_tiers(before, 3, Fraction(1, 2), Fraction(1)) + (years - before))
    if country == "SA":
        return service.wage * _tiers(years, 5, Fraction(1, 2), Fraction(1))
    if service.is_national and country in ("AE", "QA", "BH", "OM"):
        return Fraction(0)  # in their country's pension scheme instead
    vested = years >= 1 or from_the_first_day
    if country == "AE":
        if not vested:
            return Fraction(0)
        day = Fraction(service.basic * 12, DAYS_A_YEAR)
        return min(day * _tiers(years, 5, Fraction(21), Fraction(30)), Fraction(24 * service.basic))
    if country == "KW":
        day = Fraction(service.wage, 26)  # 15 days' wage a year for five years, then 26 (a month)
        return min(day * _tiers(years, 5, Fraction(15), Fraction(26)), Fraction(18 * service.wage))
    if country == "QA":
        return Fraction(service.basic, 30) * 21 * years if vested else Fraction(0)
    if country == "BH":
        return service.wage * _tiers(years, 3, Fraction(1, 2), Fraction(1))
    raise ValueError(f"no end-of-service rule for country {country!r}")


def served(service: Service, through: date) -> Fraction:
    """Years of service to the end of `through` (`years_served`), less unpaid leave the
    law does not count (`Service.excluded`)."""
    return Fraction(served_days(service.hire_date, through, service.excluded), DAYS_A_YEAR)


def _booked_years(service: Service, at: date) -> Fraction:
    """The years served to the end of `at` whose benefit the employer's own books carry:
    in Bahrain, those to 29 February 2024, before the SIO took the benefit over;
    elsewhere all of them."""
    if service.country == "BH":
        return served(service, min(at, BAHRAIN_SIO_FROM - DAY))
    return served(service, at)


def liability(service: Service, at: date) -> int:
    """The provision for this employee at the end of `at`'s day (`at` served): what ending the
    employment that day would owe (before any resignation reduction), accrued from the
    first day where the law pays only from one year (released on leaving before it)."""
    return round_half_up(_full(service, _booked_years(service, at), from_the_first_day=True))


# (years of service from which the share applies, the share), highest first.
RESIGNATION_SHARES = {
    "SA": ((10, Fraction(1)), (5, Fraction(2, 3)), (2, Fraction(1, 3)), (0, Fraction(0))),  # art. 85
    "KW": ((10, Fraction(1)), (5, Fraction(2, 3)), (3, Fraction(1, 2)), (0, Fraction(0))),  # art. 53
}


def resignation_share(country: str, years: Fraction) -> Fraction:
    """The part of the benefit a worker who resigns after `years` keeps."""
    for threshold, share in RESIGNATION_SHARES.get(country, ((0, Fraction(1)),)):
        if years >= threshold:
            return share
    return Fraction(0)


def owed(service: Service, end: date, reason: Reason) -> int:
    """What the employer pays an employee whose last day is `end` (served), leaving for
    `reason`; a resignation's share goes by the years served to that day, so a threshold
    is reached on its anniversary's eve (a day before it for each 29 February served).
    (In Bahrain, the benefit of service from March 2024 is the SIO's to pay.)"""
    full = _full(service, _booked_years(service, end))
    if reason == "resignation":
        full *= resignation_share(service.country, served(service, end))
    return round_half_up(full)


def sio_contribution(service: Service, month_start: date) -> int:
    """Bahrain: the employer's monthly end-of-service contribution to the SIO for an
    expatriate, for the month that begins on `month_start` (none before March 2024,
    none for Bahrainis or elsewhere): 4.2% of the wage, 8.4% once three years of
    service are complete at the month's start (served to its eve)."""
    if service.country != "BH" or service.is_national or month_start < BAHRAIN_SIO_FROM:
        return 0
    complete = served(service, month_start - DAY) >= 3
    rate = Fraction(84, 1000) if complete else Fraction(42, 1000)
    return round_half_up(service.wage * rate)


# A provision's components: its month's accrual, its release, and what a leaver is paid out of it.
EOS_CODES = ("end_of_service_accrual", "end_of_service_release", "end_of_service_benefit")


def provision_lines(booked: int, provision: int, owed_on_leaving: int | None = None, *,
                    codes: tuple[str, str, str] = EOS_CODES) -> dict[str, int]:
    """One employee's end-of-service lines in a run (component code -> amount, zeros
    left out): what moves the provision the books carry for them (`booked`) to what they
    have earned (`provision`, at the month's end, or at their last day for a leaver).
    A leaver (`owed_on_leaving` given, at most `provision`) is paid that out of it, and
    the rest is released: after their run the books carry nothing for them. `codes`:
    another provision's three components (the leave salary's, leave_provision.py)."""
    accrual, release, paid = codes
    assert owed_on_leaving is None or owed_on_leaving <= provision, "paid more than the provision holds"
    lines = {accrual: max(provision - booked, 0), release: max(booked - provision, 0)}
    if owed_on_leaving is not None:
        lines[paid] = owed_on_leaving
        lines[release] += provision - owed_on_leaving
    return {code: amount for code, amount in lines.items() if amount}
