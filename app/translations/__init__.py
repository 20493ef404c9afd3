"""The console's catalogs, `<language>/LC_MESSAGES/messages.po` (what translators edit)
and `.mo` (what the app reads), made from the strings babel.cfg names.

    python -m app.translations update   extract, update both catalogs (English is its
                                        own msgid), compile; then translate what is new
                                        in ar/LC_MESSAGES/messages.po and run it again
    python -m app.translations check    what tests/unit/test_catalogs.py asserts

docs/contributing/translations.md says how to add a string.
"""

import io
import tempfile
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
LANGUAGES = ("ar", "en")
# What marks a string for translation, beside gettext's own names (Words: the domain's).
KEYWORDS = ("_", "gettext", "ngettext:1,2", "lazy_gettext", "_l", "lazy_ngettext:1,2", "Words")


def po_path(language: str, folder: Path = HERE) -> Path:
    return folder / language / "LC_MESSAGES" / "messages.po"


def extracted() -> Catalog:
    """Every marked string in the console's code and templates, as babel.cfg finds them."""
    with tempfile.TemporaryDirectory() as folder:
        template = Path(folder) / "messages.pot"
        _babel("extract", "-F", str(ROOT / "babel.cfg"), "--no-location", "--sort-output",
               *[f"-k{keyword}" for keyword in KEYWORDS], "-o", str(template), str(ROOT))
        with template.open("rb") as source:
            return read_po(source)


def read(language: str, folder: Path = HERE) -> Catalog:
    with po_path(language, folder).open("rb") as source:
        return read_po(source, locale=language)


def update() -> None:
    template = extracted()
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            catalog = read(language)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="Partner API console", fuzzy=False)
            for message in template:
                if message.id:
                    catalog.add(message.id, context=message.context)
        if language == "en":
            for message in catalog:
                if message.id:
                    message.string = message.id
        _write(catalog, path)


def compiled(language: str, folder: Path = HERE) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, read(language, folder), use_fuzzy=False)
    return buffer.getvalue()


def _write(catalog: Catalog, path: Path) -> None:
    with path.open("wb") as target:
        write_po(target, catalog, width=100, sort_output=True, omit_header=False, no_location=True)
    path.with_suffix(".mo").write_bytes(compiled(path.parts[-3]))


def problems(folder: Path = HERE) -> Iterator[str]:
    """What is wrong with the catalogs in `folder`: a string not in them, an entry
    untranslated, fuzzy or left over, a .mo that is not its .po compiled."""
    wanted = {message.id for message in extracted() if message.id}
    for language in LANGUAGES:
        catalog = read(language, folder)
        held = {message.id for message in catalog if message.id}
        for missing in sorted(wanted - held, key=str):
            yield f"{language}: not in the catalog: {missing!r}"
        for extra in sorted(held - wanted, key=str):
            yield f"{language}: no longer in the code: {extra!r}"
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if not all(strings):
                yield f"{language}: untranslated: {message.id!r}"
            if message.fuzzy:
                yield f"{language}: fuzzy: {message.id!r}"
        mo = po_path(language, folder).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(language, folder):
            yield f"{language}: {mo.name} is not its .po compiled (run: python -m app.translations update)"


def _babel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "--quiet", *args])
