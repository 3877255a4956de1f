"""The Tumbleweed screen, its set-up dialog and its GameSpec, driven through the real App loop.

Events are built in window px; the headless window is 1280x800, the logical size, so window and logical
coordinates coincide. Targets come from the scene's own geometry (``cell_pos``); which hexes are legal,
how tall a stack would be and who controls a hex are recomputed here by walking the six lines of the
board (an oracle independent of the engine's incremental tables).
"""
from __future__ import annotations

import dataclasses
import json
import threading

import pygame
import pytest

from events import click, key, motion
from games.tumbleweed import SPEC
from games.tumbleweed import draw as twdraw
from games.tumbleweed.notation import replay_tokens
from games.tumbleweed.rules import EMPTY, NEUTRAL, RED, WHITE, TumbleweedRules, position_state
from games.tumbleweed.view import (BOT_DELAY, PREF_DEFAULTS, TumbleweedScene, demo_match, load_prefs,
                                   make_setup_scene)
from sim.app import cli
from sim.app.launcher import LauncherScene
from sim.app.replay import ReplayScene
from sim.core import record
from sim.core.hexgrid import DIRS
from sim.core.match import Match
from sim.core.registry import get_spec
from sim.core.storage import autosave_path

STEP = 1 / 60
CTRL_Z = dict(mod=pygame.KMOD_LCTRL)


# ------------------------------------------------------------------------------ oracles
def sight(state, cell, colour) -> int:
    """How many ``colour`` stacks see ``cell``: walk each of the six lines to the first stack."""
    n = 0
    for dq, dr in DIRS:
        q, r = cell
        while True:
            q, r = q + dq, r + dr
            if not state.geo.on_board((q, r)):
                break
            owner, _h = state.stack((q, r))
            if owner != EMPTY:
                n += owner == colour
                break
    return n


def legal_for(state, colour, cell) -> bool:
    """A placement of ``colour`` on ``cell`` is legal when its stacks see it more times than the height
    of whatever stands there (0 on an empty hex)."""
    return sight(state, cell, colour) > state.stack(cell)[1]


def oracle_scores(state) -> dict[str, tuple[int, int]]:
    """``{"red": (stacks, controlled empty hexes), "white": ...}`` by counting."""
    out = {"red": [0, 0], "white": [0, 0]}
    for cell in state.geo.cells:
        owner, _h = state.stack(cell)
        if owner in (RED, WHITE):
            out["red" if owner == RED else "white"][0] += 1
        elif owner == EMPTY:
            r, w = sight(state, cell, RED), sight(state, cell, WHITE)
            if r != w:
                out["red" if r > w else "white"][1] += 1
    return {k: tuple(v) for k, v in out.items()}


# ------------------------------------------------------------------------------ helpers
def start(app, config, seed=3, prefs=None, autosave=False, step=True):
    sounds = []
    app.audio.play = lambda name: sounds.append(name)
    match = Match(TumbleweedRules(), config, seed)
    scene = app.start_match(SPEC, match, autosave=autosave, prefs=prefs)
    if step:
        app.step([], STEP)
    return scene, match, sounds


def settle(app, scene, until, frames=80):
    """Step the loop (0.25 s frames, so BOT_DELAY passes) until ``until()`` holds, letting the bot's
    worker thread finish between frames."""
    for _ in range(frames):
        if until():
            return
        scene.worker.wait(10)
        app.step([], 0.25)
    assert until(), "the bot did not act in time"


def human_turn(scene):
    return lambda: scene.match.is_over() or scene.human_turn()


def click_cell(app, scene, cell):
    click(app, scene.cell_pos(cell))


def find_cells(state, colour, legal=True):
    cells = [c for c in state.geo.cells if legal_for(state, colour, c) == legal]
    return cells


def host_setup(app, scene, red=(-1, 1), white=(2, -2)):
    click_cell(app, scene, red)
    click_cell(app, scene, white)


# ------------------------------------------------------------------------------ the spec and CLI
def test_spec_is_registered_with_levels_and_the_default_seats():
    spec = get_spec("tumbleweed")
    assert spec is SPEC
    assert spec.levels == ("easy", "medium", "hard")
    assert spec.default_players == ("human", "bot:medium")
    assert spec.players == "2" and spec.seated and not spec.realtime
    assert spec.rules_text.name == "rules.md"


def test_play_command_starts_a_match_with_the_size_and_seats(playtable_home, capsys):
    assert cli.main(["--headless", "--frames", "3", "play", "tumbleweed", "--size", "8",
                     "--players", "human,bot:hard", "--seed", "5"]) == 0
    rec = json.loads(autosave_path().read_text())
    assert rec["game"] == "tumbleweed" and rec["seed"] == 5
    assert rec["config"]["size"] == 8 and rec["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "hard"}]
    assert rec["config"]["setup"] == "original" and rec["config"]["strict"] is False


@pytest.mark.parametrize("argv, message", [
    (["--size", "12"], "size must be a whole number 4..11"),
    (["--setup", "random"], "invalid choice: 'random'"),
    (["--aid", "guru"], "invalid choice: 'guru'"),
    (["--players", "human,bot:genius"], "unknown player 'bot:genius'"),
])
def test_bad_game_flags_are_one_line_errors(argv, message, capsys):
    assert cli.main(["--headless", "--frames", "1", "play", "tumbleweed", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_selfplay_through_the_spec_writes_games_that_replay(capsys):
    assert cli.main(["selfplay", "tumbleweed", "--players", "bot:easy,bot:easy", "--size", "6", "--setup", "free",
                     "--games", "2", "--seed", "1", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and lines[-1]["summary"] is True
    assert lines[-1]["wins"]["bot:easy"]["wins"] + lines[-1]["draws"] == 2
    for g in lines[:2]:
        assert g["size"] == 6
        # the free set-up writes the host's first token as neutral,red,white
        assert g["moves"][0].count(",") == 2
        m = replay_tokens({"size": 6, "setup": "free"}, g["moves"])
        assert m.is_over()
        sc = oracle_scores(m.state)
        got = sorted(zip(g["outcome"]["stacks"], g["outcome"]["territory"]))
        assert got == sorted(sc.values())


def test_selfplay_refuses_human_seats(capsys):
    assert cli.main(["selfplay", "tumbleweed", "--players", "human,bot:easy", "--games", "1"]) == 2
    assert "selfplay seats must all be bots" in capsys.readouterr().err


# ------------------------------------------------------------------------------ the set-up dialog
def test_setup_dialog_reaches_every_table_option(app):
    app.audio.play = lambda name: None
    dlg = app.push(make_setup_scene(app, SPEC))
    app.step([], STEP)

    def button(label):
        for b in dlg.buttons():
            if b.label.replace("✓ ", "") == label:
                return b
        raise AssertionError(f"no button {label!r}: {[b.label for b in dlg.buttons()]}")

    for label in ("10", "Free", "Stacks only", "Expert"):
        click(app, button(label).rect.center)
    click(app, dlg.seat_rows[0][0][0].rect.center)   # P1 (host): Human
    click(app, dlg.seat_rows[1][0][3].rect.center)   # P2 (guest): Hard
    assert dlg.error is None, dlg.error
    click(app, dlg.b_start.rect.center)
    m = app.match
    assert m is not None and m.rules.info.name == "tumbleweed"
    assert m.config == {"size": 10, "setup": "free", "strict": True, "stale": True, "aid": "expert"}
    assert [s.text() for s in m.seats] == ["human", "bot:hard"]
    assert isinstance(app.top, TumbleweedScene) and m.state.phase == "neutral"
    # the choice is remembered for the next dialog
    again = make_setup_scene(app, SPEC)
    assert again.values == {"size": 10, "setup": "free", "strict": True, "aid": "expert"}


# ------------------------------------------------------------------------------ playing against a bot
def test_setup_colour_choice_move_illegal_click_pass_and_undo_against_a_bot(app):
    scene, m, sounds = start(app, {"size": 6, "seats": ["human", "bot:easy"]})
    st = m.state
    assert st.phase == "setup" and scene.human_turn()
    # the centre holds the neutral stack: refused with a message, nothing logged
    click_cell(app, scene, (0, 0))
    assert scene.msg is not None and "neutral" in scene.msg[0] and m.log == []
    assert sounds[-1] == "reject"
    host_setup(app, scene, red=(-1, 1), white=(2, -2))
    assert m.state.phase == "choose"
    assert m.state.stack((-1, 1)) == (RED, 1) and m.state.stack((2, -2)) == (WHITE, 1)
    assert m.state.stack((0, 0)) == (NEUTRAL, 2)
    # the bot (guest) chooses a colour, then whoever is red moves
    settle(app, scene, human_turn(scene))
    st = m.state
    assert st.phase == "play" and m.log[1]["p"] == 1 and m.log[1]["a"]["t"] == "choose"
    me = st.colour_of(0)
    # an illegal click: a hex none of my stacks sees
    bad = next(c for c in find_cells(st, me, legal=False) if st.stack(c)[0] == EMPTY)
    n = len(m.log)
    click_cell(app, scene, bad)
    assert len(m.log) == n and scene.pending is None
    assert "sees this hex" in scene.msg[0] and sounds[-1] == "reject"
    # a legal hex: the first click previews, the second plays
    good = next(c for c in find_cells(st, me) if st.stack(c)[0] == EMPTY)
    height = sight(st, good, me)
    before = m.state
    cursor = m.cursor
    click_cell(app, scene, good)
    assert scene.pending == good and len(m.log) == n
    pv = scene.preview()
    assert pv["firm"] and pv["owner"] == me and pv["height"] == height
    click_cell(app, scene, good)
    assert m.cursor == cursor + 1 and m.state.stack(good) == (me, height)
    assert m.log[-1] == {"p": 0, "a": {"t": "place", "q": good[0], "r": good[1]}}
    # the bot replies off the frame; then Ctrl+Z takes back its reply and my move
    settle(app, scene, human_turn(scene))
    assert m.cursor == cursor + 2 and m.log[-1]["p"] == 1
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.cursor == cursor and m.state is before and scene.human_turn()
    assert m.state.stack(good) == (EMPTY, 0) and sounds[-1] == "undo"
    # pass with P
    app.step([key(pygame.K_p)], STEP)
    assert m.log[m.cursor - 1] == {"p": 0, "a": {"t": "pass"}}
    assert m.state.passes == 1


def test_undo_reaches_back_over_the_bots_setup_to_the_humans_choice(app):
    scene, m, _ = start(app, {"size": 6, "seats": ["bot:easy", "human"]})
    settle(app, scene, human_turn(scene))
    assert m.state.phase == "choose" and scene.choosing()
    assert scene.undo_steps() == 0                    # only the bot has acted: nothing of mine to undo
    click(app, scene.b_white.rect.center)
    assert m.state.phase == "play" and m.state.colour_of(1) == WHITE
    settle(app, scene, human_turn(scene))             # the bot (red) moves first
    assert m.log[-1]["p"] == 0 and m.log[-1]["a"]["t"] == "place"
    assert scene.undo_steps() == 2
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.cursor == 1 and m.state.phase == "choose"
    app.step([key(pygame.K_r)], STEP)                 # R: take red this time
    assert m.state.colour_of(1) == RED and m.state.to_move == RED and scene.human_turn()


def test_thinking_indicator_while_the_worker_runs_and_the_bot_move_waits_for_the_delay(app):
    scene, m, _ = start(app, {"size": 6, "seats": ["bot:easy", "human"]}, step=False)
    gate = threading.Event()
    real = scene._bot_job

    def slow(st, seat):
        job = real(st, seat)

        def run(cancelled):
            gate.wait(10)
            return job(cancelled)
        return run
    scene._bot_job = slow
    for _ in range(3):
        app.step([], 0.25)
    assert scene.worker.busy and scene.bot_thinking()
    assert scene.status_text()[0].endswith("places the starting stacks…")
    assert m.log == []
    gate.set()
    scene.worker.wait(10)
    scene.since = 0.0
    app.step([], STEP)                       # the result is in, but the delay has not passed
    assert m.log == []
    for _ in range(int(BOT_DELAY / 0.25) + 1):   # a frame counts at most 0.25 s
        app.step([], 0.25)
    assert len(m.log) == 1 and m.log[0]["a"]["t"] == "setup"


# ------------------------------------------------------------------------------ hot-seat and free set-up
def test_hot_seat_free_setup_colour_buttons_and_one_step_undo(app):
    scene, m, _ = start(app, {"size": 6, "setup": "free", "seats": ["human", "human"]})
    assert m.state.phase == "neutral"
    click_cell(app, scene, (1, 1))
    assert m.state.stack((1, 1)) == (NEUTRAL, 2) and m.state.phase == "setup"
    # clicking the red hex again takes it back before white is chosen
    click_cell(app, scene, (0, 0))
    assert scene.setup_red == (0, 0)
    click_cell(app, scene, (0, 0))
    assert scene.setup_red is None and m.state.phase == "setup"
    host_setup(app, scene, red=(0, 0), white=(-3, 2))
    assert m.state.phase == "choose" and scene.choosing() and scene.to_act() == 1
    click(app, scene.b_red.rect.center)
    st = m.state
    assert st.colour_of(1) == RED and scene.to_act() == 1 and scene.human_turn()
    cell = next(c for c in find_cells(st, RED) if st.stack(c)[0] == EMPTY)
    click_cell(app, scene, cell)
    click_cell(app, scene, cell)
    assert m.state.stack(cell)[0] == RED and scene.to_act() == 0
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.state is st and scene.to_act() == 1


def test_without_confirmation_one_click_plays(app):
    prefs = dict(PREF_DEFAULTS, confirm=False)
    scene, m, _ = start(app, {"size": 6, "seats": ["human", "human"]}, prefs=prefs)
    host_setup(app, scene)
    click(app, scene.b_white.rect.center)
    st = m.state
    cell = next(c for c in find_cells(st, RED) if st.stack(c)[0] == EMPTY)
    click_cell(app, scene, cell)
    assert m.state.stack(cell) == (RED, sight(st, cell, RED))


def test_a_pass_that_ends_the_game_asks_twice_with_confirmation(app):
    scene, m, _ = start(app, {"size": 6, "seats": ["human", "human"]})
    host_setup(app, scene)
    click(app, scene.b_white.rect.center)
    app.step([key(pygame.K_p)], STEP)           # red passes
    assert m.state.passes == 1 and not m.is_over()
    assert [k for k, _ in scene.notices()] == ["passed"]
    app.step([key(pygame.K_p)], STEP)           # white: a pass now ends the game, so it asks
    assert not m.is_over() and scene.pass_armed
    click(app, scene.b_pass.rect.center)
    assert m.is_over() and m.state.ended == "passes"
    # the end card: both scores by the counting oracle, and no undo after the end
    out = m.outcome()
    sc = oracle_scores(m.state)
    for colour in ("red", "white"):
        assert (out[colour]["stacks"], out[colour]["territory"]) == sc[colour]
    assert scene.show_result and scene.undo_steps() == 0
    app.step([key(pygame.K_v)], STEP)
    assert not scene.show_result


# ------------------------------------------------------------------------------ previews and aids
def _suicidal_position():
    """Side 5, red to move: hex (1, 0) is seen once by red (from the east) and twice by white (from
    the north-west and the south-east); the neutral stack west of it blocks."""
    stacks = {(0, 0): (NEUTRAL, 2), (3, 0): (RED, 1), (1, -2): (WHITE, 1), (1, 2): (WHITE, 1)}
    return position_state(5, stacks, to_move=RED, red_seat=0)


@pytest.mark.parametrize("aid", ["beginner", "intermediate", "expert"])
def test_preview_colouring_per_aid(app, aid):
    st = _suicidal_position()
    cell = (1, 0)
    assert sight(st, cell, RED) == 1 and sight(st, cell, WHITE) == 2
    m = Match(TumbleweedRules(), {"size": 5, "seats": ["human", "human"], "aid": aid}, 1)
    m.states[0] = st
    scene = app.start_match(SPEC, m, autosave=False)
    app.step([motion(scene.cell_pos(cell))], STEP)
    pv = scene.preview()
    assert pv["cell"] == cell and pv["legal"] and not pv["firm"] and pv["owner"] == RED
    if aid == "expert":
        assert pv["grey"] is False and pv["number"] is False
    else:
        assert pv["grey"] is True and pv["number"] is True and pv["height"] == 1
    # a hex red sees twice and white not at all is not suicidal
    safe = next(c for c in st.geo.cells if st.stack(c)[0] == EMPTY and sight(st, c, RED) >= 1
                and sight(st, c, WHITE) <= sight(st, c, RED))
    app.step([motion(scene.cell_pos(safe))], STEP)
    assert scene.preview()["grey"] is False


def test_capture_outlines_and_influence_follow_the_aid(app):
    st = _suicidal_position()
    for aid, shown in (("beginner", True), ("intermediate", False), ("expert", False)):
        m = Match(TumbleweedRules(), {"size": 5, "seats": ["human", "human"], "aid": aid}, 1)
        m.states[0] = st
        scene = app.start_match(SPEC, m, autosave=False)
        app.step([], STEP)
        assert scene.captures_shown() is shown and scene.influence_shown() is shown
        sc = scene.shown_scores()
        want = oracle_scores(st)
        for colour in ("red", "white"):
            stacks, terr = want[colour]
            assert sc[colour]["score"] == (stacks if aid == "expert" else stacks + terr)


def test_stale_reminder_shows_as_a_notice(app):
    st = position_state(5, {(0, 0): (NEUTRAL, 2), (-2, 0): (RED, 1), (2, 0): (WHITE, 1)}, to_move=RED)
    m = Match(TumbleweedRules(), {"size": 5, "seats": ["human", "human"]}, 1)
    m.states[0] = dataclasses.replace(st, stale=3)
    scene = app.start_match(SPEC, m, autosave=False)
    app.step([], STEP)
    kinds = dict(scene.notices())
    assert "passing is recommended" in kinds["stale"] and "2 more turns" in kinds["stale"]


# ------------------------------------------------------------------------------ preferences
def test_every_preference_toggles_from_the_panel_and_is_remembered(app):
    scene, m, _ = start(app, {"size": 6, "seats": ["human", "human"]})
    for name in PREF_DEFAULTS:
        before = scene.prefs[name]
        click(app, scene.pref_buttons[name].rect.center)
        assert scene.prefs[name] is (not before), name
    assert load_prefs() == {k: not v for k, v in PREF_DEFAULTS.items()}
    app.step([key(pygame.K_i), key(pygame.K_c)], STEP)
    assert scene.prefs["influence"] and scene.prefs["coords"]
    fresh = app.start_match(SPEC, m, autosave=False)
    assert fresh.prefs == load_prefs()


def test_rules_and_menu_buttons(app):
    app.push(LauncherScene(app))
    scene, m, _ = start(app, {"size": 6, "seats": ["human", "human"]})
    click(app, scene.b_rules.rect.center)
    assert getattr(app.top, "is_rules", False)
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is scene
    app.step([key(pygame.K_F1)], STEP)
    assert getattr(app.top, "is_rules", False) and app.top.spec is SPEC
    app.step([key(pygame.K_ESCAPE)], STEP)
    click(app, scene.b_menu.rect.center)
    assert len(app.stack) == 1 and app.match is None


def test_a_replay_over_the_screen_never_wakes_the_bots(app):
    played = demo_match(5, 400, seed=6, config={"seats": ["bot:easy", "bot:easy"]})
    assert played.is_over()
    m = record.from_record(record.to_record(played))
    scene = app.start_match(SPEC, m, autosave=False)
    app.push(ReplayScene(app, m, autoplay=False))
    n = len(m.log)
    assert m.cursor == 0 and scene.is_bot(scene.to_act())
    for _ in range(4):
        app.step([], 0.25)
    assert not scene.worker.busy and len(m.log) == n and m.cursor == 0
    app.step([key(pygame.K_END)], STEP)
    assert m.cursor == n and scene.match.is_over() and "Game over" in scene.status_text()[0]


# ------------------------------------------------------------------------------ save and resume
def test_autosave_and_resume_continue_the_same_position(app):
    app.push(LauncherScene(app))
    scene, m, _ = start(app, {"size": 6, "seats": ["human", "bot:easy"]}, autosave=True)
    host_setup(app, scene)
    settle(app, scene, human_turn(scene))
    saved = record.load(autosave_path())
    assert saved.log == m.log and saved.state.code == m.state.code
    # Esc back to the launcher, then Resume
    app.step([key(pygame.K_ESCAPE)], STEP)
    launcher = app.top
    launcher.refresh_resume()
    assert launcher.resume_match is not None and launcher.resume_spec is SPEC
    launcher.resume()
    resumed = app.top
    assert isinstance(resumed, TumbleweedScene) and resumed.match.state.code == m.state.code
    assert resumed.human_turn() and resumed.match.log == m.log


# ------------------------------------------------------------------------------ renders
def _pixel(surface, pos):
    return tuple(surface.get_at((int(pos[0]), int(pos[1]))))[:3]


def _close(a, b, tol=14):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_screenshot_mid_game_size_8_with_influence_and_last_move(app, tmp_path):
    m = demo_match(8, 30, seed=1)
    assert m.state.ply == 30 and not m.is_over()
    scene = app.start_match(SPEC, m, autosave=False, prefs=dict(PREF_DEFAULTS))
    app.step([motion((2, 790))], STEP)
    path = app.screenshot(tmp_path / "tumbleweed-mid.png")
    img = pygame.image.load(str(path))
    st = m.state
    s = scene.s
    # the last move: its hex rim is in the highlight yellow
    last = st.geo.cells[st.last]
    x, y = scene.cell_pos(last)
    rim = [_pixel(img, (x + dx * s * 0.86, y + dy * s * 0.86)) for dx, dy in ((0, -1), (0, 1), (-0.87, 0), (0.87, 0))]
    assert any(_close(p, twdraw.LAST_MOVE, 40) for p in rim), rim
    # influence: an empty hex red controls (counted here) is tinted red with a red dot at its centre
    red = twdraw.red_colour(app.theme)
    mine = [c for c in st.geo.cells if st.stack(c)[0] == EMPTY and sight(st, c, RED) > sight(st, c, WHITE)
            and c != last]
    theirs = [c for c in st.geo.cells if st.stack(c)[0] == EMPTY and sight(st, c, WHITE) > sight(st, c, RED)]
    assert mine and theirs
    for c in mine[:5]:
        x, y = scene.cell_pos(c)
        assert _close(_pixel(img, (x - s * 0.55, y)), twdraw.territory_fill(RED, red)), c
    for c in theirs[:5]:
        x, y = scene.cell_pos(c)
        assert _close(_pixel(img, (x - s * 0.55, y)), twdraw.territory_fill(WHITE, red)), c
    # every stack is drawn: its centre is not board colour
    for cell in st.geo.cells:
        owner, _h = st.stack(cell)
        if owner in (RED, WHITE):
            assert not _close(_pixel(img, scene.cell_pos(cell)), twdraw.CELL, 10), cell
    # with influence off, the same red hex shows the plain board colour
    click(app, scene.pref_buttons["influence"].rect.center)
    app.step([motion((2, 790))], STEP)
    x, y = scene.cell_pos(mine[0])
    assert _close(_pixel(app.surface, (x - s * 0.55, y)), twdraw.CELL)


@pytest.mark.parametrize("prefs", [{}, {"influence": False, "captures": False, "last_move": False}])
def test_the_position_layer_repainted_where_hexes_changed_equals_a_whole_repaint(app, prefs):
    """After moves, take-backs and redos the position layer (painted again only around the hexes whose
    look changed) is the very picture built whole."""
    m = demo_match(8, 36, seed=5)
    scene = app.start_match(SPEC, m, autosave=False, prefs=dict(PREF_DEFAULTS, confirm=False, **prefs))
    app.step([], 1 / 60)
    partial = 0

    def check():
        nonlocal partial
        kept = scene._pos_cache
        got = pygame.image.tobytes(scene._position_layer(), "RGB")
        partial += kept is not None and scene._pos_cache[2] is kept[2] and kept[1] is not m.state
        kept = scene._pos_cache
        scene._pos_cache = None
        assert got == pygame.image.tobytes(scene._position_layer(), "RGB"), m.cursor
        scene._pos_cache = kept

    check()
    for _ in range(8):
        assert m.undo()
        check()
    for _ in range(5):
        assert m.redo()
        check()
    for k in range(4):
        seat = m.active_players()[0]
        legal = [a for a in m.rules.legal_actions(m.state, seat) if a["t"] == "place"]
        m.submit(seat, legal[(k * 7) % len(legal)])
        check()
    assert partial >= 15


def test_a_player_at_another_machine_is_named_not_called_a_bot(app):
    """A LAN game's seats ("lan:Bob") are people: the labels (the end card, the game-over line) name
    them as they joined."""
    scene, match, _ = start(app, {"size": 4, "seats": ["human", "lan:Bob"]})
    match.submit(0, {"t": "setup", "red": [-1, 1], "white": [2, -2]})
    match.submit(1, {"t": "choose", "colour": "red"})
    app.step([], STEP)
    assert scene.who(RED) == "Red (Bob)" and scene.who(WHITE) == "White (you)"
    assert "bot" not in scene.who(RED)


def test_the_other_machines_turn_offers_nothing_here(app):
    """On a LAN table the other player's turn is not this screen's: no preview, Pass off, and a click
    on a hex says whose turn it is instead of choosing it."""
    scene, match, _ = start(app, {"size": 4, "seats": ["human", "lan:Bob"]})
    match.submit(0, {"t": "setup", "red": [-1, 1], "white": [2, -2]})
    match.submit(1, {"t": "choose", "colour": "red"})          # Bob plays red: his move
    app.step([], STEP)
    assert scene.to_act() == 1 and not scene.human_turn() and scene.played_elsewhere(1)
    assert not scene.b_pass.enabled
    cell = next(c for c in find_cells(match.state, RED) if c != (-1, 1))
    click_cell(app, scene, cell)
    assert scene.pending is None and scene.preview() is None and len(match.log) == 2
    assert scene.msg is not None and "Bob is to play" in scene.msg[0]
