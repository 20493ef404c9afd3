"""Signing in and out, choosing the current company, and the user's own sandbox."""

from flask import abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.console.common import console_blueprint, keep_language, safe_next, said, sentence, sign_in, sign_out, signed_in
from app.console.forms import ForgotPasswordForm, ResetPasswordForm, SandboxForm, SignInForm, SwitchCompanyForm, options
from app.console.throttle import sign_in_throttle
from app.domain import sandbox
from app.domain.access import signin
from app.domain.access import users as access
from app.domain.kernel.errors import DomainError, ValidationFailed
from app.extensions import mailer, runtime
from app.i18n import chosen, current_language, name_of
from app.i18n import lazy_text as _l
from app.notices import password_reset_email

bp = console_blueprint("signin")

# Says what did not match and what to do, without guessing whose mistake it was (an
# account made without a console password is refused the same way, on purpose: the
# answer never tells whether an email has an account).
SIGN_IN_REFUSED = _l("We could not sign you in with this email and password. Check both and try again. "
                     "If you have no console password yet, or forgot it, ask your administrator to set one.")

# The first page a role may see, in this order.
HOME_PAGES = (("integrations.manage", "integrations.page"), ("hr.manage", "hr_employees.employees"),
              ("payroll.manage", "hr_payroll.payroll_runs"))


@bp.get("/")
@bp.get("/console/")
def home():
    if g.user is None:
        return redirect(url_for("signin.sign_in"))
    for permission, endpoint in HOME_PAGES:
        if permission in g.permissions:
            return redirect(url_for(endpoint))
    return render_template("console/home.html")


@bp.route("/console/sign-in", methods=["GET", "POST"], endpoint="sign_in")
def sign_in_page():
    if g.user is not None and request.method == "GET":
        return redirect(url_for("signin.home"))
    form = SignInForm()
    status = 200
    if form.validate_on_submit():
        throttle, address = sign_in_throttle(), request.remote_addr or ""
        now_us = int(runtime().now().timestamp() * 1_000_000)
        refusal = throttle.refusal_before_checking(form.email.data, address, now_us)
        user = None if refusal else signin.authenticate(form.email.data, form.password.data)
        if user is not None:
            throttle.ceiling_reached(form.email.data, now_us)  # counted; a right password passes it
            sign_in(user)
            current_app.logger.info("console sign-in user=%s", user.id)
            return redirect(safe_next(request.args.get("next")) or url_for("signin.home"))
        refusal = refusal or throttle.ceiling_reached(form.email.data, now_us)
        if refusal:
            current_app.logger.warning("console sign-in throttled address=%s", address)
            form.form_errors.append(_try_again_in(refusal))
            status = 429
        else:
            form.form_errors.append(SIGN_IN_REFUSED)
            status = 401
    elif request.method == "POST":
        status = 400
    return render_template("console/sign_in.html", form=form), status


def _try_again_in(verdict):
    minutes = max(1, round(verdict.retry_after_seconds / 60))
    return ngettext("Too many sign-in attempts. Try again in %(num)d minute.",
                    "Too many sign-in attempts. Try again in %(num)d minutes.", minutes)


@bp.post("/console/sign-out", endpoint="sign_out")
def sign_out_page():
    sign_out()
    flash(_("You are signed out."), "info")
    return redirect(url_for("signin.sign_in"))


@bp.post("/console/language", endpoint="choose_language")
def choose_language():
    """The language switch of every page's header: a form, so only a POST with the
    session's CSRF token keeps a choice (a link, `?lang=`, shows one page in it)."""
    language = chosen(request.form.get("language"))
    if language is None:
        abort(400)
    return keep_language(language)


@bp.post("/console/company")
@signed_in
def switch_company():
    form = SwitchCompanyForm()
    form.company_id.choices = options((company.id, company.name_en) for _membership, company in g.memberships)
    if not form.validate_on_submit():
        abort(404)  # not one of the user's companies
    session["company_id"] = form.company_id.data
    return redirect(url_for("signin.home"))


@bp.route("/console/sandbox", methods=["GET", "POST"])
@signed_in
def sandbox_page():
    """Any signed-in user may make their one sandbox; it does not change their current
    company (Contract, Sandbox)."""
    form = SandboxForm()
    existing = access.sandbox_of(g.user)
    if existing is None and form.validate_on_submit():
        try:
            created = sandbox.create_sandbox(g.user, form.country.data, runtime())
        except DomainError as exc:
            flash(said(exc.message), "error")
        else:
            flash(_("Created %(name)s Switch to it to create sandbox keys.",
                    name=sentence(name_of(created, plain=True))), "success")
            return redirect(url_for("signin.sandbox_page"))
    return render_template("console/sandbox.html", form=form, sandbox=existing)


# ---- forgotten passwords ---------------------------------------------------------------

RESET_SENT = _l("If an account has this email, a link to set a new password is on its way. It works once, "
                "for 30 minutes. No email? Check the address, or ask your administrator.")


@bp.route("/console/forgot-password", methods=["GET", "POST"])
def forgot_password():
    """Ask for a reset link. The answer is the same whether or not the email has an
    account; asking is throttled like signing in."""
    form = ForgotPasswordForm()
    if not form.validate_on_submit():
        return render_template("console/forgot_password.html", form=form), 400 if request.method == "POST" else 200
    throttle, address = sign_in_throttle(), request.remote_addr or ""
    refusal = throttle.refusal_before_checking(form.email.data, address, int(runtime().now().timestamp() * 1_000_000))
    if refusal:
        form.form_errors.append(_try_again_in(refusal))
        return render_template("console/forgot_password.html", form=form), 429
    asked = signin.request_password_reset(form.email.data, runtime())
    if asked is not None:
        user, token = asked
        link = url_for("signin.reset_password", token=token, _external=True)
        try:
            # Their chosen language; until they choose one, the page's they asked from.
            mailer().send(user.email, *password_reset_email(
                link, int(signin.RESET_LIFETIME.total_seconds() // 60), user.language or current_language()))
        except OSError as exc:  # SMTP down or refusing: logged; the answer stays the same
            current_app.logger.error("password reset email to user=%s not sent: %s", user.id, exc)
        current_app.logger.info("password reset asked user=%s", user.id)
    flash(str(RESET_SENT), "info")  # the page's language; a lazy string is not kept
    return redirect(url_for("signin.sign_in"))


@bp.route("/console/reset-password/<token>", methods=["GET", "POST"])
def reset_password(token):
    form = ResetPasswordForm()
    if not signin.reset_link_holds(token, runtime()):
        return render_template("console/reset_password.html", form=None), 410
    if form.validate_on_submit():
        if form.password.data != form.again.data:
            form.again.errors.append(_("The two passwords differ."))
        else:
            try:
                user = signin.reset_password(token, form.password.data, runtime())
            except ValidationFailed as exc:
                form.password.errors.extend(said(message) for _path, message in exc.errors)
            except DomainError as exc:
                flash(said(exc.message), "error")
                return redirect(url_for("signin.forgot_password"))
            else:
                current_app.logger.info("password reset used user=%s", user.id)
                sign_out()
                flash(_("Your new password is set, and every session you had is ended. Sign in with it."), "success")
                return redirect(url_for("signin.sign_in"))
    status = 422 if request.method == "POST" else 200
    return render_template("console/reset_password.html", form=form), status
