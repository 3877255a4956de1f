"""Drawing Tokami end-on in an oblique projection (specs/tokami.md "Drawing"; research §2B "Rendering").

The world is seen from one end of the trough. Depth runs into the screen: depth ``d`` (in lanes, 0 = the
front face of lane 0) is shifted on screen by ``d * LANE_SHIFT`` px, so the back lanes sit up and to the
right. Across-sticks are bars one lane deep; along-sticks are squares running through all lanes, drawn
as prisms. Painting goes slice by slice from the back lane to the front one, so nearer sticks cover
farther ones.

Every colour also has a mark (circle, triangle, square, diamond, as in ``sim.app.theme.SYMBOLS``), drawn
on the front face of each stick, so no information is carried by colour alone.

Units: world mm (y up, origin at the crossing), screen px in the app's logical 1280x800 surface.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import pygame

from sim.app.widgets import draw_symbol, mix

from . import model

#: Screen shift (px) per lane of depth: farther lanes up and to the right.
LANE_SHIFT = (7.0, -5.0)
#: Link letter of each stick colour (theme palettes key colours by R, Y, B, G).
LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G"}
#: Mark drawn on each colour (colour-blind safe: shape as well as hue).
MARK = {"red": "circle", "yellow": "triangle", "blue": "square", "green": "diamond"}
WOOD_FRAME = (26, 26, 30)
WOOD_FRAME_EDGE = (92, 92, 104)
TABLE = (84, 62, 44)
TABLE_EDGE = (120, 92, 66)


@dataclass
class Projection:
    """World mm -> screen px: ``scale`` px per mm, the crossing at screen point ``origin``."""

    scale: float = 2.9
    origin: tuple[float, float] = (440.0, 500.0)

    def to_screen(self, x: float, y: float, depth: float = 0.0) -> tuple[float, float]:
        """Screen point of world (x, y) mm at ``depth`` lanes."""
        return (self.origin[0] + x * self.scale + depth * LANE_SHIFT[0],
                self.origin[1] - y * self.scale + depth * LANE_SHIFT[1])

    def to_world(self, px: float, py: float, depth: float = 0.0) -> tuple[float, float]:
        """World (x, y) mm under screen point (px, py) on the plane at ``depth`` lanes."""
        return ((px - depth * LANE_SHIFT[0] - self.origin[0]) / self.scale,
                (self.origin[1] + depth * LANE_SHIFT[1] - py) / self.scale)


def outline(pose: model.Pose) -> list[tuple[float, float]]:
    """World corners (mm) of the stick's outer box (the physics core grown by the bevel)."""
    kind, _lane, x, y, a = pose
    hx, hy = model.half_extents(kind)
    c, s = math.cos(a), math.sin(a)
    return [(x + vx * c - vy * s, y + vx * s + vy * c) for vx, vy in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy))]


def depth_range(pose: model.Pose) -> tuple[int, int]:
    """The lanes a stick occupies: (front, back) depth in lanes."""
    if pose[0] == "along":
        return 0, model.LANES
    return pose[1], pose[1] + 1


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _inside(poly: list[tuple[float, float]], p: tuple[float, float]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]):
            if p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def stick_colour(theme, colour: str) -> tuple[int, int, int]:
    return theme.links[LETTER[colour]]


def draw_prism(surface: pygame.Surface, proj: Projection, corners: list[tuple[float, float]], d0: float,
               d1: float, face: tuple[int, int, int], alpha: int = 255, edge=None) -> list:
    """A box face extruded from depth ``d0`` to ``d1`` lanes: side silhouette in a darker shade, then the
    front face with an edge. Returns the front face's screen polygon."""
    front = [proj.to_screen(x, y, d0) for x, y in corners]
    back = [proj.to_screen(x, y, d1) for x, y in corners]
    side = mix(face, (0, 0, 0), 0.42)
    top = mix(face, (0, 0, 0), 0.22)
    edge = edge if edge is not None else mix(face, (0, 0, 0), 0.6)
    target = surface
    if alpha < 255:
        target = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    hull = _hull(front + back)
    pygame.draw.polygon(target, side + ((alpha,) if alpha < 255 else ()), hull)
    # the faces whose outward normal points up-right (towards the back) show as lit tops
    n = len(corners)
    for i in range(n):
        a, b = front[i], front[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        nx, ny = ey, -ex   # outward normal on screen for a counter-clockwise world polygon (y flipped)
        if nx * LANE_SHIFT[0] + ny * LANE_SHIFT[1] > 0:
            quad = [a, b, back[(i + 1) % n], back[i]]
            pygame.draw.polygon(target, top + ((alpha,) if alpha < 255 else ()), quad)
    pygame.draw.polygon(target, face + ((alpha,) if alpha < 255 else ()), front)
    pygame.draw.polygon(target, edge + ((alpha,) if alpha < 255 else ()), front, 1)
    if target is not surface:
        surface.blit(target, (0, 0))
    return front


def draw_frame(surface: pygame.Surface, proj: Projection) -> None:
    """The table and the two boards of the X (8 mm thick, through all lanes and a little beyond)."""
    w, h = surface.get_size()
    ty = proj.to_screen(0, model.TABLE_Y + model.TABLE_RADIUS)[1]
    pygame.draw.rect(surface, TABLE, (0, ty, w, h - ty))
    pygame.draw.line(surface, TABLE_EDGE, (0, ty), (w, ty), 2)
    t = model.WING_TIP
    r = model.BOARD_HALF
    for sx in (1, -1):
        # a board from the lower wing tip to the upper one, as a thin box
        ang = math.atan2(t, sx * t)
        c, s = math.cos(ang), math.sin(ang)
        half = model.WING
        corners = [(-half * c + r * s, -half * s - r * c), (half * c + r * s, half * s - r * c),
                   (half * c - r * s, half * s + r * c), (-half * c - r * s, -half * s + r * c)]
        draw_prism(surface, proj, corners, -0.6, model.LANES + 0.6, WOOD_FRAME, edge=WOOD_FRAME_EDGE)


def dashed_line(surface: pygame.Surface, colour, a, b, dash: float = 10.0, width: int = 2) -> None:
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= 0:
        return
    n = int(length // dash)
    for i in range(0, n, 2):
        t0, t1 = i * dash / length, min(1.0, (i + 1) * dash / length)
        pygame.draw.line(surface, colour, (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0),
                         (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1), width)


@dataclass
class Look:
    """How to show the sticks this frame (all optional)."""

    held: int | None = None            #: stick in the hand: bright outline
    taboo: int | None = None           #: the taboo stick: hatched and marked
    hover: int | None = None           #: stick under the mouse
    tension: dict | None = None        #: id -> load 0..1 (tension tint)
    ghost: tuple | None = None         #: (pose, colour, ok) of a stick carried out of the plane
    dim_lanes: Iterable[int] = ()      #: across-sticks of these lanes drawn faded
    symbols: bool = True


def draw_sticks(surface: pygame.Surface, proj: Projection, poses: dict, colours, theme, look: Look) -> None:
    """Paint every stick of ``poses`` (id -> pose) back to front, each with its mark."""
    dim = set(look.dim_lanes)
    slices: dict[int, list[int]] = {}
    for sid, pose in poses.items():
        d0, d1 = depth_range(pose)
        for d in range(d0, d1):
            slices.setdefault(d, []).append(sid)
    ghost = look.ghost
    for d in range(model.LANES - 1, -1, -1):
        for sid in slices.get(d, []):
            pose = poses[sid]
            colour = colours[sid] if colours is not None and colours[sid] else "blue"
            face = stick_colour(theme, colour)
            alpha = 110 if (pose[0] == "across" and pose[1] in dim) else 255
            corners = outline(pose)
            front_d = depth_range(pose)[0]
            if d != front_d:
                # an inner slice of an along-stick: only its sides matter (the front slice covers it)
                draw_prism(surface, proj, corners, d, d + 1, face, alpha)
                continue
            front = draw_prism(surface, proj, corners, d, depth_range(pose)[1] if pose[0] == "across" else d + 1,
                               face, alpha)
            _decorate(surface, proj, sid, pose, front, colour, theme, look)
        if ghost is not None:
            gpose, gcolour, ok = ghost
            g0, g1 = depth_range(gpose)
            if g0 == d:
                face = stick_colour(theme, gcolour)
                front = draw_prism(surface, proj, outline(gpose), g0, g1, face, 150,
                                   edge=theme.good if ok else theme.bad)
                pygame.draw.polygon(surface, theme.good if ok else theme.bad, front, 3)


def _decorate(surface, proj, sid, pose, front, colour, theme, look: Look) -> None:
    kind = pose[0]
    cx = sum(p[0] for p in front) / 4
    cy = sum(p[1] for p in front) / 4
    size = proj.scale * model.STICK_THICK * 0.55
    ink = (20, 20, 24) if colour in ("yellow", "green") else (245, 245, 245)
    if look.symbols:
        if kind == "along":
            draw_symbol(surface, MARK[colour], (cx, cy), size, ink)
        else:
            a = pose[4]
            step = model.STICK_LENGTH * 0.3 * proj.scale
            for k in (-1, 0, 1):
                draw_symbol(surface, MARK[colour], (cx + k * step * math.cos(a), cy - k * step * math.sin(a)),
                            size * 0.8, ink)
    if look.tension and look.tension.get(sid, 0.0) > 0.05:
        # tension tint: a warm edge, brighter and thicker the more load the stick carries
        t = max(0.0, min(1.0, look.tension[sid]))
        pygame.draw.polygon(surface, mix((255, 170, 60), (255, 40, 40), t), front, 1 + int(3 * t))
    if sid == look.taboo:
        # taboo: a cross over the face and a thick dark edge
        pygame.draw.line(surface, (10, 10, 10), front[0], front[2], 3)
        pygame.draw.line(surface, (10, 10, 10), front[1], front[3], 3)
        pygame.draw.polygon(surface, (10, 10, 10), front, 3)
    if sid == look.hover and sid != look.held:
        pygame.draw.polygon(surface, theme.highlight, front, 2)
    if sid == look.held:
        pygame.draw.polygon(surface, theme.accent, front, 4)


def pick(proj: Projection, poses: dict, point: tuple[float, float]) -> int | None:
    """The stick under screen ``point``: the one whose visible front face contains it, nearest lane
    first; then the one whose drawn prism contains it (front first). None if none does."""
    best: tuple[int, int] | None = None
    for sid, pose in poses.items():
        d0, d1 = depth_range(pose)
        front = [proj.to_screen(x, y, d0) for x, y in outline(pose)]
        if _inside(front, point):
            key = (d0, sid)
            if best is None or key < best:
                best = key
    if best is not None:
        return best[1]
    for sid, pose in sorted(poses.items(), key=lambda kv: depth_range(kv[1])[0]):
        d0, d1 = depth_range(pose)
        corners = outline(pose)
        hull = _hull([proj.to_screen(x, y, d0) for x, y in corners] + [proj.to_screen(x, y, d1) for x, y in corners])
        if _inside(hull, point):
            return sid
    return None


def height_line(surface: pygame.Surface, proj: Projection, y_mm: float, colour, font, label: str) -> None:
    """The height to beat: a dashed line across the trough at ``y_mm`` with its label (mm)."""
    a = proj.to_screen(-model.WING_TIP - 20, y_mm)
    b = proj.to_screen(model.WING_TIP + 20, y_mm, model.LANES)
    b = (b[0], a[1])
    dashed_line(surface, colour, a, b)
    img = font.render(label, True, colour)
    surface.blit(img, (b[0] + 6, b[1] - img.get_height() // 2))
