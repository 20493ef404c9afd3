"""The six countries' leave rules, from the labour laws (pure data; no I/O).

Each figure is cited to its article; docs/partners/leave.md gives the table in words with
the source each rule was read in. Where the law leaves a choice to the contract (more
annual leave than the minimum, a cap on days carried into the next leave year, a negative
balance), the company chooses (`Company.leave_*`) and the law's minimum is the default.

Days: annual leave is counted in the law's days (`counted_in`: "calendar" or "working",
working days leaving out the country's weekend; public holidays are not kept by the
service, so they are counted as days of leave). Every other kind is counted in calendar
days. A kind's `tiers` pay its days in order: within a service year for sick leave (the
year that begins on each anniversary of the hire date), within the one leave for the
others; days past the last tier are unpaid.
"""

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

TYPES = ("annual", "sick", "unpaid", "maternity", "hajj", "bereavement", "marriage", "other")
# Partners are told `annual`, `unpaid` or `other` (partner_safe.leave_form).

FULL, THREE_QUARTERS, HALF, QUARTER, NONE = Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(0)


@dataclass(frozen=True)
class Tier:
    """`days` days paid at `paid` of the wage (1: in full, 0: unpaid)."""

    days: int
    paid: Fraction


@dataclass(frozen=True)
class Kind:
    """A statutory kind of leave other than annual: its pay tiers and where the law says so."""

    tiers: tuple[Tier, ...]
    article: str
    per: Literal["year", "leave"] = "leave"  # the tiers run within a service year, or within each leave
    after_months: int = 0  # service before which the kind's days are unpaid
    note: str = ""


@dataclass(frozen=True)
class LeaveLaw:
    country: str
    law: str
    annual_days: int  # a year's annual leave at first
    annual_article: str
    counted_in: Literal["calendar", "working"]
    qualifying_months: int  # service before which no annual leave is owed, taken or paid
    leave_wage: Literal["full", "basic"]  # the wage annual leave and its encashment are paid on
    day_of_month: Fraction  # a day's wage is the monthly wage over this
    encashment_article: str
    unpaid_service_days: int | None  # days of each unpaid leave that still count as service (None: all)
    unpaid_article: str
    kinds: dict[str, Kind] = field(default_factory=dict)
    annual_days_later: int | None = None  # a year's annual leave from `later_after_years` of service
    later_after_years: int = 0
    first_year_days: int | None = None  # a year's rate earned within the first year (UAE: 2 days a month)

    def annual_days_in_year(self, service_year: int, company_days: int | None = None) -> int:
        """Days of annual leave earned over the service year `service_year` (0: the first),
        at least the law's (a company may give more)."""
        days = self.annual_days
        if self.annual_days_later is not None and service_year >= self.later_after_years:
            days = self.annual_days_later
        return max(days, company_days or 0)


UNPAID_ONLY: tuple[Tier, ...] = ()  # every day unpaid

LAWS = {
    "SA": LeaveLaw(
        country="SA", law="Labor Law, Royal Decree M/51 of 23/8/1426H, as amended",
        annual_days=21, annual_days_later=30, later_after_years=5,
        annual_article="art. 109(1): at least 21 days a year, 30 after five consecutive years with the employer",
        counted_in="calendar", qualifying_months=0, leave_wage="full", day_of_month=Fraction(30),
        encashment_article="art. 111: the wage for the leave days earned and not taken, and for the part of a year",
        unpaid_service_days=20,
        unpaid_article="art. 116: unpaid leave beyond twenty days suspends the contract, unless agreed otherwise",
        kinds={
            "sick": Kind((Tier(30, FULL), Tier(60, THREE_QUARTERS), Tier(30, NONE)), "art. 117", per="year"),
            "maternity": Kind((Tier(84, FULL),), "art. 151 (as amended in 2025: twelve weeks with full pay)"),
            "hajj": Kind((Tier(15, FULL),), "art. 114: 10 to 15 days with full pay, once, after two years",
                         after_months=24),
            "bereavement": Kind((Tier(5, FULL),), "art. 113: five days on the death of a spouse, ascendant "
                                                  "or descendant"),
            "marriage": Kind((Tier(5, FULL),), "art. 113: five days on the worker's marriage"),
        },
    ),
    "AE": LeaveLaw(
        country="AE", law="Federal Decree-Law 33 of 2021 on the Regulation of Labour Relations",
        annual_days=30, annual_article="art. 29(1): 30 days a year; 2 days a month after six months in the first year",
        counted_in="calendar", qualifying_months=6, first_year_days=24, leave_wage="basic",
        day_of_month=Fraction(365, 12),
        encashment_article="art. 29(9): the basic wage for the days of leave due on leaving",
        unpaid_service_days=0,
        unpaid_article="art. 51(8): days of unpaid absence are not counted in the period of service",
        kinds={
            "sick": Kind((Tier(15, FULL), Tier(30, HALF), Tier(45, NONE)), "art. 31", per="year", after_months=6),
            "maternity": Kind((Tier(45, FULL), Tier(15, HALF)), "art. 30"),
            "bereavement": Kind((Tier(5, FULL),), "art. 32: five days on the death of a spouse, three for a "
                                                  "parent, child, sibling, grandchild or grandparent"),
        },
    ),
    "KW": LeaveLaw(
        country="KW", law="Law 6 of 2010 on Labour in the Private Sector",
        annual_days=30, annual_article="art. 70: 30 days a year with full pay; none in the first year before nine "
                                       "months of service",
        counted_in="working", qualifying_months=9, leave_wage="full", day_of_month=Fraction(26),
        encashment_article="art. 72: the wage for the leave days not taken on leaving",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service",
        kinds={
            "sick": Kind((Tier(15, FULL), Tier(10, THREE_QUARTERS), Tier(10, HALF), Tier(10, QUARTER),
                          Tier(30, NONE)), "art. 69", per="year"),
            "maternity": Kind((Tier(70, FULL),), "art. 24"),
            "hajj": Kind((Tier(21, FULL),), "art. 75: 21 days with full pay, once, after two years",
                         after_months=24),
            "bereavement": Kind((Tier(3, FULL),), "art. 77: three days on the death of a relative of the first "
                                                  "or second degree"),
        },
    ),
    "QA": LeaveLaw(
        country="QA", law="Law 14 of 2004 (Labour Law)",
        annual_days=21, annual_days_later=28, later_after_years=5,
        annual_article="art. 79: three weeks a year under five years of service, four weeks from five years",
        counted_in="calendar", qualifying_months=12, leave_wage="basic", day_of_month=Fraction(30),
        encashment_article="art. 79 and 80: the wage for the leave days due on leaving",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service",
        kinds={
            "sick": Kind((Tier(14, FULL), Tier(28, HALF), Tier(42, NONE)), "art. 82", per="year",
                         after_months=3),
            "maternity": Kind((Tier(50, FULL),), "art. 96: 50 days with full pay after a year of service"),
            "hajj": Kind((Tier(20, NONE),), "art. 84: up to 20 days without pay, once"),
        },
    ),
    "BH": LeaveLaw(
        country="BH", law="Law 36 of 2012 (Labour Law for the Private Sector)",
        annual_days=30, annual_article="art. 58: at least 30 days a year, two and a half days a month",
        counted_in="calendar", qualifying_months=0, leave_wage="full", day_of_month=Fraction(30),
        encashment_article="art. 60: the wage for the leave days not taken when the contract ends",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service",
        kinds={
            "sick": Kind((Tier(15, FULL), Tier(20, HALF), Tier(20, NONE)), "art. 65", per="year"),
            "maternity": Kind((Tier(60, FULL), Tier(15, NONE)), "art. 32"),
            "hajj": Kind((Tier(14, FULL),), "art. 63: 14 days with full pay, once, after five years",
                         after_months=60),
            "bereavement": Kind((Tier(3, FULL),), "art. 63: three days on the death of a spouse or relative"),
            "marriage": Kind((Tier(3, FULL),), "art. 63: three days on the worker's marriage"),
        },
    ),
    "OM": LeaveLaw(
        country="OM", law="Labour Law, Royal Decree 53 of 2023",
        annual_days=30, annual_article="art. 80: 30 days a year with full pay",
        counted_in="calendar", qualifying_months=0, leave_wage="full", day_of_month=Fraction(30),
        encashment_article="art. 80: the wage for the leave days not taken on leaving",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service",
        kinds={
            "sick": Kind((Tier(21, FULL), Tier(28, THREE_QUARTERS), Tier(35, HALF), Tier(70, Fraction(35, 100)),
                          Tier(28, QUARTER)), "art. 78", per="year"),
            "maternity": Kind((Tier(98, FULL),), "art. 79"),
            "hajj": Kind((Tier(15, FULL),), "art. 82: 15 days with full pay, once", after_months=12),
            "bereavement": Kind((Tier(3, FULL),), "art. 82: three days on the death of a close relative"),
            "marriage": Kind((Tier(3, FULL),), "art. 82: three days on the worker's marriage"),
        },
    ),
}
# A kind the law of a country does not name (marriage in the UAE, ...), and "other": paid
# as the company agrees; the service pays it in full (HR records unpaid time as "unpaid").
DISCRETIONARY = Kind((Tier(10**6, FULL),), "not a statutory kind in this country: paid in full")


def law_of(country: str) -> LeaveLaw:
    return LAWS[country]


def kind_of(country: str, leave_type: str) -> Kind:
    """The pay rules of a non-annual `leave_type` in `country`."""
    if leave_type == "unpaid":
        return Kind(UNPAID_ONLY, LAWS[country].unpaid_article)
    return LAWS[country].kinds.get(leave_type, DISCRETIONARY)
