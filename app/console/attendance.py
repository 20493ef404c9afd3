"""The attendance page: the days as partners read them, punches HR enters (source
`manual`), the punches that made no shift and why, and the people partners named that
no employee matched, to link.

Each form calls the same domain function as the CLI (app/cli/attendance.py).
"""

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from app.console.common import console_blueprint, refusal, requires
from app.console.forms import PUNCH_WORDS, LinkForm, PunchForm, options, people_options
from app.domain.attendance.days import list_days, rejected_punches
from app.domain.attendance.ingest import link_reference, record_punch, unmatched_references
from app.domain.kernel.clock import from_db
from app.domain.kernel.errors import DomainError
from app.domain.kernel.text import foreign_digit
from app.domain.people.employees import roster
from app.extensions import runtime
from app.i18n import as_id, as_stored, name_of
from app.i18n import lazy_text as _l

bp = console_blueprint("hr_attendance", url_prefix="/console")
MAX_DAYS = 62
SHOWN_DAYS = 500
# The words the page shows for stored values (the values themselves stay as stored).
PUNCH_LABELS = PUNCH_WORDS
REF_TYPE_LABELS = {"external_id": _l("external id"), "employee_code": _l("employee code"), "email": _l("email"),
                   "phone": _l("phone"), "employee_id": _l("employee id")}


@bp.context_processor
def _labels():
    return {"punch_labels": PUNCH_LABELS, "ref_type_labels": REF_TYPE_LABELS}


@bp.get("/attendance")
@requires("hr.manage")
def page():
    zone = ZoneInfo(g.company.timezone)
    today = runtime().now().astimezone(zone).date()
    start, end = _date_arg("from", today - timedelta(days=6)), _date_arg("to", today)
    if end < start or (end - start).days > MAX_DAYS:
        flash(ngettext("Show at most %(num)d day, from the first date to the last.",
                       "Show at most %(num)d days, from the first date to the last.", MAX_DAYS), "error")
        start, end = today - timedelta(days=6), today
    people = roster(g.company.id)
    names = {person.id: person for person in people}
    found = list_days(g.company.id, start, end, limit=SHOWN_DAYS)
    days = [_day_view(json.loads(record), names, zone) for record in found.items]
    # After a punch the page comes back on its day, with its employee chosen for the next.
    chosen = request.args.get("employee") if request.args.get("employee") in names else None
    punch_form = _with_people(PunchForm(formdata=None, day=start if "from" in request.args else today,
                                        employee=chosen), people)
    unmatched = [(ref, _with_people(LinkForm(formdata=None, **{k: ref[k] for k in ("source", "ref_type")},
                                             value=ref["ref_value"]), people))
                 for ref in unmatched_references(g.company.id)]
    alone = [{**event, "person": _person(names, event["employee"]),
              "when": from_db(event["at"]).astimezone(zone).strftime("%Y-%m-%d %H:%M")}
             for event in rejected_punches(g.company.id, start, end, zone)]
    return render_template("console/attendance.html", days=days, more=found.next_after is not None, start=start,
                           end=end, punch_form=punch_form, unmatched=unmatched, alone=alone,
                           timezone=g.company.timezone)


@bp.post("/attendance/punch")
@requires("hr.manage")
def punch():
    form = _with_people(PunchForm(), roster(g.company.id))
    if not form.validate():
        flash(_("Choose the employee and give the date and time of the punch."), "error")
        return redirect(url_for("hr_attendance.page"))
    at = datetime.combine(form.day.data, form.time.data, ZoneInfo(g.company.timezone))
    try:
        result = record_punch(g.company, form.employee.data, form.kind.data, at, runtime(), channel="manual",
                              branch_ref=(form.branch_ref.data or "").strip() or None)
    except DomainError as exc:
        flash(refusal(exc), "error")
    else:
        kind = form.kind.data
        flash(_("Recorded %(punch)s at %(time)s (%(event_id)s); the day is re-paired in a moment.",
                punch=PUNCH_LABELS.get(kind, kind.replace("_", " ")), time=f"{at:%Y-%m-%d %H:%M}",
                event_id=result.event_id), "success")
    day = form.day.data.isoformat()
    return redirect(url_for("hr_attendance.page", **{"from": day, "to": day}, employee=form.employee.data))


@bp.post("/attendance/link")
@requires("hr.manage")
def link():
    form = _with_people(LinkForm(), roster(g.company.id))
    if not form.validate():
        flash(_("Choose the employee this reference means."), "error")
        return redirect(url_for("hr_attendance.page"))
    try:
        waiting = link_reference(g.company, form.source.data, form.ref_type.data, form.value.data,
                                 form.employee.data, runtime())
    except DomainError as exc:
        flash(refusal(exc), "error")
    else:
        # English says "event(s)" for any number; the plural forms are Arabic's.
        flash(ngettext("Linked %(ref_type)s %(value)s from %(source)s: %(num)d waiting event(s) are being paired, "
                       "and later ones will match.",
                       "Linked %(ref_type)s %(value)s from %(source)s: %(num)d waiting event(s) are being paired, "
                       "and later ones will match.", waiting, ref_type=form.ref_type.data, value=form.value.data,
                       source=form.source.data), "success")
    return redirect(url_for("hr_attendance.page"))


def _with_people(form, people):
    form.employee.choices = options([("", _("Choose…"))]) + people_options(people)
    return form


def _date_arg(name, default):
    text = request.args.get(name, "")
    if foreign_digit(text):  # strptime reads "٢٠٢٦" as a year: digits are 0-9 (kernel/text.py)
        return default
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        return default


def _day_view(record, names, zone):
    """A stored day with local times, for people to read."""

    def local(text):
        moment = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(zone)
        return moment.strftime("%H:%M") + ("" if moment.date().isoformat() == record["date"] else " (+1)")

    return {
        **record,
        "person": _person(names, record["employee_id"]),
        "shift_views": [{**s, "span": _span(local(s["clock_in"]), local(s["clock_out"]))} for s in record["shifts"]],
        "open_since": _span(local(record["open_shift"]["clock_in"])) if record["open_shift"] else None,
    }


def _span(start: str, end: str | None = None) -> Markup:
    """A shift's times in the page's reading order: 08:10–17:20 in English, «من 08:10 إلى
    17:20» in Arabic (a bare dash between two times reads end first, right to left); an
    open shift's, with no end yet."""
    times = {"start": as_id(start), "end": as_id(end)}
    return Markup(_("%(start)s–%(end)s") if end else _("%(start)s–")) % times


def _person(names, employee_id):
    """Who a day or a punch is: staff number and name (the Arabic one on an Arabic page)."""
    person = names.get(employee_id)
    if person is None:
        return as_stored(employee_id)
    return Markup("{} · {}").format(as_id(person.staff_number), name_of(person))


