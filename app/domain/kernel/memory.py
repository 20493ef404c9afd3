"""Python's cyclic garbage collector, paused for a bulk computation.

A payroll of ten thousand builds millions of short-lived objects (each employee's
model, pay terms, leave and lines) and no reference cycles: reference counting frees
them all. The cyclic collector, meanwhile, runs every few hundred allocations and,
every so often, walks every object alive, which is the whole payroll; measured on a
10,000-employee draft, a tenth of its time (docs/operators/benchmarks.md).
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block, back on after it if it was on before. In a
    process with threads the pause is the process's: a block that began with it paused
    by another leaves it as it found it, and the first to end turns it back on; it is
    never left off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
