"""Tokami's physical model as data and pure geometry (specs/tokami.md; research/tokami.md §1, §2B, §7).

Shared by the rules (which judge raises from recorded poses) and the physics world (which produces
those poses), so both measure a stick's highest point with the same arithmetic. Pure Python: no pymunk,
no pygame.

Units: mm, g, s; y up; the origin is the crossing of the X. The trough (the upper V) opens upwards
between the right wing (direction +45°) and the left wing (+135°).

A **pose** is a tuple ``(kind, lane, x, y, a)``:
``kind`` is ``"across"`` (the stick lies across the trough: a 72 x 12 bar in depth lane ``lane``) or
``"along"`` (it lies along the trough: a 12 x 12 square present in every lane, ``lane == -1``);
``x, y`` is its centre in mm and ``a`` its angle in radians (counter-clockwise, 0 = long axis along +x).
Lane 0 is the front lane (nearest the viewer), lane ``LANES - 1`` the back one.

Dimensions are estimates (research §1 "Dimension estimates"): named constants, easy to change.
"""
from __future__ import annotations

import math
import random
from typing import Iterable

# ----------------------------------------------------------------- components (estimates, §1 and §7)
STICK_LENGTH = 72.0      #: mm (estimate)
STICK_THICK = 12.0       #: mm, square cross-section (estimate)
STICK_MASS = 6.0         #: g (estimate: 0.6 g/cm³ wood)
BEVEL = 0.5              #: mm, corner radius of the physics boxes (outer extent stays L x T)
WING = 90.0              #: mm from the crossing to each wing tip (estimate; chosen by the sweep of PHYSICS.md)
BOARD_HALF = 4.0         #: mm, half the 8 mm board thickness
LANES = 6                #: depth lanes, one stick thickness deep each (6 x 12 = 72 mm)
GRAVITY = 9810.0         #: mm/s²
WING_TIP = WING / math.sqrt(2.0)   #: 63.64 mm: x and y of the upper wing tips (±x, +y)
TABLE_Y = -WING_TIP - BOARD_HALF - 10.0  #: centre line of the table segment (radius 10 mm)
TABLE_RADIUS = 10.0

COLOURS = ("blue", "yellow", "red", "green")   #: seed rules; 9 of each is inferred (research §1)
PER_COLOUR = 9
N_STICKS = len(COLOURS) * PER_COLOUR           #: 36
ROUND_END_STICKS = 4                           #: a round ends when only four sticks remain on the X
RAISE_MARGIN = 1.0                             #: mm a raise must beat the old highest point by (spec)

#: World bounds (mm): a stick whose centre leaves them has left the world (fallen).
WORLD_X = 600.0
WORLD_Y_MIN = TABLE_Y - 200.0
WORLD_Y_MAX = 1200.0

Pose = tuple  # (kind: str, lane: int, x: float, y: float, a: float)


def half_extents(kind: str) -> tuple[float, float]:
    """Half length and half thickness (mm) of a stick of ``kind`` as it appears end-on."""
    if kind == "across":
        return STICK_LENGTH / 2.0, STICK_THICK / 2.0
    if kind == "along":
        return STICK_THICK / 2.0, STICK_THICK / 2.0
    raise ValueError(f"unknown stick kind {kind!r} (across or along)")


def core_vertices(kind: str) -> list[tuple[float, float]]:
    """Local vertices of the physics box of ``kind`` (mm): the outer box shrunk by ``BEVEL``.

    The physics shape is this polygon with corner radius ``BEVEL``, so its outer extent is L x T."""
    hx, hy = half_extents(kind)
    hx -= BEVEL
    hy -= BEVEL
    return [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]


def world_vertices(pose: Pose) -> list[tuple[float, float]]:
    """The four core vertices of ``pose`` in world coordinates (mm)."""
    kind, _lane, x, y, a = pose
    c, s = math.cos(a), math.sin(a)
    return [(x + vx * c - vy * s, y + vx * s + vy * c) for vx, vy in core_vertices(kind)]


def highest_point(pose: Pose) -> float:
    """Highest world y (mm) of a stick in ``pose``: the top core vertex plus the bevel radius.

    This is the rule's "highest point" (spec "Rule terms"; research §2B) and is computed the same way for
    a live physics body and for a recorded pose."""
    return max(vy for _vx, vy in world_vertices(pose)) + BEVEL


def lowest_point(pose: Pose) -> float:
    """Lowest world y (mm) of a stick in ``pose``."""
    return min(vy for _vx, vy in world_vertices(pose)) - BEVEL


def out_of_world(x: float, y: float) -> bool:
    """Whether a centre at (x, y) mm has left the simulated world."""
    return not (-WORLD_X <= x <= WORLD_X and WORLD_Y_MIN <= y <= WORLD_Y_MAX)


def fallen_by_pose(pose: Pose) -> bool:
    """The pose part of the fall test (spec "Fallen"): centre below the crossing or out of the world.

    Touching the table is the other part; only the physics world sees it."""
    _kind, _lane, x, y, _a = pose
    return y < 0.0 or out_of_world(x, y)


def lanes_meet(p: Pose, q: Pose) -> bool:
    """Whether sticks in poses ``p`` and ``q`` can touch: along-sticks meet everything, across-sticks
    meet along-sticks and across-sticks of their own lane (spec "Physics model")."""
    return p[0] == "along" or q[0] == "along" or p[1] == q[1]


def cube_poses(gap: float = 0.05) -> list[Pose]:
    """The crisscross cube of Fig. 1 corner-down in the V (research §7 "Setup"), stick ids 0..35.

    Local frame: ``u`` along the right wing (+45°), ``v`` along the left wing (+135°); the wing faces
    are at u = ``BOARD_HALF`` and v = ``BOARD_HALF``. Six slabs parallel to the left wing, 12 mm thick:
    even slabs (0, 2, 4) hold one across-stick per lane (6 each, long axis along the left wing), odd
    slabs (1, 3, 5) hold six along-sticks side by side. ``gap`` mm separates neighbours so nothing
    starts overlapping. Ids: slab by slab from the left wing outwards; within a slab lane by lane
    (across) or from the right wing upwards (along).
    """
    eu = (math.sqrt(0.5), math.sqrt(0.5))
    ev = (-math.sqrt(0.5), math.sqrt(0.5))
    t = STICK_THICK + gap
    base = BOARD_HALF + gap
    a_across = math.atan2(ev[1], ev[0])          # long axis along the left wing
    a_along = math.atan2(eu[1], eu[0])           # square aligned with the wings
    poses: list[Pose] = []
    for slab in range(6):
        u = base + slab * t + STICK_THICK / 2.0
        if slab % 2 == 0:
            v = base + (6 * t - gap) / 2.0
            x = u * eu[0] + v * ev[0]
            y = u * eu[1] + v * ev[1]
            for lane in range(LANES):
                poses.append(("across", lane, x, y, a_across))
        else:
            for i in range(6):
                v = base + i * t + STICK_THICK / 2.0
                x = u * eu[0] + v * ev[0]
                y = u * eu[1] + v * ev[1]
                poses.append(("along", -1, x, y, a_along))
    assert len(poses) == N_STICKS
    return poses


#: Starting piles: the regular crisscross cube, or sticks dropped in loosely (seed "Setup": "basically
#: anything goes").
SETUPS = ("cube", "free")


def free_poses(key: str) -> list[Pose]:
    """A loose starting pile, stick ids 0..35, seeded by ``key`` (a private ``random.Random``): layer
    by layer above the V corner, 22 mm apart from 48 mm up, each layer either one across-stick per
    lane (random lane order, x within ±8 mm, tilted up to ±7°) or 3-5 along-sticks side by side at
    random places and angles; no two poses that can touch overlap, and nothing overlaps a board. Physics
    then lets them drop and settle (sticks that fall off go back to the box)."""
    rng = random.Random(f"tokami-free/{key}")
    poses: list[Pose] = []
    layer = 0
    while len(poses) < N_STICKS:
        y = 48.0 + 22.0 * layer
        left = N_STICKS - len(poses)
        if rng.random() < 0.5:
            for lane in rng.sample(range(LANES), min(LANES, left)):
                poses.append(("across", lane, rng.uniform(-8.0, 8.0), y + rng.uniform(-1.5, 1.5),
                              rng.uniform(-0.12, 0.12)))
        else:
            room = y - 20.0                       # |x| an along-stick's centre may reach at this height
            k = min(left, rng.randint(3, 5))
            slots = sorted(rng.sample(range(int(2 * room // 15)), min(k, int(2 * room // 15))))
            for s in slots:
                poses.append(("along", -1, -room + 15.0 * s + 7.5, y + rng.uniform(-1.5, 1.5),
                              rng.uniform(0.0, math.pi / 2)))
        layer += 1
    return poses[:N_STICKS]


def setup_poses(setup: str, colours: Iterable) -> list[Pose]:
    """The starting poses (ids 0..35) of ``setup`` ("cube" or "free"); a free pile is seeded by the
    drawn ``colours`` (so it follows the match seed). ``ValueError`` for another set-up."""
    if setup == "cube":
        return cube_poses()
    if setup == "free":
        return free_poses(",".join(str(c) for c in colours))
    raise ValueError(f"the set-up is cube or free, not {setup!r}")


def pose_to_json(pose: Pose) -> list:
    """``[kind, lane, x, y, a]`` (floats kept exactly: JSON round-trips Python floats)."""
    kind, lane, x, y, a = pose
    return [kind, int(lane), float(x), float(y), float(a)]


def pose_from_json(data: object) -> Pose:
    """A pose from ``[kind, lane, x, y, a]``; raises ``ValueError`` naming what is wrong."""
    if not isinstance(data, (list, tuple)) or len(data) != 5:
        raise ValueError("a pose is [kind, lane, x, y, a]")
    kind, lane, x, y, a = data
    if kind not in ("across", "along"):
        raise ValueError(f"unknown stick kind {kind!r}")
    if isinstance(lane, bool) or not isinstance(lane, int):
        raise ValueError("a pose's lane must be a whole number")
    if kind == "across" and not 0 <= lane < LANES:
        raise ValueError(f"an across-stick's lane must be 0..{LANES - 1}")
    if kind == "along" and lane != -1:
        raise ValueError("an along-stick's lane must be -1")
    for v in (x, y, a):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError("a pose's x, y and a must be finite numbers")
    return (kind, lane, float(x), float(y), float(a))


def colour_counts(colours: Iterable[str]) -> dict[str, int]:
    """How many of each colour in ``colours`` (every colour of ``COLOURS`` present as a key)."""
    out = {c: 0 for c in COLOURS}
    for c in colours:
        out[c] += 1
    return out
