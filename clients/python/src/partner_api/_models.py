"""What the API answers, as objects with attributes: money as `Decimal`, times as
`datetime`, dates as `date`; fields and enum values this version does not know are kept
as they came (the API adds them without notice, Contract, Versioning 5)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import Any

MONEY = frozenset({"amount", "debit", "credit", "gross", "deductions", "net", "employer_contributions",
                   "total_cost", "provisions"})
DATES = frozenset({"date", "hire_date", "termination_date", "accounting_date", "start_date", "end_date", "as_of"})
DAYS = frozenset({"accrued_days", "taken_days", "balance_days"})  # numbers with 2 decimals, held exactly


class Model:
    """One object of an answer: `run.totals.net` (a Decimal), `run.journal_entries[0].lines`,
    `employee.hire_date` (a date); `model["field"]` for a name Python cannot spell, and
    `to_dict()` for the JSON as it came."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            return convert(name, self._data[name])
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str) -> Any:
        return convert(name, self._data[name])

    def __contains__(self, name: object) -> bool:
        return name in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Model) and other._data == self._data

    def __hash__(self) -> int:
        return hash(repr(sorted(self._data)))

    def __repr__(self) -> str:
        return f"Model({self._data!r})"

    def to_dict(self) -> dict[str, Any]:
        return self._data


def convert(name: str, value: Any) -> Any:
    """A field's value as Python holds it best, by what the field is."""
    if isinstance(value, dict):
        return Model(value)
    if isinstance(value, list):
        return [convert(name, item) for item in value]
    if name in DAYS and isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    if not isinstance(value, str):
        return value
    if name in MONEY:
        return Decimal(value)
    if name.endswith("_at") or name in ("clock_in", "clock_out"):
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    if name in DATES:
        return date.fromisoformat(value)
    return value
