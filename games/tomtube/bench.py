"""Tom Tube speed figures for ``playtable bench`` (printed, never asserted; specs/DESIGN.md "Tests").

:func:`run` prints, through ``out`` (a callable taking one line): the move
generation time on a full board - free drift, control drift and jump targets from every complete
sphere, first with nothing cached - and the bot's think time per decision over a few bot-against-bot
games (median, 95th percentile, largest, and by kind of decision). It takes a few seconds.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import replace
from typing import Any

from sim.core import selfplay
from sim.core.registry import get_spec

from .moves import drift_paths, jump_targets
from .rules import TomTubeRules

BOTS = ["bot:bot", "bot:bot"]


def bot_game(seed: int) -> selfplay.SelfplayGame:
    """A whole game of two route bots from ``seed`` (the selfplay driver's; decisions timed in CPU seconds)."""
    SPEC = get_spec("tomtube")
    return selfplay.play(SPEC, BOTS, seed, {"seats": BOTS}, clock=time.process_time)


def full_board_state(seed: int = 3):
    """A position from a bot game once no rhomb can be placed any more (or the game's last one)."""
    m = bot_game(seed).match
    for i in range(len(m.log), -1, -1):
        s = m.states[i]
        if not (s.stack and s.board.has_free_slot()) and s.phase == "turn":
            return s
    return m.state


def bench_move_generation(out: Any) -> None:
    s = full_board_state()
    b = s.board
    starts = sorted(n for n in b.complete if not n[0].isupper())
    reps = 20
    calls = 0
    t0 = time.perf_counter()
    for _ in range(reps):
        for n in starts:
            for p in (0, 1):
                drift_paths(b, n, p, None, frozenset(s.counters))
                drift_paths(b, n, p, None, frozenset(s.counters), all_colours=True)
                calls += 2
    drift_us = (time.perf_counter() - t0) / calls * 1e6
    t0 = time.perf_counter()
    for _ in range(reps):
        for n in starts:
            jump_targets(b, n, None)
    jump_us = (time.perf_counter() - t0) / (reps * len(starts)) * 1e6
    rules = TomTubeRules()
    fresh = replace(s)  # a copy without the memoised move targets
    t0 = time.perf_counter()
    n_moves = len([a for a in rules.legal_actions(fresh, fresh.turn) if a["t"] == "move"])
    legal_ms = (time.perf_counter() - t0) * 1000
    out(f"tomtube: move generation on a full board ({len(b.rhombs)} rhombs, {len(b.pieces)} triangles, "
        f"{len(b.segs)} tube segments, {len(starts)} spheres): drift targets {drift_us:.0f} us a search "
        f"(free and control), jump targets {jump_us:.1f} us; every legal move of the player to act "
        f"({n_moves}) {legal_ms:.2f} ms")


def _figures(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def bench_bot(out: Any, games: int = 3) -> None:
    timing: list[tuple[str, float]] = []
    t0 = time.perf_counter()
    for g in range(games):
        game = bot_game(100 + g)
        timing += [(game.match.states[i].phase, sec) for i, sec in game.think]
    total = time.perf_counter() - t0
    names = {"turn": "place or move", "place": "where to place", "fill": "filling", "fill_other": "filling"}
    by: dict[str, list[float]] = {}
    for phase, sec in timing:
        by.setdefault(names.get(phase, phase), []).append(sec * 1000)
    parts = "; ".join(f"{k} ({len(v)}): {_figures(v)}" for k, v in by.items())
    out(f"tomtube: bot think time (CPU) per decision over {games} bot games ({len(timing)} decisions): "
        f"{_figures([sec * 1000 for _p, sec in timing])}; {parts}; {games / total:.2f} bot games/s")


def run(out: Any, bot_games: int = 3) -> None:
    """Print the Tom Tube figures through ``out`` (bot think time over ``bot_games`` games)."""
    bench_move_generation(out)
    bench_bot(out, bot_games)
