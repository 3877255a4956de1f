"""The Tantrix Gobble real-time race screen (specs/gobble.md "Real-time race", "Interface expectations").

Layout at the logical 1280x800 px: a strip across the top with a panel per opponent (seat tag and name,
tiles left in the pile, penalty stack size with its top tile face up, gobbles, OUT position, a marker
while they owe gifts); the board below it (as in Solitaire: zoom, pan, fit, gobble markers 1 / 2, the
last tile of every player tagged with its seat); on the right the player's side: the race clock, the
revealed tile(s), the counts, the face-up penalty stack, the gift chooser and the buttons.

The race has no turns. ``update(dt)`` moves the match clock on (``Match.advance``: automatic gifts
fall due there) and lets bots whose timer is due act (``BotTimers.run_due``, at most ``BOTS_PER_FRAME``
a frame); nothing waits for a bot, and the board under a dragged tile is re-rendered as the bots place. Every action's events come
back through ``match.listeners`` (banners, sounds, notices).

Controls: drag the revealed tile or the top of the penalty stack onto the board (click it, then click a
cell, works too); wheel, right click or Q/E turn it; drop the revealed tile on the penalty stack, press
D or the button to discard it. After a gobble: pick the source (pile top / stack top; P / S) and click
an opponent's panel (or press their seat number). Tab switches seats when several humans share the
mouse. H hints, F fits the view, +/- zoom, arrows or a right drag pan, F1 rules, Esc menu.

Scene contract (sim/app/scene.py): positions come from ``event.pos`` only, ``draw`` never changes the
match or the scene, every animation and every clock runs from ``update(dt)``.
"""
from __future__ import annotations

import math
from typing import Any

import pygame

from sim.ai.realtime import BotTimers
from sim.app.widgets import Button, dim_backdrop, mix
from sim.app.table import Same, button_look
from sim.app.ui import Notice
from sim.core.match import Match
from sim.core.registry import get_spec
from sim.core.seats import parse as parse_seat
from sim.net.remote import RemoteMatch

from . import draw
from .boardview import GOBBLE_NAMES, H_LOGICAL, BoardScene, fmt_time

STRIP = pygame.Rect(0, 0, 940, 128)
BOARD = pygame.Rect(0, 128, 940, 672)
PANEL = pygame.Rect(940, 0, 340, 800)
PX = PANEL.x + 18                      # side panel content left edge
PW = PANEL.w - 36                      # side panel content width
HAND_CARD = pygame.Rect(PX, 58, PW, 226)
HAND_C = (HAND_CARD.centerx, HAND_CARD.y + 92)
HAND_S = 48
STATS_CARD = pygame.Rect(PX, 294, PW, 70)
STACK_CARD = pygame.Rect(PX, 374, PW, 138)
STACK_C = (STACK_CARD.x + 66, STACK_CARD.y + 80)
STACK_S = 34
GIFT_CARD = pygame.Rect(PX, 522, PW, 168)
OPP_H = 112
OPP_S = 20
NOTICE_TIME = 6.0
FLASH_TIME = 2.4
#: Zoom levels the automatic fit uses (each change re-renders the tiles at the new size).
FIT_LEVELS = (16, 18, 20, 22, 25, 28, 31, 35, 39, 44, 49, 54, 58)
#: Seat colours (a seat is always named by its tag "P1".."P6" as well: colour is never the only cue).
SEAT_COLOURS = ((86, 180, 233), (204, 121, 167), (230, 159, 0), (120, 200, 120), (240, 228, 66),
                (190, 190, 205))
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


def seat_name(kind: str) -> str:
    """What a seat is called on screen: "Human", "Hard bot", or a LAN player's name."""
    if kind == "human":
        return "Human"
    if kind.startswith("bot:"):
        return f"{kind[4:].capitalize()} bot"
    if kind.startswith("lan:"):
        return kind[4:]
    return kind


#: bot decisions per frame at most (each takes a few ms; a bot due meanwhile acts one frame later)
BOTS_PER_FRAME = 2
COUNTDOWN = 3.0        # s of 3-2-1 before a new race with a human seat
GO_TIME = 0.8          # s "Go!" stays up

class RaceScene(BoardScene):
    """The race on ``match`` (a RaceRules match, in any phase). The mouse plays the first "human" seat
    of ``match.seats``; every "bot:LEVEL" seat is driven by a bot from ``RACE.make_bot``.
    On a ``RemoteMatch`` (a LAN race) the mouse plays this machine's seat and the host every other
    one. Options: ``bots`` (a list of real-time bots to use instead), ``countdown`` (s of the 3-2-1
    shown before a new local race with a human seat starts: no clock, no bots, no moves meanwhile;
    default ``COUNTDOWN``)."""

    title = "Tantrix Gobble"
    BOARD = BOARD
    NOTICE_H = 114         # four notices: the status, the message, an opponent's news, the bot's error
    PANELS = (PANEL, STRIP)
    FIT_PAD = (70, 40)
    FIT_LEVELS = FIT_LEVELS
    HAND_DRAG_S = HAND_S

    def __init__(self, app: Any, match: Match, **opts: Any):
        RACE = get_spec("gobble")
        super().__init__(app, match, RACE)
        self._init_board_view()
        on_lan = isinstance(match, RemoteMatch)
        if on_lan:   # this machine plays its own seat, the host every other one (named by its kind)
            self.kinds = ["human" if i == match.seat else k for i, k in enumerate(match.kinds)]
            self.seat_list = [parse_seat(k) for k in self.kinds]
            self.seats = list(self.kinds)
        else:
            self.kinds = list(self.seats)     # "human", "bot:LEVEL", "lan:NAME" (TableScene's seats)
        humans = self.humans()
        self.seat: int | None = humans[0] if humans else None
        bots = opts.get("bots")
        if bots is None and on_lan:
            bots = []
        if bots is None:
            bots = [RACE.make_bot(i, k.split(":", 1)[1], match.seed)
                    for i, k in enumerate(self.kinds) if k.startswith("bot:")]
        for b in bots:  # a resumed race: each bot's first look comes after its own delay, not at once
            if b.next_time < match.time:
                b.next_time = round(match.time + b.next_time, 6)
        self.timers = BotTimers(match, bots)
        self.rots: dict[int, int] = {}             # rotation of each tile the mouse may hold
        self.gift_src = "stack"
        self._gift_took_hold = False  # set by the listener when a gift took the held tile
        self.notices: list[list] = []              # [text, colour, age s]
        self.panel_flash: dict[int, tuple[str, float]] = {}
        self._finish: tuple[int, dict] | None = None
        self.board_hint: tuple[Any, dict] | None = None  # (board, action)
        fresh = (not on_lan and match.time == 0 and bool(self.humans())
                 and all(e["p"] < 0 for e in match.log))    # only the deal so far
        self.countdown = float(opts.get("countdown", COUNTDOWN)) if fresh else 0.0
        self.go_shown = GO_TIME
        self._ended = match.is_over()
        self._build_buttons()
        self._sync_tiles()
        self._fit(immediate=True)
        self.on_enter()

    # ------------------------------------------------------------------ derived state
    def me(self):
        """The mouse seat's Seat, or None without one."""
        return None if self.seat is None else self.state.seats[self.seat]

    def playing(self) -> bool:
        """Whether the mouse seat may act now (not during the countdown)."""
        st = self.state
        return (self.seat is not None and st.phase == "play" and st.seats[self.seat].out is None
                and not self.match.is_over() and self.countdown <= 0)

    def opponents(self) -> list[int]:
        """Seats shown in the strip: everyone but the mouse seat."""
        return [i for i in range(self.state.n) if i != self.seat]

    def tag(self, seat: int) -> str:
        return f"P{seat + 1}"

    def name(self, seat: int) -> str:
        if seat == self.seat:
            return "You"
        return seat_name(self.kinds[seat])

    def owed(self) -> int:
        me = self.me()
        return len(me.owed) if me is not None and me.out is None else 0

    def gift_left(self) -> float | None:
        """Seconds until the first owed gift is made automatically."""
        me = self.me()
        if me is None or not me.owed:
            return None
        return max(0.0, me.owed[0] - self.match.time)

    def can_receive(self, seat: int) -> bool:
        return seat != self.seat and self.state.seats[seat].out is None

    # ------------------------------------------------------------------ tiles and rotation
    def hand_slots(self) -> list[tuple[int, tuple[int, int], int]]:
        """``(tile, centre, size)`` of each revealed tile of the mouse seat."""
        if self.seat is None:
            return []
        tiles = self.state.revealed(self.seat)
        k = len(tiles)
        if k <= 1:
            return [(t, HAND_C, HAND_S) for t in tiles]
        size = 40 if k == 2 else 31
        step = 122 if k == 2 else 90
        x0 = HAND_C[0] - step * (k - 1) / 2
        return [(t, (round(x0 + i * step), HAND_C[1]), size) for i, t in enumerate(tiles)]

    def _sync_tiles(self) -> None:
        """Give every tile the mouse seats may hold a rotation (one that fits somewhere, if any)."""
        st = self.state
        if st.phase not in ("play", "over"):
            return
        keep: dict[int, int] = {}
        for h in self.humans():
            seat = st.seats[h]
            tiles = list(st.revealed(h)) + ([seat.stack[-1]] if seat.stack else [])
            for t in tiles:
                keep[t] = self.rots[t] if t in self.rots else self.first_fitting_rot(t, 0)
        self.rots = keep

    def focus_tile(self) -> int | None:
        """The tile the rotation keys act on: the held one, else the one under the pointer, else the
        first revealed tile, else the stack top."""
        t = self.held_tile()
        if t is not None:
            return t
        src = self.source_at(self.pointer)
        if src is not None:
            return self.tile_of(src)
        if self.seat is None:
            return None
        rev = self.state.revealed(self.seat)
        if rev:
            return rev[0]
        me = self.me()
        return me.stack[-1] if me.stack else None

    @property
    def rot(self) -> int:
        t = self.focus_tile()
        return 0 if t is None else self.rots.get(t, 0)

    @rot.setter
    def rot(self, value: int) -> None:
        t = self.focus_tile()
        if t is not None:
            self.rots[t] = value % 6

    def rotate(self, steps: int) -> None:
        if steps == 0 or not self.playing() or self.focus_tile() is None:
            return
        self.rot = self.rot + steps
        self._sound("rotate")

    # ------------------------------------------------------------------ sources (BoardScene hooks)
    def source_at(self, pos):
        """("pile", tile) over a revealed tile, ("stack", tile) over the stack top, else None."""
        if not self.playing():
            return None
        for t, c, s in self.hand_slots():
            if math.hypot(pos[0] - c[0], pos[1] - c[1]) <= s * 1.05:
                return ("pile", t)
        me = self.me()
        if me.stack and math.hypot(pos[0] - STACK_C[0], pos[1] - STACK_C[1]) <= STACK_S * 1.15:
            return ("stack", me.stack[-1])
        return None

    def tile_of(self, src) -> int | None:
        if src is None or self.seat is None:
            return None
        kind, t = src
        st = self.state
        if kind == "pile":
            return t if t in st.revealed(self.seat) else None
        stack = st.seats[self.seat].stack
        return t if stack and stack[-1] == t else None

    def source_home(self, src):
        if src[0] == "stack":
            return (STACK_C, STACK_S)
        for t, c, s in self.hand_slots():
            if t == src[1]:
                return (c, s)
        return (HAND_C, HAND_S)

    def active_buttons(self) -> list[Button]:
        if self.match.is_over() and self._ended:
            return self.end_buttons if self.show_result else [self.b_show] + self.panel_buttons
        out = list(self.panel_buttons)
        if self.playing():
            out.append(self.b_discard)
        if self.owed():
            out += [self.b_src_pile, self.b_src_stack]
        return out

    def press_before(self, pos) -> bool:
        if self.match.is_over() and self._ended and self.show_result:
            return True
        if STRIP.collidepoint(pos):
            j = self.panel_at(pos)
            if j is not None and self.owed():
                self.hold = None          # a tile held in click mode goes back: the gift comes first
                self.give(j)
            elif self.hold is not None:
                self.hold = None
            return True
        return False

    def click_elsewhere(self, pos) -> None:
        h = self.hold
        if h is not None and h["src"][0] == "pile" and STACK_CARD.collidepoint(pos):
            self.hold = None
            self.discard(h["src"][1])
            return
        self.hold = None

    def on_click_mode(self) -> None:
        self.say("Now click a highlighted space (right click or wheel turns the tile)", self.theme.text_dim)

    # ------------------------------------------------------------------ layout
    def panel_rects(self) -> list[tuple[int, pygame.Rect]]:
        """``(seat, rect)`` of each opponent panel in the strip."""
        opp = self.opponents()
        k = max(1, len(opp))
        gap = 10
        w = min(236, (STRIP.w - 20 - gap * (k - 1)) // k)
        total = k * w + gap * (k - 1)
        x = (STRIP.w - total) // 2
        out = []
        for j in opp:
            out.append((j, pygame.Rect(x, 8, w, OPP_H)))
            x += w + gap
        return out

    def panel_at(self, pos) -> int | None:
        for j, r in self.panel_rects():
            if r.collidepoint(pos):
                return j
        return None

    def _build_buttons(self) -> None:
        bw, bh, gap = (PW - 12) // 3, 38, 6
        y = 702
        col = [PX, PX + bw + gap, PX + 2 * (bw + gap)]
        self.b_fit = Button((col[0], y, bw, bh), "Fit view", self.do_fit, font_size=16, tooltip="F")
        self.b_rules = Button((col[1], y, bw, bh), "Rules", self.do_rules, font_size=16, tooltip="F1")
        self.b_menu = Button((col[2], y, bw, bh), "Menu", self.do_menu, font_size=16, style="quiet")
        self.panel_buttons = [self.b_fit, self.b_rules, self.b_menu]
        self.b_discard = Button((HAND_CARD.x + 14, HAND_CARD.bottom - 48, HAND_CARD.w - 28, 36),
                                "Put it on your stack   D", self.discard, font_size=15)
        half = (GIFT_CARD.w - 36) // 2
        sy = GIFT_CARD.y + 66
        self.b_src_pile = Button((GIFT_CARD.x + 14, sy, half, 52), "Pile top", lambda: self.choose_src("pile"),
                                 font_size=15)
        self.b_src_stack = Button((GIFT_CARD.x + 22 + half, sy, half, 52), "Stack top",
                                  lambda: self.choose_src("stack"), font_size=15)
        ox = BOARD.centerx
        self.b_new = Button((ox - 250, 0, 160, 46), "New race", self.do_new_race, style="primary", font_size=18)
        self.b_launch = Button((ox - 80, 0, 160, 46), "Launcher", self.do_menu, font_size=18)
        self.b_view = Button((ox + 90, 0, 160, 46), "View board", self.do_toggle_result, font_size=18)
        self.b_show = Button((BOARD.centerx - 90, BOARD.bottom - 60, 180, 42), "Show ranking",
                             self.do_toggle_result, font_size=17, style="primary")
        self.end_buttons = [self.b_new, self.b_launch, self.b_view]
        for b in self.end_buttons:
            b.rect.y = self._result_box().bottom - 84
        self._refresh_buttons()

    def _result_box(self) -> pygame.Rect:
        n = self.state.n
        box = pygame.Rect(0, 0, 780, 250 + 40 * n)
        box.center = (BOARD.centerx, (H_LOGICAL + STRIP.bottom) // 2 - 20)
        return box

    def _refresh_buttons(self) -> None:
        me = self.me()
        play = self.playing()
        self.b_discard.enabled = play and bool(self.state.revealed(self.seat))
        self.b_src_pile.enabled = play and bool(me.pile) if me is not None else False
        self.b_src_stack.enabled = play and bool(me.stack) if me is not None else False
        if me is not None and play and self.owed():
            if self.gift_src == "stack" and not me.stack and me.pile:
                self.gift_src = "pile"
            elif self.gift_src == "pile" and not me.pile and me.stack:
                self.gift_src = "stack"
        self.b_src_pile.style = "primary" if self.gift_src == "pile" else "normal"
        self.b_src_stack.style = "primary" if self.gift_src == "stack" else "normal"

    # ------------------------------------------------------------------ actions
    def submit(self, action: dict) -> bool:
        """Send ``action`` for the mouse seat; see :meth:`BoardScene.submit_as`."""
        return self.submit_as(self.seat, action)

    def drop(self, keep_on_fail: bool) -> None:
        h = self.hold
        if h is None:
            return
        src = h["src"]
        tile = self.tile_of(src)
        if tile is None:
            self.hold = None
            return
        if src[0] == "pile" and STACK_CARD.collidepoint(self.pointer):
            self.hold = None
            self.discard(tile)
            return
        rot = self.rots.get(tile, 0)
        tgt = self.target_for(tile, rot, self.pointer)
        if tgt is None:
            self._snap_back(rot)
            return
        cell = tgt[0]
        ok = self.submit({"t": "place", "src": src[0], "tile": tile, "rot": rot, "q": cell[0], "r": cell[1]})
        if ok:
            self.hold = None
        elif not keep_on_fail:
            self._snap_back(rot)

    def discard(self, tile: int | None = None) -> bool:
        """Put a revealed tile (the held one, else the first) onto the penalty stack."""
        if not self.playing():
            return False
        rev = self.state.revealed(self.seat)
        if tile is None:
            held = self.held_tile()
            tile = held if held in rev else (rev[0] if rev else None)
        if tile is None:
            self._sound("reject")
            self.say("No revealed tile to put on your stack", self.theme.bad)
            return False
        if self.hold is not None and self.hold["src"] == ("pile", tile):
            self.hold = None
        return self.submit({"t": "discard", "tile": tile})

    def choose_src(self, src: str) -> None:
        me = self.me()
        if me is None:
            return
        if (src == "pile" and not me.pile) or (src == "stack" and not me.stack):
            self._sound("reject")
            self.say(f"Your {'pile' if src == 'pile' else 'penalty stack'} is empty", self.theme.bad)
            return
        self.gift_src = src
        self._sound("click")
        self._refresh_buttons()

    def give(self, to: int) -> bool:
        """Give one owed tile from the chosen source to seat ``to``."""
        if not self.owed() or not self.playing():
            return False
        if to == self.seat or not 0 <= to < self.state.n:
            return False
        if self.state.seats[to].out is not None:
            self._sound("reject")
            self.say(f"{self.tag(to)} is OUT: no gifts to a player who has finished", self.theme.bad)
            return False
        me = self.me()
        src = self.gift_src
        if src == "stack" and not me.stack:
            src = "pile"
        elif src == "pile" and not me.pile:
            src = "stack"
        if self.hold is not None and self.hold["src"][0] == src:
            self.hold = None   # the tile in hand is the one given away
        return self.submit({"t": "gift", "src": src, "to": to})

    def switch_seat(self) -> None:
        if len(self.humans()) < 2:
            return
        i = self.humans().index(self.seat)
        self.seat = self.humans()[(i + 1) % len(self.humans())]
        self.hold = None
        self.board_hint = None
        self._sound("click")
        self.say(f"The mouse now plays {self.tag(self.seat)}", self.theme.text)
        self._refresh_buttons()

    def hint_refusal(self) -> str | None:
        """Why the hint is not offered, or None: a purist table never has one, and a race against
        other people has one only when the table allows it (``lan_hints``)."""
        if self.purist():
            return "a purist table has no hint"
        if self.against_people() and not self.match.config.get("lan_hints"):
            return "no hint in a race against people (the table does not allow it)"
        return None

    def against_people(self) -> bool:
        """Whether other people race here: a second human seat at this machine."""
        return len(self.humans()) > 1

    def do_hint(self) -> None:
        """H: where the hard bot would put one of your tiles now (quick, so on the frame)."""
        if not self.playing():
            self.unavailable("the game is over" if self.match.is_over() else "a hint is for a seat in the race")
            return
        why = self.hint_refusal()
        if why:
            self.unavailable(why)
            return
        from .ai import make_race_bot
        bot = make_race_bot(self.seat, "hard", self.match.seed)
        act = bot._placement(self.rules, self.state)
        if act is None:
            self.say("Hint: no place for any of your tiles right now", self.theme.accent)
            return
        self.board_hint = (self.state.board, act)
        self._sound("hint")
        where = "your stack's top tile" if act["src"] == "stack" else "your tile"
        self.say(f"Hint: {where} in the glowing space", self.theme.accent, 4.0)

    def do_rules(self) -> None:
        """The rules, opened at the race's section (the race pauses while they show)."""
        show = getattr(self.app, "show_rules", None)
        if show is None:
            return
        RACE = get_spec("gobble")
        rules = show(RACE)
        try:
            for size, _bold, _col, text, _x, y in rules.layout():
                if size >= 30 and text.lower().startswith("the real-time race"):
                    rules.scroll = min(rules.max_scroll, float(y))
                    break
        except (AttributeError, TypeError, ValueError):
            pass

    #: the keys line under the final ranking
    end_keys_hint = "N: new race  ·  V: view the board  ·  Esc: menu"

    def do_new_race(self) -> None:
        """A new race with the same seats (and handicap), on a new seed."""
        self.do_play_again()

    def do_toggle_result(self) -> None:
        self.show_result = not self.show_result

    # ------------------------------------------------------------------ match events
    def _note(self, text: str, colour=None) -> None:
        self.notices.append([text, colour or self.theme.text, 0.0])
        del self.notices[:-5]

    def _on_events(self, match: Match, events: list) -> None:
        th = self.theme
        sounds: list[str] = []
        mine = set(self.humans())
        for e in events:
            kind = e.get("e")
            if kind == "place":
                self.flash = ((e["q"], e["r"]), 0.0)
                if e["seat"] in mine:
                    sounds.append("place")
                    self.msg = None
            elif kind == "gobble":
                lvl = int(e.get("level", 1))
                who = e["seat"]
                text = GOBBLE_NAMES.get(lvl, f"{lvl}x Gobble!")
                if who in mine:
                    if len(self.humans()) > 1:
                        text = f"{self.tag(who)}: {text}"
                    self.banner = (text, 0.0, lvl)
                    sounds = [s for s in sounds if s != "place"] + ["double" if lvl >= 2 else "gobble"]
                else:
                    self.panel_flash[who] = (text, 0.0)
                    n = f"{lvl} tile{'s' if lvl > 1 else ''}"
                    self._note(f"{self.tag(who)} {'double ' if lvl >= 2 else ''}gobbled: gives {n}", th.accent)
            elif kind == "gift":
                a, b = e["from"], e["to"]
                how = " (automatic)" if e.get("auto") else ""
                if a in mine:
                    if self.hold is not None and self.hold.get("tile") == e.get("tile"):
                        self._gift_took_hold = True
                    where = "pile top" if e.get("src") == "pile" else "stack top"
                    self._note(f"You gave your {where} to {self.tag(b)}{how}", th.text)
                    sounds.append("click")
                elif b in mine:
                    self._note(f"{self.tag(a)} gave you a tile: it went into your pile{how}", th.bad)
                    self.panel_flash[a] = ("Gift to you", 0.0)
                else:
                    self._note(f"{self.tag(a)} gave a tile to {self.tag(b)}{how}", th.text_dim)
            elif kind == "out":
                who, pos = e["seat"], e.get("position", 0)
                if who in mine:
                    text = "OUT!" if len(self.humans()) == 1 else f"{self.tag(who)} OUT!"
                    self.banner = (text, 0.0, 0)
                    sounds = [s for s in sounds if s != "place"] + ["out"]
                    self._note(f"{'You are' if who == self.seat else self.tag(who) + ' is'} OUT: "
                               f"{ordinal(pos)}!", th.good)
                else:
                    self.panel_flash[who] = ("OUT!", 0.0)
                    self._note(f"{self.tag(who)} is OUT: {ordinal(pos)}", th.good)
            elif kind == "discard":
                if e["seat"] in mine:
                    sounds.append("penalty")
            elif kind == "over":
                if e.get("deadlock"):
                    self._note("Deadlock: no tile anyone holds fits anywhere", th.accent)
        for s in sounds:
            self._sound(s)
        self._sync_tiles()
        self._refresh_buttons()

    # ------------------------------------------------------------------ input
    def key(self, event) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_META | pygame.KMOD_ALT):
            return False
        over = self.match.is_over() and self._ended
        if over:
            if k in (pygame.K_n, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.do_new_race()
                return True
            if k == pygame.K_v:
                self.do_toggle_result()
                return True
        if k == pygame.K_TAB:
            if len(self.humans()) > 1:
                self.switch_seat()
                return True
            return False
        if k == pygame.K_d:
            self.discard()
            return True
        if k == pygame.K_p:
            if self.owed():
                self.choose_src("pile")
            return True
        if k == pygame.K_s:
            if self.owed():
                self.choose_src("stack")
            return True
        digits = {getattr(pygame, f"K_{i}"): i - 1 for i in range(1, 7)}
        digits.update({getattr(pygame, f"K_KP{i}"): i - 1 for i in range(1, 7)})
        if k in digits:
            j = digits[k]
            if self.owed() and j < self.state.n and j != self.seat:
                self.give(j)
            return True
        return self.board_key(event)

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        self.clock += dt
        # under a dialog (rules, replay controls) the race pauses: no clock, no bots
        if getattr(self.app, "top", self) is not self:
            return
        m = self.match
        if self.countdown > 0:              # 3, 2, 1: the race starts when it runs out
            self.countdown = max(0.0, self.countdown - dt)
            self.go_shown = 0.0
            if self.countdown <= 0:
                self._sound("start")
            self._refresh_buttons()
            return
        self.go_shown += dt
        if not m.is_over() and m.cursor == len(m.log):
            m.advance(dt)
            self.timers.run_due(limit=BOTS_PER_FRAME)
        self._tick_feedback(dt)
        for n in self.notices:
            n[2] += dt
        self.notices = [n for n in self.notices if n[2] < NOTICE_TIME]
        self.panel_flash = {j: (t, a + dt) for j, (t, a) in self.panel_flash.items() if a + dt < FLASH_TIME}
        if self.hold is not None and (self.tile_of(self.hold["src"]) is None or not self.playing()):
            self.hold = None
            if self._gift_took_hold:
                self.say("The tile you held was given away automatically", self.theme.bad)
        self._gift_took_hold = False
        if self.board_hint is not None and self.board_hint[0] is not self.state.board:
            self.board_hint = None  # the board changed: the hint (glow and message) may no longer hold
            if self.msg is not None and self.msg[0].startswith("Hint"):
                self.msg = None
        self._follow_camera(dt)
        if m.is_over() and not self._ended:
            self._ended = True
            self.show_result = True
            self.hold = None
            rank = self.rules.ranking(self.state)
            won = bool(self.humans()) and rank[0] in self.humans()
            self._sound("win" if won or not self.humans() else "lose")
        self._refresh_buttons()

    def wants_frame(self) -> bool:
        """Redraw policy of the race: a frame whenever what shows changes (:meth:`board_busy`), not every
        frame for the bots' sake (they play on the race's timers, run by :meth:`update` whether drawn or
        not); a hint thought out and a LAN race as every table."""
        if self._hint_job is not None or self.remote:
            return True
        return self.animating() or self.board_busy()

    def board_busy(self) -> bool:
        """Whether the picture changes with no input: the countdown and "Go!", the feedback (a flying
        tile, the flash, the banner, a pulsing hint, the camera gliding), a gift's running countdown;
        otherwise whether anything shown looks different from the last frame (:meth:`race_look`)."""
        if self.countdown > 0 or self.go_shown < GO_TIME or self.feedback_busy():
            return True
        if self.owed() and self.playing():
            return True
        return self.looks_changed("race", self.race_look())

    def race_look(self) -> tuple:
        """What the race screen shows that moves without input: the position (every seat's move), the
        race clock's text, the glow pulsing on a tile that fits a gobble space, the opponents' news and
        flashes, the message, the camera and every button's look."""
        st = self.state
        m = self.match
        now = m.time if m.cursor == len(m.log) else st.clock
        glow = None
        if self.playing():
            me = self.me()
            tiles = [t for t, _c, _s in self.hand_slots()] + list(me.stack[-1:])
            if any(self.fits_gobble(t) for t in tiles):
                glow = int(90 * (0.5 + 0.5 * math.sin(self.clock * 4.0))) // 10
        buttons = [*self.panel_buttons, self.b_discard, self.b_src_pile, self.b_src_stack, self.b_new,
                   self.b_launch, self.b_view, self.b_show]
        return (Same(st), m.cursor, len(m.log), m.is_over(), fmt_time(now), glow,
                tuple(text for text, _colour, _age in self.notices),
                tuple(sorted((j, text) for j, (text, _age) in self.panel_flash.items())),
                self.msg[:2] if self.msg is not None else None, self.bot_error, self.board_hint is not None,
                self.s, self.base(), self.show_result, self._ended, tuple(map(button_look, buttons)), self.theme.name)

    # ------------------------------------------------------------------ drawing
    def _decorate_background(self, surf) -> None:
        th = self.theme
        pygame.draw.rect(surf, mix(th.panel, th.bg, 0.35), STRIP)
        pygame.draw.line(surf, th.panel_edge, (0, STRIP.bottom - 1), (STRIP.right, STRIP.bottom - 1), 2)
        pygame.draw.line(surf, th.panel_edge, PANEL.topleft, PANEL.bottomleft, 2)

    def seat_colour(self, seat: int):
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def _tag(self, surface, seat: int, centre, size: int = 13) -> pygame.Rect:
        """A seat tag: "P3" on a rounded box in the seat's colour."""
        col = self.seat_colour(seat)
        img = self._text(self.tag(seat), size, (16, 16, 20), True)
        r = img.get_rect(center=centre)
        box = r.inflate(10, 4)
        pygame.draw.rect(surface, (0, 0, 0), box.move(0, 1), border_radius=5)
        pygame.draw.rect(surface, col, box, border_radius=5)
        surface.blit(img, r)
        return box

    def draw(self, surface: pygame.Surface) -> None:
        th = self.theme
        st = self.state
        sym = self._symbols()
        surface.blit(self._background(), (0, 0))
        clip = surface.get_clip()
        surface.set_clip(self.board_rect())   # never under the notices
        self._draw_board_layer(surface)
        tile = self.held_tile()
        holding = tile is not None and self.playing()
        rot = self.rots.get(tile, 0) if tile is not None else 0
        if holding:
            self._draw_legal(surface, tile, rot)
        self._draw_last_moves(surface)
        self._draw_flash(surface)
        if self.board_hint is not None and self.board_hint[0] is st.board:
            self.draw_hint(surface, self.board_hint[1], sym)
        if holding:
            self._draw_held(surface, tile, rot, sym)
        surface.set_clip(clip)
        self._draw_status(surface)
        self._draw_countdown(surface)
        self._draw_opponents(surface, sym)
        self._draw_side(surface, sym)
        if holding and self.hold["mode"] == "drag" and not BOARD.collidepoint(self.pointer):
            draw.tile_sprite(tile, rot, HAND_S, th, sym).blit(surface, *self.pointer)
        self._draw_fly(surface, sym)
        if not (self.match.is_over() and self._ended and self.show_result):
            self._draw_banner(surface)
        if self.match.is_over() and self._ended:
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)

    def _draw_last_moves(self, surface) -> None:
        st = self.state
        for i, cell in enumerate(st.last):
            if cell is None or cell not in st.board.tiles:
                continue
            x, y = self.cell_pos(cell)
            col = self.seat_colour(i)
            draw.cell_sprite(self.s, outline=col + (230,), width=0.07, scale=0.97).blit(surface, x, y)
            self._tag(surface, i, (x, y - round(self.s * 0.62)), 11 if self.s < 40 else 13)

    def _status_text(self) -> tuple[str, tuple]:
        th = self.theme
        st = self.state
        if st.phase == "over":
            return ("Deadlock: no tile anyone holds fits anywhere" if st.deadlock else "The race is over", th.panel)
        if self.seat is None:
            return ("Watching the bots race", th.panel)
        me = self.me()
        if self.countdown > 0:
            return ("Get ready: look at your tile, the race starts in a moment", th.panel)
        if me.out is not None:
            return (f"You are OUT ({ordinal(me.out)}): the others race on", mix(th.good, (0, 0, 0), 0.45))
        n = self.owed()
        if n:
            return (f"Give {n} tile{'s' if n > 1 else ''}: choose pile or stack top, then click an opponent",
                    mix(th.accent, (0, 0, 0), 0.45))
        if self.hold is not None:
            where = "a space" if self.purist() else "a highlighted space"
            return (f"Drop it on {where}  ·  wheel / right click / Q E turn it", th.panel)
        tiles = [t for _s, t in self.rules.placeable(st, self.seat)]
        if tiles and not self.purist() and not any(self.placements(t) for t in tiles):
            return ("None of your tiles fits now: put the revealed one on your stack (D)", th.panel)
        return ("Race! Drag your tile onto the Tantrix  ·  it must touch 2 tiles, colours matching", th.panel)

    def status_notice(self) -> Notice | None:
        text, col = self._status_text()
        return Notice("status", text, self.theme.text, col, 16) if text else None

    def _draw_status(self, surface) -> None:
        th = self.theme
        self.draw_notices(surface)      # the status, the message, the bot's error
        self._blit_text(surface, "wheel: zoom  ·  right-drag: pan  ·  F: fit  ·  H: hint", 13,
                        mix(th.bg, th.text_dim, 0.75), bottomright=(BOARD.right - 14, BOARD.bottom - 10))

    def _draw_countdown(self, surface) -> None:
        """The 3-2-1 before the race, then "Go!" for a moment."""
        if self.countdown > 0:
            text = str(math.ceil(self.countdown))
            frac = self.countdown - math.floor(self.countdown)
        elif self.go_shown < GO_TIME:
            text, frac = "Go!", 1.0 - self.go_shown / GO_TIME
        else:
            return
        th = self.theme
        r = round(70 + 30 * frac)
        c = (BOARD.centerx, BOARD.centery)
        disc = pygame.Surface((2 * r + 12, 2 * r + 12), pygame.SRCALPHA)   # see-through: the tiles show
        m = (r + 6, r + 6)
        pygame.draw.circle(disc, (0, 0, 0, 120), (m[0], m[1] + 4), r + 4)
        pygame.draw.circle(disc, (*th.panel, 175), m, r)
        pygame.draw.circle(disc, (*th.accent, 255), m, r, 5)
        surface.blit(disc, (c[0] - m[0], c[1] - m[1]))
        self._blit_text(surface, text, round(r * 0.9), th.accent if text == "Go!" else th.text, True,
                        center=(c[0], c[1] + 2))
        if self.countdown > 0:
            self._blit_text(surface, "The race starts…", 18, th.text, True, midtop=(c[0], c[1] + r + 16))

    def standing_notices(self) -> list:
        """The newest of the opponents' gobbles, gifts and OUTs, for a few seconds."""
        return [Notice("race", text, colour) for text, colour, _age in self.notices[-1:]]

    def _draw_opponents(self, surface, sym) -> None:
        th = self.theme
        st = self.state
        choosing = self.owed() > 0 and self.playing()
        hover = self.panel_at(self.pointer) if self.hold is None else None
        for j, r in self.panel_rects():
            seat = st.seats[j]
            out = seat.out is not None
            target = choosing and not out
            fill = mix(th.panel, th.bg, 0.3)
            if target and hover == j:
                fill = mix(fill, th.accent, 0.18)
            pygame.draw.rect(surface, fill, r, border_radius=12)
            edge = th.accent if target else mix(th.panel, th.panel_edge, 0.7)
            pygame.draw.rect(surface, edge, r, 2 if target else 1, border_radius=12)
            tb = self._tag(surface, j, (r.x + 24, r.y + 18), 14)
            name = self.name(j)
            self._blit_text(surface, name, 15, th.text if not out else th.text_dim, True,
                            midleft=(tb.right + 8, tb.centery))
            # the face-up stack top
            c = (r.x + 32, r.y + 62)
            if seat.stack:
                under = draw.cell_sprite(OPP_S, fill=th.tile + (255,), outline=th.tile_edge + (255,), width=0.06)
                for i in range(min(2, len(seat.stack) - 1), 0, -1):
                    under.blit(surface, c[0] - 3 * i, c[1] + 3 * i)
                draw.tile_sprite(seat.stack[-1], 0, OPP_S, th, sym).blit(surface, *c)
            else:
                draw.cell_sprite(OPP_S, fill=mix(th.panel, th.bg, 0.6) + (255,),
                                 outline=mix(th.panel, th.panel_edge, 0.35) + (255,), width=0.05).blit(surface, *c)
            tx = r.x + 64
            dim = th.text_dim
            self._blit_text(surface, f"{len(seat.pile)} in pile", 14, th.text, True, topleft=(tx, r.y + 36))
            self._blit_text(surface, f"{len(seat.stack)} on stack", 14, dim, topleft=(tx, r.y + 54))
            ng = seat.gobbles + seat.doubles
            g = f"{ng} gobble{'s' if ng != 1 else ''}"
            self._blit_text(surface, g, 14, dim, topleft=(tx, r.y + 72))
            # status line: OUT, gifts owed, the latest news, or a gift target
            fl = self.panel_flash.get(j)
            sy = r.bottom - 12
            if out:
                self._blit_text(surface, f"✓ OUT · {ordinal(seat.out)}", 14, th.good, True, midleft=(r.x + 12, sy))
                if choosing:
                    self._blit_text(surface, "no gifts", 13, th.text_dim, midright=(r.right - 10, sy))
            elif target:
                self._blit_text(surface, f"▶ give: click or {j + 1}", 14, th.accent, True, midleft=(r.x + 12, sy))
            elif fl is not None:
                self._blit_text(surface, f"★ {fl[0]}", 14, th.accent, True, midleft=(r.x + 12, sy))
            elif seat.owed:
                self._blit_text(surface, f"▲ owes {len(seat.owed)} gift{'s' if len(seat.owed) > 1 else ''}", 14,
                                th.accent, True, midleft=(r.x + 12, sy))
            if out:
                shade = pygame.Surface(r.size, pygame.SRCALPHA)
                pygame.draw.rect(shade, (0, 0, 0, 70), shade.get_rect(), border_radius=12)
                surface.blit(shade, r)

    def _draw_side(self, surface, sym) -> None:
        th = self.theme
        st = self.state
        me = self.me()
        # header: who the mouse plays, and the race clock
        if self.seat is not None:
            tb = self._tag(surface, self.seat, (PX + 20, 32), 16)
            title = "You" if len(self.humans()) < 2 else f"You: {self.tag(self.seat)}"
            if len(self.humans()) > 1:
                self._blit_text(surface, title, 20, th.text, True, midleft=(tb.right + 10, 26))
                self._blit_text(surface, "Tab: next seat", 12, th.text_dim, True, midleft=(tb.right + 11, 45))
            else:
                self._blit_text(surface, title, 22, th.text, True, midleft=(tb.right + 10, 32))
        else:
            self._blit_text(surface, "Spectator", 22, th.text, True, midleft=(PX, 32))
        m = self.match
        now = m.time if m.cursor == len(m.log) else st.clock     # a replay shows the position's time
        clock = self._text(f"RACE  {fmt_time(now)}", 16, th.text, True)
        cr = clock.get_rect(midright=(PX + PW - 10, 32))
        pygame.draw.rect(surface, mix(th.panel, th.bg, 0.45), cr.inflate(18, 10), border_radius=12)
        surface.blit(clock, cr)
        if me is None:
            self._card(surface, HAND_CARD, "NO SEAT")
            self._blit_text(surface, "No human player in this race.", 15, th.text_dim,
                            midtop=(HAND_CARD.centerx, HAND_CARD.y + 90))
            self._draw_buttons(surface)
            return
        self._draw_hand(surface, sym, me)
        # counts
        self._card(surface, STATS_CARD)
        cols = [("PILE", str(len(me.pile))), ("STACK", str(len(me.stack))), ("PLACED", str(me.placed)),
                ("GOBBLES", str(me.gobbles + me.doubles))]
        cw = STATS_CARD.w / 4
        for i, (lab, val) in enumerate(cols):
            cx = round(STATS_CARD.x + cw * (i + 0.5))
            self._blit_text(surface, val, 22, th.text, True, center=(cx, STATS_CARD.y + 28))
            self._blit_text(surface, lab, 11, th.text_dim, True, center=(cx, STATS_CARD.y + 54))
            if i:
                x = round(STATS_CARD.x + cw * i)
                pygame.draw.line(surface, mix(th.panel, th.panel_edge, 0.5), (x, STATS_CARD.y + 12),
                                 (x, STATS_CARD.bottom - 12))
        self._draw_stack(surface, sym, me)
        self._draw_gifts(surface, sym, me)
        self._draw_buttons(surface)

    def _draw_buttons(self, surface) -> None:
        th = self.theme
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        foot = ("Drag tile → space  ·  D: to stack  ·  Esc: menu" if self.seat is not None else
                "F1: rules  ·  Esc: menu")
        self._blit_text(surface, foot, 13, th.text_dim, midtop=(PANEL.centerx, 752))
        seed = self._text(self.race_label(), 12, mix(th.panel, th.text_dim, 0.6))
        surface.blit(seed, seed.get_rect(bottomright=(PX + PW, H_LOGICAL - 10)))

    def race_label(self) -> str:
        """The small line under the buttons that names this race ("race SEED")."""
        return f"race {self.match.seed}"

    def _draw_hand(self, surface, sym, me) -> None:
        th = self.theme
        slots = self.hand_slots()
        label = "YOUR TILE" if len(slots) <= 1 else "YOUR TILES"
        playing = self.playing()
        self._card(surface, HAND_CARD, label)
        self._blit_text(surface, f"{len(me.pile)} in pile", 13, th.text_dim, True,
                        topright=(HAND_CARD.right - 14, HAND_CARD.y + 10))
        if me.out is not None:
            self._blit_text(surface, "OUT!", 40, th.good, True, center=(HAND_CARD.centerx, HAND_C[1] - 14))
            self._blit_text(surface, f"You finished {ordinal(me.out)}", 17, th.text, True,
                            center=(HAND_CARD.centerx, HAND_C[1] + 30))
            return
        if not slots:
            self._blit_text(surface, "Pile empty", 17, th.text_dim, center=(HAND_CARD.centerx, HAND_C[1]))
            if me.stack:
                self._blit_text(surface, "play your stack's top tile", 13, th.text_dim,
                                center=(HAND_CARD.centerx, HAND_C[1] + 24))
        held_src = self.hold["src"] if self.hold is not None else None
        notes = []
        for t, c, s in slots:
            rot = self.rots.get(t, 0)
            if held_src == ("pile", t) and self.hold["mode"] == "drag":
                draw.cell_sprite(s, fill=mix(th.panel, th.bg, 0.7) + (255,),
                                 outline=mix(th.panel, th.panel_edge, 0.7) + (255,), width=0.04).blit(surface, *c)
                continue
            gob = self.fits_gobble(t) if playing else 0
            if gob:
                pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
                draw.glow_sprite(s, th.accent, 110 + int(90 * pulse) // 10 * 10).blit(surface, *c)
            if held_src == ("pile", t):
                draw.ghost_sprite(t, rot, s, th, sym, 110).blit(surface, *c)
            else:
                draw.tile_sprite(t, rot, s, th, sym).blit(surface, *c)
            notes.append(gob if gob else (0 if self.purist() or self.placements(t) else -1))
        if len(slots) == 1 and notes:
            k = notes[0]
            note, col = (("Fits a double gobble space!", th.accent) if k >= 4 else
                         ("Fits a gobble space!", th.accent) if k == 3 else
                         ("Fits nowhere now  ·  D: to stack", th.bad) if k < 0 else
                         ("Drag it to the board  ·  Q / E turn", th.text_dim))
            self._blit_text(surface, note, 14, col, k != 0, midtop=(HAND_CARD.centerx, HAND_CARD.bottom - 78))
        if self.b_discard.enabled:
            self.b_discard.draw(surface, self.app)

    def _draw_stack(self, surface, sym, me) -> None:
        th = self.theme
        h = self.hold
        dropping = (h is not None and h["src"][0] == "pile" and h["mode"] == "drag"
                    and STACK_CARD.collidepoint(self.pointer))
        self._card(surface, STACK_CARD, "PENALTY STACK", th.accent if dropping else None)
        stack = me.stack
        if stack:
            depth = min(3, len(stack) - 1)
            under = draw.cell_sprite(STACK_S, fill=th.tile + (255,), outline=th.tile_edge + (255,), width=0.06)
            for i in range(depth, 0, -1):
                under.blit(surface, STACK_C[0] - 4 * i, STACK_C[1] + 4 * i)
            top = stack[-1]
            rot = self.rots.get(top, 0)
            if h is not None and h["src"] == ("stack", top) and h["mode"] == "drag":
                draw.cell_sprite(STACK_S, fill=(0, 0, 0, 90), outline=th.accent + (200,), width=0.06).blit(surface, *STACK_C)
            else:
                if self.playing() and self.fits_gobble(top):
                    pulse = 0.5 + 0.5 * math.sin(self.clock * 4.0)
                    draw.glow_sprite(STACK_S, th.accent, 110 + int(90 * pulse) // 10 * 10).blit(surface, *STACK_C)
                alpha_ghost = h is not None and h["src"] == ("stack", top)
                if alpha_ghost:
                    draw.ghost_sprite(top, rot, STACK_S, th, sym, 110).blit(surface, *STACK_C)
                else:
                    draw.tile_sprite(top, rot, STACK_S, th, sym).blit(surface, *STACK_C)
        else:
            draw.cell_sprite(STACK_S, fill=mix(th.panel, th.bg, 0.7) + (255,),
                             outline=mix(th.panel, th.panel_edge, 0.7) + (255,), width=0.05).blit(surface, *STACK_C)
        tx = STACK_CARD.x + 128
        n = len(stack)
        self._blit_text(surface, str(n), 34, th.text if n < 4 else th.bad, True, topleft=(tx, STACK_CARD.y + 34))
        self._blit_text(surface, "tile" if n == 1 else "tiles", 15, th.text_dim,
                        topleft=(tx + 8 + self._text(str(n), 34, th.text, True).get_width(), STACK_CARD.y + 50))
        if dropping:
            note = "Drop: onto your stack"
        elif stack and self.playing() and not self.purist() and self.placements(stack[-1]):
            note = "top tile fits: drag it"
        elif stack:
            note = "only the top can be played"
        else:
            note = "empty"
        self._blit_text(surface, note, 13, th.accent if dropping else th.text_dim, topleft=(tx, STACK_CARD.y + 84))
        self._blit_text(surface, "drop your tile here", 13, th.text_dim, topleft=(tx, STACK_CARD.y + 104))

    def _draw_gifts(self, surface, sym, me) -> None:
        th = self.theme
        n = self.owed()
        if not n or not self.playing():
            self._card(surface, GIFT_CARD, "GIFTS")
            lines = ["Fill a space marked 1 or 2 (a gobble)", "to give 1 or 2 of your tiles away.",
                     "Empty pile and stack: you are OUT."]
            for i, line in enumerate(lines):
                self._blit_text(surface, line, 14, th.text_dim, topleft=(GIFT_CARD.x + 14, GIFT_CARD.y + 40 + i * 22))
            return
        self._card(surface, GIFT_CARD, None, th.accent)
        self._blit_text(surface, f"Give {n} tile{'s' if n > 1 else ''}", 22, th.accent, True,
                        topleft=(GIFT_CARD.x + 14, GIFT_CARD.y + 10))
        left = self.gift_left() or 0.0
        self._blit_text(surface, f"auto in {math.ceil(left):d} s", 15, th.text, True,
                        topright=(GIFT_CARD.right - 14, GIFT_CARD.y + 16))
        bar = pygame.Rect(GIFT_CARD.x + 14, GIFT_CARD.y + 46, GIFT_CARD.w - 28, 8)
        pygame.draw.rect(surface, mix(th.panel, th.bg, 0.6), bar, border_radius=4)
        frac = max(0.0, min(1.0, left / max(0.1, self.state.gift_timeout)))
        if frac > 0:
            fill = bar.copy()
            fill.w = max(4, round(bar.w * frac))
            pygame.draw.rect(surface, th.accent if frac > 0.3 else th.bad, fill, border_radius=4)
        for b, src, tiles, label in ((self.b_src_pile, "pile", me.pile[:1], "Pile top"),
                                     (self.b_src_stack, "stack", me.stack[-1:], "Stack top")):
            r = b.rect
            chosen = b.enabled and self.gift_src == src
            if not b.enabled:
                fill, fg = th.panel, mix(th.panel, th.text_dim, 0.6)
            elif chosen:
                fill, fg = mix(th.panel, th.accent, 0.35), th.text
            else:
                fill, fg = mix(th.panel, th.panel_edge, 0.5 if b.hover else 0.3), th.text
            pygame.draw.rect(surface, fill, r, border_radius=9)
            pygame.draw.rect(surface, th.highlight if chosen else th.panel_edge, r, 2 if chosen else 1,
                             border_radius=9)
            if tiles:
                draw.tile_sprite(tiles[0], self.rots.get(tiles[0], 0), 17, th, sym).blit(surface, r.x + 26, r.centery)
            self._blit_text(surface, label, 15, fg, True, midleft=(r.x + 50, r.centery - 8))
            sub = ("✓ chosen" if chosen else f"key {src[0].upper()}") if b.enabled else "empty"
            self._blit_text(surface, sub, 12, th.accent if chosen else th.text_dim, chosen,
                            midleft=(r.x + 50, r.centery + 11))
        self._blit_text(surface, "then click an opponent's panel above", 13, th.text_dim,
                        topleft=(GIFT_CARD.x + 14, GIFT_CARD.bottom - 30))

    def finish_times(self) -> dict[int, float]:
        """Match time (s) at which each OUT seat went out, read from the log (cached per log length)."""
        m = self.match
        n = m.cursor
        if self._finish is not None and self._finish[0] == n:
            return self._finish[1]
        out: dict[int, float] = {}
        for k in range(1, n + 1):
            for j, seat in enumerate(m.states[k].seats):
                if seat.out is not None and j not in out:
                    out[j] = float(m.log[k - 1].get("t", 0.0))
        self._finish = (n, out)
        return out

    def ranking_rows(self) -> list[dict]:
        """The final ranking, best first: place, seat, name, result text, tiles left, gobbles (all of them)
        and how many of those were double gobbles."""
        st = self.state
        times = self.finish_times()
        rows = []
        for i, seat in enumerate(self.rules.ranking(st)):
            s = st.seats[seat]
            if s.out is not None:
                t = times.get(seat)
                res = f"✓ OUT {ordinal(s.out)}" + (f" · {fmt_time(t)}" if t is not None else "")
            else:
                res = "still in (deadlock)" if st.deadlock else "last one in"
            rows.append({"place": i + 1, "seat": seat, "name": self.name(seat), "result": res, "out": s.out,
                         "tiles": s.held, "gobbles": s.gobbles + s.doubles, "doubles": s.doubles})
        return rows

    def result_titles(self) -> tuple[str, str]:
        st = self.state
        rank = self.rules.ranking(st)
        if not self.humans():
            title = "Race over"
        elif len(self.humans()) == 1:
            place = rank.index(self.humans()[0]) + 1
            title = "You win!" if place == 1 else f"You finished {ordinal(place)}"
        else:
            title = f"{self.tag(rank[0])} wins!" if rank[0] in self.humans() else "Race over"
        if st.deadlock:
            sub = "Deadlock: no tile anyone holds fits anywhere; players still in are ranked by tiles left."
        else:
            sub = f"Finishing order  ·  race time {fmt_time(st.clock)}"
        return title, sub

    def _draw_result(self, surface) -> None:
        th = self.theme
        st = self.state
        dim_backdrop(surface, 150)
        box = self._result_box()
        pygame.draw.rect(surface, th.panel, box, border_radius=18)
        rows = self.ranking_rows()
        won = bool(self.humans()) and rows[0]["seat"] in self.humans()
        pygame.draw.rect(surface, th.good if won else th.panel_edge, box, 2, border_radius=18)
        title, sub = self.result_titles()
        self._blit_text(surface, title, 38, th.good if won else th.text, True, midtop=(box.centerx, box.y + 22))
        self._blit_text(surface, sub, 15, th.accent if st.deadlock else th.text_dim, midtop=(box.centerx, box.y + 74))
        cols = (box.x + 40, box.x + 106, box.x + 320, box.x + 520, box.x + 610, box.x + 690)
        y = box.y + 110
        for i, (x, head) in enumerate(zip(cols, ("PLACE", "PLAYER", "RESULT", "TILES LEFT", "GOBBLES", "DOUBLES"))):
            if i >= 3:
                self._blit_text(surface, head, 12, th.text_dim, True, midtop=(x + 24, y))
            else:
                self._blit_text(surface, head, 12, th.text_dim, True, topleft=(x, y))
        y += 26
        for row in rows:
            seat = row["seat"]
            band = pygame.Rect(box.x + 24, y - 6, box.w - 48, 36)
            if seat in self.humans():
                pygame.draw.rect(surface, mix(th.panel, th.accent, 0.14), band, border_radius=8)
            self._blit_text(surface, ordinal(row["place"]), 18, th.text, True, topleft=(cols[0], y))
            tb = self._tag(surface, seat, (cols[1] + 16, y + 11), 14)
            self._blit_text(surface, row["name"], 17, th.text, True, midleft=(tb.right + 10, y + 11))
            out_ = row["out"] is not None
            self._blit_text(surface, row["result"], 16, th.good if out_ else th.text_dim, out_,
                            topleft=(cols[2], y + 2))
            self._blit_text(surface, str(row["tiles"]), 17, th.text, True, midtop=(cols[3] + 24, y))
            self._blit_text(surface, str(row["gobbles"]), 17, th.text, False, midtop=(cols[4] + 24, y))
            self._blit_text(surface, str(row["doubles"]), 17, th.text, False, midtop=(cols[5] + 24, y))
            y += 40
        for b in self.end_buttons:
            b.draw(surface, self.app)
        self._blit_text(surface, self.end_keys_hint, 13, th.text_dim,
                        midbottom=(box.centerx, box.bottom - 10))
