"""A quick yank disturbs the pile more than a slow, careful pull (issue "Tokami", "Done when": the same
loaded stick pulled out slowly and fast from the same snapshot).

The snapshot is a loose starting pile (``model.free_poses``) settled by physics: the along-stick that
bears the most weight (``TokamiWorld.static_loads``) is pulled out along the trough at the careful
speed and at ``FAST_PULL``, each from its own restore of the snapshot; the pile then settles.
"""
from __future__ import annotations

import math

import pytest

from games.tokami import driver, model
from games.tokami.rules import TokamiRules
from games.tokami.world import FAST_PULL, PILE, SETTINGS, TokamiWorld
from sim.core.match import Match
from sim.core.rules import PHYSICS


def disturbance(before: dict, world: TokamiWorld, fallen0: int) -> tuple[int, int, float]:
    """(sticks fallen, sticks moved more than 1 mm, summed shift in mm) of ``world`` against ``before``."""
    after = world.poses()
    shifts = [math.hypot(after[i][2] - before[i][2], after[i][3] - before[i][3]) for i in after]
    return len(world.fallen) - fallen0, sum(1 for d in shifts if d > 1.0), sum(shifts)


@pytest.fixture(scope="module")
def loose():
    w = TokamiWorld(dict(enumerate(model.free_poses("a"))))
    assert w.settle().settled
    return w


def test_a_fast_pull_of_a_loaded_stick_disturbs_more_than_a_slow_one(loose):
    """The four most loaded along-sticks, each pulled slowly and fast from the same snapshot: the fast
    pull disturbs more sticks (fallen or moved more than 1 mm) and moves the pile further."""
    snap = loose.snapshot()
    before = loose.poses()
    loads = loose.static_loads()
    along = sorted((i for i in before if before[i][0] == "along"), key=lambda i: (-loads[i], i))[:4]
    assert loads[along[0]] > 3.0                     # they really carry something
    for sid in along:
        figures = {}
        for name, speed in (("slow", PILE.slow_pull), ("fast", FAST_PULL)):
            w = TokamiWorld.restore(snap)
            w.extract(sid, speed)
            assert w.settle().settled
            figures[name] = disturbance(before, w, len(loose.fallen))
        print(f"\n[figure] pull of stick {sid} (load {loads[sid]:.1f}): slow {figures['slow']}, "
              f"fast {figures['fast']} (fallen, moved > 1 mm, summed shift mm)")
        slow, fast = figures["slow"], figures["fast"]
        assert fast[0] + fast[1] > slow[0] + slow[1]
        assert fast[2] > slow[2]


def test_the_pull_speed_is_part_of_the_hand_track_and_replays():
    m = Match(TokamiRules(), {"players": 2, "seats": ["human", "human"], "setup": "free"}, 3)
    m.submit(PHYSICS, driver.settle_action(m.state))
    st = m.state
    loads = TokamiWorld(st.poses).static_loads()
    sid = max((i for i, p in st.poses.items() if p[0] == "along" and i != st.taboo), key=lambda i: (loads[i], -i))
    assert loads[sid] > 1.0
    m.submit(0, {"t": "take", "stick": sid})
    st = m.state
    outcomes = {}
    for v in (PILE.slow_pull, FAST_PULL):
        act = driver.run_plan(st, [["grab"], ["pull", v], ["lift", "along"], ["release"]])
        assert ["pull", v] in [e[1:] for e in act["hand"]]
        again = driver.replay(st, act["hand"]).action
        assert again == act
        outcomes[v] = act["poses"]
    assert outcomes[PILE.slow_pull] != outcomes[FAST_PULL]
    with pytest.raises(ValueError):
        driver.run_plan(st, [["grab"], ["pull", -1.0], ["lift"]])


def test_a_stick_wound_round_in_hand_never_spins_past_the_cap():
    """The hand turning a held stick ever further (a held key, a wild wheel) while lifting it spins it
    no faster than the world's cap: |ω| times the stick's reach stays within max_speed (mm/s)."""
    m = Match(TokamiRules(), {"players": 2, "seats": ["human", "human"], "setup": "free"}, 3)
    m.submit(PHYSICS, driver.settle_action(m.state))
    st = m.state
    fastest = 0.0
    for sid in sorted(st.poses)[::4]:
        if sid == st.taboo:
            continue
        att = driver.Attempt(st, stick=sid)
        att.grab()
        body = att.world.body(sid)
        reach = math.hypot(*model.half_extents(st.poses[sid][0]))   # centre to corner, mm
        x, y = att.world.world.hand.target
        for k in range(120):
            att.move((x, y + 0.5 * k), 5.0 * (k + 1))   # 5 rad further every 1/240 s step
            att.step()
            if sid not in att.world or att.stopped:
                break
            fastest = max(fastest, abs(body.angular_velocity) * reach)
    cap = SETTINGS.max_speed
    assert fastest <= cap * 1.05
    assert fastest > 0.5 * cap   # they did spin hard: the cap is what held them
