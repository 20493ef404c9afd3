"""The Employees pages: the company's people, found by name, staff number or ID; hiring;
editing; ending employment; archiving a record made by mistake.

Each action is one domain function (the same the CLI calls), which writes its outbox
event; a refusal comes back beside the field the domain names, or as a message.
"""

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from app.console.common import console_blueprint, refusal, requires, sentence, show_errors
from app.console.forms import (
    EMPLOYMENT_TYPE_WORDS,
    STATUS_WORDS,
    EmployeeForm,
    EndEmploymentForm,
    options,
    stored_options,
)
from app.console.leave import employee_leave
from app.domain.access.companies import branches_of, entities_of
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.kernel.money import example_amount, format_minor, parse_major
from app.domain.kernel.text import ascii_int
from app.domain.people import actions
from app.domain.people.employees import by_ids, by_staff_number, find_employees
from app.extensions import runtime
from app.i18n import lazy_text as _l
from app.i18n import name_of

bp = console_blueprint("hr_employees", url_prefix="/console")
PAGE_SIZE = 100
MAX_PAGE = 100_000  # far past any company's last page, and far inside every integer column

# The words the pages show for stored values (the values themselves stay as stored).
EMPLOYEE_STATUSES = {**STATUS_WORDS, "left": _l("left")}


# The national ID each country's employees carry, as its HR forms name it (stored as
# `civil_id` whatever the country), and a mobile number written as the phone field wants it.
ID_LABELS = {"KW": _l("Civil ID"), "SA": _l("National ID or Iqama number"), "AE": _l("Emirates ID number"),
             "QA": _l("Qatar ID (QID) number"), "BH": _l("CPR number"), "OM": _l("Civil number")}
PHONE_EXAMPLES = {"KW": "+96550001234", "SA": "+966501234567", "AE": "+971501234567", "QA": "+97455123456",
                  "BH": "+97336001234", "OM": "+96891234567"}


@bp.context_processor
def _labels():
    return {"employee_statuses": EMPLOYEE_STATUSES, "employment_types": EMPLOYMENT_TYPE_WORDS}


@bp.get("/employees")
@requires("hr.manage")
def employees():
    text = request.args.get("q", "").strip()[:100]
    page = min(max(1, ascii_int(request.args.get("page", "1")) or 1), MAX_PAGE)  # digits 0-9 only
    rows = find_employees(g.company.id, text=text or None, offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    return render_template("console/employees.html", employees=rows[:PAGE_SIZE], text=text, page=page,
                           more=len(rows) > PAGE_SIZE)


@bp.route("/employees/new", methods=["GET", "POST"])
@requires("hr.manage")
def hire():
    form = _employee_form(EmployeeForm(nationality=COUNTRIES[g.company.country].nationality))
    del form.status  # everyone starts active
    if form.validate_on_submit():
        fields = _fields_of(form)
        if fields is not None:
            try:
                hired = actions.hire(g.company, fields, runtime())
            except ValidationFailed as exc:
                show_errors(form, exc)
            else:
                flash(_("Hired %(staff_number)s %(name)s employee.created is on its way.",
                        staff_number=hired.staff_number, name=sentence(name_of(hired, plain=True))), "success")
                return redirect(url_for("hr_employees.employee", employee_id=hired.id))
    return render_template("console/employee_form.html", form=form, employee=None), _form_status()


@bp.route("/employees/<employee_id>", methods=["GET", "POST"])
@requires("hr.manage")
def employee(employee_id):
    found = actions.hr_employee(g.company.id, employee_id)
    form = _employee_form(EmployeeForm(data=_current_values(found)))
    if found.status == "left":
        del form.status  # a leaver's status does not change
    if form.validate_on_submit():
        fields = _fields_of(form)
        if fields is not None:
            changes = {name: value for name, value in fields.items() if value != _stored(found, name)}
            if not changes:
                flash(_("Nothing changed."), "info")
                return redirect(url_for("hr_employees.employee", employee_id=found.id))
            try:
                actions.update_employee(g.company.id, found.id, changes, runtime())
            except DomainError as exc:
                show_errors(form, exc)
            else:
                flash(_("Saved %(staff_number)s.", staff_number=found.staff_number), "success")
                return redirect(url_for("hr_employees.employee", employee_id=found.id))
    return render_template("console/employee_form.html", form=form, employee=found,
                           end_form=EndEmploymentForm(formdata=None), leave=employee_leave(found)), _form_status()


@bp.post("/employees/<employee_id>/end")
@requires("hr.manage")
def end_employment(employee_id):
    found = actions.hr_employee(g.company.id, employee_id)
    form = EndEmploymentForm()
    if not form.validate():
        flash(_("Give the last day of employment (YYYY-MM-DD)."), "error")
    else:
        try:
            ended = actions.end_employment(g.company.id, found.id, form.termination_date.data, runtime(),
                                           reason=(form.reason.data or "").strip() or None,
                                           resigned=form.leaving.data == "resignation")
        except DomainError as exc:
            flash(refusal(exc), "error")
        else:
            day = form.termination_date.data
            flash(_("%(staff_number)s has left as of %(day)s. employee.left is on its way.",
                    staff_number=found.staff_number, day=day) if ended.status == "left"
                  else _("%(staff_number)s leaves on %(day)s: active until then. Partners see the date now, "
                         "and employee.left on that day.", staff_number=found.staff_number, day=day), "success")
    return redirect(url_for("hr_employees.employee", employee_id=found.id))


@bp.post("/employees/<employee_id>/archive")
@requires("hr.manage")
def archive(employee_id):
    found = actions.archive_employee(g.company.id, employee_id)
    flash(_("Archived %(staff_number)s: partners no longer see this record.", staff_number=found.staff_number),
          "success")
    return redirect(url_for("hr_employees.employees"))


def _employee_form(form):
    form.entity.choices = options((e.id, name_of(e, plain=True)) for e in entities_of(g.company.id).values())
    form.branch.choices = options([("", _("(none)"))]) + stored_options(
        (b.id, b.name) for b in branches_of(g.company.id))
    for name in EmployeeForm.MONEY_FIELDS:
        form[name].description = _("%(currency)s, e.g. %(example)s", currency=g.company.currency,
                                   example=example_amount(g.company.currency))
    form.civil_id.label.text = ID_LABELS.get(g.company.country, form.civil_id.label.text)
    form.contact_phone.description = _("International format, e.g. %(example)s.",
                                       example=PHONE_EXAMPLES.get(g.company.country, "+96550001234"))
    return form


def _current_values(employee):
    """The form's view of a stored employee: money in major units, references by ID,
    the manager by staff number."""
    values = {name: getattr(employee, name) for name in EmployeeForm.PARTNER_FIELDS + EmployeeForm.INTERNAL_FIELDS
              if name not in ("entity", "branch", "manager")}
    values.update(entity=employee.entity_id, branch=employee.branch_id or "", manager=None)
    if employee.manager_id:
        manager = by_ids(g.company.id, [employee.manager_id]).get(employee.manager_id)
        values["manager"] = manager.staff_number if manager else None
    for name in EmployeeForm.MONEY_FIELDS:
        values[name] = format_minor(values[name], g.company.currency)
    return values


def _stored(employee, name):
    """What `_fields_of` would produce for an unchanged field, to find what changed."""
    if name in ("entity", "branch", "manager"):
        return getattr(employee, f"{name}_id")
    value = getattr(employee, name)
    return value if value != "" else None


def _fields_of(form):
    """The form's values as domain fields (minor units, IDs), or None with errors shown."""
    fields, problems = {}, []
    for name in (*EmployeeForm.PARTNER_FIELDS, *EmployeeForm.INTERNAL_FIELDS):
        if name not in form:
            continue
        value = form[name].data
        if isinstance(value, str):
            value = value.strip() or None
        if name in EmployeeForm.MONEY_FIELDS:
            try:
                value = parse_major(value or "0", g.company.currency)
            except ValueError:
                example = example_amount(g.company.currency)
                problems.append((name, _("an amount in %(currency)s, like %(example)s", currency=g.company.currency,
                                            example=example)))
        elif name == "manager" and value:
            manager = by_staff_number(g.company.id, value)
            if manager is None:
                problems.append((name, _("no employee with staff number %(staff_number)s", staff_number=value)))
            value = manager.id if manager else None
        elif name == "nationality" and value:
            value = value.upper()
        fields[name] = value
    if problems:
        show_errors(form, ValidationFailed("invalid employee", problems))
        return None
    return fields


def _form_status():
    """A form page shown again after a POST is showing what was wrong with it."""
    return 422 if request.method == "POST" else 200
