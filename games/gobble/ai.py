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
