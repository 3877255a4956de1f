"""Tokami's physical world and the PHYSICS driver (games/tokami/world.py, games/tokami/driver.py).

Research/tokami.md §8 items 1-11 with its thresholds, in simulated time only; measured figures are
printed (run with ``-s`` to see them). Geometry oracles come from ``model`` and hand computation."""
from __future__ import annotations

import json
import math
import random
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

from games.tokami import driver, model
from games.tokami.driver import Attempt, AttemptOver, Playback, SettleRun, replay, run_plan, settle_action
from games.tokami.world import FAST_PULL, SETTINGS, TokamiWorld, outside_v

L, T = model.STICK_LENGTH, model.STICK_THICK
COLOURS = tuple(model.COLOURS[i % 4] for i in range(model.N_STICKS))


@pytest.fixture(scope="module")
def cube() -> dict:
    """The crisscross cube as the set-up settle leaves it (poses of a settled world)."""
    w = TokamiWorld(dict(enumerate(model.cube_poses())))
    r = w.settle()
    assert r.settled and not w.fallen
    return w.poses()


def state(phase: str, poses: dict, held: int | None = None, pending: dict | None = None) -> SimpleNamespace:
    """A hand-made rules state with just what the driver reads."""
    return SimpleNamespace(phase=phase, poses=dict(poses), held=held, pending=pending, colours=COLOURS)


def glide(w: TokamiWorld, to: tuple, angle: float, speed: float = 200.0) -> float:
    """Move the hand in a straight line to ``to`` at ``speed`` mm/s; returns the worst follow error."""
    x0, y0 = w.hand.target
    n = max(1, math.ceil(math.hypot(to[0] - x0, to[1] - y0) / speed * 240))
    worst = 0.0
    for i in range(1, n + 1):
        w.move_hand((x0 + (to[0] - x0) * i / n, y0 + (to[1] - y0) * i / n), angle)
        w.step()
        if w.held is not None:
            worst = max(worst, w.hand.follow_error()[0])
    return worst


def max_shift(a: dict, b: dict) -> float:
    return max(math.hypot(a[i][2] - b[i][2], a[i][3] - b[i][3]) for i in a)


# ------------------------------------------------------------------------------------ the world
def test_world_reports_the_poses_it_was_built_from_exactly():
    poses = dict(enumerate(model.cube_poses()))
    w = TokamiWorld(poses, COLOURS)
    assert w.poses() == poses
    assert w.ids() == list(range(36))
    assert w.colours[5] == COLOURS[5]
    assert w.highest_point(35) == model.highest_point(poses[35])
    assert w.info[0].kind == "across" and w.info[0].lane == 0 and w.info[6].kind == "along"


def test_world_refuses_bad_poses():
    with pytest.raises(ValueError):
        TokamiWorld({0: ("sideways", 0, 0.0, 50.0, 0.0)})
    with pytest.raises(ValueError):
        TokamiWorld({0: ("across", 6, 0.0, 50.0, 0.0)})
    with pytest.raises(ValueError):
        TokamiWorld({0: ("across", 0, math.nan, 50.0, 0.0)})
    with pytest.raises(ValueError):
        TokamiWorld({"0": ("along", -1, 0.0, 50.0, 0.0)})


def test_initial_pile_settles_within_two_seconds_with_nothing_fallen():      # §8 item 1
    w = TokamiWorld(dict(enumerate(model.cube_poses())))
    r = w.settle()
    print(f"\n[figure] fresh cube settled after {r.time:.3f} s of simulated time, fallen {w.fallen}")
    assert r.settled and r.time <= 2.0
    assert w.fallen == [] and len(w.ids()) == 36
    assert all(w.body(i).is_sleeping for i in w.ids())


def test_settled_pile_stays_still_for_ten_seconds_with_sleep(cube):         # §8 item 2
    w = TokamiWorld(cube)
    assert w.settle().settled
    w.step(120)
    before = w.poses()
    w.step(2400)
    drift = max_shift(before, w.poses())
    print(f"\n[figure] 10 s asleep: max drift {drift:.6f} mm")
    assert drift < 0.05
    assert all(w.body(i).is_sleeping for i in w.ids())


def test_solver_is_stable_without_sleep():                                  # §8 item 3
    w = TokamiWorld(dict(enumerate(model.cube_poses())), settings=replace(SETTINGS, sleep_time=math.inf))
    assert w.settle().settled
    before = w.poses()
    w.step(2400)
    after = w.poses()
    drift = max_shift(before, after)
    turn = max(abs(after[i][4] - before[i][4]) for i in before)
    print(f"\n[figure] 10 s without sleep: max drift {drift:.4f} mm, {math.degrees(turn):.4f}°")
    assert drift < 0.5
    assert w.fallen == []


def test_every_single_pull_out_from_the_fresh_cube_leaves_nothing_fallen(cube):   # §8 item 4
    worst = 0.0
    for sid in range(36):
        w = TokamiWorld(cube)
        w.extract(sid)
        r = w.settle()
        assert r.settled, sid
        assert w.fallen == [], (sid, w.fallen)
        assert sid not in w and len(w.ids()) == 35
        worst = max(worst, r.time)
    print(f"\n[figure] pull-out sweep: 36/36 with 0 fallen, worst settle {worst:.3f} s")


def test_a_stick_carried_past_the_right_wing_tip_falls_and_is_detected(cube):    # §8 item 5
    w = TokamiWorld(cube)
    sid = 35
    x, y, a = cube[sid][2:]
    w.grab(sid)
    glide(w, (x, y + 50.0), a)
    glide(w, (model.WING_TIP + 0.8 * L, y + 50.0), a)
    w.step(30)
    assert w.fallen == []
    w.release()
    t0 = w.time
    tumbling_seen = False
    while (sid not in w.fallen or sid not in w.table_touched) and w.time - t0 < 1.0:
        w.step()
        tumbling_seen |= sid in w.tumbling()
    print(f"\n[figure] carried off the right tip: fallen and on the table {w.time - t0:.3f} s after release")
    assert sid in w.fallen and sid in w.table_touched
    assert w.time - t0 < 1.0
    assert tumbling_seen                       # listed as fallen below the crossing, then it landed
    assert sid not in w and sid not in w.world
    w.settle()
    assert w.fallen == [sid]                  # no other stick fell


def test_hand_follows_closely_and_turns_clear_of_the_pile(cube):           # §8 item 7
    poses = dict(cube)
    del poses[35]
    w = TokamiWorld(poses)
    assert w.insert(35, ("across", 0, 0.0, 170.0, 0.0))         # far above the pile
    w.grab(35, (20.0, 170.0))                                   # off-centre: gravity pulls on it
    # moving at 200 mm/s the stick trails by about one step of travel (0.83 mm)
    worst = glide(w, (60.0, 190.0), 0.0, speed=200.0)
    w.step(60)
    still = w.hand.follow_error()[0]
    assert worst < 1.0
    assert still < 0.1
    target = 0.0
    for _ in range(6):
        target += math.radians(15)
        w.move_hand((60.0, 190.0), target)
        w.step(60)
    err = abs(w.body(35).angle - target)
    print(f"\n[figure] follow error moving at 200 mm/s: {worst:.3f} mm, held still {still:.4f} mm; "
          f"6 x 15° turn error {math.degrees(err):.4f}°")
    assert err < math.radians(1)
    assert w.fallen == []


def test_turning_into_the_pile_is_blocked_by_the_torque_cap(cube):         # §8 item 7
    w = TokamiWorld(cube)
    sid = 24                                   # top across layer, under the along-sticks, on the left wing
    a0 = cube[sid][4]
    w.grab(sid)
    w.move_hand(cube[sid][2:4], a0 - math.radians(45))
    w.step(240)
    short = abs(w.body(sid).angle - (a0 - math.radians(45)))
    print(f"\n[figure] turning 45° into the pile: {math.degrees(short):.1f}° short")
    assert short > math.radians(10)
    w.release()
    w.settle()
    assert w.fallen == []


def test_no_tunnelling_from_800_mm():                                        # §8 item 9
    w = TokamiWorld({0: ("across", 0, 0.0, 800.0, 0.3), 1: ("along", -1, 300.0, 800.0, 0.0)})
    body1 = w.body(1)
    w.settle()
    assert 0 in w and w.pose(0)[3] > 0.0        # caught by the V, not through the boards
    assert model.lowest_point(w.pose(0)) > 0.0
    assert w.fallen == [1] and w.table_touched == [1]
    # it was taken off at its first touch of the table: its centre was above the table, not below
    assert body1.position.y > model.TABLE_Y + model.TABLE_RADIUS


def test_determinism_two_fresh_runs_are_bit_equal():                        # §8 item 8
    def run() -> dict:
        w = TokamiWorld(dict(enumerate(model.cube_poses())))
        w.settle()
        x, y, a = w.pose(24)[2:]
        w.grab(24)
        glide(w, (x, y + 30.0), a)
        w.release()
        w.settle()
        return w.poses()
    assert run() == run()


def test_determinism_two_restores_of_one_snapshot_are_bit_equal(cube):      # §8 item 8
    live = TokamiWorld(cube, COLOURS)
    live.extract(12)
    live.step(20)                              # the pile is moving
    snap = live.snapshot()
    outs = []
    for _ in range(2):
        w = TokamiWorld.restore(snap)
        assert w.poses() == snap.poses and w.colours == snap.colours
        w.grab(24)
        w.move_hand((w.pose(24)[2], w.pose(24)[3] + 20.0), w.pose(24)[4])
        w.step(120)
        w.release()
        w.settle()
        outs.append((w.poses(), w.fallen, w.world.snapshot()))
    assert outs[0] == outs[1]


def test_soak_random_turns(cube):                                           # §8 item 10
    """5 seeds x 60 turns: a random stick slides out and is put back at a random higher pose, the pile
    settles (a round restarts from the cube when 4 sticks remain)."""
    figures = []
    t0 = time.process_time()
    for seed in range(5):
        rng = random.Random(seed)
        poses = dict(cube)
        falls, worst, fastest = 0, 0.0, 0.0
        for _turn in range(60):
            if len(poses) <= model.ROUND_END_STICKS:
                poses = dict(cube)
            w = TokamiWorld(poses)
            speeds = []
            w.world.after_step(lambda w=w, s=speeds: s.append(w.max_speed()))
            sid = rng.choice(sorted(poses))
            top = max(model.highest_point(p) for p in poses.values())
            w.extract(sid)
            for _try in range(30):
                kind = rng.choice(("across", "along"))
                pose = (kind, rng.randrange(model.LANES) if kind == "across" else -1, rng.uniform(-30.0, 30.0),
                        top + rng.uniform(8.0, 30.0), rng.uniform(-math.pi, math.pi))
                if w.insert(sid, pose):
                    break
            r = w.settle()
            assert r.settled and r.time < 10.0
            poses = w.poses()
            for p in poses.values():
                assert all(math.isfinite(v) for v in p[2:])
                assert not model.fallen_by_pose(p)
            fastest = max(fastest, max(speeds))
            assert fastest < 5000.0
            falls += len(w.fallen)
            worst = max(worst, r.time)
        figures.append((seed, falls, worst, fastest))
    cpu = time.process_time() - t0
    print("\n[figure] soak (seed, sticks fallen, worst settle s, top speed mm/s): "
          + "; ".join(f"{s} {f} {w:.2f} {v:.0f}" for s, f, w, v in figures) + f"; {cpu:.1f} s CPU")


def test_step_cost_smoke():                                                 # §8 item 11
    w = TokamiWorld(dict(enumerate(model.cube_poses())), settings=replace(SETTINGS, sleep_time=math.inf))
    t0 = time.perf_counter()
    w.step(2400)
    dt = time.perf_counter() - t0
    print(f"\n[figure] 2400 awake steps of 36 sticks: {dt:.2f} s wall, {dt / 2400 * 1e6:.0f} µs/step")
    assert len(w.world.awake) == 36            # really awake all along


# --------------------------------------------------------------------------- queries and edits
def test_insert_respects_lanes_and_refuses_overlaps():
    w = TokamiWorld({0: ("across", 2, 0.0, 60.0, 0.0)})
    before = w.poses()
    assert not w.insert(1, ("across", 2, 10.0, 65.0, 0.1))       # same lane, overlapping
    assert not w.insert(1, ("along", -1, 0.0, 60.0, 0.0))        # along-sticks meet every lane
    assert not w.insert(1, ("along", -1, 0.0, 3.0, 0.0))         # into the board at the crossing
    assert w.poses() == before and 1 not in w
    assert w.insert(1, ("across", 3, 0.0, 60.0, 0.0))            # the next lane is free
    assert w.insert(2, ("along", -1, 0.0, 60.0 + T - 0.05, 0.0))  # touching from above is fine
    with pytest.raises(ValueError):
        w.insert(1, ("across", 4, 0.0, 200.0, 0.0))              # already on the X
    with pytest.raises(ValueError):
        w.insert(3, ("across", 9, 0.0, 200.0, 0.0))


def test_stick_at_looks_into_one_lane_or_the_front_first(cube):
    w = TokamiWorld(cube)
    x, y = cube[26][2:4]                      # across layer 24..29 lanes 0..5 share one outline
    assert w.stick_at((x, y), 2) == 26
    assert w.stick_at((x, y), 5) == 29
    assert w.stick_at((x, y)) == 24
    ax, ay = cube[33][2:4]
    assert w.stick_at((ax, ay), 4) == 33       # along-sticks are in every lane
    assert w.stick_at((0.0, 300.0)) is None
    assert w.stick_at((0.0, 0.0)) is None      # the board is not a stick
    with pytest.raises(ValueError):
        w.stick_at((x, y), 6)


def test_loads_in_the_fresh_cube(cube):
    w = TokamiWorld(cube)
    w.settle()
    loads = w.loads()
    lo, hi = min(loads.values()), max(loads.values())
    print(f"\n[figure] loads in the fresh cube: {lo:.2f} to {hi:.2f} stick weights")
    # every stick's contacts at least carry its own weight (|sum| <= sum of |impulses|)
    assert lo >= 0.99
    assert hi > 5.0                            # the bottom of a 6-layer pile carries several sticks
    assert loads[0] > loads[35]                # bottom across-stick vs a top along-stick


def test_impact_of_a_stick_dropped_into_the_v():
    drop = 40.0
    rest = model.BOARD_HALF * math.sqrt(2) + T / 2 * math.sqrt(2)   # square corner-down in the V
    w = TokamiWorld({0: ("along", -1, 0.0, rest + drop, math.pi / 4)})
    peak = 0.0
    for _ in range(60):
        w.step()
        peak = max(peak, w.impact)
    v = math.sqrt(2 * model.GRAVITY * drop)
    expect = model.STICK_MASS * v * math.cos(math.pi / 4)  # both faces meet a wing at 45°
    print(f"\n[figure] impact of a 40 mm drop: {peak:.0f} g·mm/s (free-fall estimate {expect:.0f})")
    assert peak == pytest.approx(expect, rel=0.15)
    w.step(60)
    assert w.impact == 0.0


def test_outside_v_geometry():
    assert outside_v(("across", 0, 0.0, model.WING_TIP + T / 2 + 0.1, 0.0))
    assert not outside_v(("across", 0, 0.0, model.WING_TIP + T / 2 - 1.0, 0.0))
    assert outside_v(("along", -1, 120.0, 20.0, 0.0))           # beyond the right wing
    assert outside_v(("along", -1, -120.0, 20.0, 0.0))          # beyond the left wing
    assert not outside_v(("along", -1, 0.0, 40.0, 0.0))


def test_which_sticks_can_leave_the_plane(cube):
    w = TokamiWorld(cube)
    assert w.can_leave_plane(30)               # along-sticks slide along the trough
    assert w.can_leave_plane(12)               # front lane: nothing in front of it
    assert w.can_leave_plane(17)               # back lane
    assert not w.can_leave_plane(14)           # middle lane, touching: lanes on both sides block
    w2 = TokamiWorld({0: ("across", 2, 0.0, 60.0, 0.0), 1: ("across", 3, 0.0, 120.0, 0.0)})
    assert w2.can_leave_plane(0) and w2.can_leave_plane(1)      # touching nothing


def test_extract_drags_only_what_the_stick_supported_and_a_fast_pull_harder(cube):
    # across-stick 24 (slab 4) lies on along-sticks of slab 3 (18..23) and carries slab 5 (30..35)
    w = TokamiWorld(cube)
    touching = w.touching(24)
    carried = touching & set(range(30, 36))
    assert carried and touching & set(range(18, 24))
    w.extract(24)                                # a careful pull
    assert 24 not in w
    slow = {}
    for i in w.ids():
        vx, vy = w.body(i).velocity
        if i in carried:                         # dragged down and into the gap
            assert vy < 0.0
            slow[i] = math.hypot(vx, vy)
        else:
            assert (vx, vy) == (0.0, 0.0)
    assert not any(w.body(i).is_sleeping for i in w.ids())
    fast = TokamiWorld(cube)
    fast.extract(24, FAST_PULL)
    for i in carried:
        assert math.hypot(*fast.body(i).velocity) > 3.0 * slow[i]


# --------------------------------------------------------------------------------------- driver
def test_settle_action_for_the_set_up():
    st = state("settle", {}, pending={"why": "setup", "remove": []})
    act = settle_action(st)
    assert act["t"] == "settled" and act["fallen"] == []
    assert sorted(act["poses"], key=int) == [str(i) for i in range(36)]
    cube0 = model.cube_poses()
    for k, p in act["poses"].items():
        pose = model.pose_from_json(p)
        assert pose[:2] == cube0[int(k)][:2]
        assert math.hypot(pose[2] - cube0[int(k)][2], pose[3] - cube0[int(k)][3]) < 3.0


def test_settle_action_removes_pending_sticks_and_stepwise_agrees(cube):
    st = state("settle", cube, pending={"why": "remove", "remove": [30, 12]})
    act = settle_action(st)
    assert set(act["poses"]) == {str(i) for i in range(36)} - {"30", "12"}
    assert act["fallen"] == []
    run = SettleRun(st)
    while not run.done:
        run.step()
    assert json.dumps(run.finish()) == json.dumps(act)
    with pytest.raises(ValueError):
        settle_action(state("turn", cube))


def test_a_raise_laid_on_top_is_higher_and_replays_bit_identically(cube):   # §8 item 6
    # lifted out (front lane: nothing in front holds it), laid level on the top of the cube, let go;
    # a stick merely lifted in the plane and let go drops back (tests/test_tokami_release.py)
    sid = 24
    st = state("raise", cube, held=sid)
    top = max(model.highest_point(p) for p in cube.values())
    plan = [["grab"], ["lift", "across", 0], ["center", 0.0, top + 12.0, 0.0], ["drop"], ["wait", 0.25],
            ["release"]]
    act = run_plan(st, plan)
    assert act["t"] == "raised" and act["placed"] is True and act["fallen"] == []
    hp_before = model.highest_point(cube[sid])
    hp_after = model.highest_point(model.pose_from_json(act["poses"][str(sid)]))
    print(f"\n[figure] lift 40 mm: highest point {hp_before:.1f} -> {hp_after:.1f} mm")
    assert hp_after > hp_before + model.RAISE_MARGIN
    assert json.dumps(run_plan(st, plan)) == json.dumps(act)
    assert json.dumps(replay(st, json.loads(json.dumps(act["hand"]))).action) == json.dumps(act)


def test_a_live_attempt_shown_settling_replays_step_by_step(cube):
    """The screen's way: inputs per frame, the pile shown settling after the release, then finish; a
    slow-motion playback of the recorded track gives the same action."""
    sid = 24
    st = state("raise", cube, held=sid)
    x, y, a = cube[sid][2:]
    att = Attempt(st)
    att.grab((x + 10.0, y - 10.0))
    for i in range(1, 41):                    # 40 frames of 4 steps, the mouse going up
        att.move((x + 10.0, y - 10.0 + i), a)
        att.step(4)
    att.release()
    shown = 0
    while not att.world.is_settled():
        att.step()
        shown += 1
    act = att.finish()
    assert shown > 0 and act["placed"] and act["hand"][-1] == [att.steps, "finish"]
    with pytest.raises(AttemptOver):
        att.grab()
    pb = Playback(st, act["hand"])
    n = 0
    while not pb.done:
        pb.step()
        n += 1
    assert json.dumps(pb.attempt.action) == json.dumps(act)
    assert n >= att.steps


def test_a_stick_put_back_lower_is_not_higher(cube):                        # §8 item 6
    sid = 35                                   # top along-stick
    st = state("raise", cube, held=sid)
    u, v = 92.0, model.BOARD_HALF + T / 2 + 0.5   # on the right wing, beside the cube
    s = math.sqrt(0.5)
    pose = ("along", -1, (u - v) * s, (u + v) * s, math.pi / 4)
    act = run_plan(st, driver.place_plan(st, pose))
    assert act["placed"] is True and act["fallen"] == []
    hp_after = model.highest_point(model.pose_from_json(act["poses"][str(sid)]))
    assert hp_after <= model.highest_point(cube[sid]) + model.RAISE_MARGIN


def test_ghost_can_change_kind_and_lane_and_drops_only_where_free(cube):
    st = state("raise", cube, held=35)
    att = Attempt(st)
    att.grab()
    att.lift_out("across", 4)
    assert att.ghost[:2] == ("across", 4) and 35 not in att.world
    att.set_ghost("along")
    assert att.ghost[:2] == ("along", -1)
    x, y = cube[30][2:4]
    att.move((x, y), cube[30][4])              # onto along-stick 30: occupied
    assert att.drop() is False and att.ghost is not None
    att.set_ghost("across", 1)
    att.move((0.0, 140.0), 0.0)
    assert att.drop() is True and att.ghost is None and att.world.held == 35
    assert att.world.pose(35)[:2] == ("across", 1)
    att.step(24)
    act = att.finish()
    assert act["placed"] is True and "35" in act["poses"]
    assert model.pose_from_json(act["poses"]["35"])[:2] == ("across", 1)
    assert json.dumps(replay(st, act["hand"]).action) == json.dumps(act)


def test_released_ghost_is_not_placed(cube):
    st = state("raise", cube, held=33)
    att = Attempt(st)
    att.grab()
    att.lift_out()
    att.release()
    act = att.finish()
    assert act["placed"] is False and "33" not in act["poses"] and act["fallen"] == []


def test_a_wedged_across_stick_cannot_leave_the_plane(cube):
    att = Attempt(state("raise", cube, held=14))
    att.grab()
    assert not att.can_lift()
    with pytest.raises(ValueError):
        att.lift_out()


def test_the_attempt_stops_at_the_first_fall(cube):
    sid = 35
    st = state("raise", cube, held=sid)
    x, y, a = cube[sid][2:]
    plan = [["grab"], ["center", x, y + 50.0, a], ["center", 120.0, y + 50.0, a],
            ["center", 120.0, -20.0, a],                   # below the crossing while held: a fall
            ["center", 0.0, 150.0, a], ["release"]]
    att = Attempt(st)
    act = att.run(plan)
    assert att.stopped == "fall"
    assert act["fallen"] == [sid] and act["placed"] is False and str(sid) not in act["poses"]
    ops = [e[1] for e in act["hand"]]
    assert ops[-1] == "finish"
    with pytest.raises(AttemptOver):
        att.grab()
    att.move((0.0, 0.0), 0.0)                              # an empty hand's moves are no-ops


def test_draw_an_along_stick_by_sliding_it_out(cube):
    st = state("draw", cube, held=30)
    act = run_plan(st, [["grab"], ["lift"]])
    assert act["t"] == "drawn" and act["taken"] is True and act["fallen"] == []
    assert "30" not in act["poses"] and len(act["poses"]) == 35


def test_draw_an_across_stick_by_dragging_it_out_of_the_v(cube):
    poses = {i: p for i, p in cube.items() if i < 30}      # the top along layer already gone
    sid = 24
    x, y, a = poses[sid][2:]
    st = state("draw", poses, held=sid)
    att = Attempt(st)
    with pytest.raises(ValueError):
        att.lift_out()                                     # across-sticks are dragged in the plane
    act = att.run([["grab"], ["center", x, y + 70.0, a], ["release"]])
    assert att.stopped == "taken" and act["taken"] is True
    assert str(sid) not in act["poses"] and act["fallen"] == []
    st2 = state("draw", poses, held=sid)
    act2 = run_plan(st2, [["grab"], ["center", x, y + 5.0, a], ["release"]])
    assert act2["taken"] is False and str(sid) in act2["poses"]


def test_touch_move_displacement_and_bad_inputs(cube):
    st = state("turn", cube)
    with pytest.raises(ValueError):
        Attempt(st)                                        # before the take: name the stick
    with pytest.raises(ValueError):
        Attempt(state("settle", cube, pending={"why": "remove", "remove": []}))
    with pytest.raises(ValueError):
        Attempt(state("raise", cube, held=3), stick=4)
    att = Attempt(st, stick=31)
    assert att.kind == "raise" and att.displacement() == 0.0
    with pytest.raises(ValueError):
        att.grab((0.0, 300.0))                             # not on the stick
    att.grab()
    x, y = cube[31][2:4]
    att.move((x, y + 1.0))
    att.step(10)
    assert att.displacement() < driver.TOUCH_MM
    att.move((x, y + 8.0))
    att.step(30)
    assert att.displacement() > driver.TOUCH_MM
    with pytest.raises(ValueError):
        att.move((math.inf, 0.0))
    with pytest.raises(ValueError):
        run_plan(state("raise", cube, held=31), [["jump"]])
    with pytest.raises(ValueError):
        run_plan(state("raise", cube, held=31), [["center", 1.0, 2.0]])
    with pytest.raises(ValueError):
        replay(state("raise", cube, held=31), [["grab"]])
    with pytest.raises(ValueError):
        replay(state("raise", cube, held=31), [[5, "grab"], [2, "release"]])
    with pytest.raises(ValueError):
        replay(state("raise", cube, held=31), [[0, "teleport"]])


def test_overlong_hand_track_is_left_out(cube, monkeypatch):
    monkeypatch.setattr(driver, "HAND_LIMIT", 3)
    st = state("raise", cube, held=31)
    x, y, a = cube[31][2:]
    act = run_plan(st, [["grab"], ["center", x, y + 20.0, a], ["release"]])
    assert "hand" not in act and act["placed"] is True


def test_driver_actions_are_accepted_by_the_rules():
    rules_mod = pytest.importorskip("games.tokami.rules", reason="games/tokami/rules.py not written yet")
    from sim.core.match import Match
    from sim.core.rules import PHYSICS

    assert driver.HAND_LIMIT == rules_mod.HAND_LIMIT
    m = Match(rules_mod.TokamiRules(), {"players": 2, "seats": ["human", "human"]}, seed=5)
    assert m.state.phase == "settle"
    m.submit(PHYSICS, settle_action(m.state))
    s = m.state
    assert s.phase == "turn" and len(s.poses) == 36
    m.submit(s.player, {"t": "take", "stick": 24})
    s = m.state
    top = max(model.highest_point(p) for p in s.poses.values())
    m.submit(PHYSICS, run_plan(s, [["grab"], ["lift", "across", 0], ["center", 0.0, top + 12.0, 0.0], ["drop"],
                                   ["wait", 0.25], ["release"]]))
    s = m.state
    assert s.phase == "winning" and s.current["raised"] is True
    m.submit(s.player, {"t": "draw", "stick": 33})
    m.submit(PHYSICS, run_plan(m.state, [["grab"], ["lift"]]))
    s = m.state
    assert s.phase == "turn" and s.last_turn["winning"] == 33
    # a raise that is not higher (the stick is only touched): the rules ask to slide it off
    m.submit(s.player, {"t": "take", "stick": 35})
    s = m.state
    m.submit(PHYSICS, run_plan(s, [["grab"], ["wait", 0.1], ["release"]]))
    s = m.state
    assert s.phase == "settle" and s.pending == {"why": "remove", "remove": [35]}
    m.submit(PHYSICS, settle_action(s))
    assert m.state.phase == "turn" and 35 not in m.state.poses
    assert not m.rules.invariants(m.state)


def test_the_scan_of_awake_sticks_matches_reading_every_body(cube):
    """``World._scan`` stops at the first sleeping body (the space lists awake bodies first): through a
    settle, a pull and the pile coming to rest again it lists exactly the awake sticks, in order."""
    w = TokamiWorld(cube)
    sid = max(cube, key=lambda i: model.highest_point(cube[i]))
    seen_asleep = seen_mixed = False

    def check():
        nonlocal seen_asleep, seen_mixed
        full = [(k, float(b.position.x), float(b.position.y)) for k, b in w.world.items() if not b.is_sleeping]
        assert [(k, x, y) for k, x, y, _v in w.world.awake] == full
        seen_asleep |= not full
        seen_mixed |= 0 < len(full) < len(w.world)

    for _ in range(400):
        w.step()
        check()
    x, y = w.pose(sid)[2:4]
    w.hand.grab(sid, (x, y))
    for k in range(240):
        w.hand.move_to((x + 0.1 * k, y + 0.2 * k))
        w.step()
        check()
    w.hand.release()
    for _ in range(600):
        w.step()
        check()
    assert seen_asleep and seen_mixed


def test_loads_read_in_one_batch_equal_the_loads_of_each_sticks_contacts(cube):
    """``loads_of`` (the space's contacts in one call, sleeping sticks remembered) reads what ``loads``
    reads stick by stick, through a settle, a pull that wakes the pile and its coming to rest again."""
    w = TokamiWorld(cube)
    sid = max(cube, key=lambda i: model.highest_point(cube[i]))
    kinds = set()

    def check():
        ref = w.loads()
        got = w.loads_of(w.ids())
        assert set(got) == set(ref)
        for k, v in ref.items():
            assert got[k] == pytest.approx(v, rel=1e-9, abs=1e-12)
            kinds.add((w.body(k).is_sleeping, v > 1.0))

    for _ in range(200):
        w.step()
        check()
    x, y = w.pose(sid)[2:4]
    w.hand.grab(sid, (x, y))
    for k in range(200):
        w.hand.move_to((x + 0.1 * k, y + 0.2 * k))
        w.step()
        check()
    w.hand.release()
    for _ in range(400):
        w.step()
        check()
    assert kinds >= {(True, True), (False, True)}      # loaded sticks read asleep and awake
