"""What the service tells people by email, written in each one's language (the one they
chose in the console; until they choose, a reset link is in the language of the page they
asked from, and a notice in English): a password reset link, and an endpoint failing,
disabled or gone. The texts are app/templates/email/*.txt, in the catalogs."""

from datetime import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from flask import render_template
from flask_babel import gettext as _

from app.domain.kernel.countries import COUNTRIES
from app.domain.webhooks.endpoints import EndpointNotice
from app.i18n import current_language, name_of, written_in

EMAIL_TIME_FORMATS = {"en": "d MMMM y, HH:mm", "ar": "d MMMM y، HH:mm"}  # a date written out, not an API's


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
        since = _local(notice.failing_since, notice) if notice.failing_since else _("recently")
        return subject, render_template("email/endpoint_notice.txt", kind=notice.kind, endpoint_id=notice.endpoint_id,
                                        url=notice.url, since=since)


def _local(moment: datetime, notice: EndpointNotice) -> str:
    """`moment` as the company's people read a time: in its time zone, written out in the
    recipient's language, saying whose time (`26 November 2026, 17:38 (Kuwait time)`)."""
    local = moment.astimezone(ZoneInfo(notice.timezone))
    language = current_language()
    when = format_datetime(local, EMAIL_TIME_FORMATS.get(language, EMAIL_TIME_FORMATS["en"]), locale=language)
    country = COUNTRIES.get(notice.country or "")
    if country is not None and country.timezone == notice.timezone:
        return _("%(when)s (%(place)s time)", when=when, place=name_of(country, plain=True))
    return f"{when} ({notice.timezone})"
