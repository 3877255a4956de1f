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


def energy_flag(text: str) -> list[int]:
    """``--beginner-energy`` text: ``N`` or ``tom:N`` (Tom, seat 1) or ``dave:N`` (Dave, seat 2), N extra
    launch energy counters; ``argparse.ArgumentTypeError`` otherwise."""
    import argparse
    who, _, n = text.strip().lower().rpartition(":")
    try:
        k = int(n)
    except ValueError:
        k = None
    if who not in ("", "tom", "dave") or k is None:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r} (give N, tom:N or dave:N)")
    return [0, k] if who == "dave" else [k, 0]


def energy_text(ex: list[int]) -> str:
    """The ``--beginner-energy`` text of ``[Tom's, Dave's]`` (one seat has them)."""
    return f"dave:{ex[1]}" if ex[1] else f"tom:{ex[0]}"


FIRST = {"random": "random", "tom": 0, "dave": 1}


def first_flag(text: str) -> Any:
    """``--first`` text: tom, dave or random."""
    import argparse
    try:
        return FIRST[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"give tom, dave or random, not {text!r}") from None


OPTIONS = (
    Option("extra_energy", "Extra energy", [0, 0],
           choices=([0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [0, 2], [0, 3]),
           labels=("None", "Tom +1", "Tom +2", "Tom +3", "Dave +1", "Dave +2", "Dave +3"),
           flag="--beginner-energy", metavar="[tom:|dave:]N", flag_type=energy_flag, to_config=list,
           flag_text=energy_text, validate=check_extra_energy,
           help="extra launch energy counters for a beginner: N or tom:N for Tom (seat 1), dave:N for Dave"),
    Option("alien_control", "Aliens", True, labels=("Off", "On"), flag="--no-aliens",
           help="play without control and alien counters (a beginner's game)"),
    Option("first", "First turn", "random", choices=("random", 0, 1), labels=("Random", "Tom", "Dave"),
           metavar="tom|dave|random", flag_type=first_flag, to_config=lambda v: v,
           flag_text=lambda v: {0: "tom", 1: "dave"}.get(v, "random"),
           help="who has the first turn (default random)"),
)
