"""The Tantrix Gobble race screen, driven with synthetic input through the real App loop.

Events are built in window px; the headless window is 1280x800, the logical size, so window and logical
coordinates coincide. Targets (cells, panels, buttons) are computed from the board and the scene's own
layout, never hard-coded. Positions for the harder cases (a cell two players want, a gift owed while an
opponent is OUT) are found by letting bots race in simulated time.
"""
from __future__ import annotations

import pygame
import pytest

from games.gobble import RACE
from games.gobble import view_race as vr
from games.gobble.ai import make_race_bot
from games.gobble.view_race import BOARD, STACK_C, RaceScene
from sim.ai.realtime import BotTimers
from sim.app.app import App
from sim.app.fuzz import DEFAULT_KEYS, fuzz_scene
from sim.app.launcher import LauncherScene
from sim.app.setup_view import SeatSetupScene
from sim.core.match import Match
from sim.core.rules import CLOCK
from events import click, down, key, motion, up

STEP = 1 / 60
E = pygame.event.Event







def race(seats, seed):
    return Match(RACE.make_rules(), {"players": len(seats), "seats": list(seats)}, seed)


def start(app, match, **opts):
    sounds = []
    app.audio.play = lambda name: sounds.append(name)
    opts.setdefault("countdown", 0)        # no 3-2-1 unless a test asks for it
    scene = app.start_match(RACE, match, autosave=False, **opts)
    app.step([], STEP)
    return scene, sounds


def sim_step(m, timers):
    """Jump the match clock to the next bot or rules timer and let the due bots act."""
    due = [t for t in (timers.next_due(), m.rules.next_timer(m.state)) if t is not None]
    m.advance(max(min(due), m.time) - m.time)
    timers.run_due()


def find_contested():
    """A 3-seat race where a cell fits both seat 0's revealed tile and a tile seat 1 or 2 may place."""
    seats = ["human", "bot:hard", "bot:medium"]
    for seed in range(1, 200):
        m = race(seats, seed)
        timers = BotTimers(m, [make_race_bot(i, "medium", seed) for i in (1, 2)])
        while not m.is_over():
            st = m.state
            if st.phase == "play" and st.insert is None and st.revealed(0):
                t = st.revealed(0)[0]
                for cell, rot in st.board.placements(t):
                    for j in (1, 2):
                        for src, u in m.rules.placeable(st, j):
                            for c2, r2 in st.board.placements(u):
                                if c2 == cell:
                                    return m, t, cell, rot, {"t": "place", "src": src, "tile": u, "rot": r2,
                                                             "q": cell[0], "r": cell[1]}, j
            sim_step(m, timers)
    raise AssertionError("no contested cell found")


def find_gift_position():
    """A 4-seat race where seat 0 has just gobbled (a gift owed, > 9 s left) while an opponent is OUT
    and another still plays. Seat 0 is played by an easy bot, which never chooses its gifts."""
    seats = ["human", "bot:hard", "bot:hard", "bot:medium"]
    for seed in range(1, 300):
        m = race(seats, seed)
        bots = [make_race_bot(0, "easy", seed)] + [make_race_bot(i, k[4:], seed) for i, k in enumerate(seats) if i]
        timers = BotTimers(m, bots)
        while not m.is_over():
            sim_step(m, timers)
            st = m.state
            me = st.seats[0]
            if (me.owed and me.out is None and me.owed[0] - m.time > 9.0 and st.insert is None
                    and any(s.out is not None for s in st.seats[1:])
                    and any(s.out is None for s in st.seats[1:])):
                return m
    raise AssertionError("no gift position found")


class ScriptedBot:
    """A real-time bot that makes one given action at a given match time."""

    def __init__(self, seat, action, at):
        self.seat, self.action, self.next_time = seat, action, at
        self.done = False

    def act(self, rules, state):
        if self.done:
            return None, 1e9
        self.done = True
        return self.action, 1e9


# --------------------------------------------------------------------------- the scripted human
def test_scripted_human_places_tiles_while_five_bots_race(app):
    seats = ["human", "bot:hard", "bot:medium", "bot:easy", "bot:hard", "bot:medium"]
    m = race(seats, 21)
    scene, sounds = start(app, m)
    assert isinstance(scene, RaceScene) and scene.seat == 0
    assert sorted(b.seat for b in scene.timers.bots) == [1, 2, 3, 4, 5]
    placed = []
    board_moved_under_drag = 0
    frames = 0
    while len(placed) < 5 and frames < 6000 and scene.playing():
        st = m.state
        slots = scene.hand_slots()
        assert slots, "the human always has a revealed tile here"
        tile, c, _size = slots[0]
        if not st.board.placements(tile):       # fits nowhere: send it to the penalty stack
            app.step([key(pygame.K_d)], STEP)
            frames += 1
            continue
        # pick the tile up and drag it about for a second while the bots race
        app.step([motion(c), down(c), motion(BOARD.center)], STEP)
        board0 = m.state.board
        for i in range(60):
            app.step([motion((BOARD.centerx + (i * 13) % 200 - 100, BOARD.centery + (i * 7) % 120 - 60))], STEP)
            assert scene.hold is not None and scene.hold["src"] == ("pile", tile)
            assert scene._layer[0][0] is m.state.board     # the layer shows the board as it is now
        frames += 61
        if m.state.board is not board0:
            board_moved_under_drag += 1
        # release on a legal cell computed from the board as it is now (turning the tile first)
        legal = m.state.board.placements(tile)
        if not legal:
            app.step([key(pygame.K_ESCAPE)], STEP)
            continue
        cell, rot = legal[0]
        p = scene.cell_pos(cell)
        n = len(m.log)
        app.step([key(pygame.K_e)] * ((rot - scene.rot) % 6) + [motion(p), up(p)], STEP)
        frames += 1
        mine = [i for i in range(n, len(m.log)) if m.log[i]["p"] == 0]
        assert mine, "the human's placement was not made"
        idx = mine[0]
        assert m.log[idx]["a"] == {"t": "place", "src": "pile", "tile": tile, "rot": rot, "q": cell[0], "r": cell[1]}
        assert len(m.states[idx + 1].seats[0].pile) == len(m.states[idx].seats[0].pile) - 1
        assert m.state.board.tiles[cell] == (tile, rot)
        assert scene.hold is None
        placed.append(tile)
        for _ in range(20):
            app.step([], STEP)
        frames += 20
        assert m.rules.invariants(m.state) == []
    assert len(placed) == 5
    assert board_moved_under_drag >= 1
    bot_places = [e for e in m.log if e["p"] > 0 and e["a"]["t"] == "place"]
    assert len(bot_places) >= 5  # the bots kept placing while the human dragged
    assert "place" in sounds or "gobble" in sounds or "double" in sounds


def test_stale_drop_is_rejected_and_the_tile_goes_back(app):
    m, tile, cell, rot, theirs, j = find_contested()
    bot = ScriptedBot(j, theirs, m.time + 0.1)
    scene, sounds = start(app, m, bots=[bot])
    scene.rots[tile] = rot
    home = scene.hand_slots()[0][1]
    p = scene.cell_pos(cell)
    app.step([motion(home), down(home), motion(p)], STEP)
    assert scene.hold is not None and scene.target_for(tile, rot, p) == (cell, True)
    n = len(m.log)
    for _ in range(30):                     # the other seat takes the cell while the human holds the tile
        app.step([motion(p)], STEP)
        if cell in m.state.board.tiles:
            break
    assert m.state.board.tiles[cell] == (theirs["tile"], theirs["rot"])
    assert scene.hold is not None
    app.step([motion(p), up(p)], STEP)
    assert not any(e["p"] == 0 for e in m.log[n:])
    assert "reject" in sounds
    assert scene.msg is not None and "taken" in scene.msg[0]
    assert scene.hold is None
    assert scene.fly is not None and scene.fly["tile"] == tile and scene.fly["to"] == home
    assert tile in m.state.revealed(0)


def test_gift_chooser_gives_to_the_chosen_opponent_never_to_an_out_one(app):
    m = find_gift_position()
    scene, sounds = start(app, m, bots=[])
    st = m.state
    out_seat = next(i for i in range(1, st.n) if st.seats[i].out is not None)
    target = next(i for i in range(1, st.n) if st.seats[i].out is None)
    owed0 = scene.owed()
    assert owed0 >= 1 and scene.gift_left() > 8.5
    src = "stack" if st.seats[0].stack else "pile"
    other = "pile" if src == "stack" else "stack"
    button = {"pile": scene.b_src_pile, "stack": scene.b_src_stack}
    if button[other].enabled:              # choosing a source toggles between the two
        click(app, button[other].rect.center)
        assert scene.gift_src == other
    click(app, button[src].rect.center)
    assert scene.gift_src == src
    rects = dict(scene.panel_rects())
    n = len(m.log)
    click(app, rects[out_seat].center)      # an OUT opponent cannot be chosen
    app.step([key(getattr(pygame, f"K_{out_seat + 1}"))], STEP)
    assert not any(e["p"] == 0 for e in m.log[n:])
    assert scene.owed() == owed0 and sounds.count("reject") == 2
    assert "OUT" in scene.msg[0]
    given = st.seats[0].stack[-1] if src == "stack" else st.seats[0].pile[0]
    held = m.state.seats[target].held
    click(app, rects[target].center)
    gifts = [e for e in m.log[n:] if e["p"] == 0]
    assert [e["a"] for e in gifts] == [{"t": "gift", "src": src, "to": target}]
    after = m.state
    assert after.seats[target].held == held + 1
    below = after.hand if len(st.seats[target].pile) >= after.hand else 0
    assert given in after.seats[target].pile[below:]    # face down, below the revealed tile(s)
    assert scene.owed() == owed0 - 1


def test_unchosen_gift_is_made_by_the_clock_and_the_held_tile_lets_go(app):
    m = find_gift_position()
    scene, sounds = start(app, m, bots=[])
    me = m.state.seats[0]
    home = scene.hand_slots()[0][1]
    tile = scene.hand_slots()[0][0]
    app.step([motion(home), down(home), motion(BOARD.center)], STEP)
    assert scene.hold is not None
    deadline = me.owed[0]
    while m.time < deadline + 0.1:
        app.step([motion(BOARD.center)], STEP)
    autos = [e for e in m.log if e["p"] == CLOCK]
    assert autos and autos[-1]["a"]["from"] == 0
    if autos[-1]["a"]["src"] == "pile" and tile not in m.state.revealed(0):
        assert scene.hold is None and "given away" in scene.msg[0]
    assert any("automatic" in n[0] for n in scene.notices)


def test_two_humans_share_the_mouse_with_tab(app):
    m = race(["human", "human", "bot:easy"], 5)
    scene, _ = start(app, m, bots=[])
    assert scene.seat == 0 and [j for j, _r in scene.panel_rects()] == [1, 2]
    app.step([key(pygame.K_TAB)], STEP)
    assert scene.seat == 1 and [j for j, _r in scene.panel_rects()] == [0, 2]
    tile = scene.hand_slots()[0][0]
    assert tile == m.state.revealed(1)[0]
    for cell, rot in m.state.board.placements(tile):
        scene.rots[tile] = rot
        break
    else:
        pytest.fail("seat 1's first tile fits nowhere: choose another seed")
    home, p = scene.hand_slots()[0][1], scene.cell_pos(cell)
    app.step([motion(home), down(home), motion(p), up(p)], STEP)
    assert m.log[-1]["p"] == 1 and m.log[-1]["a"]["tile"] == tile
    app.step([key(pygame.K_TAB)], STEP)
    assert scene.seat == 0


def test_discard_by_key_button_and_drop_on_the_stack(app):
    m = race(["human", "bot:easy"], 9)
    scene, sounds = start(app, m, bots=[])
    t1 = m.state.revealed(0)[0]
    app.step([key(pygame.K_d)], STEP)
    assert m.state.seats[0].stack == (t1,)
    t2 = m.state.revealed(0)[0]
    click(app, scene.b_discard.rect.center)
    assert m.state.seats[0].stack == (t1, t2)
    t3 = m.state.revealed(0)[0]
    home = scene.hand_slots()[0][1]
    target = vr.STACK_CARD.center
    app.step([motion(home), down(home), motion(target), up(target)], STEP)
    assert m.state.seats[0].stack == (t1, t2, t3)
    assert sounds.count("penalty") == 3
    # the stack top can be dragged from the stack card
    app.step([motion(STACK_C), down(STACK_C), motion(BOARD.center)], STEP)
    assert scene.hold is not None and scene.hold["src"] == ("stack", t3)


# --------------------------------------------------------------------------- drawing
def _snapshot(scene):
    m = scene.match
    return (len(m.log), m.cursor, m.state, m.time, scene.clock, dict(scene.hold or {}), scene.msg, scene.banner,
            dict(scene.rots), [list(n) for n in scene.notices], dict(scene.panel_flash), scene.gift_src,
            scene.show_result, [b.next_time for b in scene.timers.bots], scene.s, scene.cam, scene.seat,
            scene.fly and dict(scene.fly))


def _draw_is_pure(app, scene):
    before = _snapshot(scene)
    for _ in range(3):
        app.draw()
        scene.draw(app.surface)
    assert _snapshot(scene) == before


def test_draw_does_not_change_the_match(app):
    m = race(["human", "bot:hard", "bot:medium", "bot:easy"], 3)
    scene, _ = start(app, m)
    for _ in range(240):
        app.step([], STEP)
    _draw_is_pure(app, scene)
    home = scene.hand_slots()[0][1]
    app.step([motion(home), down(home), motion(scene.cell_pos((0, 0)))], STEP)
    _draw_is_pure(app, scene)
    # the gift chooser with its countdown
    g = find_gift_position()
    scene2, _ = start(app, g, bots=[])
    app.step([motion(scene2.panel_rects()[0][1].center)], STEP)
    _draw_is_pure(app, scene2)
    # the final ranking
    scene2.timers.bots.extend(make_race_bot(i, "hard", 1) for i in range(g.state.n))
    for _ in range(60 * 300):
        app.step([], STEP)
        if g.is_over():
            break
    app.step([], STEP)
    assert g.is_over() and scene2.show_result
    _draw_is_pure(app, scene2)


def test_race_in_progress_render_shows_panels_markers_and_banner(app, tmp_path):
    m = race(["human", "bot:hard", "bot:medium", "bot:easy"], 5)
    scene, sounds = start(app, m)
    gob = None
    for _ in range(60 * 120):
        st = m.state
        if scene.playing():
            for src, t in m.rules.placeable(st, 0):
                gob = next(((src, t, c, r) for c, r in st.board.placements(t) if st.board.neighbour_count(c) >= 3), None)
                if gob:
                    break
        if gob:
            break
        app.step([], STEP)
    assert gob, "the human never had a gobble"
    src, t, cell, rot = gob
    scene.rots[t] = rot
    home = STACK_C if src == "stack" else scene.hand_slots()[0][1]
    p = scene.cell_pos(cell)
    app.step([motion(home), down(home), motion(p), up(p)], STEP)
    app.step([], STEP)
    assert scene.banner is not None and scene.banner[0] in ("Gobble!", "Double Gobble!")
    assert "gobble" in sounds or "double" in sounds
    assert scene.owed() >= 1
    path = app.screenshot(tmp_path / "race.png")
    img = pygame.image.load(str(path))

    def colours(rect, step=2):
        return {img.get_at((x, y))[:3] for x in range(rect.x, rect.right, step) for y in range(rect.y, rect.bottom, step)}

    def near(c, seen, tol=8):
        return any(sum(abs(a - b) for a, b in zip(c, px)) <= tol for px in seen)

    # one panel per opponent, each with its seat tag's colour
    for j, r in scene.panel_rects():
        assert near(scene.seat_colour(j), colours(r))
    # gobble markers on the board (accent discs on the gobble spaces some tile left can still fill)
    spaces = [c for c in m.state.board.spaces(3) if BOARD.collidepoint(scene.cell_pos(c))
              and c not in scene.dead_spaces()]
    if spaces:
        x, y = scene.cell_pos(spaces[0])
        assert near(app.theme.accent, colours(pygame.Rect(x - 6, y - 6, 12, 12), 1), 30) or \
            near(app.theme.bad, colours(pygame.Rect(x - 6, y - 6, 12, 12), 1), 30)
    # the banner's ribbon edges in the accent colour across the board
    ribbon = colours(pygame.Rect(BOARD.x + 10, BOARD.centery - 140, 30, 200), 1)
    assert near(app.theme.accent, ribbon, 12)


@pytest.mark.parametrize("palette", ["classic", "okabe-ito", "contrast"])
def test_palettes_render_the_race(app, palette):
    app.settings["palette"] = palette
    m = race(["human", "bot:hard", "bot:medium", "bot:easy", "bot:hard", "bot:easy"], 8)
    scene, _ = start(app, m)
    for _ in range(120):
        app.step([], STEP)
    surf = app.surface
    seen = {surf.get_at((x, y))[:3] for x in range(0, BOARD.w, 3) for y in range(BOARD.y, BOARD.bottom, 3)}
    shown = sum(any(sum(abs(a - b) for a, b in zip(c, px)) <= 6 for px in seen) for c in app.theme.links.values())
    assert shown >= 3
    assert len(scene.panel_rects()) == 5


# --------------------------------------------------------------------------- set-up dialog
def test_launcher_play_opens_the_setup_dialog_and_starts_the_race(app):
    launcher = app.push(LauncherScene(app))
    entry = next(e for e in launcher.entries if e.spec.name == "gobble")
    click(app, entry.play.rect.center)
    dlg = app.top
    assert isinstance(dlg, SeatSetupScene) and dlg.overlay
    assert dlg.focus.current() is dlg.b_start          # Enter would start at once
    click(app, dlg.count_buttons[1].rect.center)         # 3 players
    assert len(dlg.seats) == 3
    # keyboard: up from Start past the option rows to the last seat's row, then right to "Hard", Enter
    row = dlg.seat_rows[2][0]
    for _ in range(1 + len(dlg.option_rows) + 1):
        app.step([key(pygame.K_UP)], STEP)
        if dlg.focus.current() in row:
            break
    assert dlg.focus.current() in row
    while dlg.focus.current() is not row[4]:                # human, slow, easy, medium, hard
        app.step([key(pygame.K_RIGHT)], STEP)
    app.step([key(pygame.K_RETURN)], STEP)
    assert dlg.seats[2] == "bot:hard"
    click(app, dlg.seat_rows[1][0][2].rect.center)       # P2: easy bot
    for _ in range(2):
        click(app, dlg.seat_rows[0][2].rect.center)      # P1: 2 extra tiles
    assert dlg.config() == {"players": 3, "seats": ["human", "bot:easy", "bot:hard"], "handicap": [2, 0, 0],
                            "hand": 1, "escalating": False, "gift_timeout": 10.0, "purist": False,
                            "lan_hints": False}
    assert "17 tiles" in dlg.info and "P1 +2" in dlg.info
    click(app, dlg.b_start.rect.center)
    scene = app.top
    assert isinstance(scene, RaceScene) and app.match is scene.match
    assert [s.text() for s in scene.match.seats] == ["human", "bot:easy", "bot:hard"]
    assert scene.match.state.quota == (19, 17, 17)
    assert sorted((b.seat, b.level) for b in scene.timers.bots) == [(1, "easy"), (2, "hard")]
    # the dialog remembers the last set-up
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is launcher
    click(app, entry.play.rect.center)
    assert app.top.config()["seats"] == ["human", "bot:easy", "bot:hard"]
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is launcher


def test_setup_refuses_an_impossible_deal(app):
    launcher = app.push(LauncherScene(app))
    entry = next(e for e in launcher.entries if e.spec.name == "gobble")
    click(app, entry.play.rect.center)
    dlg = app.top
    dlg.set_players(6)
    for i in range(6):
        dlg.add_handicap(i, 20)
    assert dlg.error and not dlg.b_start.enabled
    app.step([], STEP)
    click(app, dlg.b_start.rect.center)
    assert app.top is dlg
    click(app, dlg.b_cancel.rect.center)
    assert app.top is launcher


def test_cli_play_opens_the_race_scene(monkeypatch, tmp_path):
    from sim.app import cli

    seen = []
    orig = RaceScene.update

    def spy(self, dt):
        seen.append(([s.text() for s in self.match.seats], self.match.seed))
        orig(self, dt)

    monkeypatch.setattr(RaceScene, "update", spy)
    shot = tmp_path / "race.png"
    rc = cli.main(["--headless", "--frames", "20", "--screenshot", str(shot),
                   "play", "gobble", "--players", "human,bot:hard,bot:medium", "--seed", "3"])
    assert rc == 0 and shot.exists()
    assert seen and seen[-1] == (["human", "bot:hard", "bot:medium"], 3)


# --------------------------------------------------------------------------- fuzz
def test_fuzz_20000_events_on_race_scene():
    """10 races of 2,000 random events each (a human and 3 bots), through the real loop with autosave.
    The invariants hold after every frame; the human also plays (a legal move every 30 frames)."""
    app = App(headless=True)
    try:
        app.push(LauncherScene(app))
        total = 0
        seen = set()
        phases = set()
        human_moves = [0]
        extra = ((pygame.K_d, 0), (pygame.K_p, 0), (pygame.K_s, 0), (pygame.K_3, 0), (pygame.K_4, 0),
                 (pygame.K_f, 0), (pygame.K_PLUS, 0), (pygame.K_MINUS, 0), (pygame.K_v, 0))
        for rnd in range(10):
            m = race(["human", "bot:hard", "bot:medium", "bot:easy"], 300 + rnd)
            scene = app.start_match(RACE, m, countdown=0)
            frames = [0]

            def current():
                return app.top if isinstance(app.top, RaceScene) else scene

            def hotspots():
                s = current()
                spots = [STACK_C] + [c for _t, c, _s in s.hand_slots()]
                spots += [r.center for _j, r in s.panel_rects()]
                spots += [b.rect.center for b in s.active_buttons()]
                rev = s.state.revealed(s.seat) if s.seat is not None and s.state.phase == "play" else ()
                if rev:
                    spots += [s.cell_pos(c) for c in list(s.placements(rev[0]))[:10]]
                return spots

            def check():
                s = current()
                mm = s.match
                assert mm.rules.invariants(mm.state) == []
                seen.add((id(mm), len(mm.log)))
                phases.add(mm.state.phase)
                frames[0] += 1
                if frames[0] % 30 == 0 and s.playing():
                    acts = [a for a in mm.rules.legal_actions(mm.state, s.seat) if a["t"] in ("place", "gift")]
                    if not acts:
                        acts = [a for a in mm.rules.legal_actions(mm.state, s.seat) if a["t"] == "discard"]
                    if acts:
                        mm.submit(s.seat, acts[frames[0] // 30 % len(acts)])
                        human_moves[0] += 1

            stats = fuzz_scene(app, 2000, seed=rnd, check=check, hotspots=hotspots,
                               keys=tuple(DEFAULT_KEYS) + extra, scene=scene)
            total += stats["events"]
            app.to_launcher()
        assert total == 20000
        assert len(seen) > 300
        assert {"play", "over"} <= phases
        assert human_moves[0] > 20
    finally:
        app.close()


def test_f1_opens_the_rules_at_the_race_and_pauses_it(app):
    from sim.app.rules_view import RulesScene

    m = race(["human", "bot:hard"], 4)
    scene, _ = start(app, m)
    app.step([key(pygame.K_F1)], STEP)
    rules = app.top
    assert isinstance(rules, RulesScene) and rules.scroll > 0
    t0, n0 = m.time, len(m.log)
    for _ in range(300):
        app.step([], STEP)
    assert m.time == t0 and len(m.log) == n0          # paused under the rules
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is scene
    app.step([], STEP)
    assert m.time > t0


def _deadlocked(m):
    """Put ``m`` (a race just dealt) into a deadlock: two start tiles, and every seat holds only tiles
    that fit nowhere (deadlocks are rare in bot races, so the position is built, then the rules'
    own end check declares it)."""
    from dataclasses import replace as _replace

    from games.gobble.board import Board
    from games.gobble.data import TILE_NUMBERS
    from games.gobble.race import Seat

    rules = m.rules
    board = Board.from_tiles({(0, 0): (1, 0), (1, 0): (4, 0)})
    dead = [n for n in TILE_NUMBERS if n not in (1, 4) and not board.fits_anywhere(n)]
    counts = [3, 1, 4, 2, 2][: m.state.n]
    seats, k = [], 0
    for c in counts:
        seats.append(Seat(pile=tuple(dead[k:k + c])))
        k += c
    used = {1, 4} | set(dead[:k])
    st = _replace(m.state, board=board, seats=tuple(seats),
                  aside=tuple(n for n in TILE_NUMBERS if n not in used))
    st = rules._check_end(st, [])
    assert st.phase == "over" and st.deadlock and rules.invariants(st) == []
    m.states[m.cursor] = st
    return m


def test_final_ranking_notes_a_deadlock(app):
    m = _deadlocked(race(["human"] + ["bot:easy"] * 4, 268))
    scene, sounds = start(app, m)
    assert scene.show_result and scene in app.stack
    title, sub = scene.result_titles()
    assert sub.startswith("Deadlock")
    rows = scene.ranking_rows()
    out = m.outcome()
    assert [r["seat"] for r in rows] == out["ranking"]
    assert [r["tiles"] for r in rows] == [out["tiles_left"][s] for s in out["ranking"]]
    still = [r for r in rows if r["out"] is None]
    assert still and all(r["result"] == "still in (deadlock)" for r in still)
    assert [r["tiles"] for r in still] == sorted(r["tiles"] for r in still)
    finished = [r for r in rows if r["out"] is not None]
    assert [r["out"] for r in finished] == list(range(1, len(finished) + 1))
    assert all("OUT" in r["result"] and ":" in r["result"] for r in finished)   # with the finishing time
    me = next(r for r in rows if r["seat"] == 0)
    assert title == ("You win!" if me["place"] == 1 else f"You finished {vr.ordinal(me['place'])}")
    # New race: same seats, a new seed
    click(app, scene.b_new.rect.center)
    new = app.top
    assert isinstance(new, RaceScene) and new is not scene
    assert new.match.seats == m.seats and not new.match.is_over()


def test_race_autosave_resumes_and_replays(app):
    from sim.app.replay import ReplayScene
    from sim.core import record
    from sim.core.storage import autosave_path

    launcher = app.push(LauncherScene(app))
    m = race(["human", "bot:hard", "bot:easy"], 6)
    scene = app.start_match(RACE, m, countdown=0)
    for _ in range(700):
        app.step([], STEP)
    assert len(m.log) > 60 and not m.is_over()
    saved = record.load(autosave_path())
    assert saved.log == m.log
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is launcher and launcher.resume_match is not None
    click(app, launcher.resume_button.rect.center)
    resumed = app.top
    assert isinstance(resumed, RaceScene) and resumed is not scene
    n0 = len(m.log)
    assert resumed.match.log[:n0] == m.log and resumed.match.states[n0] == m.state
    for _ in range(60):                           # no bot acts at once on resume (each waits >= 1.8 s)
        app.step([], STEP)
    assert not any(e["p"] > 0 for e in resumed.match.log[n0:])
    for _ in range(400):                          # ...then the race goes on, bots included
        app.step([], STEP)
    assert len(resumed.match.log) > len(m.log)
    # a replay steps through the record; the race below only draws (no clock, no bots)
    app.to_launcher()
    rec = record.load(autosave_path())
    app.start_match(RACE, rec, autosave=False)
    rp = app.push(ReplayScene(app, rec, autoplay=False))
    n = len(rec.log)
    for k in (pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_LEFT, pygame.K_END, pygame.K_HOME):
        app.step([key(k)], STEP)
        for _ in range(10):
            app.step([], STEP)
    assert len(rec.log) == n and app.top is rp


def test_a_frame_the_race_does_not_draw_would_look_the_same_as_the_last_drawn(app):
    """While five bots race and the human waits, the screen is drawn again only when something shown
    changes (a move and its flash, the race clock's second, a pulse, news, the camera): every frame left undrawn
    would have looked exactly like the last one drawn, and frames are left undrawn."""
    seats = ["human", "bot:hard", "bot:medium", "bot:easy", "bot:hard", "bot:medium"]
    m = race(seats, 21)
    scene, _sounds = start(app, m)
    skipped = drawn = 0
    for i in range(900):
        before = app.frames_drawn
        app.step([], STEP)
        if app.frames_drawn > before:
            drawn += 1
            continue
        skipped += 1
        now = pygame.Surface(app.surface.get_size())
        scene.draw(now)
        assert pygame.image.tobytes(now, "RGB") == pygame.image.tobytes(app.surface, "RGB"), (i, m.time)
    bot_moves = [e for e in m.log if e["p"] > 0]
    assert len(bot_moves) >= 5 and skipped > 150 and drawn > 10
