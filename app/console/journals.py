"""Journal files from the console (issue 47): a run's journal (a deleted run's too) and a
legal entity's month, as CSV, Xero's manual journal template or QuickBooks Online's
journal entry import: the files `flask --app wsgi payroll journal` writes
(app/domain/payroll/journal_file.py). Several Xero files come as one zip.
"""

import io
import zipfile
from zoneinfo import ZoneInfo

from flask import Response, abort, flash, g, redirect, request, url_for
from flask_babel import gettext as _

from app.console.common import console_blueprint, refusal, requires
from app.console.forms import JournalFileForm, JournalPeriodForm, options
from app.domain.access.companies import entities_of, get_entity
from app.domain.kernel.errors import DomainError
from app.domain.payroll import journal_file
from app.extensions import runtime
from app.i18n import name_of

bp = console_blueprint("journals", url_prefix="/console")


@bp.app_context_processor
def _journal_forms():
    """The download forms the payroll pages show (payroll_runs.py renders them)."""
    return {"journal_file_form": lambda: JournalFileForm(formdata=None),
            "journal_period_form": lambda: _period_form(JournalPeriodForm(formdata=None, month=_this_month()))}


@bp.get("/payroll/journal")
@requires("payroll.manage")
def period_file():
    """A legal entity's month: every entry dated in it, each once, deleted runs' included."""
    form = _period_form(JournalPeriodForm(formdata=request.args))
    if not form.validate():
        flash(_("Choose a legal entity, a month and a format."), "error")
        return redirect(url_for("hr_payroll.payroll_runs"))
    entity = get_entity(form.entity.data, company_id=g.company.id)
    period = form.month.data.strftime("%Y-%m")
    try:
        texts = journal_file.files(journal_file.period_entries(entity, period), **_options(form))
    except DomainError as exc:
        flash(refusal(exc), "error")
        return redirect(url_for("hr_payroll.payroll_runs"))
    return _download(texts, f"journal-{period}-{entity.id}", form.file_format.data)


@bp.get("/payroll/<run_id>/journal.csv")
@requires("payroll.manage")
def run_file(run_id):
    """A closed run's entries, in the format asked (CSV by default)."""
    try:
        run, posted = journal_file.run_entries(g.company.id, run_id)
    except DomainError:
        abort(404)
    form = JournalFileForm(formdata=request.args)
    if not form.validate():
        abort(404)
    try:
        texts = journal_file.files(posted, **_options(form))
    except DomainError as exc:
        flash(refusal(exc), "error")
        if run.status == "deleted":  # a deleted run has no page of its own
            return redirect(url_for("hr_payroll.payroll_runs"))
        return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))
    return _download(texts, f"journal-{run.payroll_month}-{run.id}", form.file_format.data)


def _options(form):
    chosen = form.file_format.data
    return {"file_format": chosen,
            "tax_rate": (form.tax_rate.data or None) if chosen == "xero" else None,
            "date_format": form.date_format.data if chosen == "quickbooks" else None}


def _download(texts, stem, file_format):
    suffix = "" if file_format == "csv" else f"-{file_format}"
    if len(texts) == 1:
        return Response(texts[0], mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{stem}{suffix}.csv"'})
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, text in enumerate(texts, start=1):
            archive.writestr(f"{stem}{suffix}-{n}.csv", text)
    return Response(packed.getvalue(), mimetype="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{stem}{suffix}.zip"'})


def _period_form(form):
    form.entity.choices = options((e.id, f"{name_of(e, plain=True)} ({e.currency})")
                                  for e in entities_of(g.company.id).values())
    return form


def _this_month():
    return runtime().now().astimezone(ZoneInfo(g.company.timezone)).date().replace(day=1)

