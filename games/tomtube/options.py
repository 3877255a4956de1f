"""Tom Tube's table options (research: rulebook "Playing with Beginners"), declared once for the command
line, the set-up dialog and the rules' config check (``sim.core.options``)."""
from __future__ import annotations

from typing import Any

from sim.core.options import Option

from .data import START_ENERGY, STOCK


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_extra_energy(ex: Any) -> list[int]:
    """Extra launch energy counters per player, ``[Tom's, Dave's]``; ``ValueError`` with a reason."""
    if not isinstance(ex, (list, tuple)) or len(ex) != 2 or not all(_int(x) and x >= 0 for x in ex):
        raise ValueError("extra_energy must be two whole numbers >= 0 (one per player)")
    if 2 * START_ENERGY + sum(ex) > STOCK["energy"]:
        raise ValueError(f"extra_energy: the stock has only {STOCK['energy'] - 2 * START_ENERGY} "
                         "energy counters to spare")
    return [int(x) for x in ex]


OPTIONS = (
    Option("extra_energy", "Extra energy", [0, 0],
           choices=([0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [0, 2], [0, 3]),
           labels=("None", "Tom +1", "Tom +2", "Tom +3", "Dave +1", "Dave +2", "Dave +3"),
           flag="--beginner-energy", to_config=lambda n: [n, 0], validate=check_extra_energy,
           help="extra launch energy counters for the first seat (Tom), for a beginner"),
    Option("alien_control", "Aliens", True, labels=("Off", "On"), flag="--no-aliens",
           help="play without control and alien counters (a beginner's game)"),
    Option("first", "First turn", "random", choices=("random", 0, 1), labels=("Random", "Tom", "Dave"),
           dialog_only=True),
)
