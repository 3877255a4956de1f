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

from sim.app.lan_lobby import LobbyScene, leave
from sim.app.widgets import dim_backdrop
from sim.core.registry import get_spec
from sim.core.seats import parse as parse_seat, split

from .board import Board
from .view_race import BOARD, RaceScene


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
        self.config, _ = split(self.config)
        self.seats = [parse_seat(k) for k in seats]
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


class LanLobbyScene(LobbyScene):
    """The race's lobby (:class:`sim.app.lan_lobby.LobbyScene`); the first view switches it to
    :class:`LanRaceScene`."""

    word = "race"

    def __init__(self, app: Any, client: Any, host: Any = None, address: str | None = None):
        super().__init__(app, client, host, address, get_spec("gobble"))
        self.title = "Tantrix Gobble (LAN lobby)"

    def open_game(self) -> None:
        self.app.replace(LanRaceScene(self.app, self.client, self.lan_host, self.address))
