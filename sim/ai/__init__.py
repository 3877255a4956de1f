"""Bots: the Agent protocol and game-independent agents (specs/DESIGN.md "ai/").

An agent is any object with ``select_action(rules, state, player) -> action``. Agents are seeded
(``random.Random`` instances of their own) and never read global random state or the wall clock inside
their decision, so a bot game replays exactly from its seed.
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from sim.core.rules import Action, Rules


class Agent(Protocol):
    name: str

    def select_action(self, rules: Rules, state: Any, player: int) -> Action:
        """A legal action for ``player`` in ``state`` (raises ``ValueError`` if there is none)."""


class RandomAgent:
    """Uniformly random legal action: the baseline every bot must beat."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def select_action(self, rules: Rules, state: Any, player: int = 0) -> Action:
        acts = rules.legal_actions(state, player)
        if not acts:
            raise ValueError("no legal action")
        return self.rng.choice(acts)
