"""The rules reader: a game's ``rules.md`` shown as a scrollable overlay.

Understands the small markdown subset our rules files use: ``#``/``##``/``###`` headings, paragraphs
(consecutive lines join), ``- ``/``* `` bullets and ``1. `` numbered items (indented continuation lines
join the item), and inside them ``**bold**``/``__bold__``, ``*emphasis*``/``_emphasis_`` (slanted),
`` `code` `` (tinted) and ``[text](url)`` links (the text shown); the markers themselves are never
shown.
Scroll with the wheel, Up/Down, PgUp/PgDn, Home/End; Esc, F1, the Close button or a click outside the
panel closes it.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pygame

from . import theme as _theme
from .scene import Scene, WheelSteps
from .widgets import Button, dim_backdrop, mix

_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_NUMBERED = re.compile(r"^(\d+)[.)]\s+(.*)$")
_MARK = re.compile(r"`[^`]*`|\*\*|__|\*|_")

#: A run of text and its style: "" plain, "b" bold, "i" emphasis, "bi" both, "code".
Run = tuple[str, str]


def inline_runs(text: str) -> list[Run]:
    """``text``'s inline markup as styled runs (markers dropped). A ``*``/``_`` opens emphasis only
    before a non-space and closes it only after one; ``_`` inside a word (snake_case) is a letter;
    a marker never closed is shown as written."""
    text = _LINK.sub(r"\1", text)
    runs: list[Run] = []
    bold = ital = False
    buf = ""

    def style() -> str:
        return ("b" if bold else "") + ("i" if ital else "")

    def push(t: str, st: str) -> None:
        if t:
            if runs and runs[-1][1] == st:
                runs[-1] = (runs[-1][0] + t, st)
            else:
                runs.append((t, st))

    pos = 0
    tokens = list(_MARK.finditer(text))
    for k, m in enumerate(tokens):
        tok = m.group(0)
        buf += text[pos:m.start()]
        pos = m.end()
        before = text[m.start() - 1] if m.start() > 0 else " "
        after = text[m.end()] if m.end() < len(text) else " "
        if tok.startswith("`") and len(tok) >= 2:
            push(buf, style())
            buf = ""
            push(tok[1:-1], "code")
            continue
        single = tok in ("*", "_")
        if tok[0] == "_" and before.isalnum() and after.isalnum():
            buf += tok          # snake_case
            continue
        on = ital if single else bold
        if not on and after.isspace():
            buf += tok          # "a * b": not a marker
            continue
        if on and before.isspace():
            buf += tok
            continue
        if not on and not any(t.group(0) == tok for t in tokens[k + 1:]):
            buf += tok          # never closed: shown as written
            continue
        push(buf, style())
        buf = ""
        if single:
            ital = not ital
        else:
            bold = not bold
    buf += text[pos:]
    push(buf, style())
    return runs


def _inline(text: str) -> str:
    return "".join(t for t, _st in inline_runs(text))


def parse_markdown(text: str) -> list[tuple[str, str]]:
    """Blocks of ``text`` as (kind, text) pairs, kind in "h1", "h2", "h3", "p", "bullet", "num:N";
    the text plain (:func:`parse_markdown_runs` keeps its inline styles)."""
    return [(kind, _inline(raw)) for kind, raw in _blocks(text)]


def parse_markdown_runs(text: str) -> list[tuple[str, list[Run]]]:
    """Blocks of ``text`` as (kind, runs) pairs (:func:`inline_runs`)."""
    return [(kind, inline_runs(raw)) for kind, raw in _blocks(text)]


def _blocks(text: str) -> list[tuple[str, str]]:
    """Blocks of ``text`` as (kind, raw inline text)."""
    blocks: list[tuple[str, str]] = []
    cur: list[Any] | None = None  # [kind, parts]

    def flush() -> None:
        nonlocal cur
        if cur is not None:
            blocks.append((cur[0], " ".join(cur[1]).strip()))
            cur = None

    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if m and not raw.startswith("    "):
            flush()
            level = min(3, len(m.group(1)))
            blocks.append((f"h{level}", m.group(2).strip().rstrip("#").strip()))
            continue
        if stripped.startswith(("- ", "* ", "+ ")):
            flush()
            cur = ["bullet", [stripped[2:].strip()]]
            continue
        n = _NUMBERED.match(stripped)
        if n:
            flush()
            cur = [f"num:{n.group(1)}", [n.group(2).strip()]]
            continue
        if cur is not None and (cur[0] == "p" or raw[:1] in (" ", "\t")):
            cur[1].append(stripped)
            continue
        flush()
        cur = ["p", [stripped]]
    flush()
    return blocks


class RulesScene(Scene):
    """Overlay showing ``spec.rules_text`` (a path) under ``spec.title``. If the file is missing or
    unreadable the panel shows a one-line message instead."""

    overlay = True
    is_rules = True
    PANEL = pygame.Rect(140, 50, 1000, 700)
    PAD = 36

    def wants_frame(self) -> bool:
        return False   # a still picture: drawn again on input only

    def __init__(self, app: Any, spec: Any):
        super().__init__(app)
        self.spec = spec
        self.title = f"{getattr(spec, 'title', 'Game')}: rules"
        self.scroll = 0.0
        self.wheel = WheelSteps()
        self.error: str | None = None
        try:
            self.text = Path(spec.rules_text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, TypeError, AttributeError) as e:
            name = Path(str(getattr(spec, "rules_text", "?"))).name
            self.text = ""
            self.error = f"The rules text ({name}) could not be read: {e.__class__.__name__}."
        self.close_button = Button(pygame.Rect(self.PANEL.right - 150, self.PANEL.y + 22, 120, 40),
                                   "Close", self.close)
        self.view = pygame.Rect(self.PANEL.x + self.PAD, self.PANEL.y + 84,
                                self.PANEL.w - 2 * self.PAD - 14, self.PANEL.h - 84 - 28)
        self._layout: list[tuple[int, str, Any, str, int, int]] | None = None
        self._italics: dict[tuple[int, str], pygame.font.Font] = {}
        self.content_height = 0

    # ------------------------------------------------------------------ layout
    def style_font(self, size: int, style: str) -> pygame.font.Font:
        """The font of a run style ("", "b", "i", "bi", "code") at ``size`` px: the app's regular or
        bold face, slanted for emphasis (own font objects, so the app's shared ones stay upright)."""
        if "i" not in style:
            return self.app.font(size, "b" in style)
        key = (size, style)
        f = self._italics.get(key)
        if f is None:
            f = pygame.font.Font(str(_theme.FONT_BOLD if "b" in style else _theme.FONT_REGULAR), size)
            f.set_italic(True)
            self._italics[key] = f
        return f

    def wrap_runs(self, runs: list, size: int, width: int) -> list[list[tuple[str, str, int]]]:
        """Styled ``runs`` broken into lines at most ``width`` px wide: each line a list of
        ``(text, style, x offset px)``. Breaks between words; a word wider than a line is cut."""
        lines: list[list[tuple[str, str, int]]] = [[]]
        x = 0
        for text, style in runs:
            # widths from the upright face: a slanted render is wider only by its overhang
            font = self.app.font(size, "b" in style)
            for piece in re.findall(r"\s+|\S+", text):
                if piece.isspace():
                    if x > 0:
                        w = font.size(" ")[0]
                        lines[-1].append((" ", style, x))
                        x += w
                    continue
                w = font.size(piece)[0]
                if x + w > width and x > 0:
                    while lines[-1] and lines[-1][-1][0] == " ":
                        lines[-1].pop()
                    lines.append([])
                    x = 0
                while w > width and len(piece) > 1:          # a word longer than the line
                    cut = len(piece) - 1
                    while cut > 1 and font.size(piece[:cut])[0] > width:
                        cut -= 1
                    lines[-1].append((piece[:cut], style, 0))
                    lines.append([])
                    piece = piece[cut:]
                    w = font.size(piece)[0]
                lines[-1].append((piece, style, x))
                x += w
        merged = []
        for line in lines:
            if not line:
                continue
            out = [line[0]]
            for text, style, x in line[1:]:
                if style == out[-1][1]:
                    out[-1] = (out[-1][0] + text, style, out[-1][2])   # one piece per styled stretch
                else:
                    out.append((text, style, x))
            merged.append(out)
        return merged or [[]]

    def layout(self) -> list[tuple[int, str, Any, str, int, int]]:
        """Pieces as (font size, style, colour or None=text, text, x offset, y offset) in px; style is
        "", "b", "i", "bi" or "code" (:func:`inline_runs`); cached."""
        if self._layout is not None:
            return self._layout
        out: list[tuple[int, str, Any, str, int, int]] = []
        width = self.view.w
        y = 0
        accent = "accent"
        if self.error:
            out.append((20, "", "bad", self.error, 0, 0))
            self._layout = out
            self.content_height = 30
            return out
        for kind, runs in parse_markdown_runs(self.text):
            if kind in ("h1", "h2", "h3"):
                size = {"h1": 30, "h2": 24, "h3": 20}[kind]
                if y > 0:
                    y += {"h1": 18, "h2": 14, "h3": 8}[kind]
                runs = [(t, "b" + st.replace("b", "") if st != "code" else "b") for t, st in runs]
                lh = self.app.font(size, True).get_linesize()
                for line in self.wrap_runs(runs, size, width):
                    for text, style, x in line:
                        out.append((size, style, accent if kind != "h3" else None, text, x, y))
                    y += lh
                y += 8
                continue
            size = 19
            lh = self.app.font(size).get_linesize()
            indent = 0
            if kind == "bullet" or kind.startswith("num:"):
                indent = 36
                marker = "\u2022" if kind == "bullet" else kind[4:] + "."
                mx = 10 if kind == "bullet" else max(0, 28 - self.app.font(size, True).size(marker)[0])
                out.append((size, "" if kind == "bullet" else "b", "dim", marker, mx, y))
            for line in self.wrap_runs(runs, size, width - indent):
                for text, style, x in line:
                    out.append((size, style, "code" if style == "code" else None, text, indent + x, y))
                y += lh + 3
            y += 10 if kind == "p" else 5
        self._layout = out
        self.content_height = y
        return out

    @property
    def max_scroll(self) -> float:
        """Largest scroll offset in px (0 when everything fits)."""
        self.layout()
        return float(max(0, self.content_height - self.view.h))

    def scroll_by(self, dy: float) -> None:
        """Scroll by ``dy`` px (positive = further down the text), clamped."""
        self.scroll = min(self.max_scroll, max(0.0, self.scroll + dy))

    def close(self) -> None:
        if self.app.top is self:
            self.app.pop()

    # ------------------------------------------------------------------ events
    def handle_event(self, event: Any) -> bool:
        if self.close_button.handle_event(event):
            return True
        et = event.type
        if et == pygame.MOUSEWHEEL:
            steps = self.wheel.feed(event)
            if steps:
                self.scroll_by(-steps * 3 * 26)
            return True
        if et == pygame.MOUSEBUTTONDOWN:
            if event.button == 1 and not self.PANEL.collidepoint(event.pos):
                self.close()
            return True
        if et in (pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            return True
        if et == pygame.KEYDOWN:
            k = event.key
            page = self.view.h - 40
            if k in (pygame.K_ESCAPE, pygame.K_F1):
                self.close()
            elif k == pygame.K_UP:
                self.scroll_by(-40)
            elif k == pygame.K_DOWN:
                self.scroll_by(40)
            elif k == pygame.K_PAGEUP:
                self.scroll_by(-page)
            elif k in (pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.scroll_by(page)
            elif k == pygame.K_HOME:
                self.scroll = 0.0
            elif k == pygame.K_END:
                self.scroll = self.max_scroll
            else:
                return False
            return True
        return False

    # -------------------------------------------------------------------- draw
    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        th = app.theme
        dim_backdrop(surface, 180)
        p = self.PANEL
        pygame.draw.rect(surface, th.panel, p, border_radius=16)
        pygame.draw.rect(surface, th.panel_edge, p, 1, border_radius=16)
        title = app.font(28, True).render(self.title, True, th.text)
        surface.blit(title, (p.x + self.PAD, p.y + 26))
        pygame.draw.line(surface, th.panel_edge, (p.x + 20, p.y + 74), (p.right - 20, p.y + 74))
        self.close_button.draw(surface, app)
        colours = {None: th.text, "accent": th.accent, "dim": th.text_dim, "bad": th.bad,
                   "code": mix(th.text, th.accent, 0.45)}
        old = surface.get_clip()
        surface.set_clip(self.view)
        top = self.view.y - int(self.scroll)
        for size, style, colour, text, x, y in self.layout():
            yy = top + y
            if yy > self.view.bottom or yy + 40 < self.view.y or not text.strip():
                continue
            img = self.style_font(size, style).render(text, True, colours.get(colour, th.text))
            surface.blit(img, (self.view.x + x, yy))
        surface.set_clip(old)
        ms = self.max_scroll
        if ms > 0:
            track = pygame.Rect(p.right - 26, self.view.y, 6, self.view.h)
            pygame.draw.rect(surface, th.bg, track, border_radius=3)
            h = max(30, int(track.h * self.view.h / self.content_height))
            y = track.y + int((track.h - h) * self.scroll / ms)
            pygame.draw.rect(surface, th.text_dim, (track.x, y, track.w, h), border_radius=3)
            hint = app.font(15).render("Wheel / arrows / PgUp PgDn to scroll, Esc to close",
                                       True, th.text_dim)
            surface.blit(hint, hint.get_rect(bottomright=(p.right - 36, p.bottom - 6)))
