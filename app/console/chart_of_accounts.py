"""The chart of accounts page: the accounts a payroll journal posts to, each as the company
(or one legal entity) maps it: code, English and Arabic names; a mapping reset to the
default; and how expense lines are split (by department or branch).
"""

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from wtforms import SelectChoice

from app.console.common import console_blueprint, refusal, requires, show_errors
from app.console.forms import AccountMappingForm, options
from app.domain.access.companies import entities_of
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.domain.payroll import accounts
from app.extensions import runtime
from app.i18n import current_language, name_of
from app.i18n import lazy_text as _l

bp = console_blueprint("hr_accounts", url_prefix="/console")

# The words the page shows for stored values (the values themselves stay as stored).
ACCOUNT_TYPES = {"asset": _l("asset"), "liability": _l("liability"), "equity": _l("equity"),
                 "expense": _l("expense")}
SPLIT_LABELS = {"none": _l("none"), "department": _l("department"), "branch": _l("branch")}


@bp.context_processor
def _labels():
    return {"account_types": ACCOUNT_TYPES, "split_labels": SPLIT_LABELS}


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
            show_errors(form, exc)
        except DomainError as exc:
            flash(refusal(exc), "error")
        else:
            flash(_("%(key)s is now %(code)s %(name)s: entries posted from now on use it; those posted keep their "
                    "codes.", key=mapped.account.key, code=mapped.code, name=name_of(mapped, plain=True)), "success")
            return redirect(url_for("hr_accounts.chart_of_accounts", entity=entity_id or None))
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
                name=name_of(mapped, plain=True)), "success")
    return redirect(url_for("hr_accounts.chart_of_accounts", entity=entity_id or None))


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
    return redirect(url_for("hr_accounts.chart_of_accounts"))


def _mapping_form(form):
    form.entity.choices = options([("", _("%(company)s (every legal entity)", company=name_of(g.company, plain=True))),
                                   *((e.id, name_of(e, plain=True)) for e in entities_of(g.company.id).values())])
    form.key.choices = [_account_choice(account) for account in accounts.CATALOG]
    return form


def _account_choice(account):
    """An account to map: on an Arabic page its Arabic name and code; otherwise its key,
    code and English name."""
    if current_language() == "ar":
        return SelectChoice(account.key, f"{account.name_ar} ({account.default_code})")
    label = f"{account.key} ({account.default_code} {account.name_en})"
    return SelectChoice(account.key, label)


def _chart_page(form, entity_id):
    try:
        chart = accounts.chart(g.company.id, entity_id)
    except DomainError:
        abort(404)
    own = {row.key for row in accounts.mappings_of(g.company.id, entity_id)}
    return render_template("console/chart_of_accounts.html", chart=chart, own=own, form=form, entity_id=entity_id,
                           entities=entities_of(g.company.id), splits=accounts.SPLITS)
