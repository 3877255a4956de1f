"""Small UI pieces shared by every scene: buttons, wrapped text, backdrops, colour symbols, focus, and
:func:`clean_text`, the one filter for text that comes from outside (typed, read from a file, sent by
a peer) before it is kept or drawn.

Everything works in logical px and takes positions from ``event.pos`` (already mapped by the app);
nothing here reads ``pygame.mouse.get_pos()``. Drawing takes the app for its theme and fonts.
"""
from __future__ import annotations

import math
import unicodedata
from typing import Any, Callable, Sequence

import pygame

RGB = tuple[int, int, int]

#: Text that had to be cut to fit its box since the list was last cleared, as ``(text, width px)``:
#: labels never should be (the tests render every screen and fail on any entry). Bounded.
CLIPPED: list[tuple[str, int]] = []
#: When True (the tests), each :class:`~sim.app.ui.Kit` keeps the rects of the text and cards it draws
#: so that :meth:`~sim.app.ui.Kit.overflow` can tell text running over a card's edge.
CHECK_FIT = False
#: The smallest label size (px) a button shrinks its label to before wrapping it.
LABEL_FLOOR = 11
#: Blank px kept on each side of a button's label.
LABEL_PAD = 10


def note_clipped(text: str, width: int) -> None:
    """Record that ``text`` was cut to fit ``width`` px (see :data:`CLIPPED`)."""
    if len(CLIPPED) < 200:
        CLIPPED.append((text, int(width)))


def clean_text(text: Any, limit: int | None = None) -> str:
    """``text`` (made a str) without control characters (NUL, newlines, escapes: Unicode category Cc)
    and lone surrogates (Cs), which the font renderer refuses; cut to ``limit`` characters. Emoji,
    right-to-left and other printable text is kept as is."""
    s = text if isinstance(text, str) else str(text)
    if not s.isprintable():
        s = "".join(c for c in s if unicodedata.category(c) not in ("Cc", "Cs"))
    return s if limit is None else s[:limit]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Colour ``t`` of the way from ``a`` to ``b`` (0..1)."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


class Button:
    """A clickable button.

    ``rect`` in logical px; ``on_click()`` is called on a left click (press and release inside) or on
    ``hotkey`` (a pygame key constant) while ``enabled``. ``hover`` follows MOUSEMOTION; ``focused``
    is set by keyboard navigation (drawn as an outline) and Enter/Space is handled by the owner.
    ``style`` is "normal", "primary" (accent fill) or "quiet" (no fill until hovered).
    """

    def __init__(self, rect: Any, label: str, on_click: Callable[[], Any] | None = None,
                 hotkey: int | None = None, enabled: bool = True, style: str = "normal",
                 font_size: int = 20, tooltip: str = ""):
        self.rect = pygame.Rect(rect)
        self.label = label
        self.on_click = on_click
        self.hotkey = hotkey
        self.enabled = enabled
        self.style = style
        self.font_size = font_size
        self.tooltip = tooltip
        self.hover = False
        self.focused = False
        self.pressed = False
        #: the label's images as last drawn: (what they show, [(image, offset in the button)], the
        #: cuts noted in CLIPPED when they were made)
        self._labels: tuple | None = None

    def click(self) -> bool:
        """Run ``on_click`` if enabled; returns whether it ran."""
        if not self.enabled:
            return False
        if self.on_click is not None:
            self.on_click()
        return True

    def handle_event(self, event: Any) -> bool:
        """Update hover/press state; returns True if the event was consumed (a press or release on
        the button, or its hotkey)."""
        et = event.type
        if et == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
            return False
        if et == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos):
                self.pressed = self.enabled
                return True
            return False
        if et == pygame.MOUSEBUTTONUP and event.button == 1:
            was = self.pressed
            self.pressed = False
            if self.rect.collidepoint(event.pos):
                self.hover = True
                if was:
                    self.click()
                return True
            return False
        if et == pygame.KEYDOWN and self.hotkey is not None and event.key == self.hotkey:
            mods = getattr(event, "mod", 0)
            if not mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
                return self.click()
        return False

    def draw(self, surface: pygame.Surface, app: Any) -> None:
        th = app.theme
        if not self.enabled:
            fill, edge, fg = th.panel, mix(th.panel, th.panel_edge, 0.5), mix(th.panel, th.text_dim, 0.6)
        elif self.style == "primary":
            fill = th.accent
            if self.hover or self.pressed:
                fill = mix(th.accent, th.highlight, 0.22)
            edge, fg = mix(th.accent, th.highlight, 0.4), th.bg
        else:
            base = mix(th.panel, th.panel_edge, 0.35)
            if self.style == "quiet" and not (self.hover or self.focused):
                base = th.panel
            fill = mix(base, th.panel_edge, 0.5) if (self.hover or self.pressed) else base
            edge, fg = th.panel_edge, th.text
        r = self.rect.move(0, 1) if self.pressed else self.rect
        pygame.draw.rect(surface, fill, r, border_radius=8)
        pygame.draw.rect(surface, edge, r, 1, border_radius=8)
        if self.focused and self.enabled:
            pygame.draw.rect(surface, th.highlight, r.inflate(6, 6), 2, border_radius=10)
        key = (self.label, fg, r.size, self.font_size, app.font(self.font_size, True))
        made = getattr(self, "_labels", None)
        if made is None or made[0] != key:
            before = len(CLIPPED)
            images = self.label_images(app, fg, r)
            made = self._labels = (key, [(img, (x - r.x, y - r.y)) for img, (x, y) in images], CLIPPED[before:])
        else:
            for text, width in made[2]:     # a label cut to fit is noted every time it is drawn
                note_clipped(text, width)
        for img, (dx, dy) in made[1]:
            surface.blit(img, (r.x + dx, r.y + dy))

    def label_images(self, app: Any, fg: RGB, r: pygame.Rect) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """The label fitted to the button (``LABEL_PAD`` px clear each side): the largest size down to
        ``LABEL_FLOOR`` on one line, or wrapped on two lines when the button is tall enough and that
        keeps the label over 2 px larger (so a row of buttons keeps one size), else cut with "…"
        (noted in :data:`CLIPPED`). Returns ``(image, topleft)`` pairs."""
        width = r.w - 2 * LABEL_PAD
        text = clean_text(self.label)
        size = self.font_size
        font = app.font(size, bold=True)
        while size > LABEL_FLOOR and font.size(text)[0] > width:
            size -= 1
            font = app.font(size, bold=True)
        one_line = font.size(text)[0] <= width
        if not (one_line and size == self.font_size):
            for sz in range(min(self.font_size, 16), LABEL_FLOOR - 1, -1):
                if one_line and sz <= size + 2:
                    break
                f = app.font(sz, bold=True)
                lines = wrap_text(text, f, width)
                if len(lines) == 2 and 2 * f.get_linesize() <= r.h - 2 and " " in text:
                    imgs = [f.render(line, True, fg) for line in lines]
                    top = r.centery - f.get_linesize()
                    return [(img, img.get_rect(midtop=(r.centerx, top + k * f.get_linesize())).topleft)
                            for k, img in enumerate(imgs)]
        if one_line:
            img = font.render(text, True, fg)
            return [(img, img.get_rect(center=r.center).topleft)]
        note_clipped(text, width)
        while text and font.size(text + "…")[0] > width:
            text = text[:-1]
        img = font.render(text.rstrip() + "…", True, fg)
        return [(img, img.get_rect(center=r.center).topleft)]


def _longest_fit(word: str, font: pygame.font.Font, width: int) -> int:
    """The length (>= 1) of the longest prefix of ``word`` at most ``width`` px wide: a galloping
    search (1, 2, 4, ... characters, then halving), O(log k) ``font.size`` calls for a k-character
    answer, each on at most 2k characters."""
    n = len(word)
    lo, hi = 1, 2       # lo fits (or is the one character a line must take); hi is the next try
    while hi <= n and font.size(word[:hi])[0] <= width:
        lo, hi = hi, hi * 2
    hi = min(hi, n + 1)  # word[:hi] is too wide (or past the end)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if font.size(word[:mid])[0] <= width:
            lo = mid
        else:
            hi = mid
    return lo


def wrap_text(text: str, font: pygame.font.Font, width: int, max_lines: int | None = None) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` px in ``font``; explicit newlines are kept;
    a single word wider than the line is broken between characters. With ``max_lines``, only the
    first that many lines are made. ``font.size`` is called O(log) times per line made (plus once per
    word), so a long unbroken word costs about its length, not its square."""
    lines: list[str] = []
    limit = float("inf") if max_lines is None else max(0, max_lines)
    for para in text.split("\n"):
        if len(lines) >= limit:
            break
        words = para.split()
        if not words:
            lines.append("")
            continue
        cur = ""
        for word in words:
            if len(lines) >= limit:
                break
            trial = word if not cur else cur + " " + word
            if font.size(trial)[0] <= width:
                cur = trial
                continue
            if cur:
                lines.append(cur)
                cur = ""
            while len(word) > 1 and len(lines) < limit:
                cut = _longest_fit(word, font, width)
                if cut >= len(word):
                    break
                lines.append(word[:cut])
                word = word[cut:]
            cur = word
        lines.append(cur)
    return lines[:max_lines] if max_lines is not None else lines


def unite_rects(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` with every overlapping group united into one rectangle (none of the result overlap;
    the dirty areas of a partial repaint)."""
    rects = list(rects)
    merged: list[pygame.Rect] = []
    while rects:
        r = rects.pop()
        k = r.collidelist(merged)
        while k >= 0:
            r = r.union(merged.pop(k))
            k = r.collidelist(merged)
        merged.append(r)
    return merged


def dim_backdrop(surface: pygame.Surface, alpha: int = 170) -> None:
    """Darken everything already drawn (for dialogs)."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, alpha))
    surface.blit(shade, (0, 0))


def draw_symbol(surface: pygame.Surface, shape: str, center: tuple[float, float], size: float,
                color: RGB, outline: RGB | None = None) -> None:
    """Draw one of theme.SYMBOLS' shapes ("circle", "triangle", "square", "diamond") centred at
    ``center`` with radius ``size`` px, filled with ``color`` and an optional outline."""
    cx, cy = center
    pts: Sequence[tuple[float, float]]
    if shape == "circle":
        pygame.draw.circle(surface, color, (cx, cy), size)
        if outline:
            pygame.draw.circle(surface, outline, (cx, cy), size, 1)
        return
    if shape == "triangle":
        pts = [(cx + size * math.cos(math.radians(a)), cy - size * math.sin(math.radians(a)))
               for a in (90, 210, 330)]
    elif shape == "square":
        s = size * 0.8
        pts = [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    elif shape == "diamond":
        pts = [(cx, cy - size), (cx + size, cy), (cx, cy + size), (cx - size, cy)]
    else:
        raise ValueError(f"unknown symbol shape {shape!r}")
    pygame.draw.polygon(surface, color, pts)
    if outline:
        pygame.draw.polygon(surface, outline, pts, 1)


class FocusRing:
    """Keyboard navigation over a list of buttons: arrows/Tab move the focus, Enter/Space click.

    ``rows`` is a list of rows (lists of buttons); Up/Down move between rows, Left/Right inside one.
    Disabled buttons are skipped. ``focus`` is (row, col) or None until the first key press.
    """

    def __init__(self) -> None:
        self.rows: list[list[Button]] = []
        self.focus: tuple[int, int] | None = None

    def set_rows(self, rows: list[list[Button]]) -> None:
        self.rows = [r for r in rows if r]
        if self.focus is not None:
            r, c = self.focus
            if r >= len(self.rows):
                self.focus = None
            else:
                self.focus = (r, min(c, len(self.rows[r]) - 1))
        self._mark()

    def current(self) -> Button | None:
        if self.focus is None:
            return None
        r, c = self.focus
        return self.rows[r][c]

    def _mark(self) -> None:
        cur = self.current()
        for row in self.rows:
            for b in row:
                b.focused = b is cur

    def _flat(self) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(self.rows) for c, b in enumerate(row) if b.enabled]

    def handle_event(self, event: Any) -> bool:
        """Arrows/Tab/Enter/Space; returns True if consumed."""
        if event.type != pygame.KEYDOWN or not self.rows:
            return False
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        k = event.key
        flat = self._flat()
        if not flat:
            return False
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            cur = self.current()
            if cur is None:
                self.focus = flat[0]
                self._mark()
                return True
            cur.click()
            return True
        if k not in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_TAB):
            return False
        if self.focus is None or self.focus not in flat:
            self.focus = flat[0]
        elif k == pygame.K_TAB:
            i = flat.index(self.focus)
            back = bool(mods & pygame.KMOD_SHIFT)
            self.focus = flat[(i + (-1 if back else 1)) % len(flat)]
        elif k in (pygame.K_LEFT, pygame.K_RIGHT):
            r, c = self.focus
            cols = [cc for (rr, cc) in flat if rr == r]
            i = cols.index(c)
            i = max(0, min(len(cols) - 1, i + (1 if k == pygame.K_RIGHT else -1)))
            self.focus = (r, cols[i])
        else:
            r, c = self.focus
            rows = sorted({rr for rr, _ in flat})
            i = rows.index(r)
            i = max(0, min(len(rows) - 1, i + (1 if k == pygame.K_DOWN else -1)))
            nr = rows[i]
            cols = [cc for (rr, cc) in flat if rr == nr]
            self.focus = (nr, min(cols, key=lambda cc: abs(cc - c)))
        self._mark()
        return True
