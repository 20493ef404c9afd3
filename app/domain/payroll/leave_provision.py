"""The leave-salary provision (issue 48; IAS 19, short-term compensated absences): what the
annual leave an employee has earned and not taken would cost at a day's leave wage, and
what a leaver is paid for the days the law owes them. Pure functions on integer minor
units once the leave rows are read; no I/O.

Days (app/domain/leave/): the provision carries the annual leave *earned* from the first
day of service (`days.Accrual.earned`; IAS 19: the obligation builds as the service is
rendered, even where the law owes nothing before a qualifying period), less the days a
company's carry-over cap forfeited and the annual leave taken (approved, on or before the
day), never below none (`held_days`). A leaver is paid the days the law *owes* on their
last day (`days.Accrual.accrued`: nothing before the qualifying service, as
`balances.compute` counts the balance), less the same, never below none (`owed_days`);
the rest of what the books carried for them is released, so nothing is left.

A day's leave wage is the monthly wage the law pays annual leave on (`law.leave_wage`:
the basic, or the basic and the regular allowances) over the law's days in a month
(`law.day_of_month`), on the current monthly terms (the law's "last wage"). The figures,
per country, with their articles: app/domain/leave/law.py (`annual_article`,
`encashment_article`); for example Saudi Arabia (art. 109, art. 111): 21 days a year on
the full wage over 30.
"""

from collections.abc import Iterable
from datetime import date
from fractions import Fraction

from app.domain.kernel.money import round_half_up
from app.domain.leave.balances import LeaveRow, compute
from app.domain.leave.law import LAWS, LeaveLaw
from app.domain.payroll.end_of_service import provision_lines
from app.domain.payroll.rules import Pay
from app.models import Company, Employee

CODES = ("leave_accrual", "leave_release", "leave_encashment")
KINDS = ("annual", "unpaid")  # the leave a balance reads: annual taken, unpaid that shortens service


def day_wage(law: LeaveLaw, pay: Pay) -> Fraction:
    """A day's leave wage in minor units (exact): the wage the law pays leave on over its
    days in a month."""
    wage = pay.basic if law.leave_wage == "basic" else pay.basic + pay.housing + pay.transport + pay.other_allowance
    return Fraction(wage) / law.day_of_month


def value(days: Fraction, law: LeaveLaw, pay: Pay) -> int:
    """`days` of leave (none below zero) at a day's leave wage, rounded half up to the minor unit."""
    return round_half_up(max(days, Fraction(0)) * day_wage(law, pay))


def held_days(employee: Employee, company: Company, leave: Iterable[LeaveRow], through: date) -> Fraction:
    """The annual leave days the provision carries for `employee` at the end of `through`:
    earned from the first day, less those forfeited and taken; none below zero."""
    balance = compute(employee, company, leave, through)
    return max(balance.earned - balance.forfeited - balance.taken, Fraction(0))


def owed_days(employee: Employee, company: Company, leave: Iterable[LeaveRow], last_day: date) -> Fraction:
    """The annual leave days the law owes a leaver whose last day is `last_day`: their
    balance then (`balances.compute`: none before the qualifying service), none below zero."""
    return max(compute(employee, company, leave, last_day).balance, Fraction(0))


def law_of(employee: Employee) -> LeaveLaw:
    return LAWS[employee.country]


def lines(booked: int, provision: int, encashment: int | None = None) -> dict[str, int]:
    """One employee's leave-provision lines (component code -> amount, zeros left out):
    from what the books carry (`booked`) to `provision`; a leaver (`encashment` given,
    at most `provision`) is paid that out of it and the rest released, leaving nothing."""
    return provision_lines(booked, provision, encashment, codes=CODES)
