"""The Gobble race played over the LAN (issue 4): a lobby and a race screen fed by a
:class:`sim.net.client.Client`.

:class:`LanRaceScene` is the local race screen (:class:`~games.gobble.view_race.RaceScene`: board,
drag / rotate / snap, panels, gift chooser) drawn from the client's latest per-seat view instead of a
local match. A small proxy (:class:`LanMatch`) turns each ``state`` message (``RaceRules.observe`` of
this seat: the board, every seat's pile count, face-up stack and gifts owed, and only this seat's
revealed tile(s)) into the attributes the race screen reads. H shows a hint, Enter plays it. Drops, discards and gifts are sent as
intents (``Client.send_intent``); the host's answer comes back later, a rejection is shown with its
reason. Every frame only drains ``Client.inbox`` (``get_nowait``): nothing waits on the network. A host
that quits (a ``closing`` message, or the connection lost) ends the race with a clear message.

:class:`LanLobbyScene` waits for the table to fill and for every player to be ready (seats, names and
ready marks as the host reports them; a Ready toggle, key R, for this machine's seat), then switches to
the race. It may own the :class:`~sim.net.host.Host` (the launcher's "Host a game"): leaving
the lobby or the race then stops it.
"""
from __future__ import annotations

import queue
import time
from typing import Any

import pygame

from sim.app.scene import Scene
from sim.app.widgets import Button, dim_backdrop

from .board import Board
from .view_race import BOARD, RaceScene, seat_name


class LanSeat:
    """One seat as far as this client may know it."""

    def __init__(self, d: dict, revealed: list[int] | None, placed: int):
        n = int(d["pile"])
        known = list(revealed or [])[:n]
        self.pile = known + [None] * (n - len(known))      # only this seat's revealed tiles are known
        self.stack = list(d["stack"])
        self.owed = [float("inf")] * int(d["owed"])         # counts only: the deadline is not sent
        self.out = d["out"]
        self.gobbles = int(d["gobbles"])
        self.doubles = int(d["doubles"])
        self.placed = placed

    @property
    def held(self) -> int:
        return len(self.pile) + len(self.stack)


class LanState:
    """The race position built from one view (what ``RaceScene`` reads from a ``RaceState``)."""

    def __init__(self, view: dict, me: int, board: Board, last: list, placed: list[int], config: dict,
                 deadlock: bool):
        self.view = view
        self.me = me
        self.board = board
        self.n = len(view["seats"])
        self.seats = [LanSeat(d, view["revealed"] if i == me else None, placed[i])
                      for i, d in enumerate(view["seats"])]
        self._revealed = tuple(view["revealed"])
        self.phase = view["phase"]
        self.clock = float(view["clock"])
        self.order = list(view["order"])
        self.last = list(last)
        self.deadlock = deadlock
        self.hand = int(config.get("hand") or 1)
        self.escalating = bool(config.get("escalating"))
        from .race import GIFT_TIMEOUT
        self.gift_timeout = float(config.get("gift_timeout") or GIFT_TIMEOUT)

    def revealed(self, seat: int) -> tuple[int, ...]:
        return self._revealed if seat == self.me else ()

    def in_play(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.out is None]


class LanRules:
    """The few rule queries the race screen makes, answered from the view."""

    def __init__(self, match: "LanMatch"):
        self.match = match

    def ranking(self, s: LanState) -> list[int]:
        over = self.match.client.over
        if over is not None:
            return list(over["ranking"])
        rest = sorted(s.in_play(), key=lambda i: (s.seats[i].held, i))
        return list(s.order) + rest

    def placeable(self, s: LanState, seat: int) -> list[tuple[str, int]]:
        out = [("pile", n) for n in s.revealed(seat)]
        if s.seats[seat].stack:
            out.append(("stack", s.seats[seat].stack[-1]))
        return out


class LanMatch:
    """Stands in for a :class:`~sim.core.match.Match`: state from the host, no local rules applied."""

    def __init__(self, client: Any, label: str):
        self.client = client
        self.seed = label
        self.config = dict(client.config or {})
        seats = list(self.config.get("seats") or [])
        if client.seat is not None and client.seat < len(seats):
            seats[client.seat] = "human"   # the mouse plays this client's seat
        self.config["seats"] = seats
        self.listeners: list = []
        self.log: list = []
        self.cursor = 0
        self.rules = LanRules(self)
        self._board_key: Any = None
        self._board: Board | None = None
        self.last: list = [None] * len(seats)
        self.placed = [0] * len(seats)
        self.out_times: dict[int, float] = {}
        self._time = 0.0
        self._time_at = time.monotonic()
        self.state: LanState | None = None
        self.frozen = False    # the host is gone: the clock stops
        self._last_n = 0       # arrival number of the last view taken (Client adds "recv_n")
        if client.latest is not None:
            self.apply(client.latest)

    @property
    def time(self) -> float:
        if self.is_over() or self.frozen:
            return self._time
        return self._time + (time.monotonic() - self._time_at)

    def is_over(self) -> bool:
        return (self.state is not None and self.state.phase == "over") or self.client.over is not None

    def active_players(self) -> list[int]:
        return []

    def advance(self, dt: float) -> list:
        return []

    def apply(self, msg: dict) -> list:
        """Take a ``state`` message; returns its events (for the screen's listener). A view older than
        (or the same as) one already taken is skipped, so nothing is counted twice."""
        n = msg.get("recv_n")
        if n is not None:
            if n <= self._last_n:
                return []
            self._last_n = n
        view = msg["view"]
        key = tuple(tuple(t) for t in view["board"])
        if key != self._board_key:
            self._board_key = key
            self._board = Board.from_tiles({(q, r): (n, k) for q, r, n, k in view["board"]})
        events = list(msg.get("events") or [])
        self._time = float(msg.get("time", view["clock"]))
        self._time_at = time.monotonic()
        for e in events:
            kind = e.get("e")
            if kind == "place" and 0 <= e.get("seat", -1) < len(self.last):
                self.last[e["seat"]] = (e["q"], e["r"])
                self.placed[e["seat"]] += 1
            elif kind == "out":
                self.out_times.setdefault(e["seat"], self._time)
        over = self.client.over
        self.state = LanState(view, self.client.seat, self._board, self.last, self.placed, self.config,
                              bool(over and over.get("outcome", {}).get("deadlock")))
        return events


class _NoTimers:
    bots: list = []

    def run_due(self, limit: int | None = None) -> list:
        return []


class LanRaceScene(RaceScene):
    """The race of ``client``'s seat. ``host``: a Host this app runs (stopped when the scene goes)."""

    title = "Tantrix Gobble (LAN)"

    def __init__(self, app: Any, client: Any, host: Any = None, label: str | None = None):
        self.client = client
        self.lan_host = host
        self.ended_reason: str | None = None
        self.pending: dict[int, dict] = {}
        self._owed_since: float | None = None
        match = LanMatch(client, label or client.url.replace("ws://", ""))
        super().__init__(app, match, bots=[])
        self.timers = _NoTimers()
        self.end_buttons = [self.b_launch, self.b_view]   # no "New race": the host starts races
        self.b_launch.rect.x = BOARD.centerx - 170
        self.b_view.rect.x = BOARD.centerx + 10

    # ------------------------------------------------------------------ lifecycle
    def on_exit(self) -> None:
        super().on_exit()
        leave(self.client, self.lan_host)

    # ------------------------------------------------------------------ network
    def pump(self) -> None:
        """Take every message the network thread has queued; never waits."""
        while True:
            try:
                msg = self.client.inbox.get_nowait()
            except queue.Empty:
                break
            t = msg.get("type")
            if t == "state":
                events = self.match.apply(msg)
                self._on_events(self.match, events)
            elif t == "accepted":
                self.pending.pop(msg["seq"], None)
            elif t == "rejected":
                self.pending.pop(msg["seq"], None)
                self._sound("reject")
                why = str(msg.get("reason") or "refused")
                self.say("Host refused: " + why[:1].upper() + why[1:], self.theme.bad, 3.5)
            elif t == "error":
                self.say(f"Host: {msg.get('message', msg.get('code'))}", self.theme.bad, 3.5)
            elif t == "over":
                if self.match.state is not None:
                    self.match.state.deadlock = bool(msg.get("outcome", {}).get("deadlock"))
            elif t == "closing":
                if self.match.is_over():   # the result stays on screen; just say the table is closed
                    self._note("The host has closed the table", self.theme.text_dim)
                else:
                    self.ended_reason = f"The host ended the game: {msg.get('reason') or 'the host quit'}."
        if self.ended_reason is None and self.client.closed.is_set() and not self.match.is_over():
            self.ended_reason = "The connection to the host was lost: the race is over for this window."

    def update(self, dt: float) -> None:
        self.pump()
        owes = self.owed() > 0
        if owes and self._owed_since is None:
            self._owed_since = self.match.time
        elif not owes:
            self._owed_since = None
        if self.ended_reason is not None and not self.match.frozen:
            self.match._time = self.match.time
            self.match.frozen = True
            self.hold = None
        super().update(dt)

    def playing(self) -> bool:
        return self.ended_reason is None and super().playing()

    # ------------------------------------------------------------------ actions
    def submit_as(self, seat: int | None, action: dict) -> bool:
        """Send ``action`` as an intent; the host's answer comes later (a rejection shows its reason)."""
        if seat is None or not self.playing():
            return False
        try:
            seq = self.client.send_intent(action)
        except ConnectionError:
            self.ended_reason = "The connection to the host was lost."
            return False
        self.pending[seq] = action
        return True

    def gift_left(self) -> float | None:
        """Seconds until the host makes the owed gift itself, estimated from when this client first saw
        the debt (the deadline itself is not sent)."""
        if self._owed_since is None:
            return None
        return max(0.0, self._owed_since + self.state.gift_timeout - self.match.time)

    def finish_times(self) -> dict[int, float]:
        return dict(self.match.out_times)

    def do_hint(self) -> None:
        if not self.playing():
            return
        board = self.state.board
        best = None
        for src, t in self.rules.placeable(self.state, self.seat):
            for cell, rot in board.placements(t):
                k = board.neighbour_count(cell)
                if best is None or k > best[0]:
                    best = (k, {"t": "place", "src": src, "tile": t, "rot": rot, "q": cell[0], "r": cell[1]})
        if best is None:
            self.say("Hint: no place for any of your tiles right now", self.theme.accent)
            return
        self.board_hint = (board, best[1])
        self._sound("hint")
        self.say("Hint: your tile in the glowing space", self.theme.accent, 4.0)

    end_keys_hint = "N: back to the launcher  ·  V: view the board  ·  Esc: menu"

    def do_new_race(self) -> None:
        self.do_menu()

    def _draw_result(self, surface) -> None:
        super()._draw_result(surface)
        if self.ended_reason is None and self.client.closed.is_set():
            self._blit_text(surface, "The host has closed the table", 14, self.theme.text_dim,
                            midbottom=(BOARD.centerx, self._result_box().bottom + 26))

    def key(self, event) -> bool:
        """As in the local race, plus Enter: play the hinted move (H shows it)."""
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.playing() and self.board_hint is not None:
            board, act = self.board_hint
            self.board_hint = None
            if board is self.state.board:
                self.submit(act)
            return True
        return super().key(event)

    def _draw_gifts(self, surface, sym, me) -> None:
        # the pile top of this seat is its first revealed tile; otherwise unknown (not drawn)
        saved = me.pile
        if me.pile and me.pile[0] is None:
            me.pile = []
        try:
            super()._draw_gifts(surface, sym, me)
        finally:
            me.pile = saved

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.ended_reason is not None:
            th = self.theme
            dim_backdrop(surface, 170)
            box = pygame.Rect(0, 0, 760, 170)
            box.center = (BOARD.centerx, BOARD.centery)
            pygame.draw.rect(surface, th.panel, box, border_radius=16)
            pygame.draw.rect(surface, th.bad, box, 2, border_radius=16)
            self._blit_text(surface, "Game ended", 30, th.bad, True, midtop=(box.centerx, box.y + 22))
            self._blit_text(surface, self.ended_reason, 17, th.text, midtop=(box.centerx, box.y + 76))
            self._blit_text(surface, "Esc: back to the launcher", 14, th.text_dim,
                            midtop=(box.centerx, box.y + 120))


def leave(client: Any, host: Any) -> None:
    """Close ``client`` (politely) and stop ``host`` if this app runs it; quick, never raises."""
    try:
        if client is not None:
            client.close(timeout=1.0)
    except Exception:  # noqa: BLE001
        pass
    try:
        if host is not None:
            host.stop(timeout=3.0)
    except Exception:  # noqa: BLE001
        pass


class LanLobbyScene(Scene):
    """The lobby: the address to share, each seat with its name and a ready mark (a check mark and
    "Ready", or a hollow circle and "Not ready"), a Ready toggle for this machine's seat (button or key
    R) and a line saying what the race waits for. The host starts the race when every seat is taken and
    every LAN player is ready (bots always are); the first view then switches this scene to
    :class:`LanRaceScene`."""

    title = "Tantrix Gobble (LAN lobby)"

    def __init__(self, app: Any, client: Any, host: Any = None, address: str | None = None):
        super().__init__(app)
        self.client = client
        self.lan_host = host
        self.address = address or client.url.replace("ws://", "")
        self.handed_over = False
        self.want: bool | None = None   # the flag last asked for, until the host reports it
        self.b_ready = Button((430, 660, 240, 50), "Ready (R)", self.toggle_ready, hotkey=pygame.K_r,
                              style="primary", font_size=18)
        self.b_leave = Button((690, 660, 160, 50), "Leave", self.do_leave, font_size=18)

    # ------------------------------------------------------------------ state
    def ready(self) -> bool:
        """This seat's ready flag as shown: the one last asked for while the host has not answered."""
        return self.client.is_ready if self.want is None else self.want

    def can_toggle(self) -> bool:
        c = self.client
        return c.welcome is not None and not c.started and not c.closed.is_set() and c.closing is None

    def toggle_ready(self) -> None:
        """Ready / not ready for this machine's seat (the R key)."""
        if not self.can_toggle():
            return
        want = not self.ready()
        try:
            self.client.set_ready(want)
        except ConnectionError:
            return
        self.want = want

    def waiting(self) -> tuple[int, list[int]]:
        """(free seats, taken seats not ready), from the host's last lobby message."""
        names = list(self.client.names or [])
        ready = list(self.client.ready or [False] * len(names))
        unready = [i for i, n in enumerate(names) if n is not None and not ready[i]]
        return sum(n is None for n in names), unready

    def status(self) -> str:
        """What the race waits for, in one line ("Waiting for 2 players to be ready")."""
        free, unready = self.waiting()
        mine = self.client.seat in unready
        if not free and unready == [self.client.seat]:
            return "Waiting for you to be ready: press R"
        parts = []
        if free:
            parts.append(f"{free} more player{'s' if free != 1 else ''} to join")
        if unready:
            parts.append(f"{len(unready)} player{'s' if len(unready) != 1 else ''} to be ready")
        if not parts:
            return "Everyone is ready: the race starts"
        return "Waiting for " + " and ".join(parts) + (" (you too: press R)" if mine else "")

    # ------------------------------------------------------------------ scene
    def do_leave(self) -> None:
        self.app.pop()

    def on_exit(self) -> None:
        if not self.handed_over:
            leave(self.client, self.lan_host)

    def handle_event(self, event: Any) -> bool:
        for b in (self.b_ready, self.b_leave):
            if b.handle_event(event):
                return True
        return False

    def update(self, dt: float) -> None:
        c = self.client
        if self.want is not None and c.is_ready == self.want:
            self.want = None
        mine = self.ready()
        self.b_ready.enabled = self.can_toggle()
        self.b_ready.label = "Not ready (R)" if mine else "Ready (R)"
        self.b_ready.style = "normal" if mine else "primary"
        # lobby messages only update the client's fields; the race scene drains the inbox itself
        if c.latest is not None and c.welcome is not None and not self.handed_over:
            self.handed_over = True
            scene = LanRaceScene(self.app, c, self.lan_host, self.address)
            self.app.replace(scene)

    def draw(self, surface: pygame.Surface) -> None:
        th = self.app.theme
        surface.fill(th.bg)
        f = self.app.font
        c = self.client

        def text(s, size, col, bold=False, **anchor):
            img = f(size, bold).render(s, True, col)
            r = img.get_rect(**anchor)
            surface.blit(img, r)
            return r

        text("Tantrix Gobble · LAN race", 40, th.text, True, midtop=(640, 60))
        text(f"Host address: {self.address}", 22, th.accent, True, midtop=(640, 130))
        if self.lan_host is not None:
            text("Players on other computers join with this address (Join a game).", 16, th.text_dim,
                 midtop=(640, 166))
        names = list(c.names or [])
        ready = list(c.ready or [False] * len(names))
        away = list(c.away or [False] * len(names))
        box = pygame.Rect(350, 210, 580, 60 + 46 * max(2, len(names)))
        pygame.draw.rect(surface, th.panel, box, border_radius=14)
        pygame.draw.rect(surface, th.panel_edge, box, 1, border_radius=14)
        text("SEATS", 14, th.text_dim, True, topleft=(box.x + 24, box.y + 18))
        text("READY", 14, th.text_dim, True, topright=(box.right - 24, box.y + 18))
        if c.errors and c.welcome is None:
            text(f"Could not join: {c.errors[-1].get('message')}", 18, th.bad, True, midtop=(640, box.y + 60))
        elif c.welcome is None:
            text("Connecting…", 18, th.text, midtop=(640, box.y + 60))
        else:
            for i, n in enumerate(names):
                y = box.y + 50 + 46 * i
                if i == c.seat:
                    pygame.draw.rect(surface, th.panel_edge, (box.x + 12, y - 8, box.w - 24, 40), 1,
                                     border_radius=8)
                bot = n is not None and str(n).startswith("bot:")
                label = "waiting for a player…" if n is None else seat_name(n) if bot else n
                if i == c.seat:
                    label += "  (you)"
                elif away[i]:
                    label += "  (reconnecting…)"
                text(f"P{i + 1}", 18, th.accent, True, topleft=(box.x + 24, y))
                text(label, 18, th.text_dim if n is None or away[i] else th.text, n is not None,
                     topleft=(box.x + 80, y))
                if n is None:
                    continue
                on = self.ready() if i == c.seat else ready[i]
                word = "Ready (bot)" if bot else "Ready" if on else "Not ready"
                r = text(word, 17, th.good if on else th.text_dim, on, topright=(box.right - 24, y + 1))
                mark = (r.x - 20, r.centery)
                if on:
                    pygame.draw.circle(surface, th.good, mark, 11)
                    text("✓", 17, th.bg, True, center=mark)
                else:
                    pygame.draw.circle(surface, th.text_dim, mark, 10, 2)
            free, unready = self.waiting()
            col = th.good if not free and not unready else th.text
            text(self.status(), 19, col, True, midtop=(640, box.bottom + 20))
            text("The race starts when every seat is taken and every player is ready; bots always are.",
                 15, th.text_dim, midtop=(640, box.bottom + 50))
        if c.closing is not None:
            text(f"The host ended the game: {c.closing}", 18, th.bad, True, midtop=(640, box.bottom + 80))
        elif c.closed.is_set() and c.welcome is not None:
            text("The connection to the host was lost.", 18, th.bad, True, midtop=(640, box.bottom + 80))
        self.b_ready.draw(surface, self.app)
        self.b_leave.draw(surface, self.app)
