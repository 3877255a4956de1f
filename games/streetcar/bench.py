"""Streetcar speed figures for ``playtable bench`` (printed, never asserted; specs/DESIGN.md "Tests").

:func:`run` prints, through ``out(line)``: the route-completion check on a full board (every line
with every 3-stop route card; first check with empty caches, and again), the bots' think time per
decision by level (median, 95th percentile, largest), and games per second in selfplay. It takes
well under a minute.
"""
from __future__ import annotations

import random
import statistics
import time
from typing import Any, Callable

from .ai import LEVELS, make_bot
from .data import LINES, ROUTE_CARDS_3, stops_of
from .route import route_complete, route_table, tram_graph
from .rules import StreetcarRules
from .tiles import BOARD_CELLS, BUILDING_AT, ORIENTS, Board, TILE_IDS


def full_board(seed: int = 5) -> Board:
    """A legal board filled by random legal placements of every tile type, square after square, until
    none fits any more (about 130 of the 132 squares that are not buildings)."""
    rng = random.Random(seed)
    board = Board()
    for _ in range(6):
        cells = [c for c in BOARD_CELLS if board.cells[c] < 0 and c not in BUILDING_AT]
        rng.shuffle(cells)
        for c in cells:
            opts = [(t, r, m) for t in TILE_IDS for r, m in ORIENTS[t]]
            rng.shuffle(opts)
            for t, r, m in opts:
                if board.placeable(c, m):
                    board = board.put(c, t, r)
                    break
    return board


def bench_route_check(out: Callable[[str], None]) -> None:
    board = full_board()
    queries = [(line, stops_of(card, line)) for line in LINES for card in ROUTE_CARDS_3]
    route_table.cache_clear()
    tram_graph.cache_clear()
    t0 = time.perf_counter()
    tram_graph(board.tracks)
    graph_ms = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    done = sum(route_complete(board, line, stops) for line, stops in queries)
    cold = (time.perf_counter() - t0) / len(queries) * 1000
    t0 = time.perf_counter()
    for line, stops in queries:
        route_complete(board, line, stops)
    warm = (time.perf_counter() - t0) / len(queries) * 1e6
    out(f"streetcar: route-completion check on a full board ({board.count} tiles): {cold:.2f} ms a route "
        f"({len(queries)} line/card pairs, {done} complete; tram graph built once in {graph_ms:.1f} ms), "
        f"{warm:.1f} us when cached")


def bench_bot_time(out: Callable[[str], None], games: int = 2) -> None:
    """Think time of each bot level summed over the decisions of one turn (3 bots of that level)."""
    from sim.core.match import Match

    rules = StreetcarRules()
    for level in LEVELS:
        per_turn: dict[tuple[int, int], float] = {}
        decisions = 0
        for g in range(games):
            seats = [f"bot:{level}"] * 3
            m = Match(rules, {"players": 3, "seats": seats}, 500 + g)
            bots = [make_bot(i, level, 500 + g) for i in range(3)]
            while not m.is_over():
                p = m.active_players()[0]
                key = (g, m.state.turns)
                t0 = time.perf_counter()
                a = bots[p].select_action(rules, m.state, p)
                per_turn[key] = per_turn.get(key, 0.0) + (time.perf_counter() - t0) * 1000
                decisions += 1
                m.submit(p, a)
        times = sorted(per_turn.values())
        p95 = times[max(0, int(len(times) * 0.95) - 1)]
        out(f"streetcar: {level} bot think time per turn (3 players, {len(times)} turns, {decisions} decisions): "
            f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms")


def bench_selfplay(out: Callable[[str], None]) -> None:
    from sim.core import selfplay
    from sim.core.registry import get_spec

    SPEC = get_spec("streetcar")
    for players, games in ((["bot:medium", "bot:medium"], 6), (["bot:hard", "bot:medium", "bot:easy"], 4)):
        s = selfplay.run(SPEC, players, games, 900, lambda sat: {"players": len(sat), "seats": sat},
                         out=lambda line: None, clock=time.perf_counter)
        out(f"streetcar selfplay: {s['games_per_second']:.2f} games/s ({', '.join(players)}; {games} games, "
            f"{s['mean']['turns']} turns a game)")


def run(out: Any = print) -> None:
    """Print every Streetcar figure through ``out(line)``."""
    bench_route_check(out)
    bench_bot_time(out)
    bench_selfplay(out)
