"""Tumbleweed's table options (seed 004 "Options" and "Player aid"; specs/tumbleweed.md "Rules"), declared
once for the command line, the set-up dialog and the rules' config check (``sim.core.options``)."""
from __future__ import annotations

from sim.core.options import Option

MIN_SIZE, MAX_SIZE = 4, 11
DEFAULT_SIZE = 8
SETUPS = ("original", "free")
AIDS = ("beginner", "intermediate", "expert")

OPTIONS = (
    Option("size", "Board size", DEFAULT_SIZE, lo=MIN_SIZE, hi=MAX_SIZE, offered=(6, 8, 10, 11),
           help="board side: 6, 8 (standard), 10 or 11 (any 4..11 is accepted)"),
    Option("setup", "Set-up", "original", choices=SETUPS, labels=("Original", "Free"),
           help="original: neutral stack in the centre; free: the host places it too"),
    Option("strict", "Scoring", False, labels=("Territory", "Stacks only"),
           help="score stacks only (play until the board fills)"),
    Option("aid", "Player aid", "beginner", choices=AIDS, labels=("Beginner", "Intermediate", "Expert"),
           help="player aid of the screen (default beginner)"),
)
