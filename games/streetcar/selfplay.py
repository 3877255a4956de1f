"""Streetcar's part of selfplay (``playtable selfplay streetcar``; the driver is ``sim.core.selfplay``).

Each game line adds the dice option (``dice``) and the plays in order (``plays``): each tile play (seat,
tile, rotation, x, y, placed or exchanged, from whose hand), each trip start, each roll with its faces,
the die chosen and the tram's path, each stop and pass. The figures: which seats completed their route
and the turns of the game.
"""
from __future__ import annotations

from typing import Any

from sim.core.selfplay import SelfplayGame


class StreetcarSelfplay(SelfplayGame):
    def __init__(self, match: Any, seats: list[str], emit: Any):
        super().__init__(match, seats, emit)
        self.plays: list[dict[str, Any]] = []
        self.roll: dict[str, Any] | None = None

    def watch(self, match: Any, events: list[dict]) -> None:
        for e in events:
            k = e.get("e")
            if k == "tile":
                self.plays.append({"seat": e["seat"], "play": "tile", "tile": e["tile"], "rot": e["rot"],
                                   "x": e["x"], "y": e["y"], "how": e["how"], "hand": e["hand"]})
            elif k == "start":
                self.plays.append({"seat": e["seat"], "play": "start", "line": e["line"], "card": e["card"],
                                   "stops": e["stops"], "end": e["end"]})
            elif k in ("pass", "stop"):
                self.plays.append({"seat": e["seat"], "play": k})
            elif k == "roll":
                self.roll = {"seat": e["seat"], "play": "roll", "faces": []}
                self.plays.append(self.roll)
            elif k == "die" and self.roll is not None:
                self.roll["faces"].append(e["face"])
            elif k == "drive" and self.roll is not None:
                self.roll.update(chosen=e["face"], path=e["path"], served=e["served"])
            elif k == "tools" and self.roll is not None:
                self.roll.update(chosen="TOOLS", path=[e["to"]])

    def fields(self) -> dict[str, Any]:
        return {"dice": self.match.config["dice"], "plays": self.plays}

    def figures(self) -> dict[str, Any]:
        res = self.match.outcome()
        return {"completed": [bool(c) for c in res["complete"]], "turns": res["turns"]}

    def text(self) -> str:
        res = self.match.outcome()
        return f"{res['turns']} turns, routes completed: {sum(map(bool, res['complete']))}/{len(res['complete'])}"
