"""Axial hex grid (sim/core/hexgrid.py) against the conventions of research/tantrix.md §5.

Expectations are derived from first principles here (cube coordinates, plane geometry), not copied
from the module's output.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.core import hexgrid as hg

# Red Blob Games' axial_direction_vectors, E, NE, NW, W, SW, SE (research/tantrix.md §5).
EXPECTED_DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]

coords = st.integers(min_value=-60, max_value=60)
cells = st.tuples(coords, coords)
sizes = st.floats(min_value=4.0, max_value=200.0, allow_nan=False, allow_infinity=False)


def cube_distance(a, b):
    """Distance computed in cube coordinates (x = q, z = r, y = -q - r)."""
    ax, az = a
    bx, bz = b
    ay, by = -ax - az, -bx - bz
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def bfs_distance(a, b, limit=12):
    """Distance by breadth-first search over the six direction vectors."""
    frontier, seen, d = {a}, {a}, 0
    while b not in frontier:
        d += 1
        assert d <= limit
        nxt = set()
        for q, r in frontier:
            for dq, dr in EXPECTED_DIRS:
                c = (q + dq, r + dr)
                if c not in seen:
                    seen.add(c)
                    nxt.add(c)
        frontier = nxt
    return d


def close(p, q, tol=1e-9):
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


# ---------------------------------------------------------------------------- directions
def test_direction_vectors_are_red_blob_order():
    assert [tuple(d) for d in hg.DIRS] == EXPECTED_DIRS


def test_directions_are_counter_clockwise_on_a_y_down_screen():
    # Direction i points at screen angle -60*i degrees (y down), so the order is visually
    # counter-clockwise: E, NE (up-right), NW (up-left), W, SW, SE.
    for i, d in enumerate(EXPECTED_DIRS):
        x, y = hg.hex_to_pixel(d, 1.0)
        a = math.radians(-60 * i)
        assert close((x / math.hypot(x, y), y / math.hypot(x, y)), (math.cos(a), math.sin(a)), 1e-9)
    assert hg.hex_to_pixel((1, -1), 1.0)[1] < 0  # NE is above the centre on a y-down screen


@given(cells)
def test_neighbours_in_edge_order(h):
    nbs = hg.neighbours(h)
    assert nbs == [(h[0] + dq, h[1] + dr) for dq, dr in EXPECTED_DIRS]
    assert [hg.neighbour(h, d) for d in range(6)] == nbs
    assert len(set(nbs)) == 6 and h not in nbs
    for n in nbs:
        assert hg.distance(h, n) == 1


@given(cells, st.integers(0, 5))
def test_opposite_edges_meet(h, d):
    o = hg.opposite(d)
    assert o == (d + 3) % 6 and o != d and hg.opposite(o) == d
    # Going across edge d and back across the opposite edge returns to the start.
    assert hg.neighbour(hg.neighbour(h, d), o) == h


def test_opposite_table():
    assert [hg.opposite(d) for d in range(6)] == [3, 4, 5, 0, 1, 2]


# ------------------------------------------------------------------------------ distance
@given(cells, cells)
def test_distance_is_cube_distance(a, b):
    d = hg.distance(a, b)
    assert d == cube_distance(a, b)
    assert d == hg.distance(b, a)
    assert (d == 0) == (a == b)


@given(cells, cells, cells)
def test_distance_triangle_inequality(a, b, c):
    assert hg.distance(a, c) <= hg.distance(a, b) + hg.distance(b, c)


@given(st.tuples(st.integers(-6, 6), st.integers(-6, 6)))
def test_distance_equals_breadth_first_steps(b):
    assert hg.distance((0, 0), b) == bfs_distance((0, 0), b)


@pytest.mark.parametrize("radius", [1, 2, 3, 5])
def test_ring(radius):
    centre = (3, -2)
    ring = hg.ring(centre, radius)
    assert len(ring) == 6 * radius == len(set(ring))
    assert all(hg.distance(centre, c) == radius for c in ring)
    expected = {(centre[0] + q, centre[1] + r) for q in range(-radius, radius + 1)
                for r in range(-radius, radius + 1) if cube_distance((0, 0), (q, r)) == radius}
    assert set(ring) == expected
    # Consecutive ring cells are adjacent (the ring is a closed walk).
    for a, b in zip(ring, ring[1:] + ring[:1]):
        assert hg.distance(a, b) == 1


# -------------------------------------------------------------------------------- pixels
@given(cells, sizes)
def test_hex_to_pixel_formula(h, size):
    q, r = h
    x, y = hg.hex_to_pixel(h, size)
    # Pointy-top: basis vectors q -> (sqrt3, 0)*size, r -> (sqrt3/2, 3/2)*size.
    assert math.isclose(x, size * (math.sqrt(3) * q + math.sqrt(3) / 2 * r), abs_tol=1e-6)
    assert math.isclose(y, size * 1.5 * r, abs_tol=1e-6)


@given(cells, sizes)
def test_pixel_hex_round_trip_at_centres(h, size):
    x, y = hg.hex_to_pixel(h, size)
    assert hg.pixel_to_hex(x, y, size) == h
    qf, rf = hg.pixel_to_hex_frac(x, y, size)
    assert math.isclose(qf, h[0], abs_tol=1e-6) and math.isclose(rf, h[1], abs_tol=1e-6)


@given(cells, sizes, st.floats(0.0, 0.98), st.floats(0.0, 2 * math.pi))
def test_points_inside_the_inner_circle_map_to_the_cell(h, size, frac, angle):
    # Every point closer to the centre than the inscribed circle (radius sqrt3/2 * size) is in the cell.
    cx, cy = hg.hex_to_pixel(h, size)
    rad = frac * math.sqrt(3) / 2 * size
    assert hg.pixel_to_hex(cx + rad * math.cos(angle), cy + rad * math.sin(angle), size) == h


@given(st.floats(-2000, 2000), st.floats(-2000, 2000), sizes)
def test_pixel_to_hex_picks_the_nearest_centre(x, y, size):
    # A hex grid is the Voronoi diagram of the cell centres: the containing cell has the nearest centre.
    h = hg.pixel_to_hex(x, y, size)
    cx, cy = hg.hex_to_pixel(h, size)
    d_own = math.hypot(x - cx, y - cy)
    for n in hg.neighbours(h):
        nx, ny = hg.hex_to_pixel(n, size)
        assert d_own <= math.hypot(x - nx, y - ny) + 1e-6 * size


# ------------------------------------------------------------------------------- corners
@given(st.floats(-500, 500), st.floats(-500, 500), sizes)
def test_corners_pointy_top(cx, cy, size):
    cs = hg.corners(cx, cy, size)
    assert len(cs) == 6
    for i, (x, y) in enumerate(cs):
        assert math.isclose(math.hypot(x - cx, y - cy), size, rel_tol=1e-9, abs_tol=1e-9)
        a = math.radians(60 * i - 30)
        assert close((x, y), (cx + size * math.cos(a), cy + size * math.sin(a)), 1e-6)
    # Pointy top: one corner straight above the centre (y down), one straight below.
    assert any(close(c, (cx, cy - size), 1e-6) for c in cs)
    assert any(close(c, (cx, cy + size), 1e-6) for c in cs)
    # Side length equals the corner radius.
    for a, b in zip(cs, cs[1:] + cs[:1]):
        assert math.isclose(math.hypot(a[0] - b[0], a[1] - b[1]), size, rel_tol=1e-9)


@given(cells, st.integers(0, 5))
def test_neighbours_share_two_corners_and_the_edge_midpoint(h, d):
    size = 30.0
    n = hg.neighbour(h, d)
    hc = hg.hex_to_pixel(h, size)
    nc = hg.hex_to_pixel(n, size)
    mine = hg.corners(*hc, size)
    theirs = hg.corners(*nc, size)
    shared = [c for c in mine if any(close(c, t, 1e-6) for t in theirs)]
    assert len(shared) == 2
    mid_corners = ((shared[0][0] + shared[1][0]) / 2, (shared[0][1] + shared[1][1]) / 2)
    mid_centres = ((hc[0] + nc[0]) / 2, (hc[1] + nc[1]) / 2)
    em = hg.edge_midpoint(*hc, size, d)
    assert close(em, mid_corners, 1e-6)
    assert close(em, mid_centres, 1e-6)
    # The same point is the neighbour's midpoint of the opposite edge.
    assert close(hg.edge_midpoint(*nc, size, hg.opposite(d)), em, 1e-6)


def test_clockwise_screen_rotation_matches_rotation_convention():
    # research §5: rotation k shows base[(i + k) % 6] at direction i, i.e. the tile turned k steps
    # clockwise on screen. Turning the point of edge (i + k) clockwise by 60k degrees (y down: a
    # positive angle in the usual matrix is clockwise) must land on edge i.
    size = 10.0
    for k in range(6):
        phi = math.radians(60 * k)
        for i in range(6):
            x, y = hg.edge_midpoint(0.0, 0.0, size, (i + k) % 6)
            xr, yr = x * math.cos(phi) - y * math.sin(phi), x * math.sin(phi) + y * math.cos(phi)
            assert close((xr, yr), hg.edge_midpoint(0.0, 0.0, size, i), 1e-9)
