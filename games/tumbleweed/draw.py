"""Drawing of the Tumbleweed board pieces: hexes, stacks of tokens, overlay marks (pygame).

Sizes are in logical px; ``s`` is a hex's corner radius (pointy-top, as ``sim.core.hexgrid``). The
three stack colours differ by pattern and lightness as well as hue (specs/DESIGN.md "App": no
information by colour alone): **red** tokens are plain dark discs, **white** tokens are light discs with
an inner ring, the **neutral** stack is grey hexagonal tokens with a cross-hatch. A stack of height h
is drawn as h tokens piled with a small vertical offset, its height written on the top token.

Stack sprites are cached per screen (:class:`Stacks`); nothing here touches game state.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import pygame

from sim.app.widgets import mix
from sim.core.hexgrid import corners

from .rules import NEUTRAL, RED, WHITE

RGB = tuple[int, int, int]

#: Board colours (independent of the palette: a wooden board under every theme).
CELL = (178, 152, 112)
CELL_EDGE = (112, 92, 64)
BOARD_RIM = (92, 74, 50)
WHITE_TOKEN = (238, 235, 226)
WHITE_EDGE = (120, 116, 108)
NEUTRAL_TOKEN = (128, 128, 136)
NEUTRAL_EDGE = (64, 64, 70)
GREY_TOKEN = (150, 150, 150)
LAST_MOVE = (250, 226, 70)          # the seed's "yellow tone"
CAPTURE_MARK = (86, 180, 233)       # Okabe-Ito sky blue: non-suicidal captures
CONTESTED = (240, 150, 140)         # the seed's "light red" for contested hexes
#: How far a controlled empty hex is tinted towards its controller's token colour (influence overlay).
RED_TINT, WHITE_TINT = 0.4, 0.6


def territory_fill(owner: int, red: RGB) -> RGB:
    """Fill of an empty hex controlled by ``owner`` (RED/WHITE) in the influence overlay."""
    return mix(CELL, red, RED_TINT) if owner == RED else mix(CELL, WHITE_TOKEN, WHITE_TINT)


def red_colour(theme: Any) -> RGB:
    """Red tokens: the palette's red link colour (vermillion in the colour-blind palette)."""
    return tuple(theme.links.get("R", (200, 50, 40)))  # type: ignore[return-value]


def token_colours(owner: int, red: RGB, grey: bool = False) -> tuple[RGB, RGB, RGB]:
    """``(fill, edge, text)`` colours of a token of ``owner`` (RED/WHITE/NEUTRAL), red tokens being
    ``red``; ``grey`` for a suicidal preview (Beginner/Intermediate aid)."""
    if grey:
        return GREY_TOKEN, (90, 90, 90), (30, 30, 30)
    if owner == RED:
        return red, mix(red, (0, 0, 0), 0.45), (255, 255, 255)
    if owner == WHITE:
        return WHITE_TOKEN, WHITE_EDGE, (30, 30, 30)
    return NEUTRAL_TOKEN, NEUTRAL_EDGE, (255, 255, 255)


def hex_points(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    """Corners of the pointy-top hex of corner radius ``s`` px centred at (cx, cy)."""
    return corners(cx, cy, s)


def _token(surf: pygame.Surface, owner: int, cx: float, cy: float, r: float, fill: RGB, edge: RGB,
           top: bool, pattern: bool) -> None:
    """One token: a disc (red/white) or a hexagonal token (neutral), rim shaded, patterned on top."""
    rim = mix(fill, (0, 0, 0), 0.28)
    if owner == NEUTRAL:
        pts = [(cx + r * math.cos(math.radians(60 * i)), cy + r * 0.92 * math.sin(math.radians(60 * i)))
               for i in range(6)]
        low = [(x, y + r * 0.16) for x, y in pts]
        pygame.draw.polygon(surf, rim, low)
        pygame.draw.polygon(surf, edge, low, 1)
        pygame.draw.polygon(surf, fill, pts)
        pygame.draw.polygon(surf, edge, pts, max(1, round(r * 0.08)))
        if top and pattern:   # cross-hatch
            clip = surf.get_clip()
            box = pygame.Rect(0, 0, int(r * 1.3), int(r * 1.1))
            box.center = (int(cx), int(cy))
            surf.set_clip(box.clip(clip) if clip else box)
            step = max(3, round(r * 0.32))
            line = mix(fill, (0, 0, 0), 0.3)
            for k in range(-4, 5):
                x0 = cx + k * step
                pygame.draw.line(surf, line, (x0 - r, cy - r), (x0 + r, cy + r), 1)
                pygame.draw.line(surf, line, (x0 + r, cy - r), (x0 - r, cy + r), 1)
            surf.set_clip(clip)
        return
    pygame.draw.circle(surf, rim, (cx, cy + r * 0.16), r)
    pygame.draw.circle(surf, edge, (cx, cy + r * 0.16), r, 1)
    pygame.draw.circle(surf, fill, (cx, cy), r)
    pygame.draw.circle(surf, edge, (cx, cy), r, max(1, round(r * 0.07)))
    if top and pattern and owner == WHITE:   # the white pattern: an inner ring
        pygame.draw.circle(surf, mix(fill, edge, 0.75), (cx, cy), r * 0.74, max(1, round(r * 0.1)))


class Stacks:
    """Stack sprites for one screen, cached per (owner, height, size, colours, preview style).

    ``font(size)`` returns the bold font of that size in px (the app's bundled font)."""

    def __init__(self, font: Callable[[int], pygame.font.Font]):
        self.font = font
        self._cache: dict[tuple, tuple[pygame.Surface, tuple[int, int]]] = {}

    def surface(self, owner: int, height: int, s: int, red: RGB, grey: bool = False, number: bool = True,
                alpha: int = 255) -> tuple[pygame.Surface, tuple[int, int]]:
        """A stack of ``height`` tokens of ``owner`` for a hex of corner radius ``s`` px, and the offset
        of the hex centre inside the surface. ``number`` writes the height on the top token; ``alpha``
        < 255 makes a see-through preview."""
        key = (owner, max(1, int(height)), int(s), tuple(red), grey, number, alpha)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > 600:
                self._cache.clear()
            hit = self._cache[key] = self._make(*key)
        return hit

    def _make(self, owner: int, height: int, s: int, red: RGB, grey: bool, number: bool,
              alpha: int) -> tuple[pygame.Surface, tuple[int, int]]:
        fill, edge, text = token_colours(owner, red, grey)
        r = s * 0.62
        dy = max(1.5, s * 0.085)
        w = int(2 * r + 6)
        h = int(2 * r + 6 + dy * (height - 1) + r * 0.2)
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        cx = w / 2
        base = h - 3 - r * 1.16
        for k in range(height):
            _token(surf, owner, cx, base - k * dy, r, fill, edge, k == height - 1, True)
        top_y = base - (height - 1) * dy
        if number:
            img = self.font(max(7, round(s * 0.62))).render(str(height), True, text)
            surf.blit(img, img.get_rect(center=(round(cx), round(top_y + 1))))
        if alpha < 255:
            tint = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            tint.fill((255, 255, 255, alpha))
            surf.blit(tint, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        # the hex centre sits at the middle of the stack's footprint
        return surf, (int(cx), int(base - (height - 1) * dy / 2))

    def blit(self, surface: pygame.Surface, owner: int, height: int, centre: tuple[float, float], s: int,
             red: RGB, grey: bool = False, number: bool = True, alpha: int = 255) -> pygame.Rect:
        """Draw a stack centred on the hex centre ``centre`` (px); returns the area drawn."""
        img, (ox, oy) = self.surface(owner, height, s, red, grey, number, alpha)
        return surface.blit(img, (round(centre[0] - ox), round(centre[1] - oy)))


def dashed_hex(surface: pygame.Surface, cx: float, cy: float, s: float, colour: RGB, width: int,
               dashes: int = 3) -> None:
    """A hex outline drawn as ``dashes`` dashes per side."""
    pts = hex_points(cx, cy, s)
    for i in range(6):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % 6]
        for k in range(dashes):
            a, b = (k + 0.2) / dashes, (k + 0.8) / dashes
            pygame.draw.line(surface, colour, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                             (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), width)


_STRIPES: dict[tuple, pygame.Surface] = {}


def stripes(surface: pygame.Surface, cx: float, cy: float, s: float, colour: RGB, width: int = 2) -> None:
    """Diagonal stripes clipped to the hex (the contested-hex pattern); the sprite is cached per size."""
    key = (round(s, 2), tuple(colour), width)
    img = _STRIPES.get(key)
    if img is None:
        r = s * 0.9
        step = max(4, round(s * 0.34))
        size = int(2 * s) + 2
        img = pygame.Surface((size, size), pygame.SRCALPHA)
        c = s + 1
        for k in range(-6, 7):
            x = c + k * step
            pygame.draw.line(img, tuple(colour) + (255,), (x - r, c + r), (x + r, c - r), width)
        cut = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.polygon(cut, (255, 255, 255, 255), hex_points(c, c, s * 0.86))
        img.blit(cut, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        if len(_STRIPES) > 32:
            _STRIPES.clear()
        _STRIPES[key] = img
    surface.blit(img, (round(cx - s - 1), round(cy - s - 1)))
