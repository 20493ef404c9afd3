"""The console's two languages, Arabic and English (Flask-Babel; catalogs in
app/translations, made and checked as docs/contributing/translations.md says).

A page's language is the first of: `?lang=ar|en` on any console page (that page only:
a GET changes nothing), the signed-in user's choice (their profile, so it follows them
to another browser), the choice kept in this browser's cookie, the browser's
Accept-Language, English. A choice is kept only by the switch in every page's header, a
form POSTed with the session's CSRF token (app/console/signin.py, choose_language).
Emails to a person are written in their choice (English until they make one). The
partner API is never translated: its problems stay English, and clients branch on `code`.

Numbers and money are written with Babel for the page's language, always in the digits
0-9 (CLDR's `ar`; docs/operators/commands.md, "In Arabic and English", says why), money
with its currency's decimals.
"""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal

from babel.dates import format_datetime
from babel.numbers import format_currency, format_decimal
from flask import Flask, Response, current_app, g, request
from flask_babel import Babel, LazyString, force_locale, get_locale, gettext
from markupsafe import Markup, escape

from app.domain.access.users import LANGUAGES
from app.domain.kernel.money import format_minor, minor_digits

RIGHT_TO_LEFT = frozenset({"ar"})
COOKIE = "console_lang"
COOKIE_SECONDS = 365 * 24 * 3600
# The language each page is written in, by its name in that language (the switch).
NAMES = {"en": "English", "ar": "العربية"}
ARABIC_LETTER = re.compile("[\u0600-\u06ff]")
# English keeps the console's ISO-like stamp; Arabic writes the month's name.
DATE_TIME_FORMATS = {"en": "yyyy-MM-dd HH:mm", "ar": "d MMM y، HH:mm"}


def register(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=page_language)
    # `{% trans %}` blocks are read with their whitespace collapsed, as babel.cfg extracts them.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.add_template_global(name_of, "name_of")
    app.add_template_filter(as_stored, "as_stored")
    app.add_template_filter(as_id, "as_id")
    app.add_template_filter(as_typed, "as_typed")

    @app.context_processor
    def language_globals() -> dict[str, object]:
        language = current_language()
        return {"language": language, "text_direction": "rtl" if language in RIGHT_TO_LEFT else "ltr",
                "language_names": NAMES}


class _LazyText(LazyString):
    """Translated when shown, and escaped there like any other text: Flask-Babel's own
    lazy string counts as markup in a template, so "employees'" would go out unescaped."""

    def __html__(self) -> Markup:
        return escape(str(self))


def lazy_text(string: str, **variables: object) -> LazyString:
    """`string` in the language of the page it is shown on (form labels, constants): the
    console imports it as `_l`, which babel.cfg's extraction reads."""
    return _LazyText(gettext, string, **variables)


def chosen(value: str | None) -> str | None:
    """`value` if it names one of the console's languages."""
    return value if value in LANGUAGES else None


def page_language() -> str:
    """The language of this request's page (Flask-Babel's locale selector)."""
    if not request:
        return "en"
    user = g.get("user")
    return (chosen(request.args.get("lang")) or chosen(getattr(user, "language", None))
            or chosen(request.cookies.get(COOKIE)) or request.accept_languages.best_match(LANGUAGES) or "en")


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else "en"


def keep_choice(response: Response, language: str) -> Response:
    """The browser keeps `language` as its choice (a year; the session cookie's rules)."""
    response.set_cookie(COOKIE, language, max_age=COOKIE_SECONDS, samesite="Lax", httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


@contextmanager
def written_in(language: str | None) -> Iterator[None]:
    """Text made inside is in `language` (a person's choice, English if none): emails."""
    with force_locale(chosen(language) or "en"):
        yield


def number(value: int | Decimal | float, decimals: int | None = None) -> str:
    """`value` written for the page's language, grouped, with `decimals` places if given."""
    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=current_language())


def amount(amount_minor: int, currency: str, grouped: bool = True) -> str:
    """Minor units in `currency` as a figure with its decimals (KWD 3, SAR 2): grouped for
    reading in the page's language, or bare as a form field holds it (`grouped=False`)."""
    if not grouped:
        return format_minor(amount_minor, currency)
    places = minor_digits(currency)
    return number(Decimal(amount_minor).scaleb(-places), places)


def money(amount_minor: int, currency: str) -> str:
    """Minor units in `currency`, with its decimals: "1,250.500 KWD" on an English page,
    "1,250.500 د.ك." on an Arabic one."""
    language = current_language()
    if language == "en":
        return f"{amount(amount_minor, currency)} {currency}"
    places = minor_digits(currency)
    return format_currency(Decimal(amount_minor).scaleb(-places), currency, format="#,##0." + "0" * places + "\u00a0¤",
                           locale=language, currency_digits=False)


def date_time(moment: datetime) -> str:
    """An aware time, written for the page's language (in the time zone it carries)."""
    language = current_language()
    return format_datetime(moment, DATE_TIME_FORMATS.get(language, DATE_TIME_FORMATS["en"]), locale=language)


def as_stored(text: object) -> Markup:
    """Text kept as it was entered, in another language than the page's (an English
    name, an ID, a key, an email, a URL): isolated, left to right, read as English."""
    return Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(text)


# Unicode's isolates, as `said` and some catalog entries put an ID or a code inside a
# sentence of the other direction, and the markup that does the same on a page.
_ISOLATES = {"\u2066": 'dir="ltr"', "\u2067": 'dir="rtl"', "\u2068": ""}
_POP_ISOLATE = "\u2069"
_ISOLATE_CHARACTERS = re.compile("[\u2066-\u2069]")
_TAG = re.compile(r"(<[^>]*>)")
_AN_ID = re.compile(r"\S{1,40}")  # one short word (a staff number, an ID, a date): kept on one line


def isolated(text: object) -> Markup:
    """`text` for a page, its isolate characters (U+2066..2069) turned into <bdi> markup:
    the same reading order, and no invisible character copied with an ID (pasted into a
    search box, it would find nothing). An isolated ID gets class `id` (never broken
    across lines). In Markup, only the text between tags is read; in a tag they are dropped."""
    if isinstance(text, Markup):
        parts = _TAG.split(str(text))
    else:
        parts = [str(escape(str(text)))]
    out: list[str] = []
    depth = 0
    for n, part in enumerate(parts):
        if n % 2:  # a tag of the Markup
            out.append(_ISOLATE_CHARACTERS.sub("", part))
            continue
        for i, character in enumerate(part):
            if character in _ISOLATES:
                inside = part[i + 1:].split(_POP_ISOLATE, 1)[0]
                kind = ' class="id"' if _AN_ID.fullmatch(_ISOLATE_CHARACTERS.sub("", inside)) else ""
                out.append(f"<bdi{' ' if _ISOLATES[character] else ''}{_ISOLATES[character]}{kind}>")
                depth += 1
            elif character == _POP_ISOLATE:
                if depth:
                    out.append("</bdi>")
                    depth -= 1
            else:
                out.append(character)
    return Markup("".join(out) + "</bdi>" * depth)


def as_id(text: object) -> Markup:
    """An identifier (a staff number, a code) as stored: isolated left to right like
    `as_stored`, and never broken across lines (SBX- / 001 reads as two things)."""
    return Markup('<bdi lang="en" dir="ltr" class="id">{}</bdi>').format(text)


def as_typed(text: object) -> Markup:
    """Free text as a person typed it (a job title, a department), in either script:
    isolated, and marked as English when it holds no Arabic letter."""
    if text is None or text == "":
        return Markup("")
    if ARABIC_LETTER.search(str(text)):
        return Markup('<bdi lang="ar">{}</bdi>').format(text)
    return as_stored(text)


def name_of(record: object, plain: bool = False) -> Markup | str:
    """A record's name (a company, entity, employee, pay component; a model or an API
    dict) for the page: on an Arabic page its Arabic name where it has one, otherwise its
    English name, marked as English. `plain`: the bare text, for where no markup may go
    (an <option>, an attribute)."""
    def field(name: str) -> object:
        return record.get(name) if isinstance(record, dict) else getattr(record, name, None)

    arabic, english = field("name_ar"), field("name_en") or field("name") or ""
    language = current_language()
    if language == "ar" and arabic:
        return str(arabic) if plain else Markup("<bdi>{}</bdi>").format(arabic)
    if plain:
        return str(english)
    return as_stored(english) if language != "en" else Markup("<bdi>{}</bdi>").format(english)
