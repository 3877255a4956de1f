"""The rules protocol every game implements (specs/DESIGN.md "Core interface").

A game's rules are pure functions over a state object that is never mutated once returned:
``apply`` returns a new state. Actions and events are JSON-compatible dicts, so an action log is a
match record as it stands. Chance (dice, draws, shuffles) and physics are players with special
ids: at a chance node the rules list the outcomes with probabilities and the ``Match`` samples one
with its own seeded RNG and logs it like any other action, so replay is exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

#: Special player ids (OpenSpiel style).
CHANCE = -1
PHYSICS = -2
#: Timers of real-time games (e.g. a gift made automatically after 10 s) act as this player.
CLOCK = -3
TERMINAL = -4

Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(ValueError):
    """An action that the rules refuse in the current state; ``str(err)`` is the reason for a player."""


@dataclass(frozen=True)
class GameInfo:
    """Static description of a game variant.

    ``name`` is the CLI/record name (e.g. ``"gobble-solitaire"``); ``realtime`` games have every live
    player active at once and no undo; ``rules_version`` is stored in records and must match on load.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    realtime: bool = False
    rules_version: int = 1


class Rules(Protocol):
    """What ``Match`` and the bots need from a game's rules engine."""

    info: GameInfo

    def default_config(self) -> dict[str, Any]:
        """Config used when none is given."""

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return a complete, normalised config; raise ``ValueError`` with a reason if it is bad."""

    def initial_state(self, config: dict[str, Any]) -> Any:
        """The state before any action (chance resolves the random set-up through the log)."""

    def active_players(self, state: Any) -> list[int]:
        """Players who may act now: ``[CHANCE]`` at a chance node, ``[]`` when the game is over."""

    def chance_outcomes(self, state: Any) -> list[tuple[Action, float]]:
        """At a chance node: every outcome with its probability (summing to 1)."""

    def legal_actions(self, state: Any, player: int) -> list[Action]:
        """Every legal action of ``player`` now (may be large; bots may use cheaper helpers)."""

    def check(self, state: Any, player: int, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``player`` may take ``action`` now."""

    def apply(self, state: Any, player: int, action: Action) -> tuple[Any, list[Event]]:
        """The state after a legal action, and the events it caused. Never mutates ``state``."""

    def is_terminal(self, state: Any) -> bool:
        """Whether the game is over."""

    def outcome(self, state: Any) -> dict[str, Any]:
        """Result of a finished (or current) state: scores and ranking, JSON-compatible."""

    def undoable(self, state: Any, player: int, action: Action) -> bool:
        """Whether ``action`` (just applied from ``state``) may be taken back by its player."""

    def invariants(self, state: Any) -> list[str]:
        """Broken invariants of ``state`` as messages (empty when all hold). Used by tests and fuzzing."""


class RealtimeRules(Rules, Protocol):
    """Extra hooks of real-time games (``info.realtime``): the match clock lives in the state.

    Before every action the match stamps the state with the match time (``at_time``), so timers and
    deadlines are pure functions of the log, where each entry carries its time ``t`` in s.
    """

    def at_time(self, state: Any, t: float) -> Any:
        """``state`` with its clock set to ``t`` s (never earlier than its current clock)."""

    def next_timer(self, state: Any) -> float | None:
        """Match time (s) at which the next timer fires, or None."""

    def timer_action(self, state: Any) -> Action:
        """The action ``CLOCK`` takes when the next timer fires (``next_timer(state) <= clock``)."""


class LanRules(Rules, Protocol):
    """Optional hooks that let a game be played over the LAN (``sim/net``) and its state cross the
    wire. A client draws its seat's view with the game's own screen, so the view is a state
    of the game's own type.
    """

    def observe(self, state: Any, seat: int) -> Any:
        """What ``seat`` may see: a state of the game's own type with the secrets of the other seats
        masked (e.g. Streetcar's route cards while their owners build). Raises ``ValueError`` for a
        seat not at the table."""

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """``state`` (usually an ``observe`` result) as a JSON-compatible object."""

    def state_from_json(self, obj: Any) -> Any:
        """The state ``state_to_json`` wrote; raises ``ValueError`` with a reason for anything else."""


def is_legal(rules: Rules, state: Any, player: int, action: Action) -> bool:
    """True when ``rules.check`` accepts the action."""
    try:
        rules.check(state, player, action)
    except IllegalAction:
        return False
    return True
