"""What the shared LAN host and client need from the Gobble race (``GameSpec`` hooks of ``RACE``).

* :func:`choose`: a scripted LAN player that picks a legal action from nothing but its seat's view
  (tests, soak, headless ``playtable join --auto``);
* :func:`filter_events`: the events a seat may be told;
* :func:`check_state`: a client's check of the events of a ``state`` message (what the race screen
  reads of them; the view itself is read back by the rules), so a bad one from a host is dropped
  before any screen sees it;
* :func:`make_lan_scene`: the race's LAN lobby, then the race screen on a ``RemoteMatch`` (``view_lan``).
"""
from __future__ import annotations

import random
from typing import Any

#: fields each event kind the race screen reads must carry: seat numbers, and cells (q, r)
_EVENT_SEATS = {"place": ("seat",), "gobble": ("seat",), "gift": ("from", "to"), "out": ("seat",),
                "discard": ("seat",), "gift_lapsed": ("from",)}
_EVENT_INTS = {"place": ("q", "r"), "start": ("q", "r"), "gobble": ("level",), "out": ("position",)}


def _whole(v: Any, lo: int = -10 ** 6, hi: int = 10 ** 6) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def check_state(msg: dict[str, Any]) -> None:
    """Check the events of a ``state`` message of the race (those of :func:`filter_events`): the seats
    and cells the race screen reads, with their types and ranges; the view has been read back by
    ``RaceRules.state_from_json``. Raises ``ValueError`` with the first problem."""
    n = len(msg["view"]["seats"])
    for e in msg["events"]:
        kind = e.get("e")
        if not isinstance(kind, str):
            raise ValueError("an event has a kind 'e'")
        if not all(_whole(e.get(k), 0, n - 1) for k in _EVENT_SEATS.get(kind, ())) \
                or not all(_whole(e.get(k)) for k in _EVENT_INTS.get(kind, ()) if k in e or k in ("q", "r")):
            raise ValueError(f"a {kind!r} event names a bad seat or cell")


def choose(view: dict[str, Any], seat: int, rng: random.Random) -> dict | None:
    """An action for ``seat`` from its ``view`` (``RaceRules.state_to_json`` of its ``observe``), or
    None to wait. Raises ValueError if ``view`` is not a race state."""
    from .race import RaceRules

    rules = RaceRules()
    s = rules.state_from_json(view)
    if s.phase != "play":
        return None
    me = s.seats[seat]
    if me.out is not None:
        return None
    if me.owed:
        opp = [j for j in s.in_play() if j != seat]
        src = "pile" if me.pile else "stack" if me.stack else None
        if opp and src:
            return {"t": "gift", "src": src, "to": rng.choice(opp)}
    for src, n in rules.placeable(s, seat):
        spots = s.board.placements(n)
        if spots:
            (q, r), rot = rng.choice(spots)
            return {"t": "place", "src": src, "tile": n, "rot": rot, "q": q, "r": r}
    rev = s.revealed(seat)
    if rev:
        return {"t": "discard", "tile": rev[0]}
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
