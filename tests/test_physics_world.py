"""The game-independent physics core (sim/physics/world.py): settle detection, velocity cap, lane
filters, canonical snapshots, the capped-force hand. Small hand-built scenes with values computed
independently (free fall, geometry), simulated time only."""
from __future__ import annotations

import math

import pymunk
import pytest

from sim.physics import (
    CAT_ALL_LANES, CAT_FRAME, CAT_TABLE, HandSettings, Settings, World, all_lanes_filter, frame_filter,
    lane_category, lane_filter, lane_query_filter,
)

G = 9810.0
BOX = (40.0, 10.0)
MASS = 6.0


def floor_world(settings: Settings = Settings(), hand: HandSettings | None = None, floor_r: float = 10.0) -> World:
    """A world with a thick floor whose top surface is y = 0."""
    w = World(settings, hand=hand)
    seg = pymunk.Segment(w.space.static_body, (-1000, -floor_r), (1000, -floor_r), floor_r)
    seg.friction = 0.6
    seg.filter = frame_filter()
    w.add_static(seg)
    return w


def add_box(w: World, key, x: float, y: float, a: float = 0.0, filt=None, size=BOX) -> pymunk.Body:
    b = pymunk.Body(MASS, pymunk.moment_for_box(MASS, size))
    b.position = (x, y)
    b.angle = a
    s = pymunk.Poly.create_box(b, (size[0] - 1, size[1] - 1), radius=0.5)
    s.friction = 0.6
    s.filter = filt if filt is not None else all_lanes_filter()
    return w.add_body(key, b, s)


def hand_settings() -> HandSettings:
    return HandSettings.for_body(MASS, BOX[0], G)


# ------------------------------------------------------------------------------------- settings
def test_settings_refuse_nonsense():
    with pytest.raises(ValueError):
        Settings(dt=0.0)
    with pytest.raises(ValueError):
        Settings(iterations=0)
    with pytest.raises(ValueError):
        Settings(max_speed=-1.0)
    with pytest.raises(ValueError):
        Settings(settle_speed=0.0)


def test_world_applies_settings_to_the_space():
    s = Settings(iterations=17, damping=0.8, sleep_time=0.25, idle_speed=3.0, collision_slop=0.05)
    w = World(s)
    assert w.space.iterations == 17
    assert w.space.damping == 0.8
    assert w.space.sleep_time_threshold == 0.25
    assert w.space.idle_speed_threshold == 3.0      # explicit, not pymunk's |g|·dt default
    assert w.space.collision_slop == 0.05
    assert tuple(w.space.gravity) == (0.0, -9810.0)


def test_hand_caps_follow_the_research_formula():
    h = HandSettings.for_body(6.0, 72.0, 9810.0)
    assert h.max_force == pytest.approx(30 * 6 * 9810)          # ≈ 1.77e6
    assert h.max_torque == pytest.approx(5 * 6 * 9810 * 72)     # ≈ 2.1e7
    assert h.max_turn_speed == 4.0


# ---------------------------------------------------------------------------------- lane filters
def test_lane_categories():
    assert lane_category(0) == 1 << 3
    assert lane_category(5) == 1 << 8
    assert len({lane_category(k) for k in range(6)} | {CAT_FRAME, CAT_ALL_LANES, CAT_TABLE}) == 9
    for bad in (-1, 29, True, 1.0, "0"):
        with pytest.raises(ValueError):
            lane_category(bad)


def _rest_height(top_filter, bottom_filter) -> float:
    """Where a box dropped onto another box comes to rest (mm), given their filters."""
    w = floor_world()
    add_box(w, "low", 0.0, 5.0, filt=bottom_filter)
    top = add_box(w, "high", 0.0, 40.0, filt=top_filter)
    w.settle(3.0)
    return top.position.y


def test_lanes_pass_through_each_other_but_meet_all_lane_bodies():
    # resting on the lower box: centre at 10 + 5; passing through it: centre at 5 (on the floor)
    assert _rest_height(lane_filter(1), lane_filter(0)) == pytest.approx(5.0, abs=0.3)
    assert _rest_height(lane_filter(0), lane_filter(0)) == pytest.approx(15.0, abs=0.3)
    assert _rest_height(lane_filter(3), all_lanes_filter()) == pytest.approx(15.0, abs=0.3)
    assert _rest_height(all_lanes_filter(), lane_filter(4)) == pytest.approx(15.0, abs=0.3)


def test_lane_query_filter_sees_its_lane_and_all_lane_bodies_only():
    w = floor_world()
    add_box(w, "lane0", 0.0, 5.0, filt=lane_filter(0))
    add_box(w, "lane2", 100.0, 5.0, filt=lane_filter(2))
    add_box(w, "all", 200.0, 5.0)

    def seen(x, lane):
        return [h.shape.body for h in w.space.point_query((x, 5.0), 0.0, lane_query_filter(lane))]

    assert seen(0.0, 0) == [w.body("lane0")]
    assert seen(0.0, 2) == []
    assert seen(100.0, 2) == [w.body("lane2")]
    assert seen(200.0, 4) == [w.body("all")]
    assert seen(0.0, None) == [w.body("lane0")]
    assert w.space.point_query((0.0, -5.0), 0.0, lane_query_filter(None)) == []   # never the floor


# ---------------------------------------------------------------------------------------- bodies
def test_keys_are_unique_and_only_dynamic_bodies_are_keyed():
    w = floor_world()
    add_box(w, 1, 0.0, 50.0)
    with pytest.raises(ValueError):
        add_box(w, 1, 100.0, 50.0)
    k = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    with pytest.raises(ValueError):
        w.add_body(2, k)
    with pytest.raises(KeyError):
        w.remove_body(99)
    assert w.keys() == [1] and 1 in w and len(w) == 1


def test_hooks_run_around_every_step():
    w = World()
    seen = []
    w.before_step(lambda: seen.append(("before", w.steps)))
    w.after_step(lambda: seen.append(("after", w.steps)))
    w.step(2)
    assert seen == [("before", 0), ("after", 1), ("before", 1), ("after", 2)]
    assert w.time == pytest.approx(2 / 240)


# --------------------------------------------------------------------------------------- settling
def test_a_dropped_box_settles_after_its_fall_and_the_hold_time():
    h = 50.0
    w = floor_world()
    box = add_box(w, "b", 0.0, BOX[1] / 2 + h)
    assert not w.is_settled()                       # nothing is known before a step
    r = w.settle()
    fall = math.sqrt(2 * h / G)                     # 0.101 s of free fall
    assert r.settled
    assert r.time >= fall + w.settings.settle_hold - w.settings.dt   # a step of discretisation
    assert r.time < 2.0
    assert r.steps * w.settings.dt == pytest.approx(r.time)
    assert box.position.y == pytest.approx(BOX[1] / 2, abs=0.15)   # resting on the floor (slop 0.1)
    assert w.is_settled()


def test_incremental_settle_agrees_with_settle():
    a, b = floor_world(), floor_world()
    add_box(a, "b", 10.0, 70.0, 0.3)
    add_box(b, "b", 10.0, 70.0, 0.3)
    r = a.settle()
    n = 0
    while not b.is_settled():
        b.step()
        n += 1
    assert n == r.steps
    assert tuple(a.body("b").position) == tuple(b.body("b").position)


def test_settle_without_sleep_uses_the_speed_rule():
    w = floor_world(Settings(sleep_time=math.inf))
    box = add_box(w, "b", 0.0, 30.0)
    r = w.settle()
    assert r.settled and not box.is_sleeping
    assert w.last_speed < w.settings.settle_speed


def test_settle_gives_up_at_max_time():
    w = World()                                      # no floor: the box falls for ever
    add_box(w, "b", 0.0, 0.0)
    r = w.settle(max_time=0.5)
    assert not r.settled
    assert r.steps == 120 and r.time == pytest.approx(0.5)


def test_a_held_or_unwatched_body_does_not_keep_the_world_unsettled():
    w = floor_world(hand=hand_settings())
    add_box(w, "rest", 0.0, 5.0)
    add_box(w, "held", 200.0, 100.0)
    w.hand.grab("held", (200.0, 100.0))
    w.hand.move_to((200.0, 100.0), 0.0)
    assert w.settle(2.0).settled
    w.hand.release()
    add_box(w, "faller", 400.0, 500.0)
    w.set_watched("faller", False)
    w.step()
    assert not w.is_settled()                         # the released box now falls
    w.set_watched("held", False)
    w.step()
    assert w.is_settled()


# ------------------------------------------------------------------------------------ speed cap
def test_velocity_cap_after_each_step_and_in_the_solver():
    for settings in (Settings(), Settings(cap_in_solver=True)):
        w = World(settings)
        b = add_box(w, "b", 0.0, 0.0)
        top = 0.0
        for _ in range(240):                         # 1 s of free fall would reach ~9300 mm/s
            w.step()
            top = max(top, b.velocity.length)
        assert top == pytest.approx(1500.0, rel=1e-9)
    w = World(Settings(max_speed=None))
    b = add_box(w, "b", 0.0, 0.0)
    w.step(240)
    # free fall with damping 0.9 per second: v = g * integral of 0.9^t ≈ g * 0.949 s
    assert b.velocity.length == pytest.approx(G * (1 - 0.9) / -math.log(0.9), rel=0.01)


def test_spin_is_capped_like_speed_a_held_body_turned_hard_included():
    """No point of a body moves faster than the cap: |ω|·reach <= max_speed after each step, even when
    the hand winds a held body round and round; a spin set from outside is cut after the step and in
    the solver's velocity update."""
    reach = math.hypot(BOX[0] / 2 - 0.5, BOX[1] / 2 - 0.5) + 0.5   # the box's corner, rounded
    for settings in (Settings(), Settings(cap_in_solver=True)):
        w = World(settings, hand_settings())
        b = add_box(w, "b", 0.0, 0.0)
        b.angular_velocity = -1e6
        w.step()
        assert abs(b.angular_velocity) * reach == pytest.approx(settings.max_speed, rel=1e-3)
        assert b.angular_velocity < 0
    settings = Settings()
    w = World(settings, hand_settings())
    b = add_box(w, "b", 0.0, 0.0)
    w.hand.grab("b", (0.0, 0.0))
    top = 0.0
    for k in range(240):
        w.hand.move_to((0.0, 0.0), 40.0 * (k + 1))   # a stick turned 40 rad further every step
        w.step()
        top = max(top, abs(b.angular_velocity))
        assert math.isfinite(b.angle)
    assert top * reach == pytest.approx(settings.max_speed, rel=1e-3)
    assert max(s for _k, _x, _y, s in w.awake) <= settings.max_speed * (1 + 1e-9)


def test_no_tunnelling_through_a_thick_floor_from_800_mm():
    w = floor_world()
    b = add_box(w, "b", 0.0, 800.0, 0.2)
    w.settle()
    assert 0.0 < b.position.y < 25.0


# ------------------------------------------------------------------------------------ snapshots
def _scene() -> World:
    w = floor_world()
    for i in range(5):
        add_box(w, i, 5.0 * i, 20.0 + 15.0 * i, 0.1 * i)
    return w


def test_snapshot_reads_every_body_state():
    w = _scene()
    w.step(30)
    snap = w.snapshot()
    assert [k for k, _ in snap.bodies] == [0, 1, 2, 3, 4]
    b = w.body(3)
    assert snap.states()[3] == (b.position.x, b.position.y, b.angle, b.velocity.x, b.velocity.y,
                                b.angular_velocity)
    assert snap.steps == 30 and snap.time == pytest.approx(30 / 240)


def test_two_restores_of_one_snapshot_continue_bit_identically():
    live = _scene()
    live.step(40)                                    # mid-tumble: bodies moving and touching
    snap = live.snapshot()
    copies = []
    for _ in range(2):
        w = _scene()
        w.load_snapshot(snap)
        assert w.steps == 40
        w.step(240)
        copies.append(w.snapshot())
    assert copies[0] == copies[1]


def test_load_snapshot_needs_the_same_bodies():
    w = _scene()
    snap = w.snapshot()
    other = floor_world()
    add_box(other, 0, 0.0, 20.0)
    with pytest.raises(ValueError):
        other.load_snapshot(snap)


# ------------------------------------------------------------------------------------------ hand
def test_hand_carries_a_body_closely_and_turns_it():
    w = World(hand=hand_settings())                  # in the air: the hand holds it against gravity
    b = add_box(w, "b", 0.0, 0.0)
    w.hand.grab("b", (10.0, 0.0))                    # off-centre grab point
    worst = 0.0
    for i in range(1, 241):                          # 100 mm to the right in 1 s
        w.hand.move_to((10.0 + 100.0 * i / 240, 0.0), 0.0)
        w.step()
        worst = max(worst, w.hand.follow_error()[0])
    assert worst < 1.0
    target = 0.0
    for _ in range(6):                               # six 15° notches
        target += math.radians(15)
        w.hand.move_to((110.0, 0.0), target)
        w.step(60)
    assert abs(b.angle - target) < math.radians(1)
    gx, gy = b.local_to_world((10.0, 0.0))
    assert math.hypot(gx - 110.0, gy) < 1.0
    w.hand.release()
    v0 = b.velocity.y
    w.step(24)
    assert b.velocity.y < v0 - 0.09 * G              # it falls once let go
    assert w.hand.follow_error() == (0.0, 0.0)


def test_hand_refuses_a_second_grab_and_bad_targets():
    w = World(hand=hand_settings())
    add_box(w, "a", 0.0, 0.0)
    add_box(w, "b", 100.0, 0.0)
    w.hand.grab("a", (0.0, 0.0))
    with pytest.raises(ValueError):
        w.hand.grab("b", (100.0, 0.0))
    with pytest.raises(ValueError):
        w.hand.move_to((math.nan, 0.0))
    with pytest.raises(KeyError):
        World(hand=hand_settings()).hand.grab("missing", (0.0, 0.0))


def test_capped_hand_cannot_push_a_body_through_a_wall():
    w = floor_world(hand=hand_settings())
    wall = pymunk.Segment(w.space.static_body, (60.0, 0.0), (60.0, 200.0), 4.0)
    wall.filter = frame_filter()
    w.add_static(wall)
    b = add_box(w, "b", 0.0, 5.0)
    w.hand.grab("b", (0.0, 5.0))
    for i in range(1, 121):
        w.hand.move_to((200.0 * i / 120, 5.0), 0.0)  # the hand itself goes far past the wall
        w.step()
    w.step(120)
    # the box's right face stays at the wall's left face (56), give or take the slop
    assert b.position.x + BOX[0] / 2 < 56.5
    assert b.position.x + BOX[0] / 2 > 50.0


def test_removing_a_body_wakes_what_it_carried():
    w = floor_world()
    add_box(w, "low", 0.0, 5.0)
    top = add_box(w, "top", 0.0, 15.0)
    w.settle()
    w.step(120)
    assert top.is_sleeping
    w.remove_body("low")
    assert not top.is_sleeping and not w.is_settled()
    w.settle()
    assert top.position.y == pytest.approx(5.0, abs=0.3)        # it dropped onto the floor


def test_removing_the_held_body_releases_the_hand():
    w = floor_world(hand=hand_settings())
    add_box(w, "b", 0.0, 50.0)
    w.hand.grab("b", (0.0, 50.0))
    w.step()
    w.remove_body("b")
    assert w.hand.held is None
    assert len(w.space.constraints) == 0
    w.step(10)                                      # the space still steps without the joints
