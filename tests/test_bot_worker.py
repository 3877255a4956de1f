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


class _Match:
    """A stand-in match: a state object, a submit that refuses action "bad"."""

    def __init__(self):
        self.state = object()
        self.submitted = []

    def submit(self, seat, action):
        from sim.core.rules import IllegalAction
        if action == "bad":
            raise IllegalAction("not now")
        self.submitted.append((seat, action))
        self.state = object()


def _until(turns, m, seat, job, fallback, may_play=True, limit=200):
    for _ in range(limit):
        err = turns.step(m, seat, job, fallback, may_play)
        if m.submitted or err:
            return err
        turns.worker.wait(0.05)
    raise AssertionError("no action")


def test_bot_turns_submit_when_allowed_and_fall_back_on_bad_bots():
    from sim.ai.worker import BotTurns
    turns = BotTurns()
    m = _Match()
    job = lambda st, seat: (lambda cancelled: "good")                 # noqa: E731
    for _ in range(20):                                                # not yet allowed to play
        assert turns.step(m, 1, job, lambda st, s: "safe", False) is None
        turns.worker.wait(0.05)
    assert m.submitted == []
    assert _until(turns, m, 1, job, lambda st, s: "safe") is None and m.submitted == [(1, "good")]
    m.submitted.clear()
    err = _until(turns, m, 0, lambda st, seat: (lambda cancelled: "bad"), lambda st, s: "safe")
    assert "illegal" in err and m.submitted == [(0, "safe")]
    m.submitted.clear()

    def broken(st, seat):
        def run(cancelled):
            raise RuntimeError("boom")
        return run
    err = _until(turns, m, 0, broken, lambda st, s: "safe")
    assert "RuntimeError" in err and m.submitted == [(0, "safe")]


def test_bot_turns_drop_a_decision_about_an_old_state():
    from sim.ai.worker import BotTurns
    turns = BotTurns()
    m = _Match()
    calls = []
    job = lambda st, seat: (calls.append(st), lambda cancelled: "good")[1]   # noqa: E731
    turns.step(m, 0, job, lambda st, s: "safe", False)
    m.state = object()                              # someone else moved: decide again
    turns.worker.wait(1)
    turns.step(m, 0, job, lambda st, s: "safe", False)
    assert len(calls) == 2 and calls[1] is m.state
    turns.step(m, None, job, lambda st, s: "safe", True)   # no bot to act: the decision is dropped
    assert m.submitted == [] and not turns.worker.busy
