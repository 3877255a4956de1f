"""Tumbleweed self-play: bots play whole matches headless (issue "Tumbleweed": strength figures).

``run(players, games, seed, size, json_lines, out)`` plays ``games`` matches between ``players[0]`` and
``players[1]`` (each "random", "easy", "medium", "hard" or "bot:LEVEL"), swapping seats every other
game (even games: players[0] is the host, seat 0). Each game writes one line: as JSON (``json_lines``)
``{"game", "seed", "size", "host", "guest", "red", "white", "moves": [notation], "scores": [{"stacks",
"territory", "score"} for players[0], players[1]], "winner": 0|1|None (index into players), "ended",
"plies", "suicidal": [count, count]}``, else a readable line. Then a summary line: wins, draws, win
rates, suicidal moves, mean/max seconds per move, mean plies.

``out`` is a callable taking one line, or a file-like object with ``write``.
``python -m games.tumbleweed.selfplay hard medium --games 40 --seed 1 --size 8 [--json]`` runs it.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable

from sim.ai import RandomAgent
from sim.core.match import Match
from sim.core.record import to_record

from .ai import TumbleweedAgent
from .notation import move_tokens
from .rules import BOT_LEVELS, TumbleweedRules, is_suicidal


def make_player(name: str, seed: int, **kw: Any):
    """An agent for a player name ("random", "easy", "bot:hard", ...); ``KeyError`` if unknown."""
    level = name[4:] if name.startswith("bot:") else name
    if level == "random":
        return RandomAgent(seed)
    return TumbleweedAgent(level, seed, **kw)


def _writer(out: Any) -> Callable[[str], None]:
    if callable(out):
        return out
    def write(line: str) -> None:
        out.write(line + "\n")
        if hasattr(out, "flush"):
            out.flush()
    return write


def play_game(names: list[str], seed: int, size: int, agent_kw: dict[str, Any] | None = None,
              config: dict[str, Any] | None = None) -> tuple[Match, dict[str, Any]]:
    """One match: ``names[0]`` hosts (seat 0). Returns the match and per-seat stats
    ``{"suicidal": [n, n], "seconds": [[...], [...]]}``."""
    rules = TumbleweedRules()
    levels = [n[4:] if n.startswith("bot:") else n for n in names]
    seats = [f"bot:{lv}" if lv in BOT_LEVELS else "human" for lv in levels]
    cfg = {"size": size, "seats": seats, **(config or {})}
    match = Match(rules, cfg, seed)
    agents = [make_player(n, seed * 2 + k, **(agent_kw or {}).get(n, {})) for k, n in enumerate(names)]
    stats: dict[str, Any] = {"suicidal": [0, 0], "seconds": [[], []]}
    guard = 0
    while not match.is_over():
        seat = match.active_players()[0]
        st = match.state
        t0 = time.perf_counter()
        act = agents[seat].select_action(rules, st, seat)
        if st.phase == "play":
            stats["seconds"][seat].append(time.perf_counter() - t0)
            if act["t"] == "place" and is_suicidal(st, (act["q"], act["r"])):
                stats["suicidal"][seat] += 1
        match.submit(seat, act)
        guard += 1
        if guard > 20 * st.geo.n:
            raise RuntimeError("self-play game did not end")
    return match, stats


def run(players: list[str], games: int, seed: int, size: int, json_lines: bool, out: Any,
        agent_kw: dict[str, Any] | None = None, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the games and write one line each plus a summary line; returns the summary dict."""
    if len(players) != 2:
        raise ValueError("Tumbleweed self-play needs exactly two players")
    write = _writer(out)
    wins = [0, 0]
    draws = 0
    suicidal = [0, 0]
    secs: list[list[float]] = [[], []]
    plies = []
    for g in range(games):
        swap = g % 2 == 1
        names = [players[1], players[0]] if swap else list(players)
        gseed = seed + g
        match, st = play_game(names, gseed, size, agent_kw, config)
        res = match.outcome()
        # map seats back to indices in `players`
        idx = [1, 0] if swap else [0, 1]
        winner = None if res["winner"] is None else idx[res["winner"]]
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
        scores = [None, None]
        for seat in (0, 1):
            scores[idx[seat]] = {"stacks": res["stacks"][seat], "territory": res["territory"][seat],
                                 "score": res["scores"][seat]}
            suicidal[idx[seat]] += st["suicidal"][seat]
            secs[idx[seat]].extend(st["seconds"][seat])
        s = match.state
        plies.append(s.ply)
        colours = res["colours"]
        line = {"game": g, "seed": gseed, "size": size, "host": names[0], "guest": names[1],
                "red": names[colours.index("red")], "white": names[colours.index("white")],
                "moves": move_tokens(match), "scores": scores, "winner": winner, "ended": s.ended,
                "plies": s.ply, "suicidal": [st["suicidal"][idx.index(k)] for k in (0, 1)],
                "record": to_record(match)}
        if json_lines:
            write(json.dumps(line, separators=(",", ":")))
        else:
            who = "draw" if winner is None else f"{players[winner]} wins"
            write(f"game {g + 1}/{games} seed {gseed}: {line['red']} (red) {res['red']['score']} - "
                  f"{res['white']['score']} {line['white']} (white): {who}, {s.ply} plies, ended by {s.ended}")
    n = max(1, games)
    summary = {"summary": True, "players": list(players), "games": games, "size": size, "first_seed": seed,
               "wins": wins, "draws": draws, "win_rates": [round(w / n, 3) for w in wins],
               "suicidal": suicidal,
               "mean_move_seconds": [round(sum(x) / len(x), 4) if x else None for x in secs],
               "max_move_seconds": [round(max(x), 4) if x else None for x in secs],
               "mean_plies": round(sum(plies) / n, 1)}
    if json_lines:
        write(json.dumps(summary, separators=(",", ":")))
    else:
        write(f"{games} games on side {size}: {players[0]} {wins[0]} wins ({summary['win_rates'][0]:.0%}), "
              f"{players[1]} {wins[1]} wins, {draws} draws; suicidal moves {suicidal}; "
              f"s/move mean {summary['mean_move_seconds']} max {summary['max_move_seconds']}; "
              f"mean {summary['mean_plies']} plies")
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.tumbleweed.selfplay", description=__doc__.split("\n")[0])
    ap.add_argument("players", nargs=2)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--nodes", type=int, default=None, help="node budget per move for the searching bots")
    ap.add_argument("--time", type=float, default=None, help="time budget per move (s) for the searching bots")
    a = ap.parse_args(argv)
    kw: dict[str, Any] = {}
    for name in a.players:
        lvl = name[4:] if name.startswith("bot:") else name
        if lvl in ("medium", "hard") and (a.nodes or a.time):
            kw[name] = {"node_budget": a.nodes} if a.nodes else {"time_budget": a.time}
    run(a.players, a.games, a.seed, a.size, a.json, sys.stdout, kw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
