"""Tokami selfplay: bots play whole matches headless (``playtable selfplay tokami``; issue "Tokami": "20
selfplay rounds of bots finish; after every turn, sticks on the X + winning + minus + returned = 36").

:func:`run` plays ``options.games`` matches, match ``i`` from seed ``options.seed + i`` with
``options.rounds`` rounds (default the rules' 3), seats ``["bot:easy", "bot:hard", ...]``. The bots
decide (``ai.TokamiBot.decide``) and the PHYSICS player is driven by the driver: ``settle_action`` for
the set-up and for sticks slid off, ``run_plan`` of the bot's (jittered) plan for every raise and draw.

After every turn a ledger kept from the actions and events alone (the poses each physics outcome
reports, the minus / winning / return / set-up events) must place every one of the 36 sticks exactly
once: on the X, a player's winning or minus sticks, or returned to the box; and it must agree with the
rules' state, whose ``invariants`` are checked after every action. A break raises ``AssertionError``
naming the seed and the action.

With ``options.json`` it writes one JSON line per turn outcome (``{"type": "turn", ...}`` with the
rules' ``turn_summary`` keys: stick, kind across/along, lane, hp_before / hp_after in mm (to 0.01), raised,
refused, fallen, winning, minus, returned; plus seat, the bot's think time in CPU seconds and sticks
left on the X), one per round (``{"type": "round", "scores", "totals", ...}``), one per match
(``{"type": "game", "result", "record"}``: the full match record, which ``playtable replay`` reads)
and a summary line (``{"summary": true, ...}``: wins by seat, mean totals, turns, falls, mean winning
and minus sticks per seat and round, think time per decision and level in CPU seconds, wall time).
Without it, a readable line per round and a summary line.
``out`` is an object with ``write`` or a function taking one line.

``python -m games.tokami.selfplay bot:easy bot:hard --rounds 5 [--games N] [--seed S] [--json]``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable

from sim.core.match import Match, check_setup
from sim.core.record import to_record
from sim.core.rules import PHYSICS

from . import driver
from .ai import LEVELS, make_bot
from .model import N_STICKS
from .rules import DEFAULT_ROUNDS, TokamiRules

#: A round that has not ended after this many turns is a bug, not a long round.
MAX_TURNS_PER_ROUND = 400


def parse_seats(seats: list[str]) -> list[str]:
    """Bot levels of ``seats`` ("bot:easy" ...); ``ValueError`` for anything else."""
    out = []
    for p in seats:
        if not isinstance(p, str) or not p.startswith("bot:") or p[4:] not in LEVELS:
            raise ValueError(f"selfplay seats must be bots ({', '.join('bot:' + lv for lv in LEVELS)}), not {p!r}")
        out.append(p[4:])
    return out


def _emit(out: Any, line: str) -> None:
    if out is None:
        return
    if hasattr(out, "write"):
        out.write(line + "\n")
        flush = getattr(out, "flush", None)
        if flush:
            flush()
    else:
        out(line)


class Ledger:
    """Where every stick is, kept from physics outcomes and events only (independent of the rules'
    state): ``on_x`` (ids), per player ``winning`` and ``minus`` (sets of ids), ``returned``."""

    def __init__(self, players: int):
        self.players = players
        self.reset()

    def reset(self) -> None:
        self.on_x: set[int] = set()
        self.winning: list[set[int]] = [set() for _ in range(self.players)]
        self.minus: list[set[int]] = [set() for _ in range(self.players)]
        self.returned: set[int] = set()

    def places(self) -> list[int]:
        out = list(self.on_x) + list(self.returned)
        for p in range(self.players):
            out += list(self.winning[p]) + list(self.minus[p])
        return out

    def problems(self) -> list[str]:
        """Why the sticks do not add up to the 36, each exactly once (empty when they do)."""
        places = self.places()
        bad = []
        if len(places) != N_STICKS:
            bad.append(f"{len(self.on_x)} on the X + {sum(map(len, self.winning))} winning + "
                       f"{sum(map(len, self.minus))} minus + {len(self.returned)} returned = {len(places)}, "
                       f"not {N_STICKS}")
        if sorted(places) != list(range(N_STICKS)):
            bad.append("a stick is in two places or missing")
        return bad

    def agrees_with(self, s: Any) -> list[str]:
        """Differences from the rules' state ``s`` (in the same round)."""
        bad = []
        if set(s.poses) != self.on_x:
            bad.append("sticks on the X differ from the rules' state")
        if [set(w) for w in s.winning] != self.winning or [set(m) for m in s.minus] != self.minus:
            bad.append("winning or minus sticks differ from the rules' state")
        if set(s.returned) != self.returned:
            bad.append("returned sticks differ from the rules' state")
        return bad


def play_match(seats: list[str], seed: int, rounds: int = DEFAULT_ROUNDS,
               on_turn: Callable[[dict], None] | None = None,
               on_round: Callable[[dict], None] | None = None,
               setup: str = "cube") -> tuple[Match, dict[str, Any]]:
    """One whole match of bots (``seats`` like ``["bot:easy", "bot:hard"]``) from ``seed``; ``on_turn``
    gets each turn's line and ``on_round`` each round's line (see the module doc). Returns the match
    and its figures: ``{"turns", "falls", "fall_turns", "winning": [per seat, summed over the rounds],
    "minus": [...], "think": {level: [CPU seconds per decision]}, "rounds": [per round: {"turns",
    "falls" (fall events), "fallen" (sticks), "minus": [per seat: minus sticks taken], "returns": [per
    seat: colour returns], "returned": [per seat: sticks returned]}]}``; ``setup`` is the starting pile
    ("cube" or "free"). Raises
    ``AssertionError`` if the sticks do not add up after a turn, ``RuntimeError`` for a round that does
    not end, ``ValueError`` for bad seats or rounds."""
    levels = parse_seats(seats)
    rules = TokamiRules()
    config = {"players": len(seats), "seats": list(seats), "rounds": rounds}
    if setup != "cube":
        config["setup"] = setup
    match = Match(rules, config, seed)
    bots = [make_bot(i, lv, seed) for i, lv in enumerate(levels)]
    ledger = Ledger(len(seats))
    figures: dict[str, Any] = {"turns": 0, "falls": 0, "fall_turns": 0, "winning": [0] * len(seats),
                               "minus": [0] * len(seats), "think": {lv: [] for lv in LEVELS}, "rounds": []}
    n = len(seats)

    def fresh_round() -> dict[str, Any]:
        return {"turns": 0, "falls": 0, "fallen": 0, "minus": [0] * n, "returns": [0] * n, "returned": [0] * n}

    cur = fresh_round()
    plan: list | None = None
    think = 0.0
    round_turns = 0
    while not match.is_over():
        s = match.state
        p = match.active_players()[0]
        if p == PHYSICS:
            if s.phase == "settle":
                action = driver.settle_action(s)
            else:
                if plan is None:
                    raise AssertionError(f"seed {seed}: a physical attempt without a plan")
                action = driver.run_plan(s, plan)
                plan = None
        else:
            t0 = time.process_time()
            decision = bots[p].decide(s)
            dt = time.process_time() - t0
            figures["think"][levels[p]].append(dt)
            think += dt
            action = decision["action"]
            plan = decision.get("plan")
        events = match.submit(p, action)
        where = f"seed {seed}, action {len(match.log)}"
        bad = rules.invariants(match.state)
        if bad:
            raise AssertionError(f"{where}: {bad}")
        if p == PHYSICS:
            ledger.on_x = {int(k) for k in action["poses"]}
        ended_round = any(e["e"] == "round_end" for e in events)
        for e in events:
            k = e["e"]
            if k == "setup":
                ledger.returned |= set(e["fallen"])
                figures["falls"] += len(e["fallen"])
            elif k == "fall":
                figures["falls"] += len(e["sticks"])
                cur["falls"] += 1
                cur["fallen"] += len(e["sticks"])
            elif k == "minus":
                ledger.minus[e["player"]] |= set(e["sticks"])
                cur["minus"][e["player"]] += len(e["sticks"])
            elif k == "winning":
                ledger.winning[e["player"]].add(e["stick"])
            elif k == "return":
                ledger.minus[e["player"]] -= set(e["sticks"])
                ledger.returned |= set(e["sticks"])
                cur["returns"][e["player"]] += 1
                cur["returned"][e["player"]] += len(e["sticks"])
            elif k == "turn_end":
                bad = ledger.problems() + ([] if ended_round else ledger.agrees_with(match.state))
                if bad:
                    raise AssertionError(f"{where}, after a turn: {'; '.join(bad)}")
                figures["turns"] += 1
                round_turns += 1
                cur["turns"] += 1
                if round_turns > MAX_TURNS_PER_ROUND:
                    raise RuntimeError(f"seed {seed}: round {e['round'] + 1} did not end after "
                                       f"{MAX_TURNS_PER_ROUND} turns")
                figures["fall_turns"] += bool(e["fallen"])
                line = {"type": "turn", "seed": seed, **{key: e[key] for key in e if key != "e"}}
                for key in ("hp_before", "hp_after"):
                    if line[key] is not None:
                        line[key] = round(line[key], 2)
                line.update({
                        "seat": seats[e["player"]], "think": round(think, 3), "on_x": len(ledger.on_x)})
                think = 0.0
                if on_turn:
                    on_turn(line)
            elif k == "round_end":
                for q in range(len(seats)):
                    figures["winning"][q] += len(ledger.winning[q])
                    figures["minus"][q] += len(ledger.minus[q])
                figures["rounds"].append(cur)
                if on_round:
                    on_round({"type": "round", "seed": seed, "round": e["round"], "scores": e["scores"],
                              "totals": e["totals"], **cur})
                cur = fresh_round()
                round_turns = 0
                ledger.reset()
    return match, figures


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def run(options: Any, seats: list[str], out: Any) -> int:
    """``playtable selfplay tokami``: ``options`` carries ``games`` (default 1), ``seed`` (default 0),
    ``json`` (default False) and ``rounds`` (default the rules' 3); ``seats`` are bots ("bot:easy" ...).
    Writes the lines described in the module doc to ``out`` and returns 0. Raises ``ValueError`` for bad
    seats, games or rounds (the rules' reason), ``AssertionError`` if the sticks ever fail to add up."""
    def option(name: str, default: Any) -> Any:
        value = getattr(options, name, None)
        return default if value is None else value

    games = option("games", 1)
    seed = option("seed", 0)
    rounds = option("rounds", DEFAULT_ROUNDS)
    setup = option("setup", "cube")
    json_lines = bool(getattr(options, "json", False))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError("games must be at least 1")
    parse_seats(seats)
    check_setup(TokamiRules(), {"players": len(seats), "seats": list(seats), "rounds": rounds, "setup": setup})
    n = len(seats)
    fall_rounds = sticks_fallen = 0
    minus_taken = [0] * n
    returns = [0] * n
    wins = [0] * n
    ties = 0
    totals_sum = [0] * n
    won_sum = [0] * n
    minus_sum = [0] * n
    turns = falls = fall_turns = played_rounds = 0
    think: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    t0 = time.perf_counter()
    for g in range(games):
        g_seed = seed + g

        def on_turn(line: dict, g=g) -> None:
            if json_lines:
                _emit(out, json.dumps({**line, "game": g}, separators=(",", ":")))

        def on_round(line: dict, g=g, g_seed=g_seed) -> None:
            if json_lines:
                _emit(out, json.dumps({**line, "game": g}, separators=(",", ":")))
            else:
                _emit(out, f"game {g + 1}/{games} seed {g_seed} round {line['round'] + 1}/{rounds}: "
                           f"{line['turns']} turns, falls {line['falls']} (sticks fallen {line['fallen']}), "
                           f"minus sticks {line['minus']}, colour returns {line['returns']} "
                           f"({line['returned']} sticks); scores {line['scores']}, totals {line['totals']}")

        match, fig = play_match(seats, g_seed, rounds, on_turn, on_round, setup=setup)
        for row in fig["rounds"]:
            fall_rounds += row["falls"] > 0
            sticks_fallen += row["fallen"]
            for p in range(n):
                minus_taken[p] += row["minus"][p]
                returns[p] += row["returns"][p]
        res = match.outcome()
        if len(res["winners"]) == 1:
            wins[res["winners"][0]] += 1
        else:
            ties += 1
        for p in range(n):
            totals_sum[p] += res["totals"][p]
        turns += fig["turns"]
        falls += fig["falls"]
        fall_turns += fig["fall_turns"]
        played_rounds += len(res["rounds"])
        for lv, xs in fig["think"].items():
            think[lv] += xs
        for p in range(n):
            won_sum[p] += fig["winning"][p]
            minus_sum[p] += fig["minus"][p]
        if json_lines:
            _emit(out, json.dumps({"type": "game", "game": g, "seed": g_seed, "seats": list(seats),
                                   "result": res, "record": to_record(match)}, separators=(",", ":")))
    wall = time.perf_counter() - t0
    summary = {"summary": True, "game": "tokami", "seats": list(seats), "games": games, "rounds": rounds,
               "first_seed": seed, "wins_by_seat": wins, "ties": ties,
               "mean_totals": [round(t / games, 2) for t in totals_sum], "turns": turns,
               "falls": falls, "turns_with_falls": fall_turns, "setup": setup,
               "rounds_with_a_fall": fall_rounds, "rounds_played": played_rounds, "sticks_fallen": sticks_fallen,
               "minus_sticks_by_seat": minus_taken, "colour_returns_by_seat": returns,
               "mean_winning_per_round": [round(x / played_rounds, 2) for x in won_sum],
               "mean_minus_per_round": [round(x / played_rounds, 2) for x in minus_sum],
               "think_cpu_seconds": {lv: {"mean": _mean(xs), "max": round(max(xs), 4), "decisions": len(xs)}
                                 for lv, xs in think.items() if xs},
               "wall_seconds": round(wall, 2)}
    if json_lines:
        _emit(out, json.dumps(summary, separators=(",", ":")))
    else:
        thinks = ", ".join(f"{lv} {v['mean']:.2f} s mean / {v['max']:.2f} s max"
                           for lv, v in summary["think_cpu_seconds"].items())
        _emit(out, f"{games} games of {rounds} rounds ({setup} set-up): {fall_rounds}/{played_rounds} rounds with a "
                   f"fall, {sticks_fallen} sticks fell in play, minus sticks by seat {minus_taken}, colour returns by "
                   f"seat {returns}; wins by seat {wins}, ties {ties}, mean totals "
                   f"{summary['mean_totals']}; {turns} turns, {falls} sticks fell ({fall_turns} turns); "
                   f"winning / minus sticks per round {summary['mean_winning_per_round']} / "
                   f"{summary['mean_minus_per_round']}; think (CPU) {thinks}; {wall:.1f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.tokami.selfplay", description=__doc__.split("\n")[0])
    ap.add_argument("seats", nargs="+")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--setup", choices=("cube", "free"), default="cube")
    a = ap.parse_args(argv)
    try:
        parse_seats(a.seats)
        check_setup(TokamiRules(), {"players": len(a.seats), "seats": list(a.seats), "rounds": a.rounds})
        if a.games < 1:
            raise ValueError("games must be at least 1")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return run(a, a.seats, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
