"""Tokami bots: easy, medium and hard (specs/tokami.md "Play expectations": "Bots plan a raise by
simulating candidate placements in a copy of the world and choose by risk; they decide whether to take a
winning stick the same way. Levels differ by candidates tried and by hand jitter.").

**Raise** (phase ``turn``). The bot ranks the sticks it may take by how much they carry (the contact
load of ``TokamiWorld.loads`` in stick weights: a stick with nothing on it reads about 1) and whether
they can leave the plane along the trough. For each stick it tries, the pile's upper surface
(:class:`Surface`, sampled every ``GRID`` mm) gives the height at which the stick, lowered from above,
would land for every placement: across (each lane) or along, centre x, angle. Placements that would beat
the stick's highest point by a safe margin are ranked by how well they are supported (the stick's centre
inside its contact span), how low they sit and how central they are; the best few become plans
(``["grab"], ["pull", v], ["lift", kind, lane], ["center", x, y, a], ["drop"], ["release"]``; a wedged across-stick is
pushed up in the plane instead) and each plan is **simulated** with ``driver.run_plan`` in a fresh world
built from the state's poses. Outcomes are judged as the rules will judge them: anything fallen costs
the held stick and the fallen ones (minus sticks), a placement not higher by more than
``model.RAISE_MARGIN`` costs the held stick; a success is worth more the less the pile moved (the risk)
and the larger the margin. Medium and hard then re-simulate their best plans with hand jitter of their
own size (fresh noise) and keep the plan that holds up best. When no raise succeeds in simulation and a
taboo stick is on the X, refusing (the taboo stick becomes a minus stick) is simulated too and chosen if
it costs less.

**Winning stick** (phase ``winning``). A stick is worth its score (red 0, else 1) plus the player's
minus sticks of its colour that it would return (seed "Returning Minus Sticks"), so non-red sticks and
colours of the player's minus sticks come first. The bot simulates drawing the best candidates (an
along-stick slides out along the trough; an across-stick is dragged out of the V in the plane: up, or
along its own axis) and draws only when a simulated draw takes the stick with nothing fallen and the pile
moved no more than the level tolerates (the jittered re-simulations must hold too); else it ends the
turn.

**Hand jitter.** The returned plan is the chosen plan plus noise of the level's size (``LEVELS``):
placement x and angle, the drop clearance, the path of a drawn stick. The bot never simulates the noisy
plan it returns, so it can fail like a person.

Think time: each level has a budget of CPU seconds per decision (``THINK_BUDGET``), read with
``time.thread_time``: the CPU time of the thinking thread, so neither a loaded machine nor the screen's
thread eats into it. A simulation is only started when it is expected to end within the budget (its
cost is the mean of those run so far); the candidates are simulated best-first, the best placement of
every stick before the second of any, and the jittered re-simulations get what exploring left
(exploring stops at ``EXPLORE_SHARE`` of the budget). ``cancelled()`` is checked before every
simulation too; the best plan found so far is returned.

Determinism: every random choice comes from a ``random.Random`` seeded with (seed, seat, level, state)
(never the wall clock, never global random state), so a decision depends only on those and, when the
budget cuts it short, on how many simulations fitted in it (an injected ``clock`` makes that
reproducible).

Units: mm, rad, s; y up; origin at the crossing of the X.
"""
from __future__ import annotations

import hashlib
import json
import math
import random
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

import numpy as np

from . import driver, model
from .model import Pose
from .rules import TokamiRules, raise_succeeds, stick_value
from .world import TokamiWorld, outside_v


@dataclass(frozen=True)
class Level:
    """What a bot level tries and how steady its hand is.

    ``sticks``: sticks tried for a raise; ``per_stick``: placements simulated per stick; ``draws``: draw
    simulations for a winning stick; ``checks``: jittered re-simulations of each of the best
    ``finalists`` plans; ``jitter_mm`` / ``jitter_deg``: standard deviation of the hand noise added to the
    returned plan (mm, degrees; a dropped stick also falls from up to about twice ``jitter_mm`` higher);
    ``margin``: how far (mm) above the height to beat the bot aims (besides ``model.RAISE_MARGIN``);
    ``tolerance``: most pile movement (mm) in a simulated draw the bot still accepts; ``pick_noise``:
    random spread added to the ranking of sticks (stick weights) and placements; ``pull``: the speed
    (mm/s) the bot means to pull a stick along the trough at (its hand varies it by a factor
    ``exp(N(0, 0.5))`` for easy, less for steadier hands); ``overconfidence``: how much grippier than it
    is the bot believes the wood to be (its simulations use friction ``μ·(1 + overconfidence)``), so a
    weaker player misjudges how far a stick will slide or tip."""

    sticks: int
    per_stick: int
    draws: int
    checks: int
    finalists: int
    jitter_mm: float
    jitter_deg: float
    margin: float
    tolerance: float
    pick_noise: float
    pull: float = 30.0
    overconfidence: float = 0.0


LEVELS: dict[str, Level] = {
    "easy": Level(sticks=2, per_stick=1, draws=2, checks=0, finalists=0, jitter_mm=8.0, jitter_deg=8.0,
                  margin=2.0, tolerance=15.0, pick_noise=4.0, pull=250.0, overconfidence=0.6),
    "medium": Level(sticks=4, per_stick=2, draws=3, checks=1, finalists=2, jitter_mm=4.0, jitter_deg=4.0,
                    margin=4.0, tolerance=6.0, pick_noise=1.5, pull=90.0, overconfidence=0.3),
    "hard": Level(sticks=8, per_stick=3, draws=5, checks=2, finalists=3, jitter_mm=1.0, jitter_deg=1.0,
                  margin=6.0, tolerance=3.0, pick_noise=0.3, pull=35.0, overconfidence=0.0),
}

#: CPU seconds a decision may take, by level (a person's patience: about 1 s at most at hard, less
#: below); see the module doc, "Think time".
THINK_BUDGET = {"easy": 0.3, "medium": 0.55, "hard": 0.85}
#: Share of the budget that simulating the candidates may use; the rest is for the re-simulations.
EXPLORE_SHARE = 0.7

#: Column spacing (mm) of the sampled pile surface.
GRID = 0.5
#: Sampled span of the world (mm): wider than the wings with a stick hanging over a tip.
SPAN = (-150.0, 150.0)
#: Placement centres are tried in ``-PLACE_X..PLACE_X`` mm.
PLACE_X = 66.0
#: Placements tried per template: centres every ``PLACE_STEP`` mm.
PLACE_STEP = 3.0
#: The ghost is dropped this far (mm) above where it would land (plus jitter), so it overlaps nothing.
CLEARANCE = 1.5
#: Angles (rad) tried for an across-stick; an along-stick is a square, so 0 and 45° are its only shapes.
ACROSS_ANGLES = (0.0, math.pi / 4, -math.pi / 4, math.pi / 8, -math.pi / 8)
ALONG_ANGLES = (math.pi / 4, 0.0)
#: How far (mm) beyond the point where a drawn across-stick clears the V its hand target lies.
DRAW_BEYOND = 12.0


# ------------------------------------------------------------------------------------- geometry
def _columns() -> np.ndarray:
    n = int(round((SPAN[1] - SPAN[0]) / GRID)) + 1
    return SPAN[0] + GRID * np.arange(n)


COLS = _columns()


def extent(pose: Pose, cols: np.ndarray = COLS) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper outline (mm) of a stick in ``pose`` over the columns ``cols`` (evenly spaced by
    ``GRID`` mm): ``(lo, hi)``, +inf / -inf where the stick does not reach. The outline of the core box
    is taken at every column (and each corner in the columns beside it, so a steep edge loses nothing
    between columns), then widened by the bevel radius sideways and vertically."""
    verts = model.world_vertices(pose)
    lo = np.full(cols.shape, np.inf)
    hi = np.full(cols.shape, -np.inf)
    for i in range(4):
        x0, y0 = verts[i]
        x1, y1 = verts[(i + 1) % 4]
        if abs(x1 - x0) < 1e-9:
            continue
        inside = (cols >= min(x0, x1)) & (cols <= max(x0, x1))
        y = y0 + (cols[inside] - x0) * ((y1 - y0) / (x1 - x0))
        hi[inside] = np.maximum(hi[inside], y)
        lo[inside] = np.minimum(lo[inside], y)
    for vx, vy in verts:
        near = np.abs(cols - vx) <= GRID
        hi[near] = np.maximum(hi[near], vy)
        lo[near] = np.minimum(lo[near], vy)
    r = model.BEVEL
    k = max(1, int(math.ceil(r / GRID)))
    hi_d = hi + r
    lo_d = lo - r
    for j in range(1, k + 1):
        dy = math.sqrt(max(0.0, r * r - min(r, j * GRID) ** 2))
        for sh in (j, -j):
            hs = np.full(cols.shape, -np.inf)
            ls = np.full(cols.shape, np.inf)
            if sh > 0:
                hs[sh:], ls[sh:] = hi[:-sh], lo[:-sh]
            else:
                hs[:sh], ls[:sh] = hi[-sh:], lo[-sh:]
            hi_d = np.maximum(hi_d, hs + dy)
            lo_d = np.minimum(lo_d, ls - dy)
    return lo_d, hi_d


def frame_surface(cols: np.ndarray = COLS) -> np.ndarray:
    """Upper surface (mm) of the two upper wings over ``cols``: the 8 mm boards at ±45° with their round
    tips; -inf beyond the tips (nothing holds a stick there)."""
    ax = np.abs(cols)
    tip = model.WING_TIP
    r = model.BOARD_HALF
    out = np.full(cols.shape, -np.inf)
    flat = ax <= tip - r / math.sqrt(2.0)
    out[flat] = ax[flat] + r * math.sqrt(2.0)
    cap = (ax > tip - r / math.sqrt(2.0)) & (ax <= tip + r)
    out[cap] = tip + np.sqrt(np.maximum(0.0, r * r - (ax[cap] - tip) ** 2))
    return out


@dataclass(frozen=True)
class Slot:
    """A placement found on the surface: ``pose`` (the stick dropped ``CLEARANCE`` above where it
    lands), ``hp`` its highest point (mm), ``support`` (mm: how far the stick's centre lies inside its
    contact span; negative when it overhangs its support) and ``landing`` (the centre y it lands at)."""

    pose: Pose
    hp: float
    support: float
    landing: float


class Surface:
    """The upper outline of the pile (and the wings) as seen by a stick lowered from above, per depth
    lane: an across-stick of lane k meets along-sticks and the across-sticks of lane k; an along-stick
    meets every stick (spec "Physics model"). Built from ``poses`` (``{id: pose}``)."""

    def __init__(self, poses: dict[int, Pose]):
        self.ids = sorted(poses)
        self.poses = {i: poses[i] for i in self.ids}
        self.hi = np.array([extent(poses[i])[1] for i in self.ids]) if self.ids else np.zeros((0, len(COLS)))
        self.frame = frame_surface()
        self.kinds = [poses[i][0] for i in self.ids]
        self.lanes = [poses[i][1] for i in self.ids]

    def envelope(self, kind: str, lane: int, exclude: int | None = None) -> np.ndarray:
        """Highest obstacle (mm) per column for a stick of ``kind`` in ``lane``, without stick
        ``exclude``."""
        rows = [r for r, i in enumerate(self.ids)
                if i != exclude and (kind == "along" or self.kinds[r] == "along" or self.lanes[r] == lane)]
        if not rows:
            return self.frame.copy()
        return np.maximum(self.frame, self.hi[rows].max(axis=0))

    @staticmethod
    def landing(pose: Pose, env: np.ndarray) -> float:
        """Centre y (mm) at which a stick of ``pose``'s kind, x and angle, lowered from above, first
        touches ``env``; -inf when nothing is under it."""
        lo, _hi = extent((pose[0], pose[1], pose[2], 0.0, pose[4]))
        d = env - lo
        d = d[np.isfinite(lo) & np.isfinite(env)]
        return float(d.max()) if d.size else -math.inf

    def slots(self, kind: str, lane: int, angle: float, env: np.ndarray) -> list[Slot]:
        """Every placement of a stick of ``kind`` / ``lane`` at ``angle`` with centres every
        ``PLACE_STEP`` mm in ``-PLACE_X..PLACE_X``, lowered onto ``env``."""
        half = int(round(40.0 / GRID))
        local = GRID * np.arange(-half, half + 1)
        lo0, hi0 = extent((kind, lane, 0.0, 0.0, angle), local)
        top0 = float(hi0[np.isfinite(hi0)].max())
        stride = int(round(PLACE_STEP / GRID))
        c0 = int(round((-PLACE_X - SPAN[0]) / GRID))
        c1 = int(round((PLACE_X - SPAN[0]) / GRID))
        centres = np.arange(c0, c1 + 1, stride)
        win = np.lib.stride_tricks.sliding_window_view(env, 2 * half + 1)[centres - half]
        with np.errstate(invalid="ignore"):
            d = win - lo0[None, :]
        d[~np.isfinite(d)] = -np.inf
        y = d.max(axis=1)
        out: list[Slot] = []
        for r, c in enumerate(centres):
            if not math.isfinite(y[r]):
                continue
            touch = np.nonzero(d[r] >= y[r] - 1.0)[0]
            span_lo = (touch.min() - half) * GRID
            span_hi = (touch.max() - half) * GRID
            x = float(COLS[c])
            yc = float(y[r]) + CLEARANCE
            out.append(Slot((kind, lane, x, yc, angle), yc + top0, min(-span_lo, span_hi), float(y[r])))
        return out


# ------------------------------------------------------------------------------------ outcomes
def pile_movement(before: dict[int, Pose], after: dict, skip: int | None = None) -> float:
    """Largest movement (mm) of a stick present before and after (centre shift plus turn times half
    length), ``skip`` left out; a stick that left the X counts as 100 mm."""
    worst = 0.0
    for sid, p in before.items():
        if sid == skip:
            continue
        q = after.get(sid)
        if q is None:
            worst = max(worst, 100.0)
            continue
        da = abs((q[4] - p[4] + math.pi) % (2 * math.pi) - math.pi)
        worst = max(worst, math.hypot(q[2] - p[2], q[3] - p[3]) + da * model.half_extents(p[0])[0])
    return worst


def _after_poses(action: dict) -> dict[int, Pose]:
    return {int(k): model.pose_from_json(v) for k, v in action["poses"].items()}


@dataclass(frozen=True)
class Outcome:
    """A simulated attempt judged like the rules: ``loss`` (minus sticks it brings), ``ok`` (a raise that
    succeeds / a stick drawn, nothing fallen), ``margin`` (mm over the height to beat, raises), ``move``
    (mm, how much the rest of the pile moved), ``utility`` (higher is better)."""

    ok: bool
    loss: int
    margin: float
    move: float
    utility: float


def judge_raise(state: Any, stick: int, action: dict) -> Outcome:
    """Judge a simulated ``raised`` action for ``stick`` from ``state`` (phase turn or raise)."""
    after = _after_poses(action)
    fallen = list(action["fallen"])
    hp0 = model.highest_point(state.poses[stick])
    placed = action["placed"] and stick in after
    move = pile_movement(state.poses, after, skip=stick)
    margin = (model.highest_point(after[stick]) - hp0 - model.RAISE_MARGIN) if placed else -math.inf
    if fallen:
        loss = len(set(fallen) | {stick})
        return Outcome(False, loss, margin, move, -10.0 * loss)
    if not placed or not raise_succeeds(hp0, after[stick]):
        return Outcome(False, 1, margin, move, -10.0 - min(move, 50.0) / 50.0)
    utility = 1.0 - 0.6 * min(move, 30.0) / 30.0 + 0.4 * min(margin, 10.0) / 10.0
    return Outcome(True, 0, margin, move, utility)


def judge_draw(state: Any, stick: int, action: dict, value: float) -> Outcome:
    """Judge a simulated ``drawn`` action: taken with nothing fallen scores ``value`` less a little for
    the pile's movement; anything fallen loses the drawn and fallen sticks; not taken is worth 0."""
    after = _after_poses(action)
    fallen = list(action["fallen"])
    move = pile_movement(state.poses, after, skip=stick)
    if fallen:
        loss = len(set(fallen) | {stick})
        return Outcome(False, loss, 0.0, move, -float(loss) - value)
    if not action["taken"]:
        return Outcome(False, 0, 0.0, move, -0.5)
    return Outcome(True, 0, 0.0, move, value - min(move, 30.0) / 60.0)


def _loads(poses: dict[int, Pose]) -> dict[int, float]:
    """Contact load of every stick in stick weights (``TokamiWorld.loads`` after two steps of a world
    built from ``poses``: about 1 for a stick with nothing on it)."""
    world = TokamiWorld(poses)
    world.step(2)
    return world.loads()


# ------------------------------------------------------------------------------------------ bot
#: The judgement of a plan the driver refused to run (never chosen while anything else is left).
REFUSED = Outcome(False, 1, -math.inf, 0.0, -20.0)


@dataclass
class _Candidate:
    stick: int
    plan: list
    kind: str                # "lift" (out of the plane and dropped), "push" (in the plane), "draw"
    slot: Slot | None = None
    outcome: Outcome | None = None
    checked: list | None = None
    raw: Outcome | None = None       # a draw's simulated outcome before the level's tolerance

    @property
    def score(self) -> float:
        """Utility of the simulated plan, averaged with its jittered re-simulations."""
        if self.outcome is None:
            return -math.inf
        if not self.checked:
            return self.outcome.utility
        return (self.outcome.utility + sum(o.utility for o in self.checked)) / (1 + len(self.checked))

    @property
    def rank(self) -> tuple[int, float]:
        """Sort key: plans that held up under jitter first, then plans not re-simulated, then plans that
        failed a re-simulation; by :attr:`score` within each group."""
        if self.checked is None:
            group = 1
        else:
            group = 2 if all(o.ok for o in self.checked) else 0
        return group, self.score


class TokamiBot:
    """A Tokami bot for ``seat`` at ``level`` ("easy", "medium", "hard") seeded with ``seed``.

    :meth:`decide` is the whole interface for a screen or selfplay; :meth:`select_action` makes it an
    Agent (``sim.ai.Agent``) for code that only wants the rules action (the plan is kept in
    :attr:`plan`). ``clock`` (seconds of CPU, default ``time.thread_time``) measures the think time
    against ``THINK_BUDGET[level]``. ``ValueError`` for an unknown level."""

    def __init__(self, seat: int, level: str, seed: int = 0, clock: Callable[[], float] | None = None):
        if level not in LEVELS:
            raise ValueError(f"unknown Tokami bot level {level!r} (easy, medium or hard)")
        self.seat = int(seat)
        self.level = level
        self.cfg = LEVELS[level]
        self.seed = int(seed)
        self.name = f"bot:{level}"
        #: the plan of the last decision (None for refuse / end)
        self.plan: list | None = None
        #: simulations run by the last decision
        self.simulations = 0
        self.clock = clock or time.thread_time
        self.budget = THINK_BUDGET[level]
        self._start = 0.0
        self._sim_time = 0.0

    # ------------------------------------------------------------------ public
    def decide(self, state: Any, cancelled: Callable[[], bool] = lambda: False) -> dict:
        """The bot's move in ``state``.

        Phase ``turn``: ``{"action": {"t": "take", "stick": id}, "plan": plan}`` or ``{"action": {"t":
        "refuse"}}``; phase ``winning``: ``{"action": {"t": "draw", "stick": id}, "plan": plan}`` or
        ``{"action": {"t": "end"}}``. ``plan`` is a ``driver.run_plan`` plan for the stick (run it on the
        state after the action). The result also holds ``"simulations"`` (how many were run). Raises
        ``ValueError`` when it is not this seat's move in phase turn or winning."""
        phase = getattr(state, "phase", None)
        if phase not in ("turn", "winning"):
            raise ValueError(f"a Tokami bot moves in phase turn or winning, not {phase!r}")
        if state.player != self.seat:
            raise ValueError(f"it is player {state.player}'s move, not seat {self.seat}'s")
        self.simulations = 0
        self._sim_time = 0.0
        self._start = self.clock()
        out = self._raise(state, cancelled) if phase == "turn" else self._winning(state, cancelled)
        self.plan = out.get("plan")
        out["simulations"] = self.simulations
        return out

    def select_action(self, rules: Any, state: Any, player: int) -> dict:
        """Agent form: the rules action of :meth:`decide` (its plan is kept in :attr:`plan`)."""
        return self.decide(state)["action"]

    # ---------------------------------------------------------------- helpers
    def _rng(self, state: Any, stream: str) -> random.Random:
        """A generator for one decision: from the seed, seat, level, the position and ``stream``."""
        key = json.dumps([state.phase, state.player, state.round, state.taboo,
                          state.current["stick"] if state.current else None,
                          driver.poses_json(state.poses)], separators=(",", ":"))
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        return random.Random(f"tokami/{self.seed}/{self.seat}/{self.level}/{stream}/{digest}")

    def _over(self, share: float) -> bool:
        """Whether one more simulation (as long as the mean so far) would end past ``share`` of the
        budget; never before the first simulation of a decision."""
        if not self.simulations:
            return False
        mean = self._sim_time / self.simulations
        return self.clock() - self._start + mean > self.budget * share

    def _simulate(self, state: Any, cand: _Candidate, plan: list | None = None) -> dict | None:
        """The PHYSICS action of running the plan (``driver.run_plan`` in a fresh world), or None when
        the driver refuses an input of it (that plan is then judged a failure)."""
        self.simulations += 1
        t0 = self.clock()
        try:
            return driver.run_plan(state, cand.plan if plan is None else plan, stick=cand.stick,
                                   pile=self.belief())
        except ValueError:
            return None
        finally:
            self._sim_time += self.clock() - t0

    # ------------------------------------------------------------------ raise
    def _raise(self, state: Any, cancelled: Callable[[], bool]) -> dict:
        cfg = self.cfg
        rng = self._rng(state, "choose")
        takeable = TokamiRules().takeable(state)
        fresh = TokamiWorld(state.poses)              # as the driver's attempt sees it at its start
        liftable = {i: fresh.can_leave_plane(i) for i in takeable}
        loads = _loads(state.poses)
        ranked = sorted(takeable, key=lambda i: (loads.get(i, 1.0) + (3.0 if not liftable[i] else 0.0)
                                                 + rng.random() * cfg.pick_noise, i))
        surface = Surface(state.poses)
        per: list[list[_Candidate]] = []
        for sid in ranked:
            if len(per) >= cfg.sticks:
                break
            found = self._raise_candidates(state, surface, sid, liftable[sid], rng)
            if found:
                per.append(found[:cfg.per_stick])
        # best-first for an answer at any time: the best placement of every stick, then the second...
        cands = [c for k in range(cfg.per_stick) for found in per if k < len(found) for c in found[k:k + 1]]
        done: list[_Candidate] = []
        for c in cands:
            if cancelled() or self._over(EXPLORE_SHARE):
                break
            act = self._simulate(state, c)
            c.outcome = REFUSED if act is None else judge_raise(state, c.stick, act)
            done.append(c)
        self._check(state, done, cancelled, judge=lambda c, act: judge_raise(state, c.stick, act))
        best = max(done, key=lambda c: (c.outcome.ok, c.rank, -cands.index(c)), default=None)
        if best is None:
            if not cands:
                return self._fallback_raise(state, ranked)
            best = cands[0]                          # cancelled before any simulation
        elif best.outcome is REFUSED:                # the driver refused every plan tried
            return self._fallback_raise(state, ranked)
        if (best.outcome is not None and not best.outcome.ok and state.taboo is not None
                and state.taboo in state.poses and not cancelled()):
            if self._refuse_loss(state) < best.outcome.loss:
                return {"action": {"t": "refuse"}}
        return {"action": {"t": "take", "stick": best.stick}, "plan": self._jitter(state, best)}

    def _raise_candidates(self, state: Any, surface: Surface, sid: int, liftable: bool,
                          rng: random.Random) -> list[_Candidate]:
        """Plans to raise ``sid``, most promising first (not simulated yet)."""
        pose = state.poses[sid]
        hp0 = model.highest_point(pose)
        if not liftable:
            kind, lane, x, y, a = pose
            ux, uy = math.cos(a), math.sin(a)
            if uy < 0:
                ux, uy = -ux, -uy
            plans = []
            for tx, ty in ((x, y + 20.0), (x + 18.0 * ux, y + 18.0 * uy), (x - 6.0 * uy, y + 14.0)):
                plans.append(_Candidate(sid, [["grab"], ["center", tx, ty, a], ["wait", 0.25], ["release"]],
                                        "push"))
            return plans
        slots: list[Slot] = []
        for kind, lanes, angles in (("along", (-1,), ALONG_ANGLES),
                                    ("across", tuple(range(model.LANES)), ACROSS_ANGLES)):
            for lane in lanes:
                env = surface.envelope(kind, lane, exclude=sid)
                for a in angles:
                    for s in surface.slots(kind, lane, a, env):
                        if s.hp >= hp0 + model.RAISE_MARGIN + self.cfg.margin and s.pose[3] > 0.0:
                            slots.append(s)
        if not slots:
            return []

        def rank(s: Slot) -> float:
            return (2.0 * max(-5.0, min(s.support, 10.0)) - 0.4 * (s.hp - hp0 - self.cfg.margin)
                    - 0.05 * abs(s.pose[2]) + rng.random() * self.cfg.pick_noise)

        slots.sort(key=rank, reverse=True)
        picked: list[Slot] = []
        for s in slots:
            if all(s.pose[:2] != p.pose[:2] or abs(s.pose[4] - p.pose[4]) > 1e-6
                   or abs(s.pose[2] - p.pose[2]) >= 10.0 for p in picked):
                picked.append(s)
            if len(picked) >= self.cfg.per_stick:
                break
        return [_Candidate(sid, self._lift_plan(s.pose, self.cfg.pull), "lift", s) for s in picked]

    @staticmethod
    def _lift_plan(pose: Pose, pull: float) -> list:
        kind, lane, x, y, a = pose
        lift = ["lift", "along"] if kind == "along" else ["lift", "across", lane]
        return [["grab"], ["pull", pull], lift, ["center", x, y, a], ["drop"], ["release"]]

    def _fallback_raise(self, state: Any, ranked: list[int]) -> dict:
        """No placement found at all (or cancelled at once): push the least loaded stick up in the plane."""
        sid = ranked[0]
        x, y, a = state.poses[sid][2:]
        return {"action": {"t": "take", "stick": sid},
                "plan": [["grab"], ["center", x, y + 20.0, a], ["wait", 0.25], ["release"]]}

    def _refuse_loss(self, state: Any) -> int:
        """Minus sticks that refusing brings: the taboo stick slid off plus whatever falls meanwhile."""
        self.simulations += 1
        w = TokamiWorld(state.poses, pile=self.belief())
        w.extract(state.taboo)
        w.settle()
        return 1 + len(w.fallen)

    # ------------------------------------------------------------------- jitter
    def _jitter(self, state: Any, cand: _Candidate, stream: str = "hand") -> list:
        """``cand``'s plan with the level's hand noise (placement x, angle, drop clearance, path)."""
        rng = self._rng(state, f"{stream}/{cand.stick}")
        sd, sa = self.cfg.jitter_mm, math.radians(self.cfg.jitter_deg)
        plan = [list(c) for c in cand.plan]
        if cand.kind == "lift":
            kind, lane, x, _y, a = cand.slot.pose
            x += rng.gauss(0.0, sd)
            a += rng.gauss(0.0, sa)
            env = Surface({i: p for i, p in state.poses.items() if i != cand.stick}).envelope(kind, lane)
            y = Surface.landing((kind, lane, x, 0.0, a), env)
            if not math.isfinite(y):
                y = cand.slot.landing
            y += CLEARANCE + abs(rng.gauss(0.0, 2.0 * sd))
            plan[3] = ["center", x, y, a]
            plan[1] = ["pull", self._pull(rng)]
            return plan
        out = []
        for c in plan:
            if c[0] == "center":
                out.append(["center", c[1] + rng.gauss(0.0, sd), c[2] + rng.gauss(0.0, sd), c[3] + rng.gauss(0.0, sa)])
            elif c[0] == "pull":
                out.append(["pull", self._pull(rng)])
            else:
                out.append(c)
        if cand.kind == "draw" and out[1][0] == "pull":
            x, y, a = state.poses[cand.stick][2:]
            out.insert(1, ["center", x + rng.gauss(0.0, sd), y + rng.gauss(0.0, sd), a + rng.gauss(0.0, sa)])
        return out

    def belief(self):
        """The pile model this bot simulates with: the real one, its friction raised by the level's
        ``overconfidence``."""
        from . import world
        if not self.cfg.overconfidence:
            return world.PILE
        return replace(world.PILE, friction=world.PILE.friction * (1.0 + self.cfg.overconfidence))

    def _pull(self, rng: random.Random) -> float:
        """The pull speed (mm/s) this hand really gives: the level's ``pull`` times a log-normal factor
        whose spread grows with the level's ``jitter_mm`` (easy about x/÷ 1.6, hard x/÷ 1.1)."""
        return self.cfg.pull * math.exp(rng.gauss(0.0, 0.08 * self.cfg.jitter_mm))

    def _check(self, state: Any, done: list[_Candidate], cancelled: Callable[[], bool],
               judge: Callable[[_Candidate, dict], Outcome]) -> None:
        """Re-simulate the best ``finalists`` successful candidates with ``checks`` jittered plans each
        (fresh noise, not the noise of the returned plan); their score becomes the mean utility."""
        if not self.cfg.checks:
            return
        good = sorted((c for c in done if c.outcome is not None and c.outcome.ok), key=lambda c: -c.score)
        for c in good[:self.cfg.finalists]:
            c.checked = []
            for k in range(self.cfg.checks):
                if cancelled() or self._over(1.0):
                    if not c.checked:
                        c.checked = None                 # not re-simulated at all
                    return
                plan = self._jitter(state, c, stream=f"check{k}")
                act = self._simulate(state, c, plan)
                c.checked.append(REFUSED if act is None else judge(c, act))

    # ------------------------------------------------------------------ winning
    def _winning(self, state: Any, cancelled: Callable[[], bool]) -> dict:
        cfg = self.cfg
        rules = TokamiRules()
        drawable = rules.drawable(state)
        mine = state.minus[state.player]

        def value(i: int) -> float:
            colour = state.colours[i]
            return stick_value(colour) + sum(1 for j in mine if state.colours[j] == colour)

        world = TokamiWorld(state.poses)
        loads = _loads(state.poses)
        rng = self._rng(state, "draw")
        ranked = sorted(drawable, key=lambda i: (-value(i), loads.get(i, 1.0)
                                                 + (0.0 if state.poses[i][0] == "along" else 1.5)
                                                 + rng.random() * cfg.pick_noise, i))
        cands: list[_Candidate] = []
        for sid in ranked:
            if len(cands) >= cfg.draws:
                break
            plan = self._draw_plan(state, world, sid, cfg.pull)
            if plan is not None:
                cands.append(_Candidate(sid, plan, "draw"))
        done: list[_Candidate] = []
        for c in cands:
            if cancelled() or self._over(EXPLORE_SHARE):
                break
            act = self._simulate(state, c)
            c.outcome = REFUSED if act is None else judge_draw(state, c.stick, act, value(c.stick))
            c.raw = c.outcome
            if c.outcome.ok and c.outcome.move > cfg.tolerance:
                c.outcome = replace(c.outcome, ok=False, utility=-0.25)    # too shaky for this level
            done.append(c)
        self._check(state, done, cancelled,
                    judge=lambda c, act: judge_draw(state, c.stick, act, value(c.stick)))
        safe = [c for c in done if c.outcome.ok and c.rank[0] > 0]
        if not safe:
            # nothing within the level's tolerance: still draw a stick the simulation took cleanly when
            # it is worth a point, the least shaky first (else a careful table would never end a round)
            taken = [c for c in done if c.raw is not None and c.raw.ok and value(c.stick) > 0]
            if not taken:
                return {"action": {"t": "end"}}
            best = min(taken, key=lambda c: (c.raw.move, done.index(c)))
            return {"action": {"t": "draw", "stick": best.stick}, "plan": self._jitter(state, best)}
        best = max(safe, key=lambda c: (c.rank, -done.index(c)))
        if value(best.stick) <= 0 and best.outcome.move > cfg.tolerance / 2:
            return {"action": {"t": "end"}}            # a red stick for nothing: only when very safe
        return {"action": {"t": "draw", "stick": best.stick}, "plan": self._jitter(state, best)}

    @staticmethod
    def _draw_plan(state: Any, world: TokamiWorld, sid: int, pull: float) -> list | None:
        """How to draw ``sid``: an along-stick slides out along the trough; an across-stick is dragged in
        the plane, straight up when nothing lies on it, else along its own axis upwards, to a point
        ``DRAW_BEYOND`` mm past where it clears the V."""
        kind, lane, x, y, a = state.poses[sid]
        if kind == "along":
            return [["grab"], ["pull", pull], ["lift"]]
        above = any(state.poses[o][3] > y + model.STICK_THICK / 2 for o in world.touching(sid))
        ux, uy = math.cos(a), math.sin(a)
        if uy < 0:
            ux, uy = -ux, -uy
        dx, dy = (0.0, 1.0) if not above or uy < 0.2 else (ux, uy)
        for step in range(1, 60):
            d = 4.0 * step
            if outside_v((kind, lane, x + dx * d, y + dy * d, a)):
                d += DRAW_BEYOND
                return [["grab"], ["center", x + dx * d, y + dy * d, a], ["release"]]
        return None


def make_bot(seat: int, level: str, seed: int = 0, clock: Callable[[], float] | None = None) -> TokamiBot:
    """A :class:`TokamiBot` for ``seat`` at ``level`` ("easy", "medium" or "hard") seeded with ``seed``
    (the GameSpec ``make_bot`` hook); ``clock`` as for :class:`TokamiBot`. ``ValueError`` for an
    unknown level."""
    return TokamiBot(seat, level, seed, clock)
