"""Tantrix tile art: black pointy-top hexagons with three coloured links (specs/gobble.md "Tiles").

Geometry (research/tantrix.md §5, unit corner radius, y down): a *sharp* link is an arc of radius 1/2
centred on the corner shared by its two edges, a *gentle* link an arc of radius 3/2 centred on the
centre of the neighbouring hex across the middle edge, a *straight* link a line through the centre.
All three meet their edges at right angles, so links continue smoothly into the next tile.

Pixel layout: a zoom level ``s`` (corner radius in px) is turned into an integer cell pitch: cells
are ``W`` px apart in a row (``W`` even) and rows ``H`` px apart, so every cell centre is a whole
pixel and every tile sprite lands on exactly the same sub-pixel grid. The hexagon is stretched by at
most 1.5 % to fit that pitch (an affine image of the regular tiling, which still tiles exactly).
Board sprites get a hard-edged alpha mask that partitions the plane exactly between cells, so two
neighbouring sprites never leave a seam and a link crossing their shared edge is continuous; loose
sprites (hand, ghost, dragged tile) keep anti-aliased edges.

Everything is rendered 3x supersampled and smooth-scaled down, and cached per (tile, rotation, size,
palette, symbols, variant).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pygame

from sim.core.hexgrid import SQRT3, pixel_to_hex

from .data import ROT_EDGES, links

SS = 3                  # supersampling factor
BAND = 0.30             # link width, in units of the corner radius
CASING = 0.045          # dark border each side of a link (shows which link passes over at a crossing)
RIM = 0.045             # width of the tile's lighter rim
PAD = 2                 # px of transparent margin around a sprite

SYMBOL_SHAPES = {"R": "circle", "Y": "triangle", "B": "square", "G": "diamond"}


# ----------------------------------------------------------------------------------------- layout
class Layout:
    """Pixel layout for zoom ``s`` (corner radius in px)."""

    def __init__(self, s: int):
        self.s = int(s)
        self.W = 2 * max(2, round(SQRT3 * s / 2.0))   # horizontal pitch (even)
        self.H = max(3, round(1.5 * s))               # row pitch
        self.sx = self.W / SQRT3                      # px per unit, x
        self.sy = self.H / 1.5                        # px per unit, y
        self.ox = self.W // 2 + PAD                   # sprite centre inside the sprite
        self.oy = math.ceil(self.sy) + PAD
        self.size = (self.W + 2 * PAD, 2 * self.oy)   # sprite size

    def center(self, cell: tuple[int, int]) -> tuple[int, int]:
        """Centre of ``cell`` in px relative to the centre of (0, 0) (always whole pixels)."""
        q, r = cell
        return (self.W * q + (self.W // 2) * r, self.H * r)

    def cell_at(self, x: float, y: float) -> tuple[int, int]:
        """The cell containing the point (x, y) px relative to the centre of (0, 0)."""
        return pixel_to_hex(x / self.sx, y / self.sy, 1.0)

    def to_unit(self, x: float, y: float) -> tuple[float, float]:
        return (x / self.sx, y / self.sy)

    def from_unit(self, ux: float, uy: float) -> tuple[float, float]:
        return (ux * self.sx, uy * self.sy)

    def corners(self, cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of the (stretched) hexagon centred at (cx, cy)."""
        return [(cx + _HEX[i][0] * self.sx * scale, cy + _HEX[i][1] * self.sy * scale) for i in range(6)]


_HEX = [(math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)]


@lru_cache(maxsize=256)
def layout(s: int) -> Layout:
    return Layout(int(s))


# ------------------------------------------------------------------------------- link geometry
def _mid(i: int) -> tuple[float, float]:
    a = math.radians(-60 * i)
    k = SQRT3 / 2.0
    return (k * math.cos(a), k * math.sin(a))


class _Link:
    """One link's centre line in unit coordinates: an arc (centre, radius, a0 -> a1) or a segment."""

    def __init__(self, a: int, b: int):
        d = (b - a) % 6
        self.kind = {1: "sharp", 5: "sharp", 2: "gentle", 4: "gentle", 3: "straight"}[d]
        if self.kind == "straight":
            self.p0, self.p1 = _mid(a), _mid(b)
            return
        if self.kind == "sharp":
            i = a if d == 1 else b               # the pair is (i, i+1)
            ang = math.radians(-60 * i - 30)
            self.c = (math.cos(ang), math.sin(ang))
            self.rad = 0.5
        else:
            i = a if d == 2 else b               # the pair is (i, i+2); middle edge i+1
            ang = math.radians(-60 * (i + 1))
            self.c = (SQRT3 * math.cos(ang), SQRT3 * math.sin(ang))
            self.rad = 1.5
        ma, mb = _mid(a), _mid(b)
        self.a0 = math.atan2(ma[1] - self.c[1], ma[0] - self.c[0])
        a1 = math.atan2(mb[1] - self.c[1], mb[0] - self.c[0])
        da = (a1 - self.a0 + math.pi) % (2 * math.pi) - math.pi
        self.da = da

    def point(self, t: float) -> tuple[float, float]:
        if self.kind == "straight":
            return (self.p0[0] + (self.p1[0] - self.p0[0]) * t, self.p0[1] + (self.p1[1] - self.p0[1]) * t)
        a = self.a0 + self.da * t
        return (self.c[0] + self.rad * math.cos(a), self.c[1] + self.rad * math.sin(a))

    def band(self, half: float, ext: float, steps: int) -> list[tuple[float, float]]:
        """Polygon of the band of half-width ``half`` around the centre line, both ends carried
        ``ext`` units past the edges (the sprite mask cuts them off exactly at the hexagon)."""
        if self.kind == "straight":
            (x0, y0), (x1, y1) = self.p0, self.p1
            L = math.hypot(x1 - x0, y1 - y0)
            ux, uy = (x1 - x0) / L, (y1 - y0) / L
            nx, ny = -uy, ux
            x0, y0, x1, y1 = x0 - ux * ext, y0 - uy * ext, x1 + ux * ext, y1 + uy * ext
            return [(x0 + nx * half, y0 + ny * half), (x1 + nx * half, y1 + ny * half),
                    (x1 - nx * half, y1 - ny * half), (x0 - nx * half, y0 - ny * half)]
        sgn = 1.0 if self.da > 0 else -1.0
        e = ext / self.rad
        a0 = self.a0 - sgn * e
        a1 = self.a0 + self.da + sgn * e
        outer, inner = [], []
        for k in range(steps + 1):
            a = a0 + (a1 - a0) * k / steps
            ca, sa = math.cos(a), math.sin(a)
            outer.append((self.c[0] + (self.rad + half) * ca, self.c[1] + (self.rad + half) * sa))
            inner.append((self.c[0] + (self.rad - half) * ca, self.c[1] + (self.rad - half) * sa))
        return outer + inner[::-1]


@lru_cache(maxsize=64)
def _link(a: int, b: int) -> _Link:
    return _Link(a, b)


def tile_links(n: int, rot: int) -> list[tuple[str, _Link]]:
    """The three links of tile ``n`` at rotation ``rot`` in screen directions."""
    return [(c, _link(a, b)) for c, a, b in links(ROT_EDGES[n][rot % 6])]


def _symbol_t(lk: _Link, others: list[_Link]) -> float:
    """Where along ``lk`` to put its symbol: the middle unless another link crosses there."""
    if not others:
        return 0.5
    pts = [o.point(k / 24) for o in others for k in range(25)]
    best, best_d = 0.5, -1.0
    for t in (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8):
        x, y = lk.point(t)
        d = min(math.hypot(x - px, y - py) for px, py in pts)
        if d >= BAND * 1.35:
            return t
        if d > best_d:
            best, best_d = t, d
    return best


@lru_cache(maxsize=512)
def _symbol_spots(n: int, rot: int) -> tuple[tuple[str, tuple[float, float]], ...]:
    """(colour, point in corner radii) of each link's symbol on tile ``n`` at rotation ``rot``."""
    lks = tile_links(n, rot)
    return tuple((colour, lk.point(_symbol_t(lk, [o for _c, o in lks if o is not lk]))) for colour, lk in lks)


# --------------------------------------------------------------------------------- primitives
def draw_symbol(surf: pygame.Surface, shape: str, x: float, y: float, r: float, colour) -> None:
    """A filled symbol of 'radius' ``r`` px centred at (x, y) (no anti-aliasing: draw supersampled)."""
    if shape == "circle":
        pygame.draw.circle(surf, colour, (x, y), r * 0.92)
    elif shape == "triangle":
        pts = [(x + r * 1.12 * math.cos(math.radians(a)), y + r * 1.12 * math.sin(math.radians(a)) + r * 0.16)
               for a in (-90, 30, 150)]
        pygame.draw.polygon(surf, colour, pts)
    elif shape == "square":
        k = r * 0.8
        pygame.draw.rect(surf, colour, pygame.Rect(round(x - k), round(y - k), round(2 * k), round(2 * k)))
    else:  # diamond
        k = r * 1.12
        pygame.draw.polygon(surf, colour, [(x, y - k), (x + k, y), (x, y + k), (x - k, y)])


def _shade(c, f: float):
    return tuple(max(0, min(255, int(v * f))) for v in c)


def _mix(a, b, t: float):
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))


@lru_cache(maxsize=128)
def _cell_mask(s: int) -> np.ndarray:
    """Hard mask of the pixels (by their centres) that belong to cell (0, 0): indexed [x, y]."""
    lay = layout(s)
    w, h = lay.size
    xs = (np.arange(w) + 0.5 - lay.ox + 1e-3) / lay.sx
    ys = (np.arange(h) + 0.5 - lay.oy + 7e-4) / lay.sy
    ux, uy = np.meshgrid(xs, ys, indexing="ij")
    qf = SQRT3 / 3.0 * ux - uy / 3.0
    rf = 2.0 / 3.0 * uy
    sf = -qf - rf
    q, r, s3 = np.round(qf), np.round(rf), np.round(sf)
    dq, dr, ds = np.abs(q - qf), np.abs(r - rf), np.abs(s3 - sf)
    c1 = (dq > dr) & (dq > ds)
    q = np.where(c1, -r - s3, q)
    c2 = (~c1) & (dr > ds)
    r = np.where(c2, -q - s3, r)
    return (q == 0) & (r == 0)


def _palette_key(pal) -> tuple:
    return (pal.name, pal.tile, pal.tile_edge, tuple(sorted(pal.links.items())))


# ------------------------------------------------------------------------------------ sprites
class Sprite:
    """A rendered tile and the position of the hexagon's centre inside it."""

    __slots__ = ("surf", "ox", "oy")

    def __init__(self, surf: pygame.Surface, ox: int, oy: int):
        self.surf, self.ox, self.oy = surf, ox, oy

    def blit(self, target: pygame.Surface, cx: float, cy: float) -> None:
        target.blit(self.surf, (round(cx) - self.ox, round(cy) - self.oy))


_CACHE: dict[tuple, Sprite] = {}
_CACHE_BUDGET = 24_000_000      # pixels (about 96 MB) before the cache starts afresh
_cache_px = 0


def _remember(key, sprite: Sprite) -> Sprite:
    global _cache_px
    w, h = sprite.surf.get_size()
    if _cache_px + w * h > _CACHE_BUDGET:
        _CACHE.clear()
        _cache_px = 0
    _CACHE[key] = sprite
    _cache_px += w * h
    return sprite


def _render_tile(n: int, rot: int, s: int, pal, symbols: bool, board: bool) -> Sprite:
    lay = layout(s)
    w, h = lay.size
    big = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
    fx, fy = lay.sx * SS, lay.sy * SS
    ox, oy = lay.ox * SS, lay.oy * SS

    def tr(pts):
        return [(ox + x * fx, oy + y * fy) for x, y in pts]

    grow = (PAD * 0.9) / s if board else 0.0          # board sprites: paint past the edge, mask cuts
    rim_col = pal.tile_edge
    hexu = [(x * (1 + grow), y * (1 + grow)) for x, y in _HEX]
    pygame.draw.polygon(big, rim_col, tr(hexu))
    inner = 1.0 - RIM * (1.0 if s >= 24 else 0.6)
    pygame.draw.polygon(big, pal.tile, tr([(x * inner, y * inner) for x, y in _HEX]))
    # links
    lks = tile_links(n, rot)
    ext = (PAD + 1.0) / s
    half = BAND / 2.0
    for colour, lk in lks:
        steps = 40 if lk.kind == "gentle" else 28
        pygame.draw.polygon(big, pal.tile, tr(lk.band(half + CASING, ext, steps)))
        pygame.draw.polygon(big, pal.links[colour], tr(lk.band(half, ext, steps)))
    if symbols:
        r = max(2.2, BAND * 0.36 * s) * SS
        for colour, spot in _symbol_spots(n, rot):
            x, y = tr([spot])[0]
            draw_symbol(big, SYMBOL_SHAPES[colour], x, y, r, _shade(pal.links[colour], 0.18))
    surf = pygame.transform.smoothscale(big, (w, h))
    if board:
        alpha = pygame.surfarray.pixels_alpha(surf)
        alpha[...] = np.where(_cell_mask(s), 255, 0).astype(np.uint8)
        del alpha
    return Sprite(surf, lay.ox, lay.oy)


def tile_sprite(n: int, rot: int, s: int, pal, symbols: bool = False, board: bool = False) -> Sprite:
    """Tile ``n`` at rotation ``rot``, corner radius ``s`` px. ``board`` sprites have the hard cell
    mask (seamless next to other board sprites); the others have soft anti-aliased edges."""
    key = ("tile", n, rot % 6, int(s), _palette_key(pal), bool(symbols), bool(board))
    hit = _CACHE.get(key)
    if hit is None:
        hit = _remember(key, _render_tile(n, rot % 6, int(s), pal, symbols, board))
    return hit


def ghost_sprite(n: int, rot: int, s: int, pal, symbols: bool = False, alpha: int = 150) -> Sprite:
    """A translucent copy of the loose tile sprite."""
    key = ("ghost", n, rot % 6, int(s), _palette_key(pal), bool(symbols), alpha)
    hit = _CACHE.get(key)
    if hit is None:
        base = tile_sprite(n, rot, s, pal, symbols)
        surf = base.surf.copy()
        surf.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
        hit = _remember(key, Sprite(surf, base.ox, base.oy))
    return hit


def cell_sprite(s: int, fill=None, outline=None, width: float = 0.06, scale: float = 1.0) -> Sprite:
    """A hexagonal highlight: optional RGBA ``fill`` and RGBA ``outline`` (``width`` in corner radii)."""
    key = ("cell", int(s), fill, outline, width, scale)
    hit = _CACHE.get(key)
    if hit is None:
        lay = layout(s)
        w, h = lay.size
        big = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
        ox, oy = lay.ox * SS, lay.oy * SS

        def hexpts(k):
            return [(ox + x * lay.sx * SS * k, oy + y * lay.sy * SS * k) for x, y in _HEX]

        if outline is not None:
            pygame.draw.polygon(big, outline, hexpts(scale))
            inner = scale - width
            pygame.draw.polygon(big, fill if fill is not None else (0, 0, 0, 0), hexpts(inner))
        elif fill is not None:
            pygame.draw.polygon(big, fill, hexpts(scale))
        surf = pygame.transform.smoothscale(big, (w, h))
        hit = _remember(key, Sprite(surf, lay.ox, lay.oy))
    return hit


def glow_sprite(s: int, colour, strength: int = 170) -> Sprite:
    """A soft halo around a hexagon (blurred by shrinking and growing)."""
    key = ("glow", int(s), tuple(colour), strength)
    hit = _CACHE.get(key)
    if hit is None:
        lay = layout(s)
        m = max(6, round(s * 0.45))
        w, h = lay.size[0] + 2 * m, lay.size[1] + 2 * m
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        cx, cy = lay.ox + m, lay.oy + m
        pts = [(cx + x * lay.sx * 1.12, cy + y * lay.sy * 1.12) for x, y in _HEX]
        pygame.draw.polygon(surf, tuple(colour) + (strength,), pts)
        for f in (4, 3):
            small = pygame.transform.smoothscale(surf, (max(1, w // f), max(1, h // f)))
            surf = pygame.transform.smoothscale(small, (w, h))
        hit = _remember(key, Sprite(surf, cx, cy))
    return hit


def clear_cache() -> None:
    global _cache_px
    _CACHE.clear()
    _cache_px = 0
