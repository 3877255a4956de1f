"""A LAN client for any hosted game (``sim.net.host``): its network runs in its own thread (asyncio
loop), so a pygame frame never waits on it and a slow frame never starves its keepalive (specs/DESIGN.md "Library pitfalls").

The scene reads :attr:`Client.latest` (the last ``state`` message: this seat's view), :attr:`over`,
the lobby (:attr:`names`, :attr:`ready`, :attr:`away`, :attr:`started`), or drains :attr:`inbox` (every
host message, a thread-safe ``queue.Queue``); it calls :meth:`Client.set_ready` in the lobby (the game
starts when every seat is taken and ready) and :meth:`Client.send_intent` with an action; the
sequence number grows by one per intent. In a game played with a live hand, :meth:`send_hand` sends
one hand input (same seq counter) and the host's ``live`` frames are kept apart from the inbox:
:attr:`live` (the newest), :attr:`lives` (the newest ``max_live`` with their arrival times) and
:attr:`hand_delays` (s from sending a hand input to the first frame that says it was applied). A
game's screen reads the client through
:class:`sim.net.remote.RemoteMatch` (a real-time game's every event too:
:meth:`events_between`). Everything is thread-safe. :meth:`wait_for` blocks (tests,
headless use) until a condition on the client holds.

Nothing the host sends is trusted: every message is checked against the protocol
(:func:`sim.net.protocol.parse_host`, with the seat count and seat of the welcome), a ``state`` also
by its game (every game's view must be a state its rules read back, ``rules.state_from_json``;
a game may check more with ``GameSpec.lan_check``; a match config and its seats must pass
``sim.core.match.check_setup``),
and a second ``welcome`` is refused. A bad message is dropped with one line to
``log`` (at most one a second, with the count dropped meanwhile; :attr:`dropped` counts them all) and
the client goes on. What it keeps is bounded: :attr:`inbox` (``max_inbox``, oldest dropped),
:attr:`errors` (at most twice ``MAX_ERRORS``, the newest), :attr:`results` (the newest
``MAX_RESULTS``), and it takes at most ``protocol.HOST_RATE`` messages a
second from the host (bursts of ``HOST_BURST``), so a flooding host cannot starve a screen.
"""
from __future__ import annotations

import asyncio
import collections
import queue
import sys
import threading
import time
from typing import Any, Callable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sim.core.match import check_setup

from . import protocol as P


MAX_ERRORS = 100      # error messages a client keeps (the newest)
MAX_RESULTS = 10000   # answers to intents a client keeps (the newest)


def _stderr_log(text: str) -> None:
    print(f"playtable: {text}", file=sys.stderr, flush=True)


class Client:
    """Join the host at ``host:port`` as ``name`` (with ``token``, rejoin that seat). ``log(text)``
    gets one line per dropped bad message (default: stderr); ``rate`` / ``burst``: how many host
    messages a second it takes in."""

    def __init__(self, host: str, port: int, name: str, token: str | None = None, version: int = P.VERSION,
                 max_inbox: int = 10000, log: Callable[[str], None] | None = None,
                 rate: float = P.HOST_RATE, burst: int = P.HOST_BURST, max_live: int = 2000):
        self.url = f"ws://{host}:{port}"
        self.name, self.token, self.version = name, token, version
        self.seat: int | None = None
        self.config: dict | None = None
        self.welcome: dict | None = None
        self.latest: dict | None = None
        self._received = 0
        #: (arrival number, events) of the ``state`` messages that carried events, oldest first
        self._events: collections.deque = collections.deque(maxlen=max_inbox)
        self.over: dict | None = None
        self.closing: str | None = None
        self.errors: list[dict] = []
        self.results: dict[int, dict] = {}  # seq -> accepted/rejected message
        self.names: list | None = None
        self.ready: list[bool] | None = None   # per seat, as the host last reported it
        self.away: list[bool] | None = None    # per seat: its connection dropped, a rejoin is awaited
        self.standin: list[bool] | None = None  # per seat: a bot of the host plays it meanwhile
        self.gone: list[bool] | None = None    # per seat: its rejoin window is over, the bot keeps it
        self.options: dict = {}                 # the game options the host was given (others: defaults)
        self.started = False
        self.closed = threading.Event()
        self.inbox: queue.Queue = queue.Queue(max_inbox)
        #: live frames (games with a live hand): the newest, and (arrival perf_counter s, frame) of the
        #: newest ``max_live``
        self.live: dict | None = None
        self.lives: collections.deque = collections.deque(maxlen=max_live)
        #: s from sending each hand input to the first live frame that says it was applied (the newest 1000)
        self.hand_delays: collections.deque = collections.deque(maxlen=1000)
        self._hand_sent: collections.OrderedDict = collections.OrderedDict()   # seq -> perf_counter
        #: host messages dropped (malformed, out of place, or over the rate)
        self.dropped = 0
        self.log = log or _stderr_log
        self._limiter = P.RateLimiter(rate, burst)
        self._unlogged = 0
        self._last_log = -1e9
        self._spec: Any = None      # the hosted game's spec, once the welcome names it
        self._rules: Any = None
        self._seq = 0
        self._cond = threading.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outq: asyncio.Queue | None = None
        self._ws = None
        self._thread: threading.Thread | None = None
        self._kill = False

    # ------------------------------------------------------------ lifecycle
    def start(self, timeout: float = 10.0, wait_welcome: bool = True) -> "Client":
        """Connect and say hello; with ``wait_welcome``, wait for the welcome (ConnectionError if the
        host refuses: ``errors[-1]`` says why)."""
        self._thread = threading.Thread(target=self._run, name=f"playtable-client-{self.name}", daemon=True)
        self._thread.start()
        if wait_welcome:
            ok = self.wait_for(lambda c: c.welcome is not None or c.errors or c.closed.is_set(), timeout)
            if not ok or self.welcome is None:
                why = self.errors[-1]["message"] if self.errors else "no welcome from the host"
                raise ConnectionError(why)
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Leave politely (a WebSocket close)."""
        if self._loop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._outq.put_nowait, None)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout)

    def kill(self, timeout: float = 5.0) -> None:
        """Vanish like a crashed program: the connection is cut without a close handshake."""
        self._kill = True
        if self._loop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._abort)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout)

    def _abort(self) -> None:
        if self._ws is not None and self._ws.transport is not None:
            self._ws.transport.abort()
        self._outq.put_nowait(None)

    # ------------------------------------------------------------ sending
    def send_intent(self, action: dict) -> int:
        """Send ``action`` for this seat; returns its sequence number (the reply lands in
        :attr:`results`)."""
        with self._cond:
            self._seq += 1
            seq = self._seq
            msg = {"type": "intent", "seq": seq, "seat": self.seat, "token": self.token, "action": action}
        self.send_raw(P.encode(msg))
        return seq

    def send_hand(self, hand: dict) -> int:
        """Send one input of this seat's live hand (``{"op": ..., ...}``); returns its sequence number
        (the host answers only a refused one, in :attr:`results`). ConnectionError if not connected."""
        with self._cond:
            self._seq += 1
            seq = self._seq
            msg = {"type": "hand", "seq": seq, "seat": self.seat, "token": self.token, "hand": hand}
            self._hand_sent[seq] = time.perf_counter()
            while len(self._hand_sent) > 256:
                self._hand_sent.popitem(last=False)
        self.send_raw(P.encode(msg))
        return seq

    def send_undo(self) -> int:
        """Ask the host to take back this seat's last action (turn-based games; the match's policy
        decides); returns its sequence number (the answer lands in :attr:`results`)."""
        with self._cond:
            self._seq += 1
            seq = self._seq
            msg = {"type": "undo", "seq": seq, "seat": self.seat, "token": self.token}
        self.send_raw(P.encode(msg))
        return seq

    def set_ready(self, ready: bool = True) -> None:
        """Tell the host this seat is ready (or, with False, no longer ready) before the game. The host
        answers with a ``lobby`` message (:attr:`ready` follows it); after the start it changes nothing.
        ConnectionError if not connected."""
        self.send_raw(P.encode({"type": "ready", "ready": bool(ready)}))

    @property
    def is_ready(self) -> bool:
        """Whether the host counts this seat as ready (its last report)."""
        with self._cond:
            return bool(self.ready and self.seat is not None and self.ready[self.seat])

    def send_raw(self, data: Any) -> None:
        """Send a message as is (str or bytes; tests use it for malformed input)."""
        if self._loop is None or self._loop.is_closed():
            raise ConnectionError("not connected")
        self._loop.call_soon_threadsafe(self._outq.put_nowait, data)

    def events_between(self, after: int, upto: int) -> list[dict]:
        """The events of the ``state`` messages whose arrival number (``recv_n``) is in
        ``(after, upto]``, in order (a real-time game's screen reads every one, not only the latest
        view's; the last ``max_inbox`` messages with events are kept)."""
        with self._cond:
            return [e for n, evs in self._events if after < n <= upto for e in evs]

    # ------------------------------------------------------------ waiting
    def wait_for(self, pred: Callable[["Client"], Any], timeout: float = 10.0) -> bool:
        with self._cond:
            return bool(self._cond.wait_for(lambda: pred(self), timeout))

    # ------------------------------------------------------------ the loop
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as e:  # noqa: BLE001 - reported as an error entry
            with self._cond:
                self.errors.append({"type": "error", "code": "connection", "message": str(e) or repr(e)})
        finally:
            with self._cond:
                self.closed.set()
                self._cond.notify_all()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._outq = asyncio.Queue()
        async with connect(self.url, max_size=1 << 20, ping_interval=10, ping_timeout=20,
                           compression=None, open_timeout=10) as ws:
            self._ws = ws
            hello = {"type": "hello", "version": self.version, "name": self.name, "token": self.token}
            await ws.send(P.encode(hello))
            sender = asyncio.create_task(self._sender(ws))
            try:
                async for raw in ws:
                    msg = self._accept(raw)
                    if msg is not None:
                        self._on(msg)
            except ConnectionClosed:
                pass
            finally:
                sender.cancel()

    async def _sender(self, ws) -> None:
        while True:
            data = await self._outq.get()
            if data is None:
                if not self._kill:
                    await ws.close()
                return
            try:
                await ws.send(data)
            except ConnectionClosed:
                return

    # ------------------------------------------------------------ checking
    def _accept(self, raw: Any) -> dict | None:
        """``raw`` parsed and checked, or None (dropped, logged)."""
        if not self._limiter.allow(time.monotonic()):
            self._drop("the host sends too many messages")
            return None
        try:
            with self._cond:
                seats = len(self.welcome["names"]) if self.welcome is not None else None
                seat = self.seat
            msg = P.parse_host(raw, seats, seat)
            t = msg["type"]
            if t == "welcome" and self.welcome is not None:
                raise P.ProtocolError("bad_message", "a second welcome")
            if t in ("state", "lobby", "live") and self.welcome is None:
                raise P.ProtocolError("bad_message", f"{t} before the welcome")
            if t == "welcome":
                self._learn_game(msg["game"])
            if t in ("welcome", "lobby") and msg.get("config"):
                self._check_config(msg["config"])
            elif t == "state":
                self._check_state(msg)
            elif t == "live":
                self._check_live(msg)
        except P.ProtocolError as e:
            self._drop(e.message)
            return None
        return msg

    def _learn_game(self, name: str) -> None:
        from sim.core.registry import UnknownGame, get_spec
        try:
            self._spec = get_spec(name)
            self._rules = self._spec.make_rules()
        except UnknownGame:
            self._spec = self._rules = None   # the screen says it cannot show this game

    def _check_config(self, config: dict) -> None:
        """The match config of a welcome or lobby must be one the game's rules accept."""
        if self._rules is None:
            return
        try:
            check_setup(self._rules, config)
        except Exception as e:  # noqa: BLE001 - whatever the rules raise on garbage
            raise P.ProtocolError("bad_message", f"a config this game refuses ({str(e)[:80]})") from None

    def _check_state(self, msg: dict) -> None:
        """The game's own check of a ``state`` message; ProtocolError if it fails."""
        try:
            if self._rules is not None:
                self._rules.state_from_json(msg["view"])
            check = getattr(self._spec, "lan_check", None)
            if check is not None:
                check(msg)
        except P.ProtocolError:
            raise
        except Exception as e:  # noqa: BLE001 - whatever the game's reader raises on garbage
            raise P.ProtocolError("bad_message", f"state: a view this game cannot read "
                                  f"({e.__class__.__name__}: {str(e)[:80]})") from None

    def _check_live(self, msg: dict) -> None:
        """The game's own check of a ``live`` frame (``GameSpec.lan_live_check``); a game without a live
        hand takes none."""
        check = getattr(self._spec, "lan_live_check", None)
        if check is None:
            raise P.ProtocolError("bad_message", "live: this game has no live hand")
        try:
            check(msg)
        except Exception as e:  # noqa: BLE001 - whatever the game's check raises on garbage
            raise P.ProtocolError("bad_message", f"live: a frame this game cannot show "
                                  f"({e.__class__.__name__}: {str(e)[:80]})") from None

    def _drop(self, why: str) -> None:
        self.dropped += 1
        now = time.monotonic()
        if now - self._last_log < 1.0:
            self._unlogged += 1
            return
        more = f" (and {self._unlogged} more since the last report)" if self._unlogged else ""
        self._last_log, self._unlogged = now, 0
        try:
            self.log(f"ignored a message from the host: {why}{more}")
        except Exception:  # noqa: BLE001 - a broken log must not stop the client
            pass

    def _table(self, msg: dict) -> None:
        self.names = msg["names"]
        self.ready = msg.get("ready")
        self.away = msg.get("away")
        self.standin = msg.get("standin")
        self.gone = msg.get("gone")
        if isinstance(msg.get("options"), dict):
            self.options = msg["options"]
        self.started = bool(msg.get("started"))

    def _on(self, msg: dict) -> None:
        t = msg.get("type")
        with self._cond:
            if t == "welcome":
                self.welcome = msg
                self.seat, self.token, self.config = msg["seat"], msg["token"], msg["config"]
                self._seq = max(self._seq, msg["last_seq"])
                self._table(msg)
            elif t == "lobby":
                self._table(msg)
                if msg.get("config"):
                    self.config = msg["config"]
            elif t == "state":
                self._received += 1
                msg["recv_n"] = self._received  # local arrival order, for consumers that skip old views
                self.latest = msg
                if msg.get("events"):
                    self._events.append((self._received, msg["events"]))
            elif t in ("accepted", "rejected"):
                self.results[msg["seq"]] = msg
                if len(self.results) > MAX_RESULTS:
                    del self.results[next(iter(self.results))]
            elif t == "over":
                self.over = msg
            elif t == "error":
                self.errors.append(msg)
                if len(self.errors) > 2 * MAX_ERRORS:
                    del self.errors[:-MAX_ERRORS]
            elif t == "closing":
                self.closing = msg.get("reason", "")
            elif t == "live":
                now = time.perf_counter()
                self.live = msg
                self.lives.append((now, msg))
                for seq in [q for q in self._hand_sent if q <= msg["ack"]]:
                    self.hand_delays.append(now - self._hand_sent.pop(seq))
                self._cond.notify_all()
                return   # frames stay out of the inbox: a stream of them would push out what matters
            try:
                self.inbox.put_nowait(msg)
            except queue.Full:
                try:
                    self.inbox.get_nowait()
                    self.inbox.put_nowait(msg)
                except queue.Empty:
                    pass
            self._cond.notify_all()
