"""What a Gobble table offers besides the rules: dead spaces marked, the purist table, the hint against
people, hint-aided statistics kept apart, the slow bot, the 3-2-1 before a race and the colour shapes.

Dead spaces are worked out here from the tile data (the colours of each tile's edges at each rotation),
not from the engine's pattern tables.
"""
from __future__ import annotations

import pygame
import pytest

from games.gobble import RACE, SOLITAIRE, draw
from games.gobble.ai import REACTION, make_race_bot
from games.gobble.data import TILES, rotated
from games.gobble.view import load_stats, record_game, sample_match
from games.gobble.view_race import COUNTDOWN
from sim.app.theme import PALETTES
from sim.core import record
from sim.core.hexgrid import DIRS
from sim.core.match import Match

STEP = 1 / 60


def dead_by_hand(board) -> set:
    """Empty cells with two or more placed neighbours where no unplaced tile, at any of its six
    rotations, shows each neighbour's touching colour."""
    placed = {n for n, _ in board.tiles.values()}
    out = set()
    cells = {(q + dq, r + dr) for (q, r) in board.tiles for dq, dr in DIRS} - set(board.tiles)
    for (q, r) in cells:
        need = {}
        for d, (dq, dr) in enumerate(DIRS):
            nb = (q + dq, r + dr)
            if nb in board.tiles:
                n, rot = board.tiles[nb]
                need[d] = rotated(TILES[n][0], rot)[(d + 3) % 6]
        if len(need) < 2:
            continue
        if not any(all(rotated(TILES[t][0], k)[d] == c for d, c in need.items())
                   for t in TILES if t not in placed for k in range(6)):
            out.add((q, r))
    return out


def solitaire_with_dead_space():
    for seed in range(1, 60):
        m = sample_match(44, seed)
        if dead_by_hand(m.state.board):
            return m
    raise AssertionError("no position with a dead space")


def start(app, spec, match, **opts):
    app.audio.play = lambda name: None
    scene = app.start_match(spec, match, autosave=False, **opts)
    app.step([], STEP)
    return scene


def purist_copy(m):
    rec = record.to_record(m)
    rec["config"]["purist"] = True
    return record.from_record(rec)


def px(surface, pos):
    return tuple(surface.get_at((round(pos[0]), round(pos[1]))))[:3]


def near(a, b, tol=30):
    return sum(abs(x - y) for x, y in zip(a, b)) <= tol


# ------------------------------------------------------------------------------ dead spaces
def test_dead_spaces_are_the_ones_no_tile_left_can_fill_and_lose_their_marker(app):
    m = solitaire_with_dead_space()
    scene = start(app, SOLITAIRE, m)
    board = m.state.board
    dead = set(scene.dead_spaces())
    assert dead == dead_by_hand(board) and dead
    gobbles = [c for c in board.spaces(3) if c not in dead and BOARD_OK(scene, c)]
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=(2, 2), rel=(0, 0), buttons=(0, 0, 0))], STEP)
    shot = app.surface.copy()
    acc = app.theme.accent
    for c in dead:      # no gift disc on a dead space: its middle is the dark mark, never the accent
        if BOARD_OK(scene, c):
            assert not near(px(shot, scene.cell_pos(c)), acc, 60)
    for c in gobbles:   # a live gobble space keeps its disc
        x, y = scene.cell_pos(c)
        assert any(near(px(shot, (x + dx, y + dy)), acc, 60) or near(px(shot, (x + dx, y + dy)), app.theme.bad, 60)
                   for dx in (-5, 0, 5) for dy in (-5, 5))


def BOARD_OK(scene, cell) -> bool:
    return scene.BOARD.inflate(-40, -40).collidepoint(scene.cell_pos(cell))


# ------------------------------------------------------------------------------ purist table
def test_a_purist_solitaire_table_has_no_markers_cues_dead_marks_or_hint(app):
    m = purist_copy(solitaire_with_dead_space())
    assert m.config["purist"] is True
    scene = start(app, SOLITAIRE, m)
    assert scene.purist() and not scene.b_hint.enabled
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=0)], STEP)
    assert scene.hint is None and "hints" not in m.meta
    shot = app.surface.copy()
    board = m.state.board
    for c in board.spaces(3):
        if BOARD_OK(scene, c):
            assert not near(px(shot, scene.cell_pos(c)), app.theme.accent, 60)
    tile = m.state.held
    assert scene.fits_gobble(tile) == 0


def test_a_purist_table_never_snaps_the_tile_to_a_place_where_it_fits(app):
    m = solitaire_with_dead_space()
    plain = start(app, SOLITAIRE, m)
    board, tile = m.state.board, m.state.held
    # a pointer inside an empty cell next to a legal one, within the snapping distance of it
    found = None
    for cell, rots in plain.placements(tile).items():
        for dq, dr in DIRS:
            nb = (cell[0] + dq, cell[1] + dr)
            if nb in board.tiles or board.neighbour_count(nb) >= 2:
                continue
            (x0, y0), (x1, y1) = plain.cell_pos(nb), plain.cell_pos(cell)
            pos = (x0 + (x1 - x0) * 0.4, y0 + (y1 - y0) * 0.4)
            if plain.cell_at(pos) == nb and plain.target_for(tile, rots[0], pos) == (cell, True):
                found = (pos, nb, rots[0])
                break
        if found:
            break
    assert found, "no cell to test the snapping with"
    pos, nb, rot = found
    purist = start(app, SOLITAIRE, purist_copy(m))
    purist.s, purist.cam = plain.s, plain.cam          # the same view
    assert purist.target_for(tile, rot, pos) == (nb, False)


def test_solitaire_hints_are_kept_with_the_record_and_counted_apart(app):
    m = sample_match(20, 3)
    scene = start(app, SOLITAIRE, m)
    assert not scene.hinted()
    scene.do_hint()
    assert scene.hint is not None and scene.hinted()
    again = record.from_record(record.to_record(m))
    assert again.meta["hints"] == 1                  # a resumed game still counts as helped
    record_game(3, False, 100.0)
    record_game(0, True, 90.0, hinted=True)
    st = load_stats()
    assert (st["games"], st["wins"], st["penalty_total"], st["best_win_time"]) == (1, 0, 3, None)
    assert (st["hinted_games"], st["hinted_wins"]) == (1, 1)


# ------------------------------------------------------------------------------ the race
def race(seats, seed=5, **cfg):
    return Match(RACE.make_rules(), {"players": len(seats), "seats": list(seats), **cfg}, seed)


def test_the_hint_against_people_only_when_the_table_allows_it(app):
    scene = start(app, RACE, race(["human", "human", "bot:easy"]), countdown=0)
    assert "people" in scene.hint_refusal()
    scene = start(app, RACE, race(["human", "human", "bot:easy"], lan_hints=True), countdown=0)
    assert scene.hint_refusal() is None
    scene = start(app, RACE, race(["human", "bot:easy"]), countdown=0)
    assert scene.hint_refusal() is None               # against bots only
    scene = start(app, RACE, race(["human", "bot:easy"], purist=True), countdown=0)
    assert "purist" in scene.hint_refusal()
    scene.do_hint()
    assert scene.board_hint is None


def test_a_new_race_counts_down_3_2_1_before_the_clock_and_the_bots_start(app):
    m = race(["human", "bot:hard", "bot:hard"])
    scene = start(app, RACE, m)
    assert scene.countdown > 0 and not scene.playing()
    n = len(m.log)
    for _ in range(int(COUNTDOWN * 60) - 10):
        app.step([], STEP)
    assert m.time == 0 and len(m.log) == n and not scene.playing()
    for _ in range(20):
        app.step([], STEP)
    assert scene.countdown == 0 and scene.playing() and m.time > 0
    # a resumed race (moves made) starts at once
    m2 = race(["bot:hard", "bot:hard"])
    scene2 = start(app, RACE, m2)
    assert scene2.countdown == 0                      # nobody at the screen races


def test_the_slow_bot_plays_as_easy_at_a_slower_pace():
    assert "slow" in RACE.bot_levels and RACE.bot_levels[0] == "slow"
    assert REACTION["slow"][0] > REACTION["easy"][1]
    m = race(["bot:slow", "bot:easy"], seed=9)
    slow, easy = make_race_bot(0, "slow", 9), make_race_bot(0, "easy", 9)
    assert slow.decide(m.rules, m.state) == easy.decide(m.rules, m.state)
    assert all(REACTION["slow"][0] <= slow.delay() <= REACTION["slow"][1] for _ in range(20))


# ------------------------------------------------------------------------------ colour shapes
@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_tile_colours_carry_their_shape_in_every_palette(app, palette):
    app.settings["palette"] = palette
    scene = start(app, SOLITAIRE, sample_match(3, 1))
    assert scene._symbols()
    pal = app.theme
    plain = draw.tile_sprite(1, 0, 60, pal, False).surf
    shaped = draw.tile_sprite(1, 0, 60, pal, scene._symbols()).surf
    w, h = plain.get_size()
    differ = sum(1 for x in range(w) for y in range(h) if plain.get_at((x, y)) != shaped.get_at((x, y)))
    assert differ > 60          # three symbols drawn on the links
