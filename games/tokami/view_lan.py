"""The Tokami screen on a game joined on the LAN (a ``sim.net.remote.RemoteMatch``): the ordinary
screen (``view.TokamiScene``: panel, score table, cues, buttons), with the pile owned by the host.

* The player whose turn it is drags as locally: a press on a stick sends a grab, then the hand's
  target (the pointer, the grip kept) and angle stream to the host (at most ``MOVE_RATE`` a second,
  only when they change); Tab, 1-6 / [ ] and letting go send lift, lane and release inputs
  (``games.tokami.lan``). The hand is drawn at the pointer at once, and so is a stick carried out of
  the plane; the pile, the stick in the plane and everything that moves come from the host's frames
  (while this player drags, the newest as it is; else interpolated between the newest two, one frame
  interval late).
* Whoever's turn it is, every screen shows the host's live pile: settles, the other players' hands,
  the bots' plans played back.
* What the host says: a refused hand input's reason, the table's events (raise, fall, winning stick,
  round end), seats dropping and returning, and a host that quits or a connection lost.

Practice undo, the slow replay and hints are not offered on the LAN (the host keeps the record).
"""
from __future__ import annotations

import math
import time
from typing import Any

import pygame

from . import draw, model
from .lan import LivePoses
from .view import PILE, WOBBLE_CALM, WOBBLE_SHAKY, TokamiScene, seat_name

#: Hand moves sent at most this often (per second).
MOVE_RATE = 50.0


class TokamiLanScene(TokamiScene):
    """Tokami on ``match``, a ``RemoteMatch`` of a game hosted on the LAN."""

    def __init__(self, app: Any, match: Any, **opts: Any):
        super().__init__(app, match, **opts)
        match.auto_poll = False
        self.client = match.client
        self.lp = LivePoses()
        self.grab_seq: int | None = None
        self.ops: dict[int, str] = {}            # seq -> op of a hand input whose refusal is shown
        self._sent_move: tuple | None = None
        self._sent_at = -1.0
        self._before = match.state
        self._away = list(self.client.away or [])
        self.ended: str | None = None

    # ------------------------------------------------------------------ the host's side
    def _frame(self) -> dict | None:
        return self.lp.current(self.match.n)

    def _my_frame(self) -> dict | None:
        f = self._frame()
        if f is not None and f.get("kind") == "hand" and f.get("seat") == self.match.seat:
            return f
        return None

    def busy(self) -> bool:
        """Whether the host's pile is live with something that is not this player's hand."""
        f = self._frame()
        return f is not None and self._my_frame() is None

    def send(self, hand: dict) -> int | None:
        try:
            return self.client.send_hand(hand)
        except ConnectionError:
            return None

    def _send_op(self, hand: dict) -> None:
        seq = self.send(hand)
        if seq is not None:
            self.ops[seq] = hand["op"]

    # ------------------------------------------------------------------ no local physics
    def live_world(self):
        return None

    def live_attempt(self):
        return None

    def do_undo(self) -> None:
        self.unavailable("a game on the LAN has no undo: the host keeps the record")

    def do_replay(self) -> None:
        self.unavailable("the slow replay is not kept on the LAN")

    def _undo_target(self) -> int | None:
        return None

    def _refresh_buttons(self) -> None:
        super()._refresh_buttons()
        if getattr(self, "hold", None) is not None:
            self.b_refuse.enabled = self.b_end.enabled = False
        self.b_undo.enabled = False
        self.b_replay.enabled = False

    def _on_events(self, match: Any, events: list) -> None:
        """The screen's cues, with the state before the new view as the one the events started from."""
        states = match.states
        match.states = [self._before]
        self._seen = 0
        try:
            super()._on_events(match, events)
        finally:
            match.states = states
            self._seen = match.cursor

    # ------------------------------------------------------------------ input
    def _target(self) -> tuple[float, float]:
        x, y = self.proj.to_world(self.pointer[0], self.pointer[1], self.hold["depth"])
        ox, oy = self.hold["offset"]
        return (x + ox, y + oy)

    def _press(self, pos) -> None:
        st = self.state
        if self.match.is_over() or self.card is not None or self.ended:
            return
        if self.hold is not None:
            f = self._my_frame()
            if not self.hold["button"] and f is not None and f["ghost"] is not None:
                # a carried stick waiting to be put down: a click lays it here and keeps holding it
                tx, ty = self._target()
                self._send_op({"op": "lay", "x": tx, "y": ty, "a": self.angle, "close": False})
                self.hold["button"] = True
            return
        if self.busy():
            self.say("Wait: the pile is moving", self.theme.text_dim)
            return
        sid = self._stick_to_take(pos)
        if sid is None:
            return
        pose = st.poses[sid]
        depth = draw.depth_range(pose)[0]
        wp = self.proj.to_world(pos[0], pos[1], depth)
        gx, gy, local = grip(pose, wp)
        seq = self.send({"op": "grab", "stick": sid, "x": gx, "y": gy, "n": self.match.n})
        if seq is None:
            return
        self.ops[seq] = "grab"
        self.grab_seq = seq
        self.hover = None
        self.angle = float(pose[4])
        if pose[0] == "across":
            self.lane = pose[1]
        self.hold = {"offset": (gx - wp[0], gy - wp[1]), "depth": depth, "button": True, "stick": sid,
                     "local": local}
        self.closed = False
        self._sent_move = (gx, gy, self.angle)
        self._trail = []
        self._sound("click")

    def _let_go(self) -> None:
        if self.hold is None or not self.hold["button"]:
            return
        f = self._my_frame()
        if f is not None and f["ghost"] is not None:
            tx, ty = self._target()
            self._send_op({"op": "lay", "x": tx, "y": ty, "a": self.angle, "close": True})
            self.hold["button"] = False          # the host's frame says whether it was laid
            return
        self.send({"op": "release"})
        self._drop_hand()

    def _drop_hand(self) -> None:
        self.hold = None
        self.grab_seq = None
        self.closed = True
        self._trail = []

    def _toggle_kind(self) -> None:
        if self.hold is None:
            return
        f = self._my_frame()
        if f is not None and f["ghost"] is not None:
            kind = "along" if f["ghost"][0] == "across" else "across"
            self._send_op({"op": "ghost", "kind": kind, "lane": self.lane if kind == "across" else None})
            self.say(self.ghost_words((kind, self.lane if kind == "across" else -1)), self.theme.text_dim)
            self._sound("rotate")
        else:
            self._send_op({"op": "lift", "kind": None, "lane": None, "pull": min(5000.0, self.hand_speed())})
            self._sound("out")

    def _choose_lane(self, lane: int) -> None:
        lane = max(0, min(model.LANES - 1, lane))
        self.lane = lane
        if self.hold is None or self.state.phase not in ("turn", "raise"):
            return
        f = self._my_frame()
        if f is not None and f["ghost"] is not None:
            self._send_op({"op": "ghost", "kind": "across", "lane": lane})
        else:
            self._send_op({"op": "lift", "kind": "across", "lane": lane,
                           "pull": min(5000.0, self.hand_speed())})
        self.hold["depth"] = lane
        self._sound("rotate")

    def _key(self, event) -> bool:
        k = event.key
        if self.hold is not None and not getattr(event, "mod", 0) & pygame.KMOD_CTRL and (
                pygame.K_1 <= k <= pygame.K_6 or k in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET)):
            lane = (k - pygame.K_1 if pygame.K_1 <= k <= pygame.K_6 else
                    self.lane - 1 if k == pygame.K_LEFTBRACKET else self.lane + 1)
            self._choose_lane(lane)
            return True
        return super()._key(event)

    def name(self, seat: int) -> str:
        if seat == self.match.seat:
            return self.client.name
        kinds = self.match.kinds
        if 0 <= seat < len(kinds) and kinds[seat].startswith("bot:"):
            return seat_name(kinds[seat])
        return super().name(seat)

    def _turn(self, steps: int) -> None:
        if self.hold is None or steps == 0:
            return
        fine = self.shift or pygame.key.get_mods() & pygame.KMOD_SHIFT
        step = math.radians(1.0) if fine else math.radians(15.0)
        self.angle = max(-500.0, min(500.0, self.angle + steps * step))

    def _hover(self, pos) -> None:
        if self.hold is not None or self.busy():
            self.hover = None
            return
        super()._hover(pos)

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        self.clock += dt
        if getattr(self.app, "top", self) is not self:
            return
        self._tick_feedback(dt)
        self._before = self.match._state          # the events of a new view start from this one
        try:
            self.match.poll()
        except ValueError as e:
            self.say(f"The host sent a view this screen cannot show: {e}", self.theme.bad)
        self._take_frames()
        self._answers()
        self._stream_hand()
        self._seats()
        self._ending()
        if self.card is not None:
            self.card["age"] += dt
        self._refresh_buttons()

    def _take_frames(self) -> None:
        last = self.lp.last[1]["k"] if self.lp.last is not None else -1
        for at, msg in list(self.client.lives)[-6:]:
            if msg["k"] > last:
                self.lp.feed(at, msg)
        f = self.lp.last[1] if self.lp.last is not None else None
        if self.hold is not None and self.grab_seq is not None and f is not None and f["ack"] >= self.grab_seq:
            mine = f.get("kind") == "hand" and f.get("seat") == self.match.seat
            if not mine or f.get("closed"):
                self._drop_hand()               # the host's hand let go (a fall, a stick taken, laid)

    def _answers(self) -> None:
        for seq in list(self.ops):
            res = self.client.results.get(seq)
            if res is None:
                continue
            op = self.ops.pop(seq)
            if res["type"] == "rejected":
                why = res.get("reason", "")
                self.say(why[:1].upper() + why[1:], self.theme.bad)
                self._sound("reject")
                if op == "grab":
                    self._drop_hand()
                elif op == "lay" and self.hold is not None:
                    self.hold["button"] = False   # it stays in hand: a click puts it somewhere free
        if len(self.ops) > 200:
            self.ops.clear()

    def _stream_hand(self) -> None:
        if self.hold is None:
            return
        tx, ty = self._target()
        move = (round(tx, 3), round(ty, 3), round(self.angle, 5))
        self._trail.append((self.clock, tx, ty))
        if len(self._trail) > 40:
            del self._trail[:-40]
        if move != self._sent_move and self.clock - self._sent_at >= 1.0 / MOVE_RATE - 1e-6:
            if self.send({"op": "move", "x": move[0], "y": move[1], "a": move[2]}) is not None:
                self._sent_move, self._sent_at = move, self.clock

    def _seats(self) -> None:
        away = list(self.client.away or [])
        if len(away) == len(self._away):
            for i, (was, now) in enumerate(zip(self._away, away)):
                if now and not was:
                    self.say(f"{self.tag(i)} {self.name(i)} dropped: a bot plays for them until they "
                             "return", self.theme.text_dim, 5.0)
                elif was and not now:
                    self.say(f"{self.tag(i)} {self.name(i)} is back", self.theme.good, 4.0)
        self._away = away

    def _ending(self) -> None:
        c = self.client
        if self.ended is not None or self.match.is_over():
            return
        if c.closing is not None:
            self.ended = f"The host ended the game: {c.closing or 'the host quit'}."
        elif c.closed.is_set():
            self.ended = "The connection to the host was lost: the game is over for this window."
        if self.ended:
            self._drop_hand()
            self._sound("lose")

    # ------------------------------------------------------------------ drawing
    def _draw_pile(self, surface) -> None:
        f = self._frame()
        if f is None:
            super()._draw_pile(surface)
        else:
            self._draw_live(surface, f)
        if self.ended:
            self._pill(surface, self.ended, (PILE.centerx, 120), self.theme.bad, fg=self.theme.text, size=17)

    def _draw_live(self, surface, f: dict) -> None:
        th = self.theme
        st = self.state
        mine = self.hold is not None and self._my_frame() is not None
        # the player's own drag: the newest frame as it is (no interpolation delay); others: smooth
        poses = self.lp.poses(time.perf_counter(), self.match.n, smooth=not mine) or {}
        ghost = None
        if f["ghost"] is not None:
            g = f["ghost"]
            gp = ghost_pose(g[0], g[1], self._target(), self.angle, self.hold["local"]) if mine else tuple(g)
            ghost = (gp, st.colours[f["stick"]] if f["stick"] is not None else None, True)
        held = f["stick"] if f["hand"] is not None and f["ghost"] is None else None
        speeds = self.lp.speeds()
        wobble = {i: v for i, v in speeds.items() if i != held}
        look = draw.Look(held=held, taboo=st.taboo, ghost=ghost, wobble=wobble, symbols=self._symbols(),
                         dim_lanes=range(self.view_lane) if mine else ())
        draw.draw_sticks(surface, self.proj, poses, st.colours, th, look)
        if mine:
            v = max(wobble.values(), default=0.0)
            word, col = (("falling", th.bad) if f["fallen"] else ("steady", th.good) if v < WOBBLE_CALM else
                         ("moving", th.accent) if v < WOBBLE_SHAKY else ("shaky", th.bad))
            # speeds in steps of 10 mm/s, so the pill's text (a cached render) changes only now and then
            self._pill(surface, f"pile {word} ({round(v, -1):.0f} mm/s)", (PILE.centerx, PILE.bottom - 62),
                       (12, 12, 14), fg=col, size=13, alpha=225)
        font = self.app.font(15, True)
        if f["touch"] is not None and ghost is not None:
            face = draw.front_face(self.proj, tuple(f["touch"]))
            for i in range(4):
                draw.dashed_line(surface, th.good, face[i], face[(i + 1) % 4], dash=6.0, width=2)
        hp0 = f.get("hp_before")
        if hp0 is not None:
            draw.height_line(surface, self.proj, hp0, th.accent, font, f"to beat {hp0:.1f} mm",
                             back=(0, 0, 0))
            pose = ghost[0] if ghost is not None else poses.get(f["stick"])
            if pose is not None:
                hp = model.highest_point(pose)
                ok = hp > hp0 + model.RAISE_MARGIN
                draw.height_tick(surface, self.proj, hp, th.good if ok else th.text_dim, font, f"{hp:.1f}",
                                 back=(0, 0, 0))
        if mine:
            # this player's hand, drawn where the pointer holds it now; a band to the stick in the plane
            d = self.hold["depth"]
            tx, ty = self._target()
            b = self.proj.to_screen(tx, ty, d)
            pose = poses.get(f["stick"]) if f["ghost"] is None else None
            if pose is not None:
                lx, ly = self.hold["local"]
                c, s = math.cos(pose[4]), math.sin(pose[4])
                a = self.proj.to_screen(pose[2] + lx * c - ly * s, pose[3] + lx * s + ly * c, d)
                if math.hypot(a[0] - b[0], a[1] - b[1]) > 4:
                    pygame.draw.line(surface, th.accent, a, b, 2)
            pygame.draw.circle(surface, th.accent, b, 5, 2)
        elif f["hand"] is not None and f["stick"] in poses:
            d = draw.depth_range(poses[f["stick"]])[0]
            pygame.draw.circle(surface, self.seat_colour(f["seat"] or 0),
                               self.proj.to_screen(f["hand"][0], f["hand"][1], d), 5, 2)


def grip(pose, wp) -> tuple[float, float, tuple[float, float]]:
    """Where the hand takes a stick in ``pose`` when the pointer is at world point ``wp`` (mm): the
    point itself if it lies on the stick, else the nearest point 1 mm inside; returns (x, y, the point
    in the stick's own frame)."""
    _k, _l, x, y, a = pose
    hx, hy = model.half_extents(pose[0])
    c, s = math.cos(a), math.sin(a)
    dx, dy = wp[0] - x, wp[1] - y
    lx, ly = dx * c + dy * s, -dx * s + dy * c
    if abs(lx) > hx or abs(ly) > hy:
        lx, ly = max(-hx + 1, min(hx - 1, lx)), max(-hy + 1, min(hy - 1, ly))
    return x + lx * c - ly * s, y + lx * s + ly * c, (lx, ly)


def ghost_pose(kind: str, lane: int, target, angle: float, local) -> tuple:
    """The pose of a stick carried out of the plane as ``kind`` in ``lane``, held at ``local`` (its own
    frame, clamped to the stick as the driver does) with the hand at ``target`` and angle ``angle``."""
    hx, hy = model.half_extents(kind)
    ox, oy = max(-hx, min(hx, local[0])), max(-hy, min(hy, local[1]))
    c, s = math.cos(angle), math.sin(angle)
    return (kind, lane, target[0] - (ox * c - oy * s), target[1] - (ox * s + oy * c), angle)
