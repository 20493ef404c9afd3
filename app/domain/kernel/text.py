"""Text a database can store, and text that is one line, judged where it enters (API
body, form, query, CLI option).

PostgreSQL text holds no NUL, and a lone surrogate (JSON's "\\ud800", or a byte that is
not UTF-8 in a command-line argument) is not Unicode text at all: neither may reach a
query, or it fails there as a 500. Every entry point asks `text_problem` and refuses
with its own 4xx, naming the field.

A name, a title, a code or a URL is one line (`line_problem`): it reaches partners'
screens, webhook payloads, CSV journal files and logs as it is stored, so it holds no
character that breaks a line or a file's row, none that is invisible and not text, and
none that reorders how the text around it is shown (issue 46, part 5). Refused:

- every control character (Unicode category Cc): C0 (U+0000-U+001F: NUL, TAB, LF, CR...),
  DEL (U+007F) and C1 (U+0080-U+009F: NEL...);
- the line and paragraph separators U+2028 and U+2029 (a line break to Unicode, to
  `str.splitlines` and to older JavaScript);
- the bidirectional embeddings and overrides U+202A-U+202E and isolates U+2066-U+2069
  (an override makes "gnp.exe" display as "exe.png"; they are for a renderer to insert,
  not for stored data);
- U+FEFF (a byte order mark, invisible: a spreadsheet's BOM pasted into a cell);
- lone surrogates (U+D800-U+DFFF: not Unicode text; `text_problem`).

Allowed: everything else, among it the marks U+200E LEFT-TO-RIGHT MARK, U+200F
RIGHT-TO-LEFT MARK and U+061C ARABIC LETTER MARK (Arabic text mixed with Latin needs them,
and they reorder nothing beyond a neutral beside them), and the joiners U+200C and U+200D
(Persian spelling and emoji need them).

Numbers people type are written with the ASCII digits 0-9 (`ascii_digits`):
`str.isdigit()` and `int()` also take other scripts' digits ("٢٠٢٦"), `isdigit()`
superscripts ("²", which `int()` then refuses with a ValueError), and `int()` signs,
spaces and underscores. A month, an amount, a page number, a port are refused unless
their digits are 0-9, never stored in another script or parsed into a traceback.
"""

import re
from collections.abc import Iterable, Mapping

from app.domain.kernel.errors import Words

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Invisible marks that only steer the reading direction: the controls above, and the
# left-to-right, right-to-left and Arabic letter marks. Text copied from a page may hold them.
_DIRECTION_MARKS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
# What str.splitlines() breaks at: a line break wherever the text goes.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_NOT_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
_DIGITS = re.compile("[0-9]+")
MAX_DIGITS = 18  # a whole number typed by a person fits a signed 64-bit column with room


def without_direction_marks(value: str) -> str:
    """`value` with its invisible direction marks taken out: what a person meant to type
    when they pasted an ID copied from a right-to-left page."""
    return _DIRECTION_MARKS.sub("", value)


def text_problem(value: str) -> str | None:
    """Why `value` cannot be stored as text on every database, or None."""
    if "\x00" in value:
        return Words("contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return Words("is not valid Unicode text (it holds a lone surrogate)")
    return None


def not_in_a_line(value: str) -> str | None:
    """The first character of `value` that one line of text may not hold (see the module's
    docstring), or None."""
    found = _NOT_IN_A_LINE.search(value)
    return found.group() if found else None


def line_problem(value: str) -> str | None:
    """Why `value` cannot be one line of text (a name, a title, a code), or None: a NUL or
    a lone surrogate as `text_problem` says, else the first character refused, by its
    code point (it may be invisible)."""
    unstorable = text_problem(value)
    if unstorable is not None:
        return unstorable
    character = not_in_a_line(value)
    if character is None:
        return None
    code = f"U+{ord(character):04X}"
    if character in LINE_BREAKS:
        return Words("contains a line break (%(character)s); it must be a single line", character=code)
    if character in BIDI_CONTROLS:
        return Words("contains %(character)s, a bidirectional control that changes the order text is shown in "
                     "(the marks U+200E and U+200F are allowed)", character=code)
    return Words("contains %(character)s, an invisible control character", character=code)


def first_unstorable(fields: Mapping[str, object] | Iterable[tuple[str, object]]) -> tuple[str, str] | None:
    """The first (name, problem) among named values (strings, or lists of strings) that
    cannot be stored; None when every one can. A name that cannot be stored itself is
    reported with the problem character removed."""
    for name, value in (fields.items() if isinstance(fields, Mapping) else fields):
        for text in (value if isinstance(value, list | tuple) else [value]):
            for checked in (name, text):
                problem = text_problem(checked) if isinstance(checked, str) else None
                if problem is not None:
                    return printable(name), problem
    return None


def printable(text: str) -> str:
    """`text` with what an error message cannot carry (NUL, lone surrogates) removed."""
    return text.encode("utf-8", "ignore").decode("utf-8").replace("\x00", "")


def ascii_digits(text: object) -> bool:
    """Whether `text` is one or more of the digits 0-9 and nothing else (no sign, space,
    underscore, nor another script's digit)."""
    return isinstance(text, str) and _DIGITS.fullmatch(text) is not None


def ascii_int(text: object, *, max_digits: int = MAX_DIGITS) -> int | None:
    """`text` as a whole number when it is 1 to `max_digits` ASCII digits; else None."""
    if not ascii_digits(text) or len(str(text)) > max_digits:
        return None
    return int(str(text))


def foreign_digit(text: str) -> str | None:
    """The first character of `text` that Python counts as a digit or numeral but is not
    one of 0-9 ("٢", "۲", "²", "½"), or None: for text a parser reads whole (a date, a
    time) that would take "٢٠٢٦" as 2026."""
    return next((ch for ch in text if ch.isnumeric() and not ascii_digits(ch)), None)
