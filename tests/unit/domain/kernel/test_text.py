"""The one rule for text no database can store (app/domain/kernel/text.py)."""

from hypothesis import given
from hypothesis import strategies as st

from app.domain.kernel.text import first_unstorable, printable, text_problem


@given(st.text())
def test_text_is_storable_unless_it_holds_a_nul_or_a_lone_surrogate(text):
    # Hypothesis's text() is valid Unicode: only a NUL can make it unstorable.
    assert (text_problem(text) is None) == ("\x00" not in text)


def test_each_refusal_says_what_is_wrong():
    assert text_problem("a\x00b") == "contains a NUL character"
    assert "lone surrogate" in text_problem("https://x.example/\ud800")
    assert text_problem("رواتب 𝔘") is None


def test_the_first_unstorable_field_is_named_printably():
    assert first_unstorable({"name": "ok", "tags": ["fine", "bad\x00"]}) == ("tags", "contains a NUL character")
    assert first_unstorable([("na\x00me", "ok")]) == ("name", "contains a NUL character")
    assert first_unstorable([("a", "b"), ("c", 3)]) is None
    assert printable("\udcffab\x00c") == "abc"
