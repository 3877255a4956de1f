"""Tokami: sticks piled on an X-shaped frame (specs/tokami.md).

``SPEC`` offers the game to the app: 2 to 5 seats (hot-seat humans and bots at three levels), the
options of ``options.OPTIONS`` (rounds, the starting pile, practice: flags and set-up dialog rows),
the screen (``view.TokamiScene``; on the LAN ``view_lan.TokamiLanScene``), selfplay and bench, and LAN
play with the pile on the host (``lan``: the hand stream and live frames). Everything is imported
lazily, so listing the game never imports pygame or pymunk.
"""
from __future__ import annotations

from pathlib import Path

from sim.core.registry import GameSpec, lazy

from .options import OPTIONS

_HERE = Path(__file__).resolve().parent

def _bot(seat, level, seed=0):
    from .ai import make_bot
    return make_bot(seat, level, seed)


def _bench(out) -> None:
    """``playtable bench tokami``: physics step cost and bot think times (``bench.run``), then the
    screen's frame time while dragging a stick (dummy video driver)."""
    from sim.app.framebench import report

    from .bench import run
    from .view import frame_times
    run(out)
    report(out, "tokami screen: frame time at 1280x800 (dummy driver, 4 physics steps a frame)", frame_times())


def _scene(app, match, **opts):
    """The Tokami screen: the local one, or for a game joined on the LAN (a ``RemoteMatch``) the one
    whose hand streams to the host (``view_lan.TokamiLanScene``)."""
    if getattr(match, "meta", {}).get("lan") and hasattr(match, "client"):
        from .view_lan import TokamiLanScene
        return TokamiLanScene(app, match, **opts)
    from .view import TokamiScene
    return TokamiScene(app, match, **opts)


def _lan_live(rules):
    from .lan import TokamiLive
    return TokamiLive(rules)


def _lan_live_check(msg) -> None:
    from .lan import check_frame
    check_frame(msg)


def _lan_auto(remote, seed):
    from .lan import AutoHand
    return AutoHand(remote, seed)


def _lan_events(events, seat):
    return events          # nothing in Tokami is hidden: every seat is told every event


def _describe(config) -> str:
    """One line under the set-up dialog: what the chosen rounds and practice mean."""
    n = config["rounds"]
    text = f"{n} round{'s' if n != 1 else ''}, scores add up"
    if config.get("practice"):
        text += "; practice: Ctrl+Z puts the pile back to the start of your turn"
    return text + "."


def _setup(app, spec):
    from sim.app.setup_view import SeatSetupScene
    return SeatSetupScene(app, spec, min_players=2, max_players=5, max_handicap=0, heading="New game",
                          describe=_describe)


SPEC = GameSpec(
    name="tokami",
    title="Tokami",
    summary="Pull a stick out of the pile on the X and put it back higher, without making anything fall.",
    make_rules=lazy("games.tokami.rules:TokamiRules"),
    make_scene=_scene,
    rules_text=_HERE / "rules.md",
    players="2-5",
    make_bot=_bot,
    default_players=("human", "bot:medium"),
    make_setup=_setup,
    levels=("easy", "medium", "hard"),
    options=OPTIONS,
    selfplay=lazy("games.tokami.selfplay:TokamiSelfplay"),
    bench=_bench,
    lan=True,
    make_lan_live=_lan_live,
    lan_live_check=_lan_live_check,
    lan_events=_lan_events,
    lan_auto=_lan_auto,
)
