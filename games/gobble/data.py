"""The 56 Tantrix tiles (specs/gobble.md "Tiles"; table from research/tantrix.md §1.5).

``TILES[n] = (edges, back)``: ``edges`` is six colour letters (R red, Y yellow, B blue, G green)
listed counter-clockwise as seen on screen, so ``edges[i]`` is the colour at the edge facing axial
direction ``i`` (E, NE, NW, W, SW, SE) at rotation 0. ``back`` is the colour of the number printed on
the back (Y, R, B, G, W); the back colour of tile 7 is uncertain in the sources.

Rotation ``k`` (0..5) turns a tile ``k`` steps clockwise on screen: the colour shown at direction
``i`` is ``edges[(i + k) % 6]`` (research/tantrix.md §5; research/real/tantrix_positions.json).
"""
from __future__ import annotations

TILES: dict[int, tuple[str, str]] = {
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

#: Tile numbers in order.
TILE_NUMBERS: tuple[int, ...] = tuple(sorted(TILES))

COLOURS = "RYBG"
COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue", "G": "green"}


def rotated(edges: str, rot: int) -> str:
    """The six colours shown at directions 0..5 by a tile with base ``edges`` at rotation ``rot``."""
    k = rot % 6
    return edges[k:] + edges[:k]


#: ROT_EDGES[n][k] = colours at directions 0..5 of tile n at rotation k.
ROT_EDGES: dict[int, tuple[str, ...]] = {
    n: tuple(rotated(e, k) for k in range(6)) for n, (e, _b) in TILES.items()
}


def links(edges: str) -> list[tuple[str, int, int]]:
    """The three links of a tile as ``(colour, edge_a, edge_b)`` with ``edge_a < edge_b``."""
    out = []
    for c in sorted(set(edges)):
        a = edges.index(c)
        b = edges.index(c, a + 1)
        out.append((c, a, b))
    return out


def link_kind(a: int, b: int) -> str:
    """'sharp' (adjacent edges), 'gentle' (two apart) or 'straight' (opposite edges)."""
    d = (b - a) % 6
    d = min(d, 6 - d)
    return {1: "sharp", 2: "gentle", 3: "straight"}[d]
