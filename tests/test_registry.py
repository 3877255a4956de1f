"""The registry: every listed game loads its spec, and a game package never hides its own modules."""
from __future__ import annotations

import importlib
import types
from pathlib import Path

import pytest

from sim.core.registry import GAMES, get_spec

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", list(GAMES))
def test_spec_loads_and_names_itself(name):
    spec = get_spec(name)
    assert spec.name == name and spec.title and spec.rules_text.is_file()
    rules = spec.make_rules()
    assert rules.info.name == name
    if spec.seated and not spec.realtime:
        assert spec.levels and spec.make_bot is not None


@pytest.mark.parametrize("package", sorted({GAMES[n].split(":")[0] for n in GAMES}))
def test_package_attributes_do_not_shadow_its_modules(package):
    """``from games.x import selfplay`` must give the module, not a function of the same name."""
    pkg = importlib.import_module(package)
    folder = ROOT / Path(*package.split("."))
    for path in folder.glob("*.py"):
        if path.stem == "__init__":
            continue
        value = getattr(pkg, path.stem, None)
        assert value is None or isinstance(value, types.ModuleType), f"{package}.{path.stem} is {value!r}"


def test_every_registered_game_has_a_launcher_card_in_view():
    from sim.app.launcher import CARD_GAP, CARD_H, LIST_BOTTOM, LIST_TOP, MIN_CARD_H, card_metrics
    assert card_metrics(2) == (CARD_H, CARD_GAP)
    n = len(GAMES)
    h, gap = card_metrics(n)
    assert h >= MIN_CARD_H
    assert n * h + (n - 1) * gap <= LIST_BOTTOM - LIST_TOP, "the launcher would hide a game below the fold"
