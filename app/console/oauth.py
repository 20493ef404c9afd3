"""The OAuth consent page (preview): `GET /oauth/authorize` shows it, the form posts back.

Authlib's authorization server (app/oauth/server.py) checks the request. An unknown
`client_id` or a `redirect_uri` not registered exactly is shown here as an error page,
never redirected; any other error after that goes back to the redirect URI with the
RFC 6749 error and `state`. A visitor who is not signed in signs in first and comes
back to the same request. The page names the app, its organisation and mode, the scopes
in words, and offers the companies where the user holds integrations.manage and the app
may connect; Approve redirects with a code, Decline with `error=access_denied`. A user
who manages no such company is told why, and "Back to the app" sends `unauthorized_client`.
"""

from urllib.parse import urlsplit

from authlib.oauth2.rfc6749.errors import OAuth2Error
from flask import abort, current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from app.console.common import SECURITY_HEADERS, console_blueprint
from app.console.scopes import NEVER_SHARED, SCOPE_WORDS
from app.domain.oauth import connections
from app.extensions import oauth_server

bp = console_blueprint("console_oauth")

# Why a request could not be shown, in our words and the reader's language (Authlib's own
# sentences are English; the log keeps them, for the operator and the app's developer).
REFUSALS = {
    "invalid_client": _l("The app it names (client_id) is not registered here."),
    "unauthorized_client": _l("The app may not ask for this."),
    "invalid_scope": _l("It asks for access this service does not give."),
    "unsupported_response_type": _l("It asks in a way this service does not take (response_type must be code)."),
}


def _refusal(error: OAuth2Error) -> str:
    """What the consent page says of a request it cannot show."""
    described = (error.description or "").lower()
    if "redirect" in described:  # Authlib's "Redirect URI ... is not supported", "Missing 'redirect_uri'", ours
        return _("The address it asks to come back to (redirect_uri) is not one the app registered.")
    if "client_id" in described:  # "Missing 'client_id' parameter.", "Multiple 'client_id' in request."
        return _("It does not name the app once (client_id is missing or repeated).")
    return str(REFUSALS.get(error.error, _l("It is incomplete or malformed.")))

@bp.route("/oauth/authorize", methods=["GET", "POST"])
def authorize():
    if not current_app.config["OAUTH_PREVIEW"]:
        abort(404)
    server = oauth_server()
    try:
        grant = server.get_consent_grant(end_user=g.user)
    except OAuth2Error as error:
        sent_back = server.send_back(error)  # the client and redirect URI are valid: the error goes back
        if sent_back is not None:
            return sent_back
        current_app.logger.info("oauth authorize refused: %s %s", error.error, error.description)
        why = _refusal(error)
        return render_template("console/error.html", status=400,
                               message=_("This app's request cannot be shown: %(why)s Nothing was shared. Tell "
                                         "the app's developer.", why=why)), 400
    if g.user is None:
        return redirect(url_for("signin.sign_in", next=request.full_path.rstrip("?")))
    app = grant.request.client.app
    offered = connections.companies_to_offer(app, g.user)
    if request.method == "POST":
        decision = request.form.get("decision")
        if decision == "unreachable" and not offered:  # "Back to the app": it learns why
            return server.create_authorization_response(grant=grant, grant_user=(g.user, None))
        if decision != "approve":
            return server.create_authorization_response(grant=grant, grant_user=None)
        # A company the user manages; one the app may not reach goes back as unauthorized_client.
        managed = connections.companies_managed_by(g.user)
        company = next((c for c in managed if c.id == request.form.get("company_id")), None)
        if company is None:
            abort(400)
        current_app.logger.info("oauth approved app=%s company=%s user=%s", app.id, company.id, g.user.id)
        return server.create_authorization_response(grant=grant, grant_user=(g.user, company))
    scopes = (grant.request.payload.scope or "").split() or app.scopes.split()
    response = current_app.make_response(render_template(
        "console/consent.html", app=app, organisation=app.organisation, offered=offered,
        scopes=[(scope, SCOPE_WORDS.get(scope, scope)) for scope in scopes], never_shared=NEVER_SHARED))
    # The form's answer is a redirect to the app: the page may send the browser there.
    origin = urlsplit(grant.request.payload.redirect_uri)
    response.headers["Content-Security-Policy"] = SECURITY_HEADERS["Content-Security-Policy"].replace(
        "form-action 'self'", f"form-action 'self' {origin.scheme}://{origin.netloc}")
    return response
