"""Gobble bots.

Solitaire (specs/gobble.md "Gobble Solitaire"; used by the hint and by ``playtable selfplay``):

* ``greedy``: scores every legal placement of the tile in play by what the board looks like after it:
  how many of the tiles still to come (bag and penalty stack) would fit somewhere, how many would fit in
  two or more spaces, and whether the placement fills a gobble space while the penalty stack has a tile
  to rescue. A rescue plays the top penalty tile when it fits (best placement), else returns it to the
  bag: returning is never worse than keeping it, since a returned tile that still fits nowhere when drawn
  goes straight back onto the stack.
* ``random``: a uniformly random legal action (the baseline).
"""
from __future__ import annotations

import random
from typing import Any

from sim.ai import RandomAgent
from sim.core.rules import Action

from .board import Board, gift_count, pattern_fit


def _popcount(x: int) -> int:
    return bin(x).count("1")


def coverage(board: Board, remaining: int) -> tuple[int, int]:
    """``(fit_once, fit_twice)``: tiles in the bit set ``remaining`` that fit in at least one / two
    distinct spaces of ``board``."""
    once = 0
    twice = 0
    for p in board.frontier.values():
        if p.count(".") <= 4:
            m = pattern_fit(p)[0]
            twice |= once & m
            once |= m
    return _popcount(once & remaining), _popcount(twice & remaining)


class GreedySolitaireAgent:
    """One-ply placement evaluation; deterministic apart from tie-breaks drawn from its own RNG."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def score(self, state: Any, tile: int, cell, rot: int, remaining: int) -> float:
        board = state.board
        k = board.neighbour_count(cell)
        after = board.place(tile, rot, cell)
        once, twice = coverage(after, remaining)
        gifts = gift_count(k, state.escalating)
        pen = len(state.penalty) - (1 if state.phase == "rescue" else 0)
        bonus = 25.0 * min(gifts, pen) if pen > 0 else 0.0
        return 10.0 * once + 1.0 * twice + bonus + 0.1 * k

    def best_placement(self, state: Any, tile: int) -> tuple[tuple[int, int], int] | None:
        """The best ``(cell, rot)`` for ``tile`` on ``state``'s board, or None if it fits nowhere."""
        options = state.board.placements(tile)
        if not options:
            return None
        remaining = 0
        for n in state.bag:
            remaining |= 1 << n
        for n in state.penalty:
            remaining |= 1 << n
        remaining &= ~(1 << tile)
        best = None
        best_score = None
        for cell, rot in options:
            sc = self.score(state, tile, cell, rot, remaining) + self.rng.random() * 1e-3
            if best_score is None or sc > best_score:
                best, best_score = (cell, rot), sc
        return best

    def select_action(self, rules: Any, state: Any, player: int = 0) -> Action:
        if state.phase == "penalty":
            return {"t": "penalty"}
        tile = rules.movable_tile(state)
        if tile is None:
            raise ValueError("no decision to make now")
        pick = self.best_placement(state, tile)
        if pick is not None:
            (q, r), rot = pick
            return {"t": "place", "tile": tile, "rot": rot, "q": q, "r": r}
        if state.phase == "rescue":
            return {"t": "return"}
        raise ValueError("no legal action")


SOLITAIRE_AGENTS = {"greedy": GreedySolitaireAgent, "random": RandomAgent}


def make_solitaire_agent(name: str, seed: int = 0):
    """A solitaire agent by name ('greedy' or 'random'); raises ``KeyError`` for an unknown name."""
    try:
        cls = SOLITAIRE_AGENTS[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r} (known: {', '.join(SOLITAIRE_AGENTS)})") from None
    return cls(seed)


# --------------------------------------------------------------------------- race bots
#: Seconds between looks at the table, by level (specs/gobble.md "Bots": levels by reaction time and skill).
REACTION = {"slow": (8.0, 12.0), "easy": (4.5, 7.0), "medium": (3.0, 4.5), "hard": (1.8, 3.0)}
#: Levels that play as simply as easy (the first spot found, gifts left to the clock).
SIMPLE = ("slow", "easy")
LEVELS = tuple(REACTION)


class RaceBot:
    """A Gobble race bot for one seat.

    * slow: plays as easy, at a pace for people new to the race (a look every 8 to 12 s).
    * easy: slow; places the first legal spot it finds, never chooses its gifts (the clock makes them).
    * medium: prefers gobbles; gives its penalty-stack top to a random opponent.
    * hard: fast; prefers gobbles and placing from its penalty stack, avoids creating gobble spaces it
      cannot fill itself, and aims gifts at the leader (the opponent holding the fewest tiles).

    A bot sees only what its seat may see: its revealed tiles, every penalty stack, and tile counts.
    """

    def __init__(self, seat: int, level: str = "medium", seed: int = 0):
        if level not in REACTION:
            raise KeyError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
        self.seat = seat
        self.level = level
        self.rng = random.Random(f"{seed}/{seat}/{level}")
        lo, hi = REACTION[level]
        self.next_time = self.rng.uniform(lo, hi)
        self.name = f"bot:{level}"

    def delay(self) -> float:
        lo, hi = REACTION[self.level]
        return self.rng.uniform(lo, hi)

    def act(self, rules: Any, state: Any) -> tuple[Action | None, float]:
        return self.decide(rules, state), self.delay()

    # ------------------------------------------------------------------ decisions
    def decide(self, rules: Any, s: Any) -> Action | None:
        """The action this bot takes in ``s`` (None = wait)."""
        me = s.seats[self.seat]
        if me.owed and self.level not in SIMPLE:
            gift = self._gift(rules, s)
            if gift is not None:
                return gift
        place = self._placement(rules, s)
        if place is not None:
            return place
        if s.revealed(self.seat) and len(me.pile) > 0:
            return {"t": "discard", "tile": s.revealed(self.seat)[0]}
        return None

    def _gift(self, rules: Any, s: Any) -> Action | None:
        me = s.seats[self.seat]
        opp = [j for j in s.in_play() if j != self.seat]
        if not opp:
            return None
        if self.level == "hard":
            to = rules.leader(s, exclude=self.seat)
            # give away what is hardest to play: the stack top unless it fits right now
            if me.stack and not s.board.fits_anywhere(me.stack[-1]):
                src = "stack"
            elif me.pile:
                src = "pile" if not me.stack or len(me.pile) > 1 else "stack"
            else:
                src = "stack"
        else:
            to = self.rng.choice(opp)
            src = "stack" if me.stack else "pile"
        if src == "pile" and not me.pile or src == "stack" and not me.stack:
            return None
        return {"t": "gift", "src": src, "to": to}

    def _placement(self, rules: Any, s: Any) -> Action | None:
        options = []
        for src, n in rules.placeable(s, self.seat):
            for cell, rot in s.board.placements(n):
                options.append((src, n, cell, rot))
        if not options:
            return None
        if self.level in SIMPLE:
            src, n, cell, rot = options[0]  # the first legal spot it finds
        elif self.level == "medium":
            best = max(gift_count(s.board.neighbour_count(o[2]), s.escalating) for o in options)
            pool = [o for o in options if gift_count(s.board.neighbour_count(o[2]), s.escalating) == best]
            src, n, cell, rot = pool[self.rng.randrange(len(pool))]
        else:
            src, n, cell, rot = max(options, key=lambda o: self._score(rules, s, *o) + self.rng.random() * 1e-3)
        return {"t": "place", "src": src, "tile": n, "rot": rot, "q": cell[0], "r": cell[1]}

    def _score(self, rules: Any, s: Any, src: str, n: int, cell, rot: int) -> float:
        board = s.board
        k = board.neighbour_count(cell)
        score = 10.0 * gift_count(k, s.escalating) + (3.0 if src == "stack" else 0.0)
        after = board.place(n, rot, cell)
        mine = 0
        for src2, m in rules.placeable(s, self.seat):
            if m != n:
                mine |= 1 << m
        # new gobble spaces around the placed tile that this seat cannot fill itself
        for nb, p in after.frontier.items():
            if nb in board.frontier and board.frontier[nb].count(".") <= 3:
                continue  # it was a gobble space already
            if 6 - p.count(".") >= 3:
                mask, _ = pattern_fit(p)
                score += 2.0 if mask & mine else -2.5
        return score


def make_race_bot(seat: int, level: str, seed: int = 0) -> RaceBot:
    """A race bot for ``seat`` at ``level`` ('slow', 'easy', 'medium', 'hard'); KeyError if unknown."""
    return RaceBot(seat, level, seed)
