"""The console's catalogs hold every string it shows, translated (issue 37): a string a
template or view marks but the catalogs lack, an Arabic entry untranslated or fuzzy, a
compiled catalog behind its .po, or text a template holds outside the catalogs fails here.
"""

import ast
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import write_po
from jinja2 import Environment
from jinja2.ext import i18n as i18n_extension

from app import translations

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted([*(ROOT / "app/console/templates").rglob("*.html"), *(ROOT / "app/templates/email").rglob("*.txt")])
CONSOLE_CODE = sorted((ROOT / "app/console").glob("*.py")) + [ROOT / "app/notices.py"]
# Attributes a person reads or hears.
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "data-confirm"}
# Elements whose text is code, shown as it is in any language.
CODE_ELEMENTS = {"code", "kbd", "samp", "script", "style"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
COUNTS = {"num", "limit"}  # what a plural message counts by: Arabic's one and two forms say it in words
TAG = re.compile(r"</?([a-zA-Z][\w-]*)")


def test_every_marked_string_is_in_both_catalogs_translated_and_compiled():
    assert list(translations.problems()) == []


def test_an_arabic_translation_keeps_every_placeholder_and_tag_of_its_english():
    for message in translations.read("ar"):
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted_names = set(PLACEHOLDER.findall(sources[-1])) - COUNTS
        wanted_tags = sorted(TAG.findall(sources[0]))
        for string in strings:
            assert wanted_names <= set(PLACEHOLDER.findall(string)), (message.id, string)
            assert sorted(TAG.findall(string)) == wanted_tags, (message.id, string)


class _Text(HTMLParser):
    """The words a page's raw HTML (the template with its Jinja taken out) shows."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words, self._inside_code = [], 0

    def handle_starttag(self, tag, attrs):
        self._inside_code += tag in CODE_ELEMENTS
        self.words += [value for name, value in attrs if name in READ_ATTRIBUTES and value and _has_words(value)]

    def handle_endtag(self, tag):
        self._inside_code -= tag in CODE_ELEMENTS and self._inside_code > 0

    def handle_data(self, data):
        if not self._inside_code and _has_words(data):
            self.words.append(data.strip())


def _has_words(text):
    return re.search(r"[A-Za-z]{2,}", text) is not None


def _outside_jinja(source):
    """The template's own text: Jinja's expressions, tags and comments, and what a
    {% trans %} block holds (the catalogs' text), each become a space."""
    kept, translating, previous = [], False, None
    for _, kind, value in Environment(extensions=[i18n_extension]).lex(source):
        if kind == "name" and previous == "block_begin":
            translating = value == "trans" or (translating and value != "endtrans")
        kept.append(value if kind == "data" and not translating else " ")
        previous = kind if kind != "whitespace" else previous
    return "".join(kept)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_a_template_shows_no_text_the_catalogs_do_not_hold(template):
    source = _outside_jinja(template.read_text())
    if template.suffix == ".txt":
        words = [line.strip() for line in source.splitlines() if _has_words(line)]
    else:
        parser = _Text()
        parser.feed(source)
        words = parser.words
    assert words == [], f"{template.name}: text outside the catalogs: {words}"


def _said(call):
    """A flash message or error given as a bare string or an f-string, not through gettext."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if name not in {"flash", "_render_error", "append"} or not call.args:
        return None
    told = call.args[-1] if name == "_render_error" else call.args[0]
    errors = isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Attribute) \
        and call.func.value.attr.endswith("errors")
    if name == "append" and not errors:
        return None
    if isinstance(told, ast.JoinedStr) or (isinstance(told, ast.Constant) and isinstance(told.value, str)):
        return ast.unparse(told)
    return None


@pytest.mark.parametrize("module", CONSOLE_CODE, ids=lambda path: path.name)
def test_a_console_view_says_nothing_outside_the_catalogs(module):
    tree = ast.parse(module.read_text())
    bare = [said for node in ast.walk(tree) if isinstance(node, ast.Call) and (said := _said(node))]
    assert bare == [], f"{module.name}: messages outside the catalogs: {bare}"


def test_the_check_finds_what_it_is_for(tmp_path):
    """The checks above fail on what they are for, not only pass."""
    parser = _Text()
    parser.feed(_outside_jinja('<p>{{ _("Kept") }} Left out {% trans %}In{% endtrans %}</p>'
                               '<button aria-label="Close">x</button><code>svc_x</code>'))
    assert parser.words == ["Left out", "Close"]
    call = ast.parse('flash(f"Created {name}.", "success")').body[0].value
    assert _said(call) == "f'Created {name}.'"
    shutil.copytree(translations.HERE, tmp_path, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.py"))
    catalog = translations.read("ar", tmp_path)
    first, second = [message for message in catalog if message.id][:2]
    first.string, second.flags = "", {"fuzzy"}
    catalog.add("A string no code has", "نص")
    with translations.po_path("ar", tmp_path).open("wb") as target:
        write_po(target, catalog)
    found = "\n".join(translations.problems(tmp_path))
    for expected in (f"untranslated: {first.id!r}", f"fuzzy: {second.id!r}", "no longer in the code: 'A string",
                     "messages.mo is not its .po compiled"):
        assert expected in found


GLOSSARY = json.loads((ROOT / "app/translations/glossary.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("term", GLOSSARY["terms"], ids=lambda term: term["english"][0])
def test_the_arabic_catalog_says_each_glossary_term_one_way(term):
    """Every Arabic message about a glossary term (its English words in the msgid) uses
    one of the term's Arabic words and none of those it must never use."""
    about = re.compile(r"\b(" + "|".join(term["english"]) + r")\b", re.IGNORECASE)
    found = 0
    for message in translations.read("ar"):
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not message.id or not about.search(" ".join(sources)):
            continue
        found += 1
        said = " ".join(strings)
        assert not [word for word in term["never"] if word in said], (sources[0], said, term["why"])
        assert any(word in said for word in term["arabic"]), (sources[0], said, term["arabic"])
    assert found, f"no message is about {term['term']}: the glossary's English words are stale"


def test_arabic_says_one_and_two_in_words_never_a_digit_before_a_dual():
    """Issue 50: «بعد 2 دقيقتين» put a digit before a dual. Arabic's one and two forms
    (plural forms 1 and 2) say the count in the noun: «دقيقة واحدة», «دقيقتين»."""
    for message in translations.read("ar"):
        if isinstance(message.id, tuple):
            for form in message.string[1:3]:
                assert not COUNTS & set(PLACEHOLDER.findall(form)), (message.id[0], form)


def test_arabic_quotes_with_guillemets():
    """Issue 50: English curly quotes do not mirror, so on a right-to-left page “name”
    opened where it should close. Arabic quotes «like this»."""
    for message in translations.read("ar"):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            assert not set("“”") & set(string), (message.id, string)


def test_no_arabic_message_is_empty_or_fuzzy():
    for message in translations.read("ar"):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings) and not message.fuzzy, message.id
