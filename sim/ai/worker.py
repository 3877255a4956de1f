"""Run a bot's decision off the frame (specs/DESIGN.md "Bots never block the frame").

A :class:`BotWorker` runs one call (a bot thinking about one position) in a daemon thread and is polled
by the screen once a frame. The call gets a ``cancelled()`` hook it should check now and then; a
cancelled or superseded job's result is dropped. States given to bots are immutable (rules never mutate
a state), and a physics bot builds its own worlds, so the worker shares nothing mutable with the frame.

Threads suffice here: the hot loops release the GIL (pymunk's C solver, numpy) or are short, and the
screen stays responsive because it never waits on the worker.
"""
from __future__ import annotations

import threading
import time
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
