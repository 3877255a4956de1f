"""Every game screen shows its notices (status line, standing notes, the message, the bot's error and
the app's toast) in one area beside its board, one box per fact, and never over the board's rectangle:
checked with every kind of notice up at once, in the states of a seeded random playout."""
from __future__ import annotations

import random

import pygame

import pytest

from sim.app.launcher import LauncherScene
from sim.core import registry
from sim.core.match import Match

import test_conformance as conf

GAMES = registry.game_names()


def _check(app, scene, where):
    board = scene.board_rect()
    area = scene.notices_rect()
    assert board is not None and area is not None, where
    assert not area.colliderect(board), (where, area, board)
    facts = {n.key for n in scene.notice_items()}
    boxes = scene.notice_boxes
    assert len(boxes) == len(facts) and boxes, (where, facts, boxes)
    for box in boxes:
        assert area.contains(box) and not box.colliderect(board), (where, box, board)
    assert scene.shows_toasts and (app.toast_text is None or any(
        n.text == app.toast_text for n in scene.notice_items())), where


@pytest.mark.parametrize("name", GAMES)
def test_notices_stay_beside_the_board(name, app):
    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    cfg = dict(conf.SCREENS[name] or {})
    match = Match(spec.make_rules(), cfg, 11)
    scene = app.start_match(spec, match, autosave=False)
    rng = random.Random(name)
    seen = 0
    for step in range(60):
        if match.is_over():
            break
        players = match.active_players()
        if not players or (players[0] < 0 and not spec.realtime and players[0] != conf.PHYSICS):
            break
        if step % 6 == 0:
            scene.say("Something that just happened on the table, said at some length so that it may "
                      "need a second line", scene.theme.accent, 30.0)
            scene.bot_error = "Bot 2 (hard) failed (ValueError): a random legal move was played"
            scene.unavailable("nothing to redo")
            app.step([], app.STEP)
            _check(app, scene, (name, step))
            seen += 1
        conf.random_step(match, rng)
        app.draw()
    assert seen >= 2, name


@pytest.mark.parametrize("name", ["gobble", "gobble-solitaire"])
def test_the_fitted_tantrix_lies_within_the_board_below_the_notices(name, app):
    """The automatic fit shows every tile and space inside ``board_rect`` (none cut by the notices)."""
    from games.gobble.ai import make_solitaire_agent
    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    seats = {"seats": ["bot:hard"] * 4} if name == "gobble" else {}
    match = Match(spec.make_rules(), seats or None, 5)
    scene = app.start_match(spec, match, autosave=False)
    if name == "gobble":
        scene.countdown = 0
        while len(scene.view_board().tiles) < 16 and not match.is_over():
            app.step([], app.STEP)
    else:
        bot = make_solitaire_agent("greedy", 5)
        for _ in range(30):
            if match.is_over():
                break
            p = match.active_players()[0]
            match.submit(p, bot.select_action(match.rules, match.state, p))
    assert len(scene.view_board().tiles) >= 16
    scene._fit(immediate=True)
    board = scene.view_board()
    rect = scene.board_rect()
    for cell in list(board.tiles) + board.spaces(2):
        x, y = scene.cell_pos(cell)
        assert rect.contains(pygame.Rect(x - 0.87 * scene.s, y - scene.s, 1.74 * scene.s, 2 * scene.s)), cell


def test_the_notices_laid_out_again_only_when_they_change_show_each_change(app):
    """The notices' layout is kept from frame to frame: a changed text, a notice added or a new area
    shows at once, the same notices draw the same picture, and a notice left out for want of room is
    noted every time it is drawn."""
    from sim.app.ui import Kit, Notice
    from sim.app.widgets import CLIPPED

    kit = Kit(app)
    surf = pygame.Surface((600, 200))

    def shot(items, rect=(10, 10, 400, 120)):
        surf.fill((0, 0, 0))
        boxes = kit.notices(surf, rect, items)
        return pygame.image.tobytes(surf, "RGB"), [tuple(b) for b in boxes]
    a = [Notice("status", "Your turn: place a tile"), Notice("message", "A gobble space!")]
    first = shot(a)
    assert shot(a) == first
    changed = shot([a[0], Notice("message", "Another text, longer than the one before it")])
    assert changed[0] != first[0] and changed[1] != first[1]
    assert shot(a) == first
    moved = shot(a, (60, 40, 400, 120))
    assert moved[1] == [(x + 50, y + 30, w, h) for x, y, w, h in first[1]]
    many = [Notice(f"k{i}", f"Notice number {i} with a few words to wrap it") for i in range(12)]
    CLIPPED.clear()
    shot(many)
    cut = len(CLIPPED)
    assert cut > 0
    shot(many)
    assert len(CLIPPED) == 2 * cut
    CLIPPED.clear()
