"""The settings dialog: colour palette, sound, fullscreen, colour symbols.

Every change is applied at once and written atomically to ``data_dir()/settings.json`` (through
``App.set_setting``). Mouse or keyboard: arrows/Tab move, Enter/Space choose, Esc closes.
"""
from __future__ import annotations

from typing import Any

import pygame

from . import theme as _theme
from .scene import Scene
from .widgets import Button, FocusRing, dim_backdrop, draw_symbol, mix

PANEL = pygame.Rect(230, 60, 820, 680)


class SettingsScene(Scene):
    """Overlay dialog editing ``app.settings``."""

    overlay = True
    title = "Settings"

    def wants_frame(self) -> bool:
        return False   # a still picture: drawn again on input only

    def __init__(self, app: Any):
        super().__init__(app)
        x = PANEL.x + 40
        y = PANEL.y + 118
        self.palette_buttons: list[tuple[str, Button]] = []
        for name, pal in _theme.PALETTES.items():
            b = Button((x, y, PANEL.w - 80, 58), pal.label, lambda n=name: self.choose_palette(n))
            self.palette_buttons.append((name, b))
            y += 68
        y += 46
        self.toggles: list[tuple[str, str, str, Button]] = []
        rows = [("sound", "Sound effects", "Also toggled by M at any time."),
                ("fullscreen", "Fullscreen", "Also toggled by F11."),
                ("symbols", "Colour symbols", "A shape with every colour (the two symbol palettes "
                                              "always show them).")]
        for key, label, note in rows:
            b = Button((PANEL.right - 40 - 120, y, 120, 44), "", lambda k=key: self.toggle(k))
            self.toggles.append((key, label, note, b))
            y += 64
        self.done = Button((PANEL.right - 40 - 160, PANEL.bottom - 40 - 48, 160, 48), "Done",
                           self.close, style="primary")
        self.focus = FocusRing()
        self.focus.set_rows([[b] for _, b in self.palette_buttons]
                            + [[b] for *_, b in self.toggles] + [[self.done]])

    def buttons(self) -> list[Button]:
        return [b for _, b in self.palette_buttons] + [b for *_, b in self.toggles] + [self.done]

    # ---------------------------------------------------------------- actions
    def choose_palette(self, name: str) -> None:
        """Use palette ``name`` (a key of theme.PALETTES) and persist it."""
        self.app.set_setting("palette", name)
        self.app.audio.play("click")

    def toggle(self, key: str) -> None:
        """Flip boolean setting ``key`` ("sound", "fullscreen" or "symbols") and persist it."""
        self.app.set_setting(key, not self.app.settings.get(key))
        self.app.audio.play("click")

    def close(self) -> None:
        if self.app.top is self:
            self.app.pop()

    # ----------------------------------------------------------------- events
    def handle_event(self, event: Any) -> bool:
        for b in self.buttons():
            if b.handle_event(event):
                return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
                return True
            if self.focus.handle_event(event):
                return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and not PANEL.collidepoint(event.pos):
            self.close()
        return True  # modal: mouse events never fall through

    # ------------------------------------------------------------------- draw
    def update(self, dt: float) -> None:
        """Keep the toggle buttons' labels in step with the settings (draw() only reads them)."""
        for key, _label, _note, b in self.toggles:
            on = bool(self.app.settings.get(key))
            b.label = "On" if on else "Off"
            b.style = "primary" if on else "normal"

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        th = app.theme
        dim_backdrop(surface, 180)
        pygame.draw.rect(surface, th.panel, PANEL, border_radius=16)
        pygame.draw.rect(surface, th.panel_edge, PANEL, 1, border_radius=16)
        surface.blit(app.font(30, True).render("Settings", True, th.text), (PANEL.x + 40, PANEL.y + 28))
        surface.blit(app.font(16, True).render("COLOURS", True, th.text_dim),
                     (PANEL.x + 40, PANEL.y + 88))
        current = app.settings.get("palette")
        for name, b in self.palette_buttons:
            pal = _theme.PALETTES[name]
            chosen = name == current
            r = b.rect
            fill = mix(th.panel, th.panel_edge, 0.45 if (b.hover or b.pressed) else 0.2)
            pygame.draw.rect(surface, fill, r, border_radius=10)
            pygame.draw.rect(surface, th.accent if chosen else th.panel_edge, r, 2 if chosen else 1,
                             border_radius=10)
            if b.focused:
                pygame.draw.rect(surface, th.highlight, r.inflate(6, 6), 2, border_radius=12)
            # radio mark
            c = (r.x + 30, r.centery)
            pygame.draw.circle(surface, th.text_dim, c, 11, 2)
            if chosen:
                pygame.draw.circle(surface, th.accent, c, 6)
            surface.blit(app.font(19, chosen).render(pal.label, True, th.text), (r.x + 56, r.centery - 12))
            # swatches in that palette's colours, with symbols if it (or the setting) shows them
            sx = r.right - 4 * 44 - 10
            show_sym = pal.symbols or bool(app.settings.get("symbols"))
            for i, letter in enumerate("RYBG"):
                sw = pygame.Rect(sx + 44 * i, r.y + 11, 36, 36)
                pygame.draw.rect(surface, pal.tile, sw, border_radius=6)
                col = pal.links[letter]
                if show_sym:
                    draw_symbol(surface, _theme.SYMBOLS[letter], sw.center, 12, col)
                else:
                    pygame.draw.rect(surface, col, sw.inflate(-12, -12), border_radius=4)
        y0 = self.toggles[0][3].rect.y - 36
        surface.blit(app.font(16, True).render("OPTIONS", True, th.text_dim), (PANEL.x + 40, y0))
        for key, label, note, b in self.toggles:
            surface.blit(app.font(20, True).render(label, True, th.text), (PANEL.x + 40, b.rect.y))
            surface.blit(app.font(15).render(note, True, th.text_dim), (PANEL.x + 40, b.rect.y + 26))
            b.draw(surface, app)
        path_note = app.font(14).render("Saved automatically.", True, th.text_dim)
        surface.blit(path_note, (PANEL.x + 40, self.done.rect.centery - 8))
        self.done.draw(surface, app)
