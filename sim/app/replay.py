"""Replay controls over a game scene: step through a loaded record (``playtable replay FILE``).

``ReplayScene`` is an overlay pushed above the game's own scene. It owns the keyboard and mouse while
it is on top, so the game below only draws: Left/Right step one action, Home/End jump, Space plays or
pauses (one action every ``interval`` s), Esc leaves. The match is moved with ``Match.seek`` (review:
no undo policy applies and nothing is submitted).
"""
from __future__ import annotations

import pygame

from .scene import Scene


class ReplayScene(Scene):
    overlay = True
    title = "Replay"

    def __init__(self, app, match, interval: float = 0.6, autoplay: bool = True):
        super().__init__(app)
        self.match = match
        self.interval = interval
        self.playing = autoplay
        self.clock = 0.0
        match.seek(self.stops()[0])

    # ------------------------------------------------------------------ input
    def stops(self) -> list[int]:
        """Log positions where a player is to act (or the end): where the replay pauses."""
        log = self.match.log
        return [p for p in range(len(log) + 1) if p == len(log) or log[p]["p"] >= 0]

    def _step(self, d: int) -> None:
        """One decision forward or back: a step applies (or takes back) one player's action together
        with the chance and timer outcomes that follow it, so the position shown is always one where a
        player is to act (e.g. the drawn tile is visible)."""
        cur = self.match.cursor
        stops = self.stops()
        if d > 0:
            nxt = [p for p in stops if p > cur]
        else:
            nxt = [p for p in stops if p < cur][-1:]
        if nxt:
            self.match.seek(nxt[0])

    @staticmethod
    def _camera_event(event) -> bool:
        """Events that only move the view of the game below (zoom, pan, fit, result card), which the
        replay lets through: the wheel, right/middle-button drags, and the F, +, -, V keys."""
        if event.type == pygame.MOUSEWHEEL:
            return True
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return getattr(event, "button", 1) in (2, 3)
        if event.type == pygame.MOUSEMOTION:
            return bool(getattr(event, "buttons", (0, 0, 0))[1:3] != (0, 0))
        if event.type == pygame.KEYDOWN:
            return event.key in (pygame.K_f, pygame.K_PLUS, pygame.K_EQUALS, pygame.K_MINUS,
                                 pygame.K_KP_PLUS, pygame.K_KP_MINUS, pygame.K_v)
        return False

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN:
            k = event.key
            if k == pygame.K_ESCAPE:
                self.app.to_launcher()  # the game below is a replay, not a match to go on with
                return True
            if k == pygame.K_RIGHT:
                self.playing = False
                self._step(1)
            elif k == pygame.K_LEFT:
                self.playing = False
                self._step(-1)
            elif k == pygame.K_HOME:
                self.match.seek(self.stops()[0])
            elif k == pygame.K_END:
                self.match.seek(len(self.match.log))
            elif k == pygame.K_SPACE:
                self.playing = not self.playing
            return True
        if self._camera_event(event):
            below = self.app.stack[-2] if len(self.app.stack) >= 2 else None
            if below is not None:
                below.handle_event(event)
            return True
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            return True
        return event.type in (pygame.KEYUP, pygame.TEXTINPUT)

    def update(self, dt: float) -> None:
        if not self.playing:
            return
        self.clock += dt
        if self.clock >= self.interval:
            self.clock = 0.0
            if self.match.cursor < len(self.match.log):
                self._step(1)
            else:
                self.playing = False

    def draw(self, surface) -> None:
        w, h = surface.get_size()
        bar = pygame.Rect(0, h - 44, w, 44)
        shade = pygame.Surface(bar.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 190))
        surface.blit(shade, bar.topleft)
        m = self.match
        text = (f"Replay  {m.cursor}/{len(m.log)}   "
                f"{'playing' if self.playing else 'paused'}   "
                "Left/Right step   Space play/pause   Home/End   Esc leave")
        img = self.app.font(18).render(text, True, self.app.theme.text)
        surface.blit(img, (16, bar.y + (bar.h - img.get_height()) // 2))
        # progress
        if m.log:
            frac = m.cursor / len(m.log)
            pygame.draw.rect(surface, self.app.theme.accent, (0, bar.y, int(w * frac), 3))
