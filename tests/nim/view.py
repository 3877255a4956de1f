"""The Nim screen: one row of sticks per heap; a click on a stick takes it and every stick to its right.

Everything else (bots off the frame, undo and redo by the match's policy, the hint from the perfect bot,
rules, play again, the end card's buttons) is the table screen's (``sim.app.table.TableScene``).
"""
from __future__ import annotations

from typing import Any

import pygame

from sim.app.table import TableScene
from sim.core.registry import get_spec

TOP, ROW_H, LEFT, STICK_W, STICK_GAP, STICK_H = 150, 96, 260, 18, 30, 70
AREA = pygame.Rect(0, 0, 1280, 800)


def stick_rect(heap: int, k: int) -> pygame.Rect:
    """Logical px rect of stick ``k`` (0 = leftmost) of heap ``heap``."""
    return pygame.Rect(LEFT + k * (STICK_W + STICK_GAP), TOP + heap * ROW_H, STICK_W, STICK_H)


class NimScene(TableScene):
    title = "Nim"
    BOT_DELAY = 0.3
    HINT_LEVEL = "perfect"

    def __init__(self, app: Any, match: Any, **opts: Any):
        super().__init__(app, match, get_spec("nim"))
        self.hover: tuple[int, int] | None = None
        box = pygame.Rect(0, 0, 600, 240)
        box.center = AREA.center
        self.end_buttons_for(box, (AREA.centerx - 90, 730, 180, 42))
        self.on_enter()

    def hit(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """(heap, k) of the stick at ``pos``, or None."""
        for i, h in enumerate(self.state.heaps):
            for k in range(h):
                if stick_rect(i, k).inflate(STICK_GAP - 4, 16).collidepoint(pos):
                    return i, k
        return None

    def describe_action(self, action: dict) -> str:
        return f"take {action['n']} from heap {action['heap'] + 1}"

    def active_buttons(self) -> list:
        if self.match.is_over():
            return self.end_buttons if self.show_result else [self.b_show]
        return []

    def handle_input(self, event: Any) -> bool:
        if self.buttons_take(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.hit(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            spot = self.hit(event.pos)
            if spot is None:
                return True
            if not self.human_turn():
                self.refuse("the game is over" if self.match.is_over() else "wait for the bot")
                return True
            heap, k = spot
            self.submit_as(self.to_act(), {"t": "take", "heap": heap, "n": self.state.heaps[heap] - k})
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_v:
            self.do_toggle_result()
            return True
        return False

    def draw(self, surface: Any) -> None:
        th, s = self.theme, self.state
        self._blit_text(surface, "Nim" + (" (misère: who takes the last stick loses)" if s.misere else ""), 30,
                        th.text, True, topleft=(LEFT, 60))
        for i, h in enumerate(s.heaps):
            self._blit_text(surface, f"heap {i + 1}", 20, th.text_dim, topleft=(LEFT - 120, TOP + i * ROW_H + 22))
            for k in range(s.start[i]):
                r = stick_rect(i, k)
                if k >= h:
                    pygame.draw.rect(surface, th.text_dim, r, 1)
                    continue
                lit = self.hover is not None and self.hover[0] == i and k >= self.hover[1]
                pygame.draw.rect(surface, th.accent if lit else th.text, r, border_radius=4)
        w = self.rules.winner(s)
        if w is None:
            turn = self.to_act()
            status = "…" if turn is None else f"{self.seat_name(turn)} to move" + (
                " (thinking)" if self.bot_thinking() else "")
            self._blit_text(surface, status, 22, th.text, topleft=(LEFT, 690))
        self.draw_message(surface, (AREA.centerx, 760))
        if w is not None and self.show_result:
            box = pygame.Rect(0, 0, 600, 240)
            box.center = AREA.center
            name = self.seat_name(w)
            how = "left the last stick to the other player" if s.misere else "took the last stick"
            self.draw_end_frame(surface, AREA, box, w, f"{name} {how}.")
        for b in self.active_buttons():
            b.draw(surface, self.app)
