"""The Tom Tube screen, its set-up dialog and its GameSpec, driven through the real App loop.

Events are built in window px; the headless window is 1280x800, the logical size, so window and logical
coordinates coincide. Targets come from the scene's own geometry (``node_pos``, ``slot_centre``).
Which triangles neighbour each other, which one a rhomb isolates and where the printed tubes lead are
worked out here from the corners of the space triangles and the module table (research/tomtube.md
§3.2-§3.3), independently of the engine's adjacency tables.
"""
from __future__ import annotations

import json
import threading

import pygame
import pytest

from events import click, key, motion, wheel
from games.tomtube import SPEC
from games.tomtube.rules import TomTubeRules
from games.tomtube import view as ttview
from games.tomtube.data import MODULES, PALETTE, POINTS, RHOMB_BY_ID, STOCK
from games.tomtube.geometry import SLOTS, TRI_CORNERS, TRIANGLES
from games.tomtube.rules import build_state
from games.tomtube.view import BOT_DELAY, TomTubeScene, demo_match, make_setup_scene
from sim.app import cli
from sim.app.launcher import LauncherScene
from sim.app.replay import ReplayScene
from sim.core import record
from sim.core.match import Match, check_setup
from sim.core.registry import get_spec
from sim.core.storage import autosave_path

STEP = 1 / 60
CTRL_Z = dict(mod=pygame.KMOD_LCTRL)
RULES = TomTubeRules()


# ------------------------------------------------------------------------------ oracles
def neighbours(t: int) -> set[int]:
    """Space triangles sharing a whole edge (two corners) with ``t``."""
    mine = set(TRI_CORNERS[t])
    return {u for u, cs in enumerate(TRI_CORNERS) if u != t and len(mine & set(cs)) == 2}


def slot_of(a: int, b: int) -> int:
    """The slot (shared edge) of two neighbouring triangles, found by its two knots."""
    edge = set(TRI_CORNERS[a]) & set(TRI_CORNERS[b])
    return next(s for s, (e, _x, _y) in enumerate(SLOTS) if set(e) == edge)


def isolated(covered: set[int]) -> set[int]:
    """Free triangles whose every neighbour is covered."""
    return {t for t in range(len(TRIANGLES)) if t not in covered and neighbours(t) <= covered}


MIDDLE_STRIP = sorted((t for t, (_k, q, r) in enumerate(TRIANGLES) if r == 0), key=lambda t: TRIANGLES[t][1])


def isolating_set_up():
    """``(t0, pre_slot, pre_tris, target_slot)`` on the top rows: a rhomb already on ``pre_slot`` covers
    one neighbour of the rim triangle ``t0``; a rhomb on ``target_slot`` covers the other and isolates
    ``t0`` and nothing else. No triangle is isolated before."""
    strip = set(MIDDLE_STRIP[:9])
    for t0 in range(len(TRIANGLES)):
        nb = neighbours(t0)
        if len(nb) != 2 or TRIANGLES[t0][2] != -3:
            continue
        n1, n2 = sorted(nb)
        for x in sorted(neighbours(n1) - {t0, n2}):
            pre = {n1, x}
            if isolated(pre | strip) or pre & strip:
                continue
            for y in sorted(neighbours(n2) - {t0} - pre):
                after = pre | {n2, y} | strip
                if isolated(after) == {t0}:
                    return t0, slot_of(n1, x), pre, slot_of(n2, y)
    raise AssertionError("no isolating set-up on the top rows")


T0, PRE_SLOT, PRE_TRIS, TARGET_SLOT = isolating_set_up()


def tom_base_ports() -> set[str]:
    """The two ports of Tom's base (research §3.3 table), as node ids."""
    m = next(m for m in MODULES if m.name == "TOM_BASE")
    return {f"{q},{r}" for q, r in m.ports}


# ------------------------------------------------------------------------------ helpers
def start(app, state=None, seats=("human", "human"), seed=3, autosave=False, config=None, step=True):
    sounds = []
    app.audio.play = lambda name: sounds.append(name)
    m = Match(RULES, {"first": 0, "seats": list(seats), **(config or {})}, seed)
    if state is not None:
        m.states[0] = state
    scene = app.start_match(SPEC, m, autosave=autosave)
    if step:
        app.step([], STEP)
    return scene, m, sounds


def position(stack=("R01", "R02"), tom_pieces=False, **kw):
    """Tom to play on a board with the rhomb on PRE_SLOT and two rhombs of one design (P1, research §3.6)
    left in the stack; ``tom_pieces``: Tom's nine triangles already lie on the middle strip (his hand is
    empty)."""
    pieces = [(t, 0, pc, 0) for t, pc in zip(MIDDLE_STRIP[:9], ["arc"] * 3 + ["Y"] * 3 + ["plain"] * 3)] \
        if tom_pieces else []
    return build_state(RULES, rhombs=[(PRE_SLOT, "R40", 0)], pieces=pieces, stack=list(stack),
                       **kw)


def pixel(surface, pos):
    return tuple(surface.get_at((int(round(pos[0])), int(round(pos[1])))))[:3]


def close(a, b, tol=40):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def settle(app, scene, until, frames=120):
    """Step the loop (0.25 s frames, so BOT_DELAY and glides pass) until ``until()`` holds, letting the
    bot's worker thread finish between frames."""
    for _ in range(frames):
        if until():
            return
        scene.worker.wait(10)
        app.step([], 0.25)
    assert until(), "the bot did not act in time"


# ------------------------------------------------------------------------------ the spec and CLI
def test_spec_is_registered_with_seats_and_levels():
    spec = get_spec("tomtube")
    assert spec is SPEC and spec.title == "Tom Tube" and spec.players == "2"
    assert spec.levels[:4] == ("easy", "medium", "hard", "random") and "bot" in spec.levels
    assert spec.default_players == ("human", "bot:medium")
    assert spec.seated and not spec.realtime and spec.rules_text.name == "rules.md"
    cfg = check_setup(spec.make_rules(), {"seats": ["bot:random", "human"], "extra_energy": [1, 0]})
    assert cfg["seats"] == ["bot:random", "human"] and cfg["extra_energy"] == [1, 0]
    assert "seats" not in spec.make_rules().validate_config({})
    with pytest.raises(ValueError, match="2 players"):
        check_setup(spec.make_rules(), {"seats": ["human"]})
    with pytest.raises(ValueError, match="seats"):      # the rules know no seats: they are the match's
        spec.make_rules().validate_config({"seats": ["human", "human"]})
    assert spec.make_bot(1, "random", 4) is not None


def test_play_command_with_the_beginner_flags(playtable_home):
    assert cli.main(["--headless", "--frames", "3", "play", "tomtube", "--players", "human,bot", "--seed", "1",
                     "--beginner-energy", "2", "--no-aliens"]) == 0
    m = record.load(autosave_path())
    assert m.rules.info.name == "tomtube" and m.seed == 1
    assert [x.text() for x in m.seats] == ["human", "bot:easy"]
    assert m.config["extra_energy"] == [2, 0] and m.config["alien_control"] is False
    # rulebook "Getting Started" + "Playing with Beginners": one energy counter each, two more for Tom
    assert m.states[0].supply[0][0] == 3 and m.states[0].supply[1][0] == 1


def test_the_beginner_energy_goes_to_either_seat_from_the_command_line(playtable_home):
    # rulebook "Playing with Beginners": the less experienced player gets it, Tom or Dave
    assert cli.main(["--headless", "--frames", "2", "play", "tomtube", "--players", "bot,human", "--seed", "2",
                     "--beginner-energy", "dave:3", "--first", "dave"]) == 0
    m = record.load(autosave_path())
    assert m.config["extra_energy"] == [0, 3] and m.config["first"] == 1
    assert m.states[0].supply[0][0] == 1 and m.states[0].supply[1][0] == 4


@pytest.mark.parametrize("argv, message", [
    (["--beginner-energy", "bob:1"], "give N, tom:N or dave:N"),
    (["--first", "bob"], "give tom, dave or random"),
    (["--beginner-energy", "-1"], "extra_energy must be two whole numbers >= 0"),
    (["--beginner-energy", "30"], "the stock has only 22 energy counters to spare"),
    (["--beginner-energy", "two"], "invalid int value"),
    (["--players", "human,bot:genius"], "unknown player 'bot:genius'"),
    (["--players", "human"], "seats must list 2 players, not 1"),
])
def test_bad_game_flags_are_one_line_errors(argv, message, capsys):
    assert cli.main(["--headless", "--frames", "1", "play", "tomtube", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_selfplay_json_lines_replay_with_their_score_breakdown(capsys, tmp_path):
    assert cli.main(["selfplay", "tomtube", "--players", "bot,bot:random", "--games", "2", "--seed", "1", "--json",
                     "--beginner-energy", "1"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and lines[-1]["summary"] is True and lines[-1]["games"] == 2
    for k, g in enumerate(lines[:2]):
        res = g["outcome"]
        # the seats rotate, the beginner's energy with the first player listed
        assert [f"bot:{s['level']}" for s in g["record"]["seats"]] == g["seats"] == \
            [["bot:easy", "bot:random"], ["bot:random", "bot:easy"]][k]
        assert g["record"]["config"]["extra_energy"] == [[1, 0], [0, 1]][k]
        for p in (0, 1):   # rulebook "Evaluation": 1, 2, 5, 5 points, 1 per bonus turn
            b = res["breakdown"][p]
            assert b["total"] == sum(b[k] * POINTS[k] for k in ("energy", "control", "alien", "solar")) + b["bonus"]
            assert res["scores"][p] == b["total"]
        path = tmp_path / f"line{g['seed']}.json"
        path.write_text(json.dumps(g))
        assert cli.main(["replay", str(path), "--headless"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["over"] and replayed["result"] == res


def test_selfplay_refuses_human_seats(capsys):
    assert cli.main(["selfplay", "tomtube", "--players", "human,bot", "--games", "1"]) == 2
    assert "selfplay seats must all be bots" in capsys.readouterr().err


FRAME_TIMES = ttview.frame_times


def test_bench_prints_the_screen_figures(monkeypatch):
    import games.tomtube.bench as ttbench
    monkeypatch.setattr(ttbench, "run", lambda out: out("tomtube: engine figures"))
    monkeypatch.setattr(ttview, "frame_times", lambda: FRAME_TIMES(frames=30))
    lines: list[str] = []
    SPEC.bench(lines.append)
    assert lines[0] == "tomtube: engine figures"
    assert lines[1].startswith("tomtube screen: frame time at 1280x800") and lines[1].count(" ms") >= 3


# ------------------------------------------------------------------------------ the set-up dialog
def test_setup_dialog_reaches_every_option(app):
    app.audio.play = lambda name: None
    dlg = app.push(make_setup_scene(app, SPEC))
    app.step([], STEP)
    assert dlg.seats == ["human", "bot:medium"]

    def button(row_label, label):
        rows = dict(zip((o.label for o in dlg.options), dlg.option_rows))
        for b in rows[row_label]:
            if b.label.replace("✓ ", "") == label:
                return b
        raise AssertionError(f"no button {label!r} in {row_label!r}")

    assert button("Extra energy", "Dave +1")       # either player may be the beginner
    for row, label in (("Extra energy", "Tom +2"), ("Aliens", "Off"), ("First turn", "Dave")):
        click(app, button(row, label).rect.center)
    assert [b.label for b in dlg.seat_rows[1][0]] == ["Human", "Easy", "✓ Medium", "Hard", "Random"]
    click(app, dlg.seat_rows[1][0][4].rect.center)   # P2 (Dave): the random player
    assert dlg.error is None, dlg.error
    assert "Tom launches with 3 energy counters" in dlg.info
    click(app, dlg.b_start.rect.center)
    m = app.match
    assert m is not None and m.rules.info.name == "tomtube"
    assert [s.text() for s in m.seats] == ["human", "bot:random"] and m.config["extra_energy"] == [2, 0]
    assert m.config["alien_control"] is False and m.config["first"] == 1 and m.states[0].turn == 1
    assert isinstance(app.top, TomTubeScene)
    again = make_setup_scene(app, SPEC)
    assert again.values == {"extra_energy": [2, 0], "alien_control": False, "first": 1}


# ------------------------------------------------------------------------------ placing and filling
def test_draw_refused_click_flip_place_fill_and_undo_never_across_the_draw(app):
    st = position()
    assert RULES.isolated(st) == () and not isolated(st.board.covered)
    scene, m, sounds = start(app, st)
    assert scene.human_turn() and m.state.phase == "turn"
    app.step([key(pygame.K_d)], STEP)                              # D: draw
    drawn = m.state.drawn
    assert m.state.phase == "place" and drawn in ("R01", "R02")
    # the free slots glow: exactly the slots whose two triangles are free
    cov = m.state.board.covered
    free = {s for s, (_e, a, b) in enumerate(SLOTS) if a not in cov and b not in cov}
    assert set(m.state.board.free_slots()) == free and TARGET_SLOT in free and PRE_SLOT not in free
    # a click on the rhomb already there is refused with the rules' reason
    centre = scene.slot_centre(PRE_SLOT)
    app.step([motion(centre)], STEP)
    assert scene.hover_slot is None
    n = len(m.log)
    click(app, centre)
    assert len(m.log) == n and "free neighbouring space triangles" in scene.msg[0] and sounds[-1] == "reject"
    # F, the wheel and F again turn the held rhomb round
    app.step([key(pygame.K_f)], STEP)
    assert scene.flip == 1
    app.step([wheel(1)], STEP)
    assert scene.flip == 0
    app.step([key(pygame.K_f)], STEP)
    assert scene.flip == 1
    # the rhomb follows the pointer and snaps to the nearest free slot; a click lays it there
    target = scene.slot_centre(TARGET_SLOT)
    app.step([motion((target[0] + 3, target[1] - 2))], STEP)
    assert scene.hover_slot == TARGET_SLOT
    click(app, (target[0] + 3, target[1] - 2))
    assert m.log[-1] == {"p": 0, "a": {"t": "place", "slot": TARGET_SLOT, "flip": 1}}
    assert m.state.board.rhomb_at(TARGET_SLOT) == (drawn, 1)
    # the isolated triangle (by the oracle) waits; it is the only one, so it is chosen already
    assert set(RULES.isolated(m.state)) == isolated(m.state.board.covered) == {T0}
    assert m.state.phase == "fill" and scene.fill_tri == T0
    opts = {(a["piece"], a["rot"]) for a in scene.opt_actions}
    assert opts == {("arc", 0), ("arc", 1), ("arc", 2), ("Y", 0), ("plain", 0)}
    assert all(a["tri"] == T0 for a in scene.opt_actions)
    # a click on a free triangle that is not isolated is refused
    free_tri = next(t for t in range(len(TRIANGLES)) if t not in m.state.board.covered and t != T0)
    corners = [scene.node_pos(k) for k in TRI_CORNERS[free_tri]]
    click(app, (sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3))
    assert "not isolated" in scene.msg[0] and scene.fill_tri == T0 and m.state.phase == "fill"
    fork = next(k for k, a in enumerate(scene.opt_actions) if a["piece"] == "Y")
    click(app, scene.opt_buttons[fork].rect.center)
    assert (T0, 0, "Y", 0) in m.state.board.pieces and m.state.hands[0] == (3, 2, 3)
    assert m.state.phase == "turn" and m.state.turn == 1
    # Ctrl+Z: the fill, then the placement (the rhomb back in hand), never the draw
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.state.phase == "fill" and m.state.board.rhomb_at(TARGET_SLOT) is not None
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.state.phase == "place" and m.state.drawn == drawn and m.state.board.rhomb_at(TARGET_SLOT) is None
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)
    assert m.state.phase == "place" and "nothing to undo" in app.toast_text.lower()
    # again with the other orientation, and the plain triangle by its key
    app.step([key(pygame.K_f)], STEP)
    click(app, target)
    assert m.state.board.rhomb_at(TARGET_SLOT) == (drawn, 0)
    plain = next(k for k, a in enumerate(scene.opt_actions) if a["piece"] == "plain")
    app.step([key(pygame.K_1 + plain)], STEP)
    assert (T0, 0, "plain", 0) in m.state.board.pieces


def test_the_other_players_optional_fill_is_a_prompt_he_may_decline(app):
    st = position(tom_pieces=True)
    assert st.hands[0] == (0, 0, 0) and RULES.isolated(st) == ()
    scene, m, sounds = start(app, st)
    app.step([key(pygame.K_d)], STEP)
    click(app, scene.slot_centre(TARGET_SLOT))
    assert m.state.phase == "fill_other" and scene.to_act() == 1 and scene.human_turn()
    text = scene.status_text()
    assert "Tom has no triangles left" in text and "Dave may fill" in text and "leave them empty (L)" in text
    assert scene.b_leave in scene.active_buttons() and scene.fill_tri == T0
    assert {a["piece"] for a in scene.opt_actions} == {"arc", "Y", "plain"}
    app.step([key(pygame.K_l)], STEP)                              # L: leave it empty for good
    assert T0 in m.state.board.abandoned and m.state.phase == "turn" and m.state.turn == 1
    assert m.log[-1] == {"p": 1, "a": {"t": "leave"}}


# ------------------------------------------------------------------------------ moving
def test_modes_destinations_and_a_drift_that_glides_and_picks_up_a_counter(app):
    port = "1,-3"
    st = build_state(RULES, counters={port: "energy"})
    scene, m, sounds = start(app, st)
    # free drift is chosen by default; its destinations: the ends of the base's printed tubes
    assert scene.mode == "drift" and set(scene.destinations()) == tom_base_ports()
    # a control drift needs a control counter, a jump never starts in a module
    app.step([key(pygame.K_2)], STEP)
    assert scene.mode == "drift" and "no control counter" in scene.msg[0] and sounds[-1] == "reject"
    app.step([key(pygame.K_3)], STEP)
    assert scene.mode == "jump" and scene.destinations() == {} and "No destination" in scene.msg[0]
    app.step([key(pygame.K_1)], STEP)
    assert scene.mode == "drift"
    # a sphere that is no destination is refused with the rules' reason
    n = len(m.log)
    click(app, scene.node_pos("DAVE_BASE"))
    assert len(m.log) == n and "other astronaut's base" in scene.msg[0]
    # pointing at a destination shows its path; a click moves the astronaut there
    app.step([motion(scene.node_pos(port))], STEP)
    click(app, scene.node_pos(port))
    assert m.log[-1] == {"p": 0, "a": {"t": "move", "mode": "drift", "to": port}}
    assert m.state.at[0] == port and m.state.supply[0][0] == 2 and port not in m.state.counters
    # he glides: halfway he is between the base and the port, the counter still waits there
    base, dest = scene.node_pos("TOM_BASE"), scene.node_pos(port)
    for _ in range(8):
        app.step([motion((5, 795))], STEP)
    assert scene.gliding()
    img = app.surface
    tom = PALETTE["TOM"]
    assert not close(pixel(img, base), tom) and not close(pixel(img, dest), tom)
    on_way = [f / 20 for f in range(4, 17) if close(pixel(img, ttview.draw.lerp(base, dest, f / 20)), tom, 30)]
    assert on_way, "the astronaut is not on the printed tube between base and port"
    assert close(pixel(img, (dest[0] - 3, dest[1] + 2)), PALETTE["energy"], 30)
    for _ in range(30):
        app.step([], STEP)
    assert not scene.gliding()
    assert close(pixel(app.surface, (dest[0] + scene.s * 0.09, dest[1] + scene.s * 0.07)), tom, 30)
    assert scene.float_text is not None and "+1 energy" in scene.float_text[0]


def test_exchange_button_turns_an_alien_into_counters(app):
    st = build_state(RULES, supply=((1, 0, 1, 0), (1, 0, 0, 0)))
    scene, m, _ = start(app, st)
    assert scene.b_exchange.enabled and not scene.mode_buttons["control"].enabled
    click(app, scene.b_exchange.rect.center)
    # rulebook "Changing Alien Counters": one control and two energy counters from the stock
    assert m.state.supply[0] == (3, 1, 0, 0)
    assert m.state.stock == (STOCK["energy"] - 4, STOCK["control"] - 1, STOCK["alien"])
    assert scene.mode_buttons["control"].enabled


# ------------------------------------------------------------------------------ bots
def test_bot_thinks_off_the_frame_then_waits_its_pace(app):
    scene, m, _ = start(app, seats=("bot:bot", "human"), step=False)
    gate = threading.Event()
    real = scene._bot_job

    def slow(st, seat):
        job = real(st, seat)

        def run(cancelled):
            gate.wait(10)
            return job(cancelled)
        return run
    scene._bot_job = slow
    for _ in range(4):
        app.step([], 0.25)                   # frames go on while the bot cannot finish
    assert scene.worker.busy and scene.bot_thinking() and m.log == []
    assert scene.status_text().startswith("Tom (bot)")
    gate.set()
    scene.worker.wait(10)
    scene.since = 0.0
    app.step([], STEP)                       # the result is in, but the pace delay has not passed
    assert m.log == []
    for _ in range(int(BOT_DELAY / 0.25) + 1):
        app.step([], 0.25)
    assert len(m.log) >= 1 and m.log[0]["p"] == 0
    settle(app, scene, lambda: scene.human_turn())
    assert m.state.turn == 1 and all(e["p"] in (0, -1) for e in m.log)
    assert scene.undo_steps() == 0            # only the bot has acted: nothing of the human's to undo


def test_undo_takes_back_a_move_until_the_bot_acts(app):
    port = "2,-3"
    scene, m, sounds = start(app, seats=("human", "bot:bot"))
    gate = threading.Event()
    real = scene._bot_job

    def slow(st, seat):
        job = real(st, seat)
        return lambda cancelled: (gate.wait(10), job(cancelled))[1]
    scene._bot_job = slow
    click(app, scene.node_pos(port))
    assert m.state.at[0] == port and scene.bot_thinking() and scene.undo_steps() == 1
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)          # the bot has not acted yet: back to the base
    assert m.cursor == 0 and m.state.at[0] == "TOM_BASE" and sounds[-1] == "undo"
    assert scene.human_turn() and not scene.worker.busy
    click(app, scene.node_pos(port))
    gate.set()
    settle(app, scene, lambda: scene.human_turn() and not scene.gliding())
    assert m.log[-1]["p"] == 1 and scene.undo_steps() == 0
    cursor = m.cursor
    app.step([key(pygame.K_z, **CTRL_Z)], STEP)          # once Dave has acted, nothing is taken back
    assert m.cursor == cursor and "nothing to undo" in app.toast_text.lower() and sounds[-1] == "reject"


def test_a_replay_over_the_screen_never_wakes_the_bots(app):
    played = demo_match(999, seed=6, seats=("bot:bot", "bot:random"))
    assert played.is_over()
    m = record.from_record(record.to_record(played))
    scene = app.start_match(SPEC, m, autosave=False)
    app.push(ReplayScene(app, m, autoplay=False))
    n = len(m.log)
    for _ in range(4):
        app.step([], 0.25)
    assert not scene.worker.busy and len(m.log) == n and m.cursor < n
    app.step([key(pygame.K_END)], STEP)
    assert m.cursor == n and scene.match.is_over() and scene.status_text().startswith("Game over")


# ------------------------------------------------------------------------------ the end, save and resume
def test_end_card_shows_the_score_breakdown(app):
    played = demo_match(999, seed=3, seats=("human", "bot:bot"))
    assert played.is_over()
    scene = app.start_match(SPEC, played, autosave=False)
    app.audio.play = lambda name: None
    app.step([], STEP)
    out = played.outcome()
    assert scene.show_result and scene.undo_steps() == 0
    for p in (0, 1):
        b = out["breakdown"][p]
        assert b["total"] == sum(b[k] * POINTS[k] for k in ("energy", "control", "alien", "solar")) + b["bonus"]
    phrase = {"bonus": "bonus turn", "no_bonus": "no more rhombs", "stranded": "could never get home",
              "blocked": "neither astronaut", "turn_limit": "turn limit"}[out["end"]]
    assert phrase in scene.end_reason()
    if out["end"] == "stranded":
        lost = [("Tom", "Dave")[p] for p in (0, 1) if out["stranded"][p]]
        assert all(name in scene.end_reason() for name in lost)
    app.step([key(pygame.K_v)], STEP)
    assert not scene.show_result and scene.b_show in scene.active_buttons()


def test_autosave_and_resume_continue_the_same_position(app):
    app.push(LauncherScene(app))
    scene, m, _ = start(app, seats=("human", "bot:bot"), autosave=True)
    app.step([key(pygame.K_d)], STEP)
    assert m.state.phase == "place"
    slot = m.state.board.free_slots()[0]
    click(app, scene.slot_centre(slot))
    settle(app, scene, lambda: scene.human_turn())
    saved = record.load(autosave_path())
    assert saved.log == m.log and [s.text() for s in saved.seats] == ["human", "bot:bot"]
    app.step([key(pygame.K_ESCAPE)], STEP)
    launcher = app.top
    launcher.refresh_resume()
    assert launcher.resume_match is not None and launcher.resume_spec is SPEC
    launcher.resume()
    resumed = app.top
    assert isinstance(resumed, TomTubeScene) and resumed.match.log == m.log
    assert resumed.human_turn() and resumed.state.board.rhombs == m.state.board.rhombs


# ------------------------------------------------------------------------------ renders
def test_screenshot_of_a_middle_game(app, tmp_path):
    m = demo_match(30, seed=1)
    st = m.state
    assert not m.is_over() and st.counters and len(st.board.rhombs) >= 20
    assert all(n not in ("TOM_BASE", "DAVE_BASE") for n in st.at)      # both astronauts out in space
    scene = app.start_match(SPEC, m, autosave=False)
    app.step([motion((5, 795))], STEP)
    img = pygame.image.load(str(app.screenshot(tmp_path / "tomtube-mid.png")))
    for p, colour in ((0, PALETTE["TOM"]), (1, PALETTE["DAVE"])):
        x, y = scene.node_pos(st.at[p])
        assert close(pixel(img, (x + scene.s * 0.09, y + scene.s * 0.07)), colour, 30), p
    for node, kind in st.counters.items():
        assert close(pixel(img, scene.node_pos(node)), PALETTE[kind], 45), (node, kind)
    # every long diagonal tube (corner A to corner C, research §3.5) shows its colour a third of the way
    # along, a little off its middle line (Tom's carries a light line there, Dave's a dark one)
    seen = set()
    for slot, rid, flip in st.board.rhombs:
        corners = rhomb_corners_px(scene, slot, flip)
        for colour, x, y in RHOMB_BY_ID[rid].tubes:
            if {x, y} != {"A", "C"}:
                continue
            a, c = corners[x], corners[y]
            length = ((c[0] - a[0]) ** 2 + (c[1] - a[1]) ** 2) ** 0.5
            nx, ny = -(c[1] - a[1]) / length, (c[0] - a[0]) / length
            p = ttview.draw.lerp(a, c, 0.3)
            p = (p[0] + nx * scene.s * 0.04, p[1] + ny * scene.s * 0.04)
            want = [PALETTE[colour]] + ([PALETTE["NEUTRAL_STRIPE"]] if colour == "NEUTRAL" else [])
            assert any(close(pixel(img, p), w, 45) for w in want), (slot, rid, colour, pixel(img, p))
            seen.add(colour)
    assert len(seen) >= 2


def rhomb_corners_px(scene, slot, flip):
    from games.tomtube.geometry import rhomb_corners
    return {k: scene.node_pos(v) for k, v in rhomb_corners(slot, flip).items()}


def test_screenshot_of_a_drift_in_progress(app, tmp_path):
    m = demo_match(30, seed=1)
    st = m.state
    targets = RULES.move_targets(st, st.turn, "drift")
    dest, path = max(targets.items(), key=lambda kv: len(kv[1]))
    assert len(path) >= 3
    scene = app.start_match(SPEC, m, autosave=False)
    app.audio.play = lambda name: None
    app.step([motion(scene.node_pos(dest))], STEP)
    click(app, scene.node_pos(dest))
    assert m.state.at[st.turn] == dest and scene.gliding()
    while scene.anim["t"] < scene.anim["dur"] * 0.5:
        app.step([], STEP)
    img = pygame.image.load(str(app.screenshot(tmp_path / "tomtube-drift.png")))
    x, y = scene.astronaut_pos(st.turn)
    far = min(((x - scene.node_pos(n)[0]) ** 2 + (y - scene.node_pos(n)[1]) ** 2) ** 0.5 for n in (path[0], dest))
    assert far > scene.s * 0.3       # between spheres, on his way
    colour = PALETTE[("TOM", "DAVE")[st.turn]]
    assert close(pixel(img, (x + scene.s * 0.09, y + scene.s * 0.07)), colour, 35)


def _scene_and_boards(app, seed: int):
    """A screen on a 30-action demo game of ``seed`` and the game's positions, one per board it had."""
    m = demo_match(30, seed=seed)
    scene = app.start_match(SPEC, m, autosave=False)
    app.step([], 1 / 60)
    boards = []
    for s in m.states:
        if not boards or s.board is not boards[-1].board:
            boards.append(s)
    return scene, boards


def test_the_board_picture_repainted_where_boards_differ_equals_a_whole_repaint(app):
    """The board picture after placements, take-backs and jumps between positions (painted again only
    where the boards differ, or taken from the last few kept) is the very picture painted whole."""
    from types import SimpleNamespace

    scene, boards = _scene_and_boards(app, 4)
    assert len(boards) >= 12
    order = list(range(len(boards))) + [len(boards) - 3, len(boards) - 1, 2, 5, 4, 9, 0, len(boards) - 1]
    partial = 0
    for i in order:
        scene.match = SimpleNamespace(state=boards[i], cursor=0, listeners=[])
        before = scene._big_board
        got = pygame.image.tobytes(scene._board_layer(), "RGB")
        partial += before is not None and scene._big_board is boards[i].board and before is not boards[i].board
        big = scene._space_cache[1].copy()
        scene.paint_board(big, scene.xf.times(ttview.SS), boards[i].board)
        assert got == pygame.image.tobytes(pygame.transform.smoothscale(big, ttview.BOARD.size), "RGB"), i
    assert partial >= 10


def test_a_tie_says_the_astronaut_home_first_won():
    """A17: equal totals go to the astronaut who came home first, and the result line says so."""
    from dataclasses import replace
    from types import SimpleNamespace

    rules = TomTubeRules()
    s = build_state(rules, pieces=[], strict=False, at=("TOM_BASE", "DAVE_BASE"),
                    supply=((2, 0, 0, 0), (2, 0, 0, 0)))
    s = replace(s, phase="over", end="no_bonus", home_since=(40, 31))
    stub = SimpleNamespace(rules=rules, state=s, seat_name=lambda p: ("Tom", "Dave")[p])
    assert TomTubeScene.result_line(stub) == "Game over: Dave wins 2–2, home first"
    richer = replace(s, supply=((3, 0, 0, 0), (2, 0, 0, 0)))
    assert TomTubeScene.result_line(SimpleNamespace(**{**vars(stub), "state": richer})) == "Game over: Tom wins 3–2"


def test_a_recorded_tile_replays_to_the_pixels_of_painting_it(app):
    """A tile's drawing recorded once (``draw.Recording``) and replayed gives the very pixels of
    painting it directly, whole and through a clip (the calls that cannot reach the clip left out)."""
    from games.tomtube import draw as ttdraw

    corners = ttdraw.canonical_rhomb((150.0, 110.0), 160.0, 1)
    for rid in sorted(RHOMB_BY_ID)[:6]:
        rec = ttdraw.Recording()
        ttdraw.whole_rhomb(rec, corners, rid, 160.0)
        assert rec.ops
        for clip in (None, pygame.Rect(140, 20, 60, 50), pygame.Rect(0, 150, 300, 70)):
            direct, replayed = pygame.Surface((300, 220)), pygame.Surface((300, 220))
            for s in (direct, replayed):
                s.fill((9, 10, 20))
                s.set_clip(clip)
            ttdraw.whole_rhomb(direct, corners, rid, 160.0)
            rec.replay(replayed, clip)
            assert pygame.image.tobytes(direct, "RGB") == pygame.image.tobytes(replayed, "RGB"), (rid, clip)


def test_the_big_board_picture_follows_a_position_taken_back_to_and_later_pictures_stay_whole(app):
    """A position taken back to shows its kept picture; on its second frame the big picture is brought
    to it, and the pictures of the positions after it are still the very picture painted whole."""
    from types import SimpleNamespace

    scene, boards = _scene_and_boards(app, 5)
    followed = 0
    for i in [0, 1, 2, 3, 2, 4, 5, 4, 6, 7, 8, 7, 9, 10]:
        scene.match = SimpleNamespace(state=boards[i], cursor=0, listeners=[])
        for _frame in range(2):
            big_before = scene._big_board
            got = pygame.image.tobytes(scene._board_layer(), "RGB")
            followed += big_before is not boards[i].board and scene._big_board is boards[i].board and _frame == 1
        assert scene._big_board is boards[i].board
        big = scene._space_cache[1].copy()
        scene.paint_board(big, scene.xf.times(ttview.SS), boards[i].board)
        assert got == pygame.image.tobytes(pygame.transform.smoothscale(big, ttview.BOARD.size), "RGB"), i
        assert pygame.image.tobytes(scene._big, "RGB") == pygame.image.tobytes(big, "RGB"), i
    assert followed >= 3


def test_the_last_move_is_marked_a_drift_traced_and_then_the_next_placement_outlined(app):
    """After a drift the astronaut's way stays traced (the marker drawn along his path only, not while
    he glides); once the other player places a rhomb, the marker moves to that rhomb."""
    m = demo_match(30, seed=1)
    st = m.state
    mover = st.turn
    dest, path = max(RULES.move_targets(st, mover, "drift").items(), key=lambda kv: len(kv[1]))
    scene = app.start_match(SPEC, m, autosave=False)
    app.audio.play = lambda name: None
    app.step([motion(scene.node_pos(dest))], STEP)
    click(app, scene.node_pos(dest))
    assert scene.gliding() and scene.last_mark() == ("move", mover, "drift", tuple(path))

    def unmarked_diff():
        """Pixels of the board that change when the marker is left out."""
        app.step([motion((5, 795))], STEP)
        with_mark = app.surface.copy()
        scene._mark_memo = (scene.state, None)
        scene.draw(app.surface)
        without = app.surface.copy()
        scene._mark_memo = (None, None)
        return [(x, y) for x in range(0, 860, 2) for y in range(40, 800, 2)
                if with_mark.get_at((x, y)) != without.get_at((x, y))]

    # while he glides his way is not traced yet
    assert unmarked_diff() == []
    for _ in range(200):
        app.step([], STEP)
    assert not scene.gliding()
    diff = unmarked_diff()
    assert len(diff) > 40
    # every changed pixel lies near his way (straight between the spheres, or the tube's bow)
    nodes = [scene.node_pos(n) for n in path]
    assert all(polyline_distance(p, nodes) < scene.s * 0.45 for p in diff)
    # both ends of the way are marked: a ring where he stood, a dot near where he went
    start, end = nodes[0], nodes[-1]
    assert any(abs(x - start[0]) + abs(y - start[1]) < scene.s * 0.3 for x, y in diff)
    assert any(abs(x - end[0]) + abs(y - end[1]) < scene.s * 0.5 for x, y in diff)
    # the other player draws and places: the marker is his rhomb now, outlined on its edges
    other = 1 - mover
    m.submit(other, {"t": "draw"})
    place = next(a for a in RULES.legal_actions(m.state, other) if a["t"] == "place")
    m.submit(other, place)
    app.step([], STEP)
    assert scene.last_mark() == ("place", other, place["slot"])
    corners = [scene.node_pos(c) for c in rhomb_corners_px_ids(place["slot"], place["flip"])]
    diff = unmarked_diff()
    assert len(diff) > 40
    assert all(polyline_distance(p, corners + corners[:1]) <= 4 for p in diff)
    # the placement taken back (the draw stays: it is a barrier), the drift is the last move again
    assert m.undo(other)
    app.step([], STEP)
    assert scene.last_mark() == ("move", mover, "drift", tuple(path))


def polyline_distance(p, pts):
    """Distance (px) from point ``p`` to the polyline through ``pts``."""
    best = float("inf")
    for a, b in zip(pts, pts[1:]):
        ab = (b[0] - a[0], b[1] - a[1])
        t = max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / (ab[0] ** 2 + ab[1] ** 2)))
        best = min(best, ((p[0] - a[0] - t * ab[0]) ** 2 + (p[1] - a[1] - t * ab[1]) ** 2) ** 0.5)
    return best


def rhomb_corners_px_ids(slot, flip):
    from games.tomtube.geometry import rhomb_corners
    c = rhomb_corners(slot, flip)
    return [c[k] for k in "ABCD"]
