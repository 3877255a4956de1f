"""Tom Tube data and geometry (research/tomtube.md §3.2-§3.7, §6 "Geometry"; A1, A2, A19, A22).

Counts are checked against closed formulas for a lattice hexagon with sides a, b, c, a, b, c (not against
the code's own loops), the rhomb table against the design rules of §3.6, and the board mirror with the
colours swapped against every placed tile.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from games.tomtube import data, geometry as g
from games.tomtube.board import Board
from games.tomtube.data import (BASES, MODULES, PALETTE, POINTS, RHOMB_BY_ID, RHOMBS, SOLARS, STOCK, TRIANGLE_SET)

A, B, C = 5, 3, 3  # sides of the board hexagon (research §3.2)


# ------------------------------------------------------------------------------------------- board
def test_board_counts_match_the_hexagon_formulas():
    area = A * B + B * C + C * A
    assert len(g.TRIANGLES) == 2 * area == 78
    assert len(g.KNOTS) == area + A + B + C + 1 == 51
    assert len(g.INTERIOR) == area - (A + B + C) + 1 == 29
    assert len(g.SLOTS) == 3 * area - (A + B + C) == 106
    assert len(g.BORDER_EDGES) == 2 * (A + B + C) == 22
    assert len(g.PORTS) == 12 and len(g.DEAD) == 10
    assert len(g.INTERIOR) + len(g.PORTS) + len(g.DEAD) == 51


def test_triangles_per_row_and_sides():
    rows = Counter(r for _kind, _q, r in g.TRIANGLES)
    assert [rows[r] for r in sorted(rows)] == [11, 13, 15, 15, 13, 11]
    # the long sides (top and bottom rows of knots) have 5 space edges, the others 3
    top = [k for k in g.KNOTS if k[1] == -3]
    bottom = [k for k in g.KNOTS if k[1] == 3]
    assert len(top) - 1 == 5 and len(bottom) - 1 == 5


def test_dead_knots_are_the_listed_ones():
    assert g.DEAD == {g.kid(*k) for k in [(-1, -3), (0, -3), (3, -3), (4, -3), (-4, 0), (4, 0), (-4, 3), (-3, 3),
                                          (0, 3), (1, 3)]}


def test_every_port_has_three_triangles_and_touches_its_module():
    for m in MODULES:
        for p in m.ports:
            pid = g.kid(*p)
            assert g.PORTS[pid] == m.name
            assert len(g.AROUND[pid]) == 3
            dq, dr = p[0] - m.virtual[0], p[1] - m.virtual[1]
            assert (dq, dr) in g.NB6  # one space edge from the module's virtual knot
            assert not data.on_board(*m.virtual)


def test_modules_sit_on_the_sides_as_described():
    by = {m.name: m for m in MODULES}
    assert by["TOM_BASE"].owner == data.TOM and g.node_xy("TOM_BASE")[1] < -3
    assert by["DAVE_BASE"].owner == data.DAVE and g.node_xy("DAVE_BASE")[1] > 3
    ul, lr = (g.node_xy(m) for m in SOLARS[data.TOM])
    assert ul[0] < 0 and ul[1] < 0 and lr[0] > 0 and lr[1] > 0
    ur, ll = (g.node_xy(m) for m in SOLARS[data.DAVE])
    assert ur[0] > 0 and ur[1] < 0 and ll[0] < 0 and ll[1] > 0
    assert BASES == ("TOM_BASE", "DAVE_BASE")


def test_printed_tubes_meet_at_sixty_degrees_at_each_module():
    for m in MODULES:
        dirs = sorted(du for u, _v, c, du, _dv in g.PRINTED_SEGS if u == m.name)
        assert len(dirs) == 2
        assert (dirs[1] - dirs[0]) % 12 in (2, 10)  # 60 degrees: never straight through a module


def test_mirror_maps_tom_objects_onto_dave_objects():
    for m in MODULES:
        other = g.mirror_node(m.name)
        om = g.MODULE_BY_NAME[other]
        assert om.owner != m.owner and om.kind == m.kind
        assert {g.mirror_node(g.kid(*p)) for p in m.ports} == {g.kid(*p) for p in om.ports}
    assert {g.mirror_node(k) for k in g.KNOT_IDS} == set(g.KNOT_IDS)
    assert {g.mirror_node(k) for k in g.DEAD} == set(g.DEAD)


def test_rhomb_corners_on_every_slot():
    for s, ((e1, e2), t1, t2) in enumerate(g.SLOTS):
        c0, c1 = g.rhomb_corners(s, 0), g.rhomb_corners(s, 1)
        for cs in (c0, c1):
            assert {cs["B"], cs["D"]} == {e1, e2}
            assert {cs["A"], cs["C"]} == (set(g.TRI_CORNERS[t1]) | set(g.TRI_CORNERS[t2])) - {e1, e2}
            # picture never mirrored: going round A, B, C, D turns the same way (B on the left of A->C)
            (ax, ay), (bx, by), (cx, cy) = (g.node_xy(cs[x]) for x in "ABC")
            assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0
        # the two orientations are the picture turned by 180 degrees
        assert (c1["A"], c1["B"], c1["C"], c1["D"]) == (c0["C"], c0["D"], c0["A"], c0["B"])


def test_directions_of_chords():
    assert g.direction((0, 0), (1, 0)) == 0
    assert g.direction(g.lattice_xy((0, 0)), g.lattice_xy((0, 1))) == 2
    assert g.direction(g.lattice_xy((0, 0)), g.lattice_xy((-1, 2))) == 3  # a long diagonal
    assert g.direction(g.lattice_xy((0, 0)), g.lattice_xy((1, -1))) == 10
    # a Y branch leaves its corner along the corner's bisector (an odd direction)
    t = 0
    for corner in g.TRI_CORNERS[t]:
        assert g.segment(corner, f"j{t}", "TOM")[3] % 2 == 1


# ------------------------------------------------------------------------------------------ rhombs
def test_forty_rhombs_with_ten_energy_spheres():
    assert len(RHOMBS) == 40 and len(set(r.id for r in RHOMBS)) == 40
    energy = sorted(r.id for r in RHOMBS if r.energy)
    assert energy == ["R07", "R09", "R19", "R21", "R23", "R25", "R31", "R32", "R36", "R37"]
    assert data.ENERGY_TILES == 10  # A22 tunable
    two = [r for r in RHOMBS if len(r.tubes) == 2]
    neutral = [r for r in RHOMBS if len(r.tubes) == 1]
    assert len(two) == 26 and len(neutral) == 14
    assert all({c for c, _a, _b in r.tubes} == {"TOM", "DAVE"} for r in two)
    assert all(r.tubes[0][0] == "NEUTRAL" for r in neutral)
    designs = Counter(r.design for r in RHOMBS)
    assert designs == {"P1": 3, "P2": 3, "X1": 2, "X2": 2, "V1": 4, "V2": 4, "Q1": 2, "Q1m": 2, "Q2": 2, "Q2m": 2,
                       "NS1": 2, "NS2": 2, "NL": 5, "NB": 5}


def _tube_class(a: str, b: str) -> str:
    pair = frozenset((a, b))
    if pair in (frozenset("AC"),):
        return "long"
    if pair == frozenset("BD"):
        return "short"
    return "AB" if pair in (frozenset("AB"), frozenset("CD")) else "AD"


@pytest.mark.parametrize("player", [data.TOM, data.DAVE])
def test_each_player_gets_one_usable_tube_per_rhomb_with_equal_shapes(player):
    own = data.PLAYER_COLOUR[player]
    shapes = Counter()
    for r in RHOMBS:
        usable = [t for t in r.tubes if t[0] in (own, "NEUTRAL")]
        assert len(usable) == 1, r.id
        if usable[0][0] == own:
            shapes[_tube_class(usable[0][1], usable[0][2])] += 1
    # research §3.6: 9 along AB-class sides, 9 along AD-class sides, 2 long and 6 short diagonals
    assert shapes == {"AB": 9, "AD": 9, "long": 2, "short": 6}


def test_sector_rule_and_energy_tubes():
    for r in RHOMBS:
        ends = Counter(x for _c, a, b in r.tubes for x in (a, b))
        assert ends["A"] <= 1 and ends["C"] <= 1, r.id  # acute corners: one 60-degree sector
        assert ends["B"] <= 2 and ends["D"] <= 2, r.id  # obtuse corners: two sectors
        if r.energy:  # the cross sits on a diagonal tube through the centre
            assert any(_tube_class(a, b) in ("long", "short") for _c, a, b in r.tubes), r.id
    # only neutral or two-colour tiles leave corners empty, which control and alien spheres need
    assert any(sum(1 for _c, a, b in r.tubes for x in (a, b) if x == "D") == 0 for r in RHOMBS)


def _picture(segs):
    """A placed tile as a set of (unordered end positions, colour); positions on a doubled grid."""
    def pos(n):
        x, y = g.node_xy(n)
        return (round(4 * x), round(4 * y / g.H))
    return frozenset((frozenset((pos(u), pos(v))), c) for u, v, c, _du, _dv in segs)


SWAP = {"TOM": "DAVE", "DAVE": "TOM", "NEUTRAL": "NEUTRAL"}


def test_rhomb_set_is_invariant_under_the_mirror_with_colours_swapped():
    designs = {}
    for r in RHOMBS:
        designs.setdefault((r.design, r.energy), r.id)
    for slot in (0, 37, 60, 105):
        (e1, e2), _t1, _t2 = g.SLOTS[slot]
        mslot = g.SLOT_OF_EDGE[g.edge_key(g.mirror_node(e1), g.mirror_node(e2))]
        images = {(rid2, f2): _picture(g.rhomb_segments(mslot, rid2, f2)) for rid2 in designs.values()
                  for f2 in (0, 1)}
        image_count = Counter()
        for r in RHOMBS:
            segs = g.rhomb_segments(slot, r.id, 0)
            match = [rid2 for (rid2, _f2), pic in images.items() if pic == _mirror_picture(_picture(segs))]
            assert match, (r.id, slot)
            image_count[(RHOMB_BY_ID[match[0]].design, RHOMB_BY_ID[match[0]].energy)] += 1
        assert image_count == Counter((r.design, r.energy) for r in RHOMBS)


def _mirror_picture(pic):
    return frozenset((frozenset((x, -y) for x, y in ends), SWAP[c]) for ends, c in pic)


# ---------------------------------------------------------------------------------------- triangles
def test_nine_triangles_per_player():
    assert sum(TRIANGLE_SET.values()) == 9
    with_tubes = sum(n for p, n in TRIANGLE_SET.items() if g.piece_segments(0, "TOM", p, 0))
    assert with_tubes == 6 and TRIANGLE_SET["plain"] == 3
    assert TRIANGLE_SET["arc"] == 3 and TRIANGLE_SET["Y"] == 3  # A22 split
    arc = g.piece_segments(5, "DAVE", "arc", 1)
    assert len(arc) == 1 and g.TRI_CORNERS[5][1] not in arc[0][:2]  # rotation names the empty corner
    y = g.piece_segments(5, "DAVE", "Y", 0)
    assert len(y) == 3 and all(v == "j5" for _u, v, *_r in y)


# ----------------------------------------------------------------------------------------- counters
def test_contents_and_points():
    assert STOCK == {"energy": 24, "control": 8, "alien": 6}
    assert data.SOLAR_PER_PLAYER * 2 == 4 and data.START_ENERGY == 1
    assert POINTS == {"energy": 1, "control": 2, "alien": 5, "solar": 5} and data.BONUS_POINTS_PER_TURN == 1
    assert data.ALIEN_EXCHANGE == {"control": 1, "energy": 2}
    # 2 start counters + 10 energy spheres + 6 alien exchanges x 2 = the 24 energy counters (§3.6)
    assert 2 * data.START_ENERGY + data.ENERGY_TILES + 2 * STOCK["alien"] == STOCK["energy"]


def test_palette_follows_a19():
    assert PALETTE["TOM"] == (0xF3, 0x9C, 0x12) and PALETTE["DAVE"] == (0xD0, 0x30, 0x2A)
    assert PALETTE["energy"] == (0xF5, 0xD8, 0x00)
    r, gr, b = PALETTE["control"]
    assert b > r and b > gr
    r, gr, b = PALETTE["alien"]
    assert gr > r and gr > b


def test_at_most_six_tube_ends_meet_at_a_knot():
    rng = random.Random(5)
    for _ in range(20):
        b = Board.empty()
        ids = list(data.RHOMB_IDS)
        rng.shuffle(ids)
        while b.free_slots() and ids:
            b = b.place_rhomb(rng.choice(b.free_slots()), ids.pop(), rng.randrange(2))
        for t in b.isolated():
            b = b.place_piece(t, rng.randrange(2), rng.choice(["arc", "Y"]), 0)
        for k in g.INTERIOR:
            assert b.tube_ends(k) <= 6
        for p in g.PORTS:
            assert b.tube_ends(p) <= 4  # 3 sectors plus the printed tube
