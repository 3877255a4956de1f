"""The frame-time harness of ``playtable bench``: a game's screen in the real loop at 1280x800 under the
dummy video driver, frame after frame, timed (printed, never asserted: specs/DESIGN.md "Tests").

A game supplies only its position and what happens each frame: ``drive(scene, match, i)`` returns the
frame's events and a label (e.g. ``"hover"``, ``"after a move"``), and may play or take back an action
first. Each frame is timed in wall time and in CPU time of the drawing thread (bots think in threads of
their own, so their work is not counted).
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


def p95(values: list[float]) -> float:
    xs = sorted(values)
    return xs[max(0, int(len(xs) * 0.95) - 1)]


def describe(times: list[tuple[float, float]]) -> str:
    """"median 3.10 ms, p95 4.00 ms, max 6.20 ms (CPU median 2.90 ms, p95 3.80 ms; 120 frames)"."""
    wall = [w for w, _c in times]
    cpu = [c for _w, c in times]
    return (f"median {statistics.median(wall):.2f} ms, p95 {p95(wall):.2f} ms, max {max(wall):.2f} ms "
            f"(CPU median {statistics.median(cpu):.2f} ms, p95 {p95(cpu):.2f} ms; {len(times)} frames)")


def report(out: Callable[[str], None], what: str, groups: dict[str, list[tuple[float, float]]]) -> None:
    """One line per label: ``"{what}, {label}: {describe}"``."""
    for label, times in groups.items():
        if times:
            out(f"{what}, {label}: {describe(times)}")
