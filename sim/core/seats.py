"""Who sits at each seat of a match: a human at this machine, a bot of some level, or a LAN player.

Seats belong to the :class:`~sim.core.match.Match` and its record, never to a game's rules config (the
rules do not care who plays). On the command line and in set-up code a seat is written as text:
``"human"``, ``"bot"`` (the game's first level), ``"bot:LEVEL"`` or ``"lan:NAME"``; in a record it is an
object (:meth:`Seat.to_json`), which also keeps a name typed for a human seat.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: the longest seat name kept (characters)
MAX_NAME = 40
KINDS = ("human", "bot", "lan")


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
        """The seat as written on the command line: "human", "bot:hard", "lan:Ann"."""
        if self.kind == "bot":
            return f"bot:{self.level}" if self.level else "bot"
        if self.kind == "lan":
            return f"lan:{self.name}"
        return "human"

    def to_json(self) -> dict[str, str]:
        """The record form: ``{"kind": ...}`` plus ``"level"`` and ``"name"`` when set."""
        out = {"kind": self.kind}
        if self.level:
            out["level"] = self.level
        if self.name:
            out["name"] = self.name
        return out


def _name(v: Any) -> str:
    if not isinstance(v, str) or len(v) > MAX_NAME:
        raise ValueError(f"a seat name is text of at most {MAX_NAME} characters")
    return v


def parse(text: Any) -> Seat:
    """The :class:`Seat` written as ``text`` (or given as a record object, or a Seat); ``ValueError``
    with a reason if it is not a seat."""
    if isinstance(text, Seat):
        return text
    if isinstance(text, dict):
        if set(text) - {"kind", "level", "name"} or text.get("kind") not in KINDS:
            raise ValueError(f"not a seat: {str(text)[:60]}")
        kind = text["kind"]
        level = text.get("level", "")
        if not isinstance(level, str) or (level and kind != "bot") or len(level) > MAX_NAME:
            raise ValueError(f"not a seat: {str(text)[:60]}")
        name = _name(text.get("name", ""))
        if kind == "lan" and not name:
            raise ValueError("a LAN seat needs a name")
        return Seat(kind, level, name)
    if not isinstance(text, str):
        raise ValueError(f"a seat is written as text (human, bot:LEVEL), not {str(text)[:40]!r}")
    kind, _, rest = text.partition(":")
    if kind == "human" and not rest:
        return Seat("human")
    if kind == "bot" and len(rest) <= MAX_NAME:
        return Seat("bot", rest)
    if kind == "lan" and rest:
        return Seat("lan", name=_name(rest))
    raise ValueError(f"unknown seat {text[:40]!r} (use human or bot:LEVEL)")


def seat_count(rules: Any, config: dict[str, Any]) -> int:
    """How many seats a game of ``rules`` with the (checked) ``config`` has: the rules' fixed number, or
    the config's ``"players"``."""
    info = rules.info
    if info.min_players == info.max_players:
        return info.min_players
    n = config.get("players")
    return n if isinstance(n, int) and not isinstance(n, bool) else info.min_players


def split(config: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list | None]:
    """``config`` without its ``"seats"`` (the set-up form that the command line, the set-up dialog and
    version-1 records use), and those seats (None when it names none)."""
    if not config or "seats" not in config:
        return config, None
    cfg = dict(config)
    seats = cfg.pop("seats")
    return cfg, seats


def check(seats: Any, n: int, levels: tuple[str, ...] = ()) -> list[Seat]:
    """``seats`` (texts, record objects or Seats) as ``n`` :class:`Seat`; with ``levels``, every bot's
    level must be one of them ("" = the first). ``ValueError`` with a reason otherwise."""
    if not isinstance(seats, (list, tuple)):
        raise ValueError("seats must be a list")
    out = [parse(s) for s in seats]
    if len(out) != n:
        raise ValueError(f"seats must list {n} players, not {len(out)}")
    if levels:
        for s in out:
            if s.is_bot and s.level and s.level not in levels:
                raise ValueError(f"unknown bot level {s.level!r} (use {', '.join(levels)})")
    return out


def names(seats: list[Seat], given: list) -> list[Seat]:
    """``seats`` with the names ``given`` (one per seat, "" = none) set on the human seats."""
    out = []
    for s, n in zip(seats, list(given) + [""] * len(seats)):
        out.append(Seat(s.kind, s.level, n) if s.is_human and isinstance(n, str) and n else s)
    return out
