"""Axial hex coordinates, pointy-top, screen y pointing down.

Conventions follow Red Blob Games' hexagon guide (specs/DESIGN.md, research/tantrix.md §5):
cells are ``(q, r)`` integer tuples; direction ``i`` in ``DIRS`` is E, NE, NW, W, SW, SE, which is
counter-clockwise on a y-down screen; edge ``i`` of a cell faces ``DIRS[i]`` and meets edge
``(i + 3) % 6`` of the neighbour across it.
"""
from __future__ import annotations

import math

Hex = tuple[int, int]

#: Axial direction vectors, index = edge number: E, NE, NW, W, SW, SE.
DIRS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

SQRT3 = math.sqrt(3.0)


def neighbour(h: Hex, d: int) -> Hex:
    """The cell across edge ``d`` (0..5) of ``h``."""
    dq, dr = DIRS[d]
    return (h[0] + dq, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    """The six cells around ``h``, in edge order 0..5."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRS]


def opposite(d: int) -> int:
    """The edge facing edge ``d`` across a shared side."""
    return (d + 3) % 6


def distance(a: Hex, b: Hex) -> int:
    """Hex distance in steps between two cells."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of cell ``h`` in px, relative to the centre of (0, 0); ``size`` = corner radius in px."""
    q, r = h
    return (size * (SQRT3 * q + SQRT3 / 2.0 * r), size * 1.5 * r)


def pixel_to_hex_frac(x: float, y: float, size: float) -> tuple[float, float]:
    """Fractional axial coordinates of the point (x, y) px (inverse of :func:`hex_to_pixel`)."""
    q = (SQRT3 / 3.0 * x - y / 3.0) / size
    r = (2.0 / 3.0 * y) / size
    return q, r


def hex_round(qf: float, rf: float) -> Hex:
    """Round fractional axial coordinates to the containing cell (cube rounding)."""
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def pixel_to_hex(x: float, y: float, size: float) -> Hex:
    """The cell containing the point (x, y) px."""
    return hex_round(*pixel_to_hex_frac(x, y, size))


def corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex centred at (cx, cy) px, at angles 60*i - 30 degrees."""
    out = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        out.append((cx + size * math.cos(a), cy + size * math.sin(a)))
    return out


def edge_midpoint(cx: float, cy: float, size: float, d: int) -> tuple[float, float]:
    """Midpoint of edge ``d`` (facing ``DIRS[d]``) of a hex centred at (cx, cy), in px, y down."""
    a = math.radians(-60 * d)
    k = SQRT3 / 2.0 * size
    return (cx + k * math.cos(a), cy + k * math.sin(a))


def ring(center: Hex, radius: int) -> list[Hex]:
    """Cells at exactly ``radius`` steps from ``center`` (radius >= 1)."""
    q, r = center[0] + DIRS[4][0] * radius, center[1] + DIRS[4][1] * radius
    out = []
    for d in range(6):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + DIRS[d][0], r + DIRS[d][1]
    return out
