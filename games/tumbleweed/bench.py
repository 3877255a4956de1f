"""Tumbleweed speed figures, printed, never asserted (specs/DESIGN.md "Tests").

``run(out)`` prints: random-playout plies per second on sides 6, 8 and 11 (uniformly random legal
placements from a random opening until neither side can place), and the hard bot's mean and max time
per move on sides 8 and 11 (a few moves from a middle-game position reached by the medium bot). ``out``
is a callable taking one line (default ``print``). Takes well under a minute.
"""
from __future__ import annotations

import random
import time
from typing import Callable

from sim.core.match import Match

from .ai import TumbleweedAgent
from .rules import NEUTRAL, RED, WHITE, Engine, TumbleweedRules, geometry, random_playout


def playout_rate(size: int, seconds: float = 1.5, seed: int = 1) -> tuple[float, float, int]:
    """``(plies per second, mean plies per playout, playouts)`` of random playouts on side ``size``."""
    rng = random.Random(seed)
    geo = geometry(size)
    base = Engine.from_stacks(size, {geo.centre: (NEUTRAL, 2)})
    free = [i for i in range(geo.n) if i != geo.centre]
    plies = games = 0
    t0 = time.perf_counter()
    while True:
        e = base.copy()
        a, b = rng.sample(free, 2)
        e.put(a, RED, 1)
        e.put(b, WHITE, 1)
        plies += random_playout(e, rng)
        games += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return plies / dt, plies / games, games


def hard_move_times(size: int, moves: int, seed: int = 3, opening_plies: int = 20) -> list[float]:
    """Seconds the hard bot takes for each of ``moves`` moves from a middle-game position (the medium
    bot plays both sides for ``opening_plies`` turns, then hard plays both sides)."""
    rules = TumbleweedRules()
    m = Match(rules, {"size": size, "seats": ["bot:medium", "bot:medium"]}, seed)
    med = TumbleweedAgent("medium", seed)
    while not m.is_over() and m.state.ply < opening_plies:
        p = m.active_players()[0]
        m.submit(p, med.select_action(rules, m.state, p))
    hard = TumbleweedAgent("hard", seed)
    times = []
    while not m.is_over() and len(times) < moves:
        p = m.active_players()[0]
        t0 = time.perf_counter()
        act = hard.select_action(rules, m.state, p)
        times.append(time.perf_counter() - t0)
        m.submit(p, act)
    return times


def run(out: Callable[[str], None] = print) -> None:
    for size in (6, 8, 11):
        rate, mean, games = playout_rate(size)
        out(f"tumbleweed: random playouts on side {size}: {rate:,.0f} plies/s "
            f"({games} playouts, {mean:.0f} plies each)")
    for size, n in ((8, 6), (11, 4)):
        times = hard_move_times(size, n)
        out(f"tumbleweed: hard bot on side {size}: mean {sum(times) / len(times):.2f} s, "
            f"max {max(times):.2f} s per move ({len(times)} moves)")


if __name__ == "__main__":
    run()
