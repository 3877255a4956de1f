"""Streetcar geometry and the track-laying rules of phase 1 (pure).

Sources: specs/streetcar.md "Phase 1"; research/tram.md §3 (tiles and rotation), §6.1 (placing), §6.2
(exchanging), §6.3 (stop signs).

Squares are numbered ``cell = y * 14 + x`` over the 14 x 14 grid that includes the ring (x, y in
0..13); board squares have x, y in 1..12. A track is a pair of sides; a square's tracks are a 6-bit
*pair mask* (bit ``PAIRS.index((a, b))``), its track ends a 4-bit *side mask* (bit ``s`` for side s).

Legality (research §6.1, with rule (e) read strictly): after a turn, for every changed square and side,
a track end may not lead into a building or off the board (except into the terminal it faces), must
meet a track end of a neighbouring tile or terminal and be met by one, and may point into an empty
square only if some tile type could still fill that square one day (no track end that can never be
continued; this also forbids blocking: a blank side that leaves a neighbour's track end with no
possible continuation).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .data import BUILDINGS, DELTA, GRID, LETTERS, SIDE_NAMES, TILES, TILE_IDS, side_of, terminal_legs

SIZE = GRID + 2  # 14: the board and its ring
CELLS = SIZE * SIZE
EMPTY = -1


def cell_of(x: int, y: int) -> int:
    """Cell number of square (x, y) (0 <= x, y <= 13)."""
    return y * SIZE + x


def xy_of(cell: int) -> tuple[int, int]:
    """Square (x, y) of a cell number."""
    return cell % SIZE, cell // SIZE


def on_board(x: int, y: int) -> bool:
    return 1 <= x <= GRID and 1 <= y <= GRID


#: NEIGH[c][d]: the cell beside c across side d, or -1 outside the 14 x 14 grid.
NEIGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell_of(x + dx, y + dy) if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE else -1 for dx, dy in DELTA)
    for y in range(SIZE) for x in range(SIZE)
)
#: Board squares (x, y in 1..12).
BOARD_CELLS: tuple[int, ...] = tuple(cell_of(x, y) for y in range(1, GRID + 1) for x in range(1, GRID + 1))

# ----------------------------------------------------------------------------- pairs and tiles
PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
PAIR_BIT: dict[tuple[int, int], int] = {p: 1 << i for i, p in enumerate(PAIRS)}


def pair_bit(a: int, b: int) -> int:
    """The pair-mask bit of the track joining sides a and b (a != b)."""
    return PAIR_BIT[(a, b) if a < b else (b, a)]


def mask_of(pairs: tuple[str, ...] | list[str], rot: int = 0) -> int:
    """Pair mask of tracks given as side-letter pairs (``"EW"``...), turned ``rot`` quarter turns
    clockwise. Raises ``ValueError`` for a bad pair."""
    m = 0
    for p in pairs:
        if len(p) != 2:
            raise ValueError(f"not a track: {p!r}")
        a, b = side_of(p[0]), side_of(p[1])
        if a == b:
            raise ValueError(f"not a track: {p!r}")
        m |= pair_bit((a + rot) % 4, (b + rot) % 4)
    return m


def pairs_of(mask: int) -> list[str]:
    """The tracks of a pair mask as side-letter pairs, e.g. ``["NS", "EW"]``."""
    return [SIDE_NAMES[a] + SIDE_NAMES[b] for i, (a, b) in enumerate(PAIRS) if mask >> i & 1]


#: SIDES[m]: side mask of pair mask m.
SIDES: tuple[int, ...] = tuple(
    sum(1 << s for s in range(4) if any(m >> i & 1 and s in p for i, p in enumerate(PAIRS))) for m in range(64)
)
#: EXITS[m][e]: sides a tram entering a square with tracks m by side e may leave by (the other end of
#: each track that has an end at e: research §6.5, no switching tracks, no reversing).
EXITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(b if a == e else a for i, (a, b) in enumerate(PAIRS) if m >> i & 1 and e in (a, b))
          for e in range(4))
    for m in range(64)
)
#: ORIENT[t][r]: pair mask of tile type t at rotation r.
ORIENT: dict[int, tuple[int, ...]] = {t: tuple(mask_of(TILES[t].pairs, r) for r in range(4)) for t in TILE_IDS}


def orientations(tile: int) -> list[tuple[int, int]]:
    """The distinct ``(rot, mask)`` of a tile type: rotations showing the same tracks are given once
    (lowest rotation first)."""
    seen: dict[int, int] = {}
    for r, m in enumerate(ORIENT[tile]):
        seen.setdefault(m, r)
    return [(r, m) for m, r in sorted(seen.items(), key=lambda kv: kv[1])]


ORIENTS: dict[int, tuple[tuple[int, int], ...]] = {t: tuple(orientations(t)) for t in TILE_IDS}
#: Every pair mask some tile type shows in some rotation.
ALL_MASKS: frozenset[int] = frozenset(m for t in TILE_IDS for m in ORIENT[t])
EXCHANGEABLE: frozenset[int] = frozenset(t for t in TILE_IDS if TILES[t].exchangeable)


def tile_code(tile: int, rot: int) -> int:
    return tile * 4 + rot


def keeps_tracks(old: int, new: int) -> bool:
    """Whether a tile with tracks ``new`` may replace one with tracks ``old`` (pair masks): it keeps
    every old track and adds at least one (research §6.2; an exchange for the same tracks would
    change nothing on the board, so it is not a play)."""
    return new & old == old and new != old


def upgrade_rotations(old: int, tile: int) -> list[int]:
    """Rotations of ``tile`` (distinct tracks only) that may replace a tile with tracks ``old``."""
    return [r for r, m in ORIENTS[tile] if keeps_tracks(old, m)]


def _fillable_table() -> tuple[tuple[bool, ...], ...]:
    sides = {SIDES[m] for m in ALL_MASKS}
    return tuple(tuple(any(s & must == must and not s & forbid for s in sides) for forbid in range(16))
                 for must in range(16))


#: FILLABLE[must][forbid]: some tile type in some rotation has track ends on every side in ``must``
#: and on no side in ``forbid``.
FILLABLE = _fillable_table()

# ----------------------------------------------------------------------------- fixed features
BUILDING_AT: dict[int, str] = {cell_of(x, y): k for k, (x, y) in BUILDINGS.items()}
LETTER_INDEX: dict[str, int] = {k: i for i, k in enumerate(LETTERS)}


@dataclass(frozen=True)
class Leg:
    """One terminal cell: its line, which end (0/1) of the line, its fixed track, the side facing its
    board square, the side toward the other cell of the loop, and that other cell."""

    cell: int
    line: int
    end: int
    mask: int
    board_side: int
    loop_side: int
    partner: int


def _legs() -> dict[int, Leg]:
    raw = terminal_legs()
    out: dict[int, Leg] = {}
    for (x, y), (line, end, track) in raw.items():
        c = cell_of(x, y)
        m = mask_of([track])
        a, b = side_of(track[0]), side_of(track[1])
        # the loop side points at the partner cell (a ring cell); the other side at the board
        partner_side = None
        for s in (a, b):
            nx, ny = x + DELTA[s][0], y + DELTA[s][1]
            if (nx, ny) in raw and raw[(nx, ny)][:2] == (line, end):
                partner_side = s
        if partner_side is None:
            raise ValueError(f"terminal cell {(x, y)} has no partner")
        board_side = b if partner_side == a else a
        out[c] = Leg(c, line, end, m, board_side, partner_side, NEIGH[c][partner_side])
    return out


LEGS: dict[int, Leg] = _legs()
#: TERMINAL_CELLS[line][end] = the terminal's two cells (lower cell number first).
TERMINAL_CELLS: dict[int, tuple[tuple[int, int], ...]] = {
    line: tuple(tuple(sorted(g.cell for g in LEGS.values() if g.line == line and g.end == e)) for e in (0, 1))
    for line in sorted({g.line for g in LEGS.values()})
}
#: Board square each terminal cell opens onto -> that terminal cell.
FRONT_OF: dict[int, int] = {NEIGH[c][g.board_side]: c for c, g in LEGS.items()}
BOARD_SET = frozenset(BOARD_CELLS)
#: Board square next to a building (no square is next to two; research §2.2) -> its letter.
NEXT_TO: dict[int, str] = {}
for _c, _k in BUILDING_AT.items():
    for _d in range(4):
        _n = NEIGH[_c][_d]
        if _n in BOARD_SET and _n not in BUILDING_AT:
            NEXT_TO[_n] = _k

#: Fixed tracks of the ring (terminal cells).
_BASE_TRACKS = [0] * CELLS
for _c, _g in LEGS.items():
    _BASE_TRACKS[_c] = _g.mask
BASE_TRACKS: tuple[int, ...] = tuple(_BASE_TRACKS)
TRACK_OF_CODE: tuple[int, ...] = tuple(ORIENT[t][r] for t in TILE_IDS for r in range(4))


def _fixed_constraints() -> tuple[tuple[int, int], ...]:
    """(must, forbid) side masks every board square has from the fixed features beside it: a
    building or a plain ring cell forbids a track end; a terminal cell demands one."""
    out = []
    for c in range(CELLS):
        must = forbid = 0
        if c in BOARD_SET:
            for d in range(4):
                n = NEIGH[c][d]
                if n in BUILDING_AT:
                    forbid |= 1 << d
                elif n not in BOARD_SET:
                    if n in LEGS:
                        must |= 1 << d
                    else:
                        forbid |= 1 << d
        out.append((must, forbid))
    return tuple(out)


FIXED = _fixed_constraints()


# ----------------------------------------------------------------------------- the board
@dataclass(frozen=True)
class Board:
    """The tiles on the board and the stop signs.

    ``cells``: 196 codes, ``tile * 4 + rot`` or ``EMPTY`` (ring cells are always EMPTY here; the
    terminals' fixed curves live in ``BASE_TRACKS``); ``signs``: per building in ``LETTERS`` order, the
    cell carrying its stop sign or -1.
    """

    cells: tuple[int, ...] = (EMPTY,) * CELLS
    signs: tuple[int, ...] = (-1,) * len(LETTERS)

    @cached_property
    def tracks(self) -> tuple[int, ...]:
        """Pair mask of every cell (the terminals' fixed curves included)."""
        t = list(BASE_TRACKS)
        for c, code in enumerate(self.cells):
            if code >= 0:
                t[c] = TRACK_OF_CODE[code]
        return tuple(t)

    @cached_property
    def count(self) -> int:
        """Tiles on the board."""
        return sum(1 for code in self.cells if code >= 0)

    def tile_at(self, cell: int) -> tuple[int, int] | None:
        """``(tile, rot)`` on ``cell`` or None."""
        code = self.cells[cell]
        return None if code < 0 else (code >> 2, code & 3)

    def sign_at(self, cell: int) -> str | None:
        """The building letter whose stop sign is on ``cell``, or None."""
        for i, c in enumerate(self.signs):
            if c == cell:
                return LETTERS[i]
        return None

    def sign_of(self, letter: str) -> int:
        """Cell of building ``letter``'s stop sign, or -1 if it has none yet."""
        return self.signs[LETTER_INDEX[letter]]

    def put(self, cell: int, tile: int, rot: int) -> "Board":
        """The board with ``tile`` at rotation ``rot`` on ``cell`` (placed or exchanged; no rule
        checked). A tile placed next to a building that has no stop sign yet gets its sign (research
        §6.3); an exchanged tile keeps its square's sign."""
        cells = list(self.cells)
        cells[cell] = tile_code(tile, rot)
        signs = self.signs
        k = NEXT_TO.get(cell)
        if k is not None and signs[LETTER_INDEX[k]] < 0:
            signs = signs[:LETTER_INDEX[k]] + (cell,) + signs[LETTER_INDEX[k] + 1:]
        return Board(tuple(cells), signs)

    # ------------------------------------------------------------------ legality
    def constraints(self, cell: int) -> tuple[int, int]:
        """``(must, forbid)`` side masks for a tile on ``cell`` from everything around it: a track end
        is required where a neighbour's track (or a terminal) points in, and forbidden toward a
        building, off the board, or a tile side with no track. Empty neighbours add nothing."""
        must, forbid = FIXED[cell]
        tr = self.tracks
        cells = self.cells
        for d in range(4):
            n = NEIGH[cell][d]
            if n in BOARD_SET and cells[n] >= 0:
                if SIDES[tr[n]] >> ((d + 2) % 4) & 1:
                    must |= 1 << d
                else:
                    forbid |= 1 << d
        return must, forbid

    def defects(self, changed: list[int] | tuple[int, ...]) -> list[tuple[str, int]]:
        """Rule breaks around the ``changed`` cells as ``(reason, cell)``; ``cell`` is the neighbouring
        square involved (a tile that could be exchanged to mend it, an empty square that no tile could
        fill), or -1. Empty when the board is legal there."""
        out: list[tuple[str, int]] = []
        tr = self.tracks
        seen_empty = set()
        for c in changed:
            x, y = xy_of(c)
            if c in BUILDING_AT:
                out.append((f"({x},{y}) is building {BUILDING_AT[c]}", -1))
                continue
            sides = SIDES[tr[c]]
            must, forbid = FIXED[c]
            for d in range(4):
                has = sides >> d & 1
                n = NEIGH[c][d]
                bit = 1 << d
                if forbid & bit:
                    if has:
                        if n in BUILDING_AT:
                            out.append((f"the track at ({x},{y}) leads into building {BUILDING_AT[n]}", -1))
                        else:
                            out.append((f"the track at ({x},{y}) leads off the board", -1))
                    continue
                if must & bit:
                    if not has:
                        out.append((f"the tile at ({x},{y}) must join the terminal beside it", -1))
                    continue
                if self.cells[n] >= 0:
                    nhas = SIDES[tr[n]] >> ((d + 2) % 4) & 1
                    if has and not nhas:
                        nx, ny = xy_of(n)
                        fix = n if self.cells[n] >> 2 in EXCHANGEABLE else -1
                        out.append((f"the track at ({x},{y}) runs into a side of ({nx},{ny}) with no track", fix))
                    elif nhas and not has:
                        nx, ny = xy_of(n)
                        out.append((f"the track of ({nx},{ny}) runs into a side of ({x},{y}) with no track", -1))
                elif n not in seen_empty:
                    seen_empty.add(n)
                    m2, f2 = self.constraints(n)
                    if m2 and not FILLABLE[m2][f2]:
                        nx, ny = xy_of(n)
                        out.append((f"no tile could ever fill ({nx},{ny}) to continue the track ends there", n))
        return out

    def all_defects(self) -> list[tuple[str, int]]:
        """Rule breaks anywhere on the board (tests and invariants)."""
        return self.defects([c for c in BOARD_CELLS if self.cells[c] >= 0])

    def placeable(self, cell: int, mask: int) -> bool:
        """Whether tracks ``mask`` on ``cell`` (empty or not) obey every rule around ``cell`` given the
        rest of the board as it is (the square itself must be a board square that is no building)."""
        if cell not in BOARD_SET or cell in BUILDING_AT:
            return False
        must, forbid = self.constraints(cell)
        s = SIDES[mask]
        if s & must != must or s & forbid:
            return False
        # every empty neighbour this tile points into, or turns a blank side to, must stay fillable
        cells = self.cells
        for d in range(4):
            n = NEIGH[cell][d]
            if n in BOARD_SET and cells[n] < 0 and n not in BUILDING_AT:
                m2, f2 = self.constraints(n)
                back = 1 << ((d + 2) % 4)
                m2 &= ~back
                f2 &= ~back
                if s >> d & 1:
                    m2 |= back
                else:
                    f2 |= back
                if m2 and not FILLABLE[m2][f2]:
                    return False
        return True


def empty_board() -> Board:
    return Board()
