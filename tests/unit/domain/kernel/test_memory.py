"""The cyclic collector's pause (kernel/memory.py) is never left off by mistake, in one
thread or in several at once."""

import gc
import sys
import threading
import time

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


def test_blocks_in_threads_that_overlap_leave_it_on_when_the_last_ends():
    """Each thread's block begins while another's is paused and ends in an order of its
    own: off throughout, on after the last."""
    ready, go = threading.Barrier(4), threading.Event()
    seen = []

    def paused(n):
        with collector_paused():
            ready.wait()
            go.wait()
            time.sleep(0.001 * n)  # the blocks end one after another
            seen.append(gc.isenabled())

    threads = [threading.Thread(target=paused, args=(n,)) for n in range(4)]
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in threads:
            thread.start()
        go.set()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert seen == [False] * 4
    assert gc.isenabled()


def test_many_short_blocks_at_once_never_leave_it_off():
    def churn():
        for _ in range(2000):
            with collector_paused():
                pass

    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=churn) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert gc.isenabled()
