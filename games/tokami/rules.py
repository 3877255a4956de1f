"""Tokami rules (pure: no pygame, no physics, no clock, no global random state).

Seed rules (seeds/001), decided in specs/tokami.md "Rule terms"; the shared contract with the physics
side is the one described below. The rules never simulate: the physics side is the player ``PHYSICS``
and reports where every stick ended and which fell; the rules judge those reports with
``model.highest_point`` and ``model.fallen_by_pose``.

Course of a round (2 to 5 players, several rounds with running totals):

* ``colour`` (CHANCE): the 36 sticks (ids 0..35, the ids of ``model.cube_poses()``) get their colours
  one by one, 9 of each of blue, yellow, red and green (research §1: 36 / 4 inferred).
* ``settle`` (PHYSICS) with ``pending = {"why": "setup", "remove": []}``: the physics side builds the
  starting pile (``model.setup_poses``: the crisscross cube, or the free pile of config ``setup``),
  lets it settle and reports the poses.
* ``turn`` (the player): ``take`` one stick that is not taboo (touch-move: the first stick moved is the
  one used), or ``refuse`` while a taboo stick is on the X: the taboo stick becomes a minus stick
  (seed "Taboo Stick", exception).
* ``raise`` (PHYSICS): the outcome of the attempt. Anything fallen: the fallen sticks and the held one
  are minus sticks. Placed, nothing fallen and higher by more than ``model.RAISE_MARGIN`` mm: the raise
  succeeds. Otherwise the held stick is a minus stick (seed 3b and Fig. 2-4 "incorrect raise").
* ``winning`` (the player): ``draw`` one more stick (not taboo, not the one just raised) or ``end``.
* ``draw`` (PHYSICS): taken with nothing fallen is a winning stick, and all the player's minus sticks of
  its colour go back to the box (seed "Returning Minus Sticks": the "may" is always in the player's
  interest, so it is automatic). Anything fallen: fallen + drawn are minus sticks (seed 3a).
* Sticks still on the X that become minus sticks are first slid off by a ``settle`` with
  ``{"why": "refuse" | "remove", "remove": [ids]}``; sticks that fall meanwhile are minus sticks too.
* End of a turn: the next player's taboo stick is the stick this player raised successfully, if it is
  still on the X. When at most ``model.ROUND_END_STICKS`` sticks remain on the X the round ends: score
  = winning sticks that are not red - minus sticks (red included); the start player rotates by one.

Actions (JSON dicts; stick ids are ints; poses are ``model.pose_to_json`` lists keyed by ``str(id)``):
CHANCE ``{"t": "colour", "c": COLOUR}``; player ``{"t": "take", "stick": id}``, ``{"t": "refuse"}``,
``{"t": "draw", "stick": id}``, ``{"t": "end"}``; PHYSICS ``{"t": "settled", "poses", "fallen"}``,
``{"t": "raised", "placed": bool, "poses", "fallen"[, "hand"]}``,
``{"t": "drawn", "taken": bool, "poses", "fallen"[, "hand"]}``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

from sim.core.options import check as check_options
from sim.core.rules import CHANCE, PHYSICS, Action, Event, GameInfo, IllegalAction

from . import model
from .model import COLOURS, N_STICKS, PER_COLOUR, ROUND_END_STICKS, Pose
from .options import DEFAULT_ROUNDS, OPTIONS

TOKAMI_INFO = GameInfo(name="tokami", title="Tokami", min_players=2, max_players=5, realtime=False,
                       rules_version=1)

DEFAULT_PLAYERS = 3
#: Most entries a recorded hand track may hold (the rules keep it out of the state).
HAND_LIMIT = 20000

PHASES = ("colour", "settle", "turn", "raise", "winning", "draw", "over")
PLAYER_PHASES = ("turn", "winning")
PHYSICS_PHASES = ("settle", "raise", "draw")

#: Keys of ``TokamiState.last_turn`` (and of ``current``, without player and round).
TURN_KEYS = ("player", "round", "stick", "kind", "lane", "hp_before", "hp_after", "raised", "refused",
             "fallen", "winning", "minus", "returned")


@dataclass(frozen=True)
class TokamiState:
    """One position of a Tokami match. Never mutated: ``apply`` returns a new state (do not mutate the
    dicts it holds either).

    ``phase``: "colour" (CHANCE), "settle" / "raise" / "draw" (PHYSICS), "turn" / "winning" (the
    player), "over". ``player``: whose turn it is (owner of any minus sticks the physics outcome
    brings). ``round``: 0-based. ``colours``: 36 colour names, ``None`` until drawn. ``poses``: stick id
    -> pose ``(kind, lane, x, y, a)`` (mm, rad) of every stick on the X, empty before the set-up settle.
    ``taboo``: the stick the previous player raised, if still on the X. ``held``: the stick taken
    (phase raise) or drawn (phase draw). ``hp_before``: highest point (mm) of ``held`` at the start of
    the raise. ``pending``: in phase settle ``{"why": "setup" | "refuse" | "remove", "remove": [ids]}``.
    ``winning`` / ``minus``: per player, this round's winning and minus sticks (ids). ``returned``:
    minus sticks returned to the box this round (and set-up sticks that fell). ``totals``: per player,
    the sum of the finished rounds' scores; ``round_scores``: one tuple of scores per finished round.
    ``last_turn``: the last finished turn (keys ``TURN_KEYS``, hp in mm or None); ``current``: the turn
    in progress in the same form, without player and round. ``start``: who started this round.
    """

    phase: str
    player: int
    round: int
    colours: tuple
    poses: dict
    taboo: int | None
    held: int | None
    hp_before: float | None
    pending: dict | None
    winning: tuple
    minus: tuple
    returned: tuple
    totals: tuple
    round_scores: tuple
    last_turn: dict | None
    current: dict | None
    start: int
    n_rounds: int
    players: int
    practice: bool
    setup: str = "cube"

    @property
    def n_players(self) -> int:
        return self.players

    def on_x(self) -> set[int]:
        """Ids of the sticks on the X (the keys of ``poses``)."""
        return set(self.poses)


# ------------------------------------------------------------------------------ helpers
def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def stick_value(colour: str) -> int:
    """Points of a winning stick of ``colour``: red 0, any other 1 (seed "End of the Round")."""
    return 0 if colour == "red" else 1


def round_score(state: TokamiState, player: int) -> int:
    """``player``'s score from this round's sticks: winning sticks that are not red minus every minus
    stick, red included (seed "End of the Round and Winner")."""
    won = sum(stick_value(state.colours[i]) for i in state.winning[player])
    return won - len(state.minus[player])


def scores(state: TokamiState) -> list[int]:
    """This round's score so far per player (see :func:`round_score`); the finished rounds are in
    ``state.totals``. In phase "over" it is the last round's score (already in the totals)."""
    return [round_score(state, p) for p in range(state.n_players)]


def turn_summary(state: TokamiState) -> dict | None:
    """A copy of ``state.last_turn``: the last finished turn with the keys ``TURN_KEYS`` (None before
    the first turn ends)."""
    if state.last_turn is None:
        return None
    return {k: (list(v) if isinstance(v, list) else v) for k, v in state.last_turn.items()}


def raise_succeeds(hp_before: float, pose: Pose) -> bool:
    """Whether a stick whose highest point was ``hp_before`` mm is now higher: its highest point in
    ``pose`` beats it by more than ``model.RAISE_MARGIN`` mm (specs/tokami.md "Raise")."""
    return model.highest_point(pose) > hp_before + model.RAISE_MARGIN


def _fresh_turn(stick: int, pose: Pose) -> dict:
    return {"stick": stick, "kind": pose[0], "lane": pose[1], "hp_before": None, "hp_after": None,
            "raised": False, "refused": False, "fallen": [], "winning": None, "minus": [], "returned": []}


def _describe(ids) -> str:
    return ", ".join(str(i) for i in sorted(ids))


# -------------------------------------------------------------------------------- rules
class TokamiRules:
    """The Tokami rules engine. Config: ``players`` 2..5, ``rounds`` 1..20 (default 3), ``practice`` (bool; the rules only record it: practice undo is the screen seeking back),
    ``setup`` ("cube", the default: the crisscross cube; "free": sticks dropped in loosely,
    ``model.free_poses`` seeded by the drawn colours, settled by physics)."""

    info = TOKAMI_INFO

    # ------------------------------------------------------------------------- config
    def default_config(self) -> dict[str, Any]:
        return {"players": DEFAULT_PLAYERS, "rounds": DEFAULT_ROUNDS, "practice": False}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Complete and check ``config``. Raises ``ValueError`` with a reason."""
        if not isinstance(config, dict):
            raise ValueError("the config must be an object")
        known = {"players", "rounds", "practice", "setup"}
        for k in config:
            if k not in known:
                raise ValueError(f"unknown option {k!r}")
        n = config.get("players", DEFAULT_PLAYERS)
        if not _int(n) or not TOKAMI_INFO.min_players <= n <= TOKAMI_INFO.max_players:
            raise ValueError("players must be 2 to 5")
        out = check_options(OPTIONS, {k: v for k, v in config.items() if k != "players"})
        out.update(players=n)
        return out

    def initial_state(self, config: dict[str, Any]) -> TokamiState:
        n = config["players"]
        return TokamiState(phase="colour", player=0, round=0, colours=(None,) * N_STICKS, poses={},
                           taboo=None, held=None, hp_before=None, pending=None, winning=((),) * n,
                           minus=((),) * n, returned=(), totals=(0,) * n, round_scores=(), last_turn=None,
                           current=None, start=0, n_rounds=config["rounds"], players=n,
                           practice=bool(config["practice"]), setup=config.get("setup", "cube"))

    # ------------------------------------------------------------------------ who acts
    def active_players(self, s: TokamiState) -> list[int]:
        if s.phase == "colour":
            return [CHANCE]
        if s.phase in PHYSICS_PHASES:
            return [PHYSICS]
        if s.phase in PLAYER_PHASES:
            return [s.player]
        return []

    def chance_outcomes(self, s: TokamiState) -> list[tuple[Action, float]]:
        """Phase colour: the next stick's colour, each with probability remaining of that colour /
        sticks still to colour (9 of each colour per round). Elsewhere: []."""
        if s.phase != "colour":
            return []
        left = self._colours_left(s)
        total = sum(left.values())
        return [({"t": "colour", "c": c}, left[c] / total) for c in COLOURS if left[c] > 0]

    @staticmethod
    def _colours_left(s: TokamiState) -> dict[str, int]:
        used = model.colour_counts(c for c in s.colours if c is not None)
        return {c: PER_COLOUR - used[c] for c in COLOURS}

    # ------------------------------------------------------------------------ legality
    def takeable(self, s: TokamiState) -> list[int]:
        """Sticks the player may take in phase turn (on the X, not taboo), else []."""
        if s.phase != "turn":
            return []
        return [i for i in sorted(s.poses) if i != s.taboo]

    def drawable(self, s: TokamiState) -> list[int]:
        """Sticks the player may draw in phase winning (on the X, not taboo, not the stick just
        raised), else []."""
        if s.phase != "winning":
            return []
        raised = s.current["stick"] if s.current else None
        return [i for i in sorted(s.poses) if i != s.taboo and i != raised]

    def legal_actions(self, s: TokamiState, player: int) -> list[Action]:
        """Player phases: every take (and refuse while a taboo stick is on the X), or every draw and
        end. PHYSICS and CHANCE get [] (physics outcomes are not enumerable; chance has
        :meth:`chance_outcomes`)."""
        if s.phase not in PLAYER_PHASES or player != s.player:
            return []
        if s.phase == "turn":
            out: list[Action] = [{"t": "take", "stick": i} for i in self.takeable(s)]
            if s.taboo is not None and s.taboo in s.poses:
                out.append({"t": "refuse"})
            return out
        return [{"t": "draw", "stick": i} for i in self.drawable(s)] + [{"t": "end"}]

    def check(self, s: TokamiState, player: int, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``player`` may take ``action`` now: the
        right phase and player, a stick on the X that is not taboo (nor the stick just raised, for a
        draw), and for PHYSICS outcomes poses and fallen sticks that match the sticks on the X
        exactly (see :meth:`_parse_physics`), with a hand track of at most ``HAND_LIMIT`` entries."""
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        t = action.get("t")
        if s.phase == "over":
            raise IllegalAction("the game is over")
        if player == CHANCE:
            return self._check_colour(s, action)
        if player == PHYSICS:
            if s.phase == "colour":
                raise IllegalAction("no physics outcome is due now: the sticks are still being coloured")
            if s.phase not in PHYSICS_PHASES:
                raise IllegalAction("no physics outcome is due now: it is a player's move")
            return self._check_physics(s, action)
        if not _int(player) or not 0 <= player < s.n_players:
            raise IllegalAction(f"there is no player {player!r}")
        if s.phase in PHYSICS_PHASES:
            what = {"settle": "the pile is settling", "raise": "the raise is under way",
                    "draw": "the winning stick is being drawn"}[s.phase]
            raise IllegalAction(f"{what}: only its physical outcome can come next (touch-move: one stick "
                                f"per try)")
        if s.phase == "colour":
            raise IllegalAction("the sticks are being set up")
        if player != s.player:
            raise IllegalAction(f"it is player {s.player + 1}'s turn")
        if t == "take":
            self._keys(action, {"t", "stick"}, "a take needs exactly the stick")
            if s.phase != "turn":
                raise IllegalAction("you have already raised a stick this turn (touch-move): draw a winning "
                                    "stick or end your turn")
            i = self._stick(s, action["stick"])
            if i == s.taboo:
                raise IllegalAction(f"stick {i} is taboo: the previous player raised it")
            return None
        if t == "refuse":
            self._keys(action, {"t"}, "a refusal takes no options")
            if s.phase != "turn":
                raise IllegalAction("you can refuse only at the start of your turn")
            if s.taboo is None or s.taboo not in s.poses:
                raise IllegalAction("there is no taboo stick on the X to take instead: you must try a stick")
            return None
        if t == "draw":
            self._keys(action, {"t", "stick"}, "a draw needs exactly the stick")
            if s.phase != "winning":
                raise IllegalAction("a winning stick may be drawn only after a successful raise")
            i = self._stick(s, action["stick"])
            if i == s.taboo:
                raise IllegalAction(f"stick {i} is taboo: the previous player raised it")
            if s.current and i == s.current["stick"]:
                raise IllegalAction(f"stick {i} is the one you just raised: draw another")
            return None
        if t == "end":
            self._keys(action, {"t"}, "ending the turn takes no options")
            if s.phase != "winning":
                raise IllegalAction("you must try a stick (or refuse) before your turn can end")
            return None
        if t in ("colour", "settled", "raised", "drawn"):
            raise IllegalAction(f"a {t!r} outcome is not a player's action")
        raise IllegalAction(f"unknown action {t!r}")

    @staticmethod
    def _keys(action: Action, keys: set[str], why: str, optional: frozenset = frozenset()) -> None:
        have = set(action)
        if not keys <= have or not have <= keys | optional:
            raise IllegalAction(why)

    @staticmethod
    def _stick(s: TokamiState, v: Any) -> int:
        if not _int(v) or not 0 <= v < N_STICKS:
            raise IllegalAction(f"a stick is a number 0..{N_STICKS - 1}, not {v!r}")
        if v not in s.poses:
            raise IllegalAction(f"stick {v} is not on the X")
        return v

    def _check_colour(self, s: TokamiState, action: Action) -> None:
        if s.phase != "colour":
            raise IllegalAction("no colour is being drawn now")
        self._keys(action, {"t", "c"}, "a colour draw needs exactly the colour")
        if action["t"] != "colour":
            raise IllegalAction(f"chance draws colours here, not {action['t']!r}")
        c = action["c"]
        if c not in COLOURS:
            raise IllegalAction(f"unknown colour {c!r}")
        if self._colours_left(s)[c] <= 0:
            raise IllegalAction(f"all {PER_COLOUR} {c} sticks are already coloured")

    # --------------------------------------------------------------- physics outcomes
    def _check_physics(self, s: TokamiState, action: Action) -> None:
        self._parse_physics(s, action)

    def _parse_physics(self, s: TokamiState, action: Action) -> tuple[dict[int, Pose], list[int], bool]:
        """Check a PHYSICS action against the phase; return (poses, fallen, flag) where flag is
        ``placed`` / ``taken`` (True for settled). Raises IllegalAction naming the problem."""
        t = action.get("t")
        want = {"settle": "settled", "raise": "raised", "draw": "drawn"}[s.phase]
        if t != want:
            raise IllegalAction(f"phase {s.phase} expects a {want!r} outcome, not {t!r}")
        flag = True
        if t == "settled":
            self._keys(action, {"t", "poses", "fallen"}, "a settled outcome has exactly poses and fallen")
        else:
            key = "placed" if t == "raised" else "taken"
            self._keys(action, {"t", key, "poses", "fallen"}, f"a {t} outcome has {key}, poses, fallen "
                       f"and optionally hand", frozenset({"hand"}))
            flag = action[key]
            if not isinstance(flag, bool):
                raise IllegalAction(f"{key} must be true or false")
            if "hand" in action:
                hand = action["hand"]
                if not isinstance(hand, list):
                    raise IllegalAction("the hand track must be a list")
                if len(hand) > HAND_LIMIT:
                    raise IllegalAction(f"the hand track has {len(hand)} entries, at most {HAND_LIMIT}")
        setup = t == "settled" and s.pending["why"] == "setup"
        on_x = set(range(N_STICKS)) if setup else set(s.poses)
        before = dict(enumerate(model.setup_poses(s.setup, s.colours))) if setup else s.poses
        if t == "settled":
            remove = set(s.pending["remove"])
            may_fall = on_x - remove
        else:
            remove = set()
            may_fall = on_x
        fallen = action["fallen"]
        if not isinstance(fallen, list) or not all(_int(i) for i in fallen):
            raise IllegalAction("fallen must be a list of stick ids")
        if len(set(fallen)) != len(fallen):
            raise IllegalAction("a fallen stick is listed twice")
        bad = set(fallen) - may_fall
        if bad:
            raise IllegalAction(f"fallen stick(s) {_describe(bad)} were not on the X"
                                + (" (or were being removed)" if remove & bad else ""))
        if t == "drawn" and flag and s.held in fallen:
            raise IllegalAction(f"the drawn stick {s.held} cannot be both taken and fallen")
        expect = may_fall - set(fallen)
        if t == "raised" and not flag:
            expect.discard(s.held)
        if t == "drawn" and flag:
            expect.discard(s.held)
        raw = action["poses"]
        if not isinstance(raw, dict):
            raise IllegalAction("poses must be an object keyed by stick id")
        poses: dict[int, Pose] = {}
        for k, v in raw.items():
            if not isinstance(k, str) or not k.isdigit() or str(int(k)) != k:
                raise IllegalAction(f"pose key {k!r} is not a stick id")
            i = int(k)
            try:
                p = model.pose_from_json(v)
            except ValueError as e:
                raise IllegalAction(f"stick {i}: {e}") from None
            poses[i] = p
        if set(poses) != expect:
            missing, extra = expect - set(poses), set(poses) - expect
            parts = []
            if missing:
                parts.append(f"missing {_describe(missing)}")
            if extra:
                parts.append(f"unexpected {_describe(extra)}")
            raise IllegalAction("poses must cover exactly the sticks left on the X: " + "; ".join(parts))
        free = s.held if t == "raised" else None
        for i, p in sorted(poses.items()):
            if i != free and (p[0], p[1]) != (before[i][0], before[i][1]):
                raise IllegalAction(f"stick {i} lies {before[i][0]} (lane {before[i][1]}) and only the stick "
                                    f"in hand can change that, not to {p[0]} (lane {p[1]})")
            if model.fallen_by_pose(p):
                raise IllegalAction(f"stick {i} is below the crossing or out of the world: it has fallen and "
                                    f"must be listed as fallen")
        return poses, list(fallen), flag

    # ---------------------------------------------------------------------------- apply
    def apply(self, s: TokamiState, player: int, action: Action) -> tuple[TokamiState, list[Event]]:
        """The state after a checked action, and its events (``{"e": "colour" | "setup" | "take" |
        "refuse" | "raise" | "fall" | "minus" | "draw" | "not_taken" | "winning" | "return" | "end" |
        "turn_end" | "round_end" | "over", ...}``). Never mutates ``s``."""
        t = action["t"]
        ev: list[Event] = []
        if player == CHANCE:
            i = sum(1 for c in s.colours if c is not None)
            colours = s.colours[:i] + (action["c"],) + s.colours[i + 1:]
            ev.append({"e": "colour", "stick": i, "c": action["c"]})
            s = replace(s, colours=colours)
            if i + 1 == N_STICKS:
                s = replace(s, phase="settle", pending={"why": "setup", "remove": []})
            return s, ev
        if player == PHYSICS:
            poses, fallen, flag = self._parse_physics(s, action)
            if t == "settled":
                return self._settled(s, poses, fallen, ev)
            if t == "raised":
                return self._raised(s, poses, fallen, flag, ev)
            return self._drawn(s, poses, fallen, flag, ev)
        p = s.player
        if t == "take":
            i = action["stick"]
            ev.append({"e": "take", "player": p, "stick": i})
            cur = _fresh_turn(i, s.poses[i])
            hp = model.highest_point(s.poses[i])
            cur["hp_before"] = hp
            return replace(s, phase="raise", held=i, hp_before=hp, current=cur), ev
        if t == "refuse":
            i = s.taboo
            ev.append({"e": "refuse", "player": p, "stick": i})
            cur = _fresh_turn(i, s.poses[i])
            cur["refused"] = True
            return replace(s, phase="settle", pending={"why": "refuse", "remove": [i]}, current=cur), ev
        if t == "draw":
            i = action["stick"]
            ev.append({"e": "draw", "player": p, "stick": i})
            return replace(s, phase="draw", held=i), ev
        if t == "end":
            ev.append({"e": "end", "player": p})
            return self._end_turn(s, ev)
        raise IllegalAction(f"unknown action {t!r}")

    # -- the pieces of a turn
    @staticmethod
    def _with_poses(s: TokamiState, poses: dict) -> TokamiState:
        """New poses; a taboo stick that left the X is no longer taboo (nothing left to protect)."""
        return replace(s, poses=poses, taboo=s.taboo if s.taboo in poses else None)

    @staticmethod
    def _with_minus(s: TokamiState, ids: list[int], ev: list[Event]) -> TokamiState:
        """``ids`` become the active player's minus sticks (recorded in ``current`` too)."""
        if not ids:
            return s
        p = s.player
        minus = list(s.minus)
        minus[p] = minus[p] + tuple(ids)
        cur = dict(s.current)
        cur["minus"] = cur["minus"] + list(ids)
        ev.append({"e": "minus", "player": p, "sticks": list(ids)})
        return replace(s, minus=tuple(minus), current=cur)

    @staticmethod
    def _with_fallen(s: TokamiState, fallen: list[int], ev: list[Event]) -> TokamiState:
        if not fallen:
            return s
        cur = dict(s.current)
        cur["fallen"] = cur["fallen"] + list(fallen)
        ev.append({"e": "fall", "player": s.player, "sticks": list(fallen)})
        return replace(s, current=cur)

    def _settled(self, s: TokamiState, poses: dict, fallen: list[int], ev: list[Event]):
        why = s.pending["why"]
        remove = list(s.pending["remove"])
        if why == "setup":
            ev.append({"e": "setup", "round": s.round, "fallen": list(fallen)})
            s = replace(s, poses=poses, pending=None, returned=s.returned + tuple(fallen), phase="turn",
                        player=s.start, taboo=None, held=None, hp_before=None, current=None)
            if len(poses) <= ROUND_END_STICKS:
                return self._end_round(s, ev)
            return s, ev
        s = replace(self._with_poses(s, poses), pending=None)
        s = self._with_fallen(s, fallen, ev)
        s = self._with_minus(s, remove + list(fallen), ev)
        return self._end_turn(s, ev)

    def _raised(self, s: TokamiState, poses: dict, fallen: list[int], placed: bool, ev: list[Event]):
        held, hp0 = s.held, s.hp_before
        cur = dict(s.current)
        on = held in poses
        if on:
            cur["kind"], cur["lane"] = poses[held][0], poses[held][1]
            cur["hp_after"] = model.highest_point(poses[held])
        s = replace(self._with_poses(s, poses), current=cur, held=None, hp_before=None)
        s = self._with_fallen(s, fallen, ev)
        ok = not fallen and placed and on and raise_succeeds(hp0, poses[held])
        ev.append({"e": "raise", "player": s.player, "stick": held, "ok": ok, "hp_before": hp0,
                   "hp_after": cur["hp_after"]})
        if ok:
            cur = dict(s.current)
            cur["raised"] = True
            return replace(s, phase="winning", current=cur), ev
        s = self._with_minus(s, list(fallen) + ([] if on or held in fallen else [held]), ev)
        if on:
            return replace(s, phase="settle", pending={"why": "remove", "remove": [held]}), ev
        return self._end_turn(s, ev)

    def _drawn(self, s: TokamiState, poses: dict, fallen: list[int], taken: bool, ev: list[Event]):
        held = s.held
        s = replace(self._with_poses(s, poses), held=None)
        s = self._with_fallen(s, fallen, ev)
        if fallen:
            on = held in poses
            s = self._with_minus(s, list(fallen) + ([] if on or held in fallen else [held]), ev)
            if on:
                return replace(s, phase="settle", pending={"why": "remove", "remove": [held]}), ev
            return self._end_turn(s, ev)
        if not taken:
            ev.append({"e": "not_taken", "player": s.player, "stick": held})
            return self._end_turn(s, ev)
        p = s.player
        colour = s.colours[held]
        winning = list(s.winning)
        winning[p] = winning[p] + (held,)
        back = [i for i in s.minus[p] if s.colours[i] == colour]
        minus = list(s.minus)
        minus[p] = tuple(i for i in s.minus[p] if s.colours[i] != colour)
        cur = dict(s.current)
        cur["winning"] = held
        cur["returned"] = cur["returned"] + back
        ev.append({"e": "winning", "player": p, "stick": held, "colour": colour})
        if back:
            ev.append({"e": "return", "player": p, "sticks": back, "colour": colour})
        s = replace(s, winning=tuple(winning), minus=tuple(minus), returned=s.returned + tuple(back),
                    current=cur)
        return self._end_turn(s, ev)

    def _end_turn(self, s: TokamiState, ev: list[Event]) -> tuple[TokamiState, list[Event]]:
        cur = s.current
        last = {"player": s.player, "round": s.round, **cur}
        taboo = cur["stick"] if cur["raised"] and cur["stick"] in s.poses else None
        ev.append({"e": "turn_end", **turn_summary(replace(s, last_turn=last))})
        s = replace(s, last_turn=last, current=None, held=None, hp_before=None, pending=None)
        if len(s.poses) <= ROUND_END_STICKS:
            return self._end_round(s, ev)
        return replace(s, phase="turn", player=(s.player + 1) % s.n_players, taboo=taboo), ev

    def _end_round(self, s: TokamiState, ev: list[Event]) -> tuple[TokamiState, list[Event]]:
        sc = tuple(scores(s))
        totals = tuple(a + b for a, b in zip(s.totals, sc))
        ev.append({"e": "round_end", "round": s.round, "scores": list(sc), "totals": list(totals)})
        s = replace(s, totals=totals, round_scores=s.round_scores + (sc,), taboo=None, held=None,
                    hp_before=None, pending=None, current=None)
        if s.round + 1 >= s.n_rounds:
            ev.append({"e": "over", "totals": list(totals)})
            return replace(s, phase="over"), ev
        n = s.n_players
        start = (s.start + 1) % n
        return replace(s, phase="colour", round=s.round + 1, start=start, player=start,
                       colours=(None,) * N_STICKS, poses={}, winning=((),) * n, minus=((),) * n,
                       returned=()), ev

    # --------------------------------------------------------------------------- results
    def is_terminal(self, s: TokamiState) -> bool:
        return s.phase == "over"

    def outcome(self, s: TokamiState) -> dict[str, Any]:
        """``{"totals": [per player], "rounds": [[score per player] per finished round], "ranking":
        [players, best total first, seat order on a tie], "winners": [players with the best total]}``."""
        totals = list(s.totals)
        ranking = sorted(range(s.n_players), key=lambda p: (-totals[p], p))
        best = max(totals)
        return {"totals": totals, "rounds": [list(r) for r in s.round_scores], "ranking": ranking,
                "winners": [p for p in range(s.n_players) if totals[p] == best]}

    def undoable(self, s: TokamiState, player: int, action: Action) -> bool:
        """Never: touch-move binds every take, and physics outcomes are undo barriers anyway."""
        return False

    # ------------------------------------------------------------ LAN play (sim/core/rules.py)
    def observe(self, s: TokamiState, seat: int) -> TokamiState:
        """What ``seat`` may see: everything (Tokami has no hidden information: colours are drawn in
        the open). Raises ``ValueError`` for a seat not at the table."""
        if not _int(seat) or not 0 <= seat < s.n_players:
            raise ValueError(f"no seat {seat!r}")
        return s

    def state_to_json(self, s: TokamiState) -> dict[str, Any]:
        """``s`` as a JSON object: the dataclass fields, tuples as lists, poses keyed by ``str(id)``
        (``model.pose_to_json``)."""
        def turn(d):
            return None if d is None else {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in d.items()}
        return {
            "phase": s.phase, "player": s.player, "round": s.round, "colours": list(s.colours),
            "poses": {str(i): model.pose_to_json(s.poses[i]) for i in sorted(s.poses)},
            "taboo": s.taboo, "held": s.held, "hp_before": s.hp_before,
            "pending": None if s.pending is None else {"why": s.pending["why"], "remove": list(s.pending["remove"])},
            "winning": [list(w) for w in s.winning], "minus": [list(m) for m in s.minus],
            "returned": list(s.returned), "totals": list(s.totals),
            "round_scores": [list(r) for r in s.round_scores], "last_turn": turn(s.last_turn),
            "current": turn(s.current), "start": s.start, "n_rounds": s.n_rounds, "players": s.players,
            "practice": s.practice, "setup": s.setup}

    def state_from_json(self, obj: Any) -> TokamiState:
        """The state :meth:`state_to_json` wrote; ``ValueError`` with a reason if ``obj`` is not one (a
        wrong key set or type, a bad pose, or a broken invariant)."""
        names = {f.name for f in fields(TokamiState)}
        if not isinstance(obj, dict) or set(obj) != names:
            raise ValueError("a Tokami state has exactly the keys " + ", ".join(sorted(names)))

        def ints(v, what):
            if not isinstance(v, list) or not all(_int(x) for x in v):
                raise ValueError(f"{what} must be a list of whole numbers")
            return tuple(v)

        def opt_num(v, what):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                raise ValueError(f"{what} must be a number or null")
            return None if v is None else float(v)

        def turn(d, what):
            if d is None:
                return None
            keys = set(TURN_KEYS) - ({"player", "round"} if what == "current" else set())
            if not isinstance(d, dict) or set(d) != keys:
                raise ValueError(f"{what} has exactly the keys " + ", ".join(sorted(keys)))
            out = dict(d)
            for k in ("fallen", "minus", "returned"):
                out[k] = list(ints(d[k], f"{what}.{k}"))
            for k in ("hp_before", "hp_after"):
                out[k] = opt_num(d[k], f"{what}.{k}")
            for k in ("raised", "refused"):
                if not isinstance(d[k], bool):
                    raise ValueError(f"{what}.{k} must be true or false")
            for k in ("stick", "lane") + (("player", "round") if what != "current" else ()):
                if not _int(d[k]):
                    raise ValueError(f"{what}.{k} must be a whole number")
            if d["kind"] not in ("across", "along") or (d["winning"] is not None and not _int(d["winning"])):
                raise ValueError(f"{what}: bad kind or winning stick")
            return out

        n = obj["players"]
        if not _int(n) or not TOKAMI_INFO.min_players <= n <= TOKAMI_INFO.max_players:
            raise ValueError("players must be 2 to 5")
        for k in ("player", "round", "start", "n_rounds"):
            if not _int(obj[k]):
                raise ValueError(f"{k} must be a whole number")
        for k in ("taboo", "held"):
            if obj[k] is not None and not _int(obj[k]):
                raise ValueError(f"{k} must be a stick id or null")
        if not isinstance(obj["practice"], bool) or obj["setup"] not in ("cube", "free") \
                or not isinstance(obj["phase"], str):
            raise ValueError("bad practice, setup or phase")
        cols = obj["colours"]
        if not isinstance(cols, list) or not all(c is None or c in COLOURS for c in cols):
            raise ValueError("colours must be a list of colour names or null")
        raw = obj["poses"]
        if not isinstance(raw, dict) or len(raw) > N_STICKS:
            raise ValueError("poses must be an object keyed by stick id")
        poses = {}
        for k, v in raw.items():
            if not isinstance(k, str) or not k.isdigit() or str(int(k)) != k:
                raise ValueError(f"pose key {k[:8]!r} is not a stick id")
            poses[int(k)] = model.pose_from_json(v)
        pend = obj["pending"]
        if pend is not None:
            if not isinstance(pend, dict) or set(pend) != {"why", "remove"}:
                raise ValueError("pending has exactly why and remove")
            pend = {"why": pend["why"], "remove": list(ints(pend["remove"], "pending.remove"))}
        for k in ("winning", "minus", "round_scores"):
            if not isinstance(obj[k], list):
                raise ValueError(f"{k} must be a list")
        s = TokamiState(
            phase=obj["phase"], player=obj["player"], round=obj["round"], colours=tuple(cols), poses=poses,
            taboo=obj["taboo"], held=obj["held"], hp_before=opt_num(obj["hp_before"], "hp_before"),
            pending=pend, winning=tuple(ints(w, "winning") for w in obj["winning"]),
            minus=tuple(ints(m, "minus") for m in obj["minus"]), returned=ints(obj["returned"], "returned"),
            totals=ints(obj["totals"], "totals"),
            round_scores=tuple(ints(r, "round_scores") for r in obj["round_scores"]),
            last_turn=turn(obj["last_turn"], "last_turn"), current=turn(obj["current"], "current"),
            start=obj["start"], n_rounds=obj["n_rounds"], players=n, practice=obj["practice"],
            setup=obj["setup"])
        if len(s.winning) != n or len(s.minus) != n or len(s.totals) != n \
                or any(len(r) != n for r in s.round_scores):
            raise ValueError("a per-player list of the wrong length")
        try:
            bad = self.invariants(s)
        except (IndexError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a Tokami position ({e.__class__.__name__})") from None
        if bad:
            raise ValueError(f"not a Tokami position: {bad[0]}")
        return s

    def invariants(self, s: TokamiState) -> list[str]:
        """Broken invariants as messages: colours (a drawn prefix, at most 9 of each, all 36 once play
        starts); every stick in exactly one place (the pile being set up, or on the X, or a player's
        winning or minus sticks, or the box); poses only for sticks on the X, none of them fallen;
        ``held``, ``hp_before``, ``pending``, ``taboo`` and ``current`` only in their phases; totals
        the sum of the finished rounds."""
        bad: list[str] = []
        n = s.n_players
        if s.phase not in PHASES:
            return [f"unknown phase {s.phase!r}"]
        if not 0 <= s.player < n or not 0 <= s.start < n:
            bad.append("player or start player out of range")
        if not 0 <= s.round < s.n_rounds:
            bad.append(f"round {s.round} out of range")
        # colours: a drawn prefix, at most 9 of each; all 36 once the set-up starts
        drawn = [c for c in s.colours if c is not None]
        if len(s.colours) != N_STICKS or any(c is not None for c in s.colours[len(drawn):]):
            bad.append("colours are not a drawn prefix of 36")
        if any(c not in COLOURS for c in drawn):
            bad.append("unknown colour")
        counts = model.colour_counts(c for c in drawn if c in COLOURS)
        if any(v > PER_COLOUR for v in counts.values()):
            bad.append(f"more than {PER_COLOUR} sticks of a colour: {counts}")
        piling = s.phase == "colour" or (s.phase == "settle" and s.pending and s.pending.get("why") == "setup")
        if s.phase != "colour" and len(drawn) != N_STICKS:
            bad.append("sticks in play without a colour")
        # every stick in exactly one place
        places: list[int] = list(range(N_STICKS)) if piling else list(s.poses)
        for p in range(n):
            places += list(s.winning[p]) + list(s.minus[p])
        places += list(s.returned)
        if piling and (s.poses or any(s.winning) or any(s.minus) or s.returned):
            bad.append("sticks outside the pile while it is being set up")
        if sorted(places) != list(range(N_STICKS)):
            bad.append(f"sticks not conserved: {len(places)} places for {len(set(places))} distinct sticks")
        for i, pose in s.poses.items():
            if not _int(i) or not 0 <= i < N_STICKS:
                bad.append(f"pose for a stick id {i!r}")
                continue
            try:
                if model.pose_from_json(model.pose_to_json(pose)) != pose:
                    bad.append(f"stick {i}: pose not in normal form")
            except (ValueError, TypeError) as e:
                bad.append(f"stick {i}: {e}")
                continue
            if model.fallen_by_pose(pose):
                bad.append(f"stick {i} is on the X in a fallen pose")
        # phase-bound fields
        if (s.held is not None) != (s.phase in ("raise", "draw")):
            bad.append("held stick outside phases raise and draw (or missing)")
        if s.held is not None and s.held not in s.poses:
            bad.append(f"held stick {s.held} is not on the X")
        if s.phase == "raise" and s.held in s.poses and s.hp_before != model.highest_point(s.poses[s.held]):
            bad.append("hp_before is not the held stick's highest point")
        if s.phase != "raise" and s.hp_before is not None:
            bad.append("hp_before outside phase raise")
        if (s.pending is not None) != (s.phase == "settle"):
            bad.append("pending outside phase settle (or missing)")
        if s.pending is not None:
            if s.pending.get("why") not in ("setup", "refuse", "remove"):
                bad.append(f"unknown settle reason {s.pending.get('why')!r}")
            if not set(s.pending.get("remove", [])) <= set(s.poses):
                bad.append("a stick to remove is not on the X")
        if s.taboo is not None:
            if s.taboo not in s.poses:
                bad.append(f"taboo stick {s.taboo} is not on the X")
            if s.phase in ("colour", "over"):
                bad.append("a taboo stick between rounds")
        in_turn = s.phase in ("raise", "winning", "draw") or (s.phase == "settle" and not piling)
        if (s.current is not None) != in_turn:
            bad.append("turn record present outside a turn (or missing in one)")
        if s.phase == "winning" and s.current is not None:
            if not s.current["raised"] or s.current["stick"] not in s.poses:
                bad.append("phase winning without a successful raise of a stick on the X")
        if s.phase in ("turn", "raise", "winning", "draw") and len(s.poses) <= ROUND_END_STICKS:
            bad.append(f"a turn with only {len(s.poses)} sticks on the X")
        # scores
        over = s.phase == "over"
        if len(s.round_scores) != s.round + (1 if over else 0):
            bad.append("finished rounds do not match the round number")
        if over and len(s.round_scores) != s.n_rounds:
            bad.append("game over before the last round")
        sums = [sum(r[p] for r in s.round_scores) for p in range(n)]
        if list(s.totals) != sums:
            bad.append(f"totals {list(s.totals)} are not the sum of the rounds {sums}")
        return bad
