"""Tumbleweed (Mike Zapawa, 2020): stacks that see along hex lines (specs/tumbleweed.md).

``rules`` holds the engine (a fast mutable ``Engine`` for search and the immutable ``TumbleweedRules``
for ``Match``), ``notation`` the AbstractPlay-style cell names, move text and game records, ``ai`` the
bots, ``selfplay`` and ``bench`` the headless tools, ``view`` the screen and its set-up dialog;
``rules.md`` is the in-app rules text.

``SPEC`` registers the game: two seats (seat 0 the host, who sets up; seat 1 the guest, who chooses a
colour), each "human" or "bot:easy|medium|hard", and the options of ``options.OPTIONS``. Importing this
package never imports pygame: the screen is built lazily.
"""
from __future__ import annotations

from pathlib import Path

from sim.core.registry import GameSpec, lazy

from .options import OPTIONS

_HERE = Path(__file__).resolve().parent

LEVELS = ("easy", "medium", "hard")


def _bot(seat: int, level: str, seed: int = 0):
    """An Agent for ``seat`` at ``level`` ("easy", "medium", "hard"), seeded from ``seed`` and the seat;
    ``KeyError`` if unknown."""
    from .ai import make_agent
    return make_agent(level, seed * 2 + seat)


def _agent(level: str):
    def make(seed: int = 0):
        from .ai import make_agent
        return make_agent(level, seed)
    return make


def _bench(out) -> None:
    """``playtable bench``: playout speed and the hard bot's move times (``bench.run``), then the
    screen's frame times on a side-11 middle game (dummy video driver)."""
    from sim.app.framebench import report

    from .bench import run
    from .view import frame_times
    run(out)
    report(out, "tumbleweed screen: frame time at 1280x800 on side 11 (dummy driver)", frame_times(11))


SPEC = GameSpec(
    name="tumbleweed",
    title="Tumbleweed",
    summary="Stack your tokens where your stacks can see: two players, a hexhex board, a strong bot.",
    make_rules=lazy("games.tumbleweed.rules:TumbleweedRules"),
    make_scene=lazy("games.tumbleweed.view:TumbleweedScene"),
    rules_text=_HERE / "rules.md",
    agents={lv: _agent(lv) for lv in LEVELS},
    default_agent="medium",
    players="2",
    make_bot=_bot,
    default_players=("human", "bot:medium"),
    make_setup=lazy("games.tumbleweed.view:make_setup_scene"),
    levels=LEVELS,
    options=OPTIONS,
    players_key=None,
    selfplay=lazy("games.tumbleweed.selfplay:TumbleweedSelfplay"),
    bench=_bench,
    lan=True,
    lan_log=True,
)
