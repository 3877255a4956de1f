"""``playtable play/selfplay`` for turn-based games with seats and flags of their own (GameSpec hooks)."""
from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from sim.app import cli
from sim.core import registry, selfplay
from sim.core.registry import GameSpec
from sim.core.rules import GameInfo


class _Rules:
    info = GameInfo("fake", "Fake", 2, 5)

    def validate_config(self, c):
        if c.get("size") not in (6, 8):
            raise ValueError("size must be 6 or 8")
        return c


def _options(p):
    p.add_argument("--size", type=int, default=8)


@pytest.fixture
def fake_game(monkeypatch):
    seen = []

    def run(spec, seats, games, seed, config_for, json_lines, out, check, baseline, clock):
        # the selfplay driver of every game gets the seats and a config from the game's own flags
        seen.append((seats, config_for(seats)["size"], games, seed, json_lines))
        out.write("ok\n")
        return {}
    monkeypatch.setattr(selfplay, "run", run)

    spec = GameSpec(name="fake", title="Fake", summary="", make_rules=_Rules, make_scene=None,
                    rules_text=Path("."), levels=("easy", "hard"), default_players=("human", "bot:easy"),
                    cli_options=_options,
                    make_config=lambda o, s: {"players": len(s), "seats": s, "size": o.size},
                    bench=lambda out: out("fake: 1 figure"))
    mod = types.ModuleType("fake_game_mod")
    mod.SPEC = spec
    monkeypatch.setitem(sys.modules, "fake_game_mod", mod)
    monkeypatch.setitem(registry.GAMES, "fake", "fake_game_mod:SPEC")
    return seen


def test_selfplay_passes_seats_and_game_flags(fake_game, capsys):
    assert cli.main(["selfplay", "fake", "--players", "bot:easy,bot:hard", "--size", "6", "--games", "3",
                     "--seed", "9", "--json"]) == 0
    assert fake_game == [(["bot:easy", "bot:hard"], 6, 3, 9, True)]
    assert capsys.readouterr().out == "ok\n"


def test_plain_bot_is_the_first_level(fake_game):
    assert cli.main(["selfplay", "fake", "--players", "bot,bot:hard"]) == 0
    assert fake_game[0][0] == ["bot:easy", "bot:hard"]


@pytest.mark.parametrize("argv, message", [
    (["selfplay", "fake", "--players", "bot:easy,human"], "selfplay seats must all be bots"),
    (["selfplay", "fake", "--players", "bot:easy,bot:medium"], "unknown player 'bot:medium'"),
    (["selfplay", "fake", "--players", "bot:easy,bot:easy", "--size", "7"], "size must be 6 or 8"),
    (["selfplay", "fake", "--sise", "7"], "unrecognized arguments: --sise 7"),
    (["selfplay", "fake", "--bot", "greedy"], "takes --players"),
    (["play", "gobble-solitaire", "--size", "7"], "unrecognized arguments: --size 7"),
    (["play", "fake", "--size", "x"], "invalid int value"),
    (["bench", "nope"], "unknown game 'nope'"),
])
def test_bad_flags_get_one_line_and_status_2(fake_game, capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert fake_game == []


def test_config_of_a_seated_game():
    spec = registry.GameSpec(name="f", title="F", summary="", make_rules=_Rules, make_scene=None,
                             rules_text=Path("."), levels=("easy",), default_players=("human", "bot:easy"),
                             make_config=lambda o, s: {"players": len(s), "seats": s, "size": 6})
    assert spec.seated and not registry.get_spec("gobble-solitaire").seated
    cfg = cli.seats_config(spec, None, None)
    assert cfg == {"players": 2, "seats": ["human", "bot:easy"], "size": 6}
    with pytest.raises(cli.UsageError, match="handicap"):
        cli.seats_config(spec, None, "1,0")


def test_bench_runs_only_the_named_game(fake_game, capsys):
    assert cli.main(["bench", "fake", "--idle", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("bare frame: fill + flip at 1280x800") and "CPU median" in out[1]
    assert out[2:] == ["fake: 1 figure"]


@pytest.mark.parametrize("value", ["-1", "soon", "nan", "5000"])
def test_bench_idle_seconds_are_checked(value, capsys):
    assert cli.main(["bench", "--idle", value]) == 2
    assert "--idle" in capsys.readouterr().err


def test_help_lists_every_games_own_flags(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = capsys.readouterr().out
    for name, spec_flag in (("tokami", "--rounds"), ("tumbleweed", "--size"), ("streetcar", "--dice"),
                            ("tomtube", "--no-aliens")):
        assert any(line.split()[:2] == [name, spec_flag] for line in out.splitlines()), (name, spec_flag)


def test_headless_replay_with_a_screenshot_saves_the_replay_screen(tmp_path, capsys):
    import json as _json

    from games.gobble.ai import make_solitaire_agent
    from sim.core.match import Match
    from sim.core.record import to_record
    from sim.core.registry import get_spec

    spec = get_spec("gobble-solitaire")
    m = Match(spec.make_rules(), None, 4)
    bot = make_solitaire_agent("greedy", 4)
    for _ in range(5):
        m.submit(0, bot.select_action(m.rules, m.state, 0))
    rec = tmp_path / "rec.json"
    rec.write_text(_json.dumps(to_record(m)))
    shot = tmp_path / "shot.png"
    assert cli.main(["--headless", "--frames", "2", "--screenshot", str(shot), "replay", str(rec)]) == 0
    assert shot.is_file() and shot.stat().st_size > 1000
    assert cli.main(["--headless", "--screenshot", str(tmp_path / "no" / "x.png"), "replay", str(rec)]) == 2
