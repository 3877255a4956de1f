"""Nim, a game kept with the tests: its rules, a bot, a small screen and one ``GameSpec``.

Registered only by tests (``sim.core.registry.register("nim", "nim:SPEC")``); ``playtable selfplay
nim`` uses the generic selfplay driver. Flags: ``--heaps 3,4,5`` and ``--misere``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.registry import GameSpec

from .ai import LEVELS, make_agent


def _rules():
    from .rules import NimRules
    return NimRules()


def _scene(app, match, **opts):
    from .view import NimScene
    return NimScene(app, match, **opts)


def _heaps(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--heaps takes whole numbers separated by commas, not {text!r}") from None


def cli_options(parser: Any) -> None:
    """``--heaps 3,4,5`` (sticks per heap) and ``--misere`` (who takes the last stick loses)."""
    parser.add_argument("--heaps", default="3,4,5", help="sticks per heap, e.g. 3,4,5")
    parser.add_argument("--misere", action="store_true", help="who takes the last stick loses")


def make_config(options: Any, seats: list[str]) -> dict[str, Any]:
    """The config from the flags and the two seats; the rules check it (``ValueError``)."""
    return {"heaps": _heaps(getattr(options, "heaps", "3,4,5")), "misere": bool(getattr(options, "misere", False)),
            "seats": list(seats)}


SPEC = GameSpec(
    name="nim",
    title="Nim",
    summary="Take sticks from one heap a turn; normal play or misère.",
    make_rules=_rules,
    make_scene=_scene,
    rules_text=Path(__file__).resolve().parent / "rules.md",
    agents={lv: (lambda seed=0, lv=lv: make_agent(lv, seed)) for lv in LEVELS},
    default_agent="perfect",
    players="2",
    make_bot=lambda seat, level, seed=0: make_agent(level, seed),
    default_players=("human", "bot:perfect"),
    levels=LEVELS,
    cli_options=cli_options,
    make_config=make_config,
)
