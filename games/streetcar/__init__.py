"""Streetcar (after Stefan Dorra's *Linie 1*): lay track to link your terminals through your stops, then
race your tram home with push-your-luck dice (specs/streetcar.md).

``SPEC`` offers the game to the app: 2 to 5 seats (hot-seat humans and bots at three levels), the options
of ``options.OPTIONS`` (dice, shared hands, draw pile: flags and set-up dialog rows), the screen
(``view.StreetcarScene``), selfplay and bench, and LAN play: each seat is sent its own
``rules.observe`` (the other players' line and route cards hidden while they build) and the game's
events, never the action log (its chance deals name the secret cards). Everything is imported lazily, so
listing the game never imports pygame.
"""
from __future__ import annotations

from pathlib import Path

from sim.core.registry import GameSpec, lazy

from .options import OPTIONS

_HERE = Path(__file__).resolve().parent
LEVELS = ("easy", "medium", "hard")


def _bot(seat: int, level: str, seed: int = 0):
    """A bot for ``seat`` at ``level`` ("easy", "medium", "hard"); ``ValueError`` if unknown."""
    from .ai import make_bot
    return make_bot(seat, level, seed)


def _bench(out) -> None:
    """The route check, bot think times and selfplay speed (``bench.run``), then the screen's frame
    time with a tile picked up on a 50-tile board (dummy video driver)."""
    from sim.app.framebench import report

    from .bench import run
    from .view import frame_times
    run(out)
    report(out, "streetcar screen: frame time at 1280x800 on a 50-tile board (dummy driver)", frame_times())


def _lan_events(events: list, seat: int) -> list:
    """The events ``seat`` is told on the LAN: every one, since none names a secret (a deal names the seat,
    not the card; a draw names the seat, not the tile, which lands in an open hand; a trip's start shows
    the cards, as the table does then)."""
    return [dict(e) for e in events]


SPEC = GameSpec(
    name="streetcar",
    title="Streetcar",
    summary="Lay track to link your terminals through your stops, then race your tram home with "
            "push-your-luck dice.",
    make_rules=lazy("games.streetcar.rules:StreetcarRules"),
    make_scene=lazy("games.streetcar.view:StreetcarScene"),
    rules_text=_HERE / "rules.md",
    players="2-5",
    make_bot=_bot,
    default_players=("human", "bot:medium", "bot:medium"),
    make_setup=lazy("games.streetcar.view:make_setup_scene"),
    levels=LEVELS,
    options=OPTIONS,
    selfplay=lazy("games.streetcar.selfplay:StreetcarSelfplay"),
    bench=_bench,
    lan=True,
    lan_events=_lan_events,
)
