"""The company's leave choices where the law leaves them to the contract (law.py): a year's
annual days (more than the law's, never fewer), a cap on the days carried into the next
leave year, and whether annual leave may go below zero. The law's minimum is the default
(`None`: the law's days; no cap; no negative balance).

A company's annual days are checked against the law of every country it employs in (its
legal entities' and its employees'): the highest first-years minimum of them is the floor.
Set under the company's lock (kernel/locks.py), the first one every leave move takes, so
an approval reads the choices either before or after a change, never half of it.
"""

from dataclasses import dataclass

from app.domain.kernel.errors import NotFound, ValidationFailed, Words
from app.domain.kernel.locks import hold
from app.domain.leave.law import LAWS
from app.models import Company, Employee, Entity
from app.models.base import write_transaction

MAX_ANNUAL_DAYS = 365  # a year's leave is at most the year
MAX_CARRY_OVER_DAYS = 3650  # ten years' leave; a larger cap is no cap (leave it out)


class Unchanged:
    """A choice the caller leaves as it is."""


UNCHANGED = Unchanged()


@dataclass(frozen=True)
class LeaveSettings:
    company_id: str
    annual_days: int | None  # None: the law's
    carry_over_days: int | None  # None: every day carried
    negative_allowed: bool
    law_minimums: dict[str, int]  # {country: the law's first-years days} of each country the company employs in

    def as_dict(self) -> dict[str, object]:
        return {"company_id": self.company_id, "annual_days": self.annual_days,
                "law_minimum_days": dict(self.law_minimums), "carry_over_days": self.carry_over_days,
                "negative_allowed": self.negative_allowed}


def law_minimums(company_id: str) -> dict[str, int]:
    """{country: the law's annual days in the first years} for each country of the
    company's legal entities and employees, by country code."""
    countries = {row.country for row in Entity.select(Entity.country).where(Entity.company == company_id)}
    countries |= {row.country for row in Employee.select(Employee.country).where(Employee.company == company_id)
                  .distinct()}
    return {country: LAWS[country].annual_days for country in sorted(countries) if country in LAWS}


def _settings(company: Company) -> LeaveSettings:
    return LeaveSettings(company.id, company.leave_annual_days, company.leave_carry_over_days,
                         bool(company.leave_negative_allowed), law_minimums(company.id))


def leave_settings(company_id: str) -> LeaveSettings:
    """The company's leave choices as stored now."""
    company = Company.get_or_none(Company.id == company_id)
    if company is None:
        raise NotFound(Words("no company %(company)s", company=company_id))
    return _settings(company)


def set_leave_settings(company_id: str, *, annual_days: int | None | Unchanged = UNCHANGED,
                       carry_over_days: int | None | Unchanged = UNCHANGED,
                       negative_allowed: bool | Unchanged = UNCHANGED) -> LeaveSettings:
    """Change the choices given (None: back to the law's default); ValidationFailed naming
    the field (`leave_annual_days`, `leave_carry_over_days`), nothing changed then."""
    with write_transaction():
        hold(company_id)
        if Company.get_or_none(Company.id == company_id) is None:
            raise NotFound(Words("no company %(company)s", company=company_id))
        errors: list[tuple[str, str]] = []
        if not isinstance(annual_days, Unchanged) and annual_days is not None:
            minimums = law_minimums(company_id)
            floor = max(minimums.values(), default=0)
            if annual_days > MAX_ANNUAL_DAYS:
                errors.append(("leave_annual_days", Words("at most %(days)s days a year", days=MAX_ANNUAL_DAYS)))
            elif annual_days < floor:
                country = next(code for code, days in minimums.items() if days == floor)
                errors.append(("leave_annual_days", Words(
                    "%(days)s days a year is below the law of %(country)s (%(minimum)s days, %(article)s)",
                    days=annual_days, country=country, minimum=floor, article=LAWS[country].annual_article)))
        if not isinstance(carry_over_days, Unchanged) and carry_over_days is not None and not (
                0 <= carry_over_days <= MAX_CARRY_OVER_DAYS):
            errors.append(("leave_carry_over_days", Words("from 0 to %(days)s days, or no cap at all",
                                                          days=MAX_CARRY_OVER_DAYS)))
        if errors:
            raise ValidationFailed(Words("invalid leave settings"), errors)
        changes = {field: value for field, value in (("leave_annual_days", annual_days),
                                                     ("leave_carry_over_days", carry_over_days),
                                                     ("leave_negative_allowed", negative_allowed))
                   if not isinstance(value, Unchanged)}
        if changes:
            Company.update(**changes).where(Company.id == company_id).execute()
        return _settings(Company.get_by_id(company_id))
