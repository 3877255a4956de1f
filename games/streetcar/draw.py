"""Streetcar art, drawn from the component data (no image files): track tiles, terminals, buildings,
stop signs, trams and dice.

Every picture is built from :mod:`.data` and :mod:`.tiles`: a tile's tracks come from its pair mask
(``tiles.ORIENT``), a terminal's loop from its fixed curves (``tiles.BASE_TRACKS``). A track between
opposite sides is straight; between neighbouring sides it is a quarter circle of radius half a square
around the corner they share (research/tram.md §3.1: every track is straight or a quarter curve).

Colours never carry information alone (specs/DESIGN.md "App"): lines carry their number, exchangeable
(brown) tiles differ from tree (green) tiles by their trees, dice faces carry a symbol and a caption.
Sizes are in logical px; a square is ``s`` px wide.
"""
from __future__ import annotations

import math
from typing import Any

import pygame

from .data import N, E, S, W, LINE_COLOURS
from .tiles import EXCHANGEABLE, ORIENT, PAIRS

RGB = tuple[int, int, int]

#: Line colours (the 1995 line cards: red, yellow, green, blue, violet, white) in Okabe-Ito tones so
#: they stay apart for colour-blind players; the number is always drawn with them.
LINE_RGB: dict[int, RGB] = {1: (213, 94, 0), 2: (240, 228, 66), 3: (0, 158, 115), 4: (0, 114, 178),
                            5: (204, 121, 167), 6: (236, 236, 236)}
#: Text colour on each line colour.
LINE_INK: dict[int, RGB] = {1: (255, 255, 255), 2: (24, 24, 24), 3: (16, 16, 16), 4: (255, 255, 255),
                            5: (24, 24, 24), 6: (24, 24, 24)}

STREET = (60, 64, 70)          # an empty square
STREET_EDGE = (74, 79, 87)
RING = (44, 48, 54)            # the frame around the board
BROWN = (156, 112, 72)         # exchangeable tiles
BROWN_EDGE = (110, 76, 46)
GREEN = (96, 142, 78)          # tree tiles (never exchanged)
GREEN_EDGE = (62, 100, 50)
TREE = (40, 92, 44)
TREE_LIGHT = (70, 128, 64)
BED = (58, 48, 42)             # the rail bed
RAIL = (214, 214, 204)
BUILDING = (200, 190, 164)
BUILDING_EDGE = (120, 110, 92)
BUILDING_INK = (46, 40, 34)
SIGN = (250, 204, 48)
SIGN_INK = (30, 30, 30)
DIE = (246, 244, 236)
DIE_EDGE = (90, 90, 96)
LAMP_GREEN = (40, 200, 90)
LAMP_RED = (226, 60, 48)
HOUSING = (36, 36, 40)

#: Short captions under the dice faces.
FACE_CAPTION = {"GO1": "1 square", "GO2": "2 squares", "GO3": "3 squares", "GO4": "4 squares",
                "RED": "no move", "H": "next stop", "TOOLS": "back"}


def line_name(line: int) -> str:
    """"Line 3 (green)"."""
    return f"Line {line} ({LINE_COLOURS[line]})"


# ------------------------------------------------------------------------------ track geometry
_MID = {N: (0.5, 0.0), E: (1.0, 0.5), S: (0.5, 1.0), W: (0.0, 0.5)}
_CORNER = {frozenset((N, E)): (1.0, 0.0), frozenset((E, S)): (1.0, 1.0), frozenset((S, W)): (0.0, 1.0),
           frozenset((W, N)): (0.0, 0.0)}


def track_line(a: int, b: int, s: float, offset: float = 0.0, steps: int = 10) -> list[tuple[float, float]]:
    """Points (px, in a square of side ``s`` with its top left at 0, 0) along the track joining sides
    ``a`` and ``b``, shifted ``offset`` px sideways (toward the corner for curves; east/south for
    straights)."""
    if (a + 2) % 4 == b:
        (x0, y0), x1 = _MID[a], _MID[b][0]
        if x0 == x1:     # north-south
            x = x0 * s + offset
            return [(x, 0.0), (x, float(s))]
        y = y0 * s + offset
        return [(0.0, y), (float(s), y)]
    cx, cy = _CORNER[frozenset((a, b))]
    cx, cy = cx * s, cy * s
    ang = []
    for side in (a, b):
        mx, my = _MID[side]
        ang.append(math.atan2(my * s - cy, mx * s - cx))
    a0, a1 = ang
    if a1 - a0 > math.pi:
        a1 -= 2 * math.pi
    elif a0 - a1 > math.pi:
        a1 += 2 * math.pi
    r = s / 2 - offset
    return [(cx + r * math.cos(a0 + (a1 - a0) * k / steps), cy + r * math.sin(a0 + (a1 - a0) * k / steps))
            for k in range(steps + 1)]


def pairs_of_mask(mask: int) -> list[tuple[int, int]]:
    """The tracks of a pair mask as side pairs ``(a, b)``, straights last (so they show on top)."""
    out = [p for i, p in enumerate(PAIRS) if mask >> i & 1]
    return sorted(out, key=lambda p: (p[1] - p[0]) % 2 == 0)


def draw_tracks(surface: pygame.Surface, origin: tuple[float, float], s: float,
                pairs: list[tuple[int, int]], bed: RGB = BED, rail: RGB | None = RAIL) -> None:
    """Draw tracks (side pairs) in the square of side ``s`` px at ``origin``: the beds first, then the
    two rails of each, so a crossing reads as two continuous tracks."""
    ox, oy = origin
    w = s * 0.15
    for a, b in pairs:
        outer = track_line(a, b, s, w)
        inner = track_line(a, b, s, -w)
        pts = [(ox + x, oy + y) for x, y in outer + inner[::-1]]
        pygame.draw.polygon(surface, bed, pts)
    if rail is None:
        return
    r = s * 0.075
    width = max(1, round(s / 26))
    for a, b in pairs:
        for off in (r, -r):
            pts = [(ox + x, oy + y) for x, y in track_line(a, b, s, off)]
            pygame.draw.lines(surface, rail, False, pts, width)


def draw_band(surface: pygame.Surface, origin: tuple[float, float], s: float, pairs: list[tuple[int, int]],
              colour: RGB) -> None:
    """A narrow band in ``colour`` between the rails of each track (a player's network)."""
    ox, oy = origin
    w = s * 0.045
    for a, b in pairs:
        outer = track_line(a, b, s, w)
        inner = track_line(a, b, s, -w)
        pygame.draw.polygon(surface, colour, [(ox + x, oy + y) for x, y in outer + inner[::-1]])


# ------------------------------------------------------------------------------ sprites
class Art:
    """Cached sprites at square size ``s`` px: tiles by ``(tile, rot)``, the empty street square."""

    def __init__(self, s: int):
        self.s = int(s)
        self._tiles: dict[tuple[int, int, int], pygame.Surface] = {}

    def tile(self, tile: int, rot: int, size: int | None = None) -> pygame.Surface:
        """Tile ``tile`` at rotation ``rot`` as a ``size`` px square (default ``s``): a brown or green
        (with trees) board and its tracks."""
        size = int(size or self.s)
        key = (tile, rot, size)
        img = self._tiles.get(key)
        if img is None:
            img = self._tiles[key] = tile_surface(tile, rot, size)
        return img


def tile_surface(tile: int, rot: int, size: int) -> pygame.Surface:
    """A fresh picture of tile ``tile`` at rotation ``rot``, ``size`` px square."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    brown = tile in EXCHANGEABLE
    fill, edge = (BROWN, BROWN_EDGE) if brown else (GREEN, GREEN_EDGE)
    rect = pygame.Rect(1, 1, size - 2, size - 2)
    radius = max(2, size // 10)
    pygame.draw.rect(surf, fill, rect, border_radius=radius)
    pygame.draw.rect(surf, edge, rect, max(1, size // 30), border_radius=radius)
    if not brown:   # trees in the four corners: tracks are drawn over the ones they cross
        for cx, cy in ((0.17, 0.17), (0.83, 0.17), (0.83, 0.83), (0.17, 0.83)):
            c = (cx * size, cy * size)
            pygame.draw.circle(surf, TREE, c, size * 0.11)
            pygame.draw.circle(surf, TREE_LIGHT, (c[0] - size * 0.03, c[1] - size * 0.03), size * 0.05)
    draw_tracks(surf, (0, 0), size, pairs_of_mask(ORIENT[tile][rot]))
    return surf


def draw_terminal(surface: pygame.Surface, cells: list[tuple[int, int]], masks: list[int], line: int,
                  s: float, font: Any, outward: tuple[int, int], mark: bool = False) -> None:
    """One terminal: its two ring squares (top-left corners ``cells`` in px) in the line colour with the
    fixed loop (``masks``) and the line number on the outer half. ``outward`` is the unit step away
    from the board; ``mark`` rings it (the terminals of the player whose cards are shown)."""
    colour = LINE_RGB[line]
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    box = pygame.Rect(min(xs) + 2, min(ys) + 2, max(xs) - min(xs) + s - 4, max(ys) - min(ys) + s - 4)
    dark = tuple(int(v * 0.55) for v in colour)
    pygame.draw.rect(surface, dark, box, border_radius=int(s * 0.3))
    pygame.draw.rect(surface, colour, box, max(2, int(s * 0.06)), border_radius=int(s * 0.3))
    for (x, y), m in zip(cells, masks):
        draw_tracks(surface, (x, y), s, pairs_of_mask(m), bed=BED, rail=colour)
    cx, cy = box.center
    lx, ly = cx + outward[0] * s * 0.30, cy + outward[1] * s * 0.30
    pygame.draw.circle(surface, colour, (lx, ly), s * 0.2)
    pygame.draw.circle(surface, (20, 20, 20), (lx, ly), s * 0.2, 1)
    img = font.render(str(line), True, LINE_INK[line])
    surface.blit(img, img.get_rect(center=(lx, ly + 1)))
    if mark:
        pygame.draw.rect(surface, (255, 255, 255), box.inflate(6, 6), 2, border_radius=int(s * 0.34))


def draw_building(surface: pygame.Surface, rect: pygame.Rect, letter: str, font: Any) -> None:
    """A building square: a block with its letter."""
    r = rect.inflate(-4, -4)
    pygame.draw.rect(surface, BUILDING, r, border_radius=6)
    pygame.draw.rect(surface, BUILDING_EDGE, r, 2, border_radius=6)
    roof = r.inflate(-r.w * 0.3, -r.h * 0.3)
    pygame.draw.rect(surface, (184, 172, 144), roof, border_radius=4)
    img = font.render(letter, True, BUILDING_INK)
    surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))


def draw_sign(surface: pygame.Surface, centre: tuple[float, float], letter: str, radius: float, font: Any,
              toward: tuple[int, int] | None = None) -> None:
    """A stop sign: a post from the sign toward its building (``toward``: unit step (dx, dy)), and a
    yellow disc of ``radius`` px with a white rim, a dark edge and the building's letter, readable over
    any track."""
    cx, cy = centre
    if toward is not None:
        dx, dy = toward
        end = (cx + dx * radius * 1.9, cy + dy * radius * 1.9)
        pygame.draw.line(surface, SIGN_INK, (cx, cy), end, max(3, int(radius / 3)))
    pygame.draw.circle(surface, (250, 250, 250), centre, radius + 2)
    pygame.draw.circle(surface, SIGN, centre, radius)
    pygame.draw.circle(surface, SIGN_INK, centre, radius, max(2, int(radius / 5)))
    img = font.render(letter, True, SIGN_INK)
    surface.blit(img, img.get_rect(center=(cx, cy + 1)))


def draw_tram(surface: pygame.Surface, centre: tuple[float, float], heading: int, line: int, s: float,
              font: Any) -> None:
    """A tram of ``line`` at ``centre`` pointing to side ``heading`` (N E S W), with its number."""
    long, short = s * 0.74, s * 0.44
    w, h = (long, short) if heading in (E, W) else (short, long)
    r = pygame.Rect(0, 0, int(w), int(h))
    r.center = (int(centre[0]), int(centre[1]))
    shadow = r.move(2, 3)
    pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=int(short * 0.35))
    pygame.draw.rect(surface, (250, 250, 250), r.inflate(6, 6), border_radius=int(short * 0.45))
    pygame.draw.rect(surface, LINE_RGB[line], r, border_radius=int(short * 0.35))
    pygame.draw.rect(surface, (16, 16, 16), r, 2, border_radius=int(short * 0.35))
    # the front: a lighter windscreen on the heading side
    dx, dy = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}[heading]
    fx, fy = r.centerx + dx * (w / 2 - short * 0.22), r.centery + dy * (h / 2 - short * 0.22)
    pygame.draw.circle(surface, (250, 250, 240), (fx, fy), short * 0.14)
    img = font.render(str(line), True, LINE_INK[line])
    surface.blit(img, img.get_rect(center=(r.centerx - dx * short * 0.2, r.centery - dy * short * 0.2 + 1)))


def draw_die(surface: pygame.Surface, rect: pygame.Rect, face: str, font: Any, big_font: Any,
             dim: bool = False) -> None:
    """One die showing ``face`` (data.FACES): traffic lights for the green and red faces, H, the tools
    (hammer and pick), or a number (the classic die's 3 and 4)."""
    pygame.draw.rect(surface, DIE, rect, border_radius=rect.w // 6)
    pygame.draw.rect(surface, DIE_EDGE, rect, 2, border_radius=rect.w // 6)
    cx, cy = rect.center
    u = rect.w
    if face in ("GO1", "GO2", "RED"):
        lamps = 2 if face == "GO2" else 1
        hw, hh = u * 0.34, u * (0.36 if lamps == 1 else 0.64)
        housing = pygame.Rect(0, 0, int(hw), int(hh))
        housing.center = (cx, cy)
        pygame.draw.rect(surface, HOUSING, housing, border_radius=int(hw / 2))
        col = LAMP_RED if face == "RED" else LAMP_GREEN
        ys = [cy] if lamps == 1 else [cy - hh * 0.24, cy + hh * 0.24]
        for y in ys:
            pygame.draw.circle(surface, col, (cx, y), hw * 0.34)
            pygame.draw.circle(surface, (255, 255, 255), (cx - hw * 0.1, y - hw * 0.1), hw * 0.08)
        if face == "RED":   # a bar across the lamp: "stop" without the colour
            pygame.draw.line(surface, (255, 255, 255), (cx - hw * 0.22, cy), (cx + hw * 0.22, cy), max(2, u // 18))
    elif face == "H":
        img = big_font.render("H", True, (20, 60, 140))
        surface.blit(img, img.get_rect(center=(cx, cy + 1)))
    elif face == "TOOLS":
        img = big_font.render("⚒", True, (40, 40, 44))
        surface.blit(img, img.get_rect(center=(cx, cy + 1)))
    else:
        img = big_font.render(face[2:], True, (20, 110, 50))
        surface.blit(img, img.get_rect(center=(cx, cy + 1)))
    if dim:
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 130))
        surface.blit(shade, rect.topleft)
