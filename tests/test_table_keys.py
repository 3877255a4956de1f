"""The table keys the launcher advertises (Ctrl+Z / Ctrl+Y undo / redo, H hint, F1 rules, Esc back) in
every registered game: each does what it says, or a toast says why not (sim/app/table.py)."""
from __future__ import annotations

import time

import pygame
import pytest

from events import key
from sim.app.app import App
from sim.app.launcher import LauncherScene
from sim.app.rules_view import RulesScene
from sim.app.table import TableScene
from sim.core import registry
from sim.core.match import Match
from sim.core.rules import CHANCE, CLOCK, PHYSICS
from sim.core.seats import names as seat_names

STEP = App.STEP
CTRL = pygame.KMOD_LCTRL

#: a config per game with a human at seat 0 and a bot beside (the bot's level fast to think)
CONFIGS = {
    "gobble-solitaire": {},
    "gobble": {"players": 2, "seats": ["human", "bot:easy"]},
    "tumbleweed": {"size": 6, "seats": ["human", "bot:easy"]},
    "tokami": {"players": 2, "seats": ["human", "human"], "practice": True},
    "streetcar": {"players": 2, "seats": ["human", "human"]},
    "tomtube": {"seats": ["human", "human"]},
}


def start(app: App, name: str):
    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    match = Match(spec.make_rules(), CONFIGS[name], 7)
    scene = app.start_match(spec, match)
    app.step([], STEP)
    return scene, match


def frames(app: App, n: int = 1) -> None:
    for _ in range(n):
        app.step([], STEP)


def human_move(match: Match) -> bool:
    """Play a legal action for the human at seat 0 when it is to act (not chance or physics)."""
    act = match.active_players()
    if not act or act[0] in (CHANCE, PHYSICS, CLOCK) or 0 not in act:
        return False
    legal = match.rules.legal_actions(match.state, 0)
    if not legal:
        return False
    match.submit(0, legal[0])
    return True


def test_every_registered_game_is_covered():
    assert set(CONFIGS) == set(registry.game_names())


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_screen_is_a_table_screen(app, name):
    scene, _m = start(app, name)
    assert isinstance(scene, TableScene) and scene.spec.name == name


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_undo_and_redo_keys_act_or_say_why(app, name):
    scene, m = start(app, name)
    before = (m.cursor, len(m.log))
    app.step([key(pygame.K_z, CTRL)], STEP)       # nothing of the human's to take back yet
    assert (m.cursor, len(m.log)) == before and app.toast_text
    app._toast = None
    app.step([key(pygame.K_y, CTRL)], STEP)
    assert (m.cursor, len(m.log)) == before and app.toast_text
    app._toast = None
    if not human_move(m):
        return
    frames(app)
    moved = m.cursor
    app.step([key(pygame.K_z, CTRL)], STEP)
    if m.cursor < moved:                           # taken back: redo plays it again
        assert app.toast_text is None
        app.step([key(pygame.K_y, CTRL)], STEP)
        assert m.cursor == moved and app.toast_text is None
    else:                                          # the game's policy says no, and why
        assert m.cursor == moved and app.toast_text
        app._toast = None
        app.step([key(pygame.K_z, CTRL | pygame.KMOD_LSHIFT)], STEP)
        assert m.cursor == moved and app.toast_text


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_hint_key_gives_a_hint_or_says_why(app, name):
    scene, m = start(app, name)
    app.step([key(pygame.K_h)], STEP)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        said = scene.msg[0] if scene.msg else ""
        if app.toast_text or said.startswith("Hint"):
            break
        time.sleep(0.02)
        frames(app)
    said = scene.msg[0] if scene.msg else ""
    assert app.toast_text or said.startswith("Hint"), (app.toast_text, said)
    if said.startswith("Hint") and getattr(scene, "hint", None) is not None:
        assert scene.hint[0] == m.cursor


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_f1_shows_the_rules_and_esc_goes_back(app, name):
    scene, _m = start(app, name)
    app.step([key(pygame.K_F1)], STEP)
    assert isinstance(app.top, RulesScene) and app.top.spec.name == name
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is scene
    for _ in range(3):                             # Esc first drops a selection, if the game has one
        app.step([key(pygame.K_ESCAPE)], STEP)
        if isinstance(app.top, LauncherScene):
            break
    assert isinstance(app.top, LauncherScene)


@pytest.mark.parametrize("name", sorted(n for n in CONFIGS if n != "gobble-solitaire"))
def test_a_name_given_to_a_seat_is_what_the_table_calls_it(app, name):
    """Seats are the match's: a name typed for a human seat (the set-up dialog) names it at the table."""
    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    match = Match(spec.make_rules(), CONFIGS[name], 7)
    match.seats = seat_names(match.seats, ["Zoë"])
    scene = app.start_match(spec, match)
    app.step([], STEP)
    assert "Zoë" in scene.seat_name(0) and "Zoë" not in scene.seat_name(1)


def test_what_undo_takes_back_follows_the_log_the_same_frame(app):
    """The table works out what Ctrl+Z takes back once per position of the log: a human's action, one
    taken back, and another action in its place at the same length of the log each show at once."""
    scene, m = start(app, "tumbleweed")
    assert scene.undo_steps() == 0
    n = len(m.log)
    assert human_move(m)
    assert scene.undo_steps() > 0
    m.undo()
    assert scene.undo_steps() == 0
    m.truncate(n)
    legal = m.rules.legal_actions(m.state, 0)
    m.submit(0, legal[-1])
    assert len(m.log) == n + 1 and scene.undo_steps() > 0
    scene.seat_list[0] = type(scene.seat_list[0])("bot", "easy")
    assert scene.undo_steps() == 0               # a bot's action alone is not taken back
