"""Tom Tube rules engine (pure: no pygame, no clock, no global random state).

The rulebook (seed 000) with the model of research/tomtube.md §3 and every resolution of §5 (the spec,
specs/tomtube.md). Players: 0 = Tom (top base, orange), 1 = Dave (bottom base, red).

A turn (rulebook "One Turn"; research §3.9-§3.11) is either

* **placing tubes**: the player declares ``{"t": "draw"}``; chance draws the top rhomb of the shuffled
  stack (``{"t": "rhomb", "id": "R07"}``, each remaining rhomb equally likely: a draw is an undo
  barrier); he places it on any slot (two free neighbouring space triangles) in either orientation,
  ``{"t": "place", "slot": s, "flip": 0|1}``; every isolated space triangle must then be filled with his
  own triangles, ``{"t": "fill", "tri": t, "piece": "arc"|"Y"|"plain", "rot": k}``; once he has none
  left the other player may fill the rest (same action) or leave them empty, ``{"t": "leave"}`` (A6);
  finally counters go onto the spheres completed this turn (A7): an energy counter on a new energy
  sphere, a control counter on a knot with exactly one tube end, an alien counter on one with none;
* **moving the astronaut**: ``{"t": "move", "mode": "drift"|"control"|"jump", "to": node}``: a free
  drift through own, neutral and printed tubes, a drift through every colour paying a control counter,
  or a space jump along one space edge paying an energy counter. He picks up the counter he stops on.

``{"t": "exchange"}`` turns one alien counter of the player's supply into one control and two energy
counters from the stock, at any time during his own turn before he places or moves (A9). If the first
player is chosen at random, chance starts with ``{"t": "first", "player": p}`` (A18).

A player who can neither place nor move is skipped (event ``skip``); if neither can act, the game ends.
The game ends with a bonus (A16), without a bonus (A13), by stranding (A14, A15) or blocked; ties go to
the astronaut who came home first (A17). The config's ``turn_limit`` ends an endless game (a computer
safeguard the rulebook does not need).

Node ids are those of ``geometry`` (``"q,r"`` knots, module names, ``"c<slot>"`` energy spheres).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sim.core.options import check as check_options, over_defaults
from sim.core.rules import CHANCE, Action, Event, GameInfo, IllegalAction

from .board import Board
from .data import (ALIEN_EXCHANGE, BASES, BONUS_POINTS_PER_TURN, COUNTER_KINDS, MODULES, PIECE_ROTATIONS,
                   PLAYER_NAMES, POINTS, RHOMB_BY_ID, RHOMB_IDS, SOLAR_PER_PLAYER, SOLARS, START_ENERGY, STOCK,
                   TRIANGLE_PIECES, TRIANGLE_SET)
from .geometry import INTERIOR, MODULE_BY_NAME, SLOTS, TRIANGLES, node_kind
from .moves import can_reach_home, cannot_ever_move, drift_paths, jump_targets
from .options import OPTIONS

INFO = GameInfo(name="tomtube", title="Tom Tube", min_players=2, max_players=2, realtime=False, rules_version=1)

E, C, A, S = 0, 1, 2, 3  #: supply indices: energy, control, alien, solar
KIND_INDEX = {"energy": E, "control": C, "alien": A}
MODES = ("drift", "control", "jump")
PHASES = ("first", "turn", "draw", "place", "fill", "fill_other", "over")
ENDS = ("bonus", "no_bonus", "stranded", "blocked", "turn_limit")
DEFAULT_TURN_LIMIT = 300


@dataclass(frozen=True)
class TomTubeState:
    """One position of Tom Tube (never mutated).

    ``board``: tiles and tubes; ``stack``: rhomb ids still face down (sorted); ``drawn``: the rhomb in
    the active player's hand; ``hands[p]``: his triangles left per design, in ``TRIANGLE_PIECES`` order;
    ``at[p]``: his astronaut's node; ``supply[p]``: counters on his base as (energy, control, alien,
    solar); ``stock``: (energy, control, alien) beside the board; ``counters``: node -> "energy" |
    "control" | "alien" on the board; ``solar_left``: solar modules still holding their solar counter;
    ``turn``: whose turn it is; ``phase``: one of ``PHASES``; ``new_knots``: interior knots completed
    during this turn so far; ``turns``: turns played; ``bonus_for``: the faster astronaut once the
    bonus phase runs, ``bonus_turns``: the slower one's turns counted so far; ``home_since[p]``: the
    turn he last came home (None if he is out or never left); ``end``: why the game ended;
    ``stranded[p]``: lost in space.
    """

    config: dict[str, Any]
    board: Board
    stack: tuple[str, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    at: tuple[str, str]
    supply: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    stock: tuple[int, int, int]
    counters: dict[str, str]
    solar_left: frozenset[str]
    turn: int = 0
    phase: str = "turn"
    drawn: str | None = None
    new_knots: frozenset[str] = frozenset()
    turns: int = 0
    bonus_for: int | None = None
    bonus_turns: int = 0
    home_since: tuple[int | None, int | None] = (None, None)
    end: str | None = None
    stranded: tuple[bool, bool] = (False, False)
    last_slot: int | None = None
    cache: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def filler(self) -> int | None:
        """The player who fills isolated triangles now (None outside the filling phases)."""
        if self.phase == "fill":
            return self.turn
        if self.phase == "fill_other":
            return 1 - self.turn
        return None


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _add(t: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
    out = list(t)
    out[i] += d
    return tuple(out)


def _set(pair: tuple, p: int, value: Any) -> tuple:
    return (value, pair[1]) if p == 0 else (pair[0], value)


class TomTubeRules:
    """Tom Tube for two players (0 = Tom, 1 = Dave).

    Config (``default_config``): ``first`` - 0, 1 or "random" (who starts; the rulebook's younger
    player, A18); ``extra_energy`` - ``[n0, n1]`` additional launch energy counters from the stock for a
    less experienced player (rulebook "Playing with Beginners"); ``alien_control`` - false plays without
    control and alien counters (energy spheres still get theirs); ``stranded_loses`` - a stranded
    astronaut loses (A15) or, false, the counters on the bases decide; ``turn_limit`` - turns after which
    the game ends as it stands.
    """

    info = INFO

    # ------------------------------------------------------------------------------------- config
    def default_config(self) -> dict[str, Any]:
        return {"first": "random", "extra_energy": [0, 0], "alien_control": True, "stranded_loses": True,
                "turn_limit": DEFAULT_TURN_LIMIT}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """A complete config; ValueError with a reason for an unknown key or a bad value."""
        out = over_defaults(self.default_config(), config)
        out = check_options(OPTIONS, out)
        if not isinstance(out["stranded_loses"], bool):
            raise ValueError("stranded_loses must be true or false")
        if not _int(out["turn_limit"]) or out["turn_limit"] < 1:
            raise ValueError("turn_limit must be a whole number >= 1")
        return out

    def initial_state(self, config: dict[str, Any]) -> TomTubeState:
        """Rulebook "Getting Started": astronauts on their bases with one energy counter each (plus any
        beginner's extra), solar counters on the solar modules, 9 triangles each, the 40 rhombs face
        down."""
        cfg = self.validate_config(config)
        e0, e1 = (START_ENERGY + x for x in cfg["extra_energy"])
        first = cfg["first"]
        return TomTubeState(
            config=cfg, board=Board.empty(), stack=RHOMB_IDS,
            hands=(tuple(TRIANGLE_SET[p] for p in TRIANGLE_PIECES),) * 2,
            at=(BASES[0], BASES[1]), supply=((e0, 0, 0, 0), (e1, 0, 0, 0)),
            stock=(STOCK["energy"] - e0 - e1, STOCK["control"], STOCK["alien"]), counters={},
            solar_left=frozenset(m.name for m in MODULES if m.kind == "solar"),
            turn=0 if first == "random" else first, phase="first" if first == "random" else "turn")

    # ----------------------------------------------------------------------------------- who acts
    def active_players(self, s: TomTubeState) -> list[int]:
        """``[CHANCE]`` while the first player or a rhomb is drawn, ``[]`` when over, else the player to
        act (the other player while he is offered to fill isolated triangles)."""
        if s.phase in ("first", "draw"):
            return [CHANCE]
        if s.phase == "over":
            return []
        if s.phase == "fill_other":
            return [1 - s.turn]
        return [s.turn]

    def chance_outcomes(self, s: TomTubeState) -> list[tuple[Action, float]]:
        """The first player (1/2 each) or the drawn rhomb (each remaining one equally likely)."""
        if s.phase == "first":
            return [({"t": "first", "player": 0}, 0.5), ({"t": "first", "player": 1}, 0.5)]
        if s.phase == "draw":
            p = 1.0 / len(s.stack)
            return [({"t": "rhomb", "id": rid}, p) for rid in s.stack]
        return []

    # ------------------------------------------------------------------------------------ helpers
    def placeable(self, s: TomTubeState) -> bool:
        """Whether a rhomb can still be placed: the stack is not empty and a slot is free (research
        §3.11)."""
        return bool(s.stack) and s.board.has_free_slot()

    def stops(self, s: TomTubeState, player: int) -> frozenset[str]:
        """Spheres where ``player``'s drift must stop: every counter on the board, and his own solar
        modules still holding their solar counter except in the bonus phase (A16)."""
        key = ("stops", player)
        hit = s.cache.get(key)
        if hit is None:
            hit = set(s.counters)
            if s.bonus_for is None:
                hit |= {m for m in SOLARS[player] if m in s.solar_left}
            hit = frozenset(hit)
            s.cache[key] = hit
        return hit

    def move_targets(self, s: TomTubeState, player: int, mode: str) -> dict[str, tuple[str, ...]]:
        """Destinations of a ``mode`` move of ``player`` from where he stands -> the path shown (node
        ids from start to destination), whatever he can pay. Memoised on the state."""
        key = ("targets", player, mode)
        hit = s.cache.get(key)
        if hit is None:
            other = s.at[1 - player]
            start = s.at[player]
            if mode == "jump":
                hit = {k: (start, k) for k in jump_targets(s.board, start, other)}
            else:
                hit = drift_paths(s.board, start, player, other, self.stops(s, player), mode == "control")
            s.cache[key] = hit
        return hit

    def can_exchange(self, s: TomTubeState, player: int) -> bool:
        """An alien counter in the supply and 1 control + 2 energy counters in the stock (A9)."""
        return (s.supply[player][A] >= 1 and s.stock[C] >= ALIEN_EXCHANGE["control"]
                and s.stock[E] >= ALIEN_EXCHANGE["energy"])

    def can_pay(self, s: TomTubeState, player: int, mode: str, exchange: bool = False) -> bool:
        """Whether ``player`` can pay for ``mode`` now (with ``exchange``: also after exchanging an
        alien counter)."""
        if mode == "drift":
            return True
        idx = C if mode == "control" else E
        if s.supply[player][idx] >= 1:
            return True
        return exchange and self.can_exchange(s, player)

    def has_move(self, s: TomTubeState, player: int) -> bool:
        """Whether ``player`` has a legal move now, counting an alien exchange first."""
        return any(self.can_pay(s, player, m, exchange=True) and self.move_targets(s, player, m) for m in MODES)

    def can_act(self, s: TomTubeState, player: int) -> bool:
        """Whether ``player`` could take a turn: place (outside the bonus phase) or move."""
        return (s.bonus_for is None and self.placeable(s)) or self.has_move(s, player)

    def is_stranded(self, s: TomTubeState, player: int) -> bool:
        """Research A14: away from home, he can never move again (a), or the board can no longer change
        (no rhomb placeable, or the bonus phase) and even with his supply and every counter on the board
        within his reach he could not get home (b; ``moves.can_reach_home``)."""
        node = s.at[player]
        if node == BASES[player]:
            return False
        e, c, a, _s = s.supply[player]
        if cannot_ever_move(s.board, node, player, e, c, a):
            return True
        if s.bonus_for is None and self.placeable(s):
            return False
        return not can_reach_home(s.board, node, player, e, c, a, s.counters)

    def isolated(self, s: TomTubeState) -> tuple[int, ...]:
        """Isolated space triangles waiting to be filled now."""
        if s.phase not in ("fill", "fill_other"):
            return ()
        return s.board.isolated()

    # ---------------------------------------------------------------------------------- legality
    def legal_actions(self, s: TomTubeState, player: int) -> list[Action]:
        """Every legal action of ``player`` now: at the start of a turn draw, exchange and every move he
        can pay for; after a draw every slot in both orientations; while filling every isolated
        triangle with every piece and rotation he holds (and "leave" when offered)."""
        if player not in self.active_players(s) or player == CHANCE:
            return []
        if s.phase == "turn":
            out: list[Action] = []
            if s.bonus_for is None and self.placeable(s):
                out.append({"t": "draw"})
            if self.can_exchange(s, player):
                out.append({"t": "exchange"})
            for mode in MODES:
                if self.can_pay(s, player, mode):
                    out += [{"t": "move", "mode": mode, "to": n} for n in self.move_targets(s, player, mode)]
            return out
        if s.phase == "place":
            return [{"t": "place", "slot": sl, "flip": f} for sl in s.board.free_slots() for f in (0, 1)]
        if s.phase in ("fill", "fill_other"):
            hand = s.hands[player]
            out = [{"t": "fill", "tri": t, "piece": pc, "rot": k}
                   for t in s.board.isolated() for i, pc in enumerate(TRIANGLE_PIECES) if hand[i] > 0
                   for k in range(PIECE_ROTATIONS[pc])]
            if s.phase == "fill_other":
                out.append({"t": "leave"})
            return out
        return []

    def check(self, s: TomTubeState, player: int, action: Action) -> None:
        """Raise IllegalAction with the reason unless ``player`` may take ``action`` now."""
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        if s.phase == "over":
            raise IllegalAction("the game is over")
        if player == CHANCE:
            self._check_chance(s, action)
            return
        if player not in (0, 1):
            raise IllegalAction(f"no player {player!r} in Tom Tube")
        if player not in self.active_players(s):
            raise IllegalAction(f"it is not {PLAYER_NAMES[player]}'s turn")
        t = action.get("t")
        name = PLAYER_NAMES[player]
        if t == "draw":
            self._keys(action, {"t"})
            if s.phase != "turn":
                raise IllegalAction("a rhomb can be drawn only at the start of a turn")
            if s.bonus_for is not None:
                raise IllegalAction("no rhombs are placed while the slower astronaut returns home")
            if not s.stack:
                raise IllegalAction("the stack of rhombs is empty")
            if not s.board.has_free_slot():
                raise IllegalAction("no two free neighbouring space triangles are left")
            return
        if t == "place":
            self._keys(action, {"t", "slot", "flip"})
            if s.phase != "place":
                raise IllegalAction("there is no drawn rhomb to place")
            slot, flip = action["slot"], action["flip"]
            if not _int(slot) or not 0 <= slot < len(SLOTS):
                raise IllegalAction(f"slot must be a slot number 0..{len(SLOTS) - 1}")
            if not _int(flip) or flip not in (0, 1):
                raise IllegalAction("flip must be 0 or 1")
            if slot not in s.board.free_slots():
                raise IllegalAction("a rhomb needs two free neighbouring space triangles")
            return
        if t == "fill":
            self._keys(action, {"t", "tri", "piece", "rot"})
            if s.phase not in ("fill", "fill_other"):
                raise IllegalAction("no isolated triangle is waiting to be filled")
            tri, piece, rot = action["tri"], action["piece"], action["rot"]
            if not _int(tri) or not 0 <= tri < len(TRIANGLES):
                raise IllegalAction(f"tri must be a space triangle number 0..{len(TRIANGLES) - 1}")
            if tri not in s.board.isolated():
                raise IllegalAction("that space triangle is not an isolated free triangle")
            if piece not in TRIANGLE_PIECES:
                raise IllegalAction(f"piece must be one of {', '.join(TRIANGLE_PIECES)}")
            if s.hands[player][TRIANGLE_PIECES.index(piece)] <= 0:
                raise IllegalAction(f"{name} has no {piece} triangle left")
            if not _int(rot) or not 0 <= rot < PIECE_ROTATIONS[piece]:
                raise IllegalAction(f"a {piece} triangle takes rotation 0..{PIECE_ROTATIONS[piece] - 1}")
            return
        if t == "leave":
            self._keys(action, {"t"})
            if s.phase != "fill_other":
                raise IllegalAction("only the other player, once offered, may leave triangles empty")
            return
        if t == "exchange":
            self._keys(action, {"t"})
            if s.phase != "turn":
                raise IllegalAction("an alien counter is exchanged at the start of one's turn")
            if s.supply[player][A] < 1:
                raise IllegalAction(f"{name} has no alien counter")
            if not self.can_exchange(s, player):
                raise IllegalAction("the stock lacks the control counter and two energy counters")
            return
        if t == "move":
            self._keys(action, {"t", "mode", "to"})
            if s.phase != "turn":
                raise IllegalAction("the astronaut moves only at the start of a turn, instead of placing")
            mode, to = action["mode"], action["to"]
            if mode not in MODES:
                raise IllegalAction("mode must be drift, control or jump")
            if not isinstance(to, str):
                raise IllegalAction("to must be a node id")
            try:
                node_kind(to)
            except ValueError as e:
                raise IllegalAction(str(e)) from None
            if not self.can_pay(s, player, mode):
                what = "control" if mode == "control" else "energy"
                raise IllegalAction(f"{name} has no {what} counter to pay for a "
                                    f"{'drift through all colours' if mode == 'control' else 'space jump'}")
            if to not in self.move_targets(s, player, mode):
                raise IllegalAction(self._why_not_target(s, player, mode, to))
            return
        raise IllegalAction(f"unknown action {t!r}")

    @staticmethod
    def _keys(action: Action, keys: set[str]) -> None:
        if set(action) != keys:
            raise IllegalAction(f"a {action.get('t')} action has exactly the fields {', '.join(sorted(keys))}")

    def _check_chance(self, s: TomTubeState, action: Action) -> None:
        t = action.get("t")
        if s.phase == "first" and t == "first" and action.get("player") in (0, 1) and set(action) == {"t", "player"}:
            return
        if s.phase == "draw" and t == "rhomb" and set(action) == {"t", "id"} and action.get("id") in s.stack:
            return
        raise IllegalAction("not a chance outcome due now")

    def _why_not_target(self, s: TomTubeState, player: int, mode: str, to: str) -> str:
        mod = MODULE_BY_NAME.get(to)
        if mod is not None and mod.owner != player:
            return "an astronaut may never enter the other astronaut's base or solar modules"
        if to == s.at[1 - player]:
            return "the other astronaut occupies that sphere"
        if to == s.at[player]:
            return "the astronaut must move to another sphere"
        if to not in s.board.complete:
            return "an astronaut moves only to a complete sphere"
        if mode == "jump":
            if node_kind(s.at[player]) != "knot" or node_kind(to) != "knot":
                return "no space jump from or to energy spheres, bases or solar modules"
            return "a space jump goes along exactly one space edge and never across a rhomb"
        return "no drift through usable tubes leads there"

    # ------------------------------------------------------------------------------------- apply
    def apply(self, s: TomTubeState, player: int, action: Action) -> tuple[TomTubeState, list[Event]]:
        """The state after a checked action and its events (``draw``, ``place``, ``isolated``, ``fill``,
        ``leave``, ``counter``, ``no_counter``, ``sphere``, ``pay``, ``move`` with the ``path`` taken,
        ``pickup``, ``home``, ``exchange``, ``skip``, ``bonus_phase``, ``end``). Never mutates ``s``."""
        t = action["t"]
        ev: list[Event] = []
        if player == CHANCE:
            if t == "first":
                p = action["player"]
                ev.append({"e": "first", "player": p})
                return replace(s, turn=p, phase="turn"), ev
            rid = action["id"]
            ev.append({"e": "draw", "player": s.turn, "rhomb": rid})
            return replace(s, stack=tuple(x for x in s.stack if x != rid), drawn=rid, phase="place"), ev
        if t == "draw":
            ev.append({"e": "declare_place", "player": player})
            return replace(s, phase="draw"), ev
        if t == "place":
            return self._place(s, player, action["slot"], action["flip"], ev)
        if t == "fill":
            return self._fill(s, player, action["tri"], action["piece"], action["rot"], ev)
        if t == "leave":
            left = s.board.isolated()
            ev.append({"e": "leave", "player": player, "tris": list(left)})
            return self._end_placing(replace(s, board=s.board.abandon(left)), ev)
        if t == "exchange":
            sup = s.supply[player]
            sup = (sup[E] + ALIEN_EXCHANGE["energy"], sup[C] + ALIEN_EXCHANGE["control"], sup[A] - 1, sup[S])
            stock = (s.stock[E] - ALIEN_EXCHANGE["energy"], s.stock[C] - ALIEN_EXCHANGE["control"], s.stock[A] + 1)
            ev.append({"e": "exchange", "player": player})
            return replace(s, supply=_set(s.supply, player, sup), stock=stock), ev
        if t == "move":
            return self._move(s, player, action["mode"], action["to"], ev)
        raise IllegalAction(f"unknown action {t!r}")

    def _place(self, s: TomTubeState, player: int, slot: int, flip: int, ev: list[Event]):
        rid = s.drawn
        before = s.board.complete
        board = s.board.place_rhomb(slot, rid, flip)
        ev.append({"e": "place", "player": player, "rhomb": rid, "slot": slot, "flip": flip})
        counters, stock = s.counters, s.stock
        if RHOMB_BY_ID[rid].energy:
            node = f"c{slot}"
            if stock[E] > 0:
                counters = {**counters, node: "energy"}
                stock = _add(stock, E, -1)
                ev.append({"e": "counter", "kind": "energy", "node": node})
            else:
                ev.append({"e": "no_counter", "kind": "energy", "node": node})
        new = s.new_knots | ((board.complete - before) & INTERIOR)
        s = replace(s, board=board, drawn=None, counters=counters, stock=stock, new_knots=new, last_slot=slot)
        iso = board.isolated()
        if not iso:
            return self._end_placing(s, ev)
        ev.append({"e": "isolated", "tris": list(iso)})
        if sum(s.hands[player]) > 0:
            return replace(s, phase="fill"), ev
        return self._offer_other(s, ev)

    def _offer_other(self, s: TomTubeState, ev: list[Event]):
        other = 1 - s.turn
        if sum(s.hands[other]) > 0:
            ev.append({"e": "offer_fill", "player": other})
            return replace(s, phase="fill_other"), ev
        left = s.board.isolated()
        ev.append({"e": "leave", "player": None, "tris": list(left)})
        return self._end_placing(replace(s, board=s.board.abandon(left)), ev)

    def _fill(self, s: TomTubeState, player: int, tri: int, piece: str, rot: int, ev: list[Event]):
        before = s.board.complete
        board = s.board.place_piece(tri, player, piece, rot)
        hands = _set(s.hands, player, _add(s.hands[player], TRIANGLE_PIECES.index(piece), -1))
        ev.append({"e": "fill", "player": player, "tri": tri, "piece": piece, "rot": rot})
        s = replace(s, board=board, hands=hands, new_knots=s.new_knots | ((board.complete - before) & INTERIOR))
        if not board.isolated():
            return self._end_placing(s, ev)
        if sum(hands[player]) > 0:
            return s, ev
        if s.phase == "fill":
            return self._offer_other(s, ev)
        left = board.isolated()
        ev.append({"e": "leave", "player": None, "tris": list(left)})
        return self._end_placing(replace(s, board=board.abandon(left)), ev)

    def _end_placing(self, s: TomTubeState, ev: list[Event]):
        """Counters on the knots completed this turn (A7, A8; rulebook "Placing counters")."""
        counters, stock = s.counters, s.stock
        for k in sorted(s.new_knots):
            ends = s.board.tube_ends(k)
            kind = "control" if ends == 1 else "alien" if ends == 0 else None
            if kind is None:
                continue
            ev.append({"e": "sphere", "kind": kind, "node": k})
            if not s.config["alien_control"]:
                continue
            i = KIND_INDEX[kind]
            if stock[i] > 0:
                counters = {**counters, k: kind}
                stock = _add(stock, i, -1)
                ev.append({"e": "counter", "kind": kind, "node": k})
            else:
                ev.append({"e": "no_counter", "kind": kind, "node": k})
        s = replace(s, counters=counters, stock=stock, new_knots=frozenset())
        return self._end_turn(s, ev)

    def _move(self, s: TomTubeState, player: int, mode: str, to: str, ev: list[Event]):
        path = self.move_targets(s, player, mode)[to]
        sup = s.supply[player]
        stock = s.stock
        if mode == "control":
            sup, stock = _add(sup, C, -1), _add(stock, C, 1)
            ev.append({"e": "pay", "player": player, "kind": "control"})
        elif mode == "jump":
            sup, stock = _add(sup, E, -1), _add(stock, E, 1)
            ev.append({"e": "pay", "player": player, "kind": "energy"})
        ev.append({"e": "move", "player": player, "mode": mode, "from": s.at[player], "to": to,
                   "path": list(path)})
        counters, solar_left = s.counters, s.solar_left
        kind = counters.get(to)
        if kind is not None:
            counters = {k: v for k, v in counters.items() if k != to}
            sup = _add(sup, KIND_INDEX[kind], 1)
            ev.append({"e": "pickup", "player": player, "kind": kind, "node": to})
        elif to in solar_left and s.bonus_for is None:
            solar_left = solar_left - {to}
            sup = _add(sup, S, 1)
            ev.append({"e": "pickup", "player": player, "kind": "solar", "node": to})
        home = s.home_since
        if to == BASES[player]:
            home = _set(home, player, s.turns)
            ev.append({"e": "home", "player": player})
        elif s.at[player] == BASES[player]:
            home = _set(home, player, None)
        s = replace(s, at=_set(s.at, player, to), supply=_set(s.supply, player, sup), stock=stock,
                    counters=counters, solar_left=solar_left, home_since=home)
        return self._end_turn(s, ev)

    # ------------------------------------------------------------------------- end of turn, end
    def _end_turn(self, s: TomTubeState, ev: list[Event]):
        """End conditions (research §3.11, A13-A16), then the next player, skipping one who cannot act."""
        s = replace(s, turns=s.turns + 1, phase="turn", drawn=None)
        if s.bonus_for is not None:
            slow = 1 - s.bonus_for
            s = replace(s, bonus_turns=s.bonus_turns + 1)
            if s.at[slow] == BASES[slow]:
                return self._finish(s, "bonus", ev)
            if self.is_stranded(s, slow) or not self.has_move(s, slow):
                return self._finish(s, "stranded", ev, (slow,))
            if s.turns >= s.config["turn_limit"]:
                return self._finish(s, "turn_limit", ev)
            return replace(s, turn=slow), ev
        placeable = self.placeable(s)
        done = [p for p in (0, 1) if s.at[p] == BASES[p] and s.supply[p][S] == SOLAR_PER_PLAYER]
        if done and placeable:
            fast = done[0]
            slow = 1 - fast
            s = replace(s, bonus_for=fast, bonus_turns=0)
            ev.append({"e": "bonus_phase", "player": fast})
            if s.at[slow] == BASES[slow]:
                return self._finish(s, "bonus", ev)
            if self.is_stranded(s, slow) or not self.has_move(s, slow):
                return self._finish(s, "stranded", ev, (slow,))
            return replace(s, turn=slow), ev
        if not placeable and any(s.at[p] == BASES[p] for p in (0, 1)):
            return self._finish(s, "no_bonus", ev)
        lost = tuple(p for p in (0, 1) if self.is_stranded(s, p))
        if lost:
            return self._finish(s, "stranded", ev, lost)
        if s.turns >= s.config["turn_limit"]:
            return self._finish(s, "turn_limit", ev)
        nxt = 1 - s.turn
        if self.can_act(s, nxt):
            return replace(s, turn=nxt), ev
        if self.can_act(s, s.turn):
            ev.append({"e": "skip", "player": nxt})
            return s, ev
        return self._finish(s, "blocked", ev)

    def _finish(self, s: TomTubeState, why: str, ev: list[Event], lost: tuple[int, ...] = ()):
        stranded = (0 in lost, 1 in lost)
        s = replace(s, phase="over", end=why, stranded=stranded)
        ev.append({"e": "end", "reason": why, "stranded": [p for p in lost]})
        return s, ev

    # ----------------------------------------------------------------------------------- results
    def is_terminal(self, s: TomTubeState) -> bool:
        return s.phase == "over"

    def breakdown(self, s: TomTubeState, player: int) -> dict[str, int]:
        """Points of ``player`` so far (rulebook "Evaluation"): counters on his base and bonus turns."""
        e, c, a, so = s.supply[player]
        bonus = s.bonus_turns * BONUS_POINTS_PER_TURN if self._bonus_counts(s) and s.bonus_for == player else 0
        total = e * POINTS["energy"] + c * POINTS["control"] + a * POINTS["alien"] + so * POINTS["solar"] + bonus
        return {"energy": e, "control": c, "alien": a, "solar": so, "bonus": bonus, "total": total}

    @staticmethod
    def _bonus_counts(s: TomTubeState) -> bool:
        """The bonus counts when the slower astronaut came home, or when the turn limit cut his return
        short (so stalling never pays)."""
        return s.bonus_for is not None and s.end in ("bonus", "turn_limit")

    def winner(self, s: TomTubeState) -> int | None:
        """The winner of a finished game, or None for a draw (A15 stranding, A17 ties)."""
        if s.stranded[0] != s.stranded[1] and s.config["stranded_loses"]:
            return 1 if s.stranded[0] else 0
        if all(s.stranded) and s.config["stranded_loses"]:
            return None
        t0, t1 = (self.breakdown(s, p)["total"] for p in (0, 1))
        if t0 != t1:
            return 0 if t0 > t1 else 1
        return self.home_first(s)

    @staticmethod
    def home_first(s: TomTubeState) -> int | None:
        """The player whose astronaut is at home and came home before the other's (who wins a tie on
        points, A17), or None."""
        h0, h1 = s.home_since
        if h0 is not None and (h1 is None or h0 < h1):
            return 0
        if h1 is not None and (h0 is None or h1 < h0):
            return 1
        return None

    def outcome(self, s: TomTubeState) -> dict[str, Any]:
        """``scores`` [Tom, Dave], ``breakdown`` per player (see :meth:`breakdown`), ``winner`` (None for a
        draw or a game still running), ``ranking``, ``end`` (one of ``ENDS`` or None), ``stranded``,
        ``turns``, ``rhombs_placed``, ``bonus_turns`` and ``bonus_for`` (when a bonus counts)."""
        b = [self.breakdown(s, p) for p in (0, 1)]
        w = self.winner(s) if s.phase == "over" else None
        ranking = [w, 1 - w] if w is not None else ([0, 1] if b[0]["total"] >= b[1]["total"] else [1, 0])
        return {"scores": [b[0]["total"], b[1]["total"]], "breakdown": b, "winner": w, "ranking": ranking,
                "end": s.end, "stranded": list(s.stranded), "turns": s.turns, "rhombs_placed": len(s.board),
                "bonus_turns": s.bonus_turns if self._bonus_counts(s) else 0,
                "bonus_for": s.bonus_for if self._bonus_counts(s) else None}

    def undoable(self, s: TomTubeState, player: int, action: Action) -> bool:
        return action.get("t") in ("place", "fill", "leave", "move", "exchange")

    def invariants(self, s: TomTubeState) -> list[str]:
        """Broken invariants: every counter in the stock, on the board, on a base or on a solar module;
        every rhomb and triangle accounted for; astronauts on complete spheres of their own."""
        bad: list[str] = []
        b = s.board
        # counters: stock + board + bases (+ solar modules) hold the whole box
        for kind in COUNTER_KINDS:
            i = KIND_INDEX[kind]
            n = s.stock[i] + sum(1 for v in s.counters.values() if v == kind) + s.supply[0][i] + s.supply[1][i]
            if n != STOCK[kind]:
                bad.append(f"{kind} counters not conserved: {n} instead of {STOCK[kind]}")
        solar = len(s.solar_left) + s.supply[0][S] + s.supply[1][S]
        if solar != 2 * SOLAR_PER_PLAYER:
            bad.append(f"solar counters not conserved: {solar}")
        for p in (0, 1):
            mine = sum(1 for m in SOLARS[p] if m not in s.solar_left)
            if mine != s.supply[p][S]:
                bad.append(f"{PLAYER_NAMES[p]} holds {s.supply[p][S]} solar counters, {mine} are gone")
        if min(s.stock) < 0 or min(s.supply[0]) < 0 or min(s.supply[1]) < 0:
            bad.append("a negative counter count")
        # rhombs and triangles
        placed = [rid for _s, rid, _f in b.rhombs]
        held = [s.drawn] if s.drawn else []
        allr = sorted(list(s.stack) + placed + held)
        if allr != sorted(RHOMB_IDS):
            bad.append("rhombs not conserved")
        for p in (0, 1):
            used = [pc for _t, o, pc, _r in b.pieces if o == p]
            for i, pc in enumerate(TRIANGLE_PIECES):
                if s.hands[p][i] + used.count(pc) != TRIANGLE_SET[pc]:
                    bad.append(f"{PLAYER_NAMES[p]}'s {pc} triangles not conserved")
        if len(b.covered) != 2 * len(b.rhombs) + len(b.pieces):
            bad.append("covered triangles do not match the tiles")
        if b.abandoned & b.covered:
            bad.append("an abandoned triangle is covered")
        # astronauts and counters
        if s.at[0] == s.at[1]:
            bad.append("both astronauts on one sphere")
        for p in (0, 1):
            n = s.at[p]
            if n not in b.complete:
                bad.append(f"{PLAYER_NAMES[p]} stands on an incomplete sphere {n}")
            mod = MODULE_BY_NAME.get(n)
            if mod is not None and mod.owner != p:
                bad.append(f"{PLAYER_NAMES[p]} is in the other astronaut's module")
        for n in s.counters:
            if n not in b.complete:
                bad.append(f"a counter on incomplete sphere {n}")
            if n in s.at:
                bad.append(f"a counter under an astronaut at {n}")
        return bad


    # ------------------------------------------------------------ LAN play (sim/core/rules.py)
    def observe(self, s: TomTubeState, seat: int) -> TomTubeState:
        """What ``seat`` may see: the whole position. The only secret of Tom Tube is the order of the
        face-down rhombs, and the state never holds it: ``stack`` is kept in box order (which rhombs
        remain, public since the board shows the placed ones) and the next draw is made by the
        match's seeded chance, which stays on the host. Raises ``ValueError`` for a seat not at the
        table."""
        if not _int(seat) or seat not in (0, 1):
            raise ValueError(f"no seat {seat!r}")
        return replace(s)   # a fresh state: the memo ``cache`` is not shared

    def state_to_json(self, s: TomTubeState) -> dict[str, Any]:
        """``s`` as a JSON object: the fields of the state, the board's tiles, segments and spheres."""
        b = s.board
        board = {"covered": sorted(b.covered), "rhombs": [list(x) for x in b.rhombs],
                 "pieces": [list(x) for x in b.pieces], "abandoned": sorted(b.abandoned),
                 "segs": [list(x) for x in b.segs], "complete": sorted(b.complete),
                 "inner": sorted(list(x) for x in b.inner)}
        return {"config": dict(s.config), "board": board, "stack": list(s.stack),
                "hands": [list(h) for h in s.hands], "at": list(s.at), "supply": [list(x) for x in s.supply],
                "stock": list(s.stock), "counters": dict(sorted(s.counters.items())),
                "solar_left": sorted(s.solar_left), "turn": s.turn, "phase": s.phase, "drawn": s.drawn,
                "new_knots": sorted(s.new_knots), "turns": s.turns, "bonus_for": s.bonus_for,
                "bonus_turns": s.bonus_turns, "home_since": list(s.home_since), "end": s.end,
                "stranded": list(s.stranded), "last_slot": s.last_slot}

    def state_from_json(self, obj: Any) -> TomTubeState:
        """The state :meth:`state_to_json` wrote; ``ValueError`` with a reason for anything else (wrong
        keys or types, or a position that breaks the invariants)."""
        keys = {"config", "board", "stack", "hands", "at", "supply", "stock", "counters", "solar_left", "turn",
                "phase", "drawn", "new_knots", "turns", "bonus_for", "bonus_turns", "home_since", "end",
                "stranded", "last_slot"}
        bkeys = {"covered", "rhombs", "pieces", "abandoned", "segs", "complete", "inner"}
        if not isinstance(obj, dict) or set(obj) != keys:
            raise ValueError("a Tom Tube state has exactly the keys " + ", ".join(sorted(keys)))
        bo = obj["board"]
        if not isinstance(bo, dict) or set(bo) != bkeys:
            raise ValueError("a Tom Tube board has exactly the keys " + ", ".join(sorted(bkeys)))
        try:
            segs = tuple(tuple(x) for x in bo["segs"])
            inc: dict[str, tuple] = {}
            for i, (u, v, c, du, dv) in enumerate(segs):
                inc[u] = inc.get(u, ()) + ((i, v, c, du, dv),)
                inc[v] = inc.get(v, ()) + ((i, u, c, dv, du),)
            board = Board(frozenset(bo["covered"]), tuple(tuple(x) for x in bo["rhombs"]),
                          tuple(tuple(x) for x in bo["pieces"]), frozenset(bo["abandoned"]), segs, inc,
                          frozenset(bo["complete"]), frozenset(tuple(x) for x in bo["inner"]))
            s = TomTubeState(
                config=self.validate_config(obj["config"]), board=board, stack=tuple(obj["stack"]),
                hands=tuple(tuple(h) for h in obj["hands"]), at=tuple(obj["at"]),
                supply=tuple(tuple(x) for x in obj["supply"]), stock=tuple(obj["stock"]),
                counters=dict(obj["counters"]), solar_left=frozenset(obj["solar_left"]), turn=obj["turn"],
                phase=obj["phase"], drawn=obj["drawn"], new_knots=frozenset(obj["new_knots"]),
                turns=obj["turns"], bonus_for=obj["bonus_for"], bonus_turns=obj["bonus_turns"],
                home_since=tuple(obj["home_since"]), end=obj["end"], stranded=tuple(obj["stranded"]),
                last_slot=obj["last_slot"])
            if len(s.hands) != 2 or len(s.at) != 2 or len(s.supply) != 2 or s.phase not in PHASES \
                    or s.turn not in (0, 1):
                raise ValueError("two players' hands, astronauts and supplies, a known phase and turn")
            bad = self.invariants(s)
        except (TypeError, KeyError, IndexError, ValueError) as e:
            raise ValueError(f"not a Tom Tube position: {e}") from None
        if bad:
            raise ValueError(f"not a Tom Tube position: {bad[0]}")
        return s

def snapshot(s: TomTubeState) -> dict[str, Any]:
    """A JSON-compatible picture of a state (for comparing replays and for tools)."""
    return {"rhombs": [list(x) for x in s.board.rhombs], "pieces": [list(x) for x in s.board.pieces],
            "abandoned": sorted(s.board.abandoned), "stack": list(s.stack), "drawn": s.drawn,
            "hands": [list(h) for h in s.hands], "at": list(s.at), "supply": [list(x) for x in s.supply],
            "stock": list(s.stock), "counters": dict(sorted(s.counters.items())),
            "solar_left": sorted(s.solar_left), "turn": s.turn, "phase": s.phase, "turns": s.turns,
            "bonus_for": s.bonus_for, "bonus_turns": s.bonus_turns, "end": s.end, "stranded": list(s.stranded)}


def build_state(rules: TomTubeRules, *, rhombs=(), pieces=(), abandoned=(), at: tuple[str, str] | None = None,
                supply=None, counters: dict[str, str] | None = None, solar_left=None, turn: int = 0,
                stack=None, config: dict[str, Any] | None = None, bonus_for: int | None = None,
                phase: str = "turn", strict: bool = True) -> TomTubeState:
    """A hand-built position (for tests, tutorials and pictures), consistent with the box contents.

    ``rhombs``: ``(slot, rhomb id, flip)``; ``pieces``: ``(tri, owner, piece, rot)`` (placed without the
    isolation rule); ``abandoned``: triangles left empty for good; ``at``: both astronauts' nodes (default
    their bases); ``supply``: per player ``(energy, control, alien, solar)`` (default the start);
    ``counters``: node -> kind on the board; ``solar_left``: solar modules still holding their counter
    (default: those whose owner has not collected them, by ``supply``). The stack holds every rhomb not
    on the board unless ``stack`` is given; the hands lose the pieces on the board; the stock holds what
    is neither on the board nor in a supply. Raises ValueError when the counts break the contents;
    ``strict=False`` allows more triangle pieces than the hands hold (filler for movement and scoring
    positions; such a state does not pass ``invariants``).
    """
    s = rules.initial_state(dict(config or {}, first=turn))
    board = s.board
    for slot, rid, flip in rhombs:
        board = board.place_rhomb(slot, rid, flip)
    for tri, owner, piece, rot in pieces:
        board = board.place_piece(tri, owner, piece, rot)
    if abandoned:
        board = board.abandon(abandoned)
    placed = {rid for _s, rid, _f in board.rhombs}
    if len(placed) != len(board.rhombs):
        raise ValueError("a rhomb is placed twice")
    custom_stack = stack is not None
    stack = tuple(sorted(stack)) if custom_stack else tuple(r for r in RHOMB_IDS if r not in placed)
    if set(stack) & placed:
        raise ValueError("a rhomb on the board is also in the stack")
    hands = tuple(tuple(TRIANGLE_SET[pc] - sum(1 for _t, o, x, _r in board.pieces if o == p and x == pc)
                        for pc in TRIANGLE_PIECES) for p in (0, 1))
    if not strict:
        hands = tuple(tuple(max(0, x) for x in h) for h in hands)
    supply = tuple(tuple(x) for x in supply) if supply is not None else s.supply
    counters = dict(counters or {})
    if solar_left is None:
        solar_left = frozenset(m for p in (0, 1) for m in SOLARS[p][supply[p][S]:])
    stock = tuple(STOCK[k] - supply[0][KIND_INDEX[k]] - supply[1][KIND_INDEX[k]]
                  - sum(1 for v in counters.values() if v == k) for k in COUNTER_KINDS)
    out = replace(s, board=board, stack=stack, hands=hands, at=tuple(at) if at else s.at, supply=supply,
                  stock=stock, counters=counters, solar_left=frozenset(solar_left), turn=turn, phase=phase,
                  bonus_for=bonus_for)
    # a shorter stack stands for rhombs left in the box
    bad = [m for m in rules.invariants(out) if not (custom_stack and m == "rhombs not conserved")
           and not (not strict and "triangles" in m)]
    if min(stock) < 0 or any(min(h) < 0 for h in hands) or bad:
        raise ValueError("not a position of the box: " + "; ".join(bad or ["too many counters or triangles"]))
    return out
