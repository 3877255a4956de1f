"""Tom Tube selfplay: whole games between bots and random players, headless.

:func:`run` plays ``games`` games, game ``i`` from seed ``seed + i``, seat 0 (Tom) and seat 1 (Dave)
taken by ``players`` ("bot" or "random"), and writes one line per game and a summary line to ``out``
(an object with ``write``, or a function taking one line). With ``json_lines`` each game line is a JSON
object: the seed, the players, the result (scores, the final score breakdown of both astronauts, the
winner, how the game ended) and the full match record, which ``playtable replay`` reads. The rules'
invariants - every counter in the stock, on the board, on a base or on a solar module; every rhomb and
triangle accounted for - are checked after every action.

:func:`placement_stats` plays games of random placement only (research/tomtube.md §6) and returns the
averages to compare with the research figures.
"""
from __future__ import annotations

import json
import random
import time
from typing import Any, Callable

from sim.core.match import Match
from sim.core.record import to_record

from .ai import AGENTS, make_agent
from .geometry import INTERIOR
from .rules import TomTubeRules

#: A game that has not ended after this many actions is a bug, not a long game.
MAX_ACTIONS = 20000


def parse_players(players: list[str]) -> list[str]:
    """Check two seats of known agents; ValueError otherwise."""
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise ValueError("Tom Tube takes exactly two players")
    for p in players:
        if p not in AGENTS:
            raise ValueError(f"unknown player {p!r} (known: {', '.join(AGENTS)})")
    return list(players)


def game_config(beginner_energy: int = 0, aliens: bool = True) -> dict[str, Any]:
    """The match config of selfplay: random first player, ``beginner_energy`` extra launch energy
    counters for seat 0 (Tom), with or without control and alien counters."""
    return TomTubeRules().validate_config({"first": "random", "extra_energy": [beginner_energy, 0],
                                           "alien_control": aliens})


def play_game(players: list[str], seed: int, config: dict[str, Any] | None = None, check: bool = True,
              timing: list[tuple[str, float]] | None = None) -> Match:
    """One whole game from ``seed``; with ``check`` raises AssertionError naming the seed and action if an
    invariant breaks; ``timing`` (a list) receives ``(phase, seconds)`` for every decision of a "bot"
    seat."""
    parse_players(players)
    rules = TomTubeRules()
    match = Match(rules, config or game_config(), seed)
    agents = [make_agent(name, seed * 2 + i) for i, name in enumerate(players)]
    while not match.is_over():
        if len(match.log) > MAX_ACTIONS:
            raise RuntimeError(f"seed {seed}: the game did not end after {MAX_ACTIONS} actions")
        p = match.active_players()[0]
        t0 = time.perf_counter()
        action = agents[p].select_action(rules, match.state, p)
        if timing is not None and players[p] == "bot":
            timing.append((match.state.phase, time.perf_counter() - t0))
        match.submit(p, action)
        if check:
            bad = rules.invariants(match.state)
            if bad:
                raise AssertionError(f"seed {seed}, action {len(match.log)}: {bad}")
    return match


def _emit(out: Any, line: str) -> None:
    if hasattr(out, "write"):
        out.write(line + "\n")
        flush = getattr(out, "flush", None)
        if flush:
            flush()
    else:
        out(line)


def run(players: list[str], games: int, seed: int, beginner_energy: int = 0, aliens: bool = True,
        json_lines: bool = False, out: Any = None) -> dict[str, Any]:
    """Play ``games`` games of ``players`` (e.g. ``["bot", "random"]``) from seeds ``seed``, ``seed + 1``
    ...; write a line per game and a summary line to ``out`` (``write`` method or a callable; default
    nowhere) and return the summary: wins per seat, draws, how games ended, mean scores, turns and rhombs
    placed, strandings, games per second. Raises ValueError for bad players, options or a game count
    below 1."""
    parse_players(players)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError("games must be at least 1")
    config = game_config(beginner_energy, aliens)
    sink: Callable[[str], None] | Any = out if out is not None else (lambda line: None)
    wins = [0, 0]
    draws = 0
    ends: dict[str, int] = {}
    stranded = [0, 0]
    scores = [0, 0]
    turns = rhombs = 0
    t0 = time.perf_counter()
    for i in range(games):
        g_seed = seed + i
        m = play_game(players, g_seed, config)
        res = m.outcome()
        if res["winner"] is None:
            draws += 1
        else:
            wins[res["winner"]] += 1
        ends[res["end"]] = ends.get(res["end"], 0) + 1
        for p in (0, 1):
            stranded[p] += bool(res["stranded"][p])
            scores[p] += res["scores"][p]
        turns += res["turns"]
        rhombs += res["rhombs_placed"]
        if json_lines:
            line = {"game": "tomtube", "seed": g_seed, "players": list(players), "result": res,
                    "record": to_record(m)}
            _emit(sink, json.dumps(line, separators=(",", ":")))
        else:
            who = "draw" if res["winner"] is None else f"{players[res['winner']]}#{res['winner']} wins"
            _emit(sink, f"game {i + 1}/{games} seed {g_seed}: {who} {res['scores'][0]}-{res['scores'][1]}, "
                        f"end {res['end']}, {res['turns']} turns, {res['rhombs_placed']} rhombs")
    elapsed = time.perf_counter() - t0
    summary = {"summary": True, "game": "tomtube", "players": list(players), "games": games, "first_seed": seed,
               "beginner_energy": beginner_energy, "aliens": aliens, "wins_by_seat": wins, "draws": draws,
               "ends": dict(sorted(ends.items())), "stranded_by_seat": stranded,
               "mean_scores": [round(x / games, 3) for x in scores], "mean_turns": round(turns / games, 2),
               "mean_rhombs_placed": round(rhombs / games, 2),
               "games_per_second": round(games / elapsed, 3) if elapsed > 0 else None}
    if json_lines:
        _emit(sink, json.dumps(summary, separators=(",", ":")))
    else:
        _emit(sink, f"{games} games {players[0]} (Tom) vs {players[1]} (Dave): wins {wins}, {draws} draws, "
                    f"ends {summary['ends']}, mean scores {summary['mean_scores']}, "
                    f"{summary['games_per_second']} games/s")
    return summary


def placement_stats(games: int, seed: int, aliens: bool = True) -> dict[str, float]:
    """Games of random placement only (research §6): each turn the player draws and places the rhomb on
    a random free slot in a random orientation and fills isolated triangles with random pieces of his
    (the other player then always fills); nobody moves, so a game ends when no rhomb can be placed.
    Returns the averages per game: rhombs placed, triangles used, control and alien spheres (knots
    completed with one or no tube end, counted whether or not the stock still had a counter), energy
    counters placed, complete interior knots."""
    rules = TomTubeRules()
    tot = {"rhombs": 0, "triangles": 0, "control_spheres": 0, "alien_spheres": 0, "energy_counters": 0,
           "complete_interior": 0}
    for g in range(games):
        rng = random.Random(f"placement/{seed + g}")
        m = Match(rules, {"first": "random", "alien_control": aliens}, seed + g)
        while not m.is_over():
            s = m.state
            p = m.active_players()[0]
            acts = rules.legal_actions(s, p)
            if s.phase == "turn":
                action = {"t": "draw"}
            elif s.phase == "fill_other":
                action = rng.choice([a for a in acts if a["t"] == "fill"])
            else:
                action = rng.choice(acts)
            for e in m.submit(p, action):
                if e["e"] == "sphere":
                    tot[f"{e['kind']}_spheres"] += 1
                elif e["e"] == "counter" and e["kind"] == "energy":
                    tot["energy_counters"] += 1
        b = m.state.board
        tot["rhombs"] += len(b.rhombs)
        tot["triangles"] += len(b.pieces)
        tot["complete_interior"] += len(b.complete & INTERIOR)
    out = {k: round(v / games, 3) for k, v in tot.items()}
    out["games"] = games
    return out

