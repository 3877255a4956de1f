"""Nim bots: ``perfect`` (the nim-sum strategy, with the misère end game) and ``random``."""
from __future__ import annotations

import random
from functools import reduce
from operator import xor
from typing import Any

from sim.ai import RandomAgent
from sim.core.rules import Action

LEVELS = ("perfect", "random")


def best_move(heaps: tuple[int, ...], misere: bool) -> tuple[int, int] | None:
    """(heap, sticks) that leaves the opponent lost, or None when every move loses (Bouton 1901;
    misère: as normal play until a move would leave only heaps of 1, then leave an odd number of them)."""
    big = [i for i, h in enumerate(heaps) if h > 1]
    if misere and len(big) <= 1:
        ones = sum(1 for h in heaps if h == 1)
        if big:  # take the big heap down to 0 or 1 so that an odd number of 1-heaps is left
            i = big[0]
            keep = 1 if ones % 2 == 0 else 0
            return i, heaps[i] - keep
        return None if ones % 2 else (heaps.index(1), 1)
    x = reduce(xor, heaps, 0)
    if x == 0:
        return None
    for i, h in enumerate(heaps):
        if h ^ x < h:
            return i, h - (h ^ x)
    return None


class NimBot:
    """``select_action`` plays :func:`best_move`, or a random legal take when the position is lost."""

    name = "perfect"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def select_action(self, rules: Any, state: Any, player: int) -> Action:
        move = best_move(state.heaps, state.misere)
        if move is None:
            return self.rng.choice(rules.legal_actions(state, player))
        return {"t": "take", "heap": move[0], "n": move[1]}


def make_agent(level: str, seed: int = 0):
    """An agent at ``level``; ``KeyError`` for an unknown level."""
    return {"perfect": NimBot, "random": RandomAgent}[level](seed)
