"""Payroll's books in the console: paying what a run owes on the bank's value date, and
the date through which the company's books are closed (app/domain/payroll/books.py).

Any payroll user closes the books through a later date; only an owner (the company's
CEO, or the sandbox's owner) sees and uses the form that reopens them (others: 403).
"""

from datetime import timedelta

from flask import abort, flash, g, redirect, render_template, url_for
from flask_babel import gettext as _

from app.console.common import console_blueprint, refusal, requires, said
from app.console.forms import CloseBooksForm, PayForm, ReopenBooksForm
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.payroll import books, drafts, moves
from app.extensions import runtime

bp = console_blueprint("books", url_prefix="/console")


@bp.post("/payroll/<run_id>/pay")
@requires("payroll.manage")
def pay(run_id):
    """A finalized run's net pay, or what a correction after payment left owing."""
    run = drafts.get_hr_run(g.company.id, run_id)
    form = PayForm()
    if not form.validate():
        flash(_("Give the value date as YYYY-MM-DD, or leave it empty for today."), "error")
        return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))
    owing = run.status == "paid"
    try:
        moves.mark_paid(run, runtime(), on=form.on.data)
    except DomainError as exc:
        flash(refusal(exc), "error")
    else:
        day = (form.on.data or books.today(g.company, runtime().now())).isoformat()
        flash(_("Paid what the run still owed, dated %(date)s: the payment is posted and payroll_run.paid is on its "
                "way.", date=day) if owing else
              _("Marked paid, dated %(date)s: the payment is posted and payroll_run.paid is on its way.", date=day),
              "success")
    return redirect(url_for("hr_payroll.payroll_run", run_id=run.id))


@bp.get("/payroll/books")
@requires("payroll.manage")
def closing():
    last_month_end = books.today(g.company, runtime().now()).replace(day=1) - timedelta(days=1)
    return _page(CloseBooksForm(formdata=None, through=last_month_end), ReopenBooksForm(formdata=None))


@bp.post("/payroll/books/close")
@requires("payroll.manage")
def close():
    form = CloseBooksForm()
    if form.validate():
        try:
            change = books.close(g.company.id, form.through.data, g.user.email, runtime())
        except ValidationFailed as exc:
            form.through.errors = [*form.through.errors, *(said(message) for _path, message in exc.errors)]
        except DomainError as exc:
            flash(refusal(exc), "error")
            return redirect(url_for("books.closing"))
        else:
            flash(_("The books are closed through %(date)s: every entry posted from now on is dated after it.",
                    date=change.closed_through.isoformat()), "success")
            return redirect(url_for("books.closing"))
    return _page(form, ReopenBooksForm(formdata=None), 422)


@bp.post("/payroll/books/reopen")
@requires("payroll.manage")
def reopen():
    if not books.is_owner(g.company.id, g.user.email):
        abort(403, description=_("Only an owner of the company (its CEO) reopens its books."))
    form = ReopenBooksForm()
    if form.validate():
        try:
            change = books.reopen(g.company.id, form.keep_through.data, g.user.email, runtime())
        except DomainError as exc:
            flash(refusal(exc), "error")
        else:
            flash(_("Reopened: the books are closed through %(date)s.", date=change.closed_through.isoformat())
                  if change.closed_through else _("Reopened: every period is open."), "success")
        return redirect(url_for("books.closing"))
    return _page(CloseBooksForm(formdata=None), form, 422)


def _page(close_form, reopen_form, status=200):
    owner = books.is_owner(g.company.id, g.user.email)
    found = books.books_of(g.company.id)
    first_open = found.closed_through + timedelta(days=1) if found.closed_through else None
    return render_template("console/books.html", books=found, first_open=first_open, close_form=close_form,
                           reopen_form=reopen_form if owner else None), status

