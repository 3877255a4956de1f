"""``playtable bench``: speed figures, printed, never asserted (specs/DESIGN.md "Tests").

Every figure comes from a game's ``GameSpec.bench`` hook; this module only runs them.
"""
from __future__ import annotations

import sys


def run_bench(game: str | None = None) -> int:
    """Print every game's figures (only game ``game``'s when given); returns 0.

    Raises ``UnknownGame`` for an unknown ``game``."""
    from sim.core.registry import game_names, get_spec

    def out(line: str) -> None:
        print(line, flush=True)

    if game is not None:
        get_spec(game)  # unknown names fail before anything runs
    out(f"playtable bench (Python {sys.version.split()[0]})")
    for name in game_names():
        spec = get_spec(name)
        if spec.bench is not None and game in (None, name):
            spec.bench(out)
    return 0
