"""A list's page as the domain reads it: its rows, and where the next page starts.

Lists are read by keyset: each row has a position in the list's order (a tuple of its
columns: a time, a date, a number, an id), and a page is the rows after a position. A
list function reads one row more than it shows, to know whether there is a next page;
`page_of` makes the Page of them. The API writes `next_after` into its opaque cursor and
hands it back as `after` (app/api/pagination.py): the views know nothing of the order.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Generic, TypeVar

Row = TypeVar("Row")
Position = tuple[datetime | date | int | str, ...]


@dataclass(frozen=True)
class Page(Generic[Row]):
    """Up to a limit of rows, in the list's order, and the position of the last of them
    when more follow (None: this is the last page)."""

    items: list[Row]
    next_after: Position | None


def page_of(rows: Sequence[Row], limit: int, position_of: Callable[[Row], Position]) -> Page[Row]:
    """The page of up to `limit + 1` rows read in the list's order."""
    shown = list(rows[:limit])
    return Page(shown, position_of(shown[-1]) if len(rows) > limit else None)
