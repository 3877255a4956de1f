"""The Tom Tube screen (specs/tomtube.md "Play expectations"; research/tomtube.md §7 "Rendering hints").

Layout at the logical 1280x800 px: the board on the left (the hexagon of space triangles, the two
bases above and below, the four solar modules at the short sides), a side panel on the right with
both astronauts (who plays, score so far, the counters on the base, solar progress, triangles left),
the stock and the stack, the bonus-phase count when it runs, the actions of the phase and the Undo,
Rules and Menu buttons.

A turn at this machine:

* **placing**: D (or the Draw button) draws the top rhomb (an undo barrier); the free slots glow; the
  rhomb follows the pointer and snaps to the nearest free slot; F, the wheel or a right click turns it
  half round (its other orientation); a click lays it. A click where no rhomb fits is refused with the
  rules' reason. Then every isolated triangle glows and they are offered one by one (the chosen one is
  outlined white; a click picks another): pick one of the pictures in the panel (or press 1-5), each a
  triangle you hold in a rotation that gives a different picture. When the player has none left, the
  other player is asked to fill them with his (a banner) or leave them empty (L);
* **moving**: 1 free drift (chosen by default), 2 control drift (pays a control counter), 3 space
  jump (pays an energy counter); the destinations of the chosen mode are ringed, the pointer on one
  shows the path; a click moves the astronaut, who glides along the path and picks up the counter he
  stops on. E exchanges an alien counter (when the rules allow).

Ctrl+Z takes back a human's last action (a placement, a fill, a move, an exchange) until the other
player acts, never across a rhomb draw (``Match`` undo policy; rules.md "Playing here"). Bots think in
a :class:`sim.ai.worker.BotWorker`, never on the frame, and each bot action stays on screen
``BOT_DELAY`` s before the next one; a "thinking" mark shows while they work. Esc goes back to the
launcher (the match is autosaved), F1 shows the rules, V switches between the end card and the board.

Scene contract (sim/app/scene.py): positions come from ``event.pos`` only; ``draw`` never changes the
match; animation and bots run from ``update(dt)``.
"""
from __future__ import annotations

import math
import random
from typing import Any

import pygame

from sim.app.setup_view import SeatSetupScene
from sim.app.table import TableScene
from sim.app.ui import Notice, button_row
from sim.app.widgets import Button, mix, unite_rects, wrap_text
from sim.core.match import Match
from sim.core.registry import get_spec

from . import draw
from .data import BASES, MODULES, PLAYER_NAMES, POINTS, RHOMB_BY_ID, SOLAR_PER_PLAYER, TRIANGLE_PIECES
from .geometry import (DEAD, KNOT_IDS, MODULE_BY_NAME, PORTS, SLOTS, TRI_CORNERS, node_xy, rhomb_corners)

W_LOGICAL, H_LOGICAL = 1280, 800
BOARD = pygame.Rect(0, 0, 880, 800)
PANEL = pygame.Rect(880, 0, 400, 800)
PX = PANEL.x + 18                    # panel content left edge
PW = PANEL.w - 36                    # panel content width
PLAYER_CARDS = (pygame.Rect(PX, 74, PW, 124), pygame.Rect(PX, 204, PW, 124))
TABLE_CARD = pygame.Rect(PX, 334, PW, 70)
ACTION_CARD = pygame.Rect(PX, 410, PW, 272)
BUTTONS_Y = 692
NOTICES = pygame.Rect(12, 4, 856, 124)   # the notices area, above the board
BOARD_TOP, BOARD_BOTTOM = 132, 30     # px kept free above (the notices) and below (the hover line) the board
H = math.sqrt(3) / 2
BOT_DELAY = 0.6                      # s an action stays on screen before a bot's next one is shown
MOVE_SPEED = 3.2                     # space edges per second of a gliding astronaut
SNAP = 0.5                           # edges: the held rhomb snaps to a free slot this close
SS = 2                               # the board picture is painted this many times larger, then scaled
MODE_KEYS = {"drift": "1", "control": "2", "jump": "3"}
MODE_LABELS = {"drift": "Drift", "control": "Control", "jump": "Jump"}
MODE_HELP = {"drift": "Free drift: your own, striped and printed tubes",
             "control": "Control drift: tubes of every colour, pays 1 control counter",
             "jump": "Space jump: along one space edge, pays 1 energy counter"}
PIECE_NAMES = {"arc": "arc", "Y": "fork", "plain": "plain"}
ENDED = {"bonus": "{fast} came home first with both solar counters; {slow} returned in {n} bonus "
                  "turn{s}",
         "no_bonus": "no more rhombs could be placed while an astronaut was home",
         "stranded": "{lost} could never get home again",
         "blocked": "neither astronaut could place a rhomb or move",
         "turn_limit": "the turn limit was reached"}


# ------------------------------------------------------------------------------ set-up dialog
class TomTubeSetupScene(SeatSetupScene):
    """The launcher's set-up dialog for Tom Tube: the two seats (P1 Tom, P2 Dave; each human, a bot
    at easy, medium or hard, or the random player) and the beginner options (research: rulebook "Playing with Beginners"): extra
    launch energy counters for Tom, aliens (control and alien counters) on or off, and who starts. The
    config it starts has no ``players`` key (always two)."""

    def __init__(self, *args: Any, **kw: Any):
        super().__init__(*args, **kw)
        fixed = ["bot:easy" if s in ("bot", "bot:bot") else s for s in self.seats]
        if fixed != self.seats:
            self.seats = fixed
            self._build()

    def _build(self) -> None:
        super()._build()
        names = {"human": "Human", "bot:easy": "Easy", "bot:medium": "Medium", "bot:hard": "Hard",
                 "bot:random": "Random"}
        for kb, _minus, _plus in self.seat_rows:
            for b, kind in zip(kb, self.kinds):
                b.label = b.label.replace(kind, names.get(kind, kind))


def describe_config(config: dict) -> str:
    """One line about a validated config for the set-up dialog."""
    parts = ["P1 is Tom (orange, top base), P2 Dave (red)"]
    for name, extra in zip(PLAYER_NAMES, config["extra_energy"]):
        if extra:
            parts.append(f"{name} launches with {1 + extra} energy counters")
    if not config["alien_control"]:
        parts.append("no control or alien counters")
    return ". ".join(parts) + "."


#: What the set-up dialog offers for a seat.
KINDS = ("human", "bot:easy", "bot:medium", "bot:hard", "bot:random")


def make_setup_scene(app: Any, spec: Any) -> TomTubeSetupScene:
    """The set-up dialog (``GameSpec.make_setup``)."""
    return TomTubeSetupScene(app, spec, min_players=2, max_players=2, kinds=KINDS,
                             max_handicap=0, describe=describe_config, heading="New game")


# ------------------------------------------------------------------------------ demo positions
def demo_match(turns: int = 24, seed: int = 1, seats: tuple[str, str] = ("human", "human"),
               config: dict | None = None) -> Match:
    """A match played by two route bots until ``turns`` turns are over (at the start of a turn) or the
    game ends: for screenshots, tests and the bench. ``seats`` are written into the config."""
    SPEC = get_spec("tomtube")
    from .ai import make_agent

    rules = SPEC.make_rules()
    m = Match(rules, {"first": 0, **(config or {}), "seats": list(seats)}, seed)
    agents = [make_agent("bot", seed * 2 + k) for k in (0, 1)]
    while not m.is_over() and not (m.state.turns >= turns and m.state.phase == "turn"):
        p = m.active_players()[0]
        m.submit(p, agents[p].select_action(rules, m.state, p))
    return m


def frame_times(frames: int = 240, turns: int = 24) -> dict[str, list[tuple[float, float]]]:
    """Frame times of the real loop on a middle-game board (hot-seat, so no bot runs), by
    ``sim.app.framebench.run_frames``: half of the frames hold a drawn rhomb over the free slots (ghost,
    glow), half choose drift destinations; every 20th frame an action is played and taken back, so the
    board picture is redrawn."""
    from sim.app.framebench import run_frames

    m = demo_match(turns, seed=2)
    start = len(m.log)
    undo = [False]

    def drive(scene, match, i):
        if undo[0] and match.can_undo():
            match.undo()
        undo[0] = False
        if i == frames // 2:
            match.truncate(start)         # back to the start of the turn: now choose drift targets
        st = match.state
        if i < frames // 2 and st.phase == "turn" and not match.is_over():
            match.submit(st.turn, {"t": "draw"})
        st = match.state
        if st.phase == "place":
            slots = st.board.free_slots() or (0,)
            e1, e2 = SLOTS[slots[(i * 7) % len(slots)]][0]
            a, b = node_xy(e1), node_xy(e2)
            pos = scene.xf.px(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        else:
            pos = scene.xf.px(node_xy(KNOT_IDS[(i * 11) % len(KNOT_IDS)]))
        ev = [pygame.event.Event(pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(1, 1), buttons=(0, 0, 0))]
        if i % 20 == 10 and not match.is_over():
            seat = match.active_players()[0]
            legal = [a for a in match.rules.legal_actions(match.state, seat) if a["t"] in ("place", "move")]
            if legal:
                match.submit(seat, legal[i % len(legal)])
                undo[0] = True
                return ev, "right after a placement or a move"
        return ev, "holding a rhomb or pointing at drift destinations"
    return run_frames(_spec(), m, drive, frames)


def _spec():
    SPEC = get_spec("tomtube")  # through the registry: the package's __init__ imports this module
    return SPEC


def _inside(p, a, b, c) -> bool:
    def side(u, v, w):
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    s1, s2, s3 = side(a, b, p), side(b, c, p), side(c, a, p)
    return (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0)


# ------------------------------------------------------------------------------------ scene
class TomTubeScene(TableScene):
    """A Tom Tube match on ``match`` (any state: it draws whatever position the match is in). The seats
    come from the config's ``seats`` (default: two humans at this machine)."""

    title = "Tom Tube"
    opaque = True          # draw() covers the screen: the board layer, then the panel

    BOT_DELAY = BOT_DELAY
    HINT_LEVEL = "hard"

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app, match, _spec())
        self.mouse: tuple[int, int] | None = None
        self.flip = 0                                    # orientation of the held rhomb
        self.hover_slot: int | None = None               # the free slot the held rhomb snaps to
        self.mode: str | None = None                     # the chosen way to move
        self.fill_tri: int | None = None                 # the isolated triangle chosen to fill
        self.hover_option: int | None = None
        self.anim: dict[str, Any] | None = None          # a gliding astronaut
        self.float_text: tuple[str, tuple, tuple, float] | None = None   # "+1 energy" after a pickup
        self._icons: dict[tuple, pygame.Surface] = {}
        self._board_layers: list[tuple[Any, str, pygame.Surface]] = []   # (board, palette, picture), last used last
        self._big: pygame.Surface | None = None
        self._big_board: Any = None                   # the board painted on _big
        self._spare_layers: list[pygame.Surface] = []  # surfaces for the pictures of boards to come
        self._shown_board: Any = None                 # the board whose picture the last frame showed
        self._node_memo: dict[tuple, dict] = {}       # transform -> {node: px}
        self._parts_xf: Any = None                    # the transform the board's parts are recorded at
        self._parts: dict[tuple, tuple] = {}          # part -> (reach left, right, top, bottom, Recording)
        self._parts_of: tuple | None = None           # (board, transform, its parts) last listed
        self._space_cache: tuple[str, pygame.Surface] | None = None
        self._glow_cache: tuple[Any, pygame.Surface] | None = None
        self._ghosts: dict[tuple, tuple[pygame.Surface, tuple[int, int]]] = {}
        self._thumbs: dict[tuple, pygame.Surface] = {}
        self._nodes_cache: tuple[Any, list] | None = None
        self._courses: tuple[Any, dict] = (None, {})
        self._mark_memo: tuple[Any, tuple | None] = (None, None)   # (state, its last_mark)
        self._opt_key: Any = None
        self.opt_buttons: list[Button] = []
        self.opt_actions: list[dict] = []
        self._layout()
        self._build_buttons()
        self._reset_choices()
        self.on_enter()

    # ------------------------------------------------------------------ seats
    def seat_name(self, seat: int) -> str:
        """"Tom (you)", "Dave (bot)", "Tom" (hot-seat), "Dave (random)", "Ann (Tom)" (a name given)."""
        humans = sum(1 for s in self.seats if s == "human")
        kind = self.seats[seat]
        name = PLAYER_NAMES[seat]
        if self.seat_list[seat].name:
            return f"{self.seat_list[seat].name} ({name})"
        if kind == "human":
            return f"{name} (you)" if humans == 1 else name
        return f"{name} ({self.bot_level(seat)})"

    def is_you(self, seat: int) -> bool:
        return self.seats[seat] == "human" and sum(1 for s in self.seats if s == "human") == 1

    # ------------------------------------------------------------------ geometry
    def _layout(self) -> None:
        top, bottom = BOARD_TOP, BOARD_BOTTOM
        scale = min((BOARD.w - 60) / 9.0, (BOARD.h - top - bottom) / (8 * H + 1.1))
        self.xf = draw.Xform(scale, BOARD.centerx, top + (BOARD.h - top - bottom) / 2)
        self.s = scale

    def board_rect(self) -> pygame.Rect:
        """The board (9.4 edges wide with the solar modules' panels, 8 rows of triangles and the bases
        high) in px."""
        w, h = 9.4 * self.s, (8 * H + 1.1) * self.s
        return pygame.Rect(round(self.xf.ox - w / 2), round(self.xf.oy - h / 2), round(w), round(h))

    def notices_rect(self) -> pygame.Rect:
        return NOTICES

    def status_notice(self) -> Notice | None:
        text = self.status_text()
        return Notice("status", text[:1].upper() + text[1:], self.theme.text, self.theme.panel, 16) if text else None

    def standing_notices(self) -> list[Notice]:
        th = self.theme
        if self.phase_for_human() == "fill_other":
            note = f"Optional: {PLAYER_NAMES[1 - self.state.turn]} had to leave these triangles"
            return [Notice("fill_other", note, th.text, mix(th.accent, (0, 0, 0), 0.35), 14)]
        return []

    def node_pos(self, node: str) -> tuple[float, float]:
        """Screen position (px) of a node id."""
        return self.xf.px(node_xy(node))

    def slot_centre(self, slot: int) -> tuple[float, float]:
        """Screen position (px) of the middle of a slot's shared edge (where the rhomb's centre goes)."""
        e1, e2 = SLOTS[slot][0]
        a, b = node_xy(e1), node_xy(e2)
        return self.xf.px(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))

    def slot_at(self, pos, free_only: bool = True, reach: float = SNAP) -> int | None:
        """The slot whose centre is nearest ``pos`` within ``reach`` edges (free slots only, unless not
        ``free_only``)."""
        cands = self.state.board.free_slots() if free_only else range(len(SLOTS))
        best, best_d = None, reach * self.s
        for sl in cands:
            x, y = self.slot_centre(sl)
            d = math.hypot(x - pos[0], y - pos[1])
            if d < best_d:
                best, best_d = sl, d
        return best

    def tri_at(self, pos) -> int | None:
        """The space triangle under ``pos``, or None."""
        p = self.xf.board(pos)
        for t, cs in enumerate(TRI_CORNERS):
            a, b, c = (node_xy(k) for k in cs)
            if _inside(p, a, b, c):
                return t
        return None

    def _nodes(self) -> list[tuple[str, tuple[float, float]]]:
        b = self.state.board
        if self._nodes_cache is None or self._nodes_cache[0] is not b:
            nodes = list(KNOT_IDS) + [m.name for m in MODULES] + sorted(n for n in b.complete if n[0] == "c")
            self._nodes_cache = (b, [(n, self.node_pos(n)) for n in nodes])
        return self._nodes_cache[1]

    def node_at(self, pos, prefer=()) -> str | None:
        """The sphere or module under ``pos``: one of ``prefer`` within 0.42 edges first, else any node
        within 0.3 edges."""
        best, best_d = None, 0.3 * self.s
        for n, (x, y) in self._nodes():
            d = math.hypot(x - pos[0], y - pos[1])
            if n in prefer and d < 0.42 * self.s and (best not in prefer or d < best_d):
                best, best_d = n, d
            elif d < best_d and best not in prefer:
                best, best_d = n, d
        return best

    # ------------------------------------------------------------------ buttons
    def _build_buttons(self) -> None:
        self.panel_buttons = button_row(PX, BUTTONS_Y, PW, 42, (
            ("Undo", self.do_undo, "Ctrl+Z"), ("Hint", self.do_hint, "H"), ("Rules", self.do_rules, "F1"),
            ("Menu", self.do_menu, "Esc")), styles={"Menu": "quiet"})
        self.b_undo, self.b_hint, self.b_rules, self.b_menu = self.panel_buttons
        c = ACTION_CARD
        inner = c.w - 28
        self.b_draw = Button((c.x + 14, c.y + 44, inner, 44), "Draw a rhomb (D)", self.do_draw, style="primary",
                             font_size=17)
        mw = (inner - 12) // 3
        self.mode_buttons = {m: Button((c.x + 14 + k * (mw + 6), c.y + 122, mw, 42),
                                       f"{MODE_LABELS[m]} ({MODE_KEYS[m]})", lambda m=m: self.set_mode(m),
                                       font_size=15)
                             for k, m in enumerate(("drift", "control", "jump"))}
        self.b_exchange = Button((c.x + 14, c.y + 214, inner, 40), "Exchange an alien (E)", self.do_exchange,
                                 font_size=15)
        self.b_flip = Button((c.x + 14, c.y + 214, inner, 40), "Turn it round (F)", self.do_flip, font_size=15)
        self.b_leave = Button((c.x + 14, c.y + 214, inner, 40), "Leave them empty (L)", self.do_leave,
                              font_size=15)
        self.end_buttons_for(self.end_box(), (BOARD.centerx - 90, BOARD.bottom - 50, 180, 40))
        self._refresh_buttons()

    def end_box(self) -> pygame.Rect:
        box = pygame.Rect(0, 0, 660, 400)
        box.center = (BOARD.centerx, BOARD.centery + 10)
        return box

    def phase_for_human(self) -> str | None:
        """The phase when a human at this machine is to act ("turn", "place", "fill", "fill_other"),
        else None."""
        if self.match.is_over() or not self.human_turn():
            return None
        return self.state.phase

    def _refresh_buttons(self) -> None:
        st = self.state
        ph = self.phase_for_human()
        seat = self.to_act()
        self.b_undo.enabled = self.undo_steps() > 0
        self.b_hint.enabled = self.hint_refusal() is None
        if ph == "turn":
            self.b_draw.enabled = st.bonus_for is None and self.rules.placeable(st)
            self.b_draw.label = ("Draw a rhomb (D)" if self.b_draw.enabled else
                                 "No rhombs in the bonus phase" if st.bonus_for is not None else
                                 "No rhomb can be placed")
            for m, b in self.mode_buttons.items():
                b.enabled = self.rules.can_pay(st, seat, m)
                b.style = "primary" if self.mode == m else "normal"
            self.b_exchange.enabled = self.rules.can_exchange(st, seat)
        self._fill_buttons()

    def fill_options(self) -> list[dict]:
        """The fill actions the filler may take on the chosen isolated triangle (only legal ones)."""
        if self.phase_for_human() not in ("fill", "fill_other") or self.fill_tri is None:
            return []
        seat = self.to_act()
        return [a for a in self.rules.legal_actions(self.state, seat)
                if a["t"] == "fill" and a["tri"] == self.fill_tri]

    def _fill_buttons(self) -> None:
        key = (id(self.state), self.fill_tri, self.phase_for_human())
        if key == self._opt_key:
            return
        self._opt_key = key
        self.opt_actions = self.fill_options()
        c = ACTION_CARD
        size = 60
        gap = (c.w - 28 - 5 * size) // 4
        self.opt_buttons = [Button((c.x + 14 + k * (size + gap), c.y + 104, size, size + 22), "",
                                   lambda k=k: self.choose_option(k), font_size=13)
                            for k in range(len(self.opt_actions))]
        self.hover_option = None

    def active_buttons(self) -> list[Button]:
        over = self.match.is_over()
        if over and self.show_result:
            return list(self.end_buttons)
        out = list(self.panel_buttons)
        ph = self.phase_for_human()
        if ph == "turn":
            out += [self.b_draw, *self.mode_buttons.values(), self.b_exchange]
        elif ph == "place":
            out.append(self.b_flip)
        elif ph in ("fill", "fill_other"):
            out += self.opt_buttons
            if ph == "fill_other":
                out.append(self.b_leave)
        if over:
            out.append(self.b_show)
        return out

    # ------------------------------------------------------------------ actions
    def _human(self, phases: tuple[str, ...], what: str) -> int | None:
        """The human seat to act if the phase is one of ``phases``; else refuse ``what`` with why."""
        if self.match.is_over():
            self.refuse("the game is over")
            return None
        seat = self.to_act()
        if seat is None:
            return None
        if self.played_elsewhere(seat):
            self.refuse(f"wait: {self.seat_name(seat)} is to play")
            return None
        if self.state.phase not in phases:
            self.refuse(what)
            return None
        return seat

    def show_hint(self, action: dict) -> None:
        """The hint made visible: the mode chosen and the destination ringed, the rhomb turned as the
        hint lays it with its slot ringed, or the triangle to fill chosen; the rest in words."""
        t = action.get("t")
        acc = self.theme.accent
        if t == "move":
            self.mode = action["mode"]
            self.say(f"Hint: {MODE_HELP[action['mode']].split(':')[0].lower()} to the pulsing sphere", acc, 6.0)
        elif t == "place":
            self.flip = action["flip"]
            self.say("Hint: lay the rhomb, turned so, on the pulsing slot", acc, 6.0)
        elif t == "fill":
            self.fill_tri = action["tri"]
            self.say(f"Hint: fill the chosen triangle with the {action['piece']} piece", acc, 6.0)
        else:
            words = {"draw": "draw a rhomb and place it (D)", "exchange": "exchange an alien counter (E)",
                     "leave": "leave the triangles empty (L)"}
            self.say("Hint: " + words.get(t, self.describe_action(action)), acc, 6.0)

    def hint_spot(self) -> tuple[float, float] | None:
        """Where the current hint points on the board (px), or None."""
        if self.hint is None or self.hint[0] != self.match.cursor:
            return None
        a = self.hint[1]
        if a.get("t") == "move":
            return self.node_pos(a["to"])
        if a.get("t") == "place":
            return self.slot_centre(a["slot"])
        return None

    def do_draw(self) -> None:
        """D: draw the top rhomb of the stack (the start of a placing turn)."""
        seat = self._human(("turn",), "a rhomb is drawn only at the start of a turn")
        if seat is not None:
            self.submit_as(seat, {"t": "draw"})

    def do_flip(self) -> None:
        """F / wheel / right click: turn the held rhomb half round."""
        self.flip ^= 1
        if self.phase_for_human() == "place":
            self._sound("rotate")

    def set_mode(self, mode: str) -> None:
        """1 / 2 / 3: choose free drift, control drift or space jump; its destinations are ringed."""
        seat = self._human(("turn",), "the astronaut moves only at the start of a turn, instead of placing")
        if seat is None:
            return
        st = self.state
        if not self.rules.can_pay(st, seat, mode):
            what = "control" if mode == "control" else "energy"
            hint = " (E exchanges an alien counter first)" if self.rules.can_exchange(st, seat) else ""
            self.refuse(f"{PLAYER_NAMES[seat]} has no {what} counter to pay for a "
                        f"{'control drift' if mode == 'control' else 'space jump'}{hint}")
            return
        self.mode = mode
        self._sound("click")
        if not self.rules.move_targets(st, seat, mode):
            self.say(f"No destination for a {MODE_LABELS[mode].lower()} from here", self.theme.text_dim)

    def do_exchange(self) -> None:
        """E: exchange an alien counter for 1 control and 2 energy counters from the stock."""
        seat = self._human(("turn",), "an alien counter is exchanged at the start of one's turn")
        if seat is not None and self.submit_as(seat, {"t": "exchange"}):
            self.say("Alien counter exchanged: +1 control, +2 energy", self.theme.text_dim)

    def do_leave(self) -> None:
        """L: leave the other player's isolated triangles empty for good."""
        seat = self._human(("fill_other",), "only the other player, once offered, may leave triangles empty")
        if seat is not None:
            self.submit_as(seat, {"t": "leave"})

    def choose_option(self, k: int) -> None:
        """Fill the chosen isolated triangle with option ``k`` of the panel."""
        if 0 <= k < len(self.opt_actions):
            seat = self.to_act()
            self.submit_as(seat, dict(self.opt_actions[k]))

    def click_board(self, pos) -> None:
        """A left click on the board at ``pos``."""
        if self.match.is_over():
            return
        seat = self.to_act()
        if seat is None:
            return
        if self.played_elsewhere(seat):
            self.refuse(f"wait: {self.seat_name(seat)} is to play")
            return
        st = self.state
        if st.phase == "turn":
            if self.mode is None:
                node = self.node_at(pos)
                if node is not None:
                    self.refuse("choose how to move first: 1 drift, 2 control drift, 3 space jump")
                return
            targets = self.rules.move_targets(st, seat, self.mode)
            node = self.node_at(pos, prefer=targets)
            if node is None:
                return
            if node == st.at[seat]:
                self.say("Click a ringed sphere to move there", self.theme.text_dim)
                return
            self.submit_as(seat, {"t": "move", "mode": self.mode, "to": node})
        elif st.phase == "place":
            slot = self.slot_at(pos)
            if slot is not None:
                self.submit_as(seat, {"t": "place", "slot": slot, "flip": self.flip})
                return
            if self.tri_at(pos) is None:
                return
            near = self.slot_at(pos, free_only=False, reach=1.0)
            if near is None:
                self.refuse("a rhomb needs two free neighbouring space triangles")
            else:
                self.submit_as(seat, {"t": "place", "slot": near, "flip": self.flip})
        elif st.phase in ("fill", "fill_other"):
            t = self.tri_at(pos)
            if t is None:
                return
            if t in self.rules.isolated(st):
                self.fill_tri = t
                self._sound("click")
                self._refresh_buttons()
            else:
                self.refuse("that space triangle is not isolated: fill one of the glowing triangles")

    def undo_steps(self) -> int:
        """How many log entries Ctrl+Z takes back: 1 when the last action was a human's and the rules
        let it be taken back (a placement, a fill, leaving triangles empty, a move, an exchange), else 0:
        never across a rhomb draw, never once the other player has acted (rules.md "Playing here";
        specs/DESIGN.md "Undo"), never after the end. On the LAN the host's match decides."""
        m = self.match
        if self.remote:
            return super().undo_steps()
        if m.is_over() or m.cursor == 0:
            return 0
        entry = m.log[m.cursor - 1]
        p = entry["p"]
        if p < 0 or self.is_bot(p) or not self.rules.undoable(m.states[m.cursor - 1], p, entry["a"]):
            return 0
        return 1

    def undo_refusal(self) -> str:
        m = self.match
        if m.is_over():
            return super().undo_refusal()
        if m.cursor and m.log[m.cursor - 1]["p"] < 0:
            return "nothing to undo: a drawn rhomb can never be taken back"
        return "nothing to undo: only your last action, before the other player acts"

    # ------------------------------------------------------------------ match events
    def _reset_choices(self) -> None:
        """Per-position choices: the default mode (free drift) for a human's turn, the triangle to fill
        (the only one, if so)."""
        st = self.state
        ph = self.phase_for_human()
        self.mode = "drift" if ph == "turn" else None
        iso = self.rules.isolated(st) if ph in ("fill", "fill_other") else ()
        if self.fill_tri not in iso:
            self.fill_tri = iso[0] if iso else None     # offered one by one; a click picks another
        self.hover_slot = self.slot_at(self.mouse) if (ph == "place" and self.mouse) else None

    def _on_events(self, match: Match, events: list) -> None:
        self._reset_choices()
        th = self.theme
        sounds = []
        for e in events:
            kind = e.get("e")
            if kind == "move":
                self._start_glide(e)
                sounds.append("out")
            elif kind == "pickup" and self.anim is not None:
                self.anim["pickup"] = e["kind"]
            elif kind in ("place", "fill"):
                sounds.append("place")
            elif kind == "draw":
                sounds.append("click")
            elif kind == "skip":
                p = e["player"]
                self.say(f"{self.seat_name(p)} can neither place nor move: {PLAYER_NAMES[1 - p]} plays again",
                         th.accent, 4.0)
            elif kind == "bonus_phase":
                p = e["player"]
                self.say(f"{PLAYER_NAMES[p]} is home with both solar counters: {PLAYER_NAMES[1 - p]} only moves "
                         f"now, each turn a bonus point for {PLAYER_NAMES[p]}", th.accent, 6.0)
            elif kind == "no_counter":
                self.say(f"The stock has no {e['kind']} counter left for that sphere", th.text_dim, 4.0)
            elif kind == "offer_fill":
                p = e["player"]
                if not self.is_bot(p):
                    self.say(f"{PLAYER_NAMES[1 - p]} has no triangles left: {PLAYER_NAMES[p]} may fill", th.accent)
            elif kind == "end":
                sounds.append(self.end_sound(self.rules.winner(self.state)))
                self.show_result = True
            elif kind in ("undo", "redo", "seek", "truncate"):
                self.anim = None
                self.float_text = None
        if sounds:
            self._sound(sounds[-1])
        self._refresh_buttons()

    def course(self, u: str, v: str) -> list[tuple[float, float]]:
        """The drawn course (board units) of the tube from node ``u`` to node ``v``: bowed like the
        side tube of the tile it lies on, else straight."""
        b = self.state.board
        if self._courses[0] is not b:
            self._courses = (b, {})
        hit = self._courses[1].get((u, v))
        if hit is not None:
            return hit
        pu, pv = node_xy(u), node_xy(v)
        out = [pu, pv]
        found = False
        for slot, rid, flip in b.rhombs:
            corners = rhomb_corners(slot, flip)
            ids = set(corners.values())
            if u not in ids or v not in ids:
                continue
            letters = {x for x, n in corners.items() if n in (u, v)}
            if letters in ({"A", "C"}, {"B", "D"}):
                continue
            for _c, x, y in RHOMB_BY_ID[rid].tubes:
                if {x, y} == letters:
                    centre = draw.lerp(node_xy(corners["A"]), node_xy(corners["C"]), 0.5)
                    out = draw.tube_path(pu, pv, centre, True)
                    found = True
                    break
            if found:
                break
        if not found:
            for tri, _o, piece, rot in b.pieces:
                cs = TRI_CORNERS[tri]
                if piece == "arc" and {cs[(rot + 1) % 3], cs[(rot + 2) % 3]} == {u, v}:
                    pts = [node_xy(k) for k in cs]
                    centre = (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)
                    out = draw.tube_path(pu, pv, centre, True)
                    break
        if out[0] != pu:
            out = out[::-1]
        self._courses[1][(u, v)] = out
        return out

    def way(self, mode: str, path: Any) -> tuple[list, list[float]]:
        """The drawn way (board units) of a ``mode`` move along ``path`` (node ids) and its arc lengths:
        along the tubes' courses, or straight for a space jump."""
        pts = [node_xy(path[0])]
        if mode == "jump":
            pts.append(node_xy(path[-1]))
        else:
            for u, v in zip(path, path[1:]):
                pts += self.course(u, v)[1:]
        acc = [0.0]
        for a, b in zip(pts, pts[1:]):
            acc.append(acc[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
        return pts, acc

    def _start_glide(self, e: dict) -> None:
        pts, acc = self.way(e["mode"], e["path"])
        self.anim = {"player": e["player"], "pts": pts, "acc": acc, "t": 0.0, "to": e["to"], "mode": e["mode"],
                     "dur": max(0.35, min(2.2, acc[-1] / MOVE_SPEED)), "pickup": None}

    def destinations(self) -> dict[str, tuple[str, ...]]:
        """The ringed destinations of the chosen mode -> the path shown (empty unless a human is to move
        and a mode is chosen)."""
        if self.phase_for_human() != "turn" or self.mode is None:
            return {}
        return self.rules.move_targets(self.state, self.to_act(), self.mode)

    def astronaut_pos(self, p: int) -> tuple[float, float]:
        """Where astronaut ``p`` is drawn now (px): his sphere, or on his way while gliding."""
        anim = self.anim
        if anim is not None and anim["player"] == p:
            t = min(1.0, anim["t"] / anim["dur"])
            t = t * t * (3 - 2 * t)
            return self.xf.px(draw.point_at(anim["pts"], t * anim["acc"][-1], anim["acc"]))
        return self.node_pos(self.state.at[p])

    def animating(self) -> bool:
        return self.anim is not None

    def board_busy(self) -> bool:
        """Redraw policy: the floating points, the pulsing hint, and the pulsing triangles to fill or
        move destinations of a human's turn move (a gliding astronaut is :meth:`animating`)."""
        if self.float_text is not None or self.hint_spot() is not None:
            return True
        ph = self.phase_for_human()
        if ph in ("fill", "fill_other"):
            return True
        targets = self.destinations() if ph == "turn" and self.mode is not None and self.anim is None else {}
        if targets:
            pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)     # the rings' radii, whole px as drawn
            kinds = {0.3 if n in MODULE_BY_NAME else 0.26 for n in targets}
            return self.looks_changed("rings", tuple(sorted(int(self.s * k + 2 * pulse) for k in kinds)))
        return False

    def gliding(self) -> bool:
        """Whether an astronaut is on his way along a drift path (shown, not yet arrived)."""
        return self.anim is not None

    # ------------------------------------------------------------------ input
    def handle_input(self, event: Any) -> bool:
        et = event.type
        if self.buttons_take(event):
            return True
        if et == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.hover_option = next((k for k, b in enumerate(self.opt_buttons) if b.hover and
                                      b in self.active_buttons()), None)
            self.hover_slot = self.slot_at(event.pos) if self.phase_for_human() == "place" else None
            return True
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if et == pygame.MOUSEBUTTONUP:
                return True
            self.mouse = event.pos
            if event.button == 3:
                if self.phase_for_human() == "place":
                    self.do_flip()
                return True
            if event.button != 1:
                return True
            if self.match.is_over() and self.show_result:
                return True
            if BOARD.collidepoint(event.pos):
                if self.phase_for_human() == "place":
                    self.hover_slot = self.slot_at(event.pos)
                self.click_board(event.pos)
            self._refresh_buttons()
            return True
        if et == pygame.MOUSEWHEEL:
            steps = self.wheel.feed(event)
            if steps and self.phase_for_human() == "place":
                for _ in range(abs(steps) % 2):
                    self.do_flip()
            return True
        if et == pygame.KEYDOWN:
            consumed = self._key(event)
            self._refresh_buttons()
            return consumed
        return False

    def _key(self, event: Any) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        ph = self.phase_for_human()
        digits = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3, pygame.K_5: 4,
                  pygame.K_KP1: 0, pygame.K_KP2: 1, pygame.K_KP3: 2, pygame.K_KP4: 3, pygame.K_KP5: 4}
        if k == pygame.K_ESCAPE:
            return False   # the app: back to the launcher (the match stays autosaved)
        if k == pygame.K_d:
            self.do_draw()
        elif k == pygame.K_f:
            self.do_flip()
        elif k == pygame.K_e:
            self.do_exchange()
        elif k == pygame.K_l:
            self.do_leave()
        elif k == pygame.K_v:
            self.do_toggle_result()
        elif k in digits:
            i = digits[k]
            if ph in ("fill", "fill_other"):
                if self.fill_tri is None:
                    self.refuse("click a glowing triangle first")
                elif i < len(self.opt_actions):
                    self.choose_option(i)
            elif i < 3:
                self.set_mode(("drift", "control", "jump")[i])
            else:
                return False
        else:
            return False
        return True

    # ------------------------------------------------------------------ update
    def animate(self, dt: float) -> None:
        if self.anim is not None:
            self.anim["t"] += dt
            if self.anim["t"] >= self.anim["dur"]:
                a = self.anim
                self.anim = None
                if a["pickup"]:
                    pts = {"energy": POINTS["energy"], "control": POINTS["control"], "alien": POINTS["alien"],
                           "solar": POINTS["solar"]}[a["pickup"]]
                    self.float_text = (f"+{pts} {a['pickup']}", node_xy(a["to"]),
                                       draw.COUNTER_RGB.get(a["pickup"], draw.PLAYER_RGB[a["player"]]),
                                       self.clock + 1.2)
                    self._sound("hint")
        if self.float_text is not None and self.clock >= self.float_text[3]:
            self.float_text = None

    # ------------------------------------------------------------------ drawing helpers
    def _pill(self, surface, text, centre, colour, fg=None, size=17, **kw) -> pygame.Rect:
        return self.kit.pill(surface, text, centre, colour, fg, size, max_width=BOARD.w - 30)

    def _icon(self, kind: str, size: int, owner: int | None = None) -> pygame.Surface:
        key = (kind, size, owner)
        img = self._icons.get(key)
        if img is None:
            font = self.app.font(int(size * 4 * 0.5), True) if kind in ("tom", "dave") else None
            img = self._icons[key] = draw.icon(kind, size, owner, font)
        return img

    def _blit_icon(self, surface, kind, size, centre, owner=None, alpha=255) -> None:
        if alpha < 255:
            key = (kind, size, owner, alpha)
            img = self._icons.get(key)
            if img is None:
                img = self._icons[key] = self._icon(kind, size, owner).copy()
                img.set_alpha(alpha)
        else:
            img = self._icon(kind, size, owner)
        surface.blit(img, img.get_rect(center=(round(centre[0]), round(centre[1]))))

    # ------------------------------------------------------------------ the board picture
    def _board_layer(self) -> pygame.Surface:
        """The board with every tile, tube and sphere of the current position (cached per board and
        palette): painted ``SS`` times larger and scaled down."""
        b = self.state.board
        name = self.theme.name
        layers = self._board_layers          # the last few boards shown (undo and redo go back to them)
        for i, (kb, kname, surf) in enumerate(layers):
            if kb is b and kname == name:
                layers.append(layers.pop(i))
                if self._shown_board is b and self._big_board is not None and self._big_board is not b:
                    self._follow_big(b)
                self._shown_board = b
                return surf
        self._shown_board = b
        if self._space_cache is None or self._space_cache[0] != name:
            space = pygame.Surface((BOARD.w * SS, BOARD.h * SS))
            space.fill(self.theme.bg)
            self.paint_space(space, self.xf.times(SS))
            self._space_cache = (name, space)
            self._big = pygame.Surface(space.get_size())
            self._big_board = None
            # the pictures of the next boards, made now with the first (a new 880x800 surface costs
            # more than painting what a placement changes)
            self._spare_layers = [pygame.Surface(BOARD.size) for _ in range(2)]
        space, big, xf = self._space_cache[1], self._big, self.xf.times(SS)
        # the big picture holds the board painted last: only the part where the boards differ is
        # painted again (everything reaching into it, in the usual order) and scaled down
        dirty = self.board_difference(self._big_board, b, xf) if self._big_board is not None else None
        source = next((e for e in layers if e[0] is self._big_board and e[1] == name), None)
        if len(layers) >= 3:
            surf = layers.pop(0)[2]
        else:
            surf = self._spare_layers.pop() if self._spare_layers else pygame.Surface(BOARD.size)
        if dirty is None or source is None:
            big.blit(space, (0, 0))
            self.paint_board(big, xf, b)
            pygame.transform.smoothscale(big, BOARD.size, surf)
        else:
            if source[2] is not surf:
                surf.blit(source[2], (0, 0))
            for rect in dirty:
                big.set_clip(rect)
                big.blit(space, rect.topleft, rect)
                self.paint_board(big, xf, b, rect)
                big.set_clip(None)
                small = pygame.Rect(rect.x // SS, rect.y // SS, rect.w // SS, rect.h // SS)
                surf.blit(pygame.transform.smoothscale(big.subsurface(rect), small.size), small)
        self._big_board = b
        layers.append((b, name, surf))
        return surf

    def _follow_big(self, b) -> None:
        """Bring the big picture to board ``b``, whose small picture was kept (taken back to): done on
        the second frame showing it, so that the next action repaints only what it changes."""
        space, big, xf = self._space_cache[1], self._big, self.xf.times(SS)
        for rect in self.board_difference(self._big_board, b, xf):
            big.set_clip(rect)
            big.blit(space, rect.topleft, rect)
            self.paint_board(big, xf, b, rect)
            big.set_clip(None)
        self._big_board = b

    def board_difference(self, old, new, xf: draw.Xform) -> list[pygame.Rect]:
        """The parts of the big board picture (px at ``xf``, aligned to ``SS``, not overlapping) that
        differ between boards ``old`` and ``new``: around every tile, triangle and sphere one has and
        the other not (none when they look the same)."""
        P = self._node_px(xf)
        groups = []
        for slot, _rid, flip in set(old.rhombs) ^ set(new.rhombs):
            groups.append([P(k) for k in rhomb_corners(slot, flip).values()])
        for tri in ({t[0] for t in set(old.pieces) ^ set(new.pieces)} | (set(old.abandoned) ^ set(new.abandoned))
                    | (set(old.covered) ^ set(new.covered))):
            groups.append([P(k) for k in TRI_CORNERS[tri]])
        groups += [[P(k)] for k in set(old.complete) ^ set(new.complete)]
        m = self.paint_margin(xf)
        rects: list[pygame.Rect] = []
        for pts in groups:
            x0 = max(0, math.floor((min(p[0] for p in pts) - m) / SS) * SS)
            y0 = max(0, math.floor((min(p[1] for p in pts) - m) / SS) * SS)
            x1 = min(BOARD.w * SS, math.ceil((max(p[0] for p in pts) + m) / SS) * SS)
            y1 = min(BOARD.h * SS, math.ceil((max(p[1] for p in pts) + m) / SS) * SS)
            if x1 > x0 and y1 > y0:
                rects.append(pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        return unite_rects(rects)

    def _node_px(self, xf: draw.Xform):
        """``node -> xf.px(node_xy(node))``, remembered per transform."""
        key = (xf.scale, xf.ox, xf.oy)
        memo = self._node_memo.get(key)
        if memo is None:
            memo = self._node_memo[key] = {}

        def P(n):
            v = memo.get(n)
            if v is None:
                v = memo[n] = xf.px(node_xy(n))
            return v
        return P

    @staticmethod
    def paint_margin(xf: draw.Xform) -> float:
        """How far (px at ``xf``) a tile's, triangle's or sphere's paint may reach beyond its corners
        (sphere and rim, tube ends, outlines), with room to spare."""
        return (draw.SPHERE_R * 1.5 + draw.TUBE_W) * xf.scale + 6

    def paint_space(self, surf: pygame.Surface, xf: draw.Xform) -> None:
        """What never changes: space with its stars, the space edges, the modules and printed tubes."""
        e = xf.scale
        P = lambda n: xf.px(node_xy(n))   # noqa: E731
        # space: the hexagon and a few stars
        rim = [P(k) for k in ("-1,-3", "4,-3", "4,0", "1,3", "-4,3", "-4,0")]
        pygame.draw.polygon(surf, draw.SPACE, rim)
        rng = random.Random(7)
        for _ in range(140):
            t = rng.randrange(len(TRI_CORNERS))
            a, bb, c = (P(k) for k in TRI_CORNERS[t])
            u, v = rng.random(), rng.random()
            if u + v > 1:
                u, v = 1 - u, 1 - v
            p = (a[0] + (bb[0] - a[0]) * u + (c[0] - a[0]) * v, a[1] + (bb[1] - a[1]) * u + (c[1] - a[1]) * v)
            pygame.draw.circle(surf, mix(draw.SPACE, (220, 225, 255), rng.uniform(0.2, 0.6)), p,
                               max(1, e * rng.uniform(0.006, 0.014)))
        lw = max(1, round(e / 40))
        for cs in TRI_CORNERS:
            pts = [P(k) for k in cs]
            pygame.draw.polygon(surf, draw.SPACE_EDGE, pts, lw)
        pygame.draw.polygon(surf, mix(draw.SPACE_EDGE, (200, 205, 220), 0.3), rim, lw * 2)
        # modules and their printed tubes
        for m in MODULES:
            self._paint_module(surf, xf, m)

    def paint_board(self, surf: pygame.Surface, xf: draw.Xform, board, clip: pygame.Rect | None = None) -> None:
        """Over :meth:`paint_space`: abandoned triangles, every tile, the sphere sectors and the complete
        spheres of ``board`` onto ``surf`` through ``xf``; with ``clip`` (px, ``surf``'s clip) only
        what reaches into it (within :meth:`paint_margin` of its corners), in the same order. Each
        part's drawing is worked out once per transform (:meth:`_board_parts`) and replayed."""
        for x0, x1, y0, y1, rec in self._board_parts(xf, board):
            if clip is None or (x0 < clip.right and x1 > clip.x and y0 < clip.bottom and y1 > clip.y):
                rec.replay(surf, clip)

    def _board_parts(self, xf: draw.Xform, board) -> list[tuple[float, float, float, float, draw.Recording]]:
        """``board``'s parts in painting order, each as (left, right, top, bottom, drawing): how far
        its paint may reach (its corners widened by :meth:`paint_margin`, px at ``xf``) and its
        :class:`draw.Recording`; every part is recorded once per transform and kept."""
        key = (xf.scale, xf.ox, xf.oy)
        if self._parts_xf != key:
            self._parts_xf, self._parts = key, {}
        last = self._parts_of
        if last is not None and last[0] is board and last[1] == key:
            return last[2]
        memo = self._parts
        e = xf.scale
        P = self._node_px(xf)
        m = self.paint_margin(xf)
        out = []

        def part(k, pts, paint):
            """The part ``k`` (corners ``pts()``, painted by ``paint(recording)``) in its turn."""
            hit = memo.get(k)
            if hit is None:
                rec = draw.Recording()
                paint(rec)
                corners = pts()
                xs = [p[0] for p in corners]
                ys = [p[1] for p in corners]
                hit = memo[k] = (min(xs) - m, max(xs) + m, min(ys) - m, max(ys) + m, rec)
            out.append(hit)
        lw = max(1, round(e / 40))
        # abandoned triangles: hatched, empty for good
        for t in board.abandoned:
            def hatch(rec, t=t):
                a, b, c = (P(k) for k in TRI_CORNERS[t])
                draw.pen(rec).polygon(rec, mix(draw.SPACE, draw.ABANDONED, 0.3), [a, b, c])
                for i in range(1, 6):
                    f = i / 6
                    draw.pen(rec).line(rec, draw.ABANDONED, draw.lerp(a, b, f), draw.lerp(a, c, f), lw * 2)
            part(("abandoned", t), lambda t=t: [P(k) for k in TRI_CORNERS[t]], hatch)
        # tiles: plates and tubes, then sphere sectors over every tile corner
        complete = board.complete
        for slot, rid, flip in board.rhombs:
            def tile(rec, slot=slot, rid=rid, flip=flip):
                px = {k: P(v) for k, v in rhomb_corners(slot, flip).items()}
                draw.rhomb_plate(rec, px, e)
                draw.rhomb_tubes(rec, px, rid, e)
            part(("rhomb", slot, rid, flip), lambda slot=slot, flip=flip: [P(v) for v in rhomb_corners(slot, flip).values()],
                 tile)
        for tri, owner, piece, rot in board.pieces:
            def triangle(rec, tri=tri, owner=owner, piece=piece, rot=rot):
                pts = [P(k) for k in TRI_CORNERS[tri]]
                draw.piece_plate(rec, pts, owner, e)
                draw.piece_tubes(rec, pts, owner, piece, rot, e)
            part(("piece", tri, owner, piece, rot), lambda tri=tri: [P(k) for k in TRI_CORNERS[tri]], triangle)

        def col(k: str):
            if k in complete:
                return None
            return draw.SPHERE_DEAD if k in DEAD else draw.SPHERE
        r = draw.SPHERE_R * e
        for t in board.covered:
            cs = TRI_CORNERS[t]
            cols = (col(cs[0]), col(cs[1]), col(cs[2]))

            def sectors(rec, cs=cs, cols=cols):
                pts = [P(k) for k in cs]
                for i in range(3):
                    if cols[i] is not None:
                        draw.sector(rec, pts[i], pts[(i + 1) % 3], pts[(i + 2) % 3], r, cols[i])
            part(("sectors", t, cols), lambda cs=cs: [P(k) for k in cs], sectors)
        for k in complete:
            if k[0] == "c" or k in MODULE_BY_NAME:
                continue
            part(("sphere", k), lambda k=k: [P(k)], lambda rec, k=k: draw.sphere(rec, P(k), r))
        self._parts_of = (board, key, out)
        return out

    def _paint_module(self, surf, xf: draw.Xform, m) -> None:
        e = xf.scale
        rgb = draw.PLAYER_RGB[m.owner]
        c = xf.px(node_xy(m.name))
        ports = [xf.px(node_xy(f"{q},{r}")) for q, r in m.ports]
        tri = [c, *ports]
        pygame.draw.polygon(surf, mix(draw.SPACE, rgb, 0.22), tri)
        for p in ports:
            draw.tube(surf, [c, p], "PRINTED", e, ends=(False, True))
        rad = e * (0.36 if m.kind == "base" else 0.3)
        if m.kind == "solar":   # solar panel wings
            for sgn in (-1, 1):
                wing = pygame.Rect(0, 0, e * 0.34, e * 0.2)
                wing.center = (c[0] + sgn * (rad + e * 0.15), c[1])
                pygame.draw.rect(surf, draw.OUTLINE, wing.inflate(e * 0.04, e * 0.04))
                pygame.draw.rect(surf, (46, 70, 130), wing)
                for k in range(1, 3):
                    x = wing.x + wing.w * k / 3
                    pygame.draw.line(surf, (120, 150, 210), (x, wing.y), (x, wing.bottom), max(1, round(e / 60)))
                pygame.draw.line(surf, (120, 150, 210), (wing.x, wing.centery), (wing.right, wing.centery),
                                 max(1, round(e / 60)))
        pygame.draw.circle(surf, draw.OUTLINE, c, rad + e * 0.03)
        pygame.draw.circle(surf, mix(rgb, (0, 0, 0), 0.35), c, rad)
        pygame.draw.circle(surf, rgb, c, rad, max(2, round(e * 0.05)))
        if m.kind == "base":
            pygame.draw.circle(surf, mix(rgb, (0, 0, 0), 0.15), c, rad * 0.55, max(1, round(e * 0.025)))

    def _glow_layer(self) -> pygame.Surface:
        """The glowing free slots while a rhomb is held (cached per board)."""
        b = self.state.board
        if self._glow_cache is not None and self._glow_cache[0] is b:
            return self._glow_cache[1]
        surf = pygame.Surface(BOARD.size, pygame.SRCALPHA)
        acc = draw.LEGAL
        for sl in b.free_slots():
            e1, e2 = SLOTS[sl][0]
            p, q = self.node_pos(e1), self.node_pos(e2)
            a, c = draw.lerp(p, q, 0.22), draw.lerp(p, q, 0.78)
            draw.glow_line(surf, a, c, acc, self.s * 0.12, 45)
            draw.glow_line(surf, a, c, acc, self.s * 0.04, 140)
        self._glow_cache = (b, surf)
        return surf

    def _ghost(self, rid: str, flip: int, slot: int | None, alpha: int = 255) -> tuple[pygame.Surface, tuple[int, int]]:
        """The held rhomb as a picture (at ``alpha``) and its top-left: on ``slot`` (its real corners),
        or loose (its own picture, long diagonal level) at the origin."""
        key = (rid, flip, slot, round(self.s, 3), alpha)
        hit = self._ghosts.get(key)
        if hit is not None:
            return hit
        if alpha < 255:
            img, tl = self._ghost(rid, flip, slot)
            img = img.copy()
            img.set_alpha(alpha)
            if len(self._ghosts) > 128:
                self._ghosts.clear()
            self._ghosts[key] = (img, tl)
            return img, tl
        e = self.s
        if slot is None:
            corners = draw.canonical_rhomb((0.0, 0.0), e, flip)
        else:
            corners = {k: self.node_pos(v) for k, v in rhomb_corners(slot, flip).items()}
        xs = [p[0] for p in corners.values()]
        ys = [p[1] for p in corners.values()]
        x0, y0 = math.floor(min(xs) - e * 0.25), math.floor(min(ys) - e * 0.25)
        w, h = math.ceil(max(xs) + e * 0.25) - x0, math.ceil(max(ys) + e * 0.25) - y0

        def paint(big, k):
            local = {n: ((p[0] - x0) * k, (p[1] - y0) * k) for n, p in corners.items()}
            draw.whole_rhomb(big, local, rid, e * k)
        img = draw.supersampled((w, h), paint)
        if len(self._ghosts) > 128:
            self._ghosts.clear()
        self._ghosts[key] = (img, (x0, y0))
        return img, (x0, y0)

    def _thumb(self, kind: str, payload: tuple, size: int) -> pygame.Surface:
        """A ``size`` px picture: a rhomb (``payload`` = (id, flip)) or a triangle piece (``payload`` =
        (tri, owner, piece, rot), drawn in that triangle's orientation)."""
        key = (kind, payload, size)
        img = self._thumbs.get(key)
        if img is not None:
            return img
        if kind == "rhomb":
            rid, flip = payload
            e = size / 2.2   # the long diagonal is sqrt 3 edges; room for the corner spheres

            def paint(big, k):
                draw.whole_rhomb(big, draw.canonical_rhomb((size * k / 2, e * 0.75 * k), e * k, flip), rid, e * k)
            img = draw.supersampled((size, int(e * 1.5)), paint)
        else:
            tri, owner, piece, rot = payload
            raw = [node_xy(k) for k in TRI_CORNERS[tri]]
            cx = sum(p[0] for p in raw) / 3
            cy = sum(p[1] for p in raw) / 3
            e = size * 0.8

            def paint(big, k):
                pts = [(size * k / 2 + (p[0] - cx) * e * k, size * k / 2 + (p[1] - cy) * e * k) for p in raw]
                draw.whole_piece(big, pts, owner, piece, rot, e * k)
            img = draw.supersampled((size, size), paint)
        if len(self._thumbs) > 200:
            self._thumbs.clear()
        self._thumbs[key] = img
        return img

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._board_layer(), BOARD.topleft)
        self._draw_marks(surface)
        spot = self.hint_spot()
        if spot is not None:
            pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
            pygame.draw.circle(surface, mix(self.theme.accent, (255, 255, 255), pulse), spot, 22, 4)
        self._draw_pieces(surface)
        self._draw_held(surface)
        self._draw_status(surface)
        self._draw_panel(surface)
        if self.match.is_over():
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)

    def last_mark(self) -> tuple | None:
        """The latest placement or astronaut move up to the match cursor, for the last-move marker:
        ``("place", player, slot)`` or ``("move", player, mode, path)`` (node ids, start first); the
        last rhomb placed where the log is not at hand; None before any."""
        st = self.state
        if self._mark_memo[0] is st:
            return self._mark_memo[1]
        m = self.match
        n = m.cursor
        out = None
        if len(m.log) >= n and len(m.states) > n:
            for i in range(n - 1, max(-1, n - 24), -1):
                p, a = m.log[i]["p"], m.log[i]["a"]
                if a.get("t") == "place":
                    out = ("place", p, a["slot"])
                    break
                if a.get("t") == "move":
                    path = self.rules.move_targets(m.states[i], p, a["mode"]).get(a["to"])
                    out = ("move", p, a["mode"], tuple(path)) if path else None
                    break
        elif st.last_slot is not None:
            out = ("place", None, st.last_slot)
        self._mark_memo = (st, out)
        return out

    def _draw_last(self, surface) -> None:
        """The last-move marker: the rhomb placed outlined, or the astronaut's way traced from a ring
        where he stood (not while he glides along it)."""
        mark = self.last_mark()
        if mark is None:
            return
        th = self.theme
        if mark[0] == "place":
            got = self.state.board.rhomb_at(mark[2])
            if got is None:
                return
            corners = rhomb_corners(mark[2], got[1])
            pts = [self.node_pos(corners[k]) for k in "ABCD"]
            pygame.draw.lines(surface, draw.TILE, True, pts, 6)
            pygame.draw.lines(surface, th.accent, True, pts, 3)
            return
        _kind, p, mode, path = mark
        if self.anim is not None and self.anim["player"] == p:
            return
        pts, acc = self.way(mode, path)
        k = max(1, round(acc[-1] / 0.3))     # a dot every 0.3 edge or so
        dot = max(3, round(self.s * 0.055))
        for i in range(1, k):            # a dotted trace: white dots ringed dark, on any tube colour
            c = self.xf.px(draw.point_at(pts, acc[-1] * i / k, acc))
            pygame.draw.circle(surface, draw.TILE, c, dot + 2)
            pygame.draw.circle(surface, th.highlight, c, dot)
        start = self.xf.px(pts[0])
        r = max(6, round(self.s * 0.2))   # where he stood
        pygame.draw.circle(surface, draw.TILE, start, r + 2, 6)
        pygame.draw.circle(surface, th.highlight, start, r, 2)

    def _draw_marks(self, surface) -> None:
        """The last move, the slots that glow, the isolated triangles, the move destinations."""
        st = self.state
        th = self.theme
        self._draw_last(surface)
        ph = self.phase_for_human()
        pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
        if ph == "place":
            surface.blit(self._glow_layer(), BOARD.topleft)
        elif ph in ("fill", "fill_other"):
            iso = self.rules.isolated(st)
            tris = [(t, [self.node_pos(k) for k in TRI_CORNERS[t]]) for t in iso]
            if tris:     # a shade over the triangles only, as large as they are
                x0 = math.floor(min(p[0] for _t, pts in tris for p in pts)) - 2
                y0 = math.floor(min(p[1] for _t, pts in tris for p in pts)) - 2
                x1 = math.ceil(max(p[0] for _t, pts in tris for p in pts)) + 2
                y1 = math.ceil(max(p[1] for _t, pts in tris for p in pts)) + 2
                shade = pygame.Surface((x1 - x0, y1 - y0), pygame.SRCALPHA)
                for t, pts in tris:
                    pygame.draw.polygon(shade, (*draw.LEGAL, 70 if t == self.fill_tri else int(30 + 40 * pulse)),
                                        [(x - x0, y - y0) for x, y in pts])
                surface.blit(shade, (BOARD.x + x0, BOARD.y + y0))
            for t in iso:
                pts = [self.node_pos(k) for k in TRI_CORNERS[t]]
                chosen = t == self.fill_tri
                pygame.draw.polygon(surface, th.highlight if chosen else draw.LEGAL, pts, 3 if chosen else 2)
            k = self.hover_option
            if self.fill_tri is not None and k is not None and k < len(self.opt_actions):
                a = self.opt_actions[k]
                pts = [self.node_pos(c) for c in TRI_CORNERS[a["tri"]]]
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                x0, y0 = math.floor(min(xs) - 4), math.floor(min(ys) - 4)
                w, h = math.ceil(max(xs) + 4) - x0, math.ceil(max(ys) + 4) - y0
                seat = self.to_act()

                def paint(big, zoom):
                    draw.whole_piece(big, [((p[0] - x0) * zoom, (p[1] - y0) * zoom) for p in pts], seat,
                                     a["piece"], a["rot"], self.s * zoom)
                img = draw.supersampled((w, h), paint)
                img.set_alpha(215)
                surface.blit(img, (x0, y0))
        elif ph == "turn" and self.mode is not None and self.anim is None:
            targets = self.destinations()
            hover = self.node_at(self.mouse, prefer=targets) if self.mouse else None
            if hover in targets:
                pts = [self.node_pos(n) for n in targets[hover]]
                draw.dashed_path(surface, pts, th.highlight, 3, self.s * 0.12)
            for n in targets:
                c = self.node_pos(n)
                r = self.s * (0.3 if n in MODULE_BY_NAME else 0.26)
                col = th.highlight if n == hover else draw.LEGAL
                pygame.draw.circle(surface, col, c, r + 2 * pulse, 3)

    def _draw_pieces(self, surface) -> None:
        """Counters on the board and on the solar modules, both astronauts (one may be gliding)."""
        st = self.state
        size = max(12, round(self.s * 0.27))
        anim = self.anim
        for n, kind in st.counters.items():
            self._blit_icon(surface, kind, size, self.node_pos(n))
        if anim is not None and anim["pickup"] in ("energy", "control", "alien"):
            self._blit_icon(surface, anim["pickup"], size, self.node_pos(anim["to"]))
        for m in st.solar_left:
            self._blit_icon(surface, "solar", round(size * 1.25), self.node_pos(m), MODULE_BY_NAME[m].owner)
        if anim is not None and anim["pickup"] == "solar":
            self._blit_icon(surface, "solar", round(size * 1.25), self.node_pos(anim["to"]), anim["player"])
        # the astronauts
        asize = max(18, round(self.s * 0.46))
        for p in (0, 1):
            self._blit_icon(surface, ("tom", "dave")[p], asize, self.astronaut_pos(p))
        if self.float_text is not None:
            text, at, colour, until = self.float_text
            left = max(0.0, until - self.clock)
            x, y = self.xf.px(at)
            img = self._text(text, 16, mix(colour, (255, 255, 255), 0.3), True)
            surface.blit(img, img.get_rect(midbottom=(x, y - self.s * 0.3 - (1.2 - left) * 24)))

    def _draw_held(self, surface) -> None:
        """The drawn rhomb under the pointer: on the slot it snaps to, else loose under the pointer."""
        if self.phase_for_human() != "place" or self.mouse is None or self.state.drawn is None:
            return
        rid = self.state.drawn
        if self.hover_slot is not None:
            img, tl = self._ghost(rid, self.flip, self.hover_slot, 225)
            surface.blit(img, tl)
            corners = rhomb_corners(self.hover_slot, self.flip)
            pygame.draw.lines(surface, draw.LEGAL, True, [self.node_pos(corners[k]) for k in "ABCD"], 2)
        elif BOARD.collidepoint(self.mouse):
            img, (x0, y0) = self._ghost(rid, self.flip, None, 150)
            surface.blit(img, (self.mouse[0] + x0, self.mouse[1] + y0))

    def status_text(self) -> str:
        """The line over the board: whose turn and what to do."""
        st = self.state
        if self.match.is_over():
            return self.result_line()
        seat = self.to_act()
        if seat is None:
            return ""
        name = self.seat_name(seat)
        if self.played_elsewhere(seat):
            what = {"place": "places the rhomb", "fill": "fills isolated triangles",
                    "fill_other": "may fill isolated triangles"}.get(st.phase, "is thinking")
            return f"{name} {what}…"
        who = "Your" if self.is_you(seat) else f"{PLAYER_NAMES[seat]}'s"
        if st.phase == "turn":
            if self.mode is not None:
                verb = {"drift": "drift", "control": "drift (control)", "jump": "jump"}[self.mode]
                return f"{who} turn: click a ringed sphere to {verb} there, or D to draw a rhomb"
            return f"{who} turn: D draws a rhomb; 1, 2, 3 choose how to move"
        if st.phase == "place":
            return f"{who} rhomb: click a glowing slot; F or the wheel turns it round"
        if st.phase == "fill":
            return f"{who} isolated triangles: pick a triangle for the white one (1-5); a click picks another"
        if st.phase == "fill_other":
            return (f"{PLAYER_NAMES[1 - seat]} has no triangles left: {PLAYER_NAMES[seat]} may fill them (1-5) "
                    f"or leave them empty (L)")
        return ""

    def end_reason(self) -> str:
        st = self.state
        out = self.rules.outcome(st)
        end = out["end"] or ""
        fast = st.bonus_for
        lost = [PLAYER_NAMES[p] for p in (0, 1) if st.stranded[p]]
        return ENDED.get(end, "").format(
            fast=PLAYER_NAMES[fast] if fast is not None else "",
            slow=PLAYER_NAMES[1 - fast] if fast is not None else "",
            n=st.bonus_turns, s="" if st.bonus_turns == 1 else "s", lost=" and ".join(lost) or "an astronaut")

    def result_line(self) -> str:
        out = self.rules.outcome(self.state)
        a, b = out["scores"]
        w = out["winner"]
        if w is None:
            return f"Game over: a draw, {a}–{b}"
        line = f"Game over: {self.seat_name(w)} wins {out['scores'][w]}–{out['scores'][1 - w]}"
        if a == b and not any(out["stranded"]):
            line += ", home first"           # A17: a tie goes to the astronaut who came home first
        return line

    def _draw_status(self, surface) -> None:
        th = self.theme
        self.draw_notices(surface)       # the status, the note, the message and the bot's error
        info = self.hover_info()
        if info:
            self._blit_text(surface, info, 14, th.text_dim, bottomleft=(14, BOARD.bottom - 8))

    def hover_info(self) -> str:
        """A line about the sphere or module under the pointer."""
        if self.mouse is None or not BOARD.collidepoint(self.mouse):
            return ""
        n = self.node_at(self.mouse)
        if n is None:
            return ""
        b = self.state.board
        m = MODULE_BY_NAME.get(n)
        if m is not None:
            what = "base" if m.kind == "base" else "solar module"
            extra = " (solar counter waiting)" if n in self.state.solar_left else ""
            return f"{PLAYER_NAMES[m.owner]}'s {what}{extra}: only {PLAYER_NAMES[m.owner]} may enter"
        if n[0] == "c":
            return "Energy sphere (complete)"
        ends = b.tube_ends(n)
        tubes = f"{ends} tube end{'s' if ends != 1 else ''}"
        if n in PORTS:
            return f"Port of {PLAYER_NAMES[MODULE_BY_NAME[PORTS[n]].owner]}'s {PORTS[n].split('_')[1].lower()} " \
                   f"module: complete, {tubes}"
        if n in DEAD:
            return "Rim knot: never a complete sphere"
        if n in b.complete:
            return f"Complete sphere, {tubes}"
        free = b.free_around(n)
        return f"Sphere not complete yet: {free} free space triangle{'s' if free != 1 else ''} around"

    # ------------------------------------------------------------------ panel
    def _draw_panel(self, surface) -> None:
        th = self.theme
        st = self.state
        surface.fill(th.panel, PANEL)
        pygame.draw.line(surface, th.panel_edge, PANEL.topleft, PANEL.bottomleft)
        self._blit_text(surface, "Tom Tube", 24, th.text, True, topleft=(PX, 14))
        cfg = self.match.config
        bits = []
        if cfg["extra_energy"][0] or cfg["extra_energy"][1]:
            bits += [f"{PLAYER_NAMES[p]} +{cfg['extra_energy'][p]} energy" for p in (0, 1) if cfg["extra_energy"][p]]
        bits.append("aliens on" if cfg["alien_control"] else "no control or alien counters")
        self._blit_text(surface, "  ·  ".join(bits), 13, th.text_dim, topleft=(PX, 46))
        for p in (0, 1):
            self._draw_player(surface, p)
        self._draw_table(surface)
        self._draw_actions(surface)
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        keys = ["D draw · F turn · 1 2 3 move · E exchange", "Ctrl+Z / Y undo, redo · H hint · F1 rules · Esc menu"]
        for i, k in enumerate(keys):
            self._blit_text(surface, k, 13, th.text_dim, midtop=(PANEL.centerx, 746 + i * 19))
        _ = st

    def _draw_player(self, surface, p: int) -> None:
        th = self.theme
        st = self.state
        card = PLAYER_CARDS[p]
        over = self.match.is_over()
        acting = self.to_act() == p and not over
        self._card(surface, card, active=acting)
        self._blit_icon(surface, ("tom", "dave")[p], 40, (card.x + 30, card.y + 32))
        thinking = acting and self.is_bot(p) and not (self.anim is not None and self.anim["player"] == p)
        self.kit.seat_name(surface, self.seat_name(p), (card.x + 58, card.y + 10),
                           spin=self.clock if thinking and not st.stranded[p] else None)
        home = st.at[p] == BASES[p]
        if st.stranded[p]:
            sub = "lost in space"
        elif self.anim is not None and self.anim["player"] == p:
            sub = {"drift": "drifting", "control": "drifting (control)", "jump": "jumping"}[self.anim["mode"]] + "…"
        elif acting and self.is_bot(p):
            sub = self.thinking_text()
        elif acting:
            sub = "to play" if st.phase != "fill_other" else "may fill the other's triangles"
        else:
            sub = "at home" if home else "out in space"
        if st.bonus_for == p and not acting:
            sub = "home with both solar counters"
        self._blit_text(surface, sub, 13, th.accent if acting else th.text_dim, topleft=(card.x + 58, card.y + 33))
        bd = self.rules.breakdown(st, p)
        self._blit_text(surface, str(bd["total"]), 30, th.text, True, topright=(card.right - 14, card.y + 4))
        self._blit_text(surface, "points", 12, th.text_dim, topright=(card.right - 14, card.y + 40))
        # the base's supply and the solar progress
        y = card.y + 74
        x = card.x + 18
        e, c, a, so = st.supply[p]
        for kind, n in (("energy", e), ("control", c), ("alien", a)):
            self._blit_icon(surface, kind, 20, (x + 10, y))
            self._blit_text(surface, f"×{n}", 16, th.text if n else th.text_dim, True, midleft=(x + 24, y))
            x += 62
        x += 6
        self._blit_text(surface, "solar", 13, th.text_dim, midleft=(x, y))
        x += 42
        for k in range(SOLAR_PER_PLAYER):
            self._blit_icon(surface, "solar", 22, (x + 12 + k * 26, y), p, 255 if k < so else 60)
        self._blit_text(surface, f"{so}/{SOLAR_PER_PLAYER}", 14, th.text, True, midleft=(x + 60, y))
        # triangles in hand
        hand = st.hands[p]
        text = "Triangles: " + " · ".join(f"{PIECE_NAMES[pc]} {hand[i]}" for i, pc in enumerate(TRIANGLE_PIECES))
        self._blit_text(surface, text, 13, th.text_dim, topleft=(card.x + 18, card.y + 96))

    def _draw_table(self, surface) -> None:
        th = self.theme
        st = self.state
        card = TABLE_CARD
        self._card(surface, card)
        y = card.y + 20
        x = card.x + 14
        self._blit_text(surface, "Stock", 13, th.text_dim, True, midleft=(x, y))
        x += 48
        for kind, n in zip(("energy", "control", "alien"), st.stock):
            self._blit_icon(surface, kind, 18, (x + 9, y))
            self._blit_text(surface, str(n), 15, th.text, True, midleft=(x + 22, y))
            x += 50
        self._blit_text(surface, f"Stack: {len(st.stack)} rhomb{'s' if len(st.stack) != 1 else ''}", 15, th.text,
                        True, midright=(card.right - 14, y))
        y2 = card.y + 48
        if st.bonus_for is not None and not (self.match.is_over() and st.end != "bonus"):
            fast, slow = st.bonus_for, 1 - st.bonus_for
            n = st.bonus_turns
            text = f"Bonus phase: {PLAYER_NAMES[slow]}'s turns {n} · +{n} for {PLAYER_NAMES[fast]}"
            self._blit_text(surface, text, 14, th.accent, True, midleft=(card.x + 14, y2))
        else:
            placed = len(st.board.rhombs)
            turn = f"{st.turns} turns" if self.match.is_over() else f"Turn {st.turns + 1}"
            self._blit_text(surface, f"{turn} · {placed} rhomb{'s' if placed != 1 else ''} placed",
                            13, th.text_dim, midleft=(card.x + 14, y2))

    def _draw_actions(self, surface) -> None:
        th = self.theme
        st = self.state
        card = ACTION_CARD
        ph = self.phase_for_human()
        seat = self.to_act()
        over = self.match.is_over()
        self._card(surface, card)
        x, y = card.x + 14, card.y + 12
        if over:
            self._blit_text(surface, "Game over", 18, th.text, True, topleft=(x, y))
            reason = self.end_reason()
            reason = reason[:1].upper() + reason[1:] + "." if reason else ""
            for i, line in enumerate(wrap_text(reason, self.app.font(14), card.w - 28)):
                self._blit_text(surface, line, 14, th.text_dim, topleft=(x, y + 30 + i * 19))
            return
        if ph is None:   # a bot acts
            self._blit_text(surface, f"{self.seat_name(seat)} is to play", 18, th.text, True, topleft=(x, y))
            if st.drawn is not None:
                self._blit_text(surface, "It drew this rhomb:", 14, th.text_dim, topleft=(x, y + 32))
                img = self._thumb("rhomb", (st.drawn, 0), 200)
                surface.blit(img, img.get_rect(center=(card.centerx, card.y + 130)))
            return
        who = "You" if self.is_you(seat) else PLAYER_NAMES[seat]
        if ph == "turn":
            self._blit_text(surface, "Place a rhomb …", 16, th.text, True, topleft=(x, y))
            self.b_draw.draw(surface, self.app)
            self._blit_text(surface, "… or move the astronaut", 16, th.text, True, topleft=(x, card.y + 96))
            for b in self.mode_buttons.values():
                b.draw(surface, self.app)
            if self.mode is not None:
                n = len(self.rules.move_targets(st, seat, self.mode))
                self.kit.blit(surface, MODE_HELP[self.mode], 13, th.text_dim, width=card.w - 28,
                              topleft=(x, card.y + 170))
                self._blit_text(surface, f"{n} destination{'s' if n != 1 else ''} ringed on the board", 13,
                                th.text_dim, topleft=(x, card.y + 188))
            self.b_exchange.draw(surface, self.app)
        elif ph == "place":
            self._blit_text(surface, f"{who} drew this rhomb", 16, th.text, True, topleft=(x, y))
            img = self._thumb("rhomb", (st.drawn, self.flip), 220)
            surface.blit(img, img.get_rect(center=(card.centerx, card.y + 118)))
            self.b_flip.draw(surface, self.app)
        elif ph in ("fill", "fill_other"):
            title = "Fill the isolated triangles" if ph == "fill" else f"{who} may fill them"
            self._blit_text(surface, title, 16, th.text, True, topleft=(x, y))
            n_iso = len(self.rules.isolated(st))
            if ph == "fill_other":
                line = f"{PLAYER_NAMES[1 - seat]} has none left. Fill with yours, or leave them empty."
            else:
                line = (f"{n_iso} isolated triangle{'s' if n_iso != 1 else ''}: "
                        f"you must fill {'each' if n_iso > 1 else 'it'}.")
            self._blit_text(surface, line, 13, th.text_dim, topleft=(x, y + 26))
            if self.fill_tri is None:
                self._blit_text(surface, "Click a glowing triangle on the board", 14, th.accent, True,
                                topleft=(x, y + 60))
            else:
                self._blit_text(surface, "Choose a triangle (1-5):", 13, th.text_dim, topleft=(x, y + 72))
                for k, (b, a) in enumerate(zip(self.opt_buttons, self.opt_actions)):
                    b.style = "primary" if k == self.hover_option else "normal"
                    b.draw(surface, self.app)
                    img = self._thumb("piece", (a["tri"], seat, a["piece"], a["rot"]), 54)
                    surface.blit(img, img.get_rect(center=(b.rect.centerx, b.rect.y + 30)))
                    label = f"{k + 1} {PIECE_NAMES[a['piece']]}"
                    self._blit_text(surface, label, 12, th.bg if k == self.hover_option else th.text_dim, True,
                                    midbottom=(b.rect.centerx, b.rect.bottom - 3))
            if ph == "fill_other":
                self.b_leave.draw(surface, self.app)

    def _draw_result(self, surface) -> None:
        th = self.theme
        st = self.state
        out = self.rules.outcome(st)
        box = self.end_box()
        win = out["winner"]
        reason = self.end_reason()
        title = f"{PLAYER_NAMES[win]} wins" if win is not None and len(self.humans()) != 1 else None
        self.draw_end_frame(surface, BOARD, box, win, (reason[:1].upper() + reason[1:] + ".") if reason else "",
                            title, size=34)
        if win is not None and out["scores"][0] == out["scores"][1]:
            self._blit_text(surface, f"Tied on points: {PLAYER_NAMES[win]} came home first.", 13, th.text_dim,
                            midtop=(box.centerx, box.y + 84))
        cols = [box.x + 30] + [box.x + 300 + 60 * k for k in range(6)]
        heads = ("", "Energy", "Control", "Alien", "Solar", "Bonus", "Total")
        y = box.y + 116
        for k, (cx, label) in enumerate(zip(cols, heads)):
            if k:
                self._blit_text(surface, label, 13, th.text_dim, True, midtop=(cx, y))
        pts_line = ("",) + tuple(f"×{POINTS[k]}" for k in ("energy", "control", "alien", "solar")) + ("1 a turn", "")
        for k, (cx, label) in enumerate(zip(cols, pts_line)):
            if k:
                self._blit_text(surface, label, 12, th.text_dim, midtop=(cx, y + 17))
        for p in (0, 1):
            yy = y + 50 + p * 50
            bd = out["breakdown"][p]
            self._blit_icon(surface, ("tom", "dave")[p], 30, (cols[0] + 14, yy + 11))
            self._blit_text(surface, self.seat_name(p), 17, th.text, True, midleft=(cols[0] + 38, yy + 11))
            if st.stranded[p]:
                self._blit_text(surface, "stranded in space", 12, th.bad, True, topleft=(cols[0] + 38, yy + 24))
            vals = (bd["energy"], bd["control"], bd["alien"], bd["solar"], bd["bonus"], bd["total"])
            for cx, v in zip(cols[1:], vals):
                self._blit_text(surface, str(v), 19 if cx == cols[-1] else 17, th.text, cx == cols[-1],
                                midtop=(cx, yy))
        self._blit_text(surface, f"{out['turns']} turns · {out['rhombs_placed']} rhombs placed", 13, th.text_dim,
                        midtop=(box.centerx, y + 160))
        for b in self.end_buttons:
            b.draw(surface, self.app)
