"""The Leave page: requests waiting for a decision, leave approved now and to come, a
month's calendar of who is away, a form to record a leave, and the company's leave
settings (set by an operator's command; read here). Also what the employee's page and a
payroll run's page show of leave (`employee_leave`, `run_leave`).

Each form calls the same domain function as the CLI (app/domain/leave/requests.py). A
refusal is shown beside the field the domain names, with the form as it was typed; a
second click on a move finds the leave moved already and is refused (Conflict), shown as
a message. Leave is HR's: the page and its moves need `hr.manage`, as the employee
pages do.
"""

from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from babel.dates import format_date, get_day_names
from babel.numbers import format_percent
from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from app.console.common import console_blueprint, refusal, requires, safe_next, show_errors
from app.console.forms import LEAVE_STATUS_WORDS, LEAVE_TYPE_WORDS, LeaveForm, options, people_options
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.kernel.text import ascii_digits
from app.domain.leave import requests as leave_requests
from app.domain.leave.balances import balance_of, in_days
from app.domain.leave.law import LAWS
from app.domain.payroll.drafts import leave_effects_of
from app.domain.people.employees import by_ids, roster
from app.extensions import runtime
from app.i18n import RIGHT_TO_LEFT, as_id, as_stored, current_language, name_of, number
from app.models import PayrollRun

bp = console_blueprint("hr_leave", url_prefix="/console")
LISTED = 200  # waiting and approved leave listed at most; the calendar shows each month's all
CALENDAR_LIMIT = 5000  # leaves touching one month, per status, read at most
IN_A_DAY = 12  # people named in one day of the calendar; the rest counted
MOVES = {"approve": leave_requests.approve_leave, "decline": leave_requests.decline_leave,
         "cancel": leave_requests.cancel_leave}


@bp.app_context_processor  # the employee's and the run's pages show leave too
def _labels():
    return {"leave_types": LEAVE_TYPE_WORDS, "leave_statuses": LEAVE_STATUS_WORDS}


@bp.get("/leave")
@requires("hr.manage")
def page():
    chosen = request.args.get("employee", "")
    return _page(_with_people(LeaveForm(formdata=None, employee=chosen)))


@bp.post("/leave")
@requires("hr.manage")
def record():
    form = _with_people(LeaveForm())
    if form.validate():
        note = (form.note.data or "").strip() or None
        try:
            leave = leave_requests.request_leave(g.company.id, form.employee.data, form.type.data, form.start.data,
                                                 form.end.data, g.user.email, runtime(), approve=form.approve.data,
                                                 note=note)
        except ValidationFailed as exc:
            show_errors(form, exc, LeaveForm.FIELDS)
        except DomainError as exc:
            form.form_errors.append(refusal(exc))
        else:
            words = _words(leave)
            flash(_("Recorded and approved %(type)s for %(staff_number)s from %(start)s to %(end)s.", **words)
                  if leave.status == "approved" else
                  _("Recorded %(type)s for %(staff_number)s from %(start)s to %(end)s: it waits for a decision.",
                    **words), "success")
            return redirect(url_for("hr_leave.page", month=leave.start_date.strftime("%Y-%m")))
    return _page(form, 422)


@bp.post("/leave/<leave_id>/<move>")
@requires("hr.manage")
def move(leave_id, move):
    if move not in MOVES:
        abort(404)
    leave_requests.hr_leave(g.company.id, leave_id)  # another company's, or none: 404
    back = safe_next(request.form.get("next")) or url_for("hr_leave.page")
    try:
        leave = MOVES[move](g.company.id, leave_id, g.user.email, runtime())
    except DomainError as exc:  # a second click finds the leave moved already (Conflict)
        flash(refusal(exc), "error")
        return redirect(back)
    words = _words(leave)
    flash({"approve": _("Approved %(type)s for %(staff_number)s from %(start)s to %(end)s.", **words),
           "decline": _("Declined %(type)s for %(staff_number)s from %(start)s to %(end)s.", **words),
           "cancel": _("Cancelled %(type)s for %(staff_number)s from %(start)s to %(end)s.", **words)}[move],
          "success")
    return redirect(back)


def _page(form, status=200):
    company = g.company
    today = _today()
    month = _month_arg(today)
    waiting = leave_requests.list_leave(company.id, status="requested", limit=LISTED)
    approved = leave_requests.list_leave(company.id, status="approved", start=today, limit=LISTED)
    calendar = month_calendar(company.id, company.country, month, today)
    names = by_ids(company.id, {row.employee_id for row in waiting + approved})
    return render_template(
        "console/leave.html", form=form, waiting=[(row, names.get(row.employee_id)) for row in waiting],
        approved=[(row, names.get(row.employee_id)) for row in approved], listed=LISTED, calendar=calendar,
        settings=settings_of(company), today=today, here=request.full_path.rstrip("?")), status


def _with_people(form):
    form.employee.choices = options([("", _("Choose…"))]) + people_options(roster(g.company.id))
    return form


def _today():
    return runtime().now().astimezone(ZoneInfo(g.company.timezone)).date()


def _month_arg(today):
    """The month the calendar shows: `?month=YYYY-MM`, this month if none or not one."""
    text = request.args.get("month", "")
    if len(text) == 7 and text[4] == "-" and ascii_digits(text[:4]) and ascii_digits(text[5:]):
        year, month = int(text[:4]), int(text[5:])
        if 1900 <= year <= 2200 and 1 <= month <= 12:
            return date(year, month, 1)
    return today.replace(day=1)


def _words(leave):
    """What a message says of a leave: its type in words; the staff number and dates
    left to right inside an Arabic sentence (as `said` writes an ID)."""
    found = by_ids(g.company.id, [leave.employee_id]).get(leave.employee_id)
    as_typed = (lambda text: f"\u2066{text}\u2069") if current_language() in RIGHT_TO_LEFT else str
    return {"type": str(LEAVE_TYPE_WORDS.get(leave.type, leave.type)),
            "staff_number": as_typed(found.staff_number if found else leave.employee_id),
            "start": as_typed(leave.start_date.isoformat()), "end": as_typed(leave.end_date.isoformat())}


# ---- the calendar ------------------------------------------------------------------


@dataclass
class Day:
    day: date
    in_month: bool
    weekend: bool
    today: bool
    away: list = field(default_factory=list)  # [(LeaveRequest, Employee)]

    @property
    def more(self) -> int:
        return max(len(self.away) - IN_A_DAY, 0)

    @property
    def shown(self) -> list:
        return self.away[:IN_A_DAY]


@dataclass
class Calendar:
    month: date
    title: str
    weekdays: list  # [(name, is a weekend day)], from the week's first day
    weeks: list  # [[Day] * 7]
    previous: str
    previous_title: str
    next: str
    next_title: str
    truncated: bool
    people: int  # distinct people away in the month


def month_calendar(company_id: str, country: str, month: date, today: date) -> Calendar:
    """Who is away on each day of `month` (approved leave, and requested leave marked
    as such), as weeks that start on the first working day of the country's week."""
    weekend = COUNTRIES[country].weekend
    first_day = next(day % 7 + 1 for day in weekend if day % 7 + 1 not in weekend)  # ISO weekday
    last = month.replace(day=monthrange(month.year, month.month)[1])
    start = month - timedelta(days=(month.isoweekday() - first_day) % 7)
    end = last + timedelta(days=(first_day - 1 - last.isoweekday()) % 7)
    days = {}
    day = start
    while day <= end:
        days[day] = Day(day, day.month == month.month, day.isoweekday() in weekend, day == today)
        day += timedelta(days=1)
    found, truncated = [], False
    for status in ("approved", "requested"):
        rows = leave_requests.list_leave(company_id, status=status, start=start, end=end, limit=CALENDAR_LIMIT)
        truncated = truncated or len(rows) >= CALENDAR_LIMIT
        found.extend(rows)
    people = by_ids(company_id, {row.employee_id for row in found})
    found.sort(key=lambda row: (row.status != "approved", getattr(people.get(row.employee_id), "staff_number", ""),
                                row.start_date))
    for row in found:
        day = max(row.start_date, start)
        while day <= min(row.end_date, end):
            days[day].away.append((row, people.get(row.employee_id)))
            day += timedelta(days=1)
    language = current_language()
    names = get_day_names("wide", locale=language)  # 0: Monday
    weekdays = [(names[(first_day - 1 + k) % 7], (first_day - 1 + k) % 7 + 1 in weekend) for k in range(7)]
    ordered = list(days.values())
    previous = (month - timedelta(days=1)).replace(day=1)
    following = last + timedelta(days=1)
    in_month = {row.employee_id for row in found if row.start_date <= last and row.end_date >= month}
    return Calendar(month, format_date(month, "LLLL y", locale=language), weekdays,
                    [ordered[k:k + 7] for k in range(0, len(ordered), 7)],
                    previous.strftime("%Y-%m"), format_date(previous, "LLLL y", locale=language),
                    following.strftime("%Y-%m"), format_date(following, "LLLL y", locale=language), truncated,
                    len(in_month))


# ---- the company's settings ------------------------------------------------------------


def settings_of(company) -> list[tuple[str, str]]:
    """The company's leave settings in words, with the law's minimum where it holds."""
    law = LAWS[company.country]
    minimum = (_("%(days)s days a year, %(later)s after %(years)s years of service", days=law.annual_days,
                 later=law.annual_days_later, years=law.later_after_years)
               if law.annual_days_later is not None else _("%(days)s days a year", days=law.annual_days))
    annual = (ngettext("%(num)d day a year, where the law gives fewer (the law: %(minimum)s)",
                       "%(num)d days a year, where the law gives fewer (the law: %(minimum)s)",
                       company.leave_annual_days, minimum=minimum)
              if company.leave_annual_days else _("The law's minimum: %(minimum)s", minimum=minimum))
    carry = (ngettext("At most %(num)d day carried into the next leave year; days beyond are forfeited",
                      "At most %(num)d days carried into the next leave year; days beyond are forfeited",
                      company.leave_carry_over_days) if company.leave_carry_over_days is not None
             else _("No cap: every unused day carries over"))
    negative = (_("Allowed: annual leave may take the balance below zero") if company.leave_negative_allowed
                else _("Not allowed: annual leave beyond the balance is refused"))
    return [(_("Annual leave"), annual), (_("Carry-over cap"), carry), (_("Negative balances"), negative)]


# ---- on other pages --------------------------------------------------------------------


@dataclass(frozen=True)
class EmployeeLeave:
    as_of: date
    accrued: str
    taken: int
    planned: int
    balance: str
    forfeited: str | None
    negative: bool
    rows: list


def employee_leave(employee) -> EmployeeLeave:
    """The employee page's leave: the annual balance today (a leaver's on their last
    day), and their leave, latest first, as [(leave, employee)]."""
    today = _today()
    if employee.termination_date is not None and employee.termination_date < today:
        today = employee.termination_date
    held = balance_of(employee, today)
    rows = leave_requests.list_leave(g.company.id, employee_id=employee.id, limit=LISTED)
    return EmployeeLeave(today, _days(held.accrued), held.taken, held.planned, _days(held.balance),
                         _days(held.forfeited) if held.forfeited else None, held.balance < 0,
                         [(row, employee) for row in sorted(rows, key=lambda row: (row.start_date, row.id),
                                                            reverse=True)])


@dataclass(frozen=True)
class RunLeave:
    employee: object
    type: str
    days: int
    paid: str
    reduction_minor: int
    leave_id: str | None


def run_leave(run: PayrollRun) -> list[RunLeave]:
    """What leave did to each employee's pay in `run` (its PayrollLeave rows), by staff
    number: the leave, its days in the month, the share of the wage paid, the pay taken off."""
    rows = leave_effects_of(run)
    people = by_ids(run.company_id, {row.employee_id for row in rows})
    shown = [RunLeave(people.get(row.employee_id), row.type, row.days, _percent(row.paid_percent),
                      row.reduction_minor, row.leave_id) for row in rows]
    return sorted(shown, key=lambda row: getattr(row.employee, "staff_number", ""))


def _days(value) -> str:
    return number(Decimal(str(in_days(value))), 2)


def _percent(value: Decimal) -> str:
    return format_percent(Decimal(value) / 100, format="#,##0.##%", locale=current_language())


@bp.app_template_global("leave_person")
def person(employee, employee_id=None):
    """Who a leave is: staff number and name (the Arabic one on an Arabic page)."""
    if employee is None:
        return as_stored(employee_id)
    return Markup("{} · {}").format(as_id(employee.staff_number), name_of(employee))
