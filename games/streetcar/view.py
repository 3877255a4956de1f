"""The Streetcar screen (specs/streetcar.md "Play expectations"; issue 7 "Scene").

Layout at the logical 1280x800 px: the 12 x 12 board and its ring of terminals on the left (50 px
squares), the status line above it, and a side panel on the right with one row per seat (who plays,
line if visible, what they do, the open hand), the cards of the player at the screen (line, route card,
which stops are linked to the terminals so far), the turn's actions (the selected tile, Start trip,
Pass, the dice) and Undo / Rules / Menu.

* **Phase 1.** Click a tile in your hand (or, with shared hands, in a driving player's hand); turn it
  with **R** (Shift+R back) or the mouse wheel. Squares where it fits as turned are highlighted (an
  exchange with ⇄), squares where it fits turned otherwise show ↻; the ghost under the pointer is
  outlined green or red. Click a highlighted square to play it; a refused square says why. A first
  tile that needs the second to be legal marks the square the second must exchange.
* **The route.** A band in the line colour marks only the track that serves the route (the shortest
  ways from the terminals to the stops and to each other, ``route.serving_paths``). Once the route is
  complete the trip Start trip would take is drawn over the board with arrows (``route.planned_trip``);
  on the trip, the way ahead and the next stop (``route.best_path``).
* **Start trip** (when the route is complete): pick the terminal to leave from with the two buttons
  or by clicking one of the line's terminals on the board.
* **Phase 2.** **Space** rolls (3, then 2, then 1 dice; the classic die once), the dice tumble, then
  click a die (or press 1-3) to carry it out; pointing at a die draws its ways; where the track forks,
  each way is drawn and its end square numbered: click one (or its button). **Enter** stops. The tram moves square by square along the
  path of the ``drive`` event.
* **Hot-seat.** Line and route cards are secret: with two or more humans at the screen, a hand-over
  screen covers everything when the turn passes to another human, until they click "I am <name>".
  With one human, their cards are shown; with none (bots only), or once the game is over, all cards.
  A driving player's cards are open to everyone.
* **Bots** think in a :class:`sim.ai.worker.BotWorker` (never on the frame); their action is shown
  no sooner than ``BOT_DELAY`` s after the previous one and after the dice and tram animations.
* **Undo** (Ctrl+Z): the rules' policy (the first tile of a turn, while the turn goes on).
* **Hands** keep fixed slots (:meth:`StreetcarScene.hand_slots`): a tile laid leaves its slot empty
  until a drawn tile fills it; the picked-up tile is shown turned as it would be laid.

Keys: R rotate, Space roll, Enter stop / confirm, 1-3 dice (1-9 the ways at a fork), P pass, X mark the
exchangeable tiles, Ctrl+Z undo, V result card / board, Esc drops a selection (else the app's menu), F1
rules (the app's).

Scene contract (sim/app/scene.py): positions come from ``event.pos`` only; ``draw`` never changes the
match; animation and bots run from ``update(dt)``.
"""
from __future__ import annotations

import random
from typing import Any

import pygame

from sim.app.setup_view import SEAT_COLOURS, SeatSetupScene
from sim.app.table import Same, TableScene, button_look
from sim.app.ui import Notice, button_row
from sim.app.widgets import Button, mix
from sim.core.match import Match
from sim.core.registry import get_spec
from sim.core.rules import IllegalAction

from . import draw
from . import route as R
from .data import (BUILDING_NAMES, BUILDINGS, FACE_LABELS, GRID, HAND_SIZE, TERMINAL_NAMES, TILE_LABELS,
                   TILES, ring_side)
from .tiles import BASE_TRACKS, LEGS, NEIGH, ORIENT, TERMINAL_CELLS, cell_of, xy_of

W_LOGICAL, H_LOGICAL = 1280, 800
SQ = 50                                   # px per square
BOARD_X, BOARD_Y = 22, 86                 # top left of ring square (0, 0)
BOARD = pygame.Rect(BOARD_X, BOARD_Y, 14 * SQ, 14 * SQ)
AREA = pygame.Rect(0, 0, 748, 800)        # the board side of the screen
NOTICES = pygame.Rect(8, 2, AREA.w - 16, BOARD.y - 4 - 2 - 2)   # the notices area, above the board's ring
PANEL = pygame.Rect(748, 0, 532, 800)
PX = PANEL.x + 16
PW = PANEL.w - 32
HAND_TILE = 38                            # px of a tile in a panel hand
ROW_H = 56                                # px per seat row
BUTTONS_Y = 694
BOT_DELAY = 0.6                           # s an action stays on screen before a bot's next one
ROLL_TIME = 0.7                           # s the dice tumble
STEP_TIME = 0.22                          # s per square of a moving tram
JUMP_TIME = 0.5                           # s of the tools jump back
FLASH_TIME = 1.2                          # s a newly laid tile stays outlined
NO_TILE_TURN = ("pass", "start", "roll", "drive", "tools", "stop")   # events of a turn that lays no tiles
SIGN_AT = 0.3                             # a stop sign's centre: this many squares toward its building
FACE_SHORT = {"GO1": "1", "GO2": "2", "GO3": "3", "GO4": "4", "RED": "red", "H": "H", "TOOLS": "tools"}
SIDE_DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))


# ------------------------------------------------------------------------------ set-up dialog
def describe_config(config: dict) -> str:
    """One line about a validated config for the set-up dialog."""
    n = config["players"]
    stops = 3 if n <= 3 else 2
    dice = {"bga": "3 dice (two 2-green faces, one tools)", "published": "3 dice (one 2-green face, two tools)",
            "classic": "one die 1-4, H, H"}[config["dice"]]
    share = "; drivers' hands are open to all" if config["share_hands"] else ""
    pile = "; BGA's 125-tile pile" if config.get("pile") == "bga" else ""
    return f"{stops} stops each, {dice}{share}{pile}."


def make_setup_scene(app: Any, spec: Any) -> SeatSetupScene:
    """The launcher's set-up dialog (``GameSpec.make_setup``): 2 to 5 seats and the options of
    ``options.OPTIONS`` (dice, hand sharing, draw pile)."""
    return SeatSetupScene(app, spec, min_players=2, max_players=5, max_handicap=0,
                          heading="New game", describe=describe_config)


# ------------------------------------------------------------------------------ demo positions
def demo_match(seats: list[str] | None = None, seed: int = 1, until: Any = None, level: str = "medium",
               config: dict | None = None, max_actions: int = 5000) -> Match:
    """A match whose every seat is played by ``level`` bots until ``until(rules, state)`` holds (or the
    game ends), recorded as a match with the given ``seats`` (default two humans): for screenshots, tests
    and benchmarks. The seats only label who sits where, so the log replays as it stands."""
    from .ai import make_bot
    from .rules import StreetcarRules

    rules = StreetcarRules()
    seats = list(seats or ["human", "human"])
    cfg = {"players": len(seats), "seats": seats, **(config or {})}
    m = Match(rules, cfg, seed)
    bots = [make_bot(i, level, seed) for i in range(len(seats))]
    for _ in range(max_actions):
        if m.is_over() or (until is not None and until(rules, m.state)):
            break
        p = m.active_players()[0]
        m.submit(p, bots[p].select_action(rules, m.state, p))
    return m


def frame_times(frames: int = 180) -> dict[str, list[tuple[float, float]]]:
    """Frame times of the real loop on a mid-game board with a tile selected (legal squares, ghost under a
    wandering pointer), by ``sim.app.framebench.run_frames``: for ``playtable bench``."""
    from sim.app.framebench import run_frames

    m = demo_match(["human", "human", "human"], seed=3, until=lambda r, s: s.board.count >= 50 and s.phase == "play")

    def drive(scene, match, i):
        if i == 0:
            scene.confirmed = scene.to_act()
            seat = scene.to_act()
            scene.select(seat, match.state.seats[seat].hand[0])
        pos = scene.cell_rect(1 + (i * 5) % 12, 1 + (i * 7) % 12).center
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0))], "a tile held"
    return run_frames(_spec(), m, drive, frames)


def _spec():
    SPEC = get_spec("streetcar")  # through the registry: the package's __init__ imports this module
    return SPEC


def _via(a: list[int] | tuple, b: list[int] | tuple) -> list[tuple[int, int]]:
    """The squares a tram passes from node ``a`` to the next node ``b`` ([x, y, side] each): ``b``, and
    before it the other square of a terminal's loop when the step goes through a terminal (it counts
    as one square)."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
        return [(b[0], b[1])]
    c = cell_of(a[0], a[1])
    if c in LEGS:
        p = xy_of(LEGS[c].partner)
        if abs(p[0] - b[0]) + abs(p[1] - b[1]) <= 1:
            return [p, (b[0], b[1])]
    return [(b[0], b[1])]


def _heading(node: list[int] | tuple[int, int, int]) -> int:
    """The side a tram standing on ``node`` ([x, y, entry]) faces: away from where it came in; a tram
    at home faces the board."""
    x, y, e = node
    if e == R.HOME:
        return LEGS[cell_of(x, y)].board_side
    return (e + 2) % 4


def _exit_side(cell: int, nxt: int) -> int | None:
    """The side of ``cell`` facing the square ``nxt`` (None if they are not neighbours)."""
    for d in range(4):
        if NEIGH[cell][d] == nxt:
            return d
    return None


def path_tracks(nodes: list[int] | tuple[int, ...]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The tracks a tram drives along ``nodes`` (start node first): ``((x, y), (side, side))`` for every
    board square it enters and leaves again (terminals and the last square left out)."""
    out = []
    for n, nxt in zip(nodes, nodes[1:]):
        c, e = R.node_cell(n), R.node_entry(n)
        if e == R.HOME or c in LEGS:
            continue
        t = _exit_side(c, R.node_cell(nxt))
        if t is not None:
            out.append((xy_of(c), (min(e, t), max(e, t))))
    return out


# ------------------------------------------------------------------------------------ scene
class StreetcarScene(TableScene):
    """A Streetcar match on ``match`` (any state: it draws whatever position the match is in).

    ``opts``: ``confirmed`` (the hot-seat human already at the screen, skipping the first hand-over).
    """


    title = "Streetcar"
    opaque = True          # draw() covers the screen: the board layer, then the panel

    BOT_DELAY = BOT_DELAY

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app, match, _spec())
        self.confirmed: int | None = opts.get("confirmed")
        self.hover: tuple[int, int] | None = None        # board square (x, y) under the pointer
        self.hover_pos: tuple[int, int] = (0, 0)
        self.sel: tuple[int, int] | None = None          # (hand seat, tile id) picked up
        self.rot = 0
        self.start_mode = False                          # choosing the terminal to leave from
        self.die_sel: int | None = None                  # die whose ways are shown (a fork)
        self.branch: list[R.Move] = []
        self.branch_hover: int | None = None
        self.mark_exchangeable = False
        self.log_lines: list[str] = []
        self.flash: dict[tuple[int, int], float] = {}
        # the last-move marker: (seat, squares) of the tiles of the latest turn if it laid any; open while
        # that turn may lay another
        self.last_tiles: tuple[int, list[tuple[int, int]]] | None = self._last_tiles_from_log()
        self._tiles_open = False
        self.anim_tram: dict[int, tuple[list, float]] = {}   # seat -> ([start node, path...], t0)
        self.anim_jump: dict[int, tuple[list, list, float]] = {}
        self.anim_roll: float | None = None
        self.last_dice: tuple[int, tuple[str, ...], int] | None = None   # (seat, faces, chosen): last die used
        self.art = draw.Art(SQ)
        self._shades: dict[tuple, pygame.Surface] = {}
        self._board_cache: tuple[tuple, pygame.Surface] | None = None
        self._pos_cache: tuple[tuple, Any, pygame.Surface] | None = None
        self._options: tuple[Any, tuple[bool, bool]] | None = None
        self._plays_cache: tuple[tuple, dict] | None = None
        self._net_cache: dict[tuple, dict] = {}
        self._linked_cache: dict[tuple, str] = {}
        self._slots: dict[int, tuple[tuple[int, ...], list[int | None]]] = {}
        self.sel_slot: tuple[int, int] | None = None     # (seat, slot) the selection was picked from
        self._layout()
        self._build_buttons()
        self.on_enter()

    # ------------------------------------------------------------------ seats and visibility
    def human_turn(self) -> bool:
        """Whether a human at this machine is to act (and the hand-over, if any, is done)."""
        return super().human_turn() and not self.handover_needed()

    def seat_name(self, seat: int) -> str:
        """"You", "Player 2", "Bot 3 (hard)" depending on who sits where; a name the player gave wins."""
        if self.seat_list[seat].name:
            return self.seat_list[seat].name
        kind = self.seats[seat]
        if kind == "human":
            return "You" if len(self.humans()) == 1 else f"Player {seat + 1}"
        return f"Bot {seat + 1} ({self.bot_level(seat)})"

    def _sight(self) -> tuple[bool, bool, int | None]:
        """(:meth:`reveal_all`, :meth:`handover_needed`, :meth:`viewer`), asked dozens of times a
        frame: worked out again only when the position, the confirmed human, a replay or the seats
        change."""
        reviewing = self.reviewing()
        key = (self.confirmed, reviewing, tuple(s.kind for s in self.seat_list))
        memo = self.__dict__.get("_sight_memo")
        if memo is not None and memo[0] is self.state and memo[1] == key:
            return memo[2]
        hs = self.humans()
        reveal = self.match.is_over() or reviewing or not hs
        seat = self.to_act()
        handover = (not reveal and len(hs) >= 2 and seat is not None and not self.is_bot(seat)
                    and seat != self.confirmed)
        viewer = None if reveal or handover else hs[0] if len(hs) == 1 else self.confirmed
        self._sight_memo = (self.state, key, (reveal, handover, viewer))
        return reveal, handover, viewer

    def reveal_all(self) -> bool:
        """Every card is shown: the game is over, a replay, or only bots play."""
        return self._sight()[0]

    def handover_needed(self) -> bool:
        """Whether the hand-over screen is up: two or more humans share the screen and the turn has
        passed to a human who has not confirmed yet."""
        return self._sight()[1]

    def viewer(self) -> int | None:
        """The human whose secret cards are shown now (None: nobody's, or everybody's with
        :meth:`reveal_all`)."""
        return self._sight()[2]

    def cards_visible(self, seat: int) -> bool:
        """Whether ``seat``'s line and route card may be shown now."""
        if self.reveal_all() or self.state.seats[seat].driving:
            return True
        return seat == self.viewer()

    def card_seat(self) -> int | None:
        """Whose cards the panel's card shows: the viewer; with everything revealed, the seat to act
        (or the winner, or seat 1)."""
        v = self.viewer()
        if v is not None:
            return v
        if not self.reveal_all():
            return None
        st = self.state
        if st.winner >= 0:
            return st.winner
        seat = self.to_act()
        return seat if seat is not None else 0

    def confirm_handover(self) -> None:
        """The next human says "I am <name>": their cards are shown."""
        if self.handover_needed():
            self.confirmed = self.to_act()
            self._sound("click")

    # ------------------------------------------------------------------ geometry
    def _layout(self) -> None:
        n = len(self.seats)
        self.seats_card = pygame.Rect(PX, 64, PW, 12 + ROW_H * n)
        self.cards_card = pygame.Rect(PX, self.seats_card.bottom + 10, PW, 114)
        top = self.cards_card.bottom + 10
        self.action_card = pygame.Rect(PX, top, PW, BUTTONS_Y - 10 - top)

    def cell_rect(self, x: int, y: int) -> pygame.Rect:
        """Screen rectangle (px) of square (x, y) (0..13, the ring included)."""
        return pygame.Rect(BOARD_X + x * SQ, BOARD_Y + y * SQ, SQ, SQ)

    def cell_centre(self, x: float, y: float) -> tuple[float, float]:
        return (BOARD_X + (x + 0.5) * SQ, BOARD_Y + (y + 0.5) * SQ)

    def cell_at(self, pos) -> tuple[int, int] | None:
        """The square (x, y) under ``pos`` (px), ring included, or None off the board."""
        if not BOARD.collidepoint(pos):
            return None
        return ((pos[0] - BOARD_X) // SQ, (pos[1] - BOARD_Y) // SQ)

    def seat_row(self, seat: int) -> pygame.Rect:
        c = self.seats_card
        return pygame.Rect(c.x + 6, c.y + 6 + seat * ROW_H, c.w - 12, ROW_H - 4)

    def hand_slots(self, seat: int) -> list[int | None]:
        """The tiles of ``seat``'s hand in their fixed slots (None: an empty slot). A tile keeps its slot
        while it stays in the hand; a tile played leaves its slot empty and a tile drawn or taken back
        fills the first empty one, so the rest never slide under the pointer."""
        hand = self.state.seats[seat].hand
        old = self._slots.get(seat)
        if old is not None and old[0] == hand:
            return old[1]
        n = max(HAND_SIZE, len(hand))
        slots: list[int | None] = list(old[1]) if old is not None else []
        slots = (slots + [None] * n)[:n] if len(slots) <= n else slots
        # a tile gone from the hand leaves the slot it was picked up from (of several copies)
        order = list(range(len(slots)))
        if self.sel_slot is not None and self.sel_slot[0] == seat:
            order.remove(self.sel_slot[1])
            order.insert(0, self.sel_slot[1])
        for t in set(slots) - {None}:
            extra = slots.count(t) - hand.count(t)
            for i in order:
                if extra <= 0:
                    break
                if slots[i] == t:
                    slots[i] = None
                    extra -= 1
        left = list(hand)
        for t in slots:
            if t is not None:
                left.remove(t)
        for t in left:
            if None not in slots:
                slots.append(None)
            slots[slots.index(None)] = t
        self._slots[seat] = (hand, slots)
        return slots

    def slot_rect(self, seat: int, slot: int) -> pygame.Rect:
        """Where slot ``slot`` of ``seat``'s hand is drawn in its panel row."""
        row = self.seat_row(seat)
        k = max(HAND_SIZE, len(self.hand_slots(seat)))
        x0 = row.right - 8 - k * (HAND_TILE + 4) + 4
        return pygame.Rect(x0 + slot * (HAND_TILE + 4), row.y + (row.h - HAND_TILE) // 2, HAND_TILE, HAND_TILE)

    def slot_of(self, seat: int, index: int) -> int:
        """The slot of tile ``index`` of ``seat``'s (sorted) hand: the k-th copy of a tile in the hand
        is in the k-th slot holding that tile."""
        hand = self.state.seats[seat].hand
        t = hand[index]
        k = hand[:index].count(t)
        return [i for i, u in enumerate(self.hand_slots(seat)) if u == t][k]

    def hand_rect(self, seat: int, index: int) -> pygame.Rect:
        """Where tile ``index`` of ``seat``'s hand is drawn in its panel row (its slot)."""
        return self.slot_rect(seat, self.slot_of(seat, index))

    def die_rect(self, i: int) -> pygame.Rect:
        a = self.action_card
        return pygame.Rect(a.x + 16 + i * 76, a.y + 40, 60, 60)

    def hand_at(self, pos) -> tuple[int, int] | None:
        """``(seat, index)`` of the hand tile under ``pos`` (index into the hand), or None (an empty
        slot included)."""
        if not self.seats_card.collidepoint(pos):
            return None
        for seat, st in enumerate(self.state.seats):
            for slot, t in enumerate(self.hand_slots(seat)):
                if t is not None and self.slot_rect(seat, slot).collidepoint(pos):
                    k = self.hand_slots(seat)[:slot].count(t)
                    return seat, [i for i, u in enumerate(st.hand) if u == t][k]
        return None

    # ------------------------------------------------------------------ buttons
    def _build_buttons(self) -> None:
        self.panel_buttons = button_row(PX, BUTTONS_Y, PW, 40, (
            ("Undo", self.do_undo, "Ctrl+Z"), ("Hint", self.do_hint, "H"), ("Rules", self.do_rules, "F1"),
            ("Marks ⇄", self.toggle_marks, "X"), ("Menu", self.do_menu, "Esc")), styles={"Menu": "quiet"})
        self.b_undo, self.b_hint, self.b_rules, self.b_marks, self.b_menu = self.panel_buttons
        a = self.action_card
        half = (a.w - 42) // 2
        by = a.bottom - 52
        self.b_start = Button((a.x + 14, by, half, 40), "Start trip", self.do_start_mode, style="primary",
                              font_size=17)
        self.b_pass = Button((a.x + 28 + half, by, half, 40), "Pass (P)", self.do_pass, font_size=17)
        self.b_roll = Button((a.x + 14, by, half, 40), "Roll (Space)", self.do_roll, style="primary", font_size=17)
        self.b_stop = Button((a.x + 28 + half, by, half, 40), "Stop (Enter)", self.do_stop, font_size=17)
        self.b_end = [Button((a.x + 14, a.y + 58 + k * 46, a.w - 28, 40), "", lambda k=k: self.do_start(k),
                             font_size=15) for k in (0, 1)]
        self.b_cancel = Button((a.x + 14, a.y + 152, 140, 36), "Cancel (Esc)", self.cancel_modes,
                               style="quiet", font_size=15)
        self.b_iam = Button((0, 0, 300, 52), "I am …", self.confirm_handover, style="primary", font_size=20)
        self.b_iam.rect.center = (W_LOGICAL // 2, H_LOGICAL // 2 + 70)
        self.end_buttons_for(self.end_box(), (AREA.centerx - 90, 14, 180, 40))
        self.branch_buttons: list[Button] = []
        self._branch_key: tuple | None = None
        self._refresh_buttons()

    def end_box(self) -> pygame.Rect:
        box = pygame.Rect(0, 0, 640, 214 + 40 * len(self.seats))
        box.center = (BOARD.centerx, BOARD.centery)
        return box

    def _refresh_buttons(self) -> None:
        st = self.state
        seat = self.to_act()
        human = self.human_turn()
        self.b_undo.enabled = self.can_undo()
        self.b_hint.enabled = self.hint_refusal() is None
        self.b_marks.style = "primary" if self.mark_exchangeable else "normal"
        if human and st.phase == "play":
            self.b_start.enabled, self.b_pass.enabled = self.turn_options()
            self.b_pass.label = "Pass (P)" if st.played == 0 else "End turn (P)"
        else:
            self.b_start.enabled = self.b_pass.enabled = False
        k = 1 if st.classic else 3 - st.used
        self.b_roll.label = ("Roll the die (Space)" if st.classic else
                             f"Roll {k} dice (Space)" if k > 1 else "Roll the last die (Space)")
        self.b_roll.enabled = human and st.phase == "roll" and self.anim_roll is None
        self.b_stop.enabled = human and st.phase == "roll" and st.used > 0
        if human and self.start_mode and seat is not None:
            me = st.seats[seat]
            for end, b in enumerate(self.b_end):
                length = R.route_length(st.board, me.line, end, me.stops) if me.line else None
                where = "top" if end == 0 and me.line <= 3 else "bottom" if me.line <= 3 else \
                    "left" if end == 0 else "right"
                b.label = f"From {TERMINAL_NAMES[me.line][end]} ({where})" + \
                    (f": {length} squares" if length is not None else "")
        if self.handover_needed():
            self.b_iam.label = f"I am {self.seat_name(self.to_act())} (Enter)"
        key = (self.die_sel, id(self.branch), len(self.branch))
        if key == self._branch_key:
            return   # the same ways: keep the buttons (and a press in progress on one of them)
        self._branch_key = key
        self.branch_buttons = []
        if self.die_sel is not None and self.branch:
            a = self.action_card
            x = a.x + 16 + 3 * 76 + 4
            w = a.right - 14 - x
            rows = max(1, (a.h - 44) // 32)
            for k, mv in enumerate(self.branch[:min(9, rows)]):
                self.branch_buttons.append(Button((x, a.y + 36 + k * 32, w, 28), self.branch_label(k, mv),
                                                  lambda k=k: self.do_branch(k), font_size=13))

    def turn_options(self) -> tuple[bool, bool]:
        """``(may start the trip, may pass)`` for the builder to act (cached per position: passing
        needs the search for any legal tile)."""
        st = self.state
        if self._options is None or self._options[0] is not st:
            seat = self.to_act()
            ok = seat is not None and st.phase == "play"
            self._options = (st, (ok and self.rules.can_start(st, seat), ok and self.rules.can_pass(st, seat)))
        return self._options[1]

    def active_buttons(self) -> list[Button]:
        over = self.match.is_over()
        if over and self.show_result:
            return list(self.end_buttons)
        if self.handover_needed():
            return [self.b_iam, self.b_rules, self.b_menu]
        out = list(self.panel_buttons)
        st = self.state
        if over:
            return out + [self.b_show]
        if self.human_turn():
            if st.phase == "play":
                if self.start_mode:
                    out += self.b_end + [self.b_cancel]
                else:
                    out += [self.b_start, self.b_pass]
            elif st.phase in ("roll", "choose"):
                out += self.branch_buttons if self.branch_buttons else [self.b_roll, self.b_stop]
        return out

    # ------------------------------------------------------------------ feedback
    def _log(self, text: str) -> None:
        self.log_lines.append(text)
        del self.log_lines[:-40]

    # ------------------------------------------------------------------ legal plays of the selection
    def legal_plays(self) -> dict[tuple[int, int], dict[int, dict]]:
        """For the selected tile: square (x, y) -> {pair mask: action} of every legal play (cached per
        position and selection)."""
        if self.sel is None or not self.human_turn() or self.state.phase != "play":
            return {}
        hand, tile = self.sel
        key = (id(self.state), hand, tile)
        if self._plays_cache is not None and self._plays_cache[0] == key:
            return self._plays_cache[1]
        seat = self.to_act()
        out: dict[tuple[int, int], dict[int, dict]] = {}
        for a in self.rules.tile_plays(self.state, seat, tile, hand):
            out.setdefault((a["x"], a["y"]), {})[ORIENT[tile][a["rot"]]] = a
        self._plays_cache = (key, out)
        return out

    def fits(self, x: int, y: int) -> tuple[bool, list[int]]:
        """Whether the selected tile fits square (x, y) as turned now, and the rotations (0..3) that fit."""
        plays = self.legal_plays().get((x, y), {})
        if self.sel is None:
            return False, []
        tile = self.sel[1]
        rots = [r for r in range(4) if ORIENT[tile][r] in plays]
        return self.rot in rots, rots

    # ------------------------------------------------------------------ actions
    def select(self, hand: int, tile: int, slot: int | None = None) -> None:
        """Pick up tile ``tile`` from seat ``hand``'s hand (the player to act must be allowed to play
        from it; from hand slot ``slot``, default the first holding it); the rotation stays if the tile
        fits somewhere so turned, else the first that fits."""
        seat = self.to_act()
        st = self.state
        if seat is None or self.match.is_over():
            return
        if self.played_elsewhere(seat):
            self.refuse(f"wait: it is {self.seat_name(seat)}'s turn")
            return
        if st.phase != "play":
            self.refuse("your tram is on its trip: no more tiles" if st.seats[seat].driving
                        else "no tiles are played now")
            return
        if hand not in self.rules.sources(st, seat):
            owner = self.seat_name(hand)
            self.refuse(f"those are {owner}'s tiles: they are still building" if hand != seat else
                        "you cannot play from that hand now")
            return
        if tile not in st.seats[hand].hand:
            return
        slots = self.hand_slots(hand)
        if slot is None or slots[slot] != tile:
            slot = slots.index(tile)
        if self.sel == (hand, tile) and self.sel_slot == (hand, slot):
            self.sel = None
            self._sound("click")
            return
        self.sel = (hand, tile)
        self.sel_slot = (hand, slot)
        self.start_mode = False
        plays = self.legal_plays()
        masks = {m for v in plays.values() for m in v}
        if ORIENT[tile][self.rot] not in masks:
            for r in range(4):
                if ORIENT[tile][r] in masks:
                    self.rot = r
                    break
        if not plays:
            self.say(f"the {TILE_LABELS[tile]} fits nowhere now", self.theme.text_dim)
        self._sound("click")

    def show_hint(self, action: dict) -> None:
        """A hinted tile is picked up, turned as the hint lays it, and its square flashes; other hints
        are said in words."""
        t = action.get("t")
        acc = self.theme.accent
        if t == "tile":
            hand, tile = action.get("hand", self.to_act()), action["tile"]
            if self.sel != (hand, tile):
                self.select(hand, tile)
            self.rot = action["rot"]
            self.flash[(action["x"], action["y"])] = self.clock
            self.say(f"Hint: lay the {TILE_LABELS[tile]} on the flashing square ({action['x']},{action['y']})",
                     acc, 6.0)
        elif t == "start":
            me = self.state.seats[self.to_act()]
            self.say(f"Hint: start your trip from {TERMINAL_NAMES[me.line][action['end']]}", acc, 6.0)
        elif t == "drive":
            self.say(f"Hint: use die {action['die'] + 1}", acc, 6.0)
        else:
            words = {"roll": "roll the dice (Space)", "stop": "stop here (Enter)", "pass": "pass (P)"}
            self.say("Hint: " + words.get(t, self.describe_action(action)), acc, 6.0)

    def rotate(self, d: int) -> None:
        if self.sel is None:
            return
        self.rot = (self.rot + d) % 4
        self._sound("rotate")

    def click_square(self, x: int, y: int) -> None:
        """A left click on square (x, y) of the board (ring included)."""
        st = self.state
        seat = self.to_act()
        if self.match.is_over() or seat is None:
            return
        if self.played_elsewhere(seat):
            if st.board.tile_at(cell_of(x, y)) is not None:
                self.describe_square(x, y)
            else:
                self.refuse(f"wait: it is {self.seat_name(seat)}'s turn")
            return
        if self.start_mode:
            me = st.seats[seat]
            for end, cells in enumerate(TERMINAL_CELLS.get(me.line, ())):
                if cell_of(x, y) in cells:
                    self.do_start(end)
                    return
            self.refuse("click one of your line's two terminals (or a button)")
            return
        if st.phase == "choose" and self.die_sel is not None:
            ends = [k for k, mv in enumerate(self.branch) if mv.path and tuple(R.node_json(mv.path[-1])[:2]) == (x, y)]
            if len(ends) == 1:
                self.do_branch(ends[0])
            elif len(ends) > 1:
                self.refuse("several ways end there: pick one with the buttons")
            else:
                self.refuse("click one of the numbered squares")
            return
        if st.phase != "play":
            return
        if self.sel is None:
            self.describe_square(x, y)
            return
        hand, tile = self.sel
        act = {"t": "tile", "tile": tile, "rot": self.rot, "x": x, "y": y}
        if hand != seat:
            act["hand"] = hand
        if not (1 <= x <= GRID and 1 <= y <= GRID):
            self.refuse("tiles go on the squares of the board, not on the ring")
            return
        try:
            self.rules.check(st, seat, act)
        except IllegalAction as e:
            _ok, rots = self.fits(x, y)
            hint = " (turned, it fits here: press R)" if rots else ""
            self.refuse(str(e) + hint)
            return
        self.sel = None
        self.submit_as(seat, act)

    def describe_square(self, x: int, y: int) -> None:
        """Say what is on square (x, y) (a click without a selected tile)."""
        st = self.state
        c = cell_of(x, y)
        for k, pos in BUILDINGS.items():
            if pos == (x, y):
                self.say(f"building {k}: {BUILDING_NAMES[k]}", self.theme.text_dim)
                return
        t = st.board.tile_at(c)
        if t is not None:
            kind = "brown: it can be exchanged" if TILES[t[0]].exchangeable else "trees: it can never be exchanged"
            self.say(f"({x},{y}): {TILE_LABELS[t[0]]}, {kind}", self.theme.text_dim)
        elif c in LEGS:
            g = LEGS[c]
            self.say(f"terminal of line {g.line}: {TERMINAL_NAMES[g.line][g.end]}", self.theme.text_dim)
        elif self.human_turn():
            self.say("pick a tile from your hand first", self.theme.text_dim)

    def do_start_mode(self) -> None:
        seat = self.to_act()
        if not self.human_turn() or not self.rules.can_start(self.state, seat):
            return
        self.sel = None
        self.start_mode = True
        self._sound("click")

    def do_start(self, end: int) -> None:
        seat = self.to_act()
        if not self.human_turn():
            return
        self.start_mode = False
        self.submit_as(seat, {"t": "start", "end": end})

    def cancel_modes(self) -> None:
        self.start_mode = False
        self.die_sel = None
        self.branch = []

    def do_pass(self) -> None:
        seat = self.to_act()
        if not self.human_turn() or self.state.phase != "play":
            return
        if not self.rules.can_pass(self.state, seat):
            self.refuse("you can still play a tile" if self.rules.has_tile_play(self.state, seat)
                        else "you can start your trip: no passing")
            return
        self.sel = None
        self.submit_as(seat, {"t": "pass"})

    def do_roll(self) -> None:
        st = self.state
        if not self.human_turn() or self.anim_roll is not None:
            return
        if st.phase != "roll":
            if st.phase == "choose":
                self.refuse("use one of the dice first")
            return
        self.submit_as(self.to_act(), {"t": "roll"})

    def do_stop(self) -> None:
        st = self.state
        if not self.human_turn() or st.phase != "roll":
            return
        if st.used == 0:
            self.refuse("roll the dice at least once")
            return
        self.submit_as(self.to_act(), {"t": "stop"})

    def do_die(self, i: int) -> None:
        """Use die ``i``: at once if it can be carried out one way, else show the ways."""
        st = self.state
        if not self.human_turn() or st.phase != "choose" or self.anim_roll is not None:
            return
        if not 0 <= i < len(st.dice):
            return
        face = st.dice[i]
        moves = self.rules.moves(st, face)
        if not moves:
            self.refuse(f"{FACE_LABELS[face]}: no way to carry it out that keeps your route")
            return
        if len(moves) == 1:
            self.die_sel = None
            self.branch = []
            self.submit_as(self.to_act(), {"t": "drive", "die": i, "path": [R.node_json(n) for n in moves[0].path]})
            return
        self.die_sel = i
        self.branch = moves
        self._sound("click")

    def do_branch(self, k: int) -> None:
        if self.die_sel is None or not 0 <= k < len(self.branch) or not self.human_turn():
            return
        i, mv = self.die_sel, self.branch[k]
        self.die_sel = None
        self.branch = []
        self.submit_as(self.to_act(), {"t": "drive", "die": i, "path": [R.node_json(n) for n in mv.path]})

    def branch_label(self, k: int, mv: R.Move) -> str:
        x, y, _ = R.node_json(mv.path[-1]) if mv.path else R.node_json(self.state.seats[self.to_act()].pos)
        st = self.state
        me = st.seats[self.to_act()]
        new = "".join(s for j, s in enumerate(me.stops) if mv.served >> j & 1 and not me.served >> j & 1)
        text = f"{k + 1}: to ({x},{y})"
        c = cell_of(x, y)
        if mv.win:
            return text + ", home!"
        same = [o for o in self.branch if o.path and o.path[-1] // 5 == mv.path[-1] // 5]
        if len(same) > 1 and mv.path:
            text += f" from the {('north', 'east', 'south', 'west', 'terminal')[mv.path[-1] % 5]}"
        if c in LEGS:
            text += f", terminal {LEGS[c].line}"
        elif st.board.sign_at(c):
            text += f", stop {st.board.sign_at(c)}"
        if new:
            text += f", serves {', '.join(new)}"
        return text

    def undo_steps(self) -> int:
        return 0 if self.handover_needed() else super().undo_steps()

    def undo_refusal(self) -> str:
        if self.match.is_over():
            return super().undo_refusal()
        return "nothing to undo: only the first tile of your turn can be taken back"

    def toggle_marks(self) -> None:
        self.mark_exchangeable = not self.mark_exchangeable
        self.say("exchangeable (brown) tiles marked ⇄" if self.mark_exchangeable else "marks off",
                 self.theme.text_dim, 2.0)
        self._sound("click")

    # ------------------------------------------------------------------ match events
    def _before_drive(self, match: Any, seat: int, face: str) -> tuple[Any, int] | None:
        """(the position, the die's index) before ``seat``'s latest drive, from the log; on the LAN,
        where the log stays on the host, the view before the last one taken in if it shows that seat
        choosing a die of ``face`` (None when neither is known: no animation)."""
        j = self._entry_before("drive")
        if j is not None:
            return match.states[j], match.log[j]["a"]["die"]
        prev = getattr(match, "previous", None)
        if prev is not None and prev.phase == "choose" and prev.turn == seat and face in prev.dice:
            return prev, prev.dice.index(face)
        return None

    def _entry_before(self, kind: str) -> int | None:
        """Log index of the latest applied player action of type ``kind`` (None if there is none, or
        the log is not here: a LAN game's stays on the host)."""
        m = self.match
        for j in range(min(m.cursor, len(m.log)) - 1, -1, -1):
            e = m.log[j]
            if e["p"] >= 0 and e["a"].get("t") == kind:
                return j
        return None

    def _last_tiles_from_log(self) -> tuple[int, list[tuple[int, int]]] | None:
        """(seat, squares) of the tiles laid in the latest turn, from the applied log (chance draws between
        them skipped); None if that turn laid none, or the log is not here (LAN)."""
        m = self.match
        seat, cells = None, []
        for j in range(min(m.cursor, len(m.log)) - 1, -1, -1):
            p, a = m.log[j]["p"], m.log[j]["a"]
            if p < 0:
                continue
            if a.get("t") == "tile" and seat in (None, p):
                seat = p
                cells.append((a["x"], a["y"]))
            else:
                break
        return (seat, cells[::-1]) if seat is not None else None

    def log_from_record(self, last: int = 40) -> list[str]:
        """The last ``last`` lines of the move list rebuilt from the applied log (after an undo, or when a
        replay jumps): tile plays, trip starts, dice used, passes and stops."""
        m = self.match
        out: list[str] = []
        for j in range(m.cursor):
            e = m.log[j]
            p, a = e["p"], e["a"]
            if p < 0:
                continue
            before = m.states[j]
            who = f"P{p + 1}"
            t = a.get("t")
            if t == "tile":
                verb = "placed" if before.board.tile_at(cell_of(a["x"], a["y"])) is None else "exchanged in"
                src = f" from P{a['hand'] + 1}'s hand" if a.get("hand", p) != p else ""
                out.append(f"{who} {verb} a {TILES[a['tile']].name.replace('_', ' ')} at ({a['x']},{a['y']}){src}")
            elif t == "start":
                me = before.seats[p]
                out.append(f"{who} starts the trip: line {me.line}, stops {' '.join(me.stops)}")
            elif t == "drive":
                face = before.dice[a["die"]]
                n = len(a["path"])
                out.append(f"{who} rolled tools: back to the last station" if face == "TOOLS" else
                           f"{who} drove {n} square{'s' if n != 1 else ''} ({FACE_SHORT.get(face, face)})")
            elif t == "pass":
                out.append(f"{who} passed")
            elif t == "stop":
                out.append(f"{who} stopped")
        return out[-last:]

    def _on_events(self, match: Match, events: list) -> None:
        sounds = []
        for e in events:
            k = e.get("e")
            who = f"P{e['seat'] + 1}" if isinstance(e.get("seat"), int) else ""
            if k in NO_TILE_TURN:
                self.last_tiles = None          # a turn that lays no tiles: the tram's move is the news
            if k in NO_TILE_TURN or k == "no_second":
                self._tiles_open = False        # the next tile laid starts another turn's marker
            if k in ("undo", "redo", "seek", "truncate"):
                self.anim_tram.clear()
                self.anim_jump.clear()
                self.anim_roll = None
                self.last_dice = None
                self.sel = None
                self.cancel_modes()
                self._tiles_open = False
                if len(match.log) >= match.cursor:
                    self.log_lines = self.log_from_record()
                    self.last_tiles = self._last_tiles_from_log()
                elif k == "undo":   # on the LAN the log stays on the host: the undone tile play was the last line
                    self.log_lines = self.log_lines[:-1]
                    if self.last_tiles is not None:
                        self.last_tiles[1][-1:] = []
                        self.last_tiles = self.last_tiles if self.last_tiles[1] else None
                else:
                    self.last_tiles = None
                continue
            if k == "tile":
                verb = "placed" if e["how"] == "placed" else "exchanged in"
                src = "" if e["hand"] == e["seat"] else f" from P{e['hand'] + 1}'s hand"
                line = f"{who} {verb} a {TILES[e['tile']].name.replace('_', ' ')} at ({e['x']},{e['y']}){src}"
                if e.get("sign"):
                    line += f": stop sign {e['sign']}"
                self._log(line)
                self.flash[(e["x"], e["y"])] = self.clock
                if self._tiles_open and self.last_tiles is not None and self.last_tiles[0] == e["seat"]:
                    self.last_tiles[1].append((e["x"], e["y"]))
                else:
                    self.last_tiles = (e["seat"], [(e["x"], e["y"])])
                self._tiles_open = True
                sounds.append("place")
            elif k == "no_second":
                self._log(f"{who} has no second tile")
            elif k == "pass":
                self._log(f"{who} passed")
                sounds.append("out")
            elif k == "start":
                self._log(f"{who} starts the trip: line {e['line']}, stops {' '.join(e['stops'])}")
                sounds.append("start")
            elif k == "roll":
                self.anim_roll = self.clock
                self.last_dice = None
                sounds.append("knock")
            elif k == "die":
                pass
            elif k == "drive":
                seat = e["seat"]
                got = self._before_drive(match, seat, e["face"])
                if got is not None:
                    before, die = got
                    start = R.node_json(before.seats[seat].pos)
                    self.last_dice = (seat, before.dice, die)
                    if e["path"]:
                        self.anim_tram[seat] = ([start] + [list(p) for p in e["path"]], self.clock)
                n = len(e["path"])
                text = f"{who} drove {n} square{'s' if n != 1 else ''} ({FACE_SHORT.get(e['face'], e['face'])})"
                if e.get("served"):
                    text += f", served {' '.join(e['served'])}"
                self._log(text)
                sounds.append("place" if n else "click")
            elif k == "tools":
                seat = e["seat"]
                got = self._before_drive(match, seat, "TOOLS")
                if got is not None:
                    before, die = got
                    self.last_dice = (seat, before.dice, die)
                    self.anim_jump[seat] = (R.node_json(before.seats[seat].pos), list(e["to"]), self.clock)
                self._log(f"{who} rolled tools: back to ({e['to'][0]},{e['to'][1]})")
                sounds.append("penalty")
            elif k == "stop":
                self._log(f"{who} stopped")
            elif k == "win":
                self._log(f"{who} reached the end of the line and wins")
                self.show_result = True
                sounds.append(self.end_sound(e["seat"]))
            elif k == "draw" and "reason" in e:
                self._log(f"A draw: {e['reason']}")
                self.show_result = True
                sounds.append("lose")
            elif k == "turn":
                self.sel = None
                self.cancel_modes()
        if sounds:
            self._sound(sounds[-1])

    # ------------------------------------------------------------------ bots
    def animating(self) -> bool:
        """Whether dice are tumbling or a tram is moving."""
        return bool(self.anim_roll is not None or self.anim_tram or self.anim_jump)

    def board_busy(self) -> bool:
        """Redraw policy: a fading flash, the pulsing hint, terminals pulsing while the start is chosen,
        the pulsing square of a placement waiting for its pair (dice and trams are :meth:`animating`)."""
        st = self.state
        if self.flash or self.start_mode or (self.hint is not None and self.hint[0] == self.match.cursor):
            return True
        return bool(st.pending and st.phase == "play" and self.human_turn())

    # ------------------------------------------------------------------ input
    def handle_input(self, event: Any) -> bool:
        et = event.type
        if self.buttons_take(event):
            return True
        if et == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            self.hover = self.cell_at(event.pos)
            self.branch_hover = next((k for k, b in enumerate(self.branch_buttons) if b.hover), None)
            return True
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if et == pygame.MOUSEBUTTONUP:
                return True
            if event.button == 3:
                self.sel = None
                self.cancel_modes()
                return True
            if event.button != 1:
                return True
            if (self.match.is_over() and self.show_result) or self.handover_needed():
                return True
            self._click(event.pos)
            self._refresh_buttons()
            return True
        if et == pygame.MOUSEWHEEL:
            steps = self.wheel.feed(event)
            if steps and self.sel is not None:
                self.rotate(steps)   # a notch away from the user turns the tile a quarter clockwise
            return True
        if et == pygame.KEYDOWN:
            consumed = self._key(event)
            self._refresh_buttons()
            return consumed
        return False

    def _click(self, pos) -> None:
        hit = self.hand_at(pos)
        if hit is not None:
            seat, i = hit
            self.select(seat, self.state.seats[seat].hand[i], self.slot_of(seat, i))
            return
        for i in range(len(self.state.dice)):
            if self.die_rect(i).collidepoint(pos) and self.state.phase == "choose":
                self.do_die(i)
                return
        cell = self.cell_at(pos)
        if cell is not None:
            self.hover = cell
            self.click_square(*cell)

    def _key(self, event: Any) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        if self.handover_needed():
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.confirm_handover()
                return True
            return False
        if k == pygame.K_ESCAPE:
            if self.sel is not None or self.start_mode or self.die_sel is not None:
                self.sel = None
                self.cancel_modes()
                return True
            return False   # the app: back to the launcher (the match stays autosaved)
        if k == pygame.K_r:
            self.rotate(-1 if mods & pygame.KMOD_SHIFT else 1)
        elif k == pygame.K_SPACE:
            self.do_roll()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.do_stop()
        elif pygame.K_1 <= k <= pygame.K_9:
            i = k - pygame.K_1
            if self.die_sel is not None:
                self.do_branch(i)
            else:
                self.do_die(i)
        elif k == pygame.K_p:
            self.do_pass()
        elif k == pygame.K_x:
            self.toggle_marks()
        elif k == pygame.K_v:
            self.do_toggle_result()
        else:
            return False
        return True

    # ------------------------------------------------------------------ update
    def animate(self, dt: float) -> None:
        if self.anim_roll is not None and self.clock - self.anim_roll >= ROLL_TIME:
            self.anim_roll = None
        for seat, (nodes, t0) in list(self.anim_tram.items()):
            if self.clock - t0 >= STEP_TIME * (len(nodes) - 1):
                del self.anim_tram[seat]
        for seat, (_a, _b, t0) in list(self.anim_jump.items()):
            if self.clock - t0 >= JUMP_TIME:
                del self.anim_jump[seat]
        for cell, t0 in list(self.flash.items()):
            if self.clock - t0 >= FLASH_TIME:
                del self.flash[cell]

    def settle(self) -> None:
        st = self.state
        if not self.human_turn() or st.phase != "play":
            self.sel = None
            self.start_mode = False
        elif self.sel is not None and self.sel[1] not in st.seats[self.sel[0]].hand:
            self.sel = None
        if st.phase != "choose":
            self.die_sel = None
            self.branch = []

    # ------------------------------------------------------------------ text helpers
    def _line_badge(self, surface, line: int, centre, r: float = 11) -> None:
        if line:
            pygame.draw.circle(surface, draw.LINE_RGB[line], centre, r)
            pygame.draw.circle(surface, (20, 20, 20), centre, r, 1)
            self._blit_text(surface, str(line), int(r * 1.2), draw.LINE_INK[line], True,
                            center=(centre[0], centre[1] + 1))
        else:
            th = self.theme
            pygame.draw.circle(surface, mix(th.panel, th.panel_edge, 0.6), centre, r)
            self._blit_text(surface, "?", int(r * 1.2), th.text_dim, True, center=centre)

    # ------------------------------------------------------------------ route progress
    def route_nodes(self, seat: int) -> list[int]:
        """The route drawn for ``seat`` (tram nodes, the start first): while building with the route
        complete, the trip Start trip offers (``route.planned_trip``: the shorter end, a shortest path
        through every stop); on the trip, the way ahead from the tram (``route.best_path``). Empty
        otherwise (cached per board, line, stops and tram state)."""
        st = self.state
        me = st.seats[seat]
        if not me.line or not me.stops:
            return []
        key = ("route", st.board, me.line, me.stops, me.driving, me.start, me.pos, me.served)
        got = self._net_cache.get(key)
        if got is not None:
            return got
        out: list[int] = []
        if me.driving:
            table = self.rules.route_table(st, seat)
            if table is not None:
                ahead = R.best_path(table, me.pos, me.served)
                out = [me.pos, *ahead] if ahead else []
        else:
            plan = R.planned_trip(st.board, me.line, me.stops)
            if plan is not None:
                end, path = plan
                out = [R.home(me.line, end), *path]
        self._cache_net(key, out)
        return out

    def next_stop(self, seat: int) -> tuple[int, str] | None:
        """On the trip: the node of the next stop on the way ahead (a sign tile of a stop not yet
        served) and its letter, or the destination terminal and "" once every stop is served."""
        st = self.state
        me = st.seats[seat]
        nodes = self.route_nodes(seat)
        if not me.driving or len(nodes) < 2:
            return None
        want = {st.board.sign_of(k): k for j, k in enumerate(me.stops) if not me.served >> j & 1}
        for n in nodes[1:]:
            k = want.get(R.node_cell(n))
            if k:
                return n, k
        return nodes[-1], ""

    def network(self, seat: int) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """The track that serves ``seat``'s route, banded in its line colour: the route itself once it
        is complete (:meth:`route_nodes`), before that the shortest ways from its terminals to its stops
        and to each other (``route.serving_paths``); square (x, y) -> tracks (side pairs)."""
        st = self.state
        me = st.seats[seat]
        if not me.line:
            return {}
        key = ("band", st.board, me.line, me.stops)
        got = self._net_cache.get(key)
        if got is not None:
            return got
        route = self.route_nodes(seat) if not me.driving else []
        paths = [route] if route else R.serving_paths(st.board, me.line, me.stops)
        out: dict[tuple[int, int], set] = {}
        for p in paths:
            for (x, y), pair in path_tracks(p):
                out.setdefault((x, y), set()).add(pair)
        res = {k: sorted(v) for k, v in out.items()}
        self._cache_net(key, res)
        return res

    def _cache_net(self, key: tuple, value: Any) -> None:
        if len(self._net_cache) > 48:
            self._net_cache.clear()
        self._net_cache[key] = value

    def linked(self, seat: int) -> str:
        """Stops of ``seat`` linked to its terminals by the track so far (``rules.linked_stops``)."""
        st = self.state
        key = (st.board, seat)
        v = self._linked_cache.get(key)
        if v is None:
            if len(self._linked_cache) > 64:
                self._linked_cache.clear()
            v = self._linked_cache[key] = self.rules.linked_stops(st, seat)
        return v

    def squares_left(self, seat: int) -> int | None:
        table = self.rules.route_table(self.state, seat)
        if table is None:
            return None
        me = self.state.seats[seat]
        return table.distance(me.pos, me.served)

    # ------------------------------------------------------------------ draw: board
    def _board_layer(self) -> pygame.Surface:
        """The empty board: squares, buildings, the ring and its terminals (cached per palette)."""
        key = (self.theme.name,)
        if self._board_cache is not None and self._board_cache[0] == key:
            return self._board_cache[1]
        surf = pygame.Surface(AREA.size)
        surf.fill(self.theme.bg)
        pygame.draw.rect(surf, draw.RING, BOARD.inflate(8, 8), border_radius=14)
        for y in range(1, GRID + 1):
            for x in range(1, GRID + 1):
                r = self.cell_rect(x, y)
                pygame.draw.rect(surf, draw.STREET, r)
                pygame.draw.rect(surf, draw.STREET_EDGE, r, 1)
        font = self.app.font(26, True)
        for k, (x, y) in BUILDINGS.items():
            draw.draw_building(surf, self.cell_rect(x, y), k, font)
        # coordinates in the ring corners' rows and columns (x along the top and bottom, y at the sides)
        small = self.app.font(11, True)
        dim = mix(self.theme.text_dim, draw.RING, 0.3)
        legs = {xy_of(c) for c in LEGS}
        for i in range(1, GRID + 1):
            for (x, y) in ((i, 0), (i, GRID + 1), (0, i), (GRID + 1, i)):
                if (x, y) not in legs:
                    img = small.render(str(i), True, dim)
                    surf.blit(img, img.get_rect(center=self.cell_centre(x, y)))
        num = self.app.font(15, True)
        for line, ends in TERMINAL_CELLS.items():
            for cells in ends:
                xy = [xy_of(c) for c in cells]
                side = ring_side(xy[0])
                out = SIDE_DELTA[side]
                draw.draw_terminal(surf, [self.cell_rect(x, y).topleft for x, y in xy],
                                   [BASE_TRACKS[c] for c in cells], line, SQ, num, out)
        self._board_cache = (key, surf)
        return surf

    def _position_layer(self) -> pygame.Surface:
        """The board with the tiles, the focus seat's linked track and the stop signs on one opaque
        surface (cached per board, focus line and marks)."""
        st = self.state
        board = st.board
        focus = self.card_seat()
        show = focus is not None and self.cards_visible(focus) and not st.seats[focus].driving
        line = st.seats[focus].line if show else 0
        key = (self.theme.name, line, self.mark_exchangeable)
        if self._pos_cache is not None and self._pos_cache[0] == key and self._pos_cache[1] is board:
            return self._pos_cache[2]
        surf = self._board_layer().copy()
        net = self.network(focus) if show else {}
        for c in range(len(board.cells)):
            t = board.tile_at(c)
            if t is None:
                continue
            x, y = xy_of(c)
            r = self.cell_rect(x, y)
            surf.blit(self.art.tile(t[0], t[1]), r.topleft)
            if net.get((x, y)):
                draw.draw_band(surf, r.topleft, SQ, net[(x, y)], draw.LINE_RGB[line])
            if self.mark_exchangeable and TILES[t[0]].exchangeable:
                self._blit_text(surf, "⇄", 13, (255, 255, 255), True, topright=(r.right - 3, r.y + 1))
        for c in board.signs:
            if c >= 0:
                self._draw_sign(surf, c, board.sign_at(c))
        self._pos_cache = (key, board, surf)
        return surf

    def _draw_sign(self, surface, c: int, letter: str) -> None:
        """The stop sign of building ``letter`` on square ``c``, toward its building."""
        x, y = xy_of(c)
        bx, by = BUILDINGS[letter]
        cx, cy = self.cell_centre(x, y)
        draw.draw_sign(surface, (cx + (bx - x) * SQ * SIGN_AT, cy + (by - y) * SQ * SIGN_AT), letter,
                       SQ * 0.23, self.app.font(15, True), (bx - x, by - y))

    def _draw_board(self, surface) -> None:
        st = self.state
        th = self.theme
        surface.blit(self._position_layer(), (0, 0))
        focus = self.card_seat()
        if self.last_tiles is not None:          # the last tiles laid stay outlined until others are
            for x, y in self.last_tiles[1]:
                r = self.cell_rect(x, y).inflate(-3, -3)
                pygame.draw.rect(surface, th.bg, r, 4, border_radius=4)
                pygame.draw.rect(surface, th.accent, r.inflate(-1, -1), 2, border_radius=4)
        for (x, y), t0 in self.flash.items():
            a = 1.0 - (self.clock - t0) / FLASH_TIME
            pygame.draw.rect(surface, mix(th.bg, th.accent, max(0.0, a)), self.cell_rect(x, y).inflate(-2, -2), 3,
                             border_radius=4)
        hint = self.hint[1] if self.hint is not None and self.hint[0] == self.match.cursor else None
        if hint is not None and hint.get("t") == "tile":
            pulse = 0.5 + 0.5 * abs(((self.clock * 2) % 2) - 1)
            pygame.draw.rect(surface, mix(th.accent, (255, 255, 255), pulse),
                             self.cell_rect(hint["x"], hint["y"]).inflate(6, 6), 4, border_radius=6)
        # the focus seat's stops and terminals
        if focus is not None and self.cards_visible(focus):
            me = st.seats[focus]
            done = self.served_or_linked(focus)
            for k in me.stops:
                r = self.cell_rect(*BUILDINGS[k])
                col = draw.LINE_RGB[me.line]
                pygame.draw.rect(surface, col, r.inflate(-1, -1), 3, border_radius=7)
                if k in done:
                    pygame.draw.circle(surface, th.good, (r.right - 9, r.y + 9), 8)
                    self._blit_text(surface, "✓", 12, (255, 255, 255), True, center=(r.right - 9, r.y + 9))
            if me.line and not me.driving:
                pulse = 0.5 + 0.5 * (1 if not self.start_mode else abs(((self.clock * 2) % 2) - 1))
                for cells in TERMINAL_CELLS[me.line]:
                    xy = [xy_of(c) for c in cells]
                    box = self.cell_rect(*xy[0]).union(self.cell_rect(*xy[1])).inflate(4, 4)
                    pygame.draw.rect(surface, mix(th.bg, (255, 255, 255), pulse), box, 3, border_radius=18)
        self._draw_route(surface)
        self._draw_selection(surface)
        self._draw_branches(surface)
        self._draw_trams(surface)

    def served_or_linked(self, seat: int) -> str:
        """Stops done so far: served on the trip, or (while building) linked to the terminals."""
        me = self.state.seats[seat]
        if me.driving:
            return "".join(k for j, k in enumerate(me.stops) if me.served >> j & 1)
        return self.linked(seat)

    def _draw_selection(self, surface) -> None:
        st = self.state
        th = self.theme
        if st.pending and self.human_turn() and st.phase == "play":
            x, y = xy_of(st.fix)
            pulse = 0.5 + 0.5 * abs(((self.clock * 2) % 2) - 1)
            pygame.draw.rect(surface, mix(th.accent, (255, 255, 255), pulse), self.cell_rect(x, y), 4,
                             border_radius=6)
        if self.sel is None:
            return
        plays = self.legal_plays()
        tile = self.sel[1]
        for (x, y), masks in plays.items():
            r = self.cell_rect(x, y)
            now = ORIENT[tile][self.rot] in masks
            exchange = st.board.tile_at(cell_of(x, y)) is not None
            if now:
                surface.blit(self._legal_shade(), r.topleft)
                pygame.draw.rect(surface, th.good, r.inflate(-2, -2), 2, border_radius=5)
                if exchange:
                    self._blit_text(surface, "⇄", 16, (255, 255, 255), True, topleft=(r.x + 3, r.y + 1))
            else:
                self._blit_text(surface, "↻", 13, mix(th.good, (255, 255, 255), 0.3), True,
                                bottomright=(r.right - 4, r.bottom - 2))
        if self.hover is not None:
            x, y = self.hover
            if 1 <= x <= GRID and 1 <= y <= GRID:
                r = self.cell_rect(x, y)
                ghost = self.art.tile(tile, self.rot).copy()
                ghost.set_alpha(190)
                surface.blit(ghost, r.topleft)
                ok, _rots = self.fits(x, y)
                pygame.draw.rect(surface, th.good if ok else th.bad, r, 3, border_radius=5)

    def _legal_shade(self) -> pygame.Surface:
        key = ("legal", self.theme.name)
        img = self._shades.get(key)
        if img is None:
            img = pygame.Surface((SQ, SQ), pygame.SRCALPHA)
            img.fill((*self.theme.good, 45))
            self._shades[key] = img
        return img

    def path_points(self, nodes: list[int] | tuple[int, ...]) -> list[tuple[float, float]]:
        """Screen points (px) along the tracks a tram drives through ``nodes`` (start node first): along
        each track's curve on the board, through the middle of a terminal's squares."""
        pts: list[tuple[float, float]] = []

        def mid(c: int, side: int) -> tuple[float, float]:
            x, y = xy_of(c)
            cx, cy = self.cell_centre(x, y)
            dx, dy = SIDE_DELTA[side]
            return cx + dx * SQ / 2, cy + dy * SQ / 2

        def centre(c: int) -> tuple[float, float]:
            return self.cell_centre(*xy_of(c))

        for i, n in enumerate(nodes):
            c, e = R.node_cell(n), R.node_entry(n)
            nxt = R.node_cell(nodes[i + 1]) if i + 1 < len(nodes) else None
            if e == R.HOME:
                if nxt is None:
                    pts.append(centre(c))
                    continue
                g = LEGS[c]
                leg = next((k for k in TERMINAL_CELLS[g.line][g.end] if NEIGH[k][LEGS[k].board_side] == nxt), c)
                pts += [centre(leg), mid(leg, LEGS[leg].board_side)]
            elif c in LEGS:
                pts += [mid(c, e), centre(c)]
                if nxt is not None:
                    p = LEGS[c].partner
                    pts += [centre(p), mid(p, LEGS[p].board_side)]
            else:
                t = _exit_side(c, nxt) if nxt is not None else None
                if t is None:
                    pts += [mid(c, e), centre(c)]
                    continue
                ox, oy = self.cell_rect(*xy_of(c)).topleft
                pts += [(ox + px, oy + py) for px, py in draw.track_line(e, t, SQ)]
        return pts

    def _route_layer(self, nodes: list[int], line: int) -> tuple[pygame.Surface, tuple[int, int]]:
        """The route ``nodes`` as a see-through band in the line colour with a dark edge and arrows
        showing the way, on a transparent surface just large enough, and its top left (px; cached per
        route and line)."""
        key = ("route-layer", tuple(nodes), line)
        got = self._shades.get(key)
        if got is not None:
            return got
        for k in [k for k in self._shades if k[0] == "route-layer"]:
            del self._shades[k]
        pts = self.path_points(nodes)
        box = pygame.Rect(min(x for x, _ in pts), min(y for _, y in pts), 1, 1)
        box.union_ip(pygame.Rect(max(x for x, _ in pts), max(y for _, y in pts), 1, 1))
        box.inflate_ip(24, 24)
        img = pygame.Surface(box.size, pygame.SRCALPHA)
        ox, oy = box.topleft
        pts = [(x - ox, y - oy) for x, y in pts]
        col = draw.LINE_RGB[line]
        a = 215                     # see-through: the tiles show under the route (drawn into the pixels)
        if len(pts) > 1:
            for width, c in ((13, (16, 16, 16, a)), (7, (*col, a))):
                pygame.draw.lines(img, c, False, pts, width)
                for p in pts:
                    pygame.draw.circle(img, c, p, width // 2)
        # a chevron every second square shows the way the tram goes
        for i in range(1, len(nodes) - 1, 2):
            cx, cy = self.cell_centre(*xy_of(R.node_cell(nodes[i])))
            at = (cx - ox, cy - oy)
            n = nodes[i]
            if R.node_entry(n) == R.HOME or R.node_cell(n) in LEGS:
                continue
            t = _exit_side(R.node_cell(n), R.node_cell(nodes[i + 1]))
            if t is None:
                continue
            dx, dy = SIDE_DELTA[t]
            tip = (at[0] + dx * 9, at[1] + dy * 9)
            back = (at[0] - dx * 3, at[1] - dy * 3)
            wing = [(back[0] - dy * 7, back[1] + dx * 7), tip, (back[0] + dy * 7, back[1] - dx * 7)]
            pygame.draw.lines(img, (16, 16, 16, a), False, wing, 6)
            pygame.draw.lines(img, (255, 255, 255, a), False, wing, 3)
        self._shades[key] = (img, (ox, oy))
        return img, (ox, oy)

    def route_seat(self) -> int | None:
        """Whose route is drawn: the seat whose cards the panel shows, when they may be seen."""
        seat = self.card_seat()
        if seat is None or not self.cards_visible(seat):
            return None
        return seat

    def _draw_route(self, surface) -> None:
        seat = self.route_seat()
        if seat is None:
            return
        me = self.state.seats[seat]
        nodes = self.route_nodes(seat)
        if seat in self.anim_tram or seat in self.anim_jump:
            return   # the way ahead is drawn again once the tram stands
        if len(nodes) > 1:
            img, at = self._route_layer(nodes, me.line)
            surface.blit(img, at)
            board = self.state.board
            for c in {R.node_cell(n) for n in nodes}:    # the stop signs on the route stay on top
                letter = board.sign_at(c)
                if letter:
                    self._draw_sign(surface, c, letter)
        nxt = self.next_stop(seat)
        if nxt is not None:
            th = self.theme
            node, letter = nxt
            x, y = xy_of(R.node_cell(node))
            r = self.cell_rect(x, y)
            pygame.draw.rect(surface, (16, 16, 16), r.inflate(10, 10), 3, border_radius=9)
            pygame.draw.rect(surface, th.accent, r.inflate(6, 6), 4, border_radius=8)
            text = f"next stop {letter}" if letter else "home"
            img = self._text(text, 13, (20, 20, 20), True)
            tag = img.get_rect(midbottom=(r.centerx, r.y - 6)).inflate(10, 4)
            above = BUILDINGS[letter][1] < y if letter else False
            if above or tag.top < BOARD.top:   # never over the stop's building
                tag.midtop = (r.centerx, r.bottom + 6)
            tag.clamp_ip(BOARD)
            pygame.draw.rect(surface, th.accent, tag, border_radius=6)
            surface.blit(img, img.get_rect(center=tag.center))

    def shown_ways(self) -> tuple[int | None, list[R.Move]]:
        """The die whose ways are drawn and its ways: the die chosen at a fork, or the die under the
        pointer when it can be carried out more than one way (a preview)."""
        if self.die_sel is not None and self.branch:
            return self.die_sel, self.branch
        st = self.state
        if st.phase != "choose" or not self.human_turn() or self.anim_roll is not None:
            return None, []
        for i, face in enumerate(st.dice):
            if self.die_rect(i).collidepoint(self.hover_pos):
                moves = [m for m in self.rules.moves(st, face) if m.path]
                return (i, moves) if len(moves) > 1 else (None, [])
        return None, []

    def _draw_branches(self, surface) -> None:
        die, ways = self.shown_ways()
        if die is None:
            return
        th = self.theme
        seat = self.to_act()
        me = self.state.seats[seat]
        for k, mv in enumerate(ways):
            if not mv.path:
                continue
            hot = self.branch_hover == k
            pts = self.path_points([me.pos, *mv.path])
            if len(pts) > 1:
                pygame.draw.lines(surface, (16, 16, 16), False, pts, 9 if hot else 7)
                pygame.draw.lines(surface, th.highlight if hot else (255, 255, 255), False, pts, 5 if hot else 3)
            x, y, _ = R.node_json(mv.path[-1])
            c = self.cell_centre(x, y)
            pygame.draw.circle(surface, th.accent, c, 14)
            pygame.draw.circle(surface, (20, 20, 20), c, 14, 2)
            self._blit_text(surface, str(k + 1), 16, (20, 20, 20), True, center=(c[0], c[1] + 1))

    def tram_position(self, seat: int) -> tuple[tuple[float, float], int]:
        """Where ``seat``'s tram is drawn now (px) and its heading: along the path of a ``drive`` being
        animated, or on its square."""
        me = self.state.seats[seat]
        if seat in self.anim_tram:
            nodes, t0 = self.anim_tram[seat]
            prog = max(0.0, (self.clock - t0) / STEP_TIME)
            k = min(int(prog), len(nodes) - 2)
            f = min(1.0, prog - k)
            a, b = nodes[k], nodes[k + 1]
            pts = [self.cell_centre(a[0], a[1])] + [self.cell_centre(*sq) for sq in _via(a, b)]
            # through a terminal's loop the step follows both of its squares
            seg = f * (len(pts) - 1)
            j = min(int(seg), len(pts) - 2)
            g = seg - j
            (ax, ay), (bx, by) = pts[j], pts[j + 1]
            return (ax + (bx - ax) * g, ay + (by - ay) * g), _heading(b)
        if seat in self.anim_jump:
            a, b, t0 = self.anim_jump[seat]
            f = min(1.0, (self.clock - t0) / JUMP_TIME)
            ca, cb = self.cell_centre(a[0], a[1]), self.cell_centre(b[0], b[1])
            return (ca[0] + (cb[0] - ca[0]) * f, ca[1] + (cb[1] - ca[1]) * f), _heading(b)
        node = R.node_json(me.pos)
        return self.cell_centre(node[0], node[1]), _heading(node)

    def _draw_trams(self, surface) -> None:
        st = self.state
        font = self.app.font(13, True)
        spots: dict[tuple[int, int], int] = {}
        for seat, me in enumerate(st.seats):
            if not me.driving:
                continue
            (cx, cy), heading = self.tram_position(seat)
            key = (int(cx) // 8, int(cy) // 8)
            k = spots.get(key, 0)
            spots[key] = k + 1
            draw.draw_tram(surface, (cx + k * 7, cy + k * 7), heading, me.line, SQ, font)

    # ------------------------------------------------------------------ draw: status
    def status_text(self) -> str:
        """The line over the board: whose turn and what to do."""
        st = self.state
        if self.match.is_over():
            return self.result_line()
        seat = self.to_act()
        if seat is None:
            return "…"
        name = self.seat_name(seat)
        you = name == "You"
        who = "" if you else f"{name}: "
        if self.handover_needed():
            return f"Hand the screen to {name}"
        if self.reviewing():
            what = {"play": "lays track", "roll": "rolls or stops", "choose": "uses a die"}.get(st.phase, "plays")
            return f"Replay: {name} {what} next"
        if self.is_bot(seat):
            if st.phase in ("roll", "choose"):
                return f"{name} drives line {st.seats[seat].line}…"
            return f"{name} is thinking…"
        if st.phase == "play":
            if self.start_mode:
                return f"{who}choose the terminal your tram leaves from"
            if st.pending:
                fx, fy = xy_of(st.fix)
                return f"{who}the second tile must exchange the tile at ({fx},{fy})"
            n = st.played + 1
            if self.sel is not None:
                return f"{who}tile {n} of 2: click a green square  ·  R / wheel turns it"
            start = "  ·  or start your trip" if self.turn_options()[0] else ""
            return f"{who}tile {n} of 2: click a tile in your hand{start}"
        if st.phase == "roll":
            if st.used == 0:
                return f"{who}roll the dice (Space)"
            return f"{who}roll again (Space) or stop (Enter)"
        if st.phase == "choose":
            if self.anim_roll is not None:
                return f"{who}rolling…"
            if self.die_sel is not None:
                return f"{who}the track forks: click a numbered square"
            return f"{who}click a die to use it (1-{len(st.dice)})"
        return ""

    def result_line(self) -> str:
        st = self.state
        if st.winner >= 0:
            name = self.seat_name(st.winner)
            verb = "win" if name == "You" else "wins"
            return f"Game over: {name} {verb}, line {st.seats[st.winner].line} is home"
        return "Game over: a draw (nobody could lay a tile for a whole round)"

    def board_rect(self) -> pygame.Rect:
        """The board with its ring (px)."""
        return BOARD.inflate(8, 8)

    def notices_rect(self) -> pygame.Rect:
        return NOTICES

    def status_notice(self) -> Notice | None:
        if self.match.is_over() and not self.show_result:
            return None
        text = self.status_text()
        return Notice("status", text[:1].upper() + text[1:], self.theme.text, self.theme.panel, 17)

    def standing_notices(self) -> list[Notice]:
        # the last move in words while no message is up (a message about it takes its place)
        if self.msg is None and self.log_lines:
            th = self.theme
            return [Notice("message", self.log_lines[-1], th.text_dim, mix(th.bg, th.panel, 0.3), 14)]
        return []

    def _draw_status(self, surface) -> None:
        self.draw_notices(surface)      # the status, the message or the last move, the bot's error

    # ------------------------------------------------------------------ draw: panel
    def _draw_panel(self, surface) -> None:
        """The side panel, kept as a picture while what it shows stays the same (:meth:`panel_key`)."""
        key = self.panel_key()
        if key is None:
            self._paint_panel(surface)
        else:
            self.kept_picture(surface, PANEL, key, self._paint_panel)
        info = self.hover_info()      # the line about the square under the pointer: on its own, over it
        if info:
            self._blit_text(surface, info, 13, self.theme.text, topleft=(PX, 744))

    def panel_key(self) -> tuple | None:
        """Everything the side panel shows, for keeping its picture (None while dice roll: every frame
        differs): the position, who sees which cards, the seat thinking, the pointer's tile and
        die, the picked-up tile and its turn, the modes, the last moves and every button's look; the line
        about the square under the pointer is drawn over the picture."""
        if self.anim_roll is not None:
            return None
        st = self.state
        turn = self.to_act()
        hover_die = None
        if st.dice and self.human_turn():
            hover_die = next((i for i in range(len(st.dice)) if self.die_rect(i).collidepoint(self.hover_pos)), None)
        buttons = [*self.panel_buttons, self.b_start, self.b_pass, self.b_roll, self.b_stop, *self.b_end,
                   self.b_cancel, *self.branch_buttons]
        return (Same(st), self.theme.name, self._sight(), self.confirmed, self.human_turn(),
                self.thinking_text() if turn is not None and self.bot_thinking() else None,
                self.hand_at(self.hover_pos) if self.seats_card.collidepoint(self.hover_pos) else None,
                hover_die, self.sel, self.sel_slot, self.rot, self.start_mode, self.die_sel,
                self.last_dice, tuple(tuple(self.hand_slots(seat)) for seat in range(len(self.seats))),
                len(self.log_lines), tuple(self.log_lines[-16:]), tuple(map(button_look, buttons)),
                tuple(self.seat_name(seat) for seat in range(len(self.seats))))

    def _paint_panel(self, surface) -> None:
        th = self.theme
        surface.fill(th.panel, PANEL)
        pygame.draw.line(surface, th.panel_edge, PANEL.topleft, PANEL.bottomleft)
        cfg = self.match.config
        self._blit_text(surface, "Streetcar", 24, th.text, True, topleft=(PX, 14))
        dice = {"bga": "3 dice", "published": "3 dice (published)", "classic": "classic die"}[cfg["dice"]]
        line = f"{cfg['players']} players  ·  {dice}  ·  pile {self.state.pile_size}" + \
            ("  ·  shared hands" if cfg["share_hands"] else "")
        self._blit_text(surface, line, 13, th.text_dim, topright=(PANEL.right - 16, 24))
        self._card(surface, self.seats_card)
        for seat in range(len(self.seats)):
            self._draw_seat(surface, seat)
        self._draw_cards(surface)
        self._draw_action(surface)
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        keys = "R turn · Space roll · Enter stop · 1-3 dice · P pass · X marks · H hint · Ctrl+Z undo"
        self.kit.blit(surface, keys, 12, th.text_dim, width=PW, midtop=(PANEL.centerx, 770))

    def hover_info(self) -> str:
        if self.hover is None:
            return ""
        x, y = self.hover
        c = cell_of(x, y)
        for k, pos in BUILDINGS.items():
            if pos == (x, y):
                return f"({x},{y})  building {k}: {BUILDING_NAMES[k]}"
        if c in LEGS:
            g = LEGS[c]
            return f"terminal of line {g.line}: {TERMINAL_NAMES[g.line][g.end]}"
        if not (1 <= x <= GRID and 1 <= y <= GRID):
            return ""
        t = self.state.board.tile_at(c)
        text = f"({x},{y})"
        if t is not None:
            text += f"  {TILE_LABELS[t[0]]}" + ("  ·  brown: exchangeable" if TILES[t[0]].exchangeable
                                                else "  ·  trees: never exchanged")
        sign = self.state.board.sign_at(c)
        if sign:
            text += f"  ·  stop sign {sign}"
        return text

    def _draw_seat(self, surface, seat: int) -> None:
        th = self.theme
        st = self.state
        me = st.seats[seat]
        row = self.seat_row(seat)
        turn = self.to_act()
        over = self.match.is_over()
        if seat == turn and not over:
            self.kit.active_row(surface, row, 0.2)
        elif over and seat == st.winner:
            self.kit.active_row(surface, row, 0.25, th.good, edge=False)
        tag = self._text(f"P{seat + 1}", 14, (16, 16, 20), True)
        box = tag.get_rect(midleft=(row.x + 8, row.centery)).inflate(12, 6)
        pygame.draw.rect(surface, SEAT_COLOURS[seat % len(SEAT_COLOURS)], box, border_radius=6)
        surface.blit(tag, tag.get_rect(center=box.center))
        visible = self.cards_visible(seat)
        self._line_badge(surface, me.line if visible else 0, (box.right + 16, row.centery))
        name = self.seat_name(seat)
        x0 = box.right + 34
        self._blit_text(surface, name, 16, th.text, True, topleft=(x0, row.y + 5))
        if seat == turn and self.bot_thinking():
            sub, col = self.thinking_text(), th.accent
        elif me.driving:
            left = self.squares_left(seat)
            served = sum(1 for j in range(len(me.stops)) if me.served >> j & 1)
            sub = f"driving · {served}/{len(me.stops)} stops" + (
                " · home" if seat == st.winner else f" · {left} to go" if left is not None else "")
            col = th.text_dim
        elif visible and me.stops:
            done = self.linked(seat)
            sub = "stops " + " ".join(k + ("✓" if k in done else "") for k in me.stops)
            col = th.text_dim
        else:
            sub, col = f"building · {len(me.hand)} tiles", th.text_dim
        self._blit_text(surface, sub, 12, col, topleft=(x0, row.y + 28))
        # the open hand
        sources = self.rules.sources(st, turn) if turn is not None and self.human_turn() and st.phase == "play" else []
        hover = self.hand_at(self.hover_pos) if self.seats_card.collidepoint(self.hover_pos) else None
        picked = False
        slots = self.hand_slots(seat)
        for slot, t in enumerate(slots):
            r = self.slot_rect(seat, slot)
            if t is None:
                pygame.draw.rect(surface, mix(th.panel, th.panel_edge, 0.5), r.inflate(-6, -6), 1, border_radius=5)
                continue
            i = [k for k, u in enumerate(me.hand) if u == t][slots[:slot].count(t)]
            lifted = not picked and self.sel == (seat, t) and self.sel_slot in (None, (seat, slot))
            if lifted:
                picked = True
                r = r.move(0, -3)
            # a picked-up tile is shown turned as it would be laid
            surface.blit(self.art.tile(t, self.rot if lifted else 0, HAND_TILE), r.topleft)
            if lifted:
                pygame.draw.rect(surface, th.accent, r.inflate(4, 4), 3, border_radius=6)
            elif seat in sources:
                edge = th.highlight if hover == (seat, i) else mix(th.panel, th.accent, 0.6)
                pygame.draw.rect(surface, edge, r.inflate(2, 2), 1, border_radius=5)
        if me.driving and not me.hand:
            self._blit_text(surface, "no tiles left", 12, th.text_dim, midright=(row.right - 10, row.centery))

    def _draw_cards(self, surface) -> None:
        th = self.theme
        st = self.state
        card = self.cards_card
        seat = self.card_seat()
        if seat is None:
            self._card(surface, card, "CARDS")
            msg = ("Hidden until the next player confirms" if self.handover_needed() else
                   "Hidden: the line and route cards are secret")
            self._blit_text(surface, msg, 15, th.text_dim, center=card.center)
            return
        me = st.seats[seat]
        name = self.seat_name(seat)
        label = "YOUR CARDS" if name == "You" or (seat == self.viewer()) else f"{name.upper()}'S CARDS"
        self._card(surface, card, label)
        if not me.line:
            return
        self._line_badge(surface, me.line, (card.x + 26, card.y + 44), 13)
        self._blit_text(surface, draw.line_name(me.line), 16, th.text, True, topleft=(card.x + 46, card.y + 34))
        a, b = TERMINAL_NAMES[me.line]
        if me.driving:
            a, b = (a, b) if me.start == 0 else (b, a)
        self._blit_text(surface, f"{a} → {b}" if me.driving else f"{a} ↔ {b}", 13, th.text_dim,
                        topleft=(card.x + 196, card.y + 37))
        done = self.served_or_linked(seat)
        x = card.x + 16
        names = [BUILDING_NAMES[k] + (" ✓" if k in done else "") for k in me.stops]
        # the route card's label and the stops' names at the largest size that fits the card's width
        # (the label left out before the names go below 11 px)
        room = card.right - 10 - x
        label, size = True, 11
        for label, size in ((True, 13), (True, 12), (False, 13), (False, 12), (False, 11)):
            need = (104 if label else 0) + sum(29 + self.app.font(size, k in done).size(nm)[0] + 12
                                               for k, nm in zip(me.stops, names)) - 12
            if need <= room:
                break
        if label:
            self._blit_text(surface, f"Route card {me.card}:", 13, th.text_dim, topleft=(x, card.y + 64))
            x += 104
        for k, nm in zip(me.stops, names):
            ok = k in done
            chip = pygame.Rect(x, card.y + 60, 24, 22)
            pygame.draw.rect(surface, draw.BUILDING, chip, border_radius=5)
            self._blit_text(surface, k, 14, draw.BUILDING_INK, True, center=chip.center)
            t = self._blit_text(surface, nm, size, th.good if ok else th.text, ok,
                                midleft=(chip.right + 5, chip.centery))
            x = t.right + 12
        if me.driving:
            left = self.squares_left(seat)
            n = sum(1 for j in range(len(me.stops)) if me.served >> j & 1)
            text = f"On the trip: {n} of {len(me.stops)} stops served" + \
                (f", {left} squares to go at best" if left is not None else "")
            col = th.text
        elif self.rules.route_complete(st, seat):
            text, col = "Route complete: you may start your trip", th.good
        else:
            text = f"{len(done)} of {len(me.stops)} stops linked to your terminals so far"
            col = th.text_dim
        if st.winner == seat:
            text, col = "Home: this tram won", th.good
        self._blit_text(surface, text, 13, col, topleft=(card.x + 16, card.y + 90))

    def _draw_action(self, surface) -> None:
        th = self.theme
        st = self.state
        card = self.action_card
        seat = self.to_act()
        if self.match.is_over() or seat is None:
            self._card(surface, card, "LAST MOVES")
            self._draw_log(surface, card)
            return
        me = st.seats[seat]
        if st.phase in ("roll", "choose", "dice") or me.driving:
            self._card(surface, card, f"DICE · {self.seat_name(seat).upper()}")
            self._draw_dice(surface)
            if self.human_turn():
                if self.branch_buttons:
                    for b in self.branch_buttons:
                        b.draw(surface, self.app)
                else:
                    self.b_roll.draw(surface, self.app)
                    self.b_stop.draw(surface, self.app)
            return
        if not self.human_turn():
            self._card(surface, card, "LAST MOVES")
            self._draw_log(surface, card)
            return
        self._card(surface, card, f"TILE {st.played + 1} OF 2")
        if self.start_mode:
            self._blit_text(surface, "Start your trip from which terminal?", 15, th.text, True,
                            topleft=(card.x + 16, card.y + 32))
            for b in self.b_end + [self.b_cancel]:
                b.draw(surface, self.app)
            return
        x0, y0 = card.x + 16, card.y + 34
        if self.sel is not None:
            hand, tile = self.sel
            img = self.art.tile(tile, self.rot, 72)
            surface.blit(img, (x0, y0))
            pygame.draw.rect(surface, th.accent, pygame.Rect(x0, y0, 72, 72).inflate(4, 4), 2, border_radius=6)
            plays = self.legal_plays()
            now = sum(1 for v in plays.values() if ORIENT[tile][self.rot] in v)
            other = len(plays) - now
            ex = sum(1 for (x, y), v in plays.items() if ORIENT[tile][self.rot] in v
                     and st.board.tile_at(cell_of(x, y)) is not None)
            lines = [(TILE_LABELS[tile][:1].upper() + TILE_LABELS[tile][1:], th.text, True),
                     (f"fits {now} square{'s' if now != 1 else ''} turned so" + (f" ({ex} by exchange ⇄)" if ex else ""),
                      th.good if now else th.bad, False),
                     (f"{other} more when turned (↻, R / wheel)" if other else "", th.text_dim, False),
                     ("from " + self.seat_name(hand) + "'s hand" if hand != seat else "", th.text_dim, False)]
            for k, (text, col, bold) in enumerate(lines):
                if text:
                    self._blit_text(surface, text, 14, col, bold, topleft=(x0 + 88, y0 + k * 19))
        else:
            tips = ["Click a tile in your hand to pick it up."]
            if st.share and any(s.driving and s.hand for i, s in enumerate(st.seats) if i != seat):
                tips.append("Drivers' hands are open: you may play their tiles too.")
            tips.append("Brown tiles can be exchanged; green ones (trees) never.")
            if st.pending:
                fx, fy = xy_of(st.fix)
                tips.insert(0, f"Your first tile needs the second: exchange ({fx},{fy}).")
            for k, text in enumerate(tips):
                self._blit_text(surface, text, 14, th.text if k == 0 else th.text_dim, topleft=(x0, y0 + k * 20))
        if card.h > 200:
            self._draw_log(surface, pygame.Rect(card.x, card.y + 112, card.w, card.h - 170), title=False)
        self.b_start.draw(surface, self.app)
        self.b_pass.draw(surface, self.app)

    def _draw_log(self, surface, rect, title: bool = True) -> None:
        self.kit.move_log(surface, rect, self.log_lines)

    def _draw_dice(self, surface) -> None:
        th = self.theme
        st = self.state
        big = self.app.font(30, True)
        small = self.app.font(12)
        if self.anim_roll is not None and st.dice:
            rng = random.Random(int((self.clock - self.anim_roll) * 14))
            for i in range(len(st.dice)):
                r = self.die_rect(i).move(rng.randint(-3, 3), rng.randint(-3, 3))
                draw.draw_die(surface, r, rng.choice(st.faces), small, big)
            return
        if st.dice:
            for i, face in enumerate(st.dice):
                r = self.die_rect(i)
                moves = self.rules.moves(st, face) if st.phase == "choose" else [None]
                usable = bool(moves)
                draw.draw_die(surface, r, face, small, big, dim=not usable)
                if self.die_sel == i:
                    pygame.draw.rect(surface, th.accent, r.inflate(6, 6), 3, border_radius=12)
                elif self.human_turn() and r.collidepoint(self.hover_pos):
                    pygame.draw.rect(surface, th.highlight, r.inflate(6, 6), 2, border_radius=12)
                self._blit_text(surface, f"{i + 1}: {draw.FACE_CAPTION[face]}", 12, th.text_dim,
                                midtop=(r.centerx, r.bottom + 4))
            return
        if self.last_dice is not None and self.last_dice[0] == st.turn and st.used > 0:
            _seat, faces, chosen = self.last_dice
            for i, face in enumerate(faces):
                r = self.die_rect(i)
                draw.draw_die(surface, r, face, small, big, dim=i != chosen)
                if i == chosen:
                    pygame.draw.rect(surface, th.good, r.inflate(6, 6), 2, border_radius=12)
            self._blit_text(surface, f"used: {FACE_LABELS[faces[chosen]]}", 12, th.text_dim,
                            topleft=(self.die_rect(0).x, self.die_rect(0).bottom + 4))
        else:
            k = 1 if st.classic else 3 - st.used
            self._blit_text(surface, f"{k} {'die' if k == 1 else 'dice'} to roll", 15, th.text_dim,
                            topleft=(self.die_rect(0).x, self.die_rect(0).y + 20))
        if st.used and not st.classic and st.phase == "roll":
            self._blit_text(surface, f"{3 - st.used} left this turn", 13, th.text_dim,
                            topleft=(self.die_rect(0).x, self.die_rect(0).bottom + 22))

    # ------------------------------------------------------------------ draw: overlays
    def _draw_handover(self, surface) -> None:
        th = self.theme
        self.kit.shade(surface, (0, 0, W_LOGICAL, H_LOGICAL), 215)
        box = pygame.Rect(0, 0, 560, 250)
        box.center = (W_LOGICAL // 2, H_LOGICAL // 2)
        pygame.draw.rect(surface, th.panel, box, border_radius=18)
        pygame.draw.rect(surface, th.accent, box, 2, border_radius=18)
        seat = self.to_act()
        name = self.seat_name(seat)
        tag = self._text(f"P{seat + 1}", 18, (16, 16, 20), True)
        chip = tag.get_rect(midtop=(box.centerx, box.y + 22)).inflate(16, 8)
        pygame.draw.rect(surface, SEAT_COLOURS[seat % len(SEAT_COLOURS)], chip, border_radius=7)
        surface.blit(tag, tag.get_rect(center=chip.center))
        self._blit_text(surface, f"{name}'s turn", 30, th.text, True, midtop=(box.centerx, box.y + 58))
        self._blit_text(surface, f"Pass the screen to {name}. The line and route cards stay hidden", 15,
                        th.text_dim, midtop=(box.centerx, box.y + 104))
        self._blit_text(surface, "until they confirm who they are.", 15, th.text_dim,
                        midtop=(box.centerx, box.y + 124))
        self.b_iam.draw(surface, self.app)

    def _draw_result(self, surface) -> None:
        th = self.theme
        st = self.state
        box = self.end_box()
        win = st.winner if st.winner >= 0 else None
        if win is not None:
            me = st.seats[win]
            sub = (f"Line {me.line} reached {TERMINAL_NAMES[me.line][me.dest]} with every stop served "
                   f"after {st.turns} turns.")
        else:
            sub = "Nobody could lay a tile for a whole round while nobody was driving."
        self.draw_end_frame(surface, AREA, box, win, sub)
        cols = [box.x + 30, box.x + 250, box.x + 330]
        y = box.y + 104
        for x, label in zip(cols, ("PLAYER", "LINE", "STOPS AND TRIP")):
            self._blit_text(surface, label, 13, th.text_dim, True, topleft=(x, y))
        for seat, me in enumerate(st.seats):
            yy = y + 28 + seat * 40
            self._blit_text(surface, f"P{seat + 1}  {self.seat_name(seat)}", 17, th.text, seat == win,
                            topleft=(cols[0], yy))
            self._line_badge(surface, me.line, (cols[1] + 12, yy + 10), 12)
            done = self.served_or_linked(seat)
            stops = " ".join(k + ("✓" if k in done else "") for k in me.stops)
            if seat == win:
                state = "home"
            elif me.driving:
                left = self.squares_left(seat)
                state = f"driving, {left} to go" if left is not None else "driving"
            else:
                state = "route complete" if self.rules.route_complete(st, seat) else "building"
            self._blit_text(surface, f"{stops}   ({state})", 15, th.text, topleft=(cols[2], yy + 1))
        for b in self.end_buttons:
            b.draw(surface, self.app)

    def draw(self, surface: pygame.Surface) -> None:
        self._draw_board(surface)
        self._draw_status(surface)
        self._draw_panel(surface)
        if self.match.is_over():
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)
        elif self.handover_needed():
            self._draw_handover(surface)
