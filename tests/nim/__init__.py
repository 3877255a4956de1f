"""Nim, a game kept with the tests: its rules, a bot, a small screen and one ``GameSpec``.

Registered only by tests (``sim.core.registry.register("nim", "nim:SPEC")``); ``playtable selfplay
nim`` uses the generic selfplay driver. Its options (``rules.OPTIONS``) give ``--heaps 3,4,5`` and
``--misere`` and the set-up dialog's rows.
"""
from __future__ import annotations

from pathlib import Path
from sim.core.registry import GameSpec, lazy

from .ai import LEVELS, make_agent
from .rules import OPTIONS, NimRules


def _setup(app, spec):
    from sim.app.setup_view import SeatSetupScene
    return SeatSetupScene(app, spec, min_players=2, max_players=2, kinds=("human", "bot:perfect", "bot:random"),
                          max_handicap=0, heading="New game")


SPEC = GameSpec(
    name="nim",
    title="Nim",
    summary="Take sticks from one heap a turn; normal play or misère.",
    make_rules=NimRules,
    make_scene=lazy("nim.view:NimScene"),
    rules_text=Path(__file__).resolve().parent / "rules.md",
    agents={lv: (lambda seed=0, lv=lv: make_agent(lv, seed)) for lv in LEVELS},
    default_agent="perfect",
    players="2",
    make_bot=lambda seat, level, seed=0: make_agent(level, seed),
    default_players=("human", "bot:perfect"),
    levels=LEVELS,
    options=OPTIONS,
    players_key=None,
    make_setup=_setup,
    lan=True,
    lan_log=True,
)
