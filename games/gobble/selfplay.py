"""Gobble's parts of selfplay (``playtable selfplay gobble`` / ``gobble-solitaire``; the driver is
``sim.core.selfplay``).

The race is played by its bots in simulated time (``sim.ai.realtime.simulate``): the clock jumps to the
next bot or rules timer. Its figures: each seat's place (1 = first), whether the race ended in a deadlock
and its length in match seconds. Solitaire has one seat, so its figures are its score summary: wins (no
penalty tile left), penalty tiles and gobbles (double gobbles included).
"""
from __future__ import annotations

from typing import Any

from sim.core.selfplay import SelfplayGame


class RaceSelfplay(SelfplayGame):
    def play(self, bots: list[Any]) -> None:
        from sim.ai.realtime import simulate
        simulate(self.match, bots)

    def figures(self) -> dict[str, Any]:
        res = self.match.outcome()
        return {"place": [res["ranking"].index(i) + 1 for i in range(len(self.seats))],
                "deadlock": bool(res["deadlock"]), "time": res["time"]}

    def text(self) -> str:
        res = self.match.outcome()
        order = ", ".join(f"{self.seats[s]}#{s}" for s in res["ranking"])
        return f"{order}{' (deadlock)' if res['deadlock'] else ''}, {res['time']:.1f} s"


class SolitaireSelfplay(SelfplayGame):
    def figures(self) -> dict[str, Any]:
        res = self.match.outcome()
        return {"win": bool(res["win"]), "penalty": res["penalty"],
                "gobbles": res["gobbles"] + res.get("double_gobbles", 0)}

    def text(self) -> str:
        f = self.figures()
        return f"{'win' if f['win'] else 'loss'}, penalty {f['penalty']}, gobbles {f['gobbles']}"
