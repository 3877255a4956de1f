"""What the shared LAN host and client need from the Gobble race (``GameSpec`` hooks of ``RACE``).

* :func:`choose`: a scripted LAN player that picks a legal action from nothing but its seat's view
  (tests, soak, headless ``playtable join --auto``);
* :func:`filter_events`: the events a seat may be told;
* :func:`make_lan_scene`: the race's LAN lobby, then the race screen on a ``RemoteMatch`` (``view_lan``).
"""
from __future__ import annotations

import random
from typing import Any



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
