"""Domain exceptions. `app/api/problems.py` maps each to its problem response."""

from collections.abc import Iterable


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
