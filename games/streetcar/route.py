"""The tram's track graph, route completion and tram moves (pure).

Sources: specs/streetcar.md "Route and the tram", "Phase 2"; research/tram.md §6.4 (graph of tile and
entry side), §6.5 (no switching tracks: only the other end of a track that starts where the tram came
in), §2.3 and §7.1 (a terminal is a loop of two cells and counts as one square), §7.2 (H), §7.3 (tools).

A *node* is ``cell * 5 + entry``: the tram stands on ``cell`` having come in by side ``entry`` (0..3,
N E S W). ``entry == 4`` (``HOME``) is a tram standing on its own terminal before it leaves, or sent
back there by tools; its cell is the terminal's first cell and it may leave by either leg. A tram that
drives into a terminal from the board stands on that terminal (one square) and leaves next by the
other leg; the second cell of the loop is never a position of its own.

Routes: for a line, the end it drives to (0 or 1) and its stops (building letters), a *state* is
``(node, served)`` with ``served`` a bit mask over the stops (bit i = ``stops[i]``). A stop is served
when the tram enters its sign tile, whatever side it comes in by. The tram wins on entering a cell of
its destination terminal from the board with every stop served.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from .tiles import (EXITS, LEGS, NEIGH, SIDES, TERMINAL_CELLS, Board, xy_of)

HOME = 4


def node(cell: int, entry: int) -> int:
    return cell * 5 + entry


def node_cell(n: int) -> int:
    return n // 5


def node_entry(n: int) -> int:
    return n % 5


def home(line: int, end: int) -> int:
    """The node of a tram standing on terminal ``end`` (0/1) of ``line`` before it leaves."""
    return node(TERMINAL_CELLS[line][end][0], HOME)


def node_json(n: int) -> list[int]:
    """``[x, y, entry]`` of a node (entry 0..3 = N E S W, 4 = standing on its own terminal)."""
    x, y = xy_of(node_cell(n))
    return [x, y, node_entry(n)]


def node_from_json(v) -> int:
    """Inverse of :func:`node_json`; raises ``ValueError`` for anything else."""
    if (not isinstance(v, list) or len(v) != 3
            or not all(isinstance(a, int) and not isinstance(a, bool) for a in v)):
        raise ValueError("a tram position is [x, y, side]")
    x, y, e = v
    if not (0 <= x <= 13 and 0 <= y <= 13 and 0 <= e <= 4):
        raise ValueError(f"no such tram position {v}")
    return node(y * 14 + x, e)


def terminal_position(n: int) -> tuple[int, int] | None:
    """``(line, end)`` if node ``n`` stands on a terminal (come in from the board, or HOME), else None."""
    c, e = node_cell(n), node_entry(n)
    g = LEGS.get(c)
    if g is None:
        return None
    if e == HOME or e == g.board_side:
        return g.line, g.end
    return None


def _raw_next(tracks: tuple[int, ...], cell: int, entry: int) -> list[tuple[int, int]]:
    out = []
    for t in EXITS[tracks[cell]][entry]:
        n = NEIGH[cell][t]
        if n >= 0 and SIDES[tracks[n]] >> ((t + 2) % 4) & 1:
            out.append((n, (t + 2) % 4))
    return out


def _positions_after(tracks: tuple[int, ...], cell: int, entry: int) -> tuple[int, ...]:
    """Nodes one square on from (cell, entry): the second cell of a terminal's loop is passed through."""
    out = []
    for n, e in _raw_next(tracks, cell, entry):
        g = LEGS.get(n)
        if g is not None and e == g.loop_side:
            out.extend(node(n2, e2) for n2, e2 in _raw_next(tracks, n, e))
        else:
            out.append(node(n, e))
    return tuple(out)


class TramGraph:
    """Successors and predecessors of every tram position on a board's tracks (one square a step)."""

    def __init__(self, tracks: tuple[int, ...]):
        self.tracks = tracks
        succ: dict[int, tuple[int, ...]] = {}
        for c, m in enumerate(tracks):
            if not m:
                continue
            sides = SIDES[m]
            g = LEGS.get(c)
            for e in range(4):
                if sides >> e & 1 and not (g is not None and e == g.loop_side):
                    succ[node(c, e)] = _positions_after(tracks, c, e)
        for line, ends in TERMINAL_CELLS.items():
            for cells in ends:
                out: list[int] = []
                for c in cells:
                    g = LEGS[c]
                    nb = NEIGH[c][g.board_side]
                    if SIDES[tracks[nb]] >> ((g.board_side + 2) % 4) & 1:
                        out.append(node(nb, (g.board_side + 2) % 4))
                succ[node(cells[0], HOME)] = tuple(out)
        pred: dict[int, list[int]] = {}
        for a, bs in succ.items():
            for b in bs:
                pred.setdefault(b, []).append(a)
        self.succ = succ
        self.pred = {k: tuple(v) for k, v in pred.items()}

    def next(self, n: int) -> tuple[int, ...]:
        return self.succ.get(n, ())


@lru_cache(maxsize=64)
def tram_graph(tracks: tuple[int, ...]) -> TramGraph:
    """The (cached) tram graph of a board's tracks."""
    return TramGraph(tracks)


def stop_bits(board: Board, stops: str) -> dict[int, int] | None:
    """Cell of each stop's sign tile -> its bit, or None if a stop has no sign yet."""
    out: dict[int, int] = {}
    for i, k in enumerate(stops):
        c = board.sign_of(k)
        if c < 0:
            return None
        out[c] = out.get(c, 0) | 1 << i
    return out


def goals(line: int, dest: int) -> tuple[int, ...]:
    """Nodes of a tram arriving at terminal ``dest`` of ``line`` from the board."""
    return tuple(node(c, LEGS[c].board_side) for c in TERMINAL_CELLS[line][dest])


@dataclass(frozen=True)
class RouteTable:
    """Squares still to drive (``dist``) from every state ``(node, served)`` from which the route can
    still be completed, for one line, destination end and stop list on one board. States missing from
    ``dist`` cannot complete the route. ``bits`` maps sign cells to stop bits; ``full`` = every stop."""

    graph: TramGraph
    line: int
    dest: int
    stops: str
    bits: dict[int, int]
    full: int
    dist: dict[tuple[int, int], int]
    goal_set: frozenset[int]

    def served_after(self, n: int, served: int) -> int:
        return served | self.bits.get(node_cell(n), 0)

    def distance(self, n: int, served: int) -> int | None:
        """Squares left to the win from state ``(n, served)``, or None if the route cannot be completed
        from there."""
        if node_entry(n) == HOME:
            best = None
            for s in self.graph.next(n):
                d = self.dist.get((s, self.served_after(s, served)))
                if d is not None and (best is None or d + 1 < best):
                    best = d + 1
            return best
        return self.dist.get((n, served))

    def completable(self, n: int, served: int) -> bool:
        return self.distance(n, served) is not None

    def is_win(self, n: int, served: int) -> bool:
        """Whether a tram entering node ``n`` with ``served`` wins (destination reached, all served)."""
        return served == self.full and n in self.goal_set


@lru_cache(maxsize=256)
def route_table(board: Board, line: int, dest: int, stops: str) -> RouteTable | None:
    """The :class:`RouteTable` of ``line`` driving to end ``dest`` through ``stops`` on ``board``, or
    None while a stop has no sign. Built by a backward breadth-first search from the destination over
    ``(node, served)`` states, so every stop order and every reuse of squares is covered."""
    bits = stop_bits(board, stops)
    if bits is None:
        return None
    g = tram_graph(board.tracks)
    full = (1 << len(stops)) - 1
    dist: dict[tuple[int, int], int] = {}
    q: deque[tuple[int, int]] = deque()
    for t in goals(line, dest):
        dist[(t, full)] = 0
        q.append((t, full))
    pred = g.pred
    while q:
        m, mm = q.popleft()
        d = dist[(m, mm)] + 1
        b = bits.get(node_cell(m), 0)
        if b and mm & b != b:
            continue
        before = (mm, mm & ~b) if b else (mm,)
        for p in pred.get(m, ()):
            for m0 in before:
                k = (p, m0)
                if k not in dist:
                    dist[k] = d
                    q.append(k)
    return RouteTable(g, line, dest, stops, bits, full, dist, frozenset(goals(line, dest)))


def route_complete(board: Board, line: int, stops: str) -> bool:
    """Whether a tram of ``line`` can drive from one of its terminals through the sign tile of every
    stop in ``stops`` (any order) to the other (research §6.4; both directions are the same route)."""
    t = route_table(board, line, 1, stops)
    return t is not None and t.completable(home(line, 0), 0)


def route_length(board: Board, line: int, start: int, stops: str) -> int | None:
    """Squares of the shortest complete trip from terminal ``start``, or None if there is none."""
    t = route_table(board, line, 1 - start, stops)
    return None if t is None else t.distance(home(line, start), 0)


def linked_stops(board: Board, line: int, stops: str) -> str:
    """The stops of ``stops`` whose sign tile a tram could reach from either terminal of ``line`` by
    the track laid so far (the player's route progress; order of ``stops`` kept)."""
    g = tram_graph(board.tracks)
    seen = set()
    q = deque(home(line, e) for e in (0, 1))
    seen.update(q)
    while q:
        n = q.popleft()
        for s in g.next(n):
            if s not in seen:
                seen.add(s)
                q.append(s)
    cells = {node_cell(n) for n in seen}
    return "".join(k for k in stops if board.sign_of(k) in cells)


# ------------------------------------------------------------------------- moves of phase 2
def is_station(board: Board, n: int) -> bool:
    """Whether node ``n`` stands on a stop sign tile (any building's) or on a terminal (research §7.2:
    where H stops; §7.3: where tools sends a tram back to)."""
    return terminal_position(n) is not None or board.sign_at(node_cell(n)) is not None


@dataclass(frozen=True)
class Move:
    """One way to carry out a die: the nodes entered in order (``path``; empty for no move), the
    served mask after it, whether it wins, and the last station passed or reached on it (or None)."""

    path: tuple[int, ...]
    served: int
    win: bool
    station: int | None


def _walk(board: Board, table: RouteTable, pos: int, served: int, path: tuple[int, ...]):
    """Follow ``path`` from ``pos``: ``(served, win, last station, reason)``; reason is None if every
    step follows the track and the tram does not drive on after winning."""
    station = None
    cur = pos
    for i, n in enumerate(path):
        if n not in table.graph.next(cur):
            x, y, _ = node_json(n)
            return served, False, station, f"the tram cannot drive from there to ({x},{y}) on the track"
        served = table.served_after(n, served)
        if is_station(board, n):
            station = n
        if table.is_win(n, served):
            if i != len(path) - 1:
                return served, True, station, "the tram stops when it wins"
            return served, True, station, None
        cur = n
    return served, False, station, None


def steps_moves(board: Board, table: RouteTable, pos: int, served: int, k: int) -> list[Move]:
    """Every way to drive exactly ``k`` squares (fewer only when the tram wins on the way) after which
    the route can still be completed: one move per distinct end state, by the first path found."""
    layer: dict[tuple[int, int], tuple[int, ...]] = {(pos, served): ()}
    done: dict[tuple[int, int], Move] = {}
    for _ in range(k):
        nxt: dict[tuple[int, int], tuple[int, ...]] = {}
        for (n, sv), path in layer.items():
            for s in table.graph.next(n):
                sv2 = table.served_after(s, sv)
                if table.is_win(s, sv2):
                    p = path + (s,)
                    done.setdefault((s, sv2), _move(board, table, pos, served, p))
                    continue
                if (s, sv2) in table.dist:
                    nxt.setdefault((s, sv2), path + (s,))
        layer = nxt
    for key, p in layer.items():
        done.setdefault(key, _move(board, table, pos, served, p))
    return list(done.values())


def station_moves(board: Board, table: RouteTable, pos: int, served: int) -> list[Move]:
    """H (research §7.2): every way to drive to the next station (stop sign tile or terminal) along
    the track, stopping at the first one reached, after which the route can still be completed; the
    station the tram stands on does not count. One move per distinct end state (shortest path)."""
    seen = {(pos, served)}
    q: deque[tuple[int, int, tuple[int, ...]]] = deque([(pos, served, ())])
    out: dict[tuple[int, int], Move] = {}
    while q:
        n, sv, path = q.popleft()
        for s in table.graph.next(n):
            sv2 = table.served_after(s, sv)
            key = (s, sv2)
            if key in seen:
                continue
            seen.add(key)
            win = table.is_win(s, sv2)
            if not win and key not in table.dist:
                continue
            p = path + (s,)
            if win or is_station(board, s):
                out.setdefault(key, _move(board, table, pos, served, p))
            else:
                q.append((s, sv2, p))
    return list(out.values())


def _move(board: Board, table: RouteTable, pos: int, served: int, path: tuple[int, ...]) -> Move:
    sv, win, station, _ = _walk(board, table, pos, served, path)
    return Move(path, sv, win, station)


def check_path(board: Board, table: RouteTable, pos: int, served: int, face_kind: str, k: int,
               path: tuple[int, ...]) -> Move:
    """The move of ``path`` for a die of kind ``"steps"`` (``k`` squares) or ``"station"`` (H); raises
    ``ValueError`` with the reason if that is not a legal way to carry out the die."""
    sv, win, station, why = _walk(board, table, pos, served, path)
    if why:
        raise ValueError(why)
    if face_kind == "steps":
        if len(path) != k and not (win and len(path) < k):
            raise ValueError(f"this die moves the tram {k} square{'s' if k != 1 else ''}")
    else:
        if not path:
            if station_moves(board, table, pos, served):
                raise ValueError("H moves the tram to the next stop or terminal")
            return Move((), served, False, None)
        for n in path[:-1]:
            if is_station(board, n):
                raise ValueError("H stops at the first stop or terminal reached")
        if not win and not is_station(board, path[-1]):
            raise ValueError("H moves the tram to a stop or terminal")
    if not win and not table.completable(path[-1] if path else pos, sv):
        raise ValueError("after that move the route could no longer be completed")
    return Move(path, sv, win, station)


# ------------------------------------------------------------------------- the route shown on screen
def best_path(table: RouteTable, pos: int, served: int) -> tuple[int, ...]:
    """The nodes of a shortest way to the win from state ``(pos, served)`` (``pos`` itself left out):
    at every square the first successor, in the graph's order, that is one square nearer. Empty when
    the route cannot be completed from there. From a state on this path the rest of it is the same."""
    d = table.distance(pos, served)
    if d is None:
        return ()
    path: list[int] = []
    n, sv = pos, served
    while d > 0:
        for s in table.graph.next(n):
            sv2 = table.served_after(s, sv)
            if table.is_win(s, sv2) or table.dist.get((s, sv2)) == d - 1:
                n, sv, d = s, sv2, d - 1
                path.append(s)
                break
        else:   # cannot happen on a consistent table
            return ()
        if table.is_win(n, sv):
            break
    return tuple(path)


def planned_trip(board: Board, line: int, stops: str) -> tuple[int, tuple[int, ...]] | None:
    """``(end, path)`` of the trip a complete route offers: from the terminal end with the shorter trip
    (end 0 on a tie, as the bots choose), the nodes of :func:`best_path` from that terminal. None while
    the route is not complete."""
    best = None
    for end in (0, 1):
        n = route_length(board, line, end, stops)
        if n is not None and (best is None or n < best[0]):
            best = (n, end)
    if best is None:
        return None
    end = best[1]
    table = route_table(board, line, 1 - end, stops)
    return end, best_path(table, home(line, end), 0)


def serving_paths(board: Board, line: int, stops: str) -> list[tuple[int, ...]]:
    """While a route is being built: from each terminal of ``line``, a shortest tram path (start node
    first) to every stop of ``stops`` whose sign tile it reaches, and to the other terminal. The track
    on these paths is what serves the route so far."""
    g = tram_graph(board.tracks)
    targets = {board.sign_of(k) for k in stops} - {-1}
    out: list[tuple[int, ...]] = []
    for end in (0, 1):
        start = home(line, end)
        goal = set(goals(line, 1 - end))
        parent: dict[int, int] = {start: -1}
        q = deque([start])
        found: list[int] = []
        cells_done: set[int] = set()
        while q:
            n = q.popleft()
            c = node_cell(n)
            if n != start and (n in goal or (c in targets and c not in cells_done)):
                cells_done.add(c)
                found.append(n)
            for s in g.next(n):
                if s not in parent:
                    parent[s] = n
                    q.append(s)
        for n in found:
            p = [n]
            while parent[p[-1]] != -1:
                p.append(parent[p[-1]])
            out.append(tuple(reversed(p)))
    return out
