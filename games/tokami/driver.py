"""The bridge from Tokami's rules states to its physical world: the PHYSICS player (the Tokami contract;
specs/tokami.md "Rule terms", "Play expectations"; research/tokami.md §4 "Determinism").

* :func:`settle_action` (phase ``settle``): build the pile (the crisscross cube for the set-up, else the
  recorded poses), slide out ``pending["remove"]``, let it settle, report ``{"t": "settled", ...}``.
  :class:`SettleRun` does the same one step at a time, for a screen that shows it.
* :class:`Attempt` (phases ``raise`` and ``draw``): owns a :class:`TokamiWorld` built from
  ``state.poses`` (so a turn replays bit-identically from the poses and the hand inputs), takes hand
  inputs one fixed step (1/240 s) at a time, records them (the "hand" track), stops at the first fall
  (the hand lets go), settles after release and produces the contract's ``raised`` / ``drawn`` action.
  The screen drives it with the mouse; the bots with :func:`run_plan` (scripted waypoints, no drawing).
* :class:`Playback` re-runs a recorded hand track on the same state one step at a time (the visual,
  slow-motion replay of a turn); :func:`replay` runs it at once.

Units: mm, rad, s; y up; origin at the crossing of the X.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from . import model
from .model import Pose
from .world import TokamiWorld, outside_v

#: The most entries a "hand" track may hold (the contract's bound; longer tracks are left out).
HAND_LIMIT = 20000
#: Touch-move: a stick counts as moved once any point of it has moved this far (mm) from its start.
TOUCH_MM = 2.0
#: Hand speed (mm/s) and turning speed (rad/s) of scripted plans between waypoints.
PLAN_SPEED = 300.0
PLAN_TURN = math.radians(240.0)


def poses_json(poses: dict[int, Pose]) -> dict[str, list]:
    """Contract form of poses: ``{str(id): model.pose_to_json(pose)}`` in id order."""
    return {str(sid): model.pose_to_json(poses[sid]) for sid in sorted(poses)}


def _phase(state: Any) -> str:
    phase = getattr(state, "phase", None)
    if not isinstance(phase, str):
        raise ValueError("not a Tokami state (it has no phase)")
    return phase


# ------------------------------------------------------------------------------------------- settle
class SettleRun:
    """Phase ``settle`` one step at a time: the world is built (the cube for ``why == "setup"``, else
    ``state.poses``), the sticks of ``pending["remove"]`` slide out along the trough, and the pile
    settles. ``world`` is the live :class:`TokamiWorld`; :meth:`step` advances; :meth:`finish` settles
    the rest (at most 10 s of simulated time in all) and returns the ``settled`` action.
    Raises ``ValueError`` outside phase settle."""

    def __init__(self, state: Any):
        if _phase(state) != "settle" or not isinstance(getattr(state, "pending", None), dict):
            raise ValueError("a settle run needs a state in phase settle")
        pending = state.pending
        setup = pending.get("why") == "setup"
        poses = (dict(enumerate(model.setup_poses(getattr(state, "setup", "cube"), state.colours))) if setup
                 else dict(state.poses))
        self.world = TokamiWorld(poses, state.colours)
        for sid in pending.get("remove", []):
            if sid in self.world:
                self.world.extract(sid)
        self.result = None
        self.action: dict | None = None

    @property
    def done(self) -> bool:
        """Whether the pile has settled (or :meth:`finish` was called)."""
        return self.action is not None or self.world.is_settled()

    def step(self, n: int = 1) -> list[int]:
        """Advance ``n`` steps unless settled; returns the sticks that fell meanwhile."""
        fell: list[int] = []
        for _ in range(n):
            if self.done:
                break
            fell += self.world.step()
        return fell

    def finish(self, max_time: float | None = None) -> dict:
        """Settle what is left (``max_time`` s, default the world's 10 s) and return the action
        ``{"t": "settled", "poses": {...}, "fallen": [ids]}``."""
        if self.action is None:
            left = (self.world.world.settings.settle_timeout if max_time is None else max_time) - self.world.time
            self.result = self.world.settle(max(0.0, left))
            self.action = {"t": "settled", "poses": poses_json(self.world.poses()),
                           "fallen": list(self.world.fallen)}
        return self.action


def settle_action(state: Any) -> dict:
    """The PHYSICS action of phase settle (contract): pose keys are the sticks on the X minus
    ``pending["remove"]`` minus the fallen ones. Raises ``ValueError`` outside phase settle."""
    return SettleRun(state).finish()


# ------------------------------------------------------------------------------------------ attempt
class AttemptOver(ValueError):
    """A hand input after the attempt stopped (a fall, a stick taken, or finished)."""


class Attempt:
    """One physical attempt of phase ``raise`` or ``draw``, fed hand inputs one step at a time.

    ``state``: a rules state in phase raise or draw (the stick is ``state.held``), or in phase turn or
    winning with ``stick`` given: the screen may start the attempt as soon as a stick is touched and
    submit ``take`` / ``draw`` once :meth:`displacement` passes ``TOUCH_MM`` (the poses are the same, so
    the action it produces fits the next state). Raises ``ValueError`` for any other state or stick.

    Inputs (each recorded in :attr:`track` as ``[step, op, *args]``): :meth:`grab`, :meth:`move`,
    :meth:`lift_out`, :meth:`set_ghost`, :meth:`drop`, :meth:`release`; time passes with :meth:`step`.
    The attempt **stops** at the first fall (the hand lets go, a carried ghost is lost) and, in a draw,
    when the stick is taken; then only :meth:`step`, :meth:`release` and :meth:`finish` are accepted
    (:class:`AttemptOver` otherwise; moving an empty hand is always a no-op). When the player is done,
    :meth:`close` (the screen may keep stepping to show the pile settle) and :meth:`finish`.

    Raise: the held stick may be dragged in the plane and released, or lifted out of the plane
    (:meth:`lift_out`: an along-stick always, an across-stick when ``world.can_leave_plane``), carried as
    a ghost of a chosen kind and lane, and put back with :meth:`drop` where it overlaps nothing.
    Draw: an along-stick leaves along the trough (:meth:`lift_out`); an across-stick is dragged out in the
    plane and is taken once, still in hand, it touches no other stick and is outside the V.
    """

    def __init__(self, state: Any, stick: int | None = None, pile: Any = None):
        phase = _phase(state)
        if phase in ("raise", "draw"):
            if stick is not None and stick != state.held:
                raise ValueError(f"this attempt is with stick {state.held}, not {stick}")
            stick = state.held
        elif phase in ("turn", "winning"):
            if stick is None:
                raise ValueError("before the take, name the stick the hand touches")
        else:
            raise ValueError(f"no physical attempt in phase {phase}")
        if stick not in state.poses:
            raise ValueError(f"stick {stick!r} is not on the X")
        self.kind = "raise" if phase in ("raise", "turn") else "draw"
        self.stick: int = stick
        self.world = TokamiWorld(state.poses, state.colours, pile=pile)
        self.start_pose: Pose = tuple(state.poses[stick])
        #: highest point (mm) of the stick before the attempt (the height a raise must beat)
        self.hp_before = model.highest_point(self.start_pose)
        self.track: list[list] = []
        self.ghost: Pose | None = None
        self.taken = False
        #: why the attempt stopped: None, "fall", "taken" or "finished"
        self.stopped: str | None = None
        self.settle_result = None
        self.action: dict | None = None
        self._ghost_offset = (0.0, 0.0)     # grab point in the ghost's frame (mm)
        self._target = (0.0, 0.0)
        self._angle = 0.0
        self._last_move: tuple | None = None
        self._closed_at: int | None = None
        #: speed (mm/s) of the next pull along the trough (:meth:`set_pull`; None: a careful pull)
        self.pull_speed: float | None = None

    # ---------------------------------------------------------------- reading
    @property
    def steps(self) -> int:
        """Steps taken since the attempt began (1/240 s each)."""
        return self.world.steps

    @property
    def holding(self) -> bool:
        """Whether the hand holds the stick (in the plane) or carries its ghost."""
        return self.ghost is not None or self.world.held == self.stick

    def held_pose(self) -> Pose | None:
        """Where the stick is: its ghost's pose while carried, its pose in the plane, else None."""
        if self.ghost is not None:
            return self.ghost
        if self.stick in self.world:
            return self.world.pose(self.stick)
        return None

    def displacement(self) -> float:
        """How far (mm) the stick has moved from its start: centre shift plus the turn times its half
        length (0 once it has left the plane). Compare with ``TOUCH_MM`` for touch-move."""
        pose = self.held_pose()
        if pose is None or self.ghost is not None:
            return math.inf
        _k, _l, x0, y0, a0 = self.start_pose
        half = model.half_extents(pose[0])[0]
        return math.hypot(pose[2] - x0, pose[3] - y0) + abs(pose[4] - a0) * half

    def can_lift(self) -> bool:
        """Whether :meth:`lift_out` is allowed now."""
        if self.stopped or self.ghost is not None or self.stick not in self.world:
            return False
        if self.kind == "draw":
            return self.world.info[self.stick].kind == "along"
        return self.world.can_leave_plane(self.stick)

    # ------------------------------------------------------------------ inputs
    def _record(self, *entry: Any) -> None:
        self.track.append([self.world.steps, *entry])

    def _live(self, what: str) -> None:
        if self._closed_at is not None:
            raise AttemptOver(f"cannot {what}: the attempt is closed")
        if self.stopped:
            raise AttemptOver(f"cannot {what}: the attempt has stopped ({self.stopped})")

    def grab(self, point: Sequence[float] | None = None) -> None:
        """The hand takes the stick at ``point`` (mm, on the stick; default its centre). Raises
        ``ValueError`` if the stick is not in the plane, already held, or the point misses it."""
        self._live("grab")
        if self.ghost is not None or self.world.held is not None:
            raise ValueError("the hand already holds the stick")
        if self.stick not in self.world:
            raise ValueError(f"stick {self.stick} is not on the X")
        body = self.world.body(self.stick)
        if point is None:
            px, py = body.position
        else:
            px, py = float(point[0]), float(point[1])
            if not (math.isfinite(px) and math.isfinite(py)):
                raise ValueError("a grab point must be finite")
            shape = next(iter(body.shapes))
            if shape.point_query((px, py)).distance > 0.5:
                raise ValueError(f"the point ({px:.1f}, {py:.1f}) is not on stick {self.stick}")
        self._record("grab", float(px), float(py))
        self.world.grab(self.stick, (px, py))
        self._target = (float(px), float(py))
        self._angle = float(body.angle)
        self._last_move = None

    def move(self, target: Sequence[float], angle: float | None = None) -> None:
        """Aim the hand (the grab point) at ``target`` (mm) with the stick at ``angle`` (rad; default
        unchanged). A no-op when the hand holds nothing. ``ValueError`` for non-finite values."""
        if not self.holding:
            return
        x, y = float(target[0]), float(target[1])
        a = self._angle if angle is None else float(angle)
        if not all(math.isfinite(v) for v in (x, y, a)):
            raise ValueError("a hand target must be finite")
        if (x, y, a) != self._last_move:
            self._record("move", x, y, a)
            self._last_move = (x, y, a)
        self._target = (x, y)
        self._angle = a
        if self.ghost is not None:
            self.ghost = self._ghost_pose(self.ghost[0], self.ghost[1])
        else:
            self.world.move_hand((x, y), a)

    def set_pull(self, speed: float) -> None:
        """How fast (mm/s) the hand pulls the stick when it next leaves along the trough
        (:meth:`lift_out`; ``TokamiWorld.extract`` clamps it to a careful ``slow_pull`` .. ``FAST_PULL``):
        a quick yank drags more of what rested on it. Recorded. ``ValueError`` if not finite or < 0."""
        self._live("pull")
        v = float(speed)
        if not math.isfinite(v) or v < 0.0:
            raise ValueError("a pull speed is a finite number of mm/s, at least 0")
        self._record("pull", v)
        self.pull_speed = v

    def lift_out(self, kind: str | None = None, lane: int | None = None) -> None:
        """The stick leaves the plane along the trough (``TokamiWorld.extract``: the pile loses it and
        what it supported gets a small push). Raise: it becomes a ghost carried by the hand as ``kind``
        ("across"/"along", default its own) in ``lane`` (across: 0..5, default its own or 0).
        Draw: only an along-stick leaves this way, and it is taken. ``ValueError`` if not allowed."""
        self._live("lift the stick out")
        if self.ghost is not None:
            raise ValueError("the stick is already out of the plane")
        if self.stick not in self.world:
            raise ValueError(f"stick {self.stick} is not on the X")
        info = self.world.info[self.stick]
        if self.kind == "draw":
            if info.kind != "along":
                raise ValueError("an across-stick is drawn by dragging it out of the V in the plane")
            self._record("lift")
            self.world.extract(self.stick, self.pull_speed)
            self.taken = True
            self.stopped = "taken"
            return
        kind = info.kind if kind is None else kind
        lane = self._lane_for(kind, lane, info)
        if not self.world.can_leave_plane(self.stick):
            raise ValueError("this across-stick is wedged: it can leave the plane once it touches no other "
                             "stick, or when the lanes in front of it or behind it are free")
        if self.world.held != self.stick:
            body = self.world.body(self.stick)
            self._target = (float(body.position[0]), float(body.position[1]))
            self._angle = float(body.angle)
            local = (0.0, 0.0)
        else:
            local = self.world.hand.local_point
            self._target = tuple(self.world.hand.target)
            self._angle = self.world.hand.target_angle
        self._record("lift", kind, lane)
        self.world.extract(self.stick, self.pull_speed)
        self._set_ghost(kind, lane, local)

    def set_ghost(self, kind: str, lane: int | None = None) -> None:
        """Change the carried ghost's ``kind`` and ``lane`` (the key that toggles across/along and picks
        the lane). ``ValueError`` when no ghost is carried or for a bad kind/lane."""
        self._live("change the stick")
        if self.ghost is None:
            raise ValueError("only a stick out of the plane can be turned across or along")
        info = self.world.info[self.stick]
        lane = self._lane_for(kind, lane, info)
        self._record("ghost", kind, lane)
        self._set_ghost(kind, lane, self._ghost_offset)

    def drop(self) -> bool:
        """Put the ghost into the plane at the hand's pose if it overlaps nothing it can touch; the
        hand then holds it there. Returns whether it was put (on False the ghost stays in hand)."""
        self._live("drop the stick")
        if self.ghost is None:
            raise ValueError("the hand carries no stick out of the plane")
        self._record("drop")
        pose = self.ghost
        if not self.world.insert(self.stick, pose):
            return False
        self.ghost = None
        self.world.grab(self.stick, self._target)
        self.world.move_hand(self._target, self._angle)
        self._last_move = None
        return True

    def touch_pose(self) -> Pose | None:
        """Where the carried ghost would touch the pile if lowered straight down (raised first if it
        overlaps something now), 0.2 mm above the contact (``TokamiWorld.touch_pose``); None without
        a ghost or without such a place."""
        if self.ghost is None or self.stopped:
            return None
        return self.world.touch_pose(self.stick, self.ghost)

    def lay_down(self) -> bool:
        """Lower the ghost until it touches and put it into the plane there, gently: the hand moves to
        the touch pose (a recorded move) and drops it, then holds it with its capped force. Returns
        whether it was put (False: no place to touch, the ghost stays in hand)."""
        self._live("lay the stick down")
        pose = self.touch_pose()
        if pose is None:
            return False
        ox, oy = self._ghost_offset
        a = pose[4]
        c, s = math.cos(a), math.sin(a)
        self.move((pose[2] + ox * c - oy * s, pose[3] + ox * s + oy * c), a)
        return self.drop()

    def release(self) -> None:
        """The hand lets go: a stick in the plane is left to the physics; a ghost out of the plane is
        not put back (the stick is not placed). A no-op when nothing is held."""
        if not self.holding:
            return
        self._record("release")
        self.ghost = None
        self.world.release()

    def step(self, n: int = 1) -> list[int]:
        """Advance ``n`` steps of 1/240 s; returns the sticks that fell meanwhile. At the first fall the
        attempt stops; in a draw, the stick still in hand counts as taken once it touches no other
        stick and is outside the V."""
        fell: list[int] = []
        for _ in range(n):
            new = self.world.step()
            if new:
                fell += new
                if not self.stopped:
                    self.stopped = "fall"
                    self.ghost = None
                    self.world.release()
            if (self.kind == "draw" and not self.stopped and self.world.held == self.stick
                    and not self.world.touching(self.stick)
                    and outside_v(self.world.pose(self.stick))):
                self.world.remove(self.stick)
                self.taken = True
                self.stopped = "taken"
        return fell

    def close(self) -> None:
        """The player is done: the hand lets go and ``finish`` is recorded at this step; the pile may
        then be stepped (shown settling) before :meth:`finish`. Further inputs raise
        :class:`AttemptOver`."""
        if self._closed_at is not None:
            return
        self.release()
        self._record("finish")
        self._closed_at = self.world.steps
        if not self.stopped:
            self.stopped = "finished"

    def finish(self, max_time: float | None = None) -> dict:
        """End the attempt (:meth:`close` if not yet), let the pile settle (at most ``max_time`` s,
        default 10 s, counted from the close; falls are still detected) and return the contract's
        action: ``{"t": "raised", "placed", "poses", "fallen", "hand"}`` or ``{"t": "drawn", "taken",
        "poses", "fallen", "hand"}`` ("hand" is left out when the track is longer than
        ``HAND_LIMIT``). Calling it again returns the same action."""
        if self.action is not None:
            return self.action
        self.close()
        settings = self.world.world.settings
        limit = settings.settle_timeout if max_time is None else max_time
        left = round(limit / settings.dt) - (self.world.steps - self._closed_at)
        self.settle_result = self.world.settle(max_steps=max(0, left))
        poses = self.world.poses()
        if self.kind == "raise":
            action = {"t": "raised", "placed": self.stick in poses}
        else:
            action = {"t": "drawn", "taken": self.taken}
        action["poses"] = poses_json(poses)
        action["fallen"] = list(self.world.fallen)
        if len(self.track) <= HAND_LIMIT:
            action["hand"] = [list(e) for e in self.track]
        self.action = action
        return action

    # ------------------------------------------------------------------ plans
    def run(self, plan: Sequence[Sequence[Any]], max_time: float | None = None) -> dict:
        """Run a scripted plan to the end and :meth:`finish` (see :func:`run_plan`)."""
        for cmd in _check_plan(plan):
            op, args = cmd[0], list(cmd[1:])
            if self.stopped and op != "wait":
                continue
            if op == "grab":
                self.grab(args if args else None)
            elif op == "move":
                self._glide(args[0], args[1], args[2])
            elif op == "center":
                self._glide(*self._hand_for_centre(args[0], args[1], args[2]))
            elif op == "lift":
                self.lift_out(*args)
            elif op == "pull":
                self.set_pull(args[0])
            elif op == "ghost":
                self.set_ghost(*args)
            elif op == "drop":
                self.drop()
            elif op == "release":
                self.release()
            elif op == "wait":
                self.step(max(0, round(args[0] / self.world.world.settings.dt)))
        return self.finish(max_time)

    def _hand_for_centre(self, x: float, y: float, a: float) -> tuple[float, float, float]:
        """Hand target that puts the stick's centre at (x, y) with angle a."""
        if self.ghost is not None:
            ox, oy = self._ghost_offset
        elif self.world.held == self.stick:
            ox, oy = self.world.hand.local_point
        else:
            ox, oy = 0.0, 0.0
        c, s = math.cos(a), math.sin(a)
        return x + ox * c - oy * s, y + ox * s + oy * c, a

    def _glide(self, x: float, y: float, a: float) -> None:
        """Move the hand to (x, y, a) at ``PLAN_SPEED`` / ``PLAN_TURN``, one step per waypoint."""
        if not self.holding:
            return
        x0, y0 = self._target
        a0 = self._angle
        dt = self.world.world.settings.dt
        n = max(1, math.ceil(max(math.hypot(x - x0, y - y0) / PLAN_SPEED, abs(a - a0) / PLAN_TURN) / dt))
        for i in range(1, n + 1):
            if not self.holding or self.stopped:
                return
            f = i / n
            self.move((x0 + (x - x0) * f, y0 + (y - y0) * f), a0 + (a - a0) * f)
            self.step()

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _lane_for(kind: str, lane: int | None, info) -> int:
        if kind == "along":
            if lane not in (None, -1):
                raise ValueError("an along-stick lies in every lane (lane -1)")
            return -1
        if kind != "across":
            raise ValueError(f"a stick lies across or along, not {kind!r}")
        if lane is None:
            lane = info.lane if info.kind == "across" else 0
        if isinstance(lane, bool) or not isinstance(lane, int) or not 0 <= lane < model.LANES:
            raise ValueError(f"an across-stick's lane is 0..{model.LANES - 1}, not {lane!r}")
        return lane

    def _set_ghost(self, kind: str, lane: int, local: tuple[float, float]) -> None:
        hx, hy = model.half_extents(kind)
        self._ghost_offset = (max(-hx, min(hx, local[0])), max(-hy, min(hy, local[1])))
        self.ghost = self._ghost_pose(kind, lane)
        self._last_move = None

    def _ghost_pose(self, kind: str, lane: int) -> Pose:
        ox, oy = self._ghost_offset
        a = self._angle
        c, s = math.cos(a), math.sin(a)
        return (kind, lane, self._target[0] - (ox * c - oy * s), self._target[1] - (ox * s + oy * c), a)


_PLAN_ARGS = {"grab": (0, 2), "move": (3, 3), "center": (3, 3), "lift": (0, 2), "pull": (1, 1), "ghost": (1, 2),
              "drop": (0, 0), "release": (0, 0), "wait": (1, 1)}


def _check_plan(plan: Any) -> list[list]:
    """``plan`` as a list of commands; raises ``ValueError`` naming the first bad one."""
    if not isinstance(plan, (list, tuple)):
        raise ValueError("a plan is a list of commands such as ['grab'], ['center', x, y, a], ['release']")
    out = []
    for i, cmd in enumerate(plan):
        if not isinstance(cmd, (list, tuple)) or not cmd or cmd[0] not in _PLAN_ARGS:
            raise ValueError(f"plan step {i}: unknown command {cmd!r} (one of {', '.join(_PLAN_ARGS)})")
        lo, hi = _PLAN_ARGS[cmd[0]]
        if not lo <= len(cmd) - 1 <= hi:
            raise ValueError(f"plan step {i}: {cmd[0]} takes {lo}..{hi} arguments")
        if cmd[0] in ("grab", "move", "center", "wait", "pull"):
            for v in cmd[1:]:
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                    raise ValueError(f"plan step {i}: {cmd[0]} takes finite numbers")
        out.append(list(cmd))
    return out


def run_plan(state: Any, plan: Sequence[Sequence[Any]], stick: int | None = None, pile: Any = None) -> dict:
    """Run a scripted attempt on ``state`` (phase raise or draw) to the end, without drawing, and return
    the PHYSICS action. The same plan on the same state always gives a bit-identical action.

    ``plan`` commands (JSON-able lists; mm, rad, s): ``["grab"]`` / ``["grab", x, y]``;
    ``["move", x, y, a]`` the hand (grab point) to (x, y), the stick to angle a; ``["center", x, y, a]``
    the stick's centre to (x, y) at angle a; ``["lift"]`` / ``["lift", kind, lane]``;
    ``["pull", mm/s]`` (the speed of the next pull along the trough); ``["ghost", kind, lane]``;
    ``["drop"]``; ``["release"]``; ``["wait", seconds]``. Moves glide at
    ``PLAN_SPEED`` mm/s and ``PLAN_TURN`` rad/s, one step at a time. After a fall the rest of the plan is
    skipped; the attempt then settles. ``pile``: a ``world.PileModel`` to simulate with instead of the
    one in use (a bot's belief). Raises ``ValueError`` for a bad plan or an input not allowed."""
    return Attempt(state, stick, pile).run(plan)


def place_plan(state: Any, pose: Pose, wait: float = 0.0) -> list[list]:
    """A plan that takes the held stick (grabbed at its centre) to ``pose``: out of the plane, carried
    and dropped there when it can leave the plane, else dragged in the plane; then released. A starting
    point for bots, which add their own jitter and checks."""
    kind, lane, x, y, a = pose
    world = TokamiWorld(state.poses)
    sid = state.held
    plan: list[list] = [["grab"]]
    if world.can_leave_plane(sid):
        plan += [["lift", kind, lane], ["center", x, y, a], ["drop"]]
    else:
        plan += [["center", x, y, a]]
    if wait:
        plan.append(["wait", wait])
    plan.append(["release"])
    return plan


class Playback:
    """A recorded hand ``track`` re-run on ``state`` one step at a time (the slow-motion replay of a
    turn, or practice mode's "show me again"): :meth:`step` applies the inputs due at the current step
    and advances one step; once the track closes it keeps stepping until the pile settles (or 10 s),
    then finishes. ``attempt`` is the live :class:`Attempt` (draw its ``world``); ``done`` once
    finished. Raises ``ValueError`` for a malformed track (entries ``[step, op, *args]`` in step
    order)."""

    _OPS = {"grab", "move", "lift", "pull", "ghost", "drop", "release", "finish"}

    def __init__(self, state: Any, track: Sequence[Sequence[Any]], stick: int | None = None):
        if not isinstance(track, (list, tuple)):
            raise ValueError("a hand track is a list of [step, op, ...] entries")
        last = 0
        for i, entry in enumerate(track):
            if (not isinstance(entry, (list, tuple)) or len(entry) < 2 or isinstance(entry[0], bool)
                    or not isinstance(entry[0], int) or entry[0] < last):
                raise ValueError(f"hand track entry {i} is not [step, op, ...] in step order")
            if entry[1] not in self._OPS:
                raise ValueError(f"hand track entry {i}: unknown op {entry[1]!r}")
            last = entry[0]
        self.attempt = Attempt(state, stick)
        self.track = [list(e) for e in track]
        self._next = 0

    @property
    def done(self) -> bool:
        return self.attempt.action is not None

    def _apply_due(self) -> None:
        att = self.attempt
        while (self._next < len(self.track) and self.track[self._next][0] == att.steps
               and att._closed_at is None):
            op, args = self.track[self._next][1], self.track[self._next][2:]
            self._next += 1
            if op == "grab":
                att.grab(args)
            elif op == "move":
                att.move(args[:2], args[2])
            elif op == "lift":
                att.lift_out(*args)
            elif op == "pull":
                att.set_pull(args[0])
            elif op == "ghost":
                att.set_ghost(*args)
            elif op == "drop":
                att.drop()
            elif op == "release":
                att.release()
            elif op == "finish":
                att.close()
        if self._next >= len(self.track):
            att.close()                            # a track cut short closes where it ends

    def step(self) -> None:
        """Apply the inputs due now and advance one step; once closed, step until the pile settles
        (or 10 s), then finish. A no-op once done."""
        if self.done:
            return
        att = self.attempt
        self._apply_due()
        if att._closed_at is not None:
            settings = att.world.world.settings
            limit = round(settings.settle_timeout / settings.dt)
            if att.world.is_settled() or att.steps - att._closed_at >= limit:
                att.finish()
                return
        att.step()

    def run(self) -> Attempt:
        """Play the rest at once and return the finished attempt."""
        att = self.attempt
        while att._closed_at is None:
            self._apply_due()
            if att._closed_at is None:
                att.step()
        att.finish()
        return att


def replay(state: Any, track: Sequence[Sequence[Any]], stick: int | None = None) -> Attempt:
    """Re-run a recorded hand ``track`` on ``state`` and return the finished :class:`Attempt` (its
    ``action`` equals the recorded one bit for bit on the same machine and pymunk build). Raises
    ``ValueError`` for a malformed track."""
    return Playback(state, track, stick).run()
