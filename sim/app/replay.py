"""Replay controls over a game scene: step through a loaded record (``playtable replay FILE``).

``ReplayScene`` is an overlay pushed above the game's own scene. It owns the keyboard and mouse while
it is on top, so the game below only draws: Left/Right step one action, Home/End jump, Space plays or
pauses (one action every ``interval`` s), Esc leaves. The match is moved with ``Match.seek`` (review:
no undo policy applies and nothing is submitted).
"""
from __future__ import annotations

import pygame

from sim.core.rules import CHANCE

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
        match.seek(0)

    # ------------------------------------------------------------------ input
    def _step(self, d: int) -> None:
        m = self.match
        n = m.cursor + d
        # skip over chance outcomes so each step shows one player decision
        while 0 < n < len(m.log) and m.log[n - 1]["p"] == CHANCE and d > 0:
            n += 1
        m.seek(n)

    def handle_event(self, event) -> bool:
        if event.type == pygame.KEYDOWN:
            k = event.key
            if k == pygame.K_ESCAPE:
                return False  # let the app go back
            if k == pygame.K_RIGHT:
                self.playing = False
                self._step(1)
            elif k == pygame.K_LEFT:
                self.playing = False
                self._step(-1)
            elif k == pygame.K_HOME:
                self.match.seek(0)
            elif k == pygame.K_END:
                self.match.seek(len(self.match.log))
            elif k == pygame.K_SPACE:
                self.playing = not self.playing
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
