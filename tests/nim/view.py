"""The Nim screen: one row of sticks per heap; a click on a stick takes it and every stick to its right.

Bot seats move from ``update`` after ``BOT_DELAY`` s (the perfect bot is instant). Ctrl+Z takes back
the last move of the seat at this machine while the policy allows, Ctrl+Y redoes it, H shows the
perfect move, N starts a new game; each key that does not apply says why in a toast.
Esc (back to the launcher) and F1 (rules) are the app's.
"""
from __future__ import annotations

from typing import Any

import pygame

from sim.app.scene import Scene
from sim.core.match import Match
from sim.core.rules import IllegalAction

from .ai import best_move, make_agent

TOP, ROW_H, LEFT, STICK_W, STICK_GAP, STICK_H = 150, 96, 260, 18, 30, 70
BOT_DELAY = 0.3


def stick_rect(heap: int, k: int) -> pygame.Rect:
    """Logical px rect of stick ``k`` (0 = leftmost) of heap ``heap``."""
    return pygame.Rect(LEFT + k * (STICK_W + STICK_GAP), TOP + heap * ROW_H, STICK_W, STICK_H)


class NimScene(Scene):
    title = "Nim"

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app)
        self.match = match
        seats = match.config["seats"]
        self.bots = {i: make_agent(s.split(":", 1)[1], match.seed + i) for i, s in enumerate(seats)
                     if s.startswith("bot:")}
        self.wait = 0.0
        self.hover: tuple[int, int] | None = None
        self.message = ""

    def humans(self) -> list[int]:
        return [i for i in (0, 1) if i not in self.bots]

    def hit(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """(heap, k) of the stick at ``pos``, or None."""
        for i, h in enumerate(self.match.state.heaps):
            for k in range(h):
                if stick_rect(i, k).inflate(STICK_GAP - 4, 16).collidepoint(pos):
                    return i, k
        return None

    def take(self, heap: int, k: int) -> None:
        m = self.match
        seat = m.state.player
        if seat in self.bots or m.is_over():
            self.message = "wait for the bot" if not m.is_over() else "the game is over"
            return
        try:
            m.submit(seat, {"t": "take", "heap": heap, "n": m.state.heaps[heap] - k})
            self.message = ""
        except IllegalAction as e:
            self.message = str(e)

    def handle_event(self, event: Any) -> bool:
        m = self.match
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.hit(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            spot = self.hit(event.pos)
            if spot is not None:
                self.take(*spot)
            return True
        if event.type != pygame.KEYDOWN:
            return False
        ctrl = event.mod & pygame.KMOD_CTRL
        if ctrl and event.key == pygame.K_z:
            if not any(m.undo(p) for p in self.humans()):
                self.app.toast("nothing of yours to take back")
            return True
        if ctrl and event.key == pygame.K_y:
            if not m.redo():
                self.app.toast("nothing to redo")
            return True
        if event.key == pygame.K_h:
            move = None if m.is_over() else best_move(m.state.heaps, m.state.misere)
            self.app.toast(f"take {move[1]} from heap {move[0] + 1}" if move else "no winning move")
            return True
        if event.key == pygame.K_n and m.is_over():
            self.app.start_match(self.app.current_spec, Match(m.rules, m.config, m.seed + 1))
            return True
        return False

    def update(self, dt: float) -> None:
        m = self.match
        if m.is_over() or m.cursor < len(m.log) or m.state.player not in self.bots:
            self.wait = 0.0
            return
        self.wait += dt
        if self.wait >= BOT_DELAY:
            self.wait = 0.0
            seat = m.state.player
            m.submit(seat, self.bots[seat].select_action(m.rules, m.state, seat))

    def draw(self, surface: Any) -> None:
        th, m = self.app.theme, self.match
        s = m.state
        title = f"Nim{' (misère: who takes the last stick loses)' if s.misere else ''}"
        surface.blit(self.app.font(30, True).render(title, True, th.text), (LEFT, 60))
        for i, h in enumerate(s.heaps):
            surface.blit(self.app.font(20).render(f"heap {i + 1}", True, th.text_dim), (LEFT - 120, TOP + i * ROW_H + 22))
            for k in range(s.start[i]):
                r = stick_rect(i, k)
                if k >= h:
                    pygame.draw.rect(surface, th.text_dim, r, 1)
                    continue
                lit = self.hover is not None and self.hover[0] == i and k >= self.hover[1]
                pygame.draw.rect(surface, th.accent if lit else th.text, r, border_radius=4)
        w = m.rules.winner(s)
        seats = m.config["seats"]
        status = (f"seat {w + 1} ({seats[w]}) wins - N for a new game" if w is not None
                  else f"seat {s.player + 1} ({seats[s.player]}) to move")
        surface.blit(self.app.font(22).render(status, True, th.text), (LEFT, 720))
        if self.message:
            surface.blit(self.app.font(18).render(self.message, True, th.text_dim), (LEFT, 760))
