"""Tom Tube geometry: knots, space triangles, rhomb slots, ports, directions and tile tubes.

Derived from the board data of ``data.py`` as in research/tomtube.md §3.1-§3.5 and the reference sketch
§3.12. Pure Python, computed once at import.

Node ids (strings, used in actions, events and the tube graph):

* a knot ``(q, r)`` is ``"q,r"`` (e.g. ``"2,-3"``);
* a module is its name (``"TOM_BASE"``, ``"DAVE_SOLAR_LL"``, ...), placed at its virtual knot;
* the energy sphere at the centre of the rhomb lying on slot ``s`` is ``"c<s>"`` (e.g. ``"c17"``);
* the junction at the centre of a Y triangle on space triangle ``t`` is ``"j<t>"``.

Directions are 12 steps of 30 degrees, clockwise on screen (y down), direction 0 = +x. A tube end's
direction at a node is that of the straight chord to the tube's other end (research §3.1, A4); passing
"straight on" through a sphere means leaving along direction ``(arrival + 6) % 12``.

A tube segment is ``(u, v, colour, dir_at_u, dir_at_v)``.
"""
from __future__ import annotations

import math
from itertools import combinations

from .data import BASES, MODULES, RHOMB_BY_ID, SOLARS, Module, mirror, on_board

H = math.sqrt(3) / 2
#: Lattice neighbour offsets for directions 0, 2, 4, 6, 8, 10 (research §3.1).
NB6: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

Knot = tuple[int, int]
Seg = tuple[str, str, str, int, int]


def kid(q: int, r: int) -> str:
    """The node id of knot ``(q, r)``."""
    return f"{q},{r}"


def knot_of(node: str) -> Knot:
    """``(q, r)`` of a knot id; raises ValueError for anything else."""
    q, r = node.split(",")
    return int(q), int(r)


def lattice_xy(k: Knot) -> tuple[float, float]:
    """Screen position of lattice point ``k`` in board units (edge 1, y down)."""
    q, r = k
    return (q + r / 2.0, r * H)


def direction(p: tuple[float, float], q: tuple[float, float]) -> int:
    """Direction 0..11 (30-degree steps, clockwise on screen) of the chord from ``p`` to ``q``."""
    a = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360
    return round(a / 30) % 12


# ------------------------------------------------------------------------------------ knots, triangles
KNOTS: tuple[Knot, ...] = tuple((q, r) for r in range(-4, 5) for q in range(-5, 6) if on_board(q, r))
KNOT_IDS: tuple[str, ...] = tuple(kid(*k) for k in KNOTS)
KNOT_SET = frozenset(KNOT_IDS)


def _triangles() -> tuple[tuple[str, int, int], ...]:
    out = []
    for r in range(-5, 5):
        for q in range(-6, 6):
            down = ((q, r), (q + 1, r), (q, r + 1))
            up = ((q + 1, r), (q + 1, r + 1), (q, r + 1))
            if all(on_board(*k) for k in down):
                out.append(("D", q, r))
            if all(on_board(*k) for k in up):
                out.append(("U", q, r))
    return tuple(out)


#: Space triangles as ``(kind, q, r)``: ``D`` = knots (q,r), (q+1,r), (q,r+1) (flat top, apex below);
#: ``U`` = knots (q+1,r), (q+1,r+1), (q,r+1) (apex above). Index = triangle id.
TRIANGLES: tuple[tuple[str, int, int], ...] = _triangles()


def _corners(t: tuple[str, int, int]) -> tuple[str, str, str]:
    kind, q, r = t
    if kind == "D":
        return (kid(q, r), kid(q + 1, r), kid(q, r + 1))
    return (kid(q + 1, r), kid(q + 1, r + 1), kid(q, r + 1))


#: TRI_CORNERS[t] = the three knot ids of triangle t, clockwise on screen (rotation k of a triangle
#: piece starts at corner k).
TRI_CORNERS: tuple[tuple[str, str, str], ...] = tuple(_corners(t) for t in TRIANGLES)
TRI_INDEX: dict[tuple[str, int, int], int] = {t: i for i, t in enumerate(TRIANGLES)}

#: Every lattice edge between two board knots -> the triangles on either side (1 on the border, 2
#: inside). Edges are keyed by the sorted pair of knot ids.
EDGE_TRIS: dict[tuple[str, str], tuple[int, ...]] = {}
for _t, _cs in enumerate(TRI_CORNERS):
    for _a, _b in combinations(_cs, 2):
        _e = (_a, _b) if _a < _b else (_b, _a)
        EDGE_TRIS[_e] = EDGE_TRIS.get(_e, ()) + (_t,)


def edge_key(a: str, b: str) -> tuple[str, str]:
    """The key of the lattice edge between knots ``a`` and ``b``."""
    return (a, b) if a < b else (b, a)


#: TRI_NB[t] = triangles sharing an edge with t.
TRI_NB: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(u for e in EDGE_TRIS.values() if t in e and len(e) == 2 for u in e if u != t))
    for t in range(len(TRIANGLES)))
#: AROUND[knot id] = triangles having that knot as a corner.
AROUND: dict[str, tuple[int, ...]] = {k: tuple(t for t, cs in enumerate(TRI_CORNERS) if k in cs)
                                      for k in KNOT_IDS}
#: Interior knots: six space triangles around (research §3.2: 29).
INTERIOR: frozenset[str] = frozenset(k for k in KNOT_IDS if len(AROUND[k]) == 6)
BORDER_EDGES: tuple[tuple[str, str], ...] = tuple(sorted(e for e, ts in EDGE_TRIS.items() if len(ts) == 1))

# ------------------------------------------------------------------------------------------ slots
#: Rhomb slots: the interior edges (two free triangles that share it take a rhomb). SLOTS[s] =
#: ``(edge, t1, t2)`` with ``t1 < t2``; sorted by edge, index = slot id (research §3.2: 106).
SLOTS: tuple[tuple[tuple[str, str], int, int], ...] = tuple(
    (e, ts[0], ts[1]) for e, ts in sorted(EDGE_TRIS.items(), key=lambda kv: (knot_of(kv[0][0]), knot_of(kv[0][1])))
    if len(ts) == 2)
SLOT_OF_EDGE: dict[tuple[str, str], int] = {e: s for s, (e, _a, _b) in enumerate(SLOTS)}
#: SLOT_OF_TRIS[(t1, t2)] = slot of the two triangles (t1 < t2).
SLOT_OF_TRIS: dict[tuple[int, int], int] = {(a, b): s for s, (_e, a, b) in enumerate(SLOTS)}
#: TRI_SLOTS[t] = slots that use triangle t.
TRI_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s, (_e, a, b) in enumerate(SLOTS) if t in (a, b)) for t in range(len(TRIANGLES)))

# ---------------------------------------------------------------------------------- modules, ports
MODULE_BY_NAME: dict[str, Module] = {m.name: m for m in MODULES}
#: PORTS[knot id] = the module whose printed tube ends there (research §3.3: 12 ports).
PORTS: dict[str, str] = {kid(*p): m.name for m in MODULES for p in m.ports}
#: Border knots that are not ports: never complete (research §3.2, A3).
DEAD: frozenset[str] = frozenset(k for k in KNOT_IDS if k not in INTERIOR and k not in PORTS)
#: Knots that can ever be complete spheres.
SPHERE_KNOTS: frozenset[str] = INTERIOR | frozenset(PORTS)
BASE_OF = BASES
SOLARS_OF = SOLARS


def node_xy(node: str) -> tuple[float, float]:
    """Screen position (board units) of any node id: knot, module, rhomb centre, Y junction."""
    m = MODULE_BY_NAME.get(node)
    if m is not None:
        return lattice_xy(m.virtual)
    c = node[0]
    if c == "c":
        (a, b), _t1, _t2 = SLOTS[int(node[1:])]
        (ax, ay), (bx, by) = lattice_xy(knot_of(a)), lattice_xy(knot_of(b))
        return ((ax + bx) / 2, (ay + by) / 2)
    if c == "j":
        pts = [lattice_xy(knot_of(k)) for k in TRI_CORNERS[int(node[1:])]]
        return (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)
    return lattice_xy(knot_of(node))


def node_kind(node: str) -> str:
    """"knot", "module", "centre" or "junction" (ValueError for an unknown id)."""
    if node in KNOT_SET:
        return "knot"
    if node in MODULE_BY_NAME:
        return "module"
    if node[:1] == "c" and node[1:].isdigit() and int(node[1:]) < len(SLOTS):
        return "centre"
    if node[:1] == "j" and node[1:].isdigit() and int(node[1:]) < len(TRIANGLES):
        return "junction"
    raise ValueError(f"{node!r} is not a node of the board")


def segment(u: str, v: str, colour: str) -> Seg:
    """The tube segment from ``u`` to ``v`` with its end directions."""
    pu, pv = node_xy(u), node_xy(v)
    return (u, v, colour, direction(pu, pv), direction(pv, pu))


#: The 12 printed tubes, module -> port (colour PRINTED).
PRINTED_SEGS: tuple[Seg, ...] = tuple(segment(m.name, kid(*p), "PRINTED") for m in MODULES for p in m.ports)

# ------------------------------------------------------------------------------------------ tiles


def rhomb_corners(slot: int, flip: int) -> dict[str, str]:
    """Corners ``{"A", "B", "C", "D"} -> knot id`` of a rhomb on ``slot`` in orientation ``flip``
    (0 or 1, the two placements 180 degrees apart; research §3.5): B and D are the ends of the shared
    edge, A and C the far apexes of the two triangles, and the picture is never mirrored (B is the
    shared knot with cross(B - A, C - A) > 0 in screen coordinates)."""
    (e1, e2), t1, t2 = SLOTS[slot]
    a = next(k for k in TRI_CORNERS[t1] if k not in (e1, e2))
    c = next(k for k in TRI_CORNERS[t2] if k not in (e1, e2))
    if flip:
        a, c = c, a
    b, d = e1, e2
    (ax, ay), (bx, by), (cx, cy) = node_xy(a), node_xy(b), node_xy(c)
    if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0:
        b, d = d, b
    return {"A": a, "B": b, "C": c, "D": d}


def rhomb_segments(slot: int, rhomb_id: str, flip: int) -> list[Seg]:
    """The tube segments of rhomb ``rhomb_id`` lying on ``slot`` in orientation ``flip``. On a tile with
    an energy sphere every diagonal tube is split at the centre ``"c<slot>"`` (research §3.5 rule 4);
    crossing diagonals of a tile without one stay unconnected (A5)."""
    rh = RHOMB_BY_ID[rhomb_id]
    corners = rhomb_corners(slot, flip)
    out = []
    for colour, x, y in rh.tubes:
        u, v = corners[x], corners[y]
        if rh.energy and {x, y} in ({"A", "C"}, {"B", "D"}):
            centre = f"c{slot}"
            out.append(segment(u, centre, colour))
            out.append(segment(centre, v, colour))
        else:
            out.append(segment(u, v, colour))
    return out


def piece_segments(tri: int, colour: str, piece: str, rot: int) -> list[Seg]:
    """Tube segments of a triangle piece (research §3.7) of ``colour`` on space triangle ``tri``:
    an "arc" links the two corners other than corner ``rot`` (its empty corner); a "Y" joins all three
    corners to the junction ``"j<tri>"``; a "plain" piece has none."""
    cs = TRI_CORNERS[tri]
    if piece == "arc":
        return [segment(cs[(rot + 1) % 3], cs[(rot + 2) % 3], colour)]
    if piece == "Y":
        return [segment(k, f"j{tri}", colour) for k in cs]
    return []


def inner_edge(slot: int) -> tuple[str, str]:
    """The short diagonal (shared edge) of a rhomb on ``slot``: a space jump may not run along it."""
    return SLOTS[slot][0]


def jump_neighbours(node: str) -> tuple[str, ...]:
    """Board knots one space edge away from knot ``node`` (candidates for a space jump)."""
    q, r = knot_of(node)
    return tuple(kid(q + dq, r + dr) for dq, dr in NB6 if on_board(q + dq, r + dr))


#: JUMP_NB[knot] for every knot.
JUMP_NB: dict[str, tuple[str, ...]] = {k: jump_neighbours(k) for k in KNOT_IDS}


def mirror_node(node: str) -> str:
    """The board mirror (data.mirror) applied to a knot or module id."""
    m = MODULE_BY_NAME.get(node)
    if m is not None:
        target = mirror(*m.virtual)
        return next(x.name for x in MODULES if x.virtual == target)
    return kid(*mirror(*knot_of(node)))
