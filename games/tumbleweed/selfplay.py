"""Tumbleweed's part of selfplay (``playtable selfplay tumbleweed``; the driver is ``sim.core.selfplay``).

Each game line adds the board's side (``size``) and the moves in notation (``moves``); the outcome holds
each seat's colour, stacks, territory and score and how the game ended. The figures count the suicidal
moves of each seat (a stack placed where the opponent can capture it at once) and how games ended.
"""
from __future__ import annotations

from typing import Any

from sim.core.selfplay import SelfplayGame

from .notation import move_tokens
from .rules import is_suicidal


class TumbleweedSelfplay(SelfplayGame):
    def __init__(self, match: Any, seats: list[str], emit: Any):
        super().__init__(match, seats, emit)
        self.suicidal = [0, 0]

    def watch(self, match: Any, events: list[dict]) -> None:
        entry, before = match.log[match.cursor - 1], match.states[match.cursor - 1]
        act = entry["a"]
        if before.phase == "play" and act["t"] == "place" and is_suicidal(before, (act["q"], act["r"])):
            self.suicidal[entry["p"]] += 1

    def fields(self) -> dict[str, Any]:
        return {"size": self.match.config["size"], "moves": move_tokens(self.match)}

    def figures(self) -> dict[str, Any]:
        return {"suicidal": list(self.suicidal), "ended": self.match.state.ended}

    def text(self) -> str:
        res = self.match.outcome()
        if not res["colours"]:
            return f"ended by {res['ended']}"
        red, white = (self.seats[res["colours"].index(c)] for c in ("red", "white"))
        return (f"{red} (red) {res['red']['score']} - {res['white']['score']} {white} (white), "
                f"ended by {res['ended']}")
