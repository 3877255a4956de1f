"""Nim: players take turns removing sticks from one heap; normal play or misère (rules.md).

State is immutable; actions are ``{"t": "take", "heap": i, "n": k}`` (k >= 1 sticks from heap i).
With ``first: "random"`` chance picks who starts (``{"t": "first", "seat": s}``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sim.core.options import Option, check as check_options, over_defaults
from sim.core.rules import CHANCE, Action, Event, GameInfo, IllegalAction

INFO = GameInfo(name="nim", title="Nim", min_players=2, max_players=2, rules_version=1)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_heaps(heaps: Any) -> list[int]:
    if not isinstance(heaps, (list, tuple)) or not 1 <= len(heaps) <= 6 \
            or not all(_int(h) and 1 <= h <= 15 for h in heaps):
        raise ValueError("heaps must be 1 to 6 heaps of 1 to 15 sticks")
    return list(heaps)


def parse_heaps(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--heaps takes whole numbers separated by commas, not {text!r}") from None


OPTIONS = (
    Option("heaps", "Heaps", [3, 4, 5], choices=([3, 4, 5], [1, 3, 5, 7], [2, 2]), labels=("3 4 5", "1 3 5 7", "2 2"),
           validate=check_heaps, to_config=parse_heaps, flag_type=str, metavar="3,4,5",
           help="sticks per heap, e.g. 3,4,5"),
    Option("misere", "Last stick", False, labels=("wins", "loses (misère)"), help="who takes the last stick loses"),
    Option("first", "First move", 0, choices=(0, 1, "random"), labels=("P1", "P2", "Random"), dialog_only=True),
)


@dataclass(frozen=True)
class NimState:
    """``heaps``: sticks left per heap; ``player``: seat to move, -1 while chance picks the first;
    ``last``: seat that took the last stick (-1 before the end); ``misere``: taking it loses."""

    heaps: tuple[int, ...]
    start: tuple[int, ...]
    misere: bool
    player: int = -1
    ply: int = 0
    last: int = -1


class NimRules:
    """Config: ``heaps`` (1..6 heaps of 1..15 sticks, default [3, 4, 5]), ``misere`` (bool),
    ``first`` (0, 1 or "random")."""

    info = INFO

    def default_config(self) -> dict[str, Any]:
        return {"heaps": [3, 4, 5], "misere": False, "first": 0}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        out = over_defaults(self.default_config(), config)
        return check_options(OPTIONS, out)

    def initial_state(self, config: dict[str, Any]) -> NimState:
        cfg = self.validate_config(config)
        heaps = tuple(cfg["heaps"])
        first = -1 if cfg["first"] == "random" else cfg["first"]
        return NimState(heaps=heaps, start=heaps, misere=cfg["misere"], player=first)

    def active_players(self, s: NimState) -> list[int]:
        if self.is_terminal(s):
            return []
        return [CHANCE] if s.player < 0 else [s.player]

    def chance_outcomes(self, s: NimState) -> list[tuple[Action, float]]:
        if s.player >= 0 or self.is_terminal(s):
            return []
        return [({"t": "first", "seat": 0}, 0.5), ({"t": "first", "seat": 1}, 0.5)]

    def legal_actions(self, s: NimState, player: int) -> list[Action]:
        if player != s.player or self.is_terminal(s):
            return []
        return [{"t": "take", "heap": i, "n": k} for i, h in enumerate(s.heaps) for k in range(1, h + 1)]

    def check(self, s: NimState, player: int, action: Action) -> None:
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        if self.is_terminal(s):
            raise IllegalAction("the game is over")
        if player == CHANCE and s.player < 0:
            if set(action) != {"t", "seat"} or action.get("t") != "first" or action["seat"] not in (0, 1) \
                    or not _int(action["seat"]):
                raise IllegalAction("chance picks the first seat, 0 or 1")
            return
        if player != s.player:
            raise IllegalAction("it is not your turn")
        if set(action) != {"t", "heap", "n"} or action["t"] != "take":
            raise IllegalAction("an action takes sticks: {t: take, heap, n}")
        i, n = action["heap"], action["n"]
        if not _int(i) or not 0 <= i < len(s.heaps):
            raise IllegalAction(f"there is no heap {i!r}")
        if not _int(n) or n < 1:
            raise IllegalAction("take at least one stick")
        if n > s.heaps[i]:
            raise IllegalAction(f"heap {i + 1} has only {s.heaps[i]} sticks")

    def apply(self, s: NimState, player: int, action: Action) -> tuple[NimState, list[Event]]:
        self.check(s, player, action)
        if action["t"] == "first":
            return replace(s, player=action["seat"]), [{"e": "first", "seat": action["seat"]}]
        i, n = action["heap"], action["n"]
        heaps = s.heaps[:i] + (s.heaps[i] - n,) + s.heaps[i + 1:]
        events: list[Event] = [{"e": "take", "player": player, "heap": i, "n": n}]
        done = not any(heaps)
        out = replace(s, heaps=heaps, player=1 - player, ply=s.ply + 1, last=player if done else -1)
        if done:
            events.append({"e": "over", "winner": self.winner(out)})
        return out, events

    def is_terminal(self, s: NimState) -> bool:
        return not any(s.heaps)

    def winner(self, s: NimState) -> int | None:
        """Normal play: who took the last stick wins; misère: that player loses. None while in play."""
        if not self.is_terminal(s):
            return None
        return 1 - s.last if s.misere else s.last

    def outcome(self, s: NimState) -> dict[str, Any]:
        w = self.winner(s)
        scores = [0, 0] if w is None else [int(w == 0), int(w == 1)]
        return {"winner": w, "scores": scores, "plies": s.ply,
                "ranking": [0, 1] if w is None else [w, 1 - w]}

    def undoable(self, s: NimState, player: int, action: Action) -> bool:
        return True

    # ------------------------------------------------------------------ LAN (sim.core.rules.LanRules)
    def observe(self, s: NimState, seat: int) -> NimState:
        """Nim has no secrets: every seat sees the whole state."""
        if seat not in (0, 1):
            raise ValueError(f"Nim has seats 0 and 1, not {seat!r}")
        return s

    def state_to_json(self, s: NimState) -> dict[str, Any]:
        return {"heaps": list(s.heaps), "start": list(s.start), "misere": s.misere, "player": s.player,
                "ply": s.ply, "last": s.last}

    def state_from_json(self, obj: Any) -> NimState:
        keys = {"heaps", "start", "misere", "player", "ply", "last"}
        if not isinstance(obj, dict) or set(obj) != keys:
            raise ValueError("a Nim state has exactly the keys " + ", ".join(sorted(keys)))
        start, heaps = check_heaps(obj["start"]), obj["heaps"]
        if not isinstance(heaps, list) or len(heaps) != len(start):
            raise ValueError("a Nim state has one count per heap")
        s = NimState(heaps=tuple(heaps), start=tuple(start), misere=obj["misere"], player=obj["player"],
                     ply=obj["ply"], last=obj["last"])
        if not isinstance(s.misere, bool) or not all(_int(x) for x in (*s.heaps, s.player, s.ply, s.last)) \
                or self.invariants(s):
            raise ValueError("not a Nim position")
        return s

    def invariants(self, s: NimState) -> list[str]:
        bad = []
        if len(s.heaps) != len(s.start) or any(not 0 <= h <= h0 for h, h0 in zip(s.heaps, s.start)):
            bad.append("a heap grew or went below zero")
        if self.is_terminal(s) != (s.last in (0, 1)):
            bad.append("the last taker is set before the end, or missing at the end")
        if s.player not in (-1, 0, 1) or (s.player == -1 and s.ply):
            bad.append("no seat to move after the first move")
        if s.ply > sum(s.start) - sum(s.heaps):
            bad.append("more moves than sticks taken")
        return bad
