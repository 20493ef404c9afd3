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
TAGS = re.compile(r'<bdi(?: dir="(?:ltr|rtl)")?(?: class="id")?>|</bdi>')
some_text = st.text(alphabet=st.sampled_from("ab<>&\"' ٢ع\u2066\u2067\u2068\u2069\u200f"), max_size=40)


def test_an_isolated_id_becomes_bdi_markup():
    assert isolated("لا يوجد موظف \u2066emp_1\u2069") == 'لا يوجد موظف <bdi dir="ltr" class="id">emp_1</bdi>'
    assert isolated("\u2067ع\u2069 \u2068x\u2069") == '<bdi dir="rtl" class="id">ع</bdi> <bdi class="id">x</bdi>'
    assert isolated("<b>\u2066x") == '&lt;b&gt;<bdi dir="ltr" class="id">x</bdi>'  # escaped; an open one closed
    # Only a short word is an ID kept on one line: a sentence or a long value may wrap.
    assert isolated("\u2066a host name\u2069") == '<bdi dir="ltr">a host name</bdi>'
    assert isolated("\u2066" + "h" * 41 + "\u2069") == '<bdi dir="ltr">' + "h" * 41 + "</bdi>"


def test_markup_is_read_between_its_tags_and_an_isolate_inside_a_tag_is_dropped():
    assert isolated(Markup("<code>\u2066x\u2069</code>")) == '<code><bdi dir="ltr" class="id">x</bdi></code>'
    given = Markup('<a title="{}">{}</a>').format("\u2066x\u2069", "\u2066emp_1\u2069")
    assert isolated(given) == '<a title="x"><bdi dir="ltr" class="id">emp_1</bdi></a>'


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


def test_a_pasted_id_is_read_without_its_direction_marks():
    assert without_direction_marks("\u2066emp_1\u2069") == "emp_1"
    assert without_direction_marks("\u200fSBX-001\u200e \u061c\u202bأحمد\u202c") == "SBX-001 أحمد"
