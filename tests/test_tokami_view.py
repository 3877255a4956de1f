"""The Tokami screen, driven with synthetic input through the real App loop (games/tokami/view.py).

Events are in window px; the headless window is 1280x800, the logical size, so window and logical
coordinates coincide. Targets come from the state's poses and the scene's projection (world mm ->
screen px), never from hard-coded pixels; heights are checked with ``model.highest_point`` on the poses
the match recorded, and physical outcomes against ``driver`` runs of the same inputs.
"""
from __future__ import annotations

import argparse
import json

import pygame
import pytest

from games.tokami import SPEC, draw, driver, model
from games.tokami.rules import TokamiRules, scores
from games.tokami.view import (
    KNOCK_FULL, KNOCK_MIN, PILE, TURN_FINE, TURN_STEP, TokamiScene, knock_volume,
    last_turn_tracks, round_tally,
)
from games.tokami.world import TokamiWorld
from sim.core import record, registry
from sim.core.match import Match, check_setup
from sim.core.rules import PHYSICS
from sim.core.seats import Seat
from sim.core.storage import autosave_path
from events import click, down, key, motion, up, wheel

STEP = 1 / 60
HELD = (1, 0, 0)


# ----------------------------------------------------------------------------------- helpers
def settled_match(seats=("human", "human"), seed=1, **cfg) -> Match:
    """A new match whose set-up settle is done (by the driver, not the screen): phase turn."""
    m = Match(TokamiRules(), {"players": len(seats), "seats": list(seats), **cfg}, seed)
    m.submit(PHYSICS, driver.settle_action(m.state))
    assert m.state.phase == "turn"
    return m


def start(app, match, **opts):
    """Show ``match``; sounds and knock volumes are collected instead of played."""
    sounds, knocks = [], []
    app.audio.play = lambda name: sounds.append(name)
    app.audio.knock = lambda v: knocks.append(v)
    scene = app.start_match(SPEC, match, autosave=False, **opts)
    app.step([], STEP)
    return scene, sounds, knocks


def face_point(scene, pose):
    """Screen point of the centre of a stick's front face."""
    return scene.proj.to_screen(pose[2], pose[3], draw.depth_range(pose)[0])


def find_point(scene, sid):
    """A point of stick ``sid``'s front face (centre first, then along its length) that picking gives
    to it among the sticks the mouse can point at now; None if there is none."""
    pose = scene.state.poses[sid]
    face = draw.front_face(scene.proj, pose)
    c = face_point(scene, pose)
    mid = ((face[0][0] + face[3][0]) / 2, (face[0][1] + face[3][1]) / 2)
    for f in (0.0, 0.3, -0.3, 0.6, -0.6, 0.85, -0.85):
        p = (c[0] + (c[0] - mid[0]) * f, c[1] + (c[1] - mid[1]) * f)
        if draw.pick(scene.proj, scene._pickable(), p) == sid:
            return p
    return None


def point_on(app, scene, sid):
    """A screen point where the mouse finds stick ``sid``: for an across-stick behind the front lane,
    first look into its lane (its key, nothing in hand)."""
    pose = scene.state.poses[sid]
    if pose[0] == "across" and pose[1] > 0:
        app.step([key(pygame.K_1 + pose[1])], STEP)
    p = find_point(scene, sid)
    assert p is not None, f"stick {sid} cannot be pointed at"
    return p


def top_stick(state, kind=None):
    """The stick with the highest highest point (of ``kind``), not taboo."""
    ids = [i for i, p in state.poses.items() if i != state.taboo and (kind is None or p[0] == kind)]
    return max(ids, key=lambda i: model.highest_point(state.poses[i]))


def glide(app, scene, depth, a, b, frames):
    """Move the held mouse in a straight line from world point ``a`` to ``b`` (mm, on the plane at
    ``depth`` lanes) over ``frames`` frames."""
    for i in range(1, frames + 1):
        f = i / frames
        p = scene.proj.to_screen(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, depth)
        app.step([motion(p, buttons=HELD)], STEP)
    return scene.proj.to_screen(b[0], b[1], depth)


def run_until(app, cond, limit=1500):
    for _ in range(limit):
        if cond():
            return
        app.step([], STEP)
    raise AssertionError("condition not reached")


def run_until_bot(app, scene, cond, limit=600):
    """``run_until`` for a bot seat: whenever the bot's worker thread is busy, give it real time to
    finish (the frames run on a fake clock, the worker on the real one, so a loaded machine must not
    make the test depend on which is faster)."""
    for _ in range(limit):
        if cond():
            return
        if scene.worker.busy:
            scene.worker.wait(0.05)
        app.step([], STEP)
    raise AssertionError("condition not reached")


def physics_entries(m):
    return [e["a"] for e in m.log if e["p"] == PHYSICS]


def taboo_match():
    """Players 1 and 2 (humans); player 1 raised stick 24 (scripted), so it is taboo for player 2."""
    m = settled_match(seed=1)
    m.submit(0, {"t": "take", "stick": 24})
    top = max(model.highest_point(p) for p in m.state.poses.values())
    m.submit(PHYSICS, driver.run_plan(m.state, [["grab"], ["lift", "across", 0], ["center", 0.0, top + 12.0, 0.0],
                                                ["drop"], ["wait", 0.25], ["release"]]))
    assert m.state.phase == "winning"
    m.submit(0, {"t": "end"})
    assert m.state.player == 1 and m.state.taboo == 24
    return m


# ------------------------------------------------------------------------ the two issue lines
def test_grab_lift_release_records_a_successful_raise_with_the_measured_heights(app):
    m = settled_match(seed=1)
    scene, sounds, _ = start(app, m)
    st0 = m.state
    # the highest across-stick of the front lane: its front face is in front of everything
    sid = max((i for i, p in st0.poses.items() if p[0] == "across" and p[1] == 0),
              key=lambda i: model.highest_point(st0.poses[i]))
    pose0 = st0.poses[sid]
    p = face_point(scene, pose0)
    app.step([motion(p), down(p)], STEP)
    assert scene.att is not None and scene.att.stick == sid
    x, y = pose0[2], pose0[3]
    q = glide(app, scene, 0, (x, y), (x, y + 40.0), 40)        # lift it 40 mm
    assert m.state.phase == "raise" and m.log[-1] == {"p": 0, "a": {"t": "take", "stick": sid}}
    for _ in range(15):
        app.step([motion(q, buttons=HELD)], STEP)
    app.step([up(q)], STEP)
    run_until(app, lambda: m.state.phase != "raise")
    raised = physics_entries(m)[-1]
    assert raised["t"] == "raised" and raised["placed"] is True and raised["fallen"] == []
    hp_before = model.highest_point(pose0)
    hp_after = model.highest_point(model.pose_from_json(raised["poses"][str(sid)]))
    assert hp_after > hp_before + model.RAISE_MARGIN
    st = m.state
    assert st.phase == "winning" and st.current["raised"] is True
    assert st.current["hp_before"] == hp_before and st.current["hp_after"] == hp_after
    assert "place" in sounds
    # the recorded hand track replays to the same outcome, bit for bit
    before = m.states[[i for i, e in enumerate(m.log) if e["a"] is raised][0]]
    assert json.dumps(driver.replay(before, raised["hand"]).action) == json.dumps(raised)


def test_dragging_a_stick_off_the_x_makes_it_and_the_fallen_ones_minus_sticks(app):
    m = settled_match(seed=2)
    scene, sounds, knocks = start(app, m)
    st0 = m.state
    sid = top_stick(st0, "along")
    pose0 = st0.poses[sid]
    p = face_point(scene, pose0)
    app.step([motion(p), down(p)], STEP)
    x, y = pose0[2], pose0[3]
    glide(app, scene, 0, (x, y), (x, y + 45.0), 25)
    glide(app, scene, 0, (x, y + 45.0), (140.0, y + 45.0), 30)           # past the right wing tip
    glide(app, scene, 0, (140.0, y + 45.0), (140.0, -40.0), 40)          # and down beside it
    assert scene.att is None or scene.att.stopped == "fall"              # the first fall stops it
    app.step([up(scene.proj.to_screen(140.0, -40.0))], STEP)
    run_until(app, lambda: m.state.phase not in ("raise",))
    run_until(app, lambda: m.state.phase == "turn")
    raised = [e for e in physics_entries(m) if e["t"] == "raised"][-1]
    assert sid in raised["fallen"] and raised["placed"] is False
    assert str(sid) not in raised["poses"]
    minus = set(m.state.minus[0])
    assert minus == set(raised["fallen"]) | {sid}
    assert not minus & set(m.state.poses)
    assert m.state.player == 1 and scores(m.state)[0] == -len(minus)
    assert "penalty" in sounds
    assert knocks and all(0.0 < v <= 1.0 for v in knocks)                # the fall knocked on the table


# --------------------------------------------------------------------------------- the hand
def test_a_stick_only_touched_is_not_taken(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    sid = top_stick(m.state)
    p = face_point(scene, m.state.poses[sid])
    n = len(m.log)
    app.step([motion(p), down(p)], STEP)
    app.step([motion(p, buttons=HELD)], STEP)
    app.step([up(p)], STEP)
    assert len(m.log) == n and m.state.phase == "turn" and scene.att is None


def test_wheel_turns_one_step_a_notch_shift_fine_and_wheel_buttons_are_no_clicks(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    sid = top_stick(m.state)
    p = face_point(scene, m.state.poses[sid])
    app.step([motion(p), down(p)], STEP)
    a0 = scene.angle
    app.step([wheel(1)], STEP)
    assert scene.angle == pytest.approx(a0 + TURN_STEP)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=4),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=4)], STEP)
    assert scene.att is not None and scene.hold is not None           # button 4 is not a release
    app.step([key(pygame.K_LSHIFT), wheel(-1)], STEP)
    assert scene.angle == pytest.approx(a0 + TURN_STEP - TURN_FINE)
    app.step([pygame.event.Event(pygame.KEYUP, key=pygame.K_LSHIFT, mod=0), wheel(0, precise=0.5),
              wheel(0, precise=0.5)], STEP)                               # two half notches: one step
    assert scene.angle == pytest.approx(a0 + 2 * TURN_STEP - TURN_FINE)


def test_tab_lifts_the_stick_out_as_it_lies_then_turns_it_and_letting_go_lays_it_down(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    st0 = m.state
    sid = top_stick(st0, "along")
    pose0 = st0.poses[sid]
    p = face_point(scene, pose0)
    app.step([motion(p), down(p)], STEP)
    x, y = pose0[2], pose0[3]
    glide(app, scene, 0, (x, y), (x, y + 6.0), 6)
    assert m.state.phase == "raise"                                      # moved: taken
    app.step([key(pygame.K_TAB)], STEP)                                  # out of the plane, still along
    att = scene.att
    assert att.ghost is not None and att.ghost[0] == "along" and sid not in att.world
    assert "along" in scene.msg[0]
    app.step([key(pygame.K_TAB)], STEP)                                  # Tab again: across
    assert att.ghost[0] == "across" and "across" in scene.msg[0]
    app.step([key(pygame.K_3)], STEP)
    assert att.ghost[:2] == ("across", 2) and scene.hold["depth"] == 2
    # far beside the X there is nothing to lay it on: letting go keeps it in hand
    away = scene.proj.to_screen(260.0, 40.0, 2)
    app.step([motion(away, buttons=HELD)], STEP)
    assert att.touch_pose() is None
    app.step([up(away)], STEP)
    assert att.ghost is not None and scene.hold is not None and not scene.hold["button"]
    assert m.state.phase == "raise" and "Nothing to lay it on" in scene.msg[0]
    # right over the highest across-stick of lane 2 it would touch on top of it: shown, then laid there
    other = max((i for i, q in st0.poses.items() if q[0] == "across" and q[1] == 2),
                key=lambda i: model.highest_point(st0.poses[i]))
    ox, oy, oa = att.world.pose(other)[2:]
    scene.angle = oa
    over = scene.proj.to_screen(ox, oy + 50.0, 2)
    app.step([motion(over)], STEP)
    touch = att.touch_pose()
    assert touch is not None and touch[:2] == ("across", 2)
    assert att.world.fits(sid, touch)                                   # free there, and really touching:
    assert not att.world.fits(sid, touch[:3] + (touch[3] - 1.0, touch[4]))
    assert touch[3] < att.ghost[3] - 10.0                               # lowered, not dropped from above
    app.step([down(over)], STEP)                                         # a click lays it down there
    assert att.ghost is None and att.world.pose(sid)[:2] == ("across", 2)
    assert att.world.pose(sid)[3] == pytest.approx(touch[3], abs=1.0)
    app.step([up(over)], STEP)
    run_until(app, lambda: m.state.phase != "raise")
    raised = physics_entries(m)[-1]
    assert raised["placed"] is True
    after = model.pose_from_json(raised["poses"][str(sid)])
    assert after[:2] == ("across", 2) and after[3] < touch[3] + 1.0      # laid there, then left to the pile
    ops = [e[1] for e in raised["hand"]]
    assert ops[:1] == ["grab"] and "pull" in ops and "lift" in ops and "ghost" in ops and "drop" in ops
    assert ops[-1] == "finish"


def test_looking_into_a_lane_and_a_wedged_stick_cannot_leave_the_plane(app):
    m = settled_match(seed=1)
    # the top along layer (30-35) falls off in a fabricated outcome: the top across layer is uncovered
    m.submit(0, {"t": "take", "stick": 30})
    st = m.state
    m.submit(PHYSICS, {"t": "raised", "placed": False, "fallen": [31, 32, 33, 34, 35],
                       "poses": driver.poses_json({i: p for i, p in st.poses.items() if i < 30})})
    assert m.state.player == 1 and sorted(m.state.poses) == list(range(30))
    scene, _, _ = start(app, m)
    st0 = m.state
    w = TokamiWorld(st0.poses)
    sid = 26                                       # top across layer, lane 3: lanes 2 and 4 hold it
    assert st0.poses[sid][:2] == ("across", 2) and not w.can_leave_plane(sid)
    assert find_point(scene, sid) is None          # hidden behind the front lanes
    app.step([key(pygame.K_3)], STEP)              # nothing held: look into lane 3
    assert scene.view_lane == 2
    assert all(not (q[0] == "across" and q[1] < 2) for q in scene._pickable().values())
    p = find_point(scene, sid)
    assert p is not None
    app.step([motion(p), down(p)], STEP)
    assert scene.att is not None and scene.att.stick == sid
    app.step([key(pygame.K_TAB)], STEP)
    assert scene.att.ghost is None and sid in scene.att.world and "wedged" in scene.msg[0]
    app.step([key(pygame.K_5)], STEP)              # nor into another lane
    assert scene.att.ghost is None and scene.att.world.pose(sid)[1] == 2


# ------------------------------------------------------------------------- taboo, refuse, end
def test_the_taboo_stick_cannot_be_taken_and_R_refuses_with_it(app):
    m = taboo_match()
    scene, sounds, _ = start(app, m)
    st = m.state
    p = face_point(scene, st.poses[24])
    n = len(m.log)
    assert draw.pick(scene.proj, st.poses, p) == 24
    app.step([motion(p), down(p), up(p)], STEP)
    assert len(m.log) == n and scene.att is None and "taboo" in scene.msg[0] and "reject" in sounds
    assert scene.b_refuse.enabled
    app.step([key(pygame.K_r)], STEP)                                     # asks once
    assert len(m.log) == n and "Refuse?" in scene.msg[0] and scene.b_refuse.label == "Confirm?"
    app.step([key(pygame.K_r)], STEP)                                     # confirmed
    assert m.log[n] == {"p": 1, "a": {"t": "refuse"}}
    assert m.state.phase == "settle" and scene.run is not None            # the slide-off is shown
    run_until(app, lambda: m.state.phase == "turn")
    assert 24 in m.state.minus[1] and 24 not in m.state.poses and m.state.player == 0


def scripted_raise(m):
    """The active player takes the highest stick that a straight 40 mm lift raises (found with the
    driver on the state after the take) and the match records it: phase winning."""
    rules = m.rules
    st = m.state
    for sid in sorted(rules.takeable(st), key=lambda i: -model.highest_point(st.poses[i])):
        take = {"t": "take", "stick": sid}
        nxt, _ = rules.apply(st, st.player, take)
        x, y, a = st.poses[sid][2:]
        act = driver.run_plan(nxt, [["grab"], ["center", x, y + 40.0, a], ["wait", 0.25], ["release"]])
        if act["placed"] and not act["fallen"] and model.highest_point(
                model.pose_from_json(act["poses"][str(sid)])) > model.highest_point(st.poses[sid]) + 1.0:
            m.submit(st.player, take)
            m.submit(PHYSICS, act)
            assert m.state.phase == "winning"
            return sid
    raise AssertionError("no stick can be raised by a straight lift")


def test_a_winning_stick_slides_out_and_enter_ends_a_turn(app):
    m = settled_match(seed=1)
    scene, sounds, _ = start(app, m)
    app.step([key(pygame.K_RETURN)], STEP)                               # phase turn: Enter does nothing
    assert m.state.phase == "turn" and m.state.player == 0
    raised = scripted_raise(m)
    app.step([], STEP)
    st = m.state
    # the highest along-stick that may be drawn: nothing lies on it
    sid = max((i for i in m.rules.drawable(st) if st.poses[i][0] == "along"),
              key=lambda i: model.highest_point(st.poses[i]))
    p = point_on(app, scene, raised)
    app.step([motion(p), down(p), up(p)], STEP)                          # the stick just raised: refused
    assert scene.att is None and "just raised" in scene.msg[0]
    app.step([key(pygame.K_1)], STEP)                                    # every lane again
    p = face_point(scene, st.poses[sid])
    app.step([motion(p), down(p)], STEP)
    assert scene.att is not None and scene.att.kind == "draw"
    app.step([key(pygame.K_TAB)], STEP)                                  # along the trough: taken
    assert m.log[-1] == {"p": 0, "a": {"t": "draw", "stick": sid}}
    run_until(app, lambda: m.state.phase == "turn")
    drawn = physics_entries(m)[-1]
    assert drawn["t"] == "drawn" and drawn["taken"] is True and drawn["fallen"] == []
    assert m.state.winning[0] == (sid,) and m.state.last_turn["winning"] == sid and "gobble" in sounds
    # player 2 raises; Enter ends the turn without a winning stick
    scripted_raise(m)
    app.step([key(pygame.K_RETURN)], STEP)
    assert m.log[-1] == {"p": 1, "a": {"t": "end"}} and m.state.player == 0 and m.state.phase == "turn"
    assert scene.banner is not None and scene.banner[0] == "P1's turn"   # hot-seat: whose turn it is


# ------------------------------------------------------------------- practice undo and replay
def test_practice_undo_goes_back_to_the_turn_start_and_the_record_still_loads(app):
    m = settled_match(seed=1, practice=True)
    scene, sounds, _ = start(app, m)
    start_at = m.cursor
    poses0 = dict(m.state.poses)
    scripted_raise(m)
    app.step([], STEP)
    assert scene.b_undo.enabled
    app.step([key(pygame.K_z, pygame.KMOD_CTRL)], STEP)
    assert m.cursor == start_at == len(m.log) and m.state.phase == "turn" and m.state.poses == poses0
    assert "undo" in sounds
    m2 = record.from_record(json.loads(json.dumps(record.to_record(m))))
    assert m2.state == m.state
    # the pile is built from the turn's poses again: a new grab works on the restored state
    sid = top_stick(m.state)
    p = face_point(scene, m.state.poses[sid])
    app.step([motion(p), down(p)], STEP)
    assert scene.att is not None and scene.att.stick == sid and scene.att.start_pose == poses0[sid]
    assert scene.att.hp_before == model.highest_point(poses0[sid])


def test_undo_is_only_for_practice_games(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    scripted_raise(m)
    n = len(m.log)
    app.step([key(pygame.K_z, pygame.KMOD_CTRL)], STEP)
    assert len(m.log) == n and m.cursor == n and "practice" in app.toast_text and not scene.b_undo.enabled


def test_f5_replays_the_last_turn_at_quarter_speed_without_touching_the_match(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    scripted_raise(m)
    m.submit(0, {"t": "end"})
    log = json.dumps(m.log)
    items = last_turn_tracks(m)
    assert len(items) == 1
    recorded = [e["a"] for e in m.log if e["p"] == PHYSICS][-1]
    app.step([key(pygame.K_F5)], STEP)
    assert scene.replay is not None
    steps = [scene.replay["pb"].attempt.steps]
    for _ in range(12):
        app.step([], STEP)
        steps.append(scene.replay["pb"].attempt.steps)
    assert all(b - a == 1 for a, b in zip(steps, steps[1:]))             # one 1/240 s step a frame
    run_until(app, lambda: scene.replay is None or scene.replay["pb"].done, 4000)
    assert scene.replay is not None                                      # a pause after the last item
    assert json.dumps(scene.replay["pb"].attempt.action) == json.dumps(recorded)
    run_until(app, lambda: scene.replay is None)
    assert json.dumps(m.log) == log and m.state.phase == "turn"


# --------------------------------------------------------------------------------------- bots
class StubBot:
    """A bot that waits for the test to let it answer: takes ``stick`` and lifts it 40 mm, or ends."""

    def __init__(self, stick):
        import threading
        self.stick = stick
        self.go = threading.Event()
        self.calls = 0
        self.plan = None

    def decide(self, state, cancelled):
        self.calls += 1
        assert self.go.wait(10.0)
        if state.phase == "winning":
            return {"action": {"t": "end"}}
        x, y, a = state.poses[self.stick][2:]
        self.plan = [["grab"], ["center", x, y + 40.0, a], ["wait", 0.25], ["release"]]
        return {"action": {"t": "take", "stick": self.stick}, "plan": self.plan}


def test_a_bot_thinks_off_the_frame_then_plays_its_plan_visibly(app):
    m = settled_match(("bot:medium", "human"), seed=1)
    probe = Match(m.rules, m.config, m.seed)
    probe.submit(PHYSICS, driver.settle_action(probe.state))
    sid = scripted_raise(probe)                   # a stick a straight lift raises, found on a copy
    bot = StubBot(sid)
    scene, _, _ = start(app, m, bots={0: bot})
    for _ in range(5):
        app.step([], STEP)                        # the bot is blocked: frames go on all the same
    assert bot.calls == 1 and scene.job is not None and len(m.log) == len(probe.log) - 2
    bot.go.set()
    run_until_bot(app, scene, lambda: m.state.phase == "raise")
    assert m.log[-1] == {"p": 0, "a": {"t": "take", "stick": sid}}
    shown = 0
    while m.state.phase == "raise":
        assert scene.play is not None             # the plan is played back, not applied at once
        shown += 1
        app.step([], STEP)
    expected = driver.run_plan(m.states[len(m.log) - 1], bot.plan)
    assert shown > 10 and json.dumps(physics_entries(m)[-1]) == json.dumps(expected)
    run_until_bot(app, scene, lambda: m.state.phase == "turn")
    assert m.log[-1] == {"p": 0, "a": {"t": "end"}} and m.state.player == 1


def test_a_resumed_bot_take_without_its_outcome_is_decided_again(app):
    m = settled_match(("bot:easy", "human"), seed=1)
    m.submit(0, {"t": "take", "stick": 24})
    n = len(m.log)
    scene, _, _ = start(app, m, bots={0: StubBot(24)})
    assert len(m.log) == n - 1 and m.state.phase == "turn" and m.state.player == 0
    m2 = record.from_record(json.loads(json.dumps(record.to_record(m))))
    assert m2.state == m.state


# --------------------------------------------------------------------------- settle and resume
def test_the_set_up_settles_visibly_and_gives_the_drivers_outcome(app):
    m = Match(TokamiRules(), {"players": 2, "seats": ["human", "human"]}, 4)
    expected = driver.settle_action(m.state)
    scene, _, _ = start(app, m)
    frames = 0
    while m.state.phase == "settle":
        assert scene.run is not None and scene.live_world() is scene.run.world
        app.step([], STEP)
        frames += 1
    assert frames > 5 and json.dumps(physics_entries(m)[0]) == json.dumps(expected)


def test_resume_after_a_take_goes_on_with_the_taken_stick(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    app.start_match(SPEC, m)                                            # with the autosave
    sid = top_stick(m.state)
    m.submit(0, {"t": "take", "stick": sid})
    loaded = record.load(autosave_path())
    assert loaded.state.phase == "raise" and loaded.state.held == sid
    scene = app.start_match(SPEC, loaded)
    app.step([], STEP)
    st = loaded.state
    other = next(i for i in sorted(st.poses) if i != sid and draw.pick(scene.proj, st.poses,
                                                                        face_point(scene, st.poses[i])) == i)
    p = face_point(scene, st.poses[other])
    app.step([motion(p), down(p), up(p)], STEP)
    assert scene.att is None and "Touch means take" in scene.msg[0]
    p = face_point(scene, st.poses[sid])
    app.step([motion(p), down(p)], STEP)
    assert scene.att is not None and scene.att.stick == sid and scene.committed
    assert scene.att.start_pose == st.poses[sid] and scene.att.kind == "raise"


# ------------------------------------------------------------------------- round and game end
def end_round_by_falls(m, keep=3):
    """The active player takes a stick and (a fabricated physics outcome) every stick but ``keep`` of
    the others falls: the round ends with ``keep`` sticks on the X."""
    st = m.state
    sid = top_stick(st)
    m.submit(st.player, {"t": "take", "stick": sid})
    st = m.state
    stay = sorted(i for i in st.poses if i != sid)[:keep]
    fallen = [i for i in sorted(st.poses) if i not in stay and i != sid]
    m.submit(PHYSICS, {"t": "raised", "placed": False, "poses": driver.poses_json({i: st.poses[i] for i in stay}),
                       "fallen": fallen})
    return sid, fallen


def test_the_round_end_card_waits_then_the_next_round_is_stacked(app):
    m = settled_match(seed=1, rounds=2)
    scene, sounds, _ = start(app, m)
    sid, fallen = end_round_by_falls(m)
    assert m.state.phase == "settle" and m.state.round == 1
    assert scene.card is not None and scene.card["scores"] == [-(len(fallen) + 1), 0]
    assert sorted(scene.card["tally"][0]["minus"]) == sorted(fallen + [sid])
    for _ in range(20):
        app.step([], STEP)
    assert m.state.phase == "settle" and scene.run is None               # the card holds the next round
    surf = app.surface.copy()
    assert surf.get_at(PILE.center)[:3] != app.theme.bg                  # the card is drawn
    app.step([key(pygame.K_RETURN)], STEP)
    assert scene.card is None
    run_until(app, lambda: m.state.phase == "turn")
    assert m.state.round == 1 and m.state.player == 1 and len(m.state.poses) == 36


def test_the_game_end_screen_ranks_the_totals(app):
    m = settled_match(seed=1, rounds=1)
    scene, sounds, _ = start(app, m)
    end_round_by_falls(m)
    app.step([], STEP)
    assert m.is_over() and scene.show_result and scene.card is None
    title, sub = scene.result_titles()
    assert title == "P2 wins!" and "Best total 0" in sub
    scene.seat_list[1] = Seat("bot", "easy")                             # P2 a bot: the one player lost
    assert scene.humans() == [0] and scene.result_titles()[0] == "You lose"
    assert {b.label for b in scene._active_buttons()} == {"New game", "Launcher", "View pile"}
    app.step([motion(scene.b_view.rect.center), down(scene.b_view.rect.center), up(scene.b_view.rect.center)], STEP)
    assert not scene.show_result
    app.step([motion(scene.b_new.rect.center)], STEP)
    app.step([motion(scene.b_show.rect.center), down(scene.b_show.rect.center), up(scene.b_show.rect.center)], STEP)
    assert scene.show_result


# ------------------------------------------------------------------------------- app plumbing
def test_spec_launcher_and_the_set_up_dialog_start_a_game(app):
    from sim.app.launcher import LauncherScene

    assert registry.get_spec("tokami") is SPEC and SPEC.players == "2-5"
    assert SPEC.levels == ("easy", "medium", "hard") and SPEC.default_players == ("human", "bot:medium")
    launcher = app.push(LauncherScene(app))
    assert "tokami" in [e.spec.name for e in launcher.entries]
    dialog = app.push(SPEC.make_setup(app, SPEC))
    assert [o.key for o in dialog.options] == ["rounds", "setup", "practice"]
    assert dialog.options[0].values == (1, 3, 5) and dialog.options[2].values == (False, True)
    assert dialog.options[1].values == ("cube", "free")
    dialog.set_option("rounds", 5)
    dialog.set_option("setup", "free")
    dialog.set_option("practice", True)
    dialog.set_players(3)
    dialog.start()
    m = app.match
    assert isinstance(app.top, TokamiScene) and app.top.match is m
    assert m.config["rounds"] == 5 and m.config["practice"] is True and m.config["players"] == 3
    assert m.config["setup"] == "free" and m.state.setup == "free"
    assert m.seats[0].is_human


def test_cli_flags_make_the_config_and_bad_ones_exit_2(capsys):
    from sim.app.cli import _Parser, main

    parser = _Parser(add_help=False)
    SPEC.add_flags(parser)
    cfg = SPEC.config_for(parser.parse_args(["--rounds", "5", "--practice"]), ["human", "bot:hard"])
    assert check_setup(TokamiRules(), cfg) == {"players": 2, "rounds": 5, "seats": ["human", "bot:hard"],
                                               "practice": True}
    cfg = SPEC.config_for(parser.parse_args(["--setup", "free"]), ["human", "human"])
    assert check_setup(TokamiRules(), cfg)["setup"] == "free"
    assert check_setup(TokamiRules(), SPEC.config_for(argparse.Namespace(), ["human", "human"]))["rounds"] == 3
    assert main(["play", "tokami", "--players", "human,bot:hard", "--rounds", "0"]) == 2
    assert "rounds" in capsys.readouterr().err
    assert main(["play", "tokami", "--players", "human,bot:wizard"]) == 2


def test_headless_screenshot_shows_the_pile_in_four_colours_and_the_height_line(tmp_path):
    from sim.app.cli import main
    from sim.app.theme import palette

    shot = tmp_path / "shot.png"
    assert main(["--headless", "--frames", "45", "--screenshot", str(shot), "play", "tokami",
                 "--players", "human,human", "--seed", "1"]) == 0
    img = pygame.image.load(str(shot))
    assert img.get_size() == (1280, 800)
    th = palette("okabe-ito")
    px = pygame.surfarray.array3d(img)[PILE.x:PILE.right, PILE.y:PILE.bottom].reshape(-1, 3).astype(int)

    def count(rgb, tol=6):
        return int((abs(px - rgb).max(axis=1) <= tol).sum())

    for letter in "RYBG":                                                # every stick colour shows
        assert count(th.links[letter]) > 400, letter
    acc = pygame.surfarray.array3d(img)[PILE.x:PILE.right, PILE.y:PILE.bottom].astype(int)
    rows = (abs(acc - th.accent).max(axis=2) <= 6).sum(axis=0)
    assert rows.max() > 150                                              # a dashed horizontal line


def test_drawing_changes_neither_the_match_nor_the_world(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    sid = top_stick(m.state)
    p = face_point(scene, m.state.poses[sid])
    app.step([motion(p), down(p)], STEP)
    app.step([motion((p[0], p[1] - 20), buttons=HELD)], STEP)
    att = scene.att
    before = (att.world.steps, att.world.poses(), list(att.track), json.dumps(m.log))
    scene.draw(app.surface)
    scene.draw(app.surface)
    assert (att.world.steps, att.world.poses(), list(att.track), json.dumps(m.log)) == before


# ------------------------------------------------------------------------------ pure helpers
def test_knock_volume_scales_with_impact_and_audio_knock_keeps_its_volume(app):
    assert knock_volume(KNOCK_MIN * 0.99) == 0.0
    assert 0.0 < knock_volume(KNOCK_MIN) < knock_volume(KNOCK_MIN * 4) < knock_volume(KNOCK_FULL) == 1.0
    assert knock_volume(KNOCK_FULL * 10) == 1.0
    from sim.app.audio import SOUND_NAMES, Audio, synth
    assert "knock" in SOUND_NAMES and len(synth("knock")) > 0 and abs(synth("knock")).max() <= 1.0
    audio = Audio(app)
    if not audio.available:
        pytest.skip("no mixer here")
    audio.knock(0.3)
    assert audio.last_played == "knock" and audio.last_volume == 0.3
    audio.knock(7.0)
    assert audio.last_volume == 1.0
    app.settings["sound"] = False
    audio.knock(0.5)
    assert audio.last_volume == 1.0                                      # muted: nothing played
    audio.close()


def test_round_tally_follows_the_events_to_the_round_end():
    from types import SimpleNamespace

    before = SimpleNamespace(n_players=2, winning=((3,), ()), minus=((5, 7), (9,)))
    events = [{"e": "winning", "player": 0, "stick": 11}, {"e": "return", "player": 0, "sticks": [5]},
              {"e": "minus", "player": 1, "sticks": [12, 13]}, {"e": "turn_end"},
              {"e": "round_end", "round": 0}, {"e": "minus", "player": 0, "sticks": [99]}]
    assert round_tally(before, events) == [{"winning": [3, 11], "minus": [7]},
                                           {"winning": [], "minus": [9, 12, 13]}]


def test_last_turn_tracks_finds_the_raise_and_the_draw_of_the_last_turn():
    m = settled_match(seed=1)
    assert last_turn_tracks(m) == []
    scripted_raise(m)
    st = m.state
    sid = max((i for i in m.rules.drawable(st) if st.poses[i][0] == "along"),
              key=lambda i: model.highest_point(st.poses[i]))
    m.submit(0, {"t": "draw", "stick": sid})
    before_draw = m.state
    m.submit(PHYSICS, driver.run_plan(m.state, [["grab"], ["lift"]]))
    items = last_turn_tracks(m)
    assert [s.phase for s, _t in items] == ["raise", "draw"] and items[1][0] is before_draw
    assert items[1][1] == [e["a"] for e in m.log if e["p"] == PHYSICS][-1]["hand"]


def test_a_stick_let_go_over_the_panel_is_let_go(app):
    m = settled_match(seed=1)
    scene, _, _ = start(app, m)
    sid = top_stick(m.state)
    pose = m.state.poses[sid]
    p = face_point(scene, pose)
    app.step([motion(p), down(p)], STEP)
    glide(app, scene, 0, pose[2:4], (pose[2], pose[3] + 10.0), 8)
    assert m.state.phase == "raise"
    over = scene.b_rules.rect.center                                     # a panel button under the mouse
    app.step([motion(over, buttons=HELD), up(over)], STEP)
    assert scene.hold is None and (scene.closed or scene.att is None)
    assert not any(getattr(s, "is_rules", False) for s in app.stack)     # and the button was not clicked
    run_until(app, lambda: m.state.phase != "raise")
    assert physics_entries(m)[-1]["t"] == "raised"


def test_bench_frames_prints_the_drag_figures(monkeypatch):
    import games.tokami.bench as tkbench
    import games.tokami.view as tkview

    frame_times = tkview.frame_times
    groups = frame_times(frames=30)
    assert list(groups) == ["while dragging a stick"] and len(groups["while dragging a stick"]) == 20
    assert all(wall > 0 and cpu >= 0 for wall, cpu in groups["while dragging a stick"])
    # the bench hook prints the engine figures, then the frame line through the shared harness
    monkeypatch.setattr(tkbench, "run", lambda out: out("tokami: engine figures"))
    monkeypatch.setattr(tkview, "frame_times", lambda: groups)
    lines = []
    SPEC.bench(lines.append)
    assert lines[0] == "tokami: engine figures" and len(lines) == 2
    assert lines[1].startswith("tokami screen: frame time at 1280x800") and ", while dragging a stick: " in lines[1]
    assert "CPU median" in lines[1] and "p95" in lines[1] and "x the bare frame" in lines[1]


def test_hot_seat_players_name_their_seats_in_the_set_up_dialog(app):
    """A name typed for a human seat in the set-up dialog is kept with the match (its record's meta) and
    shown for that seat; Esc in the name box changes nothing."""
    from sim.app.launcher import LauncherScene
    from sim.app.setup_view import NameScene

    app.push(LauncherScene(app))
    dlg = app.push(SPEC.make_setup(app, SPEC))
    dlg.set_kind(1, "human")
    assert sorted(dlg.name_buttons) == [0, 1]

    def type_name(seat, text, enter=True):
        click(app, dlg.name_buttons[seat].rect.center)
        assert isinstance(app.top, NameScene)
        app.step([pygame.event.Event(pygame.TEXTINPUT, text=text)], STEP)
        app.step([key(pygame.K_RETURN if enter else pygame.K_ESCAPE)], STEP)
        assert app.top is dlg
    type_name(0, "Ann")
    type_name(1, "Bob")
    type_name(1, "Zed", enter=False)
    assert dlg.names[:2] == ["Ann", "Bob"] and dlg.name_buttons[1].label == "Bob"
    click(app, dlg.b_start.rect.center)
    scene = app.top
    assert isinstance(scene, TokamiScene) and [s.name for s in scene.match.seats[:2]] == ["Ann", "Bob"]
    assert scene.name(0) == "Ann" and scene.seat_name(1) == "Bob"
    from sim.core.record import from_record, to_record
    again = from_record(to_record(scene.match))
    assert [s.name for s in again.seats[:2]] == ["Ann", "Bob"] and "names" not in again.meta


def test_cached_stick_pictures_draw_exactly_what_drawing_in_place_draws(app):
    """A stick drawn from its cached picture (met in two frames in a row) gives the very pixels of
    drawing it in place: marks, the taboo hatching, hover, held, tension and wobble cues included, at
    fractional positions; a stick reaching off the left is drawn in place."""
    th = app.theme
    poses = dict(enumerate(model.cube_poses()))
    poses[40] = ("across", 2, -185.3, 60.7, 0.3)              # reaching off the left of the screen
    colours = {sid: model.COLOURS[sid % len(model.COLOURS)] for sid in poses}
    proj = draw.Projection(2.5, (452.37, 566.61))
    ids = sorted(poses)
    look = draw.Look(held=ids[3], taboo=ids[5], hover=ids[7], symbols=True,
                     tension={sid: 2.0 + sid * 0.4 for sid in ids}, wobble={sid: 1.0 + 3.0 * sid for sid in ids})

    def render(fresh: bool) -> bytes:
        if fresh:
            draw._SIDES.store.clear(), draw._FRONTS.store.clear()
            draw._SIDES.met.clear(), draw._FRONTS.met.clear()
        surf = pygame.Surface(app.LOGICAL_SIZE)
        surf.fill((30, 32, 40))
        draw.draw_sticks(surf, proj, poses, colours, th, look)
        return pygame.image.tobytes(surf, "RGB")

    in_place = render(True)
    render(False)                      # the second frame in a row makes the pictures
    assert draw._FRONTS.store and draw._SIDES.store
    assert render(False) == in_place  # drawn from them
