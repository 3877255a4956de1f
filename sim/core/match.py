"""``Match``: one game in progress: rules + config + seed + an append-only action log.

specs/DESIGN.md "Core interface": chance is a player whose outcomes the match samples with its own
seeded RNG and logs like any other action, so ``(config, seed, log)`` replays exactly. Undo follows
Board Game Arena's policy: it never crosses another player's action or a chance/physics outcome, and
real-time games have none; redo re-applies what was undone.
"""
from __future__ import annotations

import json
import math
import os
import random
from typing import Any, Callable

from .rules import CHANCE, CLOCK, PHYSICS, Action, Event, IllegalAction, Rules
from . import seats as seatlib
from .seats import Seat

Listener = Callable[["Match", list[Event]], None]


def random_seed() -> int:
    """A fresh 32-bit seed for a new match, from ``os.urandom`` (never the global random state)."""
    return int.from_bytes(os.urandom(4), "big")


#: Match time is kept in whole microseconds, so the clock, timer deadlines and logged times agree
#: exactly between a live run and its replay.
TIME_DIGITS = 6


def quantize(t: float) -> float:
    """``t`` s rounded to the match clock's resolution (µs)."""
    return round(float(t), TIME_DIGITS)


def _canon(action: Action) -> str:
    """Type-exact form of an action for comparisons (``True`` is not ``1``, ``32.0`` is not ``32``)."""
    return json.dumps(action, sort_keys=True)


def setup(rules: Rules, config: dict[str, Any] | None, seats: list | None = None
          ) -> tuple[dict[str, Any], list | None]:
    """The rules' checked config of a set-up ``config`` and its seats: ``seats``, else those it names
    under ``"seats"`` (taken out, so the rules never see them), else None. A config without
    ``"players"`` gets one per seat. ``ValueError`` with the rules' reason for a bad config."""
    cfg, named = seatlib.split(config)
    seats = seats if seats is not None else named
    cfg = dict(cfg or {})
    info = rules.info
    if isinstance(seats, list) and info.min_players != info.max_players and "players" not in cfg:
        cfg["players"] = len(seats)          # the seats say how many play
    return rules.validate_config(cfg or rules.default_config()), seats


def check_setup(rules: Rules, config: dict[str, Any] | None) -> dict[str, Any]:
    """A set-up ``config`` checked: the rules' config, with its ``"seats"`` (texts) checked against the
    number of players and kept when it names them. ``ValueError`` with a reason."""
    cfg, seats = setup(rules, config)
    if seats is None:
        return cfg
    return {**cfg, "seats": [s.text() for s in seatlib.check(seats, seatlib.seat_count(rules, cfg))]}


class Entry(dict):
    """One log entry: ``{"p": player, "a": action}`` plus ``"t"`` (match time in s) for real-time games."""


class Match:
    """A game in progress.

    ``log[:cursor]`` are the applied actions; ``log[cursor:]`` is the redo tail (dropped as soon as a
    new action is submitted). ``states[i]`` is the state after ``log[:i]``.
    Raises :class:`IllegalAction` from :meth:`submit` for an illegal action, leaving the match unchanged.
    """

    def __init__(self, rules: Rules, config: dict[str, Any] | None = None, seed: int = 0,
                 resolve_chance: bool = True, seats: list | None = None):
        self.rules = rules
        self.config, listed = setup(rules, config, seats)
        n = seatlib.seat_count(rules, self.config)
        #: who sits at each seat (:mod:`sim.core.seats`): ``seats`` (texts or Seats), else the ones the
        #: config named, else humans
        self.seats: list[Seat] = seatlib.check(listed, n) if listed is not None else [Seat()] * n
        self.seed = int(seed)
        self.log: list[Entry] = []
        self.states: list[Any] = [rules.initial_state(self.config)]
        self.cursor = 0
        self.time = 0.0
        self.listeners: list[Listener] = []
        #: session facts saved with the record but not part of the game (e.g. {"elapsed": s})
        self.meta: dict[str, Any] = {}
        self.auto_chance = resolve_chance
        if resolve_chance:
            self._notify(self.resolve_chance())

    # ------------------------------------------------------------------ state
    @property
    def state(self) -> Any:
        return self.states[self.cursor]

    def is_over(self) -> bool:
        return self.rules.is_terminal(self.state)

    def outcome(self) -> dict[str, Any]:
        return self.rules.outcome(self.state)

    def active_players(self) -> list[int]:
        return self.rules.active_players(self.state)

    # ---------------------------------------------------------------- actions
    def _apply(self, player: int, action: Action) -> list[Event]:
        state = self.state
        entry = Entry(p=player, a=action)
        if self.rules.info.realtime:
            entry["t"] = self.time
            state = self.rules.at_time(state, self.time)
        state, events = self.rules.apply(state, player, action)
        del self.log[self.cursor:]
        del self.states[self.cursor + 1:]
        self.log.append(entry)
        self.states.append(state)
        self.cursor += 1
        return events

    def submit(self, player: int, action: Action) -> list[Event]:
        """Apply ``action`` by ``player`` after checking it, then resolve any chance nodes.

        Returns the events (the action's, then chance's). Raises :class:`IllegalAction` if it is not
        legal now (for example a cell that an earlier action just took).
        """
        if player in (CHANCE, CLOCK):
            raise IllegalAction("chance and timer actions are made by the match itself")
        if player not in self.rules.active_players(self.state):
            raise IllegalAction(f"player {player} may not act now")
        state = self.state
        if self.rules.info.realtime:
            state = self.rules.at_time(state, self.time)
        self.rules.check(state, player, action)
        events = self._apply(player, action)
        if self.auto_chance:
            events += self.resolve_chance()
        self._notify(events)
        return events

    def chance_rng(self) -> random.Random:
        """RNG for the chance action at the current log position: seeded by (seed, position), so a
        resumed or undone match draws the same outcome at the same place."""
        return random.Random(f"{self.seed}/{self.cursor}")

    def sample_chance(self) -> Action:
        """The outcome chance takes at the current node, drawn with :meth:`chance_rng`."""
        outcomes = self.rules.chance_outcomes(self.state)
        x = self.chance_rng().random()
        acc = 0.0
        for action, p in outcomes:
            acc += p
            if x < acc:
                return action
        return outcomes[-1][0]

    def resolve_chance(self) -> list[Event]:
        """Sample and apply chance outcomes while the current node is a chance node."""
        events: list[Event] = []
        while self.rules.active_players(self.state) == [CHANCE]:
            events += self._apply(CHANCE, self.sample_chance())
        return events

    # ------------------------------------------------------------ real time
    def advance(self, dt: float) -> list[Event]:
        """Move the match clock on by ``dt`` s (real-time games), firing every timer that falls due on
        the way at its own time (each logged as a ``CLOCK`` action). Returns the events."""
        if not self.rules.info.realtime:
            return []
        target = quantize(self.time + max(0.0, dt))
        events: list[Event] = []
        while not self.is_over() and self.cursor == len(self.log):
            due = self.rules.next_timer(self.state)
            if due is None or due > target:
                break
            self.time = max(self.time, due)
            events += self._apply(CLOCK, self.rules.timer_action(self.rules.at_time(self.state, self.time)))
            events += self.resolve_chance()
        self.time = max(self.time, target)
        if events:
            self._notify(events)
        return events

    def replay_entry(self, player: int, action: Action, t: float | None = None) -> list[Event]:
        """Apply a logged entry (chance and timers included) after checking that it could have happened
        exactly so; used when loading a record. Raises :class:`IllegalAction` otherwise.

        Real-time games: every entry carries its time ``t`` (s, finite, never going back); a timer's
        entry comes at exactly its due time, and no player acts at or after a time when a timer was due
        (the match fires timers before anyone acts). Chance outcomes must be the ones the match's own
        seeded RNG draws at that position, so a record cannot choose its draws.
        """
        if self.rules.info.realtime:
            if t is None or not math.isfinite(t) or quantize(t) != t:
                raise IllegalAction("a real-time entry needs its time in whole microseconds")
            if t < self.time:
                raise IllegalAction("entries are not in time order")
            self.time = t
        elif t is not None:
            raise IllegalAction("a time on an entry of a game without a clock")
        if player == CHANCE:
            if self.rules.active_players(self.state) != [CHANCE]:
                raise IllegalAction("a chance outcome where no chance event is due")
            if _canon(action) != _canon(self.sample_chance()):
                raise IllegalAction("a chance outcome that the seed does not give")
            return self._apply(player, action)
        st = self.state
        due = None
        if self.rules.info.realtime:
            st = self.rules.at_time(st, self.time)
            due = self.rules.next_timer(st)
        if player == CLOCK:
            if due is None or due != self.time:
                raise IllegalAction("a timer action not at its timer's due time")
            if _canon(action) != _canon(self.rules.timer_action(st)):
                raise IllegalAction("a timer action that the timer would not make")
            return self._apply(player, action)
        if due is not None and due <= self.time:
            raise IllegalAction("an action after a timer that should have fired first")
        if player not in self.rules.active_players(self.state):
            raise IllegalAction(f"player {player} may not act now")
        self.rules.check(st, player, action)
        return self._apply(player, action)

    # ------------------------------------------------------------------- undo
    def can_undo(self, player: int | None = None) -> bool:
        """Whether the last applied action may be taken back (by ``player`` if given)."""
        if self.rules.info.realtime or self.cursor == 0 or self.rules.is_terminal(self.state):
            return False
        last = self.log[self.cursor - 1]
        p = last["p"]
        if p in (CHANCE, PHYSICS, CLOCK):
            return False
        if player is not None and p != player:
            return False
        return bool(self.rules.undoable(self.states[self.cursor - 1], p, last["a"]))

    def undo(self, player: int | None = None) -> bool:
        """Take back the last action if the policy allows; returns whether it did."""
        if not self.can_undo(player):
            return False
        self.cursor -= 1
        self._notify([{"e": "undo"}])
        return True

    def can_redo(self) -> bool:
        return self.cursor < len(self.log)

    def redo(self) -> bool:
        """Re-apply the next undone action and the chance outcomes that followed it."""
        if not self.can_redo():
            return False
        self.cursor += 1
        while self.cursor < len(self.log) and self.log[self.cursor]["p"] in (CHANCE, CLOCK):
            self.cursor += 1
        self._notify([{"e": "redo"}])
        return True

    def truncate(self, n: int) -> None:
        """Practice mode: go back to the position after ``n`` log entries and forget the entries after
        it (no redo), whatever the undo policy says. Used where a game allows taking back more than
        the policy does (e.g. Tokami's practice undo of a whole turn, physics outcome included); the
        record then never holds a tail that the policy could not reach. Raises ``ValueError`` for ``n``
        outside 0..len(log)."""
        n = int(n)
        if not 0 <= n <= len(self.log):
            raise ValueError(f"cannot truncate a log of {len(self.log)} entries to {n}")
        del self.log[n:]
        del self.states[n + 1:]
        self.cursor = n
        self._notify([{"e": "truncate"}])

    def seek(self, n: int) -> None:
        """Review: show the state after ``n`` log entries (0 <= n <= len(log)); no policy applies."""
        self.cursor = max(0, min(len(self.log), int(n)))
        self._notify([{"e": "seek"}])

    # -------------------------------------------------------------- listeners
    def _notify(self, events: list[Event]) -> None:
        """Call every listener; one that raises does not stop the others (the autosave among them),
        and the first exception is raised again once all have run."""
        error: BaseException | None = None
        for fn in list(self.listeners):
            try:
                fn(self, events)
            except Exception as e:  # noqa: BLE001 - re-raised below
                if error is None:
                    error = e
        if error is not None:
            raise error

    def applied(self) -> list[Entry]:
        """The applied part of the log."""
        return self.log[: self.cursor]

    def has_moves(self) -> bool:
        """Whether a player (not chance, physics or a clock) has acted in the applied part of the log:
        a match without one is only set up, worth neither a Resume nor a kept save."""
        return any(e["p"] >= 0 for e in self.log[: self.cursor])
