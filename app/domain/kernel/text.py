"""Text a database can store, judged where it enters (API body, form, query, CLI option).

PostgreSQL text holds no NUL, and a lone surrogate (JSON's "\\ud800", or a byte that is
not UTF-8 in a command-line argument) is not Unicode text at all: neither may reach a
query, or it fails there as a 500. Every entry point asks `text_problem` and refuses
with its own 4xx, naming the field.
"""

from collections.abc import Iterable, Mapping

from app.domain.kernel.errors import Words


def text_problem(value: str) -> str | None:
    """Why `value` cannot be stored as text on every database, or None."""
    if "\x00" in value:
        return Words("contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return Words("is not valid Unicode text (it holds a lone surrogate)")
    return None


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
