"""The Gobble Solitaire screen (specs/gobble.md "Gobble Solitaire" and "Interface expectations").

Layout at the logical 1280x800 px: the board (camera with zoom and pan) on the left, a side panel on
the right with the drawn tile (the hand), the bag, the gobble counts, the penalty stack, the clock and
the buttons.

Controls: drag the drawn tile (or, while rescuing, the top penalty tile) onto the board; wheel, right
click or Q/E rotate the tile in hand; the ghost snaps to the nearest legal cell (green) or shows red;
click the tile then click a cell also works. Wheel over the board zooms (when no tile is held), +/-
too; right/middle drag, a left drag on empty board or the arrow keys pan; F fits the board in view.
H shows the greedy bot's placement, Ctrl+Z/Ctrl+Y undo/redo, R/K return/keep while rescuing.

Scene contract (sim/app/scene.py): positions come from ``event.pos`` only, ``draw`` never changes the
match or advances a timer, every animation runs from ``update(dt)``.
"""
from __future__ import annotations

import math
import random
from typing import Any

import pygame

from sim.app.scene import Scene, WheelSteps
from sim.app.widgets import Button, dim_backdrop, mix
from sim.core import storage
from sim.core.hexgrid import DIRS, hex_to_pixel
from sim.core.match import Match
from sim.core.rules import IllegalAction

from . import draw
from .board import gift_count

W_LOGICAL, H_LOGICAL = 1280, 800
BOARD = pygame.Rect(0, 0, 952, 800)
PANEL = pygame.Rect(952, 0, 328, 800)
VIEW_CENTER = (BOARD.centerx, BOARD.centery + 22)   # the top strip holds the status line
PX = PANEL.x + 20                                   # panel content left edge
PW = PANEL.w - 40                                   # panel content width
HAND_CARD = pygame.Rect(PX, 62, PW, 236)
HAND_C = (HAND_CARD.centerx, HAND_CARD.y + 112)
HAND_S = 54
STATS_CARD = pygame.Rect(PX, 310, PW, 84)
PEN_CARD = pygame.Rect(PX, 406, PW, 176)
PEN_C = (PEN_CARD.x + 78, PEN_CARD.y + 104)
PEN_S = 38
MIN_S, MAX_S, FIT_MAX_S = 16, 96, 58
SNAP = 1.1                     # a legal cell within this many corner radii of the pointer catches it
DRAG_SLOP = 6                  # px a press may move and still count as a click
PENALTY_DELAY = 1.1            # s before a tile that fits nowhere goes to the penalty stack
BANNER_TIME = 1.6
STATS_KEY = "gobble-solitaire"
GOBBLE_NAMES = {1: "Gobble!", 2: "Double Gobble!", 3: "Triple Gobble!", 4: "Quadruple Gobble!"}


def fmt_time(t: float | None) -> str:
    if t is None:
        return "-"
    t = int(t)
    return f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}" if t >= 3600 else f"{t // 60:02d}:{t % 60:02d}"


# ------------------------------------------------------------------------------ statistics
def stats_path():
    return storage.data_dir() / "stats.json"


def load_stats() -> dict[str, Any]:
    """This game's statistics: games, wins, penalty_total, best_win_time (s or None)."""
    data = storage.load_json_or(stats_path(), {})
    st = data.get(STATS_KEY) if isinstance(data, dict) else None
    out = {"games": 0, "wins": 0, "penalty_total": 0, "best_win_time": None}
    if isinstance(st, dict):
        for k in ("games", "wins", "penalty_total"):
            if isinstance(st.get(k), int) and not isinstance(st.get(k), bool) and st[k] >= 0:
                out[k] = st[k]
        b = st.get("best_win_time")
        if isinstance(b, (int, float)) and not isinstance(b, bool) and b >= 0:
            out["best_win_time"] = float(b)
    return out


def record_game(penalty: int, win: bool, seconds: float) -> dict[str, Any]:
    """Add one finished game to ``stats.json`` (atomically; other games' entries are kept) and return
    the updated statistics. A write error is ignored (the statistics are returned anyway)."""
    data = storage.load_json_or(stats_path(), {})
    if not isinstance(data, dict):
        data = {}
    st = load_stats()
    st["games"] += 1
    st["penalty_total"] += int(penalty)
    if win:
        st["wins"] += 1
        if st["best_win_time"] is None or seconds < st["best_win_time"]:
            st["best_win_time"] = round(float(seconds), 1)
    data[STATS_KEY] = st
    try:
        storage.write_json_atomic(stats_path(), data)
    except OSError:
        pass
    return st


# ------------------------------------------------------------------------------ demo positions
def sample_match(tiles: int = 50, seed: int = 11) -> Match:
    """A Solitaire match played by a simple policy (gobble spaces first) until ``tiles`` tiles are on
    the board with a tile to place: for benchmarks and screenshots."""
    from .rules import SolitaireRules

    rules = SolitaireRules()
    for s in range(seed, seed + 200):
        m = Match(rules, None, s)
        rng = random.Random(s)
        while not m.is_over():
            st = m.state
            if len(st.board) >= tiles and st.phase == "place":
                return m
            acts = rules.legal_actions(st, 0)
            places = [a for a in acts if a["t"] == "place"]
            if places:
                best = max(st.board.neighbour_count((a["q"], a["r"])) for a in places)
                act = rng.choice([a for a in places if st.board.neighbour_count((a["q"], a["r"])) == best])
            elif st.phase == "rescue":
                act = {"t": "return"}
            else:
                act = acts[0]
            m.submit(0, act)
    raise RuntimeError(f"no {tiles}-tile position found")


# ------------------------------------------------------------------------------------- scene
class SolitaireScene(Scene):
    """Gobble Solitaire on ``match`` (any state: it draws whatever position the match is in)."""

    title = "Gobble Solitaire"

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app)
        self.match = match
        self.elapsed = float(opts.get("elapsed", 0.0))
        self.wheel = WheelSteps()
        # camera: unit-size world point shown at VIEW_CENTER, corner radius in px
        self.s = 44
        self.cam = (0.0, 0.0)
        self.auto_cam = True
        self.pointer = (BOARD.centerx, BOARD.centery)
        # the tile in hand
        self.rot = 0
        self._rot_for: tuple | None = None
        self.hold: dict[str, Any] | None = None
        self.pan: dict[str, Any] | None = None
        self.pending_click: dict[str, Any] | None = None
        # feedback
        self.msg: tuple[str, tuple, float] | None = None
        self.banner: tuple[str, float, int] | None = None
        self.flash: tuple[tuple[int, int], float] | None = None
        self.fly: dict[str, Any] | None = None
        self.draw_in = 1.0
        self.penalty_wait = 0.0
        self.hint: tuple[int, dict] | None = None
        self.last_gobble = 1                  # level of the latest gobble (rescue card headline)
        self.clock = 0.0                      # animation time (from update)
        self.show_result = True
        self.result: dict[str, Any] | None = None
        self._recorded = match.is_over()      # a match that was over already is not counted again
        self._agent = None
        self._texts: dict[tuple, pygame.Surface] = {}
        self._layer: tuple[tuple, pygame.Surface, tuple[int, int]] | None = None
        self._pl: tuple[Any, int, dict] | None = None
        self._bg: pygame.Surface | None = None
        self._bg_key: tuple | None = None
        self._build_buttons()
        self._sync_tile()
        self._fit(immediate=True)
        match.listeners.append(self._on_events)
        if self._recorded:
            self.result = {"stats": load_stats(), "counted": False}

    # ------------------------------------------------------------------ services
    @property
    def theme(self):
        return self.app.theme

    def _symbols(self) -> bool:
        return bool(self.theme.symbols or getattr(self.app, "settings", {}).get("symbols"))

    def _sound(self, name: str) -> None:
        audio = getattr(self.app, "audio", None)
        if audio is not None:
            audio.play(name)

    def _say(self, text: str, colour=None, seconds: float = 2.6) -> None:
        self.msg = (text, colour or self.theme.text, seconds)

    def on_exit(self) -> None:
        try:
            self.match.listeners.remove(self._on_events)
        except ValueError:
            pass

    # ------------------------------------------------------------------ derived state
    @property
    def state(self):
        return self.match.state

    def movable(self) -> int | None:
        """The tile the player may place now (drawn tile, or top penalty tile while rescuing)."""
        return self.match.rules.movable_tile(self.state)

    def source(self) -> str | None:
        ph = self.state.phase
        return "hand" if ph == "place" else "penalty" if ph == "rescue" else None

    def placements(self, tile: int) -> dict[tuple[int, int], tuple[int, ...]]:
        """Legal ``{cell: rotations}`` of ``tile`` on the current board (cached per board)."""
        board = self.state.board
        if self._pl is not None and self._pl[0] is board and self._pl[1] == tile:
            return self._pl[2]
        out: dict[tuple[int, int], list[int]] = {}
        for cell, k in board.placements(tile):
            out.setdefault(cell, []).append(k)
        res = {c: tuple(v) for c, v in out.items()}
        self._pl = (board, tile, res)
        return res

    def fits_gobble(self, tile: int) -> int:
        """The most neighbours of a gobble space that ``tile`` fits (0 if it fits none)."""
        board = self.state.board
        return max([k for k in map(board.neighbour_count, self.placements(tile)) if k >= 3], default=0)

    def _sync_tile(self) -> None:
        """Reset the rotation when a new tile comes into play."""
        key = (self.match.cursor, self.movable())
        tile = self.movable()
        if self._rot_for is None or self._rot_for[1] != tile:
            self.rot = 0
            if tile is not None:
                # start in a rotation that fits somewhere, if the first one doesn't
                pl = self.placements(tile)
                if pl and not any(0 in rots for rots in pl.values()):
                    self.rot = min(k for rots in pl.values() for k in rots)
        self._rot_for = key

    # ------------------------------------------------------------------ camera
    def layout(self):
        return draw.layout(self.s)

    def base(self) -> tuple[int, int]:
        """Screen position of the centre of cell (0, 0)."""
        lay = self.layout()
        return (round(VIEW_CENTER[0] - self.cam[0] * lay.sx), round(VIEW_CENTER[1] - self.cam[1] * lay.sy))

    def cell_pos(self, cell) -> tuple[int, int]:
        bx, by = self.base()
        cx, cy = self.layout().center(cell)
        return (bx + cx, by + cy)

    def cell_at(self, pos) -> tuple[int, int]:
        bx, by = self.base()
        return self.layout().cell_at(pos[0] - bx, pos[1] - by)

    def _screen_to_unit(self, pos) -> tuple[float, float]:
        lay = self.layout()
        return (self.cam[0] + (pos[0] - VIEW_CENTER[0]) / lay.sx, self.cam[1] + (pos[1] - VIEW_CENTER[1]) / lay.sy)

    def _fit_target(self) -> tuple[int, tuple[float, float]]:
        board = self.state.board
        cells = list(board.tiles) + board.spaces(2)
        if not cells:
            return (44, (0.0, 0.0))
        pts = [hex_to_pixel(c, 1.0) for c in cells]
        x0 = min(p[0] for p in pts) - 0.87
        x1 = max(p[0] for p in pts) + 0.87
        y0 = min(p[1] for p in pts) - 1.0
        y1 = max(p[1] for p in pts) + 1.0
        avail_w, avail_h = BOARD.w - 80, BOARD.h - 150
        s = int(min(avail_w / (x1 - x0), avail_h / (y1 - y0)))
        return (max(MIN_S, min(FIT_MAX_S, s)), ((x0 + x1) / 2, (y0 + y1) / 2))

    def _fit(self, immediate: bool = False) -> None:
        s, c = self._fit_target()
        self.s = s
        if immediate:
            self.cam = c

    def zoom(self, steps: int, pos=None) -> None:
        if steps == 0:
            return
        pos = pos or VIEW_CENTER
        u = self._screen_to_unit(pos)
        new = round(self.s * (1.12 ** steps))
        if new == self.s:
            new += 1 if steps > 0 else -1
        self.s = max(MIN_S, min(MAX_S, new))
        lay = self.layout()
        self.cam = (u[0] - (pos[0] - VIEW_CENTER[0]) / lay.sx, u[1] - (pos[1] - VIEW_CENTER[1]) / lay.sy)
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
        pts = [hex_to_pixel(c, 1.0) for c in (self.state.board.tiles or [(0, 0)])]
        lay = self.layout()
        mx = 0.8 * BOARD.w / 2 / lay.sx
        my = 0.8 * BOARD.h / 2 / lay.sy
        x0, x1 = min(p[0] for p in pts) - mx, max(p[0] for p in pts) + mx
        y0, y1 = min(p[1] for p in pts) - my, max(p[1] for p in pts) + my
        self.cam = (min(max(self.cam[0], x0), x1), min(max(self.cam[1], y0), y1))

    # ------------------------------------------------------------------ buttons
    def _build_buttons(self) -> None:
        bw, bh, gap = (PW - 12) // 3, 40, 6
        y1, y2 = 602, 602 + bh + 8
        col = [PX, PX + bw + gap, PX + 2 * (bw + gap)]
        self.b_hint = Button((col[0], y1, bw, bh), "Hint", self.do_hint, font_size=17, tooltip="H")
        self.b_undo = Button((col[1], y1, bw, bh), "Undo", self.do_undo, font_size=17, tooltip="Ctrl+Z")
        self.b_redo = Button((col[2], y1, bw, bh), "Redo", self.do_redo, font_size=17, tooltip="Ctrl+Y")
        self.b_fit = Button((col[0], y2, bw, bh), "Fit view", self.do_fit, font_size=17, tooltip="F")
        self.b_rules = Button((col[1], y2, bw, bh), "Rules", self.do_rules, font_size=17, tooltip="F1")
        self.b_menu = Button((col[2], y2, bw, bh), "Menu", self.do_launcher, font_size=17, style="quiet")
        half = (PW - 30) // 2
        ry = HAND_CARD.bottom - 52
        self.b_return = Button((PX + 10, ry, half, 40), "Return  R", self.do_return, font_size=17,
                               style="primary")
        self.b_keep = Button((PX + 20 + half, ry, half, 40), "Keep  K", self.do_keep, font_size=17)
        self.panel_buttons = [self.b_hint, self.b_undo, self.b_redo, self.b_fit, self.b_rules, self.b_menu]
        self.rescue_buttons = [self.b_return, self.b_keep]
        ox, oy = W_LOGICAL // 2, 400
        self.b_new = Button((ox - 250, oy + 104, 160, 46), "New game", self.do_new_game, style="primary",
                            font_size=18)
        self.b_launch = Button((ox - 80, oy + 104, 160, 46), "Launcher", self.do_launcher, font_size=18)
        self.b_view = Button((ox + 90, oy + 104, 160, 46), "View board", self.do_toggle_result, font_size=18)
        self.b_show = Button((BOARD.centerx - 90, BOARD.bottom - 64, 180, 42), "Show result", self.do_toggle_result,
                             font_size=17, style="primary")
        self.end_buttons = [self.b_new, self.b_launch, self.b_view]
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        st = self.state
        self.b_undo.enabled = self.match.can_undo(0)
        self.b_redo.enabled = self.match.can_redo()
        self.b_hint.enabled = st.phase in ("place", "rescue", "penalty")
        self.b_return.enabled = st.phase == "rescue"
        self.b_keep.enabled = st.phase == "rescue"

    def _active_buttons(self) -> list[Button]:
        if self.match.is_over() and self.result is not None:
            return self.end_buttons if self.show_result else [self.b_show] + self.panel_buttons
        out = list(self.panel_buttons)
        if self.state.phase == "rescue":
            out += self.rescue_buttons
        return out

    # ------------------------------------------------------------------ actions
    def submit(self, action: dict) -> bool:
        """Send ``action`` for player 0; an illegal one is reported (message + reject sound)."""
        try:
            self.match.submit(0, action)
        except IllegalAction as e:
            self._sound("reject")
            why = str(e)
            self._say(why[:1].upper() + why[1:], self.theme.bad)
            return False
        self._refresh_buttons()
        return True

    def do_hint(self) -> None:
        st = self.state
        if self.match.is_over():
            return
        if self._agent is None:
            try:
                from .ai import make_solitaire_agent
                self._agent = make_solitaire_agent("greedy", self.match.seed)
            except ImportError:
                self._agent = False
        act = None
        if self._agent:
            try:
                act = self._agent.select_action(self.match.rules, st, 0)
            except (ValueError, KeyError):
                act = None
        if act is None:   # fallback: the fullest legal space
            acts = self.match.rules.legal_actions(st, 0)
            places = [a for a in acts if a["t"] == "place"]
            if places:
                act = max(places, key=lambda a: st.board.neighbour_count((a["q"], a["r"])))
            elif acts:
                act = acts[0]
        if act is None:
            return
        self.hint = (self.match.cursor, act)
        self._sound("hint")
        t = act["t"]
        if t == "place":
            k = (act["rot"] - self.rot) % 6
            turn = "" if k == 0 else f" after {k} turn{'s' if k > 1 else ''} clockwise" if k <= 3 else \
                f" after {6 - k} turn{'s' if 6 - k > 1 else ''} anticlockwise"
            self._say(f"Hint: the glowing space{turn}", self.theme.accent, 4.0)
        elif t == "return":
            self._say("Hint: return the top penalty tile to the bag (R)", self.theme.accent, 4.0)
        elif t == "skip":
            self._say("Hint: keep the penalty tile (K)", self.theme.accent, 4.0)
        elif t == "penalty":
            self._say("Hint: this tile fits nowhere (Space)", self.theme.accent, 4.0)

    def do_undo(self) -> None:
        if self.match.undo(0):
            self._sound("undo")
        else:
            self._say("Nothing to undo: a draw from the bag cannot be taken back", self.theme.text_dim)

    def do_redo(self) -> None:
        if self.match.redo():
            self._sound("undo")

    def do_fit(self) -> None:
        self.auto_cam = True
        self._fit()

    def do_rules(self) -> None:
        show = getattr(self.app, "show_rules", None)
        if show is not None:
            from . import SOLITAIRE
            show(SOLITAIRE)

    def do_launcher(self) -> None:
        go = getattr(self.app, "to_launcher", None)
        if go is not None:
            go()

    def do_return(self) -> None:
        if self.state.phase == "rescue":
            self.submit({"t": "return"})

    def do_keep(self) -> None:
        if self.state.phase == "rescue":
            self.submit({"t": "skip"})

    def do_send_penalty(self) -> None:
        if self.state.phase == "penalty":
            self.submit({"t": "penalty"})

    def do_new_game(self) -> None:
        seed = random.SystemRandom().randrange(1, 2 ** 31)
        m = Match(self.match.rules, self.match.config, seed)
        start = getattr(self.app, "start_match", None)
        if start is not None:
            from . import SOLITAIRE
            start(SOLITAIRE, m)
        else:
            self.app.replace(SolitaireScene(self.app, m))

    def do_toggle_result(self) -> None:
        self.show_result = not self.show_result

    def rotate(self, steps: int) -> None:
        if self.movable() is None or steps == 0:
            return
        self.rot = (self.rot + steps) % 6
        self._sound("rotate")

    # ------------------------------------------------------------------ match events
    def _on_events(self, match: Match, events: list) -> None:
        th = self.theme
        sounds = []
        for e in events:
            kind = e.get("e")
            if kind == "place":
                sounds.append("place")
                self.msg = None
                self.flash = ((e["q"], e["r"]), 0.0)
            elif kind == "gobble":
                lvl = int(e.get("level", 1))
                self.banner = (GOBBLE_NAMES.get(lvl, f"{lvl}x Gobble!"), 0.0, lvl)
                self.last_gobble = lvl
                sounds = [s for s in sounds if s != "place"] + ["double" if lvl >= 2 else "gobble"]
            elif kind == "draw":
                self.draw_in = 0.0
            elif kind == "fits_nowhere":
                self.penalty_wait = 0.0
            elif kind == "penalty":
                sounds.append("penalty")
                self.fly = {"tile": e["tile"], "rot": 0, "from": HAND_C, "to": PEN_C,
                            "s0": HAND_S, "s1": PEN_S, "t": 0.0, "dur": 0.35}
            elif kind == "rescue":
                if e.get("how") == "return":
                    sounds.append("click")
                    self._say("The tile went back into the bag", th.text_dim)
                elif e.get("how") == "skip":
                    sounds.append("click")
            elif kind in ("undo", "redo", "seek"):
                self.hold = None
                self.last_gobble = 1
        for s in sounds:
            self._sound(s)
        self.hint = None
        self._sync_tile()
        self._refresh_buttons()

    # ------------------------------------------------------------------ input
    def handle_event(self, event: Any) -> bool:
        et = event.type
        if et == pygame.MOUSEMOTION:
            self.pointer = event.pos
            for b in self._active_buttons():
                b.handle_event(event)
            if self.pan is not None:
                self._pan_motion(event.pos)
            elif self.pending_click is not None:
                p = self.pending_click["pos"]
                if abs(event.pos[0] - p[0]) + abs(event.pos[1] - p[1]) > DRAG_SLOP:
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
            if self.hold is not None or self._over_hand(self.pointer):
                self.rotate(-steps)   # wheel up = anticlockwise, down = clockwise (one notch, one step)
            elif BOARD.collidepoint(self.pointer):
                self.zoom(steps, self.pointer)
            return True
        if et == pygame.KEYDOWN:
            return self._key(event)
        return False

    def _over_hand(self, pos) -> bool:
        src = self.source()
        if src == "hand":
            c, r = HAND_C, HAND_S * 1.05
        elif src == "penalty":
            c, r = PEN_C, PEN_S * 1.15
        else:
            return False
        return math.hypot(pos[0] - c[0], pos[1] - c[1]) <= r

    def _mouse_down(self, event) -> bool:
        pos, btn = event.pos, event.button
        over = self.match.is_over()
        if btn == 1:
            for b in self._active_buttons():
                if b.handle_event(event):
                    return True
            if over and self.result is not None and self.show_result:
                return True
            if self.hold is not None and self.hold["mode"] == "click":
                if self._over_hand(pos):
                    self.hold = None            # click the tile again: put it back
                elif BOARD.collidepoint(pos):
                    self._drop(keep_on_fail=True)
                else:
                    self.hold = None
                return True
            if self.state.phase == "penalty" and (self._over_hand(pos) or BOARD.collidepoint(pos)):
                self.do_send_penalty()
                return True
            if self._over_hand(pos) and self.movable() is not None:
                self.hold = {"mode": "drag", "press": pos, "moved": False}
                self._sound("click")
                return True
            if BOARD.collidepoint(pos):
                self.pending_click = {"pos": pos}
            return True
        if btn == 3 and self.hold is not None:
            self.rotate(1)
            return True
        if btn in (2, 3) and BOARD.collidepoint(pos):
            self.pan = {"last": pos, "button": btn}
            return True
        if btn == 3 and self._over_hand(pos):
            self.rotate(1)
            return True
        return True

    def _mouse_up(self, event) -> bool:
        pos, btn = event.pos, event.button
        if btn == 1:
            for b in self._active_buttons():
                if b.pressed or b.rect.collidepoint(pos):
                    if b.handle_event(event):
                        return True
            self.pending_click = None
            if self.pan is not None and self.pan["button"] == 1:
                self.pan = None
                return True
            h = self.hold
            if h is not None and h["mode"] == "drag":
                moved = abs(pos[0] - h["press"][0]) + abs(pos[1] - h["press"][1]) > DRAG_SLOP
                if not moved and self._over_hand(pos):
                    h["mode"] = "click"         # a click on the tile: it follows the pointer
                    self._say("Now click a highlighted space (right click or wheel turns the tile)",
                              self.theme.text_dim)
                else:
                    self._drop(keep_on_fail=False)
            return True
        if self.pan is not None and self.pan["button"] == btn:
            self.pan = None
        return True

    def _pan_motion(self, pos) -> None:
        last = self.pan["last"]
        self.pan_by(pos[0] - last[0], pos[1] - last[1])
        self.pan["last"] = pos

    def _key(self, event) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        ctrl = bool(mods & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if ctrl:
            if k == pygame.K_z and not mods & pygame.KMOD_SHIFT:
                self.do_undo()
                return True
            if k == pygame.K_y or (k == pygame.K_z and mods & pygame.KMOD_SHIFT):
                self.do_redo()
                return True
            return False
        over = self.match.is_over()
        if over and self.result is not None:
            if k in (pygame.K_n, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.do_new_game()
                return True
            if k == pygame.K_v:
                self.do_toggle_result()
                return True
        if k == pygame.K_ESCAPE:
            if self.hold is not None:
                self.hold = None
                return True
            return False
        if k in (pygame.K_q,):
            self.rotate(-1)
            return True
        if k in (pygame.K_e,):
            self.rotate(1)
            return True
        if k == pygame.K_h:
            self.do_hint()
            return True
        if k == pygame.K_r and self.state.phase == "rescue":
            self.do_return()
            return True
        if k == pygame.K_k and self.state.phase == "rescue":
            self.do_keep()
            return True
        if k in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER) and self.state.phase == "penalty":
            self.do_send_penalty()
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

    # ------------------------------------------------------------------ dropping
    def target(self) -> tuple[tuple[int, int], bool] | None:
        """Where the held tile would go: ``(cell, legal)``, or None when the pointer is off the board."""
        tile = self.movable()
        pos = self.pointer
        if tile is None or not BOARD.collidepoint(pos):
            return None
        cell = self.cell_at(pos)
        legal = self.placements(tile)
        if self.rot in legal.get(cell, ()):
            return (cell, True)
        board = self.state.board
        if cell in board.tiles or board.neighbour_count(cell) >= 2:
            return (cell, False)         # on a tile or a real space: no snapping elsewhere
        best, best_d = None, SNAP * self.s
        for c, rots in legal.items():
            if self.rot in rots:
                x, y = self.cell_pos(c)
                d = math.hypot(x - pos[0], y - pos[1])
                if d < best_d:
                    best, best_d = c, d
        if best is not None:
            return (best, True)
        return (cell, False)

    def _drop(self, keep_on_fail: bool) -> None:
        tile = self.movable()
        tgt = self.target()
        if tile is None or tgt is None:
            self._snap_back()
            return
        cell, _ok = tgt
        ok = self.submit({"t": "place", "tile": tile, "rot": self.rot, "q": cell[0], "r": cell[1]})
        if ok:
            self.hold = None
        elif not keep_on_fail:
            self._snap_back()

    def _snap_back(self) -> None:
        tile = self.movable()
        if tile is not None and self.hold is not None:
            src = self.source()
            to, s1 = (HAND_C, HAND_S) if src == "hand" else (PEN_C, PEN_S)
            self.fly = {"tile": tile, "rot": self.rot, "from": self.pointer, "to": to, "s0": self.s,
                        "s1": s1, "t": 0.0, "dur": 0.18}
        self.hold = None

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        self.clock += dt
        st = self.state
        over = self.match.is_over()
        # under a dialog (rules, replay controls) the game pauses: no clock, no automatic moves
        active = getattr(self.app, "top", self) is self
        if not active:
            return
        if not over:
            self.elapsed += dt
        if self.msg is not None:
            text, col, left = self.msg
            self.msg = (text, col, left - dt) if left - dt > 0 else None
        if self.banner is not None:
            text, t, lvl = self.banner
            self.banner = (text, t + dt, lvl) if t + dt < BANNER_TIME else None
        if self.flash is not None:
            cell, t = self.flash
            self.flash = (cell, t + dt) if t + dt < 0.6 else None
        if self.fly is not None:
            self.fly["t"] += dt
            if self.fly["t"] >= self.fly["dur"]:
                self.fly = None
        self.draw_in = min(1.0, self.draw_in + dt / 0.25)
        if st.phase == "penalty" and self.hold is None:
            self.penalty_wait += dt
            if self.penalty_wait >= PENALTY_DELAY:
                self.penalty_wait = 0.0
                self.do_send_penalty()
        else:
            self.penalty_wait = 0.0
        if self.auto_cam:
            s, c = self._fit_target()
            if s != self.s and self.hold is None:
                self.s = s
            k = min(1.0, dt * 7.0)
            self.cam = (self.cam[0] + (c[0] - self.cam[0]) * k, self.cam[1] + (c[1] - self.cam[1]) * k)
        if over and not self._recorded:
            self._recorded = True
            out = self.match.outcome()
            stats = record_game(out["penalty"], out["win"], self.elapsed)
            self.result = {"stats": stats, "counted": True}
            self.show_result = True
            self.hold = None
            self._sound("win" if out["win"] else "lose")
        elif over and self.result is None:
            self.result = {"stats": load_stats(), "counted": False}
        self._refresh_buttons()

    # ------------------------------------------------------------------ drawing helpers
    def _text(self, text: str, size: int, colour, bold: bool = False) -> pygame.Surface:
        key = (text, size, tuple(colour), bold)
        surf = self._texts.get(key)
        if surf is None:
            if len(self._texts) > 600:
                self._texts.clear()
            surf = self.app.font(size, bold).render(text, True, colour)
            self._texts[key] = surf
        return surf

    def _blit_text(self, surface, text, size, colour, bold=False, **anchor) -> pygame.Rect:
        img = self._text(text, size, colour, bold)
        r = img.get_rect(**anchor)
        surface.blit(img, r)
        return r

    def _background(self) -> pygame.Surface:
        th = self.theme
        key = (th.name, th.bg, th.panel)
        if self._bg is not None and self._bg_key == key:
            return self._bg
        import numpy as np
        surf = pygame.Surface((W_LOGICAL, H_LOGICAL))
        w, h = BOARD.w, BOARD.h
        xs = (np.arange(w) - VIEW_CENTER[0]) / (w * 0.62)
        ys = (np.arange(h) - VIEW_CENTER[1]) / (h * 0.62)
        d = np.sqrt(xs[:, None] ** 2 + ys[None, :] ** 2)
        f = np.clip(1.12 - 0.42 * d ** 1.6, 0.55, 1.12)
        base = np.array(th.bg, dtype=float)
        px = np.clip(base[None, None, :] * f[:, :, None] + 3.0, 0, 255).astype(np.uint8)
        pygame.surfarray.blit_array(surf.subsurface(BOARD), px)
        pygame.draw.rect(surf, th.panel, PANEL)
        pygame.draw.line(surf, th.panel_edge, PANEL.topleft, PANEL.bottomleft, 2)
        self._bg, self._bg_key = surf, key
        return surf

    def _board_layer(self) -> tuple[pygame.Surface, tuple[int, int]]:
        """The placed tiles, the playable spaces and the gobble markers at the current zoom, as one
        surface in board px (cell (0, 0) centre at the origin) plus its top-left offset. Rebuilt only
        when the board, the zoom or the palette changes."""
        th = self.theme
        board = self.state.board
        sym = self._symbols()
        key = (board, self.s, draw._palette_key(th), sym, self.state.escalating)
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
        # gobble markers
        for c in spaces:
            k = board.neighbour_count(c)
            g = gift_count(k, self.state.escalating)
            if g:
                x, y = lay.center(c)
                self._marker(surf, x - x0, y - y0, g)
        self._layer = (key, surf, (x0, y0))
        return surf, (x0, y0)

    def _marker(self, surf, x, y, level) -> None:
        th = self.theme
        r = max(8, round(self.s * 0.36))
        col = th.accent if level == 1 else th.bad
        pygame.draw.circle(surf, mix(col, (0, 0, 0), 0.55), (x, y + 2), r + 2)
        pygame.draw.circle(surf, col, (x, y), r)
        pygame.draw.circle(surf, mix(col, (255, 255, 255), 0.45), (x, y), r, max(1, r // 7))
        if level >= 2:
            pygame.draw.circle(surf, col, (x, y), r + max(3, r // 3), max(2, r // 6))
        self._blit_text(surf, str(level), max(11, round(r * 1.25)), (20, 20, 20), True, center=(x, y + 1))

    def _pill(self, surface, text, centre, colour, fg=None, size=19) -> pygame.Rect:
        th = self.theme
        img = self._text(text, size, fg or th.text, True)
        r = img.get_rect(center=centre)
        box = r.inflate(30, 14)
        bg = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(bg, tuple(colour) + (235,), bg.get_rect(), border_radius=box.h // 2)
        surface.blit(bg, box)
        pygame.draw.rect(surface, mix(colour, (255, 255, 255), 0.35), box, 1, border_radius=box.h // 2)
        surface.blit(img, r)
        return box

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        th = self.theme
        st = self.state
        sym = self._symbols()
        surface.blit(self._background(), (0, 0))
        # board
        clip = surface.get_clip()
        surface.set_clip(BOARD)
        layer, (x0, y0) = self._board_layer()
        bx, by = self.base()
        surface.blit(layer, (bx + x0, by + y0))
        tile = self.movable()
        holding = self.hold is not None and tile is not None and not self.match.is_over()
        if holding:
            self._draw_legal(surface, tile)
        if st.last is not None and st.last in st.board.tiles:
            x, y = self.cell_pos(st.last)
            draw.cell_sprite(self.s, outline=th.highlight + (235,), width=0.07, scale=0.97).blit(surface, x, y)
        if self.flash is not None:
            cell, t = self.flash
            if cell in st.board.tiles:
                a = int(200 * (1 - t / 0.6))
                k = 1.0 + 0.35 * t / 0.6
                x, y = self.cell_pos(cell)
                draw.cell_sprite(self.s, outline=th.accent + (a - a % 8,), width=0.06,
                                 scale=round(k, 2)).blit(surface, x, y)
        if self.hint is not None and self.hint[0] == self.match.cursor and self.hint[1]["t"] == "place":
            self._draw_hint(surface, self.hint[1], sym)
        if holding:
            self._draw_held(surface, tile, sym)
        surface.set_clip(clip)
        self._draw_status(surface)
        self._draw_panel(surface, sym)
        if self.hold is not None and tile is not None and not BOARD.collidepoint(self.pointer) \
                and self.hold["mode"] == "drag":
            draw.tile_sprite(tile, self.rot, HAND_S, th, sym).blit(surface, *self.pointer)
        if self.fly is not None:
            f = self.fly
            t = min(1.0, f["t"] / f["dur"])
            e = 1 - (1 - t) ** 3
            x = f["from"][0] + (f["to"][0] - f["from"][0]) * e
            y = f["from"][1] + (f["to"][1] - f["from"][1]) * e
            s = round(f["s0"] + (f["s1"] - f["s0"]) * e)
            draw.tile_sprite(f["tile"], f["rot"], s, th, sym).blit(surface, x, y)
        if self.banner is not None:
            self._draw_banner(surface)
        if self.match.is_over() and self.result is not None:
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)

    def _draw_legal(self, surface, tile) -> None:
        th = self.theme
        legal = self.placements(tile)
        board = self.state.board
        soft = draw.cell_sprite(self.s, fill=th.good + (34,), outline=th.good + (110,), width=0.05, scale=0.94)
        strong = draw.cell_sprite(self.s, fill=th.good + (80,), outline=th.good + (230,), width=0.08, scale=0.94)
        glow = draw.glow_sprite(self.s, th.accent, 150)
        for c, rots in legal.items():
            x, y = self.cell_pos(c)
            if board.neighbour_count(c) >= 3:
                glow.blit(surface, x, y)
            (strong if self.rot in rots else soft).blit(surface, x, y)

    def _draw_hint(self, surface, act, sym) -> None:
        th = self.theme
        cell = (act["q"], act["r"])
        x, y = self.cell_pos(cell)
        pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
        draw.glow_sprite(self.s, th.accent, 120 + int(100 * pulse) // 10 * 10).blit(surface, x, y)
        draw.ghost_sprite(act["tile"], act["rot"], self.s, th, sym, 170).blit(surface, x, y)
        draw.cell_sprite(self.s, outline=th.accent + (255,), width=0.08).blit(surface, x, y)

    def _draw_held(self, surface, tile, sym) -> None:
        th = self.theme
        tgt = self.target()
        if tgt is not None:
            cell, ok = tgt
            x, y = self.cell_pos(cell)
            if ok:
                draw.glow_sprite(self.s, th.good, 140).blit(surface, x, y)
                draw.ghost_sprite(tile, self.rot, self.s, th, sym, 215).blit(surface, x, y)
                draw.cell_sprite(self.s, outline=th.good + (255,), width=0.1).blit(surface, x, y)
                return
            draw.cell_sprite(self.s, fill=th.bad + (70,), outline=th.bad + (255,), width=0.12).blit(surface, x, y)
        if BOARD.collidepoint(self.pointer):
            px, py = self.pointer
            draw.ghost_sprite(tile, self.rot, self.s, th, sym, 200).blit(surface, px, py)
            if tgt is not None:   # not allowed here: a cross and the reason, not colour alone
                self._cross(surface, (px, py), self.s * 0.42, th.bad)
                cell = tgt[0]
                if self.placements(tile).get(cell):
                    why = "turn it to fit"
                else:
                    why = self.state.board.why_not(tile, self.rot, cell) or ""
                if why:
                    img = self._text(why, 14, th.text, True)
                    r = img.get_rect(midtop=(px, py + self.s + 6))
                    pygame.draw.rect(surface, mix(th.bad, (0, 0, 0), 0.45), r.inflate(14, 6), border_radius=8)
                    surface.blit(img, r)

    def _status_text(self) -> tuple[str, tuple]:
        th = self.theme
        st = self.state
        if st.phase == "place":
            if self.hold is not None:
                return ("Drop it on a highlighted space  ·  wheel / right click / Q E turn it", th.panel)
            return ("Drag your tile onto the Tantrix  ·  it must touch 2 tiles, colours matching", th.panel)
        if st.phase == "penalty":
            return (f"Tile {st.held} fits nowhere: it goes to the penalty stack", th.bad)
        if st.phase == "rescue":
            n = st.rescues
            return (f"Rescue ({n} left): play the top penalty tile, return it (R) or keep it (K)",
                    mix(th.accent, (0, 0, 0), 0.35))
        if st.phase == "over":
            pen = len(st.penalty)
            return ("Perfect game: no penalty tiles!" if pen == 0 else
                    f"Game over: {pen} tile{'s' if pen != 1 else ''} on the penalty stack", th.panel)
        return ("", th.panel)

    def _draw_status(self, surface) -> None:
        th = self.theme
        text, col = self._status_text()
        if text:
            self._pill(surface, text, (BOARD.centerx, 30), col, size=17)
        if self.msg is not None:
            text, colour, left = self.msg
            img = self._text(text, 17, colour, True)
            r = img.get_rect(midtop=(BOARD.centerx, 58))
            box = r.inflate(24, 12)
            bg = pygame.Surface(box.size, pygame.SRCALPHA)
            bg.fill((0, 0, 0, 0))
            pygame.draw.rect(bg, mix(th.bg, (0, 0, 0), 0.4) + (215,), bg.get_rect(), border_radius=8)
            surface.blit(bg, box)
            surface.blit(img, r)
        # zoom/pan help in the corner
        self._blit_text(surface, "wheel: zoom  ·  right-drag: pan  ·  F: fit", 13,
                        mix(th.bg, th.text_dim, 0.75), bottomleft=(14, BOARD.bottom - 10))

    def _card(self, surface, rect, label=None, edge=None) -> None:
        th = self.theme
        pygame.draw.rect(surface, mix(th.panel, th.bg, 0.45), rect, border_radius=12)
        pygame.draw.rect(surface, edge or mix(th.panel, th.panel_edge, 0.6), rect, 1 if edge is None else 2,
                         border_radius=12)
        if label:
            self._blit_text(surface, label, 13, th.text_dim, True, topleft=(rect.x + 14, rect.y + 10))

    def _draw_panel(self, surface, sym) -> None:
        th = self.theme
        st = self.state
        over = self.match.is_over()
        self._blit_text(surface, "Gobble Solitaire", 22, th.text, True, topleft=(PX, 20))
        clock = self._text(fmt_time(self.elapsed), 17, th.text, True)
        cr = clock.get_rect(topright=(PX + PW - 10, 23))
        pygame.draw.rect(surface, mix(th.panel, th.bg, 0.45), cr.inflate(18, 10), border_radius=12)
        surface.blit(clock, cr)
        # hand
        phase = st.phase
        if phase == "rescue":
            self._card(surface, HAND_CARD, "RESCUE", th.accent)
            self._blit_text(surface, GOBBLE_NAMES.get(self.last_gobble, "Gobble!"), 28, th.accent, True,
                            midtop=(HAND_CARD.centerx, HAND_CARD.y + 30))
            n = st.rescues
            self._blit_text(surface, f"{n} rescue{'s' if n > 1 else ''} left", 16, th.text, True,
                            midtop=(HAND_CARD.centerx, HAND_CARD.y + 72))
            if self.placements(st.penalty[-1]):
                lines = ["Drag the top penalty tile to the", "board, or send it back to the bag,", "or keep it:"]
            else:
                lines = ["The top penalty tile fits nowhere.", "Return it to the bag (it may fit", "later), or keep it:"]
            for i, line in enumerate(lines):
                self._blit_text(surface, line, 14, th.text_dim, midtop=(HAND_CARD.centerx, HAND_CARD.y + 102 + i * 20))
            for b in self.rescue_buttons:
                b.draw(surface, self.app)
        else:
            label = "DRAWN TILE"
            self._card(surface, HAND_CARD, label)
            tile = st.held if phase in ("place", "penalty") else None
            if tile is not None:
                hidden = (self.hold is not None and self.hold["mode"] == "drag") or \
                         (self.fly is not None and self.fly.get("to") == HAND_C)
                if hidden:
                    draw.cell_sprite(HAND_S, fill=mix(th.panel, th.bg, 0.7) + (255,),
                                     outline=mix(th.panel, th.panel_edge, 0.7) + (255,),
                                     width=0.04).blit(surface, *HAND_C)
                else:
                    k = 0.6 + 0.4 * (1 - (1 - self.draw_in) ** 2)
                    s = max(8, round(HAND_S * k))
                    if phase == "place" and self.fits_gobble(tile):
                        pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
                        draw.glow_sprite(s, th.accent, 110 + int(90 * pulse) // 10 * 10).blit(surface, *HAND_C)
                    if self.hold is not None:   # click mode: the tile is lifted
                        draw.ghost_sprite(tile, self.rot, s, th, sym, 110).blit(surface, *HAND_C)
                    else:
                        draw.tile_sprite(tile, self.rot, s, th, sym).blit(surface, *HAND_C)
                    if phase == "penalty":
                        self._cross(surface, HAND_C, HAND_S * 0.75, th.bad)
                if phase == "penalty":
                    self._blit_text(surface, "Fits nowhere", 19, th.bad, True,
                                    midtop=(HAND_CARD.centerx, HAND_CARD.bottom - 58))
                    self._blit_text(surface, "click or Space: to the penalty stack", 13, th.text_dim,
                                    midtop=(HAND_CARD.centerx, HAND_CARD.bottom - 32))
                else:
                    gob = self.fits_gobble(tile)
                    note = "Fits a double gobble space!" if gob >= 4 else "Fits a gobble space!" if gob else \
                        f"Tile {tile}"
                    self._blit_text(surface, note, 15,
                                    th.accent if gob else th.text_dim, gob,
                                    midtop=(HAND_CARD.centerx, HAND_CARD.bottom - 58))
                    self._blit_text(surface, "drag to the board  ·  Q / E / wheel: turn", 13, th.text_dim,
                                    midtop=(HAND_CARD.centerx, HAND_CARD.bottom - 32))
            else:
                msg = "Bag empty" if over else ""
                if msg:
                    self._blit_text(surface, msg, 18, th.text_dim, midtop=(HAND_CARD.centerx, HAND_C[1] - 10))
        # stats row
        self._card(surface, STATS_CARD)
        cols = [("BAG", str(len(st.bag))), ("PLACED", str(len(st.board))),
                ("GOBBLES", str(st.gobbles)), ("DOUBLES", str(st.double_gobbles))]
        cw = STATS_CARD.w / 4
        for i, (lab, val) in enumerate(cols):
            cx = round(STATS_CARD.x + cw * (i + 0.5))
            self._blit_text(surface, val, 24, th.text, True, center=(cx, STATS_CARD.y + 34))
            self._blit_text(surface, lab, 12, th.text_dim, True, center=(cx, STATS_CARD.y + 64))
            if i:
                x = round(STATS_CARD.x + cw * i)
                pygame.draw.line(surface, mix(th.panel, th.panel_edge, 0.5), (x, STATS_CARD.y + 14),
                                 (x, STATS_CARD.bottom - 14))
        # penalty stack
        rescuing = phase == "rescue"
        self._card(surface, PEN_CARD, "PENALTY STACK", th.accent if rescuing else None)
        pen = st.penalty
        npen = len(pen)
        flying_in = self.fly is not None and self.fly.get("to") == PEN_C
        shown = pen[:-1] if flying_in else pen
        dragging_top = rescuing and self.hold is not None and self.hold["mode"] == "drag"
        if shown:
            depth = min(3, len(shown) - 1)
            under = draw.cell_sprite(PEN_S, fill=th.tile + (255,), outline=th.tile_edge + (255,), width=0.06)
            for i in range(depth, 0, -1):
                under.blit(surface, PEN_C[0] - 4 * i, PEN_C[1] + 4 * i)
            top = shown[-1]
            if rescuing and self.placements(top):
                pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
                draw.glow_sprite(PEN_S, th.accent, 110 + int(90 * pulse) // 10 * 10).blit(surface, *PEN_C)
            rot = self.rot if rescuing else 0
            if dragging_top:
                draw.cell_sprite(PEN_S, fill=(0, 0, 0, 90), outline=th.accent + (200,), width=0.06).blit(surface, *PEN_C)
            elif rescuing and self.hold is not None:
                draw.ghost_sprite(top, rot, PEN_S, th, sym, 110).blit(surface, *PEN_C)
            else:
                draw.tile_sprite(top, rot, PEN_S, th, sym).blit(surface, *PEN_C)
        else:
            draw.cell_sprite(PEN_S, fill=mix(th.panel, th.bg, 0.7) + (255,),
                             outline=mix(th.panel, th.panel_edge, 0.7) + (255,), width=0.05).blit(surface, *PEN_C)
        tx = PEN_CARD.x + 150
        big = th.good if npen == 0 else (th.text if npen < 4 else th.bad)
        self._blit_text(surface, str(npen), 40, big, True, topleft=(tx, PEN_CARD.y + 40))
        self._blit_text(surface, "tile" if npen == 1 else "tiles", 16, th.text_dim, topleft=(tx, PEN_CARD.y + 90))
        note = "drag it to play it" if rescuing and pen and self.placements(pen[-1]) else \
            "empty = you win" if npen == 0 else "your score (0 wins)"
        self._blit_text(surface, note, 13, th.accent if rescuing else th.text_dim,
                        topleft=(tx, PEN_CARD.y + 118))
        # buttons
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        help_lines = ["Drag or click tile → space  ·  H hint", "Ctrl+Z undo  ·  F1 rules  ·  Esc menu"]
        for i, line in enumerate(help_lines):
            self._blit_text(surface, line, 13, th.text_dim, midtop=(PANEL.centerx, 716 + i * 20))
        seed = self._text(f"game {self.match.seed}", 12, mix(th.panel, th.text_dim, 0.6))
        surface.blit(seed, seed.get_rect(bottomright=(PX + PW, H_LOGICAL - 12)))

    def _cross(self, surface, c, r, colour) -> None:
        w = max(3, round(r / 7))
        d = r * 0.7
        for a, b in (((-d, -d), (d, d)), ((-d, d), (d, -d))):
            pygame.draw.line(surface, (0, 0, 0), (c[0] + a[0], c[1] + a[1] + 2), (c[0] + b[0], c[1] + b[1] + 2), w + 4)
            pygame.draw.line(surface, colour, (c[0] + a[0], c[1] + a[1]), (c[0] + b[0], c[1] + b[1]), w)

    def _draw_banner(self, surface) -> None:
        th = self.theme
        text, t, lvl = self.banner
        # pop in, hold, fade out
        grow = min(1.0, t / 0.18)
        scale = 0.6 + 0.55 * grow - 0.15 * max(0.0, min(1.0, (t - 0.18) / 0.15))
        alpha = 255 if t < BANNER_TIME - 0.4 else int(255 * max(0.0, (BANNER_TIME - t) / 0.4))
        col = th.accent if lvl == 1 else mix(th.accent, th.bad, 0.5)
        img = self._text(text, 64, col, True)
        shadow = self._text(text, 64, (0, 0, 0), True)
        w, h = img.get_size()
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        img = pygame.transform.smoothscale(img, size)
        shadow = pygame.transform.smoothscale(shadow, size)
        img.set_alpha(alpha)
        shadow.set_alpha(alpha * 2 // 3)
        c = (BOARD.centerx, BOARD.centery - 40)
        rib = pygame.Surface((BOARD.w, round(h * scale) + 36), pygame.SRCALPHA)
        rib.fill((0, 0, 0, alpha * 140 // 255))
        surface.blit(rib, rib.get_rect(center=c))
        pygame.draw.line(surface, col, (0, c[1] - rib.get_height() // 2), (BOARD.w, c[1] - rib.get_height() // 2))
        pygame.draw.line(surface, col, (0, c[1] + rib.get_height() // 2), (BOARD.w, c[1] + rib.get_height() // 2))
        surface.blit(shadow, shadow.get_rect(center=(c[0] + 3, c[1] + 4)))
        surface.blit(img, img.get_rect(center=c))

    def _draw_result(self, surface) -> None:
        th = self.theme
        st = self.state
        out = self.match.outcome()
        dim_backdrop(surface, 150)
        box = pygame.Rect(0, 0, 600, 370)
        box.center = (W_LOGICAL // 2, 400)
        pygame.draw.rect(surface, th.panel, box, border_radius=18)
        win = out["win"]
        pygame.draw.rect(surface, th.good if win else th.panel_edge, box, 2, border_radius=18)
        title = "You win!" if win else "Game over"
        self._blit_text(surface, title, 40, th.good if win else th.text, True, midtop=(box.centerx, box.y + 24))
        pen = out["penalty"]
        sub = "The penalty stack is empty: a perfect game." if win else \
            f"{pen} tile{'s' if pen != 1 else ''} left on the penalty stack (score {pen}; 0 wins)"
        self._blit_text(surface, sub, 17, th.text, midtop=(box.centerx, box.y + 82))
        rows = [("Gobbles", str(st.gobbles)), ("Double gobbles", str(st.double_gobbles)),
                ("Tiles placed", str(len(st.board))), ("Time", fmt_time(self.elapsed))]
        stats = (self.result or {}).get("stats") or load_stats()
        games = stats["games"]
        avg = f"{stats['penalty_total'] / games:.1f}" if games else "-"
        rows2 = [("Games", str(games)), ("Wins", str(stats["wins"])), ("Average penalty", avg),
                 ("Best winning time", fmt_time(stats["best_win_time"]))]
        self._blit_text(surface, "THIS GAME", 13, th.text_dim, True, topleft=(box.x + 48, box.y + 124))
        self._blit_text(surface, "YOUR STATISTICS", 13, th.text_dim, True, topleft=(box.x + 320, box.y + 124))
        for col, data in ((box.x + 48, rows), (box.x + 320, rows2)):
            for i, (k, v) in enumerate(data):
                y = box.y + 152 + i * 30
                self._blit_text(surface, k, 17, th.text_dim, topleft=(col, y))
                self._blit_text(surface, v, 17, th.text, True, topright=(col + 232, y))
        for b in self.end_buttons:
            b.draw(surface, self.app)
