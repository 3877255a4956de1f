"""The table screens' UI kit: cached text, pills, cards, seat rows, button rows and a move log.

One :class:`Kit` per screen (it holds the text cache); everything is in logical px and takes its theme
and fonts from the app. Text that might not fit its box goes through :meth:`Kit.fit` (one line: shrunk
to a floor size, then cut with an ellipsis) or :meth:`Kit.fit_lines` (wrapped onto the lines the box
holds, shrunk down to the floor size). Every cut is noted in :data:`CLIPPED` (tests fail on it).
:meth:`Kit.notices` stacks a screen's notices (one box per fact) in an area beside its board.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import math

import pygame

from . import widgets as _widgets
from .widgets import CLIPPED, Button, clean_text, mix, note_clipped, wrap_text

RGB = tuple[int, int, int]

#: Cached renders kept before the cache is cleared (text that changes every frame must not grow it).
TEXT_CACHE = 800
#: The smallest text size (px) fitting shrinks to before it wraps or cuts.
FLOOR = 11

__all__ = ["CLIPPED", "FLOOR", "Kit", "Notice", "button_row", "one_per_fact"]


class Notice:
    """One fact shown in a screen's notices area: ``key`` names the fact (a later notice with the same
    key replaces an earlier one), ``text`` says it, ``fg``/``fill`` colour it (None: the theme's)."""

    __slots__ = ("key", "text", "fg", "fill", "size")

    def __init__(self, key: str, text: str, fg: RGB | None = None, fill: RGB | None = None, size: int = 15):
        self.key, self.text, self.fg, self.fill, self.size = key, text, fg, fill, size

    def __repr__(self) -> str:
        return f"Notice({self.key!r}, {self.text!r})"


class Kit:
    """Drawing helpers bound to ``app`` (``app.font(size, bold)``, ``app.theme``)."""

    def __init__(self, app: Any):
        self.app = app
        self._texts: dict[tuple, pygame.Surface] = {}
        self._cards: dict[tuple, pygame.Surface] = {}
        #: the notices' layout as last drawn: (what was laid out, [(size, lines, box)], cuts noted)
        self._notice_plan: tuple | None = None
        #: with ``widgets.CHECK_FIT``: what was drawn since :meth:`overflow` last ran, in order, as
        #: ``(kind, surface size, rect, text)``, kind "text", "card" or "shade"
        self.drawn: list[tuple[str, tuple[int, int], pygame.Rect, str]] = []

    def _note(self, kind: str, surface, rect, text: str = "") -> None:
        if _widgets.CHECK_FIT:
            self.drawn.append((kind, surface.get_size(), pygame.Rect(rect), text))

    def _note_text(self, surface, rect, text: str) -> None:
        self._note("text", surface, rect, text)

    def overflow(self) -> list[tuple[str, pygame.Rect]]:
        """With ``widgets.CHECK_FIT``: the text drawn since the last call that runs off its surface or
        over the edge of a card drawn before it on the same surface (part inside, part out; a shade
        drawn over a card ends it), as ``(text, rect)``; the records are then cleared."""
        out = []
        cards: list[tuple[tuple[int, int], pygame.Rect]] = []
        for kind, size, rect, text in self.drawn:
            if kind == "card":
                cards.append((size, rect))
            elif kind == "shade":
                cards = [(cs, c) for cs, c in cards if cs != size or not rect.colliderect(c)]
            else:
                r = rect.inflate(-2, -2)          # anti-aliased edges may touch a border
                if not pygame.Rect((0, 0), size).contains(r) or any(
                        cs == size and r.colliderect(c) and not c.contains(r) for cs, c in cards):
                    out.append((text, rect))
        self.drawn.clear()
        return out

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
            min_size: int = FLOOR) -> pygame.Surface:
        """``text`` at the largest size from ``size`` down to ``min_size`` that is at most ``width`` px
        wide; at ``min_size`` still too wide, cut with "…" (noted in :data:`CLIPPED`)."""
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
        note_clipped(text, width)
        return self.text(text[:lo].rstrip() + "…", size, colour, bold)

    def fit_lines(self, text: str, size: int, width: int, lines: int, bold: bool = False,
                  min_size: int = FLOOR) -> tuple[int, list[str]]:
        """``text`` wrapped to at most ``lines`` lines of ``width`` px, at the largest size from ``size``
        down to ``min_size`` where it fits: ``(size, lines)``. At ``min_size`` still too long, the last
        line is cut with "…" (noted in :data:`CLIPPED`)."""
        text = clean_text(text)
        lines = max(1, lines)
        for sz in range(size, min_size - 1, -1):
            font = self.app.font(sz, bold)
            out = wrap_text(text, font, width)
            if len(out) <= lines and all(font.size(line)[0] <= width for line in out):
                return sz, out
        font = self.app.font(min_size, bold)
        out = wrap_text(text, font, width, lines)
        last = out[-1] if out else ""
        while last and font.size(last.rstrip() + "…")[0] > width:
            last = last[:-1]
        note_clipped(text, width)
        return min_size, out[:-1] + [last.rstrip() + "…"]

    def blit_lines(self, surface, text: str, rect, size: int, colour: RGB, bold: bool = False,
                   align: str = "left", line_gap: int = 2) -> pygame.Rect:
        """``text`` fitted into ``rect`` (:meth:`fit_lines`: wrapped onto the lines its height holds,
        shrunk if need be), lines placed ``align`` ("left", "center"), the block centred vertically.
        Returns the rect drawn."""
        rect = pygame.Rect(rect)
        font = self.app.font(size, bold)
        rows = max(1, (rect.h + line_gap) // (font.get_linesize() + line_gap))
        sz, lines = self.fit_lines(text, size, rect.w, rows, bold)
        lh = self.app.font(sz, bold).get_linesize()
        total = len(lines) * lh + (len(lines) - 1) * line_gap
        y = rect.centery - total // 2
        drawn = pygame.Rect(rect.x, y, 0, 0)
        for line in lines:
            img = self.text(line, sz, colour, bold)
            r = img.get_rect(top=y, **({"centerx": rect.centerx} if align == "center" else {"left": rect.x}))
            surface.blit(img, r)
            self._note_text(surface, r, line)
            drawn = drawn.union(r) if drawn.w else r
            y += lh + line_gap
        return drawn

    def notices(self, surface, rect, items: Sequence[Notice], gap: int = 4, max_lines: int = 2) -> list[pygame.Rect]:
        """Draw ``items`` top down inside ``rect``, one rounded box per fact (:func:`one_per_fact`),
        each wrapped to the area's width on at most ``max_lines`` lines. When they do not all fit, the
        text is made up to 2 px smaller and the boxes tighter; what still does not fit below is left out
        (the first items are kept) and noted in :data:`CLIPPED`. Returns the boxes drawn, every one
        inside ``rect``."""
        th = self.theme
        rect = pygame.Rect(rect)
        facts = one_per_fact(items)
        key = (tuple(rect), gap, max_lines, tuple((n.text, n.size) for n in facts))
        if self._notice_plan is not None and self._notice_plan[0] == key:   # laid out as last frame
            _key, shape, cut = self._notice_plan
            for text, width in cut:
                note_clipped(text, width)
            plan = [(n, sz, lines, box) for n, (sz, lines, box) in zip(facts, shape)]
        else:
            clipped = len(CLIPPED)
            plan = self._plan_notices(rect, facts, gap, max_lines)
            self._notice_plan = (key, [(sz, lines, box) for _n, sz, lines, box in plan], CLIPPED[clipped:])
        boxes: list[pygame.Rect] = []
        for n, sz, lines, box in plan:
            fg = n.fg or th.text
            fill = n.fill or mix(th.bg, th.panel, 0.75)
            lh = self.app.font(sz, True).get_linesize()
            pygame.draw.rect(surface, fill, box, border_radius=min(12, box.h // 2))
            pygame.draw.rect(surface, mix(fill, th.panel_edge, 0.6), box, 1, border_radius=min(12, box.h // 2))
            top = box.y + (box.h - len(lines) * lh) // 2
            for k, line in enumerate(lines):
                img = self.text(line, sz, fg, True)
                surface.blit(img, img.get_rect(midtop=(box.centerx, top + k * lh)))
            self._note_text(surface, box, n.text)
            boxes.append(pygame.Rect(box))
        return boxes

    def _plan_notices(self, rect: pygame.Rect, facts: list[Notice], gap: int,
                      max_lines: int) -> list[tuple[Notice, int, list[str], pygame.Rect]]:
        """Where :meth:`notices` puts each of ``facts``: (notice, text size, lines, box); the ones that
        do not fit left out (noted in :data:`CLIPPED`)."""
        plan: list[tuple[Notice, int, list[str], pygame.Rect]] = []
        for shrink, pad, g in ((0, 4, gap), (1, 3, max(2, gap - 1)), (2, 2, max(1, gap - 2))):
            plan = []
            y = rect.y
            for n in facts:
                sz, lines = self.fit_lines(n.text, n.size - shrink, rect.w - 28, max_lines, True)
                font = self.app.font(sz, True)
                lh = font.get_linesize()
                widest = max(font.size(line)[0] for line in lines)
                box = pygame.Rect(0, y, min(rect.w, widest + 28), len(lines) * lh + 2 * pad)
                box.centerx = rect.centerx
                if box.bottom > rect.bottom:
                    break
                plan.append((n, sz, lines, box))
                y = box.bottom + g
            if len(plan) == len(facts):
                break
        for n in facts[len(plan):]:
            note_clipped(n.text, rect.w)
        return plan

    def blit(self, surface, text: str, size: int, colour: RGB, bold: bool = False,
             width: int | None = None, **anchor: Any) -> pygame.Rect:
        """Draw ``text`` placed by a ``pygame.Rect`` anchor (``topleft=...``, ``center=...``); with
        ``width`` it is fitted to that many px. Returns the drawn rect."""
        img = self.text(text, size, colour, bold) if width is None else self.fit(text, size, colour, width, bold)
        r = surface.blit(img, img.get_rect(**anchor))
        self._note_text(surface, img.get_rect(**anchor), text)
        return r

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
        self._note_text(surface, box, text)
        return box

    def card(self, surface, rect, label: str | None = None, edge: RGB | None = None,
             active: bool = False) -> None:
        """A panel card with an optional small capital ``label`` at its top left; ``active`` tints it
        with the accent colour (the seat to act)."""
        th = self.theme
        fill = mix(th.panel, th.accent, 0.16) if active else mix(th.panel, th.bg, 0.35)
        line = th.accent if active else (edge or mix(th.panel, th.panel_edge, 0.6))
        rect = pygame.Rect(rect)
        key = ("card", rect.size, fill, tuple(line), 2 if active or edge else 1)
        img = self._cards.get(key)
        if img is None:    # the rounded card drawn once on a clear picture (whole px in or out: the same pixels)
            if len(self._cards) > 64:
                self._cards.clear()
            img = self._cards[key] = pygame.Surface(rect.size)
            clear = (255, 0, 255) if (255, 0, 255) not in (tuple(fill), tuple(line)) else (0, 255, 0)
            img.fill(clear)
            pygame.draw.rect(img, fill, img.get_rect(), border_radius=12)
            pygame.draw.rect(img, line, img.get_rect(), key[4], border_radius=12)
            img.set_colorkey(clear, pygame.RLEACCEL)
        surface.blit(img, rect.topleft)
        self._note("card", surface, rect)
        if label:
            self.blit(surface, label, 13, th.text_dim, True, width=rect.w - 28,
                      topleft=(rect.x + 14, rect.y + 10))

    def shade(self, surface, rect, alpha: int = 130) -> None:
        """Darken ``rect`` of what is drawn (behind an end card or a dialog): what is drawn next is a
        layer of its own (the cards under the shade no longer hold text, see :meth:`overflow`)."""
        s = pygame.Surface(pygame.Rect(rect).size, pygame.SRCALPHA)
        s.fill((0, 0, 0, alpha))
        surface.blit(s, pygame.Rect(rect).topleft)
        self._note("shade", surface, rect)

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


def one_per_fact(items: Sequence[Notice | None]) -> list[Notice]:
    """``items`` without empty ones, a later item with the key of an earlier one taking its place."""
    order: list[str] = []
    latest: dict[str, Notice] = {}
    for n in items:
        if n is None or not n.text:
            continue
        if n.key not in latest:
            order.append(n.key)
        latest[n.key] = n
    return [latest[k] for k in order]


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

