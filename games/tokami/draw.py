"""Drawing Tokami end-on in an oblique projection (specs/tokami.md "Drawing"; research §2B "Rendering").

The world is seen from one end of the trough. Depth runs into the screen: depth ``d`` (in lanes, 0 = the
front face of lane 0) is shifted on screen by ``d * LANE_SHIFT`` px, so the back lanes sit up and to the
right. Across-sticks are bars one lane deep; along-sticks are squares running through all lanes, drawn
as prisms. Painting goes slice by slice from the back lane to the front one, so nearer sticks cover
farther ones.

Every colour also has a mark (circle, triangle, square, diamond, as in ``sim.app.theme.SYMBOLS``), drawn
on the front face of each stick, so no information is carried by colour alone. The taboo stick is
hatched and edged in black; a stick under load gets a warm edge (the tension tint); a stick still
moving gets a pale shimmer (the wobble cue).

Drawing reads poses and never changes them. Units: world mm (y up, origin at the crossing), screen px
in the app's logical 1280x800 surface.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

import pygame

from sim.app.widgets import draw_symbol, mix

from . import model

#: Screen shift (px) per lane of depth: farther lanes up and to the right.
LANE_SHIFT = (10.0, -7.0)
#: Link letter of each stick colour (theme palettes key colours by R, Y, B, G).
LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G"}
#: Mark drawn on each colour (colour-blind safe: shape as well as hue).
MARK = {"red": "circle", "yellow": "triangle", "blue": "square", "green": "diamond"}
WOOD_FRAME = (26, 26, 30)
WOOD_FRAME_EDGE = (92, 92, 104)
TABLE = (84, 62, 44)
TABLE_EDGE = (120, 92, 66)
TABOO_INK = (12, 12, 14)
#: Tension tint: loads (in stick weights, ``TokamiWorld.loads``) from LOW show, at HIGH it is full.
TENSION_LOW = 3.0
TENSION_HIGH = 12.0


@dataclass
class Projection:
    """World mm -> screen px: ``scale`` px per mm, the crossing at screen point ``origin``."""

    scale: float = 2.5
    origin: tuple[float, float] = (452.0, 566.0)

    def to_screen(self, x: float, y: float, depth: float = 0.0) -> tuple[float, float]:
        """Screen point of world (x, y) mm at ``depth`` lanes."""
        return (self.origin[0] + x * self.scale + depth * LANE_SHIFT[0],
                self.origin[1] - y * self.scale + depth * LANE_SHIFT[1])

    def to_world(self, px: float, py: float, depth: float = 0.0) -> tuple[float, float]:
        """World (x, y) mm under screen point (px, py) on the plane at ``depth`` lanes."""
        return ((px - depth * LANE_SHIFT[0] - self.origin[0]) / self.scale,
                (self.origin[1] + depth * LANE_SHIFT[1] - py) / self.scale)


def outline(pose: model.Pose) -> list[tuple[float, float]]:
    """World corners (mm) of the stick's outer box (the physics core grown by the bevel), counter-
    clockwise."""
    kind, _lane, x, y, a = pose
    hx, hy = model.half_extents(kind)
    c, s = math.cos(a), math.sin(a)
    return [(x + vx * c - vy * s, y + vx * s + vy * c) for vx, vy in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy))]


def depth_range(pose: model.Pose) -> tuple[int, int]:
    """The lanes a stick occupies: (front, back) depth in lanes."""
    if pose[0] == "along":
        return 0, model.LANES
    return pose[1], pose[1] + 1


def front_face(proj: Projection, pose: model.Pose) -> list[tuple[float, float]]:
    """Screen polygon (px) of the stick's front face."""
    d0 = depth_range(pose)[0]
    return [proj.to_screen(x, y, d0) for x, y in outline(pose)]


def front_face_centre(proj: Projection, pose: model.Pose) -> tuple[float, float]:
    """Screen point (px) of the centre of the stick's front face."""
    return proj.to_screen(pose[2], pose[3], depth_range(pose)[0])


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


def stick_colour(theme, colour: str | None) -> tuple[int, int, int]:
    """The palette's colour of a stick colour name (a neutral wood tone for an unknown one)."""
    if colour not in LETTER:
        return (150, 120, 90)
    return theme.links[LETTER[colour]]


_SHADES: dict = {}


def _shades(face: tuple[int, int, int]) -> tuple:
    """(top, side, edge) shades of a face colour (cached)."""
    sh = _SHADES.get(face)
    if sh is None:
        sh = (mix(face, (0, 0, 0), 0.22), mix(face, (0, 0, 0), 0.42), mix(face, (0, 0, 0), 0.6))
        if len(_SHADES) > 256:
            _SHADES.clear()
        _SHADES[face] = sh
    return sh


def _prism_parts(proj: Projection, corners, d0: float, d1: float):
    """Screen polygons of a box face extruded from depth ``d0`` to ``d1``: the front face and the side
    faces that show (those turned towards the back, each with whether it faces up). The front face
    and these sides cover the whole prism (the other sides lie behind the front face)."""
    front = [proj.to_screen(x, y, d0) for x, y in corners]
    dx = (d1 - d0) * LANE_SHIFT[0]
    dy = (d1 - d0) * LANE_SHIFT[1]
    sides = []
    n = len(corners)
    for i in range(n):
        a, b = front[i], front[(i + 1) % n]
        nx, ny = a[1] - b[1], b[0] - a[0]   # outward normal on screen (counter-clockwise world polygon)
        if nx * dx + ny * dy > 0:
            sides.append(([a, b, (b[0] + dx, b[1] + dy), (a[0] + dx, a[1] + dy)], ny < -abs(nx) * 0.2))
    return front, sides


def draw_prism(surface: pygame.Surface, proj: Projection, corners: list[tuple[float, float]], d0: float,
               d1: float, face: tuple[int, int, int], alpha: int = 255, edge=None, front_face: bool = True) -> list:
    """A box face extruded from depth ``d0`` to ``d1`` lanes: the sides that show (the upper ones lit,
    the others darker), then the front face with an edge (unless ``front_face`` is False). With
    ``alpha`` < 255 the whole prism is see-through. Returns the front face's screen polygon."""
    front, sides = _prism_parts(proj, corners, d0, d1)
    top, side, dark = _shades(face)
    edge = edge if edge is not None else dark
    if alpha >= 255:
        for quad, up in sides:
            pygame.draw.polygon(surface, top if up else side, quad)
        if front_face:
            pygame.draw.polygon(surface, face, front)
            pygame.draw.polygon(surface, edge, front, 1)
        return front
    # see-through: draw on a small surface the size of the prism, then blend it in
    pts = front + [p for quad, _up in sides for p in quad]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    ox, oy = math.floor(min(xs)) - 2, math.floor(min(ys)) - 2
    w, h = math.ceil(max(xs)) - ox + 3, math.ceil(max(ys)) - oy + 3
    layer = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)

    def sh(poly):
        return [(x - ox, y - oy) for x, y in poly]

    for quad, up in sides:
        pygame.draw.polygon(layer, (top if up else side) + (alpha,), sh(quad))
    if front_face:
        pygame.draw.polygon(layer, face + (alpha,), sh(front))
        pygame.draw.polygon(layer, edge + (min(255, alpha + 60),), sh(front), 1)
    surface.blit(layer, (ox, oy))
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


def _hatch(surface: pygame.Surface, poly: list[tuple[float, float]], colour, spacing: float = 7.0,
           width: int = 2) -> None:
    """Diagonal stripes (45°, down-left to up-right) across a convex screen polygon."""
    vals = [x + y for x, y in poly]
    lo, hi = min(vals), max(vals)
    n = len(poly)
    k = lo + spacing / 2
    while k < hi:
        pts = []
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            f1, f2 = x1 + y1 - k, x2 + y2 - k
            if (f1 <= 0 < f2) or (f2 <= 0 < f1):
                t = f1 / (f1 - f2)
                pts.append((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t))
        if len(pts) >= 2:
            pygame.draw.line(surface, colour, pts[0], pts[1], width)
        k += spacing


@dataclass
class Look:
    """How to show the sticks this frame (all optional).

    ``tension``: id -> load in stick weights (``TokamiWorld.loads``); ``wobble``: id -> speed mm/s of
    sticks still moving (``TokamiWorld.speeds``); ``ghost``: (pose, colour, ok) of a stick carried out
    of the plane, edged green where it may be put down and red where it overlaps."""

    held: int | None = None            #: stick in the hand: bright outline
    taboo: int | None = None           #: the taboo stick: hatched and edged in black
    hover: int | None = None           #: stick under the mouse
    tension: dict | None = None        #: id -> load (stick weights): the tension tint
    wobble: dict | None = None         #: id -> speed (mm/s): the wobble cue
    ghost: tuple | None = None         #: (pose, colour, ok) of a stick carried out of the plane
    dim_lanes: Iterable[int] = ()      #: across-sticks of these lanes drawn faded
    symbols: bool = True
    skip: set = field(default_factory=set)   #: ids not drawn (e.g. drawn separately)


def tension_level(load: float) -> float:
    """0..1 strength of the tension tint for a load in stick weights."""
    return max(0.0, min(1.0, (load - TENSION_LOW) / (TENSION_HIGH - TENSION_LOW)))


class _Pictures:
    """Pictures of still sticks by key (pose and look): a key met in two :func:`draw_sticks` calls in a
    row gets its picture (a stick in motion is drawn directly, as building a picture would cost more);
    once the store holds more than ``limit``, pictures not used in the last call are dropped."""

    def __init__(self, limit: int = 400):
        self.limit = limit
        self.store: dict = {}
        self.used: set = set()
        self.met: set = set()
        self.met_before: set = set()

    def next_call(self) -> None:
        self.met_before, self.met = self.met, set()
        if len(self.store) > self.limit:
            self.store = {k: v for k, v in self.store.items() if k in self.used}
        self.used = set()

    def get(self, key):
        """The picture of ``key``, or None (then :meth:`worth` says whether to make it)."""
        hit = self.store.get(key)
        if hit is not None:
            self.used.add(key)
        return hit

    def worth(self, key) -> bool:
        """Whether ``key`` was met in the last call too (else it is noted, and drawn directly)."""
        if key in self.met_before:
            return True
        self.met.add(key)
        return False

    def put(self, key, value):
        self.store[key] = value
        self.used.add(key)
        return value


#: Geometry of sticks by pose and slice (bounded: cleared when full), pictures of their sides and
#: front faces: a stick that has not moved costs a blit.
_PARTS: dict = {}
_SIDES = _Pictures()
_FRONTS = _Pictures()
_CACHE_MAX = 1500
#: Colour key of the cached front pictures (never a stick, mark or cue colour).
_KEY = (255, 0, 254)
#: px around a front face that its cues may reach (edges up to 3 px, the wobble's 1.5 px offset)
_MARGIN = 6


def _parts(proj: Projection, pose: model.Pose, d: int):
    """:func:`_prism_parts` of the stick in ``pose`` in slice ``d`` (cached per projection and pose)."""
    key = (proj.scale, proj.origin, pose, d)
    hit = _PARTS.get(key)
    if hit is None:
        if len(_PARTS) >= _CACHE_MAX:
            _PARTS.clear()
        hit = _PARTS[key] = _prism_parts(proj, outline(pose), d, d + 1)
    return hit


def _sides(surface, proj, pose, d: int, face) -> list:
    """The sides of the stick in ``pose`` that show in slice ``d`` (a picture cached per pose, as in
    :func:`_front`); returns its front face's screen polygon in that slice."""
    key = (proj.scale, proj.origin, pose, d, face)
    hit = _SIDES.get(key)
    if hit is None:
        front, sides = _parts(proj, pose, d)
        top, side, _dark = _shades(face)
        if not _SIDES.worth(key):
            for quad, up in sides:
                pygame.draw.polygon(surface, top if up else side, quad)
            return front
        pts = [p for quad, _up in sides for p in quad]
        img = None
        ox = oy = -1
        if pts:
            ox = math.floor(min(p[0] for p in pts)) - 1
            oy = math.floor(min(p[1] for p in pts)) - 1
        if ox >= 0 and oy >= 0:
            w = math.ceil(max(p[0] for p in pts)) - ox + 2
            h = math.ceil(max(p[1] for p in pts)) - oy + 2
            img = pygame.Surface((w, h))
            img.fill(_KEY)
            for quad, up in sides:
                pygame.draw.polygon(img, top if up else side, [(x - ox, y - oy) for x, y in quad])
            img.set_colorkey(_KEY, pygame.RLEACCEL)
        hit = _SIDES.put(key, (img, (ox, oy), front, sides, top, side))
    img, at, front, sides, top, side = hit
    if img is not None:
        surface.blit(img, at)
    else:                          # nothing to show, or off the top or left: drawn directly
        for quad, up in sides:
            pygame.draw.polygon(surface, top if up else side, quad)
    return front


def _front(surface, proj, sid, pose, front, colour, face, theme, look: Look) -> None:
    """The front face with its edge and cues (:func:`_decorate`), as a picture cached per pose and
    look: pygame draws the same pixels shifted by whole px, so the blit equals drawing it here."""
    xs = [p[0] for p in front]
    ys = [p[1] for p in front]
    ox, oy = math.floor(min(xs)) - _MARGIN, math.floor(min(ys)) - _MARGIN
    if ox < 0 or oy < 0:          # off the top or left: drawn directly (whole-px shifts need x, y >= 0)
        pygame.draw.polygon(surface, face, front)
        pygame.draw.polygon(surface, _shades(face)[2], front, 1)
        _decorate(surface, proj, sid, pose, front, colour, theme, look)
        return
    load = look.tension.get(sid, 0.0) if look.tension else 0.0
    wob = look.wobble.get(sid, 0.0) if look.wobble and sid != look.held else 0.0
    key = (proj.scale, proj.origin, pose, colour, face, theme.highlight, look.symbols, tension_level(load),
           wob if wob > 2.0 else 0.0, sid == look.taboo, sid == look.hover, sid == look.held)
    hit = _FRONTS.get(key)
    if hit is None:
        if not _FRONTS.worth(key):
            pygame.draw.polygon(surface, face, front)
            pygame.draw.polygon(surface, _shades(face)[2], front, 1)
            _decorate(surface, proj, sid, pose, front, colour, theme, look)
            return
        w = math.ceil(max(xs)) - ox + _MARGIN + 1
        h = math.ceil(max(ys)) - oy + _MARGIN + 1
        img = pygame.Surface((w, h))
        img.fill(_KEY)
        shifted = [(x - ox, y - oy) for x, y in front]
        pygame.draw.polygon(img, face, shifted)
        pygame.draw.polygon(img, _shades(face)[2], shifted, 1)
        _decorate(img, proj, sid, pose, shifted, colour, theme, look)
        img.set_colorkey(_KEY, pygame.RLEACCEL)
        hit = _FRONTS.put(key, (img, (ox, oy)))
    surface.blit(hit[0], hit[1])


def draw_sticks(surface: pygame.Surface, proj: Projection, poses: dict, colours, theme, look: Look) -> None:
    """Paint every stick of ``poses`` (id -> pose) back to front, each with its mark; ``colours`` maps
    or indexes stick ids to colour names.

    Slice by slice from the back lane: first the sides of everything in the slice (they reach one lane
    back), then the front faces (coplanar, and never overlapping for sticks that collide). An along-
    stick shows its front face in the front slice only (in the others it is covered anyway)."""
    _SIDES.next_call()
    _FRONTS.next_call()
    dim = set(look.dim_lanes)
    slices: dict[int, list[int]] = {}
    for sid in sorted(poses):
        if sid in look.skip:
            continue
        d0, d1 = depth_range(poses[sid])
        for d in range(d0, d1):
            slices.setdefault(d, []).append(sid)
    ghost = look.ghost
    for d in range(model.LANES - 1, -1, -1):
        parts = []
        for sid in slices.get(d, []):
            pose = poses[sid]
            colour = _colour_of(colours, sid)
            face = stick_colour(theme, colour)
            if pose[0] == "across" and pose[1] in dim:
                draw_prism(surface, proj, outline(pose), d, d + 1, face, 70)
                continue
            front = _sides(surface, proj, pose, d, face)
            if d == depth_range(pose)[0]:
                parts.append((sid, pose, colour, face, front))
        for sid, pose, colour, face, front in parts:
            _front(surface, proj, sid, pose, front, colour, face, theme, look)
        if ghost is not None:
            gpose, gcolour, ok = ghost
            g0, g1 = depth_range(gpose)
            if g0 == d:
                face = stick_colour(theme, gcolour)
                ring = theme.good if ok else theme.bad
                front = draw_prism(surface, proj, outline(gpose), g0, g1, face, 140, edge=ring)
                pygame.draw.polygon(surface, ring, front, 3)
                if look.symbols and gcolour in MARK:
                    _marks(surface, proj, gpose, front, gcolour)


def _colour_of(colours, sid: int) -> str | None:
    if colours is None:
        return None
    if isinstance(colours, dict):
        return colours.get(sid)
    return colours[sid] if 0 <= sid < len(colours) else None


def _marks(surface, proj, pose, front, colour) -> None:
    cx = sum(p[0] for p in front) / 4
    cy = sum(p[1] for p in front) / 4
    size = proj.scale * model.STICK_THICK * 0.24
    ink = (20, 20, 24) if colour in ("yellow", "green") else (245, 245, 245)
    if pose[0] == "along":
        draw_symbol(surface, MARK[colour], (cx, cy), size, ink)
        return
    a = pose[4]
    step = model.STICK_LENGTH * 0.3 * proj.scale
    for k in (-1, 0, 1):
        draw_symbol(surface, MARK[colour], (cx + k * step * math.cos(a), cy - k * step * math.sin(a)), size, ink)


def _decorate(surface, proj, sid, pose, front, colour, theme, look: Look) -> None:
    if look.symbols and colour in MARK:
        _marks(surface, proj, pose, front, colour)
    load = look.tension.get(sid, 0.0) if look.tension else 0.0
    t = tension_level(load)
    if t > 0.0:
        # tension tint: a warm edge, redder and thicker the more load the stick carries
        pygame.draw.polygon(surface, mix((255, 190, 80), (255, 40, 40), t), front, 1 + round(2 * t))
    if look.wobble and sid != look.held and look.wobble.get(sid, 0.0) > 2.0:
        # wobble cue: a pale double edge, offset the way the stick would shimmer
        k = min(1.0, look.wobble[sid] / 60.0)
        shade = mix((150, 150, 150), (255, 255, 255), k)
        pygame.draw.polygon(surface, shade, [(x + 1.5, y - 1.5) for x, y in front], 1)
        pygame.draw.polygon(surface, shade, [(x - 1.5, y + 1.5) for x, y in front], 1)
    if sid == look.taboo:
        _hatch(surface, front, TABOO_INK, 7.0, 2)
        pygame.draw.polygon(surface, TABOO_INK, front, 3)
    if sid == look.hover and sid != look.held:
        pygame.draw.polygon(surface, theme.highlight, front, 2)
    if sid == look.held:
        pygame.draw.polygon(surface, theme.highlight, front, 3)


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
    for sid, pose in sorted(poses.items(), key=lambda kv: (depth_range(kv[1])[0], kv[0])):
        d0, d1 = depth_range(pose)
        corners = outline(pose)
        hull = _hull([proj.to_screen(x, y, d0) for x, y in corners] + [proj.to_screen(x, y, d1) for x, y in corners])
        if _inside(hull, point):
            return sid
    return None


def height_line(surface: pygame.Surface, proj: Projection, y_mm: float, colour, font, label: str,
                back=(0, 0, 0)) -> None:
    """The height to beat: a dashed line across the trough at ``y_mm`` with its label on a dark tag."""
    a = proj.to_screen(-model.WING_TIP - 24, y_mm)
    b = proj.to_screen(model.WING_TIP + 24, y_mm, model.LANES)
    b = (b[0], a[1])
    dashed_line(surface, colour, a, b)
    img = font.render(label, True, colour)
    r = img.get_rect(bottomright=(b[0], b[1] - 5))
    pygame.draw.rect(surface, back, r.inflate(10, 4), border_radius=5)
    surface.blit(img, r)


def height_tick(surface: pygame.Surface, proj: Projection, y_mm: float, colour, font, label: str,
                back=(0, 0, 0)) -> None:
    """A short mark at the left of the trough at ``y_mm`` with its label (e.g. the held stick's
    highest point now)."""
    a = proj.to_screen(-model.WING_TIP - 44, y_mm)
    pygame.draw.line(surface, colour, a, (a[0] + 26, a[1]), 3)
    img = font.render(label, True, colour)
    r = img.get_rect(midright=(a[0] - 8, a[1]))
    pygame.draw.rect(surface, back, r.inflate(10, 4), border_radius=5)
    surface.blit(img, r)
