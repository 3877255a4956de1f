"""Tom Tube components: the board, the 40 rhombs, the 9 triangles of each player and the counter stocks.

The printed board and tile art are not known; this module holds the model that research/tomtube.md
designs for them (§3.2 board, §3.3 modules and ports, §3.6 rhombs, §3.7 triangles; resolutions A1, A2,
A19, A22). Everything that would change if the printed layout ever turned up lives here, as data.

Coordinates: knots are axial ``(q, r)`` on the triangular lattice (research §3.1); on screen, in board
units of one space edge, ``x = q + r/2`` and ``y = r * sqrt(3)/2`` (y grows downwards). The board is
the set of knots with ``|q| <= 4``, ``|r| <= 3`` and ``|q + r| <= 4``: a hexagon with sides 5, 3, 3,
5, 3, 3 holding 78 space triangles.

Rhomb corners follow research §3.5: in the tile's own picture the long diagonal is horizontal, ``A`` is
the left (acute) corner, ``B`` the top (obtuse) one, ``C`` the right (acute) one and ``D`` the bottom
(obtuse) one; the short diagonal B-D is the edge the tile's two triangles share.
"""
from __future__ import annotations

from typing import NamedTuple

# ------------------------------------------------------------------------------------------ players
TOM = 0
DAVE = 1
PLAYER_NAMES = ("Tom", "Dave")
#: Tube colour of each player's own tubes (index = player).
PLAYER_COLOUR = ("TOM", "DAVE")
#: Tube colours: the two players', the striped neutral one, and the tubes printed on the board (which
#: count as neutral for every movement, research A21).
TUBE_COLOURS = ("TOM", "DAVE", "NEUTRAL", "PRINTED")

# -------------------------------------------------------------------------------------------- board
#: Half-widths of the board hexagon: |q| <= 4, |r| <= 3, |q + r| <= 4 (research §3.2).
BOARD_Q, BOARD_R, BOARD_S = 4, 3, 4


def on_board(q: int, r: int) -> bool:
    """Whether knot ``(q, r)`` lies on the board (research §3.2)."""
    return abs(q) <= BOARD_Q and abs(r) <= BOARD_R and abs(q + r) <= BOARD_S


class Module(NamedTuple):
    """A base or solar module: ``owner`` (TOM or DAVE), ``kind`` ("base" or "solar"), ``virtual`` the
    lattice knot just outside the border where its node sits, and ``ports`` the two border knots its
    printed tubes lead to (research §3.3)."""

    name: str
    owner: int
    kind: str
    virtual: tuple[int, int]
    ports: tuple[tuple[int, int], tuple[int, int]]


#: The six modules (research §3.3 table). Tom's route runs top -> upper left -> lower right -> top,
#: Dave's the mirror image, so the two routes cross.
MODULES: tuple[Module, ...] = (
    Module("TOM_BASE", TOM, "base", (2, -4), ((1, -3), (2, -3))),
    Module("DAVE_BASE", DAVE, "base", (-2, 4), ((-2, 3), (-1, 3))),
    Module("TOM_SOLAR_UL", TOM, "solar", (-3, -2), ((-2, -2), (-3, -1))),
    Module("TOM_SOLAR_LR", TOM, "solar", (3, 2), ((3, 1), (2, 2))),
    Module("DAVE_SOLAR_UR", DAVE, "solar", (5, -2), ((4, -2), (4, -1))),
    Module("DAVE_SOLAR_LL", DAVE, "solar", (-5, 2), ((-4, 1), (-4, 2))),
)
BASES = ("TOM_BASE", "DAVE_BASE")  #: index = player
SOLARS = (("TOM_SOLAR_UL", "TOM_SOLAR_LR"), ("DAVE_SOLAR_UR", "DAVE_SOLAR_LL"))  #: index = player


def mirror(q: int, r: int) -> tuple[int, int]:
    """The board mirror in the horizontal midline, ``(q, r) -> (q + r, -r)``: it maps every object of
    Tom onto the matching object of Dave (research §3.3 "Fairness")."""
    return (q + r, -r)


# ------------------------------------------------------------------------------------------- rhombs
class Rhomb(NamedTuple):
    """One rhomb tile: ``id`` ("R01".."R40"), ``design`` (research §3.6 name), ``tubes`` as
    ``(colour, corner, corner)`` with corners "A".."D", and ``energy``: an energy sphere (marked "+")
    at the centre, which splits every diagonal tube (A-C, B-D) of the tile there (research §3.5 rule 4)."""

    id: str
    design: str
    tubes: tuple[tuple[str, str, str], ...]
    energy: bool


#: (design, tubes, how many, how many of them carry an energy sphere) - research §3.6.
RHOMB_DESIGNS: tuple[tuple[str, tuple[tuple[str, str, str], ...], int, int], ...] = (
    ("P1", (("TOM", "A", "B"), ("DAVE", "C", "D")), 3, 0),
    ("P2", (("TOM", "A", "D"), ("DAVE", "B", "C")), 3, 0),
    ("X1", (("TOM", "A", "C"), ("DAVE", "B", "D")), 2, 1),
    ("X2", (("TOM", "B", "D"), ("DAVE", "A", "C")), 2, 1),
    ("V1", (("TOM", "A", "B"), ("DAVE", "B", "C")), 4, 0),
    ("V2", (("TOM", "B", "C"), ("DAVE", "A", "B")), 4, 0),
    ("Q1", (("TOM", "B", "D"), ("DAVE", "A", "B")), 2, 1),
    ("Q1m", (("DAVE", "B", "D"), ("TOM", "B", "C")), 2, 1),
    ("Q2", (("TOM", "B", "D"), ("DAVE", "B", "C")), 2, 1),
    ("Q2m", (("DAVE", "B", "D"), ("TOM", "A", "B")), 2, 1),
    ("NS1", (("NEUTRAL", "A", "B"),), 2, 0),
    ("NS2", (("NEUTRAL", "A", "D"),), 2, 0),
    ("NL", (("NEUTRAL", "A", "C"),), 5, 2),
    ("NB", (("NEUTRAL", "B", "D"),), 5, 2),
)


def _rhombs() -> tuple[Rhomb, ...]:
    out = []
    for design, tubes, count, energy in RHOMB_DESIGNS:
        for i in range(count):
            out.append(Rhomb(f"R{len(out) + 1:02d}", design, tubes, i < energy))
    return tuple(out)


#: The 40 rhombs R01..R40, in the order of research §3.6 (R07, R09, R19, R21, R23, R25, R31, R32, R36
#: and R37 carry the energy sphere).
RHOMBS: tuple[Rhomb, ...] = _rhombs()
RHOMB_BY_ID: dict[str, Rhomb] = {t.id: t for t in RHOMBS}
RHOMB_IDS: tuple[str, ...] = tuple(t.id for t in RHOMBS)
#: Tunable (research A22): rhombs with an energy sphere.
ENERGY_TILES = sum(t.energy for t in RHOMBS)

# ---------------------------------------------------------------------------------------- triangles
#: Each player's triangles by design (research §3.7; A22 keeps the arc/Y split tunable):
#: "arc" - an own-colour tube between two corners (the third corner empty);
#: "Y" - own-colour tubes from all three corners to a junction at the centre (a ramification
#: without a sphere); "plain" - no tube, sphere parts only.
TRIANGLE_PIECES: tuple[str, ...] = ("arc", "Y", "plain")
TRIANGLE_SET: dict[str, int] = {"arc": 3, "Y": 3, "plain": 3}
#: Rotations that give different pictures: an arc's rotation names its empty corner; Y and plain
#: pieces look the same every way round, so they take rotation 0 only.
PIECE_ROTATIONS: dict[str, int] = {"arc": 3, "Y": 1, "plain": 1}

# ----------------------------------------------------------------------------------------- counters
#: The counter stock of the box (rulebook "Contents"): 24 energy (yellow), 8 control (blue),
#: 6 alien (green) counters; 2 solar counters per player lie on his solar modules.
STOCK: dict[str, int] = {"energy": 24, "control": 8, "alien": 6}
COUNTER_KINDS: tuple[str, ...] = ("energy", "control", "alien")
SOLAR_PER_PLAYER = 2
#: Energy counters on each base at the start (rulebook "Getting Started").
START_ENERGY = 1
#: Points per counter on one's base (rulebook "Evaluation"); a bonus turn is worth 1 point.
POINTS: dict[str, int] = {"energy": 1, "control": 2, "alien": 5, "solar": 5}
BONUS_POINTS_PER_TURN = 1
#: What one alien counter is exchanged for (rulebook "Changing Alien Counters").
ALIEN_EXCHANGE: dict[str, int] = {"control": 1, "energy": 2}

# ------------------------------------------------------------------------------------------ palette
#: Colours (research A19): Tom orange, Dave red, neutral tubes white/grey stripes, counters yellow,
#: blue and green, silver spheres on dark space. RGB triples.
PALETTE: dict[str, tuple[int, int, int]] = {
    "TOM": (0xF3, 0x9C, 0x12),
    "DAVE": (0xD0, 0x30, 0x2A),
    "NEUTRAL": (0xF0, 0xF0, 0xF0),
    "NEUTRAL_STRIPE": (0x9A, 0x9A, 0x9A),
    "PRINTED": (0xC8, 0xC8, 0xD2),
    "energy": (0xF5, 0xD8, 0x00),
    "control": (0x1F, 0x5F, 0xD0),
    "alien": (0x2E, 0xA0, 0x43),
    "sphere": (0xC0, 0xC4, 0xCC),
    "space": (0x0B, 0x10, 0x24),
    "edge": (0x55, 0x5B, 0x6E),
}
