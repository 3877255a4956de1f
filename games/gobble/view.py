"""The Gobble Solitaire screen (specs/gobble.md "Gobble Solitaire" and "Interface expectations").

Layout at the logical 1280x800 px: the board (camera with zoom and pan) on the left, a side panel on
the right with the drawn tile (the hand), the bag, the gobble counts, the penalty stack, the clock and
the buttons.

Controls: drag the drawn tile (or, while rescuing, the top penalty tile) onto the board; wheel, right
click or Q/E rotate the tile in hand; the ghost snaps to the nearest legal cell (green) or shows red;
click the tile then click a cell also works. Wheel over the board zooms (when no tile is held), +/-
too; right/middle drag, a left drag on empty board or the arrow keys pan; F fits the board in view.
H shows the greedy bot's placement, Ctrl+Z/Ctrl+Y undo/redo, R/K return/keep while rescuing.

The board view, the camera and the tile in hand (drag, rotate, snap, legal cells, markers, banners)
live in ``boardview.BoardScene``, shared with the race screen (``view_race``).

Scene contract (sim/app/scene.py): positions come from ``event.pos`` only, ``draw`` never changes the
match or advances a timer, every animation runs from ``update(dt)``.
"""
from __future__ import annotations

import math
import random
from typing import Any

import pygame

from sim.app.widgets import Button, dim_backdrop, mix
from sim.app.ui import Notice
from sim.core import storage
from sim.core.match import Match
from sim.core.registry import get_spec

from . import draw
from .boardview import GOBBLE_NAMES, BoardScene, fmt_time

W_LOGICAL, H_LOGICAL = 1280, 800
BOARD = pygame.Rect(0, 0, 952, 800)
PANEL = pygame.Rect(952, 0, 328, 800)
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
PENALTY_DELAY = 1.1            # s before a tile that fits nowhere goes to the penalty stack
BANNER_TIME = 1.6
STATS_KEY = "gobble-solitaire"


# ------------------------------------------------------------------------------ statistics
def stats_path():
    return storage.data_dir() / "stats.json"


def load_stats() -> dict[str, Any]:
    """This game's statistics: games, wins, penalty_total, best_win_time (s or None) of the games
    played without a hint, and hinted_games, hinted_wins of the games a hint helped (counted apart)."""
    data = storage.load_json_or(stats_path(), {})
    st = data.get(STATS_KEY) if isinstance(data, dict) else None
    out = {"games": 0, "wins": 0, "penalty_total": 0, "best_win_time": None, "hinted_games": 0, "hinted_wins": 0}
    if isinstance(st, dict):
        for k in ("games", "wins", "penalty_total", "hinted_games", "hinted_wins"):
            if isinstance(st.get(k), int) and not isinstance(st.get(k), bool) and st[k] >= 0:
                out[k] = st[k]
        b = st.get("best_win_time")
        if isinstance(b, (int, float)) and not isinstance(b, bool) and b >= 0:
            out["best_win_time"] = float(b)
    return out


def record_game(penalty: int, win: bool, seconds: float, hinted: bool = False) -> dict[str, Any]:
    """Add one finished game to ``stats.json`` (atomically; other games' entries are kept) and return
    the updated statistics; a game played with a hint counts only in hinted_games / hinted_wins. A
    write error is ignored (the statistics are returned anyway)."""
    data = storage.load_json_or(stats_path(), {})
    if not isinstance(data, dict):
        data = {}
    st = load_stats()
    if hinted:
        st["hinted_games"] += 1
        st["hinted_wins"] += 1 if win else 0
    else:
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
class SolitaireScene(BoardScene):
    """Gobble Solitaire on ``match`` (any state: it draws whatever position the match is in)."""

    title = "Gobble Solitaire"
    BOARD = BOARD
    PANELS = (PANEL,)
    MIN_S, MAX_S, FIT_MAX_S = MIN_S, MAX_S, FIT_MAX_S
    BANNER_TIME = BANNER_TIME
    HAND_DRAG_S = HAND_S

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app, match, get_spec("gobble-solitaire"))
        # time spent on this game, kept in the record's meta so a resumed game's clock goes on
        self.elapsed = float(opts.get("elapsed", match.meta.get("elapsed", 0.0)))
        self._init_board_view()
        # the tile in hand
        self.rot = 0
        self._rot_for: tuple | None = None
        self.draw_in = 1.0
        self.penalty_wait = 0.0
        self.last_gobble = 1                  # level of the latest gobble (rescue card headline)
        self.result: dict[str, Any] | None = None
        self._recorded = match.is_over()      # a match that was over already is not counted again
        self._agent = None
        self._build_buttons()
        self._sync_tile()
        self._fit(immediate=True)
        self.on_enter()
        if self._recorded:
            self.result = {"stats": load_stats(), "counted": False}

    # ------------------------------------------------------------------ derived state
    def movable(self) -> int | None:
        """The tile the player may place now (drawn tile, or top penalty tile while rescuing)."""
        return self.match.rules.movable_tile(self.state)

    def source(self) -> str | None:
        ph = self.state.phase
        return "hand" if ph == "place" else "penalty" if ph == "rescue" else None

    def _sync_tile(self) -> None:
        """Reset the rotation when a new tile comes into play."""
        key = (self.match.cursor, self.movable())
        tile = self.movable()
        if self._rot_for is None or self._rot_for[1] != tile:
            # start in a rotation that fits somewhere, if the first one doesn't
            self.rot = 0 if tile is None else self.first_fitting_rot(tile, 0)
        self._rot_for = key

    # ------------------------------------------------------------------ tile sources (BoardScene hooks)
    def source_at(self, pos):
        """"hand" or "penalty" when the pointer is over the tile that may be placed now."""
        if self._over_hand(pos) and self.movable() is not None:
            return self.source()
        return None

    def tile_of(self, src) -> int | None:
        return self.movable() if src == self.source() else None

    def source_home(self, src):
        return (HAND_C, HAND_S) if src == "hand" else (PEN_C, PEN_S)

    def active_buttons(self) -> list[Button]:
        return self._active_buttons()

    def press_before(self, pos) -> bool:
        if self.match.is_over() and self.result is not None and self.show_result:
            return True
        if self.hold is None and self.state.phase == "penalty" and (self._over_hand(pos) or BOARD.collidepoint(pos)):
            self.do_send_penalty()
            return True
        return False

    def key(self, event) -> bool:
        return self._key(event)

    def _build_buttons(self) -> None:
        bw, bh, gap = (PW - 12) // 3, 40, 6
        y1, y2 = 602, 602 + bh + 8
        col = [PX, PX + bw + gap, PX + 2 * (bw + gap)]
        self.b_hint = Button((col[0], y1, bw, bh), "Hint", self.do_hint, font_size=17, tooltip="H")
        self.b_undo = Button((col[1], y1, bw, bh), "Undo", self.do_undo, font_size=17, tooltip="Ctrl+Z")
        self.b_redo = Button((col[2], y1, bw, bh), "Redo", self.do_redo, font_size=17, tooltip="Ctrl+Y")
        self.b_fit = Button((col[0], y2, bw, bh), "Fit view", self.do_fit, font_size=17, tooltip="F")
        self.b_rules = Button((col[1], y2, bw, bh), "Rules", self.do_rules, font_size=17, tooltip="F1")
        self.b_menu = Button((col[2], y2, bw, bh), "Menu", self.do_menu, font_size=17, style="quiet")
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
        self.b_launch = Button((ox - 80, oy + 104, 160, 46), "Launcher", self.do_menu, font_size=18)
        self.b_view = Button((ox + 90, oy + 104, 160, 46), "View board", self.do_toggle_result, font_size=18)
        self.b_show = Button((BOARD.centerx - 90, BOARD.bottom - 64, 180, 42), "Show result", self.do_toggle_result,
                             font_size=17, style="primary")
        self.end_buttons = [self.b_new, self.b_launch, self.b_view]
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        st = self.state
        self.b_undo.enabled = self.match.can_undo(0)
        self.b_redo.enabled = self.match.can_redo()
        self.b_hint.enabled = st.phase in ("place", "rescue", "penalty") and not self.purist()
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
        """Send ``action`` for the player (seat 0); see :meth:`BoardScene.submit_as`."""
        return self.submit_as(0, action)

    def do_hint(self) -> None:
        """H: the greedy bot's choice, shown on the board at once (it is quick)."""
        st = self.state
        if self.match.is_over():
            self.unavailable("the game is over")
            return
        if self.purist():
            self.unavailable("a purist table has no hint")
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
        # kept with the record, so a resumed game still counts as helped
        self.match.meta["hints"] = int(self.match.meta.get("hints", 0)) + 1
        self._sound("hint")
        t = act["t"]
        if t == "place":
            k = (act["rot"] - self.rot) % 6
            turn = "" if k == 0 else f" after {k} turn{'s' if k > 1 else ''} clockwise" if k <= 3 else \
                f" after {6 - k} turn{'s' if 6 - k > 1 else ''} anticlockwise"
            self.say(f"Hint: the glowing space{turn}", self.theme.accent, 4.0)
        elif t == "return":
            self.say("Hint: return the top penalty tile to the bag (R)", self.theme.accent, 4.0)
        elif t == "skip":
            self.say("Hint: keep the penalty tile (K)", self.theme.accent, 4.0)
        elif t == "penalty":
            self.say("Hint: this tile fits nowhere (Space)", self.theme.accent, 4.0)

    def hinted(self) -> bool:
        """Whether a hint was shown in this game (its statistics are then kept apart)."""
        return bool(self.match.meta.get("hints"))

    def do_undo(self) -> None:
        """Ctrl+Z: a placement, while no new tile has been drawn (a draw can never be taken back)."""
        if self.match.undo(0):
            self._sound("undo")
        else:
            self.unavailable("the game is over: nothing can be taken back" if self.match.is_over() else
                             "nothing to undo: a draw from the bag cannot be taken back")

    def do_redo(self) -> None:
        if self.match.redo():
            self._sound("undo")
        else:
            self.unavailable("nothing to redo")

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
        self.do_play_again()

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
                    self.say("The tile went back into the bag", th.text_dim)
                elif e.get("how") == "skip":
                    sounds.append("click")
            elif kind in ("undo", "redo", "seek"):
                self.hold = None
                self.last_gobble = 1
        for s in sounds:
            self._sound(s)
        self.hint = None
        self._sync_tile()
        self._count_finished_game()
        self._refresh_buttons()

    def _over_hand(self, pos) -> bool:
        src = self.source()
        if src == "hand":
            c, r = HAND_C, HAND_S * 1.05
        elif src == "penalty":
            c, r = PEN_C, PEN_S * 1.15
        else:
            return False
        return math.hypot(pos[0] - c[0], pos[1] - c[1]) <= r

    def _key(self, event) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
            return False
        over = self.match.is_over()
        if over and self.result is not None:
            if k in (pygame.K_n, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.do_new_game()
                return True
            if k == pygame.K_v:
                self.do_toggle_result()
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
        return self.board_key(event)

    # ------------------------------------------------------------------ dropping
    def target(self) -> tuple[tuple[int, int], bool] | None:
        """Where the held tile would go: ``(cell, legal)``, or None when the pointer is off the board."""
        tile = self.movable()
        if tile is None:
            return None
        return self.target_for(tile, self.rot, self.pointer)

    def drop(self, keep_on_fail: bool) -> None:
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

    _drop = drop

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
            self.match.meta["elapsed"] = round(self.elapsed, 3)
        self._tick_feedback(dt)
        self.draw_in = min(1.0, self.draw_in + dt / 0.25)
        if st.phase == "penalty" and self.hold is None:
            self.penalty_wait += dt
            if self.penalty_wait >= PENALTY_DELAY:
                self.penalty_wait = 0.0
                self.do_send_penalty()
        else:
            self.penalty_wait = 0.0
        self._follow_camera(dt)
        if over and self.result is None:
            self.result = {"stats": load_stats(), "counted": False}
        self._refresh_buttons()

    def board_busy(self) -> bool:
        """Redraw policy: the feedback moves, the drawn tile slides in, a glow pulses (a tile that fits
        a gobble space, a rescuable penalty tile), the penalty is about to be sent, or the clock's
        shown second changed (it is asked once a frame)."""
        ticked = self.looks_changed("clock", fmt_time(self.elapsed))
        if ticked or self.feedback_busy() or self.draw_in < 1.0:
            return True
        st = self.state
        if self.match.is_over():
            return self.result is None
        if st.phase == "penalty":
            return self.hold is None
        glow = (st.phase == "place" and st.held is not None and self.fits_gobble(st.held)) or \
            (st.phase == "rescue" and st.penalty and self.placements(st.penalty[-1]))
        # the glow's alpha is drawn in steps of 10
        return bool(glow) and self.looks_changed("glow", int(90 * (0.5 + 0.5 * math.sin(self.clock * 4.0))) // 10)

    def _count_finished_game(self) -> None:
        """Add the finished game to the personal statistics, once. Called from the match listener on
        the final action, which runs before the autosave listener removes the autosave, so a crash
        cannot lose the game's result."""
        if self._recorded or not self.match.is_over():
            return
        self._recorded = True
        out = self.match.outcome()
        stats = record_game(out["penalty"], out["win"], self.elapsed, self.hinted())
        self.result = {"stats": stats, "counted": True}
        self.show_result = True
        self.hold = None
        self._sound("win" if out["win"] else "lose")

    def draw(self, surface: pygame.Surface) -> None:
        th = self.theme
        st = self.state
        sym = self._symbols()
        surface.blit(self._background(), (0, 0))
        # board
        clip = surface.get_clip()
        surface.set_clip(self.board_rect())   # never under the notices
        self._draw_board_layer(surface)
        tile = self.movable()
        holding = self.hold is not None and tile is not None and not self.match.is_over()
        if holding:
            self._draw_legal(surface, tile, self.rot)
        if st.last is not None and st.last in st.board.tiles:
            x, y = self.cell_pos(st.last)
            draw.cell_sprite(self.s, outline=th.highlight + (235,), width=0.07, scale=0.97).blit(surface, x, y)
        self._draw_flash(surface)
        if self.hint is not None and self.hint[0] == self.match.cursor and self.hint[1]["t"] == "place":
            self.draw_hint(surface, self.hint[1], sym)
        if holding:
            self._draw_held(surface, tile, self.rot, sym)
        surface.set_clip(clip)
        self._draw_status(surface)
        self._draw_panel(surface, sym)
        if self.hold is not None and tile is not None and not BOARD.collidepoint(self.pointer) \
                and self.hold["mode"] == "drag":
            draw.tile_sprite(tile, self.rot, HAND_S, th, sym).blit(surface, *self.pointer)
        self._draw_fly(surface, sym)
        if self.banner is not None:
            self._draw_banner(surface)
        if self.match.is_over() and self.result is not None:
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)

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

    def status_notice(self) -> Notice | None:
        text, col = self._status_text()
        return Notice("status", text, self.theme.text, col, 17) if text else None

    def _draw_status(self, surface) -> None:
        th = self.theme
        self.draw_notices(surface)      # the status, the message, the bot's error
        # zoom/pan help in the corner
        self._blit_text(surface, "wheel: zoom  ·  right-drag: pan  ·  F: fit", 13,
                        mix(th.bg, th.text_dim, 0.75), bottomleft=(14, BOARD.bottom - 10))

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
            if self.purist() or self.placements(st.penalty[-1]):     # a purist table never says if it fits
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
            if rescuing and not self.purist() and self.placements(top):
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
        note = "drag it to play it" if rescuing and pen and not self.purist() and self.placements(pen[-1]) else \
            "empty = you win" if npen == 0 else "your score (0 wins)"
        self._blit_text(surface, note, 13, th.accent if rescuing else th.text_dim,
                        topleft=(tx, PEN_CARD.y + 118))
        # buttons
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        help_lines = ["Drag or click tile → space  ·  H hint", "Ctrl+Z / Y undo, redo  ·  F1 rules  ·  Esc menu"]
        for i, line in enumerate(help_lines):
            self._blit_text(surface, line, 13, th.text_dim, midtop=(PANEL.centerx, 716 + i * 20))
        seed = self._text(f"game {self.match.seed}", 12, mix(th.panel, th.text_dim, 0.6))
        surface.blit(seed, seed.get_rect(bottomright=(PX + PW, H_LOGICAL - 12)))

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
        if stats["hinted_games"]:
            rows2.append(("With hints", f"{stats['hinted_wins']} of {stats['hinted_games']} won"))
        if self.hinted():
            rows.append(("Hints (kept apart)", str(self.match.meta["hints"])))
        self._blit_text(surface, "THIS GAME", 13, th.text_dim, True, topleft=(box.x + 48, box.y + 124))
        self._blit_text(surface, "YOUR STATISTICS (NO HINT)", 13, th.text_dim, True,
                        topleft=(box.x + 320, box.y + 124))
        pitch = 30 if max(len(rows), len(rows2)) <= 4 else 25
        for col, data in ((box.x + 48, rows), (box.x + 320, rows2)):
            for i, (k, v) in enumerate(data):
                y = box.y + 150 + i * pitch
                self._blit_text(surface, k, 17, th.text_dim, topleft=(col, y))
                self._blit_text(surface, v, 17, th.text, True, topright=(col + 232, y))
        for b in self.end_buttons:
            b.draw(surface, self.app)
