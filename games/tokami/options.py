"""Tokami's table options (specs/tokami.md; rulebook: "basically anything goes" for the starting pile),
declared once for the command line, the set-up dialog and the rules' config check (``sim.core.options``)."""
from __future__ import annotations

from sim.core.options import Option

from .model import SETUPS

DEFAULT_ROUNDS = 3
MAX_ROUNDS = 20

OPTIONS = (
    Option("rounds", "Rounds", DEFAULT_ROUNDS, lo=1, hi=MAX_ROUNDS, offered=(1, 3, 5),
           help="rounds in the game, 1 to 20 (default 3); scores add up over the rounds"),
    Option("setup", "Start", "cube", choices=SETUPS, labels=("Cube", "Loose"), optional=True,
           help="starting pile: the crisscross cube (default) or sticks dropped in loosely"),
    Option("practice", "Practice", False,
           help="practice game: Ctrl+Z puts the pile back to the start of your turn"),
)
