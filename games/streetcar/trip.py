"""Expected turns to finish a trip (phase 2), for the hard bot's dice choices (issue "Opponents worth
playing": "dice choices by expected turns to finish; the dice odds are known").

A trip state is ``(node, served, last)``: where the tram stands, the stops served (bit mask) and the last
station passed (where tools sends it back). From every state reachable from the tram's, the values are
solved by value iteration on the turn's own structure (specs/streetcar.md "Phase 2"):

* ``V(x)``: turns still to end before the tram wins, at the start of a turn in ``x``;
* ``W(x, k)``: the same just before rolling ``k`` dice in ``x`` (``V = W(x, 3)``; classic: one die);
* a die is carried out the best way; a win costs 0, tools ends the turn at ``last`` (``1 + V``), and
  after any other move with ``k`` dice still to roll the player stops (``1 + V``) or rolls (``W(x, k)``),
  whichever is less (:meth:`TripValues.after`).

With ``k`` dice the expected best of them is exact: for faces of value ``g_1 <= g_2 <= ...`` with
probabilities ``p_i`` and tails ``T_i = p_i + p_{i+1} + ...``, ``E = sum g_i (T_i^k - T_{i+1}^k)``.
The board is taken as it is (others' tiles cannot cut a route being driven).
"""
from __future__ import annotations

from . import route as R
from .data import face_steps

#: value iteration stops when no value moves by more than this (turns), or after MAX_SWEEPS
TOLERANCE = 1e-6
MAX_SWEEPS = 500

Key = tuple[int, int, int]  # (node, served, last station)


class TripValues:
    """Expected turns to finish from every trip state reachable from ``start`` on ``board`` for one route
    ``table`` and dice ``faces`` (``classic``: one die a turn)."""

    def __init__(self, board, table: R.RouteTable, faces: tuple[str, ...], classic: bool, start: Key):
        self.board, self.table, self.classic = board, table, classic
        self.rolls = 1 if classic else 3
        kinds = list(dict.fromkeys(faces))
        self.faces = [(f, faces.count(f) / len(faces)) for f in kinds]
        #: per state, per face: the moves' results, each None (a win) or the state after it; tools: []
        self.moves: dict[Key, dict[str, list[Key | None]]] = {}
        todo = [start]
        while todo:
            x = todo.pop()
            if x in self.moves:
                continue
            per = self._moves(x)
            self.moves[x] = per
            todo += [y for ys in per.values() for y in ys if y is not None and y not in self.moves]
        self.V: dict[Key, float] = {x: float(self._dist(x)) / 2 for x in self.moves}
        self.W: dict[Key, list[float]] = {x: [0.0] * (self.rolls + 1) for x in self.moves}
        self._solve()

    def _dist(self, x: Key) -> int:
        d = self.table.distance(x[0], x[1])
        return 0 if d is None else d

    def _moves(self, x: Key) -> dict[str, list[Key | None]]:
        n, sv, last = x
        out: dict[str, list[Key | None]] = {}
        for face, _p in self.faces:
            if face == "TOOLS":
                out[face] = []
                continue
            if face == "RED":
                mvs = []
            elif face == "H":
                mvs = R.station_moves(self.board, self.table, n, sv)
            else:
                mvs = R.steps_moves(self.board, self.table, n, sv, face_steps(face))
            res: list[Key | None] = []
            for mv in mvs:
                if mv.win:
                    res.append(None)
                else:
                    res.append((mv.path[-1] if mv.path else n, mv.served,
                                mv.station if mv.station is not None else last))
            out[face] = res or [x]            # no way to carry it out: the tram stays
        return out

    def after(self, y: Key | None, k: int) -> float:
        """Value after a move to ``y`` (None: a win) with ``k`` dice still to roll this turn."""
        if y is None:
            return 0.0
        stop = 1.0 + self.V[y]
        return min(stop, self.W[y][k]) if k > 0 else stop

    def face_value(self, x: Key, face: str, k: int) -> float:
        """Value of carrying out ``face`` in ``x`` the best way, ``k`` dice left to roll after it."""
        if face == "TOOLS":
            back = (x[2], x[1], x[2])
            return 1.0 + self.V.get(back, self.V[x])
        return min(self.after(y, k) for y in self.moves[x][face])

    def _expect(self, x: Key, k: int) -> float:
        """``W(x, k)``: the expected best of ``k`` dice, ``k - 1`` left after the one carried out."""
        left = 0 if self.classic else k - 1
        g = sorted((self.face_value(x, f, left), p) for f, p in self.faces)
        tail, e = 1.0, 0.0
        for v, p in g:
            nxt = max(0.0, tail - p)
            e += v * (tail ** k - nxt ** k)
            tail = nxt
        return e

    def _solve(self) -> None:
        order = sorted(self.moves, key=self._dist)   # near the end first: values flow backwards
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for x in order:
                w = self.W[x]
                for k in range(1, self.rolls + 1):
                    w[k] = self._expect(x, k)
                v = w[self.rolls]
                delta = max(delta, abs(v - self.V[x]))
                self.V[x] = v
            if delta < TOLERANCE:
                break

    def __contains__(self, x: Key) -> bool:
        return x in self.moves
