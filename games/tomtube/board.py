"""The Tom Tube board in play: covered space triangles, placed tiles and the tube graph they form.

research/tomtube.md §3.4 (spheres and completeness), §3.5 (placing tiles), §3.8 (the tube graph), §3.9
step 2 (isolated triangles). A ``Board`` is immutable: :meth:`Board.place_rhomb`,
:meth:`Board.place_piece` and :meth:`Board.abandon` return new boards. It does not judge legality (the
rules do), so tests and tools can also build positions with it directly.

Spheres (research §3.4): an interior knot is complete when all six space triangles around it are
covered; a port is printed complete; a border knot that is not a port is never complete (A3); a rhomb's
energy sphere and the modules are complete; a Y junction is not a sphere.
"""
from __future__ import annotations

from typing import Any, Iterable

from .data import MODULES, PLAYER_COLOUR, RHOMB_BY_ID
from .geometry import (AROUND, INTERIOR, PORTS, PRINTED_SEGS, SLOTS, TRI_CORNERS, TRI_NB, Seg,
                       piece_segments, rhomb_segments)

#: One incidence of a tube segment at a node: (segment index, node at the other end, colour,
#: direction of this end, direction of the other end).
Inc = tuple[int, str, str, int, int]


class Board:
    """Placed tiles and the tube graph.

    ``covered``: ids of covered space triangles; ``rhombs``: ``(slot, rhomb id, flip)`` in placement
    order; ``pieces``: triangle pieces as ``(tri, owner, piece, rot)``; ``abandoned``: isolated
    triangles that nobody filled (they stay empty for good, research A6); ``segs``: every tube segment;
    ``inc[node]``: the segment ends at a node; ``complete``: complete sphere nodes (ports, complete
    interior knots, energy spheres, modules); ``inner``: short diagonals (shared edges) of placed
    rhombs. Treat every attribute as read-only.

    Boards compare by value: equal when every attribute but ``cache`` is equal (a board rebuilt from a
    record equals the one played live); the hash is that of the placed tiles and abandoned triangles,
    from which the rest follows.
    """

    __slots__ = ("covered", "rhombs", "pieces", "abandoned", "segs", "inc", "complete", "inner", "cache")

    def __init__(self, covered: frozenset[int], rhombs: tuple, pieces: tuple, abandoned: frozenset[int],
                 segs: tuple[Seg, ...], inc: dict[str, tuple[Inc, ...]], complete: frozenset[str],
                 inner: frozenset[tuple[str, str]]):
        self.covered = covered
        self.rhombs = rhombs
        self.pieces = pieces
        self.abandoned = abandoned
        self.segs = segs
        self.inc = inc
        self.complete = complete
        self.inner = inner
        #: derived data memoised by other modules (the board never changes, so it stays valid)
        self.cache: dict[Any, Any] = {}

    _VALUE = ("covered", "rhombs", "pieces", "abandoned", "segs", "inc", "complete", "inner")

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Board):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._VALUE)

    def __hash__(self) -> int:
        return hash((self.rhombs, self.pieces, self.abandoned))

    def __repr__(self) -> str:
        return f"Board(rhombs={self.rhombs!r}, pieces={self.pieces!r}, abandoned={set(self.abandoned)!r})"

    @classmethod
    def empty(cls) -> "Board":
        """The board at the start: no tiles, the 12 printed tubes, ports and modules complete."""
        b = cls(frozenset(), (), (), frozenset(), (), {}, frozenset(PORTS) | {m.name for m in MODULES},
                frozenset())
        return b._with_segments(PRINTED_SEGS, b.covered, b.rhombs, b.pieces, b.complete, b.inner)

    # ----------------------------------------------------------------------------- construction
    def _with_segments(self, new: Iterable[Seg], covered, rhombs, pieces, complete, inner) -> "Board":
        segs = list(self.segs)
        inc = dict(self.inc)
        for sg in new:
            i = len(segs)
            segs.append(sg)
            u, v, c, du, dv = sg
            inc[u] = inc.get(u, ()) + ((i, v, c, du, dv),)
            inc[v] = inc.get(v, ()) + ((i, u, c, dv, du),)
        return Board(covered, rhombs, pieces, self.abandoned, tuple(segs), inc, complete, inner)

    def _completed(self, covered: frozenset[int], tris: Iterable[int]) -> frozenset[str]:
        new = set()
        for t in tris:
            for k in TRI_CORNERS[t]:
                if k in INTERIOR and k not in self.complete and all(x in covered for x in AROUND[k]):
                    new.add(k)
        return frozenset(new)

    def place_rhomb(self, slot: int, rhomb_id: str, flip: int) -> "Board":
        """The board with rhomb ``rhomb_id`` on ``slot`` in orientation ``flip`` (no legality check)."""
        _e, t1, t2 = SLOTS[slot]
        covered = self.covered | {t1, t2}
        complete = self.complete | self._completed(covered, (t1, t2))
        if RHOMB_BY_ID[rhomb_id].energy:
            complete = complete | {f"c{slot}"}
        return self._with_segments(rhomb_segments(slot, rhomb_id, flip), covered,
                                   self.rhombs + ((slot, rhomb_id, flip),), self.pieces, complete,
                                   self.inner | {SLOTS[slot][0]})

    def place_piece(self, tri: int, owner: int, piece: str, rot: int) -> "Board":
        """The board with ``owner``'s triangle ``piece`` on space triangle ``tri`` (no legality check)."""
        covered = self.covered | {tri}
        complete = self.complete | self._completed(covered, (tri,))
        return self._with_segments(piece_segments(tri, PLAYER_COLOUR[owner], piece, rot), covered,
                                   self.rhombs, self.pieces + ((tri, owner, piece, rot),), complete, self.inner)

    def abandon(self, tris: Iterable[int]) -> "Board":
        """The board with isolated triangles ``tris`` left empty for good (research A6)."""
        return Board(self.covered, self.rhombs, self.pieces, self.abandoned | frozenset(tris), self.segs,
                     self.inc, self.complete, self.inner)

    # ---------------------------------------------------------------------------------- queries
    def free_slots(self) -> tuple[int, ...]:
        """Slots whose two triangles are both free (a rhomb may go there in either orientation)."""
        hit = self.cache.get("free_slots")
        if hit is None:
            cov = self.covered
            hit = tuple(s for s, (_e, a, b) in enumerate(SLOTS) if a not in cov and b not in cov)
            self.cache["free_slots"] = hit
        return hit

    def has_free_slot(self) -> bool:
        return bool(self.free_slots())

    def isolated(self) -> tuple[int, ...]:
        """Free triangles with no free neighbour that are not abandoned (research §3.9 step 2)."""
        cov = self.covered
        return tuple(t for t in range(len(TRI_CORNERS))
                     if t not in cov and t not in self.abandoned and all(n in cov for n in TRI_NB[t]))

    def tube_ends(self, node: str) -> int:
        """Number of tube ends at ``node`` (a Y branch counts as one tube; research §3.8)."""
        return len(self.inc.get(node, ()))

    def free_around(self, knot: str) -> int:
        """Free space triangles around a knot."""
        return sum(1 for t in AROUND.get(knot, ()) if t not in self.covered)

    def can_complete(self, knot: str) -> bool:
        """Whether a knot is or can still become a complete sphere (no abandoned triangle around it)."""
        if knot in self.complete:
            return True
        return knot in INTERIOR and not any(t in self.abandoned for t in AROUND[knot])

    def rhomb_at(self, slot: int) -> tuple[str, int] | None:
        """``(rhomb id, flip)`` of the rhomb on ``slot``, or None."""
        for s, rid, flip in self.rhombs:
            if s == slot:
                return rid, flip
        return None

    def __len__(self) -> int:
        return len(self.rhombs)
