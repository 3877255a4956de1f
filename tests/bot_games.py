"""Whole bot games for the tests, through the selfplay driver (``sim.core.selfplay.play``), the rules'
invariants checked after every action unless ``check`` is false."""
from __future__ import annotations

from typing import Any

from sim.core import selfplay


def play(spec: Any, seats: list[str], seed: int, config: dict[str, Any], bots: list[Any] | None = None,
         check: bool = True) -> selfplay.SelfplayGame:
    """One whole game of ``spec`` with ``seats`` (``bots``: their bots, default the game's own)."""
    return selfplay.play(spec, seats, seed, config, selfplay.check_invariants if check else None, bots=bots)


def streetcar(players: list[str], seed: int, check: bool = True) -> tuple[Any, list[dict]]:
    """A Streetcar game of ``players`` ("bot:LEVEL") from ``seed``: the match and its plays."""
    from games.streetcar import SPEC
    game = play(SPEC, players, seed, {"players": len(players), "seats": list(players)}, check=check)
    return game.match, game.plays


def tomtube(players: list[str], seed: int) -> Any:
    """A Tom Tube match of ``players`` ("bot" or "random", Tom first) from ``seed``."""
    from games.tomtube import SPEC
    seats = [f"bot:{p}" for p in players]
    return play(SPEC, seats, seed, {"seats": seats}).match
