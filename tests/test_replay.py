"""Replay controls over a game scene (``playtable replay FILE`` without --headless)."""
from __future__ import annotations

import pygame

from games.gobble import SOLITAIRE
from sim.app.app import App
from sim.app.launcher import LauncherScene
from sim.app.replay import ReplayScene
from sim.app.cli import play_bot_game
from events import key



def test_replay_steps_by_decisions_and_esc_returns_to_launcher():
    match = play_bot_game(SOLITAIRE, "greedy", 4)
    app = App(headless=True)
    try:
        launcher = app.push(LauncherScene(app))
        app.start_match(SOLITAIRE, match, autosave=False)
        rs = app.push(ReplayScene(app, match, autoplay=False))
        seen = []
        for _ in range(12):
            assert match.active_players() == [0] or match.is_over()  # a player is to act: tile shown
            seen.append(match.cursor)
            app.step([key(pygame.K_RIGHT)], 1 / 60)
        assert seen == sorted(seen) and len(set(seen)) == len(seen)
        app.step([key(pygame.K_LEFT)], 1 / 60)
        assert match.cursor == seen[-1]
        app.step([key(pygame.K_END)], 1 / 60)
        assert match.is_over()
        # Home goes back to the first decision, after the start tiles and first draw
        app.step([key(pygame.K_HOME)], 1 / 60)
        assert match.cursor == rs.stops()[0] and len(match.state.board) == 2
        app.step([key(pygame.K_ESCAPE)], 1 / 60)
        assert app.top is launcher
    finally:
        app.close()
