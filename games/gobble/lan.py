"""What the shared LAN host and client need from the Gobble race (``GameSpec`` hooks of ``RACE``).

* :func:`choose`: a scripted LAN player that picks a legal action from nothing but its seat's view
  (tests, soak, headless ``playtable join --auto``);
* :func:`filter_events`: the events a seat may be told;
* :func:`check_state`: a client's check of a ``state`` message (the view and events the race screen
  reads), so a bad one from a host is dropped before any screen sees it;
* :func:`make_lan_scene`: the LAN lobby, then the race screen (``view_lan``).
"""
from __future__ import annotations

import random
from typing import Any

from .board import Board
from .data import TILE_NUMBERS

_TILES = frozenset(TILE_NUMBERS)
_PHASES = ("start", "deal", "play", "over")
#: fields each event kind the race screen reads must carry: seat numbers, and cells (q, r)
_EVENT_SEATS = {"place": ("seat",), "gobble": ("seat",), "gift": ("from", "to"), "out": ("seat",),
                "discard": ("seat",), "gift_lapsed": ("from",)}
_EVENT_INTS = {"place": ("q", "r"), "start": ("q", "r"), "gobble": ("level",), "out": ("position",)}


def _whole(v: Any, lo: int = -10 ** 6, hi: int = 10 ** 6) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def check_state(msg: dict[str, Any]) -> None:
    """Check a ``state`` message of the race (``RaceRules.observe`` as the view, the events of
    :func:`filter_events`): every field the race screen and :func:`choose` read, with its type and
    range. Raises ``ValueError`` with the first problem."""
    view = msg["view"]
    if set(view) < {"board", "seats", "revealed", "clock", "phase", "order"}:
        raise ValueError("a race view has board, seats, revealed, clock, phase and order")
    seats = view["seats"]
    if not isinstance(seats, list) or not 2 <= len(seats) <= 6:
        raise ValueError("seats must be a list of 2 to 6 seats")
    n = len(seats)
    for d in seats:
        if not isinstance(d, dict) or not all(_whole(d.get(k), 0, 56) for k in ("pile", "owed")) \
                or not all(_whole(d.get(k), 0, 10 ** 6) for k in ("gobbles", "doubles")) \
                or not isinstance(d.get("stack"), list) or not all(x in _TILES for x in d["stack"]) \
                or not (d.get("out") is None or _whole(d["out"], 0, 10 ** 6)):
            raise ValueError("a seat has pile, owed, gobbles, doubles (counts), stack (tiles), out")
    board = view["board"]
    if not isinstance(board, list) or len(board) > len(_TILES) or not all(
            isinstance(t, list) and len(t) == 4 and _whole(t[0]) and _whole(t[1]) and t[2] in _TILES
            and _whole(t[3], 0, 5) for t in board):
        raise ValueError("board must be a list of [q, r, tile, rot]")
    if not isinstance(view["revealed"], list) or not all(x in _TILES for x in view["revealed"]):
        raise ValueError("revealed must be a list of tiles")
    clock = view["clock"]
    if isinstance(clock, bool) or not isinstance(clock, (int, float)) or not 0 <= clock <= 1e9:
        raise ValueError("clock must be a finite number of seconds")
    if view["phase"] not in _PHASES:
        raise ValueError(f"phase must be one of {', '.join(_PHASES)}")
    if not isinstance(view["order"], list) or not all(_whole(x, 0, n - 1) for x in view["order"]):
        raise ValueError("order must be a list of seat numbers")
    for e in msg["events"]:
        kind = e.get("e")
        if not isinstance(kind, str):
            raise ValueError("an event has a kind 'e'")
        if not all(_whole(e.get(k), 0, n - 1) for k in _EVENT_SEATS.get(kind, ())) \
                or not all(_whole(e.get(k)) for k in _EVENT_INTS.get(kind, ()) if k in e or k in ("q", "r")):
            raise ValueError(f"a {kind!r} event names a bad seat or cell")


def choose(view: dict[str, Any], seat: int, rng: random.Random) -> dict | None:
    """An action for ``seat`` from its ``view`` (``RaceRules.observe``), or None to wait."""
    if view["phase"] != "play":
        return None
    me = view["seats"][seat]
    if me["out"] is not None:
        return None
    if me["owed"]:
        opp = [j for j, s in enumerate(view["seats"]) if j != seat and s["out"] is None]
        src = "pile" if me["pile"] else "stack" if me["stack"] else None
        if opp and src:
            return {"t": "gift", "src": src, "to": rng.choice(opp)}
    board = Board.from_tiles({(q, r): (n, k) for q, r, n, k in view["board"]})
    options = [("pile", n) for n in view["revealed"]]
    if me["stack"]:
        options.append(("stack", me["stack"][-1]))
    for src, n in options:
        spots = board.placements(n)
        if spots:
            (q, r), rot = rng.choice(spots)
            return {"t": "place", "src": src, "tile": n, "rot": rot, "q": q, "r": r}
    if view["revealed"]:
        return {"t": "discard", "tile": view["revealed"][0]}
    return None


def filter_events(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events ``seat`` may see: a gift's tile goes face down into a pile, so only its giver
    (who saw it) is told which tile it was."""
    out = []
    for e in events:
        if e.get("e") == "gift" and e.get("from") != seat:
            e = {k: v for k, v in e.items() if k != "tile"}
        out.append(e)
    return out


def make_lan_scene(app: Any, client: Any, host: Any = None, address: str | None = None) -> Any:
    """The race's LAN lobby (:class:`~games.gobble.view_lan.LanLobbyScene`) for ``client``."""
    from .view_lan import LanLobbyScene
    return LanLobbyScene(app, client, host, address)
