"""``playtable bench``: speed figures, printed, never asserted (specs/DESIGN.md "Tests").

Figures (issue "foundation"): legal-placement search for one tile on a 50-tile Gobble board (µs),
Gobble Solitaire games per second with the greedy bot, and the Solitaire scene's frame time (median
and p95, ms) at 1280x800 under the dummy video driver with 50 tiles on the board.
"""
from __future__ import annotations

import os
import statistics
import sys
import time


def _fifty_tile_match(seed: int = 11):
    """A Solitaire match played by the greedy bot until 50 tiles are on the board and a tile is held."""
    from games.gobble import SOLITAIRE
    from games.gobble.ai import make_solitaire_agent
    from sim.core.match import Match

    rules = SOLITAIRE.make_rules()
    for s in range(seed, seed + 100):
        m = Match(rules, None, s)
        bot = make_solitaire_agent("greedy", s)
        while not m.is_over():
            st = m.state
            if len(st.board) >= 50 and st.phase == "place":
                return m
            m.submit(0, bot.select_action(rules, st, 0))
    raise RuntimeError("no 50-tile position found")


def bench_placement_search(out) -> None:
    from games.gobble import board as board_mod

    m = _fifty_tile_match()
    b = m.state.board
    tiles = list(range(1, 57))
    board_mod._FIT_CACHE.clear()
    t0 = time.perf_counter()
    for n in tiles:
        b.placements(n)
    cold = (time.perf_counter() - t0) / len(tiles) * 1e6
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        for n in tiles:
            b.placements(n)
    warm = (time.perf_counter() - t0) / (reps * len(tiles)) * 1e6
    spaces = len(b.spaces())
    out(f"gobble: legal placements of one tile, 50-tile board ({spaces} playable spaces): "
        f"{warm:.1f} us (first search, empty fit cache: {cold:.1f} us)")


def bench_solitaire_games(out, games: int = 40) -> None:
    from games.gobble import SOLITAIRE
    from sim.app.cli import play_bot_game

    for bot in ("greedy", "random"):
        t0 = time.perf_counter()
        for i in range(games):
            play_bot_game(SOLITAIRE, bot, 1000 + i)
        dt = time.perf_counter() - t0
        out(f"gobble-solitaire: {games / dt:.1f} games/s with the {bot} bot ({games} games)")


def bench_scene_frames(out, frames: int = 300) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from games.gobble import SOLITAIRE
    from sim.app.app import App

    m = _fifty_tile_match()
    app = App(headless=True)
    app.start_match(SOLITAIRE, m, autosave=False)
    import pygame

    times = []
    w, h = app.LOGICAL_SIZE
    for i in range(frames):
        # the mouse wanders over the board so hover/ghost code paths run
        x = int(w * 0.3 + (i * 7) % int(w * 0.4))
        y = int(h * 0.3 + (i * 5) % int(h * 0.4))
        ev = [pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 1), buttons=(0, 0, 0))]
        t0 = time.perf_counter()
        app.step(ev, 1 / 60)
        times.append((time.perf_counter() - t0) * 1000)
    times = times[10:]
    times.sort()
    med = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    out(f"gobble-solitaire scene: frame time at 1280x800 (dummy driver, 50 tiles): "
        f"median {med:.2f} ms, p95 {p95:.2f} ms over {len(times)} frames")


def run_bench() -> int:
    """Print every figure; returns 0."""
    def out(line: str) -> None:
        print(line, flush=True)

    out(f"playtable bench (Python {sys.version.split()[0]})")
    bench_placement_search(out)
    bench_solitaire_games(out)
    bench_scene_frames(out)
    return 0
