"""The launcher: the games in the registry with Play and Rules, Resume, Settings, Quit.

Only games listed in ``sim.core.registry.GAMES`` appear (the registry lists playable games only).
"Resume" appears when ``autosave_path()`` holds a record that loads, is unfinished and has a move (a
match only set up is not offered); a record that fails to load is reported in one line and left
untouched on disk. Mouse or keyboard: arrows/Tab move, Enter/Space
choose, F1 shows the rules of the focused (or first) game.
"""
from __future__ import annotations

import math
import os
import sys
import traceback
from typing import Any

import pygame

from sim.core import record as _record
from sim.core import registry
from sim.core.match import Match
from sim.core.storage import autosave_path

from .scene import Scene, WheelSteps
from .theme import SYMBOLS
from .widgets import Button, FocusRing, draw_symbol, mix, wrap_text

LEFT = 80
CARD_W = 760
CARD_H = 138
CARD_GAP = 18
COMPACT_GAP = 8
MIN_CARD_H = 76
LIST_TOP = 212
LIST_BOTTOM = 724
SIDE_X = 880
SIDE_W = 320

#: Key hints shown under the side buttons.
CONTROLS = (("Ctrl+Z / Y", "undo / redo"), ("H", "hint"), ("F1", "rules"), ("Esc", "back to this menu"))


def card_metrics(n: int) -> tuple[int, int]:
    """Height and gap (px) of the game cards so that ``n`` cards fit the list: full-size cards while they
    fit, else compact ones (one-line titles, two summary lines) down to ``MIN_CARD_H``; beyond that the
    list scrolls."""
    room = LIST_BOTTOM - LIST_TOP
    if n * (CARD_H + CARD_GAP) - CARD_GAP <= room:
        return CARD_H, CARD_GAP
    return max(MIN_CARD_H, min(CARD_H, (room + COMPACT_GAP) // max(1, n) - COMPACT_GAP)), COMPACT_GAP


class GameEntry:
    """One game in the list: its spec and its buttons (positions set by layout)."""

    def __init__(self, spec: Any, play: Button, rules: Button):
        self.spec = spec
        self.play = play
        self.rules = rules
        self.rect = pygame.Rect(0, 0, CARD_W, CARD_H)


class LauncherScene(Scene):
    """The home scene; the bottom of the stack."""

    title = "Playtable"

    def wants_frame(self) -> bool:
        return False   # a still picture: drawn again on input only

    def __init__(self, app: Any):
        super().__init__(app)
        self.entries: list[GameEntry] = []
        self.errors: list[str] = []       # registry entries that failed to import
        self.message: str | None = None   # last action's failure (e.g. a game that failed to start)
        self.resume_match: Match | None = None
        self.resume_spec: Any = None
        self.resume_error: str | None = None
        self.scroll = 0
        self.wheel = WheelSteps()
        self.focus = FocusRing()
        self.resume_button = Button((SIDE_X + 24, 0, SIDE_W - 48, 50), "Resume", self.resume,
                                    style="primary", font_size=22)
        self.settings_button = Button((SIDE_X, 0, SIDE_W, 48), "Settings", self.open_settings)
        self.quit_button = Button((SIDE_X, 0, SIDE_W, 48), "Quit", self.app.quit, style="quiet")
        half = (SIDE_W - 12) // 2
        self.host_button = Button((SIDE_X, 0, half, 48), "Host a game", self.host_lan, font_size=18,
                                  tooltip="host a game on the LAN")
        self.join_button = Button((SIDE_X + half + 12, 0, half, 48), "Join a game", self.join_lan, font_size=18,
                                  tooltip="join a game hosted on the LAN")
        self._load_games()
        self.refresh_resume()
        self._layout()

    # ------------------------------------------------------------------ model
    def _load_games(self) -> None:
        self.entries = []
        self.errors = []
        for name in registry.game_names():
            try:
                spec = registry.get_spec(name)
            except Exception as e:  # a broken game must not take the launcher down
                self.errors.append(f"{name}: {e.__class__.__name__}: {e}")
                continue
            play = Button((0, 0, 120, 44), "Play", lambda s=spec: self.play(s), style="primary")
            rules = Button((0, 0, 120, 44), "Rules", lambda s=spec: self.app.show_rules(s))
            self.entries.append(GameEntry(spec, play, rules))

    def refresh_resume(self) -> None:
        """Look at the autosave again: offer it if it loads, else keep its one-line error."""
        self.resume_match = None
        self.resume_spec = None
        self.resume_error = None
        path = autosave_path()
        if not path.exists():
            return
        try:
            match = _record.load(path)
            spec = registry.get_spec(match.rules.info.name)
        except _record.RecordError as e:
            self.resume_error = str(e).splitlines()[0] if str(e) else "unreadable record"
            return
        except Exception as e:  # e.g. the game's module fails to import
            self.resume_error = f"{e.__class__.__name__}: {e}".splitlines()[0]
            return
        if match.is_over() or not match.has_moves():
            self.resume_error = None
            return   # a finished match, or one only set up (no player acted): nothing to resume
        self.resume_match = match
        self.resume_spec = spec

    # ---------------------------------------------------------------- actions
    def play(self, spec: Any) -> None:
        """Start a new match of ``spec`` with a random seed; a game with a set-up dialog
        (``spec.make_setup``, e.g. the seats of a real-time race) opens that instead."""
        make_setup = getattr(spec, "make_setup", None)
        if make_setup is not None:
            try:
                self.app.push(make_setup(self.app, spec))
                self.message = None
            except Exception as e:
                self._fail(f"Could not set up {spec.title}", e)
            return
        seed = int.from_bytes(os.urandom(4), "big")
        try:
            match = Match(spec.make_rules(), None, seed)
            self.app.start_match(spec, match)
            self.message = None
            self.app.audio.play("start")
        except Exception as e:
            self._fail(f"Could not start {spec.title}", e)

    def resume(self) -> None:
        """Continue the autosaved match."""
        if self.resume_match is None:
            return
        try:
            self.app.start_match(self.resume_spec, self.resume_match)
            self.message = None
            self.app.audio.play("start")
        except Exception as e:
            self._fail("Could not resume", e)

    def host_lan(self) -> None:
        """Host a game on the LAN (the game and its seats, then a lobby)."""
        from .lan_setup import HostSetupScene
        self.app.push(HostSetupScene(self.app))

    def join_lan(self) -> None:
        """Join a game hosted on the LAN (address and name, then the lobby)."""
        from .lan_setup import JoinScene
        self.app.push(JoinScene(self.app))

    def open_settings(self) -> None:
        from .settings_view import SettingsScene
        self.app.push(SettingsScene(self.app))

    def _fail(self, what: str, e: Exception) -> None:
        traceback.print_exc(file=sys.stderr)
        self.message = f"{what}: {e.__class__.__name__}: {e}".splitlines()[0]
        self.app.audio.play("reject")

    # ----------------------------------------------------------------- layout
    @property
    def card_h(self) -> int:
        return card_metrics(len(self.entries))[0]

    @property
    def card_gap(self) -> int:
        return card_metrics(len(self.entries))[1]

    def _layout(self) -> None:
        y = LIST_TOP - self.scroll
        ch, gap = self.card_h, self.card_gap
        compact = ch < CARD_H
        for e in self.entries:
            e.rect = pygame.Rect(LEFT, y, CARD_W, ch)
            if compact:
                e.play.rect = pygame.Rect(e.rect.right - 18 - 110, e.rect.centery - 20, 110, 40)
                e.rules.rect = pygame.Rect(e.play.rect.x - 10 - 100, e.play.rect.y, 100, 40)
            else:
                e.play.rect = pygame.Rect(e.rect.right - 24 - 130, e.rect.bottom - 20 - 46, 130, 46)
                e.rules.rect = pygame.Rect(e.play.rect.x - 14 - 120, e.play.rect.y, 120, 46)
            y += ch + gap
        side_y = LIST_TOP
        self._resume_panel = pygame.Rect(SIDE_X, side_y, SIDE_W, 220)
        self.resume_button.rect.topleft = (SIDE_X + 24, self._resume_panel.bottom - 24 - 50)
        self.host_button.rect.topleft = (SIDE_X, self._resume_panel.bottom + 28)
        self.join_button.rect.topleft = (self.join_button.rect.x, self._resume_panel.bottom + 28)
        half = self.host_button.rect.w
        self.settings_button.rect = pygame.Rect(SIDE_X, self.host_button.rect.bottom + 14, half, 48)
        self.quit_button.rect = pygame.Rect(SIDE_X + half + 12, self.host_button.rect.bottom + 14, half, 48)
        rows: list[list[Button]] = [[e.play, e.rules] for e in self.entries]
        if self.resume_match is not None:
            rows.append([self.resume_button])
        rows += [[self.host_button, self.join_button], [self.settings_button, self.quit_button]]
        self.focus.set_rows(rows)

    def buttons(self) -> list[Button]:
        """Every live button (for tests and the fuzz harness)."""
        out: list[Button] = []
        for e in self.entries:
            out += [e.play, e.rules]
        if self.resume_match is not None:
            out.append(self.resume_button)
        return out + [self.host_button, self.join_button, self.settings_button, self.quit_button]

    @property
    def max_scroll(self) -> int:
        total = len(self.entries) * (self.card_h + self.card_gap) - self.card_gap
        return max(0, total - (LIST_BOTTOM - LIST_TOP))

    # ----------------------------------------------------------------- scene
    def on_enter(self) -> None:
        self.refresh_resume()
        for b in self.buttons():
            b.pressed = False
        self._layout()

    def handle_event(self, event: Any) -> bool:
        et = event.type
        if et == pygame.MOUSEWHEEL:
            steps = self.wheel.feed(event)
            if steps and self.max_scroll:
                self.scroll = max(0, min(self.max_scroll, self.scroll - steps * 60))
                self._layout()
            return True
        list_area = pygame.Rect(0, LIST_TOP - 8, SIDE_X - 20, LIST_BOTTOM - LIST_TOP + 16)
        for b in self.buttons():
            in_list = b not in (self.resume_button, self.settings_button, self.quit_button, self.host_button,
                                self.join_button)
            if in_list and hasattr(event, "pos") and not list_area.collidepoint(event.pos):
                b.hover = False
                continue
            if b.handle_event(event):
                return True
        if et == pygame.KEYDOWN:
            if event.key == pygame.K_F1 and self.entries:
                cur = self.focus.current()
                spec = self.entries[0].spec
                for e in self.entries:
                    if cur in (e.play, e.rules):
                        spec = e.spec
                self.app.show_rules(spec)
                return True
            if self.focus.handle_event(event):
                self._scroll_to_focus()
                return True
        return False

    def _scroll_to_focus(self) -> None:
        cur = self.focus.current()
        for e in self.entries:
            if cur in (e.play, e.rules):
                if e.rect.top < LIST_TOP:
                    self.scroll -= LIST_TOP - e.rect.top
                elif e.rect.bottom > LIST_BOTTOM:
                    self.scroll += e.rect.bottom - LIST_BOTTOM
                self.scroll = max(0, min(self.max_scroll, self.scroll))
                self._layout()

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        th = app.theme
        w, h = surface.get_size()
        # soft header band
        band = pygame.Rect(0, 0, w, 172)
        pygame.draw.rect(surface, mix(th.bg, th.panel, 0.55), band)
        pygame.draw.line(surface, th.panel_edge, (0, band.bottom), (w, band.bottom))
        self._draw_emblem(surface, (LEFT + 46, 88))
        title = app.font(60, True).render("Playtable", True, th.text)
        surface.blit(title, (LEFT + 112, 40))
        sub = app.font(20).render("Table games with real rules, on your desk.", True, th.text_dim)
        surface.blit(sub, (LEFT + 116, 114))

        heading = app.font(16, True).render("GAMES", True, th.text_dim)
        surface.blit(heading, (LEFT, LIST_TOP - 28))
        old = surface.get_clip()
        surface.set_clip(pygame.Rect(0, LIST_TOP - 6, SIDE_X - 20, LIST_BOTTOM - LIST_TOP + 12))
        for e in self.entries:
            self._draw_card(surface, e)
        surface.set_clip(old)
        if not self.entries:
            msg = app.font(20).render("No games are installed.", True, th.text_dim)
            surface.blit(msg, (LEFT, LIST_TOP + 10))
        y_err = min(LIST_BOTTOM, LIST_TOP + len(self.entries) * (self.card_h + self.card_gap)) + 4
        for line in self.errors[:2]:
            img = app.font(16).render(line[:110], True, th.bad)
            surface.blit(img, (LEFT, y_err))
            y_err += 22

        self._draw_side(surface)
        if self.message:
            self._draw_message(surface, self.message)
        foot = app.font(15).render(
            "Arrows / Tab + Enter to choose     F11 fullscreen     F12 screenshot     M mute",
            True, th.text_dim)
        surface.blit(foot, foot.get_rect(midbottom=(w // 2, h - 18)))

    def _draw_emblem(self, surface: pygame.Surface, center: tuple[int, int]) -> None:
        th = self.app.theme
        cx, cy = center
        size = 40
        pts = [(cx + size * math.cos(math.radians(60 * i - 30)),
                cy + size * math.sin(math.radians(60 * i - 30))) for i in range(6)]
        pygame.draw.polygon(surface, th.tile, pts)
        pygame.draw.polygon(surface, th.tile_edge, pts, 2)
        for i, letter in enumerate("RYBG"):
            a = math.radians(90 * i + 45)
            p = (cx + 18 * math.cos(a), cy + 18 * math.sin(a))
            draw_symbol(surface, SYMBOLS[letter], p, 8, th.links.get(letter, th.accent))

    def _draw_card(self, surface: pygame.Surface, e: GameEntry) -> None:
        app = self.app
        th = app.theme
        r = e.rect
        hot = any(b.hover or b.focused for b in (e.play, e.rules))
        pygame.draw.rect(surface, th.panel, r, border_radius=14)
        pygame.draw.rect(surface, th.accent if hot else th.panel_edge, r, 1, border_radius=14)
        compact = r.h < CARD_H
        inset = 12 if compact else 18
        pygame.draw.rect(surface, th.accent, (r.x, r.y + inset, 5, r.h - 2 * inset), border_radius=3)
        title = app.font(22 if compact else 28, True).render(e.spec.title, True, th.text)
        surface.blit(title, (r.x + 28, r.y + (7 if compact else 18)))
        players = str(getattr(e.spec, "players", "") or "")
        if players:
            tag = "1 player" if players == "1" else f"{players} players"
            img = app.font(13 if compact else 15, True).render(tag.upper(), True, th.text_dim)
            surface.blit(img, (r.x + 36 + title.get_width(), r.y + (15 if compact else 30)))
        font = app.font(15 if compact else 18)
        text_w = e.rules.rect.x - 24 - (r.x + 28)
        y = r.y + (37 if compact else 62)
        for line in wrap_text(e.spec.summary, font, text_w)[:2 if compact else 3]:
            surface.blit(font.render(line, True, th.text_dim), (r.x + 28, y))
            y += font.get_linesize() + (0 if compact else 2)
        e.rules.draw(surface, app)
        e.play.draw(surface, app)

    def _draw_side(self, surface: pygame.Surface) -> None:
        app = self.app
        th = app.theme
        heading = app.font(16, True).render("CONTINUE", True, th.text_dim)
        surface.blit(heading, (SIDE_X, LIST_TOP - 28))
        p = self._resume_panel
        pygame.draw.rect(surface, th.panel, p, border_radius=14)
        pygame.draw.rect(surface, th.panel_edge, p, 1, border_radius=14)
        x, y = p.x + 24, p.y + 20
        if self.resume_match is not None:
            surface.blit(app.font(22, True).render(self.resume_spec.title, True, th.text), (x, y))
            n = sum(1 for entry in self.resume_match.applied() if entry["p"] >= 0)
            info = f"Unfinished match, {n} {'move' if n == 1 else 'moves'} made."
            font = app.font(17)
            y += 34
            for line in wrap_text(info, font, p.w - 48)[:2]:
                surface.blit(font.render(line, True, th.text_dim), (x, y))
                y += font.get_linesize() + 2
            self.resume_button.draw(surface, app)
        elif self.resume_error is not None:
            surface.blit(app.font(20, True).render("Saved match unreadable", True, th.bad), (x, y))
            y += 28
            font = app.font(15)
            lines = wrap_text(self.resume_error, font, p.w - 48, max_lines=6)
            for line in lines[:6]:
                surface.blit(font.render(line, True, th.text_dim), (x, y))
                y += font.get_linesize()
            note = font.render("The file was left as it is.", True, th.text_dim)
            surface.blit(note, (x, p.bottom - 34))
        else:
            surface.blit(app.font(20, True).render("No match in progress", True, th.text), (x, y))
            font = app.font(17)
            y += 34
            for line in wrap_text("Matches are saved after every move; an unfinished one can be "
                                  "resumed here.", font, p.w - 48):
                surface.blit(font.render(line, True, th.text_dim), (x, y))
                y += font.get_linesize() + 2
        self.host_button.draw(surface, app)
        self.join_button.draw(surface, app)
        self.settings_button.draw(surface, app)
        self.quit_button.draw(surface, app)
        self._draw_controls(surface, self.quit_button.rect.bottom + 28)

    def _draw_controls(self, surface: pygame.Surface, y: int) -> None:
        app = self.app
        th = app.theme
        surface.blit(app.font(16, True).render("IN A GAME", True, th.text_dim), (SIDE_X, y))
        y += 28
        keyfont, textfont = app.font(15, True), app.font(15)
        for keys, what in CONTROLS:
            img = keyfont.render(keys, True, th.text)
            box = pygame.Rect(SIDE_X, y, img.get_width() + 14, 24)
            pygame.draw.rect(surface, th.panel, box, border_radius=5)
            pygame.draw.rect(surface, th.panel_edge, box, 1, border_radius=5)
            surface.blit(img, img.get_rect(center=box.center))
            surface.blit(textfont.render(what, True, th.text_dim), (SIDE_X + 128, y + 3))
            y += 28

    def _draw_message(self, surface: pygame.Surface, text: str) -> None:
        th = self.app.theme
        font = self.app.font(17)
        lines = wrap_text(text, font, CARD_W - 32)[:3]
        h = 20 + 24 * len(lines)
        top = LIST_TOP + len(self.entries) * (self.card_h + self.card_gap) + 2 * 22 * min(1, len(self.errors))
        top = min(top, LIST_BOTTOM - h)
        box = pygame.Rect(LEFT, top, CARD_W, h)
        pygame.draw.rect(surface, mix(th.panel, th.bad, 0.25), box, border_radius=10)
        pygame.draw.rect(surface, th.bad, box, 1, border_radius=10)
        for i, line in enumerate(lines):
            surface.blit(font.render(line, True, th.text), (box.x + 16, box.y + 10 + 24 * i))
