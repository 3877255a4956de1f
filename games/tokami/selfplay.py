"""Tokami's part of selfplay (``playtable selfplay tokami``; the driver is ``sim.core.selfplay``; issue
"Tokami": "20 selfplay rounds of bots finish; after every turn, sticks on the X + winning + minus +
returned = 36").

The bots decide (``ai.TokamiBot.decide``) and the PHYSICS player is driven by the driver:
``settle_action`` for the set-up and for sticks slid off, ``run_plan`` of the deciding bot's (jittered)
plan for every raise and draw.

After every turn a ledger kept from the actions and events alone (the poses each physics outcome
reports, the minus / winning / return / set-up events) must place every one of the 36 sticks exactly
once: on the X, a player's winning or minus sticks, or returned to the box; and it must agree with the
rules' state. A break raises ``AssertionError`` naming the seed and the action.

Lines of its own: one per turn outcome (``{"type": "turn", ...}`` with the rules' ``turn_summary`` keys:
stick, kind across/along, lane, hp_before / hp_after in mm (to 0.01), raised, refused, fallen, winning,
minus, returned; plus seat, the bot's think time in CPU seconds and sticks left on the X; JSON only) and
one per round (``{"type": "round", "round", "scores", "totals", "turns", "falls" (fall events), "fallen"
(sticks), "minus" (per seat: minus sticks taken), "returns" (per seat: colour returns), "returned" (per
seat: sticks returned)}``, also readable). The figures: turns, sticks fallen (the set-up's included),
turns with a fall, rounds with a fall, sticks fallen in play; per seat over the rounds: minus sticks
taken, colour returns, winning and minus sticks at the end of each round, the final total.
"""
from __future__ import annotations

from typing import Any

from sim.core.rules import PHYSICS
from sim.core.selfplay import SelfplayGame

from . import driver
from .model import N_STICKS

#: A round that has not ended after this many turns is a bug, not a long round.
MAX_TURNS_PER_ROUND = 400


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


class TokamiSelfplay(SelfplayGame):
    def __init__(self, match: Any, seats: list[str], emit: Any):
        super().__init__(match, seats, emit)
        n = len(seats)
        self.ledger = Ledger(n)
        self.turns = self.falls = self.fall_turns = self.round_turns = self.thought = 0
        self.winning, self.minus = [0] * n, [0] * n
        #: per round: {"turns", "falls", "fallen", "minus", "returns", "returned"} (see the module doc)
        self.rounds: list[dict[str, Any]] = []
        self.cur = self._fresh_round()
        self.seen = 0  # log entries already watched

    def _fresh_round(self) -> dict[str, Any]:
        n = len(self.seats)
        return {"turns": 0, "falls": 0, "fallen": 0, "minus": [0] * n, "returns": [0] * n, "returned": [0] * n}

    def actor(self, player: int, bots: list[Any]) -> Any:
        """PHYSICS: the set-up settling, or the plan of the bot whose turn it is."""
        s = self.match.state
        if player != PHYSICS:
            return super().actor(player, bots)
        if s.phase == "settle":
            return driver.settle_action(s)
        plan = bots[s.player].plan
        if plan is None:
            raise AssertionError(f"seed {self.match.seed}: a physical attempt without a plan")
        return driver.run_plan(s, plan)

    def watch(self, match: Any, events: list[dict]) -> None:
        # One change is an action and the chance draws it brings about (a round's end deals the next
        # round's colours): the poses are those of a PHYSICS action among the new entries.
        new, self.seen = match.log[self.seen:match.cursor], match.cursor
        where = f"seed {match.seed}, action {len(match.log)}"
        led, cur = self.ledger, self.cur
        for entry in new:
            if entry["p"] == PHYSICS:
                led.on_x = {int(k) for k in entry["a"]["poses"]}
        ended_round = any(e["e"] == "round_end" for e in events)
        for e in events:
            k = e["e"]
            if k == "setup":
                led.returned |= set(e["fallen"])
                self.falls += len(e["fallen"])
            elif k == "fall":
                self.falls += len(e["sticks"])
                cur["falls"] += 1
                cur["fallen"] += len(e["sticks"])
            elif k == "minus":
                led.minus[e["player"]] |= set(e["sticks"])
                cur["minus"][e["player"]] += len(e["sticks"])
            elif k == "winning":
                led.winning[e["player"]].add(e["stick"])
            elif k == "return":
                led.minus[e["player"]] -= set(e["sticks"])
                led.returned |= set(e["sticks"])
                cur["returns"][e["player"]] += 1
                cur["returned"][e["player"]] += len(e["sticks"])
            elif k == "turn_end":
                bad = led.problems() + ([] if ended_round else led.agrees_with(match.state))
                if bad:
                    raise AssertionError(f"{where}, after a turn: {'; '.join(bad)}")
                self._turn_line(e)
            elif k == "round_end":
                self._round_line(e)

    def _turn_line(self, e: dict) -> None:
        self.turns += 1
        self.round_turns += 1
        self.cur["turns"] += 1
        if self.round_turns > MAX_TURNS_PER_ROUND:
            raise RuntimeError(f"seed {self.match.seed}: round {e['round'] + 1} did not end after "
                               f"{MAX_TURNS_PER_ROUND} turns")
        self.fall_turns += bool(e["fallen"])
        line = {key: e[key] for key in e if key != "e"}
        for key in ("hp_before", "hp_after"):
            if line[key] is not None:
                line[key] = round(line[key], 2)
        think = sum(sec for _i, sec in self.think[self.thought:])
        self.thought = len(self.think)
        self.emit("turn", {**line, "seat": self.seats[e["player"]], "think": round(think, 3),
                           "on_x": len(self.ledger.on_x)})

    def _round_line(self, e: dict) -> None:
        led, cur = self.ledger, self.cur
        for q in range(len(self.seats)):
            self.winning[q] += len(led.winning[q])
            self.minus[q] += len(led.minus[q])
        self.rounds.append(cur)
        self.emit("round", {"round": e["round"], "scores": e["scores"], "totals": e["totals"], **cur},
                  f"round {e['round'] + 1}/{self.match.config['rounds']}: {cur['turns']} turns, falls {cur['falls']} "
                  f"(sticks fallen {cur['fallen']}), minus sticks {cur['minus']}, colour returns {cur['returns']} "
                  f"({cur['returned']} sticks); scores {e['scores']}, totals {e['totals']}")
        self.cur = self._fresh_round()
        self.round_turns = 0
        led.reset()

    def figures(self) -> dict[str, Any]:
        n = len(self.seats)
        return {"turns": self.turns, "falls": self.falls, "turns_with_falls": self.fall_turns,
                "rounds_with_a_fall": sum(r["falls"] > 0 for r in self.rounds),
                "sticks_fallen": sum(r["fallen"] for r in self.rounds),
                "minus_taken": [sum(r["minus"][p] for r in self.rounds) for p in range(n)],
                "colour_returns": [sum(r["returns"][p] for r in self.rounds) for p in range(n)],
                "winning_sticks": list(self.winning), "minus_sticks": list(self.minus),
                "totals": list(self.match.outcome()["totals"])}

    def text(self) -> str:
        return f"totals {self.match.outcome()['totals']}"
