"""The authoritative LAN host for any game whose ``GameSpec`` allows it (``spec.lan``; protocol in
``sim/net/protocol.py``). Nothing here names a game: what is the game's own comes through the spec.

:class:`Host` runs a ``websockets`` server and the :class:`~sim.core.match.Match` on one asyncio loop in
its own thread, so a pygame app can run beside it. All match changes happen on that loop:

* before the game, the lobby: LAN players take free seats and say when they are ready (a ``ready``
  message; bots always are). The game starts when every seat is taken and every LAN seat is ready. A
  player who leaves (a WebSocket close) frees the seat; a dropped connection keeps its seat, not ready,
  for ``rejoin_window`` s, then the seat is free again; a newcomer who finds no free seat takes the one
  whose player has been away longest (a lobby is never full of dropped players). Every change goes to
  everyone as a ``lobby`` message;
* real-time games (``spec.realtime``): the match clock follows real time (``Match.advance`` every
  ``tick`` s and before each intent), and bot seats act through :class:`~sim.ai.realtime.BotTimers`;
* turn-based games: only the seat to act may act (the rules' ``active_players``); bot seats (and
  stand-ins) play on the host, their search in a worker thread, ``bot_pause`` s (times ``bot_speed``)
  after the position they answer (a thought made for a position that has changed since is dropped);
  an ``undo`` takes back the seat's own last action where the match's policy allows it
  (``Match.can_undo(seat)``: never across another seat's action or a chance outcome);
* intents are applied in the order they are received; a stale one (cell just taken) is rejected with
  the rules' reason. Each seat has a secret token and a growing sequence number: an intent for another
  seat, with a wrong token or with an old ``seq`` is rejected and never applied;
* after every change each connected seat gets its own view, ``rules.state_to_json(rules.observe(state,
  seat))`` (a state of the game's own type with what the seat may not see masked), and, for
  real-time games, the events ``spec.lan_events`` lets the seat see. Sends never wait:
  ``websockets.broadcast`` writes into the connection's buffer, and a client whose write buffer grows
  past ``max_buffer`` (it stopped reading; the kernel's send buffer is capped at ``sndbuf`` too) is dropped instead of stalling the others
  (specs/DESIGN.md "Library pitfalls");
* a dropped client may rejoin with its token within ``rejoin_window`` s (60); meanwhile a bot plays the
  seat (after the window, the bot keeps it). Once the game runs, every drop, stand-in, return and
  window's end goes to everyone as a ``lobby`` message (``away``, ``standin``, ``gone``), so every
  table can say so;
* games played with a live hand (``spec.make_lan_live``, e.g. Tokami's pile): the host owns the game's
  live part (:class:`LivePart`, made by ``spec.make_lan_live(rules)``). The seat whose hand acts now
  sends ``hand`` messages (its own token and growing seq, its own budget, each checked by the live part
  against the position); every ``tick`` the live part is advanced by the real time elapsed (times
  ``live_speed``), the actions it produced (a take on touch, a physics outcome) are submitted to the
  match like any other, and every seat gets a ``live`` frame while anything moves. A bot seat's action
  is handed to the live part too (its physical part is played live), and a dropped seat's hand lets go;
* the record is saved atomically (``sim.core.record.save``) when the game ends and when the host stops.

The host binds to 127.0.0.1 unless given another address.
"""
from __future__ import annotations

import asyncio
import collections
import hmac
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import websockets
from websockets.asyncio.server import ServerConnection, serve
from websockets.protocol import State

from sim.ai.realtime import BotTimers
from sim.core.match import Match, check_setup, quantize
from sim.core.rules import IllegalAction

from . import protocol as P

REJOIN_WINDOW = 60.0  # s, issue 4
MAX_BUFFER = 256 * 1024  # bytes waiting to be written to one client before it is dropped


class LivePart:
    """What a game played with a live hand gives the host (``spec.make_lan_live(rules)``); every call
    runs on the host's loop. ``hand_seat(state)``: the seat whose hand may act now, or None.
    ``hand(seat, state, cursor, hand)``: apply one checked ``hand`` message's ``hand`` object; raises
    ``ValueError`` with the reason to refuse it. ``advance(state, cursor, dt)``: ``dt`` s of the live
    world pass; returns the ``(player, action)`` pairs it produced, to submit in order.
    ``bot(seat, agent, state, cursor)``: a bot (or stand-in) of ``seat`` has just acted; ``agent`` is its
    Agent. ``dropped(seat, state, cursor)``: the seat's player is gone; its hand lets go.
    ``frame()``: the game's part of a ``live`` message to send now, or None while nothing moves.
    ``close()``: the host stops."""


class _Paced:
    """A real-time bot whose delays are multiplied by ``speed`` (1 = as designed; tests use less)."""

    def __init__(self, bot: Any, speed: float, now: float):
        self.bot = bot
        self.seat = bot.seat
        self.speed = speed
        self.next_time = quantize(now + bot.next_time * speed)

    def act(self, rules: Any, state: Any):
        action, delay = self.bot.act(rules, state)
        return action, delay * self.speed


@dataclass
class SeatInfo:
    kind: str                      # "lan" or "bot:LEVEL"
    name: str | None = None
    token: str | None = None
    conn: Any = None               # the live connection, if any
    last_seq: int = 0
    dropped_at: float | None = None  # monotonic time of the drop, while a stand-in plays
    standin: Any = None
    expired: bool = False          # rejoin window over: the bot keeps the seat
    ready: bool = False            # before the game: this LAN player said it is ready

    def free(self) -> None:
        """Give the seat up (its player left the lobby): empty and not ready; its token no longer works."""
        self.name = self.token = self.conn = self.dropped_at = None
        self.last_seq = 0
        self.ready = self.expired = False


@dataclass(eq=False)
class _Conn:
    ws: ServerConnection
    limiter: P.RateLimiter
    seat: int | None = None
    #: games with a live hand: ``limiter`` takes both budgets; these split them by message type
    others: P.RateLimiter | None = None
    hands: P.RateLimiter | None = None
    last_limit_error: float = -1e9
    dead: bool = False


@dataclass
class HostStats:
    accepted: int = 0
    rejected: int = 0
    errors: int = 0
    dropped_slow: int = 0
    rate_limited: int = 0          # messages dropped by the rate limit (also counted in rejected)
    rejoins: int = 0
    hands: int = 0                 # hand messages applied (games with a live hand)
    frames: int = 0                # live frames sent (each to every seat)
    latencies: collections.deque = field(default_factory=lambda: collections.deque(maxlen=200000))


class Host:
    """A host of game ``spec`` (a ``GameSpec`` with ``lan``). ``players`` seats (default: the game's
    fewest); ``bots`` (e.g. ``["bot:hard", "bot:easy"]``, levels of ``spec.seat_levels``) take the last
    seats and the others wait for LAN players (the game starts when every seat is taken and every LAN
    player has sent ``ready``; with no LAN seat at all it starts at once).

    ``options``: the rest of the game's config (e.g. the race's ``handicap``, Tumbleweed's ``size``),
    checked by the rules at once (``ValueError`` with their reason). ``live_speed``: how fast a live
    world runs against real time (games with a live hand; tests use more than 1); ``hand_rate`` /
    ``hand_burst``: each client's budget of hand messages. ``standin``: level of the bot that
    plays a dropped seat (default: the middle level). ``bot_speed`` scales bot delays (tests, soak);
    ``bot_pause``: s a turn-based bot waits before it answers. ``record_path``: where the record goes
    (default: the data folder's ``games/``).
    Use :meth:`start` / :meth:`stop` (or ``with Host(...) as h``); :attr:`port` is the bound port.
    """

    def __init__(self, spec: Any, players: int | None = None, bots: list[str] | tuple[str, ...] = (),
                 seed: int | None = None,
                 bind: str = "127.0.0.1", port: int = 0, options: dict[str, Any] | None = None,
                 record_path: Path | str | None = None, tick: float = 0.025,
                 rejoin_window: float = REJOIN_WINDOW, standin: str | None = None, bot_speed: float = 1.0,
                 bot_pause: float = 0.3,
                 max_buffer: int = MAX_BUFFER, rate: float = P.RATE, burst: int = P.BURST,
                 snapshot_interval: float = 1.0, sndbuf: int = 64 * 1024,
                 log: Callable[[str], None] | None = None, live_speed: float = 1.0, hand_rate: float = P.HAND_RATE, hand_burst: int = P.HAND_BURST):
        if not getattr(spec, "lan", False):
            raise ValueError(f"{getattr(spec, 'name', spec)!r} cannot be hosted on the LAN")
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            raise ValueError(f"the port must be a number from 0 to 65535, not {port!r}")
        self.spec = spec
        self.rules = spec.make_rules()
        self.realtime = bool(self.rules.info.realtime)
        info = self.rules.info
        players = info.min_players if players is None else players
        bots = list(bots)
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"players must be {info.min_players} to {info.max_players}"
                             if info.min_players != info.max_players else
                             f"{spec.name} is played by {info.min_players} players")
        if len(bots) > players:
            raise ValueError("more bots than seats")
        levels = tuple(spec.seat_levels)
        kinds = [f"bot:{lvl}" for lvl in levels]
        for b in bots:
            if b not in kinds:
                raise ValueError(f"unknown bot {b!r} (use {', '.join(kinds) or 'no bots'})")
        if standin is None:
            standin = levels[(len(levels) - 1) // 2] if levels else None
        if standin not in levels:
            raise ValueError(f"unknown stand-in level {standin!r}")
        self.seats = [SeatInfo("lan") for _ in range(players - len(bots))] + [SeatInfo(b) for b in bots]
        self.options = dict(options or {})
        # check the options now, with placeholder seats
        check_setup(self.rules, self._config(["lan:x" if s.kind == "lan" else s.kind for s in self.seats]))
        self.seed = secrets.randbelow(2 ** 31) if seed is None else int(seed)
        self.bind, self.port = bind, port
        self.record_path = Path(record_path) if record_path else None
        self.tick, self.rejoin_window, self.standin = tick, rejoin_window, standin
        self.bot_speed, self.bot_pause, self.max_buffer = bot_speed, bot_pause, max_buffer
        self.rate, self.burst, self.snapshot_interval = rate, burst, snapshot_interval
        self.sndbuf = sndbuf
        self.live_speed, self.hand_rate, self.hand_burst = float(live_speed), hand_rate, hand_burst
        #: the game's live part (games with a live hand), made at the start
        self.live: Any = None
        self._live_game = getattr(spec, "make_lan_live", None) is not None
        self._live_at: float | None = None
        self._live_k = 0
        #: seat -> the seq of its last hand input applied (each client numbers its own messages)
        self._hand_acks: dict[int, int] = {}
        self.log = log or (lambda text: None)
        self.match: Match | None = None
        self.timers: BotTimers | None = None
        self.stats = HostStats()
        #: (seat, seq, log index) of every intent applied, in order
        self.applied: list[tuple[int, int, int]] = []
        self.started = threading.Event()
        self.finished = threading.Event()
        self.record_saved: Path | None = None
        self._pending: list[dict] = []
        self._conns: set[_Conn] = set()
        self._t0 = 0.0
        self._over_sent = False
        self._last_snapshot = 0.0
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_evt: asyncio.Event | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self._agents: dict[int, Any] = {}      # turn-based: seat -> the Agent of a bot seat
        self._thinking = False                 # turn-based: a bot is choosing its action
        self._changed = False                  # the match changed since the last flush
        self._version = 0                      # match changes so far (a bot's thought is for one)

    def _config(self, seats: list[str]) -> dict[str, Any]:
        """The set-up config for these seats ("lan:NAME", "bot:LEVEL"), sent to the clients as it is:
        the options, ``players`` where the rules take it, and the seats."""
        cfg = dict(self.options)
        if self.realtime or "players" in self.rules.default_config():
            cfg["players"] = len(seats)
        cfg["seats"] = seats
        return cfg

    def _wire_config(self) -> dict[str, Any] | None:
        """The match's config with its seats (texts), as the clients are sent it (None before the start)."""
        if self.match is None:
            return None
        return {**self.match.config, "seats": [s.text() for s in self.match.seats]}

    # ------------------------------------------------------------ lifecycle
    def start(self, timeout: float = 10.0) -> "Host":
        """Start serving in a background thread; returns once the port is bound (OSError if not)."""
        self._thread = threading.Thread(target=self._run, name="playtable-host", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("host did not start")
        if self._startup_error is not None:
            raise self._startup_error
        return self

    def stop(self, reason: str = "the host quit", timeout: float = 10.0) -> None:
        """End the game for everyone (a ``closing`` message), save the record, close the server."""
        loop = self._loop
        if loop is not None and self._stop_evt is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._request_stop, reason)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> "Host":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def call(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Run ``fn()`` on the host's loop (where the match lives) and return its result."""
        async def run():
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout)

    def view(self, seat: int) -> dict:
        """The host's own view of ``seat`` as it goes on the wire (taken on the host's loop)."""
        return self.call(lambda: self._view(seat))

    def _view(self, seat: int) -> Any:
        return self.rules.state_to_json(self.rules.observe(self.match.state, seat))

    @property
    def address(self) -> str:
        return f"{self.bind}:{self.port}"

    def _request_stop(self, reason: str) -> None:
        self._stop_reason = reason
        self._stop_evt.set()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as e:  # noqa: BLE001 - reported to start()
            self._startup_error = e
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop_evt = asyncio.Event()
        self._stop_reason = "the host quit"
        async with serve(self._handler, self.bind, self.port, max_size=4 * P.MAX_MESSAGE, max_queue=32,
                         ping_interval=10, ping_timeout=20, compression=None) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            self.log(f"hosting {self.spec.name} on {self.bind}:{self.port}")
            if not any(s.kind == "lan" for s in self.seats):
                self._start_match()
            ticker = asyncio.create_task(self._ticker())
            await self._stop_evt.wait()
            ticker.cancel()
            self._shutdown(self._stop_reason)
            server.close(close_connections=True)
            try:
                await asyncio.wait_for(server.wait_closed(), 3.0)
            except asyncio.TimeoutError:
                for c in list(self._conns):
                    c.ws.transport.abort()
        self.finished.set()

    def _shutdown(self, reason: str) -> None:
        if self.live is not None:
            try:
                self.live.close()
            except Exception as e:  # noqa: BLE001 - the host still says goodbye
                self.log(f"live part: {e!r}")
        if self.match is not None:
            self._save()
        for c in list(self._conns):
            self._send(c, {"type": "closing", "reason": reason})

    # ------------------------------------------------------------ sending
    def _send(self, conn: _Conn, msg: dict, data: str | None = None) -> None:
        """Queue ``msg`` (or its encoding ``data``) for ``conn`` without waiting; drop the client if its
        buffer is over the cap."""
        ws = conn.ws
        if conn.dead or ws.state is not State.OPEN:
            return
        transport = ws.transport
        if transport is None or transport.get_write_buffer_size() > self.max_buffer:
            conn.dead = True
            self.stats.dropped_slow += 1
            self.log(f"dropping a client that does not read (seat {conn.seat})")
            if transport is not None:
                transport.abort()
            return
        websockets.broadcast([ws], P.encode(msg) if data is None else data)

    def _error(self, conn: _Conn, code: str, message: str) -> None:
        self.stats.errors += 1
        self._send(conn, P.error(code, message))

    def _reject(self, conn: _Conn, seq: int, reason: str) -> None:
        self.stats.rejected += 1
        self._send(conn, {"type": "rejected", "seq": seq, "reason": reason})

    def _names(self) -> list[str | None]:
        return [s.name if s.kind == "lan" else s.kind for s in self.seats]

    def _table(self) -> dict[str, list]:
        """The lobby's view of the seats: ``names`` (None: free), ``ready`` (bots always are), ``away``
        (a taken LAN seat whose connection dropped: a rejoin is awaited)."""
        return {"names": self._names(),
                "ready": [s.kind != "lan" or s.ready for s in self.seats],
                "away": [s.kind == "lan" and s.token is not None and s.conn is None for s in self.seats],
                "standin": [s.standin is not None for s in self.seats],
                "gone": [s.expired for s in self.seats]}

    def _lobby_msg(self) -> dict:
        return {"type": "lobby", **self._table(), "started": self.match is not None,
                "config": self._wire_config(), "options": dict(self.options)}

    def all_ready(self) -> bool:
        """Every seat taken and every LAN seat ready: the condition that starts the game."""
        return all(s.token is not None and s.ready for s in self.seats if s.kind == "lan")

    def _state_msg(self, seat: int, events: list[dict]) -> dict:
        m = self.match
        lan_events = getattr(self.spec, "lan_events", None)
        msg = {"type": "state", "seat": seat, "time": m.time, "view": self._view(seat),
               "events": lan_events(events, seat) if lan_events is not None else []}
        if not self.realtime:
            msg["active"] = [p for p in m.active_players() if p >= 0]   # physics acts on the host
            msg["n"] = m.cursor
            msg["undo"] = m.can_undo(seat)
            if getattr(self.spec, "lan_log", False):
                msg["log"] = [{"p": e["p"], "a": e["a"]} for e in m.log[:m.cursor]]
        return msg

    def _flush(self, force: bool = False) -> None:
        """Send every connected seat its view and the events since the last flush."""
        if self.match is None or not (self._pending or force or self._changed):
            return
        events, self._pending, self._changed = self._pending, [], False
        for c in list(self._conns):
            if c.seat is not None:
                self._send(c, self._state_msg(c.seat, events))
        if self.match.is_over() and not self._over_sent:
            self._over_sent = True
            out = self.match.outcome()
            self._save()
            for c in list(self._conns):
                self._send(c, {"type": "over", "outcome": out, "ranking": out.get("ranking")})
            self.log(f"game over: ranking {out.get('ranking')}")
            self.finished.set()

    # ------------------------------------------------------------ the match
    def _start_match(self) -> None:
        seats = [f"lan:{s.name}" if s.kind == "lan" else s.kind for s in self.seats]
        config = self._config(seats)
        m = Match(self.rules, config, self.seed)
        m.meta = {"lan": True}
        m.listeners.append(self._on_change)
        self.match = m
        self._t0 = time.monotonic()
        bots = []
        for i, s in enumerate(self.seats):
            if s.kind.startswith("bot:"):
                bot = self.spec.make_bot(i, s.kind[4:], self.seed + 104729 * i)
                if self.realtime:
                    bots.append(_Paced(bot, self.bot_speed, 0.0))
                else:
                    self._agents[i] = bot
        self.timers = BotTimers(m, bots) if self.realtime else None
        if self._live_game:
            self.live = self.spec.make_lan_live(self.rules)
        for i, s in enumerate(self.seats):
            if s.kind == "lan" and s.conn is None:
                self._add_standin(i)
        if self.record_path is None:
            from sim.core.storage import data_dir
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.record_path = data_dir() / "games" / f"{self.spec.name}-lan-{stamp}-{self.seed}.json"
        self.started.set()
        self.log(f"game started: {', '.join(seats)} (seed {self.seed})")
        self._broadcast_lobby()
        self._flush(force=True)
        self._drive()

    def _on_change(self, _m: Any, events: list[dict]) -> None:
        self._pending.extend(events)
        self._changed = True
        self._version += 1

    def _save(self) -> None:
        from sim.core.record import save
        try:
            self.record_path.parent.mkdir(parents=True, exist_ok=True)
            save(self.match, self.record_path)
            self.record_saved = self.record_path
        except OSError as e:
            self.log(f"could not save the record: {e}")

    def _sync(self) -> None:
        """Move the match clock to real time (firing due timers)."""
        m = self.match
        if m is None or m.is_over() or not self.realtime:
            return
        target = quantize(time.monotonic() - self._t0)
        if target > m.time:
            m.advance(target - m.time)

    def _add_standin(self, seat: int) -> None:
        info = self.seats[seat]
        if info.standin is not None or self.match is None:
            return
        bot = self.spec.make_bot(seat, self.standin, self.seed + 7919 * (seat + 1))
        if not self.realtime:
            info.standin = bot
            self._drive()
            return
        info.standin = _Paced(bot, self.bot_speed, self.match.time)
        self.timers.bots.append(info.standin)

    def _remove_standin(self, seat: int) -> None:
        info = self.seats[seat]
        if info.standin is not None:
            if self.realtime:
                self.timers.bots.remove(info.standin)
            info.standin = None

    # ------------------------------------------------------------ turn-based bots
    def _agent_for(self, seat: int) -> Any:
        """The Agent that plays ``seat`` now in a turn-based game (a bot seat or a stand-in), or None."""
        if not 0 <= seat < len(self.seats):
            return None
        return self._agents.get(seat) or self.seats[seat].standin

    def _drive(self) -> None:
        """If a bot is to act in a turn-based game, let it choose (in a worker thread) and play."""
        m = self.match
        if self.realtime or m is None or m.is_over() or self._thinking:
            return
        active = m.active_players()
        if len(active) != 1 or self._agent_for(active[0]) is None:
            return
        seat = active[0]
        agent = self._agent_for(seat)
        self._thinking = True
        version, state = self._version, m.state

        async def think() -> None:
            try:
                await asyncio.sleep(self.bot_pause * self.bot_speed)
                action = await asyncio.to_thread(agent.select_action, self.rules, state, seat)
                if self._version == version and self._agent_for(seat) is agent and not self.match.is_over():
                    self.match.submit(seat, action)
                    if self.live is not None:
                        self.live.bot(seat, agent, self.match.state, self.match.cursor)
            except Exception as e:  # noqa: BLE001 - the host keeps serving
                self.log(f"bot of seat {seat} failed: {e!r}")
            finally:
                self._thinking = False
            self._flush()
            self._drive()

        self._loop.create_task(think())

    async def _ticker(self) -> None:
        """``_tick`` every ``tick`` s on the loop's clock (the work of a tick does not stretch the period;
        a host that fell behind by over a second starts counting afresh)."""
        loop = asyncio.get_running_loop()
        due = loop.time()
        while True:
            due += self.tick
            await asyncio.sleep(max(0.0, due - loop.time()))
            if loop.time() - due > 1.0:
                due = loop.time()
            try:
                self._tick()
            except Exception as e:  # noqa: BLE001 - the host keeps serving
                self.log(f"tick error: {e!r}")

    def _tick(self) -> None:
        now = time.monotonic()
        freed = False
        for i, s in enumerate(self.seats):
            if s.dropped_at is not None and not s.expired and now - s.dropped_at > self.rejoin_window:
                if self.match is None:
                    self.log(f"seat {i}: {s.name} did not come back; the seat is free again")
                    s.free()
                    freed = True
                else:
                    s.expired = True
                    freed = True
                    self.log(f"seat {i}: rejoin window over, the bot keeps the seat")
        if freed:
            self._broadcast_lobby()
        m = self.match
        if m is None:
            return
        if not m.is_over() and self.realtime:
            self._sync()
            self.timers.run_due()
        if self.live is not None and not m.is_over():
            self._live_tick(now)
        force = now - self._last_snapshot >= self.snapshot_interval
        if force:
            self._last_snapshot = now
        self._flush(force=force)

    def _live_tick(self, now: float) -> None:
        """The live world on by the real time since the last tick (at most 0.25 s, times
        ``live_speed``); what it produced is submitted, and a frame goes to every seat if anything
        moves."""
        m = self.match
        dt = 0.0 if self._live_at is None else min(0.25, now - self._live_at) * self.live_speed
        self._live_at = now
        try:
            actions = self.live.advance(m.state, m.cursor, dt)
        except Exception as e:  # noqa: BLE001 - the host keeps serving
            self.log(f"live part failed: {e!r}")
            actions = []
        for player, action in actions:
            try:
                m.submit(player, action)
            except IllegalAction as e:
                self.log(f"the live part's action was refused: {e}")
                break
        if actions:
            self._flush()
            self._drive()
        frame = self.live.frame()
        if frame is None:
            return
        self._live_k += 1
        self.stats.frames += 1
        msg = {**frame, "type": "live", "n": m.cursor, "k": self._live_k}
        for c in list(self._conns):
            if c.seat is not None:   # each seat is acked its own seq (another client's seqs are not its)
                seat_msg = {**msg, "ack": self._hand_acks.get(c.seat, 0)}
                self._send(c, seat_msg, P.encode(seat_msg))

    # ------------------------------------------------------------ clients
    async def _handler(self, ws: ServerConnection) -> None:
        if self._live_game:
            conn = _Conn(ws, P.RateLimiter(self.rate + self.hand_rate, self.burst + self.hand_burst),
                         others=P.RateLimiter(self.rate, self.burst),
                         hands=P.RateLimiter(self.hand_rate, self.hand_burst))
        else:
            conn = _Conn(ws, P.RateLimiter(self.rate, self.burst))
        sock = ws.transport.get_extra_info("socket") if ws.transport is not None else None
        if sock is not None and self.sndbuf:
            # a bounded kernel buffer too, so a client that stops reading shows up in our own buffer
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.sndbuf)
            except OSError:
                pass
        self._conns.add(conn)
        try:
            async for raw in ws:
                t_recv = time.perf_counter()
                try:
                    self._receive(conn, raw, t_recv)
                except Exception as e:  # noqa: BLE001 - never let one message kill the host
                    self.log(f"error handling a message: {e!r}")
                    self._error(conn, "bad_message", "the host could not handle that message")
        except websockets.ConnectionClosed:
            pass
        finally:
            self._conns.discard(conn)
            self._disconnected(conn)

    def _limited(self, conn: _Conn, msg: dict | None, now: float) -> None:
        """A message over the budget: dropped; an intent still gets its answer, so the client knows
        that seq was not applied (a hand stream gets none: the next input supersedes it); at most one
        ``rate_limited`` error a second."""
        self.stats.rejected += 1
        self.stats.rate_limited += 1
        if msg is not None and msg["type"] == "intent" and conn.seat is not None:
            self._send(conn, {"type": "rejected", "seq": msg["seq"], "reason": "rate limited: slow down"})
        if now - conn.last_limit_error >= 1.0:
            conn.last_limit_error = now
            hand = msg is not None and msg["type"] == "hand"
            self._error(conn, "rate_limited", f"too many {'hand ' if hand else ''}messages: at most "
                        f"{self.hand_rate if hand else self.rate:g} per second")

    def _receive(self, conn: _Conn, raw: Any, t_recv: float) -> None:
        now = time.monotonic()
        if not conn.limiter.allow(now):
            try:
                msg = P.parse_client(raw, nested=not self.realtime)
            except P.ProtocolError:
                msg = None
            self._limited(conn, msg, now)
            return
        try:
            msg = P.parse_client(raw, nested=not self.realtime)
        except P.ProtocolError as e:
            self._error(conn, e.code, e.message)
            return
        if conn.hands is not None and not (conn.hands if msg["type"] == "hand" else conn.others).allow(now):
            self._limited(conn, msg, now)
            return
        if msg["type"] == "hello":
            self._hello(conn, msg)
        elif msg["type"] == "ready":
            self._on_ready(conn, msg)
        elif msg["type"] == "hand":
            self._hand(conn, msg)
        elif msg["type"] == "undo":
            self._undo(conn, msg)
        else:
            self._intent(conn, msg, t_recv)

    def _hello(self, conn: _Conn, msg: dict) -> None:
        if conn.seat is not None:
            self._error(conn, "bad_message", "already joined")
            return
        token = msg["token"]
        now = time.monotonic()
        if token is not None:
            seat = next((i for i, s in enumerate(self.seats)
                         if s.token is not None and hmac.compare_digest(s.token, token)), None)
            if seat is None:
                self._error(conn, "no_seat", "unknown token")
                return
            info = self.seats[seat]
            if info.expired:
                self._error(conn, "no_seat", "the rejoin window is over: a bot keeps the seat")
                return
            if info.conn is not None:  # the old connection has not noticed its drop yet
                old = info.conn
                old.seat = None
                old.dead = True
                if old.ws.transport is not None:
                    old.ws.transport.abort()
            self._remove_standin(seat)
            info.dropped_at = None
            if self.match is None:
                info.ready = False   # back in the lobby, a player says again that it is ready
            info.conn = conn
            conn.seat = seat
            self.stats.rejoins += 1
            self.log(f"seat {seat} ({info.name}) rejoined")
        else:
            seat = next((i for i, s in enumerate(self.seats) if s.kind == "lan" and s.token is None), None)
            if seat is None and self.match is None:
                # a seat kept for a dropped player must not lock out a lobby that has not started: the
                # one away longest goes to the newcomer (its old token no longer works)
                held = [(s.dropped_at, i) for i, s in enumerate(self.seats)
                        if s.kind == "lan" and s.conn is None and s.dropped_at is not None]
                if held:
                    seat = min(held)[1]
                    self.log(f"seat {seat}: {self.seats[seat].name} dropped and is not back; the seat goes "
                             f"to {msg['name']}")
                    self.seats[seat].free()
            if seat is None:
                self._error(conn, "no_seat", "the table is full")
                return
            info = self.seats[seat]
            info.name = msg["name"]
            info.token = secrets.token_urlsafe(24)
            info.conn = conn
            conn.seat = seat
            self.log(f"seat {seat}: {info.name} joined")
        config = self._wire_config()
        self._send(conn, {"type": "welcome", "version": P.VERSION, "game": self.spec.name, "seat": seat,
                          "token": info.token,
                          "config": config, "options": dict(self.options), "last_seq": info.last_seq,
                          **self._table(),
                          "started": self.match is not None})
        del now
        if self.match is None:
            self._broadcast_lobby()
        else:
            if token is not None:
                self._broadcast_lobby()   # after the welcome: every table says the player is back
            self._send(conn, self._state_msg(seat, []))
            if self.match.is_over():
                out = self.match.outcome()
                self._send(conn, {"type": "over", "outcome": out, "ranking": out.get("ranking")})

    def _on_ready(self, conn: _Conn, msg: dict) -> None:
        """A seat's ready flag; every valid ``ready`` is answered by a lobby message (to everyone when
        the flag changed). After the start it changes nothing."""
        if conn.seat is None:
            self._error(conn, "not_joined", "say hello first")
            return
        info = self.seats[conn.seat]
        if self.match is not None or info.ready == msg["ready"]:
            self._send(conn, self._lobby_msg())
            return
        info.ready = msg["ready"]
        self.log(f"seat {conn.seat} ({info.name}) is {'ready' if info.ready else 'not ready'}")
        self._broadcast_lobby()
        if self.all_ready():
            self._start_match()

    def _broadcast_lobby(self) -> None:
        msg = self._lobby_msg()
        for c in list(self._conns):
            if c.seat is not None:
                self._send(c, msg)

    def _disconnected(self, conn: _Conn) -> None:
        seat = conn.seat
        if seat is None:
            return
        info = self.seats[seat]
        if info.conn is not conn:
            return
        if self.match is None:
            # the lobby: leaving clears the ready flag; a polite leave (a close frame) frees the seat,
            # a drop keeps it for the rejoin window
            if conn.ws.close_code not in (None, 1006):   # 1006: no close frame came
                self.log(f"seat {seat} ({info.name}) left; the seat is free")
                info.free()
            else:
                self.log(f"seat {seat} ({info.name}) dropped; the seat waits {self.rejoin_window:g} s "
                         f"for a rejoin")
                info.conn = None
                info.ready = False
                info.dropped_at = time.monotonic()
            self._broadcast_lobby()
            return
        info.conn = None
        info.dropped_at = time.monotonic()
        if self.live is not None and not self.match.is_over():
            try:
                self.live.dropped(seat, self.match.state, self.match.cursor)
            except Exception as e:  # noqa: BLE001 - the host keeps serving
                self.log(f"live part: {e!r}")
        if not self.match.is_over():
            self.log(f"seat {seat} ({info.name}) dropped; a bot plays it until a rejoin")
            self._add_standin(seat)
        else:
            self.log(f"seat {seat} ({info.name}) left")
        self._broadcast_lobby()      # every seat sees it away (its ``away`` mark) until it returns

    def _own(self, conn: _Conn, msg: dict, started: bool = True) -> bool:
        """Whether an intent, undo or hand message is this connection's own to send: joined, its seat,
        its token and a new seq (the seq is then taken), and with ``started`` the game running.
        Refused ones are answered here."""
        seq = msg["seq"]
        if conn.seat is None:
            self._error(conn, "not_joined", "say hello first")
            return False
        info = self.seats[conn.seat]
        if msg["seat"] != conn.seat:
            self._reject(conn, seq, "that is not your seat")
            return False
        if not hmac.compare_digest(msg["token"], info.token or ""):
            self._reject(conn, seq, "wrong token")
            return False
        if seq <= info.last_seq:
            self._reject(conn, seq, f"old sequence number (the last was {info.last_seq})")
            return False
        info.last_seq = seq
        if started and self.match is None:
            self._reject(conn, seq, "the game has not started")
            return False
        return True

    def _hand(self, conn: _Conn, msg: dict) -> None:
        """One input of the live hand of this connection's seat (games with a live hand): applied by
        the live part when this seat's hand acts now; refused with the reason otherwise."""
        if not self._own(conn, msg, started=False):
            return
        seq = msg["seq"]
        m = self.match
        if self.live is None or m is None:
            self._reject(conn, seq, "this game has no live hand" if not self._live_game else
                         "the game has not started")
            return
        if m.is_over():
            self._reject(conn, seq, "the game is over")
            return
        if self.live.hand_seat(m.state) != conn.seat:
            self._reject(conn, seq, "it is not your turn: your hand may not act now")
            return
        try:
            self.live.hand(conn.seat, m.state, m.cursor, msg["hand"])
        except ValueError as e:
            self._reject(conn, seq, str(e) or "that hand input was refused")
            return
        self._hand_acks[conn.seat] = seq
        self.stats.hands += 1

    def _undo(self, conn: _Conn, msg: dict) -> None:
        """Take back this seat's own last action if the match's policy allows it (as at a local table:
        never across another seat's action, a chance outcome or a real-time game's clock)."""
        if not self._own(conn, msg):
            return
        seq, m = msg["seq"], self.match
        if self.realtime:
            self._reject(conn, seq, "a real-time game has no undo")
            return
        if self.live is not None:
            self._reject(conn, seq, "a game played with a live hand has no undo across machines")
            return
        if not m.can_undo(conn.seat):
            last = m.log[m.cursor - 1]["p"] if m.cursor else None
            self._reject(conn, seq, "nothing to undo" if last is None or m.is_over() else
                         "another player has acted since" if last >= 0 and last != conn.seat else
                         "a draw or a roll can never be taken back" if last < 0 else
                         "the rules do not let that move be taken back")
            return
        m.undo(conn.seat)
        self.stats.accepted += 1
        self.log(f"seat {conn.seat} ({self.seats[conn.seat].name}) took back a move")
        self._send(conn, {"type": "accepted", "seq": seq})
        self._flush()
        self._drive()

    def _intent(self, conn: _Conn, msg: dict, t_recv: float) -> None:
        if not self._own(conn, msg):
            return
        seq, m = msg["seq"], self.match
        self._sync()
        index = m.cursor
        try:
            m.submit(conn.seat, msg["action"])
        except IllegalAction as e:
            self._reject(conn, seq, str(e))
            return
        except (KeyError, TypeError, ValueError, IndexError) as e:
            self._reject(conn, seq, f"malformed action ({e.__class__.__name__})")
            return
        self.stats.accepted += 1
        self.applied.append((conn.seat, seq, index))
        self._send(conn, {"type": "accepted", "seq": seq})
        self._flush()
        self._drive()
        self.stats.latencies.append(time.perf_counter() - t_recv)
