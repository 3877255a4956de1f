"""Hostile fuzz of every screen beside the game screens and set-up dialogs (those are in
tests/test_conformance.py): the launcher, settings, the Host and Join dialogs, each game's rules and a
replay, and the LAN lobbies against a host on loopback; and the long mode, ``python -m sim.app.fuzz``.
"""
from __future__ import annotations

import pygame
import pytest

from sim.app import fuzz
from sim.app.fuzz import HUGE_AREA, Target, fuzz_scene, run_target, targets

#: events per screen here (2,000 unless named; the long mode runs 100,000): fewer where a frame is dear
#: (each "Start hosting" in the Host dialog starts and stops a host) or the screen is mostly text
EVENTS = {"host-dialog": 800, "launcher": 1500, "settings": 1500, "rules": 500, "replay": 800}


def _events(name: str) -> int:
    return EVENTS.get(name.rpartition(":")[2], 2000)   # "launcher", or "gobble:rules" -> "rules"


@pytest.mark.parametrize("name", [t.name for t in targets() if not t.name.endswith((":screen", ":setup"))])
def test_hostile_fuzz_of_screen(name):
    (target,) = targets([name], seed=3)
    r = run_target(target, _events(name), seed=3, report=pytest.fail)
    assert r["exceptions"] == 0 and r["events"] == _events(name) and r["frames"] > 0


def test_every_game_screen_and_dialog_is_a_target():
    from sim.core import registry
    names = {t.name for t in targets()}
    assert {"launcher", "settings", "host-dialog", "join-dialog"} <= names
    for g in registry.game_names():
        spec = registry.get_spec(g)
        assert {f"{g}:screen", f"{g}:rules", f"{g}:replay"} <= names
        assert (f"{g}:setup" in names) == (spec.make_setup is not None)
        assert (f"{g}:lobby" in names) == spec.lan


def test_replays_step_through_games_with_moves():
    from sim.core import registry
    for g in registry.game_names():
        spec = registry.get_spec(g)
        m = fuzz.played(spec, fuzz.human_config(spec), 3)
        assert m.rules.invariants(m.state) == []
        if g != "tokami":   # Tokami's first move waits for a physics outcome
            assert len(m.log) > 5, g


def test_long_mode_prints_a_row_per_screen(capsys, playtable_home):
    import os
    assert fuzz.main(["--all", "--events", "12", "--seed", "4"]) == 0
    assert os.environ["PLAYTABLE_HOME"] == str(playtable_home) and list(playtable_home.iterdir()) == []
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["screen", "events", "frames", "exceptions"]
    rows = {line.split()[0]: line.split()[1:] for line in out[1:]}
    assert set(rows) == {t.name for t in targets()}
    assert all(r[0] == "12" and int(r[1]) > 0 and r[2] == "0" for r in rows.values())


@pytest.mark.parametrize("argv, says", [
    (["--events", "0", "--all"], "must be positive"),
    (["--events", "many", "--all"], "not an integer"),
    (["--events", "10"], "--all or --screen"),
    (["--screen", "no-such-screen"], "no screen named 'no-such-screen'"),
    (["--bogus"], "unrecognized arguments"),
])
def test_long_mode_bad_flags_one_line_exit_2(argv, says, capsys):
    with pytest.raises(SystemExit) as e:
        fuzz.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


def test_long_mode_counts_exceptions_and_goes_on():
    """A screen that breaks on its 5th frame: each run of it counts one exception, reported once."""
    from sim.app.launcher import LauncherScene

    def open_(app):
        base = app.push(LauncherScene(app))
        frames = [0]

        def check():
            frames[0] += 1
            assert frames[0] < 5, "broken on frame 5"
        return base, check

    reports: list[str] = []
    r = run_target(Target("broken", open_), 300, seed=1, chunk=100, report=reports.append)
    assert r["exceptions"] == 3 and 0 < r["events"] < 300 and r["frames"] == 3 * 5
    assert len(reports) == 1 and "broken on frame 5" in reports[0]


def test_huge_windows_last_a_few_frames_and_the_size_comes_back(app, monkeypatch):
    from sim.app.launcher import LauncherScene
    monkeypatch.setattr(fuzz, "HOSTILE_SIZES", ((7680, 4320), (1, 1)))   # 8K half the time
    app.push(LauncherScene(app))
    size = app.window_size()
    sizes: list[tuple[int, int]] = []
    stats = fuzz_scene(app, 1200, seed=8, check=lambda: sizes.append(app.window_size()), hostile=True)
    assert stats["resizes"] >= 2 and app.window_size() == size
    huge = [w * h > HUGE_AREA for w, h in sizes]
    assert any(huge) and set(sizes) == {size, (7680, 4320), (1, 1)}
    run = longest = 0
    for h in huge:
        run = run + 1 if h else 0
        longest = max(longest, run)
    assert 1 <= longest <= 4
    assert pygame.display.get_surface().get_size() == size
