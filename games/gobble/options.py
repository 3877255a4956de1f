"""The Tantrix Gobble table options (specs/gobble.md "Gobble Solitaire", "Real-time race"), declared once
for the command line, the set-up dialog and the rules' config check (``sim.core.options``). ``purist``
and ``lan_hints`` change what the screen offers, never the rules."""
from __future__ import annotations

from typing import Any

from sim.core.options import Option

GIFT_TIMEOUT = 10.0  # s, specs/gobble.md "Real-time race"


def check_gift_timeout(t: Any) -> float:
    """Seconds a gift waits before it is made automatically: 1 to 120, in whole ms."""
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not 1 <= t <= 120 or round(t, 3) != t:
        raise ValueError("gift_timeout must be 1 to 120 s, in whole milliseconds")
    return float(t)


PURIST = Option("purist", "Aids", False, labels=("Shown", "Purist: none"),
                help="purist table: no gobble markers, no fit cues, no dead-space marks, no hint")

SOLITAIRE_OPTIONS = (
    Option("escalating", "Rescues", False, labels=("1 or 2", "Neighbours - 2"),
           help="escalating rescues: a gobble of N neighbours gives N - 2 penalty tiles back"),
    PURIST,
)

RACE_OPTIONS = (
    Option("hand", "Revealed tiles", 1, lo=1, hi=3, flag="--revealed", help="tiles each player has revealed at once, 1 to 3"),
    Option("escalating", "Gifts", False, labels=("1 or 2", "Neighbours - 2"),
           help="escalating gifts: a gobble of N neighbours gives N - 2 tiles"),
    Option("gift_timeout", "Gift timer", GIFT_TIMEOUT, lo=1, hi=120, offered=(5, 10, 20, 30),
           labels=("5 s", "10 s", "20 s", "30 s"), flag="--gift-timer", validate=check_gift_timeout,
           help="seconds a gift waits for the giver's choice before it is made (default 10)"),
    PURIST,
    Option("lan_hints", "Hint vs people", False, labels=("Never", "Allowed"),
           help="allow the hint (H) in a race against other people (by default only against bots)"),
)
