"""Domain exceptions. `app/api/problems.py` maps each to its problem response.

A refusal's words are English: the API answers them, and logs read them. Written as
`Words(template, **values)` they are still that English text (a `str`), and they also
keep their template and values, so the console can say them in its page's language from
its catalogs (babel.cfg extracts `Words(...)` from the domain).
"""

from collections.abc import Iterable
from typing import Self


class Words(str):
    """`template % values`, as text; `template` and `values` kept for a translation.
    Values are named: `Words("%(value)r is listed twice", value=value)`."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Self:
        said = super().__new__(cls, template % values if values else template)
        said.template, said.values = template, values
        return said


class DomainError(Exception):
    code = "invalid_request"

    def __init__(self, message: str = "", **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotFound(DomainError):
    code = "not_found"


class Conflict(DomainError):
    code = "conflict"


class ValidationFailed(DomainError):
    """Input that parsed but breaks a rule. `errors` is a list of (path, message)."""

    code = "validation_failed"

    def __init__(self, message: str = "", errors: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.errors = list(errors)
