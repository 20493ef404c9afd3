"""The cyclic collector's pause (kernel/memory.py) is never left on by mistake."""

import gc

import pytest

from app.domain.kernel.memory import collector_paused


def test_paused_for_the_block_and_back_on_after_it_even_when_it_raises():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a refused draft")
    assert gc.isenabled()


def test_a_block_inside_another_leaves_the_pause_to_the_outer_one():
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_process_that_runs_without_the_collector_keeps_it_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
