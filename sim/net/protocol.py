"""Playtable LAN protocol, version 2: JSON text messages over a WebSocket (see PROTOCOL.md); the
same messages serve every game the host can host (``GameSpec.lan``).

Every message is one JSON object with a ``"type"`` string. Client messages are validated strictly by
:func:`parse_client` (exact key sets, types, sizes); anything else gets an ``error`` reply and is
dropped, and the host keeps serving everyone.

Versions: the host speaks exactly one version (:data:`VERSION`) and refuses a ``hello`` of any other
with ``bad_version``. A change an older peer could not safely ignore (a new message it must send, a
field it must read, a changed meaning) raises the version; a field added to a host message that older
clients may ignore does not. Version 2 (after 1): the lobby's ready step, the ``ready`` message and the
``ready`` / ``away`` lists (a version 1 client never says it is ready, so its race would never start).
The ``game`` field of ``welcome`` and the turn-based fields of ``state`` were added for any game; a
Gobble client of version 2 may ignore them, so the version stays 2. So were the ``hand`` and ``live``
messages: only a game played with a live hand uses them, and a client that knows such a game knows them.

Client -> host

* ``{"type": "hello", "version": 2, "name": str(1..32), "token": str|null}``: take a free seat, or
  with the secret ``token`` of a seat, rejoin it.
* ``{"type": "ready", "ready": bool}``: before the game, this connection's seat is ready (or no longer
  ready). The game starts when every seat is taken and every LAN seat is ready (bots always are). A
  seat's flag is cleared when its player leaves or drops. Sent after the start, it changes nothing (the
  host answers with the lobby message).
* ``{"type": "intent", "seq": int, "seat": int, "token": str, "action": {...}}``: one action of the
  game's rules. ``seq`` must grow for each seat (a replayed or old seq is rejected and never
  applied); ``seat`` and ``token`` must be this connection's own.
* ``{"type": "hand", "seq": int, "seat": int, "token": str, "hand": {"op": str, ...}}``: in a game
  played with a live hand (``GameSpec.make_lan_live``, e.g. Tokami), one input of the hand of the seat
  whose hand acts now (grab, move to a point at an angle, lift out, choose a lane, let go). ``seq``,
  ``seat`` and ``token`` as for an intent; ``hand`` holds at most 8 plain values (numbers finite). A
  hand stream has its own budget (:data:`HAND_RATE` a second, bursts of :data:`HAND_BURST`); the host
  answers only a refused one (``rejected`` with its seq and the reason).
* ``{"type": "undo", "seq": int, "seat": int, "token": str}``: a turn-based game: take back this seat's
  own last action where the match's policy allows it (never across another seat's action or a chance
  outcome); ``seq``, ``seat`` and ``token`` as for an intent (one sequence for both), answered with
  ``accepted`` or ``rejected`` (with the reason). Added within version 2: a client that never sends
  it loses nothing.

Host -> client

* ``{"type": "welcome", "version": 2, "game": str, "seat": int, "token": str, "config": {...},
  "last_seq": int, "names": [str|null, ...], "ready": [bool, ...], "away": [bool, ...],
  "started": bool}``: the game's registry name, the seat,
  its secret token (keep it to rejoin within 60 s), the match config, and the last sequence number the
  host saw from this seat.
* ``{"type": "lobby", "names": [...], "ready": [...], "away": [...], "started": bool, "config": ...}``:
  who has joined so far, who is ready, whose connection dropped (a rejoin is awaited); sent on every
  change before the start and once at the start; after the start, on every drop, return and end of a
  rejoin window, with two more lists a client may ignore: ``"standin": [bool, ...]`` (a bot plays the
  seat of a dropped player) and ``"gone": [bool, ...]`` (its rejoin window is over: the bot keeps it).
  ``welcome`` and ``lobby`` also carry ``"options": {...}``, the game options the host was given (the
  rest are the game's defaults), so a lobby can show them before the start; a client may ignore it.
* ``{"type": "accepted", "seq": int}`` / ``{"type": "rejected", "seq": int, "reason": str}``.
* ``{"type": "state", "seat": int, "time": float, "view": {...}, "events": [...]}``: what this seat may
  see, ``view`` = ``rules.state_to_json(rules.observe(state, seat))``, a state of the game's own type
  with what the seat may not see masked (for the Gobble race the board, every penalty stack, every
  seat's pile size and gift deadlines, its own revealed tiles, never the content of any pile), and, in
  a real-time game, the events since the last state, filtered by the game (``GameSpec.lan_events``: a
  gift's tile is only told to its giver). A turn-based game's ``events`` is empty unless the game sends
  its events (``GameSpec.lan_events``, e.g. Streetcar's, none of which tells a secret; Tokami's are all
  public), and three more fields say ``"active": [int, ...]`` (the seats to act; empty while chance or
  physics acts on the host), ``"n": int`` (the number of actions applied, so a client can tell a new
  position from a repeated one) and ``"undo": bool`` (whether this seat may take back its last action
  now); a game whose actions are all public (``GameSpec.lan_log``) adds ``"log": [{"p": int, "a":
  {...}}, ...]``, the applied actions.
* ``{"type": "live", "n": int, "k": int, "ack": int, ...}``: in a game played with a live hand, the
  host's live world (a pile settling, a hand at work): ``n`` the number of actions applied when it was
  sent, ``k`` a growing frame number, ``ack`` the seq of the last hand input of this seat applied (0: none yet); the rest is the
  game's (for Tokami every stick's pose). Sent every ``tick`` while anything moves, never while all
  sleeps; a frame whose game part says nothing is live any more ends the live world.
* ``{"type": "over", "outcome": {...}, "ranking": [int, ...]|null}``: the game is over.
* ``{"type": "error", "code": str, "message": str}``: a message was refused (codes below).
* ``{"type": "closing", "reason": str}``: the host is shutting down; the game ends for everyone.

Error codes: ``too_big`` (over :data:`MAX_MESSAGE` bytes), ``bad_json``, ``bad_message`` (not an object,
unknown type, wrong keys or types), ``bad_version``, ``rate_limited``, ``no_seat`` (table full,
unknown token, rejoin window over), ``not_joined`` (intent, undo or ready before hello).

A client checks what the host sends just as strictly (:func:`parse_host`): every field above with its
type and range (seat numbers, equal-length seat lists of at most :data:`MAX_SEATS`, a finite ``time``,
an object ``view``, ``events`` a list of objects, no NaN or infinity anywhere), fields it does not know
ignored; text the host sends (``reason``, ``message``) loses control characters. A message that fails
is dropped (the client logs one line) and the client goes on.
"""
from __future__ import annotations

import json
import math
from typing import Any

VERSION = 2
#: largest client message the host reads (bytes of UTF-8); the transport closes anything over 4x this
MAX_MESSAGE = 16 * 1024
MAX_NAME = 32
MAX_TOKEN = 64
MAX_SEQ = 2 ** 53
#: per-client token bucket: messages per second, and burst size
RATE = 30.0
BURST = 60
#: per-client budget of ``hand`` messages (a live hand's stream; a client sends at most about 50 a
#: second): messages per second, and burst size
HAND_RATE = 75.0
HAND_BURST = 75
#: largest magnitude of a number in a hand message (the game checks its own ranges too)
MAX_HAND_NUMBER = 1e6

#: largest host message a client reads (bytes; the transport closes the connection on a larger one)
MAX_HOST_MESSAGE = 1 << 20
MAX_SEATS = 64
#: host -> client rate a client takes in: messages per second, and burst size (beyond it: dropped)
HOST_RATE = 500.0
HOST_BURST = 2000
MAX_TEXT = 500             # longest error message / reason a client keeps (characters)

CLIENT_TYPES = {"hello", "ready", "intent", "hand", "undo"}
HOST_TYPES = {"welcome", "lobby", "accepted", "rejected", "state", "live", "over", "error", "closing"}


class ProtocolError(ValueError):
    """A refused message: ``code`` (see the module docstring) and a one-line reason."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def encode(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), allow_nan=False)


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _reject_const(name: str):
    raise ValueError(f"{name} is not JSON")


def _scalar(v: Any) -> bool:
    if v is None or isinstance(v, (bool, str)):
        return not isinstance(v, str) or len(v) <= 32
    if _is_int(v):
        return abs(v) <= MAX_SEQ
    if isinstance(v, float):
        return math.isfinite(v)
    return False


def _small(v: Any, depth: int) -> bool:
    """A plain value, or a list of at most 16 of them, nested at most ``depth`` deep."""
    if isinstance(v, list):
        return depth > 0 and len(v) <= 16 and all(_small(x, depth - 1) for x in v)
    return _scalar(v)


def _load(raw: Any, limit: int, types: Any) -> dict[str, Any]:
    """One raw message (str or bytes, at most ``limit`` bytes of UTF-8) as a JSON object whose
    ``"type"`` is one of ``types``; raises :class:`ProtocolError`."""
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > limit:
            raise ProtocolError("too_big", f"message is {len(raw)} bytes; the limit is {limit}")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "message is not UTF-8 text") from None
    if not isinstance(raw, str):
        raise ProtocolError("bad_message", "message must be text")
    if len(raw) > limit or len(raw.encode("utf-8", "surrogatepass")) > limit:
        raise ProtocolError("too_big", f"message is over the limit of {limit} bytes")
    try:
        msg = json.loads(raw, parse_constant=_reject_const)
    except (ValueError, RecursionError) as e:
        raise ProtocolError("bad_json", f"malformed JSON: {str(e)[:80]}") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    t = msg.get("type")
    if t not in types:
        raise ProtocolError("bad_message", f"unknown message type {str(t)[:32]!r}")
    return msg


def parse_client(raw: Any, nested: bool = False) -> dict[str, Any]:
    """Validate one raw client message (str or bytes) and return it; raises :class:`ProtocolError`.
    A ``hand`` message's ``hand`` is a small object with an ``"op"`` string and at most 8 plain values
    (numbers finite and at most :data:`MAX_HAND_NUMBER` in magnitude).

    An intent's action is a small object with a ``"t"`` string and at most 8 plain values; with
    ``nested`` (turn-based games, e.g. a set-up naming two cells) a value may also be a list of at most
    16 plain values or such lists (2 levels)."""
    msg = _load(raw, MAX_MESSAGE, CLIENT_TYPES)
    t = msg["type"]
    if t == "hello":
        if set(msg) - {"type", "version", "name", "token"} or not {"version", "name"} <= set(msg):
            raise ProtocolError("bad_message", "hello has type, version, name and optional token")
        if msg["version"] != VERSION or not _is_int(msg["version"]):
            raise ProtocolError("bad_version", f"protocol version {str(msg['version'])[:16]!r} is not "
                                f"supported; this host speaks version {VERSION}")
        name = msg["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable() \
                or name != name.strip():
            raise ProtocolError("bad_message", f"name must be 1 to {MAX_NAME} printable characters")
        tok = msg.get("token")
        if tok is not None and (not isinstance(tok, str) or not 1 <= len(tok) <= MAX_TOKEN):
            raise ProtocolError("bad_message", "token must be a string")
        msg.setdefault("token", None)
        return msg
    if t == "ready":
        if set(msg) != {"type", "ready"} or not isinstance(msg["ready"], bool):
            raise ProtocolError("bad_message", "ready has exactly type and ready (true or false)")
        return msg
    if t == "undo":
        if set(msg) != {"type", "seq", "seat", "token"}:
            raise ProtocolError("bad_message", "undo has exactly type, seq, seat and token")
    else:
        body = "action" if t == "intent" else "hand"
        if set(msg) != {"type", "seq", "seat", "token", body}:
            raise ProtocolError("bad_message", f"{t} has exactly type, seq, seat, token and {body}")
    if not _is_int(msg["seq"]) or not 0 < msg["seq"] <= MAX_SEQ:
        raise ProtocolError("bad_message", "seq must be a positive integer")
    if not _is_int(msg["seat"]) or not 0 <= msg["seat"] < 64:
        raise ProtocolError("bad_message", "seat must be a seat number")
    if not isinstance(msg["token"], str) or not 1 <= len(msg["token"]) <= MAX_TOKEN:
        raise ProtocolError("bad_message", "token must be a string")
    if t == "undo":
        return msg
    if t == "hand":
        hand = msg["hand"]
        if not isinstance(hand, dict) or not isinstance(hand.get("op"), str) or len(hand) > 8 \
                or not all(isinstance(k, str) and len(k) <= 16 and _scalar(v) for k, v in hand.items()):
            raise ProtocolError("bad_message", "hand must be a small object of plain values with an 'op'")
        if any(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) > MAX_HAND_NUMBER
               for v in hand.values()):
            raise ProtocolError("bad_message", f"a number in a hand message is over {MAX_HAND_NUMBER:g}")
        return msg
    action = msg["action"]
    if not isinstance(action, dict) or not isinstance(action.get("t"), str) or len(action) > 8 \
            or not all(isinstance(k, str) and len(k) <= 16 and _small(v, 2 if nested else 0)
                       for k, v in action.items()):
        raise ProtocolError("bad_message", "action must be a small object of plain values with a 't'")
    return msg


def _seat_list(msg: dict, key: str, kind: type, n: int | None, optional: bool = False) -> list | None:
    v = msg.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, list) or not 0 < len(v) <= MAX_SEATS or (n is not None and len(v) != n):
        raise ProtocolError("bad_message", f"{key} must be a list with one entry per seat")
    for x in v:
        if kind is bool and not isinstance(x, bool):
            raise ProtocolError("bad_message", f"{key} must hold true or false per seat")
        if kind is str and x is not None and (not isinstance(x, str) or not 1 <= len(x) <= 2 * MAX_NAME
                                              or not x.isprintable()):
            raise ProtocolError("bad_message", f"{key} must hold a printable name or null per seat")
    return v


def _seat_no(v: Any, n: int | None, what: str) -> int:
    if not _is_int(v) or not 0 <= v < (n if n is not None else MAX_SEATS):
        raise ProtocolError("bad_message", f"{what} must be a seat number")
    return v


def _text(msg: dict, key: str) -> None:
    """``msg[key]`` made a printable str of at most MAX_TEXT characters (missing: "")."""
    v = msg.get(key, "")
    if not isinstance(v, str):
        raise ProtocolError("bad_message", f"{key} must be text")
    if not v.isprintable():
        v = "".join(c if c.isprintable() else " " for c in v)
    msg[key] = v[:MAX_TEXT]


def parse_host(raw: Any, seats: int | None = None, seat: int | None = None) -> dict[str, Any]:
    """Validate one raw host message (str or bytes) as a client receives it and return it; raises
    :class:`ProtocolError` (code ``bad_json``, ``too_big`` or ``bad_message``) with a one-line reason.

    ``seats``: the number of seats the welcome announced (then every seat list must have that length
    and seat numbers must be below it); ``seat``: this client's own seat (a ``state`` must be for it).
    Fields not listed in the module docstring are kept unchecked (a newer host may add some)."""
    msg = _load(raw, MAX_HOST_MESSAGE, HOST_TYPES)
    t = msg["type"]
    if t in ("welcome", "lobby"):
        names = _seat_list(msg, "names", str, seats)
        n = len(names)
        _seat_list(msg, "ready", bool, n)
        _seat_list(msg, "away", bool, n)
        _seat_list(msg, "standin", bool, n, optional=True)
        _seat_list(msg, "gone", bool, n, optional=True)
        if not isinstance(msg.get("started"), bool):
            raise ProtocolError("bad_message", f"{t}: started must be true or false")
        if msg.get("config") is not None and not isinstance(msg["config"], dict):
            raise ProtocolError("bad_message", f"{t}: config must be an object or null")
        if msg.get("options") is not None and not isinstance(msg["options"], dict):
            raise ProtocolError("bad_message", f"{t}: options must be an object")
        if t == "welcome":
            if msg.get("version") != VERSION or not _is_int(msg.get("version")):
                raise ProtocolError("bad_message", f"welcome: protocol version {str(msg.get('version'))[:16]!r}"
                                    f" is not {VERSION}")
            if not isinstance(msg.get("game"), str) or not 1 <= len(msg["game"]) <= 64:
                raise ProtocolError("bad_message", "welcome: game must be a game's name")
            _seat_no(msg.get("seat"), n, "welcome: seat")
            tok = msg.get("token")
            if not isinstance(tok, str) or not 1 <= len(tok) <= MAX_TOKEN:
                raise ProtocolError("bad_message", "welcome: token must be a string")
            if not _is_int(msg.get("last_seq")) or not 0 <= msg["last_seq"] <= MAX_SEQ:
                raise ProtocolError("bad_message", "welcome: last_seq must be a whole number >= 0")
    elif t in ("accepted", "rejected"):
        if not _is_int(msg.get("seq")) or not 0 < msg["seq"] <= MAX_SEQ:
            raise ProtocolError("bad_message", f"{t}: seq must be a positive integer")
        if t == "rejected":
            _text(msg, "reason")
    elif t == "state":
        s = _seat_no(msg.get("seat"), seats, "state: seat")
        if seat is not None and s != seat:
            raise ProtocolError("bad_message", f"state: for seat {s}, not this seat ({seat})")
        tm = msg.get("time")
        if isinstance(tm, bool) or not isinstance(tm, (int, float)) or not 0 <= tm <= 1e9:
            raise ProtocolError("bad_message", "state: time must be a finite number of seconds >= 0")
        if not isinstance(msg.get("view"), dict) or not msg["view"]:
            raise ProtocolError("bad_message", "state: view must be a non-empty object")
        ev = msg.get("events")
        if not isinstance(ev, list) or not all(isinstance(e, dict) for e in ev):
            raise ProtocolError("bad_message", "state: events must be a list of objects")
        if "active" in msg:
            act = msg["active"]
            if not isinstance(act, list) or len(act) > MAX_SEATS:
                raise ProtocolError("bad_message", "state: active must be a list of seat numbers")
            for a in act:
                _seat_no(a, seats, "state: active")
        if "n" in msg and (not _is_int(msg["n"]) or not 0 <= msg["n"] <= MAX_SEQ):
            raise ProtocolError("bad_message", "state: n must be a whole number >= 0")
        if "undo" in msg and not isinstance(msg["undo"], bool):
            raise ProtocolError("bad_message", "state: undo must be true or false")
        if "log" in msg:
            log = msg["log"]
            if not isinstance(log, list) or not all(
                    isinstance(e, dict) and _is_int(e.get("p")) and isinstance(e.get("a"), dict) for e in log):
                raise ProtocolError("bad_message", "state: log must be a list of {p, a} entries")
    elif t == "live":
        for key in ("n", "k", "ack"):
            if not _is_int(msg.get(key)) or not 0 <= msg[key] <= MAX_SEQ:
                raise ProtocolError("bad_message", f"live: {key} must be a whole number >= 0")
    elif t == "over":
        if not isinstance(msg.get("outcome"), dict):
            raise ProtocolError("bad_message", "over: outcome must be an object")
        rk = msg.get("ranking")
        if rk is not None and (not isinstance(rk, list) or len(rk) > MAX_SEATS
                               or not all(_is_int(x) and 0 <= x < MAX_SEATS for x in rk)):
            raise ProtocolError("bad_message", "over: ranking must be a list of seat numbers or null")
    elif t == "error":
        _text(msg, "code")
        _text(msg, "message")
        msg["code"] = msg["code"][:32]
    else:  # closing
        _text(msg, "reason")
    return msg


class RateLimiter:
    """Token bucket: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float = RATE, burst: int = BURST):
        self.rate = float(rate)
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last: float | None = None

    def allow(self, now: float) -> bool:
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
