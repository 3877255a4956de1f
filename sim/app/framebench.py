"""The frame-time harness of ``playtable bench``: a game's screen in the real loop at 1280x800 under the
dummy video driver, frame after frame, timed (printed, never asserted: specs/DESIGN.md "Tests").

A game supplies only its position and what happens each frame: ``drive(scene, match, i)`` returns the
frame's events and a label (e.g. ``"hover"``, ``"after a move"``), and may play or take back an action
first. Each frame is timed in wall time and in CPU time of the drawing thread (bots think in threads of
their own, so their work is not counted).

Every report also gives each scene's CPU median as a multiple of the bare frame (:func:`floor_ms`: a
1280x800 fill and flip, nothing else, measured once in the same process). :func:`idle_cpu` measures the
other end: the process's CPU while the real loop (real clock, waiting for events) shows a still screen.
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Any, Callable

Drive = Callable[[Any, Any, int], tuple[list, str]]


def run_frames(spec: Any, match: Any, drive: Drive, frames: int, warmup: int = 5,
               **scene_opts: Any) -> dict[str, list[tuple[float, float]]]:
    """Run ``frames`` frames of ``spec``'s screen on ``match``; returns label -> [(wall ms, CPU ms)] of
    every frame after the first ``warmup``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from .app import App

    app = App(headless=True)
    out: dict[str, list[tuple[float, float]]] = {}
    try:
        app.audio.play = lambda name: None
        scene = app.start_match(spec, match, autosave=False, **scene_opts)
        for i in range(frames):
            events, label = drive(scene, match, i)
            w0, c0 = time.perf_counter(), time.thread_time()
            app.step(events, 1 / 60)
            c1, w1 = time.thread_time(), time.perf_counter()
            if i >= warmup:
                out.setdefault(label, []).append(((w1 - w0) * 1000, (c1 - c0) * 1000))
        return out
    finally:
        app.close()


def _timed_app(setup: Callable[[Any], Any], drive: Callable[[Any, int], list], frames: int,
               warmup: int = 5) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of ``frames`` frames of a headless app set up by ``setup(app)``, the events of
    frame ``i`` from ``drive(app, i)``; the first ``warmup`` are not kept."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from .app import App

    app = App(headless=True)
    out = []
    try:
        app.audio.play = lambda name: None
        setup(app)
        for i in range(frames + warmup):
            events = drive(app, i)
            w0, c0 = time.perf_counter(), time.thread_time()
            app.step(events, 1 / 60)
            c1, w1 = time.thread_time(), time.perf_counter()
            if i >= warmup:
                out.append(((w1 - w0) * 1000, (c1 - c0) * 1000))
        return out
    finally:
        app.close()


_FLOOR: list[float] = []


def floor_ms(frames: int = 300) -> float:
    """CPU ms (drawing thread, median) of a bare frame: fill the 1280x800 window and flip, under the
    dummy driver; measured on the first call of the process (or by :func:`floor_frames` before it),
    then remembered."""
    if not _FLOOR:
        floor_frames(frames)
    return _FLOOR[0]


def floor_frames(frames: int = 300) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of ``frames`` bare frames: fill + flip of the app's 1280x800 window; their
    CPU median becomes :func:`floor_ms`."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from .app import App

    app = App(headless=True)
    out = []
    try:
        win = pygame.display.get_surface()
        for i in range(frames + 5):
            w0, c0 = time.perf_counter(), time.thread_time()
            win.fill((i % 7, 20, 30))
            pygame.display.flip()
            c1, w1 = time.thread_time(), time.perf_counter()
            if i >= 5:
                out.append(((w1 - w0) * 1000, (c1 - c0) * 1000))
        _FLOOR[:] = [statistics.median(c for _w, c in out)]    # the ratios of this run are to it
        return out
    finally:
        app.close()


def idle_cpu(setup: Callable[[Any], Any], seconds: float = 10.0, settle: float = 15.0) -> tuple[float, int, float]:
    """The process's CPU use while nothing happens: a headless app with the real clock and idle waits
    (as a windowed one runs), ``setup(app)`` puts the scene up, the loop runs until no scene wants a
    frame (at most ``settle`` s: a pile settling, a bot's first move), then ``seconds`` s are measured.
    Returns (CPU % of one core, frames drawn while measured, s it took to settle)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from .app import App

    app = App(headless=True)
    try:
        app.audio.play = lambda name: None
        app.idle_wait = app.real_clock = True
        setup(app)
        w0 = time.monotonic()
        while app.running and time.monotonic() - w0 < settle:
            app.run(seconds=0.05)
            if not app.needs_draw():
                break
        settled = time.monotonic() - w0
        drawn = app.frames_drawn
        c0, w1 = time.process_time(), time.perf_counter()
        app.run(seconds=seconds)
        cpu = (time.process_time() - c0) / max(1e-9, time.perf_counter() - w1) * 100
        return cpu, app.frames_drawn - drawn, settled
    finally:
        app.close()


def p95(values: list[float]) -> float:
    xs = sorted(values)
    return xs[max(0, int(len(xs) * 0.95) - 1)]


def describe(times: list[tuple[float, float]], floor: float | None = None) -> str:
    """"CPU median 2.90 ms, p95 3.80 ms, max 6.10 ms = 13.2x the bare frame (wall median 3.10 ms, p95
    4.00 ms; 120 frames)" (the ratio only with ``floor``, the bare frame's CPU ms)."""
    wall = [w for w, _c in times]
    cpu = [c for _w, c in times]
    med = statistics.median(cpu)
    ratio = f" = {med / floor:.1f}x the bare frame" if floor else ""
    return (f"CPU median {med:.2f} ms, p95 {p95(cpu):.2f} ms, max {max(cpu):.2f} ms{ratio} "
            f"(wall median {statistics.median(wall):.2f} ms, p95 {p95(wall):.2f} ms; {len(times)} frames)")


def report(out: Callable[[str], None], what: str, groups: dict[str, list[tuple[float, float]]]) -> None:
    """One line per label: ``"{what}, {label}: {describe}"`` (with the ratio to :func:`floor_ms`)."""
    floor = floor_ms()
    for label, times in groups.items():
        if times:
            out(f"{what}, {label}: {describe(times, floor)}")
