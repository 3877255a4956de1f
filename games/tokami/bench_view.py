"""``playtable bench tokami``: the Tokami screen's frame time while a human drags a stick (issue
"Tokami", bench line "the scene's frame time while dragging (median, p95)").

The real scene runs in the real ``App`` loop under the dummy video driver (1280x800, fake 1/60 s
frames): the pile is set up, then the mouse grabs the highest stick and drags it for ``frames``
frames (4 physics steps of 1/240 s per frame, the capped-force hand lifting it out of its place, so
the pile shifts under it, then swinging it around above the pile; tension and wobble cues, knocks).
Figures are printed, never asserted: wall-clock time per frame (median, p95, max) and the CPU time of the drawing thread (median,
p95), which is what the frame costs when the machine is not shared.
"""
from __future__ import annotations

import math
import os
import statistics
import time


def _percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(math.ceil(len(s) * q)) - 1))]


def bench_frames(out, frames: int = 600, seed: int = 1) -> dict:
    """Drag a stick for ``frames`` frames and print one line through ``out(text)``; returns the figures
    ``{"median_ms", "p95_ms", "max_ms", "cpu_median_ms", "cpu_p95_ms", "frames"}``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from sim.app.app import App
    from sim.core.match import Match
    from sim.core.rules import PHYSICS

    from . import draw, driver, model
    from sim.core.registry import get_spec
    SPEC = get_spec("tokami")

    match = Match(SPEC.make_rules(), {"players": 2, "seats": ["human", "human"]}, seed)
    match.submit(PHYSICS, driver.settle_action(match.state))
    app = App(headless=True)
    try:
        scene = app.start_match(SPEC, match, autosave=False)
        E = pygame.event.Event
        st = match.state
        sid = max(st.poses, key=lambda i: model.highest_point(st.poses[i]))
        pose = st.poses[sid]
        depth = draw.depth_range(pose)[0]
        x0, y0 = pose[2], pose[3]
        start = scene.proj.to_screen(x0, y0, depth)
        app.step([E(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
                  E(pygame.MOUSEBUTTONDOWN, pos=start, button=1)], 1 / 60)
        wall: list[float] = []
        cpu: list[float] = []
        for i in range(frames):
            # lifted out of its place in the first second, then swung around above the pile, turning
            t = i / 60.0
            lift = min(1.0, t)
            x = x0 + lift * 18.0 * math.sin(t * 1.7)
            y = y0 + lift * (45.0 + 12.0 * math.cos(t * 1.1))
            pos = scene.proj.to_screen(x, y, depth)
            ev = [E(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0))]
            if i % 90 == 45:
                ev.append(E(pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0, flipped=False, touch=False,
                            which=0))
            c0 = time.thread_time()
            w0 = time.perf_counter()
            app.step(ev, 1 / 60)
            wall.append((time.perf_counter() - w0) * 1000.0)
            cpu.append((time.thread_time() - c0) * 1000.0)
        held = scene.att is not None
    finally:
        app.close()
    wall, cpu = wall[10:], cpu[10:]
    res = {"median_ms": statistics.median(wall), "p95_ms": _percentile(wall, 0.95), "max_ms": max(wall),
           "cpu_median_ms": statistics.median(cpu), "cpu_p95_ms": _percentile(cpu, 0.95), "frames": len(wall)}
    out(f"tokami scene: frame time while dragging a stick at 1280x800 (dummy driver, 4 physics steps a "
        f"frame{'' if held else ', the stick was lost'}): median {res['median_ms']:.2f} ms, "
        f"p95 {res['p95_ms']:.2f} ms, max {res['max_ms']:.2f} ms over {res['frames']} frames "
        f"(CPU of the frame: median {res['cpu_median_ms']:.2f} ms, p95 {res['cpu_p95_ms']:.2f} ms)")
    return res
