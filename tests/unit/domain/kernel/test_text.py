"""The rules for text (app/domain/kernel/text.py): what no database can store, what one
line of text (a name, a title, a code) may not hold, and numbers in the digits 0-9."""

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from app.domain.kernel.text import (
    ascii_digits,
    ascii_int,
    first_unstorable,
    foreign_digit,
    line_problem,
    not_in_a_line,
    printable,
    text_problem,
)

# What the rule names, spelt independently of the module: Unicode's control characters and
# surrogates, the line and paragraph separators, the bidirectional embeddings, overrides and
# isolates, and U+FEFF.
BIDI = {chr(code) for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def refused(character):
    return (unicodedata.category(character) in ("Cc", "Cs", "Zl", "Zp") or character in BIDI
            or character == "\ufeff")


# Every character Unicode has (surrogates included), and, more often, the ones at the edges.
EDGES = [*sorted(BIDI), *("\t", "\n", "\r", "\x0b", "\x1f", "\x7f", "\x80", "\x85", "\x9f", "\xa0", "\u061c",
                 "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u2065", "\u206a",
                 "\ufeff", "\ud800", "\udfff", "\x00", "ا", "a", " ")]
ANY_TEXT = st.text(st.one_of(st.characters(codec=None, exclude_categories=()), st.sampled_from(EDGES)))


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


@given(ANY_TEXT)
@example("Huda\u202e")
@example("Finance\r\nX-Injected: 1")
@example("\u200fهدى كريم\u200e (HR)")
def test_a_line_is_accepted_exactly_when_it_holds_no_refused_character(text):
    accepted = not any(refused(ch) for ch in text)
    assert (line_problem(text) is None) == accepted
    assert (not_in_a_line(text) is None) == accepted
    if not accepted:
        assert refused(not_in_a_line(text)) and text.index(not_in_a_line(text)) == min(
            i for i, ch in enumerate(text) if refused(ch))


def test_every_code_point_alone_is_judged_by_the_rule():
    wrong = [f"U+{code:04X}" for code in range(0x110000)
             if (line_problem(f"a{chr(code)}b") is None) == refused(chr(code))]
    assert wrong == []


@pytest.mark.parametrize("text, said", [
    ("Huda\nKareem", "contains a line break (U+000A); it must be a single line"),
    ("Huda\r", "contains a line break (U+000D); it must be a single line"),
    ("Huda\u2028Kareem", "contains a line break (U+2028); it must be a single line"),
    ("Huda\x85", "contains a line break (U+0085); it must be a single line"),
    ("gnp\u202e.exe", "contains U+202E, a bidirectional control that changes the order text is shown in "
                      "(the marks U+200E and U+200F are allowed)"),
    ("\u2067Huda\u2069", "contains U+2067, a bidirectional control that changes the order text is shown in "
                         "(the marks U+200E and U+200F are allowed)"),
    ("Huda\tKareem", "contains U+0009, an invisible control character"),
    ("\ufeffHuda", "contains U+FEFF, an invisible control character"),
    ("Huda\x9b", "contains U+009B, an invisible control character"),
    ("Huda\x00", "contains a NUL character"),
    ("Huda\udc80", "is not valid Unicode text (it holds a lone surrogate)"),
])
def test_each_refused_character_is_named_by_its_code_point(text, said):
    assert line_problem(text) == said


@pytest.mark.parametrize("text", [
    "\u200fهدى كريم\u200e", "مدير \u061cالموارد", "Huda Kareem-Al Sabah", "می\u200cخواهم", "👩\u200d💻",
    "Gulf Trading Co.", "Zoë O’Brien", "\u00a0", "٢٠٢٦",
])
def test_the_marks_joiners_and_any_script_are_a_line(text):
    assert line_problem(text) is None


@given(ANY_TEXT)
@example("٢٠٢٦")
@example("1²")
def test_ascii_digits_are_the_digits_0_to_9_and_nothing_else(text):
    assert ascii_digits(text) == (text != "" and all(ch in "0123456789" for ch in text))


@pytest.mark.parametrize("text, number", [
    ("2026", 2026), ("007", 7), ("٢٠٢٦", None), ("1²", None), ("1_0", None), (" 1", None), ("+1", None),
    ("-1", None), ("", None), ("9" * 18, 10**18 - 1), ("9" * 19, None), (12, None), (None, None),
])
def test_a_whole_number_is_read_only_from_the_digits_0_to_9(text, number):
    assert ascii_int(text) == number


@pytest.mark.parametrize("text, found", [
    ("2026-11-01", None), ("٢٠٢٦-11-01", "٢"), ("2026-1²", "²"), ("۲۰۲۶", "۲"), ("½", "½"), ("Huda", None),
])
def test_a_foreign_digit_is_found_wherever_it_is(text, found):
    assert foreign_digit(text) == found
