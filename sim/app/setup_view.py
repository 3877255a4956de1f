"""The set-up dialog of games with seats: how many players, who sits where, handicaps, game options.

Opened by the launcher's Play for a game whose ``GameSpec.make_setup`` is set. Each seat is a human
(this machine's mouse) or a bot at one of the game's levels, optionally with a handicap of extra tiles
(real-time Gobble). Game options (:class:`Choice`, by default one per option of ``spec.options``, e.g. a
board size) are rows of buttons. Start builds
``Match(spec.make_rules(), config, seed)`` with ``config = {"players", "seats"}`` plus ``"handicap"``
(when offered) and one key per option, and hands it to ``app.start_match``; a config the rules refuse is
shown in one line and Start stays disabled. The last set-up of each game is remembered in
``data_dir()/setup.json``.

Mouse or keyboard: arrows / Tab move, Enter / Space choose (the focus starts on Start), Esc cancels.
"""
from __future__ import annotations

import os
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable

import pygame

from sim.core.match import Match, check_setup
from sim.core.seats import names as seat_names
from sim.core.storage import data_dir, load_json_or, write_json_atomic

from .scene import Scene
from .widgets import Button, FocusRing, dim_backdrop, mix


def _kit(scene: Any) -> Any:
    """The scene's UI kit (made on first use)."""
    kit = getattr(scene, "_kit", None)
    if kit is None:
        from .ui import Kit
        kit = scene._kit = Kit(scene.app)
    return kit

KIND_LABELS = {"human": "Human", "bot:easy": "Easy", "bot:medium": "Medium", "bot:hard": "Hard"}
SEAT_COLOURS = ((86, 180, 233), (204, 121, 167), (230, 159, 0), (120, 200, 120), (240, 228, 66),
                (190, 190, 205))


def setup_path():
    return data_dir() / "setup.json"


@dataclass(frozen=True)
class Choice:
    """One game option of the dialog: config key ``key`` takes one of ``values`` (shown as ``labels``,
    default: the values as text); ``default`` is used until the player picks (and remembered after)."""

    key: str
    label: str
    values: tuple
    labels: tuple = ()
    default: Any = None

    def text(self, v: Any) -> str:
        if self.labels:
            return str(self.labels[self.values.index(v)])
        return str(v)

    @classmethod
    def of(cls, option: Any) -> "Choice":
        """The dialog row of a game option (:class:`sim.core.options.Option`)."""
        return cls(option.key, option.label, option.dialog_values(), option.dialog_labels(), option.default)


class SeatSetupScene(Scene):
    """Choose ``min_players``..``max_players`` seats, each human / bot level, and extra tiles per seat.

    ``describe(config) -> str`` may say what the config means (e.g. how the tiles are dealt); it is
    called only on configs the rules accept.
    """

    overlay = True
    title = "New game"

    def wants_frame(self) -> bool:
        return False   # a still picture: drawn again on input only
    BOX = pygame.Rect(0, 0, 760, 640)

    def __init__(self, app: Any, spec: Any, min_players: int = 2, max_players: int = 6,
                 kinds: tuple[str, ...] = ("human", "bot:easy", "bot:medium", "bot:hard"),
                 max_handicap: int = 20, describe: Callable[[dict], str] | None = None,
                 options: tuple[Choice, ...] = (), heading: str = "New race"):
        super().__init__(app)
        if not options:
            from sim.core.options import dialog_options
            options = tuple(Choice.of(o) for o in dialog_options(getattr(spec, "options", ())))
        self.options = tuple(options)
        self.heading = heading
        self.values: dict[str, Any] = {o.key: (o.default if o.default in o.values else o.values[0])
                                       for o in self.options}
        self.spec = spec
        self.min_players = min_players
        self.max_players = max_players
        self.kinds = kinds
        self.max_handicap = max_handicap
        self.describe = describe
        self.box = self.BOX.copy()
        # px per seat row and per option row: 52 and 50, closer together when that would not fit
        self.seat_h, self.opt_h = 52, 50
        if 300 + 52 * max_players + 50 * len(self.options) > 780:
            self.seat_h, self.opt_h = 45, 42
        self.box.height = min(780, 300 + self.seat_h * max_players + self.opt_h * len(self.options))
        self.box.center = (640, 400)
        self.focus = FocusRing()
        self.error: str | None = None
        self.info = ""
        seats = list(getattr(spec, "default_players", ()) or ["human", kinds[-1]])
        handicap = [0] * len(seats)
        saved = load_json_or(setup_path(), {})
        mine = saved.get(spec.name) if isinstance(saved, dict) else None
        if isinstance(mine, dict):
            s, h = mine.get("seats"), mine.get("handicap")
            if (isinstance(s, list) and min_players <= len(s) <= max_players and all(k in kinds for k in s)
                    and isinstance(h, list) and len(h) == len(s)
                    and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= max_handicap for x in h)):
                seats, handicap = s, h
            vals = mine.get("options")
            if isinstance(vals, dict):
                for o in self.options:
                    if o.key in vals and vals[o.key] in o.values:
                        self.values[o.key] = vals[o.key]
        self.seats: list[str] = seats[:max_players]
        #: names the players typed for the human seats ("" = none); kept with the match's seats
        self.names: list[str] = [""] * max_players
        self.handicap: list[int] = handicap[:max_players]
        while len(self.seats) < min_players:
            self.seats.append("bot:medium")
            self.handicap.append(0)
        self.b_start = Button((0, 0, 170, 46), "Start", self.start, style="primary", font_size=19)
        self.b_cancel = Button((0, 0, 130, 46), "Cancel", self.cancel, style="quiet", font_size=18)
        self._build()
        # Enter starts at once
        for r, row in enumerate(self.focus.rows):
            if self.b_start in row:
                self.focus.focus = (r, row.index(self.b_start))
        self.focus._mark()

    # ------------------------------------------------------------------ model
    def config(self) -> dict:
        cfg: dict[str, Any] = {"seats": list(self.seats)}
        key = getattr(self.spec, "players_key", "players")
        if key:
            cfg[key] = len(self.seats)
        if self.max_handicap > 0:
            cfg["handicap"] = list(self.handicap)
        cfg.update(self.values)
        return cfg

    def kind_pitch(self) -> int:
        """Px from one kind button to the next: 100, narrower when more kinds must fit before the
        extra-tiles column (a dialog with names has no such column)."""
        if self.max_handicap > 0:
            return min(100, 450 // max(1, len(self.kinds)))
        return 100

    def set_option(self, key: str, value: Any) -> None:
        self.values[key] = value
        self._build()

    def set_players(self, n: int) -> None:
        n = max(self.min_players, min(self.max_players, n))
        while len(self.seats) < n:
            self.seats.append("bot:medium" if "human" in self.seats else "human")
            self.handicap.append(0)
        del self.seats[n:]
        del self.handicap[n:]
        self._build()

    def set_kind(self, i: int, kind: str) -> None:
        self.seats[i] = kind
        self._build()

    def add_handicap(self, i: int, d: int) -> None:
        self.handicap[i] = max(0, min(self.max_handicap, self.handicap[i] + d))
        self._build()

    def _validate(self) -> None:
        self.error = None
        self.info = ""
        try:
            cfg = check_setup(self.spec.make_rules(), self.config())
        except ValueError as e:
            self.error = str(e)
            return
        if self.describe is not None:
            try:
                self.info = self.describe(cfg)
            except Exception:  # a description must never break the dialog
                self.info = ""

    # ------------------------------------------------------------------ actions
    def start(self) -> None:
        self._validate()
        if self.error:
            self.app.audio.play("reject")
            return
        seed = int.from_bytes(os.urandom(4), "big")
        try:
            match = Match(self.spec.make_rules(), self.config(), seed)
            match.seats = seat_names(match.seats, self.names)
            self._remember()
            self.app.start_match(self.spec, match)
            self.app.audio.play("start")
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            self.error = f"Could not start: {e.__class__.__name__}: {e}".splitlines()[0]
            self.app.audio.play("reject")

    def ask_name(self, seat: int) -> None:
        """Type the name of human seat ``seat`` (an overlay; Enter keeps it, Esc drops the change)."""
        def done(text: str) -> None:
            self.names[seat] = text
            self._build()
        self.app.push(NameScene(self.app, f"Name of P{seat + 1}", self.names[seat], done))

    def cancel(self) -> None:
        if self.app.top is self:
            self.app.pop()

    def _remember(self) -> None:
        data = load_json_or(setup_path(), {})
        if not isinstance(data, dict):
            data = {}
        data[self.spec.name] = {"seats": list(self.seats), "handicap": list(self.handicap),
                                "options": dict(self.values)}
        try:
            write_json_atomic(setup_path(), data)
        except OSError:
            pass

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        b = self.box
        x0 = b.x + 40
        y = b.y + 96
        self.count_buttons = []
        for k, n in enumerate(range(self.min_players, self.max_players + 1)):
            btn = Button((x0 + 150 + k * 56, y, 48, 40), ("✓" if n == len(self.seats) else "") + str(n),
                         lambda n=n: self.set_players(n),
                         style="primary" if n == len(self.seats) else "normal", font_size=18)
            self.count_buttons.append(btn)
        self.seat_rows: list[tuple[list[Button], Button, Button]] = []
        self.name_buttons: dict[int, Button] = {}
        y = b.y + 176
        for i, kind in enumerate(self.seats):
            kb = []
            for j, k in enumerate(self.kinds):
                label = KIND_LABELS.get(k) or k.split(":")[-1].capitalize()
                pitch = self.kind_pitch()
                btn = Button((x0 + 70 + j * pitch, y, pitch - 6, self.seat_h - 14), ("✓ " + label) if k == kind else label,
                             lambda i=i, k=k: self.set_kind(i, k),
                             style="primary" if k == kind else "normal", font_size=16)
                kb.append(btn)
            minus = Button((x0 + 520, y, 38, self.seat_h - 14), "-", lambda i=i: self.add_handicap(i, -1), font_size=20,
                           enabled=self.handicap[i] > 0)
            plus = Button((x0 + 620, y, 38, self.seat_h - 14), "+", lambda i=i: self.add_handicap(i, 1), font_size=20,
                          enabled=self.handicap[i] < self.max_handicap)
            self.seat_rows.append((kb, minus, plus))
            if self.max_handicap == 0 and kind == "human":
                name = self.names[i]
                nx = self.name_x()   # after the seat's kind buttons, never over them
                self.name_buttons[i] = Button((nx, y, min(200, b.right - 36 - nx), 38), name or "Name…",
                                              lambda i=i: self.ask_name(i),
                                              style="normal" if name else "quiet", font_size=16,
                                              tooltip="the name shown for this seat")
            y += self.seat_h
        self.option_rows: list[list[Button]] = []
        y = b.y + 176 + self.seat_h * self.max_players + 8
        for o in self.options:
            row = []
            cur = self.values[o.key]
            w = max(60, min(110, (b.width - 250) // max(1, len(o.values)) - 6))
            for j, v in enumerate(o.values):
                label = ("✓ " if v == cur else "") + o.text(v)
                row.append(Button((x0 + 170 + j * (w + 6), y, w, self.opt_h - 12), label,
                                  lambda k=o.key, v=v: self.set_option(k, v),
                                  style="primary" if v == cur else "normal", font_size=16))
            self.option_rows.append(row)
            y += self.opt_h
        self.b_start.rect.bottomright = (b.right - 36, b.bottom - 30)
        self.b_cancel.rect.bottomright = (self.b_start.rect.x - 14, b.bottom - 30)
        self._validate()
        self.b_start.enabled = self.error is None
        rows: list[list[Button]] = [self.count_buttons]
        for i, (kb, minus, plus) in enumerate(self.seat_rows):
            rows.append(kb + ([minus, plus] if self.max_handicap > 0 else [])
                        + ([self.name_buttons[i]] if i in self.name_buttons else []))
        rows += self.option_rows
        rows.append([self.b_cancel, self.b_start])
        old = self.focus.current()
        self.focus.set_rows(rows)
        for r, row in enumerate(self.focus.rows):   # a button that survives the rebuild keeps the focus
            if old in row:
                self.focus.focus = (r, row.index(old))
        self.focus._mark()

    def name_x(self) -> int:
        """The x (px) of the name buttons and their heading: right of the widest row of kinds."""
        return max(self.box.x + 40 + 480, self.box.x + 40 + 70 + 100 * len(self.kinds) + 6)

    def buttons(self) -> list[Button]:
        out = list(self.count_buttons)
        for kb, minus, plus in self.seat_rows:
            out += kb + ([minus, plus] if self.max_handicap > 0 else [])
        out += list(self.name_buttons.values())
        for row in self.option_rows:
            out += row
        return out + [self.b_cancel, self.b_start]

    # ------------------------------------------------------------------ scene
    def handle_event(self, event: Any) -> bool:
        et = event.type
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            for btn in self.buttons():
                if btn.handle_event(event):
                    return True
            return True   # a dialog: nothing below it takes the mouse
        if et == pygame.MOUSEWHEEL:
            return True
        if et == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.cancel()
                return True
            return self.focus.handle_event(event)
        return False

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        th = app.theme
        dim_backdrop(surface, 170)
        b = self.box
        pygame.draw.rect(surface, th.panel, b, border_radius=18)
        pygame.draw.rect(surface, th.panel_edge, b, 1, border_radius=18)
        x0 = b.x + 40
        surface.blit(app.font(28, True).render(f"{self.heading}: {self.spec.title}", True, th.text),
                     (x0, b.y + 28))
        surface.blit(app.font(18, True).render("Players", True, th.text), (x0, b.y + 105))
        for btn in self.count_buttons:
            btn.draw(surface, app)
        small = app.font(13, True)
        y = b.y + 152
        surface.blit(small.render("SEAT", True, th.text_dim), (x0, y))
        surface.blit(small.render("WHO PLAYS", True, th.text_dim), (x0 + 70, y))
        if self.max_handicap > 0:
            surface.blit(small.render("EXTRA TILES", True, th.text_dim), (x0 + 532, y))
        elif self.name_buttons:
            surface.blit(small.render("NAME", True, th.text_dim), (self.name_x(), y))
        for i, (kb, minus, plus) in enumerate(self.seat_rows):
            r = kb[0].rect
            tag = app.font(16, True).render(f"P{i + 1}", True, (16, 16, 20))
            box = tag.get_rect(midleft=(x0 + 4, r.centery)).inflate(14, 6)
            pygame.draw.rect(surface, SEAT_COLOURS[i % len(SEAT_COLOURS)], box, border_radius=6)
            surface.blit(tag, tag.get_rect(center=box.center))
            for btn in kb:
                btn.draw(surface, app)
            if i in self.name_buttons:
                self.name_buttons[i].draw(surface, app)
            if self.max_handicap <= 0:
                continue
            minus.draw(surface, app)
            plus.draw(surface, app)
            val = app.font(20, True).render(str(self.handicap[i]), True,
                                            th.text if self.handicap[i] else th.text_dim)
            surface.blit(val, val.get_rect(center=((minus.rect.right + plus.rect.x) // 2, r.centery)))
        kit = _kit(self)
        for o, row in zip(self.options, self.option_rows):
            # the option's name in the room left of its buttons: smaller, or on two lines, if need be
            room = pygame.Rect(x0, row[0].rect.y - 4, row[0].rect.x - 8 - x0, row[0].rect.h + 8)
            kit.blit_lines(surface, o.label, room, 18, th.text, True, line_gap=0)
            for btn in row:
                btn.draw(surface, app)
        if self.options:
            y = b.y + 176 + self.seat_h * self.max_players + 8 + self.opt_h * len(self.options)
        else:
            y = b.y + 176 + 52 * len(self.seat_rows) + 8
        if self.error:
            msg, col = "Not possible: " + self.error, th.bad
        else:
            msg, col = self.info, th.text_dim
        if msg:
            kit.blit_lines(surface, msg, (x0, y - 2, b.right - 36 - x0, 24), 16, col)
        humans = sum(1 for k in self.seats if k == "human")
        if self.max_handicap > 0:
            note = ("Several humans share the mouse: Tab switches seat in the race." if humans > 1 else
                    "No human seat: you watch the bots race." if humans == 0 else
                    "Extra tiles handicap a stronger player.")
        else:
            note = ("Several humans take turns at this machine (hot-seat)." if humans > 1 else
                    "No human seat: you watch the bots play." if humans == 0 else "")
        if note:
            kit.blit(surface, note, 14, th.text_dim, width=b.right - 36 - x0, topleft=(x0, y + 26))
        self.b_cancel.draw(surface, app)
        self.b_start.draw(surface, app)
        hint = app.font(14).render("Arrows / Tab move   ·   Enter choose   ·   Esc cancel", True,
                                   mix(th.panel, th.text_dim, 0.8))
        surface.blit(hint, (x0, b.bottom - 52))


class NameScene(Scene):
    """Type one line (a player's name, at most ``MAX`` characters): Enter keeps it (``done(text)``),
    Esc closes without a change."""

    overlay = True
    MAX = 20

    def wants_frame(self) -> bool:
        return False   # a still picture: drawn again on input only

    def __init__(self, app: Any, prompt: str, text: str, done: Callable[[str], None]):
        super().__init__(app)
        self.prompt = prompt
        self.text = "".join(c for c in str(text) if c.isprintable())[:self.MAX]
        self.done = done

    def handle_event(self, event: Any) -> bool:
        if event.type == pygame.TEXTINPUT:
            self.text = (self.text + "".join(c for c in event.text if c.isprintable()))[:self.MAX]
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.app.pop()
                self.done(self.text.strip())
            elif event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
        return True

    def draw(self, surface: pygame.Surface) -> None:
        th = self.app.theme
        box = pygame.Rect(0, 0, 460, 150)
        box.center = (640, 400)
        pygame.draw.rect(surface, th.panel, box, border_radius=14)
        pygame.draw.rect(surface, th.accent, box, 2, border_radius=14)
        surface.blit(self.app.font(18, True).render(self.prompt, True, th.text), (box.x + 24, box.y + 20))
        field = pygame.Rect(box.x + 24, box.y + 56, box.w - 48, 40)
        pygame.draw.rect(surface, th.bg, field, border_radius=8)
        img = self.app.font(20).render(self.text + "|", True, th.text)
        surface.blit(img, img.get_rect(midleft=(field.x + 10, field.centery)))
        hint = self.app.font(13).render("Enter keeps it  ·  Esc cancels", True, th.text_dim)
        surface.blit(hint, (box.x + 24, box.bottom - 34))
