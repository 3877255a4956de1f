"""A scripted LAN player: picks a legal action from nothing but its seat's view (tests, soak, headless
``playtable join --auto``)."""
from __future__ import annotations

import random
from typing import Any


def choose(view: dict[str, Any], seat: int, rng: random.Random) -> dict | None:
    """An action for ``seat`` from its ``view`` (``RaceRules.observe``), or None to wait."""
    from games.gobble.board import Board

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
