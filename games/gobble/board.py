"""The Tantrix on the table: placed tiles, the empty cells around them, and the placement rule.

specs/gobble.md "Geometry": a placement is legal when the cell is empty, touches at least two placed
tiles, and every touching edge shows the same colour on both sides. A cell with 3 placed neighbours is a
gobble space, with 4 or more a double gobble space.

A ``Board`` is immutable: :meth:`Board.place` returns a new board. The empty cells next to the Tantrix
are kept with their *pattern*: six characters, the colour a tile must show at each direction ('.' where
there is no neighbour). Which (tile, rotation) pairs fit a pattern is computed once per pattern and
memoised, so searching the legal placements of a tile costs a dictionary look-up per frontier cell.
"""
from __future__ import annotations

from sim.core.hexgrid import DIRS, Hex

from .data import ROT_EDGES, TILE_NUMBERS

ALL_TILES_MASK = 0
for _n in TILE_NUMBERS:
    ALL_TILES_MASK |= 1 << _n

_FIT_CACHE: dict[str, tuple[int, dict[int, tuple[int, ...]]]] = {}


def pattern_fit(pattern: str) -> tuple[int, dict[int, tuple[int, ...]]]:
    """``(mask, {tile: rotations})`` of every tile/rotation that satisfies ``pattern``.

    ``mask`` has bit ``n`` set when tile ``n`` fits in some rotation. Memoised.
    """
    hit = _FIT_CACHE.get(pattern)
    if hit is not None:
        return hit
    req = [(d, c) for d, c in enumerate(pattern) if c != "."]
    fits: dict[int, tuple[int, ...]] = {}
    mask = 0
    for n in TILE_NUMBERS:
        rots = tuple(k for k, e in enumerate(ROT_EDGES[n]) if all(e[d] == c for d, c in req))
        if rots:
            fits[n] = rots
            mask |= 1 << n
    hit = (mask, fits)
    _FIT_CACHE[pattern] = hit
    return hit


def gift_count(neighbours: int, escalating: bool = False) -> int:
    """Tiles earned by filling a space with ``neighbours`` placed neighbours (specs/gobble.md).

    3 -> 1 (Gobble), 4 or more -> 2 (Double Gobble); with ``escalating``, ``neighbours - 2``.
    """
    if neighbours < 3:
        return 0
    if escalating:
        return neighbours - 2
    return 1 if neighbours == 3 else 2


class Board:
    """Placed tiles ``{cell: (tile, rot)}`` and the frontier ``{empty cell: pattern}``."""

    __slots__ = ("tiles", "frontier")

    def __init__(self, tiles: dict[Hex, tuple[int, int]] | None = None,
                 frontier: dict[Hex, str] | None = None):
        self.tiles: dict[Hex, tuple[int, int]] = tiles if tiles is not None else {}
        self.frontier: dict[Hex, str] = frontier if frontier is not None else {}

    @classmethod
    def from_tiles(cls, placed: dict[Hex, tuple[int, int]]) -> "Board":
        """Build a board from ``{cell: (tile, rot)}`` without checking the placement rule."""
        b = cls()
        for cell, (n, rot) in placed.items():
            b = b.place(n, rot, cell)
        return b

    def __len__(self) -> int:
        return len(self.tiles)

    def __eq__(self, other: object) -> bool:
        # the frontier follows from the tiles
        return isinstance(other, Board) and self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash(frozenset(self.tiles.items()))

    def edges_at(self, cell: Hex) -> str:
        """Colours at directions 0..5 of the tile on ``cell`` (KeyError if empty)."""
        n, rot = self.tiles[cell]
        return ROT_EDGES[n][rot]

    def pattern(self, cell: Hex) -> str:
        """What a tile on empty ``cell`` must show at each direction ('.' = unconstrained)."""
        p = self.frontier.get(cell)
        if p is not None:
            return p
        return "......"

    def neighbour_count(self, cell: Hex) -> int:
        """Placed tiles around ``cell``."""
        return 6 - self.pattern(cell).count(".")

    def place(self, n: int, rot: int, cell: Hex) -> "Board":
        """A new board with tile ``n`` at rotation ``rot`` on ``cell`` (no legality check)."""
        tiles = dict(self.tiles)
        tiles[cell] = (n, rot)
        frontier = dict(self.frontier)
        frontier.pop(cell, None)
        e = ROT_EDGES[n][rot]
        q, r = cell
        for d, (dq, dr) in enumerate(DIRS):
            nb = (q + dq, r + dr)
            if nb in tiles:
                continue
            p = frontier.get(nb, "......")
            od = (d + 3) % 6
            frontier[nb] = p[:od] + e[d] + p[od + 1:]
        return Board(tiles, frontier)

    def why_not(self, n: int, rot: int, cell: Hex) -> str | None:
        """``None`` if tile ``n`` at ``rot`` may go on ``cell``, else the reason (for the player)."""
        if cell in self.tiles:
            return "that cell is taken"
        p = self.frontier.get(cell)
        if p is None or 6 - p.count(".") < 2:
            return "a tile must touch at least two tiles"
        e = ROT_EDGES[n][rot % 6]
        for d, c in enumerate(p):
            if c != "." and e[d] != c:
                return "touching colours do not match"
        return None

    def spaces(self, min_neighbours: int = 2) -> list[Hex]:
        """Empty cells with at least ``min_neighbours`` placed neighbours."""
        return [c for c, p in self.frontier.items() if 6 - p.count(".") >= min_neighbours]

    def placements(self, n: int) -> list[tuple[Hex, int]]:
        """Every legal ``(cell, rot)`` for tile ``n``, cells in frontier order, rotations ascending."""
        out = []
        for cell, p in self.frontier.items():
            if p.count(".") > 4:
                continue
            rots = pattern_fit(p)[1].get(n)
            if rots:
                out.extend((cell, k) for k in rots)
        return out

    def fits_anywhere(self, n: int) -> bool:
        """Whether tile ``n`` has at least one legal placement."""
        bit = 1 << n
        for p in self.frontier.values():
            if p.count(".") <= 4 and pattern_fit(p)[0] & bit:
                return True
        return False

    def fit_mask(self) -> int:
        """Bit ``n`` set for every tile that has a legal placement somewhere on this board."""
        m = 0
        for p in self.frontier.values():
            if p.count(".") <= 4:
                m |= pattern_fit(p)[0]
        return m

    def mismatches(self) -> int:
        """Touching edge pairs whose colours differ (0 on any board built by legal play)."""
        bad = 0
        for (q, r), (n, rot) in self.tiles.items():
            e = ROT_EDGES[n][rot]
            for d, (dq, dr) in enumerate(DIRS[:3]):
                nb = (q + dq, r + dr)
                if nb in self.tiles and e[d] != self.edges_at(nb)[(d + 3) % 6]:
                    bad += 1
        return bad
