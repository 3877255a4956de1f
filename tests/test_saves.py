"""Nothing is lost: finished games are kept for replay, and a new match never silently destroys an
unfinished one."""
from __future__ import annotations

from games.gobble import SOLITAIRE
from games.gobble.ai import make_solitaire_agent
from sim.app.app import App
from sim.app.launcher import LauncherScene
from sim.core import record
from sim.core.match import Match
from sim.core.storage import autosave_path, data_dir


def _bot_moves(match, n):
    bot = make_solitaire_agent("greedy", 1)
    for _ in range(n):
        if match.is_over():
            break
        match.submit(0, bot.select_action(match.rules, match.state, 0))


def test_finished_game_is_kept_for_replay_and_unfinished_one_is_set_aside():
    app = App(headless=True)
    try:
        app.push(LauncherScene(app))
        first = Match(SOLITAIRE.make_rules(), None, 31)
        app.start_match(SOLITAIRE, first)
        _bot_moves(first, 10)
        assert record.load(autosave_path()).log == first.log
        # a new match while the first is unfinished: until its first move the first stays the autosave
        second = Match(SOLITAIRE.make_rules(), None, 32)
        app.start_match(SOLITAIRE, second)
        assert record.load(autosave_path()).log == first.log
        assert not list((data_dir() / "saves").glob("*.json"))
        # with a move the first is moved to saves/, not destroyed
        _bot_moves(second, 1)
        kept = list((data_dir() / "saves").glob("gobble-solitaire-*.json"))
        assert len(kept) == 1 and record.load(kept[0]).log == first.log
        assert record.load(autosave_path()).log == second.log
        # resuming the same match does not set it aside
        resumed = record.load(autosave_path())
        app.start_match(SOLITAIRE, resumed)
        assert len(list((data_dir() / "saves").glob("*.json"))) == 1
        # finish it: the autosave goes, the finished record stays in games/ and replays to the result
        _bot_moves(resumed, 500)
        assert resumed.is_over() and not autosave_path().exists()
        done = list((data_dir() / "games").glob("gobble-solitaire-*.json"))
        assert len(done) == 1
        again = record.load(done[0])
        assert again.is_over() and again.outcome() == resumed.outcome()
    finally:
        app.close()


def test_a_fifo_autosave_never_blocks_the_launcher_or_a_new_game():
    import os
    path = autosave_path()
    from test_cli import unblock_later
    os.mkfifo(path)   # no writer: a plain read would wait for ever
    guard = unblock_later(path)
    app = App(headless=True)
    try:
        launcher = app.push(LauncherScene(app))
        assert launcher.resume_match is None and "not a regular file" in launcher.resume_error
        app.step([], App.STEP)
        m = Match(SOLITAIRE.make_rules(), None, 5)
        app.start_match(SOLITAIRE, m)        # the odd file is set aside, the new match saved
        assert record.load(autosave_path()).seed == 5
    finally:
        guard.cancel()
        app.close()


def test_stale_temporary_files_are_removed_when_the_data_folder_is_opened():
    import os
    import time
    from sim.core import storage
    home = data_dir()
    (home / "games").mkdir(exist_ok=True)
    old = [home / ".autosave.json.k2j4x.tmp", home / "games" / ".tumbleweed-1.json.abc.tmp"]
    young = home / ".settings.json.zz9.tmp"          # a write in progress right now
    keep = home / "notes.tmp"                          # not one of ours
    for f in old + [young, keep]:
        f.write_text("{")
    past = time.time() - 3600
    for f in old + [keep]:
        os.utime(f, (past, past))
    storage._tidied.discard(home)                      # as in a new process
    assert data_dir() == home
    assert not any(f.exists() for f in old)
    assert young.exists() and keep.exists()


def _leave(app):
    """Esc on the game screen: back to the launcher (whose Resume is looked at again)."""
    import pygame
    from events import key
    app.step([key(pygame.K_ESCAPE)], App.STEP)
    launcher = app.top
    assert isinstance(launcher, LauncherScene)
    launcher.refresh_resume()
    return launcher


def test_leaving_a_set_up_screen_without_a_move_leaves_no_resume_and_no_save():
    from sim.core import registry
    app = App(headless=True)
    try:
        app.push(LauncherScene(app))
        for name in registry.game_names():
            spec = registry.get_spec(name)
            m = Match(spec.make_rules(), None, 7)
            assert not m.has_moves(), name
            app.start_match(spec, m)
            app.step([], App.STEP)
            launcher = _leave(app)
            assert launcher.resume_match is None, name
        assert not (data_dir() / "saves").exists() or not list((data_dir() / "saves").iterdir())
        # an unfinished match with a move stays the one to resume while a new set-up is left unplayed
        first = Match(SOLITAIRE.make_rules(), None, 31)
        app.start_match(SOLITAIRE, first)
        _bot_moves(first, 3)
        for name in registry.game_names():
            spec = registry.get_spec(name)
            app.start_match(spec, Match(spec.make_rules(), None, 8))
            app.step([], App.STEP)
            launcher = _leave(app)
            assert launcher.resume_match is not None and launcher.resume_match.log == first.log, name
        assert not (data_dir() / "saves").exists() or not list((data_dir() / "saves").iterdir())
    finally:
        app.close()
