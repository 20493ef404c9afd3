"""The integrations console: server-rendered pages where a signed-in company user
creates and revokes API keys, makes their sandbox, and drives the HR actions.

    signin             sign in and out, the company switcher, "Create sandbox company"
    integrations       Partner API status, keys, a sandbox's "trigger event" panel
    webhooks           every endpoint, its delivery log; add one for a key, Send test,
                       Redeliver, Disable, Re-enable, Delete
    employees          employees: find, hire, edit, end employment, archive
    payroll_runs       payroll runs: draft, finalize, correct, delete, discard, WPS steps
    chart_of_accounts  the accounts journals post to, as mapped; expense splits
    books              paying what a run owes on a value date; closing the books
    journals           journal files: a run's, a legal entity's month (CSV, Xero, QuickBooks)
    attendance         days as partners read them, HR's punches, linking unmatched people
    leave              requests to decide, who is away in a month, recording a leave
    oauth              the OAuth consent page (preview): /oauth/authorize
    oauth_apps         the company's OAuth apps (preview): register, rotate the client secret

A signed-in browser holds a session kept on the server (app/models/sessions.py: the
cookie carries a random token, HttpOnly, SameSite=Lax, Secure in production), so
signing out or changing a password ends it at once; every POST carries a CSRF token;
sign-in attempts are throttled per email and address.
"""

from werkzeug.middleware.proxy_fix import ProxyFix

from app.console import (
    attendance,
    books,
    chart_of_accounts,
    employees,
    integrations,
    journals,
    leave,
    oauth,
    oauth_apps,
    payroll_runs,
    signin,
    webhooks,
)
from app.console.common import assets, csrf, register_filters


def register(app):
    csrf.init_app(app)
    hops = app.config["PROXY_HOPS"]
    if hops:
        # Behind the TLS proxy: the client's address (for throttling) and the https
        # scheme (for Secure cookies and CSRF's referrer check) come from its headers.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    for blueprint in (assets, signin.bp, integrations.bp, webhooks.bp, employees.bp, payroll_runs.bp,
                      chart_of_accounts.bp, books.bp, journals.bp, attendance.bp,
                      leave.bp, oauth.bp, oauth_apps.bp):
        app.register_blueprint(blueprint)
    register_filters(app)
