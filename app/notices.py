"""What the service tells people by email, written in each one's language (the one they
chose in the console; English until they choose): a password reset link, and an endpoint
failing, disabled or gone. The texts are app/templates/email/*.txt, in the catalogs."""

from flask import render_template
from flask_babel import gettext as _

from app.domain.kernel.clock import format_utc
from app.domain.webhooks.endpoints import EndpointNotice
from app.i18n import written_in


def password_reset_email(link: str, minutes: int, language: str | None) -> tuple[str, str]:
    """(subject, body) of the email with a link to set a new console password."""
    with written_in(language):
        return (_("Set a new console password"),
                render_template("email/password_reset.txt", link=link, minutes=minutes))


def endpoint_notice_email(notice: EndpointNotice, language: str | None) -> tuple[str, str]:
    """(subject, body) telling an owner that an endpoint is failing, disabled or gone."""
    with written_in(language):
        subject = {"gone": _("Webhook endpoint gone: %(url)s", url=notice.url),
                   "disabled": _("Webhook endpoint disabled: %(url)s", url=notice.url)}.get(
            notice.kind, _("Webhook endpoint failing: %(url)s", url=notice.url))
        since = format_utc(notice.failing_since) if notice.failing_since else _("recently")
        return subject, render_template("email/endpoint_notice.txt", kind=notice.kind, endpoint_id=notice.endpoint_id,
                                        url=notice.url, since=since)
