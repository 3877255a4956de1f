"""Drawing Tom Tube's pieces with pygame (research/tomtube.md §7 "Rendering hints"; colours data.PALETTE).

Everything here draws onto a surface in pixels through a :class:`Xform` (board units of one space edge
-> px) and changes nothing else. Sizes are fractions of the space edge:

* tiles: a dark plate with a thin rim; a silver sphere sector of radius ``SPHERE_R`` at every tile
  corner (so a complete sphere shows as a full disc, drawn with a rim on top), dimmed on the rim knots
  that can never be complete;
* tubes ``TUBE_W`` wide with a dark outline: a tube along a tile side bows inward (two tiles' tubes
  along one space edge never overlap), diagonals and fork branches are straight; Tom's tubes carry a
  light highlight line, Dave's a dark centre line (so they differ without colour), neutral and printed
  tubes are striped; on a crossing rhomb without an energy sphere the short diagonal bridges over the
  long one (a gap in the plate colour); an energy sphere is a silver disc with a "+";
* counters (distinct shapes): energy a yellow square, control a blue diamond, alien a green triangle,
  solar a sun disc in its owner's colour; astronauts: Tom a round orange pawn marked "T", Dave a
  hexagonal red pawn marked "D".

Icons are rendered four times larger and scaled down (anti-aliased) and cached by the caller.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import pygame

from .data import PALETTE, RHOMB_BY_ID

Pt = tuple[float, float]
RGB = tuple[int, int, int]

SPACE = PALETTE["space"]
SPACE_EDGE = PALETTE["edge"]
TILE = (50, 57, 80)
TILE_RIM = (24, 28, 42)
SPHERE = PALETTE["sphere"]
SPHERE_RIM = (112, 117, 130)
SPHERE_DEAD = (84, 88, 102)
SPHERE_GLOSS = (236, 238, 244)
OUTLINE = (16, 18, 26)
ABANDONED = (120, 62, 70)
#: Legal choices (free slots, isolated triangles, destinations) glow in this colour, used by nothing else.
LEGAL = (96, 214, 255)
PLAYER_RGB: tuple[RGB, RGB] = (PALETTE["TOM"], PALETTE["DAVE"])
COUNTER_RGB: dict[str, RGB] = {"energy": PALETTE["energy"], "control": PALETTE["control"],
                               "alien": PALETTE["alien"]}
COUNTER_SHAPE = {"energy": "square", "control": "diamond", "alien": "triangle", "solar": "sun"}

TUBE_W = 0.13       #: tube width, edges
SPHERE_R = 0.19     #: sphere radius, edges
CENTRE_R = 0.15     #: energy sphere radius, edges
BOW = 0.34          #: how far a side tube's middle is pulled toward the tile's centre


def mix(a: Sequence[int], b: Sequence[int], t: float) -> RGB:
    """Colour ``t`` of the way from ``a`` to ``b``."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


class Xform:
    """Board units -> px: ``x_px = ox + x * scale``, ``y_px = oy + y * scale`` (scale = px per edge)."""

    def __init__(self, scale: float, ox: float, oy: float):
        self.scale = float(scale)
        self.ox = float(ox)
        self.oy = float(oy)

    def px(self, p: Pt) -> Pt:
        return (self.ox + p[0] * self.scale, self.oy + p[1] * self.scale)

    def board(self, p: Pt) -> Pt:
        """Inverse of :meth:`px`."""
        return ((p[0] - self.ox) / self.scale, (p[1] - self.oy) / self.scale)

    def times(self, k: float, dx: float = 0.0, dy: float = 0.0) -> "Xform":
        """The same picture ``k`` times larger, shifted by (dx, dy) px afterwards."""
        return Xform(self.scale * k, self.ox * k + dx, self.oy * k + dy)


class Recording:
    """Draw calls noted instead of made: passed to this module's painters in place of a surface, it
    keeps each ``pygame.draw`` call with its arguments and how far its paint reaches; :meth:`replay`
    makes the same calls, in the same order, onto a real surface (the same pixels, without working
    out the shapes again), leaving out those that cannot reach into the part being painted."""

    __slots__ = ("ops",)

    def __init__(self) -> None:
        #: (pygame.draw function, its arguments after the surface, left, top, right, bottom px)
        self.ops: list[tuple[Callable, tuple, float, float, float, float]] = []

    def _add(self, fn: Callable, args: tuple, pts: Sequence[Pt], reach: float) -> None:
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        self.ops.append((fn, args, min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach))

    def polygon(self, _surf, colour, points, width=0) -> None:
        self._add(pygame.draw.polygon, (colour, points, width), points, width + 2)

    def circle(self, _surf, colour, centre, radius, width=0) -> None:
        self._add(pygame.draw.circle, (colour, centre, radius, width), (centre,), radius + 2)

    def line(self, _surf, colour, a, b, width=1) -> None:
        self._add(pygame.draw.line, (colour, a, b, width), (a, b), width + 2)

    def lines(self, _surf, colour, closed, points, width=1) -> None:
        self._add(pygame.draw.lines, (colour, closed, points, width), points, width + 2)

    def replay(self, surf: pygame.Surface, clip: pygame.Rect | None = None) -> None:
        """Make the calls onto ``surf``; with ``clip`` (``surf``'s clip, px) only those reaching into it."""
        if clip is None:
            for fn, args, _x0, _y0, _x1, _y1 in self.ops:
                fn(surf, *args)
            return
        cx0, cy0, cx1, cy1 = clip.x, clip.y, clip.right, clip.bottom
        for fn, args, x0, y0, x1, y1 in self.ops:
            if x0 < cx1 and x1 > cx0 and y0 < cy1 and y1 > cy0:
                fn(surf, *args)


def pen(surf: "pygame.Surface | Recording"):
    """What the painters draw with: ``pygame.draw`` on a surface, the :class:`Recording` itself on one."""
    return surf if type(surf) is Recording else pygame.draw


# ------------------------------------------------------------------------------------ primitives
def _sub(a: Pt, b: Pt) -> Pt:
    return (a[0] - b[0], a[1] - b[1])


def lerp(a: Pt, b: Pt, t: float) -> Pt:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def bezier(p0: Pt, c: Pt, p1: Pt, n: int = 14) -> list[Pt]:
    """Points of the quadratic Bezier curve p0 -> p1 with control point ``c``."""
    out = []
    for i in range(n + 1):
        t = i / n
        a, b = lerp(p0, c, t), lerp(c, p1, t)
        out.append(lerp(a, b, t))
    return out


def tube_path(u: Pt, v: Pt, centre: Pt, side: bool) -> list[Pt]:
    """The drawn course of a tube from ``u`` to ``v`` (px): straight, or for a ``side`` tube (along a
    tile edge) bowed toward the tile's ``centre``."""
    if not side:
        return [u, v]
    mid = lerp(u, v, 0.5)
    return bezier(u, lerp(mid, centre, BOW * 2), v)


def ribbon(surf: pygame.Surface, pts: Sequence[Pt], width: float, colour: RGB, caps: bool = True) -> None:
    """A band ``width`` px wide along the polyline ``pts`` (round ends with ``caps``)."""
    if len(pts) < 2 or width <= 0:
        return
    half = width / 2.0
    left, right = [], []
    n = len(pts)
    for i in range(n):
        a = pts[max(0, i - 1)]
        b = pts[min(n - 1, i + 1)]
        tx, ty = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(tx, ty) or 1.0
        nx, ny = -ty / ln * half, tx / ln * half
        left.append((pts[i][0] + nx, pts[i][1] + ny))
        right.append((pts[i][0] - nx, pts[i][1] - ny))
    pen(surf).polygon(surf, colour, left + right[::-1])
    if caps:
        for p in (pts[0], pts[-1]):
            pen(surf).circle(surf, colour, p, half)


def _length(pts: Sequence[Pt]) -> list[float]:
    acc = [0.0]
    for a, b in zip(pts, pts[1:]):
        acc.append(acc[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
    return acc


def point_at(pts: Sequence[Pt], d: float, acc: list[float] | None = None) -> Pt:
    """The point at arc length ``d`` along the polyline (clamped to its ends)."""
    acc = acc if acc is not None else _length(pts)
    if d <= 0:
        return pts[0]
    if d >= acc[-1]:
        return pts[-1]
    for i in range(1, len(acc)):
        if acc[i] >= d:
            seg = acc[i] - acc[i - 1] or 1.0
            return lerp(pts[i - 1], pts[i], (d - acc[i - 1]) / seg)
    return pts[-1]


def _piece(pts: Sequence[Pt], acc: list[float], d0: float, d1: float) -> list[Pt]:
    out = [point_at(pts, d0, acc)]
    out += [p for p, a in zip(pts, acc) if d0 < a < d1]
    out.append(point_at(pts, d1, acc))
    return out


def trimmed(pts: Sequence[Pt], d0: float, d1: float) -> list[Pt]:
    """The polyline without its first ``d0`` and last ``d1`` px."""
    acc = _length(pts)
    if acc[-1] <= d0 + d1:
        return list(pts)
    return _piece(pts, acc, d0, acc[-1] - d1)


def tube(surf: pygame.Surface, pts: Sequence[Pt], colour: str, edge: float, gap: RGB | None = None,
         ends: tuple[bool, bool] = (True, True)) -> None:
    """A tube of ``colour`` ("TOM", "DAVE", "NEUTRAL", "PRINTED") along ``pts`` for a space edge of
    ``edge`` px; ``gap``: draw a wide outline of that colour first (a bridge over another tube). An end
    at a tile corner (``ends``) stops short, under the sphere sector, so it never shows outside its
    tile."""
    w = max(2.0, TUBE_W * edge)
    o = max(1.0, w * 0.16)
    cut = SPHERE_R * edge * 0.6
    pts = trimmed(pts, cut if ends[0] else 0.0, cut if ends[1] else 0.0)
    if gap is not None:
        ribbon(surf, pts, w + 5 * o, gap, caps=False)
    ribbon(surf, pts, w + 2 * o, OUTLINE, caps=False)
    if colour in ("NEUTRAL", "PRINTED"):
        base = PALETTE[colour]
        stripe = PALETTE["NEUTRAL_STRIPE"] if colour == "NEUTRAL" else mix(PALETTE["PRINTED"], (70, 74, 110), 0.5)
        ribbon(surf, pts, w, base, caps=False)
        acc = _length(pts)
        step = w * 0.9
        d = step * 0.5
        while d < acc[-1]:
            ribbon(surf, _piece(pts, acc, d, min(acc[-1], d + step)), w, stripe, caps=False)
            d += 2 * step
        return
    rgb = PALETTE[colour]
    ribbon(surf, pts, w, rgb, caps=False)
    if colour == "TOM":
        ribbon(surf, pts, w * 0.3, mix(rgb, (255, 255, 255), 0.55), caps=False)
    else:
        ribbon(surf, pts, w * 0.22, mix(rgb, (0, 0, 0), 0.55), caps=False)


def sector(surf: pygame.Surface, corner: Pt, p1: Pt, p2: Pt, r: float, colour: RGB) -> None:
    """The disc sector of radius ``r`` at ``corner`` between the rays toward ``p1`` and ``p2``."""
    a1 = math.atan2(p1[1] - corner[1], p1[0] - corner[0])
    a2 = math.atan2(p2[1] - corner[1], p2[0] - corner[0])
    d = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi
    n = 8
    pts = [corner] + [(corner[0] + r * math.cos(a1 + d * i / n), corner[1] + r * math.sin(a1 + d * i / n))
                      for i in range(n + 1)]
    pen(surf).polygon(surf, colour, pts)


def sphere(surf: pygame.Surface, c: Pt, r: float, rim: RGB = SPHERE_RIM, fill: RGB = SPHERE) -> None:
    """A complete silver sphere (a disc with a rim and a gloss)."""
    pen(surf).circle(surf, rim, c, r)
    pen(surf).circle(surf, fill, c, r * 0.84)
    pen(surf).circle(surf, mix(fill, SPHERE_GLOSS, 0.7), (c[0] - r * 0.28, c[1] - r * 0.3), r * 0.3)


def energy_sphere(surf: pygame.Surface, c: Pt, edge: float) -> None:
    """The energy sphere at a rhomb's centre: a silver disc with a "+"."""
    r = CENTRE_R * edge
    sphere(surf, c, r)
    arm = r * 0.58
    w = max(1, round(r * 0.24))
    col = (40, 44, 58)
    pen(surf).line(surf, col, (c[0] - arm, c[1]), (c[0] + arm, c[1]), w)
    pen(surf).line(surf, col, (c[0], c[1] - arm), (c[0], c[1] + arm), w)


# ------------------------------------------------------------------------------------- tiles
CornerColour = Callable[[str], "RGB | None"]


def rhomb_plate(surf: pygame.Surface, corners: dict[str, Pt], edge: float, fill: RGB = TILE) -> None:
    poly = [corners[k] for k in "ABCD"]
    pen(surf).polygon(surf, fill, poly)
    pen(surf).polygon(surf, TILE_RIM, poly, max(1, round(edge / 48)))


def rhomb_tubes(surf: pygame.Surface, corners: dict[str, Pt], rhomb_id: str, edge: float,
                plate: RGB = TILE) -> None:
    """The tubes (and energy sphere) of rhomb ``rhomb_id`` whose corners "A".."D" lie at ``corners``
    (px), research §3.5: sides bow inward, diagonals are straight; on a crossing tile without an
    energy sphere the short diagonal B-D bridges over A-C; an energy sphere joins the diagonals."""
    rh = RHOMB_BY_ID[rhomb_id]
    centre = lerp(corners["A"], corners["C"], 0.5)
    diag = ({"A", "C"}, {"B", "D"})
    tubes = sorted(rh.tubes, key=lambda t: {t[1], t[2]} == {"B", "D"})   # B-D last: it bridges
    crossing = sum(1 for _c, x, y in rh.tubes if {x, y} in diag) == 2 and not rh.energy
    for colour, x, y in tubes:
        side = {x, y} not in diag
        pts = tube_path(corners[x], corners[y], centre, side)
        gap = plate if crossing and {x, y} == {"B", "D"} else None
        tube(surf, pts, colour, edge, gap)
    if rh.energy:
        energy_sphere(surf, centre, edge)


def rhomb_sectors(surf: pygame.Surface, corners: dict[str, Pt], edge: float, colour_of: CornerColour) -> None:
    """Sphere sectors at the rhomb's corners (the triangles A-B-D and C-B-D); ``colour_of(letter)``
    gives each corner's colour, or None to leave it out."""
    r = SPHERE_R * edge
    for tri in (("A", "B", "D"), ("C", "B", "D")):
        for i, k in enumerate(tri):
            col = colour_of(k)
            if col is not None:
                sector(surf, corners[k], corners[tri[(i + 1) % 3]], corners[tri[(i + 2) % 3]], r, col)


def piece_plate(surf: pygame.Surface, pts: Sequence[Pt], owner: int, edge: float) -> None:
    fill = mix(TILE, PLAYER_RGB[owner], 0.16)
    pen(surf).polygon(surf, fill, list(pts))
    pen(surf).polygon(surf, TILE_RIM, list(pts), max(1, round(edge / 48)))


def piece_tubes(surf: pygame.Surface, pts: Sequence[Pt], owner: int, piece: str, rot: int, edge: float) -> None:
    """The tubes of a triangle ``piece`` (research §3.7) on the triangle with corners ``pts`` (px):
    an arc between the corners other than ``rot`` bowed inward, a fork from every corner to the
    centre (a junction, not a sphere), or nothing."""
    colour = ("TOM", "DAVE")[owner]
    centre = ((pts[0][0] + pts[1][0] + pts[2][0]) / 3, (pts[0][1] + pts[1][1] + pts[2][1]) / 3)
    if piece == "arc":
        tube(surf, tube_path(pts[(rot + 1) % 3], pts[(rot + 2) % 3], centre, True), colour, edge)
    elif piece == "Y":
        for p in pts:
            tube(surf, [p, centre], colour, edge, ends=(True, False))
        w = max(2.0, TUBE_W * edge)
        pen(surf).circle(surf, OUTLINE, centre, w * 0.82)
        pen(surf).circle(surf, PALETTE[colour], centre, w * 0.62)


def piece_sectors(surf: pygame.Surface, pts: Sequence[Pt], edge: float,
                  colour_of: Callable[[int], "RGB | None"]) -> None:
    r = SPHERE_R * edge
    for i in range(3):
        col = colour_of(i)
        if col is not None:
            sector(surf, pts[i], pts[(i + 1) % 3], pts[(i + 2) % 3], r, col)


def canonical_rhomb(centre: Pt, edge: float, flip: int) -> dict[str, Pt]:
    """Corners of a rhomb pictured as in its own image (long diagonal horizontal, A left, B top;
    research §3.5), turned half round when ``flip`` is 1, centred at ``centre`` (px)."""
    h = math.sqrt(3) / 2 * edge
    cx, cy = centre
    pts = {"A": (cx - h, cy), "B": (cx, cy - edge / 2), "C": (cx + h, cy), "D": (cx, cy + edge / 2)}
    if flip:
        pts = {k: (2 * cx - x, 2 * cy - y) for k, (x, y) in pts.items()}
    return pts


def whole_rhomb(surf: pygame.Surface, corners: dict[str, Pt], rhomb_id: str, edge: float,
                plate: RGB = TILE) -> None:
    """A loose rhomb (in the hand, a ghost): plate, tubes and silver corner sectors."""
    rhomb_plate(surf, corners, edge, plate)
    rhomb_tubes(surf, corners, rhomb_id, edge, plate)
    rhomb_sectors(surf, corners, edge, lambda k: SPHERE)


def whole_piece(surf: pygame.Surface, pts: Sequence[Pt], owner: int, piece: str, rot: int, edge: float) -> None:
    piece_plate(surf, pts, owner, edge)
    piece_tubes(surf, pts, owner, piece, rot, edge)
    piece_sectors(surf, pts, edge, lambda i: SPHERE)


def supersampled(size: tuple[int, int], paint: Callable[[pygame.Surface, int], None], k: int = 3) -> pygame.Surface:
    """A transparent ``size`` px picture painted ``k`` times larger by ``paint(surface, k)`` and scaled
    down (anti-aliased)."""
    big = pygame.Surface((size[0] * k, size[1] * k), pygame.SRCALPHA)
    paint(big, k)
    return pygame.transform.smoothscale(big, size)


# ------------------------------------------------------------------------------ counters, pawns
def _poly(c: Pt, r: float, n: int, start_deg: float) -> list[Pt]:
    return [(c[0] + r * math.cos(math.radians(start_deg + 360 * i / n)),
             c[1] + r * math.sin(math.radians(start_deg + 360 * i / n))) for i in range(n)]


def paint_counter(surf: pygame.Surface, kind: str, c: Pt, r: float, owner: int | None = None) -> None:
    """Counter ``kind`` ("energy", "control", "alien", "solar") of radius ``r`` px at ``c``."""
    ow = max(1.0, r * 0.16)
    if kind == "solar":
        rgb = PLAYER_RGB[owner or 0]
        for i in range(8):
            a = math.radians(22.5 + 45 * i)
            p1 = (c[0] + r * 0.62 * math.cos(a), c[1] + r * 0.62 * math.sin(a))
            p2 = (c[0] + r * 1.0 * math.cos(a), c[1] + r * 1.0 * math.sin(a))
            pen(surf).line(surf, OUTLINE, p1, p2, max(1, round(r * 0.3)))
            pen(surf).line(surf, rgb, p1, p2, max(1, round(r * 0.16)))
        pen(surf).circle(surf, OUTLINE, c, r * 0.66)
        pen(surf).circle(surf, rgb, c, r * 0.66 - ow)
        pen(surf).circle(surf, mix(rgb, (255, 255, 255), 0.55), c, r * 0.3)
        return
    rgb = COUNTER_RGB[kind]
    if kind == "energy":
        pts = _poly(c, r * 0.95, 4, 45)
    elif kind == "control":
        pts = _poly(c, r * 1.08, 4, 0)
    else:
        pts = _poly((c[0], c[1] + r * 0.14), r * 1.1, 3, -90)
    pen(surf).polygon(surf, OUTLINE, pts)
    inner = [lerp(p, (sum(q[0] for q in pts) / len(pts), sum(q[1] for q in pts) / len(pts)), ow * 1.6 / r)
             for p in pts]
    pen(surf).polygon(surf, rgb, inner)
    hi = [lerp(p, inner[-1], 0.7) for p in inner]   # a gloss in one corner; the middle stays plain
    pen(surf).polygon(surf, mix(rgb, (255, 255, 255), 0.35), hi[:3])


def paint_astronaut(surf: pygame.Surface, player: int, c: Pt, r: float, font: pygame.font.Font | None) -> None:
    """Astronaut ``player`` of radius ``r`` px at ``c``: Tom round, Dave hexagonal, each with its
    initial and a visor."""
    rgb = PLAYER_RGB[player]
    ring = (250, 250, 250)
    if player == 0:
        pen(surf).circle(surf, OUTLINE, c, r)
        pen(surf).circle(surf, ring, c, r * 0.9)
        pen(surf).circle(surf, rgb, c, r * 0.76)
    else:
        pen(surf).polygon(surf, OUTLINE, _poly(c, r * 1.04, 6, 0))
        pen(surf).polygon(surf, ring, _poly(c, r * 0.93, 6, 0))
        pen(surf).polygon(surf, rgb, _poly(c, r * 0.78, 6, 0))
    if font is not None:
        img = font.render("TD"[player], True, OUTLINE)
        surf.blit(img, img.get_rect(center=(c[0], c[1] + r * 0.04)))


def icon(kind: str, size: int, owner: int | None = None, font: pygame.font.Font | None = None) -> pygame.Surface:
    """A ``size`` x ``size`` px anti-aliased picture of a counter ("energy", "control", "alien",
    "solar" with its ``owner``) or an astronaut ("tom", "dave"; ``font`` at 4x size for the initial)."""
    k = 4
    big = pygame.Surface((size * k, size * k), pygame.SRCALPHA)
    c = (size * k / 2, size * k / 2)
    r = size * k / 2 - k
    if kind in ("tom", "dave"):
        paint_astronaut(big, 0 if kind == "tom" else 1, c, r, font)
    else:
        paint_counter(big, kind, c, r * 0.92, owner)
    return pygame.transform.smoothscale(big, (size, size))


def glow_line(surf: pygame.Surface, a: Pt, b: Pt, colour: RGB, width: float, alpha: int) -> None:
    """A translucent line (drawn on an SRCALPHA ``surf``)."""
    ribbon(surf, [a, b], width, (*colour, alpha))  # type: ignore[arg-type]


def dashed_path(surf: pygame.Surface, pts: Sequence[Pt], colour: RGB, width: int, dash: float) -> None:
    """A dashed polyline (the path a drift would take)."""
    acc = _length(pts)
    d = 0.0
    while d < acc[-1]:
        seg = _piece(pts, acc, d, min(acc[-1], d + dash))
        for a, b in zip(seg, seg[1:]):
            pen(surf).line(surf, colour, a, b, width)
        d += 2 * dash
