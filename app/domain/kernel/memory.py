"""Python's cyclic garbage collector, paused for a bulk computation.

A payroll of ten thousand builds millions of short-lived objects (each employee's
model, pay terms, leave and lines) and no reference cycles: reference counting frees
them all. The cyclic collector, meanwhile, runs every few hundred allocations and,
every so often, walks every object alive, which is the whole payroll; measured on a
10,000-employee draft, a tenth of its time (docs/operators/benchmarks.md).
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pauses:
    """The pauses under way in this process, in every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.under_way = 0  # blocks inside collector_paused now
        self.was_on = False  # whether the collector ran before the first of them began


_PAUSES = _Pauses()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block. The pause is the process's: while blocks
    in several threads overlap it stays off, and when the last of them ends it is back
    on if it was on before the first began (never left off, never turned on for a
    process that runs without it)."""
    pauses = _PAUSES
    with pauses.lock:
        if pauses.under_way == 0:
            pauses.was_on = gc.isenabled()
            gc.disable()
        pauses.under_way += 1
    try:
        yield
    finally:
        with pauses.lock:
            pauses.under_way -= 1
            if pauses.under_way == 0 and pauses.was_on:
                gc.enable()
