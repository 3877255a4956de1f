"""Tom Tube's part of selfplay (``playtable selfplay tomtube``; the driver is ``sim.core.selfplay``):
the outcome holds the final score breakdown of both astronauts and how the game ended; the figures are
how it ended, each seat's score, whether it was stranded and whether it brought both solar counters
home (``both_solar``), the turns and the rhombs placed.

:func:`placement_stats` plays games of random placement only (research/tomtube.md §6) and returns the
averages to compare with the research figures.
"""
from __future__ import annotations

import random
from typing import Any

from sim.core.match import Match
from sim.core.selfplay import SelfplayGame

from .geometry import INTERIOR
from .rules import TomTubeRules


class TomTubeSelfplay(SelfplayGame):
    def figures(self) -> dict[str, Any]:
        res = self.match.outcome()
        return {"end": res["end"], "scores": res["scores"], "stranded": [bool(x) for x in res["stranded"]],
                "both_solar": [b["solar"] == 2 for b in res["breakdown"]],
                "turns": res["turns"], "rhombs_placed": res["rhombs_placed"]}

    def text(self) -> str:
        res = self.match.outcome()
        return (f"{res['scores'][0]}-{res['scores'][1]}, end {res['end']}, {res['turns']} turns, "
                f"{res['rhombs_placed']} rhombs")


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

