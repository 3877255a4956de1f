"""The Gobble Solitaire screen, driven with synthetic input through the real App loop.

Events are built in window px; the headless window is 1280x800, the logical size, so window and logical
coordinates coincide (tests/test_app.py covers the mapping itself). Targets are computed from the board
(legal placements) and the scene's own camera, never hard-coded.
"""
from __future__ import annotations

import json

import pygame
import pytest

from games.gobble import SOLITAIRE, draw
from games.gobble.rules import SolitaireRules
from games.gobble.view import BOARD, HAND_C, PEN_C, SolitaireScene, sample_match
from sim.core.match import Match
from sim.core.storage import data_dir
from events import down, key, motion, up, wheel

STEP = 1 / 60
E = pygame.event.Event







def fresh_place_match(start_seed=1):
    """A new match whose first drawn tile must be placed (phase 'place')."""
    rules = SolitaireRules()
    for seed in range(start_seed, start_seed + 200):
        m = Match(rules, None, seed)
        if m.state.phase == "place":
            return m
    raise AssertionError("no seed starts with a placeable tile")


def start(app, match):
    sounds = []
    app.audio.play = lambda name: sounds.append(name)
    scene = app.start_match(SOLITAIRE, match, autosave=False)
    app.step([], STEP)
    return scene, sounds


def one_notch_target(scene):
    """A legal (cell, rot) whose rotation is one step from the scene's current one, and the wheel y
    that gets there (y = -1, a notch towards the user, turns clockwise: rot + 1)."""
    tile = scene.movable()
    legal = scene.state.board.placements(tile)
    for cell, rot in legal:
        if rot == (scene.rot + 1) % 6:
            return cell, rot, -1
        if rot == (scene.rot - 1) % 6:
            return cell, rot, 1
    return None


def test_drag_rotate_with_wheel_and_drop_places_the_tile(app):
    for seed in range(1, 400):
        m = fresh_place_match(seed)
        scene, sounds = start(app, m)
        found = one_notch_target(scene)
        if found:
            break
    else:
        raise AssertionError("no position with a placement one notch away")
    cell, rot, y = found
    tile = m.state.held
    before = dict(m.state.board.tiles)
    assert cell not in before
    app.step([motion(HAND_C), down(HAND_C), motion((BOARD.centerx, 120))], STEP)
    assert scene.hold is not None and scene.hold["mode"] == "drag"
    app.step([wheel(y)], STEP)
    assert scene.rot == rot
    target = scene.cell_pos(cell)
    app.step([motion(target), up(target)], STEP)
    after = m.state.board.tiles
    assert after[cell] == (tile, rot)
    assert len(after) == len(before) + 1
    assert scene.hold is None
    placed = [e["a"] for e in m.log if e["p"] == 0]
    assert placed[-1] == {"t": "place", "tile": tile, "rot": rot, "q": cell[0], "r": cell[1]}
    assert "place" in sounds or "gobble" in sounds or "double" in sounds


def test_drop_on_illegal_cells_changes_nothing_and_explains(app):
    m = fresh_place_match(3)
    scene, sounds = start(app, m)
    board0, log0 = m.state.board, len(m.log)
    tile = m.state.held
    # on a placed tile
    occupied = next(iter(m.state.board.tiles))
    p = scene.cell_pos(occupied)
    app.step([motion(HAND_C), down(HAND_C), motion(p), up(p)], STEP)
    assert m.state.board is board0 and len(m.log) == log0
    assert scene.hold is None and m.state.held == tile and m.state.phase == "place"
    assert sounds.count("reject") == 1
    assert scene.msg is not None and "taken" in scene.msg[0]
    # on a space whose colours do not match at the current rotation
    legal = scene.placements(tile)
    bad = [c for c in m.state.board.spaces(2) if scene.rot not in legal.get(c, ())]
    if bad:
        p = scene.cell_pos(bad[0])
        app.step([motion(HAND_C), down(HAND_C), motion(p), up(p)], STEP)
        assert m.state.board is board0 and len(m.log) == log0
        assert sounds.count("reject") == 2
    # far from the Tantrix (a corner of the board area), away from every legal cell
    far = (BOARD.x + 30, BOARD.bottom - 40)
    assert scene.cell_at(far) not in m.state.board.frontier
    app.step([motion(HAND_C), down(HAND_C), motion(far), up(far)], STEP)
    assert m.state.board is board0 and len(m.log) == log0
    assert "two tiles" in scene.msg[0]


def test_one_wheel_notch_is_exactly_one_rotation_step(app):
    m = fresh_place_match(5)
    scene, sounds = start(app, m)
    app.step([motion(HAND_C), down(HAND_C), motion((BOARD.centerx, 300))], STEP)
    r0 = scene.rot
    # a notch as pygame delivers it: MOUSEWHEEL plus a duplicate button 4 press/release
    app.step([wheel(1), down((BOARD.centerx, 300), 4), up((BOARD.centerx, 300), 4)], STEP)
    assert scene.rot == (r0 - 1) % 6
    app.step([wheel(-1)], STEP)
    assert scene.rot == r0
    # trackpad: half notches accumulate into one step
    app.step([wheel(0, 0.5)], STEP)
    assert scene.rot == r0
    app.step([wheel(0, 0.5)], STEP)
    assert scene.rot == (r0 - 1) % 6
    # the scene itself ignores the wheel's duplicate buttons too
    scene.handle_event(down((BOARD.centerx, 300), 5))
    assert scene.rot == (r0 - 1) % 6 and scene.hold is not None
    # without a tile in hand, the wheel over the board zooms instead
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert scene.hold is None
    s0, rot_before = scene.s, scene.rot
    app.step([motion((BOARD.centerx, 300)), wheel(1)], STEP)
    assert scene.s > s0 and scene.rot == rot_before
    assert m.state.phase == "place" and len(m.state.board) == 2


def test_right_click_and_keys_rotate(app):
    m = fresh_place_match(7)
    scene, _ = start(app, m)
    r0 = scene.rot
    app.step([key(pygame.K_e)], STEP)
    assert scene.rot == (r0 + 1) % 6
    app.step([key(pygame.K_q), key(pygame.K_q)], STEP)
    assert scene.rot == (r0 - 1) % 6
    app.step([motion(HAND_C), down(HAND_C), motion((400, 400)), down((400, 400), 3), up((400, 400), 3)], STEP)
    assert scene.rot == r0 and scene.hold is not None


def test_click_tile_then_click_cell_places(app):
    m = fresh_place_match(9)
    scene, _ = start(app, m)
    tile = m.state.held
    cell, rot = m.state.board.placements(tile)[0]
    scene.rot = rot
    app.step([motion(HAND_C), down(HAND_C), up(HAND_C)], STEP)
    assert scene.hold is not None and scene.hold["mode"] == "click"
    p = scene.cell_pos(cell)
    app.step([motion(p), down(p), up(p)], STEP)
    assert m.state.board.tiles[cell] == (tile, rot)


def _draw_is_pure(app, scene):
    m = scene.match
    before = (len(m.log), m.cursor, m.state, scene.elapsed, scene.penalty_wait, scene.rot,
              scene.msg, scene.banner, scene.clock)
    for _ in range(3):
        app.draw()
        scene.draw(app.surface)
    after = (len(m.log), m.cursor, m.state, scene.elapsed, scene.penalty_wait, scene.rot,
             scene.msg, scene.banner, scene.clock)
    assert after == before


def test_draw_does_not_change_the_match(app):
    m = fresh_place_match(11)
    scene, _ = start(app, m)
    _draw_is_pure(app, scene)
    # holding a tile over the board
    app.step([motion(HAND_C), down(HAND_C), motion(scene.cell_pos((0, 0)))], STEP)
    _draw_is_pure(app, scene)
    # a big board, the hint showing
    big = sample_match(50)
    scene2, _ = start(app, big)
    app.step([key(pygame.K_h)], STEP)
    assert scene2.hint is not None
    _draw_is_pure(app, scene2)


def test_fits_nowhere_goes_to_the_penalty_stack_after_a_delay(app):
    rules = SolitaireRules()
    m = next(mm for mm in (Match(rules, None, s) for s in range(1, 300)) if mm.state.phase == "penalty")
    scene, sounds = start(app, m)
    tile = m.state.held
    app.step([], 0.5)
    assert m.state.phase == "penalty" and not m.state.penalty
    _draw_is_pure(app, scene)          # drawing never advances the delay
    for _ in range(90):
        app.step([], STEP)
        if m.state.penalty:
            break
    assert m.state.penalty == (tile,)
    assert "penalty" in sounds
    assert m.state.phase == "place"     # (seed 5: the next tile fits)
    # the next tile shows in the hand at once, while the old one is still flying to the stack
    assert scene.fly is not None
    x0, y0 = HAND_C
    hand = {app.surface.get_at((x0 + dx, y0 + dy))[:3] for dx in range(-40, 41, 2) for dy in range(-40, 41, 2)}
    assert any(sum(abs(a - b) for a, b in zip(c, px)) <= 6 for c in app.theme.links.values() for px in hand)


def test_rescue_choices_by_key(app):
    from games.gobble.ai import make_solitaire_agent

    rules = SolitaireRules()
    for seed in range(1, 300):     # a double gobble with at least two tiles on the penalty stack
        m = Match(rules, None, seed)
        bot = make_solitaire_agent("greedy", seed)
        while not m.is_over() and not (m.state.phase == "rescue" and m.state.rescues >= 2
                                       and len(m.state.penalty) >= 2):
            m.submit(0, bot.select_action(rules, m.state, 0))
        if not m.is_over():
            break
    else:
        raise AssertionError("no double rescue found")
    scene, _ = start(app, m)
    assert scene.source() == "penalty"
    pen = m.state.penalty
    n_log = len(m.log)
    app.step([key(pygame.K_r)], STEP)
    assert m.log[n_log]["a"] == {"t": "return"}
    assert m.state.phase == "rescue" and m.state.penalty == pen[:-1] and pen[-1] in m.state.bag
    n_log = len(m.log)
    app.step([key(pygame.K_k)], STEP)
    assert m.log[n_log]["a"] == {"t": "skip"}
    assert m.state.penalty == pen[:-1] and m.state.phase != "rescue"


def test_end_screen_records_statistics_once(app):
    from games.gobble.ai import make_solitaire_agent

    m = fresh_place_match(1)
    bot = make_solitaire_agent("greedy", 1)
    scene, sounds = start(app, m)
    while not m.is_over():
        m.submit(0, bot.select_action(m.rules, m.state, 0))
    for _ in range(5):
        app.step([], STEP)
    stats = json.loads((data_dir() / "stats.json").read_text())["gobble-solitaire"]
    assert stats["games"] == 1
    assert stats["penalty_total"] == len(m.state.penalty)
    assert stats["wins"] == (1 if not m.state.penalty else 0)
    assert ("win" in sounds) != ("lose" in sounds)
    # a finished game cannot be undone (and so never counted twice)
    assert not m.can_undo() and not m.undo(0)
    for _ in range(5):
        app.step([], STEP)
    stats = json.loads((data_dir() / "stats.json").read_text())["gobble-solitaire"]
    assert stats["games"] == 1
    # New game starts a fresh match of the same game
    app.step([motion(scene.b_new.rect.center), down(scene.b_new.rect.center), up(scene.b_new.rect.center)], STEP)
    assert app.top is not scene and isinstance(app.top, SolitaireScene)
    assert app.top.match is not m and not app.top.match.is_over()


def test_undo_takes_back_a_gobble_placement(app):
    from games.gobble.ai import make_solitaire_agent

    rules = SolitaireRules()
    for seed in range(1, 200):
        m = Match(rules, None, seed)
        bot = make_solitaire_agent("greedy", seed)
        while not m.is_over() and m.state.phase != "rescue":
            m.submit(0, bot.select_action(rules, m.state, 0))
        if m.state.phase == "rescue":
            break
    else:
        pytest.fail("no game reached a rescue")
    scene, _ = start(app, m)
    n = len(m.state.board)
    assert m.can_undo(0)
    app.step([key(pygame.K_z, pygame.KMOD_CTRL)], STEP)
    assert len(m.state.board) == n - 1
    app.step([key(pygame.K_y, pygame.KMOD_CTRL)], STEP)
    assert len(m.state.board) == n


def test_renders_fifty_tiles_and_camera_controls(app):
    m = sample_match(50)
    scene, _ = start(app, m)
    assert len(m.state.board) >= 50
    # every placed tile is inside the board area once the view has fitted
    for _ in range(60):
        app.step([], STEP)
    for cell in m.state.board.tiles:
        assert BOARD.collidepoint(scene.cell_pos(cell))
    # right-drag pans, F fits again
    c0 = scene.cell_pos((0, 0))
    app.step([down((400, 400), 3), E(pygame.MOUSEMOTION, pos=(460, 430), rel=(60, 30), buttons=(0, 0, 1)),
              up((460, 430), 3)], STEP)
    assert scene.cell_pos((0, 0)) == (c0[0] + 60, c0[1] + 30)
    assert not scene.auto_cam
    app.step([key(pygame.K_f)], STEP)
    assert scene.auto_cam
    # the frame has the board's colours in it (not a blank screen)
    surf = app.surface
    colours = {surf.get_at((x, y))[:3] for x in range(0, BOARD.w, 16) for y in range(0, BOARD.h, 16)}
    assert len(colours) > 30


def test_board_sprites_tile_without_seams():
    """Neighbouring board sprites cover every pixel between them exactly once (hard cell masks)."""
    import numpy as np

    for s in (17, 24, 37, 44, 58):
        lay = draw.layout(s)
        mask = draw._cell_mask(s).astype(int)
        w, h = mask.shape
        cover = np.zeros((lay.W * 12, lay.H * 12), dtype=int)
        base = (lay.W * 4, lay.H * 4)
        for q in range(-4, 5):
            for r in range(-4, 5):
                cx, cy = lay.center((q, r))
                x0, y0 = base[0] + cx - lay.ox, base[1] + cy - lay.oy
                if x0 >= 0 and y0 >= 0 and x0 + w <= cover.shape[0] and y0 + h <= cover.shape[1]:
                    cover[x0:x0 + w, y0:y0 + h] += mask
        inner = cover[base[0] - lay.W: base[0] + lay.W, base[1] - lay.H: base[1] + lay.H]
        assert inner.min() == 1 and inner.max() == 1, s


def test_scene_on_a_finished_match_does_not_count_it(app):
    from games.gobble.ai import make_solitaire_agent

    m = fresh_place_match(2)
    bot = make_solitaire_agent("greedy", 2)
    while not m.is_over():
        m.submit(0, bot.select_action(m.rules, m.state, 0))
    scene, _ = start(app, m)
    for _ in range(3):
        app.step([], STEP)
    assert scene.result is not None
    assert not (data_dir() / "stats.json").exists()


@pytest.mark.parametrize("palette", ["classic", "okabe-ito", "contrast"])
def test_palettes_render(app, palette):
    app.settings["palette"] = palette
    m = fresh_place_match(4)
    scene, _ = start(app, m)
    app.step([motion(HAND_C), down(HAND_C), motion(scene.cell_pos((0, 0)))], STEP)
    surf = app.surface
    seen = {surf.get_at((x, y))[:3] for x in range(0, BOARD.w, 2) for y in range(0, BOARD.h, 2)}

    def shown(c):
        return any(sum(abs(a - b) for a, b in zip(c, px)) <= 6 for px in seen)

    # the two start tiles show at least three of the four link colours
    assert sum(shown(c) for c in app.theme.links.values()) >= 3
    # the penalty stack slot and the hand are drawn in the panel
    assert surf.get_at(PEN_C)[:3] != app.theme.panel


def test_resumed_game_keeps_its_clock(app):
    from sim.core import record

    m = fresh_place_match(3)
    scene, _ = start(app, m)
    for _ in range(120):  # two seconds of play
        app.step([], STEP)
    tile, (cell, rot) = scene.movable(), m.state.board.placements(scene.movable())[0]
    m.submit(0, {"t": "place", "tile": tile, "rot": rot, "q": cell[0], "r": cell[1]})
    saved = record.to_record(m)
    assert saved["meta"]["elapsed"] >= 1.9
    again = record.from_record(saved)
    scene2, _ = start(app, again)
    assert saved["meta"]["elapsed"] <= scene2.elapsed <= saved["meta"]["elapsed"] + 0.05  # one frame on
