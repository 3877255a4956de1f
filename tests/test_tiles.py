"""The 56 Tantrix tiles (games/gobble/data.py) proved against specs/gobble.md "Tiles" and research §1.7.

The set is enumerated independently here (every 3-link tile of 3 colours out of 4, each colour on two
edges, up to rotation only, minus the tiles with three straight links) and compared with the table.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import pytest

from games.gobble import data

# research/tantrix.md §1.5 (the spec's table), copied from the research text, not from data.py.
SPEC_TABLE = {
    1: ("YYBRBR", "Y"), 2: ("YYBRRB", "Y"), 3: ("YYRRBB", "Y"), 4: ("RYBYRB", "R"),
    5: ("YYRBBR", "R"), 6: ("RBYBRY", "B"), 7: ("BBYRYR", "B"), 8: ("BBRYRY", "B"),
    9: ("BYRYBR", "Y"), 10: ("YYRBRB", "R"), 11: ("RRBYBY", "R"), 12: ("RRYBYB", "Y"),
    13: ("RRYBBY", "B"), 14: ("YYBBRR", "B"), 15: ("YYRGGR", "R"), 16: ("RRYGGY", "R"),
    17: ("YYGRGR", "Y"), 18: ("YYRGRG", "R"), 19: ("RRGYGY", "R"), 20: ("RRYGYG", "Y"),
    21: ("YYGGRR", "Y"), 22: ("YYGRRG", "Y"), 23: ("YYRRGG", "Y"), 24: ("RRBGGB", "R"),
    25: ("RRBBGG", "R"), 26: ("RRGBBG", "R"), 27: ("RRBGBG", "R"), 28: ("RRGGBB", "R"),
    29: ("RRGBGB", "R"), 30: ("BBRGGR", "R"), 31: ("GGRYRY", "Y"), 32: ("YGYRGR", "G"),
    33: ("GGYRYR", "G"), 34: ("YGRGYR", "G"), 35: ("YGRYRG", "G"), 36: ("GGRBRB", "G"),
    37: ("BBGRGR", "G"), 38: ("BBRGRG", "G"), 39: ("RBGBRG", "B"), 40: ("RGBGRB", "B"),
    41: ("GGBRBR", "B"), 42: ("BRBGRG", "B"), 43: ("YYGGBB", "B"), 44: ("YGBYBG", "Y"),
    45: ("YYBBGG", "G"), 46: ("GGBYBY", "G"), 47: ("GGYBBY", "G"), 48: ("YYBGGB", "W"),
    49: ("BBGYYG", "W"), 50: ("YBYGBG", "W"), 51: ("YGYBGB", "W"), 52: ("GGYBYB", "W"),
    53: ("YYGBGB", "W"), 54: ("YYBGBG", "W"), 55: ("BBGYGY", "W"), 56: ("BBYGYG", "W"),
}

TRIPLES = ("RYB", "RYG", "RBG", "YBG")


def canon(e: str) -> str:
    """Representative of a tile up to rotation (not reflection)."""
    return min(e[i:] + e[:i] for i in range(6))


def separation(e: str, c: str) -> int:
    """Steps between the two edges of colour c: 1 sharp, 2 gentle, 3 straight."""
    idx = [i for i, x in enumerate(e) if x == c]
    assert len(idx) == 2
    d = idx[1] - idx[0]
    return min(d, 6 - d)


def shape(e: str) -> str:
    seps = sorted(separation(e, c) for c in set(e))
    return {(1, 1, 1): "S3", (1, 1, 3): "S2T", (1, 2, 2): "SG2", (2, 2, 3): "G2T", (3, 3, 3): "T3"}[tuple(seps)]


def full_set_by_permutations() -> set[str]:
    """research §1.7: permutations of each triple doubled, minus three straight links."""
    out = set()
    for trip in TRIPLES:
        for p in set(permutations(trip * 2)):
            s = "".join(p)
            if all((s.rfind(c) - s.find(c)) == 3 for c in trip):
                continue
            out.add(canon(s))
    return out


def full_set_by_matchings() -> set[str]:
    """A second, independent enumeration: the 15 perfect matchings of 6 edges, coloured by a triple."""
    def matchings(points):
        if not points:
            yield []
            return
        a = points[0]
        for b in points[1:]:
            rest = [p for p in points if p not in (a, b)]
            for m in matchings(rest):
                yield [(a, b)] + m

    ms = list(matchings(list(range(6))))
    assert len(ms) == 15
    out = set()
    for trip in TRIPLES:
        for m in ms:
            if all((b - a) % 6 == 3 for a, b in m):
                continue
            for colours in permutations(trip):
                e = [""] * 6
                for (a, b), c in zip(m, colours):
                    e[a] = e[b] = c
                out.add(canon("".join(e)))
    return out


def test_table_is_the_spec_table():
    assert data.TILES == SPEC_TABLE
    assert data.TILE_NUMBERS == tuple(range(1, 57))


def test_56_tiles_numbered_1_to_56():
    assert len(data.TILES) == 56
    assert sorted(data.TILES) == list(range(1, 57))


@pytest.mark.parametrize("n", range(1, 57))
def test_each_tile_has_three_colours_on_two_edges_each(n):
    e, back = data.TILES[n]
    assert len(e) == 6 and set(e) <= set("RYBG")
    counts = Counter(e)
    assert len(counts) == 3
    assert all(v == 2 for v in counts.values())
    assert back in "YRBGW" and len(back) == 1


def test_no_tile_has_three_straight_links():
    for n, (e, _b) in data.TILES.items():
        assert shape(e) != "T3", n


def test_fourteen_tiles_per_colour_triple():
    per = Counter("".join(sorted(set(e))) for e, _ in data.TILES.values())
    assert per == {"".join(sorted(t)): 14 for t in TRIPLES}


def test_all_tiles_distinct_up_to_rotation():
    canons = [canon(e) for e, _ in data.TILES.values()]
    assert len(set(canons)) == 56


def test_no_tile_is_rotationally_symmetric():
    # So each (tile, rotation) shows a different colour ring: 336 distinct rings.
    rings = {e[k:] + e[:k] for e, _ in data.TILES.values() for k in range(6)}
    assert len(rings) == 56 * 6


def test_two_independent_enumerations_agree_and_give_56():
    a = full_set_by_permutations()
    b = full_set_by_matchings()
    assert a == b
    assert len(a) == 56


def test_table_equals_full_set():
    assert {canon(e) for e, _ in data.TILES.values()} == full_set_by_permutations()


def test_sixteen_per_triple_before_removing_all_straight():
    for trip in TRIPLES:
        everything = {canon("".join(p)) for p in set(permutations(trip * 2))}
        assert len(everything) == 16
        straight = {e for e in everything if shape(e) == "T3"}
        assert len(straight) == 2


def test_shape_counts():
    shapes = Counter(shape(e) for e, _ in data.TILES.values())
    assert shapes == {"S3": 8, "S2T": 12, "SG2": 24, "G2T": 12}
    for trip in TRIPLES:
        per = Counter(shape(e) for e, _ in data.TILES.values() if set(e) == set(trip))
        assert per == {"S3": 2, "S2T": 3, "SG2": 6, "G2T": 3}


def test_set_is_closed_under_mirroring():
    # research §0: mirror images are different tiles, but the set as a whole is closed under mirroring.
    canons = {canon(e) for e, _ in data.TILES.values()}
    mirrored = {canon(e[0] + e[:0:-1]) for e, _ in data.TILES.values()}
    assert canons == mirrored
    chiral = [n for n, (e, _) in data.TILES.items() if canon(e) != canon(e[0] + e[:0:-1])]
    assert len(chiral) == 32  # 24 of 56 look the same mirrored (research §1.3)


def test_back_colour_counts():
    # research §1.4: R 15, Y 12, B 10, G 10, W 9.
    assert Counter(b for _, b in data.TILES.values()) == {"R": 15, "Y": 12, "B": 10, "G": 10, "W": 9}


@pytest.mark.parametrize("n", range(1, 57))
def test_rotation_convention(n):
    e = data.TILES[n][0]
    for k in range(6):
        shown = data.ROT_EDGES[n][k]
        assert shown == data.rotated(e, k)
        assert all(shown[i] == e[(i + k) % 6] for i in range(6))
    assert data.rotated(e, 6) == e and data.rotated(e, -1) == data.rotated(e, 5)


@pytest.mark.parametrize("n", range(1, 57))
def test_links_and_kinds(n):
    e = data.TILES[n][0]
    ls = data.links(e)
    assert len(ls) == 3
    assert sorted(c for c, _a, _b in ls) == sorted(set(e))
    used = sorted(x for _c, a, b in ls for x in (a, b))
    assert used == list(range(6))
    for c, a, b in ls:
        assert a < b and e[a] == e[b] == c
        assert data.link_kind(a, b) == {1: "sharp", 2: "gentle", 3: "straight"}[separation(e, c)]


def test_link_kind_table():
    for a, b in combinations(range(6), 2):
        d = b - a
        expected = "sharp" if d in (1, 5) else "gentle" if d in (2, 4) else "straight"
        assert data.link_kind(a, b) == expected


def test_research_shape_table_rows():
    # A few rows of the readable §1.5 table (sharp / gentle / straight colours), checked directly.
    rows = {1: ("Y", "BR", ""), 2: ("YR", "", "B"), 3: ("YRB", "", ""), 4: ("", "RY", "B"),
            32: ("", "YR", "G"), 44: ("", "GB", "Y"), 56: ("B", "YG", "")}
    for n, (sharp, gentle, straight) in rows.items():
        e = data.TILES[n][0]
        got = {1: set(), 2: set(), 3: set()}
        for c in set(e):
            got[separation(e, c)].add(c)
        assert got[1] == set(sharp) and got[2] == set(gentle) and got[3] == set(straight), n
