"""Streetcar component data: board, buildings, terminals, track tiles, line and route cards, dice.

Source: specs/streetcar.md "Components", transcribed from research/tram.md §2-§8 (the 1995 Goldsieber
*Linie 1* material as Board Game Arena models it).

Coordinates (research §2.1): ``x`` = column 1..12 left to right, ``y`` = row 1..12 top to bottom; the
ring around the board (x or y = 0 or 13) holds the terminals. Sides are numbered ``N=0, E=1, S=2,
W=3``; ``N`` is up (y - 1). A track is a pair of sides of one square; rotation ``r`` (0..3) turns a tile
``r`` quarter turns clockwise, so side ``s`` at rotation 0 shows at side ``(s + r) % 4``.
"""
from __future__ import annotations

from typing import NamedTuple

#: Playable squares per side (research §2.1).
GRID = 12

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
#: Square offsets (dx, dy) of the four sides.
DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))


def opposite(side: int) -> int:
    """The side facing ``side`` (N <-> S, E <-> W)."""
    return (side + 2) % 4


def side_of(letter: str) -> int:
    """Side number of a letter ``"N"``, ``"E"``, ``"S"`` or ``"W"``; raises ``ValueError`` otherwise."""
    if letter not in SIDE_NAMES or len(letter) != 1:
        raise ValueError(f"not a side: {letter!r}")
    return SIDE_NAMES.index(letter)


# ------------------------------------------------------------------ buildings (research §2.2)
#: Building letter -> square (x, y). There is no J.
BUILDINGS: dict[str, tuple[int, int]] = {
    "A": (8, 1), "B": (11, 4), "C": (12, 8), "D": (9, 11), "E": (5, 12), "F": (2, 9),
    "G": (1, 5), "H": (4, 2), "I": (6, 4), "K": (9, 6), "L": (7, 9), "M": (4, 7),
}
#: Building letters in a fixed order (used to index the stop signs).
LETTERS = "ABCDEFGHIKLM"
#: English building names (Board Game Arena), for the screen and the rules text.
BUILDING_NAMES: dict[str, str] = {
    "A": "Automaker", "B": "Brewery", "C": "Cathedral", "D": "Department store", "E": "Exhibition",
    "F": "Fire station", "G": "Gardens", "H": "Hospital", "I": "Ice cream parlor", "K": "Kindergarten",
    "L": "Library", "M": "Museum",
}


def stop_squares(letter: str) -> list[tuple[int, int]]:
    """The board squares orthogonally next to building ``letter``: where its stop sign can appear
    (research §2.2 "squares orthogonally next to it"). Raises ``KeyError`` for an unknown letter."""
    bx, by = BUILDINGS[letter]
    out = []
    for dx, dy in DELTA:
        x, y = bx + dx, by + dy
        if 1 <= x <= GRID and 1 <= y <= GRID and (x, y) not in BUILDINGS.values():
            out.append((x, y))
    return out


# ------------------------------------------------------------------ terminals (research §2.3, §8)
#: Line -> its two terminals; each terminal is its two ring cells (the loop), in order.
TERMINALS: dict[int, tuple[tuple[tuple[int, int], tuple[int, int]], tuple[tuple[int, int], tuple[int, int]]]] = {
    1: (((2, 0), (3, 0)), ((6, 13), (7, 13))),
    2: (((6, 0), (7, 0)), ((10, 13), (11, 13))),
    3: (((10, 0), (11, 0)), ((2, 13), (3, 13))),
    4: (((0, 6), (0, 7)), ((13, 2), (13, 3))),
    5: (((0, 10), (0, 11)), ((13, 6), (13, 7))),
    6: (((0, 2), (0, 3)), ((13, 10), (13, 11))),
}
LINES = (1, 2, 3, 4, 5, 6)
LINE_COLOURS: dict[int, str] = {1: "red", 2: "yellow", 3: "green", 4: "blue", 5: "violet", 6: "white"}
#: 1995 street names of the terminals (research §2.3), for the screen.
TERMINAL_NAMES: dict[int, tuple[str, str]] = {
    1: ("Waldburgstraße", "Auf der Schmelz"), 2: ("Ketzergasse", "Alberichstraße"),
    3: ("Düsseldorfer Str.", "Pfeilstraße"), 4: ("Untere Wörthstr.", "Pfarrlandplatz"),
    5: ("Bismarckstraße", "Schillerstraße"), 6: ("Barbarossaplatz", "Am Breiten Rain"),
}


def ring_side(cell: tuple[int, int]) -> int:
    """Which side of the board a ring cell lies on (N top, E right, S bottom, W left); raises
    ``ValueError`` for a board square or a corner."""
    x, y = cell
    if y == 0 and 1 <= x <= GRID:
        return N
    if y == GRID + 1 and 1 <= x <= GRID:
        return S
    if x == 0 and 1 <= y <= GRID:
        return W
    if x == GRID + 1 and 1 <= y <= GRID:
        return E
    raise ValueError(f"{cell} is not a ring cell beside the board")


#: The fixed curve of each terminal cell (research §2.3 table "fixed pieces"): ring side ->
#: (first cell's track, second cell's track) as side letters.
TERMINAL_PIECES: dict[int, tuple[str, str]] = {N: ("ES", "SW"), S: ("NE", "NW"), W: ("ES", "NE"), E: ("SW", "NW")}


def terminal_legs() -> dict[tuple[int, int], tuple[int, int, str]]:
    """Every terminal cell: ``cell -> (line, end, track)``; ``end`` is 0 or 1 (which of the line's two
    terminals) and ``track`` the fixed curve as two side letters."""
    out = {}
    for line, ends in TERMINALS.items():
        for end, cells in enumerate(ends):
            side = ring_side(cells[0])
            for k, cell in enumerate(cells):
                out[cell] = (line, end, TERMINAL_PIECES[side][k])
    return out


# ------------------------------------------------------------------ track tiles (research §3, §8)
class TileType(NamedTuple):
    """One of the 12 tile types: ``pairs`` are its tracks at rotation 0 (two side letters each);
    ``draw_1995`` / ``draw_bga`` its number in the draw pile of each edition; ``exchangeable`` is True
    for the brown tiles (0-5), False for the green tree tiles (6-11) that can never be exchanged."""

    name: str
    pairs: tuple[str, ...]
    draw_1995: int
    draw_bga: int
    exchangeable: bool


TILES: dict[int, TileType] = {
    0: TileType("straight", ("EW",), 21, 24, True),
    1: TileType("curve", ("SW",), 20, 23, True),
    2: TileType("switch_L", ("NS", "SW"), 10, 13, True),
    3: TileType("switch_R", ("NS", "ES"), 10, 13, True),
    4: TileType("y_curves", ("NE", "NW"), 10, 12, True),
    5: TileType("double_curve", ("NE", "SW"), 6, 8, True),
    6: TileType("tree_T_side", ("EW", "NE", "NW"), 6, 8, False),
    7: TileType("tree_T_end", ("EW", "NE", "ES"), 6, 8, False),
    8: TileType("tree_4curves", ("NE", "ES", "SW", "NW"), 4, 5, False),
    9: TileType("tree_cross", ("NS", "EW"), 4, 5, False),
    10: TileType("tree_diag_a", ("NS", "NE", "SW"), 2, 3, False),
    11: TileType("tree_diag_b", ("NS", "NW", "ES"), 2, 3, False),
}
TILE_IDS = tuple(sorted(TILES))
STRAIGHT, CURVE = 0, 1
#: Per player, from the separate start tiles: 3 straights + 2 curves (research §3.2).
START_HAND = (STRAIGHT, STRAIGHT, STRAIGHT, CURVE, CURVE)
HAND_SIZE = 5
TILES_PER_TURN = 2
#: Draw piles by option name: tile id -> count (1995: 101 tiles, BGA: 125).
PILES: dict[str, dict[int, int]] = {
    "1995": {t: TILES[t].draw_1995 for t in TILE_IDS},
    "bga": {t: TILES[t].draw_bga for t in TILE_IDS},
}
#: Readable tile descriptions for the screen and rules text.
TILE_LABELS: dict[int, str] = {
    0: "straight", 1: "curve", 2: "straight with a curve (left)", 3: "straight with a curve (right)",
    4: "two curves from one side", 5: "two curves in opposite corners", 6: "tree: straight with two curves to one side",
    7: "tree: straight with two curves from one end", 8: "tree: four curves (no going straight)",
    9: "tree: crossing (no turning)", 10: "tree: straight with two opposite curves", 11: "tree: mirror of the last",
}


# ------------------------------------------------------------------ cards (research §4, §8)
#: Route cards with 2 stops (red frame, 4 or 5 players): card name -> stops of lines 1..6.
ROUTE_CARDS_2: dict[str, tuple[str, ...]] = {
    "R1": ("BI", "BM", "DM", "EI", "BH", "FI"), "R2": ("CM", "FL", "HK", "EK", "DI", "BL"),
    "R3": ("CI", "GK", "EG", "CH", "HM", "AG"), "R4": ("AF", "GL", "CF", "DF", "AL", "CE"),
    "R5": ("BD", "BE", "BG", "HL", "AM", "AD"), "R6": ("FK", "FH", "AC", "DK", "DG", "EH"),
}
#: Route cards with 3 stops (blue frame, 2 or 3 players). B6 line 1 is C G M as printed (research §4.2:
#: Board Game Arena's table has a typo there, C K M).
ROUTE_CARDS_3: dict[str, tuple[str, ...]] = {
    "B1": ("CDI", "BDM", "GKL", "EFK", "EHK", "ALM"), "B2": ("FHK", "CFI", "GML", "BHL", "DIM", "BFI"),
    "B3": ("BGL", "BLM", "CIM", "ADM", "AGK", "BFM"), "B4": ("FIK", "EGI", "DHK", "HKL", "AEL", "ABL"),
    "B5": ("ACL", "CGK", "DHI", "CEM", "ABM", "EIK"), "B6": ("CGM", "GHL", "CDM", "AEI", "DFI", "EKL"),
}
ROUTE_CARDS: dict[str, tuple[str, ...]] = {**ROUTE_CARDS_2, **ROUTE_CARDS_3}


def route_cards_for(players: int) -> tuple[str, ...]:
    """Names of the route cards used with ``players`` players: the 3-stop (blue) cards for 2 or 3, the
    2-stop (red) cards for 4 or 5 (research §4.2). Raises ``ValueError`` outside 2..5."""
    if players in (2, 3):
        return tuple(ROUTE_CARDS_3)
    if players in (4, 5):
        return tuple(ROUTE_CARDS_2)
    raise ValueError(f"Streetcar is for 2 to 5 players, not {players}")


def stops_of(card: str, line: int) -> str:
    """The stops (building letters) line ``line`` must serve on route card ``card``."""
    return ROUTE_CARDS[card][line - 1]


# ------------------------------------------------------------------ dice (research §7.3, §7.5, §8)
#: Die faces: GO1..GO4 move that many squares, RED no move, H to the next stop or terminal, TOOLS back
#: to the last stop or terminal (the turn ends).
FACES = ("GO1", "GO2", "GO3", "GO4", "RED", "H", "TOOLS")
DICE: dict[str, tuple[str, ...]] = {
    # the seed and Board Game Arena today: two faces with two green lights, one tools face (default)
    "bga": ("GO2", "GO2", "GO1", "RED", "H", "TOOLS"),
    # the published 3-dice faces: one two-green face, two tools faces
    "published": ("GO2", "GO1", "RED", "H", "TOOLS", "TOOLS"),
    # the 1995 single die: 1, 2, 3, 4, H, H; one roll a turn
    "classic": ("GO1", "GO2", "GO3", "GO4", "H", "H"),
}
FACE_LABELS: dict[str, str] = {
    "GO1": "one green light: 1 square", "GO2": "two green lights: 2 squares", "GO3": "3 squares",
    "GO4": "4 squares", "RED": "red light: no move", "H": "H: to the next stop or terminal",
    "TOOLS": "tools: back to the last stop or terminal, turn over",
}


def face_steps(face: str) -> int:
    """Squares a GO face moves (0 for the other faces)."""
    return int(face[2:]) if face.startswith("GO") else 0
