"""The Tokami screen (specs/tokami.md "Play expectations"; research/tokami.md §4 "Game loop", §5).

Layout at the logical 1280x800 px: the X seen end-on on the left (``PILE``), the side panel on the right
(``PANEL``: whose turn, the phase in words, the score table, the buttons).

How a turn is played with the mouse (seed rules as decided in specs/tokami.md "Rule terms"):

* Press on a stick: the hand takes it in a live :class:`driver.Attempt` built from the state's poses.
  The stick follows the capped-force hand (it pushes the pile, it cannot plough through it). Once it
  has moved more than ``driver.TOUCH_MM`` (touch means take), the take (or, in phase winning, the draw)
  is submitted; a stick let go before that is only touched and nothing is recorded.
* Wheel turns the held stick (one notch one step, Shift fine); Tab lifts it out of the plane as a
  ghost (when ``Attempt.can_lift``) and switches it between across and along; 1-6 or [ ] choose the
  lane of an across ghost. The ghost is edged green where it may be put down, red where it overlaps.
  With nothing in hand, 1-6 or [ ] choose the lane looked into: the across-sticks in front of it turn
  see-through and cannot be picked, so a stick behind the front lane can be reached.
* Let go: a stick in the plane is left to the pile; a ghost is put down where it is (when it overlaps
  nothing; else it stays in hand until a click puts it somewhere free). The attempt then closes, the
  pile is shown settling, and the PHYSICS outcome is submitted. The first fall stops the attempt.
* In phase winning a stick is pulled off the X (dragged out of the V; an along-stick may also slide out
  along the trough with Tab). R refuses (the taboo stick becomes a minus stick), Enter ends the turn.
* Ctrl+Z in practice games puts the match back to the start of the latest human turn (the pile is
  rebuilt from that turn's poses: exact by design). F5 replays the last turn's hand tracks at quarter
  speed from the states before them (``driver.Playback``, drawing only).

Bots decide in a :class:`sim.ai.worker.BotWorker` (the frame never waits), the plan is run off the
frame too (``driver.run_plan``), then its hand track is played back visibly and the same action is
submitted. Settle phases run visibly (``driver.SettleRun``). Physics: ``SUBSTEPS`` steps of 1/240 s per
1/60 s update. ``draw`` never changes the match or a world.
"""
from __future__ import annotations

import math
import sys
import traceback
from typing import Any

import pygame

from sim.ai.worker import BotWorker
from sim.app.table import TableScene
from sim.app.ui import Notice
from sim.app.widgets import Button, dim_backdrop, draw_symbol, mix
from sim.core.match import Match
from sim.core.rules import PHYSICS, IllegalAction
from sim.core.registry import get_spec

from . import draw, driver, model
from .world import SETTINGS, TokamiWorld

W_LOGICAL, H_LOGICAL = 1280, 800
PILE = pygame.Rect(0, 0, 952, 800)
PANEL = pygame.Rect(952, 0, 328, 800)
PX = PANEL.x + 20
PW = PANEL.w - 40
TURN_CARD = pygame.Rect(PX, 58, PW, 132)
SCORE_CARD = pygame.Rect(PX, 202, PW, 388)
#: The projection of the pile area: 2.5 px per mm, the crossing of the X at (452, 566).
PROJ_SCALE = 2.5
PROJ_ORIGIN = (452.0, 566.0)
#: Physics steps (1/240 s) per 1/60 s update (research §4: 4 substeps); the slow replay runs 1 (¼ speed).
SUBSTEPS = 4
REPLAY_SUBSTEPS = 1
#: One wheel notch turns the held stick this much (rad); with Shift, the fine step.
TURN_STEP = math.radians(15.0)
TURN_FINE = math.radians(1.0)
#: Knock sounds: impacts (g·mm/s, ``TokamiWorld.impact``) below KNOCK_MIN are silent, KNOCK_FULL and
#: above play at full volume (log scale between); at most one knock per KNOCK_GAP s.
KNOCK_MIN = 150.0
KNOCK_FULL = 6000.0
KNOCK_GAP = 0.07
#: A bot's turn shows "thinking" at least this long (s), so a watcher can follow who plays.
BOT_MIN_THINK = 0.6
#: Refuse asks once: a second R / Refuse within this long (s) confirms it.
REFUSE_CONFIRM = 4.0
#: The hand's speed (mm/s) is measured over this long (s) when a stick leaves along the trough: it is
#: the pull's speed (a still hand pulls carefully, ``PileModel.slow_pull``).
PULL_WINDOW = 0.25
#: Pile speeds (mm/s, the fastest stick not in hand) read as "steady" below, "shaky" above.
WOBBLE_CALM = 8.0
WOBBLE_SHAKY = 60.0
#: With no human seat, the round-end card goes away by itself after this long (s).
CARD_AUTO = 4.0
BANNER_TIME = 1.8
#: A finished world is stepped for show at most this long (s) while its fallen sticks land.
CODA_TIME = 1.5
#: Steps after the close before a visible settle gives up (the driver's 10 s limit).
SETTLE_STEPS = round(SETTINGS.settle_timeout / SETTINGS.dt)
SEAT_COLOURS = ((86, 180, 233), (204, 121, 167), (230, 159, 0), (120, 200, 120), (240, 228, 66))


def seat_name(kind: str) -> str:
    """What a seat is called on screen: "Human" or "Medium bot"."""
    if kind == "human":
        return "Human"
    if kind.startswith("bot:"):
        return f"{kind[4:].capitalize()} bot"
    return kind


def knock_volume(impact: float) -> float:
    """Volume 0..1 of the knock for a new-contact impulse ``impact`` (g·mm/s): 0 below ``KNOCK_MIN``,
    rising on a log scale to 1 at ``KNOCK_FULL``."""
    if impact < KNOCK_MIN:
        return 0.0
    return min(1.0, 0.15 + 0.85 * math.log(impact / KNOCK_MIN) / math.log(KNOCK_FULL / KNOCK_MIN))


def phase_words(state: Any, human: bool) -> str:
    """The phase in words for the panel and the status line (the actor is ``state.player``)."""
    ph = state.phase
    if ph == "settle":
        why = (state.pending or {}).get("why")
        return {"setup": "The sticks are stacked on the X", "refuse": "The taboo stick leaves the X",
                "remove": "The stick leaves the X"}.get(why, "The pile settles")
    if ph == "turn":
        if not human:
            return "Choosing a stick to raise"
        return "Take a stick and raise it higher"
    if ph == "raise":
        return "Put it back higher than the line" if human else "Raising a stick"
    if ph == "winning":
        return "Take a winning stick or end your turn (Enter)" if human else "Deciding on a winning stick"
    if ph == "draw":
        return "Pull the stick off the X" if human else "Pulling a winning stick"
    if ph == "over":
        return "Game over"
    return "The sticks are coloured"


def round_tally(before: Any, events: list) -> list[dict]:
    """Per player, this round's ``winning`` and ``minus`` stick ids at the round's end: the lists of
    ``before`` (the state before the action that ended the round) changed by that action's events
    ("winning", "minus", "return"), in order, up to the "round_end" event."""
    n = before.n_players
    win = [list(before.winning[p]) for p in range(n)]
    minus = [list(before.minus[p]) for p in range(n)]
    for e in events:
        kind = e.get("e")
        if kind == "round_end":
            break
        if kind == "winning":
            win[e["player"]].append(e["stick"])
        elif kind == "minus":
            minus[e["player"]] += list(e["sticks"])
        elif kind == "return":
            back = set(e["sticks"])
            minus[e["player"]] = [i for i in minus[e["player"]] if i not in back]
    return [{"winning": win[p], "minus": minus[p]} for p in range(n)]


def last_turn_tracks(match: Match) -> list[tuple[Any, list]]:
    """The hand tracks of the last turn that has one, as ``(state before, track)`` pairs in order: the
    latest applied PHYSICS action with a "hand" track and any earlier one of the same turn (a raise
    before a draw)."""
    out: list[tuple[Any, list]] = []
    j = None
    for i in range(min(match.cursor, len(match.log)) - 1, -1, -1):   # a LAN match keeps no log here
        e = match.log[i]
        if e["p"] == PHYSICS and "hand" in e["a"]:
            j = i
            break
    if j is None:
        return out
    for i in range(j, -1, -1):
        e = match.log[i]
        before = match.states[i]
        if e["p"] == PHYSICS and "hand" in e["a"] and e["a"]["t"] in ("raised", "drawn"):
            out.append((before, e["a"]["hand"]))
        if before.phase == "turn":
            break
    out.reverse()
    return out


def loads_part(world: TokamiWorld, part: int, parts: int) -> dict[int, float]:
    """``TokamiWorld.loads`` for the sticks whose id is ``part`` modulo ``parts`` (stick weights), so a
    screen can spread the reading over several frames (read in one batch: ``TokamiWorld.loads_of``)."""
    return world.loads_of([sid for sid in world.ids() if sid % parts == part])


def fits(world: TokamiWorld, sid: int, pose: model.Pose) -> bool:
    """Whether stick ``sid`` could be put into ``world`` at ``pose`` (``TokamiWorld.fits``)."""
    return world.fits(sid, pose)


def frame_times(frames: int = 600, seed: int = 1) -> dict[str, list[tuple[float, float]]]:
    """Frame times of the real loop while a human drags a stick (issue "Tokami": the scene's frame time
    while dragging), by ``sim.app.framebench.run_frames``: the pile is set up, the first frame grabs the
    highest stick, then the hand lifts it out of its place in the first second (the capped-force hand,
    so the pile shifts under it) and swings it around above the pile, turning it now and then (tension
    and wobble cues, knocks); ``SUBSTEPS`` physics steps a frame. The first 10 frames are not timed."""
    from sim.app.framebench import run_frames

    match = Match(get_spec("tokami").make_rules(), {"players": 2, "seats": ["human", "human"]}, seed)
    match.submit(PHYSICS, driver.settle_action(match.state))
    st = match.state
    sid = max(st.poses, key=lambda i: model.highest_point(st.poses[i]))
    x0, y0 = st.poses[sid][2], st.poses[sid][3]
    depth = draw.depth_range(st.poses[sid])[0]

    def drive(scene, m, i):
        E = pygame.event.Event
        if i == 0:
            start = scene.proj.to_screen(x0, y0, depth)
            return [E(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
                    E(pygame.MOUSEBUTTONDOWN, pos=start, button=1)], "grab"
        t = (i - 1) / 60.0
        lift = min(1.0, t)
        pos = scene.proj.to_screen(x0 + lift * 18.0 * math.sin(t * 1.7),
                                   y0 + lift * (45.0 + 12.0 * math.cos(t * 1.1)), depth)
        ev = [E(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0))]
        if i % 90 == 46:
            ev.append(E(pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0, flipped=False, touch=False,
                        which=0))
        return ev, "while dragging a stick" if scene.att is not None else "after the stick was lost"
    return run_frames(get_spec("tokami"), match, drive, frames + 1, warmup=11)


class TokamiScene(TableScene):
    """Tokami on ``match`` (a TokamiRules match in any phase: a resumed match goes on where it was).

    Every "human" seat plays with the mouse when it is their turn (hot-seat); every "bot:LEVEL" seat by
    ``SPEC.make_bot``. Options: ``bots`` ({seat: bot} to use instead of the registry's)."""

    title = "Tokami"
    opaque = True          # draw() starts with the full-size background

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app, match, get_spec("tokami"))
        self.kinds: list[str] = list(self.seats)
        self.proj = draw.Projection(PROJ_SCALE, PROJ_ORIGIN)
        self.worker = BotWorker("tokami-bot")
        self.seat_bots: dict[int, Any] = dict(opts.get("bots") or {})
        self.bots_missing: str | None = None
        self.job: dict | None = None          # the bot decision under way: {"cursor", "seat", "since"}
        self.think = 0.0                      # seconds the bot to move has been thinking
        self.play: dict | None = None         # a bot's plan played back: {"pb", "action", "cursor"}
        self.run: driver.SettleRun | None = None
        self.run_cursor = -1
        self.att: driver.Attempt | None = None
        self.att_cursor = -1
        self.committed = False                # the take/draw of the attempt is submitted
        self.closed = False                   # the attempt is closed: the pile is shown settling
        self.closed_at = 0
        self.hold: dict | None = None         # {"offset": (mm), "depth": lanes, "button": bool}
        self.angle = 0.0                      # the hand's angle for the held stick (rad)
        self.lane = 0                         # lane last chosen for an across ghost
        self.view_lane = 0                    # lane looked into: across-sticks in front of it see-through
        self.replay: dict | None = None       # F5: {"items", "i", "pb", "pause"}
        self.coda: dict | None = None         # a finished world shown until its fallen sticks land
        self.pointer = (0, 0)
        self.hover: int | None = None
        self.focus: int | None = None         # the stick whose height is shown when none is held
        self.shift = False
        self.banner: tuple[str, float] | None = None
        self.card: dict | None = None         # round-end card
        self._last_knock = -1.0
        self._reads = 0
        self._tension_world: TokamiWorld | None = None
        self._tension: dict[int, float] = {}
        self._wobble: dict[int, float] = {}
        self._static_tension: tuple[int, dict] | None = None
        self._bg: tuple | None = None
        self._pile: tuple | None = None
        self._panel: tuple | None = None
        self._focus_cache: tuple | None = None
        self._refuse_asked: tuple[int, float] | None = None   # (cursor, clock) of the first Refuse
        self._trail: list[tuple[float, float, float]] = []     # (clock, x, y) of the hand's last targets
        self._touch: tuple | None = None                      # (ghost pose, touch pose) cached per frame
        self._seen = match.cursor
        self._turn_of = (match.state.round, match.state.player, match.state.phase == "turn")
        self._build_buttons()
        self.on_enter()

    # ------------------------------------------------------------------ scene plumbing
    def on_exit(self) -> None:
        super().on_exit()
        self.worker.cancel()

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.kinds) and self.kinds[seat] == "human"

    def human_to_move(self) -> bool:
        """Whether a human seat acts now (phases turn, raise, winning, draw)."""
        st = self.state
        return st.phase in ("turn", "raise", "winning", "draw") and self.is_human(st.player)

    def tag(self, seat: int) -> str:
        return f"P{seat + 1}"

    def name(self, seat: int) -> str:
        if seat < len(self.seat_list) and self.seat_list[seat].name:
            return self.seat_list[seat].name
        return seat_name(self.kinds[seat]) if seat < len(self.kinds) else "Player"

    def busy(self) -> bool:
        """Whether something is running that the player must wait for (a settle, a bot, a replay)."""
        return (self.run is not None or self.play is not None or self.replay is not None
                or (self.att is not None and self.closed))

    # ------------------------------------------------------------------ buttons
    def _build_buttons(self) -> None:
        bw, bh, gap = (PW - 12) // 3, 40, 6
        y1, y2 = 604, 604 + bh + 8
        col = [PX, PX + bw + gap, PX + 2 * (bw + gap)]
        self.b_refuse = Button((col[0], y1, bw, bh), "Refuse", self.do_refuse, font_size=16, tooltip="R")
        self.b_end = Button((col[1], y1, bw, bh), "End turn", self.do_end_turn, font_size=16, tooltip="Enter")
        self.b_replay = Button((col[2], y1, bw, bh), "Replay", self.do_replay, font_size=16, tooltip="F5")
        self.b_undo = Button((col[0], y2, bw, bh), "Undo turn", self.do_undo, font_size=16, tooltip="Ctrl+Z")
        self.b_rules = Button((col[1], y2, bw, bh), "Rules", self.do_rules, font_size=16, tooltip="F1")
        self.b_menu = Button((col[2], y2, bw, bh), "Menu", self.do_menu, font_size=16, style="quiet")
        self.panel_buttons = [self.b_refuse, self.b_end, self.b_replay, self.b_undo, self.b_rules, self.b_menu]
        cx, cy = PILE.centerx, 400
        self.b_next = Button((cx - 100, cy + 150, 200, 46), "Next round", self.do_next_round, style="primary",
                             font_size=18)
        self.b_new = Button((cx - 260, cy + 190, 160, 46), "New game", self.do_play_again, style="primary",
                            font_size=18)
        self.b_launch = Button((cx - 80, cy + 190, 160, 46), "Launcher", self.do_menu, font_size=18)
        self.b_view = Button((cx + 100, cy + 190, 160, 46), "View pile", self.do_toggle_result, font_size=18)
        self.b_show = Button((PILE.centerx - 90, PILE.bottom - 64, 180, 42), "Show result",
                             self.do_toggle_result, font_size=17, style="primary")
        self.end_buttons = [self.b_new, self.b_launch, self.b_view]
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        st = self.state
        mine = self.human_to_move() and not self.busy() and self.card is None
        self.b_refuse.enabled = (mine and st.phase == "turn" and self.att is None and st.taboo is not None
                                 and st.taboo in st.poses)
        asked = self._refuse_asked
        confirming = (asked is not None and asked[0] == self.match.cursor and self.clock - asked[1] <= REFUSE_CONFIRM
                      and self.b_refuse.enabled)
        self.b_refuse.label = "Confirm?" if confirming else "Refuse"
        self.b_end.enabled = mine and st.phase == "winning" and self.att is None
        self.b_replay.enabled = self.replay is not None or bool(last_turn_tracks(self.match))
        self.b_undo.enabled = bool(st.practice) and self._undo_target() is not None
        self.b_replay.label = "Stop" if self.replay is not None else "Replay"

    def _active_buttons(self) -> list[Button]:
        if self.match.is_over():
            return self.end_buttons if self.show_result else [self.b_show] + self.panel_buttons
        out = list(self.panel_buttons)
        if self.card is not None:
            out.append(self.b_next)
        return out

    # ------------------------------------------------------------------ actions
    def submit(self, seat: int, action: dict) -> bool:
        """Send ``action`` for ``seat``; a refused one is reported (reject cue and the reason)."""
        try:
            self.match.submit(seat, action)
        except IllegalAction as e:
            self._sound("reject")
            why = str(e)
            self.say(why[:1].upper() + why[1:], self.theme.bad)
            return False
        self._refresh_buttons()
        return True

    def do_refuse(self) -> None:
        st = self.state
        if not self.human_to_move() or st.phase != "turn" or self.att is not None or self.busy():
            return
        if st.taboo is None or st.taboo not in st.poses:
            self.say("There is no taboo stick to refuse with: take a stick", self.theme.text_dim)
            return
        asked = self._refuse_asked
        if asked is None or asked[0] != self.match.cursor or self.clock - asked[1] > REFUSE_CONFIRM:
            self._refuse_asked = (self.match.cursor, self.clock)
            self.say("Refuse? The taboo stick becomes a minus stick (-1 point). R or Refuse again to confirm",
                      self.theme.bad, seconds=REFUSE_CONFIRM)
            self._sound("reject")
            self._refresh_buttons()
            return
        self._refuse_asked = None
        self.submit(st.player, {"t": "refuse"})

    def do_end_turn(self) -> None:
        st = self.state
        if not self.human_to_move() or st.phase != "winning" or self.att is not None or self.busy():
            return
        self.submit(st.player, {"t": "end"})

    def do_next_round(self) -> None:
        self.card = None
        self._refresh_buttons()

    def do_replay(self) -> None:
        """Start (or stop) the slow replay of the last turn."""
        if self.replay is not None:
            self.replay = None
            self._refresh_buttons()
            return
        if self.att is not None and self.committed:
            self.say("Finish your move first", self.theme.text_dim)
            return
        items = last_turn_tracks(self.match)
        if not items:
            self.say("No turn to replay yet", self.theme.text_dim)
            return
        self._drop_attempt()
        try:
            pb = driver.Playback(items[0][0], items[0][1])
        except ValueError as e:
            self.say(f"Cannot replay: {e}", self.theme.bad)
            return
        self.replay = {"items": items, "i": 0, "pb": pb, "pause": 0.0}
        self._refresh_buttons()

    def _undo_target(self) -> int | None:
        """The log position of the latest start of a human turn before the current position."""
        m = self.match
        for i in range(m.cursor - 1, -1, -1):
            s = m.states[i]
            if s.phase == "turn" and self.is_human(s.player):
                return i
        return None

    def do_undo(self) -> None:
        """Practice games: back to the start of the latest human turn (Ctrl+Z)."""
        st = self.state
        if not st.practice:
            self.unavailable("undo only in practice games: touch means take")
            return
        n = self._undo_target()
        if n is None:
            self.unavailable("nothing to undo yet")
            return
        self._reset_live()
        self.card = None
        self._rewind(n)
        self._sound("undo")
        self.say(f"Back to the start of {self.tag(self.state.player)}'s turn", self.theme.accent)
        self._refresh_buttons()

    def do_redo(self) -> None:
        self.unavailable("Tokami has no redo: a turn taken back is played again by hand")

    def hint_refusal(self) -> str | None:
        why = super().hint_refusal()
        if why is None and self.state.phase != "turn":
            return "a hint is for choosing a stick, at the start of your turn"
        return why

    def show_hint(self, action: dict) -> None:
        """The stick the strongest bot would raise is focused (its height to beat shown)."""
        if action.get("t") == "take":
            self.focus = action["stick"]
            self.say(f"Hint: raise stick {action['stick']} (its height to beat is shown)", self.theme.accent, 6.0)
        elif action.get("t") == "refuse":
            self.say("Hint: refuse (R): the taboo stick is worth losing a point here", self.theme.accent, 6.0)
        else:
            super().show_hint(action)

    def do_toggle_result(self) -> None:
        self.show_result = not self.show_result

    # ------------------------------------------------------------------ live objects
    def _reset_live(self) -> None:
        """Forget every live world (attempt, settle, bot job and playback, replay)."""
        self.worker.cancel()
        self.job = None
        self.think = 0.0
        self.play = None
        self.run = None
        self.run_cursor = -1
        self.replay = None
        self.coda = None
        self._drop_attempt()

    def _drop_attempt(self) -> None:
        self._trail = []
        self._touch = None
        self.att = None
        self.att_cursor = -1
        self.committed = False
        self.closed = False
        self.hold = None

    def _repair_bot_phase(self) -> None:
        """A bot's take or draw whose physical outcome was never made (a resumed game): the plan is
        gone, so the take is dropped and the bot decides again (nothing physical happened yet)."""
        m = self.match
        st = m.state
        if st.phase in ("raise", "draw") and not self.is_human(st.player) and m.cursor > 0:
            last = m.log[m.cursor - 1]
            if last["p"] == st.player and last["a"].get("t") in ("take", "draw"):
                self._rewind(m.cursor - 1)

    def _rewind(self, n: int) -> None:
        """Put the match back to its position after ``n`` log entries and drop the entries after it.
        They are not kept for redo: a record whose cursor stands before physics outcomes could not be
        loaded again (the undo policy never crosses them), so the autosave must not keep a tail."""
        m = self.match
        m.truncate(n)
        self._seen = m.cursor

    def live_world(self) -> TokamiWorld | None:
        """The world shown now: the replay's, a bot's playback, the player's attempt, a settle run."""
        if self.replay is not None:
            return self.replay["pb"].attempt.world
        if self.play is not None:
            return self.play["pb"].attempt.world
        if self.att is not None:
            return self.att.world
        if self.run is not None:
            return self.run.world
        return None

    def live_attempt(self) -> driver.Attempt | None:
        if self.replay is not None:
            return self.replay["pb"].attempt
        if self.play is not None:
            return self.play["pb"].attempt
        return self.att

    def shown_state(self):
        """The rules state whose sticks are on screen (the replayed one during a replay)."""
        if self.replay is not None:
            return self.replay["items"][self.replay["i"]][0]
        return self.state

    # ------------------------------------------------------------------ the player's attempt
    def _start_attempt(self, sid: int, pos) -> None:
        st = self.state
        try:
            att = driver.Attempt(st, sid)
        except ValueError as e:
            self.say(str(e), self.theme.bad)
            return
        pose = st.poses[sid]
        depth = draw.depth_range(pose)[0]
        wp = self.proj.to_world(pos[0], pos[1], depth)
        gp = self._grab_point(att, sid, wp)
        try:
            att.grab(gp)
        except ValueError:
            att.grab(None)
            gp = tuple(att.world.body(sid).position)
        self.att = att
        self.att_cursor = self.match.cursor
        self.committed = st.phase in ("raise", "draw")
        self.closed = False
        self.angle = float(att.world.body(sid).angle)
        if pose[0] == "across":
            self.lane = pose[1]
        self.hold = {"offset": (gp[0] - wp[0], gp[1] - wp[1]), "depth": depth, "button": True}
        self._sound("click")

    @staticmethod
    def _grab_point(att: driver.Attempt, sid: int, wp) -> tuple[float, float]:
        """``wp`` if it lies on the stick, else the nearest point of the stick, 1 mm inside."""
        body = att.world.body(sid)
        shape = next(iter(body.shapes))
        q = shape.point_query(wp)
        if q.distance <= 0.0:
            return (float(wp[0]), float(wp[1]))
        px, py = q.point
        cx, cy = body.position
        d = math.hypot(cx - px, cy - py)
        if d < 1e-9:
            return (float(cx), float(cy))
        return (px + (cx - px) / d, py + (cy - py) / d)

    def _target(self) -> tuple[float, float]:
        x, y = self.proj.to_world(self.pointer[0], self.pointer[1], self.hold["depth"])
        ox, oy = self.hold["offset"]
        return (x + ox, y + oy)

    def _set_depth(self, depth: int) -> None:
        """The held stick now lies ``depth`` lanes deep. The pointer keeps the same grip on screen, so
        what is under the mouse is what is held: the hand's target moves by the lanes' screen shift."""
        if self.hold is not None:
            self.hold["depth"] = depth

    def _commit(self) -> bool:
        """Touch means take: submit the take (phase turn) or draw (phase winning) of the moved stick."""
        st = self.state
        att = self.att
        act = {"t": "take" if st.phase == "turn" else "draw", "stick": att.stick}
        if not self.submit(st.player, act):
            self._drop_attempt()
            return False
        self.committed = True
        self.att_cursor = self.match.cursor
        return True

    def _close(self) -> None:
        """The player is done with the attempt: it closes (the hand lets go) and the pile settles."""
        att = self.att
        if att is None or self.closed:
            return
        att.close()
        self.closed = True
        self.closed_at = att.steps
        self.hold = None

    def _let_go(self) -> None:
        """Mouse released: a ghost is put down where it is (if free), a stick in the plane let go."""
        att = self.att
        if att is None or self.hold is None or self.closed:
            return
        if att.ghost is not None:
            att.move(self._target(), self.angle)
            if att.lay_down():
                self._sound("place")
                self._close()
            else:
                self.hold["button"] = False
                self.say("Nothing to lay it on here: move it over the pile and click", self.theme.bad)
                self._sound("reject")
            return
        if not self.committed:
            self._drop_attempt()          # only touched: nothing happened
            return
        self._close()

    def _toggle_kind(self) -> None:
        """Tab: the held stick leaves the plane as it lies (when it can); Tab again turns it across or
        along."""
        att = self.att
        if att is None or self.hold is None or self.closed:
            return
        try:
            if att.ghost is not None:
                kind = "along" if att.ghost[0] == "across" else "across"
                att.set_ghost(kind, self.lane if kind == "across" else None)
                self._set_depth(draw.depth_range(att.ghost)[0])
                self.say(self.ghost_words(att.ghost), self.theme.text_dim)
                self._sound("rotate")
            elif att.kind == "draw":
                if att.can_lift():
                    att.set_pull(self.hand_speed())
                    att.lift_out()
                    self._sound("out")
                else:
                    self.say("Drag it out of the V to take it", self.theme.text_dim)
            elif att.can_lift():
                # the first Tab only takes it out of the plane, lying as it lay; Tab again turns it
                pose = att.held_pose()
                att.set_pull(self.hand_speed())
                att.lift_out(pose[0], pose[1] if pose[0] == "across" else None)
                if pose[0] == "across":
                    self.lane = pose[1]
                self._set_depth(draw.depth_range(att.ghost)[0])
                self.say(self.ghost_words(att.ghost), self.theme.text_dim)
                self._sound("out")
            else:
                self.say("It is wedged: it can leave the plane once nothing in front or behind holds it",
                          self.theme.text_dim)
        except ValueError as e:
            self.say(str(e), self.theme.bad)

    def _choose_lane(self, lane: int) -> None:
        """1-6, [ ]: put the held across-stick (or its ghost) in ``lane``."""
        lane = max(0, min(model.LANES - 1, lane))
        self.lane = lane
        att = self.att
        if att is None or self.hold is None or self.closed or att.kind != "raise":
            return
        try:
            if att.ghost is not None:
                att.set_ghost("across", lane)
            elif att.can_lift():
                att.set_pull(self.hand_speed())
                att.lift_out("across", lane)
            else:
                self.say("It is wedged: it can leave the plane once nothing in front or behind holds it",
                          self.theme.text_dim)
                return
        except ValueError as e:
            self.say(str(e), self.theme.bad)
            return
        self._set_depth(lane)
        self._sound("rotate")

    @staticmethod
    def ghost_words(ghost: model.Pose) -> str:
        """How the carried stick lies, and the keys that change it."""
        if ghost[0] == "across":
            return f"Out of the plane: across, lane {ghost[1] + 1}  (Tab: along · 1-6: lane · let go: lay it down)"
        return "Out of the plane: along the trough  (Tab: across · let go: lay it down)"

    def hand_speed(self) -> float:
        """Speed (mm/s) of the hand over the last ``PULL_WINDOW`` s (the speed of a pull along the
        trough: a still hand pulls carefully)."""
        tr = [p for p in self._trail if self.clock - p[0] <= PULL_WINDOW + 1e-9]
        if len(tr) < 2 or tr[-1][0] <= tr[0][0]:
            return 0.0
        d = sum(math.hypot(b[1] - a[1], b[2] - a[2]) for a, b in zip(tr, tr[1:]))
        return d / (tr[-1][0] - tr[0][0])

    def risk(self) -> tuple[str, float, float] | None:
        """While the player's stick is in hand: ("steady" | "shaky" | "falling", the pile's fastest
        stick speed in mm/s, the hand's speed in mm/s), else None."""
        att = self.att
        if att is None or self.hold is None or self.closed:
            return None
        v = att.world.max_speed()
        if att.world.fallen:
            word = "falling"
        elif v < WOBBLE_CALM:
            word = "steady"
        elif v < WOBBLE_SHAKY:
            word = "moving"
        else:
            word = "shaky"
        return word, v, self.hand_speed()

    def _look_into(self, lane: int) -> None:
        """With nothing in hand, 1-6 / [ ] choose the lane to look into: the across-sticks of the lanes
        in front of it are drawn see-through and cannot be picked (1: every lane, as usual)."""
        self.view_lane = max(0, min(model.LANES - 1, lane))
        self.hover = None
        if self.view_lane:
            self.say(f"Looking into lane {self.view_lane + 1}: the lanes in front are see-through (1 shows all)",
                      self.theme.text_dim)

    def _turn(self, steps: int) -> None:
        if self.att is None or self.hold is None or self.closed or steps == 0:
            return
        step = TURN_FINE if (self.shift or pygame.key.get_mods() & pygame.KMOD_SHIFT) else TURN_STEP
        self.angle += steps * step

    # ------------------------------------------------------------------ events
    def handle_input(self, event: Any) -> bool:
        et = event.type
        if et in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.pointer = event.pos
            if et == pygame.MOUSEBUTTONUP and event.button == 1 and self.hold is not None and self.hold["button"]:
                self._let_go()             # a stick let go over the panel is let go all the same
                return True
            for b in self._active_buttons():
                if b.handle_event(event):
                    return True
            if et == pygame.MOUSEMOTION:
                self._hover(event.pos)
                return True
            if et == pygame.MOUSEBUTTONDOWN:
                if event.button == 1 and PILE.collidepoint(event.pos):
                    self._press(event.pos)
                return True
            if event.button == 1:
                self._let_go()
            return True
        if et == pygame.MOUSEWHEEL:
            self._turn(self.wheel.feed(event))
            return True
        if et == pygame.KEYUP:
            if event.key in (pygame.K_LSHIFT, pygame.K_RSHIFT):
                self.shift = False
            return False
        if et == pygame.KEYDOWN:
            return self._key(event)
        return False

    def _key(self, event) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        if k in (pygame.K_LSHIFT, pygame.K_RSHIFT):
            self.shift = True
            return True
        if mods & pygame.KMOD_CTRL:
            return False
        if k == pygame.K_F5:
            self.do_replay()
            return True
        if self.card is not None and k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.do_next_round()
            return True
        if self.match.is_over():
            return False
        if k == pygame.K_TAB:
            self._toggle_kind()
            return True
        lane = None
        holding = self.att is not None and self.hold is not None and not self.closed
        current = self.lane if holding else self.view_lane
        if pygame.K_1 <= k <= pygame.K_6:
            lane = k - pygame.K_1
        elif k == pygame.K_LEFTBRACKET:
            lane = current - 1
        elif k == pygame.K_RIGHTBRACKET:
            lane = current + 1
        if lane is not None:
            if holding:
                self._choose_lane(lane)
            else:
                self._look_into(lane)
            return True
        if k == pygame.K_r:
            self.do_refuse()
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.do_end_turn()
            return True
        return False

    def _pickable(self) -> dict:
        """The sticks the mouse can point at: every stick on the X, less the across-sticks of the
        lanes made see-through (see :meth:`_look_into`)."""
        st = self.state
        if not self.view_lane:
            return st.poses
        return {i: p for i, p in st.poses.items() if not (p[0] == "across" and p[1] < self.view_lane)}

    def _hover(self, pos) -> None:
        if self.att is not None or self.busy() or not PILE.collidepoint(pos):
            self.hover = None
            return
        self.hover = draw.pick(self.proj, self._pickable(), pos)
        if self.hover is not None:
            self.focus = self.hover

    def _press(self, pos) -> None:
        if self.match.is_over() or self.card is not None:
            return
        if self.att is not None and self.hold is not None and not self.closed and not self.hold["button"]:
            # a ghost waiting to be put down: a click puts it here and keeps holding it in the plane
            att = self.att
            att.move(self._target(), self.angle)
            if att.ghost is not None and att.lay_down():
                # the hand stays where the stick touched: the pointer now holds it there
                tx, ty = self._target()
                hx, hy = att.world.hand.target
                ox, oy = self.hold["offset"]
                self.hold["offset"] = (ox + hx - tx, oy + hy - ty)
                self.hold["button"] = True
                self._sound("place")
            else:
                self.say("Nothing to lay it on here: move it over the pile", self.theme.bad)
                self._sound("reject")
            return
        if self.busy() or self.att is not None:
            return
        sid = self._stick_to_take(pos)
        if sid is None:
            return
        self.hover = None
        self._start_attempt(sid, pos)

    def _stick_to_take(self, pos) -> int | None:
        """The stick under ``pos`` that this screen's player may take now, or None with the reason said
        (another player's turn, touch means take, the taboo stick, the stick just raised)."""
        st = self.state
        if not self.human_to_move():
            if st.phase in ("turn", "winning", "raise", "draw"):
                self.say(f"Wait: it is {self.tag(st.player)}'s turn ({self.name(st.player)})",
                          self.theme.text_dim)
            return None
        sid = draw.pick(self.proj, self._pickable(), pos)
        if sid is None:
            return None
        why = None
        if st.phase in ("raise", "draw"):
            if sid != st.held:
                why = f"Touch means take: you took stick {st.held}, use it"
        elif sid == st.taboo:
            what = "raise" if st.phase == "turn" else "take"
            why = (f"That is the taboo stick: you may not {what} it"
                   + (" (R refuses: it becomes a minus stick)" if st.phase == "turn" else ""))
        elif st.phase == "winning" and st.current and sid == st.current["stick"]:
            why = "You just raised that stick: take another one, or end your turn (Enter)"
        if why is not None:
            self.say(why, self.theme.bad)
            self._sound("reject")
            return None
        return sid

    # ------------------------------------------------------------------ match events
    def _on_events(self, match: Match, events: list) -> None:
        th = self.theme
        before = match.states[self._seen] if 0 <= self._seen < len(match.states) else None
        fell = any(e.get("e") == "fall" for e in events)
        for e in events:
            kind = e.get("e")
            if kind == "raise" and fell and not e["ok"]:
                continue                      # the fall says it all
            if kind == "raise":
                hb, ha = e.get("hp_before"), e.get("hp_after")
                if e["ok"]:
                    self._sound("place")
                    self.say(f"Raised: {hb:.1f} -> {ha:.1f} mm", th.good)
                elif ha is not None:
                    self._sound("reject")
                    self.say(f"Not higher: {hb:.1f} -> {ha:.1f} mm (it needs more than "
                              f"{hb + model.RAISE_MARGIN:.1f}): a minus stick", th.bad)
                else:
                    self._sound("reject")
                    self.say("Not put back on the X: a minus stick", th.bad)
            elif kind == "fall":
                n = len(e["sticks"])
                self._sound("penalty")
                self.say(f"{n} stick{'s' if n != 1 else ''} fell: minus sticks for {self.tag(e['player'])}", th.bad)
            elif kind == "winning":
                self._sound("gobble")
                self.say(f"A winning stick ({e['colour']}) for {self.tag(e['player'])}", th.good)
            elif kind == "return":
                n = len(e["sticks"])
                self._sound("out")
                self.say(f"{n} {e['colour']} minus stick{'s' if n != 1 else ''} back to the box", th.good)
            elif kind == "not_taken":
                self.say("The stick stayed on the X: no winning stick this time", th.text_dim)
            elif kind == "refuse":
                self.say(f"{self.tag(e['player'])} refuses: the taboo stick becomes a minus stick", th.text_dim)
            elif kind == "round_end":
                self.banner = None
                if before is None:
                    continue
                if not any(x.get("e") == "over" for x in events):
                    self.card = {"round": e["round"], "scores": list(e["scores"]), "totals": list(e["totals"]),
                                 "tally": round_tally(before, events), "colours": before.colours, "age": 0.0}
                    self._sound("win")
            elif kind == "over":
                self.show_result = True
                best = max(match.outcome()["totals"])
                won = any(self.is_human(p) and match.state.totals[p] == best for p in range(len(self.kinds)))
                self._sound("win" if won or not self.humans() else "lose")
            elif kind in ("seek", "undo", "redo", "truncate"):
                self._reset_live()
        self._seen = match.cursor
        st = match.state
        key = (st.round, st.player, st.phase == "turn")
        if st.phase == "turn" and key != self._turn_of:
            self._announce(st.player)
        self._turn_of = key
        self._refresh_buttons()

    def _announce(self, seat: int) -> None:
        """A banner when the turn passes to a human: whose turn it is in hot-seat, "Your turn" else."""
        if not self.is_human(seat):
            return
        if len(self.humans()) > 1:
            self.banner = (f"{self.tag(seat)}'s turn", 0.0)
        else:
            self.banner = ("Your turn", 0.0)

    # ------------------------------------------------------------------ update
    def wants_frame(self) -> bool:
        """Redraw policy (this screen runs its own update): every frame while physics runs (the pile
        settling, a stick in hand, fallen sticks landing, a replay), a bot is to act, a message, banner,
        card or hint is up, or Refuse waits for its confirmation; still while a human is to act."""
        if (self.msg is not None or self.banner is not None or self._hint_job is not None or self.remote
                or self.card is not None or self.replay is not None or self.coda is not None
                or self.att is not None or self.run is not None):
            return True
        asked = self._refuse_asked
        if asked is not None and asked[0] == self.match.cursor and self.clock - asked[1] <= REFUSE_CONFIRM + 0.1:
            return True
        if self.match.is_over():
            return False
        return not self.human_to_move()

    def update(self, dt: float) -> None:
        self.clock += dt
        if getattr(self.app, "top", self) is not self:
            return                                   # paused under a dialog (rules, ...)
        self._poll_hint()
        self._tick_feedback(dt)
        self._update_coda(dt)
        if self.replay is not None:
            self._update_replay(dt)
            self._refresh_buttons()
            return
        if self.card is not None:
            self.card["age"] += dt
            if not self.humans() and self.card["age"] >= CARD_AUTO:
                self.card = None
            else:
                self._refresh_buttons()
                return
        st = self.state
        if st.phase == "settle":
            self._update_settle()
        elif self.att is not None:
            self._update_attempt()
        elif st.phase in ("turn", "winning", "raise", "draw") and not self.is_human(st.player):
            self._update_bot(dt)
        self._refresh_buttons()

    def _tick_feedback(self, dt: float) -> None:
        if self.msg is not None and self.clock >= self.msg[2]:
            self.msg = None
        if self.banner is not None:
            text, t = self.banner
            self.banner = (text, t + dt) if t + dt < BANNER_TIME else None

    def _knock(self, impact: float) -> None:
        v = knock_volume(impact)
        if v <= 0.0 or self.clock - self._last_knock < KNOCK_GAP:
            return
        self._last_knock = self.clock
        audio = getattr(self.app, "audio", None)
        knock = getattr(audio, "knock", None)
        if knock is not None:
            knock(v)

    def _read_world(self, world: TokamiWorld, impact: float) -> None:
        """After stepping: the knock, and (every third update) the tension and wobble cues."""
        self._knock(impact)
        self._reads += 1
        if self._tension_world is not world:
            self._tension_world = world
            self._tension = world.loads()
        else:
            self._tension.update(loads_part(world, self._reads % 3, 3))
        self._wobble = world.speeds()

    def _update_settle(self) -> None:
        st = self.state
        if self.run is None or self.run_cursor != self.match.cursor:
            self._drop_attempt()
            try:
                self.run = driver.SettleRun(st)
            except ValueError as e:
                self.say(str(e), self.theme.bad)
                return
            self.run_cursor = self.match.cursor
        run = self.run
        impact = 0.0
        for _ in range(SUBSTEPS):
            if run.done or run.world.time >= SETTINGS.settle_timeout:
                break
            run.step()
            impact = max(impact, run.world.impact)
        self._read_world(run.world, impact)
        if run.done or run.world.time >= SETTINGS.settle_timeout:
            action = run.finish()
            self.run = None
            self.run_cursor = -1
            self._coda_from(run.world)
            self.submit(PHYSICS, action)

    def _update_attempt(self) -> None:
        att = self.att
        if self.att_cursor != self.match.cursor:
            self._drop_attempt()                    # the match moved on under it (undo, resume)
            return
        if not self.closed and self.hold is not None and att.holding:
            tx, ty = self._target()
            att.move((tx, ty), self.angle)
            self._trail.append((self.clock, tx, ty))
            if len(self._trail) > 40:
                del self._trail[:-40]
        impact = 0.0
        done = False
        for _ in range(SUBSTEPS):
            if self.closed and (att.world.is_settled() or att.steps - self.closed_at >= SETTLE_STEPS):
                if not self.committed and not self._commit():   # lifted out and put back at once
                    return
                done = True
                break
            att.step()
            impact = max(impact, att.world.impact)
            if not self.committed and (att.stopped or att.displacement() > driver.TOUCH_MM):
                if not self._commit():
                    return
            if att.stopped in ("fall", "taken") and not self.closed:
                if att.stopped == "taken":
                    self._sound("out")
                self._close()
        self._read_world(att.world, impact)
        if done:
            action = att.finish()
            self._drop_attempt()
            self._coda_from(att.world)
            self.submit(PHYSICS, action)

    def _bot(self, seat: int):
        if seat in self.seat_bots:
            return self.seat_bots[seat]
        kind = self.kinds[seat]
        try:
            SPEC = get_spec("tokami")
            bot = SPEC.make_bot(seat, kind.split(":", 1)[1], self.match.seed)
        except ImportError:
            self.bots_missing = "The bots are not available: their seats wait"
            return None
        self.seat_bots[seat] = bot
        return bot

    def _update_bot(self, dt: float) -> None:
        st = self.state
        seat = st.player
        if self.play is not None:
            self._update_playback()
            return
        if st.phase in ("raise", "draw"):
            self._repair_bot_phase()
            return
        self.think += dt
        if self.job is None:
            bot = self._bot(seat)
            if bot is None:
                return
            self.job = {"cursor": self.match.cursor, "seat": seat}
            self.worker.start(_bot_job(bot, self.rules, st, seat))
            return
        if "result" not in self.job:
            try:
                ready, res = self.worker.poll()
            except Exception as e:  # noqa: BLE001 - a broken bot is reported, and its seat plays safe
                traceback.print_exc(file=sys.stderr)
                self.say(f"Bot error ({e.__class__.__name__}): it plays safe", self.theme.bad)
                self.job = {"cursor": self.match.cursor, "seat": seat}
                self.worker.start(_safe_job(self.rules, st, seat))
                return
            if not ready:
                return
            self.job["result"] = res
        if self.think < BOT_MIN_THINK:
            return
        job, self.job = self.job, None
        self.think = 0.0
        if job["cursor"] != self.match.cursor:
            return                                   # the match moved meanwhile: decide again
        action, phys = job["result"]
        if not self.submit(seat, action):
            return
        if phys is None:
            return
        if "hand" in phys:
            try:
                self.play = {"pb": driver.Playback(self.state, phys["hand"]), "action": phys,
                             "cursor": self.match.cursor}
                return
            except ValueError:
                pass
        self.submit(PHYSICS, phys)

    def _update_playback(self) -> None:
        play = self.play
        if play["cursor"] != self.match.cursor:
            self.play = None
            return
        pb = play["pb"]
        impact = 0.0
        for _ in range(SUBSTEPS):
            if pb.done:
                break
            pb.step()
            impact = max(impact, pb.attempt.world.impact)
        self._read_world(pb.attempt.world, impact)
        if pb.done:
            self.play = None
            self._coda_from(pb.attempt.world)
            self.submit(PHYSICS, play["action"])

    def _coda_from(self, world: TokamiWorld) -> None:
        """A finished world whose fallen sticks are still on their way down goes on a little for
        show (the outcome is already taken: the pile counted as settled), so they land on the table
        with a knock instead of vanishing in mid-air."""
        if world.tumbling():
            self.coda = {"world": world, "t": 0.0}

    def _update_coda(self, dt: float) -> None:
        c = self.coda
        if c is None:
            return
        w = c["world"]
        impact = 0.0
        for _ in range(SUBSTEPS):
            w.step()
            impact = max(impact, w.impact)
        self._knock(impact)
        c["t"] += dt
        if not w.tumbling() or c["t"] >= CODA_TIME:
            self.coda = None

    def coda_poses(self) -> dict:
        """Poses of the fallen sticks still shown tumbling after their outcome was taken."""
        if self.coda is None:
            return {}
        w = self.coda["world"]
        return {sid: w.pose(sid) for sid in w.tumbling()}

    def _update_replay(self, dt: float) -> None:
        rp = self.replay
        pb = rp["pb"]
        if pb.done:
            rp["pause"] += dt
            if rp["pause"] < 0.8:
                return
            rp["i"] += 1
            if rp["i"] >= len(rp["items"]):
                self.replay = None
                return
            state, track = rp["items"][rp["i"]]
            rp["pb"] = driver.Playback(state, track)
            rp["pause"] = 0.0
            return
        impact = 0.0
        for _ in range(REPLAY_SUBSTEPS):
            if pb.done:
                break
            pb.step()
            impact = max(impact, pb.attempt.world.impact)
        self._read_world(pb.attempt.world, impact)

    # ------------------------------------------------------------------ drawing helpers
    def _pill(self, surface, text, centre, colour, fg=None, size=18, alpha=235, **kw) -> pygame.Rect:
        return self.kit.pill(surface, text, centre, colour, fg, size, alpha=alpha, **kw)

    def _symbols(self) -> bool:
        return True   # the marks are always drawn: four colours must never rely on hue alone

    def seat_colour(self, seat: int):
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def _tag(self, surface, seat: int, midleft, size: int = 14) -> pygame.Rect:
        img = self._text(self.tag(seat), size, (16, 16, 20), True)
        r = img.get_rect(midleft=(midleft[0] + 7, midleft[1]))
        box = r.inflate(14, 6)
        pygame.draw.rect(surface, self.seat_colour(seat), box, border_radius=6)
        surface.blit(img, r)
        return box

    def _background(self) -> pygame.Surface:
        """The table, the X and the panel, cached per palette."""
        th = self.theme
        key = (th.name, th.bg, th.panel)
        if self._bg is not None and self._bg[0] == key:
            return self._bg[1]
        surf = pygame.Surface((W_LOGICAL, H_LOGICAL))
        surf.fill(th.bg)
        # a soft light over the X
        glow = pygame.Surface(PILE.size, pygame.SRCALPHA)
        cx, cy = self.proj.to_screen(0, 60)
        for r in range(420, 0, -20):
            pygame.draw.circle(glow, mix(th.bg, (255, 255, 255), 0.05 * (1 - r / 420)) + (255,), (cx, cy), r)
        surf.blit(glow, (0, 0))
        draw.draw_frame(surf.subsurface(PILE), self.proj)
        pygame.draw.rect(surf, th.panel, PANEL)
        pygame.draw.line(surf, th.panel_edge, PANEL.topleft, PANEL.bottomleft, 2)
        self._bg = (key, surf)
        return surf

    def _static_loads(self, state) -> dict[int, float]:
        """Loads of the sticks of a settled ``state`` (one step of a world built from its poses),
        cached per match position."""
        key = self.match.cursor
        if self._static_tension is not None and self._static_tension[0] == key:
            return self._static_tension[1]
        loads: dict[int, float] = {}
        if state.poses:
            try:
                w = TokamiWorld(state.poses, state.colours)
                w.step()
                loads = w.loads()
            except ValueError:
                loads = {}
        self._static_tension = (key, loads)
        return loads

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        th = self.theme
        surface.blit(self._background(), (0, 0))
        clip = surface.get_clip()
        surface.set_clip(PILE)
        self._draw_pile(surface)
        surface.set_clip(clip)
        self._draw_status(surface)
        self._draw_panel_cached(surface)
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        if self.banner is not None:
            text, t = self.banner
            k = min(1.0, t / 0.15, (BANNER_TIME - t) / 0.3)
            img = self._text(text, 36, th.text, True)
            r = img.get_rect(center=(PILE.centerx, 122))
            box = r.inflate(60, 24)
            bg = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.rect(bg, th.panel + (int(230 * k),), bg.get_rect(), border_radius=16)
            surface.blit(bg, box)
            img.set_alpha(int(255 * k))
            surface.blit(img, r)
        if self.card is not None:
            self._draw_round_card(surface)
        if self.match.is_over():
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)

    def _draw_pile(self, surface) -> None:
        th = self.theme
        st = self.shown_state()
        world = self.live_world()
        att = self.live_attempt()
        font = self.app.font(15, True)
        if world is None:
            poses = st.poses
            look = draw.Look(taboo=st.taboo, tension=self._static_loads(st), symbols=self._symbols(),
                             dim_lanes=range(self.view_lane))
            key = (self.match.cursor, th.name, id(st), self.view_lane)
            if self._pile is None or self._pile[0] != key:
                layer = self._background().subsurface(PILE).copy()
                draw.draw_sticks(layer, self.proj, poses, st.colours, th, look)
                self._pile = (key, layer)
            surface.blit(self._pile[1], PILE.topleft)
            falling = self.coda_poses()
            if falling:
                draw.draw_sticks(surface, self.proj, falling, st.colours, th, draw.Look(symbols=self._symbols()))
            if self.hover is not None and self.hover in poses:
                col = th.bad if self.hover == st.taboo else th.highlight
                pygame.draw.polygon(surface, col, draw.front_face(self.proj, poses[self.hover]), 3)
            self._draw_height_focus(surface, st, poses, font)
            return
        poses = world.poses()
        for sid in world.tumbling():
            poses[sid] = world.pose(sid)
        if self.replay is None:
            for sid, pose in self.coda_poses().items():
                poses.setdefault(sid, pose)
        held = att.stick if att is not None and att.holding else None
        ghost = None
        touch = None
        if att is not None and att.ghost is not None:
            if self._touch is None or self._touch[0] != att.ghost or self._touch[1] is not att.world:
                self._touch = (att.ghost, att.world, att.touch_pose())
            touch = self._touch[2]
            ghost = (att.ghost, st.colours[att.stick], touch is not None)
        look = draw.Look(held=held, taboo=st.taboo, tension=self._tension, wobble=self._wobble, ghost=ghost,
                         symbols=self._symbols(), dim_lanes=range(self.view_lane) if att is self.att else ())
        draw.draw_sticks(surface, self.proj, poses, st.colours, th, look)
        if touch is not None:
            # where the ghost would touch the pile if lowered: its outline there, and a drop line
            face = draw.front_face(self.proj, touch)
            for i in range(4):
                draw.dashed_line(surface, th.good, face[i], face[(i + 1) % 4], dash=6.0, width=2)
            top = draw.front_face_centre(self.proj, att.ghost)
            bot = draw.front_face_centre(self.proj, touch)
            if abs(top[1] - bot[1]) > 6:
                draw.dashed_line(surface, th.text_dim, top, bot, dash=4.0, width=1)
            hp = model.highest_point(touch)
            ok = hp > att.hp_before + model.RAISE_MARGIN
            self._pill(surface, f"touches at {hp:.1f} mm" + ("" if ok else ": not higher"),
                       (bot[0], bot[1] + 26), (12, 12, 14), fg=th.good if ok else th.bad, size=12, alpha=220)
        rk = self.risk() if att is self.att else None
        if rk is not None:
            word, v, hv = rk
            col = th.good if word == "steady" else (th.accent if word == "moving" else th.bad)
            pull = "careful" if hv < 60 else ("quick" if hv < 250 else "yank")
            # speeds in steps of 10 mm/s, so the pill's text (a cached render) changes only now and then
            self._pill(surface, f"pile {word} ({round(v, -1):.0f} mm/s) · hand {pull} ({round(hv, -1):.0f} mm/s)",
                       (PILE.centerx, PILE.bottom - 62), (12, 12, 14), fg=col, size=13, alpha=225)
        if att is not None and att.kind == "raise" and att.stopped != "fall":
            # the height to beat, and where the stick's highest point is now
            line = att.hp_before
            draw.height_line(surface, self.proj, line, th.accent, font, f"to beat {line:.1f} mm",
                             back=mix(th.bg, (0, 0, 0), 0.5))
            pose = att.held_pose()
            if pose is not None:
                hp = model.highest_point(pose)
                ok = hp > line + model.RAISE_MARGIN
                draw.height_tick(surface, self.proj, hp, th.good if ok else th.text_dim, font, f"{hp:.1f}",
                                 back=mix(th.bg, (0, 0, 0), 0.5))
        if self.att is not None and self.hold is not None and att is self.att and att.world.held == att.stick:
            # the hand: where the mouse pulls the grab point (a rubber band when the stick lags)
            hx, hy = self.att.world.hand.target
            gx, gy = att.world.body(att.stick).local_to_world(att.world.hand.local_point)
            d = self.hold["depth"]
            a = self.proj.to_screen(gx, gy, d)
            b = self.proj.to_screen(hx, hy, d)
            if math.hypot(a[0] - b[0], a[1] - b[1]) > 4:
                pygame.draw.line(surface, th.accent, a, b, 2)
            pygame.draw.circle(surface, th.accent, b, 5, 2)

    def _draw_height_focus(self, surface, st, poses, font) -> None:
        """With nothing in hand: the height to beat of the stick under the mouse (else the last one
        pointed at, else the highest stick in sight that may be taken), and the taboo stick's tag."""
        th = self.theme
        if st.taboo is not None and st.taboo in poses:
            c = draw.front_face(self.proj, poses[st.taboo])
            cx = sum(x for x, _y in c) / 4
            cy = min(y for _x, y in c)
            self._pill(surface, f"taboo {st.taboo}", (cx, cy - 14), (12, 12, 14), fg=th.text, size=12, alpha=220)
        if st.phase not in ("turn", "raise") or not poses:
            return
        if st.phase == "raise":
            sid = st.held
        else:
            sid = self.hover if self.hover is not None else self.focus
            if sid not in poses or sid == st.taboo:
                sid = self._default_focus(st)
        if sid is None or sid not in poses:
            return
        hp = model.highest_point(poses[sid])
        draw.height_line(surface, self.proj, hp, th.accent, font, f"stick {sid}: to beat {hp:.1f} mm",
                         back=mix(th.bg, (0, 0, 0), 0.5))
        pygame.draw.polygon(surface, th.accent, draw.front_face(self.proj, poses[sid]), 2)

    def _default_focus(self, st) -> int | None:
        """The highest stick that may be taken and that the mouse finds at its front face's centre
        (cached per position and lane looked into)."""
        key = (self.match.cursor, id(st), self.view_lane)
        if self._focus_cache is not None and self._focus_cache[0] == key:
            return self._focus_cache[1]
        pickable = self._pickable()
        best = None
        for sid in sorted(pickable, key=lambda i: (-model.highest_point(pickable[i]), i)):
            if sid == st.taboo:
                continue
            if draw.pick(self.proj, pickable, draw.front_face_centre(self.proj, pickable[sid])) == sid:
                best = sid
                break
        self._focus_cache = (key, best)
        return best

    def board_rect(self) -> pygame.Rect:
        """The X on the table and the pile over it (px): the stand's wing tips, the table, and up to
        five stick thicknesses above the upper wing tips, through all lanes."""
        tip, pad = model.WING_TIP, 10.0
        pts = [self.proj.to_screen(x, y, d) for x in (-tip - pad, tip + pad)
               for y in (model.TABLE_Y - model.TABLE_RADIUS, tip + 5 * model.STICK_THICK)
               for d in (-0.6, model.LANES + 0.6)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))

    def notices_rect(self) -> pygame.Rect:
        top = self.board_rect().y
        return pygame.Rect(PILE.x + 12, 4, PILE.w - 24, max(40, top - 10))

    def status_notice(self) -> Notice:
        text, col = self.status_line()
        return Notice("status", text, self.theme.text, col, 17)

    def standing_notices(self) -> list[Notice]:
        th = self.theme
        if self.msg is None and self.bots_missing and not self.human_to_move():
            return [Notice("message", self.bots_missing, th.text_dim, th.panel)]
        return []

    def notice_items(self) -> list[Notice]:
        items = super().notice_items()
        th = self.theme
        for n in items:       # the message on a tint of its own colour, as before
            if n.key == "message" and self.msg is not None and n.text == self.msg[0]:
                n.fill, n.fg = mix(th.bg, self.msg[1], 0.35), th.text
        return items

    def _draw_status(self, surface) -> None:
        th = self.theme
        self.draw_notices(surface)
        self._blit_text(surface, "drag: move  ·  wheel: turn (Shift fine)  ·  Tab: lift out, again: across/along"
                        "  ·  1-6 [ ]: lane",
                        13, mix(th.bg, th.text_dim, 0.8), bottomleft=(14, PILE.bottom - 10))

    def status_line(self) -> tuple[str, tuple]:
        """The status over the pile: what happens now and what to do, and its backdrop colour."""
        th = self.theme
        st = self.state
        if self.replay is not None:
            text, col = "Slow replay of the last turn (quarter speed)  ·  F5 stops", mix(th.accent, (0, 0, 0), 0.35)
        elif st.phase == "over":
            text, col = "Game over", th.panel
        else:
            p = st.player
            who = f"{self.tag(p)} {self.name(p)}"
            words = phase_words(st, self.is_human(p))
            if not self.is_human(p) and self.job is not None and st.phase in ("turn", "winning"):
                words = "thinking..."
            elif self.play is not None:
                words = "Raising a stick" if self.play["pb"].attempt.kind == "raise" else "Pulling a winning stick"
            text = words if st.phase == "settle" else f"{who}: {words}"
            col = th.panel
            if self.att is not None and not self.closed:
                att = self.att
                if att.ghost is not None:
                    where = "along the trough" if att.ghost[0] == "along" else f"across, lane {att.ghost[1] + 1}"
                    text = f"Out of the plane, {where}  ·  release to put it down  ·  Tab / 1-6 change"
                elif att.kind == "raise":
                    text = "Lift it and let go higher  ·  wheel turns (Shift fine)  ·  Tab lifts it out"
                else:
                    text = "Pull it off the X" + ("  ·  Tab slides it out" if att.can_lift() else "")
        return text, col

    def _chips(self, surface, ids, colours, x, y, minus: bool = False) -> int:
        """Small stick chips grouped by colour with their counts from ``x``; returns the end x."""
        th = self.theme
        counts: dict[str, int] = {}
        for i in ids:
            c = colours[i] if colours is not None and 0 <= i < len(colours) else None
            counts[c] = counts.get(c, 0) + 1
        for c in model.COLOURS:
            n = counts.get(c, 0)
            if not n:
                continue
            r = pygame.Rect(x, y - 7, 22, 14)
            face = draw.stick_colour(th, c)
            pygame.draw.rect(surface, face, r, border_radius=3)
            pygame.draw.rect(surface, mix(face, (0, 0, 0), 0.5), r, 1, border_radius=3)
            ink = (20, 20, 24) if c in ("yellow", "green") else (245, 245, 245)
            draw_symbol(surface, draw.MARK[c], r.center, 4.2, ink)
            if minus:
                pygame.draw.line(surface, th.bad, (r.x - 1, r.bottom + 1), (r.right, r.y - 1), 2)
            lab = self._blit_text(surface, str(n), 14, th.text, True, midleft=(r.right + 3, y))
            x = lab.right + 8
        return x

    def _draw_panel_cached(self, surface) -> None:
        """The side panel without its buttons, redrawn only when what it shows changes."""
        st = self.state
        key = (self.match.cursor, id(st), self.theme.name, self._turn_info(st), self.job is not None,
               self.play is not None)
        if self._panel is None or self._panel[0] != key:
            layer = self._panel[1] if self._panel is not None else pygame.Surface((W_LOGICAL, H_LOGICAL))
            layer.fill(self.theme.panel, PANEL)
            pygame.draw.line(layer, self.theme.panel_edge, PANEL.topleft, PANEL.bottomleft, 2)
            self._draw_panel(layer)
            self._panel = (key, layer)
        surface.blit(self._panel[1], PANEL.topleft, PANEL)

    def _draw_panel(self, surface) -> None:
        th = self.theme
        st = self.state
        self._blit_text(surface, "Tokami", 22, th.text, True, topleft=(PX, 18))
        rnd = min(st.round + 1, st.n_rounds)
        self._blit_text(surface, f"Round {rnd} of {st.n_rounds}", 16, th.text_dim, True, topright=(PX + PW, 23))
        # whose turn
        self._card(surface, TURN_CARD, "TURN")
        if st.phase != "over":
            p = st.player
            box = self._tag(surface, p, (TURN_CARD.x + 14, TURN_CARD.y + 46), 18)
            self._blit_text(surface, self.name(p), 20, th.text, True, midleft=(box.right + 10, box.centery))
            words = phase_words(st, self.is_human(p))
            lines = _wrap(words, self.app.font(15), TURN_CARD.w - 28)
            for i, line in enumerate(lines[:2]):
                self._blit_text(surface, line, 15, th.text, topleft=(TURN_CARD.x + 14, TURN_CARD.y + 68 + i * 20))
            info = self._turn_info(st)
            if info:
                self._blit_text(surface, info, 13, th.text_dim, topleft=(TURN_CARD.x + 14, TURN_CARD.bottom - 22))
        else:
            self._blit_text(surface, "Game over", 20, th.text, True, topleft=(TURN_CARD.x + 14, TURN_CARD.y + 36))
        # the score table
        self._card(surface, SCORE_CARD, "SCORES")
        self._blit_text(surface, "ROUND", 12, th.text_dim, True, topright=(SCORE_CARD.right - 62, SCORE_CARD.y + 11))
        self._blit_text(surface, "TOTAL", 12, th.text_dim, True, topright=(SCORE_CARD.right - 12, SCORE_CARD.y + 11))
        n = st.n_players
        row_h = min(72, (SCORE_CARD.h - 36) // max(1, n))
        scores = self.rules_scores(st)
        for p in range(n):
            y = SCORE_CARD.y + 34 + p * row_h
            if p == st.player and st.phase != "over":
                hl = pygame.Rect(SCORE_CARD.x + 4, y - 2, SCORE_CARD.w - 8, row_h - 4)
                pygame.draw.rect(surface, mix(th.panel, th.accent, 0.16), hl, border_radius=8)
            box = self._tag(surface, p, (SCORE_CARD.x + 10, y + 12), 13)
            self._blit_text(surface, self.name(p), 15, th.text, True, midleft=(box.right + 8, box.centery))
            sc = scores[p] if st.phase != "over" else 0
            self._blit_text(surface, f"{sc:+d}" if st.phase != "over" else "-", 17, th.text, True,
                            topright=(SCORE_CARD.right - 62, y + 2))
            total = st.totals[p] + (sc if st.phase != "over" else 0)
            self._blit_text(surface, str(total), 19, th.accent, True, topright=(SCORE_CARD.right - 12, y + 1))
            if row_h >= 56 and st.phase != "over":
                # won and minus sticks on a line each, so four colours of either fit the card
                chips_x = SCORE_CARD.x + 56
                for k, (word, ids) in enumerate((("won", st.winning[p]), ("minus", st.minus[p]))):
                    yy = y + (32 if row_h >= 70 else 28) + k * (18 if row_h >= 70 else 16)
                    self._blit_text(surface, word, 12, th.text_dim, midleft=(SCORE_CARD.x + 12, yy))
                    if ids:
                        self._chips(surface, ids, st.colours, chips_x, yy, minus=k == 1)
                    else:
                        self._blit_text(surface, "-", 13, th.text_dim, midleft=(chips_x, yy))
        if st.round_scores:
            done = "  ".join("/".join(f"{s:+d}" for s in r) for r in st.round_scores)
            self._blit_text(surface, f"Rounds so far: {done}"[:46], 12, th.text_dim,
                            bottomleft=(SCORE_CARD.x + 12, SCORE_CARD.bottom - 8))
        help_lines = ["R refuse  ·  Enter end turn  ·  F5 replay  ·  H hint",
                      "Ctrl+Z practice undo  ·  F1 rules  ·  Esc menu"]
        for i, line in enumerate(help_lines):
            self.kit.blit(surface, line, 13, th.text_dim, width=PW, midtop=(PANEL.centerx, 712 + i * 20))
        seed = self._text(f"game {self.match.seed}" + ("  ·  practice" if st.practice else ""), 12,
                          mix(th.panel, th.text_dim, 0.6))
        surface.blit(seed, seed.get_rect(bottomright=(PX + PW, H_LOGICAL - 12)))

    def rules_scores(self, st) -> list[int]:
        from .rules import scores
        return scores(st)

    def _turn_info(self, st) -> str:
        """A line about the stick in play (taboo, the stick in hand and its height to beat)."""
        att = self.att
        if att is not None and att.kind == "raise":
            return f"stick {att.stick} in hand  ·  to beat {att.hp_before:.1f} mm"
        if st.phase == "raise" and st.hp_before is not None:
            return f"stick {st.held} taken  ·  to beat {st.hp_before:.1f} mm"
        if st.taboo is not None and st.phase in ("turn", "winning"):
            return f"taboo: stick {st.taboo} (hatched)  ·  {len(st.poses)} on the X"
        if st.poses:
            return f"{len(st.poses)} sticks on the X"
        return ""

    def _draw_table(self, surface, box, rows_y, tally, colours, scores, totals) -> None:
        th = self.theme
        x0 = box.x + 36
        cols = (x0, x0 + 150, x0 + 330, box.right - 130, box.right - 40)
        for label, x in zip(("PLAYER", "WINNING", "MINUS", "ROUND", "TOTAL"), cols):
            if label in ("ROUND", "TOTAL"):
                self._blit_text(surface, label, 12, th.text_dim, True, topright=(x + 20, rows_y))
            else:
                self._blit_text(surface, label, 12, th.text_dim, True, topleft=(x, rows_y))
        for p in range(len(scores)):
            y = rows_y + 34 + p * 34
            tb = self._tag(surface, p, (cols[0], y), 13)
            self._blit_text(surface, self.name(p), 15, th.text, True, midleft=(tb.right + 8, y))
            if tally is not None:
                if tally[p]["winning"]:
                    self._chips(surface, tally[p]["winning"], colours, cols[1], y)
                else:
                    self._blit_text(surface, "-", 14, th.text_dim, midleft=(cols[1], y))
                if tally[p]["minus"]:
                    self._chips(surface, tally[p]["minus"], colours, cols[2], y, minus=True)
                else:
                    self._blit_text(surface, "-", 14, th.text_dim, midleft=(cols[2], y))
            self._blit_text(surface, f"{scores[p]:+d}", 17, th.text, True, midright=(cols[3] + 20, y))
            self._blit_text(surface, str(totals[p]), 19, th.accent, True, midright=(cols[4] + 20, y))

    def _draw_round_card(self, surface) -> None:
        th = self.theme
        c = self.card
        dim_backdrop(surface, 140)
        n = len(c["scores"])
        box = pygame.Rect(0, 0, 720, 214 + 34 * n)
        box.center = (PILE.centerx, 400)
        pygame.draw.rect(surface, th.panel, box, border_radius=18)
        pygame.draw.rect(surface, th.panel_edge, box, 2, border_radius=18)
        self._blit_text(surface, f"Round {c['round'] + 1} of {self.state.n_rounds} is over", 30, th.text, True,
                        midtop=(box.centerx, box.y + 22))
        self._blit_text(surface, "Winning sticks +1 (red 0), minus sticks -1", 15, th.text_dim,
                        midtop=(box.centerx, box.y + 66))
        self._draw_table(surface, box, box.y + 100, c["tally"], c["colours"], c["scores"], c["totals"])
        self.b_next.rect.midbottom = (box.centerx, box.bottom - 20)
        self.b_next.label = "Next round  (Enter)"
        self.b_next.draw(surface, self.app)

    def result_titles(self) -> tuple[str, str]:
        out = self.match.outcome()
        winners = out["winners"]
        best = out["totals"][winners[0]]
        if len(winners) == 1:
            w = winners[0]
            if len(self.humans()) == 1:          # the one player at this table (a LAN window's too)
                title = "You win!" if w in self.humans() else "You lose"
            else:
                title = f"{self.tag(w)} wins!"
        else:
            title = "Shared win: " + ", ".join(self.tag(w) for w in winners)
        return title, f"Best total {best} after {len(out['rounds'])} round{'s' if len(out['rounds']) != 1 else ''}"

    def _draw_result(self, surface) -> None:
        th = self.theme
        out = self.match.outcome()
        dim_backdrop(surface, 150)
        n = len(out["totals"])
        box = pygame.Rect(0, 0, 720, 240 + 34 * n)
        box.center = (PILE.centerx, 400)
        pygame.draw.rect(surface, th.panel, box, border_radius=18)
        pygame.draw.rect(surface, th.good, box, 2, border_radius=18)
        title, sub = self.result_titles()
        self._blit_text(surface, title, 38, th.good, True, midtop=(box.centerx, box.y + 22))
        self._blit_text(surface, sub, 16, th.text_dim, midtop=(box.centerx, box.y + 72))
        y0 = box.y + 112
        x0 = box.x + 40
        self._blit_text(surface, "RANK", 12, th.text_dim, True, topleft=(x0, y0))
        self._blit_text(surface, "PLAYER", 12, th.text_dim, True, topleft=(x0 + 70, y0))
        self._blit_text(surface, "ROUNDS", 12, th.text_dim, True, topleft=(x0 + 320, y0))
        self._blit_text(surface, "TOTAL", 12, th.text_dim, True, topright=(box.right - 40, y0))
        rank = 0
        prev = None
        for i, p in enumerate(out["ranking"]):
            if out["totals"][p] != prev:
                rank = i + 1
                prev = out["totals"][p]
            y = y0 + 34 + i * 34
            self._blit_text(surface, f"{rank}.", 17, th.text, True, midleft=(x0, y))
            tb = self._tag(surface, p, (x0 + 70, y), 13)
            self._blit_text(surface, self.name(p), 15, th.text, True, midleft=(tb.right + 8, y))
            rounds = "  ".join(f"{r[p]:+d}" for r in out["rounds"])
            self._blit_text(surface, rounds, 15, th.text_dim, midleft=(x0 + 320, y))
            self._blit_text(surface, str(out["totals"][p]), 20, th.accent, True, midright=(box.right - 40, y))
        by = box.bottom - 70
        self.b_new.rect.topleft = (box.centerx - 260, by)
        self.b_launch.rect.topleft = (box.centerx - 80, by)
        self.b_view.rect.topleft = (box.centerx + 100, by)
        for b in self.end_buttons:
            b.draw(surface, self.app)


def _wrap(text: str, font, width: int) -> list[str]:
    from sim.app.widgets import wrap_text
    return wrap_text(text, font, width)


def _bot_job(bot: Any, rules: Any, state: Any, seat: int):
    """The worker's job for a bot's move on ``state``: its decision, and for a take or draw the
    physical outcome of its plan (``driver.run_plan`` on the state after the take), both off the
    frame. Returns ``(action, physics action or None)``; raises what the bot or the plan raise."""
    def job(cancelled):
        dec = bot.decide(state, cancelled)
        action = dec["action"]
        rules.check(state, seat, action)
        if action["t"] not in ("take", "draw"):
            return action, None
        nxt, _events = rules.apply(state, seat, action)
        return action, driver.run_plan(nxt, dec.get("plan") or [["grab"], ["release"]])
    return job


def _safe_job(rules: Any, state: Any, seat: int):
    """What a seat whose bot failed does: end the turn (phase winning), refuse while a taboo stick is
    on the X, else take the highest stick and let go of it at once (a failed raise)."""
    def job(cancelled):
        if state.phase == "winning":
            return {"t": "end"}, None
        if state.taboo is not None and state.taboo in state.poses:
            return {"t": "refuse"}, None
        sid = max(rules.takeable(state), key=lambda i: (model.highest_point(state.poses[i]), -i))
        action = {"t": "take", "stick": sid}
        nxt, _events = rules.apply(state, seat, action)
        return action, driver.run_plan(nxt, [["grab"], ["release"]])
    return job
