"""Employees as partners read them (keyset-ordered, archived records never), and the
lookups HR's console and commands make (by staff number, the roster to choose from)."""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from peewee import JOIN, ModelSelect, Tuple

from app.domain.kernel.clock import to_db
from app.domain.kernel.errors import NotFound, Words
from app.domain.kernel.paging import Page, Position, page_of
from app.domain.kernel.text import without_direction_marks
from app.models import Branch, Employee
from app.models.base import dict_rows

E = Employee
EMPLOYEE_COLUMNS = (
    E.id, E.staff_number, E.name_en, E.name_ar, E.job_title, E.department, E.status,
    E.employment_type, E.country, E.entity, E.branch, Branch.name.alias("branch_name"),
    E.manager, E.contact_email, E.contact_phone, E.hire_date, E.termination_date,
    E.created_at, E.updated_at,
)
STATUS_FILTERS = ("active", "left")


def _visible(company_id: str) -> "ModelSelect[Employee]":
    return (
        E.select(*EMPLOYEE_COLUMNS)
        .join(Branch, JOIN.LEFT_OUTER, on=(E.branch == Branch.id))
        .where(E.company == company_id, E.archived == False)  # noqa: E712
    )


def list_employees(company_id: str, *, status: str | None = None, entity_id: str | None = None,
                   updated_since: datetime | None = None, after: Position | None = None,
                   limit: int = 50) -> Page[dict[str, Any]]:
    """A page of `limit` rows, oldest first, after the keyset position `after` (the
    previous page's `next_after`).

    `status="active"` means every status but `left` (Contract, Employee states). The
    position is (created_at, id); with `updated_since`, only rows whose partner form
    changed at or after it, ordered by (updated_at, id), and the position is that pair.
    """
    query = _visible(company_id)
    if status == "active":
        query = query.where(E.status != "left")
    elif status == "left":
        query = query.where(E.status == "left")
    if entity_id is not None:
        query = query.where(E.entity == entity_id)
    order = (E.created_at, E.id)
    if updated_since is not None:
        query, order = query.where(E.updated_at >= to_db(updated_since)), (E.updated_at, E.id)
    if after is not None:
        query = query.where(Tuple(*order) > Tuple(*after))
    moment = "updated_at" if updated_since is not None else "created_at"
    return page_of(dict_rows(query.order_by(*order).limit(limit + 1)), limit,
                   lambda row: (row[moment], row["id"]))


def get_employee(company_id: str, employee_id: str) -> dict[str, Any]:
    row: dict[str, Any] | None = _visible(company_id).where(E.id == employee_id).dicts().first()
    if row is None:
        raise NotFound(Words("no employee %(employee)s", employee=employee_id))
    return row


def employee_row(employee_id: str) -> dict[str, Any]:
    """The partner columns of any employee, archived or not (for events)."""
    row: dict[str, Any] | None = (
        E.select(*EMPLOYEE_COLUMNS).join(Branch, JOIN.LEFT_OUTER, on=(E.branch == Branch.id))
        .where(E.id == employee_id).dicts().first()
    )
    if row is None:
        raise NotFound(Words("no employee %(employee)s", employee=employee_id))
    return row


def employee_rows(employee_ids: list[str], company_id: str) -> list[dict[str, Any]]:
    """The partner columns of these employees of the company, archived or not; ids of
    none of its employees are left out."""
    return dict_rows(E.select(*EMPLOYEE_COLUMNS).join(Branch, JOIN.LEFT_OUTER, on=(E.branch == Branch.id))
                     .where(E.id.in_(employee_ids), E.company == company_id))


def find_employees(company_id: str, *, text: str | None = None, offset: int = 0, limit: int = 100) -> list[Employee]:
    """HR's list: every record of the company, left and archived too, by staff number,
    optionally those whose staff number or name contains `text` or whose id it is (an ID
    pasted from a page may carry invisible direction marks: they are ignored). Up to
    `limit + 1` rows."""
    query = E.select().where(E.company == company_id)
    text = without_direction_marks(text or "").strip()
    if text:
        query = query.where(E.staff_number.contains(text) | E.name_en.contains(text) | E.name_ar.contains(text)
                            | (E.id == text))
    return list(query.order_by(E.staff_number).offset(offset).limit(limit + 1))


def resolve_employee(company_id: str, text: str) -> str:
    """The id of the company's employee named by id or staff number (how HR names people
    in commands); NotFound saying what was expected."""
    text = without_direction_marks(text or "").strip()
    found: Employee | None = (E.select(E.id).where(E.company == company_id, (E.id == text) | (E.staff_number == text))
                              .order_by(E.created_at).first())
    if found is None:
        raise NotFound(Words("No employee %(value)r in this company: give an employee id (emp_...) or a staff number.",
                             value=text))
    return found.id


def roster(company_id: str) -> list[Employee]:
    """The company's records HR may choose from (archived ones not), by staff number,
    with their id, staff number and names only."""
    return list(E.select(E.id, E.staff_number, E.name_en, E.name_ar)
                .where(E.company == company_id, E.archived == False)  # noqa: E712
                .order_by(E.staff_number))


def by_ids(company_id: str, employee_ids: Iterable[str]) -> dict[str, Employee]:
    """{id: Employee} of those of `employee_ids` that are the company's."""
    return {e.id: e for e in E.select().where(E.company == company_id, E.id.in_(list(employee_ids)))}


def by_staff_number(company_id: str, staff_number: str) -> Employee | None:
    """The company's employee with this staff number, or None."""
    return E.get_or_none(E.company == company_id, E.staff_number == staff_number)

