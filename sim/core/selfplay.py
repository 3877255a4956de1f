"""The generic selfplay driver: bots play whole games of any turn-based game headless.

``run(spec, seats, games, seed, config_for, json_lines, out)`` plays ``games`` games, game ``g`` from
seed ``seed + g`` with the seats rotated by ``g`` places (so every bot sits in every seat in turn).
Seats are ``"bot:LEVEL"``; a bot comes from ``spec.make_bot(seat, level, seed)`` or else
``spec.agents[LEVEL](seed)``. Chance is resolved by the ``Match``; games with a physics or real-time
side have their own selfplay. With ``json_lines`` each game writes ``{"game", "index", "seed", "seats",
"outcome", "winner", "plies", "record"}`` (``record``: the whole match record, which ``playtable
replay`` reads), else a readable line; then one summary line: games, draws, wins per seat kind with a
95 % Wilson interval, mean plies (actions of the players, chance left out).
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from .match import Match
from .record import to_record

#: A game that has not ended after this many actions is a bug, not a long game.
MAX_ACTIONS = 100_000


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate ``wins / n`` (``(0.0, 1.0)`` for ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def winner_of(outcome: dict[str, Any]) -> int | None:
    """The single winning seat of an outcome (``winner``, or a one-seat ``winners``, or the first of
    ``ranking`` when ``scores`` do not tie it), None for a draw or no single winner."""
    if "winner" in outcome:
        w = outcome["winner"]
        return w if isinstance(w, int) and not isinstance(w, bool) and w >= 0 else None
    if isinstance(outcome.get("winners"), list):
        return outcome["winners"][0] if len(outcome["winners"]) == 1 else None
    rank, scores = outcome.get("ranking"), outcome.get("scores")
    if isinstance(rank, list) and rank:
        if isinstance(scores, list) and len(rank) > 1 and scores[rank[0]] == scores[rank[1]]:
            return None
        return rank[0]
    return None


def bot_level(seat: str) -> str:
    """``"bot:hard"`` -> ``"hard"``; ``ValueError`` for a human or anything that is not a bot."""
    if not isinstance(seat, str) or not seat.startswith("bot:") or len(seat) <= 4:
        raise ValueError(f"selfplay seats must all be bots (bot:LEVEL), not {seat!r}")
    return seat[4:]


def make_agent(spec: Any, seat: int, level: str, seed: int) -> Any:
    """A bot for ``seat`` at ``level``; ``ValueError`` naming the levels for an unknown one."""
    try:
        if spec.make_bot is not None:
            return spec.make_bot(seat, level, seed)
        return spec.agents[level](seed)
    except KeyError:
        known = spec.levels or tuple(spec.agents)
        raise ValueError(f"unknown bot level {level!r} for {spec.name} (known: {', '.join(known)})") from None


def play_game(spec: Any, seats: list[str], seed: int, config: dict[str, Any] | None = None,
              check: Callable[[Match], None] | None = None) -> Match:
    """One whole game with ``seats`` (seat i is ``seats[i]``) from ``seed``; ``check(match)`` runs after
    every action. Returns the finished Match. Raises ``ValueError`` for a human seat or an unknown
    level, ``RuntimeError`` for a game that does not end."""
    levels = [bot_level(s) for s in seats]
    rules = spec.make_rules()
    match = Match(rules, config, seed)
    bots = [make_agent(spec, i, lv, seed * 8 + i) for i, lv in enumerate(levels)]
    for _ in range(MAX_ACTIONS):
        if match.is_over():
            return match
        p = match.active_players()[0]
        if not 0 <= p < len(bots):
            raise RuntimeError(f"{spec.name}: player {p} has no bot (the generic driver plays only seats)")
        match.submit(p, bots[p].select_action(rules, match.state, p))
        if check is not None:
            check(match)
    raise RuntimeError(f"{spec.name} seed {seed}: the game did not end after {MAX_ACTIONS} actions")


def plies(match: Match) -> int:
    """Actions of the players (chance, physics and timers left out)."""
    return sum(1 for e in match.log[: match.cursor] if e["p"] >= 0)


def _writer(out: Any) -> Callable[[str], None]:
    if callable(out) and not hasattr(out, "write"):
        return out

    def write(line: str) -> None:
        out.write(line + "\n")
        if hasattr(out, "flush"):
            out.flush()
    return write


def run(spec: Any, seats: list[str], games: int, seed: int,
        config_for: Callable[[list[str]], dict[str, Any]] | None = None, json_lines: bool = False,
        out: Any = print, check: Callable[[Match], None] | None = None) -> dict[str, Any]:
    """Play the games (see the module doc) and return the summary dict. ``config_for(seats)`` gives the
    config of a game with those seats (default ``{"seats": seats}``). Raises ``ValueError`` for bad
    seats or a config the rules refuse."""
    seats = list(seats)
    for s in seats:
        bot_level(s)
    if games < 1:
        raise ValueError("selfplay needs at least one game")
    config_for = config_for or (lambda ss: {"seats": list(ss)})
    write = _writer(out)
    kinds = list(dict.fromkeys(seats))
    wins = {k: 0 for k in kinds}
    played = {k: 0 for k in kinds}
    draws = 0
    total_plies = 0
    for g in range(games):
        r = g % len(seats)
        sat = seats[r:] + seats[:r]
        gseed = seed + g
        match = play_game(spec, sat, gseed, config_for(sat), check)
        res = match.outcome()
        w = winner_of(res)
        for k in sat:
            played[k] += 1
        if w is None:
            draws += 1
        else:
            wins[sat[w]] += 1
        n = plies(match)
        total_plies += n
        if json_lines:
            write(json.dumps({"game": spec.name, "index": g, "seed": gseed, "seats": sat, "outcome": res,
                              "winner": w, "plies": n, "record": to_record(match)}, separators=(",", ":")))
        else:
            who = "draw" if w is None else f"seat {w} ({sat[w]}) wins"
            write(f"game {g + 1}/{games} seed {gseed}: {', '.join(sat)}: {who}, {n} plies")
    table = {}
    for k in kinds:
        lo, hi = wilson(wins[k], played[k])
        table[k] = {"wins": wins[k], "seat_games": played[k],
                    "rate": round(wins[k] / played[k], 4), "ci95": [round(lo, 4), round(hi, 4)]}
    summary = {"summary": True, "game": spec.name, "games": games, "first_seed": seed, "seats": seats,
               "draws": draws, "wins": table, "mean_plies": round(total_plies / games, 2)}
    if json_lines:
        write(json.dumps(summary, separators=(",", ":")))
    else:
        parts = [f"{k} {v['wins']}/{v['seat_games']} wins ({v['rate']:.0%}, 95% {v['ci95'][0]:.0%}-"
                 f"{v['ci95'][1]:.0%})" for k, v in table.items()]
        write(f"{games} games of {spec.name}: {'; '.join(parts)}; {draws} draws; mean {summary['mean_plies']} plies")
    return summary
