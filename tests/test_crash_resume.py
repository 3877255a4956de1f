"""A game killed with SIGKILL is offered "Resume" on the next launch and restores the exact position,
for every registered game.

A child process plays a game headless with the autosave on (every seat at this machine, seeded random
legal moves from the conformance driver, Tokami's physics outcomes from its driver, real-time Gobble's
clock through ``Match.advance``; the screen drawn after every move) and is killed with SIGKILL while
it still plays, most likely in the middle of an autosave. The next start offers Resume; the resumed
match equals by value (``state ==``) the live game at its last autosave, which the same seeded moves
give again here. Temporary files the kill left behind are dated back past ``STALE_TEMP_AGE`` (the next
start is a later session; a younger one may be a write in progress in another window, and stays) and
the next start removes them.
"""
from __future__ import annotations

import json
import os
import pickle
import random
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pygame
import pytest

from sim.core import registry
from sim.core.match import Match

REPO = Path(__file__).resolve().parents[1]
GAMES = registry.game_names()
SEED = 4242
#: moves before the child says READY, and the moves it makes at most (then it only draws)
READY_AT, MOVES = 12, 40

CHILD = textwrap.dedent("""
    import os, pickle, random, sys
    os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
    sys.path.insert(0, os.path.join(sys.argv[5], "tests"))
    from test_conformance import random_step
    from sim.app.app import App
    from sim.app.fuzz import human_config
    from sim.app.launcher import LauncherScene
    from sim.core import registry
    from sim.core.match import Match
    name, seed, ready_at, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    spec = registry.get_spec(name)
    app = App(headless=True)
    app.push(LauncherScene(app))
    match = Match(spec.make_rules(), human_config(spec), seed)
    app.start_match(spec, match)
    rng = random.Random(seed)
    for i in range(moves):
        if i == ready_at:
            with open("live.pickle", "wb") as f:   # the live game's states, for the test to compare
                pickle.dump(match.states, f)
            print("READY", len(match.log), flush=True)
        random_step(match, rng)
        app.step([], 0.0)   # draw the move; no time passes outside the moves
    print("IDLE", len(match.log), flush=True)
    while True:
        app.step([], 0.0)
""")


def drive(name: str, steps: int) -> Match:
    """The child's game in this process: the same seeded moves, ``steps`` of them."""
    from sim.app.fuzz import human_config
    from test_conformance import random_step
    spec = registry.get_spec(name)
    m = Match(spec.make_rules(), human_config(spec), SEED)
    rng = random.Random(SEED)
    for _ in range(steps):
        random_step(m, rng)
    return m


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("name", GAMES)
def test_sigkill_mid_game_then_resume(name, tmp_path, monkeypatch):
    from sim.core import storage
    if str(REPO / "tests") not in sys.path:
        sys.path.insert(0, str(REPO / "tests"))   # the conformance driver, as the child imports it
    ended = drive(name, MOVES)
    assert not ended.is_over(), f"{name}: the child's game ends within {MOVES} moves; kill it earlier"
    home = tmp_path / "home"
    env = dict(os.environ, PLAYTABLE_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, name, str(SEED), str(READY_AT), str(MOVES), str(REPO)],
                            env=env, cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "the child did not start within 120 s"
        line = proc.stdout.readline()
        assert line.startswith("READY"), proc.stderr.read() if proc.poll() is not None else line
        time.sleep(random.Random(name).uniform(0.02, 0.2))   # while it plays on
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL

    live = pickle.loads((tmp_path / "live.pickle").read_bytes())
    saved = json.loads((home / "autosave.json").read_text())
    k = len(saved["actions"])
    assert k >= len(live) - 1   # at least the moves made before READY were saved
    expected = drive(name, MOVES)
    assert live == expected.states[: len(live)]   # the re-played moves are the child's moves
    temps = sorted(home.glob(".*.tmp"))
    for f in temps:   # the next start is a later session
        t = f.stat().st_mtime - 2 * storage.STALE_TEMP_AGE
        os.utime(f, (t, t))

    monkeypatch.setenv("PLAYTABLE_HOME", str(home))
    from sim.app.app import App
    from sim.app.launcher import LauncherScene

    app = App(headless=True)
    try:
        launcher = app.push(LauncherScene(app))
        app.step([], 1 / 60)
        assert launcher.resume_match is not None, launcher.resume_error
        assert launcher.resume_button in launcher.buttons()
        assert list(home.glob(".*.tmp")) == [], f"left behind: {temps}"
        # press Resume as a player would: click the button
        app.step([], 1 / 60)
        c = app.logical_to_window(launcher.resume_button.rect.center)
        app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=c, button=1),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=c, button=1)], 1 / 60)
        resumed = app.match
        assert resumed is not None and app.top is not launcher
        assert resumed.log == expected.log[:k] and resumed.cursor == k
        assert resumed.state == expected.states[k]   # the live game at its last autosave
        if k < len(live):
            assert resumed.state == live[k]
        print(name, "log at the kill", k, "of", len(expected.log), "temporary files left by the kill", len(temps))
    finally:
        app.close()
