"""Entry point of the windowed app, called by ``sim.app.cli``.

pygame is imported lazily (inside :func:`run_app`) so that ``headless`` can select the dummy SDL
drivers before pygame loads.
"""
from __future__ import annotations

import os
import sys
from typing import Any

from sim.core.match import random_seed  # noqa: F401 - kept here for callers of sim.app.main


def run_app(headless: bool = False, frames: int | None = None, screenshot: str | None = None,
            game: str | None = None, seed: int | None = None, record_path: str | None = None,
            replay: Any = None, config: dict | None = None) -> int:
    """Open the launcher and run the loop; returns the process exit code.

    ``headless``: dummy video/audio drivers (no window, no sound), fake clock. ``frames``: stop after
    that many frames (None = until the window closes or Quit). ``screenshot``: save the last frame
    (1280x800 px PNG) there. ``game``: start a new match of that registry name at once, seeded with
    ``seed`` (None = random). ``record_path``: resume the match in that record file instead (checked
    against ``game`` if both are given). ``replay``: a loaded ``Match`` to step through with the replay
    controls (``sim.app.replay.ReplayScene``) over its game scene; the autosave is left alone.
    ``config``: the new match's config (e.g. the seats of a race); invalid -> exit code 2.

    Exit codes: 0 ok; 2 unknown game or unreadable record (a one-line message goes to stderr).
    """
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    from sim.core import record
    from sim.core.match import Match
    from sim.core.registry import UnknownGame, get_spec

    # check the arguments before opening a window
    spec = match = None
    try:
        if replay is not None:
            match = replay
            spec = get_spec(match.rules.info.name)
        elif record_path is not None:
            match = record.load(record_path, expect_game=game)
            spec = get_spec(match.rules.info.name)
        elif game is not None:
            spec = get_spec(game)
            match = Match(spec.make_rules(), config, random_seed() if seed is None else int(seed))
    except (record.RecordError, UnknownGame, ValueError) as e:
        print(f"playtable: {e}", file=sys.stderr)
        return 2

    from .app import App
    from .launcher import LauncherScene

    app = App(headless=headless)
    if not headless:
        import pygame
        if pygame.display.get_driver() in ("offscreen", "dummy"):
            app.close()
            print("playtable: no display found (set DISPLAY, or run with --headless --frames N)",
                  file=sys.stderr)
            return 2
    try:
        app.push(LauncherScene(app))
        if replay is not None:
            from .replay import ReplayScene
            app.start_match(spec, match, autosave=False)
            app.push(ReplayScene(app, match))
        elif spec is not None and match is not None:
            app.start_match(spec, match)
        return app.run(frames=frames, screenshot=screenshot)
    finally:
        app.close()
