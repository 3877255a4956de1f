"""Tom Tube rules on hand-built positions: one test (or more) per row of research/tomtube.md §4 and per
resolution A1-A22 that the engine decides. Expected destinations, counters and scores are worked out by
hand from the position (the comments say how), never read back from the engine.

Directions on the board: 0 = east, 2 = down-right (q, r+1), 4 = down-left (q-1, r+1), 6 = west,
8 = up-left (q, r-1), 10 = up-right (q+1, r-1).
"""
from __future__ import annotations

import pytest

from games.tomtube.data import BASES, RHOMB_BY_ID, RHOMB_IDS, SOLARS, STOCK
from games.tomtube.geometry import (AROUND, INTERIOR, SLOT_OF_EDGE, SLOTS, TRI_CORNERS, TRIANGLES, edge_key, kid,
                                    rhomb_corners)
from games.tomtube.rules import CHANCE, TomTubeRules, build_state
from sim.core.match import Match
from sim.core.rules import IllegalAction

R = TomTubeRules()
TOM, DAVE = 0, 1
ALL_TRIS = range(len(TRIANGLES))


def k(q: int, r: int) -> str:
    return kid(q, r)


def slot(a: str, b: str) -> int:
    return SLOT_OF_EDGE[edge_key(a, b)]


def tri(*knots: str) -> int:
    return next(t for t, cs in enumerate(TRI_CORNERS) if set(cs) == set(knots))


def flip_with(s: int, corner: str, knot: str) -> int:
    return next(f for f in (0, 1) if rhomb_corners(s, f)[corner] == knot)


def plain_rest(rhombs, extra=(), owner=DAVE, leave=()):
    """Plain pieces on every triangle not under ``rhombs`` or ``extra`` pieces, except ``leave``."""
    used = {t for s, _r, _f in rhombs for t in SLOTS[s][1:]} | {p[0] for p in extra} | set(leave)
    return [(t, owner, "plain", 0) for t in ALL_TRIS if t not in used]


def pos(rhombs=(), extra=(), leave=(), **kw):
    """A position: ``rhombs`` and ``extra`` pieces, every other triangle covered by a plain piece (filler,
    so every interior knot is complete) except ``leave``."""
    return build_state(R, rhombs=rhombs, pieces=list(extra) + plain_rest(rhombs, extra, leave=leave),
                       strict=False, **kw)


#: three free triangles round the port (4,-1), far from every test: rhombs can still be placed there
FAR = [t for t in ALL_TRIS if k(4, -1) in TRI_CORNERS[t]]


def targets(s, player, mode):
    return set(R.move_targets(s, player, mode))


def act(s, player, action):
    R.check(s, player, action)
    return R.apply(s, player, action)


# ---------------------------------------------------------------------------- §4 set-up rows
def test_setup_bases_energy_solar_counters_and_hands():
    s = R.initial_state(R.default_config())
    assert s.at == ("TOM_BASE", "DAVE_BASE")
    assert s.supply == ((1, 0, 0, 0), (1, 0, 0, 0))
    assert s.stock == (STOCK["energy"] - 2, STOCK["control"], STOCK["alien"])
    assert s.solar_left == set(SOLARS[0]) | set(SOLARS[1])
    assert s.hands == ((3, 3, 3), (3, 3, 3))  # face up: both hands are in the state for both to see
    assert sorted(s.stack) == sorted(RHOMB_IDS) and s.counters == {}
    assert R.invariants(s) == []


def test_first_player_random_or_chosen():  # "The younger player starts" (A18)
    s = R.initial_state(R.default_config())
    assert R.active_players(s) == [CHANCE]
    assert R.chance_outcomes(s) == [({"t": "first", "player": 0}, 0.5), ({"t": "first", "player": 1}, 0.5)]
    s1 = R.initial_state({"first": 1})
    assert R.active_players(s1) == [DAVE] and s1.phase == "turn"
    seen = {Match(R, None, seed).state.turn for seed in range(12)}
    assert seen == {0, 1}


def test_rhomb_draw_is_chance_with_probability_by_what_remains():
    s = R.initial_state({"first": 0})
    s, _ = act(s, TOM, {"t": "draw"})
    assert R.active_players(s) == [CHANCE]
    out = R.chance_outcomes(s)
    assert len(out) == 40 and {a["id"] for a, _p in out} == set(RHOMB_IDS)
    assert all(abs(p - 1 / 40) < 1e-12 for _a, p in out)
    s, ev = R.apply(s, CHANCE, {"t": "rhomb", "id": "R12"})
    assert s.drawn == "R12" and ev[0]["e"] == "draw"
    s, _ = act(s, TOM, {"t": "place", "slot": 0, "flip": 0})
    s, _ = act(s, DAVE, {"t": "draw"})
    out = R.chance_outcomes(s)
    assert len(out) == 39 and "R12" not in {a["id"] for a, _p in out}


def test_a_turn_is_either_placing_or_moving():
    s = R.initial_state({"first": 0})
    acts = R.legal_actions(s, TOM)
    assert {"t": "draw"} in acts and {"t": "move", "mode": "drift", "to": k(1, -3)} in acts
    placing, _ = act(s, TOM, {"t": "draw"})
    placing, _ = R.apply(placing, CHANCE, {"t": "rhomb", "id": "R03"})
    with pytest.raises(IllegalAction, match="instead of placing"):
        R.check(placing, TOM, {"t": "move", "mode": "drift", "to": k(1, -3)})
    moved, _ = act(s, TOM, {"t": "move", "mode": "drift", "to": k(1, -3)})
    assert moved.turn == DAVE and moved.phase == "turn"  # one movement, then the turn is over
    with pytest.raises(IllegalAction, match="not Tom's turn"):
        R.check(moved, TOM, {"t": "move", "mode": "drift", "to": "TOM_BASE"})


def test_draw_is_an_undo_barrier_but_a_placement_can_be_taken_back():
    m = Match(R, {"first": 0}, seed=3)
    m.submit(TOM, {"t": "draw"})
    assert m.state.phase == "place" and not m.can_undo()  # the draw cannot be taken back
    m.submit(TOM, {"t": "place", "slot": 50, "flip": 1})
    assert m.can_undo(TOM) and m.undo(TOM)
    assert m.state.phase == "place" and m.state.drawn is not None and len(m.state.board) == 0


# ------------------------------------------------------------------------------- placing rows
def test_any_free_slot_in_either_orientation():
    s = R.initial_state({"first": 0})
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R01"})
    acts = R.legal_actions(s, TOM)
    assert len(acts) == 2 * 106  # every interior edge, two orientations, nothing needs to touch
    s2, _ = act(s, TOM, {"t": "place", "slot": 105, "flip": 1})
    assert s2.board.covered == set(SLOTS[105][1:])
    # a covered triangle takes no rhomb
    s3, _ = act(s2, DAVE, {"t": "draw"})
    s3, _ = R.apply(s3, CHANCE, {"t": "rhomb", "id": "R02"})
    with pytest.raises(IllegalAction, match="two free neighbouring"):
        R.check(s3, DAVE, {"t": "place", "slot": 105, "flip": 0})
    touching = next(sl for sl, (_e, a, b) in enumerate(SLOTS) if {a, b} & set(SLOTS[105][1:]) and sl != 105)
    with pytest.raises(IllegalAction):
        R.check(s3, DAVE, {"t": "place", "slot": touching, "flip": 0})


def test_energy_sphere_gets_an_energy_counter():
    s = R.initial_state({"first": 0})
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R31"})  # neutral long diagonal with the "+"
    s, ev = act(s, TOM, {"t": "place", "slot": 40, "flip": 0})
    assert s.counters == {"c40": "energy"} and "c40" in s.board.complete
    assert s.stock[0] == STOCK["energy"] - 3
    assert {"e": "counter", "kind": "energy", "node": "c40"} in ev


def test_energy_stock_empty_places_nothing_and_never_later():  # A8
    # the supplies hold all 24 energy counters: the stock has none
    s = build_state(R, supply=((12, 0, 0, 0), (12, 0, 0, 0)), turn=TOM)
    assert s.stock[0] == 0
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R36"})
    s, ev = act(s, TOM, {"t": "place", "slot": 10, "flip": 0})
    assert "c10" not in s.counters and {"e": "no_counter", "kind": "energy", "node": "c10"} in ev
    assert R.invariants(s) == []


def _isolation_position(tom_hand_empty=False, dave_hand_empty=False):
    """Knot X = (0,0); T = D(0,0) = (0,0),(1,0),(0,1) will be isolated. The other five triangles around X
    are covered by plain pieces; T's outer neighbour O = U(0,0) = (1,0),(1,1),(0,1) stays free, and so
    does everything else. Placing a rhomb on O and its neighbour below isolates T."""
    x = k(0, 0)
    t = tri(k(0, 0), k(1, 0), k(0, 1))
    o = tri(k(1, 0), k(1, 1), k(0, 1))
    ring = [tt for tt in AROUND[x] if tt != t]
    pieces = [(tt, DAVE, "plain", 0) for tt in ring]
    # hands: use up Tom's or Dave's triangles on far-away triangles when asked
    far = [tt for tt in ALL_TRIS if all(c not in (k(0, 0), k(1, 0), k(0, 1), k(1, 1), k(0, 2), k(1, 2), k(2, 1),
                                                     k(2, 0)) for c in TRI_CORNERS[tt])]
    if tom_hand_empty:
        pieces += [(tt, TOM, pc, 0) for tt, pc in zip(far[:9], ["arc"] * 3 + ["Y"] * 3 + ["plain"] * 3)]
    if dave_hand_empty:
        pieces += [(tt, DAVE, pc, 0) for tt, pc in zip(far[9:18], ["arc"] * 3 + ["Y"] * 3 + ["plain"] * 3)]
    s = build_state(R, pieces=pieces, turn=TOM, strict=False)
    below = tri(k(1, 1), k(0, 2), k(0, 1))  # D(0,1): shares edge (0,1)-(1,1) with O
    sl = SLOT_OF_EDGE[edge_key(k(0, 1), k(1, 1))]
    assert set(SLOTS[sl][1:]) == {o, below}
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R38"})  # neutral short: its tube is on the shared edge
    return s, sl, t, x


def test_isolated_triangle_must_be_filled_by_the_active_player():
    s, sl, t, x = _isolation_position()
    s, ev = act(s, TOM, {"t": "place", "slot": sl, "flip": 0})
    assert s.phase == "fill" and R.active_players(s) == [TOM]
    assert {"e": "isolated", "tris": [t]} in ev
    assert x not in s.board.complete and x not in s.counters  # nothing evaluated before the fill (A7)
    fills = R.legal_actions(s, TOM)
    assert {(a["tri"], a["piece"], a["rot"]) for a in fills} == {(t, "arc", 0), (t, "arc", 1), (t, "arc", 2),
                                                                 (t, "Y", 0), (t, "plain", 0)}
    with pytest.raises(IllegalAction, match="draw|start of a turn"):
        R.check(s, TOM, {"t": "draw"})
    with pytest.raises(IllegalAction, match="not an isolated"):
        R.check(s, TOM, {"t": "fill", "tri": 0, "piece": "arc", "rot": 0})


@pytest.mark.parametrize("piece,rot,kind", [
    ("plain", 0, "alien"),  # no tube at X
    ("arc", 0, "alien"),    # rotation 0: corner 0 = (0,0) = X is the empty corner
    ("arc", 1, "control"),  # the arc links (0,1) and (0,0): one tube end at X
    ("Y", 0, "control"),    # one Y branch ends at X
])
def test_knot_completed_by_the_fill_is_evaluated_after_it(piece, rot, kind):  # A7, control and alien rows
    s, sl, t, x = _isolation_position()
    assert TRI_CORNERS[t][0] == x
    s, _ = act(s, TOM, {"t": "place", "slot": sl, "flip": 0})
    s, ev = act(s, TOM, {"t": "fill", "tri": t, "piece": piece, "rot": rot})
    assert x in s.board.complete
    assert s.counters.get(x) == kind
    assert {"e": "counter", "kind": kind, "node": x} in ev
    assert s.phase == "turn" and s.turn == DAVE  # the turn is over


def test_other_player_may_fill_or_leave_when_the_active_has_no_triangles():  # A6
    s, sl, t, x = _isolation_position(tom_hand_empty=True)
    assert sum(s.hands[TOM]) == 0
    s, ev = act(s, TOM, {"t": "place", "slot": sl, "flip": 0})
    assert s.phase == "fill_other" and R.active_players(s) == [DAVE]
    assert {"e": "offer_fill", "player": DAVE} in ev
    assert {"t": "leave"} in R.legal_actions(s, DAVE)
    filled, _ = act(s, DAVE, {"t": "fill", "tri": t, "piece": "Y", "rot": 0})
    assert filled.counters.get(x) == "control" and filled.turn == DAVE and filled.phase == "turn"
    left, ev = act(s, DAVE, {"t": "leave"})
    assert t in left.board.abandoned and not left.board.can_complete(x)
    assert left.phase == "turn" and left.turn == DAVE
    with pytest.raises(IllegalAction, match="other player"):
        R.check(filled, DAVE, {"t": "leave"})


def test_nobody_has_triangles_the_isolated_one_stays_empty():
    s, sl, t, x = _isolation_position(tom_hand_empty=True, dave_hand_empty=True)
    s, ev = act(s, TOM, {"t": "place", "slot": sl, "flip": 0})
    assert s.phase == "turn" and s.turn == DAVE and t in s.board.abandoned
    assert t not in s.board.isolated()  # never asked again


def test_port_is_never_a_control_sphere():
    # port (1,-3) has three triangles; cover them so it has only its printed tube plus none of the tiles'
    p = k(1, -3)
    ts = AROUND[p]
    s = build_state(R, pieces=[(tt, DAVE, "plain", 0) for tt in ts[:2]], turn=TOM)
    last = ts[2]
    nb = next(sl for sl, (_e, a, b) in enumerate(SLOTS) if last in (a, b) and not ({a, b} & set(ts[:2])))
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R38"})
    s, ev = act(s, TOM, {"t": "place", "slot": nb, "flip": 0})
    assert all(tt in s.board.covered for tt in ts)
    assert p not in s.counters and not any(e.get("node") == p for e in ev if e["e"] in ("sphere", "counter"))


def test_interior_knot_with_several_tubes_gets_no_counter_and_stock_limits():
    # (0,0) completed with two tube ends (a neutral short tube on each of two of its edges): no counter
    a, b = slot(k(0, 0), k(1, 0)), slot(k(0, 0), k(-1, 0))
    around = [t for t in AROUND[k(0, 0)] if t not in set(SLOTS[a][1:]) | set(SLOTS[b][1:])]
    s = build_state(R, rhombs=[(a, "R38", 0)], pieces=[(t, DAVE, "plain", 0) for t in around], turn=TOM)
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R39"})
    s, _ = act(s, TOM, {"t": "place", "slot": b, "flip": 0})
    assert k(0, 0) in s.board.complete and s.board.tube_ends(k(0, 0)) == 2 and k(0, 0) not in s.counters


def test_control_stock_empty_places_nothing_and_never_later():  # A8
    s, sl, t, x = _isolation_position()
    s = build_state(R, pieces=list(s.board.pieces), supply=((1, 4, 0, 0), (1, 4, 0, 0)), turn=TOM, strict=False)
    assert s.stock[1] == 0
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R38"})
    s, _ = act(s, TOM, {"t": "place", "slot": sl, "flip": 0})
    s, ev = act(s, TOM, {"t": "fill", "tri": t, "piece": "Y", "rot": 0})
    assert x not in s.counters and {"e": "no_counter", "kind": "control", "node": x} in ev


def test_beginners_without_alien_and_control_counters():
    s, sl, t, x = _isolation_position()
    s = build_state(R, pieces=list(s.board.pieces), turn=TOM, strict=False, config={"alien_control": False})
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R36"})  # with an energy sphere: still gets its counter
    s, _ = act(s, TOM, {"t": "place", "slot": sl, "flip": 0})
    s, _ = act(s, TOM, {"t": "fill", "tri": t, "piece": "plain", "rot": 0})
    assert x not in s.counters and s.counters == {f"c{sl}": "energy"}


def test_beginners_extra_launch_energy():
    s = R.initial_state({"extra_energy": [2, 0]})
    assert s.supply[0][0] == 3 and s.supply[1][0] == 1 and s.stock[0] == 24 - 4
    with pytest.raises(ValueError, match="extra_energy"):
        R.validate_config({"extra_energy": [30, 0]})
    with pytest.raises(ValueError, match="unknown option"):
        R.validate_config({"aliens": False})


def test_border_knots_never_complete():  # A3
    s = pos()  # every space triangle covered
    dead = {k(-1, -3), k(0, -3), k(3, -3), k(4, -3), k(-4, 0), k(4, 0), k(-4, 3), k(-3, 3), k(0, 3), k(1, 3)}
    assert all(t in s.board.covered for t in ALL_TRIS)
    assert not dead & s.board.complete
    assert INTERIOR <= s.board.complete


# ------------------------------------------------------------------------------- moving rows
A_, B_, C_, D_ = k(-1, 0), k(0, 0), k(1, 0), k(2, 0)
LINE = [(slot(A_, B_), "R38", 0), (slot(B_, C_), "R39", 0)]  # neutral tubes (-1,0)-(0,0)-(1,0), direction 0


def test_drift_straight_through_complete_spheres_and_stop_anywhere():
    s = pos(LINE, at=(A_, "DAVE_BASE"))
    assert targets(s, TOM, "drift") == {B_, C_}  # (0,0) to stop on, (1,0) straight through it
    assert R.move_targets(s, TOM, "drift")[C_] == (A_, B_, C_)
    assert targets(s, DAVE, "drift") == {k(-2, 3), k(-1, 3)}  # neutral tubes serve both (Dave at his base)


def test_no_change_of_direction_inside_a_sphere():
    turn_tube = [(slot(A_, B_), "R38", 0), (slot(B_, k(0, 1)), "R39", 0)]  # (0,0)->(0,1) is direction 2
    s = pos(turn_tube, at=(A_, "DAVE_BASE"))
    assert targets(s, TOM, "drift") == {B_}
    s2 = pos(turn_tube, at=(B_, "DAVE_BASE"))
    assert targets(s2, TOM, "drift") == {A_, k(0, 1)}  # from a stop any tube may be taken


def test_counter_stops_the_astronaut_who_picks_it_up():
    s = pos(LINE, at=(A_, "DAVE_BASE"), counters={B_: "energy"})
    assert targets(s, TOM, "drift") == {B_}
    s2, ev = act(s, TOM, {"t": "move", "mode": "drift", "to": B_})
    assert s2.counters == {} and s2.supply[TOM][0] == 2  # onto his base at once (A20)
    assert {"e": "pickup", "player": TOM, "kind": "energy", "node": B_} in ev


def test_occupied_sphere_cannot_be_entered_or_passed():
    assert targets(pos(LINE, at=(A_, B_)), TOM, "drift") == set()
    assert targets(pos(LINE, at=(A_, C_)), TOM, "drift") == {B_}


def test_incomplete_sphere_blocks_the_drift():
    # leave one triangle around (0,0) free (one that does not touch (-1,0)): (0,0) is not complete
    t = next(tt for tt in AROUND[B_] if A_ not in TRI_CORNERS[tt] and C_ not in TRI_CORNERS[tt])
    s = pos(LINE, leave=[t], at=(A_, "DAVE_BASE"))
    assert B_ not in s.board.complete
    assert targets(s, TOM, "drift") == set()
    with pytest.raises(IllegalAction, match="complete sphere"):
        R.check(s, TOM, {"t": "move", "mode": "drift", "to": B_})


def test_own_and_neutral_free_other_colour_needs_a_control_counter():
    # X2 without a sphere (R10): Tom's tube on the short diagonal (0,0)-(1,0), Dave's on the long one
    sl = slot(B_, C_)
    s = pos([(sl, "R10", 0)], at=(B_, "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)))
    cs = rhomb_corners(sl, 0)
    assert targets(s, TOM, "drift") == {C_}
    s_d = pos([(sl, "R10", 0)], at=("TOM_BASE", cs["A"]), supply=((1, 0, 0, 0), (0, 1, 0, 0)))
    assert targets(s_d, DAVE, "drift") == {cs["C"]}  # Dave's own long diagonal
    s_t = pos([(sl, "R10", 0)], at=(cs["A"], "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)))
    assert targets(s_t, TOM, "drift") == set()
    assert targets(s_t, TOM, "control") == {cs["C"]}
    s2, ev = act(s_t, TOM, {"t": "move", "mode": "control", "to": cs["C"]})
    assert s2.supply[TOM][1] == 0 and s2.stock[1] == s_t.stock[1] + 1  # paid back to the stock
    no_counter = pos([(sl, "R10", 0)], at=(cs["A"], "DAVE_BASE"))
    with pytest.raises(IllegalAction, match="no control counter"):
        R.check(no_counter, TOM, {"t": "move", "mode": "control", "to": cs["C"]})


def test_crossing_tubes_without_a_sphere_are_not_connected():  # A5
    sl = slot(B_, C_)
    cs = rhomb_corners(sl, 0)
    s = pos([(sl, "R08", 0)], at=(cs["A"], "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)))
    assert targets(s, TOM, "control") == {cs["C"]}  # never onto Dave's crossing diagonal


def test_energy_sphere_joins_both_diagonals_straight_through():
    sl = slot(B_, C_)
    cs = rhomb_corners(sl, 0)
    centre = f"c{sl}"
    s = pos([(sl, "R07", 0)], at=(cs["A"], "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)),
            counters={centre: "energy"})
    assert targets(s, TOM, "drift") == {centre}  # the counter stops him on the sphere
    empty = pos([(sl, "R07", 0)], at=(cs["A"], "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)))
    assert targets(empty, TOM, "drift") == {centre, cs["C"]}
    assert targets(empty, TOM, "control") == {centre, cs["C"]}  # B and D would be a change of direction
    on = pos([(sl, "R07", 0)], at=(centre, "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)))
    assert targets(on, TOM, "drift") == {cs["A"], cs["C"]}
    assert targets(on, TOM, "control") == {cs["A"], cs["B"], cs["C"], cs["D"]}


def test_ramification_without_sphere_choose_a_branch_never_stop():
    t = tri(B_, C_, k(0, 1))
    s = pos(extra=[(t, TOM, "Y", 0)], at=(B_, "DAVE_BASE"))
    assert targets(s, TOM, "drift") == {C_, k(0, 1)}  # never the junction, never back to the start
    assert R.move_targets(s, TOM, "drift")[C_] == (B_, f"j{t}", C_)
    dave = pos(extra=[(t, TOM, "Y", 0)], at=("TOM_BASE", B_), supply=((1, 0, 0, 0), (0, 1, 0, 0)))
    assert targets(dave, DAVE, "drift") == set() and targets(dave, DAVE, "control") == {C_, k(0, 1)}
    # a branch into an incomplete sphere is dead
    far = next(tt for tt in AROUND[k(0, 1)] if B_ not in TRI_CORNERS[tt] and C_ not in TRI_CORNERS[tt])
    s2 = pos(extra=[(t, TOM, "Y", 0)], leave=[far], at=(B_, "DAVE_BASE"))
    assert targets(s2, TOM, "drift") == {C_}


def test_parallel_tubes_on_one_edge_are_separate_branches():  # A12
    # Tom's arc along (0,0)-(1,0) on the triangle above that edge, a neutral side tube below it
    up = tri(B_, C_, k(1, -1))
    sl = slot(k(0, 1), C_)  # the rhomb below: triangles (0,0),(1,0),(0,1) and (1,0),(1,1),(0,1)
    flip = next(f for f in (0, 1) if {rhomb_corners(sl, f)["A"], rhomb_corners(sl, f)["B"]} == {B_, C_})
    rh = [(sl, "R27", flip)]  # NS1: neutral A-B
    arc_rot = TRI_CORNERS[up].index(k(1, -1))  # the empty corner: the arc runs along (0,0)-(1,0)
    s = pos(rh, extra=[(up, TOM, "arc", arc_rot)], at=(B_, "DAVE_BASE"))
    assert s.board.tube_ends(B_) == 2
    assert targets(s, TOM, "drift") == {C_}
    moves = [a for a in R.legal_actions(s, TOM) if a["t"] == "move" and a["mode"] == "drift"]
    assert moves == [{"t": "move", "mode": "drift", "to": C_}]  # one destination, whichever tube


def test_never_end_on_the_start_sphere():  # A11
    s = pos(LINE, at=(B_, "DAVE_BASE"))
    assert B_ not in targets(s, TOM, "drift")
    with pytest.raises(IllegalAction, match="another sphere"):
        R.check(s, TOM, {"t": "move", "mode": "drift", "to": B_})


def test_printed_tubes_and_ports_serve_both_foreign_modules_never():  # A21, §4 "printed ... by both"
    s = R.initial_state({"first": 0})
    assert targets(s, TOM, "drift") == {k(1, -3), k(2, -3)}  # printed tubes count as neutral
    # Dave on Tom's port (1,-3): the printed tube leads only into Tom's base
    p = pos([(slot(k(0, -2), k(1, -3)), "R38", 0)], at=("TOM_SOLAR_UL", k(0, -2)),
            supply=((1, 0, 0, 0), (0, 1, 0, 0)))
    assert k(1, -3) in targets(p, DAVE, "drift")
    on_port = pos([(slot(k(0, -2), k(1, -3)), "R38", 0)], at=("TOM_SOLAR_UL", k(1, -3)),
                  supply=((1, 0, 0, 0), (0, 1, 0, 0)), turn=DAVE)
    assert "TOM_BASE" not in targets(on_port, DAVE, "control")
    with pytest.raises(IllegalAction, match="other astronaut's base or solar"):
        R.check(on_port, DAVE, {"t": "move", "mode": "control", "to": "TOM_BASE"})


def test_own_solar_module_collects_the_solar_counter():
    s = pos(at=(k(-2, -2), "DAVE_BASE"))
    assert "TOM_SOLAR_UL" in targets(s, TOM, "drift")
    s2, ev = act(s, TOM, {"t": "move", "mode": "drift", "to": "TOM_SOLAR_UL"})
    assert s2.supply[TOM][3] == 1 and "TOM_SOLAR_UL" not in s2.solar_left
    assert {"e": "pickup", "player": TOM, "kind": "solar", "node": "TOM_SOLAR_UL"} in ev


# ------------------------------------------------------------------------------------- jumps
def test_space_jump_along_one_space_edge():
    full = pos([(slot(B_, C_), "R38", 0)], at=(B_, k(0, 1)))
    # (0,0)'s six neighbours are complete; (1,0) lies across the rhomb's short diagonal, Dave is on (0,1)
    assert targets(full, TOM, "jump") == {k(-1, 0), k(-1, 1), k(0, -1), k(1, -1)}
    s2, ev = act(full, TOM, {"t": "move", "mode": "jump", "to": k(0, -1)})
    assert s2.supply[TOM][0] == 0 and s2.stock[0] == full.stock[0] + 1
    broke = pos(at=(B_, "DAVE_BASE"), supply=((0, 0, 0, 0), (1, 0, 0, 0)))
    with pytest.raises(IllegalAction, match="no energy counter"):
        R.check(broke, TOM, {"t": "move", "mode": "jump", "to": k(0, -1)})


def test_jump_never_from_or_to_energy_spheres_or_modules_but_ports_are_fine():
    sl = slot(B_, C_)
    s = pos([(sl, "R36", 0)], at=(f"c{sl}", "DAVE_BASE"))
    assert targets(s, TOM, "jump") == set()  # from an energy sphere
    s2 = pos([(sl, "R36", 0)], at=(B_, "DAVE_BASE"))
    assert f"c{sl}" not in targets(s2, TOM, "jump")
    port = pos(at=(k(1, -3), "DAVE_BASE"))
    # (1,-3): neighbours (2,-3) port, (0,-3) dead (never complete), (0,-2) and (1,-2) interior; never the base
    assert targets(port, TOM, "jump") == {k(2, -3), k(0, -2), k(1, -2)}
    assert targets(R.initial_state({"first": 0}), TOM, "jump") == set()  # not from a base


def test_jump_onto_a_counter_picks_it_up_alien_spheres_by_jump():  # A10
    s = pos(at=(B_, "DAVE_BASE"), counters={k(0, -1): "alien"})
    assert targets(s, TOM, "drift") == set()  # no tube at all: an alien sphere is reached by jumping
    s2, ev = act(s, TOM, {"t": "move", "mode": "jump", "to": k(0, -1)})
    assert s2.supply[TOM] == (0, 0, 1, 0) and s2.counters == {}


# ---------------------------------------------------------------------------------- exchange
def test_alien_exchange_one_control_two_energy():  # A9
    s = pos(at=(B_, "DAVE_BASE"), supply=((0, 0, 1, 0), (1, 0, 0, 0)))
    assert {"t": "exchange"} in R.legal_actions(s, TOM)
    s2, _ = act(s, TOM, {"t": "exchange"})
    assert s2.supply[TOM] == (2, 1, 0, 0) and s2.stock == (s.stock[0] - 2, s.stock[1] - 1, s.stock[2] + 1)
    assert s2.phase == "turn" and s2.turn == TOM  # the turn goes on: now he may pay for a move
    assert R.invariants(s2) == [] or all("triangles" in m for m in R.invariants(s2))
    short = pos(at=(B_, "DAVE_BASE"), supply=((1, 8, 1, 0), (21, 0, 0, 0)))
    assert short.stock[1] == 0
    with pytest.raises(IllegalAction, match="stock lacks"):
        R.check(short, TOM, {"t": "exchange"})
    with pytest.raises(IllegalAction, match="no alien"):
        R.check(pos(at=(B_, "DAVE_BASE")), TOM, {"t": "exchange"})
    with pytest.raises(IllegalAction, match="not Dave's turn"):
        R.check(s, DAVE, {"t": "exchange"})


# --------------------------------------------------------------------------------- turn order
# A corridor from Tom's base port (1,-3) to Dave's base port (-1,3): Tom-coloured short tubes on
# (1,-3)-(1,-2)-(0,-1)-(0,0), a neutral one on (0,0)-(-1,1), Dave-coloured ones on (-1,1)-(-1,2)-(-1,3).
CORRIDOR = [(67, "R24", 0), (55, "R20", 0), (54, "R10", 0), (42, "R38", 0), (41, "R08", 0), (46, "R26", 0)]


def _corridor(at, supply, turn=DAVE):
    assert [SLOTS[s][0] for s, _r, _f in CORRIDOR] == [
        edge_key(k(1, -3), k(1, -2)), edge_key(k(1, -2), k(0, -1)), edge_key(k(0, -1), k(0, 0)),
        edge_key(k(0, 0), k(-1, 1)), edge_key(k(-1, 1), k(-1, 2)), edge_key(k(-1, 2), k(-1, 3))]
    return pos(CORRIDOR, at=at, supply=supply, stack=(), turn=turn)


def test_player_who_cannot_act_is_skipped():
    # Dave (1 control, 1 energy) drifts along Tom's tube from (0,-1) onto (0,0) and blocks Tom at (-1,1):
    # Tom's neutral tube leads to Dave, his other tubes are Dave's, he has no counter: he cannot act
    s = _corridor((k(-1, 1), k(0, -1)), ((0, 0, 0, 0), (1, 1, 0, 0)))
    s2, ev = act(s, DAVE, {"t": "move", "mode": "control", "to": k(0, 0)})
    assert {"e": "skip", "player": TOM} in ev
    assert s2.phase == "turn" and s2.turn == DAVE


def test_neither_can_act_the_game_ends_blocked():
    s = _corridor((k(-1, 1), k(0, -1)), ((0, 0, 0, 0), (0, 1, 0, 0)))
    s2, ev = act(s, DAVE, {"t": "move", "mode": "control", "to": k(0, 0)})
    assert s2.phase == "over" and s2.end == "blocked" and s2.stranded == (False, False)


# ------------------------------------------------------------------------------------ endings
def test_end_with_bonus_counts_the_slower_astronauts_turns():
    # Tom holds both solar counters next to his base; rhombs can still be placed. Dave needs two turns:
    # (-1,1) -> (-1,3) is one Dave drift straight through (-1,2) (direction 2 twice), then into his base.
    s = _corridor((k(1, -3), k(-1, 1)), ((0, 0, 0, 2), (0, 0, 0, 0)), turn=TOM)
    s = pos(CORRIDOR, leave=FAR, at=s.at, supply=s.supply, turn=TOM, stack=("R01",))
    assert R.placeable(s)
    s_, _ = act(s, TOM, {"t": "move", "mode": "drift", "to": "TOM_BASE"})
    assert s_.bonus_for == TOM and s_.turn == DAVE and s_.phase == "turn"
    assert {"t": "draw"} not in R.legal_actions(s_, DAVE)
    with pytest.raises(IllegalAction, match="no rhombs"):
        R.check(s_, DAVE, {"t": "draw"})
    s_, _ = act(s_, DAVE, {"t": "move", "mode": "drift", "to": k(-1, 3)})
    assert s_.turn == DAVE and s_.bonus_turns == 1
    s_, _ = act(s_, DAVE, {"t": "move", "mode": "drift", "to": "DAVE_BASE"})
    assert s_.phase == "over" and s_.end == "bonus"
    out = R.outcome(s_)
    assert out["breakdown"][TOM]["bonus"] == 2 and out["scores"] == [10 + 2, 0] and out["winner"] == TOM


def test_bonus_phase_own_solar_is_not_collected_and_does_not_stop():  # A16
    s = pos(at=("TOM_BASE", k(-4, 1)), supply=((0, 0, 0, 2), (0, 0, 0, 0)), bonus_for=TOM, turn=DAVE)
    assert "DAVE_SOLAR_LL" in s.solar_left
    assert "DAVE_SOLAR_LL" not in R.stops(s, DAVE)
    s2, ev = act(s, DAVE, {"t": "move", "mode": "drift", "to": "DAVE_SOLAR_LL"})
    assert s2.supply[DAVE][3] == 0 and "DAVE_SOLAR_LL" in s2.solar_left
    assert not any(e["e"] == "pickup" for e in ev)


def test_end_without_bonus_when_no_rhomb_can_be_placed():  # A13
    s = _corridor((k(1, -3), k(-1, 1)), ((0, 0, 0, 2), (0, 0, 0, 0)), turn=TOM)
    s2, _ = act(s, TOM, {"t": "move", "mode": "drift", "to": "TOM_BASE"})
    assert s2.phase == "over" and s2.end == "no_bonus" and R.outcome(s2)["bonus_turns"] == 0
    # returning without solar counters ends it too
    s3 = _corridor((k(1, -3), k(-1, 1)), ((0, 0, 0, 0), (3, 0, 0, 0)), turn=TOM)
    s4, _ = act(s3, TOM, {"t": "move", "mode": "drift", "to": "TOM_BASE"})
    assert s4.end == "no_bonus" and R.winner(s4) == DAVE


def test_last_rhomb_placed_while_an_astronaut_is_home_ends_the_game():  # A13
    s = build_state(R, turn=TOM, stack=("R05",))
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R05"})
    s, _ = act(s, TOM, {"t": "place", "slot": 3, "flip": 0})
    assert s.phase == "over" and s.end == "no_bonus"


def test_immediate_stranding_loses():  # A14 a, A15
    # Q1m (R22) on (0,0)-(1,0): Dave's tube on the short diagonal; Tom's B-C tube keeps clear of D.
    sl = slot(B_, C_)
    f = flip_with(sl, "B", B_)
    cs = rhomb_corners(sl, f)
    assert cs["D"] == C_
    s = pos([(sl, "R22", f)], leave=FAR, at=(B_, "DAVE_BASE"), supply=((0, 1, 0, 0), (1, 0, 0, 0)))
    s2, ev = act(s, TOM, {"t": "move", "mode": "control", "to": C_})
    # on (1,0) only Dave's tube, no counter left: Tom can never move again
    assert s2.phase == "over" and s2.end == "stranded" and s2.stranded == (True, False)
    assert R.winner(s2) == DAVE
    lenient = pos([(sl, "R22", f)], leave=FAR, at=(B_, "DAVE_BASE"), supply=((0, 1, 0, 1), (1, 0, 0, 0)),
                  config={"stranded_loses": False})
    s3, _ = act(lenient, TOM, {"t": "move", "mode": "control", "to": C_})
    assert s3.end == "stranded" and R.winner(s3) == TOM  # 5 points against 1: counters decide


def test_stranding_on_a_board_that_no_longer_changes():  # A14 b
    # one neutral tube (1,-2)-(0,-2), no others; the stack is empty. From (0,-2) a jump reaches the port
    # (1,-3), whose printed tube leads home - but only with an energy counter.
    rh = [(slot(k(1, -2), k(0, -2)), "R38", 0)]
    broke = pos(rh, at=(k(1, -2), "DAVE_BASE"), supply=((0, 0, 0, 0), (1, 0, 0, 0)), stack=())
    assert not R.is_stranded(broke, DAVE)
    assert R.is_stranded(broke, TOM)  # he has a tube (not case a), but no way home
    in_reach = pos(rh, at=(k(1, -2), "DAVE_BASE"), supply=((0, 0, 0, 0), (1, 0, 0, 0)), stack=(),
                   counters={k(0, -2): "energy"})
    assert not R.is_stranded(in_reach, TOM)  # the energy counter on (0,-2) is on his way
    out_of_reach = pos(rh, at=(k(1, -2), "DAVE_BASE"), supply=((0, 0, 0, 0), (1, 0, 0, 0)), stack=(),
                       counters={k(3, -2): "energy"})
    assert R.is_stranded(out_of_reach, TOM)
    placeable = pos(rh, at=(k(1, -2), "DAVE_BASE"), supply=((0, 0, 0, 0), (1, 0, 0, 0)), leave=FAR)
    assert not R.is_stranded(placeable, TOM)  # rhombs may still come


def test_turn_limit_ends_the_game_and_keeps_the_bonus_counted_so_far():
    s = _corridor((k(1, -3), k(-1, 1)), ((0, 0, 0, 2), (0, 0, 0, 0)), turn=TOM)
    s = pos(CORRIDOR, leave=FAR, at=s.at, supply=s.supply, turn=TOM, stack=("R01",), config={"turn_limit": 2})
    s, _ = act(s, TOM, {"t": "move", "mode": "drift", "to": "TOM_BASE"})
    assert s.bonus_for == TOM and s.phase == "turn"
    s, _ = act(s, DAVE, {"t": "move", "mode": "drift", "to": k(0, 0)})  # away from home
    assert s.phase == "over" and s.end == "turn_limit"
    assert R.outcome(s)["breakdown"][TOM]["bonus"] == 1 and R.winner(s) == TOM


def test_scoring_and_ties():  # rulebook "Evaluation", A17
    s = pos(at=("TOM_BASE", "DAVE_BASE"), supply=((3, 2, 1, 2), (1, 0, 0, 0)))
    assert R.breakdown(s, TOM) == {"energy": 3, "control": 2, "alien": 1, "solar": 2, "bonus": 0,
                                   "total": 3 + 4 + 5 + 10}
    tie = pos(at=("TOM_BASE", k(0, 0)), supply=((2, 0, 0, 0), (2, 0, 0, 0)))
    from dataclasses import replace
    over = replace(tie, phase="over", end="no_bonus", home_since=(40, None))
    assert R.winner(over) == TOM  # came home first
    assert R.winner(replace(over, home_since=(None, None))) is None
    assert R.winner(replace(over, at=("TOM_BASE", "DAVE_BASE"), home_since=(40, 31))) == DAVE


# ------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("action,why", [
    ({"t": "teleport"}, "unknown action"),
    ({"t": "draw", "x": 1}, "exactly the fields"),
    ({"t": "place", "slot": 3, "flip": 0}, "no drawn rhomb"),
    ({"t": "move", "mode": "fly", "to": "0,0"}, "mode must be"),
    ({"t": "move", "mode": "drift", "to": "9,9"}, "not a node"),
    ({"t": "move", "mode": "drift", "to": 5}, "node id"),
    ({"t": "fill", "tri": 1, "piece": "arc", "rot": 0}, "no isolated"),
    ({"t": "leave"}, "other player"),
])
def test_bad_actions_are_refused_with_a_reason(action, why):
    s = R.initial_state({"first": 0})
    with pytest.raises(IllegalAction, match=why):
        R.check(s, TOM, action)


def test_bad_placement_values():
    s = R.initial_state({"first": 0})
    s, _ = act(s, TOM, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R01"})
    for bad, why in [({"slot": 106, "flip": 0}, "slot must"), ({"slot": True, "flip": 0}, "slot must"),
                     ({"slot": 4, "flip": 2}, "flip must")]:
        with pytest.raises(IllegalAction, match=why):
            R.check(s, TOM, {"t": "place", **bad})
    with pytest.raises(IllegalAction, match="not a chance outcome"):
        R.check(s, CHANCE, {"t": "rhomb", "id": "R01"})
    with pytest.raises(ValueError):
        R.validate_config({"first": 2})
    with pytest.raises(ValueError):
        R.validate_config({"turn_limit": 0})


def test_rhomb_ids_in_data_and_stack_agree():
    assert set(RHOMB_BY_ID) == set(RHOMB_IDS) and BASES[TOM] == "TOM_BASE" and len(INTERIOR) == 29
