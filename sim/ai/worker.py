"""Run a bot's decision off the frame (specs/DESIGN.md "Bots never block the frame").

A :class:`BotWorker` runs one call (a bot thinking about one position) in a daemon thread and is polled
by the screen once a frame. The call gets a ``cancelled()`` hook it should check now and then; a
cancelled or superseded job's result is dropped. States given to bots are immutable (rules never mutate
a state), and a physics bot builds its own worlds, so the worker shares nothing mutable with the frame.

Threads suffice here: the hot loops release the GIL (pymunk's C solver, numpy) or are short, and the
screen stays responsive because it never waits on the worker.
"""
from __future__ import annotations

import sys
import threading
import time
import traceback
from typing import Any, Callable

Job = Callable[[Callable[[], bool]], Any]


class BotWorker:
    """At most one job at a time; ``start(job)`` replaces (cancels) the one running.

    ``job(cancelled)`` computes a result; ``poll()`` returns ``(True, result)`` once, when it is ready,
    else ``(False, None)``. An exception in the job is re-raised by ``poll()`` on the caller's thread, so
    a broken bot shows up where the screen can report it.
    """

    def __init__(self, name: str = "bot"):
        self.name = name
        self._lock = threading.Lock()
        self._gen = 0
        self._result: tuple[int, Any, BaseException | None] | None = None
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self.started_at: float | None = None

    @property
    def busy(self) -> bool:
        """Whether a job is running or its result is waiting to be polled."""
        with self._lock:
            return self.started_at is not None

    def elapsed(self) -> float:
        """Seconds (wall clock) since the running job started, or 0."""
        with self._lock:
            return 0.0 if self.started_at is None else time.monotonic() - self.started_at

    def start(self, job: Job) -> None:
        """Start ``job`` in a new daemon thread, cancelling any job still running."""
        self.cancel()
        with self._lock:
            self._gen += 1
            gen = self._gen
            self._cancel = cancel = threading.Event()
            self._result = None
            self.started_at = time.monotonic()

        def run() -> None:
            try:
                out, err = job(cancel.is_set), None
            except BaseException as e:  # noqa: BLE001 - handed to poll()
                out, err = None, e
            with self._lock:
                if gen == self._gen and not cancel.is_set():
                    self._result = (gen, out, err)

        self._thread = threading.Thread(target=run, name=f"{self.name}-{gen}", daemon=True)
        self._thread.start()

    def poll(self) -> tuple[bool, Any]:
        """``(True, result)`` once when the current job has finished, else ``(False, None)``.

        Raises the job's exception (once) if it failed."""
        with self._lock:
            res = self._result
            if res is None:
                return False, None
            self._result = None
            self.started_at = None
        _gen, out, err = res
        if err is not None:
            raise err
        return True, out

    def cancel(self) -> None:
        """Cancel the running job (its result will be dropped)."""
        with self._lock:
            self._cancel.set()
            self._gen += 1
            self._result = None
            self.started_at = None

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the running thread ends (tests and shutdown only); True if it did."""
        t = self._thread
        if t is None:
            return True
        t.join(timeout)
        return not t.is_alive()


class BotTurns:
    """Plays the bot seats of a turn-based match from a screen, one decision at a time.

    Call :meth:`step` once a frame. When ``seat`` (a bot seat that is to act, or None) is to act in the
    match's current state, its decision runs in a :class:`BotWorker` (``make_job(state, seat)`` gives
    the job, whose result is the action); the action is submitted once it is ready *and* the screen
    says it may be shown (``may_play``: e.g. the pace delay has passed and no animation runs). A bot
    that raises, or chooses an action the rules refuse, plays ``fallback(state, seat)`` instead, and
    :meth:`step` returns a one-line reason for the screen to show. A decision about a state that is no
    longer current is dropped and made again.
    """

    def __init__(self, name: str = "bot"):
        self.worker = BotWorker(name)
        self._job: tuple[Any, int] | None = None        # (state, seat) being decided
        self._ready: tuple[Any, Any] | None = None      # (state, action) waiting for may_play

    def cancel(self) -> None:
        """Drop the decision in progress (undo, leaving the screen)."""
        self.worker.cancel()
        self._job = self._ready = None

    def step(self, match: Any, seat: int | None, make_job: Callable[[Any, int], Job],
             fallback: Callable[[Any, int], Any], may_play: bool) -> str | None:
        """Advance the bot seat ``seat`` by one frame; returns a reason when the bot failed, else None.

        Raises what ``match.submit`` raises for an illegal ``fallback`` action."""
        from sim.core.rules import IllegalAction

        st = match.state
        if seat is None:
            if self._job is not None:
                self.cancel()
            return None
        if self._job is None or self._job[0] is not st:
            self.cancel()
            self._job = (st, seat)
            self.worker.start(make_job(st, seat))
        error = None
        if self._ready is None:
            try:
                done, act = self.worker.poll()
            except Exception as e:  # noqa: BLE001 - a broken bot must not stop the game
                traceback.print_exc(file=sys.stderr)
                error = f"failed ({e.__class__.__name__}); it played at random"
                done, act = True, fallback(st, seat)
            if done:
                self._ready = (st, act)
        if self._ready is not None and self._ready[0] is st and may_play:
            act = self._ready[1]
            self._job = self._ready = None
            try:
                match.submit(seat, act)
            except IllegalAction as e:
                error = f"chose an illegal action ({e}); it played at random"
                match.submit(seat, fallback(st, seat))
        return error
