"""A fixed-step pymunk world: settle detection, a velocity cap, depth-lane filters, canonical
snapshots and a capped-force hand (specs/DESIGN.md "Layout", research/tokami.md §3, §4, §7).

Game-independent: a game builds its bodies into a :class:`World` and keys each dynamic body (e.g. by a
stick id). Units follow the caller; Playtable's games use mm, g and s with y up, so speeds are mm/s,
forces g·mm/s² and torques g·mm²/s².

Pitfalls measured on pymunk 7.3.1 (DESIGN.md "Library pitfalls") shape this module:

* a restored snapshot continues bit-identically with any other restore of the same snapshot, not with
  the live space it was taken from, so a live game continues from a world *built* from the snapshot
  (:meth:`World.snapshot` / :meth:`World.load_snapshot` on a freshly built world);
* a sleeping body's type is never changed: the :class:`Hand` is a separate kinematic body joined to
  the held body by a ``PivotJoint`` and a ``GearJoint`` whose forces are capped, so it can push but not
  bulldoze;
* sleep flags are not part of a snapshot, so "settled" is decided by speeds as well as by sleep.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Iterator

import pymunk
import pymunk.batch

#: What :meth:`World._scan` reads of every body in one call (pymunk's batch API).
_SCAN_FIELDS = (pymunk.batch.BodyFields.BODY_ID | pymunk.batch.BodyFields.POSITION
                | pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY)

# --------------------------------------------------------------------------- collision categories
#: Category bit of frames / boards (static scenery every lane meets).
CAT_FRAME = 1 << 0
#: Category bit of bodies present in every depth lane (e.g. sticks lying along the trough).
CAT_ALL_LANES = 1 << 1
#: Category bit of the table under the frame.
CAT_TABLE = 1 << 2
_LANE_SHIFT = 3
#: Most depth lanes the category bits allow.
MAX_LANES = 32 - _LANE_SHIFT
ALL_BITS = 0xFFFFFFFF


def lane_category(lane: int) -> int:
    """The category bit of depth lane ``lane`` (0 .. ``MAX_LANES - 1``); raises ``ValueError``."""
    if isinstance(lane, bool) or not isinstance(lane, int) or not 0 <= lane < MAX_LANES:
        raise ValueError(f"a depth lane is a whole number 0..{MAX_LANES - 1}, not {lane!r}")
    return 1 << (_LANE_SHIFT + lane)


def lane_filter(lane: int) -> pymunk.ShapeFilter:
    """Filter of a shape that lives in one depth lane: it meets the frame, the table, all-lane shapes
    and shapes of its own lane only (research §2B)."""
    cat = lane_category(lane)
    return pymunk.ShapeFilter(categories=cat, mask=CAT_FRAME | CAT_ALL_LANES | CAT_TABLE | cat)


def all_lanes_filter() -> pymunk.ShapeFilter:
    """Filter of a shape present in every lane: it meets everything."""
    return pymunk.ShapeFilter(categories=CAT_ALL_LANES, mask=ALL_BITS)


def frame_filter() -> pymunk.ShapeFilter:
    """Filter of the frame (boards): it meets everything."""
    return pymunk.ShapeFilter(categories=CAT_FRAME, mask=ALL_BITS)


def table_filter() -> pymunk.ShapeFilter:
    """Filter of the table: it meets everything."""
    return pymunk.ShapeFilter(categories=CAT_TABLE, mask=ALL_BITS)


def lane_query_filter(lane: int | None) -> pymunk.ShapeFilter:
    """Query filter that sees the movable shapes a point in ``lane`` can hit: all-lane shapes and
    shapes of that lane (``None``: every lane), never the frame or the table."""
    if lane is None:
        lanes = ALL_BITS & ~(CAT_FRAME | CAT_TABLE)
        return pymunk.ShapeFilter(categories=lanes, mask=lanes)
    cat = lane_category(lane)
    return pymunk.ShapeFilter(categories=cat, mask=CAT_ALL_LANES | cat)


# --------------------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class Settings:
    """Solver and detection settings (research §7 for Tokami's values; units mm, s).

    ``gravity`` mm/s²; ``dt`` s, the fixed step; ``iterations`` solver passes; ``damping`` the velocity
    kept per second (0.9 = 10 % lost); ``sleep_time`` s of idleness before a group sleeps (``math.inf``:
    never); ``idle_speed`` mm/s, set explicitly (pymunk's default |g|·dt is 41 mm/s here);
    ``collision_slop`` mm; ``max_speed`` mm/s velocity cap (``None``: no cap) on |v| and on the spin
    (|ω|·reach, the speed of the body's farthest point, so no point turns faster), applied after every
    step, or inside the solver's velocity update (a pymunk ``velocity_func``, the pattern of pymunk's
    overview) when ``cap_in_solver`` (measured 25-35 % dearer per step with 36 awake bodies, and
    the solver may still push a body past it); "settled" means every
    watched body asleep, or every one slower than ``settle_speed`` mm/s (``|ω|`` times the body's
    reach counts too) for ``settle_hold`` s; ``settle_timeout`` s is the default give-up time.
    """

    gravity: tuple[float, float] = (0.0, -9810.0)
    dt: float = 1.0 / 240.0
    iterations: int = 20
    damping: float = 0.9
    sleep_time: float = 0.5
    idle_speed: float = 5.0
    collision_slop: float = 0.1
    max_speed: float | None = 1500.0
    cap_in_solver: bool = False
    settle_speed: float = 2.0
    settle_hold: float = 0.5
    settle_timeout: float = 10.0

    def __post_init__(self) -> None:
        if not (self.dt > 0 and math.isfinite(self.dt)):
            raise ValueError("the step dt must be a positive number of seconds")
        if self.iterations < 1:
            raise ValueError("the solver needs at least one iteration")
        if self.max_speed is not None and not self.max_speed > 0:
            raise ValueError("the velocity cap must be positive (or None)")
        if self.settle_hold < 0 or self.settle_speed <= 0:
            raise ValueError("settle detection needs a positive speed and a hold time >= 0")


@dataclass(frozen=True)
class HandSettings:
    """Caps of the hand's joints (research §7 "Hand").

    ``max_force`` (g·mm/s²) caps the ``PivotJoint`` that pulls the held point to the hand, with
    ``error_bias`` (fraction of the error left after 1 s); ``max_torque`` (g·mm²/s²) caps the
    ``GearJoint`` that turns the body to the hand's angle, at most ``max_turn_speed`` rad/s of
    correction."""

    max_force: float
    max_torque: float
    error_bias: float = 0.85 ** 60
    max_turn_speed: float = 4.0

    @classmethod
    def for_body(cls, mass: float, length: float, gravity: float) -> "HandSettings":
        """Research §7: force cap 30·m·g, torque cap 5·m·g·L (``mass`` g, ``length`` mm, ``gravity``
        mm/s²)."""
        return cls(max_force=30.0 * mass * gravity, max_torque=5.0 * mass * gravity * length)


@dataclass(frozen=True)
class SettleResult:
    """Outcome of :meth:`World.settle`: whether it settled, and the simulated seconds it took (s,
    a whole number of steps; the time spent when it gave up otherwise)."""

    settled: bool
    time: float
    steps: int


#: A body's motion: ``(x, y, angle, vx, vy, angular_velocity)`` in mm, rad, mm/s, rad/s.
BodyState = tuple[float, float, float, float, float, float]


@dataclass(frozen=True)
class Snapshot:
    """Canonical snapshot of a world: the elapsed time (s) and every keyed dynamic body's
    :data:`BodyState`, in the order the bodies were added. Contact caches and sleep flags are not
    part of it: load it into a freshly built world (:meth:`World.load_snapshot`); two such worlds
    continue bit-identically."""

    time: float
    steps: int
    bodies: tuple[tuple[Hashable, BodyState], ...]

    def states(self) -> dict[Hashable, BodyState]:
        return dict(self.bodies)


def make_velocity_cap(max_speed: float, reach: float = 0.0) -> Callable:
    """A pymunk ``velocity_func`` that integrates as usual, then clamps |v| to ``max_speed`` mm/s
    (the pattern of pymunk's overview, "Object tunneling") and, for a body whose farthest point is
    ``reach`` mm (> 0) from its centre of gravity, |ω| to ``max_speed / reach`` rad/s."""
    limit2 = max_speed * max_speed
    spin = max_speed / reach if reach > 0 else math.inf
    update = pymunk.Body.update_velocity

    def capped(body: pymunk.Body, gravity, damping: float, dt: float) -> None:
        update(body, gravity, damping, dt)
        vx, vy = body.velocity
        s2 = vx * vx + vy * vy
        if s2 > limit2:
            k = max_speed / math.sqrt(s2)
            body.velocity = (vx * k, vy * k)
        w = body.angular_velocity
        if abs(w) > spin:
            body.angular_velocity = math.copysign(spin, w)

    return capped


def _reach(shapes: Iterable[pymunk.Shape], body: pymunk.Body) -> float:
    """Largest distance (mm) from the body's centre of gravity to a point of its shapes."""
    cog = body.center_of_gravity
    r = 0.0
    for s in shapes:
        if isinstance(s, pymunk.Poly):
            pts = s.get_vertices()
        elif isinstance(s, pymunk.Segment):
            pts = [s.a, s.b]
        elif isinstance(s, pymunk.Circle):
            pts = [s.offset]
        else:  # pragma: no cover - every pymunk shape is listed above
            pts = []
        for p in pts:
            r = max(r, math.hypot(p[0] - cog[0], p[1] - cog[1]) + s.radius)
    return r


# -------------------------------------------------------------------------------------------- world
class World:
    """A ``pymunk.Space`` stepped at a fixed ``dt``, with keyed dynamic bodies.

    ``space`` is the pymunk space (read it, add static scenery with :meth:`add_static`, but add and
    remove dynamic bodies through :meth:`add_body` / :meth:`remove_body`). ``time`` is the simulated
    time in s, ``steps`` the number of steps taken. ``hand`` is the world's :class:`Hand` when built
    with ``hand`` settings, else ``None``. Hooks run before and after every step (see
    :meth:`before_step` / :meth:`after_step`).
    """

    def __init__(self, settings: Settings = Settings(), hand: HandSettings | None = None):
        self.settings = settings
        space = pymunk.Space()
        space.gravity = settings.gravity
        space.iterations = settings.iterations
        space.damping = settings.damping
        space.sleep_time_threshold = settings.sleep_time
        space.idle_speed_threshold = settings.idle_speed
        space.collision_slop = settings.collision_slop
        self.space = space
        self.time = 0.0
        self.steps = 0
        self._bodies: dict[Hashable, pymunk.Body] = {}
        self._reach: dict[Hashable, float] = {}
        self._unwatched: set[Hashable] = set()
        self._by_id: dict[int, tuple[int, Hashable, pymunk.Body]] = {}   # body.id -> (order, key, body)
        self._added = 0
        self._buf = pymunk.batch.Buffer()
        self._solver_cap = bool(settings.max_speed and settings.cap_in_solver)
        self._before: list[Callable[[], None]] = []
        self._after: list[Callable[[], None]] = []
        self._hold_steps = max(1, round(settings.settle_hold / settings.dt))
        self._calm_steps = 0
        self._settled = False
        #: largest speed (mm/s, |v| or |ω|·reach) of a watched, awake body after the last step
        self.last_speed = 0.0
        #: ``(key, x, y, speed)`` of every awake keyed body after the last step (mm, mm/s)
        self.awake: list[tuple[Hashable, float, float, float]] = []
        self.hand: Hand | None = Hand(self, hand) if hand is not None else None

    # ------------------------------------------------------------------ bodies
    def add_static(self, *shapes: pymunk.Shape) -> None:
        """Add static scenery shapes (on ``space.static_body`` or a static body of their own)."""
        for s in shapes:
            if s.body is not self.space.static_body and s.body not in self.space.bodies:
                self.space.add(s.body)
        self.space.add(*shapes)

    def add_body(self, key: Hashable, body: pymunk.Body, *shapes: pymunk.Shape) -> pymunk.Body:
        """Add a dynamic ``body`` with its ``shapes`` under ``key`` (with ``cap_in_solver`` its
        ``velocity_func`` becomes the cap, spin included).
        Raises ``ValueError`` for a key already present or a body that is not dynamic."""
        if key in self._bodies:
            raise ValueError(f"a body with key {key!r} is already in the world")
        if body.body_type != pymunk.Body.DYNAMIC:
            raise ValueError("only dynamic bodies are keyed; add scenery with add_static")
        reach = _reach(shapes, body)
        if self._solver_cap:
            body.velocity_func = make_velocity_cap(self.settings.max_speed, reach)
        self.space.add(body, *shapes)
        self._bodies[key] = body
        self._by_id[body.id] = (self._added, key, body)
        self._added += 1
        self._reach[key] = reach
        self._calm_steps = 0
        self._settled = False
        return body

    def remove_body(self, key: Hashable) -> pymunk.Body:
        """Take the body ``key`` (and its shapes) out of the space, waking what touched it; the hand
        lets go first if it held it. Raises ``KeyError`` for an unknown key."""
        body = self._bodies[key]
        if self.hand is not None and self.hand.held == key:
            self.hand.release()
        body.activate()
        self.space.remove(body, *list(body.shapes))
        del self._bodies[key]
        del self._reach[key]
        del self._by_id[body.id]
        self._unwatched.discard(key)
        self._calm_steps = 0
        self._settled = False
        return body

    def body(self, key: Hashable) -> pymunk.Body:
        """The body stored under ``key`` (``KeyError`` if none)."""
        return self._bodies[key]

    def keys(self) -> list[Hashable]:
        """Keys of the dynamic bodies in the order they were added."""
        return list(self._bodies)

    def __contains__(self, key: object) -> bool:
        return key in self._bodies

    def __len__(self) -> int:
        return len(self._bodies)

    def items(self) -> Iterator[tuple[Hashable, pymunk.Body]]:
        return iter(list(self._bodies.items()))

    def set_watched(self, key: Hashable, watched: bool) -> None:
        """Whether settle detection looks at body ``key`` (e.g. a stick already fallen, still tumbling
        to the table, is not watched). ``KeyError`` for an unknown key."""
        if key not in self._bodies:
            raise KeyError(key)
        if watched:
            self._unwatched.discard(key)
        else:
            self._unwatched.add(key)

    def wake_all(self) -> None:
        """Wake every keyed body (a disturbance); settle detection starts over."""
        for b in self._bodies.values():
            b.activate()
        self.unsettle()

    def unsettle(self) -> None:
        """Settle detection starts over: :meth:`is_settled` is False until every watched body has been
        calm for ``settle_hold`` s again (or asleep) after the next steps. Called on every change of
        what the hand holds, so a body let go in the air is judged only once it has come to rest."""
        self._calm_steps = 0
        self._settled = False

    # ------------------------------------------------------------------- hooks
    def before_step(self, fn: Callable[[], None]) -> None:
        """Run ``fn()`` before every step (after the hand sets its velocity)."""
        self._before.append(fn)

    def after_step(self, fn: Callable[[], None]) -> None:
        """Run ``fn()`` after every step, before settle detection (it may add or remove bodies)."""
        self._after.append(fn)

    # -------------------------------------------------------------------- step
    def step(self, n: int = 1) -> None:
        """Advance ``n`` fixed steps of ``settings.dt`` s each. After each step: one pass reads the
        bodies (clamping any speed above the cap), then the after-step hooks run, then the settle
        detector updates."""
        dt = self.settings.dt
        for _ in range(n):
            if self.hand is not None:
                self.hand._drive(dt)
            for fn in self._before:
                fn()
            self.space.step(dt)
            self.steps += 1
            self.time = self.steps * dt
            self._scan()
            for fn in self._after:
                fn()
            self._track()

    def _scan(self) -> None:
        """Read every awake keyed body once: ``awake`` gets ``(key, x, y, speed)`` in the order the
        bodies were added (speed = max of |v| and |ω|·reach, mm/s); velocities above the cap are
        scaled down to it, and so is a spin whose |ω|·reach is (the next step's position update, which
        uses them, then never moves a point of a body more than about ``max_speed·dt``). One batch
        read for all bodies, then a sleep flag per body up to the first sleeping one: the space lists
        its awake bodies first (chipmunk's ``cpSpaceEachBody``: the dynamic array, then static
        bodies, then the sleeping components), so an asleep pile costs one flag."""
        cap = None if self.settings.cap_in_solver else self.settings.max_speed
        buf = self._buf
        buf.clear()
        pymunk.batch.get_space_bodies(self.space, _SCAN_FIELDS, buf)
        ids = memoryview(buf.int_buf()).cast("P")
        by_id = self._by_id
        awake = []
        for i, bid in enumerate(ids):
            entry = by_id.get(bid)
            if entry is None:                  # the hand, the static body
                continue
            if entry[2].is_sleeping:
                break                          # every body after it sleeps too
            awake.append((i, entry))
        if not awake:
            self.awake = []
            return
        vals = memoryview(buf.float_buf()).cast("d").tolist()
        reach = self._reach
        rows = []
        for i, (order, key, b) in awake:
            x, y, vx, vy, w = vals[5 * i:5 * i + 5]
            v = math.sqrt(vx * vx + vy * vy)
            if cap is not None and v > cap:
                k = cap / v
                b.velocity = (vx * k, vy * k)
                v = cap
            r = reach[key]
            w = abs(w) * r
            if cap is not None and w > cap:
                b.angular_velocity = math.copysign(cap / r, vals[5 * i + 4])
                w = cap
            rows.append((order, key, x, y, v if v > w else w))
        rows.sort(key=lambda r: r[0])
        self.awake = [r[1:] for r in rows]

    def _track(self) -> None:
        """Update the settle detector from the last scan (bodies removed or unwatched meanwhile and the
        held body are skipped)."""
        held = self.hand.held if self.hand is not None else None
        skip = self._unwatched
        bodies = self._bodies
        fastest = 0.0
        any_awake = False
        for key, _x, _y, speed in self.awake:
            if key == held or key in skip or key not in bodies:
                continue
            any_awake = True
            if speed > fastest:
                fastest = speed
        self.last_speed = fastest
        if fastest < self.settings.settle_speed:
            self._calm_steps += 1
        else:
            self._calm_steps = 0
        self._settled = not any_awake or self._calm_steps >= self._hold_steps

    def is_settled(self) -> bool:
        """Whether the world counted as settled after the last step (research §3 "Settled"): every
        watched keyed body but the held one asleep, or all of them slower than ``settle_speed`` for
        ``settle_hold`` s. False before the first step, after any body is added or removed, and after
        the hand grabs or lets go of a body (:meth:`unsettle`)."""
        return self._settled

    def settle(self, max_time: float | None = None, max_steps: int | None = None) -> SettleResult:
        """Step until :meth:`is_settled` or ``max_time`` s (default ``settings.settle_timeout``; or
        exactly ``max_steps`` steps) of simulated time have passed; returns at once when already
        settled. Returns whether it settled and how long it took (s)."""
        if max_steps is None:
            limit = self.settings.settle_timeout if max_time is None else max_time
            max_steps = max(0, math.ceil(limit / self.settings.dt - 1e-9))
        taken = 0
        while not self._settled and taken < max_steps:
            self.step()
            taken += 1
        return SettleResult(self._settled, taken * self.settings.dt, taken)

    # --------------------------------------------------------------- snapshots
    def snapshot(self) -> Snapshot:
        """The canonical snapshot: every keyed body's pose and velocities, and the time."""
        out = []
        for key, b in self._bodies.items():
            x, y = b.position
            vx, vy = b.velocity
            out.append((key, (x, y, b.angle, vx, vy, b.angular_velocity)))
        return Snapshot(self.time, self.steps, tuple(out))

    def load_snapshot(self, snapshot: Snapshot) -> None:
        """Set every keyed body to its state in ``snapshot`` (keys must match exactly: ``ValueError``
        otherwise). Meant for a world freshly built with the same bodies, which then continues
        bit-identically with any other world built and loaded the same way."""
        states = snapshot.states()
        if set(states) != set(self._bodies):
            raise ValueError("the snapshot's bodies are not this world's bodies")
        for key, b in self._bodies.items():
            x, y, a, vx, vy, w = states[key]
            b.position = (x, y)
            b.angle = a
            b.velocity = (vx, vy)
            b.angular_velocity = w
            self.space.reindex_shapes_for_body(b)
        self.steps = snapshot.steps
        self.time = snapshot.time
        self._calm_steps = 0
        self._settled = False


# --------------------------------------------------------------------------------------------- hand
class Hand:
    """A capped-force hand: a kinematic body without shapes, driven by velocity, joined to the held
    body by a ``PivotJoint`` (at the grab point) and a ``GearJoint`` (angle), both force-capped
    (research §3 "Mouse dragging", §7 "Hand").

    Each step the hand body moves to its target exactly: ``velocity = (target - position) / dt`` and
    ``angular_velocity = (angle* - angle) / dt``; the held body follows as far as the caps allow.
    ``target`` is where the grab point should be (mm), ``target_angle`` the held body's angle (rad).
    """

    def __init__(self, world: World, settings: HandSettings):
        self.world = world
        self.settings = settings
        self.body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        world.space.add(self.body)
        self.held: Hashable | None = None
        self.local_point: tuple[float, float] | None = None
        self.target: tuple[float, float] = (0.0, 0.0)
        self.target_angle = 0.0
        self._joints: tuple[pymunk.Constraint, ...] = ()

    def grab(self, key: Hashable, world_point: tuple[float, float]) -> None:
        """Hold the body ``key`` at ``world_point`` (mm); the hand starts there, at the body's angle.
        The body is woken first (its type never changes). Raises ``ValueError`` if a body is already
        held; ``KeyError`` for an unknown key."""
        if self.held is not None:
            raise ValueError("the hand already holds a body; release it first")
        body = self.world.body(key)
        body.activate()
        px, py = float(world_point[0]), float(world_point[1])
        self.body.position = (px, py)
        self.body.angle = body.angle
        self.body.velocity = (0.0, 0.0)
        self.body.angular_velocity = 0.0
        local = body.world_to_local((px, py))
        pivot = pymunk.PivotJoint(self.body, body, (0.0, 0.0), local)
        pivot.max_force = self.settings.max_force
        pivot.error_bias = self.settings.error_bias
        gear = pymunk.GearJoint(self.body, body, 0.0, 1.0)
        gear.max_force = self.settings.max_torque
        gear.error_bias = 0.0
        gear.max_bias = self.settings.max_turn_speed
        self.world.space.add(pivot, gear)
        self.world.unsettle()
        self._joints = (pivot, gear)
        self.held = key
        self.local_point = (local[0], local[1])
        self.target = (px, py)
        self.target_angle = body.angle

    def move_to(self, target: tuple[float, float], angle: float | None = None) -> None:
        """Aim the hand at ``target`` (mm) and, if given, the held body at ``angle`` (rad) from the
        next step on. Raises ``ValueError`` for a non-finite value."""
        x, y = float(target[0]), float(target[1])
        a = self.target_angle if angle is None else float(angle)
        if not all(math.isfinite(v) for v in (x, y, a)):
            raise ValueError("a hand target must be finite")
        self.target = (x, y)
        self.target_angle = a

    def release(self) -> None:
        """Let go (a no-op when nothing is held). The body let go is woken and watched again, and the
        world counts as unsettled until it (and everything else) has come to rest."""
        if self._joints:
            self.world.space.remove(*self._joints)
        if self.held is not None:
            if self.held in self.world:
                self.world.body(self.held).activate()
            self.world.unsettle()
        self._joints = ()
        self.held = None
        self.local_point = None
        self.body.velocity = (0.0, 0.0)
        self.body.angular_velocity = 0.0

    def _drive(self, dt: float) -> None:
        """Set the kinematic body's velocities so it reaches its target in one step (nothing to do
        while nothing is held: the hand has no shapes, and a grab places it afresh)."""
        if self.held is None:
            return
        px, py = self.body.position
        self.body.velocity = ((self.target[0] - px) / dt, (self.target[1] - py) / dt)
        self.body.angular_velocity = (self.target_angle - self.body.angle) / dt

    def follow_error(self) -> tuple[float, float]:
        """How far the held body lags the hand: (distance of the grab point from the hand, mm;
        |angle error|, rad). ``(0, 0)`` when nothing is held."""
        if self.held is None or self.local_point is None:
            return 0.0, 0.0
        body = self.world.body(self.held)
        gx, gy = body.local_to_world(self.local_point)
        hx, hy = self.body.position
        return math.hypot(gx - hx, gy - hy), abs(body.angle - self.body.angle)
