"""The Payroll pages: the company's runs, building a month's draft, and a run's page,
where HR finalizes, corrects, deletes or discards it and marks its salary file's steps
with the bank (WPS). Paying and closing the books are books.py's; the journal files are
journals.py's; the chart of accounts is chart_of_accounts.py's.
"""

from zoneinfo import ZoneInfo

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from app.console.common import console_blueprint, refusal, requires
from app.console.forms import DraftRunForm, PayForm, options
from app.console.leave import run_leave
from app.domain.access.companies import entities_of, get_entity
from app.domain.kernel.errors import DomainError
from app.domain.kernel.money import parse_major
from app.domain.payroll import accounts, drafts, moves
from app.domain.payroll.rules import COMPONENTS
from app.domain.payroll.runs import journal_of
from app.extensions import runtime
from app.i18n import as_stored, current_language, name_of
from app.i18n import lazy_text as _l
from app.models import JournalLine

bp = console_blueprint("hr_payroll", url_prefix="/console")

# The words the pages show for stored values (the values themselves stay as stored).
RUN_STATUSES = {"draft": _l("draft"), "finalized": _l("finalized"), "paid": _l("paid")}
WPS_LABELS = {"not_submitted": _l("not submitted"), "submitted": _l("submitted"), "accepted": _l("accepted"),
              "rejected": _l("rejected")}
WPS_MARKS = {"submitted": _l("Mark submitted"), "accepted": _l("Mark accepted"), "rejected": _l("Mark rejected")}
ENTRY_KINDS = {"accrual": _l("Accrual"), "opening": _l("Opening"), "payment": _l("Payment"),
               "correction": _l("Correction"), "reversal": _l("Reversal"), "true_up": _l("True_up")}


@bp.context_processor
def _labels():
    return {"run_statuses": RUN_STATUSES, "wps_labels": WPS_LABELS, "wps_marks": WPS_MARKS,
            "entry_kinds": ENTRY_KINDS, "account_name": account_name}


def account_name(line: JournalLine) -> Markup | str:
    """A journal line's account as posted, in the page's language: on an Arabic page its
    Arabic name as posted, or (lines posted before lines kept one) the account's default
    Arabic name where the line carries the default English name; otherwise the English
    name, marked as English."""
    if current_language() == "ar":
        default = accounts.BY_KEY.get(line.account_key or "")
        arabic = line.account_name_ar or (default.name_ar if default and default.name_en == line.account_name
                                          else None)
        if arabic:
            return Markup("<bdi>{}</bdi>").format(arabic)
    return as_stored(line.account_name)


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
            return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))
    elif form.entity.data and form.month.errors:  # the month's own words: "Write the digits 0 to 9."
        flash(str(form.month.errors[0]), "error")
    else:
        flash(_("Choose a legal entity and a month."), "error")
    return redirect(url_for("hr_payroll.payroll_runs"))


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
        return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))
    flash(str(done), "success")
    if action in ("delete", "discard"):
        return redirect(url_for("hr_payroll.payroll_runs"))
    return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))


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
    return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))


def _draft_form(form):
    form.entity.choices = options((e.id, f"{name_of(e, plain=True)} ({e.currency})")
                                  for e in entities_of(g.company.id).values())
    return form
