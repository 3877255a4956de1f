"""The measured sweep behind Tokami's pile model (``games/tokami/PHYSICS.md``).

``python -m games.tokami.sweep [--rounds N] [--seed S] [--level medium] [--only K]`` plays ``N``
one-round matches of two bots of ``level`` for every model in :data:`GRID` (friction, pull drag,
side drag, set-up) and prints one table row per model: rounds with a fall, falls (turns with a fall),
sticks fallen, minus sticks, turns. The model in use is swapped by setting ``world.PILE`` for the run
(every world built meanwhile, the bots' simulations included, uses it). CPU-heavy: about 12 s a round.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from . import world
from .world import PileModel

#: (label, model, set-up[, wing mm]) rows of the sweep; the chosen model is ``world.PILE``.
GRID: tuple = ()


def _grid() -> tuple:
    base = PileModel()
    rows = []
    for mu in (0.4, 0.3):
        for gain in (0.5, 2.0):
            rows.append((f"mu {mu} gain {gain}", replace(base, friction=mu, tug_gain=gain), "cube"))
    rows.append(("mu 0.3 gain 2.0 no side drag", replace(base, friction=0.3, tug_gain=2.0, side_drag=0.0), "cube"))
    rows.append(("mu 0.3 gain 2.0 free set-up", replace(base, friction=0.3, tug_gain=2.0), "free"))
    for wing in (90.0, 80.0):
        for mu in (0.4, 0.3):
            rows.append((f"wing {wing:.0f} mm, mu {mu} gain 2.0", replace(base, friction=mu, tug_gain=2.0), "cube",
                         wing))
    return tuple(rows)


GRID = _grid()


def measure(pile: PileModel, setup: str, rounds: int, seed: int, level: str, wing: float | None = None) -> dict:
    """Play ``rounds`` one-round matches of two ``level`` bots with ``pile`` (and wings ``wing`` mm
    long, default ``model.WING``); return the figures."""
    from sim.core import selfplay
    from sim.core.registry import get_spec

    from . import model
    seats = [f"bot:{level}"] * 2
    old = world.PILE
    old_wing = model.WING, model.WING_TIP
    world.PILE = pile
    if wing is not None:
        model.WING, model.WING_TIP = wing, wing / 2 ** 0.5
    try:
        fig = {"rounds": 0, "fall_rounds": 0, "falls": 0, "fallen": 0, "minus": 0, "turns": 0}
        for r in range(rounds):
            game = selfplay.play(get_spec("tokami"), seats, seed + r,
                                 {"players": 2, "seats": seats, "rounds": 1, "setup": setup},
                                 check=selfplay.check_invariants)
            for row in game.rounds:
                fig["rounds"] += 1
                fig["fall_rounds"] += row["falls"] > 0
                fig["falls"] += row["falls"]
                fig["fallen"] += row["fallen"]
                fig["minus"] += sum(row["minus"])
                fig["turns"] += row["turns"]
        return fig
    finally:
        world.PILE = old
        model.WING, model.WING_TIP = old_wing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m games.tokami.sweep", description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--level", default="medium")
    ap.add_argument("--only", type=int, default=None, help="run only row K of the grid")
    a = ap.parse_args(argv)
    rows = list(enumerate(GRID)) if a.only is None else [(a.only, GRID[a.only])]
    print("| # | model | set-up | rounds with a fall | falls | sticks fallen | minus sticks | turns |")
    print("|---|---|---|---|---|---|---|---|")
    for k, (label, pile, setup, *wing) in rows:
        f = measure(pile, setup, a.rounds, a.seed, a.level, *wing)
        print(f"| {k} | {label} | {setup} | {f['fall_rounds']}/{f['rounds']} | {f['falls']} | {f['fallen']} | "
              f"{f['minus']} | {f['turns']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
