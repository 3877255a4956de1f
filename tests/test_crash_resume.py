"""A game killed with SIGKILL is offered "Resume" on the next launch and restores the exact position."""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent("""
    import os, sys
    os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
    from sim.app.app import App
    from sim.app.launcher import LauncherScene
    from sim.core.match import Match
    from games.gobble import SOLITAIRE
    from games.gobble.ai import make_solitaire_agent
    app = App(headless=True)
    app.push(LauncherScene(app))
    match = Match(SOLITAIRE.make_rules(), None, 4242)
    app.start_match(SOLITAIRE, match)
    bot = make_solitaire_agent("greedy", 7)
    for _ in range(int(sys.argv[1])):
        match.submit(0, bot.select_action(match.rules, match.state, 0))
        app.step([], 1 / 60)
    print("READY", len(match.log), flush=True)
    app.run()  # the real loop, until killed
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_game_then_resume(tmp_path, monkeypatch):
    home = tmp_path / "home"
    env = dict(os.environ, PLAYTABLE_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, "23"], env=env, cwd=str(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "the child did not start within 120 s"
        line = proc.stdout.readline()
        assert line.startswith("READY"), proc.stderr.read() if proc.poll() is not None else line
        n_log = int(line.split()[1])
        time.sleep(0.3)  # let the loop run a few frames
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL

    saved = json.loads((home / "autosave.json").read_text())
    assert len(saved["actions"]) == n_log

    # The same moves, replayed here, give the position the killed process had.
    from games.gobble import SOLITAIRE
    from games.gobble.ai import make_solitaire_agent
    from sim.core.match import Match

    expected = Match(SOLITAIRE.make_rules(), None, 4242)
    bot = make_solitaire_agent("greedy", 7)
    for _ in range(23):
        expected.submit(0, bot.select_action(expected.rules, expected.state, 0))

    monkeypatch.setenv("PLAYTABLE_HOME", str(home))
    from sim.app.app import App
    from sim.app.launcher import LauncherScene

    app = App(headless=True)
    launcher = LauncherScene(app)
    app.push(launcher)
    app.step([], 1 / 60)
    assert launcher.resume_match is not None, launcher.resume_error
    assert launcher.resume_button in launcher.buttons()
    # press Resume as a player would: click the button
    import pygame
    app.step([], 1 / 60)
    c = app.logical_to_window(launcher.resume_button.rect.center)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=c, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=c, button=1)], 1 / 60)
    resumed = app.match
    assert resumed is not None and app.top is not launcher
    s, e = resumed.state, expected.state
    assert resumed.log == expected.log
    assert s.board.tiles == e.board.tiles
    assert (s.bag, s.penalty, s.held, s.phase, s.rescues) == (e.bag, e.penalty, e.held, e.phase, e.rescues)
    app.close()
