"""Tokami on the LAN: the host owns the pile (``sim.net.host.LivePart``), the active seat's hand comes
as a stream of ``hand`` messages, and every seat gets ``live`` frames of the pile while it moves.

Host side, :class:`TokamiLive`: phase ``settle`` runs a :class:`driver.SettleRun`; a grab by the seat to
act starts a :class:`driver.Attempt` (as on the local screen: touch means take, so the take or draw is
produced once the stick has moved ``driver.TOUCH_MM``); a bot's (or stand-in's) take plays its plan back
(:class:`driver.Playback` of the plan run off the loop). Each runs at the fixed step (1/240 s) for the
real time that passed; the outcome is the driver's own action (with its hand track), so the host's
record replays exactly (``driver.replay``).

Hand inputs (``hand`` objects; mm, rad, mm/s; the rules' ranges are checked, every number finite):

* ``{"op": "grab", "stick": id, "x", "y", "n"}``: take stick ``id`` at the point (x, y) on it, in the
  position of ``n`` actions (a grab made for an older position is refused);
* ``{"op": "move", "x", "y", "a"}``: the hand (the grab point) to (x, y), the stick at angle a;
* ``{"op": "lift", "kind": "across" | "along" | null, "lane": 0..5 | null, "pull": mm/s}``: out of the
  plane (a draw: slide an along-stick out along the trough);
* ``{"op": "ghost", "kind", "lane"}``: the stick carried out of the plane lies across (in a lane) or
  along;
* ``{"op": "lay", "x", "y", "a", "close": bool}``: lower the carried stick onto the pile there (refused
  where there is nothing to lay it on); with ``close`` the hand then lets go;
* ``{"op": "release"}``: let go (a stick only touched is put back: nothing happened).

Frames (the game's part of a ``live`` message; see :func:`check_frame`): ``kind`` ("settle", "hand",
"play", or null once nothing is live), ``seat`` (whose hand), ``stick`` (the stick in play), ``poses``
(``{id: [kind, lane, x, y, a]}`` of every stick in the world, tumbling ones too), ``tumbling``,
``fallen``, ``ghost`` and ``touch`` (poses or null), ``hand`` ([x, y] or null), ``closed``,
``hp_before``.
"""
from __future__ import annotations

import concurrent.futures
import math
from typing import Any

from sim.core.rules import PHYSICS, IllegalAction

from . import driver, model
from .world import SETTINGS

#: Steps after the hand lets go before the settle gives up (the driver's 10 s).
SETTLE_STEPS = round(SETTINGS.settle_timeout / SETTINGS.dt)
#: At most this many steps per advance (a stalled host catches up slowly instead of freezing).
MAX_STEPS = 60
HAND_KEYS = {
    "grab": {"op", "stick", "x", "y", "n"},
    "move": {"op", "x", "y", "a"},
    "lift": {"op", "kind", "lane", "pull"},
    "ghost": {"op", "kind", "lane"},
    "lay": {"op", "x", "y", "a", "close"},
    "release": {"op"},
}
#: Largest |angle| (rad) a hand may ask for, and fastest pull (mm/s) it may give.
MAX_ANGLE = 1000.0
MAX_PULL = 10000.0


def _num(h: dict, key: str, lo: float, hi: float) -> float:
    v = h.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not lo <= v <= hi:
        raise ValueError(f"{key} must be a number from {lo:g} to {hi:g}")
    return float(v)


def _point(h: dict) -> tuple[float, float]:
    return (_num(h, "x", -model.WORLD_X, model.WORLD_X), _num(h, "y", model.WORLD_Y_MIN, model.WORLD_Y_MAX))


def _kind_lane(h: dict) -> tuple[str | None, int | None]:
    kind, lane = h.get("kind"), h.get("lane")
    if kind not in (None, "across", "along"):
        raise ValueError("kind must be across, along or null")
    if lane is not None and (isinstance(lane, bool) or not isinstance(lane, int)
                             or not 0 <= lane < model.LANES):
        raise ValueError(f"lane must be 0..{model.LANES - 1} or null")
    return kind, lane


def check_hand(h: Any) -> dict:
    """``h`` as a hand input: a known op with exactly its keys and values in range; ``ValueError``
    with the reason otherwise."""
    if not isinstance(h, dict) or h.get("op") not in HAND_KEYS:
        raise ValueError(f"unknown hand op (one of {', '.join(HAND_KEYS)})")
    op = h["op"]
    if set(h) != HAND_KEYS[op]:
        raise ValueError(f"a {op} has exactly " + ", ".join(sorted(HAND_KEYS[op])))
    if op in ("grab", "move", "lay"):
        _point(h)
    if op in ("move", "lay"):
        _num(h, "a", -MAX_ANGLE, MAX_ANGLE)
    if op == "grab":
        s, n = h["stick"], h["n"]
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < model.N_STICKS:
            raise ValueError(f"stick must be 0..{model.N_STICKS - 1}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError("n must be a whole number >= 0")
    if op in ("lift", "ghost"):
        _kind_lane(h)
    if op == "lift":
        _num(h, "pull", 0.0, MAX_PULL)
    if op == "lay" and not isinstance(h["close"], bool):
        raise ValueError("close must be true or false")
    return h


def _pose(p) -> list:
    return [p[0], p[1], round(p[2], 3), round(p[3], 3), round(p[4], 5)]


class TokamiLive:
    """The host's live part for Tokami (``sim.net.host.LivePart``); ``rules`` a TokamiRules."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.kind: str | None = None        # "settle", "hand", "play" or None
        self.cursor = -1                    # the match position the live world belongs to
        self.seat: int | None = None        # whose hand (kind "hand" / "play")
        self.run: driver.SettleRun | None = None
        self.att: driver.Attempt | None = None
        self.pb: driver.Playback | None = None
        self.pb_action: dict | None = None
        self.committed = False              # the take / draw of the attempt was produced
        self.closed_at: int | None = None   # step at which the hand let go
        self.job: tuple | None = None       # a bot's plan run off the loop: (cursor, seat, state, future)
        self._acc = 0.0
        self._dirty = False                 # something to show besides moving bodies
        self._ended = False                 # one null frame to send
        self._pending: list[tuple[int, dict]] = []   # actions produced by a hand input, out next advance
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    # ------------------------------------------------------------------ host calls
    def hand_seat(self, state: Any) -> int | None:
        """The player of phases turn, raise, winning and draw (the seat whose hand may act)."""
        if state.phase in ("turn", "raise", "winning", "draw"):
            return state.player
        return None

    def hand(self, seat: int, state: Any, cursor: int, h: Any) -> None:
        """Apply one hand input of ``seat`` (the seat to act); ``ValueError`` with the reason if refused."""
        h = check_hand(h)
        self._follow(state, cursor)
        op = h["op"]
        if op == "grab":
            self._grab(seat, state, cursor, h)
            return
        att = self.att
        if self.kind != "hand" or att is None or self.seat != seat:
            if op in ("move", "release"):
                return                       # an empty hand moving or letting go: nothing to do
            raise ValueError("your hand holds no stick")
        if self.closed_at is not None:
            if op in ("move", "release"):
                return
            raise ValueError("you have let go: the pile settles")
        try:
            if op == "move":
                att.move(_point(h), h["a"])
            elif op == "lift":
                kind, lane = _kind_lane(h)
                if not att.can_lift():
                    raise ValueError("it is wedged: it can leave the plane once nothing in front or behind "
                                     "holds it" if att.kind == "raise" else "drag it out of the V to take it")
                att.set_pull(h["pull"])
                if att.kind == "draw":
                    att.lift_out()
                else:
                    att.lift_out(kind, lane if kind != "along" else None)
            elif op == "ghost":
                kind, lane = _kind_lane(h)
                if att.ghost is None:
                    raise ValueError("the stick is not out of the plane")
                att.set_ghost(kind or att.ghost[0], lane if (kind or att.ghost[0]) == "across" else None)
            elif op == "lay":
                if att.ghost is None:
                    raise ValueError("the stick is not out of the plane")
                att.move(_point(h), h["a"])
                if not att.lay_down():
                    raise ValueError("nothing to lay it on here: move it over the pile")
                if h["close"]:
                    self._close()
            elif op == "release":
                if att.ghost is not None:
                    att.release()             # a carried stick let go off the pile: not placed
                self._touched(state)
                if not self.committed:
                    self._end()               # only touched: nothing happened
                else:
                    self._close()
            if op in ("lift", "lay"):
                self._touched(state)
        except driver.AttemptOver as e:
            raise ValueError(str(e)) from None
        self._dirty = True

    def bot(self, seat: int, agent: Any, state: Any, cursor: int) -> None:
        """A bot's take or draw: its plan (``agent.plan``, else a grab and let go) is run off the loop,
        then played back live."""
        self._follow(state, cursor)
        if state.phase not in ("raise", "draw"):
            return
        plan = getattr(agent, "plan", None) or [["grab"], ["release"]]
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tokami-plan")
        self.job = (cursor, seat, state, self._pool.submit(_run_plan, state, plan))

    def dropped(self, seat: int, state: Any, cursor: int) -> None:
        """``seat``'s player is gone: a hand holding a stick lets go; a stick taken and not yet
        touched is let go of at once (a failed raise or an empty draw), so the stand-in can play on."""
        self._follow(state, cursor)
        if self.kind == "hand" and self.seat == seat and self.closed_at is None:
            if self.att.ghost is not None:
                self.att.release()
            if self.committed:
                self._close()
            else:
                self._end()
        elif (state.phase in ("raise", "draw") and state.player == seat and self.kind is None
              and self.job is None):
            self.bot(seat, None, state, cursor)

    def advance(self, state: Any, cursor: int, dt: float) -> list[tuple[int, dict]]:
        """``dt`` s of the live world at the fixed step; returns the actions produced."""
        self._follow(state, cursor)
        out, self._pending = self._pending, []
        if self.kind is None:
            out += self._start(state, cursor)
        if self.kind is None:
            return out
        self._acc = min(self._acc + max(0.0, dt), MAX_STEPS * SETTINGS.dt)
        n = int(self._acc / SETTINGS.dt + 1e-9)
        self._acc -= n * SETTINGS.dt
        if self.kind == "settle":
            run = self.run
            for _ in range(n):
                if run.done or run.world.time >= SETTINGS.settle_timeout:
                    break
                run.step()
            if run.done or run.world.time >= SETTINGS.settle_timeout:
                out.append((PHYSICS, run.finish()))
                self._end()
        elif self.kind == "play":
            pb = self.pb
            for _ in range(n):
                if pb.done:
                    break
                pb.step()
            if pb.done:
                out.append((PHYSICS, self.pb_action))
                self._end()
        else:
            out += self._advance_hand(state, n)
        return out

    def frame(self) -> dict | None:
        """The game part of a ``live`` frame, or None while nothing moves (and nothing changed)."""
        if self.kind is None:
            if self._ended:
                self._ended = False
                return {"kind": None}
            return None
        world = self.world()
        if not world.world.awake and not world.tumbling() and not self._dirty:
            return None
        self._dirty = False
        poses = {str(i): _pose(world.pose(i)) for i in sorted(world.world.keys())}
        att = self.att if self.kind == "hand" else (self.pb.attempt if self.kind == "play" else None)
        ghost = touch = hand = None
        hp = None
        if att is not None:
            hp = att.hp_before if att.kind == "raise" else None
            if att.ghost is not None:
                ghost = _pose(att.ghost)
                t = att.touch_pose() if att.kind == "raise" else None
                touch = _pose(t) if t is not None else None
            if att.holding:
                hand = [round(att._target[0], 3), round(att._target[1], 3)]
        return {"kind": self.kind, "seat": self.seat, "stick": att.stick if att is not None else None,
                "poses": poses, "tumbling": world.tumbling(), "fallen": list(world.fallen), "ghost": ghost,
                "touch": touch, "hand": hand, "closed": self.closed_at is not None or self.kind != "hand",
                "hp_before": hp}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # ------------------------------------------------------------------ inside
    def world(self):
        if self.kind == "settle":
            return self.run.world
        if self.kind == "play":
            return self.pb.attempt.world
        return self.att.world

    def _follow(self, state: Any, cursor: int) -> None:
        """Forget a live world the match has moved away from (not the take this attempt produced)."""
        if self.kind is None or cursor == self.cursor:
            return
        if (self.kind == "hand" and cursor == self.cursor + 1 and self.committed
                and state.phase in ("raise", "draw") and state.held == self.att.stick):
            self.cursor = cursor             # the take (or draw) of this attempt
            self._dirty = True               # a frame of the new position, even if nothing moves
            return
        self._end(quiet=False)
        self.job = None if self.job is not None and self.job[0] != cursor else self.job

    def _start(self, state: Any, cursor: int) -> list[tuple[int, dict]]:
        """A live world the position needs by itself: a settle, or a bot's plan played back (its
        outcome at once when it has no track to show)."""
        if state.phase == "settle":
            self.run = driver.SettleRun(state)
            self.kind, self.cursor, self.seat = "settle", cursor, None
            self._dirty = True
            return []
        job = self.job
        if job is None or not job[3].done():
            return []
        self.job = None
        if job[0] != cursor:
            return []
        try:
            action = job[3].result()
        except Exception:  # noqa: BLE001 - a broken plan: let go at once (a failed raise)
            action = driver.run_plan(job[2], [["grab"], ["release"]])
        try:
            self.pb = driver.Playback(job[2], action["hand"])
        except (KeyError, ValueError):
            return [(PHYSICS, action)]
        self.pb_action = action
        self.kind, self.cursor, self.seat = "play", cursor, job[1]
        self._dirty = True
        return []

    def _grab(self, seat: int, state: Any, cursor: int, h: dict) -> None:
        if h["n"] != cursor:
            raise ValueError("the game has moved on since: look again")
        if self.kind is not None or self.job is not None:
            raise ValueError("wait: the pile is moving" if self.kind != "hand" else
                             "your hand already holds a stick")
        sid = h["stick"]
        if state.phase == "turn":
            self.rules.check(state, seat, {"t": "take", "stick": sid})
        elif state.phase == "winning":
            self.rules.check(state, seat, {"t": "draw", "stick": sid})
        elif sid != state.held:
            raise IllegalAction(f"touch means take: you took stick {state.held}, use it")
        att = driver.Attempt(state, sid)
        try:
            att.grab(_point(h))
        except ValueError:
            att.grab(None)                   # a point off the stick: its centre
        self.att, self.kind, self.cursor, self.seat = att, "hand", cursor, seat
        self.committed = state.phase in ("raise", "draw")
        self.closed_at = None
        self._acc = 0.0
        self._dirty = True

    def _advance_hand(self, state: Any, n: int) -> list[tuple[int, dict]]:
        att = self.att
        out: list[tuple[int, dict]] = []
        for _ in range(n):
            if self._settled():
                break
            att.step()
            if not self.committed and (att.stopped or att.displacement() > driver.TOUCH_MM):
                out.append(self._commit(state))
            if att.stopped in ("fall", "taken") and self.closed_at is None:
                self._close()
        if self._settled():
            if not self.committed:           # lifted out and laid down at once
                out.append(self._commit(state))
            out.append((PHYSICS, att.finish()))
            self._end()
        return out

    def _settled(self) -> bool:
        """Whether the hand has let go and the pile has settled since (or the settle gave up)."""
        att = self.att
        return self.closed_at is not None and (att.world.is_settled() or att.steps - self.closed_at >= SETTLE_STEPS)

    def _touched(self, state: Any) -> None:
        """Touch means take: a stick moved beyond ``driver.TOUCH_MM`` (or out of the plane) before the
        next step is committed now (its take or draw goes out with the next advance)."""
        att = self.att
        if not self.committed and att.stick in att.world and att.ghost is None and not att.stopped \
                and att.displacement() <= driver.TOUCH_MM:
            return
        if not self.committed:
            self._pending.append(self._commit(state))

    def _commit(self, state: Any) -> tuple[int, dict]:
        self.committed = True
        return (self.seat, {"t": "take" if state.phase == "turn" else "draw", "stick": self.att.stick})

    def _close(self) -> None:
        self.att.close()
        self.closed_at = self.att.steps
        self._dirty = True

    def _end(self, quiet: bool = False) -> None:
        had = self.kind is not None
        self._pending = []
        self.kind = None
        self.run = self.att = self.pb = self.pb_action = None
        self.seat = None
        self.committed = False
        self.closed_at = None
        self._acc = 0.0
        self._ended = had or self._ended


def _run_plan(state: Any, plan: list) -> dict:
    """A bot's plan run to its outcome (a worker thread); a plan the driver refuses becomes a grab and
    let go (a failed raise, or a stick left where it lay)."""
    try:
        return driver.run_plan(state, plan)
    except ValueError:
        return driver.run_plan(state, [["grab"], ["release"]])


# ---------------------------------------------------------------------- client side
def _finite(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


def check_frame(msg: dict) -> None:
    """A client's check of a ``live`` frame's Tokami part; ``ValueError`` naming what is wrong."""
    kind = msg.get("kind")
    if kind is None:
        return
    if kind not in ("settle", "hand", "play"):
        raise ValueError(f"unknown live kind {str(kind)[:16]!r}")
    poses = msg.get("poses")
    if not isinstance(poses, dict) or len(poses) > model.N_STICKS:
        raise ValueError("poses must be an object of at most 36 sticks")
    for k, v in poses.items():
        if not isinstance(k, str) or not k.isdigit() or not 0 <= int(k) < model.N_STICKS:
            raise ValueError("a pose key is not a stick id")
        model.pose_from_json(v)
    for key in ("ghost", "touch"):
        if msg.get(key) is not None:
            model.pose_from_json(msg[key])
    for key in ("tumbling", "fallen"):
        v = msg.get(key)
        if not isinstance(v, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
            raise ValueError(f"{key} must be a list of stick ids")
    hand = msg.get("hand")
    if hand is not None and (not isinstance(hand, list) or len(hand) != 2 or not all(_finite(x) for x in hand)):
        raise ValueError("hand must be [x, y] or null")
    for key in ("seat", "stick"):
        v = msg.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 64):
            raise ValueError(f"{key} must be a number or null")
    if msg.get("hp_before") is not None and not _finite(msg["hp_before"]):
        raise ValueError("hp_before must be a number or null")
    if not isinstance(msg.get("closed"), bool):
        raise ValueError("closed must be true or false")


class LivePoses:
    """The poses a client draws from the host's frames: the newest two, interpolated by arrival time
    (shown one frame interval late, so motion is smooth between frames). ``poses(now)`` -> ``{id:
    pose}`` of the frame ``frame`` (None: nothing live for ``n``)."""

    def __init__(self):
        self.prev: tuple[float, dict] | None = None
        self.last: tuple[float, dict] | None = None

    def feed(self, at: float, msg: dict) -> None:
        if self.last is not None and msg["k"] <= self.last[1]["k"]:
            return
        self.prev, self.last = self.last, (at, msg)

    def current(self, n: int) -> dict | None:
        """The newest frame if it shows something live at or after position ``n``, else None."""
        if self.last is None:
            return None
        msg = self.last[1]
        if msg.get("kind") is None or msg["n"] < n:
            return None
        return msg

    def speeds(self) -> dict[int, float]:
        """Speed (mm/s) of every stick between the newest two frames (the wobble cue); {} without two
        frames of one live world."""
        if self.prev is None or self.last is None or self.prev[1].get("kind") is None \
                or self.last[1].get("kind") is None:
            return {}
        span = self.last[0] - self.prev[0]
        if span <= 1e-6:
            return {}
        before = self.prev[1]["poses"]
        out = {}
        for k, p in self.last[1]["poses"].items():
            q = before.get(k)
            if q is not None and q[:2] == p[:2]:
                out[int(k)] = math.hypot(p[2] - q[2], p[3] - q[3]) / span
        return out

    def poses(self, now: float, n: int, smooth: bool = True) -> dict | None:
        """The poses to draw at ``now`` (the clock of the arrival times): interpolated one frame
        interval late with ``smooth``, else the newest frame's as they are (the player's own hand:
        no added delay)."""
        msg = self.current(n)
        if msg is None:
            return None
        out = {int(k): tuple(v) for k, v in msg["poses"].items()}
        prev = self.prev
        if not smooth or prev is None or prev[1].get("kind") is None:
            return out
        t0, t1 = prev[0], self.last[0]
        span = t1 - t0
        if span <= 1e-6:
            return out
        f = min(1.0, max(0.0, (now - t1) / span))
        before = prev[1]["poses"]
        for k, p in out.items():
            q = before.get(str(k))
            if q is None or q[0] != p[0] or q[1] != p[1]:
                continue
            a = q[4] + (p[4] - q[4]) * f
            out[k] = (p[0], p[1], q[2] + (p[2] - q[2]) * f, q[3] + (p[3] - q[3]) * f, a)
        return out


class AutoHand:
    """A scripted Tokami player on the LAN (``playtable join --auto``): on its turn a bot of ``level``
    decides, and its plan is played as a hand stream (grab, moves at ``RATE`` a second at the driver's
    plan speeds, lift, lane, lay, let go), so the host's pile moves as under a person's hand. Call
    :meth:`step` often (every 20 ms or so); ``remote`` is this seat's ``RemoteMatch``."""

    RATE = 50.0

    def __init__(self, remote: Any, seed: int = 0, level: str = "easy", clock=None):
        import time as _time

        from .ai import make_bot
        self.remote = remote
        self.client = remote.client
        self.bot = make_bot(remote.seat, level, seed)
        self._make_bot = lambda k: make_bot(remote.seat, level, seed + 7919 * k)
        self.tries = 0                                 # attempts in this position that changed nothing
        self.clock = clock or _time.monotonic
        self.script: list[tuple[float, dict]] = []    # (due s, hand input), in order
        self.acted_at = -1                             # the position this player last acted in
        self.idle_since = 0.0

    def _live_now(self) -> bool:
        f = self.client.live
        return f is not None and f.get("kind") is not None and f["n"] >= self.remote.n

    def step(self) -> None:
        r = self.remote
        try:
            r.poll()
        except ValueError:
            return
        now = self.clock()
        while self.script and self.script[0][0] <= now:
            self.client.send_hand(self.script.pop(0)[1])
        st = r.state
        if self.script or st is None or r.is_over() or r.waiting() or st.player != r.seat:
            return
        if self._live_now():
            self.idle_since = now
            return
        f = self.client.live
        if r.n == self.acted_at and now - self.idle_since > 3.0 and (f is None or f.get("kind") is None):
            self.acted_at = -1                         # what it sent changed nothing: try again, otherwise
            self.tries += 1                            # (the same plan on a wedged stick would again)
            self.bot = self._make_bot(self.tries)
        if st.phase not in ("turn", "winning", "raise", "draw") or r.n <= self.acted_at:
            return
        if r.n != self.acted_at and self.acted_at != -1:
            self.tries = 0
        self.idle_since = now
        self.acted_at = r.n
        if st.phase == "winning" and self.tries >= 2:  # no winning stick would come: end the turn
            r.submit(r.seat, {"t": "end"})
            return
        if st.phase in ("raise", "draw"):              # a stick taken and never moved: let go of it
            if f is not None and f.get("kind") is not None:
                self.acted_at = -1                     # its hand's frame is on its way: wait for it
                return
            self.script = self._script(st, st.held, [["grab"], ["release"]], now)
            return
        dec = self.bot.decide(st)
        action, plan = dec["action"], dec.get("plan")
        if action["t"] in ("take", "draw"):
            self.script = self._script(st, action["stick"], plan or [["grab"], ["release"]], self.clock())
        else:
            r.submit(r.seat, action)

    def _script(self, st: Any, sid: int, plan: list, t: float) -> list[tuple[float, dict]]:
        """The hand inputs (with their send times from ``t``) that play ``plan`` on stick ``sid``."""
        _k, _l, cx, cy, a = st.poses[sid]
        out: list[tuple[float, dict]] = []
        dt = 1.0 / self.RATE
        local = (0.0, 0.0)
        pos = (cx, cy)
        pull = 0.0

        def glide(x, y, ang):
            nonlocal t, pos, a
            n = max(1, math.ceil(max(math.hypot(x - pos[0], y - pos[1]) / driver.PLAN_SPEED,
                                     abs(ang - a) / driver.PLAN_TURN) / dt))
            x0, y0, a0 = pos[0], pos[1], a
            for i in range(1, n + 1):
                f = i / n
                t += dt
                out.append((t, {"op": "move", "x": x0 + (x - x0) * f, "y": y0 + (y - y0) * f,
                                "a": a0 + (ang - a0) * f}))
            pos, a = (x, y), ang

        for cmd in plan:
            op, args = cmd[0], list(cmd[1:])
            if op == "grab":
                if args:
                    pos = (float(args[0]), float(args[1]))
                    c, s = math.cos(a), math.sin(a)
                    dx, dy = pos[0] - cx, pos[1] - cy
                    local = (dx * c + dy * s, -dx * s + dy * c)
                out.append((t, {"op": "grab", "stick": sid, "x": pos[0], "y": pos[1], "n": self.remote.n}))
            elif op == "move":
                glide(*args)
            elif op == "center":
                x, y, ang = args
                c, s = math.cos(ang), math.sin(ang)
                glide(x + local[0] * c - local[1] * s, y + local[0] * s + local[1] * c, ang)
            elif op == "pull":
                pull = min(MAX_PULL, max(0.0, float(args[0])))
            elif op == "lift":
                kind = args[0] if args else None
                lane = args[1] if len(args) > 1 else None
                t += dt
                out.append((t, {"op": "lift", "kind": kind, "lane": lane, "pull": pull}))
            elif op == "ghost":
                t += dt
                out.append((t, {"op": "ghost", "kind": args[0], "lane": args[1] if len(args) > 1 else None}))
            elif op == "drop":
                t += dt
                out.append((t, {"op": "lay", "x": pos[0], "y": pos[1], "a": a, "close": False}))
            elif op == "release":
                t += dt
                out.append((t, {"op": "release"}))
            elif op == "wait":
                t += float(args[0])
        if not out or out[-1][1]["op"] != "release":
            out.append((t + dt, {"op": "release"}))
        return out
