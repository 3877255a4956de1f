"""Tantrix positions with known answers from other implementations (research/real/tantrix_positions.json).

Sources: pierrebai/Tantrix (C++ solver tests), Barry Becker's bb4-puzzles (Scala tests) and
lwiest/SolvingTantrix (Discovery puzzle solution counts). Each record gives the position in the
source's own coordinates and, under "converted", in ours. This file re-derives the conversions
independently from the stated source conventions, checks they agree with the JSON, then checks each
stated fact with our engine (Board, pattern_fit, tile data) plus small followers written here and the
naive model of tests/naive.py.

Conventions (from the JSON's "sources"):
* pierrebai: position (x, y), direction deltas d0 (-1,0), d1 (0,-1), d2 (1,-1), d3 (1,0), d4 (0,1),
  d5 (-1,1); colors[d] at direction d; rotation k shows colors[(d + k) % 6]. Its tile table is ours
  (same handedness), so the linear map sending its d-th delta to our d-th direction converts it:
  (x, y) -> (q, r) = (-x - y, y). Rotations carry over unchanged.
* Becker: Location(row, col) in "even-r" offset coordinates; PathColors listed counter-clockwise
  from E; ANGLE_k ordinal k shows edgeColors[(i - k) % 6] at direction i. Its tiles are the mirror
  images of ours, so a Becker position is mirrored (across the vertical axis: direction i -> 3 - i,
  (q, r) -> (-q - r, r)) and then every tile is one of ours in some rotation ("our_table_mirrored").
  Loops, matches, holes and neighbour counts are unchanged by mirroring.
* lwiest: its tiles are also the mirror images of ours (for tiles 1-10); solution counts are therefore
  the same for our tiles (mirroring maps solutions to solutions one to one).
"""
from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path

import pytest

from games.gobble import data
from games.gobble.board import Board, pattern_fit
from sim.core import hexgrid as hg

from naive import BASE, naive_mismatches, nb

JSON_PATH = Path(__file__).resolve().parent / "data" / "tantrix_positions.json"

DOC = json.loads(JSON_PATH.read_text(encoding="utf-8"))
RECORDS = {r["id"]: r for r in DOC["records"]}
OUR = BASE  # our tile table


def canon(e):
    return min(e[i:] + e[:i] for i in range(6))


def mirror(e):
    """Colours of the mirror image (across the vertical axis): direction i -> 3 - i."""
    return "".join(e[(3 - i) % 6] for i in range(6))


# ------------------------------------------------------------------------- conversions
def pb_to_axial(x, y):
    return (-x - y, y)


def becker_to_axial(row, col):
    # even-r offset -> axial (Red Blob "Offset coordinates"): odd rows shifted half a cell left.
    return (col - (row + (row & 1)) // 2, row)


BECKER_ORIGIN = becker_to_axial(21, 21)  # tile 1 at (21, 21) is the origin of the converted positions
ANGLE = {f"ANGLE_{60 * k}": k for k in range(6)}


def our_rotation(n, shown):
    """The rotation of our tile n that shows ``shown`` at directions 0..5 (None if none does)."""
    rots = [k for k in range(6) if data.ROT_EDGES[n][k] == shown]
    assert len(rots) <= 1
    return rots[0] if rots else None


def convert_pierrebai(placements):
    return sorted((p["tile"], *pb_to_axial(p["x"], p["y"]), p["rotation"]) for p in placements)


def convert_becker(placements):
    tiles = DOC["sources"]["becker"]["tiles"]
    out = []
    for p in placements:
        n, k = p["tile"], ANGLE[p["rotation"]]
        src = tiles[str(n)]
        shown_src = "".join(src[(i - k) % 6] for i in range(6))
        q, r = becker_to_axial(p["row"], p["col"])
        q, r = q - BECKER_ORIGIN[0], r - BECKER_ORIGIN[1]
        mq, mr = -q - r, r
        rot = our_rotation(n, mirror(shown_src))
        assert rot is not None, f"mirrored Becker tile {n} is not our tile {n}"
        out.append((n, mq, mr, rot))
    return sorted(out)


def placements_of(rec):
    conv = rec["converted"]
    rows = conv.get("our_table") or conv.get("our_table_mirrored")
    return {(p["q"], p["r"]): (p["tile"], p["rot"]) for p in rows}


def board_of(rec):
    return Board.from_tiles(placements_of(rec))


# ----------------------------------------------------------------- followers written here
def holes(tiles):
    """Empty cells enclosed by tiles (not reachable from far away), as a list of components."""
    qs = [q for q, _ in tiles]
    rs = [r for _, r in tiles]
    box = {(q, r) for q in range(min(qs) - 2, max(qs) + 3) for r in range(min(rs) - 2, max(rs) + 3)}
    start = (min(qs) - 2, min(rs) - 2)
    seen = {start}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for d in range(6):
            m = nb(c, d)
            if m in box and m not in tiles and m not in seen:
                seen.add(m)
                todo.append(m)
    inside = sorted(c for c in box if c not in tiles and c not in seen)
    comps, left = [], set(inside)
    while left:
        c = min(left)
        comp, todo = {c}, deque([c])
        left.discard(c)
        while todo:
            x = todo.popleft()
            for d in range(6):
                m = nb(x, d)
                if m in left:
                    left.discard(m)
                    comp.add(m)
                    todo.append(m)
        comps.append(sorted(comp))
    return comps


def colour_lines(board, colour):
    """(tiles with colour, open ends, components) of the colour's links, following real joins:
    two tiles join when they touch and both show ``colour`` on the shared side."""
    nodes = [c for c in board.tiles if colour in board.edges_at(c)]
    parent = {c: c for c in nodes}

    def find(c):
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    ends = 0
    for c in nodes:
        e = board.edges_at(c)
        for d in range(6):
            if e[d] != colour:
                continue
            m = nb(c, d)
            if m in board.tiles and board.edges_at(m)[(d + 3) % 6] == colour:
                parent[find(c)] = find(m)
            else:
                ends += 1
    comps = len({find(c) for c in nodes})
    return len(nodes), ends, comps


def has_line(board, colour, loop):
    n, ends, comps = colour_lines(board, colour)
    return n > 0 and comps == 1 and ends == (0 if loop else 2)


def loop_through_all(board, colour):
    """Walk the colour from a tile until it comes back; True if it closes after visiting every tile."""
    start = next(iter(board.tiles))
    e = board.edges_at(start)
    if colour not in e:
        return False
    exit_dir = e.index(colour)
    cell, visited = start, {start}
    while True:
        nxt = nb(cell, exit_dir)
        if nxt not in board.tiles:
            return False
        entry = (exit_dir + 3) % 6
        en = board.edges_at(nxt)
        if en[entry] != colour:
            return False
        if nxt == start:
            return visited == set(board.tiles)
        if nxt in visited:
            return False
        visited.add(nxt)
        exit_dir = next(d for d in range(6) if d != entry and en[d] == colour)
        cell = nxt


def rotate60(c):
    """Rotate a cell by 60 degrees about the origin (cube (x, y, z) -> (-z, -x, -y))."""
    q, r = c
    return (-r, q + r)


def shape_key(cells):
    best = None
    cur = list(cells)
    for _ in range(6):
        mq = min(q for q, _ in cur)
        mr = min(r for _, r in cur)
        key = tuple(sorted((q - mq, r - mr) for q, r in cur))
        best = key if best is None or key < best else best
        cur = [rotate60(c) for c in cur]
    return best


# -------------------------------------------------------------------- source tile tables
def test_pierrebai_table_is_ours():
    for n, e in DOC["sources"]["pierrebai"]["tiles"].items():
        assert OUR[int(n)] == e


def _lwiest_to_our_order(s):
    # lwiest index: 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW; ours: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE.
    return "".join(s[i] for i in (1, 0, 5, 4, 3, 2))


@pytest.mark.parametrize("source", ["becker", "lwiest"])
def test_becker_and_lwiest_tiles_are_mirror_images_of_ours(source):
    chiral = []
    for n, e in DOC["sources"][source]["tiles"].items():
        n = int(n)
        theirs = _lwiest_to_our_order(e) if source == "lwiest" else e
        assert canon(theirs) == canon(mirror(OUR[n])), n
        if canon(theirs) != canon(OUR[n]):
            chiral.append(n)
    # README: for the chiral tiles 1, 3, 7, 8 and 10 the picture differs from research §1.5.
    assert chiral == [1, 3, 7, 8, 10]


def test_pierrebai_direction_deltas_map_to_ours():
    text = DOC["sources"]["pierrebai"]["coordinates"]
    deltas = [(int(a), int(b)) for a, b in re.findall(r"d\d \((-?\d+),(-?\d+)\)", text)]
    assert len(deltas) == 6
    assert [pb_to_axial(*d) for d in deltas] == [tuple(d) for d in hg.DIRS]


def test_becker_mirror_of_directions():
    # Mirroring across the vertical axis maps direction i to 3 - i and (q, r) to (-q - r, r).
    for i, (dq, dr) in enumerate(hg.DIRS):
        assert (-dq - dr, dr) == hg.DIRS[(3 - i) % 6]


# ------------------------------------------------------- conversions agree with the JSON
PIERREBAI_POS = [r for r in DOC["records"] if r["source"] == "pierrebai" and "converted" in r]
BECKER_POS = [r for r in DOC["records"] if r["source"] == "becker" and "converted" in r]
ALL_POS = PIERREBAI_POS + BECKER_POS


@pytest.mark.parametrize("rec", PIERREBAI_POS, ids=lambda r: r["id"])
def test_pierrebai_conversion(rec):
    mine = convert_pierrebai(rec["placements_as_given"])
    theirs = sorted((p["tile"], p["q"], p["r"], p["rot"]) for p in rec["converted"]["our_table"])
    assert mine == theirs


@pytest.mark.parametrize("rec", BECKER_POS, ids=lambda r: r["id"])
def test_becker_conversion(rec):
    mine = convert_becker(rec["placements_as_given"])
    theirs = sorted((p["tile"], p["q"], p["r"], p["rot"]) for p in rec["converted"]["our_table_mirrored"])
    assert mine == theirs


# ------------------------------------------------------------ facts common to all records
@pytest.mark.parametrize("rec", ALL_POS, ids=lambda r: r["id"])
def test_touching_edge_mismatches(rec):
    b = board_of(rec)
    assert b.mismatches() == rec["converted"]["touching_edge_mismatches"]
    assert naive_mismatches(b.tiles) == rec["converted"]["touching_edge_mismatches"]


@pytest.mark.parametrize("rec", ALL_POS, ids=lambda r: r["id"])
def test_hole_cells(rec):
    # "true_hole_cells" in the JSON are in the frame of "source_handedness" (for Becker records that is
    # the unmirrored position: e.g. place10LoopWithInnerSpace lists (1,-1) and (2,-2), which tiles 5
    # and 6 occupy in the mirrored frame). Check both frames.
    conv = rec["converted"]
    stated = sorted(tuple(c) for c in conv["true_hole_cells"])
    source_cells = {(p["q"], p["r"]): p["tile"] for p in conv["source_handedness"]}
    assert sorted(c for comp in holes(source_cells) for c in comp) == stated
    b = board_of(rec)
    found = sorted(c for comp in holes(b.tiles) for c in comp)
    if "our_table_mirrored" in conv:
        stated = sorted((-q - r, r) for q, r in stated)
    assert found == stated
    for c in found:
        assert b.neighbour_count(c) == sum(m in b.tiles for m in hg.neighbours(c))
        assert c in b.frontier


# ----------------------------------------------------------------- per-assertion checks
def _check(rec, a):
    """Check assertion ``a`` of record ``rec``; return None, or a reason it cannot be mapped."""
    kind = a["kind"]
    if kind == "border_cells":
        # pierrebai get_borders(colour): distinct empty cells next to an edge of that colour.
        b = board_of(rec)
        assert sum(a["colour"] in p for p in b.frontier.values()) == a["value"]
    elif kind == "fits":
        # pierrebai is_compatible: the cell is free and every touching edge matches (it does NOT
        # require two neighbours, so compare with pattern_fit on the cell's pattern, not why_not).
        b = board_of(rec)
        cell = pb_to_axial(a["x"], a["y"])
        ok = cell not in b.tiles and a["rotation"] in pattern_fit(b.pattern(cell))[1].get(a["tile"], ())
        assert ok == a["value"]
        if cell not in b.tiles:
            assert (b.place(a["tile"], a["rotation"], cell).mismatches() == 0) == a["value"]
    elif kind == "fits_on_empty":
        assert (a["tile"] in pattern_fit(Board().pattern((0, 0)))[1]) == a["value"]
    elif kind == "pierrebai_is_valid":
        # solution_t::is_valid: no empty cell next to more than 3 tiles, and none that demands one
        # colour on more than 2 sides.
        b = board_of(rec)
        ok = all(6 - p.count(".") <= 3 and max(p.count(c) for c in "RYBG") <= 2 for p in b.frontier.values())
        assert ok == a["value"]
    elif kind == "has_line":
        assert has_line(board_of(rec), a["colour"], a["loop"]) == a["value"]
    elif kind == "neighbours":
        b = board_of(rec)
        cell = pb_to_axial(a["x"], a["y"])
        count = sum(m in b.tiles for m in hg.neighbours(cell))
        assert count == a["value"]
        if cell not in b.tiles:
            assert b.neighbour_count(cell) == a["value"]
    elif kind == "pierrebai_holes":
        assert len(holes(board_of(rec).tiles)) == a["value"]
    elif kind == "same_shape_up_to_rotation_translation":
        first = [pb_to_axial(p["x"], p["y"]) for p in rec["placements_as_given"]]
        second = [pb_to_axial(p["x"], p["y"]) for p in rec["second_placements_as_given"]]
        assert (shape_key(first) == shape_key(second)) == a["value"]
    elif kind == "loop_all_tiles":
        b = board_of(rec)
        assert loop_through_all(b, a["colour"]) == a["value"]
        assert (has_line(b, a["colour"], True) and all(a["colour"] in b.edges_at(c) for c in b.tiles)) == a["value"]
    elif kind == "becker_solved":
        # SolutionVerifier: every tile on one loop of the primary colour, all edges match, no inner space.
        b = board_of(rec)
        ok = b.mismatches() == 0 and loop_through_all(b, rec["primary_colour"]) and not holes(b.tiles)
        assert ok == a["value"]
    elif kind == "inner_space":
        assert bool(holes(board_of(rec).tiles)) == a["value"]
    elif kind == "inner_space_cells":
        assert sum(len(h) for h in holes(board_of(rec).tiles)) == a["value"]
    elif kind in ("edge_colours_source_order", "edge_colours_source_order_after_one_rotate"):
        # Our tile at the mirrored placement, mirrored back, shows the source's colours; Becker's
        # rotate() is one step counter-clockwise, which is one step clockwise (rot + 1) once mirrored.
        (cell, (n, rot)), = placements_of(rec).items()
        extra = 1 if kind.endswith("after_one_rotate") else 0
        assert mirror(data.ROT_EDGES[n][(rot + extra) % 6]) == a["value"]
    elif kind == "solution_count_pierrebai":
        return ("pierrebai counts solutions after its own normalize() (cell sets and junction points, "
                "not tile identities) with its search order; not mapped")
    elif kind == "solution_total":
        return "needs the 10-tile counts, too slow for the test suite"
    elif kind == "solution_count_lwiest":
        return "9- and 10-tile Discovery counts take too long for the test suite (>2 s each)"
    else:
        raise AssertionError(f"unknown assertion kind {kind}")
    return None


CASES = [(r, i) for r in DOC["records"] for i, a in enumerate(r["assertions"])
         if not (a["kind"] == "solution_count_lwiest" and a["tiles"] <= 8)]  # see test_discovery_counts


@pytest.mark.parametrize("rec,i", CASES, ids=[f"{r['id']}-{i}-{r['assertions'][i]['kind']}" for r, i in CASES])
def test_assertion(rec, i):
    why = _check(rec, rec["assertions"][i])
    if why:
        pytest.skip(why)


# ------------------------------------------------------------------ Discovery solutions
def discovery_solutions(n_tiles, colour):
    """Arrangements of tiles 1..n in one closed loop of ``colour`` through every tile, all touching
    edges matching, no hole; tile 1 fixed at (0, 0) rotation 0 (one per rotation/translation class)."""
    tiles = list(range(1, n_tiles + 1))
    if any(colour not in OUR[t] for t in tiles):
        return []
    first = data.ROT_EDGES[1][0]
    a = first.index(colour)
    b = first.index(colour, a + 1)
    out = []

    def walk(board, cell, exit_dir, remaining):
        nxt = nb(cell, exit_dir)
        entry = (exit_dir + 3) % 6
        if nxt == (0, 0):
            if not remaining and entry == b:
                out.append(board)
            return
        if nxt in board.tiles or not remaining:
            return
        fits = pattern_fit(board.pattern(nxt))[1]
        for t in remaining:
            for k in fits.get(t, ()):
                e = data.ROT_EDGES[t][k]
                assert e[entry] == colour
                out_dir = next(d for d in range(6) if d != entry and e[d] == colour)
                walk(board.place(t, k, nxt), nxt, out_dir, [x for x in remaining if x != t])

    walk(Board().place(1, 0, (0, 0)), (0, 0), a, tiles[1:])
    return [s for s in out if not holes(s.tiles)]


def _discovery_cases():
    rec = RECORDS.get("lwiest-discovery-counts")
    if rec is None:
        return []
    return [(x["tiles"], x["colour"], x["value"]) for x in rec["assertions"]
            if x["kind"] == "solution_count_lwiest" and x["tiles"] <= 8]  # 9 and 10 take 2-60 s


@pytest.mark.parametrize("n,colour,value", _discovery_cases())
def test_discovery_counts(n, colour, value):
    sols = discovery_solutions(n, colour)
    assert len(sols) == value
    for s in sols:
        # Each solution checked by the followers (here and in naive.py), not by the search.
        assert naive_mismatches(s.tiles) == 0 and s.mismatches() == 0
        assert loop_through_all(s, colour)
        assert sorted(t for t, _ in s.tiles.values()) == list(range(1, n + 1))
    # Distinct arrangements.
    assert len({tuple(sorted(s.tiles.items())) for s in sols}) == len(sols)
