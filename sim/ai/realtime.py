"""Bots in real-time games: each acts from its own timer on the match clock (specs/DESIGN.md "Core").

A real-time bot has ``next_time`` (match time, s, of its next look at the table) and
``act(rules, state, seat) -> (action | None, delay)``: what it does then and how long until it looks
again. :class:`BotTimers` drives any number of them from the app loop (one decision per due bot per
call, each a few ms, so nothing ever waits for a bot), and :func:`simulate` runs a whole match in
simulated time as fast as the machine allows: it jumps the clock to the next bot or rules timer.
Both go through ``Match.submit``, so a stale action (a cell just taken) is rejected as for a human.
"""
from __future__ import annotations

from typing import Any, Protocol

from sim.core.match import Match, quantize
from sim.core.rules import Action, IllegalAction


_EPS = 5e-7  # half the match clock's resolution (µs)


class RealtimeBot(Protocol):
    seat: int
    next_time: float

    def act(self, rules: Any, state: Any) -> tuple[Action | None, float]:
        """The action to submit now (or None) and the delay (s) until the bot acts again."""


class BotTimers:
    """Runs real-time bots against a match on the shared loop."""

    def __init__(self, match: Match, bots: list[RealtimeBot]):
        self.match = match
        self.bots = list(bots)
        self.rejected = 0

    def next_due(self) -> float | None:
        live = [b.next_time for b in self.bots if b.seat in self.match.active_players()]
        return min(live) if live else None

    def run_due(self, limit: int | None = None) -> list:
        """Let every bot whose time has come act once (at most ``limit`` of them per call: the app
        loop passes a small number so a frame never holds more than a few decisions of a few ms
        each; the others act on the next frame). Returns the events of accepted actions."""
        m = self.match
        events: list = []
        acted = 0
        for bot in sorted(self.bots, key=lambda b: (b.next_time, b.seat)):
            if m.is_over() or (limit is not None and acted >= limit):
                break
            if bot.next_time > m.time + _EPS or bot.seat not in m.active_players():
                continue
            action, delay = bot.act(m.rules, m.state)
            acted += 1
            bot.next_time = quantize(m.time + max(0.05, delay))
            if action is not None:
                try:
                    events += m.submit(bot.seat, action)
                except IllegalAction:
                    self.rejected += 1
        return events


def simulate(match: Match, bots: list[RealtimeBot], max_time: float = 3600.0) -> Match:
    """Play ``match`` to its end with ``bots`` (every live seat must have one) in simulated time.

    Raises RuntimeError if the match is not over after ``max_time`` s of match time.
    """
    timers = BotTimers(match, bots)
    while not match.is_over():
        due = [t for t in (timers.next_due(), match.rules.next_timer(match.state)) if t is not None]
        if not due:
            raise RuntimeError("no bot or timer can move the match on")
        t = max(quantize(min(due) + _EPS), match.time)  # on the µs clock, not before the due time
        if t > max_time:
            raise RuntimeError(f"match not over after {max_time} s")
        match.advance(t - match.time)
        timers.run_due()
    return match
