"""A stick let go in the air is judged only after it has come to rest (issue "Tokami", the release
bug): at the world, the driver and the screen level.

The reproduction: settle the cube, grab a stick, move the hand 40 mm left and 80 mm up over 1 s, hold
still 2 s (the rest of the pile is asleep, the held stick is not counted), let go. Before the fix
``is_settled()`` stayed True and the stick's pose in the air was recorded.
"""
from __future__ import annotations

import math

from games.tokami import draw, driver, model
from games.tokami.rules import TokamiRules
from games.tokami.world import TokamiWorld
from sim.core.match import Match
from sim.core.rules import PHYSICS
from events import down, motion, up

STEP = 1 / 60
HELD = (1, 0, 0)


def at_rest(poses: dict, colours=None, seconds: float = 1.0) -> float:
    """Largest centre shift (mm) of any stick when a world is built from ``poses`` and stepped on for
    ``seconds`` s: near 0 for a pile at rest, tens of mm for a stick left in the air."""
    w = TokamiWorld(poses, colours)
    w.step(round(seconds * 240))
    worst = 0.0
    for sid, p in poses.items():
        if sid in w:
            q = w.pose(sid)
            worst = max(worst, math.hypot(q[2] - p[2], q[3] - p[3]))
        else:
            worst = math.inf
    return worst


def lifted_and_held(w: TokamiWorld, sid: int) -> tuple[float, float]:
    """The reproduction's hand path on ``w`` (80 mm up, 40 mm sideways towards the middle of the V, so it
    stays over the pile); returns the hand's last point (mm)."""
    x, y = w.body(sid).position
    dx = -40.0 if x > 0 else 40.0
    w.grab(sid)
    n = 240
    for i in range(1, n + 1):
        w.move_hand((x + dx * i / n, y + 80.0 * i / n))
        w.step()
    w.step(480)
    return x + dx, y + 80.0


# ----------------------------------------------------------------------------------- world
def test_world_release_in_the_air_is_not_settled_until_the_stick_has_landed():
    w = TokamiWorld(dict(enumerate(model.cube_poses())))
    assert w.settle().settled
    _hx, hy = lifted_and_held(w, 0)
    assert w.is_settled()                       # the held stick is not counted while held
    y_air = w.pose(0)[3]
    assert abs(y_air - hy) < 2.0
    w.release()
    assert not w.is_settled()
    res = w.settle()
    assert res.settled and res.steps > 24      # it had to fall before it could settle
    y_rest = w.pose(0)[3]
    assert y_rest < y_air - 10.0               # it came down onto the pile
    assert 0 not in w.fallen
    assert at_rest(w.poses()) < 0.5


def test_world_grab_makes_the_world_unsettled_too():
    w = TokamiWorld(dict(enumerate(model.cube_poses())))
    w.settle()
    assert w.is_settled()
    w.grab(30)
    assert not w.is_settled()


# ---------------------------------------------------------------------------------- driver
def settled_match(seed=1) -> Match:
    m = Match(TokamiRules(), {"players": 2, "seats": ["human", "human"]}, seed)
    m.submit(PHYSICS, driver.settle_action(m.state))
    return m


def test_driver_attempt_released_in_the_air_records_the_pose_at_rest():
    m = settled_match()
    sid = max(m.state.poses, key=lambda i: model.highest_point(m.state.poses[i]))
    m.submit(0, {"t": "take", "stick": sid})
    st = m.state
    att = driver.Attempt(st)
    att.grab()
    x, y = att.world.body(sid).position
    for i in range(1, 241):
        att.move((x - 40.0 * i / 240, y + 80.0 * i / 240))
        att.step()
    att.step(480)
    y_air = att.world.pose(sid)[3]
    action = att.finish()
    assert att.settle_result.settled and att.settle_result.steps > 24
    poses = {int(k): model.pose_from_json(v) for k, v in action["poses"].items()}
    assert poses[sid][3] < y_air - 10.0
    assert at_rest(poses, st.colours) < 0.5


# ---------------------------------------------------------------------------------- screen
def test_screen_stick_let_go_in_the_air_is_judged_after_it_lands(app):
    from games.tokami import SPEC
    m = settled_match(seed=1)
    app.audio.play = lambda name: None
    app.audio.knock = lambda v: None
    scene = app.start_match(SPEC, m, autosave=False)
    app.step([], STEP)
    st0 = m.state
    sid = max((i for i, p in st0.poses.items() if p[0] == "along"),
              key=lambda i: model.highest_point(st0.poses[i]))
    pose0 = st0.poses[sid]
    depth = draw.depth_range(pose0)[0]
    p = scene.proj.to_screen(pose0[2], pose0[3], depth)
    app.step([motion(p), down(p)], STEP)
    assert scene.att is not None and scene.att.stick == sid
    x, y = pose0[2], pose0[3]
    for i in range(1, 61):                      # 1 s: 40 mm left, 80 mm up
        q = scene.proj.to_screen(x - 40.0 * i / 60, y + 80.0 * i / 60, depth)
        app.step([motion(q, buttons=HELD)], STEP)
    for _ in range(120):                        # held still 2 s
        app.step([motion(q, buttons=HELD)], STEP)
    y_air = scene.att.world.pose(sid)[3]
    app.step([up(q)], STEP)
    for _ in range(900):
        if m.state.phase != "raise":
            break
        app.step([], STEP)
    raised = [e["a"] for e in m.log if e["p"] == PHYSICS][-1]
    assert raised["t"] == "raised"
    poses = {int(k): model.pose_from_json(v) for k, v in raised["poses"].items()}
    assert sid in poses and poses[sid][3] < y_air - 10.0
    assert at_rest(poses, st0.colours) < 0.5
