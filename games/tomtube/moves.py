"""Tom Tube movement: drift and space-jump searches and the stranding tests.

research/tomtube.md §3.10 (drift search, jump), §3.12 (reference sketch), A10-A12 and A14. Pure.

Drift (rulebook "Moving the Astronauts"): a breadth-first search over (segment, node reached). From the
start every usable tube may be taken. Arriving at

* another player's module: the branch is invalid (never enter the other astronaut's modules);
* a Y junction (a ramification without a sphere): continue along every *other* usable tube, never
  stopping and never turning back;
* a sphere (knot, port, energy sphere, own module): it must be complete and not occupied by the other
  astronaut; it is then a destination unless it is the start (A11), and if it holds a counter the
  astronaut must stop there; otherwise he may go on only straight on, i.e. along a tube whose end
  direction is opposite to the arrival direction (A4).

Usable colours: own, neutral and printed (A21) for a free drift; every colour for a control drift.
Several branches may reach one destination (A12): the result is the same, the first path found is kept
for showing the move.
"""
from __future__ import annotations

import heapq
from collections import deque

from .board import Board
from .data import BASES
from .geometry import JUMP_NB, KNOT_SET, MODULE_BY_NAME, PORTS, AROUND, edge_key

FREE_COLOURS = (frozenset({"TOM", "NEUTRAL", "PRINTED"}), frozenset({"DAVE", "NEUTRAL", "PRINTED"}))
ALL_COLOURS = frozenset({"TOM", "DAVE", "NEUTRAL", "PRINTED"})
INF = float("inf")


def drift_paths(board: Board, start: str, player: int, other_pos: str | None, stops: frozenset[str] | set[str],
                all_colours: bool = False) -> dict[str, tuple[str, ...]]:
    """Every legal drift destination of ``player`` from ``start`` -> a path to it (node ids from
    ``start`` to the destination, junctions and spheres passed straight through included).

    ``other_pos``: the other astronaut's sphere (cannot be entered or passed); ``stops``: spheres
    holding a counter that stops the astronaut; ``all_colours``: a control drift.
    """
    ok = ALL_COLOURS if all_colours else FREE_COLOURS[player]
    inc = board.inc
    complete = board.complete
    parent: dict[tuple[int, str], tuple[int, str] | None] = {}
    found: dict[str, tuple[int, str]] = {}
    todo: deque[tuple[int, str, int]] = deque()
    for i, n, c, _dh, dt in inc.get(start, ()):
        if c in ok and (i, n) not in parent:
            parent[(i, n)] = None
            todo.append((i, n, dt))
    while todo:
        i, n, d_arr = todo.popleft()
        key = (i, n)
        mod = MODULE_BY_NAME.get(n)
        if mod is not None and mod.owner != player:
            continue
        if n[0] == "j":
            for j, m, c, _dh, dt in inc[n]:
                if j != i and c in ok and (j, m) not in parent:
                    parent[(j, m)] = key
                    todo.append((j, m, dt))
            continue
        if n not in complete or n == other_pos:
            continue
        if n != start and n not in found:
            found[n] = key
        if n in stops:
            continue
        want = (d_arr + 6) % 12
        for j, m, c, dh, dt in inc[n]:
            if j != i and dh == want and c in ok and (j, m) not in parent:
                parent[(j, m)] = key
                todo.append((j, m, dt))
    out: dict[str, tuple[str, ...]] = {}
    for dest, key in found.items():
        path = []
        k: tuple[int, str] | None = key
        while k is not None:
            path.append(k[1])
            k = parent[k]
        path.append(start)
        path.reverse()
        out[dest] = tuple(path)
    return out


def jump_targets(board: Board, start: str, other_pos: str | None) -> tuple[str, ...]:
    """Spheres a space jump from ``start`` may reach: one space edge away, complete, not occupied by the
    other astronaut, and not along the short diagonal of a placed rhomb ("must not cross any rhomb").
    Only from and to knots (interior or port): never from or to energy spheres, bases or solar modules
    (rulebook "A space jump"; research §3.10)."""
    if start not in KNOT_SET or start not in board.complete:
        return ()
    inner = board.inner
    complete = board.complete
    return tuple(k for k in JUMP_NB[start]
                 if k in complete and k != other_pos and edge_key(start, k) not in inner)


# ----------------------------------------------------------------------------------------- stranding
def cannot_ever_move(board: Board, node: str, player: int, energy: int, control: int, alien: int) -> bool:
    """Immediate stranding (research A14 a): away from his base, the astronaut has no usable tube at his
    sphere (own, neutral, printed; any colour if he holds a control or an alien counter), no new tube
    can come (his sphere is complete; a port may still get tiles on free triangles around it), and no
    jump is possible (no energy or alien counter, or he stands on an energy sphere). His supply cannot
    grow without moving, so he can never move again."""
    if node == BASES[player]:
        return False
    can_control = control > 0 or alien > 0
    free = FREE_COLOURS[player]
    for _i, _n, c, _dh, _dt in board.inc.get(node, ()):
        if can_control or c in free:
            return False
    if node in PORTS and any(t not in board.covered and t not in board.abandoned for t in AROUND[node]):
        return False
    if (energy > 0 or alien > 0) and node in KNOT_SET:
        return False
    return True


def move_graph(board: Board, player: int) -> dict[str, tuple[frozenset[str], frozenset[str], tuple[str, ...]]]:
    """For every complete sphere ``player`` may stand on: ``(free-drift destinations, destinations only a
    control drift reaches, jump targets)``, ignoring counters and the other astronaut. Memoised on the
    board."""
    key = ("move_graph", player)
    hit = board.cache.get(key)
    if hit is not None:
        return hit
    g = {}
    for n in board.complete:
        mod = MODULE_BY_NAME.get(n)
        if mod is not None and mod.owner != player:
            continue
        free = frozenset(drift_paths(board, n, player, None, frozenset()))
        every = frozenset(drift_paths(board, n, player, None, frozenset(), all_colours=True))
        g[n] = (free, every - free, jump_targets(board, n, None))
    board.cache[key] = g
    return g


def reach_layers(board: Board, start: str, player: int, max_jumps: int) -> list[dict[str, float]]:
    """``layers[j][node]`` = fewest control drifts with which ``player`` gets from ``start`` to ``node``
    using at most ``j`` space jumps, for j = 0..max_jumps (the list stops early once another jump no
    longer reaches anything new). Counters and the other astronaut are ignored."""
    g = move_graph(board, player)
    layers: list[dict[str, float]] = []
    seeds: dict[str, float] = {start: 0}
    for j in range(max_jumps + 1):
        dist = _dijkstra(g, seeds)
        layers.append(dist)
        if j == max_jumps:
            break
        nxt = dict(dist)
        for n, c in dist.items():
            for m in g[n][2] if n in g else ():
                if c < nxt.get(m, INF):
                    nxt[m] = c
        if nxt == dist:
            break
        seeds = nxt
    return layers


def _dijkstra(g, seeds: dict[str, float]) -> dict[str, float]:
    dist = dict(seeds)
    heap = [(c, n) for n, c in seeds.items()]
    heapq.heapify(heap)
    while heap:
        c, n = heapq.heappop(heap)
        if c > dist.get(n, INF) or n not in g:
            continue
        free, ctrl, _j = g[n]
        for m in free:
            if c < dist.get(m, INF):
                dist[m] = c
                heapq.heappush(heap, (c, m))
        for m in ctrl:
            if c + 1 < dist.get(m, INF):
                dist[m] = c + 1
                heapq.heappush(heap, (c + 1, m))
    return dist


def _affordable(j: int, c: float, energy: int, control: int, alien: int) -> bool:
    """Whether ``j`` jumps and ``c`` control drifts can be paid, aliens standing in for 1 control + 2
    energy counters each."""
    if c == INF:
        return False
    need = max(0, -(-(j - energy) // 2), int(c) - control)
    return need <= alien


def reachable(board: Board, start: str, player: int, energy: int, control: int, alien: int) -> set[str]:
    """Spheres ``player`` could reach from ``start`` over any number of turns paying with ``energy``,
    ``control`` and ``alien`` counters (counters on the way and the other astronaut ignored)."""
    out: set[str] = set()
    for j, dist in enumerate(reach_layers(board, start, player, energy + 2 * alien)):
        out |= {n for n, c in dist.items() if _affordable(j, c, energy, control, alien)}
    return out


def can_reach_home(board: Board, start: str, player: int, energy: int, control: int, alien: int,
                   counters: dict[str, str] | None = None) -> bool:
    """The static-board stranding test (research A14 b, made tighter): with his supply (``energy``,
    ``control``, ``alien``) plus every counter on the board (``counters``: node -> kind) that lies in the
    region he can reach with what he has (repeated until nothing new is in reach), can ``player`` get
    from ``start`` to his base? A jump costs an energy counter, a control drift a control counter, an
    alien counter stands in for one control plus two energy counters. Optimistic: counters are assumed
    free to pick up and the other astronaut is ignored, so a ``False`` means he can never get home."""
    home = BASES[player]
    if start == home:
        return True
    counters = counters or {}
    got: set[str] = set()
    budget = {"energy": energy, "control": control, "alien": alien}
    while True:
        region = reachable(board, start, player, budget["energy"], budget["control"], budget["alien"])
        if home in region:
            return True
        new = [n for n in counters if n in region and n not in got]
        if not new:
            return False
        for n in new:
            got.add(n)
            budget[counters[n]] += 1
