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
        # a new match while the first is unfinished: the first is moved to saves/, not destroyed
        second = Match(SOLITAIRE.make_rules(), None, 32)
        app.start_match(SOLITAIRE, second)
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
