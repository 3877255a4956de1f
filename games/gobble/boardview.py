"""What every Gobble screen shares: the board view and the tile in hand (specs/gobble.md "Interface
expectations").

:class:`BoardScene` is the base of the Solitaire screen (``view.SolitaireScene``) and the race screen
(``view_race.RaceScene``). It owns:

* the **camera**: zoom ``s`` (corner radius in px), centre ``cam`` (unit coordinates), fit to the
  Tantrix (``auto_cam`` follows it as it grows), wheel / +/- zoom about a point, pan by a right or middle
  drag, a left drag on an empty spot or the arrow keys, clamped so the board can never be lost;
* the **board layer**: placed tiles, playable spaces and the gobble markers (1 / 2) rendered once per
  (board, zoom, palette) onto one surface, so a frame is a single blit unless the board changed;
* the **tile in hand**: pick a tile up from a *source* (a place on the screen the scene names), drag it
  or click it then click a cell; wheel, right click or Q/E turn it; while held, the legal cells are
  highlighted (strongly at the current rotation), the ghost snaps to the nearest legal cell (green) or
  shows a red cross and the reason; a failed drop flies back to its source;
* feedback: the "Gobble!" banner, the flash on a new tile and flying tiles (the message line, sounds,
  table keys and the text cache come from the table screen, :class:`sim.app.table.TableScene`).

A subclass names its sources and says what a drop does (hooks below); every position comes from
``event.pos`` and ``draw`` never changes the match.
"""
from __future__ import annotations

import math
from typing import Any

import pygame

from sim.app.table import TableScene
from sim.app.widgets import Button, mix
from sim.core.hexgrid import DIRS, hex_to_pixel

from . import draw
from .board import ALL_TILES_MASK, Board, gift_count, pattern_fit

W_LOGICAL, H_LOGICAL = 1280, 800
GOBBLE_NAMES = {1: "Gobble!", 2: "Double Gobble!", 3: "Triple Gobble!", 4: "Quadruple Gobble!"}


def fmt_time(t: float | None) -> str:
    """``mm:ss`` (``h:mm:ss`` from an hour on); "-" for None."""
    if t is None:
        return "-"
    t = int(t)
    return f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}" if t >= 3600 else f"{t // 60:02d}:{t % 60:02d}"


class BoardScene(TableScene):
    """A table screen with a Gobble board view and a tile in hand. Subclasses set the layout constants
    and implement the hooks, and call :meth:`_init_board_view` after ``TableScene.__init__``."""

    #: The board area (px) and the screen point the camera centre is shown at.
    BOARD = pygame.Rect(0, 0, 952, 800)
    #: Rects filled with the panel colour in the cached background.
    PANELS: tuple[pygame.Rect, ...] = (pygame.Rect(952, 0, 328, 800),)
    MIN_S, MAX_S, FIT_MAX_S = 16, 96, 58
    #: Margins (px, horizontal and vertical) the fitted Tantrix keeps inside the board area.
    FIT_PAD = (80, 60)
    #: px at the top of the board area kept for the notices (status, message, the bot's error): the
    #: board is drawn below them, never under them.
    NOTICE_H = 92
    #: Zoom levels the automatic fit may choose (None: any); few levels mean few tile re-renders.
    FIT_LEVELS: tuple[int, ...] | None = None
    SNAP = 1.1             # a legal cell within this many corner radii of the pointer catches it
    DRAG_SLOP = 6          # px a press may move and still count as a click
    BANNER_TIME = 1.6
    HAND_DRAG_S = 54       # size of a tile dragged outside the board
    opaque = True          # draw() starts with the full-size background

    def board_rect(self) -> pygame.Rect:
        """The part of the board area the Tantrix is drawn in (below the notices)."""
        b = self.BOARD
        return pygame.Rect(b.x, b.y + self.NOTICE_H, b.w, b.h - self.NOTICE_H)

    @property
    def VIEW_CENTER(self) -> tuple[int, int]:
        """Where the camera's point is shown: the middle of :meth:`board_rect` (px)."""
        r = self.board_rect()
        return (r.centerx, r.centery)

    def notices_rect(self) -> pygame.Rect:
        b = self.BOARD
        return pygame.Rect(b.x + 12, b.y + 4, b.w - 24, self.NOTICE_H - 8)

    def _init_board_view(self) -> None:
        # camera: unit-size world point shown at VIEW_CENTER, corner radius in px
        self.s = 44
        self.cam = (0.0, 0.0)
        self.auto_cam = True
        self.pointer = (self.BOARD.centerx, self.BOARD.centery)
        # the tile in hand: {"mode": "drag"|"click", "press": pos, "moved": bool, "src": key}
        self.hold: dict[str, Any] | None = None
        self.pan: dict[str, Any] | None = None
        self.pending_click: dict[str, Any] | None = None
        # feedback
        self.banner: tuple[str, float, int] | None = None
        self.flash: tuple[tuple[int, int], float] | None = None
        self.fly: dict[str, Any] | None = None
        self._layer: tuple[tuple, pygame.Surface, tuple[int, int]] | None = None
        self._pl: tuple[Any, dict] | None = None          # (board, {tile: placements})
        self._dead: tuple[Any, list] | None = None         # (board, dead spaces)
        self._fit_cache: tuple[Any, tuple] | None = None
        self._bg: pygame.Surface | None = None
        self._bg_key: tuple | None = None

    # ------------------------------------------------------------------ hooks
    def view_board(self) -> Board:
        """The board shown."""
        return self.state.board

    def escalating(self) -> bool:
        return bool(getattr(self.state, "escalating", False))

    def active_buttons(self) -> list[Button]:
        """Buttons that take clicks now."""
        return []

    def source_at(self, pos) -> Any:
        """The key of the tile source under ``pos`` that holds a tile that may be picked up now, or None."""
        return None

    def tile_of(self, src) -> int | None:
        """The tile at source ``src`` now (None if it has gone)."""
        return None

    def source_home(self, src) -> tuple[tuple[int, int], int]:
        """Screen centre and tile size (px) of source ``src`` (where a failed drop flies back to)."""
        return ((self.BOARD.right, self.BOARD.centery), self.HAND_DRAG_S)

    def rotate(self, steps: int) -> None:
        """Turn the tile in hand (or the one the player would pick up) by ``steps`` sixths."""

    def drop(self, keep_on_fail: bool) -> None:
        """The held tile was released (drag) or a cell clicked (click mode) at ``self.pointer``."""
        self._snap_back()

    def press_before(self, pos) -> bool:
        """A left press after the buttons, before the tile in hand: return True to consume it."""
        return False

    def press_after(self, pos) -> bool:
        """A left press that picked nothing up, before it may start a pan: return True to consume it."""
        return False

    def click_elsewhere(self, pos) -> None:
        """In click mode, a click off the board and off the held tile's source: put the tile back."""
        self.hold = None

    def on_click_mode(self) -> None:
        """The held tile was clicked (not dragged): it now follows the pointer until a cell is clicked."""
        self.say("Now click a highlighted space (right click or wheel turns the tile)", self.theme.text_dim)

    def held_tile(self) -> int | None:
        """The tile in hand, or None."""
        if self.hold is None:
            return None
        return self.tile_of(self.hold["src"])

    # ------------------------------------------------------------------ services
    def _symbols(self) -> bool:
        """Tile links always carry their colour's shape (red circle, yellow triangle, blue square,
        green diamond), in every palette: a colour is never told by its hue alone."""
        return True

    def purist(self) -> bool:
        """A purist table (the ``purist`` option): no gobble markers, fit cues, dead-space marks or
        hint."""
        return bool(self.match.config.get("purist"))

    # ------------------------------------------------------------------ board queries
    def dead_spaces(self) -> list[tuple[int, int]]:
        """Spaces (two or more placed neighbours) that no tile still out of the Tantrix can ever fill:
        no unplaced tile shows their pattern in any rotation (tantrix.com's blocked spaces). Tiles set
        aside, where the screen may know them, do not count."""
        board = self.view_board()
        if self._dead is not None and self._dead[0] is board:
            return self._dead[1]
        gone = set(board.tiles)
        placed = 0
        for n, _rot in board.tiles.values():
            placed |= 1 << n
        for n in getattr(self.state, "aside", ()) or ():
            placed |= 1 << n
        left = ALL_TILES_MASK & ~placed
        out = [c for c in board.spaces(2) if c not in gone and not pattern_fit(board.pattern(c))[0] & left]
        self._dead = (board, out)
        return out

    def placements(self, tile: int) -> dict[tuple[int, int], tuple[int, ...]]:
        """Legal ``{cell: rotations}`` of ``tile`` on the current board (cached per board)."""
        board = self.view_board()
        if self._pl is None or self._pl[0] is not board:
            self._pl = (board, {})
        hit = self._pl[1].get(tile)
        if hit is not None:
            return hit
        out: dict[tuple[int, int], list[int]] = {}
        for cell, k in board.placements(tile):
            out.setdefault(cell, []).append(k)
        res = {c: tuple(v) for c, v in out.items()}
        self._pl[1][tile] = res
        return res

    def fits_gobble(self, tile: int) -> int:
        """The most neighbours of a gobble space that ``tile`` fits (0 if it fits none, or at a purist
        table, where it is never cued)."""
        if self.purist():
            return 0
        board = self.view_board()
        return max([k for k in map(board.neighbour_count, self.placements(tile)) if k >= 3], default=0)

    def first_fitting_rot(self, tile: int, rot: int = 0) -> int:
        """``rot`` if ``tile`` fits somewhere at it, else its smallest rotation that fits (else ``rot``)."""
        pl = self.placements(tile)
        if pl and not any(rot in rots for rots in pl.values()):
            return min(k for rots in pl.values() for k in rots)
        return rot

    # ------------------------------------------------------------------ camera
    # ------------------------------------------------------------------ shared actions
    def submit_as(self, seat: int | None, action: dict) -> bool:
        ok = super().submit_as(seat, action)
        if ok:
            self._refresh_buttons()
        return ok

    def draw_hint(self, surface, act, sym) -> None:
        """The hinted placement ``act``: a pulsing glow, the ghost tile and an accent outline."""
        th = self.theme
        x, y = self.cell_pos((act["q"], act["r"]))
        pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
        draw.glow_sprite(self.s, th.accent, 120 + int(100 * pulse) // 10 * 10).blit(surface, x, y)
        draw.ghost_sprite(act["tile"], act["rot"], self.s, th, sym, 170).blit(surface, x, y)
        draw.cell_sprite(self.s, outline=th.accent + (255,), width=0.08).blit(surface, x, y)

    def layout(self):
        return draw.layout(self.s)

    def base(self) -> tuple[int, int]:
        """Screen position of the centre of cell (0, 0)."""
        lay = self.layout()
        vc = self.VIEW_CENTER
        return (round(vc[0] - self.cam[0] * lay.sx), round(vc[1] - self.cam[1] * lay.sy))

    def cell_pos(self, cell) -> tuple[int, int]:
        bx, by = self.base()
        cx, cy = self.layout().center(cell)
        return (bx + cx, by + cy)

    def cell_at(self, pos) -> tuple[int, int]:
        bx, by = self.base()
        return self.layout().cell_at(pos[0] - bx, pos[1] - by)

    def _screen_to_unit(self, pos) -> tuple[float, float]:
        lay = self.layout()
        vc = self.VIEW_CENTER
        return (self.cam[0] + (pos[0] - vc[0]) / lay.sx, self.cam[1] + (pos[1] - vc[1]) / lay.sy)

    def _fit_target(self) -> tuple[int, tuple[float, float]]:
        """Zoom and centre that show the whole Tantrix and its spaces (cached per board)."""
        board = self.view_board()
        if self._fit_cache is not None and self._fit_cache[0] is board:
            return self._fit_cache[1]
        res = self._compute_fit(board)
        self._fit_cache = (board, res)
        return res

    def _compute_fit(self, board) -> tuple[int, tuple[float, float]]:
        cells = list(board.tiles) + board.spaces(2)
        if not cells:
            return (44, (0.0, 0.0))
        pts = [hex_to_pixel(c, 1.0) for c in cells]
        x0 = min(p[0] for p in pts) - 0.87
        x1 = max(p[0] for p in pts) + 0.87
        y0 = min(p[1] for p in pts) - 1.0
        y1 = max(p[1] for p in pts) + 1.0
        r = self.board_rect()
        avail_w, avail_h = r.w - self.FIT_PAD[0], r.h - self.FIT_PAD[1]
        s = int(min(avail_w / (x1 - x0), avail_h / (y1 - y0)))
        s = max(self.MIN_S, min(self.FIT_MAX_S, s))
        if self.FIT_LEVELS:
            s = max([lv for lv in self.FIT_LEVELS if lv <= s], default=min(self.FIT_LEVELS))
        return (s, ((x0 + x1) / 2, (y0 + y1) / 2))

    def _fit(self, immediate: bool = False) -> None:
        s, c = self._fit_target()
        self.s = s
        if immediate:
            self.cam = c

    def _follow_camera(self, dt: float) -> None:
        """Glide towards the fitted view while ``auto_cam`` (the zoom waits while a tile is held)."""
        if not self.auto_cam or self.hold is not None:
            return  # the board never slides under a tile the player is holding
        s, c = self._fit_target()
        if s != self.s and self.hold is None:
            self.s = s
        k = min(1.0, dt * 7.0)
        self.cam = (self.cam[0] + (c[0] - self.cam[0]) * k, self.cam[1] + (c[1] - self.cam[1]) * k)

    def zoom(self, steps: int, pos=None) -> None:
        if steps == 0:
            return
        pos = pos or self.VIEW_CENTER
        u = self._screen_to_unit(pos)
        new = round(self.s * (1.12 ** steps))
        if new == self.s:
            new += 1 if steps > 0 else -1
        self.s = max(self.MIN_S, min(self.MAX_S, new))
        lay = self.layout()
        vc = self.VIEW_CENTER
        self.cam = (u[0] - (pos[0] - vc[0]) / lay.sx, u[1] - (pos[1] - vc[1]) / lay.sy)
        self.auto_cam = False
        self._clamp_cam()

    def pan_by(self, dx: float, dy: float) -> None:
        lay = self.layout()
        self.cam = (self.cam[0] - dx / lay.sx, self.cam[1] - dy / lay.sy)
        self.auto_cam = False
        self._clamp_cam()

    def _clamp_cam(self) -> None:
        """Keep part of the Tantrix in view: the view centre may not leave the board's bounding box by
        more than 0.8 of half the view, so panning or zooming can never lose the board."""
        pts = [hex_to_pixel(c, 1.0) for c in (self.view_board().tiles or [(0, 0)])]
        lay = self.layout()
        mx = 0.8 * self.BOARD.w / 2 / lay.sx
        my = 0.8 * self.BOARD.h / 2 / lay.sy
        x0, x1 = min(p[0] for p in pts) - mx, max(p[0] for p in pts) + mx
        y0, y1 = min(p[1] for p in pts) - my, max(p[1] for p in pts) + my
        self.cam = (min(max(self.cam[0], x0), x1), min(max(self.cam[1], y0), y1))

    def do_fit(self) -> None:
        self.auto_cam = True
        self._fit()

    # ------------------------------------------------------------------ input
    def handle_input(self, event: Any) -> bool:
        et = event.type
        if et == pygame.MOUSEMOTION:
            self.pointer = event.pos
            for b in self.active_buttons():
                b.handle_event(event)
            if self.pan is not None:
                self._pan_motion(event.pos)
            elif self.pending_click is not None:
                p = self.pending_click["pos"]
                if abs(event.pos[0] - p[0]) + abs(event.pos[1] - p[1]) > self.DRAG_SLOP:
                    self.pan = {"last": p, "button": 1}
                    self.pending_click = None
                    self._pan_motion(event.pos)
            return True
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and getattr(event, "button", 1) >= 4:
            return True   # the wheel's duplicate buttons never count as clicks
        if et == pygame.MOUSEBUTTONDOWN:
            self.pointer = event.pos
            return self._mouse_down(event)
        if et == pygame.MOUSEBUTTONUP:
            self.pointer = event.pos
            return self._mouse_up(event)
        if et == pygame.MOUSEWHEEL:
            steps = self.wheel.feed(event)
            if not steps:
                return True
            if self.hold is not None or self.source_at(self.pointer) is not None:
                self.rotate(-steps)   # wheel up = anticlockwise, down = clockwise (one notch, one step)
            elif self.BOARD.collidepoint(self.pointer):
                self.zoom(steps, self.pointer)
            return True
        if et == pygame.KEYDOWN:
            return self.key(event)
        return False

    def key(self, event) -> bool:
        """Keys; the default handles the board keys only."""
        return self.board_key(event)

    def board_key(self, event) -> bool:
        """Esc (put the tile back), Q/E turn, F fit, +/- zoom, arrows pan."""
        k = event.key
        if k == pygame.K_ESCAPE:
            if self.hold is not None:
                self.hold = None
                return True
            return False
        if k == pygame.K_q:
            self.rotate(-1)
            return True
        if k == pygame.K_e:
            self.rotate(1)
            return True
        if k in (pygame.K_f, pygame.K_HOME):
            self.do_fit()
            return True
        if k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.zoom(1)
            return True
        if k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.zoom(-1)
            return True
        arrows = {pygame.K_LEFT: (60, 0), pygame.K_RIGHT: (-60, 0), pygame.K_UP: (0, 60), pygame.K_DOWN: (0, -60)}
        if k in arrows:
            self.pan_by(*arrows[k])
            return True
        return False

    def pick_up(self, src, pos) -> None:
        self.hold = {"mode": "drag", "press": pos, "moved": False, "src": src, "tile": self.tile_of(src)}
        self._sound("click")

    def _mouse_down(self, event) -> bool:
        pos, btn = event.pos, event.button
        if btn == 1:
            for b in self.active_buttons():
                if b.handle_event(event):
                    return True
            if self.press_before(pos):
                return True
            h = self.hold
            if h is not None and h["mode"] == "click":
                if self.source_at(pos) == h["src"]:
                    self.hold = None            # click the tile again: put it back
                elif self.BOARD.collidepoint(pos):
                    self.drop(keep_on_fail=True)
                else:
                    self.click_elsewhere(pos)
                return True
            src = self.source_at(pos)
            if src is not None:
                self.pick_up(src, pos)
                return True
            if self.press_after(pos):
                return True
            if self.BOARD.collidepoint(pos):
                self.pending_click = {"pos": pos}
            return True
        if btn == 3 and self.hold is not None:
            self.rotate(1)
            return True
        if btn in (2, 3) and self.BOARD.collidepoint(pos):
            self.pan = {"last": pos, "button": btn}
            return True
        if btn == 3 and self.source_at(pos) is not None:
            self.rotate(1)
            return True
        return True

    def _mouse_up(self, event) -> bool:
        pos, btn = event.pos, event.button
        if btn == 1:
            for b in self.active_buttons():
                if b.pressed or b.rect.collidepoint(pos):
                    if b.handle_event(event):
                        return True
            self.pending_click = None
            if self.pan is not None and self.pan["button"] == 1:
                self.pan = None
                return True
            h = self.hold
            if h is not None and h["mode"] == "drag":
                moved = abs(pos[0] - h["press"][0]) + abs(pos[1] - h["press"][1]) > self.DRAG_SLOP
                if not moved and self.source_at(pos) == h["src"]:
                    h["mode"] = "click"         # a click on the tile: it follows the pointer
                    self.on_click_mode()
                else:
                    self.drop(keep_on_fail=False)
            return True
        if self.pan is not None and self.pan["button"] == btn:
            self.pan = None
        return True

    def _pan_motion(self, pos) -> None:
        last = self.pan["last"]
        self.pan_by(pos[0] - last[0], pos[1] - last[1])
        self.pan["last"] = pos

    # ------------------------------------------------------------------ dropping
    def target_for(self, tile: int, rot: int, pos) -> tuple[tuple[int, int], bool] | None:
        """Where ``tile`` at ``rot`` held at ``pos`` would go: ``(cell, legal)``, or None when ``pos``
        is off the board. A nearby legal cell catches the tile unless it is over a tile or a real space."""
        if not self.BOARD.collidepoint(pos):
            return None
        cell = self.cell_at(pos)
        legal = self.placements(tile)
        if rot in legal.get(cell, ()):
            return (cell, True)
        board = self.view_board()
        if cell in board.tiles or board.neighbour_count(cell) >= 2 or self.purist():
            return (cell, False)         # on a tile or a real space (or a purist table): no snapping
        best, best_d = None, self.SNAP * self.s
        for c, rots in legal.items():
            if rot in rots:
                x, y = self.cell_pos(c)
                d = math.hypot(x - pos[0], y - pos[1])
                if d < best_d:
                    best, best_d = c, d
        if best is not None:
            return (best, True)
        return (cell, False)

    def _snap_back(self, rot: int | None = None) -> None:
        """Send the held tile flying back to its source and let go of it."""
        h = self.hold
        if h is not None:
            tile = self.tile_of(h["src"])
            if tile is not None:
                to, s1 = self.source_home(h["src"])
                self.fly = {"tile": tile, "rot": self.rot if rot is None else rot, "from": self.pointer,
                            "to": to, "s0": self.s, "s1": s1, "t": 0.0, "dur": 0.18}
        self.hold = None

    # ------------------------------------------------------------------ update helpers
    def feedback_busy(self) -> bool:
        """Whether the shared feedback moves: a flying tile, the flash, the banner, the camera gliding
        to its fitted view, or the pulsing hint."""
        if self.fly is not None or self.flash is not None or self.banner is not None:
            return True
        if self.hint is not None and self.hint[0] == self.match.cursor:
            return True
        if self.auto_cam and self.hold is None:
            s, c = self._fit_target()
            return s != self.s or abs(c[0] - self.cam[0]) + abs(c[1] - self.cam[1]) > 0.002
        return False

    def _tick_feedback(self, dt: float) -> None:
        if self.msg is not None and self.clock >= self.msg[2]:
            self.msg = None
        if self.banner is not None:
            text, t, lvl = self.banner
            self.banner = (text, t + dt, lvl) if t + dt < self.BANNER_TIME else None
        if self.flash is not None:
            cell, t = self.flash
            self.flash = (cell, t + dt) if t + dt < 0.6 else None
        if self.fly is not None:
            self.fly["t"] += dt
            if self.fly["t"] >= self.fly["dur"]:
                self.fly = None

    # ------------------------------------------------------------------ drawing helpers
    def _pill(self, surface, text, centre, colour, fg=None, size=19, alpha=235, **kw) -> pygame.Rect:
        return self.kit.pill(surface, text, centre, colour, fg, size, alpha=alpha, **kw)

    def _cross(self, surface, c, r, colour) -> None:
        w = max(3, round(r / 7))
        d = r * 0.7
        for a, b in (((-d, -d), (d, d)), ((-d, d), (d, -d))):
            pygame.draw.line(surface, (0, 0, 0), (c[0] + a[0], c[1] + a[1] + 2), (c[0] + b[0], c[1] + b[1] + 2), w + 4)
            pygame.draw.line(surface, colour, (c[0] + a[0], c[1] + a[1]), (c[0] + b[0], c[1] + b[1]), w)

    def _background(self) -> pygame.Surface:
        """The board area's vignette and the panels, cached per palette."""
        th = self.theme
        key = (th.name, th.bg, th.panel)
        if self._bg is not None and self._bg_key == key:
            return self._bg
        import numpy as np
        surf = pygame.Surface((W_LOGICAL, H_LOGICAL))
        surf.fill(th.bg)
        board = self.BOARD
        w, h = board.w, board.h
        vc = (self.VIEW_CENTER[0] - board.x, self.VIEW_CENTER[1] - board.y)
        xs = (np.arange(w) - vc[0]) / (w * 0.62)
        ys = (np.arange(h) - vc[1]) / (h * 0.62)
        d = np.sqrt(xs[:, None] ** 2 + ys[None, :] ** 2)
        f = np.clip(1.12 - 0.42 * d ** 1.6, 0.55, 1.12)
        base = np.array(th.bg, dtype=float)
        px = np.clip(base[None, None, :] * f[:, :, None] + 3.0, 0, 255).astype(np.uint8)
        pygame.surfarray.blit_array(surf.subsurface(board), px)
        for p in self.PANELS:
            pygame.draw.rect(surf, th.panel, p)
        self._decorate_background(surf)
        self._bg, self._bg_key = surf, key
        return surf

    def _decorate_background(self, surf) -> None:
        th = self.theme
        for p in self.PANELS:
            if p.x > 0:
                pygame.draw.line(surf, th.panel_edge, p.topleft, p.bottomleft, 2)

    def _board_layer(self) -> tuple[pygame.Surface, tuple[int, int]]:
        """The placed tiles, the playable spaces and the gobble markers at the current zoom, as one
        surface in board px (cell (0, 0) centre at the origin) plus its top-left offset. Rebuilt only
        when the board, the zoom or the palette changes."""
        th = self.theme
        board = self.view_board()
        sym = self._symbols()
        esc = self.escalating()
        purist = self.purist()
        key = (board, self.s, draw._palette_key(th), sym, esc, purist, self.match.is_over())
        if self._layer is not None and self._layer[0] == key:
            return self._layer[1], self._layer[2]
        lay = self.layout()
        spaces = board.spaces(2)
        cells = list(board.tiles) + spaces
        if not cells:
            cells = [(0, 0)]
        cs = [lay.center(c) for c in cells]
        x0 = min(x for x, _ in cs) - lay.ox - 2
        y0 = min(y for _, y in cs) - lay.oy - 2
        x1 = max(x for x, _ in cs) + lay.ox + 2
        y1 = max(y for _, y in cs) + lay.oy + 2
        surf = pygame.Surface((x1 - x0, y1 - y0), pygame.SRCALPHA)
        space_fill = mix(th.bg, th.text, 0.07) + (255,)
        space_edge = mix(th.bg, th.text, 0.20) + (255,)
        slot = draw.cell_sprite(self.s, fill=space_fill, outline=space_edge, width=0.05, scale=0.94)
        for c in spaces:
            x, y = lay.center(c)
            slot.blit(surf, x - x0, y - y0)
        for c, (n, rot) in board.tiles.items():
            x, y = lay.center(c)
            draw.tile_sprite(n, rot, self.s, th, sym, board=True).blit(surf, x - x0, y - y0)
        # soften the outline of the whole Tantrix
        rim = th.tile_edge
        for c in board.tiles:
            x, y = lay.center(c)
            corners = lay.corners(x - x0, y - y0)
            for d, (dq, dr) in enumerate(DIRS):
                if (c[0] + dq, c[1] + dr) not in board.tiles:
                    pygame.draw.aaline(surf, rim, corners[(-d) % 6], corners[(1 - d) % 6])
        # gobble markers, and the mark of a space no tile left can fill (a purist table shows neither)
        dead = set() if purist or self.match.is_over() else set(self.dead_spaces())
        for c in spaces:
            x, y = lay.center(c)
            if c in dead:
                self._dead_mark(surf, x - x0, y - y0)
                continue
            g = gift_count(board.neighbour_count(c), esc)
            if g and not purist:
                self._marker(surf, x - x0, y - y0, g)
        self._layer = (key, surf, (x0, y0))
        return surf, (x0, y0)

    def _marker(self, surf, x, y, level) -> None:
        """A gobble space marker: a disc with the number of gifts (a double one has a second ring)."""
        th = self.theme
        r = max(8, round(self.s * 0.36))
        col = th.accent if level == 1 else th.bad
        pygame.draw.circle(surf, mix(col, (0, 0, 0), 0.55), (x, y + 2), r + 2)
        pygame.draw.circle(surf, col, (x, y), r)
        pygame.draw.circle(surf, mix(col, (255, 255, 255), 0.45), (x, y), r, max(1, r // 7))
        if level >= 2:
            pygame.draw.circle(surf, col, (x, y), r + max(3, r // 3), max(2, r // 6))
        self._blit_text(surf, str(level), max(11, round(r * 1.25)), (20, 20, 20), True, center=(x, y + 1))

    def _dead_mark(self, surf, x, y) -> None:
        """A dead space: the hexagon dark and hatched, with a cross and no gift number."""
        th = self.theme
        lay = self.layout()
        w, h = round(lay.sx * 2) + 4, round(lay.sy * 2) + 4
        tmp = pygame.Surface((w, h), pygame.SRCALPHA)
        cx, cy = w / 2, h / 2
        pts = lay.corners(cx, cy, 0.9)
        pygame.draw.polygon(tmp, mix(th.bg, (0, 0, 0), 0.45) + (255,), pts)
        step = max(5, round(self.s * 0.3))
        for k in range(-h, w, step):               # hatching, cut to the hexagon below
            pygame.draw.line(tmp, mix(th.bg, th.text_dim, 0.3) + (255,), (k, h), (k + h, 0), 1)
        mask = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.polygon(mask, (255, 255, 255, 255), pts)
        tmp.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        edge = mix(th.bg, th.text_dim, 0.6)
        pygame.draw.polygon(tmp, edge, pts, max(1, round(self.s / 14)))
        d = self.s * 0.3
        lw = max(2, round(self.s / 9))
        for (ax, ay), (bx, by) in (((-d, -d), (d, d)), ((-d, d), (d, -d))):
            pygame.draw.line(tmp, edge, (cx + ax, cy + ay), (cx + bx, cy + by), lw)
        surf.blit(tmp, (round(x - cx), round(y - cy)))

    def _draw_board_layer(self, surface) -> None:
        layer, (x0, y0) = self._board_layer()
        bx, by = self.base()
        surface.blit(layer, (bx + x0, by + y0))

    def _draw_flash(self, surface) -> None:
        if self.flash is None:
            return
        th = self.theme
        cell, t = self.flash
        if cell in self.view_board().tiles:
            a = int(200 * (1 - t / 0.6))
            k = 1.0 + 0.35 * t / 0.6
            x, y = self.cell_pos(cell)
            draw.cell_sprite(self.s, outline=th.accent + (a - a % 8,), width=0.06,
                             scale=round(k, 2)).blit(surface, x, y)

    def _draw_legal(self, surface, tile, rot) -> None:
        """Highlight the cells where ``tile`` fits: strongly at ``rot``, faintly at another rotation;
        gobble spaces glow (nothing at a purist table)."""
        if self.purist():
            return
        th = self.theme
        legal = self.placements(tile)
        board = self.view_board()
        soft = draw.cell_sprite(self.s, fill=th.good + (34,), outline=th.good + (110,), width=0.05, scale=0.94)
        strong = draw.cell_sprite(self.s, fill=th.good + (80,), outline=th.good + (230,), width=0.08, scale=0.94)
        glow = draw.glow_sprite(self.s, th.accent, 150)
        for c, rots in legal.items():
            x, y = self.cell_pos(c)
            if board.neighbour_count(c) >= 3:
                glow.blit(surface, x, y)
            (strong if rot in rots else soft).blit(surface, x, y)

    def _draw_held(self, surface, tile, rot, sym) -> None:
        """The ghost of the held tile: snapped into a legal cell (green), or at the pointer over a red
        cell with a cross and the reason; at a purist table, at the pointer with no cue."""
        th = self.theme
        if self.purist():      # no cue: the ghost under the pointer, whether it fits or not
            if self.BOARD.collidepoint(self.pointer):
                draw.ghost_sprite(tile, rot, self.s, th, sym, 200).blit(surface, *self.pointer)
            return
        tgt = self.target_for(tile, rot, self.pointer)
        if tgt is not None:
            cell, ok = tgt
            x, y = self.cell_pos(cell)
            if ok:
                draw.glow_sprite(self.s, th.good, 140).blit(surface, x, y)
                draw.ghost_sprite(tile, rot, self.s, th, sym, 215).blit(surface, x, y)
                draw.cell_sprite(self.s, outline=th.good + (255,), width=0.1).blit(surface, x, y)
                return
            draw.cell_sprite(self.s, fill=th.bad + (70,), outline=th.bad + (255,), width=0.12).blit(surface, x, y)
        if self.BOARD.collidepoint(self.pointer):
            px, py = self.pointer
            draw.ghost_sprite(tile, rot, self.s, th, sym, 200).blit(surface, px, py)
            if tgt is not None:   # not allowed here: a cross and the reason, not colour alone
                self._cross(surface, (px, py), self.s * 0.42, th.bad)
                cell = tgt[0]
                if self.placements(tile).get(cell):
                    why = "turn it to fit"
                else:
                    why = self.view_board().why_not(tile, rot, cell) or ""
                if why:
                    img = self._text(why, 14, th.text, True)
                    r = img.get_rect(midtop=(px, py + self.s + 6))
                    pygame.draw.rect(surface, mix(th.bad, (0, 0, 0), 0.45), r.inflate(14, 6), border_radius=8)
                    surface.blit(img, r)

    def _draw_fly(self, surface, sym) -> None:
        if self.fly is None:
            return
        th = self.theme
        f = self.fly
        t = min(1.0, f["t"] / f["dur"])
        e = 1 - (1 - t) ** 3
        x = f["from"][0] + (f["to"][0] - f["from"][0]) * e
        y = f["from"][1] + (f["to"][1] - f["from"][1]) * e
        s = round(f["s0"] + (f["s1"] - f["s0"]) * e)
        draw.tile_sprite(f["tile"], f["rot"], s, th, sym).blit(surface, x, y)

    def _draw_message(self, surface, y: int) -> None:
        """The transient message (``self.msg``) centred over the board at ``y``."""
        if self.msg is None:
            return
        th = self.theme
        text, colour, _until = self.msg
        img = self._text(text, 17, colour, True)
        r = img.get_rect(midtop=(self.BOARD.centerx, y))
        box = r.inflate(24, 12)
        bg = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(bg, mix(th.bg, (0, 0, 0), 0.4) + (215,), bg.get_rect(), border_radius=8)
        surface.blit(bg, box)
        surface.blit(img, r)

    def _draw_banner(self, surface) -> None:
        """The big banner (``self.banner`` = (text, age s, level)): pops in, holds, fades out."""
        if self.banner is None:
            return
        th = self.theme
        text, t, lvl = self.banner
        total = self.BANNER_TIME
        grow = min(1.0, t / 0.18)
        scale = 0.6 + 0.55 * grow - 0.15 * max(0.0, min(1.0, (t - 0.18) / 0.15))
        alpha = 255 if t < total - 0.4 else int(255 * max(0.0, (total - t) / 0.4))
        col = th.accent if lvl == 1 else th.good if lvl <= 0 else mix(th.accent, th.bad, 0.5)
        img = self._text(text, 64, col, True)
        shadow = self._text(text, 64, (0, 0, 0), True)
        w, h = img.get_size()
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        img = pygame.transform.smoothscale(img, size)
        shadow = pygame.transform.smoothscale(shadow, size)
        img.set_alpha(alpha)
        shadow.set_alpha(alpha * 2 // 3)
        b = self.BOARD
        c = (b.centerx, b.centery - 40)
        rib = pygame.Surface((b.w, round(h * scale) + 36), pygame.SRCALPHA)
        rib.fill((0, 0, 0, alpha * 140 // 255))
        surface.blit(rib, rib.get_rect(center=c))
        top, bottom = c[1] - rib.get_height() // 2, c[1] + rib.get_height() // 2
        pygame.draw.line(surface, col, (b.x, top), (b.right, top))
        pygame.draw.line(surface, col, (b.x, bottom), (b.right, bottom))
        surface.blit(shadow, shadow.get_rect(center=(c[0] + 3, c[1] + 4)))
        surface.blit(img, img.get_rect(center=c))
