"""Tokami's physical world: the X-shaped frame, the table and the sticks in pymunk (specs/tokami.md
"Physics model"; research/tokami.md §2B, §3, §7).

Built from a dict ``id -> pose`` (``model`` poses), so a turn's world is rebuilt from the recorded
poses and replays bit-identically from (poses, hand inputs) (research §4 "Determinism"; DESIGN.md
"Library pitfalls"). Units: mm, g, s; y up; the origin is the crossing of the X.

* Frame: two static segments at ±45° through the origin, radius ``BOARD_HALF`` (8 mm boards), upper
  and lower wings ``WING`` long; the table: a thick static segment (radius ``TABLE_RADIUS``) at
  ``TABLE_Y`` so nothing tunnels through it (research §3 "Tunnelling").
* A stick across the trough is a 72 x 12 beveled box in one depth lane (it meets the frame, the table,
  along-sticks and across-sticks of its lane); a stick along the trough is a 12 x 12 beveled box in
  every lane. Friction sqrt(0.4) per shape (contact friction is the product: wood on wood 0.4),
  elasticity 0, 6 g each (research §7).
* A stick has **fallen** when its centre drops below the crossing, it touches the table, or it leaves
  the world (spec "Fallen"; the two tests of ``model.fallen_by_pose`` plus a collision callback). It is
  listed in :attr:`TokamiWorld.fallen` at once (in the order they fell) and is no longer on the X; it
  leaves the space when it reaches the table or the world's edge (a stick still tumbling is drawn
  falling), or ``FALL_LINGER`` s after it fell.

Pure: no pygame, no clock, no randomness.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import pymunk
import pymunk.batch

from sim.physics.world import (
    HandSettings, Settings, SettleResult, Snapshot, World, all_lanes_filter, frame_filter, lane_filter,
    lane_query_filter, table_filter,
)

from . import model
from .model import Pose

#: Solver settings of research §7: 1/240 s steps, 20 iterations, damping 0.9, sleep after 0.5 s below
#: 5 mm/s, velocity cap 1500 mm/s (on the spin too: |ω| times a stick's reach); settled = all asleep or
#: < 2 mm/s for 0.5 s, give up after 10 s.
SETTINGS = Settings(gravity=(0.0, -model.GRAVITY), dt=1.0 / 240.0, iterations=20, damping=0.9,
                    sleep_time=0.5, idle_speed=5.0, collision_slop=0.1, max_speed=1500.0,
                    settle_speed=2.0, settle_hold=0.5, settle_timeout=10.0)
#: The hand's caps (research §7): pivot 30·m·g ≈ 1.77e6 g·mm/s², gear 5·m·g·L ≈ 2.1e7 g·mm²/s² at
#: most 4 rad/s of correction.
HAND = HandSettings.for_body(model.STICK_MASS, model.STICK_LENGTH, model.GRAVITY)

TABLE_FRICTION = 0.6
STICK = 1                   #: collision_type of sticks
TABLE = 2                   #: collision_type of the table
FRAME = 3                   #: collision_type of the boards
#: Half length (mm) of the table segment: wider than the world, so anything falling lands on it.
TABLE_HALF = model.WORLD_X
#: An insert may overlap neighbours by at most this much (mm): the penetration the solver itself
#: allows at rest (``collision_slop``), so a stick put exactly onto another is accepted.
INSERT_TOLERANCE = 0.1


@dataclass(frozen=True)
class PileModel:
    """How the pile behaves besides pymunk's solver: the values chosen by the sweep of PHYSICS.md.

    ``friction``: wood on wood, per contact (each shape gets its square root: pymunk multiplies them);
    ``tug_base`` mm/s and ``tug_gain`` (mm/s per mm/s of pull): a stick pulled out along the trough at
    ``v`` mm/s drags each stick it supported into the gap and tips it, an impulse of
    ``m·μ·(tug_base + tug_gain·v)·load`` at the contact, along the contact surface downhill plus
    ``into_gap`` times that into the gap, ``load`` the static weight (in stick weights) that contact
    carried (the stick and what rests on it, shared among its supports, at most ``load_cap``);
    ``side_drag`` 1/s: an across-stick dragged in its lane pulls the overlapping
    across-sticks of the lanes next to it towards its own velocity at that rate, at most ``μ·g``
    (their side faces rub); ``slow_pull`` mm/s: the pull speed of a careful hand (the default)."""

    friction: float = 0.4
    tug_base: float = 20.0
    tug_gain: float = 2.0
    load_cap: float = 4.0
    side_drag: float = 20.0
    slow_pull: float = 30.0
    into_gap: float = 0.5


#: The model in use (``games/tokami/PHYSICS.md`` has the sweep that chose it).
PILE = PileModel()
#: Pull speeds (mm/s) a hand can give a stick leaving along the trough: a still hand pulls at
#: ``PileModel.slow_pull``, a yank at most this fast.
FAST_PULL = 600.0
#: A fallen stick that has not reached the table leaves the space this long (s) after it fell.
FALL_LINGER = 1.0
#: What :meth:`TokamiWorld.loads_of` reads of every contact in one call (pymunk's batch API).
_LOAD_FIELDS = (pymunk.batch.ArbiterFields.BODY_A_ID | pymunk.batch.ArbiterFields.BODY_B_ID
                | pymunk.batch.ArbiterFields.TOTAL_IMPULSE)


@dataclass(frozen=True)
class StickInfo:
    """What the world knows of a stick besides its body: ``kind`` ("across"/"along"), ``lane``
    (0..5, -1 for along) and ``colour`` (a ``model.COLOURS`` name or None)."""

    kind: str
    lane: int
    colour: str | None = None


@dataclass(frozen=True)
class TokamiSnapshot:
    """Canonical snapshot of a Tokami world: the poses of every stick in the space, their motion
    (``sim.physics`` :class:`Snapshot`), the colours, the fallen sticks so far and the ones still
    tumbling (id -> step they fell at)."""

    poses: dict
    motion: Snapshot
    colours: dict
    fallen: tuple
    tumbling: dict


def outside_v(pose: Pose) -> bool:
    """Whether a stick in ``pose`` is clear of the upper V: wholly above the wing tips, or wholly
    beyond the outer face of one wing (mm geometry; used to decide when a drawn stick is out)."""
    verts = model.world_vertices(pose)
    if min(vy for _vx, vy in verts) - model.BEVEL >= model.WING_TIP:
        return True
    reach = model.BOARD_HALF + model.BEVEL
    s = math.sqrt(0.5)
    right = all((vx - vy) * s >= reach for vx, vy in verts)
    left = all((-vx - vy) * s >= reach for vx, vy in verts)
    return right or left


def _check_pose(pose: Pose) -> Pose:
    """``pose`` as a normalised tuple; raises ``ValueError`` naming what is wrong."""
    return model.pose_from_json(list(pose))


class TokamiWorld:
    """The live pymunk world of one Tokami position.

    ``poses``: ``{id: (kind, lane, x, y, a)}`` of the sticks on the X (ids are ints 0..35);
    ``colours``: a mapping ``id -> colour`` or a sequence indexed by id (e.g. ``state.colours``), or
    None. Raises ``ValueError`` for a bad pose. Sticks are added in id order, so the same poses always
    build the same world.
    """

    def __init__(self, poses: Mapping[int, Pose], colours: Mapping[int, str | None] | Sequence | None = None,
                 settings: Settings = SETTINGS, hand: HandSettings = HAND, pile: PileModel | None = None):
        #: the pile model of this world (default: the module's :data:`PILE` at build time)
        self.pile = PILE if pile is None else pile
        self._shape_friction = math.sqrt(self.pile.friction)
        self.world = World(settings, hand=hand)
        self.space = self.world.space
        self.info: dict[int, StickInfo] = {}
        self.colours: dict[int, str | None] = {}
        #: fallen stick ids in the order they fell
        self.fallen: list[int] = []
        #: largest new-contact impulse (g·mm/s) of the last step: 0 when nothing struck anything
        self.impact = 0.0
        self._impact = 0.0
        #: sticks that touched the table, in the order they did (each is fallen)
        self.table_touched: list[int] = []
        self._table_hits: set[int] = set()
        self._new_falls: list[int] = []
        self._falling: dict[int, int] = {}      # fallen, still tumbling: id -> step it fell at
        self._linger_steps = max(1, round(FALL_LINGER / settings.dt))
        self._build_frame()
        for sid in poses:
            if isinstance(sid, bool) or not isinstance(sid, int):
                raise ValueError(f"stick ids are whole numbers, not {sid!r}")
        for sid in sorted(poses):
            colour = None
            if colours is not None:
                if isinstance(colours, Mapping):
                    colour = colours.get(sid)
                elif 0 <= sid < len(colours):
                    colour = colours[sid]
            self.colours[sid] = colour
            self._add_stick(sid, _check_pose(poses[sid]))
        self.space.on_collision(STICK, None, begin=self._begin)
        self.world.after_step(self._after_step)
        self._rub: tuple[int | None, int, list[int]] = (None, -1, [])   # held id, step, neighbours
        self._arb_buf = pymunk.batch.Buffer()
        self._asleep_loads: dict[int, float] = {}   # loads of sleeping sticks (:meth:`loads_of`)
        if self.pile.side_drag > 0.0:
            self.world.before_step(self._side_drag)

    # ------------------------------------------------------------------ build
    def _build_frame(self) -> None:
        t = model.WING_TIP
        shapes = []
        for a, b in (((-t, -t), (t, t)), ((t, -t), (-t, t))):
            seg = pymunk.Segment(self.space.static_body, a, b, model.BOARD_HALF)
            seg.friction = self._shape_friction
            seg.elasticity = 0.0
            seg.filter = frame_filter()
            seg.collision_type = FRAME
            shapes.append(seg)
        table = pymunk.Segment(self.space.static_body, (-TABLE_HALF, model.TABLE_Y), (TABLE_HALF, model.TABLE_Y),
                               model.TABLE_RADIUS)
        table.friction = TABLE_FRICTION
        table.elasticity = 0.0
        table.filter = table_filter()
        table.collision_type = TABLE
        shapes.append(table)
        self.world.add_static(*shapes)

    def _make_body(self, sid: int, pose: Pose) -> tuple[pymunk.Body, pymunk.Poly]:
        kind, lane, x, y, a = pose
        hx, hy = model.half_extents(kind)
        body = pymunk.Body(model.STICK_MASS, pymunk.moment_for_box(model.STICK_MASS, (2 * hx, 2 * hy)))
        body.position = (x, y)
        body.angle = a
        shape = pymunk.Poly(body, model.core_vertices(kind), radius=model.BEVEL)
        shape.friction = self._shape_friction
        shape.elasticity = 0.0
        shape.collision_type = STICK
        shape.filter = lane_filter(lane) if kind == "across" else all_lanes_filter()
        shape.stick_id = sid
        body.stick_id = sid
        return body, shape

    def _add_stick(self, sid: int, pose: Pose) -> None:
        body, shape = self._make_body(sid, pose)
        self.world.add_body(sid, body, shape)
        self.info[sid] = StickInfo(pose[0], pose[1], self.colours.get(sid))

    # ----------------------------------------------------------------- reading
    def ids(self) -> list[int]:
        """Ids of the sticks on the X (in the plane, not fallen), ascending."""
        return sorted(k for k in self.world.keys() if k not in self._falling)

    def __contains__(self, sid: object) -> bool:
        """Whether stick ``sid`` is on the X (in the plane and not fallen)."""
        return sid in self.world and sid not in self._falling

    def tumbling(self) -> list[int]:
        """Fallen sticks still in the space, on their way to the table (draw them with :meth:`pose`)."""
        return sorted(self._falling)

    def pose(self, sid: int) -> Pose:
        """The pose of stick ``sid`` read from its body (``KeyError`` if it is not in the space)."""
        body = self.world.body(sid)
        info = self.info[sid]
        x, y = body.position
        return (info.kind, info.lane, float(x), float(y), float(body.angle))

    def poses(self) -> dict[int, Pose]:
        """``{id: pose}`` of every stick on the X, read from the bodies."""
        return {sid: self.pose(sid) for sid in self.ids()}

    def highest_point(self, sid: int) -> float:
        """The rule's highest point (mm) of stick ``sid`` now (``model.highest_point``)."""
        return model.highest_point(self.pose(sid))

    def body(self, sid: int) -> pymunk.Body:
        return self.world.body(sid)

    @property
    def time(self) -> float:
        """Simulated time (s) since the world was built."""
        return self.world.time

    @property
    def steps(self) -> int:
        return self.world.steps

    @property
    def hand(self):
        """The world's :class:`sim.physics.Hand`."""
        return self.world.hand

    @property
    def held(self) -> int | None:
        """The stick the hand holds, or None."""
        return self.world.hand.held

    def touching(self, sid: int) -> set[int]:
        """Ids of the sticks on the X that stick ``sid`` touches or overlaps now (a shape query, so it
        holds in a freshly built world too)."""
        return {oid for oid, _n in self._contacts(sid)}

    def _contacts(self, sid: int) -> list[tuple[int, tuple[float, float]]]:
        """(other id, unit normal from ``sid`` towards it) for every stick on the X it touches."""
        shape = next(iter(self.world.body(sid).shapes))
        out = []
        for h in self.space.shape_query(shape):
            oid = getattr(h.shape, "stick_id", None)
            if oid is None or oid == sid or oid in self._falling or not h.contact_point_set.points:
                continue
            n = h.contact_point_set.normal
            out.append((oid, (float(n[0]), float(n[1]))))
        return sorted(out)

    def loads(self) -> dict[int, float]:
        """Load of every stick on the X in stick weights: the sum of the magnitudes of its contact
        impulses in the last step over its weight's impulse ``m·g·dt`` (research §5: 1.4-12.5 in the
        fresh cube; a stick lying on a flat surface with nothing on it would read 1, one wedged in the
        V corner √2). Meaningful after a step (a freshly built world has no contacts yet)."""
        unit = model.STICK_MASS * model.GRAVITY * self.world.settings.dt
        out: dict[int, float] = {}
        for sid in self.ids():
            acc = [0.0]

            def visit(arb: pymunk.Arbiter, acc=acc) -> None:
                acc[0] += arb.total_impulse.length

            self.world.body(sid).each_arbiter(visit)
            out[sid] = acc[0] / unit
        return out

    def loads_of(self, sids: Sequence[int]) -> dict[int, float]:
        """:meth:`loads` of the sticks ``sids`` (each on the X), read in one batch: the space's
        contacts of the last step in one call for the awake sticks; a sleeping stick's own contacts
        (which do not change while it sleeps, and which the space no longer lists) once when it is
        first read asleep, then remembered until it wakes. Equal to :meth:`loads` up to the order of
        the sums (a few units in the last place)."""
        buf = self._arb_buf
        buf.clear()
        pymunk.batch.get_space_arbiters(self.space, _LOAD_FIELDS, buf)
        ids = memoryview(buf.int_buf()).cast("P").tolist()
        vals = memoryview(buf.float_buf()).cast("d").tolist()
        acc: dict[int, float] = {}
        hyp = math.hypot
        for i in range(0, len(ids), 2):
            j = hyp(vals[i], vals[i + 1])
            a, b = ids[i], ids[i + 1]
            acc[a] = acc.get(a, 0.0) + j
            acc[b] = acc.get(b, 0.0) + j
        unit = model.STICK_MASS * model.GRAVITY * self.world.settings.dt
        asleep = self._asleep_loads
        out: dict[int, float] = {}
        for sid in sids:
            body = self.world.body(sid)
            if body.is_sleeping:
                v = asleep.get(sid)
                if v is None:
                    v = asleep[sid] = self._load_of(body) / unit
                out[sid] = v
            else:
                out[sid] = acc.get(body.id, 0.0) / unit
        return out

    def _load_of(self, body: pymunk.Body) -> float:
        acc = [0.0]

        def visit(arb: pymunk.Arbiter) -> None:
            acc[0] += arb.total_impulse.length

        body.each_arbiter(visit)
        return acc[0]

    def stick_at(self, point: tuple[float, float], lane: int | None = None) -> int | None:
        """The stick under ``point`` (mm) as seen in depth lane ``lane`` (along-sticks and the across-
        sticks of that lane; ``None``: any lane, the frontmost lane first), or None. When two overlap
        slightly, the one the point lies deepest in wins."""
        if lane is None:
            for k in range(model.LANES):
                hit = self.stick_at(point, k)
                if hit is not None:
                    return hit
            return None
        if isinstance(lane, bool) or not isinstance(lane, int) or not 0 <= lane < model.LANES:
            raise ValueError(f"a lane is 0..{model.LANES - 1}, not {lane!r}")
        hits = self.space.point_query((float(point[0]), float(point[1])), 0.0, lane_query_filter(lane))
        best = None
        for h in hits:
            sid = getattr(h.shape, "stick_id", None)
            if sid is None or sid in self._falling:
                continue
            if best is None or (h.distance, sid) < best[0]:
                best = ((h.distance, sid), sid)
        return None if best is None else best[1]

    def is_settled(self) -> bool:
        """Whether the pile counted as settled after the last step (``World.is_settled``)."""
        return self.world.is_settled()

    def max_speed(self) -> float:
        """Largest speed (mm/s) of an awake stick after the last step (the held stick excluded)."""
        return self.world.last_speed

    # ---------------------------------------------------------------- stepping
    def _begin(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data) -> None:
        """Collision ``begin`` of a stick with anything: note table touches and the new contact's
        impulse estimate (reduced mass x approach speed along the normal; elasticity is 0)."""
        a, b = arbiter.shapes
        if b.collision_type == TABLE:
            self._table_hits.add(a.stick_id)
        cps = arbiter.contact_point_set
        if not cps.points:
            return
        n = cps.normal
        p = cps.points[0].point_a
        va = a.body.velocity_at_world_point(p)
        ma = a.body.mass
        if b.body.body_type == pymunk.Body.DYNAMIC:
            vb = b.body.velocity_at_world_point(p)
            mb = b.body.mass
            mu = ma * mb / (ma + mb)
        else:
            vb = (0.0, 0.0)
            mu = ma
        approach = (va[0] - vb[0]) * n[0] + (va[1] - vb[1]) * n[1]
        if approach > 0.0 and mu * approach > self._impact:
            self._impact = mu * approach

    def _side_drag(self) -> None:
        """Before a step: an across-stick in hand rubs the across-sticks of the lanes beside it whose
        footprint overlaps its own (they never collide in the model): each is pulled towards the held
        stick's velocity at ``side_drag`` per s, at most ``μ·g`` (``PileModel``). The neighbours are
        looked up every 12 steps."""
        held = self.world.hand.held
        if held is None or self.info[held].kind != "across":
            return
        now = self.world.steps
        rid, at, near = self._rub
        if rid != held or now - at >= 12:
            pose = self.pose(held)
            lane = self.info[held].lane
            near = [o for o in self.ids() if o != held and self.info[o].kind == "across"
                    and abs(self.info[o].lane - lane) == 1 and _overlap(pose, self.pose(o))]
            self._rub = (held, now, near)
        if not near:
            return
        hb = self.world.body(held)
        hvx, hvy = hb.velocity
        dt = self.world.settings.dt
        cap = self.pile.friction * model.GRAVITY * dt
        k = min(1.0, self.pile.side_drag * dt)
        for o in near:
            if o not in self.world or o in self._falling:
                continue
            b = self.world.body(o)
            vx, vy = b.velocity
            dx, dy = (hvx - vx) * k, (hvy - vy) * k
            d = math.hypot(dx, dy)
            if d < 1e-9:
                continue
            if d > cap:
                dx, dy = dx * cap / d, dy * cap / d
            if b.is_sleeping:
                if d < 0.5:
                    continue
                b.activate()
            b.velocity = (vx + dx, vy + dy)

    def _after_step(self) -> None:
        """Fall detection after a step: a stick on the X whose centre is below the crossing is fallen
        (listed at once, the hand lets go of it) and keeps tumbling; a stick touching the table or out
        of the world is fallen and leaves the space, as does a tumbling one after ``FALL_LINGER`` s."""
        self.impact = self._impact
        self._impact = 0.0
        if self._asleep_loads:
            for sid, _x, _y, _v in self.world.awake:        # woken: its remembered load is gone
                self._asleep_loads.pop(sid, None)
        now = self.world.steps
        gone = []
        for sid in sorted(self._table_hits):
            if sid not in self.table_touched:
                self.table_touched.append(sid)
            gone.append(sid)
        self._table_hits.clear()
        for sid, x, y, _speed in self.world.awake:     # sleeping sticks have not moved
            if sid in gone:
                continue
            if model.out_of_world(x, y):
                gone.append(sid)
            elif y < 0.0 and sid not in self._falling:
                self._mark_fallen(sid, now)
        for sid, at in self._falling.items():
            if now - at >= self._linger_steps and sid not in gone:
                gone.append(sid)
        for sid in gone:
            if sid not in self._falling:
                self._mark_fallen(sid, now)
            del self._falling[sid]
            self.world.remove_body(sid)

    def _mark_fallen(self, sid: int, now: int) -> None:
        if self.world.hand.held == sid:
            self.world.hand.release()
        self._falling[sid] = now
        self.world.set_watched(sid, False)
        self.fallen.append(sid)
        self._new_falls.append(sid)

    def step(self, n: int = 1) -> list[int]:
        """Advance ``n`` steps of 1/240 s; returns the ids that fell meanwhile (in order)."""
        self._new_falls = []
        self.world.step(n)
        return list(self._new_falls)

    def settle(self, max_time: float | None = None, max_steps: int | None = None) -> SettleResult:
        """Step until the pile has settled or ``max_time`` s (default 10 s; or ``max_steps`` steps)
        passed; falls are detected on the way and listed in :attr:`fallen`."""
        return self.world.settle(max_time, max_steps)

    def speeds(self) -> dict[int, float]:
        """Speed (mm/s, the larger of |v| and |ω| times the half length) of every stick on the X that
        was awake after the last step (for wobble cues); sleeping sticks are left out."""
        return {sid: v for sid, _x, _y, v in self.world.awake if sid not in self._falling}

    # ------------------------------------------------------------ taking out
    def can_leave_plane(self, sid: int) -> bool:
        """Whether stick ``sid`` can slide out of the plane along the trough: an along-stick always
        can; an across-stick when it touches no other stick, or when no across-stick of the lanes in
        front of it (or of all the lanes behind it) overlaps it (its path out of the trough is free)."""
        info = self.info[sid]
        if info.kind == "along":
            return True
        if not self.touching(sid):
            return True
        # an across-stick of another lane never collides with this one, so compare the footprints
        blocked_front = blocked_back = False
        pose = self.pose(sid)
        for oid in self.ids():
            other = self.info[oid]
            if oid == sid or other.kind != "across" or other.lane == info.lane:
                continue
            if _overlap(pose, self.pose(oid)):
                if other.lane < info.lane:
                    blocked_front = True
                else:
                    blocked_back = True
        return not (blocked_front and blocked_back)

    def static_loads(self) -> dict[int, float]:
        """Weight (in stick weights) each stick on the X bears from above, from the geometry alone (so it
        holds in a freshly built world): a stick weighs 1 plus what rests on it, shared equally among the
        sticks and boards it rests on (a contact whose normal points upwards from the lower body). Used
        to size the drag of a pull; ``loads`` is the solver's measure."""
        ids = self.ids()
        poses = {i: self.pose(i) for i in ids}
        below: dict[int, list[int]] = {}
        for i in ids:
            sup = [o for o, n in self._contacts(i) if n[1] < -0.2]      # normal from i towards o points down
            below[i] = sup
        # boards also carry: a stick touching a wing counts one support more
        for i in ids:
            if _on_board(poses[i]):
                below[i] = below[i] + [-1]
        load = {i: 1.0 for i in ids}
        for i in sorted(ids, key=lambda k: -poses[k][3]):          # top down
            sup = below[i]
            if not sup:
                continue
            share = load[i] / len(sup)
            for o in sup:
                if o in load:
                    load[o] += share
        return {i: load[i] - 1.0 for i in ids}

    def extract(self, sid: int, speed: float | None = None) -> None:
        """Stick ``sid`` slides out of the plane (along the trough) at ``speed`` mm/s (default the
        model's careful ``slow_pull``; clamped to ``slow_pull..FAST_PULL``): it leaves the space, and
        every stick it supported (touching it from above) gets the drag of the sliding stick: an
        impulse into the gap at the contact point, ``m·μ·(tug_base + tug_gain·speed)·load`` (it tips
        as well as slides, the more so the further the contact is from its centre); the whole pile
        wakes. ``KeyError`` if not on the X."""
        pm = self.pile
        v = pm.slow_pull if speed is None else max(pm.slow_pull, min(FAST_PULL, float(speed)))
        carried = self.static_loads() if sid in self else {}
        body0 = self.world.body(sid)
        shape0 = next(iter(body0.shapes))
        pushes = []
        for h in self.space.shape_query(shape0):
            oid = getattr(h.shape, "stick_id", None)
            if oid is None or oid == sid or oid in self._falling or not h.contact_point_set.points:
                continue
            n = h.contact_point_set.normal
            if n[1] <= 0.0:
                continue
            pts = h.contact_point_set.points
            cx = sum(p.point_b[0] for p in pts) / len(pts)
            cy = sum(p.point_b[1] for p in pts) / len(pts)
            supports = max(1, sum(1 for o, m in self._contacts(oid) if m[1] < -0.2))
            load = min(pm.load_cap, (1.0 + carried.get(oid, 0.0)) / supports)
            pushes.append((oid, (float(n[0]), float(n[1])), (cx, cy), load))
        self.world.remove_body(sid)
        for oid, (nx, ny), point, load in sorted(pushes):
            body = self.world.body(oid)
            j = body.mass * pm.friction * (pm.tug_base + pm.tug_gain * v) * load
            tx, ty = (-ny, nx) if nx < 0.0 else (ny, -nx)        # along the contact, downhill
            ix = -nx * j * pm.into_gap + tx * j
            iy = -ny * j * pm.into_gap + ty * j
            body.apply_impulse_at_world_point((ix, iy), point)
        self.world.wake_all()

    def insert(self, sid: int, pose: Pose) -> bool:
        """Put stick ``sid`` back into the plane at ``pose`` if it overlaps nothing it can touch
        (other sticks it meets, the frame, the table; overlaps up to ``INSERT_TOLERANCE`` mm are
        allowed). Returns whether it was put; on False nothing changes. Raises ``ValueError`` for a
        bad pose or a stick already on the X."""
        pose = _check_pose(pose)
        if sid in self.world:
            raise ValueError(f"stick {sid} is already on the X")
        body, shape = self._make_body(sid, pose)
        for h in self.space.shape_query(shape):
            cps = h.contact_point_set
            # a hit means contact; its depth is |distance| (the sign is not reliable between a box and
            # a segment), and a zero normal is chipmunk's answer for boxes sharing their centre
            if (cps.normal[0] == 0.0 and cps.normal[1] == 0.0) or any(
                    abs(p.distance) > INSERT_TOLERANCE for p in cps.points):
                return False
        self._add_stick(sid, pose)
        return True

    def fits(self, sid: int, pose: Pose) -> bool:
        """Whether stick ``sid`` could be put at ``pose`` (:meth:`insert`'s test) without changing the
        world (``sid`` itself, if in the space, is ignored)."""
        kind, lane, x, y, a = pose
        body = pymunk.Body(model.STICK_MASS, 1.0)
        body.position = (x, y)
        body.angle = a
        shape = pymunk.Poly(body, model.core_vertices(kind), radius=model.BEVEL)
        shape.filter = lane_filter(lane) if kind == "across" else all_lanes_filter()
        for h in self.space.shape_query(shape):
            if getattr(h.shape, "stick_id", None) == sid:
                continue
            cps = h.contact_point_set
            if (cps.normal[0] == 0.0 and cps.normal[1] == 0.0) or any(
                    abs(p.distance) > INSERT_TOLERANCE for p in cps.points):
                return False
        return True

    def touch_pose(self, sid: int, pose: Pose, gap: float = 0.2, reach: float = 300.0) -> Pose | None:
        """Where stick ``sid`` in ``pose`` touches the pile when lowered straight down (or, if it
        overlaps something now, raised straight up until it is free): the pose ``gap`` mm above the
        first contact, found by bisection to 0.05 mm within ``reach`` mm. None when there is no free
        place within reach or it would only touch below the crossing (it would fall past the X)."""
        kind, lane, x, y, a = pose
        if not self.fits(sid, pose):
            lo = None
            for k in range(1, 31):
                if self.fits(sid, (kind, lane, x, y + k * 10.0, a)):
                    lo = y + k * 10.0
                    break
            if lo is None:
                return None
            hi_bad = lo - 10.0
            while lo - hi_bad > 0.05:
                mid = (lo + hi_bad) / 2.0
                if self.fits(sid, (kind, lane, x, mid, a)):
                    lo = mid
                else:
                    hi_bad = mid
            free = lo
        else:
            free = y
            bad = None
            step = 8.0
            t = y
            while t > y - reach:
                t -= step
                if not self.fits(sid, (kind, lane, x, t, a)):
                    bad = t
                    break
                free = t
            if bad is None:
                return None
            while free - bad > 0.05:
                mid = (free + bad) / 2.0
                if self.fits(sid, (kind, lane, x, mid, a)):
                    free = mid
                else:
                    bad = mid
        out = (kind, lane, x, free + gap, a)
        if not self.fits(sid, out) or out[3] < 0.0:
            return None
        return out

    def remove(self, sid: int) -> None:
        """Take stick ``sid`` out of the space without any push (e.g. a drawn stick lifted clear).
        ``KeyError`` if it is not in the space."""
        self.world.remove_body(sid)
        self._falling.pop(sid, None)

    # -------------------------------------------------------------------- hand
    def grab(self, sid: int, point: tuple[float, float] | None = None) -> None:
        """The hand takes stick ``sid`` at ``point`` (mm, default its centre)."""
        if point is None:
            point = tuple(self.world.body(sid).position)
        self.world.hand.grab(sid, point)

    def move_hand(self, target: tuple[float, float], angle: float | None = None) -> None:
        """Aim the hand (the grab point) at ``target`` mm, the held stick at ``angle`` rad."""
        self.world.hand.move_to(target, angle)

    def release(self) -> None:
        """The hand lets go."""
        self.world.hand.release()

    # --------------------------------------------------------------- snapshots
    def snapshot(self) -> TokamiSnapshot:
        """Poses, motion, colours and the fallen list, enough to build an identical world."""
        every = {sid: self.pose(sid) for sid in self.world.keys()}
        return TokamiSnapshot(every, self.world.snapshot(), dict(self.colours), tuple(self.fallen),
                              dict(self._falling))

    @classmethod
    def restore(cls, snap: TokamiSnapshot) -> "TokamiWorld":
        """A NEW world built from ``snap`` (poses, then velocities); two restores of one snapshot fed
        the same inputs stay bit-identical (the live world it came from may drift by ~0.01 mm)."""
        w = cls(snap.poses, snap.colours)
        w.colours = dict(snap.colours)
        w.world.load_snapshot(snap.motion)
        w.fallen = list(snap.fallen)
        for sid, at in snap.tumbling.items():
            w._falling[sid] = at
            w.world.set_watched(sid, False)
        return w


def _on_board(pose: Pose) -> bool:
    """Whether a stick in ``pose`` touches a wing's face (within 0.5 mm)."""
    reach = model.BOARD_HALF + model.BEVEL + 0.5
    s = math.sqrt(0.5)
    for vx, vy in model.world_vertices(pose):
        if (vx + vy) * s >= 0 and abs((vy - vx) * s) <= reach:
            return True
        if (vy - vx) * s >= 0 and abs((vx + vy) * s) <= reach:
            return True
    return False


def _overlap(p: Pose, q: Pose) -> bool:
    """Whether the footprints (end-on outlines) of poses ``p`` and ``q`` overlap (separating axes)."""
    pv, qv = model.world_vertices(p), model.world_vertices(q)
    r = 2 * model.BEVEL
    for verts in (pv, qv):
        for i in range(4):
            x0, y0 = verts[i]
            x1, y1 = verts[(i + 1) % 4]
            nx, ny = y1 - y0, x0 - x1
            ln = math.hypot(nx, ny)
            nx, ny = nx / ln, ny / ln
            a = [vx * nx + vy * ny for vx, vy in pv]
            b = [vx * nx + vy * ny for vx, vy in qv]
            if max(a) + r <= min(b) or max(b) + r <= min(a):
                return False
    return True
