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


# ------------------------------------------------------------------------------ reachable both ways
WITH_OPTIONS = [n for n in registry.game_names() if registry.get_spec(n).options]


def _cli_config(command: str, spec, flags: list[str]) -> dict:
    """The config (``host``: the options) the real command line makes of ``playtable COMMAND GAME FLAGS``,
    by the functions ``cli.main`` runs for it."""
    from sim.app import cli
    argv = [command, spec.name, *flags]
    if command == "selfplay" and spec.seated:
        argv += ["--players", ",".join(f"bot:{spec.seat_levels[0]}" for _ in spec.default_players)]
    args, extra = cli.build_parser().parse_known_args(argv)
    cli._game_flags(args, extra)
    if command == "host":
        return cli.host_options(spec, args, spec.make_rules().info.min_players, [])
    if command == "selfplay" and not spec.seated:
        got = cli.flags_config(spec, args)
    else:
        got = cli.seats_config(spec, args.players, args.handicap, bots_only=command == "selfplay", options=args)
    if got is None:       # no flag given: the game's own default config
        rules = spec.make_rules()
        got = rules.validate_config(rules.default_config())
    return got


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_every_option_value_is_reachable_from_the_command_line(name):
    """Each value the dialog offers is given by the option's flag on ``play``, ``selfplay`` and (LAN
    games) ``host``."""
    spec = registry.get_spec(name)
    commands = ["play", "selfplay"] + (["host"] if spec.lan else [])
    for o in spec.options:
        assert not o.dialog_only, f"{name}: {o.key} has no flag"
        for v in o.dialog_values():
            text = o.text_for(v)
            if text is None:                          # a bool flag: given, it sets the other value
                flags = [o.cli_flag] if v != o.default else []
            else:
                flags = [o.cli_flag, text]
            for command in commands:
                got = _cli_config(command, spec, flags)
                if command == "host" and not flags:
                    assert o.key not in got
                    continue
                assert got[o.key] == v, (command, o.key, v, got)


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_every_option_value_is_reachable_in_the_setup_dialog(app, name):
    """The game's set-up dialog has a row per option whose buttons, clicked, give each value, and Start
    makes a match with it."""
    from events import click
    spec = registry.get_spec(name)
    assert spec.make_setup is not None, f"{name} has options but no set-up dialog"
    app.audio.play = lambda n: None
    dlg = app.push(spec.make_setup(app, spec))
    app.step([], 1 / 60)
    keys = [c.key for c in dlg.options]
    for o in spec.options:
        assert not o.cli_only, f"{name}: {o.key} is not in the dialog"
        assert o.key in keys
        for v in o.dialog_values():
            row = dlg.option_rows[keys.index(o.key)]
            button = row[list(dlg.options[keys.index(o.key)].values).index(v)]
            click(app, button.rect.center)
            assert dlg.values[o.key] == v and dlg.config()[o.key] == v, (o.key, v)
    last = {o.key: o.dialog_values()[-1] for o in spec.options}
    if dlg.error is None:
        click(app, dlg.b_start.rect.center)
        assert app.match is not None
        assert all(app.match.config[k] == v for k, v in last.items())
