"""Tokami rules (seed 001; specs/tokami.md "Rule terms"): taboo, touch-move, raises judged from poses,
falls, refusing, winning sticks, colour return, scoring with red at zero, round end at four sticks,
rounds with a rotating start player, illegal actions, records.

No physics here: PHYSICS outcomes are fabricated from poses (a stick moved up 20 mm is a successful
raise, moved down a failed one; sticks listed in ``fallen`` left the X). Highest points used as
expectations are worked out by hand from the stick's size and angle, not read from the engine.
"""
from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.tokami import model
from games.tokami.model import COLOURS, N_STICKS
from games.tokami.rules import (HAND_LIMIT, TURN_KEYS, TokamiRules, TokamiState, round_score, scores,
                                turn_summary)
from sim.core import record, registry
from sim.core.match import Match
from sim.core.rules import CHANCE, PHYSICS, IllegalAction

R = TokamiRules()
CUBE = dict(enumerate(model.cube_poses()))
RULES_MD = Path(__file__).resolve().parents[1] / "games" / "tokami" / "rules.md"
#: hand-made colouring: blue, yellow, red, green, blue, ... (9 of each); red ids are 2, 6, 10, ...
PATTERN = tuple(COLOURS[i % 4] for i in range(N_STICKS))
RED = [i for i in range(N_STICKS) if i % 4 == 2]

SPEC = registry.GameSpec(name="tokami", title="Tokami", summary="test spec", make_rules=TokamiRules,
                         make_scene=lambda *a, **k: None, rules_text=RULES_MD)


# ------------------------------------------------------------------ fabricated physics outcomes
def pj(poses: dict) -> dict:
    """Poses in the action form: ``model.pose_to_json`` lists keyed by str(id)."""
    return {str(i): model.pose_to_json(p) for i, p in poses.items()}


def moved(pose, dy=0.0, dx=0.0):
    kind, lane, x, y, a = pose
    return (kind, lane, x + dx, y + dy, a)


def settled(s: TokamiState, fallen=()) -> dict:
    """The settle report: the cube for the set-up, else the X without the removed and fallen sticks."""
    base = dict(CUBE) if s.pending["why"] == "setup" else dict(s.poses)
    for i in list(s.pending["remove"]) + list(fallen):
        base.pop(i)
    return {"t": "settled", "poses": pj(base), "fallen": list(fallen)}


def raised(s: TokamiState, dy=20.0, placed=True, fallen=(), pose=None, **extra) -> dict:
    """The raise report: the held stick moved by ``dy`` mm (or put in ``pose``), ``fallen`` gone."""
    base = dict(s.poses)
    for i in fallen:
        base.pop(i)
    if not placed:
        base.pop(s.held, None)
    elif s.held in base:
        base[s.held] = pose if pose is not None else moved(base[s.held], dy)
    return {"t": "raised", "placed": placed, "poses": pj(base), "fallen": list(fallen), **extra}


def drawn(s: TokamiState, taken=True, fallen=(), **extra) -> dict:
    base = dict(s.poses)
    for i in fallen:
        base.pop(i)
    if taken:
        base.pop(s.held, None)
    return {"t": "drawn", "taken": taken, "poses": pj(base), "fallen": list(fallen), **extra}


# ---------------------------------------------------------------------------- positions
def act(s, player, action):
    """Check and apply one action on a bare state; invariants must hold afterwards."""
    R.check(s, player, action)
    s2, ev = R.apply(s, player, action)
    assert R.invariants(s2) == [], R.invariants(s2)
    return s2, ev


def position(players=3, on_x=None, winning=None, minus=None, player=0, taboo=None, rounds=1) -> TokamiState:
    """A hand-made start of a turn in round 0: cube poses for ``on_x`` (default all), the given winning
    and minus sticks per player, every other stick back in the box; colours ``PATTERN``."""
    on_x = list(range(N_STICKS)) if on_x is None else list(on_x)
    winning = winning or {}
    minus = minus or {}
    s = R.initial_state(R.validate_config({"players": players, "rounds": rounds}))
    used = set(on_x) | {i for v in winning.values() for i in v} | {i for v in minus.values() for i in v}
    s = replace(s, phase="turn", colours=PATTERN, poses={i: CUBE[i] for i in on_x}, player=player,
                taboo=taboo, winning=tuple(tuple(winning.get(p, ())) for p in range(players)),
                minus=tuple(tuple(minus.get(p, ())) for p in range(players)),
                returned=tuple(i for i in range(N_STICKS) if i not in used))
    assert R.invariants(s) == [], R.invariants(s)
    return s


def successful_raise(s, stick, dy=20.0):
    s, _ = act(s, s.player, {"t": "take", "stick": stick})
    s, _ = act(s, PHYSICS, raised(s, dy))
    assert s.phase == "winning"
    return s


def new_match(players=3, seed=0, **cfg):
    m = Match(R, {"players": players, **cfg}, seed)
    assert m.state.phase == "settle" and m.state.pending == {"why": "setup", "remove": []}
    m.submit(PHYSICS, settled(m.state))
    assert m.state.phase == "turn"
    return m


def hp_cube(i) -> float:
    """Highest point of cube stick ``i`` worked out by hand: across-sticks lie at 135°, so the top is
    (35.5 + 5.5)·√½ above the centre, along-squares at 45°: (5.5 + 5.5)·√½; plus the 0.5 mm bevel."""
    kind, _lane, _x, y, _a = CUBE[i]
    half = 35.5 + 5.5 if kind == "across" else 5.5 + 5.5
    return y + half * math.sqrt(0.5) + 0.5


# ------------------------------------------------------------------------------- config
def test_config_defaults_and_errors():
    assert R.validate_config({}) == R.default_config()
    assert R.validate_config({"players": 2}) == {"players": 2, "rounds": 3, "practice": False}
    assert Match(R, {"seats": ["bot:hard"] * 5}).config["players"] == 5      # the seats say how many
    with pytest.raises(ValueError):
        Match(R, {"players": 2, "seats": ["human"]})
    for bad in ({"players": 1}, {"players": 6}, {"players": True}, {"rounds": 0}, {"rounds": 21},
                {"players": 2, "seats": ["human", "human"]}, {"practice": 1}, {"colour": "red"}):
        with pytest.raises(ValueError):
            R.validate_config(bad)
    assert (R.info.name, R.info.min_players, R.info.max_players) == ("tokami", 2, 5)


# ------------------------------------------------------------------------ colours, set-up
@pytest.mark.parametrize("seed", range(6))
def test_chance_colours_nine_of_each_and_setup(seed):
    m = Match(R, {"players": 2}, seed)
    s = m.state
    assert [e["p"] for e in m.log] == [CHANCE] * 36
    assert sorted(model.colour_counts(s.colours).values()) == [9, 9, 9, 9]
    assert s.poses == {} and s.phase == "settle" and R.active_players(s) == [PHYSICS]
    assert R.invariants(s) == []


def test_colour_probabilities_follow_what_is_left():
    s = R.initial_state(R.validate_config({"players": 2}))
    out = R.chance_outcomes(s)
    assert [(a["c"], p) for a, p in out] == [(c, 0.25) for c in COLOURS]
    for _ in range(9):
        s, _ = R.apply(s, CHANCE, {"t": "colour", "c": "red"})
    out = dict((a["c"], p) for a, p in R.chance_outcomes(s))
    assert set(out) == {"blue", "yellow", "green"} and out["blue"] == pytest.approx(9 / 27)
    with pytest.raises(IllegalAction, match="red"):
        R.check(s, CHANCE, {"t": "colour", "c": "red"})
    with pytest.raises(IllegalAction, match="colour"):
        R.check(s, CHANCE, {"t": "colour", "c": "purple"})


def test_setup_settles_into_first_turn():
    m = new_match(3, seed=4)
    s = m.state
    assert set(s.poses) == set(range(36)) and s.player == 0 and s.taboo is None
    acts = R.legal_actions(s, 0)
    assert sorted(a["stick"] for a in acts) == list(range(36)) and {"t": "refuse"} not in acts
    assert R.legal_actions(s, 1) == [] and R.legal_actions(s, PHYSICS) == []


# ------------------------------------------------------------------------ taboo, touch-move
def test_taboo_for_the_next_player_only():
    s = position(players=3)
    s = successful_raise(s, 5)
    s, _ = act(s, 0, {"t": "end"})
    assert (s.player, s.taboo) == (1, 5)
    with pytest.raises(IllegalAction, match="taboo"):
        R.check(s, 1, {"t": "take", "stick": 5})
    legal = R.legal_actions(s, 1)
    assert {"t": "take", "stick": 5} not in legal and {"t": "refuse"} in legal
    s = successful_raise(s, 7)
    for stick in (5, 7):    # taboo, and the stick just raised
        with pytest.raises(IllegalAction, match="taboo" if stick == 5 else "just raised"):
            R.check(s, 1, {"t": "draw", "stick": stick})
    assert {a.get("stick") for a in R.legal_actions(s, 1)} == set(range(36)) - {5, 7} | {None}
    s, _ = act(s, 1, {"t": "end"})
    assert (s.player, s.taboo) == (2, 7)
    R.check(s, 2, {"t": "take", "stick": 5})        # free again for the player after
    with pytest.raises(IllegalAction, match="taboo"):
        R.check(s, 2, {"t": "take", "stick": 7})


def test_taboo_stick_that_falls_is_taboo_no_more():
    s = successful_raise(position(players=2), 5)
    s, _ = act(s, 0, {"t": "end"})
    s, _ = act(s, 1, {"t": "take", "stick": 30})
    s, _ = act(s, PHYSICS, raised(s, placed=False, fallen=[5]))
    assert s.minus[1] == (5, 30) and s.taboo is None and s.player == 0
    assert {"t": "refuse"} not in R.legal_actions(s, 0)


def test_touch_move_after_take_only_the_physics_outcome_follows():
    m = new_match(2, seed=1)
    m.submit(0, {"t": "take", "stick": 12})
    assert m.active_players() == [PHYSICS] and R.legal_actions(m.state, 0) == []
    before = (m.state, len(m.log))
    for a in ({"t": "take", "stick": 13}, {"t": "refuse"}, {"t": "end"}):
        with pytest.raises(IllegalAction):
            m.submit(0, a)
        with pytest.raises(IllegalAction, match="touch-move"):
            R.check(m.state, 0, a)
    assert (m.state, len(m.log)) == before
    assert not m.can_undo()


# --------------------------------------------------------------------------------- raises
def test_successful_raise_records_heights_from_the_pose():
    s = position()
    s, _ = act(s, 0, {"t": "take", "stick": 12})
    assert s.held == 12 and s.hp_before == pytest.approx(hp_cube(12))
    s, ev = act(s, PHYSICS, raised(s, dy=20.0))
    assert s.phase == "winning" and s.held is None and s.poses[12][3] == CUBE[12][3] + 20
    assert any(e["e"] == "raise" and e["ok"] for e in ev)
    s, _ = act(s, 0, {"t": "end"})
    t = turn_summary(s)
    assert tuple(t) == TURN_KEYS
    assert t["stick"] == 12 and t["raised"] and not t["refused"] and t["winning"] is None
    assert t["hp_before"] == pytest.approx(hp_cube(12))
    assert t["hp_after"] == pytest.approx(hp_cube(12) + 20)
    assert (t["kind"], t["lane"], t["minus"], t["fallen"]) == ("across", 0, [], [])
    t["minus"].append(99)            # a copy: the state is untouched
    assert s.last_turn["minus"] == []


@pytest.mark.parametrize("dy,ok", [(20.0, True), (1.5, True), (0.5, False), (0.0, False), (-8.0, False)])
def test_raise_must_beat_the_old_highest_point_by_more_than_1_mm(dy, ok):
    s = position()
    s, _ = act(s, 0, {"t": "take", "stick": 3})
    s, _ = act(s, PHYSICS, raised(s, dy=dy))
    if ok:
        assert s.phase == "winning"
        return
    # not higher: the stick is slid off the X, then it is a minus stick and the turn is over
    assert s.phase == "settle" and s.pending == {"why": "remove", "remove": [3]} and s.minus[0] == ()
    s, _ = act(s, PHYSICS, settled(s))
    assert s.minus[0] == (3,) and 3 not in s.poses and s.phase == "turn" and s.player == 1
    assert s.taboo is None and s.last_turn["raised"] is False and s.last_turn["minus"] == [3]


def test_turning_a_stick_along_can_fail_the_raise():
    # across-stick 0 put back along the trough at the same centre, 10 mm up: its top drops from
    # y + 29.5 to y + 10 + 8.3, so it is lower than before
    s = position()
    s, _ = act(s, 0, {"t": "take", "stick": 0})
    _k, _l, x, y, _a = CUBE[0]
    s, _ = act(s, PHYSICS, raised(s, pose=("along", -1, x, y + 10, math.pi / 4)))
    assert s.phase == "settle" and s.current["kind"] == "along" and s.current["lane"] == -1
    assert s.current["hp_after"] == pytest.approx(y + 10 + 11 * math.sqrt(0.5) + 0.5)


def test_stick_released_outside_is_a_minus_stick_at_once():
    s = position(players=2)
    s, _ = act(s, 0, {"t": "take", "stick": 20})
    s, _ = act(s, PHYSICS, raised(s, placed=False))
    assert s.phase == "turn" and s.player == 1 and s.minus[0] == (20,) and 20 not in s.poses
    assert s.last_turn["hp_after"] is None and s.last_turn["kind"] == "along"


def test_fall_during_raise_fallen_and_held_are_minus():
    s = position(players=2)
    s, _ = act(s, 0, {"t": "take", "stick": 12})
    s, ev = act(s, PHYSICS, raised(s, dy=30.0, fallen=[30, 31]))   # higher, but sticks fell
    assert s.phase == "settle" and s.pending["remove"] == [12] and s.minus[0] == (30, 31)
    s, _ = act(s, PHYSICS, settled(s, fallen=[35]))                  # one more falls on the way out
    assert sorted(s.minus[0]) == [12, 30, 31, 35] and s.winning[0] == ()
    assert s.phase == "turn" and s.player == 1 and s.taboo is None
    assert sorted(s.last_turn["fallen"]) == [30, 31, 35] and not s.last_turn["raised"]
    # the held stick itself fell: no settle needed
    s, _ = act(s, 1, {"t": "take", "stick": 0})
    s, _ = act(s, PHYSICS, raised(s, fallen=[0, 1]))
    assert s.phase == "turn" and s.player == 0 and s.minus[1] == (0, 1)


# ------------------------------------------------------------------------------- refusing
def test_refusing_takes_the_taboo_stick_as_minus():
    s = position(players=2)
    with pytest.raises(IllegalAction, match="no taboo"):
        R.check(s, 0, {"t": "refuse"})
    s = successful_raise(s, 9)
    s, _ = act(s, 0, {"t": "end"})
    s, _ = act(s, 1, {"t": "refuse"})
    assert s.phase == "settle" and s.pending == {"why": "refuse", "remove": [9]}
    s, _ = act(s, PHYSICS, settled(s))
    assert s.minus[1] == (9,) and 9 not in s.poses and (s.player, s.taboo) == (0, None)
    t = s.last_turn
    assert t["refused"] and not t["raised"] and t["stick"] == 9 and t["minus"] == [9]


# -------------------------------------------------------------------------- winning sticks
def test_winning_stick_taken():
    s = successful_raise(position(players=2), 14)
    s, _ = act(s, 0, {"t": "draw", "stick": 33})
    assert s.phase == "draw" and s.held == 33
    s, _ = act(s, PHYSICS, drawn(s, taken=True))
    assert s.winning[0] == (33,) and 33 not in s.poses and (s.player, s.taboo) == (1, 14)
    assert s.last_turn["winning"] == 33


def test_drawn_stick_not_taken_stays():
    s = successful_raise(position(players=2), 14)
    s, _ = act(s, 0, {"t": "draw", "stick": 33})
    s, _ = act(s, PHYSICS, drawn(s, taken=False))
    assert 33 in s.poses and s.winning[0] == () and s.minus[0] == () and s.taboo == 14


def test_fall_while_drawing_drawn_and_fallen_are_minus():
    s = successful_raise(position(players=2), 14)
    s, _ = act(s, 0, {"t": "draw", "stick": 33})
    s, _ = act(s, PHYSICS, drawn(s, taken=True, fallen=[34]))
    assert sorted(s.minus[0]) == [33, 34] and s.winning[0] == () and s.phase == "turn"
    assert s.taboo == 14   # the raise itself succeeded and stick 14 is still on the X
    # a fall while the drawn stick is still on the X: it is slid off first
    s = successful_raise(s, 0)
    s, _ = act(s, 1, {"t": "draw", "stick": 20})
    s, _ = act(s, PHYSICS, drawn(s, taken=False, fallen=[0]))   # the raised stick itself fell
    assert s.phase == "settle" and s.pending["remove"] == [20]
    s, _ = act(s, PHYSICS, settled(s))
    assert sorted(s.minus[1]) == [0, 20] and s.taboo is None   # stick 0 is gone: no taboo


# -------------------------------------------------------------------------- colour return
@pytest.mark.parametrize("win", [17, 18])   # 17 is yellow (17 % 4 == 1), 18 is red (18 % 4 == 2)
def test_winning_stick_returns_minus_sticks_of_its_colour(win):
    # player 0 holds 4 yellow (1, 5, 9, 13), 2 red (2, 6) and 1 green (3) minus sticks (seed example)
    mine = [1, 5, 9, 13, 2, 6, 3]
    s = position(players=2, on_x=[i for i in range(N_STICKS) if i not in mine], minus={0: mine})
    s = successful_raise(s, 20)
    s, ev = act(s, 0, {"t": "draw", "stick": win})
    s, ev = act(s, PHYSICS, drawn(s))
    back = [1, 5, 9, 13] if win == 17 else [2, 6]
    assert list(s.returned) == back
    assert sorted(s.minus[0]) == sorted(set(mine) - set(back)) and s.winning[0] == (win,)
    assert s.last_turn["returned"] == back
    # score: the winning stick is worth 1 (yellow) or 0 (red); the minus sticks left count -1 each
    assert scores(s)[0] == (1 if win == 17 else 0) - (len(mine) - len(back))


# --------------------------------------------------------------------- round end, scoring
def test_round_ends_at_four_sticks_and_scores_red_at_zero():
    # five sticks left: 0 (blue), 1 (yellow), 2 (red), 3 (green), 4 (blue); player 1 to move
    s = position(players=2, on_x=[0, 1, 2, 3, 4], player=1, rounds=2,
                 winning={0: [5, 8, 12], 1: [6, 10, 7]}, minus={0: [14], 1: [9, 13]})
    # player 0: 5 yellow, 8 and 12 blue = 3, minus the red 14 = 2; player 1: 6 and 10 red count 0,
    # 7 green 1, minus the yellow 9 and 13 = -1
    assert scores(s) == [2, -1]
    s = successful_raise(s, 0)
    s, ev = act(s, 1, {"t": "draw", "stick": 2})        # a red winning stick: worth nothing
    s, ev = act(s, PHYSICS, drawn(s))
    assert [e["e"] for e in ev][-2:] == ["turn_end", "round_end"]
    assert s.round_scores == ((2, -1),) and s.totals == (2, -1)
    assert s.phase == "colour" and s.round == 1 and s.start == 1 and s.player == 1
    assert s.poses == {} and s.winning == ((), ()) and s.minus == ((), ()) and s.taboo is None


def test_a_fall_can_leave_fewer_than_four():
    s = position(players=2, on_x=[0, 1, 2, 3, 4, 5, 6], rounds=1)
    s, _ = act(s, 0, {"t": "take", "stick": 6})
    s, _ = act(s, PHYSICS, raised(s, placed=False, fallen=[0, 1, 2, 3]))
    assert s.phase == "over" and len(s.poses) == 2 and s.minus[0] == (0, 1, 2, 3, 6)
    out = R.outcome(s)
    assert out == {"totals": [-5, 0], "rounds": [[-5, 0]], "ranking": [1, 0], "winners": [1]}
    assert R.is_terminal(s) and R.active_players(s) == []
    with pytest.raises(IllegalAction, match="over"):
        R.check(s, 1, {"t": "take", "stick": 4})


def test_round_score_helper_counts_by_hand():
    s = position(players=3, on_x=range(10, 36), winning={0: [2, 6, 0], 2: [1]}, minus={1: [3, 4, 5, 7, 8, 9]})
    assert [round_score(s, p) for p in range(3)] == [1, -6, 1]


# ------------------------------------------------------------------------ whole matches
def fabricate(s: TokamiState, rng: random.Random) -> tuple[int, dict]:
    """A seeded stand-in for the physics side and the players: any legal behaviour, with falls."""
    if s.phase == "turn":
        legal = R.legal_actions(s, s.player)
        if {"t": "refuse"} in legal and rng.random() < 0.1:
            return s.player, {"t": "refuse"}
        return s.player, rng.choice([a for a in legal if a["t"] == "take"])
    if s.phase == "winning":
        legal = R.legal_actions(s, s.player)
        return s.player, (legal[-1] if rng.random() < 0.3 or len(legal) == 1 else rng.choice(legal[:-1]))
    on = sorted(s.poses)
    if s.phase == "settle":
        rest = [i for i in on if i not in s.pending["remove"]]
        fallen = rng.sample(rest, 1) if s.pending["why"] != "setup" and rng.random() < 0.1 else []
        return PHYSICS, settled(s, fallen)
    r = rng.random()
    fallen = rng.sample(on, rng.randint(1, 3)) if r < 0.15 else []
    if s.phase == "raise":
        if r < 0.3:
            return PHYSICS, raised(s, dy=rng.choice([-3.0, 0.4]), placed=rng.random() < 0.7, fallen=fallen)
        kind, lane, x, y, a = s.poses[s.held]
        if y > 800:
            return PHYSICS, raised(s, dy=-50.0)
        if rng.random() < 0.3:   # turned: across in another lane, or along
            kind, lane = rng.choice([("along", -1)] + [("across", k) for k in range(6)])
        return PHYSICS, raised(s, pose=(kind, lane, x, y + 20.0, a), hand=[[0, 1.0, 2.0]] * 3)
    taken = rng.random() < 0.8
    return PHYSICS, drawn(s, taken=taken and s.held not in fallen, fallen=fallen)


def play(players, seed, rounds=2, check_each=True):
    m = Match(R, {"players": players, "rounds": rounds}, seed)
    rng = random.Random(seed)
    turns = 0
    for _ in range(5000):
        if m.is_over():
            break
        s = m.state
        p, a = fabricate(s, rng)
        if s.phase == "raise":   # oracle: the judgement from the pose arithmetic alone
            new = a["poses"].get(str(s.held))
            ok = (not a["fallen"] and a["placed"] and new is not None
                  and model.highest_point(model.pose_from_json(new)) > s.hp_before + 1.0)
        before = len(m.log)
        m.submit(p, a)
        if s.phase == "raise":
            assert (m.state.phase == "winning") == ok
        if check_each:
            for st in m.states[before + 1:]:
                assert R.invariants(st) == [], R.invariants(st)
        if m.state.last_turn is not s.last_turn:
            turns += 1
    assert m.is_over()
    return m, turns


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (5, 5)])
def test_random_playouts_keep_invariants_and_end(players, seed):
    m, turns = play(players, seed)
    assert turns > 40
    # independent tally of the scores from the finished turns: +1 per non-red winning stick, -1 per
    # minus stick, +1 back for every returned minus stick
    tally = [[0] * players for _ in range(2)]
    order = []
    for st_prev, st in zip(m.states, m.states[1:]):
        t = st.last_turn
        if t is not None and t is not st_prev.last_turn:
            c = st_prev.colours
            d = (len(t["returned"]) - len(t["minus"])
                 + (1 if t["winning"] is not None and c[t["winning"]] != "red" else 0))
            tally[t["round"]][t["player"]] += d
            order.append((t["round"], t["player"]))
    out = m.outcome()
    assert out["rounds"] == tally
    assert out["totals"] == [tally[0][p] + tally[1][p] for p in range(players)]
    assert out["winners"] == [p for p in range(players) if out["totals"][p] == max(out["totals"])]
    assert sorted(out["ranking"]) == list(range(players))
    # players take turns round the table; round 0 starts with player 0, round 1 with player 1
    for r in (0, 1):
        seq = [p for rr, p in order if rr == r]
        assert seq[0] == r % players
        assert all(b == (a + 1) % players for a, b in zip(seq, seq[1:]))


def test_many_seeds_end_without_per_step_checks():
    total = 0
    for seed in range(10, 40):
        m, turns = play(2 + seed % 4, seed, rounds=1, check_each=False)
        assert R.invariants(m.state) == [] and turns >= 8
        total += turns
    assert total > 300


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_any_seeded_playout_keeps_invariants_and_ends(players, seed):
    m, _ = play(players, seed, rounds=1)
    assert len(m.outcome()["rounds"]) == 1


# ----------------------------------------------------------------------------- records
@pytest.fixture
def registered(monkeypatch):
    if "tokami" not in registry.GAMES:
        monkeypatch.setitem(registry.GAMES, "tokami", f"{__name__}:SPEC")


def test_save_load_replay_equality(registered, tmp_path):
    m, _ = play(3, 7)
    record.save(m, tmp_path / "t.json")
    m2 = record.load(tmp_path / "t.json", expect_game="tokami")
    assert m2.state == m.state and m2.log == m.log and m2.outcome() == m.outcome()
    # a match in the middle of a raise, with a hand track in the log
    m3 = new_match(2, seed=3)
    m3.submit(0, {"t": "take", "stick": 0})
    m3.submit(PHYSICS, raised(m3.state, hand=[[1, 2.5, 3.5]] * 10))
    m4 = record.from_record(record.to_record(m3))
    assert m4.state == m3.state and m4.state.phase == "winning"


def test_tampered_physics_outcome_is_refused(registered):
    m = new_match(2, seed=3)
    m.submit(0, {"t": "take", "stick": 0})
    m.submit(PHYSICS, raised(m.state))
    rec = record.to_record(m)
    rec["actions"][-1][1]["fallen"] = [99]
    with pytest.raises(record.RecordError, match="not on the X"):
        record.from_record(rec)


# -------------------------------------------------------------------------- illegal actions
def _turn(m):   # player 0 to move at the start of the round
    return m


def _raise(m):
    m.submit(0, {"t": "take", "stick": 12})
    return m


def _winning(m):
    m.submit(0, {"t": "take", "stick": 12})
    m.submit(PHYSICS, raised(m.state))
    return m


def _next_turn(m):   # player 1 to move, stick 12 taboo, stick 0 gone
    m.submit(0, {"t": "take", "stick": 12})
    m.submit(PHYSICS, raised(m.state))
    m.submit(0, {"t": "draw", "stick": 0})
    m.submit(PHYSICS, drawn(m.state))
    return m


def _draw(m):
    _winning(m)
    m.submit(0, {"t": "draw", "stick": 0})
    return m


def _settle(m):
    m.submit(0, {"t": "take", "stick": 12})
    m.submit(PHYSICS, raised(m.state, dy=-5))
    return m


def _bad_pose(key, value):
    def make(s):
        a = raised(s)
        a["poses"][key] = value
        return a
    return make


def _drop_key(s):
    a = raised(s)
    del a["poses"]["35"]
    return a


def _extra_key(s):
    a = raised(s)
    a["poses"]["35"] = model.pose_to_json(CUBE[35])
    a["fallen"] = [35]
    return a


ILLEGAL = [
    (_turn, 0, {"t": "draw", "stick": 3}, "successful raise"),
    (_turn, 0, {"t": "end"}, "must try a stick"),
    (_turn, 0, {"t": "refuse"}, "no taboo"),
    (_turn, 1, {"t": "take", "stick": 3}, "player 1's turn"),
    (_turn, 0, {"t": "take", "stick": 36}, "0..35"),
    (_turn, 0, {"t": "take", "stick": True}, "0..35"),
    (_turn, 0, {"t": "take", "stick": "3"}, "0..35"),
    (_turn, 0, {"t": "take"}, "needs exactly"),
    (_turn, 0, {"t": "take", "stick": 3, "lane": 2}, "needs exactly"),
    (_turn, 0, {"t": "fly"}, "unknown action"),
    (_turn, 0, {"t": "raised", "placed": True, "poses": {}, "fallen": []}, "not a player's action"),
    (_turn, 0, ["take", 3], "must be an object"),
    (_turn, PHYSICS, {"t": "settled", "poses": {}, "fallen": []}, "player's move"),
    (_next_turn, 1, {"t": "take", "stick": 12}, "taboo"),
    (_next_turn, 1, {"t": "take", "stick": 0}, "not on the X"),
    (_winning, 0, {"t": "take", "stick": 3}, "touch-move"),
    (_winning, 0, {"t": "refuse"}, "start of your turn"),
    (_winning, 0, {"t": "draw", "stick": 12}, "just raised"),
    (_winning, 0, {"t": "end", "now": True}, "no options"),
    (_raise, 0, {"t": "take", "stick": 13}, "touch-move"),
    (_raise, PHYSICS, {"t": "drawn", "taken": True, "poses": {}, "fallen": []}, "expects a 'raised'"),
    (_raise, PHYSICS, lambda s: {**raised(s), "placed": 1}, "true or false"),
    (_raise, PHYSICS, lambda s: {**raised(s), "hand": "abc"}, "must be a list"),
    (_raise, PHYSICS, lambda s: raised(s, hand=[0] * (HAND_LIMIT + 1)), "at most"),
    (_raise, PHYSICS, lambda s: {**raised(s), "speed": 3}, "optionally hand"),
    (_raise, PHYSICS, _drop_key, "missing 35"),
    (_raise, PHYSICS, _extra_key, "unexpected 35"),
    (_raise, PHYSICS, lambda s: raised(s, placed=False) | {"poses": raised(s)["poses"]}, "unexpected 12"),
    (_raise, PHYSICS, _bad_pose("3", ["sideways", 0, 1.0, 50.0, 0.0]), "stick 3: unknown stick kind"),
    (_raise, PHYSICS, _bad_pose("3", ["across", 7, 1.0, 50.0, 0.0]), "lane must be 0..5"),
    (_raise, PHYSICS, _bad_pose("3", ["across", 3, float("nan"), 50.0, 0.0]), "finite"),
    (_raise, PHYSICS, _bad_pose("3", ["across", 3, 1.0]), "kind, lane"),
    (_raise, PHYSICS, _bad_pose("03", ["across", 3, 1.0, 50.0, 0.0]), "not a stick id"),
    (_raise, PHYSICS, _bad_pose("3", ["along", -1, 1.0, 50.0, 0.0]), "only the stick in hand"),
    (_raise, PHYSICS, _bad_pose("3", ["across", 4, 1.0, 50.0, 0.0]), "only the stick in hand"),
    (_raise, PHYSICS, _bad_pose("3", ["across", 3, 1.0, -2.0, 0.0]), "listed as fallen"),
    (_raise, PHYSICS, lambda s: {**raised(s, fallen=[4]), "fallen": [4, 4]}, "twice"),
    (_raise, PHYSICS, lambda s: {**raised(s), "fallen": [50]}, "not on the X"),
    (_raise, PHYSICS, lambda s: {**raised(s), "fallen": "none"}, "list of stick ids"),
    (_raise, PHYSICS, lambda s: {**raised(s), "poses": []}, "object keyed"),
    (_raise, CHANCE, {"t": "colour", "c": "red"}, "no colour"),
    (_draw, PHYSICS, lambda s: drawn(s, hand=[0] * (HAND_LIMIT + 1)), "at most"),
    (_draw, PHYSICS, lambda s: {**drawn(s, taken=False, fallen=[0]), "taken": True}, "both taken and fallen"),
    (_draw, 0, {"t": "end"}, "being drawn"),
    (_settle, PHYSICS, lambda s: {**settled(s), "hand": []}, "exactly poses and fallen"),
    (_settle, PHYSICS, lambda s: {**settled(s), "fallen": [12]}, "being removed"),
    (_settle, PHYSICS, lambda s: {**settled(s), "poses": {**settled(s)["poses"], "12": model.pose_to_json(CUBE[12])}},
     "unexpected 12"),
]


@pytest.mark.parametrize("setup,player,action,reason", ILLEGAL,
                         ids=[f"{i}-{row[0].__name__}" for i, row in enumerate(ILLEGAL)])
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(setup, player, action, reason):
    m = setup(new_match(2, seed=9))
    if callable(action):
        action = action(m.state)
    state, n, rec = m.state, len(m.log), record.to_record(m)
    with pytest.raises(IllegalAction, match=reason):
        R.check(state, player, action)
    if player in R.active_players(state):
        with pytest.raises(IllegalAction):
            m.submit(player, action)
    assert m.state is state and len(m.log) == n and record.to_record(m) == rec
    assert R.invariants(state) == []


def test_legal_actions_are_all_accepted_and_nothing_else_is_listed():
    m = _next_turn(new_match(2, seed=9))
    s = m.state
    legal = R.legal_actions(s, 1)
    for a in legal:
        R.check(s, 1, a)
    assert {"t": "refuse"} in legal
    assert sorted(a["stick"] for a in legal if a["t"] == "take") == sorted(set(s.poses) - {12})
    assert R.undoable(s, 1, legal[0]) is False


# ------------------------------------------------------------------------------ rules text
def test_rules_text_covers_the_rules_and_controls():
    text = RULES_MD.read_text(encoding="utf-8")
    for word in ("taboo", "minus stick", "winning stick", "red", "four sticks", "Tab", "Shift", "Enter",
                 "Ctrl+Z", "F5", "**R**", "[", "touch"):
        assert word.lower() in text.lower(), word
