"""Isolating an ID inside a sentence of the other direction (issue 50): `said` and a few
catalog entries use Unicode's isolates; a page turns them into <bdi> markup, so nothing
invisible is copied with the ID, and the search ignores such marks when pasted anyway."""

import re

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from app.domain.kernel.text import without_direction_marks
from app.i18n import isolated

ISOLATE_CHARACTERS = re.compile("[\u2066-\u2069]")
TAGS = re.compile(r'<bdi(?: dir="(?:ltr|rtl)")?>|</bdi>')
some_text = st.text(alphabet=st.sampled_from("ab<>&\"' ٢ع\u2066\u2067\u2068\u2069\u200f"), max_size=40)


def test_an_isolated_id_becomes_bdi_markup():
    assert isolated("لا يوجد موظف \u2066emp_1\u2069") == 'لا يوجد موظف <bdi dir="ltr">emp_1</bdi>'
    assert isolated("\u2067ع\u2069 \u2068x\u2069") == '<bdi dir="rtl">ع</bdi> <bdi>x</bdi>'
    assert isolated("<b>\u2066x") == '&lt;b&gt;<bdi dir="ltr">x</bdi>'  # text is escaped, an open isolate closed
    assert isolated(Markup("<code>\u2066x\u2069</code>")) == '<code><bdi dir="ltr">x</bdi></code>'


@given(some_text)
def test_the_page_holds_no_isolate_character_the_same_text_and_balanced_tags(text):
    page = isolated(text)
    assert not ISOLATE_CHARACTERS.search(page)
    assert TAGS.sub("", page) == str(escape(ISOLATE_CHARACTERS.sub("", text)))
    opened = closed = 0
    for tag in TAGS.findall(page):
        opened, closed = (opened, closed + 1) if tag == "</bdi>" else (opened + 1, closed)
        assert closed <= opened
    assert opened == closed


@given(some_text)
def test_a_pasted_id_is_read_without_its_direction_marks(text):
    kept = without_direction_marks(text)
    assert not re.search("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]", kept)
    assert kept == "".join(ch for ch in text if ch not in "\u200e\u200f\u061c\u2066\u2067\u2068\u2069")
