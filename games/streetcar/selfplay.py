"""Streetcar selfplay: bots play whole games headless (``playtable selfplay streetcar``).

:func:`run` plays ``games`` games, game ``i`` from seed ``seed + i``, and writes one line per game and a
summary line to ``out`` (an object with ``write``, or a function taking one line). With ``json_lines``
each game line is a JSON object: the seed, the seats, the winner (or the draw), which seats completed
their route, the plays in order (each tile play: seat, tile, rotation, x, y, placed or exchanged, from
whose hand; each trip start; each roll with its faces, the die chosen and the tram's path; passes) and
the full match record, which ``playtable replay`` reads. The rules' invariants (every tile accounted
for, a legal board) are checked after every action.
"""
from __future__ import annotations

import json
import time
from typing import Any, Callable

from sim.core.match import Match
from sim.core.record import to_record

from .ai import LEVELS, make_bot
from .rules import StreetcarRules

#: A game that has not ended after this many actions is a bug, not a long game.
MAX_ACTIONS = 20000


def parse_players(players: list[str]) -> list[str]:
    """Bot levels of ``players`` ("bot:easy" ...); raises ``ValueError`` for anything else."""
    out = []
    for p in players:
        if not isinstance(p, str) or not p.startswith("bot:") or p[4:] not in LEVELS:
            raise ValueError(f"selfplay seats must be bots ({', '.join('bot:' + lv for lv in LEVELS)}), not {p!r}")
        out.append(p[4:])
    return out


def play_game(players: list[str], seed: int, dice: str = "bga", check: bool = True,
              config: dict[str, Any] | None = None) -> tuple[Match, list[dict[str, Any]]]:
    """One whole game of bots from ``seed``: returns the match and its plays (see the module doc).
    With ``check``, raises ``AssertionError`` naming the seed and action if an invariant breaks."""
    levels = parse_players(players)
    rules = StreetcarRules()
    cfg = {"players": len(players), "seats": list(players), "dice": dice, **(config or {})}
    match = Match(rules, cfg, seed)
    bots = [make_bot(i, lv, seed) for i, lv in enumerate(levels)]
    plays: list[dict[str, Any]] = []
    roll: dict[str, Any] | None = None

    def note(player: int, events: list[dict[str, Any]]) -> None:
        nonlocal roll
        for e in events:
            k = e.get("e")
            if k == "tile":
                plays.append({"seat": e["seat"], "play": "tile", "tile": e["tile"], "rot": e["rot"], "x": e["x"],
                              "y": e["y"], "how": e["how"], "hand": e["hand"]})
            elif k == "start":
                plays.append({"seat": e["seat"], "play": "start", "line": e["line"], "card": e["card"],
                              "stops": e["stops"], "end": e["end"]})
            elif k == "pass":
                plays.append({"seat": e["seat"], "play": "pass"})
            elif k == "roll":
                roll = {"seat": e["seat"], "play": "roll", "faces": []}
                plays.append(roll)
            elif k == "die" and roll is not None:
                roll["faces"].append(e["face"])
            elif k == "drive" and roll is not None:
                roll["chosen"] = e["face"]
                roll["path"] = e["path"]
                roll["served"] = e["served"]
            elif k == "tools" and roll is not None:
                roll["chosen"] = "TOOLS"
                roll["path"] = [e["to"]]
            elif k == "stop":
                plays.append({"seat": e["seat"], "play": "stop"})

    while not match.is_over():
        if len(match.log) > MAX_ACTIONS:
            raise RuntimeError(f"seed {seed}: the game did not end after {MAX_ACTIONS} actions")
        p = match.active_players()[0]
        events = match.submit(p, bots[p].select_action(rules, match.state, p))
        note(p, events)
        if check:
            bad = rules.invariants(match.state)
            if bad:
                raise AssertionError(f"seed {seed}, action {len(match.log)}: {bad}")
    return match, plays


def _emit(out: Any, line: str) -> None:
    if hasattr(out, "write"):
        out.write(line + "\n")
        flush = getattr(out, "flush", None)
        if flush:
            flush()
    else:
        out(line)


def run(players: list[str], games: int, seed: int, dice: str = "bga", json_lines: bool = False,
        out: Any = None, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` bot games (seats ``players``, e.g. ``["bot:hard", "bot:easy"]``; dice option
    ``dice``) from seeds ``seed``, ``seed + 1``...; write a line per game and a summary line to ``out``
    (``write`` method or a callable; default: nowhere) and return the summary: wins per seat, draws,
    the share of seats that completed their route, turns per game, games per second. Raises
    ``ValueError`` for bad seats, dice or a game count below 1. ``config``: more table options
    (``share_hands``, ``pile``)."""
    levels = parse_players(players)
    if not isinstance(games, int) or games < 1:
        raise ValueError("games must be at least 1")
    StreetcarRules().validate_config({"players": len(levels), "dice": dice, **(config or {})})
    sink: Callable[[str], None] | Any = out if out is not None else (lambda line: None)
    wins = [0] * len(players)
    draws = 0
    completed = 0
    turns = 0
    t0 = time.perf_counter()
    for i in range(games):
        g_seed = seed + i
        m, plays = play_game(players, g_seed, dice, config=config)
        res = m.outcome()
        if res["winner"] is not None:
            wins[res["winner"]] += 1
        draws += bool(res["draw"])
        done = [bool(c) for c in res["complete"]]
        completed += sum(done)
        turns += res["turns"]
        if json_lines:
            line = {"game": "streetcar", "seed": g_seed, "players": list(players), "dice": dice,
                    "winner": res["winner"], "draw": res["draw"], "completed": done, "turns": res["turns"],
                    "plays": plays, "result": res, "record": to_record(m)}
            _emit(sink, json.dumps(line, separators=(",", ":")))
        else:
            who = f"seat {res['winner']} ({players[res['winner']]}) wins" if res["winner"] is not None else "draw"
            _emit(sink, f"game {i + 1}/{games} seed {g_seed}: {who} after {res['turns']} turns; "
                        f"routes completed: {sum(done)}/{len(done)}")
    elapsed = time.perf_counter() - t0
    summary = {"summary": True, "game": "streetcar", "players": list(players), "dice": dice, "games": games,
               "first_seed": seed, "wins_by_seat": wins, "draws": draws,
               "routes_completed": round(completed / (games * len(players)), 4),
               "mean_turns": round(turns / games, 2),
               "games_per_second": round(games / elapsed, 3) if elapsed > 0 else None}
    if json_lines:
        _emit(sink, json.dumps(summary, separators=(",", ":")))
    else:
        _emit(sink, f"{games} games: wins by seat {wins}, draws {draws}, routes completed "
                    f"{summary['routes_completed']:.0%}, {summary['mean_turns']} turns a game, "
                    f"{summary['games_per_second']} games/s")
    return summary


# ------------------------------------------------------------------ hooks for the command line
def cli_selfplay(options: Any, seats: list[str], out: Any) -> int:
    """``playtable selfplay streetcar``: ``options`` carries ``games``, ``seed``, ``json`` and the game's
    option flags (``options.OPTIONS``); returns the exit status (0)."""
    from sim.core.options import from_flags

    from .options import OPTIONS
    cfg = from_flags(OPTIONS, options)
    dice = cfg.pop("dice", "bga")
    run(list(seats), int(options.games), int(options.seed), dice, bool(getattr(options, "json", False)), out,
        config=cfg)
    return 0
