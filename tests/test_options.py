"""Game options declared once (sim/core/options.py): the same declaration gives the command-line
flags, the set-up dialog rows and the config check of every game that declares options."""
from __future__ import annotations

import argparse

import pytest

from sim.app.setup_view import Choice
from sim.core import options as O
from sim.core import registry

SIZE = O.Option("size", "Board size", 8, lo=4, hi=11, offered=(6, 8))
MODE = O.Option("mode", "Mode", "a", choices=("a", "b"))
ON = O.Option("shown", "Shown", True, flag="--hidden")
PAIR = O.Option("extra", "Extra", [0, 0], choices=([0, 0], [1, 0]), to_config=lambda n: [n, 0])


def test_check_normalises_fills_defaults_and_refuses_with_a_reason():
    assert O.check((SIZE, MODE, ON), {"size": 6, "other": 1}) == {"size": 6, "mode": "a", "shown": True, "other": 1}
    for bad, why in (({"size": 3}, "size must be a whole number 4..11"), ({"size": True}, "size must"),
                     ({"mode": "c"}, "mode must be one of a, b"), ({"shown": 1}, "shown must be true or false")):
        with pytest.raises(ValueError, match=why):
            O.check((SIZE, MODE, ON), bad)
    limited = O.Option("big", "Big", False, players=(3, 5))
    assert O.check((limited,), {"big": True}, players=4)["big"] is True
    with pytest.raises(ValueError, match="needs 3 to 5 players"):
        O.check((limited,), {"big": True}, players=2)


def test_flags_give_only_what_was_given():
    p = argparse.ArgumentParser()
    O.add_flags(p, (SIZE, MODE, ON, PAIR))
    assert O.from_flags((SIZE, MODE, ON, PAIR), p.parse_args([])) == {}
    got = O.from_flags((SIZE, MODE, ON, PAIR), p.parse_args(["--size", "10", "--mode", "b", "--hidden",
                                                             "--extra", "1"]))
    assert got == {"size": 10, "mode": "b", "shown": False, "extra": [1, 0]}
    with pytest.raises(SystemExit):
        p.parse_args(["--mode", "z"])


def test_dialog_rows_come_from_the_same_declaration():
    c = Choice.of(SIZE)
    assert (c.key, c.values, c.default) == ("size", (6, 8), 8)
    assert Choice.of(ON).labels == ("Off", "On") and Choice.of(MODE).values == ("a", "b")


@pytest.mark.parametrize("name", [n for n in registry.game_names() if registry.get_spec(n).options])
def test_a_game_with_options_checks_its_config_with_them(name):
    spec = registry.get_spec(name)
    rules = spec.make_rules()
    cfg = rules.validate_config(rules.default_config())
    for o in spec.options:
        assert o.key in cfg or o.optional     # an optional one may be left out of an old config
        if o.key in cfg:
            assert cfg[o.key] == o.check(cfg[o.key])
        for v in o.dialog_values():      # every value the dialog offers is a config the rules accept
            assert rules.validate_config({**cfg, o.key: v})[o.key] == v
    p = argparse.ArgumentParser()
    spec.add_flags(p)
    assert {a.dest for a in p._actions} >= {o.key for o in spec.options if not o.dialog_only}
