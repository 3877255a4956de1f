"""What a LAN table says about its seats and its host, over any game's screen: a seat's player dropped
(a bot of the host plays the seat meanwhile, or the table waits), came back, or did not come back in
time (the bot keeps the seat); the host ended the game, or the connection to it was lost.

:class:`LanNews` reads a :class:`sim.net.client.Client`'s lobby fields (``away``, ``standin``,
``gone``, which the host sends on every such change during a game) and ``closing`` / ``closed``; it
never waits on the network. The owner calls :meth:`LanNews.update` once a frame and shows
:meth:`LanNews.lines` among its notices (``TableScene.notice_items``).
"""
from __future__ import annotations

from typing import Any, Callable

#: s a notice of a change (a drop, a return) stays on the table
NOTE_SECONDS = 6.0


class LanNews:
    """The notices of ``client``'s table; ``name_of(seat)`` names a seat ("Bob", "Bot 3 (easy)")."""

    def __init__(self, client: Any, name_of: Callable[[int], str]):
        self.client = client
        self.name_of = name_of
        self._seen: tuple[list, list, list] | None = None
        #: (text, bad, until) of the changes noticed, oldest first
        self.notes: list[tuple[str, bool, float]] = []
        self.ended: str | None = None      # why the game ended for this table (host quit, connection lost)
        self.now = 0.0

    def _name(self, seat: int) -> str:
        try:
            return self.name_of(seat)
        except Exception:  # noqa: BLE001 - a seat the screen cannot name
            return f"Player {seat + 1}"

    def update(self, now: float) -> list[str]:
        """Take in what changed since the last call (``now``: the screen's clock, s); returns the new
        notices' texts."""
        self.now = now
        c = self.client
        n = len(c.names or [])
        cur = tuple((list(v or []) + [False] * n)[:n] for v in (c.away, c.standin, c.gone))
        new: list[tuple[str, bool]] = []
        old = self._seen or ([False] * n, [False] * n, [False] * n)
        if len(old[0]) != n:
            old = ([False] * n, [False] * n, [False] * n)
        away, standin, gone = cur
        for i in range(n):
            if i == c.seat:
                continue
            name = self._name(i)
            if gone[i] and not old[2][i]:
                new.append((f"{name} did not come back in time: the host's bot keeps the seat", True))
            elif away[i] and not old[0][i]:
                new.append((f"{name} dropped: " + ("a bot of the host plays for them until they return"
                                                   if standin[i] else "the table waits for them to return"), True))
            elif standin[i] and not old[1][i] and old[0][i]:
                new.append((f"A bot of the host now plays for {name}", True))
            elif old[0][i] and not away[i]:
                new.append((f"{name} is back", False))
        self._seen = cur
        if self.ended is None and c.over is not None:
            if (c.closing is not None or c.closed.is_set()) and not getattr(self, "_closed_said", False):
                self._closed_said = True
                new.append(("The host has closed the table", False))
        elif self.ended is None:
            if c.closing is not None:
                self.ended = f"The host ended the game: {c.closing or 'the host quit'}. The host keeps the record."
            elif c.closed.is_set() and c.welcome is not None and c.over is None:
                self.ended = "The connection to the host was lost: the game is over for this table."
            if self.ended is not None:
                new.append((self.ended, True))
        self.notes = [x for x in self.notes if x[2] > now][-3:] + [(t, bad, now + NOTE_SECONDS) for t, bad in new]
        return [t for t, _ in new]

    def lines(self) -> list[tuple[str, bool]]:
        """What the table shows now: why the game ended if it did; else the recent changes, newest first,
        then who is away (and whether a bot plays for them)."""
        if self.ended is not None:   # nothing else matters once the game is over for this table
            return [(self.ended, True)]
        out = [(t, bad) for t, bad, until in reversed(self.notes) if until > self.now]
        c = self.client
        away, standin = list(c.away or []), list(c.standin or [])
        for i, a in enumerate(away):
            if a and i != c.seat and not any(self._name(i) in t for t, _ in out):
                out.append((f"{self._name(i)} is away" + (": a bot plays for them" if i < len(standin)
                                                           and standin[i] else ""), False))
        return out[:3]
