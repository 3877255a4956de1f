"""Streetcar's table options (specs/streetcar.md "Options"), declared once for the command line, the
set-up dialog and the rules' config check (``sim.core.options``)."""
from __future__ import annotations

from sim.core.options import Option

from .data import DICE, PILES

OPTIONS = (
    Option("dice", "Dice", "bga", choices=tuple(DICE), labels=("BGA", "Published", "Classic"),
           help="dice: bga (default: 2 two-green faces, 1 tools), published (1 two-green, 2 tools) or "
                "classic (one die 1, 2, 3, 4, H, H)"),
    Option("share_hands", "Share hands", True, flag="--no-share-hands",
           help="drivers' hands stay their own (by default builders may play a driving player's tiles)"),
    Option("pile", "Draw pile", "1995", choices=tuple(PILES), labels=("101 tiles", "BGA: 125"),
           help="draw pile: 1995 (101 tiles, default) or bga (125 tiles)"),
)
