"""The Tumbleweed screen as a player reads it: edge labels that spell the logged names, the notices area
clear of the board, the aid toggles, the legend, redo, export and import, and the preview's sight lines.

Driven through the real App loop, headless (1280x800 logical px, window px the same).
"""
from __future__ import annotations

import pygame
import pytest

from events import click, key, motion
from games.tumbleweed import SPEC
from games.tumbleweed.notation import cell_name, export_text, move_tokens
from games.tumbleweed.rules import CODE_OWNER, RED, WHITE, TumbleweedRules
from games.tumbleweed.view import NOTICES, GAMES_FOLDER, demo_match, games_folder
from sim.app.launcher import LauncherScene
from sim.core.match import Match

STEP = 1 / 60


def start(app, match, prefs=None, autosave=False):
    app.push(LauncherScene(app))
    scene = app.start_match(SPEC, match, autosave=autosave, prefs=prefs)
    app.step([], STEP)
    return scene


# ------------------------------------------------------------------------------ edge labels
@pytest.mark.parametrize("size", [6, 8, 10, 11])
def test_edge_labels_spell_the_logged_name_of_every_cell(app, size):
    """A reader takes the row letter beside the row and follows the nearest number's line into the board
    (up-left from a number under the board as far as the middle row, down-left from one over it): the
    name made is the one the move list logs, for every cell."""
    scene = start(app, Match(TumbleweedRules(), {"size": size, "seats": ["human", "human"]}, 1),
                  prefs={"coords": True})
    geo = scene.state.geo
    letters: dict[tuple, str] = {}
    numbers: dict[tuple, set] = {}
    labels = scene.edge_labels()
    for text, cell, step, centre in labels:
        assert not geo.on_board(cell), (text, cell)
        # the label is drawn on its own hex (within a third of a hex of its centre)
        x, y = scene.cell_pos(cell)
        assert abs(centre[0] - x) <= scene.s * 0.4 and abs(centre[1] - y) <= scene.s * 0.4
        q, r = cell
        while True:
            q, r = q + step[0], r + step[1]
            if not geo.on_board((q, r)):
                break
            if text.isalpha():
                letters[(q, r)] = text
            elif (step == (0, -1) and r < 0) or (step == (-1, 1) and r > 0):
                break     # past the middle row: the other half's numbers name these
            else:
                numbers.setdefault((q, r), set()).add(text)
    for cell in geo.cells:
        assert len(numbers.get(cell, ())) == 1, (cell, numbers.get(cell))
        assert letters[cell] + next(iter(numbers[cell])) == cell_name(size, cell)
    # the labels stand inside the board's rectangle, and no two are on the same spot
    rect = scene.board_rect()
    spots = [c for _t, _c, _s, c in labels]
    assert all(rect.collidepoint(c) for c in spots) and len(set(spots)) == len(spots)
    # the example the players ran into: on side 8, k7 is read as k7 from the edges
    if size == 8:
        cell = next(c for c in geo.cells if cell_name(8, c) == "k7")
        assert letters[cell] == "k" and numbers[cell] == {"7"}


# ------------------------------------------------------------------------------ notices
def _all_facts(app, scene):
    """Every notice at once: the stale reminder, a pass that ends the game, a message, a bot's error
    and a toast."""
    real = scene.notices
    scene.notices = lambda: real() + [("stale", "Stale game: passing is recommended (it ends after 2 more "
                                               "turns without change)")]
    scene.say("A message about something else", scene.theme.accent, 30.0)
    scene.bot_error = "Bot (hard) failed: a random move was played"
    scene.unavailable("nothing to redo")
    app.step([], STEP)


@pytest.mark.parametrize("size", [6, 8, 11])
def test_notices_stand_beside_the_board_one_per_fact(app, size):
    m = demo_match(size, 12, seed=4)
    scene = start(app, m, prefs={"confirm": True})
    m.submit(m.active_players()[0], {"t": "pass"})      # the other player passed: a pass now ends it
    app.step([], STEP)
    texts = [n.text for n in scene.notice_items()]
    assert sum("passed" in t for t in texts) == 1, texts     # the pass is told once, not twice
    _all_facts(app, scene)
    boxes = scene.notice_boxes
    board = scene.board_rect()
    assert len(boxes) == len({n.key for n in scene.notice_items()}) == 5
    assert any("redo" in n.text for n in scene.notice_items())    # the toast, in the message's place
    for box in boxes:
        assert NOTICES.contains(box) and not box.colliderect(board), (box, board)
    # the app draws no toast of its own over the board
    assert app.toast_text and scene.shows_toasts


def test_the_pass_confirmation_replaces_the_pass_note(app):
    m = demo_match(8, 12, seed=4)
    scene = start(app, m, prefs={"confirm": True})
    m.submit(m.active_players()[0], {"t": "pass"})
    app.step([key(pygame.K_p)], STEP)          # the first press arms the game-ending pass
    items = scene.notice_items()
    passed = [n for n in items if n.key == "passed"]
    assert len(passed) == 1 and "again" in passed[0].text


# ------------------------------------------------------------------------------ aids and legend
@pytest.mark.parametrize("aid", ["intermediate", "expert"])
def test_beginner_only_toggles_are_disabled_with_the_reason(app, aid):
    m = demo_match(8, 20, seed=2, config={"aid": aid})
    scene = start(app, m, prefs={"influence": True, "captures": True})
    for k in ("influence", "captures"):
        b = scene.pref_buttons[k]
        assert not b.enabled and not b.label.startswith("✓"), b.label
    before = dict(scene.prefs)
    click(app, scene.pref_buttons["captures"].rect.center)
    app.step([key(pygame.K_i)], STEP)
    assert scene.prefs == before
    assert "Beginner aid only" in (app.toast_text or "")
    assert scene.legend() and "capture" not in scene.legend() and "controlled" not in scene.legend()


def test_the_legend_names_every_mark_shown_at_beginner(app):
    m = demo_match(8, 30, seed=3)
    scene = start(app, m, prefs={"influence": True, "captures": True, "last_move": True})
    assert scene.captures_shown() and scene.influence_shown()
    assert {"controlled", "contested", "capture", "last", "suicidal", "sight"} <= set(scene.legend())
    app.step([key(pygame.K_i)], STEP)        # influence off: its marks leave the legend too
    assert "controlled" not in scene.legend() and "capture" in scene.legend()
    # the pointer on a hex the mover cannot take: its dashed red outline is named
    st = m.state
    seat = m.active_players()[0]
    legal = {(a["q"], a["r"]) for a in m.rules.legal_actions(st, seat) if a["t"] == "place"}
    bad = next(c for c in st.geo.cells if c not in legal)
    app.step([motion(scene.cell_pos(bad))], STEP)
    assert scene.preview() is not None and not scene.preview()["legal"]
    assert "illegal" in scene.legend() and len(scene.legend()) <= 6


def test_the_legend_fits_its_card_whatever_it_shows(app):
    from sim.app import widgets
    m = demo_match(8, 30, seed=3)
    scene = start(app, m, prefs={"influence": True, "captures": True, "last_move": True})
    widgets.CLIPPED.clear()
    for cell in list(m.state.geo.cells)[::7]:
        app.step([motion(scene.cell_pos(cell))], STEP)
        assert len(scene.legend()) <= 6
    assert not widgets.CLIPPED, widgets.CLIPPED


# ------------------------------------------------------------------------------ redo
def test_redo_button_plays_again_what_undo_took_back(app):
    m = Match(TumbleweedRules(), {"size": 6, "seats": ["human", "human"]}, 1)
    scene = start(app, m, prefs={"confirm": False})
    legal = lambda: [a for a in m.rules.legal_actions(m.state, m.active_players()[0])]
    for _ in range(4):
        m.submit(m.active_players()[0], legal()[0])
    app.step([], STEP)
    log = list(m.log)
    assert not scene.b_redo.enabled
    click(app, scene.b_undo.rect.center)
    assert m.cursor == len(log) - 1 and scene.b_redo.enabled
    click(app, scene.b_redo.rect.center)
    assert m.cursor == len(log) and m.log == log
    app.step([key(pygame.K_z, pygame.KMOD_LCTRL)], STEP)
    app.step([key(pygame.K_y, pygame.KMOD_LCTRL)], STEP)
    assert m.cursor == len(log)


# ------------------------------------------------------------------------------ export and import
def test_export_writes_the_move_list_and_import_replays_it(app, monkeypatch):
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: "")
    monkeypatch.setattr(pygame.scrap, "has_text", lambda: False)
    m = demo_match(8, 16, seed=5)
    scene = start(app, m)
    click(app, scene.b_export.rect.center)
    files = list(games_folder().glob("*.txt"))
    assert len(files) == 1 and files[0].read_text() == export_text(m)
    assert GAMES_FOLDER in scene.msg[0]
    click(app, scene.b_import.rect.center)
    new = app.top
    assert new is not scene and new.match is not m
    assert move_tokens(new.match) == move_tokens(m) and new.match.state.code == m.state.code
    assert [x.text() for x in new.match.seats] == [x.text() for x in m.seats]


@pytest.mark.parametrize("content, reason", [
    ('[Game "Tumbleweed"]\n[Size "8"]\n\nb2,c3 red 1. zz99\n', "zz99"),
    ('[Game "Chess"]\n1. e4 e5\n', "not a Tumbleweed game"),
    ("", "no moves"),
    ("\udcff".encode("utf-8", "surrogateescape"), "UTF-8"),
])
def test_a_bad_import_changes_nothing_and_says_why_once(app, monkeypatch, content, reason):
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: "")
    monkeypatch.setattr(pygame.scrap, "has_text", lambda: False)
    m = demo_match(8, 10, seed=6)
    scene = start(app, m)
    log = list(m.log)
    folder = games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "bad.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    click(app, scene.b_import.rect.center)
    assert app.top is scene and m.log == log and path.exists()
    assert scene.msg is not None and reason in scene.msg[0] and "bad.txt" in scene.msg[0], scene.msg
    assert sum(reason in n.text for n in scene.notice_items()) == 1


def test_import_with_nothing_to_import_says_where_to_put_a_file(app, monkeypatch):
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: "")
    monkeypatch.setattr(pygame.scrap, "has_text", lambda: False)
    scene = start(app, demo_match(6, 4, seed=1))
    click(app, scene.b_import.rect.center)
    assert app.top is scene and "nothing to import" in scene.msg[0].lower() and GAMES_FOLDER in scene.msg[0]


# ------------------------------------------------------------------------------ sight lines
def test_sight_lines_run_under_the_seeing_stacks_numerals(app):
    m = demo_match(8, 24, seed=3)
    scene = start(app, m, prefs={"confirm": True})
    st = m.state
    # a legal hex seen by at least two stacks, one of them far enough for a line to cross the board
    best = None
    for a in m.rules.legal_actions(st, m.active_players()[0]):
        if a["t"] != "place":
            continue
        cell = (a["q"], a["r"])
        seers = scene.sight_stacks(cell)
        if len(seers) >= 2:
            best = (cell, seers)
            break
    assert best is not None
    cell, seers = best
    plain = app.surface.copy()
    app.step([motion(scene.cell_pos(cell))], STEP)
    assert scene.preview() is not None
    drawn = app.surface
    for b in seers:
        assert CODE_OWNER[st.code[b]] in (RED, WHITE)
        x, y = scene.cell_pos(st.geo.cells[b])
        # the numeral's middle looks the same with and without the line
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                assert drawn.get_at((x + dx, y + dy)) == plain.get_at((x + dx, y + dy)), (b, dx, dy)


def test_import_takes_a_game_on_the_clipboard_first(app, monkeypatch):
    other = demo_match(6, 12, seed=9)
    text = export_text(other)
    monkeypatch.setattr(pygame.scrap, "get_text", lambda: text)
    monkeypatch.setattr(pygame.scrap, "has_text", lambda: True)
    m = demo_match(8, 6, seed=2)
    scene = start(app, m)
    folder = games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "older.txt").write_text(export_text(m))
    click(app, scene.b_import.rect.center)
    new = app.top
    assert new is not scene and move_tokens(new.match) == move_tokens(other)
    assert new.match.config["size"] == 6 and "clipboard" in new.msg[0]
