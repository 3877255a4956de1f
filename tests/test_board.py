"""The Tantrix board (games/gobble/board.py) against the naive model of tests/naive.py.

The naive model knows only the spec (specs/gobble.md "Geometry"): edge i faces axial direction i
(E, NE, NW, W, SW, SE), a tile at rotation k shows base[(i + k) % 6] at direction i, and a placement is
legal when the cell is empty, touches at least two tiles and every touching edge matches.
"""
from __future__ import annotations

import random
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.gobble.board import ALL_TILES_MASK, Board, gift_count, pattern_fit

from naive import (BASE, grow, naive_fits, naive_legal, naive_mismatches, naive_neighbours, naive_pattern,
                   naive_placements, nb, shown)


def bbox_cells(tiles, margin=2):
    qs = [q for q, _ in tiles]
    rs = [r for _, r in tiles]
    return [(q, r) for q in range(min(qs) - margin, max(qs) + margin + 1)
            for r in range(min(rs) - margin, max(rs) + margin + 1)]


def random_cluster(rng: random.Random, count: int):
    """Any tiles on a connected cluster of cells, edges not necessarily matching."""
    cells = {(0, 0)}
    while len(cells) < count:
        c = rng.choice(sorted(cells))
        cells.add(nb(c, rng.randrange(6)))
    nums = rng.sample(list(BASE), count)
    return {c: (n, rng.randrange(6)) for c, n in zip(sorted(cells), nums)}


seeds = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------- gift_count
def test_gift_count_standard():
    assert [gift_count(k) for k in range(0, 7)] == [0, 0, 0, 1, 2, 2, 2]


def test_gift_count_escalating():
    assert [gift_count(k, escalating=True) for k in range(0, 7)] == [0, 0, 0, 1, 2, 3, 4]


# -------------------------------------------------------------------------- pattern_fit
patterns = st.text(alphabet=".RYBG", min_size=6, max_size=6)


@given(patterns)
def test_pattern_fit_against_naive(p):
    mask, fits = pattern_fit(p)
    expected = {n: tuple(naive_fits(p, n)) for n in BASE}
    expected = {n: r for n, r in expected.items() if r}
    assert fits == expected
    assert mask == sum(1 << n for n in expected)
    assert mask & ~ALL_TILES_MASK == 0


def test_all_tiles_mask():
    assert ALL_TILES_MASK == sum(1 << n for n in range(1, 57))


def test_unconstrained_pattern_fits_every_tile_in_every_rotation():
    mask, fits = pattern_fit("......")
    assert mask == ALL_TILES_MASK
    assert all(fits[n] == tuple(range(6)) for n in BASE)


def test_full_patterns_fit_exactly_one_tile_rotation():
    for n, k in product(BASE, range(6)):
        mask, fits = pattern_fit(shown(n, k))
        assert fits == {n: (k,)} and mask == 1 << n


# ---------------------------------------------------------- research §1.6 fit-count table
def _table(layout):
    """(fillable patterns, total patterns, fit counts of the fillable ones) using pattern_fit."""
    counts = []
    for cols in product("RYBG", repeat=len(layout)):
        p = ["."] * 6
        for d, c in zip(layout, cols):
            p[d] = c
        p = "".join(p)
        mask, _ = pattern_fit(p)
        n_fit = bin(mask).count("1")
        assert n_fit == sum(1 for n in BASE if naive_fits(p, n))
        counts.append((cols, n_fit))
    ok = [c for _cols, c in counts if c]
    return len(ok), len(counts), ok, counts


@pytest.mark.parametrize("layout", [(0, 1), (0, 2), (1, 2), (2, 4), (3, 5)])
def test_fit_table_two_neighbours_not_opposite(layout):
    ok, total, fits, _ = _table(layout)
    assert (ok, total) == (16, 16)
    assert min(fits) >= 18 and max(fits) <= 20


@pytest.mark.parametrize("layout", [(0, 3), (1, 4), (2, 5)])
def test_fit_table_two_opposite_neighbours(layout):
    ok, total, _fits, counts = _table(layout)
    assert (ok, total) == (16, 16)
    for (a, b), n_fit in counts:
        assert n_fit == (6 if a == b else 20)


@pytest.mark.parametrize("layout", list(combinations(range(6), 3)))
def test_fit_table_three_neighbours(layout):
    # research §1.6: a gobble space: 60 of 64 colour patterns fillable, 4-6 tiles fit.
    ok, total, fits, counts = _table(layout)
    assert (ok, total) == (60, 64)
    assert min(fits) >= 4 and max(fits) <= 6
    assert {cols for cols, n in counts if n == 0} == {(c, c, c) for c in "RYBG"}


@pytest.mark.parametrize("layout", list(combinations(range(6), 4)))
def test_fit_table_four_neighbours(layout):
    ok, total, fits, _ = _table(layout)
    empty = sorted(set(range(6)) - set(layout))
    gap = (empty[1] - empty[0]) % 6
    gap = min(gap, 6 - gap)
    if gap == 3:   # the two empty sides opposite, e.g. filled (0,1,3,4)
        assert (ok, total) == (168, 256)
        assert set(fits) == {2}
    else:          # (0,1,2,3) or (0,1,2,4) up to rotation
        assert (ok, total) == (180, 256)
        assert min(fits) >= 1 and max(fits) <= 2


# ------------------------------------------------------------------ the placement rule
def test_empty_board_has_no_placements():
    b = Board()
    assert b.placements(1) == [] and not b.fits_anywhere(1) and b.fit_mask() == 0
    assert b.why_not(1, 0, (0, 0)) is not None


def test_one_tile_allows_no_placement():
    b = Board().place(1, 0, (0, 0))
    for n in BASE:
        assert b.placements(n) == []
    assert b.fit_mask() == 0
    assert sorted(b.frontier) == sorted(nb((0, 0), d) for d in range(6))
    assert all(b.neighbour_count(c) == 1 for c in b.frontier)


def test_two_matched_tiles_leave_two_playable_cells():
    # Tile 1 (YYBRBR) at the origin shows Y to the east; tile 4 (RYBYRB) rot 0 shows Y at its west.
    assert shown(1, 0)[0] == "Y" and shown(4, 0)[3] == "Y"
    b = Board().place(1, 0, (0, 0)).place(4, 0, (1, 0))
    assert b.mismatches() == 0
    assert sorted(b.spaces(2)) == sorted([(1, -1), (0, 1)])
    assert b.spaces(3) == []
    for n in BASE:
        assert set(b.placements(n)) == naive_placements(b.tiles, n)


def test_reasons():
    b = Board().place(1, 0, (0, 0)).place(4, 0, (1, 0))
    assert "taken" in b.why_not(2, 0, (0, 0))
    assert "two" in b.why_not(2, 0, (5, 5))
    assert "two" in b.why_not(2, 0, (-1, 0))  # one neighbour only
    cell = (1, -1)
    pat = naive_pattern(b.tiles, cell)
    bad = [(n, k) for n in BASE for k in range(6) if k not in naive_fits(pat, n)]
    n, k = bad[0]
    assert "match" in b.why_not(n, k, cell)
    good = [(n, k) for n in BASE for k in naive_fits(pat, n)]
    assert good and all(b.why_not(n, k, cell) is None for n, k in good)


def test_place_is_immutable():
    b0 = Board().place(1, 0, (0, 0))
    t0, f0 = dict(b0.tiles), dict(b0.frontier)
    b1 = b0.place(4, 0, (1, 0))
    assert b0.tiles == t0 and b0.frontier == f0
    assert len(b0) == 1 and len(b1) == 2


@FAST
@given(seeds, st.integers(3, 30))
def test_random_legal_boards_against_naive(seed, count):
    rng = random.Random(seed)
    tiles, bag = grow(rng, count, tries=400)  # two matched tiles, then random legal placements
    b = Board.from_tiles(tiles)
    assert b.tiles == tiles
    assert b.mismatches() == 0 == naive_mismatches(tiles)
    # Frontier: every empty cell touching a tile, with the naive pattern.
    expected_frontier = {nb(c, d) for c in tiles for d in range(6)} - set(tiles)
    assert set(b.frontier) == expected_frontier
    for c in bbox_cells(tiles):
        if c not in tiles:
            assert b.pattern(c) == naive_pattern(tiles, c)
            assert b.neighbour_count(c) == naive_neighbours(tiles, c)
    # Gobble spaces.
    for k in range(1, 7):
        assert sorted(b.spaces(k)) == sorted(c for c in expected_frontier if naive_neighbours(tiles, c) >= k)
    # placements(): brute force over every frontier cell and rotation.
    mask = 0
    for n in BASE:
        got = b.placements(n)
        assert len(got) == len(set(got))
        exp = naive_placements(tiles, n)
        assert set(got) == exp
        assert b.fits_anywhere(n) == bool(exp)
        if exp:
            mask |= 1 << n
        for c, k in got:
            assert b.why_not(n, k, c) is None
    assert b.fit_mask() == mask
    # why_not agrees with the naive rule on a sample of (tile, rotation, cell).
    cells = bbox_cells(tiles, 1)
    for _ in range(200):
        n, k, c = rng.choice(list(BASE)), rng.randrange(6), rng.choice(cells)
        assert (b.why_not(n, k, c) is None) == naive_legal(tiles, n, k, c)


@FAST
@given(seeds, st.integers(1, 25))
def test_random_clusters_mismatches_and_frontier(seed, count):
    rng = random.Random(seed)
    tiles = random_cluster(rng, count)
    b = Board.from_tiles(tiles)
    assert b.mismatches() == naive_mismatches(tiles)
    for c in bbox_cells(tiles):
        if c not in tiles:
            assert b.pattern(c) == naive_pattern(tiles, c)
    # Building in another order gives the same board.
    items = list(tiles.items())
    rng.shuffle(items)
    b2 = Board()
    for c, (n, k) in items:
        b2 = b2.place(n, k, c)
    assert b2.tiles == b.tiles and b2.frontier == b.frontier
    for n in rng.sample(list(BASE), 5):
        assert set(b.placements(n)) == naive_placements(tiles, n)


def test_dead_space_three_same_colours():
    # research §1.6: a space demanding one colour on 3 edges can never be filled.
    # Find three tiles around a cell all showing red toward it, placed by the naive model.
    cell = (0, 0)
    tiles = {}
    for d in (0, 2, 4):
        m = nb(cell, d)
        need_edge = (d + 3) % 6
        n = next(n for n in BASE if n not in {t for t, _ in tiles.values()} and "R" in BASE[n])
        k = next(k for k in range(6) if shown(n, k)[need_edge] == "R")
        tiles[m] = (n, k)
    b = Board.from_tiles(tiles)
    assert b.pattern(cell).count("R") == 3 and b.neighbour_count(cell) == 3
    assert pattern_fit(b.pattern(cell))[0] == 0
    assert all(c != cell for n in BASE for c, _k in b.placements(n))
