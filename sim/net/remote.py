"""The client side of a LAN game: :class:`RemoteMatch`, what a game's screen reads from a local
:class:`~sim.core.match.Match`, fed by a :class:`~sim.net.client.Client` (as a boardgame.io Board gets
the same props locally and remotely).

``state`` is this seat's view (``rules.state_from_json`` of the host's
``state_to_json(observe(state, seat))``), a state of the game's own type, so the game's own drawing
code reads it as it reads a local state. ``submit`` sends an action as an intent (in a turn-based game
after checking it against that view: the rules' reason at once for an action the view already
refuses); the host's answer comes later: a new view (listeners are called with ``(remote, events)``)
or a refusal (:attr:`refusals`). Nothing here waits on the network: the owner calls :meth:`poll`, and
reading :attr:`state` polls too, so a game's screen that reads the state every frame stays current
without knowing it is remote.

A real-time game (``rules.info.realtime``) runs on the host's clock: :attr:`time` is the host's match
time of the last view plus the time since it arrived (stopped when the game is over or the host is
gone), :meth:`advance` does nothing (the host fires the timers), ``submit`` leaves every check to the
host (a real-time view is always a moment old), and the listeners get the events of every view that
came in since the last poll (``GameSpec.lan_events``: what the seat may be told). A turn-based game
with ``lan_events`` gets its listeners called with those events too (Streetcar's, Tokami's raise, fall and
round-end cues). In a turn-based game :meth:`undo` asks the host to take back this seat's last action;
:meth:`can_undo` is the host's word on it with the last view (the match's policy). There is no redo on
the LAN.

For a game whose actions are all public (``GameSpec.lan_log``) the host sends the action log too:
:attr:`log`, :attr:`states` and :meth:`applied` then hold the whole game as in a local ``Match``
(replayed here from the config), so the screen's move list works. The host sends its config with the
seats named under ``"seats"`` (:attr:`kinds`); :attr:`seats` shows this machine's seat as its human and
every other one as played elsewhere (the host plays its bots; a screen never runs one for a remote seat).
"""
from __future__ import annotations

import dataclasses
import json
import random
import time as _time
from typing import Any, Callable

from sim.core.rules import IllegalAction
from sim.core.seats import Seat, split


class RemoteMatch:
    """This seat's side of a game hosted by ``sim.net.host.Host``, for game ``spec``."""

    def __init__(self, spec: Any, client: Any):
        self.spec = spec
        self.client = client
        self.rules = spec.make_rules()
        self.realtime = bool(self.rules.info.realtime)
        self.seat: int | None = client.seat
        self.config: dict[str, Any] = {}
        self.host_config: dict[str, Any] = {}
        #: why the last view from the host could not be read (None: all read)
        self.error: str | None = None
        self.kinds: list[str] = []       # the host's seat kinds ("human", "bot:easy")
        self.names: list = []            # the lobby's names
        self.seed = 0                    # the host keeps the real seed
        self.meta: dict[str, Any] = {"lan": True}
        self.log: list = []          # the applied actions (lan_log games; else they stay on the host)
        self.states: list = []       # states[i]: the state after log[:i] (lan_log games), else [state]
        self.cursor = 0
        self._time = 0.0                 # the host's match time in the last view
        self._time_at: float | None = None   # when that view arrived (monotonic s)
        self._stopped: float | None = None   # real-time: the clock shown once the host is gone
        self.listeners: list[Callable[[Any, list], None]] = []
        #: (seq, reason) of every intent the host refused, oldest first
        self.refusals: list[tuple[int, str]] = []
        self.pending: set[int] = set()  # intents sent and not yet answered
        #: reading :attr:`state` polls; a screen that polls once a frame itself turns this off, so a new
        #: view (and its listeners) never lands in the middle of its update or draw
        self.auto_poll = True
        self._state: Any = None
        #: the view before the last one taken in (a screen that animates a change reads it; None at first)
        self.previous: Any = None
        self._active: list[int] = []
        self._undo = False               # the host's word: this seat may take back its last action
        self._recv = 0
        self._answered: set[int] = set()
        self._polling = False
        self._seen: Any = None           # what of the last view taken in decides whether a view is new
        self._set_config(client.config)

    def _set_config(self, config: Any) -> None:
        if not config or self.config:
            return
        cfg, kinds = split(config)
        self.host_config = dict(cfg)      # what the host's match was made with (replays start there)
        self.kinds = list(kinds or [])
        self.names = list(self.client.names or [])
        self.config = dict(cfg)

    @property
    def seats(self) -> list[Seat]:
        """Who sits where, as this machine sees it: its own seat is the human here, every other seat
        is played elsewhere (a LAN player, or a bot on the host), named as the lobby names it."""
        out = []
        for i, kind in enumerate(self.kinds):
            if i == self.seat:
                out.append(Seat("human"))
                continue
            name = self.names[i] if i < len(self.names) and isinstance(self.names[i], str) else ""
            if not name:
                name = f"Bot {i + 1} ({kind.split(':', 1)[1]})" if kind.startswith("bot:") else f"Player {i + 1}"
            out.append(Seat("lan", name=name))
        return out

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> Any:
        """This seat's view as a state of the game's own type (None before the first view); reading it
        takes in what the host sent (with :attr:`auto_poll`)."""
        if self.auto_poll and not self._polling:
            try:
                self.poll()
            except ValueError as e:   # a screen keeps the last good view; the reason is kept
                self.error = str(e)
        return self._state

    @property
    def time(self) -> float:
        """Match time (s): the host's, as of the last view; in a real-time game plus the time since that
        view arrived, until the game is over (the last view's time) or the host is gone (the time
        then)."""
        if not self.realtime or self._time_at is None or self.is_over():
            return self._time
        now = self._time + (_time.monotonic() - self._time_at)
        if self.client.closed.is_set():
            if self._stopped is None:
                self._stopped = now
            return self._stopped
        return now

    def advance(self, dt: float) -> list:
        """Nothing: the host's clock runs the game (its timers fire there). Returns ``[]``."""
        return []

    def applied(self) -> list:
        """The applied log entries (``lan_log`` games; else empty)."""
        return list(self.log)

    @property
    def n(self) -> int:
        """The number of actions the host has applied (its log length) as of the last view."""
        return self.cursor

    def active_players(self) -> list[int]:
        return [] if self.is_over() else list(self._active)

    def is_over(self) -> bool:
        return self.client.over is not None or (self._state is not None and self.rules.is_terminal(self._state))

    def outcome(self) -> dict[str, Any]:
        """The host's outcome once the game is over, else the rules' outcome of this view."""
        if self.client.over is not None:
            return dict(self.client.over["outcome"])
        return self.rules.outcome(self._state)

    def can_undo(self, player: int | None = None) -> bool:
        """Whether this seat may take back its last action now, as the host said with the last view
        (the match's policy: never across another seat's action or a chance outcome), and no answer
        is awaited."""
        if self.realtime or player not in (None, self.seat) or self.pending or self.is_over():
            return False
        return bool(self._undo)

    def can_redo(self) -> bool:
        return False

    def undo(self, player: int | None = None) -> bool:
        """Ask the host to take back this seat's last action (see :meth:`can_undo`); returns whether
        the request went out (the host's new view shows the position before it; a refusal lands in
        :attr:`refusals`)."""
        if not self.can_undo(player):
            return False
        self.pending.add(self.client.send_undo())
        self._undo = False
        return True

    def redo(self) -> bool:
        return False

    # ------------------------------------------------------------------ acting
    def submit(self, player: int, action: dict) -> list:
        """Send ``action`` of ``player`` (this seat) to the host; returns ``[]`` (the events come with the
        host's next view). Raises :class:`IllegalAction` with a reason if it is not this seat's turn
        or, in a turn-based game, the rules refuse it on this seat's view (a real-time game leaves
        that to the host). ``ConnectionError`` if the connection is closed."""
        if player != self.seat:
            raise IllegalAction("that is not your seat")
        if self._state is None:
            raise IllegalAction("the game has not started")
        if player not in self.active_players():
            raise IllegalAction("you may not act now" if self.realtime else "it is not your turn")
        if not self.realtime:
            self.rules.check(self._state, player, action)
        seq = self.client.send_intent(action)
        self.pending.add(seq)
        return []

    def waiting(self) -> bool:
        """Whether an intent sent from here has no answer yet."""
        return bool(self.pending)

    # ------------------------------------------------------------------ updates
    def poll(self) -> bool:
        """Take in what the host sent since the last call; returns True if a new view arrived (the
        listeners have then been called, with the new events of a real-time game). Raises
        ``ValueError`` if the host sent a view the rules cannot read (its events are then dropped)."""
        c = self.client
        for seq in list(self.pending):
            res = c.results.get(seq)
            if res is not None:
                self.pending.discard(seq)
                if res["type"] == "rejected" and seq not in self._answered:
                    self.refusals.append((seq, res.get("reason", "")))
                self._answered.add(seq)
        msg = c.latest
        self._set_config(c.config)
        if msg is None or msg.get("recv_n", 0) == self._recv or self._polling:
            return False
        self._polling = True
        try:
            events = (c.events_between(self._recv, msg.get("recv_n", 0))
                      if self.realtime or self.spec.lan_events is not None else [])
            self._recv = msg.get("recv_n", 0)
            seen = _seen_key(msg)
            if not events and self._state is not None and seen == self._seen:
                # the host's periodic snapshot of a view already taken in: nothing changed, so the
                # listeners are not called (a screen keeps what the player is in the middle of)
                self._time = float(msg.get("time") or 0.0)
                self._time_at = _time.monotonic()
                return False
            self._seen = seen
            state = self.rules.state_from_json(msg["view"])
            self.previous = self._state
            self._state = _keep_equal_parts(self._state, state) if self.realtime else state
            self._time = float(msg.get("time") or 0.0)
            self._time_at = _time.monotonic()
            self._active = (list(msg.get("active") or []) if "active" in msg else
                            [p for p in self.rules.active_players(self._state) if p >= 0])
            self.cursor = int(msg.get("n") or 0)
            self._undo = msg.get("undo") is True
            if isinstance(msg.get("log"), list):
                self._replay(msg["log"])
            else:
                self.states = [self._state]
            for fn in list(self.listeners):
                fn(self, events)
        finally:
            self._polling = False
        return True

    def _replay(self, log: list) -> None:
        """Extend :attr:`log` / :attr:`states` with the new public entries, applied here by the rules.
        Raises ``ValueError`` if an entry does not apply or the log does not lead to the host's view."""
        from sim.core.match import Entry

        if not self.states:
            self.states = [self.rules.initial_state(self.host_config)]
            self.log = []
        if len(log) < len(self.log) or any(dict(a) != dict(b) for a, b in zip(log, self.log)):
            self.states, self.log = [self.rules.initial_state(self.host_config)], []
        for e in log[len(self.log):]:
            try:
                st, _events = self.rules.apply(self.states[-1], e["p"], e["a"])
            except (KeyError, TypeError, ValueError, IndexError) as err:
                raise ValueError(f"the host's log does not replay: {err}") from None
            self.log.append(Entry(p=e["p"], a=e["a"]))
            self.states.append(st)
        if self.rules.state_to_json(self.states[-1]) != self.rules.state_to_json(self._state):
            raise ValueError("the host's log does not lead to the view it sent")
        self.states[-1] = self._state
        self.cursor = len(self.log)

    def wait_for(self, pred: Callable[["RemoteMatch"], Any], timeout: float = 10.0) -> bool:
        """Block (tests, headless use) until ``pred(self)`` holds after a poll, or ``timeout`` s."""
        import time
        end = time.monotonic() + timeout
        while True:
            self.poll()
            if pred(self):
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.client.wait_for(lambda c: c.latest is not None and c.latest.get("recv_n") != self._recv
                                 or c.over is not None or c.closed.is_set(), min(left, 0.1))


def _seen_key(msg: dict) -> str:
    """What of a ``state`` message makes it a new view (all but its clock and arrival number)."""
    return json.dumps({k: v for k, v in msg.items() if k not in ("time", "recv_n", "events")},
                      sort_keys=True, separators=(",", ":"), default=str)


def _keep_equal_parts(old: Any, new: Any) -> Any:
    """``new`` with every field that equals ``old``'s taken from ``old`` (the same object), so a screen
    that caches by identity (a real-time game's rendered board: a view comes several times a second,
    mostly with the board unchanged) keeps its cache. Only for dataclass states of one type."""
    if old is None or type(old) is not type(new) or not dataclasses.is_dataclass(new):
        return new
    same = {}
    for f in dataclasses.fields(new):
        if f.init:
            a, b = getattr(old, f.name), getattr(new, f.name)
            if a is not b and a == b:
                same[f.name] = a
    return dataclasses.replace(new, **same) if same else new


def choose_legal(rules: Any, state: Any, seat: int, rng: random.Random) -> dict | None:
    """A random legal action of ``seat`` in ``state`` (a scripted LAN player), or None if it has none."""
    if state is None or seat not in rules.active_players(state):
        return None
    actions = rules.legal_actions(state, seat)
    return rng.choice(actions) if actions else None
