"""Who sits at each seat of a match: a human at this machine, a bot of some level, or a LAN player.

A seat is written as text in configs, records and on the command line: ``"human"``, ``"bot"`` (the
game's first level), ``"bot:LEVEL"`` or ``"lan:NAME"``. :func:`parse` turns it into a :class:`Seat`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Seat:
    """``kind`` is "human", "bot" or "lan"; ``level`` a bot's level ("" = the game's default);
    ``name`` a name given by the player ("" = none)."""

    kind: str = "human"
    level: str = ""
    name: str = ""

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    def text(self) -> str:
        """The seat as written in a config: "human", "bot:hard", "lan:Ann"."""
        if self.kind == "bot":
            return f"bot:{self.level}" if self.level else "bot"
        if self.kind == "lan":
            return f"lan:{self.name}"
        return "human"


def parse(text: Any) -> Seat:
    """The :class:`Seat` written as ``text``; ``ValueError`` with a reason if it is not a seat."""
    if not isinstance(text, str):
        raise ValueError(f"a seat is written as text (human, bot:LEVEL), not {text!r}")
    kind, _, rest = text.partition(":")
    if kind == "human" and not rest:
        return Seat("human")
    if kind == "bot":
        return Seat("bot", rest)
    if kind == "lan" and rest:
        return Seat("lan", name=rest)
    raise ValueError(f"unknown seat {text!r} (use human or bot:LEVEL)")


def from_config(config: dict[str, Any], players: int = 1) -> list[Seat]:
    """The seats a match config names (its ``"seats"`` list), else ``players`` humans (the config's
    ``"players"`` count when it has one)."""
    listed = config.get("seats")
    if isinstance(listed, list) and listed:
        return [parse(s) for s in listed]
    n = config.get("players")
    n = n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else players
    return [Seat("human") for _ in range(n)]
