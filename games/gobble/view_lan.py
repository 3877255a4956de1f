"""The Gobble race played over the LAN (issue 4): the race's lobby, then the race screen on this seat's
:class:`~sim.net.remote.RemoteMatch`.

:class:`LanRaceScene` is the local race screen (:class:`~games.gobble.view_race.RaceScene`: board,
drag / rotate / snap, panels, gift chooser) on a ``RemoteMatch``: its state is this seat's
``RaceRules.observe`` (a race state: the board, every seat's pile count, face-up stack and gift
deadlines, and only this seat's revealed tile(s)), its clock the host's, and its listeners get the
events the host lets this seat see, so the screen draws it as it draws a local race. What is the LAN's
own: H shows a hint, Enter plays it; drops, discards and gifts go to the host as intents (the host
judges them: its answer comes back later, a refusal is shown with its reason); a host that quits (a
``closing`` message, or the connection lost) ends the race with a clear message. Nothing waits on
the network: every frame only reads what the client's thread has received.

:class:`LanLobbyScene` is the shared lobby (:class:`sim.app.lan_lobby.LobbyScene`: seats, names, ready
marks, the Ready toggle, key R) of a race; the first view opens the race over it. It may own the
:class:`~sim.net.host.Host` (the launcher's "Host a game"): leaving the race then stops it.
"""
from __future__ import annotations

from typing import Any

import pygame

from sim.app.lan_lobby import LobbyScene
from sim.app.widgets import dim_backdrop
from sim.core.registry import get_spec

from .view_race import BOARD, RaceScene


class LanRaceScene(RaceScene):
    """The race of ``match`` (a :class:`~sim.net.remote.RemoteMatch` of the race) joined at
    ``address`` (shown under the buttons)."""

    title = "Tantrix Gobble (LAN)"

    def __init__(self, app: Any, match: Any, address: str | None = None):
        self.client = match.client
        self.address = address or self.client.url.replace("ws://", "")
        self.ended_reason: str | None = None
        self.out_times: dict[int, float] = {}     # seat -> match time its OUT event arrived
        self._refused = len(match.refusals)       # host refusals already shown
        self._errors = len(self.client.errors)    # host errors already shown
        self._closing_seen = False
        match.auto_poll = False   # views are taken once a frame, in take_news: never mid-draw
        super().__init__(app, match)
        self.end_buttons = [self.b_launch, self.b_view]   # no "New race": the host starts races
        self.b_launch.rect.x = BOARD.centerx - 170
        self.b_view.rect.x = BOARD.centerx + 10

    # ------------------------------------------------------------------ network
    def take_news(self) -> None:
        """Take what the host sent since the last frame (a new view, refusals, errors, the host
        leaving); never waits."""
        m, c = self.match, self.client
        try:
            m.poll()
        except ValueError as e:   # the last good view stays on screen
            m.error = str(e)
        for _seq, why in m.refusals[self._refused:]:
            why = str(why or "refused")
            self._sound("reject")
            self.say("Host refused: " + why[:1].upper() + why[1:], self.theme.bad, 3.5)
        self._refused = len(m.refusals)
        for e in c.errors[self._errors:]:
            self.say(f"Host: {e.get('message', e.get('code'))}", self.theme.bad, 3.5)
        self._errors = len(c.errors)
        if c.closing is not None and not self._closing_seen:
            self._closing_seen = True
            if m.is_over():   # the result stays on screen; just say the table is closed
                self._note("The host has closed the table", self.theme.text_dim)
            elif self.ended_reason is None:
                self.ended_reason = f"The host ended the game: {c.closing or 'the host quit'}."
        if self.ended_reason is None and c.closed.is_set() and not m.is_over():
            self.ended_reason = "The connection to the host was lost: the race is over for this window."

    def update(self, dt: float) -> None:
        self.take_news()
        if self.lan_news is not None:   # seats dropped, played by a bot, back (the race's update is its own)
            for text in self.lan_news.update(self.clock):
                self._sound("reject" if "dropped" in text else "click")
        if self.ended_reason is not None:
            self.hold = None
        super().update(dt)

    def playing(self) -> bool:
        return self.ended_reason is None and super().playing()

    def _on_events(self, match: Any, events: list) -> None:
        for e in events:
            if e.get("e") == "out":
                self.out_times.setdefault(e["seat"], match.time)
        super()._on_events(match, events)

    # ------------------------------------------------------------------ actions
    def submit_as(self, seat: int | None, action: dict) -> bool:
        """Send ``action`` as an intent; the host's answer comes later (a refusal shows its reason)."""
        if seat is None or not self.playing():
            return False
        try:
            return super().submit_as(seat, action)
        except ConnectionError:
            self.ended_reason = "The connection to the host was lost."
            return False

    def finish_times(self) -> dict[int, float]:
        return dict(self.out_times)

    def against_people(self) -> bool:
        """A LAN race is always against people (a dropped player's stand-in included)."""
        return True

    def race_label(self) -> str:
        return f"race {self.address}"

    def do_hint(self) -> None:
        """H: the placement of one of this seat's tiles with the most neighbours (Enter plays it)."""
        if not self.playing():
            return
        why = self.hint_refusal()
        if why:
            self.unavailable(why)
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

    def key(self, event) -> bool:
        """As in the local race, plus Enter: play the hinted move (H shows it)."""
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.playing() and self.board_hint is not None:
            board, act = self.board_hint
            self.board_hint = None
            if board is self.state.board:
                self.submit(act)
            return True
        return super().key(event)

    # ------------------------------------------------------------------ drawing
    def _draw_result(self, surface) -> None:
        super()._draw_result(surface)
        if self.ended_reason is None and self.client.closed.is_set():
            self._blit_text(surface, "The host has closed the table", 14, self.theme.text_dim,
                            midbottom=(BOARD.centerx, self._result_box().bottom + 26))

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
    """The race's lobby (:class:`sim.app.lan_lobby.LobbyScene`); the first view opens
    :class:`LanRaceScene` over it."""

    word = "race"

    def __init__(self, app: Any, client: Any, host: Any = None, address: str | None = None):
        super().__init__(app, client, host, address, get_spec("gobble"))

    def game_scene(self, remote: Any) -> Any:
        return LanRaceScene(self.app, remote, self.address)
