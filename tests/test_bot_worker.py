"""sim.ai.worker.BotWorker: a bot thinks in a thread; the frame only polls."""
from __future__ import annotations

import threading

import pytest

from sim.ai.worker import BotWorker


def test_result_is_delivered_once():
    w = BotWorker()
    w.start(lambda cancelled: 42)
    assert w.wait(5)
    assert w.poll() == (True, 42)
    assert w.poll() == (False, None)
    assert not w.busy


def test_a_new_job_cancels_the_old_one_and_drops_its_result():
    w = BotWorker()
    gate = threading.Event()
    saw_cancel = []

    def slow(cancelled):
        gate.wait(5)
        saw_cancel.append(cancelled())
        return "old"

    w.start(slow)
    assert w.busy and w.poll() == (False, None)
    first = w._thread
    w.start(lambda cancelled: "new")
    gate.set()
    first.join(5)
    assert w.wait(5)
    assert saw_cancel == [True]
    assert w.poll() == (True, "new")


def test_cancel_drops_the_result():
    w = BotWorker()
    gate = threading.Event()
    w.start(lambda cancelled: gate.wait(5) and "late")
    w.cancel()
    assert not w.busy
    gate.set()
    assert w.wait(5)
    assert w.poll() == (False, None)


def test_an_exception_reaches_the_poller():
    w = BotWorker()

    def broken(cancelled):
        raise RuntimeError("no legal move")

    w.start(broken)
    assert w.wait(5)
    with pytest.raises(RuntimeError, match="no legal move"):
        w.poll()
    assert w.poll() == (False, None)
