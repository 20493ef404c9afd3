"""HR pages: every employee and payroll transition, driven from the browser.

Each action is one domain function (the same the CLI calls), which writes its outbox
event; a refusal (a paid run cannot be deleted, say) comes back as a message.
"""

from zoneinfo import ZoneInfo

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from wtforms import SelectChoice

from app.console.common import console_blueprint, refusal, requires, said, sentence
from app.console.forms import (
    EMPLOYMENT_TYPE_WORDS,
    STATUS_WORDS,
    AccountMappingForm,
    DraftRunForm,
    EmployeeForm,
    EndEmploymentForm,
    PayForm,
    options,
    stored_options,
)
from app.console.leave import employee_leave, run_leave
from app.domain.access.companies import branches_of, entities_of, get_entity
from app.domain.kernel.countries import COUNTRIES
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.kernel.money import example_amount, format_minor, parse_major
from app.domain.kernel.text import ascii_int
from app.domain.payroll import accounts, drafts, moves
from app.domain.payroll.rules import COMPONENTS
from app.domain.payroll.runs import journal_of
from app.domain.people import actions
from app.domain.people.employees import by_ids, by_staff_number, find_employees
from app.extensions import runtime
from app.i18n import current_language, name_of
from app.i18n import lazy_text as _l

bp = console_blueprint("hr", url_prefix="/console")
PAGE_SIZE = 100
# The pay terms a run's page shows and corrects; a leaver's end-of-service benefit is paid
# with the rest (in the row's net and the journal) but is the law's, not HR's to edit.
MAX_PAGE = 100_000  # far past any company's last page, and far inside every integer column

# The words the pages show for stored values (the values themselves stay as stored).
EMPLOYEE_STATUSES = {**STATUS_WORDS, "left": _l("left")}
EMPLOYMENT_TYPES = EMPLOYMENT_TYPE_WORDS
RUN_STATUSES = {"draft": _l("draft"), "finalized": _l("finalized"), "paid": _l("paid")}
WPS_LABELS = {"not_submitted": _l("not submitted"), "submitted": _l("submitted"), "accepted": _l("accepted"),
              "rejected": _l("rejected")}
WPS_MARKS = {"submitted": _l("Mark submitted"), "accepted": _l("Mark accepted"), "rejected": _l("Mark rejected")}
ENTRY_KINDS = {"accrual": _l("Accrual"), "opening": _l("Opening"), "payment": _l("Payment"),
               "correction": _l("Correction"), "reversal": _l("Reversal"), "true_up": _l("True_up")}
ACCOUNT_TYPES = {"asset": _l("asset"), "liability": _l("liability"), "equity": _l("equity"),
                 "expense": _l("expense")}
SPLIT_LABELS = {"none": _l("none"), "department": _l("department"), "branch": _l("branch")}


@bp.context_processor
def _labels():
    return {"employee_statuses": EMPLOYEE_STATUSES, "employment_types": EMPLOYMENT_TYPES,
            "run_statuses": RUN_STATUSES, "wps_labels": WPS_LABELS, "wps_marks": WPS_MARKS,
            "entry_kinds": ENTRY_KINDS, "account_types": ACCOUNT_TYPES, "split_labels": SPLIT_LABELS}


# ---- employees -------------------------------------------------------------------


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
                _show_errors(form, exc)
            else:
                flash(_("Hired %(staff_number)s %(name)s employee.created is on its way.",
                        staff_number=hired.staff_number, name=sentence(hired.name_en)), "success")
                return redirect(url_for("hr.employee", employee_id=hired.id))
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
                return redirect(url_for("hr.employee", employee_id=found.id))
            try:
                actions.update_employee(g.company.id, found.id, changes, runtime())
            except DomainError as exc:
                _show_errors(form, exc)
            else:
                flash(_("Saved %(staff_number)s.", staff_number=found.staff_number), "success")
                return redirect(url_for("hr.employee", employee_id=found.id))
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
    return redirect(url_for("hr.employee", employee_id=found.id))


@bp.post("/employees/<employee_id>/archive")
@requires("hr.manage")
def archive(employee_id):
    found = actions.archive_employee(g.company.id, employee_id)
    flash(_("Archived %(staff_number)s: partners no longer see this record.", staff_number=found.staff_number),
          "success")
    return redirect(url_for("hr.employees"))


def _employee_form(form):
    form.entity.choices = options((e.id, name_of(e, plain=True)) for e in entities_of(g.company.id).values())
    form.branch.choices = options([("", _("(none)"))]) + stored_options(
        (b.id, b.name) for b in branches_of(g.company.id))
    for name in EmployeeForm.MONEY_FIELDS:
        form[name].description = _("%(currency)s, e.g. %(example)s", currency=g.company.currency,
                                   example=example_amount(g.company.currency))
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
        _show_errors(form, ValidationFailed("invalid employee", problems))
        return None
    return fields


def _show_errors(form, exc):
    for path, told in getattr(exc, "errors", None) or [("", exc.message)]:
        message = said(told)
        if path in form:
            form[path].errors = [*form[path].errors, message]
        else:
            form.form_errors.append(f"{path}: {message}" if path else message)


def _form_status():
    """A form page shown again after a POST is showing what was wrong with it."""
    return 422 if request.method == "POST" else 200



# ---- payroll ---------------------------------------------------------------------


@bp.get("/payroll")
@requires("payroll.manage")
def payroll_runs():
    # The month HR most often builds: this one, in the company's time zone.
    this_month = runtime().now().astimezone(ZoneInfo(g.company.timezone)).date().replace(day=1)
    return render_template("console/payroll.html", runs=drafts.hr_runs(g.company.id),
                           form=_draft_form(DraftRunForm(formdata=None, month=this_month)),
                           entities=entities_of(g.company.id))


@bp.post("/payroll")
@requires("payroll.manage")
def draft_run():
    form = _draft_form(DraftRunForm())
    if form.validate():
        try:
            entity = get_entity(form.entity.data, company_id=g.company.id)
            current = runtime()
            run = drafts.build_draft_run(entity, form.month.data.strftime("%Y-%m"), current,
                                                  end_of_service=current.beyond_contract)
        except DomainError as exc:
            flash(refusal(exc), "error")
        else:
            flash(_("Draft for %(month)s built. Partners see it once it is finalized.", month=run.payroll_month),
                  "success")
            return redirect(url_for("hr.payroll_run", run_id=run.id))
    elif form.entity.data and form.month.errors:  # the month's own words: "Write the digits 0 to 9."
        flash(str(form.month.errors[0]), "error")
    else:
        flash(_("Choose a legal entity and a month."), "error")
    return redirect(url_for("hr.payroll_runs"))


@bp.get("/payroll/accounts")
@requires("payroll.manage")
def chart_of_accounts():
    entity_id = request.args.get("entity") or None
    form = _mapping_form(AccountMappingForm(formdata=None, entity=entity_id or ""))
    return _chart_page(form, entity_id)


@bp.post("/payroll/accounts")
@requires("payroll.manage")
def map_account():
    form = _mapping_form(AccountMappingForm())
    entity_id = form.entity.data or None
    if form.validate():
        try:
            mapped = accounts.set_mapping(g.company.id, form.key.data, form.code.data, runtime(), entity_id=entity_id,
                                          name_en=form.name_en.data or None, name_ar=form.name_ar.data or None)
        except ValidationFailed as exc:
            for name, message in exc.errors:
                getattr(form, name).errors = [*getattr(form, name).errors, said(message)]
        except DomainError as exc:
            flash(refusal(exc), "error")
        else:
            flash(_("%(key)s is now %(code)s %(name)s: entries posted from now on use it; those posted keep their "
                    "codes.", key=mapped.account.key, code=mapped.code, name=mapped.name_en), "success")
            return redirect(url_for("hr.chart_of_accounts", entity=entity_id or None))
    return _chart_page(form, entity_id), 400


@bp.post("/payroll/accounts/reset")
@requires("payroll.manage")
def reset_account():
    entity_id = request.form.get("entity") or None
    try:
        mapped = accounts.reset_mapping(g.company.id, request.form.get("key", ""), entity_id=entity_id)
    except DomainError as exc:
        flash(refusal(exc), "error")
    else:
        flash(_("%(key)s is back to %(code)s %(name)s.", key=mapped.account.key, code=mapped.code,
                name=mapped.name_en), "success")
    return redirect(url_for("hr.chart_of_accounts", entity=entity_id or None))


@bp.post("/payroll/accounts/split")
@requires("payroll.manage")
def split_accounts():
    try:
        by = accounts.set_split(g.company.id, request.form.get("by", ""))
    except DomainError as exc:
        flash(refusal(exc), "error")
    else:
        flash(_("Expense lines are not split.") if by == "none" else
              _("Expense lines of the journals posted from now on are split by %(split)s, never a line for fewer "
                "than three people.", split=SPLIT_LABELS.get(by, by)), "success")
    return redirect(url_for("hr.chart_of_accounts"))


def _mapping_form(form):
    form.entity.choices = options([("", _("%(company)s (every legal entity)", company=name_of(g.company, plain=True))),
                                   *((e.id, name_of(e, plain=True)) for e in entities_of(g.company.id).values())])
    form.key.choices = [_account_choice(account) for account in accounts.CATALOG]
    return form


def _account_choice(account):
    """An account to map: on an Arabic page its Arabic name and code, where it has an
    Arabic name; otherwise its key, code and English name, read as English."""
    arabic = getattr(account, "name_ar", None) if current_language() == "ar" else None
    if arabic:
        return SelectChoice(account.key, f"{arabic} ({account.default_code})")
    label = f"{account.key} ({account.default_code} {account.name_en})"
    english = {} if current_language() == "en" else {"lang": "en", "dir": "ltr"}
    return SelectChoice(account.key, label, render_kw=english)


def _chart_page(form, entity_id):
    try:
        chart = accounts.chart(g.company.id, entity_id)
    except DomainError:
        abort(404)
    own = {row.key for row in accounts.mappings_of(g.company.id, entity_id)}
    return render_template("console/chart_of_accounts.html", chart=chart, own=own, form=form, entity_id=entity_id,
                           entities=entities_of(g.company.id), splits=accounts.SPLITS)


@bp.get("/payroll/<run_id>")
@requires("payroll.manage")
def payroll_run(run_id):
    run = drafts.get_hr_run(g.company.id, run_id)
    today = runtime().now().astimezone(ZoneInfo(g.company.timezone)).date()
    return render_template(
        "console/payroll_run.html", run=run, rows=drafts.pay_rows(run), earnings=drafts.EARNINGS,
        components=COMPONENTS,
        journal=journal_of(run), entity=get_entity(run.entity_id), wps_next=moves.WPS_NEXT,
        pay_form=PayForm(formdata=None, on=today), owed=moves.owed(run) if run.status == "paid" else None,
        leave=run_leave(run),
    )


# action -> (domain function, what it did); paying takes a date (books.py)
RUN_ACTIONS = {
    "finalize": (moves.finalize_run,
                 _l("Finalized: the accrual is posted and payroll_run.finalized is on its way.")),
    "delete": (moves.delete_run, _l("Deleted: the journal is reversed and payroll_run.deleted is on its way.")),
    "discard": (lambda run, runtime: moves.discard_draft(run), _l("Draft discarded.")),
    # Where the run's salary file stands with the bank (v1.3): one step a click.
    **{f"wps_{step}": (moves.wps_step(step),
                       _l("The salary file is %(status)s with the bank: partners see it as the run's "
                          "wps_status, and payroll_run.wps_updated is on its way.", status=WPS_LABELS[step]))
       for step in moves.WPS_STATUSES[1:]},
}


@bp.post("/payroll/<run_id>/<action>")
@requires("payroll.manage")
def run_action(run_id, action):
    if action not in RUN_ACTIONS:
        abort(404)
    run = drafts.get_hr_run(g.company.id, run_id)
    act, done = RUN_ACTIONS[action]
    try:
        act(run, runtime())
    except DomainError as exc:
        flash(refusal(exc), "error")
        return redirect(url_for("hr.payroll_run", run_id=run.id))
    flash(str(done), "success")
    if action in ("delete", "discard"):
        return redirect(url_for("hr.payroll_runs"))
    return redirect(url_for("hr.payroll_run", run_id=run.id))


@bp.post("/payroll/<run_id>/correct")
@requires("payroll.manage")
def correct(run_id):
    """The run page sends every line's earnings; those that differ become the correction."""
    run = drafts.get_hr_run(g.company.id, run_id)
    entered, problems = {}, []
    for employee_id in drafts.lines_by_employee(run):
        for code in drafts.EARNINGS:
            text = request.form.get(f"{employee_id}.{code}")
            if text is None:
                continue
            try:
                entered.setdefault(employee_id, {})[code] = parse_major(text or "0", run.currency)
            except ValueError:
                problems.append(_("%(text)s is not an amount in %(currency)s", text=repr(text), currency=run.currency))
    changes = moves.changed_earnings(run, entered)
    if problems:
        flash("; ".join(problems), "error")
    elif not changes:
        flash(_("No amount was changed, so there is nothing to correct."), "info")
    else:
        try:
            moves.correct_run(run, changes, runtime())
        except DomainError as exc:
            flash(refusal(exc), "error")
        else:
            # English says "employee(s)" for any number; the plural forms are Arabic's.
            flash(ngettext("Corrected %(num)d employee(s): a correcting entry is posted and "
                           "payroll_run.corrected is on its way.",
                           "Corrected %(num)d employee(s): a correcting entry is posted and "
                           "payroll_run.corrected is on its way.", len(changes)), "success")
    return redirect(url_for("hr.payroll_run", run_id=run.id))


def _draft_form(form):
    form.entity.choices = options((e.id, f"{name_of(e, plain=True)} ({e.currency})")
                                  for e in entities_of(g.company.id).values())
    return form
