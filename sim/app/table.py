"""The one table screen every game's screen extends (specs/DESIGN.md "App").

:class:`TableScene` owns what every game's screen does the same way: binding to the match (its
listener; the app binds the autosave), the seats, bot turns off the frame (:class:`BotTurns`), submit
with the rules' reason shown when refused (:meth:`submit_as`), undo/redo by the match's policy, a hint from the game's
bot (thought out off the frame too), play again, the end card's frame and buttons, sounds, the rules
overlay and the table keys: Ctrl+Z undo, Ctrl+Y (or Ctrl+Shift+Z) redo, H hint and F1 rules; where one
does not apply, a toast says why. On a LAN table (a ``RemoteMatch``) undo asks the host (the seat's own
last action, by the match's policy) and the table's news (seats dropped, played by a bot, back; the host
gone) is among the screen's notices. Esc is left to the game (to drop a selection), then to the app (back
to the launcher; the match stays autosaved).

A game's screen keeps its own board: it overrides the hooks :meth:`handle_input` (every event but the
table keys), :meth:`_key` (its own keys, from ``handle_input``), :meth:`_on_events` (match events),
:meth:`animate` and :meth:`settle` (per-step work before and after the bots), :meth:`board_busy`
(whether its own picture moves with no input), :meth:`show_hint`, and, where its rules need more,
:meth:`undo_steps`, :meth:`seat_name`, :meth:`_fallback`.

Redraw policy (:meth:`wants_frame`): the screen is drawn again with no input while a bot is to act, a
hint is thought out, a message shows, the last action is less than ``BOT_DELAY`` s old, chance, physics
or a clock is due, an animation runs (:meth:`animating`), the game's board moves (:meth:`board_busy`),
or the match is on the LAN; otherwise the picture is still and the app waits for input.
"""
from __future__ import annotations

import os
import random
from typing import Any

import pygame

from sim.ai.worker import BotTurns, BotWorker
from sim.core.match import Match
from sim.core.rules import IllegalAction
from sim.core.seats import Seat

from .scene import Scene, WheelSteps
from .ui import Kit
from .widgets import Button, mix


class Same:
    """A part of a :meth:`TableScene.kept_picture` key equal only to itself holding the very same
    object (a position: comparing two positions field by field would cost more than drawing)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


def button_look(b: Button) -> tuple:
    """What a button looks like (for a :meth:`TableScene.kept_picture` key)."""
    return (b.label, b.enabled, b.hover, b.pressed, b.focused, b.style, b.font_size, b.rect.topleft, b.rect.size)


class TableScene(Scene):
    """A game's screen on ``match`` (any position: it draws whatever state the match is in).

    ``spec`` is the game's ``GameSpec`` (default: the registry's entry for the match's game).
    """

    title = "Playtable"
    #: s a move stays on screen before a bot's next move is played
    BOT_DELAY = 0.5
    #: the bot level that gives hints (None: the game's last, strongest, level)
    HINT_LEVEL: str | None = None

    def __init__(self, app: Any, match: Any, spec: Any = None):
        super().__init__(app)
        self.match = match
        self.rules = match.rules
        if spec is None:
            from sim.core.registry import get_spec
            spec = get_spec(match.rules.info.name)
        self.spec = spec
        self.seat_list: list[Seat] = list(match.seats)
        #: the seats as written in the config ("human", "bot:hard"), for the games' own labels
        self.seats: list[str] = [s.text() for s in self.seat_list]
        self.kit = Kit(app)
        self.bots = BotTurns(f"{spec.name}-bot")
        self.worker = self.bots.worker
        self.bot_error: str | None = None
        self.since = self.BOT_DELAY                  # s since the last action was shown
        self._acted_at = -self.BOT_DELAY             # app time of the last action (redraw policy)
        self.clock = 0.0                             # s of screen time, for messages and animation
        self.msg: tuple[str, tuple, float] | None = None
        self.msg_fact = "message"                    # what the message is about (see say)
        self.notice_boxes: list[pygame.Rect] = []    # the notices drawn last frame
        self.show_result = True
        self.wheel = WheelSteps()
        self.hint: tuple[int, Any] | None = None     # (log cursor it was made for, the hinted action)
        self._hint_worker = BotWorker(f"{spec.name}-hint")
        self._hint_job: tuple[Any, int] | None = None
        #: a LAN table's notices (seats dropped, replaced by a bot, back; the host gone), or None
        self.lan_news: Any = None
        if self.remote and getattr(match, "client", None) is not None:
            from .lan_news import LanNews
            self.lan_news = LanNews(match.client, self.seat_name)

    # ------------------------------------------------------------------ lifecycle
    def on_enter(self) -> None:
        if self._table_events not in self.match.listeners:
            self.match.listeners.insert(0, self._table_events)

    def on_exit(self) -> None:
        self.bots.cancel()
        self._cancel_hint()
        try:
            self.match.listeners.remove(self._table_events)
        except ValueError:
            pass

    def _table_events(self, match: Any, events: list) -> None:
        self.since = 0.0
        self._acted_at = self._now()
        self.hint = None
        self._cancel_hint()
        self._on_events(match, events)

    def _on_events(self, match: Any, events: list) -> None:
        """The game's reaction to match ``events`` (sounds, animations, messages)."""

    # ------------------------------------------------------------------ seats and state
    @property
    def state(self) -> Any:
        return self.match.state

    @property
    def theme(self):
        return self.app.theme

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seat_list) and self.seat_list[seat].is_bot

    def played_elsewhere(self, seat: int | None) -> bool:
        """Whether ``seat`` acts without this screen: a bot, or on a LAN table a player at another machine."""
        return self.is_bot(seat) or (seat is not None and 0 <= seat < len(self.seat_list)
                                     and self.seat_list[seat].kind == "lan")

    def humans(self) -> list[int]:
        """The seats played by people at this machine."""
        return [i for i, s in enumerate(self.seat_list) if s.is_human]

    def bot_level(self, seat: int) -> str:
        """The level of bot ``seat`` (the game's first level when its seat names none)."""
        level = self.seat_list[seat].level
        return level or (self.spec.levels[0] if self.spec.levels else "")

    def to_act(self) -> int | None:
        """The seat that acts now (None when the game is over or chance, physics or a clock is due)."""
        act = self.rules.active_players(self.state)
        return act[0] if act and act[0] >= 0 else None

    def human_turn(self) -> bool:
        """Whether a human at this machine is to act (on a LAN table: this machine's own seat, not a
        player at another machine)."""
        seat = self.to_act()
        return seat is not None and not self.played_elsewhere(seat)

    def seat_name(self, seat: int) -> str:
        """"You", "Player 2", "Bot (hard)", "Bot 3 (easy)" depending on who sits where; a name the
        player gave wins."""
        s = self.seat_list[seat]
        if s.name:
            return s.name
        humans = len(self.humans())
        if s.is_human:
            return "You" if humans == 1 else f"Player {seat + 1}"
        level = self.bot_level(seat)
        return f"Bot ({level})" if humans >= 1 and len(self.seat_list) == 2 else f"Bot {seat + 1} ({level})"

    @property
    def remote(self) -> bool:
        """Whether the match is played on the LAN (a ``RemoteMatch``: the host owns the log)."""
        return bool(getattr(self.match, "meta", {}).get("lan"))

    def reviewing(self) -> bool:
        """Whether a replay steps through the match (the replay controls are over this screen)."""
        from .replay import ReplayScene
        return any(isinstance(s, ReplayScene) for s in getattr(self.app, "stack", ()))

    # ------------------------------------------------------------------ feedback
    def _sound(self, name: str) -> None:
        audio = getattr(self.app, "audio", None)
        if audio is not None:
            audio.play(name)

    def say(self, text: str, colour=None, seconds: float = 3.0, fact: str = "message") -> None:
        """Show ``text`` (first letter capitalised) in the screen's message line for ``seconds`` s.
        ``fact`` names what it is about: in the notices area (:meth:`notices_rect`) it replaces a
        standing notice with the same key (:meth:`standing_notices`) rather than repeating it."""
        self.msg = (text[:1].upper() + text[1:], colour or self.theme.text, self.clock + seconds)
        self.msg_fact = fact

    def refuse(self, reason: str) -> None:
        """Say why an action was refused, with the reject sound."""
        self.say(reason, self.theme.bad, 4.0)
        self._sound("reject")

    def unavailable(self, reason: str) -> None:
        """A table key that does not apply now: a toast (in the notices area, where the screen has one)
        says why."""
        self.app.toast(reason[:1].upper() + reason[1:], 2.6)
        self._sound("reject")

    # ------------------------------------------------------------------ notices
    def board_rect(self) -> pygame.Rect | None:
        """The rectangle the board is drawn in (logical px): notices never cover it. None where the
        screen does not say."""
        return None

    def notices_rect(self) -> pygame.Rect | None:
        """The area beside the board where :meth:`draw_notices` stacks the screen's notices (status,
        standing notes, the message, the app's toast), or None when the screen draws its own."""
        return None

    @property
    def shows_toasts(self) -> bool:
        """Whether the app's toasts are shown in this screen's notices area (not over the board)."""
        return self.notices_rect() is not None

    def status_notice(self) -> Any:
        """The status line as a :class:`~sim.app.ui.Notice` (key "status"), or None."""
        return None

    def standing_notices(self) -> list:
        """Notes that stand while a fact holds (a stale game, a pass that would end it) as
        :class:`~sim.app.ui.Notice` items; a message said with the same ``fact`` replaces one."""
        return []

    def notice_items(self) -> list:
        """Everything the notices area shows now, in order: the status, the standing notes, the
        message (``say``; the app's toast in its place while that shows), the bot's error; one per fact."""
        from .ui import Notice, one_per_fact
        th = self.theme
        items = [self.status_notice(), *self.standing_notices()]
        if self.msg is not None:
            text, colour, _until = self.msg
            items.append(Notice(getattr(self, "msg_fact", "message"), text, colour))
        if self.bot_error:
            items.append(Notice("bot_error", self.bot_error, th.bad))
        if self.lan_news is not None:   # seats dropped, played by a bot, back; the host gone
            items += [Notice(f"lan{i}", text, th.bad if bad else th.text)
                      for i, (text, bad) in enumerate(self.lan_news.lines())]
        toast = getattr(self.app, "toast_text", None)
        if toast:
            # in the message's place while it shows: the newest word goes there, the message after it
            items.append(Notice("message", toast, th.text, mix(th.panel, th.panel_edge, 0.3)))
        return one_per_fact(items)

    def draw_notices(self, surface) -> list[pygame.Rect]:
        """Draw :meth:`notice_items` in :meth:`notices_rect` (kept in ``self.notice_boxes``)."""
        rect = self.notices_rect()
        self.notice_boxes = [] if rect is None else self.kit.notices(surface, rect, self.notice_items())
        return self.notice_boxes

    def submit_as(self, seat: int | None, action: dict) -> bool:
        """Submit ``action`` for ``seat``; a refused one (illegal, or made stale by another player's
        move) is reported with the rules' reason and :meth:`on_refused` runs (a piece snaps back).
        Returns whether it was applied (never for ``seat`` None)."""
        if seat is None:
            return False
        try:
            self.match.submit(seat, action)
        except ConnectionError:   # a LAN table whose host is gone (its notice says so)
            self.refuse("the host is gone: the game cannot go on")
            return False
        except IllegalAction as e:
            self.refuse(str(e))
            self.on_refused(action, str(e))
            return False
        return True

    def on_refused(self, action: dict, reason: str) -> None:
        """The game's reaction to a refused action of this screen (default: none)."""

    # ------------------------------------------------------------------ undo and redo
    def undo_steps(self) -> int:
        """How many log entries Ctrl+Z takes back: the bots' actions since the last human action and
        that action itself (0 when there is none, the game is over, or the match's policy forbids it:
        never across chance, physics or a timer)."""
        m = self.match
        if self.remote:   # the host's match decides (this seat's own last action only)
            return int(not self.spec.realtime and m.can_undo(getattr(m, "seat", None)))
        # asked every frame (the Undo button): worked out once per position of the log
        key = (m.cursor, len(m.log), tuple(s.is_bot for s in self.seat_list))
        memo = self.__dict__.get("_undo_memo")
        if memo is not None and memo[1] is m.state and memo[0] == key:
            return memo[2]
        n = self._undo_walk(m)
        self._undo_memo = (key, m.state, n)
        return n

    def _undo_walk(self, m: Any) -> int:
        if m.is_over() or self.spec.realtime or not m.can_undo():
            return 0
        k, n = m.cursor, 0
        while k > 0:
            entry = m.log[k - 1]
            p = entry["p"]
            if p < 0 or not self.rules.undoable(m.states[k - 1], p, entry["a"]):
                return 0
            n += 1
            if not self.is_bot(p):
                return n
            k -= 1
        return 0

    def can_undo(self) -> bool:
        return self.undo_steps() > 0 and not self.reviewing()

    def undo_refusal(self) -> str:
        """Why Ctrl+Z does nothing now (the game's policy in words)."""
        m = self.match
        if self.spec.realtime:
            return "a real-time race has no undo"
        if m.is_over():
            return "the game is over: nothing can be taken back"
        if self.remote:
            if getattr(m, "waiting", lambda: False)():
                return "waiting for the host's answer"
            return "nothing to undo: only your own last move, before anyone else acts"
        if m.is_over():
            return "the game is over: nothing can be taken back"
        if m.cursor and m.log[m.cursor - 1]["p"] < 0:
            return "nothing to undo: a roll, a draw or a shuffle can never be taken back"
        return "nothing to undo"

    def do_undo(self) -> None:
        """Ctrl+Z: back to the position before the last human action (bots' replies included)."""
        n = self.undo_steps() if not self.reviewing() else 0
        if n == 0:
            self.unavailable(self.undo_refusal())
            return
        self.bots.cancel()
        if self.remote:   # the host takes it back; its next view shows the position before it
            try:
                asked = self.match.undo(self.match.seat)
            except ConnectionError:
                self.unavailable("the host is gone: nothing can be taken back")
                return
            if asked:
                self._sound("undo")
            else:
                self.unavailable(self.undo_refusal())
            return
        for _ in range(n):
            p = self.match.log[self.match.cursor - 1]["p"]
            if not self.match.undo(p):
                break
        self.after_undo()
        self._sound("undo")

    def after_undo(self) -> None:
        """Drop the game's per-move choices after undo or redo (default: none)."""

    def can_redo(self) -> bool:
        return bool(self.match.can_redo()) and not self.match.is_over() and not self.reviewing()

    def do_redo(self) -> None:
        """Ctrl+Y: play again what Ctrl+Z took back: the human action and the bots' replies after it."""
        if not self.can_redo():
            self.unavailable("nothing to redo" if not self.spec.realtime else "a real-time race has no redo")
            return
        self.bots.cancel()
        m = self.match
        m.redo()
        while m.can_redo() and self.is_bot(m.log[m.cursor]["p"]):
            m.redo()
        self.after_undo()
        self._sound("place")

    # ------------------------------------------------------------------ hint
    def hint_level(self) -> str | None:
        """The bot level that gives hints, or None when the game has no bot to ask."""
        levels = self.spec.levels
        if self.spec.make_bot is None or not levels:
            return None
        return self.HINT_LEVEL if self.HINT_LEVEL in levels else levels[-1]

    def hint_refusal(self) -> str | None:
        """Why H gives no hint now, or None when it may."""
        if self.match.is_over():
            return "the game is over"
        if self.reviewing():
            return "no hints in a replay"
        if self.remote:
            return "no hints in a game on the LAN"
        if self.hint_level() is None:
            return f"{self.spec.title} has no bot to ask for a hint"
        if not self.human_turn():
            return "a hint is for your own turn"
        return None

    def do_hint(self) -> None:
        """H: ask the game's strongest bot what it would play here (thought out off the frame); the
        answer is shown by :meth:`show_hint`."""
        why = self.hint_refusal()
        if why is not None:
            self.unavailable(why)
            return
        if self.hint is not None and self.hint[0] == self.match.cursor:
            self.show_hint(self.hint[1])
            return
        st, seat = self.state, self.to_act()
        if self._hint_job is not None and self._hint_job[0] is st:
            return   # already thinking about it
        self._hint_job = (st, seat)
        self._hint_worker.start(self._bot_job(st, seat, self.hint_level()))
        self.say("Thinking about a hint…", self.theme.text_dim, 30.0)

    def _poll_hint(self) -> None:
        if self._hint_job is None:
            return
        st, _seat = self._hint_job
        try:
            done, act = self._hint_worker.poll()
        except Exception as e:  # noqa: BLE001 - a failing bot gives no hint, the game goes on
            self._hint_job = None
            self.say(f"No hint: the bot failed ({e.__class__.__name__})", self.theme.bad)
            return
        if not done:
            return
        self._hint_job = None
        if st is self.state:
            self.hint = (self.match.cursor, act)
            self.msg = None
            self._sound("hint")
            self.show_hint(act)

    def _cancel_hint(self) -> None:
        if self._hint_job is not None:
            self._hint_worker.cancel()
            self._hint_job = None
            if self.msg is not None and self.msg[0].startswith("Thinking about a hint"):
                self.msg = None

    def show_hint(self, action: dict) -> None:
        """Show the hinted ``action`` (default: in words, :meth:`describe_action`)."""
        self.say(f"Hint: {self.describe_action(action)}", self.theme.accent, 6.0)

    def describe_action(self, action: dict) -> str:
        """``action`` in words for a player (default: its fields)."""
        return ", ".join(f"{k} {v}" for k, v in action.items())

    # ------------------------------------------------------------------ table commands
    def do_rules(self) -> None:
        if not any(getattr(s, "is_rules", False) for s in getattr(self.app, "stack", ())):
            self.app.show_rules(self.spec)

    def do_menu(self) -> None:
        self.app.to_launcher()

    def do_toggle_result(self) -> None:
        if self.match.is_over():
            self.show_result = not self.show_result

    def new_match(self) -> Match:
        """A new match with the same config (seats, options) and a fresh seed (from the OS, never the
        global random state)."""
        return Match(self.rules, dict(self.match.config), int.from_bytes(os.urandom(4), "big"),
                     seats=list(self.match.seats))

    def do_play_again(self) -> None:
        if self.remote:
            self.unavailable("the host starts the next game on the LAN")
            return
        self.app.start_match(self.spec, self.new_match())
        self._sound("start")

    def end_sound(self, winner: int | None) -> str:
        """"win" or "lose" for the one human at the table, "win" otherwise."""
        hs = self.humans()
        if len(hs) == 1 and winner is not None:
            return "win" if winner == hs[0] else "lose"
        return "win"

    # ------------------------------------------------------------------ bots
    def make_agent(self, seat: int, level: str, seed: int, cancelled: Any) -> Any:
        """The bot that decides for ``seat`` (default: the spec's ``make_bot``)."""
        return self.spec.make_bot(seat, level, seed)

    def _bot_job(self, st: Any, seat: int, level: str | None = None):
        level = level or self.bot_level(seat)
        seed = (self.match.seed * 1000003 + self.match.cursor * 7919 + seat) & 0x7FFFFFFF
        rules = self.rules

        def job(cancelled):
            return self.make_agent(seat, level, seed, cancelled).select_action(rules, st, seat)
        return job

    def _fallback(self, st: Any, seat: int) -> dict:
        """A legal action when a bot fails: a random one."""
        acts = self.rules.legal_actions(st, seat)
        return random.Random(f"{self.match.seed}/{self.match.cursor}").choice(acts)

    def animating(self) -> bool:
        """Whether an animation runs that a bot's next move must wait for."""
        return False

    def _drive_bot(self) -> None:
        seat = self.to_act()
        err = self.bots.step(self.match, seat if self.is_bot(seat) else None, self._bot_job, self._fallback,
                             self.since >= self.BOT_DELAY and not self.animating())
        if err:
            self.bot_error = f"{self.seat_name(seat)} {err}"

    def bot_thinking(self) -> bool:
        """Whether a bot is to act now (the "thinking" mark)."""
        return self.is_bot(self.to_act()) and not self.match.is_over() and not self.reviewing()

    # ------------------------------------------------------------------ input
    def handle_event(self, event: Any) -> bool:
        if event.type == pygame.KEYDOWN and self.table_key(event):
            self._refresh_buttons()
            return True
        return self.handle_input(event)

    def table_key(self, event: Any) -> bool:
        """The keys every table has: Ctrl+Z, Ctrl+Y / Ctrl+Shift+Z, H, F1. Returns whether consumed."""
        k = event.key
        mods = getattr(event, "mod", 0)
        if mods & pygame.KMOD_CTRL:
            if k == pygame.K_z and mods & pygame.KMOD_SHIFT or k == pygame.K_y:
                self.do_redo()
                return True
            if k == pygame.K_z:
                self.do_undo()
                return True
            return False
        if mods & (pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        if k == pygame.K_h:
            self.do_hint()
            return True
        if k == pygame.K_F1:
            self.do_rules()
            return True
        return False

    def active_buttons(self) -> list[Button]:
        """The buttons that take clicks now (the game's)."""
        return []

    def buttons_take(self, event: Any) -> bool:
        """The active buttons see mouse events first: motion moves their hover (not consumed); a press or
        release on one is consumed (the buttons brought up to date after a click)."""
        et = event.type
        if et == pygame.MOUSEMOTION:
            for b in self.active_buttons():
                b.handle_event(event)
        elif et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            for b in self.active_buttons():
                if b.handle_event(event):
                    self._refresh_buttons()
                    return True
        return False

    def handle_input(self, event: Any) -> bool:
        """The game's own handling of ``event`` (default: keys to :meth:`_key`)."""
        if event.type == pygame.KEYDOWN:
            consumed = self._key(event)
            self._refresh_buttons()
            return consumed
        return False

    def _key(self, event: Any) -> bool:
        """The game's own keys; returns whether consumed (Esc unconsumed goes back to the launcher)."""
        return False

    def _refresh_buttons(self) -> None:
        """Bring the game's buttons up to date with the position (labels, enabled)."""

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        self.clock += dt
        self.since += dt
        if self.msg is not None and self.clock >= self.msg[2]:
            self.msg = None
        self.animate(dt)
        if self.lan_news is not None:
            for text in self.lan_news.update(self.clock):
                self._sound("reject" if "dropped" in text or "ended" in text or "lost" in text else "click")
        if getattr(self.app, "top", self) is not self:
            return   # under a dialog (rules, replay controls) the game pauses
        self._poll_hint()
        if not self.match.is_over():
            self._drive_bot()
        self.settle()
        self._refresh_buttons()

    def animate(self, dt: float) -> None:
        """The game's animations, ``dt`` s on (they run under dialogs too)."""

    def _now(self) -> float:
        return float(getattr(self.app, "time", 0.0))

    def wants_frame(self) -> bool:
        """Whether the screen must be drawn again with no input (the module doc's redraw policy; the
        age of the last action is read from the app's clock, as screens with their own ``update`` may
        not keep ``since``)."""
        if self._now() - self._acted_at < self.BOT_DELAY or self.msg is not None or self._hint_job is not None \
                or self.remote:
            return True
        if not self.match.is_over():
            act = self.rules.active_players(self.state)
            if not act or act[0] < 0 or self.is_bot(act[0]):
                return True
        return self.animating() or self.board_busy()

    def board_busy(self) -> bool:
        """Whether the game's own picture moves with no input (a pulse, a flight, a clock); the default
        True draws every frame: a game says False when its board is still."""
        return True

    def looks_changed(self, what: str, key: Any) -> bool:
        """For :meth:`board_busy` (asked once a frame): whether ``key``, what ``what`` looks like now (a
        clock's text, a pulse's drawn radius), differs from the last time it was asked."""
        seen = self.__dict__.setdefault("_looks", {})
        if seen.get(what, self) == key:
            return False
        seen[what] = key
        return True

    def settle(self) -> None:
        """The game's per-step tidying after the bots moved (drop choices that no longer apply)."""

    # ------------------------------------------------------------------ drawing
    def thinking_text(self) -> str:
        """"thinking." to "thinking...", the dots going round with the screen's clock."""
        return "thinking" + "." * (1 + int(self.clock * 3) % 3)

    def _text(self, text: str, size: int, colour, bold: bool = False) -> pygame.Surface:
        return self.kit.text(text, size, colour, bold)

    def _blit_text(self, surface, text, size, colour, bold=False, **anchor) -> pygame.Rect:
        return self.kit.blit(surface, text, size, colour, bold, **anchor)

    def _pill(self, surface, text, centre, colour, fg=None, size=17, **kw) -> pygame.Rect:
        return self.kit.pill(surface, text, centre, colour, fg, size, **kw)

    def _card(self, surface, rect, label=None, edge=None, **kw) -> None:
        self.kit.card(surface, rect, label, edge, **kw)

    def kept_picture(self, surface, rect, key: Any, paint: Any) -> None:
        """Draw what ``paint(surface)`` draws inside ``rect`` (logical px; it must cover ``rect`` and draw
        nothing outside it, e.g. a side panel) through a picture kept while ``key``, everything it
        shows, stays equal: the first frame with a new key paints as usual, the second keeps the
        picture, later ones only blit it (so a change costs nothing more, however often it comes).
        Text fits noted while painting (:attr:`Kit.drawn`, ``CLIPPED``) are noted again each time
        the picture is shown."""
        from . import widgets
        rect = pygame.Rect(rect)
        kept = self.__dict__.setdefault("_kept", {})
        slot = rect.topleft + rect.size
        hit = kept.get(slot)      # [key, picture or None, picture holds key, text noted, cuts noted]
        if hit is None or hit[0] != key:
            paint(surface)
            kept[slot] = [key, hit[1] if hit is not None else None, False, [], []]
            return
        pic = hit[1]
        if not hit[2]:
            if pic is None or pic.get_size() != surface.get_size():
                pic = hit[1] = pygame.Surface(surface.get_size(), 0, surface)
            drawn, clipped = len(self.kit.drawn), len(widgets.CLIPPED)
            pic.set_clip(rect)
            try:
                paint(pic)
            finally:
                pic.set_clip(None)
            hit[2:] = [True, self.kit.drawn[drawn:], widgets.CLIPPED[clipped:]]
        else:
            if widgets.CHECK_FIT:
                self.kit.drawn.extend(hit[3])
            for text, width in hit[4]:
                widgets.note_clipped(text, width)
        surface.blit(pic, rect.topleft, rect)

    def end_buttons_for(self, box: pygame.Rect, show: Any) -> None:
        """The end card's buttons along the bottom of ``box`` (Play again, Launcher, View board) as
        ``self.end_buttons``, and ``self.b_show`` (Show result, at rect ``show``) for when the card is
        hidden."""
        y = box.bottom - 64
        self.b_again = Button((box.centerx - 255, y, 160, 46), "Play again", self.do_play_again,
                              style="primary", font_size=18)
        self.b_launch = Button((box.centerx - 80, y, 160, 46), "Launcher", self.do_menu, font_size=18)
        self.b_view = Button((box.centerx + 95, y, 160, 46), "View board (V)", self.do_toggle_result,
                             font_size=17)
        self.b_show = Button(show, "Show result (V)", self.do_toggle_result, font_size=17, style="primary")
        self.end_buttons = [self.b_again, self.b_launch, self.b_view]

    def end_title(self, winner: int | None) -> str:
        """"A draw", "You win!" / "You lose" (the one human at the table), or "<seat name> wins"."""
        if winner is None:
            return "A draw"
        hs = self.humans()
        if len(hs) == 1:
            return "You win!" if winner == hs[0] else "You lose"
        return f"{self.seat_name(winner)} wins"

    def draw_end_frame(self, surface, area: pygame.Rect, box: pygame.Rect, winner: int | None, sub: str = "",
                       title: str | None = None, alpha: int = 130, size: int = 36) -> None:
        """The end card's frame over ``area``: shade, card ``box`` edged by the outcome for the one
        human at the table (good: won, bad: lost), the title (default :meth:`end_title`) and ``sub``."""
        th = self.theme
        self.kit.shade(surface, area, alpha)
        hs = self.humans()
        mine = len(hs) == 1 and winner is not None
        good = mine and winner == hs[0]
        pygame.draw.rect(surface, th.panel, box, border_radius=18)
        pygame.draw.rect(surface, th.good if good else th.bad if mine else th.panel_edge, box, 2,
                         border_radius=18)
        self.kit.blit(surface, self.end_title(winner) if title is None else title, size,
                      th.good if good else th.text, True, width=box.w - 40, midtop=(box.centerx, box.y + 18))
        if sub:
            self.kit.blit(surface, sub, 15, th.text_dim, width=box.w - 40, midtop=(box.centerx, box.y + 66))

    def draw_message(self, surface, centre: tuple[int, int], size: int = 15) -> bool:
        """The current message (``say``) centred at ``centre`` on a quiet backdrop; returns whether
        one was drawn."""
        if self.msg is None:
            return False
        th = self.theme
        text, colour, _until = self.msg
        img = self.kit.fit(text, size, colour, 860, True)
        r = img.get_rect(center=centre)
        pygame.draw.rect(surface, mix(th.bg, th.panel, 0.6), r.inflate(24, 8), border_radius=8)
        surface.blit(img, r)
        return True
