"""Tumbleweed rules (pure: no pygame, no clock, no global random state).

The model decided in specs/tumbleweed.md "Rules" and "Setup" (seed 004; research/tumbleweed.md §1.3-§1.7):

* A hexhex board of side ``size`` (4..11 in a match; 6, 8, 10, 11 offered, 8 by default) has
  ``3 * size * (size - 1) + 1`` hexes. Stacks are red, white (the players) or neutral.
* A stack **sees** along the six grid directions up to and including the first stack of any colour,
  which blocks. Only red and white stacks see; a neutral stack only blocks. A stack does not see its own
  hex.
* A move places a stack of the mover's colour on a hex that at least one of the mover's stacks sees; its
  height is the number of the mover's stacks that see the hex (so at most 6). On an occupied hex (own:
  a reinforcement; enemy or neutral: a capture) the new stack replaces the old one only if it is
  strictly taller. **Pass** is always allowed.
* The game ends after two successive passes, when neither player can place, or by the stale rule (below).
  Score: stacks plus controlled empty hexes (more of your stacks see it than the opponent's); config
  ``strict``: stacks only. Equal scores are a draw.
* Setup ("original"): a neutral 2-stack on the centre; the host (seat 0) places one red and one white
  1-stack on two other hexes; the guest (seat 1) chooses a colour (pie rule); red moves first.
  "free": the host first places the neutral 2-stack anywhere. Setup steps and the colour choice are not
  passes.
* Stale rule (seed "Game end reminder"): a play turn is *stale* when it captures nothing and no hex that
  was not already the mover's (a stack of the mover's colour, or an empty hex the mover controls)
  changes hands (owner, or controller of an empty hex). After 3 stale turns in a row (both players'
  turns counted) the state carries a reminder that passing is recommended; after 2 more the game ends.
  In strict mode a placement on an empty hex is never stale (it scores).
* A placement is **suicidal** when the opponent sees the hex more times than the new stack is tall
  (spec "Options and aids"); a stack is **threatened** when the opponent can capture it with a move
  that is not suicidal.

Players are seats: 0 the host, 1 the guest; the colour of each seat is fixed by the guest's choice.
Actions (JSON dicts): ``{"t": "neutral", "q", "r"}`` (free setup only), ``{"t": "setup", "red": [q, r],
"white": [q, r]}``, ``{"t": "choose", "colour": "red"|"white"}`` (the guest's colour),
``{"t": "place", "q", "r"}`` and ``{"t": "pass"}``.

Internally a hex is a dense index (row by row from the top) and its whole content is one small integer,
``code = owner * 343 + height * 49 + red_sight * 7 + white_sight``, so that line-of-sight updates are one
addition per hex and per-hex lookup tables give legality, score and evaluation terms.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any, Iterable, Sequence

from sim.core.hexgrid import DIRS, Hex
from sim.core.options import check as check_options
from sim.core.rules import Action, Event, GameInfo, IllegalAction

from .options import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, OPTIONS

INFO = GameInfo(name="tumbleweed", title="Tumbleweed", min_players=2, max_players=2, realtime=False,
                rules_version=1)

#: Stack owners (``EMPTY`` = no stack).
EMPTY, RED, WHITE, NEUTRAL = 0, 1, 2, 3
COLOUR_NAMES = {RED: "red", WHITE: "white", NEUTRAL: "neutral"}
COLOURS = {"red": RED, "white": WHITE}
#: Seats: the host sets up, the guest chooses a colour.
HOST, GUEST = 0, 1

#: Board sides a match accepts (spec "Rules": any 4..11; 6, 8, 10, 11 offered; 8 the default).
#: Smallest/largest side the geometry itself supports (puzzle positions use side 3).
GEOMETRY_SIZES = (2, 13)
MAX_HEIGHT = 6
NEUTRAL_HEIGHT = 2
#: Stale rule (seed "Game end reminder"): reminder after this many stale turns, end after this many.
STALE_REMINDER, STALE_END = 3, 5

BOT_LEVELS = ("easy", "medium", "hard")

# ------------------------------------------------------------------------------------ hex codes
OWNER_MUL, HEIGHT_MUL, RED_MUL, WHITE_MUL = 343, 49, 7, 1
NCODES = 4 * OWNER_MUL
#: What one more stack of an owner adds to a seen hex's code.
DELTA = (0, RED_MUL, WHITE_MUL, 0)
OPP = (3, 4, 5, 0, 1, 2)


def make_code(owner: int, height: int, los_red: int, los_white: int) -> int:
    """The code of a hex: ``owner`` 0..3, ``height`` 0..6, sight counts 0..6."""
    return owner * OWNER_MUL + height * HEIGHT_MUL + los_red * RED_MUL + los_white


CODE_OWNER = tuple(c // OWNER_MUL for c in range(NCODES))
CODE_HEIGHT = tuple(c // HEIGHT_MUL % 7 for c in range(NCODES))
CODE_LOS = (None, tuple(c // RED_MUL % 7 for c in range(NCODES)), tuple(c % 7 for c in range(NCODES)))
#: LEGAL[colour][code]: that colour may place on the hex (sees it, and more times than it is high).
LEGAL = (None,) + tuple(tuple(CODE_LOS[p][c] > CODE_HEIGHT[c] for c in range(NCODES)) for p in (RED, WHITE))


def _control(c: int) -> int:
    """Controller of an empty hex of code ``c`` (RED, WHITE or EMPTY for contested/unseen)."""
    lr, lw = CODE_LOS[RED][c], CODE_LOS[WHITE][c]
    return RED if lr > lw else WHITE if lw > lr else EMPTY


#: STATUS[code]: who a hex belongs to: 1/2/3 a stack's owner, 4 empty and nobody's, 5 red's, 6 white's.
STATUS = tuple(CODE_OWNER[c] if CODE_OWNER[c] else 4 + _control(c) for c in range(NCODES))
#: Score tables (red minus white per hex): with controlled empty hexes, and stacks only (strict).
SCORE_TABLE = tuple(1 if s in (RED, 5) else -1 if s in (WHITE, 6) else 0 for s in STATUS)
STRICT_TABLE = tuple(1 if s == RED else -1 if s == WHITE else 0 for s in STATUS)


# ------------------------------------------------------------------------------------ geometry
class Geometry:
    """The board of side ``size`` (research §5.1 "Geometry, precomputed once per size").

    ``cells[i]`` = axial ``(q, r)`` (pointy-top, r down, centre (0, 0)), row by row from the top and left
    to right; ``index[(q, r)]`` = i; ``rays[i][d]`` = the hexes met walking from i in direction
    ``hexgrid.DIRS[d]`` (E, NE, NW, W, SW, SE) to the edge, nearest first; ``centre`` = index of (0, 0).
    """

    def __init__(self, size: int):
        if not isinstance(size, int) or isinstance(size, bool) or not GEOMETRY_SIZES[0] <= size <= GEOMETRY_SIZES[1]:
            raise ValueError(f"board side must be a whole number {GEOMETRY_SIZES[0]}..{GEOMETRY_SIZES[1]}, not {size!r}")
        m = size - 1
        self.size = size
        self.cells: tuple[Hex, ...] = tuple((q, r) for r in range(-m, m + 1)
                                           for q in range(max(-m, -m - r), min(m, m - r) + 1))
        self.n = len(self.cells)
        self.index: dict[Hex, int] = {c: i for i, c in enumerate(self.cells)}
        rays = []
        for q, r in self.cells:
            per = []
            for dq, dr in DIRS:
                ray = []
                k = 1
                while (q + dq * k, r + dr * k) in self.index:
                    ray.append(self.index[(q + dq * k, r + dr * k)])
                    k += 1
                per.append(tuple(ray))
            rays.append(tuple(per))
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        self.centre = self.index[(0, 0)]
        rng = random.Random(f"tumbleweed-zobrist/{size}")
        #: zobrist[i][owner * 7 + height]; 0 for an empty hex so the empty board hashes to 0
        self.zobrist = tuple(tuple(0 if k == 0 else rng.getrandbits(64) for k in range(28)) for _ in range(self.n))
        self.side_key = (0, 0, rng.getrandbits(64))
        self.pass_key = (0, rng.getrandbits(64), rng.getrandbits(64))

    def on_board(self, cell: Hex) -> bool:
        return cell in self.index


@lru_cache(maxsize=None)
def geometry(size: int) -> Geometry:
    """The shared :class:`Geometry` of side ``size``; ``ValueError`` outside 2..13."""
    return Geometry(size)


def cell_count(size: int) -> int:
    """Hexes on a hexhex board of side ``size``: 3n(n-1)+1 (research §1.6)."""
    return 3 * size * (size - 1) + 1


def full_sight(size: int, owner: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """Sight recomputed from scratch (the reference the incremental tables must equal).

    Returns ``(los_red, los_white, near)``: for every hex the number of red / white stacks that see it,
    and ``near[i * 6 + d]`` = the first occupied hex from i in direction d (or -1).
    """
    geo = geometry(size)
    n = geo.n
    los = [None, [0] * n, [0] * n]
    near = [-1] * (6 * n)
    for i in range(n):
        rays = geo.rays[i]
        for d in range(6):
            for y in rays[d]:
                if owner[y]:
                    near[i * 6 + d] = y
                    break
        o = owner[i]
        if o == RED or o == WHITE:
            arr = los[o]
            for ray in rays:
                for y in ray:
                    arr[y] += 1
                    if owner[y]:
                        break
    return los[RED], los[WHITE], near


# -------------------------------------------------------------------------------------- engine
class Engine:
    """Mutable position for search and playouts, with incremental sight and undo (research §5.1).

    ``code[i]`` packs owner, height and both sight counts of hex i; ``near[i * 6 + d]`` is the nearest
    occupied hex from i in direction d (-1 if none). ``to_move`` is RED or WHITE, ``passes`` the number
    of passes in a row. ``val`` is the running sum of ``table[code[i]]`` over all hexes (by default
    :data:`SCORE_TABLE`, so ``val`` = red's score minus white's); a bot passes its own evaluation table.
    ``hash`` is a Zobrist hash of the stacks; :meth:`key` adds the side to move and the pass count.
    Moves are not checked here (use :meth:`is_legal`); every change is undone by :meth:`undo`.
    """

    __slots__ = ("geo", "size", "n", "code", "near", "to_move", "passes", "table", "val", "hash", "history")

    def __init__(self, size: int, table: Sequence[int] | None = None):
        geo = geometry(size)
        self.geo = geo
        self.size = size
        self.n = geo.n
        self.code = [0] * geo.n
        self.near = [-1] * (6 * geo.n)
        self.to_move = RED
        self.passes = 0
        self.table = SCORE_TABLE if table is None else table
        self.val = self.table[0] * geo.n
        self.hash = 0
        self.history: list[tuple[int, int, int, int]] = []

    # ---------------------------------------------------------------- building
    @classmethod
    def from_stacks(cls, size: int, stacks: dict[int, tuple[int, int]], to_move: int = RED,
                    passes: int = 0, table: Sequence[int] | None = None) -> "Engine":
        """A position from ``stacks`` = {hex index: (owner, height)} with sight recounted from scratch.
        Raises ``ValueError`` for a bad owner or height."""
        e = cls(size, table)
        owner = [0] * e.n
        height = [0] * e.n
        for i, (o, h) in stacks.items():
            if not 0 <= i < e.n:
                raise ValueError(f"hex index {i} is off a side-{size} board")
            if o not in (RED, WHITE, NEUTRAL) or not isinstance(h, int) or not 1 <= h <= MAX_HEIGHT:
                raise ValueError(f"bad stack {o!r}/{h!r} on hex {i}")
            owner[i], height[i] = o, h
        lr, lw, near = full_sight(size, owner)
        e.code = [make_code(owner[i], height[i], lr[i], lw[i]) for i in range(e.n)]
        e.near = near
        e.to_move = to_move
        e.passes = passes
        e.rehash()
        return e

    @classmethod
    def from_codes(cls, size: int, code: Iterable[int], near: Iterable[int], to_move: int, passes: int,
                   table: Sequence[int] | None = None) -> "Engine":
        """A position from stored tables (trusted: they come from another engine)."""
        e = cls(size, table)
        e.code = list(code)
        e.near = list(near)
        e.to_move = to_move
        e.passes = passes
        e.rehash()
        return e

    def rehash(self) -> None:
        """Recompute ``val`` and ``hash`` from ``code`` (after a table swap or a bulk load)."""
        t = self.table
        self.val = sum(t[c] for c in self.code)
        z = self.geo.zobrist
        h = 0
        for i, c in enumerate(self.code):
            if c >= OWNER_MUL:
                h ^= z[i][c // HEIGHT_MUL]
        self.hash = h

    def copy(self, table: Sequence[int] | None = None) -> "Engine":
        """An independent copy (history not included), optionally with another value table."""
        e = Engine.from_codes(self.size, self.code, self.near, self.to_move, self.passes,
                              self.table if table is None else table)
        return e

    def key(self) -> int:
        """Hash of the whole position: stacks, side to move and passes in a row."""
        g = self.geo
        return self.hash ^ g.side_key[self.to_move] ^ g.pass_key[min(self.passes, 2)]

    # ---------------------------------------------------------------- queries
    def owner(self, i: int) -> int:
        return self.code[i] // OWNER_MUL

    def height(self, i: int) -> int:
        return self.code[i] // HEIGHT_MUL % 7

    def los(self, colour: int, i: int) -> int:
        """How many stacks of ``colour`` (RED/WHITE) see hex ``i``."""
        return CODE_LOS[colour][self.code[i]]

    def is_legal(self, i: int, colour: int | None = None) -> bool:
        """Whether ``colour`` (default: the side to move) may place on hex ``i``."""
        return LEGAL[colour or self.to_move][self.code[i]]

    def legal(self, colour: int | None = None) -> list[int]:
        """Hexes where ``colour`` (default: the side to move) may place, in index order."""
        leg = LEGAL[colour or self.to_move]
        return [i for i, c in enumerate(self.code) if leg[c]]

    def has_move(self, colour: int | None = None) -> bool:
        leg = LEGAL[colour or self.to_move]
        for c in self.code:
            if leg[c]:
                return True
        return False

    def is_suicidal(self, i: int, colour: int | None = None) -> bool:
        """Whether placing ``colour`` (default: side to move) on hex ``i`` is suicidal: the opponent sees
        the hex more times than the new stack would be tall (spec "Options and aids")."""
        p = colour or self.to_move
        c = self.code[i]
        return CODE_LOS[3 - p][c] > CODE_LOS[p][c]

    def is_threatened(self, i: int) -> bool:
        """Whether the red or white stack on hex ``i`` can be captured by a move that is not suicidal."""
        c = self.code[i]
        o = c // OWNER_MUL
        if o not in (RED, WHITE):
            return False
        mine, theirs = CODE_LOS[o][c], CODE_LOS[3 - o][c]
        return theirs > CODE_HEIGHT[c] and theirs >= mine

    def score(self) -> tuple[int, int, int, int]:
        """``(red_stacks, red_territory, white_stacks, white_territory)`` (a strict score is the stacks
        alone)."""
        counts = [0] * 7
        for c in self.code:
            counts[STATUS[c]] += 1
        return counts[RED], counts[5], counts[WHITE], counts[6]

    def gain(self, x: int) -> int:
        """How much ``val`` would change if the side to move placed on hex ``x`` (not checked for
        legality); computed without changing anything (a bot's move ordering)."""
        code = self.code
        near = self.near
        t = self.table
        p = self.to_move
        old = code[x]
        new = p * OWNER_MUL + CODE_LOS[p][old] * HEIGHT_MUL + old % HEIGHT_MUL
        v = t[new] - t[old]
        oo = old // OWNER_MUL
        rx = self.geo.rays[x]
        if oo == 0:
            add = DELTA[p]
            x6 = x * 6
            for d in range(6):
                b = near[x6 + OPP[d]]
                dd = add - DELTA[code[b] // OWNER_MUL] if b >= 0 else add
                if dd:
                    for y in rx[d]:
                        c0 = code[y]
                        v += t[c0 + dd] - t[c0]
                        if c0 >= OWNER_MUL:
                            break
        elif oo != p:
            dd = DELTA[p] - DELTA[oo]
            if dd:
                for ray in rx:
                    for y in ray:
                        c0 = code[y]
                        v += t[c0 + dd] - t[c0]
                        if c0 >= OWNER_MUL:
                            break
        return v

    # ---------------------------------------------------------------- changes
    def _change(self, x: int, new: int) -> None:
        """Set hex ``x`` to code ``new`` (owner and height; its sight part is kept) and update sight."""
        code = self.code
        near = self.near
        t = self.table
        old = code[x]
        new = new - new % HEIGHT_MUL + old % HEIGHT_MUL
        oo = old // OWNER_MUL
        no = new // OWNER_MUL
        v = self.val + t[new] - t[old]
        code[x] = new
        z = self.geo.zobrist[x]
        self.hash ^= z[old // HEIGHT_MUL] ^ z[new // HEIGHT_MUL]
        rx = self.geo.rays[x]
        if oo == 0:
            add = DELTA[no]
            x6 = x * 6
            for d in range(6):
                od = OPP[d]
                b = near[x6 + od]
                dd = add - DELTA[code[b] // OWNER_MUL] if b >= 0 else add
                if dd:
                    for y in rx[d]:
                        near[y * 6 + od] = x
                        c0 = code[y]
                        c1 = c0 + dd
                        code[y] = c1
                        v += t[c1] - t[c0]
                        if c1 >= OWNER_MUL:
                            break
                else:
                    for y in rx[d]:
                        near[y * 6 + od] = x
                        if code[y] >= OWNER_MUL:
                            break
        elif oo != no:
            dd = DELTA[no] - DELTA[oo]
            if dd:
                for ray in rx:
                    for y in ray:
                        c0 = code[y]
                        c1 = c0 + dd
                        code[y] = c1
                        v += t[c1] - t[c0]
                        if c1 >= OWNER_MUL:
                            break
        self.val = v

    def _revert(self, x: int, old: int) -> None:
        """Inverse of :meth:`_change` (hex ``x`` back to ``old``)."""
        code = self.code
        near = self.near
        t = self.table
        new = code[x]
        oo = old // OWNER_MUL
        no = new // OWNER_MUL
        rx = self.geo.rays[x]
        v = self.val
        if oo == 0:
            add = DELTA[no]
            x6 = x * 6
            for d in range(6):
                od = OPP[d]
                b = near[x6 + od]
                dd = add - DELTA[code[b] // OWNER_MUL] if b >= 0 else add
                if dd:
                    for y in rx[d]:
                        near[y * 6 + od] = b
                        c0 = code[y]
                        c1 = c0 - dd
                        code[y] = c1
                        v += t[c1] - t[c0]
                        if c1 >= OWNER_MUL:
                            break
                else:
                    for y in rx[d]:
                        near[y * 6 + od] = b
                        if code[y] >= OWNER_MUL:
                            break
        elif oo != no:
            dd = DELTA[no] - DELTA[oo]
            if dd:
                for ray in rx:
                    for y in ray:
                        c0 = code[y]
                        c1 = c0 - dd
                        code[y] = c1
                        v += t[c1] - t[c0]
                        if c1 >= OWNER_MUL:
                            break
        old = old - old % HEIGHT_MUL + new % HEIGHT_MUL
        code[x] = old
        z = self.geo.zobrist[x]
        self.hash ^= z[old // HEIGHT_MUL] ^ z[new // HEIGHT_MUL]
        self.val = v + t[old] - t[new]

    def put(self, i: int, owner: int, height: int) -> None:
        """Set up a stack (setup steps, hand-made positions): no turn change; undone by :meth:`undo`.
        ``owner`` EMPTY with height 0 removes a stack."""
        self.history.append((i, self.code[i], self.passes, self.to_move))
        self._change(i, owner * OWNER_MUL + height * HEIGHT_MUL)

    def play(self, i: int) -> None:
        """The side to move places on hex ``i`` (height = its sight there); the turn passes."""
        p = self.to_move
        c = self.code[i]
        self.history.append((i, c, self.passes, p))
        self._change(i, p * OWNER_MUL + CODE_LOS[p][c] * HEIGHT_MUL)
        self.to_move = 3 - p
        self.passes = 0

    def pass_turn(self) -> None:
        """The side to move passes."""
        self.history.append((-1, 0, self.passes, self.to_move))
        self.passes += 1
        self.to_move = 3 - self.to_move

    def undo(self) -> None:
        """Take back the last :meth:`play`, :meth:`pass_turn` or :meth:`put`; ``IndexError`` if none."""
        x, old, passes, to_move = self.history.pop()
        if x >= 0:
            self._revert(x, old)
        self.passes = passes
        self.to_move = to_move

    # ---------------------------------------------------------------- checks
    def verify(self) -> list[str]:
        """Differences between the incremental tables and a full recount (empty when they agree)."""
        owner = [c // OWNER_MUL for c in self.code]
        lr, lw, near = full_sight(self.size, owner)
        bad = []
        for i, c in enumerate(self.code):
            if CODE_LOS[RED][c] != lr[i] or CODE_LOS[WHITE][c] != lw[i]:
                bad.append(f"hex {self.geo.cells[i]}: sight {CODE_LOS[RED][c]}/{CODE_LOS[WHITE][c]}, "
                           f"recount {lr[i]}/{lw[i]}")
        if near != self.near:
            k = next(j for j in range(len(near)) if near[j] != self.near[j])
            bad.append(f"nearest-stack table differs at hex {self.geo.cells[k // 6]} direction {k % 6}")
        if self.val != sum(self.table[c] for c in self.code):
            bad.append("running value differs from a recount")
        return bad


def random_playout(e: Engine, rng: random.Random, max_plies: int | None = None) -> int:
    """Play uniformly random legal placements from ``e`` (passing only when the side to move has
    none) until neither side can place or ``max_plies`` turns are made; returns the turns made. Random
    hexes are tried first (rejection sampling, still uniform over the legal ones), then a full scan."""
    n = e.n
    code = e.code
    plies = 0
    randrange = rng.randrange
    while max_plies is None or plies < max_plies:
        leg = LEGAL[e.to_move]
        mv = -1
        for _ in range(8):
            i = randrange(n)
            if leg[code[i]]:
                mv = i
                break
        if mv < 0:
            moves = [i for i, c in enumerate(code) if leg[c]]
            if moves:
                mv = moves[randrange(len(moves))]
        if mv < 0:
            if e.passes:
                break
            e.pass_turn()
        else:
            e.play(mv)
        plies += 1
    return plies


# ------------------------------------------------------------------------------ match state
@dataclass(frozen=True)
class TumbleweedState:
    """One position of a match (never mutated).

    ``code``/``near``: the hex tables of :class:`Engine`. ``phase``: "neutral" (free setup: the host
    places the neutral stack), "setup" (the host places the red and white 1-stacks), "choose" (the guest
    picks a colour), "play" or "over". ``to_move``: RED or WHITE (in play). ``red_seat``: the seat playing
    red once chosen. ``passes``: passes in a row; ``stale``: stale turns in a row (reminder at 3, end at
    5); ``ended``: "passes", "no_moves" or "stale" once over; ``last``: hex index of the last placement
    (None after a pass); ``ply``: play turns made (placements and passes; setup steps excluded).
    """

    size: int
    code: tuple[int, ...]
    near: tuple[int, ...]
    phase: str = "setup"
    to_move: int = RED
    red_seat: int | None = None
    passes: int = 0
    stale: int = 0
    ended: str | None = None
    last: int | None = None
    ply: int = 0
    strict: bool = False
    setup: str = "original"
    stale_rule: bool = True

    @property
    def geo(self) -> Geometry:
        return geometry(self.size)

    def engine(self, table: Sequence[int] | None = None) -> Engine:
        """A mutable :class:`Engine` of this position (``table`` for a bot's evaluation)."""
        return Engine.from_codes(self.size, self.code, self.near, self.to_move, self.passes, table)

    def index(self, cell: Hex) -> int:
        """Dense index of axial ``cell``; ``KeyError`` if it is off the board."""
        return self.geo.index[tuple(cell)]

    def stack(self, cell: Hex) -> tuple[int, int]:
        """``(owner, height)`` on axial ``cell`` (``(EMPTY, 0)`` for an empty hex)."""
        c = self.code[self.index(cell)]
        return c // OWNER_MUL, c // HEIGHT_MUL % 7

    def sight(self, colour: int, cell: Hex) -> int:
        """How many stacks of ``colour`` (RED/WHITE) see axial ``cell``."""
        return CODE_LOS[colour][self.code[self.index(cell)]]

    def seat_of(self, colour: int) -> int | None:
        """The seat playing ``colour`` (None before the guest has chosen)."""
        if self.red_seat is None:
            return None
        return self.red_seat if colour == RED else 1 - self.red_seat

    def colour_of(self, seat: int) -> int | None:
        """The colour of ``seat`` (None before the guest has chosen)."""
        if self.red_seat is None:
            return None
        return RED if seat == self.red_seat else WHITE

    @property
    def reminder(self) -> bool:
        """Whether the stale-game reminder ("passing is recommended") should show."""
        return self.stale_rule and self.phase == "play" and self.stale >= STALE_REMINDER


def control(state: TumbleweedState) -> list[int]:
    """Influence map: for every hex index, :data:`STATUS` (1 red, 2 white, 3 neutral stack; 4 an empty
    hex nobody controls, contested or unseen; 5 red's, 6 white's controlled empty hex)."""
    return [STATUS[c] for c in state.code]


def contested(state: TumbleweedState) -> list[int]:
    """Empty hexes that both players see equally often (at least once): the seed's "light red"."""
    out = []
    for i, c in enumerate(state.code):
        if c < OWNER_MUL:
            lr, lw = CODE_LOS[RED][c], CODE_LOS[WHITE][c]
            if lr == lw and lr > 0:
                out.append(i)
    return out


def is_suicidal(state: TumbleweedState, cell: Hex, colour: int | None = None) -> bool:
    """Whether a placement of ``colour`` (default: the side to move) on ``cell`` would be suicidal."""
    p = colour or state.to_move
    c = state.code[state.index(cell)]
    return CODE_LOS[3 - p][c] > CODE_LOS[p][c]


def is_threatened(state: TumbleweedState, cell: Hex) -> bool:
    """Whether the red or white stack on ``cell`` can be captured by a move that is not suicidal."""
    c = state.code[state.index(cell)]
    o = c // OWNER_MUL
    if o not in (RED, WHITE):
        return False
    return CODE_LOS[3 - o][c] > CODE_HEIGHT[c] and CODE_LOS[3 - o][c] >= CODE_LOS[o][c]


def threatened_stacks(state: TumbleweedState) -> list[Hex]:
    """Axial cells of every threatened red or white stack."""
    cells = state.geo.cells
    return [cells[i] for i in range(len(state.code)) if is_threatened(state, cells[i])]


def nonsuicidal_captures(state: TumbleweedState, colour: int | None = None) -> list[Hex]:
    """Cells of enemy (or neutral) stacks ``colour`` (default: side to move) can capture without the
    new stack being recapturable at once: the seed's Beginner outline (reinforcements excluded)."""
    p = colour or state.to_move
    cells = state.geo.cells
    out = []
    for i, c in enumerate(state.code):
        o = c // OWNER_MUL
        if o and o != p and LEGAL[p][c] and CODE_LOS[3 - p][c] <= CODE_LOS[p][c]:
            out.append(cells[i])
    return out


def preview_height(state: TumbleweedState, cell: Hex, colour: int | None = None) -> int:
    """Height a stack of ``colour`` (default: the side to move) would have on ``cell`` (0: unseen)."""
    p = colour or state.to_move
    return CODE_LOS[p][state.code[state.index(cell)]]


def scores(state: TumbleweedState) -> dict[str, dict[str, int]]:
    """``{"red": {"stacks", "territory", "score"}, "white": {...}}``; in strict mode the score is the
    stacks alone (territory still reported)."""
    counts = [0] * 7
    for c in state.code:
        counts[STATUS[c]] += 1
    out = {}
    for name, st, terr in (("red", RED, 5), ("white", WHITE, 6)):
        s, t = counts[st], counts[terr]
        out[name] = {"stacks": s, "territory": t, "score": s if state.strict else s + t}
    return out


# ----------------------------------------------------------------------------------- helpers
def _cell_of(value: Any, what: str) -> Hex:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise IllegalAction(f"{what} must be a pair of whole numbers [q, r]")
    return (value[0], value[1])


def _qr(action: Action) -> Hex:
    q, r = action.get("q"), action.get("r")
    if not isinstance(q, int) or not isinstance(r, int) or isinstance(q, bool) or isinstance(r, bool):
        raise IllegalAction("cell coordinates q and r must be whole numbers")
    return (q, r)


def position_state(size: int, stacks: dict[Hex, tuple[int, int]], to_move: int = RED, red_seat: int = 0,
                   strict: bool = False, setup: str = "original", passes: int = 0) -> TumbleweedState:
    """A play-phase state from a hand-made position ``{(q, r): (owner, height)}`` with sight recounted.
    Raises ``ValueError`` for a cell off the board or a bad stack."""
    geo = geometry(size)
    idx = {}
    for cell, st in stacks.items():
        if tuple(cell) not in geo.index:
            raise ValueError(f"cell {cell} is off a side-{size} board")
        idx[geo.index[tuple(cell)]] = st
    e = Engine.from_stacks(size, idx, to_move, passes)
    return TumbleweedState(size=size, code=tuple(e.code), near=tuple(e.near), phase="play", to_move=to_move,
                           red_seat=red_seat, passes=passes, strict=strict, setup=setup)


# -------------------------------------------------------------------------------------- rules
class TumbleweedRules:
    """Tumbleweed for ``Match`` (seats 0 = host, 1 = guest).

    Config: ``{"size": 4..11 (8), "setup": "original"|"free", "strict": bool (False), "stale": bool
    (True: the stale-game reminder and automatic end),
    "aid": "beginner"|"intermediate"|"expert"}``. ``aid`` does not change the rules: it tells the app
    how much the screen shows (the aid is a table option, as on
    Board Game Arena, so it is kept with the record).
    """

    info = INFO

    # ---------------------------------------------------------------- config
    def default_config(self) -> dict[str, Any]:
        return {"size": DEFAULT_SIZE, "setup": "original", "strict": False, "stale": True,
                "aid": "beginner"}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(config, dict):
            raise ValueError("config must be an object")
        out = self.default_config()
        for k, v in config.items():
            if k not in out:
                raise ValueError(f"unknown option {k!r} (known: {', '.join(out)})")
            out[k] = v
        out = check_options(OPTIONS, out)
        if not isinstance(out["stale"], bool):
            raise ValueError("option 'stale' must be true or false")
        return out

    def initial_state(self, config: dict[str, Any]) -> TumbleweedState:
        config = self.validate_config(config)
        size = config["size"]
        if config["setup"] == "original":
            geo = geometry(size)
            e = Engine.from_stacks(size, {geo.centre: (NEUTRAL, NEUTRAL_HEIGHT)})
            phase = "setup"
        else:
            e = Engine(size)
            phase = "neutral"
        return TumbleweedState(size=size, code=tuple(e.code), near=tuple(e.near), phase=phase,
                               strict=config["strict"], setup=config["setup"], stale_rule=config["stale"])

    # ---------------------------------------------------------------- who acts
    def active_players(self, s: TumbleweedState) -> list[int]:
        if s.phase in ("neutral", "setup"):
            return [HOST]
        if s.phase == "choose":
            return [GUEST]
        if s.phase == "play":
            return [s.seat_of(s.to_move)]
        return []

    def chance_outcomes(self, s: TumbleweedState) -> list[tuple[Action, float]]:
        return []

    # ---------------------------------------------------------------- legality
    def legal_actions(self, s: TumbleweedState, player: int) -> list[Action]:
        if player not in self.active_players(s):
            return []
        cells = s.geo.cells
        if s.phase == "play":
            leg = LEGAL[s.to_move]
            out = [{"t": "place", "q": cells[i][0], "r": cells[i][1]} for i, c in enumerate(s.code) if leg[c]]
            return out + [{"t": "pass"}]
        if s.phase == "neutral":
            return [{"t": "neutral", "q": q, "r": r} for q, r in cells]
        if s.phase == "setup":
            free = [list(cells[i]) for i, c in enumerate(s.code) if c < OWNER_MUL]
            return [{"t": "setup", "red": a, "white": b} for a in free for b in free if a != b]
        if s.phase == "choose":
            return [{"t": "choose", "colour": "red"}, {"t": "choose", "colour": "white"}]
        return []

    def check(self, s: TumbleweedState, player: int, action: Action) -> None:
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        t = action.get("t")
        if s.phase == "over":
            raise IllegalAction("the game is over")
        if player not in self.active_players(s):
            raise IllegalAction(f"seat {player} may not act now")
        geo = s.geo
        if t == "place":
            if set(action) != {"t", "q", "r"}:
                raise IllegalAction("a placement needs exactly q and r")
            if s.phase != "play":
                raise IllegalAction(f"no placements yet: the {'guest chooses a colour' if s.phase == 'choose' else 'host sets up'}")
            cell = _qr(action)
            if cell not in geo.index:
                raise IllegalAction(f"hex {cell} is not on the board")
            c = s.code[geo.index[cell]]
            p = s.to_move
            los, h, o = CODE_LOS[p][c], CODE_HEIGHT[c], CODE_OWNER[c]
            if los == 0:
                raise IllegalAction(f"no {COLOUR_NAMES[p]} stack sees this hex")
            if o and los <= h:
                raise IllegalAction(f"a new {COLOUR_NAMES[p]} stack here would be {los} high: it must be taller "
                                    f"than the {COLOUR_NAMES[o]} {h}-stack")
            return
        if t == "pass":
            if set(action) != {"t"}:
                raise IllegalAction("malformed pass")
            if s.phase != "play":
                raise IllegalAction("setup steps cannot be passed")
            return
        if t == "neutral":
            if set(action) != {"t", "q", "r"}:
                raise IllegalAction("placing the neutral stack needs exactly q and r")
            if s.phase != "neutral":
                raise IllegalAction("the neutral stack is placed only at the start of a free setup")
            cell = _qr(action)
            if cell not in geo.index:
                raise IllegalAction(f"hex {cell} is not on the board")
            return
        if t == "setup":
            if set(action) != {"t", "red", "white"}:
                raise IllegalAction("the setup needs exactly a red and a white hex")
            if s.phase != "setup":
                raise IllegalAction("the starting stacks are already placed" if s.phase in ("choose", "play")
                                    else "place the neutral stack first")
            a = _cell_of(action["red"], "red")
            b = _cell_of(action["white"], "white")
            for cell, name in ((a, "red"), (b, "white")):
                if cell not in geo.index:
                    raise IllegalAction(f"the {name} hex {cell} is not on the board")
                if s.code[geo.index[cell]] >= OWNER_MUL:
                    raise IllegalAction(f"the {name} hex {cell} holds the neutral stack")
            if a == b:
                raise IllegalAction("the red and white stacks need two different hexes")
            return
        if t == "choose":
            if set(action) != {"t", "colour"}:
                raise IllegalAction("choosing needs exactly a colour")
            if s.phase != "choose":
                raise IllegalAction("there is no colour to choose now")
            if action["colour"] not in COLOURS:
                raise IllegalAction("the colour must be red or white")
            return
        raise IllegalAction(f"unknown action {t!r}")

    # ---------------------------------------------------------------- apply
    def apply(self, s: TumbleweedState, player: int, action: Action) -> tuple[TumbleweedState, list[Event]]:
        self.check(s, player, action)
        t = action["t"]
        geo = s.geo
        if t == "neutral":
            cell = (action["q"], action["r"])
            e = s.engine()
            e.put(geo.index[cell], NEUTRAL, NEUTRAL_HEIGHT)
            ev = [{"e": "neutral", "q": cell[0], "r": cell[1]}]
            return replace(s, code=tuple(e.code), near=tuple(e.near), phase="setup"), ev
        if t == "setup":
            a, b = tuple(action["red"]), tuple(action["white"])
            e = s.engine()
            e.put(geo.index[a], RED, 1)
            e.put(geo.index[b], WHITE, 1)
            ev = [{"e": "setup", "red": list(a), "white": list(b)}]
            return replace(s, code=tuple(e.code), near=tuple(e.near), phase="choose"), ev
        if t == "choose":
            colour = COLOURS[action["colour"]]
            red_seat = GUEST if colour == RED else HOST
            ev = [{"e": "choose", "seat": GUEST, "colour": action["colour"]}]
            return replace(s, phase="play", red_seat=red_seat, to_move=RED), ev

        p = s.to_move
        ev: list[Event] = []
        e = s.engine()
        stale = s.stale
        if t == "pass":
            e.pass_turn()
            ev.append({"e": "pass", "colour": COLOUR_NAMES[p], "seat": player})
            stale += 1
            last = None
        else:
            cell = (action["q"], action["r"])
            i = geo.index[cell]
            before = s.code
            old = before[i]
            e.play(i)
            h = CODE_HEIGHT[e.code[i]]
            o = CODE_OWNER[old]
            kind = "place" if o == EMPTY else "reinforce" if o == p else "capture"
            ev.append({"e": "place", "colour": COLOUR_NAMES[p], "seat": player, "q": cell[0], "r": cell[1],
                       "height": h, "kind": kind,
                       "replaced": {"colour": COLOUR_NAMES[o], "height": CODE_HEIGHT[old]} if o else None})
            stale = 0 if self._productive(before, e.code, p, kind, s.strict) else stale + 1
            last = i
        ns = replace(s, code=tuple(e.code), near=tuple(e.near), to_move=e.to_move, passes=e.passes,
                     stale=stale if s.stale_rule else 0, last=last, ply=s.ply + 1)
        ended = None
        if ns.passes >= 2:
            ended = "passes"
        elif not e.has_move(RED) and not e.has_move(WHITE):
            ended = "no_moves"
        elif s.stale_rule and stale >= STALE_END:
            ended = "stale"
        elif s.stale_rule and stale == STALE_REMINDER:
            ev.append({"e": "stale_reminder", "turns": stale})
        if ended:
            ns = replace(ns, phase="over", ended=ended)
            ev.append({"e": "end", "by": ended, **self._result(ns)})
        return ns, ev

    @staticmethod
    def _productive(before: Sequence[int], after: Sequence[int], mover: int, kind: str, strict: bool) -> bool:
        """Whether a placement is not stale: a capture, (strict) a new stack on an empty hex, or a hex
        that was not the mover's changing hands."""
        if kind == "capture":
            return True
        mine = (mover, mover + 4)
        for b, a in zip(before, after):
            if b != a:
                sb, sa = STATUS[b], STATUS[a]
                if sb != sa and (sb not in mine or (strict and b < OWNER_MUL)):
                    return True
        return False

    # ---------------------------------------------------------------- results
    def is_terminal(self, s: TumbleweedState) -> bool:
        return s.phase == "over"

    def _result(self, s: TumbleweedState) -> dict[str, Any]:
        sc = scores(s)
        if s.red_seat is None:
            return {"scores": [0, 0], "winner": None, "draw": False}
        per_seat = [sc[COLOUR_NAMES[s.colour_of(seat)]]["score"] for seat in (0, 1)]
        if per_seat[0] == per_seat[1]:
            return {"scores": per_seat, "winner": None, "draw": True}
        w = 0 if per_seat[0] > per_seat[1] else 1
        return {"scores": per_seat, "winner": w, "draw": False}

    def outcome(self, s: TumbleweedState) -> dict[str, Any]:
        """``{"scores": [seat 0, seat 1], "stacks": [...], "territory": [...], "colours": ["red", "white"]
        by seat (None before the choice), "winner": seat or None, "draw": bool, "ranking": seats best
        first, "red": {"stacks", "territory", "score"}, "white": {...}, "ended": how, "over": bool}``."""
        res = self._result(s)
        sc = scores(s)
        out: dict[str, Any] = dict(res)
        if s.red_seat is None:
            out.update(stacks=[0, 0], territory=[0, 0], colours=None)
        else:
            names = [COLOUR_NAMES[s.colour_of(seat)] for seat in (0, 1)]
            out.update(stacks=[sc[n]["stacks"] for n in names], territory=[sc[n]["territory"] for n in names],
                       colours=names)
        w = res["winner"]
        out["ranking"] = [w, 1 - w] if w is not None else [0, 1]
        out.update(red=sc["red"], white=sc["white"], ended=s.ended, over=s.phase == "over",
                   strict=s.strict)
        return out

    def undoable(self, s: TumbleweedState, player: int, action: Action) -> bool:
        return True

    def invariants(self, s: TumbleweedState) -> list[str]:
        bad = []
        geo = s.geo
        if len(s.code) != geo.n or len(s.near) != 6 * geo.n:
            return [f"tables have the wrong length for side {s.size}"]
        owner = [CODE_OWNER[c] for c in s.code]
        lr, lw, near = full_sight(s.size, owner)
        for i, c in enumerate(s.code):
            if CODE_LOS[RED][c] != lr[i] or CODE_LOS[WHITE][c] != lw[i]:
                bad.append(f"sight at {geo.cells[i]} is {CODE_LOS[RED][c]}/{CODE_LOS[WHITE][c]}, "
                           f"a recount gives {lr[i]}/{lw[i]}")
            h = CODE_HEIGHT[c]
            if owner[i] == EMPTY and h != 0:
                bad.append(f"empty hex {geo.cells[i]} has height {h}")
            if owner[i] and not 1 <= h <= MAX_HEIGHT:
                bad.append(f"stack at {geo.cells[i]} has height {h}")
        if list(s.near) != near:
            bad.append("nearest-stack table differs from a recount")
        if owner.count(NEUTRAL) > 1:
            bad.append("more than one neutral stack")
        if s.phase not in ("neutral", "setup", "choose", "play", "over"):
            bad.append(f"unknown phase {s.phase!r}")
        if s.phase in ("play", "over") and s.red_seat is None:
            bad.append("play without a colour choice")
        if s.phase in ("neutral", "setup") and (RED in owner or WHITE in owner):
            bad.append("red or white stacks before the setup")
        if s.phase == "choose" and (owner.count(RED), owner.count(WHITE)) != (1, 1):
            bad.append("the colour choice needs exactly one red and one white stack")
        if s.passes > 2 or (s.passes == 2 and s.phase != "over"):
            bad.append(f"{s.passes} passes in a row and the game goes on")
        if s.phase == "over" and s.ended not in ("passes", "no_moves", "stale"):
            bad.append(f"over without a reason ({s.ended!r})")
        return bad

    # ------------------------------------------------------------ LAN play (sim/core/rules.py)
    def observe(self, s: TumbleweedState, seat: int) -> TumbleweedState:
        """What ``seat`` may see: everything (Tumbleweed has no hidden information). Raises
        ``ValueError`` for a seat not at the table."""
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (HOST, GUEST):
            raise ValueError(f"no seat {seat!r}")
        return s

    def state_to_json(self, s: TumbleweedState) -> dict[str, Any]:
        """``s`` as a JSON object: the dataclass fields, tuples as lists."""
        out = asdict(s)
        out["code"], out["near"] = list(s.code), list(s.near)
        return out

    def state_from_json(self, obj: Any) -> TumbleweedState:
        """The state :meth:`state_to_json` wrote; ``ValueError`` with a reason if ``obj`` is not one
        (a wrong key set, a table of the wrong length, or a broken invariant)."""
        names = {f.name for f in fields(TumbleweedState)}
        if not isinstance(obj, dict) or set(obj) != names:
            raise ValueError("a Tumbleweed state has exactly the keys " + ", ".join(sorted(names)))
        size = obj["size"]
        if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"bad board size {size!r}")
        for k in ("code", "near"):
            if not isinstance(obj[k], list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                                       for x in obj[k]):
                raise ValueError(f"{k} must be a list of whole numbers")
        s = TumbleweedState(**{**obj, "code": tuple(obj["code"]), "near": tuple(obj["near"])})
        try:
            bad = self.invariants(s)
        except (IndexError, KeyError, TypeError) as e:
            raise ValueError(f"not a Tumbleweed position ({e.__class__.__name__})") from None
        if bad:
            raise ValueError(f"not a Tumbleweed position: {bad[0]}")
        return s
