"""The six countries' leave rules, from the labour laws (pure data; no I/O).

Each figure is cited to its article; docs/partners/leave.md gives the table in words with
the source each rule was read in. Where the law leaves a choice to the contract (more
annual leave than the minimum, a cap on days carried into the next leave year, a negative
balance), the company chooses (`Company.leave_*`) and the law's minimum is the default.

Days: annual leave is counted in the law's days (`counted_in`: "calendar" or "working",
working days leaving out the country's weekend; public holidays are not kept by the
service, so they are counted as days of leave, even where a law leaves them out of the
leave: Saudi Eid days, Kuwait's and Bahrain's official holidays; HR then records the leave
without them). Every other kind is counted in calendar
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

    def annual_days_before(self, service_years: int, company_days: int | None = None) -> int:
        """Days of annual leave earned over the first `service_years` whole service years:
        `annual_days_in_year` of each, summed (none for none, or fewer)."""
        if service_years <= 0:
            return 0
        first = min(service_years, self.later_after_years) if self.annual_days_later is not None else service_years
        return (first * self.annual_days_in_year(0, company_days)
                + (service_years - first) * self.annual_days_in_year(service_years, company_days))


UNPAID_ONLY: tuple[Tier, ...] = ()  # every day unpaid

LAWS = {
    "SA": LeaveLaw(
        country="SA", law="Labor Law, Royal Decree M/51 of 23/8/1426H, as amended (last in 2025)",
        annual_days=21, annual_days_later=30, later_after_years=5,
        annual_article="art. 109(1): at least 21 days a year, 30 after five consecutive years with the employer, "
                       "paid in advance",
        counted_in="calendar", qualifying_months=0, leave_wage="full", day_of_month=Fraction(30),
        encashment_article="art. 111: the wage for the leave days earned and not taken, and for the part of a year; "
                           "on the actual wage, allowances included (art. 2, as the Ministry reads it)",
        unpaid_service_days=20,
        unpaid_article="art. 116: unpaid leave beyond twenty days suspends the contract, unless agreed otherwise",
        kinds={
            "sick": Kind((Tier(30, FULL), Tier(60, THREE_QUARTERS), Tier(30, NONE)), "art. 117: within one year",
                         per="year"),
            "maternity": Kind((Tier(84, FULL),), "art. 151 as amended in 2025: twelve weeks with full pay",
                              note="paternity: three days with full pay on a child's birth (art. 113), "
                                   "recorded as 'other'"),
            "hajj": Kind((Tier(15, FULL),), "art. 114: 10 to 15 days with full pay, Eid al-Adha included, once, "
                                            "after two consecutive years", after_months=24),
            "bereavement": Kind((Tier(5, FULL),), "art. 113: five days on the death of a spouse, ascendant or "
                                                  "descendant; three on a sibling's (added in 2025)",
                                note="a widow's iddah (art. 160: four months and ten days with full pay, fifteen "
                                     "days for a non-Muslim) is recorded as 'other'"),
            "marriage": Kind((Tier(5, FULL),), "art. 113: five days with full pay on the worker's marriage"),
        },
    ),
    "AE": LeaveLaw(
        country="AE", law="Federal Decree-Law 33 of 2021 on the Regulation of Labour Relations",
        annual_days=30, annual_article="art. 29(1): 30 days a year; 2 days a month after six months in the first "
                                       "year; holidays within the leave count as leave (art. 29(7))",
        counted_in="calendar", qualifying_months=6, first_year_days=24, leave_wage="basic",
        day_of_month=Fraction(30),  # the basic over 30, as UAE payrolls (Bayzat) and legal guides divide it
        encashment_article="art. 29(9): the leave days due on leaving, and the fraction of the year, "
                           "on the basic wage",
        unpaid_service_days=0,
        unpaid_article="art. 33(2) and art. 51(4): unpaid leave is not counted in the period of service",
        kinds={
            "sick": Kind((Tier(15, FULL), Tier(30, HALF), Tier(45, NONE)),
                         "art. 31: none paid during probation, then 90 days a year", per="year", after_months=6,
                         note="the service takes probation as its longest, six months"),
            "maternity": Kind((Tier(45, FULL), Tier(15, HALF)), "art. 30(1): 45 days with full pay, 15 with half",
                              note="parental leave: five working days for either parent within six months of "
                                   "the birth (art. 32(1)(b)), recorded as 'other'"),
            "bereavement": Kind((Tier(5, FULL),), "art. 32(1)(a): five days on the death of a spouse, three for a "
                                                  "parent, child, sibling, grandchild or grandparent"),
        },
    ),
    "KW": LeaveLaw(
        country="KW", law="Law 6 of 2010 on Labour in the Private Sector, as amended by Law 85 of 2017",
        annual_days=30, annual_article="art. 70 (Law 85/2017): 30 days a year with full pay, from six months of "
                                       "service; weekends, official holidays and sick leave are not counted",
        counted_in="working", qualifying_months=6, leave_wage="full", day_of_month=Fraction(26),
        encashment_article="art. 70 to 72: the leave days accrued (up to two years) paid when the contract ends "
                           "(article not confirmed)",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service (not confirmed)",
        kinds={
            "sick": Kind((Tier(15, FULL), Tier(10, THREE_QUARTERS), Tier(10, HALF), Tier(10, QUARTER),
                          Tier(30, NONE)), "art. 69: 75 days a year", per="year"),
            "maternity": Kind((Tier(70, FULL),), "art. 24: 70 days with full pay"),
            "hajj": Kind((Tier(21, FULL),), "art. 76: 21 days with full pay, once, after two continuous years, "
                                            "to one who has not performed Hajj", after_months=24),
            "bereavement": Kind((Tier(3, FULL),), "art. 77: three days on the death of a relative",
                                note="a widow's leave (art. 77: four months and ten days for a Muslim, 21 days "
                                     "for a non-Muslim, with pay) is recorded as 'other'"),
        },
    ),
    "QA": LeaveLaw(
        country="QA", law="Law 14 of 2004 (Labour Law)",
        annual_days=21, annual_days_later=28, later_after_years=5,
        annual_article="art. 79: after one continuous year, three weeks a year under five years of service, four "
                       "weeks from five years, and the fractions of a year in proportion",
        counted_in="calendar", qualifying_months=12, leave_wage="basic", day_of_month=Fraction(30),
        encashment_article="art. 81: the wage for the leave days due when the contract ends, for any reason",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service (not confirmed)",
        kinds={
            "sick": Kind((Tier(14, FULL), Tier(28, HALF), Tier(42, NONE)),
                         "art. 82: after three months of service, two weeks with full pay, four with half, then "
                         "unpaid", per="year", after_months=3),
            "maternity": Kind((Tier(50, FULL),), "art. 96: 50 days with full pay after a year of service "
                                                 "(not confirmed)"),
            "hajj": Kind((Tier(14, NONE),), "art. 84: up to two weeks without pay, once (article number not "
                                            "confirmed)"),
        },
    ),
    "BH": LeaveLaw(
        country="BH", law="Law 36 of 2012 (Labour Law for the Private Sector)",
        annual_days=30, annual_article="art. 58: at least 30 days a year, two and a half days a month; less than a "
                                       "year in proportion",
        counted_in="calendar", qualifying_months=0, leave_wage="full", day_of_month=Fraction(30),
        encashment_article="the wage for the leave days not taken when the contract ends (article not confirmed)",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service (not confirmed)",
        kinds={
            "sick": Kind((Tier(15, FULL), Tier(20, HALF), Tier(20, NONE)),
                         "art. 65: after three months of service, 55 days a year", per="year", after_months=3),
            "maternity": Kind((Tier(60, FULL), Tier(15, NONE)), "art. 32(a): 60 days with full pay, 15 more "
                                                                "without",
                              note="paternity: one day with full pay (not confirmed), recorded as 'other'"),
            "hajj": Kind((Tier(14, FULL),), "14 days with full pay, once, after five years (not confirmed)",
                         after_months=60),
            "bereavement": Kind((Tier(3, FULL),), "art. 63: three days on the death of a spouse or a relative to "
                                                  "the fourth degree"),
            "marriage": Kind((Tier(3, FULL),), "art. 63: three days on the worker's marriage"),
        },
    ),
    "OM": LeaveLaw(
        country="OM", law="Labour Law, Royal Decree 53 of 2023",
        annual_days=30, annual_article="30 days a year with full pay, from six months of service (article number "
                                       "not confirmed)",
        counted_in="calendar", qualifying_months=6, leave_wage="full", day_of_month=Fraction(30),
        encashment_article="the leave days not taken paid on leaving (article and wage not confirmed)",
        unpaid_service_days=None, unpaid_article="the law does not take unpaid leave out of service (not confirmed)",
        kinds={
            "sick": Kind((Tier(21, FULL), Tier(14, THREE_QUARTERS), Tier(35, HALF), Tier(112, Fraction(35, 100))),
                         "182 days a year: days 1-21 full pay, 22-35 at 75%, 36-70 at 50%, 71-182 at 35% "
                         "(article number not confirmed)", per="year"),
            "maternity": Kind((Tier(98, FULL),), "art. 84: 98 days with full pay",
                              note="paternity: seven days with full pay within 98 days of the birth, "
                                   "recorded as 'other'"),
            "hajj": Kind((Tier(15, FULL),), "15 days with full pay, once, after one continuous year of service",
                         after_months=12),
            "bereavement": Kind((Tier(10, FULL),), "ten days on the death of a spouse or child; three for a parent, "
                                                   "grandparent or sibling; two for an uncle or aunt",
                                note="a widow's leave (130 days for a Muslim, 14 for a non-Muslim) is recorded "
                                     "as 'other'"),
            "marriage": Kind((Tier(3, FULL),), "three days with full pay on the worker's marriage"),
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
