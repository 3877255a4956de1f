"""The table screens' UI kit: cached text, pills, cards, seat rows, button rows and a move log.

One :class:`Kit` per screen (it holds the text cache); everything is in logical px and takes its theme
and fonts from the app. Text that might not fit its box goes through :meth:`Kit.fit`, which shrinks it
to a minimum size and then cuts it with an ellipsis.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import math

import pygame

from .widgets import Button, clean_text, mix

RGB = tuple[int, int, int]

#: Cached renders kept before the cache is cleared (text that changes every frame must not grow it).
TEXT_CACHE = 800


class Kit:
    """Drawing helpers bound to ``app`` (``app.font(size, bold)``, ``app.theme``)."""

    def __init__(self, app: Any):
        self.app = app
        self._texts: dict[tuple, pygame.Surface] = {}

    @property
    def theme(self):
        return self.app.theme

    def text(self, text: str, size: int, colour: RGB, bold: bool = False) -> pygame.Surface:
        """``text`` rendered at ``size`` px (cached); characters the renderer refuses (NUL, lone
        surrogates: :func:`~sim.app.widgets.clean_text`) are left out."""
        key = (text, size, tuple(colour), bold)
        img = self._texts.get(key)
        if img is None:
            if len(self._texts) > TEXT_CACHE:
                self._texts.clear()
            img = self._texts[key] = self.app.font(size, bold).render(clean_text(text), True, colour)
        return img

    def fit(self, text: str, size: int, colour: RGB, width: int, bold: bool = False,
            min_size: int = 11) -> pygame.Surface:
        """``text`` at the largest size from ``size`` down to ``min_size`` that is at most ``width`` px
        wide; at ``min_size`` still too wide, cut with "…"."""
        text = clean_text(text)
        img = self.text(text, size, colour, bold)
        while img.get_width() > width and size > min_size:
            size -= 1
            img = self.text(text, size, colour, bold)
        if img.get_width() <= width:
            return img
        font = self.app.font(size, bold)
        lo, hi = 0, len(text)
        while lo < hi:                      # the longest prefix that fits with the ellipsis
            mid = (lo + hi + 1) // 2
            if font.size(text[:mid].rstrip() + "…")[0] <= width:
                lo = mid
            else:
                hi = mid - 1
        return self.text(text[:lo].rstrip() + "…", size, colour, bold)

    def blit(self, surface, text: str, size: int, colour: RGB, bold: bool = False,
             width: int | None = None, **anchor: Any) -> pygame.Rect:
        """Draw ``text`` placed by a ``pygame.Rect`` anchor (``topleft=...``, ``center=...``); with
        ``width`` it is fitted to that many px. Returns the drawn rect."""
        img = self.text(text, size, colour, bold) if width is None else self.fit(text, size, colour, width, bold)
        return surface.blit(img, img.get_rect(**anchor))

    def pill(self, surface, text: str, centre, colour: RGB, fg: RGB | None = None, size: int = 17,
             alpha: int = 255, max_width: int | None = None) -> pygame.Rect:
        """A rounded label centred at ``centre``; ``max_width`` (px, the pill's) fits the text."""
        fg = fg or self.theme.text
        img = (self.text(text, size, fg, True) if max_width is None
               else self.fit(text, size, fg, max_width - 30, True))
        r = img.get_rect(center=centre)
        box = r.inflate(30, 14)
        if alpha >= 255:
            pygame.draw.rect(surface, colour, box, border_radius=box.h // 2)
        else:
            s = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.rect(s, (*colour, alpha), s.get_rect(), border_radius=box.h // 2)
            surface.blit(s, box.topleft)
        pygame.draw.rect(surface, mix(colour, self.theme.panel_edge, 0.6), box, 1, border_radius=box.h // 2)
        surface.blit(img, r)
        return box

    def card(self, surface, rect, label: str | None = None, edge: RGB | None = None,
             active: bool = False) -> None:
        """A panel card with an optional small capital ``label`` at its top left; ``active`` tints it
        with the accent colour (the seat to act)."""
        th = self.theme
        fill = mix(th.panel, th.accent, 0.16) if active else mix(th.panel, th.bg, 0.35)
        line = th.accent if active else (edge or mix(th.panel, th.panel_edge, 0.6))
        pygame.draw.rect(surface, fill, rect, border_radius=12)
        pygame.draw.rect(surface, line, rect, 2 if active or edge else 1, border_radius=12)
        if label:
            self.blit(surface, label, 13, th.text_dim, True, width=rect.w - 28,
                      topleft=(rect.x + 14, rect.y + 10))

    def shade(self, surface, rect, alpha: int = 130) -> None:
        """Darken ``rect`` of what is drawn (behind an end card)."""
        s = pygame.Surface(pygame.Rect(rect).size, pygame.SRCALPHA)
        s.fill((0, 0, 0, alpha))
        surface.blit(s, pygame.Rect(rect).topleft)

    def active_row(self, surface, rect, amount: float = 0.22, colour: RGB | None = None,
                   edge: bool = True) -> None:
        """The mark of a seat row whose seat acts now (or, with ``colour``, e.g. the winner's): the
        panel tinted ``amount`` towards the accent, edged in it."""
        th = self.theme
        colour = colour or th.accent
        pygame.draw.rect(surface, mix(th.panel, colour, amount), rect, border_radius=10)
        if edge:
            pygame.draw.rect(surface, colour, rect, 2, border_radius=10)

    def seat_name(self, surface, name: str, topleft, size: int = 18, spin: float | None = None) -> pygame.Rect:
        """A seat's name in bold at ``topleft``; with ``spin`` (the screen's clock, s) a spinner after
        it says that seat's bot is thinking. Returns the name's rect."""
        r = self.blit(surface, name, size, self.theme.text, True, topleft=topleft)
        if spin is not None:
            self.spinner(surface, (r.right + 16, r.y + 11), spin)
        return r

    def spinner(self, surface, centre, clock: float) -> None:
        """Eight dots turning about ``centre`` (a bot thinking), at ``clock`` s."""
        th = self.theme
        for k in range(8):
            a = clock * 6.0 + k * math.pi / 4
            col = mix(th.panel, th.accent, (k + 1) / 8)
            pygame.draw.circle(surface, col, (centre[0] + 7 * math.cos(a), centre[1] + 7 * math.sin(a)), 2)

    def move_log(self, surface, rect, lines: Sequence[str], line_h: int = 18, size: int = 13,
                 top: int = 32, scroll: int = 0) -> None:
        """The last lines of ``lines`` that fit in ``rect`` below ``top`` px (``scroll`` lines up from
        the end); the newest in the text colour, the others dimmed."""
        th = self.theme
        rows = max(0, (rect.h - top - 4) // line_h)
        end = max(0, len(lines) - scroll)
        shown = list(lines[max(0, end - rows):end]) if rows else []
        for k, text in enumerate(shown):
            newest = scroll == 0 and k == len(shown) - 1
            self.blit(surface, text, size, th.text if newest else th.text_dim, width=rect.w - 28,
                      topleft=(rect.x + 14, rect.y + top + k * line_h))


def button_row(x: int, y: int, width: int, height: int, items: Sequence[tuple[str, Callable[[], Any], str]],
               gap: int = 6, font_size: int = 17, styles: dict[str, str] | None = None) -> list[Button]:
    """Buttons of equal width side by side in ``width`` px from (x, y): ``items`` are (label, action,
    tooltip); ``styles`` maps a label to its button style."""
    n = max(1, len(items))
    bw = (width - gap * (n - 1)) // n
    styles = styles or {}
    return [Button((x + k * (bw + gap), y, bw, height), label, fn, font_size=font_size, tooltip=tip,
                   style=styles.get(label, "normal"))
            for k, (label, fn, tip) in enumerate(items)]

