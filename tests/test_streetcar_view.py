"""The Streetcar screen, its set-up dialog and its GameSpec, driven through the real App loop.

Events are built in window px; the headless window is 1280x800, the logical size, so window and logical
coordinates coincide. Targets come from the scene's own geometry (``cell_rect``, ``hand_rect``,
``die_rect``). What must be legal or connected is worked out here from the tile data by hand (which
sides a tile's tracks reach at a rotation, which squares are buildings or terminals), not by the
engine's tables.
"""
from __future__ import annotations

import json
import threading

import pygame
import pytest

from events import click, key, motion, wheel
from games.streetcar import SPEC
from games.streetcar import draw as scdraw
from games.streetcar.data import BUILDINGS, TERMINALS, TILES, face_steps
from games.streetcar.tiles import LEGS, ORIENT
from games.streetcar.view import HAND_TILE as HAND_TILE_PX
from games.streetcar.rules import StreetcarRules
from games.streetcar import route as R
from games.streetcar.view import (BOT_DELAY, ROLL_TIME, STEP_TIME, StreetcarScene, demo_match,
                                  make_setup_scene, path_tracks)
from sim.app import cli
from sim.app.launcher import LauncherScene
from sim.app.replay import ReplayScene
from sim.core import record
from sim.core.match import Match
from sim.core.seats import parse as parse_seat
from sim.core.registry import get_spec
from sim.core.storage import autosave_path

STEP = 1 / 60
CTRL_Z = dict(mod=pygame.KMOD_LCTRL)
SIDES = "NESW"
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
TERMINAL_SQUARES = {cell for ends in TERMINALS.values() for end in ends for cell in end}


# ------------------------------------------------------------------------------ oracles from the data
def ends_of(tile: int, rot: int) -> set[str]:
    """The sides a tile's tracks reach at rotation ``rot``: each side letter of its rotation-0 tracks
    turned ``rot`` quarter turns clockwise (N -> E -> S -> W)."""
    return {SIDES[(SIDES.index(c) + rot) % 4] for pair in TILES[tile].pairs for c in pair}


def tracks_of(tile: int, rot: int) -> set[frozenset]:
    return {frozenset(SIDES[(SIDES.index(c) + rot) % 4] for c in pair) for pair in TILES[tile].pairs}


def step_side(a, b) -> str:
    """The side of square ``a`` that faces the neighbouring square ``b``."""
    d = (b[0] - a[0], b[1] - a[1])
    return next(s for s, v in DELTA.items() if v == d)


def terminal_cells(square):
    """The two ring squares of the terminal ``square`` belongs to (a terminal counts as one square)."""
    return next(end for ends in TERMINALS.values() for end in ends if square in end)


def adjacent(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def assert_drives_along_track(state, start, path):
    """Each step of ``path`` ([x, y, side] nodes) goes to a neighbouring square (a tram on a terminal
    leaves by either of its two squares), and on every board square passed through the tram enters and
    leaves on the two ends of one track of the tile there."""
    squares = [tuple(start[:2])] + [tuple(p[:2]) for p in path]
    for k in range(len(squares) - 1):
        a, b = squares[k], squares[k + 1]
        if a in TERMINAL_SQUARES:
            if b in terminal_cells(a):
                continue   # through the loop of a terminal
            near = [c for c in terminal_cells(a) if adjacent(c, b)]
            assert near, (a, b)
            squares[k] = near[0]
        else:
            assert adjacent(a, b), (a, b)
    for prev, cur, nxt in zip(squares, squares[1:], squares[2:]):
        if cur in TERMINAL_SQUARES:
            continue
        tile = state.board.tile_at(cur[1] * 14 + cur[0])
        assert tile is not None, cur
        track = frozenset((step_side(cur, prev), step_side(cur, nxt)))
        assert track in tracks_of(*tile), (cur, track, tile)


# ------------------------------------------------------------------------------ helpers
def start(app, config, seed=3, autosave=False, step=True, match=None, **opts):
    sounds = []
    app.audio.play = lambda name: sounds.append(name)
    m = match if match is not None else Match(StreetcarRules(), config, seed)
    scene = app.start_match(SPEC, m, autosave=autosave, **opts)
    if step:
        app.step([], STEP)
    return scene, m, sounds


def reseat(m: Match, seats: list[str]) -> Match:
    """The same game (seed and log) with other people in the seats (the rules only record them)."""
    rec = record.to_record(m)
    rec["seats"] = [parse_seat(s).to_json() for s in seats]
    return record.from_record(rec)


def settle(app, scene, until, frames=80):
    """Step the loop (0.25 s frames, so the bots' delay and the animations pass) until ``until()``."""
    for _ in range(frames):
        if until():
            return
        scene.worker.wait(10)
        app.step([], 0.25)
    assert until(), "the screen did not get there in time"


def node_xy(node: int) -> tuple[int, int]:
    """Square (x, y) of a tram position: node = square * 5 + side, square = y * 14 + x."""
    cell = node // 5
    return cell % 14, cell // 14


def hand_index(state, seat, tile):
    return state.seats[seat].hand.index(tile)


def click_hand(app, scene, seat, tile):
    click(app, scene.hand_rect(seat, hand_index(scene.state, seat, tile)).center)


def click_square(app, scene, x, y):
    click(app, scene.cell_rect(x, y).center)


def pixel(surface, pos):
    return tuple(surface.get_at((int(pos[0]), int(pos[1]))))[:3]


def close(a, b, tol=16):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ------------------------------------------------------------------------------ the spec and the CLI
def test_spec_is_registered_with_levels_seats_and_hooks():
    spec = get_spec("streetcar")
    assert spec is SPEC and spec.title == "Streetcar" and spec.players == "2-5"
    assert spec.levels == ("easy", "medium", "hard")
    assert spec.default_players == ("human", "bot:medium", "bot:medium")
    assert spec.seated and not spec.realtime
    assert spec.rules_text.name == "rules.md" and spec.rules_text.exists()
    bot = spec.make_bot(1, "hard", 7)
    assert bot.level == "hard"


def test_play_command_starts_with_seats_and_dice(capsys):
    assert cli.main(["--headless", "--frames", "3", "play", "streetcar", "--players", "human,bot:medium,bot:hard",
                     "--seed", "1", "--dice", "classic"]) == 0
    rec = json.loads(autosave_path().read_text())
    assert rec["game"] == "streetcar" and rec["seed"] == 1
    assert rec["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "hard"}]
    assert rec["config"]["players"] == 3 and "seats" not in rec["config"]
    assert rec["config"]["dice"] == "classic"


@pytest.mark.parametrize("argv, message", [
    (["--dice", "loaded"], "invalid choice: 'loaded'"),
    (["--players", "human,bot:genius"], "unknown player 'bot:genius'"),
    (["--players", "human,human,human,human,human,human"], "2 to 5 players"),
    (["--players", "human"], "2 to 5 players"),
])
def test_bad_flags_are_one_line_errors(argv, message, capsys):
    assert cli.main(["--headless", "--frames", "1", "play", "streetcar", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_selfplay_through_the_spec_writes_records_that_replay_and_open(app, capsys, tmp_path):
    assert cli.main(["selfplay", "streetcar", "--players", "bot:hard,bot:easy", "--games", "2", "--seed", "1",
                     "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and lines[-1]["summary"] is True
    for g in lines[:2]:
        m = record.from_record(g["record"])
        assert m.is_over() and m.outcome()["winner"] == g["winner"]
        if g["winner"] is not None:
            # the winner's tram stands on a square of its line's other terminal
            me = m.state.seats[g["winner"]]
            x, y, _ = g["plays"][-1]["path"][-1]
            assert g["plays"][-1]["seat"] == g["winner"]
            assert (x, y) in TERMINALS[me.line][1 - me.start]
        tiles = [p for p in g["plays"] if p["play"] == "tile"]
        assert tiles and all({"tile", "rot", "x", "y", "how"} <= set(p) for p in tiles)
    # `playtable replay` reads the line, headless and in a window with the replay controls
    path = tmp_path / "game.json"
    path.write_text(json.dumps(lines[0]))
    assert cli.main(["replay", str(path), "--headless"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "streetcar" and out["over"] is True
    m = record.from_record(lines[0]["record"])
    scene = app.start_match(SPEC, m, autosave=False)
    app.push(ReplayScene(app, m, autoplay=False))
    n = len(m.log)
    for _ in range(4):
        app.step([], 0.25)
    assert not scene.worker.busy and len(m.log) == n      # a replay never wakes the bots
    assert scene.reveal_all() and not scene.handover_needed()
    assert scene.status_text().startswith("Replay: Bot 1") and not scene.bot_thinking()
    app.step([key(pygame.K_END)], STEP)
    assert m.cursor == n and "Game over" in scene.status_text()
    tiles = sum(1 for p in lines[0]["plays"] if p["play"] == "tile")
    assert len(scene.log_from_record(last=10 ** 6)) >= tiles and "drove" in scene.log_lines[-1]


def test_bench_hook_prints_the_screen_figure(monkeypatch):
    import games.streetcar.bench as bench
    import games.streetcar.view as view

    monkeypatch.setattr(bench, "run", lambda out: out("engine figures"))
    real = view.frame_times
    monkeypatch.setattr(view, "frame_times", lambda: real(frames=12))
    lines = []
    SPEC.bench(lines.append)
    assert lines[0] == "engine figures"
    assert lines[1].startswith("streetcar screen: frame time") and "median" in lines[1]


# ------------------------------------------------------------------------------ the set-up dialog
def test_setup_dialog_seats_dice_and_shared_hands(app):
    app.audio.play = lambda name: None
    dlg = app.push(make_setup_scene(app, SPEC))
    app.step([], STEP)

    def button(label):
        for b in dlg.buttons():
            if b.label.replace("✓ ", "").replace("✓", "") == label:
                return b
        raise AssertionError(f"no button {label!r}: {[b.label for b in dlg.buttons()]}")

    click(app, button("4").rect.center)                # 4 players: 2 stops each
    click(app, button("Classic").rect.center)
    click(app, button("Off").rect.center)
    click(app, dlg.seat_rows[0][0][0].rect.center)     # P1 human
    click(app, dlg.seat_rows[3][0][3].rect.center)     # P4 hard
    assert dlg.error is None and dlg.info.startswith("2 stops each")
    click(app, dlg.b_start.rect.center)
    m = app.match
    assert m is not None and m.rules.info.name == "streetcar"
    assert m.config["players"] == 4 and m.seats[0].text() == "human" and m.seats[3].text() == "bot:hard"
    assert m.config["dice"] == "classic" and m.config["share_hands"] is False
    assert isinstance(app.top, StreetcarScene)
    assert all(len(s.stops) == 2 for s in m.state.seats)


# ------------------------------------------------------------------------------ laying track
def test_pick_rotate_place_refuse_and_undo_within_the_turn(app):
    scene, m, sounds = start(app, {"players": 2, "seats": ["human", "bot:easy"]})
    st = m.state
    assert scene.human_turn() and st.phase == "play" and st.board.count == 0
    assert st.seats[0].hand.count(0) == 3            # three straights to start with
    click_hand(app, scene, 1, 0)                       # the bot's tiles: it is still building
    assert scene.sel is None and "still building" in scene.msg[0]
    click_hand(app, scene, 0, 0)
    assert scene.sel == (0, 0)
    # the highlighted squares for the straight as turned: away from the ring, a square fits east-west
    # exactly when it and its east and west neighbours are no buildings (the board is empty)
    buildings = set(BUILDINGS.values())
    scene.rot = 0
    assert ends_of(0, 0) == {"E", "W"}
    legal = {sq for sq, masks in scene.legal_plays().items() if scene.fits(*sq)[0]}
    for x in range(3, 11):
        for y in range(3, 11):
            expect = not {(x, y), (x - 1, y), (x + 1, y)} & buildings
            assert ((x, y) in legal) == expect, (x, y)
    # R turns it a quarter clockwise; a wheel notch (one MOUSEWHEEL event) one more step
    app.step([key(pygame.K_r)], STEP)
    assert scene.rot == 1 and ends_of(0, 1) == {"N", "S"}
    app.step([wheel(1)], STEP)
    assert scene.rot == 2
    app.step([wheel(-1), wheel(-1)], STEP)
    assert scene.rot == 0
    # an illegal square: east-west at (3,2) runs into building H at (4,2): refused with the reason
    n = len(m.log)
    click_square(app, scene, 3, 2)
    assert len(m.log) == n and "building H" in scene.msg[0] and sounds[-1] == "reject"
    click_square(app, scene, *BUILDINGS["A"])
    assert len(m.log) == n and "building A" in scene.msg[0]
    # ... turned north-south it fits there, and the refusal says so
    assert scene.fits(3, 2) == (False, [1, 3])
    # a legal square: the tile goes down as turned, and one straight leaves the hand
    click_square(app, scene, 6, 6)
    assert m.log[-1] == {"p": 0, "a": {"t": "tile", "tile": 0, "rot": 0, "x": 6, "y": 6}}
    after = m.state
    assert after.board.tile_at(6 * 14 + 6) == (0, 0) and after.seats[0].hand.count(0) == 2
    assert after.played == 1 and scene.sel is None and "tile 2 of 2" in scene.status_text()
    # Ctrl+Z takes the first tile back: nothing was drawn yet
    assert scene.b_undo.enabled
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.state is st and m.state.board.count == 0 and sounds[-1] == "undo"
    # two tiles end the turn (the hand refills from the pile): no undo any more
    click_hand(app, scene, 0, 0)
    click_square(app, scene, 6, 6)
    click_hand(app, scene, 0, 0)
    click_square(app, scene, 7, 6)
    assert m.state.turn == 1 and len(m.state.seats[0].hand) == 5
    assert not scene.can_undo()
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.state.turn == 1 and sounds[-1] == "reject"


def test_clicks_out_of_turn_are_refused_and_the_bot_waits_its_delay(app):
    scene, m, sounds = start(app, {"players": 2, "seats": ["bot:easy", "human"]}, step=False)
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
    assert scene.worker.busy and scene.bot_thinking() and "thinking" in scene.status_text()
    click_hand(app, scene, 1, 0)
    assert scene.sel is None and "Bot 1" in scene.msg[0]
    gate.set()
    scene.worker.wait(10)
    scene.since = 0.0
    app.step([], STEP)                        # the bot has decided; its move waits for the delay
    assert m.log[-1]["p"] < 0
    for _ in range(int(BOT_DELAY / 0.25) + 1):
        app.step([], 0.25)
    assert m.log[-1]["p"] == 0 or any(e["p"] == 0 for e in m.log)


# ------------------------------------------------------------------------------ hot-seat hand-over
def test_hand_over_hides_the_cards_until_the_next_human_confirms(app, tmp_path):
    scene, m, _ = start(app, {"players": 2, "seats": ["human", "human"]}, seed=5)
    assert scene.handover_needed() and scene.to_act() == 0
    assert not scene.cards_visible(0) and not scene.cards_visible(1) and scene.card_seat() is None
    # nothing on the board or in the hands reacts until the confirmation
    click_hand(app, scene, 0, 0)
    assert scene.sel is None and m.log[-1]["p"] < 0
    app.step([], STEP)
    shot = app.screenshot(tmp_path / "handover.png")
    img = pygame.image.load(str(shot))
    assert close(pixel(img, scene.b_iam.rect.center), app.theme.accent, 30)
    # the cards card under the cover is darkened, not drawn in the clear
    cc = scene.cards_card
    assert sum(pixel(img, (cc.right - 8, cc.bottom - 8))) < sum(app.theme.panel) / 2
    click(app, scene.b_iam.rect.center)
    assert scene.confirmed == 0 and scene.cards_visible(0) and not scene.cards_visible(1)
    assert scene.card_seat() == 0
    # P1 lays two tiles; the turn passes to P2 and the cover comes back, hiding P1's cards too
    click_hand(app, scene, 0, 0)
    click_square(app, scene, 6, 6)
    click_hand(app, scene, 0, 0)
    click_square(app, scene, 7, 6)
    assert m.state.turn == 1
    assert scene.handover_needed() and not scene.cards_visible(0) and not scene.cards_visible(1)
    app.step([key(pygame.K_RETURN)], STEP)
    assert scene.confirmed == 1 and scene.cards_visible(1) and not scene.cards_visible(0)


# ------------------------------------------------------------------------------ the trip
def _ready_to_start(seed):
    """A 2-player game played by bots until seat 0 may start its trip at the start of its turn, with a
    human in seat 0 (the bots' moves are in the log)."""
    m = demo_match(["human", "bot:medium"], seed=seed,
                   until=lambda r, s: s.phase == "play" and s.turn == 0 and s.played == 0 and r.can_start(s, 0))
    assert not m.is_over() and m.state.turn == 0
    return m


def test_start_the_trip_roll_choose_a_die_and_watch_the_tram(app, tmp_path):
    m = _ready_to_start(2)
    scene, m, sounds = start(app, None, match=m)
    st = m.state
    line = st.seats[0].line
    assert scene.cards_visible(0) and not scene.cards_visible(1) and scene.b_start.enabled
    click(app, scene.b_start.rect.center)
    assert scene.start_mode
    # the line's first terminal, clicked on the board
    (tx, ty), _ = TERMINALS[line][0]
    click_square(app, scene, tx, ty)
    st = m.state
    assert st.seats[0].driving and st.phase == "roll" and sounds[-1] == "start"
    assert node_xy(st.seats[0].pos) == (tx, ty)
    # Space rolls three dice; they tumble first and cannot be used meanwhile
    app.step([key(pygame.K_SPACE)], STEP)
    st = m.state
    assert st.phase == "choose" and len(st.dice) == 3 and scene.anim_roll is not None
    n = len(m.log)
    click(app, scene.die_rect(0).center)
    assert len(m.log) == n
    for _ in range(int(ROLL_TIME * 60) + 2):
        app.step([], STEP)
    assert scene.anim_roll is None
    go = [i for i, f in enumerate(st.dice) if f.startswith("GO")]
    assert go, st.dice
    i = go[0]
    k = face_steps(st.dice[i])
    click(app, scene.die_rect(i).center)
    if scene.die_sel is not None:                       # a fork: take the first numbered square
        click_square(app, scene, *node_xy(scene.branch[0].path[-1]))
    last = m.log[-1]
    assert last["p"] == 0 and last["a"]["t"] == "drive" and last["a"]["die"] == i
    path = last["a"]["path"]
    assert len(path) == k
    start_node = [tx, ty, 4]
    assert_drives_along_track(m.state, start_node, path)
    assert list(node_xy(m.state.seats[0].pos)) == path[-1][:2]
    # the tram is drawn square by square along the path
    t0 = scene.anim_tram[0][1]
    for j, node in enumerate(path, start=1):
        scene.clock = t0 + j * STEP_TIME - 1e-6
        (cx, cy), _ = scene.tram_position(0)
        ex, ey = scene.cell_centre(node[0], node[1])
        assert abs(cx - ex) < 2 and abs(cy - ey) < 2, (j, node)
    for _ in range(int(STEP_TIME * k * 60) + 2):
        app.step([], STEP)
    assert not scene.anim_tram
    # the tram on its square: its body shows the line colour beside the number
    app.step([motion((2, 2))], STEP)
    shot = app.screenshot(tmp_path / "trip.png")
    img = pygame.image.load(str(shot))
    (cx, cy), heading = scene.tram_position(0)
    along = (1, 0) if heading in (1, 3) else (0, 1)
    body = [pixel(img, (cx + along[0] * d, cy + along[1] * d)) for d in (-12, -10, 10, 12)]
    assert any(close(p, scdraw.LINE_RGB[line], 20) for p in body), body
    # Enter stops (when the turn has not already ended)
    if m.state.phase == "roll" and m.state.turn == 0:
        app.step([key(pygame.K_RETURN)], STEP)
        assert m.log[-1] == {"p": 0, "a": {"t": "stop"}}
        assert m.state.turn == 1


def _fork(seed=1):
    """Bots play until the driver to act has a die that can be carried out along two ways ending on
    different squares; that seat is then the human's."""
    rules = StreetcarRules()

    def fork(r, s):
        if s.phase != "choose":
            return False
        for f in s.dice:
            mv = r.moves(s, f)
            ends = {tuple(x.path[-1:]) for x in mv}
            if len(mv) >= 2 and all(x.path for x in mv) and len(ends) == len(mv):
                return True
        return False
    m = demo_match(["bot:medium", "bot:medium"], seed=seed, until=fork)
    assert fork(rules, m.state)
    seats = ["bot:medium", "bot:medium"]
    seats[m.state.turn] = "human"
    return reseat(m, seats)


def test_a_fork_numbers_the_end_squares_and_a_click_picks_the_way(app):
    m = _fork()
    scene, m, _ = start(app, None, match=m)
    st = m.state
    seat = st.turn
    assert scene.human_turn() and st.phase == "choose"
    i = next(j for j, f in enumerate(st.dice) if len(scene.rules.moves(st, f)) >= 2)
    app.step([motion(scene.die_rect(i).center)], STEP)     # pointing at the die shows its ways first
    die, ways = scene.shown_ways()
    assert die == i and {w.path for w in ways} == {w.path for w in scene.rules.moves(st, st.dice[i]) if w.path}
    app.step([key(pygame.K_1 + i)], STEP)
    assert scene.die_sel == i and len(scene.branch) >= 2 and "forks" in scene.status_text()
    want = scene.branch[1]
    x, y = node_xy(want.path[-1])
    click_square(app, scene, x, y)
    last = m.log[-1]
    assert last["p"] == seat and last["a"]["die"] == i
    assert last["a"]["path"][-1][:2] == [x, y]
    assert_drives_along_track(st, [*node_xy(st.seats[seat].pos), 0], last["a"]["path"])


def test_a_builder_plays_a_tile_from_a_drivers_open_hand(app):
    m = demo_match(["human", "bot:medium"], seed=1,
                   until=lambda r, s: s.phase == "play" and s.turn == 0 and s.played == 0 and s.seats[1].driving
                   and s.seats[1].hand and not s.seats[0].driving)
    scene, m, _ = start(app, None, match=m)
    st = m.state
    assert st.share and scene.human_turn()
    theirs = next(t for t in st.seats[1].hand
                  if any(scene.rules.tile_plays(st, 0, t, 1)))
    click_hand(app, scene, 1, theirs)
    assert scene.sel == (1, theirs)
    x, y = next(sq for sq in scene.legal_plays() if scene.fits(*sq)[0])
    before = list(st.seats[1].hand)
    click_square(app, scene, x, y)
    last = m.log[-1]["a"]
    assert last["hand"] == 1 and last["tile"] == theirs and (last["x"], last["y"]) == (x, y)
    before.remove(theirs)
    assert list(m.state.seats[1].hand) == before and list(m.state.seats[0].hand) == list(st.seats[0].hand)


def test_the_end_card_names_the_winner_and_offers_a_new_game(app):
    m = demo_match(["human", "bot:medium"], seed=4)
    assert m.is_over()
    scene, m, sounds = start(app, None, match=m)
    st = m.state
    win = st.winner
    assert win is not None and win >= 0
    me = st.seats[win]
    # the winner's tram stands on its destination terminal with every stop served
    assert node_xy(me.pos) in TERMINALS[me.line][1 - me.start]
    assert me.served == (1 << len(me.stops)) - 1
    assert scene.show_result and scene.reveal_all() and "Game over" in scene.status_text()
    assert ("You win" if win == 0 else "Bot 2") in scene.status_text()
    assert not scene.can_undo()
    app.step([key(pygame.K_v)], STEP)
    assert not scene.show_result
    app.step([key(pygame.K_v)], STEP)
    click(app, scene.b_again.rect.center)
    fresh = app.match
    assert fresh is not m and fresh.config == m.config and not fresh.is_over()
    assert isinstance(app.top, StreetcarScene) and app.top.match is fresh


def test_a_whole_hot_seat_game_through_the_screen(app):
    """Two humans at one screen play a whole game with the mouse and keys (their choices are the medium
    bot's, carried out through the screen): every hand-over, tile, trip start, roll, die, fork and
    stop goes through the scene, and the log holds exactly what was chosen."""
    from games.streetcar.ai import make_bot

    scene, m, _ = start(app, {"players": 2, "seats": ["human", "human"]}, seed=9)
    chosen, handovers, forks = [], 0, 0

    def norm(a):
        a = dict(a)
        if a["t"] == "tile":
            a["rot"] = ORIENT[a["tile"]][a["rot"]]     # rotations showing the same tracks are one play
        return a
    for _ in range(2000):
        if m.is_over():
            break
        if scene.handover_needed():
            handovers += 1
            click(app, scene.b_iam.rect.center)
        if scene.human_turn() and not scene.animating():
            st, seat = m.state, scene.to_act()
            a = make_bot(seat, "medium", 9).select_action(scene.rules, st, seat)
            chosen.append((seat, norm(a)))
            n = len(m.log)
            if a["t"] == "tile":
                h = a.get("hand", seat)
                if scene.sel != (h, a["tile"]):
                    click(app, scene.hand_rect(h, st.seats[h].hand.index(a["tile"])).center)
                for _ in range(4):
                    if ORIENT[a["tile"]][scene.rot] == ORIENT[a["tile"]][a["rot"]]:
                        break
                    app.step([key(pygame.K_r)], STEP)
                click_square(app, scene, a["x"], a["y"])
            elif a["t"] == "start":
                click(app, scene.b_start.rect.center)
                click(app, scene.b_end[a["end"]].rect.center)
            elif a["t"] == "pass":
                app.step([key(pygame.K_p)], STEP)
            elif a["t"] == "roll":
                app.step([key(pygame.K_SPACE)], STEP)
            elif a["t"] == "stop":
                app.step([key(pygame.K_RETURN)], STEP)
            elif a["t"] == "drive":
                click(app, scene.die_rect(a["die"]).center)
                if scene.die_sel is not None:
                    forks += 1
                    from games.streetcar.route import node_json
                    k = next(j for j, mv in enumerate(scene.branch) if [node_json(x) for x in mv.path] == a["path"])
                    click(app, scene.branch_buttons[k].rect.center)
            assert len(m.log) > n, (a, scene.msg)
        app.step([], 0.25)
    assert m.is_over() and m.outcome()["winner"] is not None
    done = [(e["p"], norm(e["a"])) for e in m.log if e["p"] >= 0]
    assert done == chosen
    assert handovers >= m.state.turns - 1 and forks >= 1
    assert not StreetcarRules().invariants(m.state)


# ------------------------------------------------------------------------------ save, resume, rules
def test_autosave_and_resume_continue_the_same_turn(app):
    app.push(LauncherScene(app))
    scene, m, _ = start(app, {"players": 2, "seats": ["human", "bot:medium"]}, autosave=True)
    click_hand(app, scene, 0, 0)
    click_square(app, scene, 6, 6)
    saved = record.load(autosave_path())
    assert saved.log == m.log and saved.state.board == m.state.board
    app.step([key(pygame.K_ESCAPE)], STEP)     # back to the launcher, the match stays saved
    launcher = app.top
    launcher.refresh_resume()
    assert launcher.resume_spec is SPEC
    launcher.resume()
    resumed = app.top
    assert isinstance(resumed, StreetcarScene) and resumed.match.state.board == m.state.board
    assert resumed.human_turn() and resumed.match.state.played == 1
    # the first tile can still be taken back after the resume
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert resumed.match.state.board.count == 0


def test_rules_key_and_menu(app):
    app.push(LauncherScene(app))
    scene, m, _ = start(app, {"players": 2, "seats": ["human", "bot:easy"]})
    app.step([key(pygame.K_F1)], STEP)
    assert getattr(app.top, "is_rules", False) and app.top.spec is SPEC
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is scene
    click(app, scene.b_menu.rect.center)
    assert len(app.stack) == 1 and app.match is None


# ------------------------------------------------------------------------------ renders
def test_screenshot_mid_game_board_with_tiles_signs_stops_and_route(app, tmp_path):
    m = demo_match(["human", "bot:medium", "bot:hard"], seed=2,
                   until=lambda r, s: s.board.count >= 30 and s.phase == "play" and s.turn == 0)
    scene, m, _ = start(app, None, match=m)
    app.step([motion((2, 2))], STEP)
    path = app.screenshot(tmp_path / "streetcar-mid.png")
    img = pygame.image.load(str(path))
    st = m.state
    board = st.board
    marked = set(scene.last_tiles[1]) if scene.last_tiles else set()    # the last tiles laid: outlined
    for y in range(1, 13):
        for x in range(1, 13):
            r = scene.cell_rect(x, y)
            corner = pixel(img, (r.x + 4, r.y + 4))      # clear of tracks and of stop signs
            t = board.tile_at(y * 14 + x)
            if (x, y) in marked:
                assert t is not None and close(corner, scene.theme.bg, 12), (x, y, corner)
            elif (x, y) in BUILDINGS.values():
                assert close(pixel(img, (r.x + 5, r.y + 5)), scdraw.BUILDING, 30), (x, y)
            elif t is None:
                assert close(corner, scdraw.STREET, 12), (x, y, corner)
            elif TILES[t[0]].exchangeable:
                assert close(corner, scdraw.BROWN, 40) or close(corner, scdraw.BROWN_EDGE, 40), (x, y, corner)
    # every stop sign shows on its square, on the side facing its building
    signs = [(k, board.sign_of(k)) for k in BUILDINGS if board.sign_of(k) >= 0]
    assert signs
    for k, c in signs:
        x, y = c % 14, c // 14
        bx, by = BUILDINGS[k]
        cx, cy = scene.cell_centre(x, y)
        sx, sy = cx + (bx - x) * 15, cy + (by - y) * 15     # 0.3 of a 50 px square toward the building
        ring = [pixel(img, (sx + 8 * dx, sy + 8 * dy)) for dx, dy in
                ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7))]
        assert sum(close(p, scdraw.SIGN, 40) for p in ring) >= 3, (k, ring)
    # my stops are outlined in my line's colour, and my linked track carries a band of it
    me = st.seats[0]
    col = scdraw.LINE_RGB[me.line]
    for k in me.stops:
        r = scene.cell_rect(*BUILDINGS[k])
        assert close(pixel(img, (r.centerx, r.y + 1)), col, 30), k
    net = scene.network(0)
    if net:
        (x, y), pairs = next(iter(net.items()))
        r = scene.cell_rect(x, y)
        a, b = pairs[0]
        mid = {0: (0.5, 0.02), 1: (0.98, 0.5), 2: (0.5, 0.98), 3: (0.02, 0.5)}
        px, py = mid[a]
        assert close(pixel(img, (r.x + px * r.w, r.y + py * r.h)), col, 40)
    # X marks every brown (exchangeable) tile with ⇄ in its top right corner, and no tree tile
    def corner_white(surface, x, y):
        r = scene.cell_rect(x, y)
        return sum(1 for px in range(4, 16) for py in range(3, 14) if min(pixel(surface, (r.right - px, r.y + py))) > 235)
    tiles = [(x, y, board.tile_at(y * 14 + x)) for y in range(1, 13) for x in range(1, 13)
             if board.tile_at(y * 14 + x) is not None]
    plain = {(x, y): corner_white(img, x, y) for x, y, _ in tiles}
    app.step([key(pygame.K_x)], STEP)
    app.step([motion((2, 2))], STEP)
    for x, y, t in tiles:
        more = corner_white(app.surface, x, y) - plain[(x, y)]
        assert (more > 5) == TILES[t[0]].exchangeable, (x, y, t, more)
    # the panel shows my cards: stops linked so far match the rules' count
    assert scene.card_seat() == 0 and scene.cards_visible(0)
    assert scene.served_or_linked(0) == StreetcarRules().linked_stops(st, 0)


# ------------------------------------------------------------------------------ the route drawn
def _trip_lengths(state, seat):
    me = state.seats[seat]
    return {end: R.route_length(state.board, me.line, end, me.stops) for end in (0, 1)}


def test_the_drawn_route_is_the_trip_start_would_take_and_the_rules_drive_it(app, tmp_path):
    m = _ready_to_start(2)
    scene, m, _ = start(app, None, match=m)
    st = m.state
    me = st.seats[0]
    nodes = scene.route_nodes(0)
    lengths = _trip_lengths(st, 0)
    end = min((n, e) for e, n in lengths.items() if n is not None)[1]    # the shorter trip, as the bots take it
    assert nodes[0] == R.home(me.line, end) and len(nodes) - 1 == lengths[end]
    # every stop's sign tile is on it, and it ends on the other terminal
    cells = {R.node_cell(n) for n in nodes}
    assert all(st.board.sign_of(k) in cells for k in me.stops)
    assert nodes[-1] in R.goals(me.line, 1 - end)
    # the band marks the route's tracks only: every banded track is one the route drives
    band = scene.network(0)
    drives = {}
    for (x, y), pair in path_tracks(nodes):
        drives.setdefault((x, y), set()).add(pair)
    assert band and all(set(pairs) <= drives.get(sq, set()) for sq, pairs in band.items())
    # drawn on the screen: the middle of a route square shows the line colour
    app.step([motion((2, 2))], STEP)
    img = pygame.image.load(str(app.screenshot(tmp_path / "route.png")))
    straight = [(xy, p) for xy, p in path_tracks(nodes) if (p[1] - p[0]) % 2 == 0]
    (x, y), _ = straight[len(straight) // 2]
    assert close(pixel(img, scene.cell_centre(x, y)), scdraw.LINE_RGB[me.line], 60) or \
        any(close(pixel(img, (scene.cell_centre(x, y)[0] + d, scene.cell_centre(x, y)[1] + d)),
                  scdraw.LINE_RGB[me.line], 60) for d in (-2, 2))
    # the rules accept the drawn path, cut into dice of 1 to 4 squares, as the trip: it wins at its end
    table = R.route_table(st.board, me.line, 1 - end, me.stops)
    pos, served, path = nodes[0], 0, nodes[1:]
    while path:
        k = min(4, len(path))
        mv = R.check_path(st.board, table, pos, served, "steps", k, tuple(path[:k]))
        pos, served, path = path[k - 1], mv.served, path[k:]
    assert mv.win
    # through the match: start from that end, roll, drive the first squares of the route with a die;
    # the way drawn ahead is then the rest of the same route, and the next stop the first one unserved
    m.submit(0, {"t": "start", "end": end})
    m.submit(0, {"t": "roll"})
    st = m.state
    i, face = next((i, f) for i, f in enumerate(st.dice) if f.startswith("GO"))
    k = face_steps(face)
    m.submit(0, {"t": "drive", "die": i, "path": [R.node_json(n) for n in nodes[1:1 + k]]})
    assert m.state.seats[0].pos == nodes[k]
    assert scene.route_nodes(0) == nodes[k:]
    served = m.state.seats[0].served
    unserved = {st.board.sign_of(c) for j, c in enumerate(me.stops) if not served >> j & 1}
    first = next(n for n in nodes[k + 1:] if R.node_cell(n) in unserved)
    assert scene.next_stop(0) == (first, st.board.sign_at(R.node_cell(first)))


# ------------------------------------------------------------------------------ the hand
def test_hand_slots_stay_put_when_a_tile_is_laid_and_a_picked_tile_shows_its_turn(app, tmp_path):
    scene, m, _ = start(app, {"players": 2, "seats": ["human", "bot:easy"]}, seed=5)
    st = m.state
    hand = list(st.seats[0].hand)
    rects = [scene.hand_rect(0, i).copy() for i in range(len(hand))]
    assert len({r.x for r in rects}) == len(hand)
    # pick up the tile of the second slot, turn it, and read its picture in the hand from the screen
    tile = hand[1]
    click(app, rects[1].center)
    assert scene.sel == (0, tile)
    plays = m.rules.tile_plays(st, 0, tile)
    play = next(a for a in plays if len({ORIENT[tile][r] for r in range(4)}) > 1)
    while scene.rot != play["rot"]:
        app.step([key(pygame.K_r)], STEP)
    app.step([motion((2, 2))], STEP)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "hand.png")))
    lifted = rects[1].move(0, -3)

    def diff(rot):
        art = scdraw.tile_surface(tile, rot, HAND_TILE_PX)
        return sum(sum(abs(a - b) for a, b in zip(pixel(shot, (lifted.x + px, lifted.y + py)), art.get_at((px, py))[:3]))
                   for px in range(2, HAND_TILE_PX - 2, 3) for py in range(2, HAND_TILE_PX - 2, 3))
    masks = {ORIENT[tile][r]: r for r in range(4)}
    best = min(masks.values(), key=diff)
    assert ORIENT[tile][best] == ORIENT[tile][scene.rot]
    # lay it: the other tiles keep their places, its slot stays empty and a click there picks nothing
    click_square(app, scene, play["x"], play["y"])
    assert m.state.played == 1 and m.state.turn == 0
    left = list(m.state.seats[0].hand)
    for i, t in enumerate(hand):
        if i != 1:
            j = next(j for j, u in enumerate(left) if u == t and scene.hand_rect(0, j) == rects[i])
            assert scene.hand_rect(0, j) == rects[i]
    click(app, rects[1].center)
    assert scene.sel is None
    assert scene.hand_slots(0)[1] is None


def test_while_building_the_band_marks_only_the_ways_to_the_stops_not_all_linked_track(app):
    m = demo_match(["human", "bot:medium", "bot:hard"], seed=2,
                   until=lambda r, s: s.board.count >= 40 and s.phase == "play" and s.turn == 0)
    scene, m, _ = start(app, None, match=m)
    st = m.state
    me = st.seats[0]
    assert not StreetcarRules().route_complete(st, 0)
    # every square a tram of the line can reach from its terminals (the old band)
    g = R.tram_graph(st.board.tracks)
    seen, todo = set(), [R.home(me.line, 0), R.home(me.line, 1)]
    while todo:
        n = todo.pop()
        for s2 in g.next(n):
            if s2 not in seen:
                seen.add(s2)
                todo.append(s2)
    reachable = {R.node_cell(n) for n in seen}
    band = scene.network(0)
    assert band and {y * 14 + x for x, y in band} <= reachable
    assert len(band) < len(reachable - set(LEGS)) / 2      # here most linked track serves others only
    # each banded track is on a shortest way from a terminal to one of the player's stops or the other
    # terminal, and such a way ends there
    signs = {st.board.sign_of(k) for k in me.stops}
    ways = R.serving_paths(st.board, me.line, me.stops)
    for p in ways:
        assert R.node_cell(p[-1]) in signs or p[-1] in R.goals(me.line, 0) + R.goals(me.line, 1)
    on_ways = {sq for p in ways for sq, _pair in path_tracks(p)}
    assert set(band) == on_ways


def test_the_kept_panel_picture_is_the_panel_painted_anew_every_frame(app):
    """The side panel is kept as a picture while what it shows stays the same: through a game of picks,
    turns, hovers over hand tiles and squares, rolls, dice and the bots' moves, every frame shows the
    very panel painted anew (a change shows in the next frame)."""
    from games.streetcar.ai import make_bot

    scene, m, _ = start(app, {"players": 3, "seats": ["human", "bot:easy", "bot:easy"]}, seed=5)

    def frame(kept: bool) -> bytes:
        surf = pygame.Surface(app.surface.get_size())
        if not kept:
            scene.panel_key = lambda: None
        try:
            scene.draw(surf)
        finally:
            scene.__dict__.pop("panel_key", None)
        return pygame.image.tobytes(surf, "RGB")

    def step(events, dt=STEP):
        app.step(events, dt)
        assert frame(True) == frame(False)
    checked = 0
    for i in range(400):
        if m.is_over() or len(m.log) > 60:
            break
        if scene.human_turn() and not scene.animating():
            st, seat = m.state, scene.to_act()
            a = make_bot(seat, "easy", 5).select_action(scene.rules, st, seat)
            if a["t"] == "tile":
                h = a.get("hand", seat)
                tile = scene.hand_rect(h, st.seats[h].hand.index(a["tile"]))
                step([motion(tile.center)])
                step([motion(scene.hand_rect(seat, 0).center)])
                if scene.sel != (h, a["tile"]):
                    click(app, tile.center)
                    step([])
                for _ in range(4):
                    if ORIENT[a["tile"]][scene.rot] == ORIENT[a["tile"]][a["rot"]]:
                        break
                    step([key(pygame.K_r)])
                step([motion(scene.cell_rect(a["x"], a["y"]).center)])
                click_square(app, scene, a["x"], a["y"])
            elif a["t"] == "start":
                click(app, scene.b_start.rect.center)
                step([motion(scene.b_end[a["end"]].rect.center)])
                click(app, scene.b_end[a["end"]].rect.center)
            elif a["t"] in ("pass", "roll", "stop"):
                step([key({"pass": pygame.K_p, "roll": pygame.K_SPACE, "stop": pygame.K_RETURN}[a["t"]])])
            elif a["t"] == "drive":
                step([motion(scene.die_rect(a["die"]).center)])
                click(app, scene.die_rect(a["die"]).center)
                if scene.die_sel is not None:
                    from games.streetcar.route import node_json
                    k = next(j for j, mv in enumerate(scene.branch) if [node_json(x) for x in mv.path] == a["path"])
                    click(app, scene.branch_buttons[k].rect.center)
        step([], 0.2)
        checked += 1
    assert checked > 50 and len(m.log) > 30


def test_the_last_tiles_laid_stay_outlined_until_the_next_turn_lays_tiles(app):
    """The marker follows the rules' count of tiles played this turn: after each tile it holds that
    turn's squares, a turn that lays none clears it, a first tile taken back gives the other player's
    tiles back the marker, and it is drawn on its squares once the flash has faded."""
    from games.streetcar.ai import make_bot
    m = demo_match(seed=4, until=lambda rules, st: st.phase == "play" and st.played == 0 and st.board.count >= 4)
    scene, m, _sounds = start(app, None, match=m)
    bots = [make_bot(i, "medium", 4) for i in range(2)]
    rules = m.rules
    turn_cells: list = []
    before, opened = scene.last_tiles, None
    checked = undone = 0
    for _ in range(80):
        if m.is_over():
            break
        p = m.active_players()[0]
        a = bots[p].select_action(rules, m.state, p)
        m.submit(p, a)
        app.step([], STEP)
        if a["t"] != "tile":                   # a drive, a roll, a pass: no tiles to mark
            assert scene.last_tiles is None, a
            before = opened = None
            continue
        # the rules count 1 after a turn's first tile; a second one ends the turn (the count is 0 again)
        first = m.state.turn == p and m.state.played == 1
        cells = turn_cells + [(a["x"], a["y"])] if not first and opened == p else [(a["x"], a["y"])]
        opened = p if first else None
        assert scene.last_tiles == (p, cells), (a, m.state.played)
        checked += 1
        if first and before is not None and before[0] != p and not undone:
            assert m.undo(p)
            app.step([], STEP)
            assert scene.last_tiles == before
            m.submit(p, a)
            app.step([], STEP)
            assert scene.last_tiles == (p, cells)
            undone += 1
        turn_cells, before = cells, scene.last_tiles
        if len(cells) == 2 and checked > 6:
            break
    assert checked > 6 and undone == 1
    # drawn on both squares once the flash has faded (the board as the screen paints it)
    for _ in range(6):
        app.step([], 0.25)
    surf = app.surface.copy()
    scene._draw_board(surf)
    for x, y in cells:
        r = scene.cell_rect(x, y).inflate(-4, -4)
        assert tuple(surf.get_at((r.centerx, r.top)))[:3] == scene.theme.accent, (x, y)
