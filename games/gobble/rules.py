"""Tantrix Gobble rules (pure: no pygame, no clock, no global random state).

Gobble Solitaire as decided in specs/gobble.md "Gobble Solitaire" (seed 002, "Gobble Solitaire"):

* All 56 tiles start in the bag. Chance draws two tiles and lays them together in the middle with
  their touching colours matching: the first at (0, 0) in a random rotation, the second east of it in a
  random rotation that matches.
* Chance then draws one tile at a time. If it fits anywhere the player must place it (any legal cell
  and rotation); if it fits nowhere it goes face up onto the penalty stack (the player acknowledges).
* Filling a gobble space (3 neighbours) earns one rescue, a double gobble space (4+) two: for each, the
  top tile of the penalty stack may be returned to the bag, or played at once if it fits, or the
  player may stop rescuing. A rescued tile that itself fills a gobble space earns its own rescues.
* The game ends when the bag is empty and no rescue is pending. Score = penalty stack size (0 = win).

Actions (JSON dicts): chance ``{"t": "start", "tile", "rot"}``, ``{"t": "draw", "tile"}``; player 0
``{"t": "place", "tile", "rot", "q", "r"}``, ``{"t": "penalty"}``, ``{"t": "return"}``,
``{"t": "skip"}``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sim.core.hexgrid import Hex
from sim.core.options import check as check_options, over_defaults
from sim.core.rules import CHANCE, Action, Event, GameInfo, IllegalAction

from .board import Board, gift_count, pattern_fit
from .data import TILE_NUMBERS
from .options import SOLITAIRE_OPTIONS

SOLITAIRE_INFO = GameInfo(name="gobble-solitaire", title="Gobble Solitaire", min_players=1,
                          max_players=1, realtime=False, rules_version=1)

#: Where the two start tiles go (specs/gobble.md: "two random tiles start the Tantrix, matched").
START_CELLS: tuple[Hex, Hex] = ((0, 0), (1, 0))

PLAYER = 0


def start_outcomes(board: Board, bag: tuple[int, ...]) -> list[tuple[Action, float]]:
    """Chance's outcomes for the two start tiles (shared by Solitaire and the race): the first, any
    tile of ``bag`` in any rotation on ``START_CELLS[0]``; the second, any tile that can match it, each
    equally likely, in one of its matching rotations on ``START_CELLS[1]``."""
    if not board.tiles:
        p = 1.0 / (len(bag) * 6)
        return [({"t": "start", "tile": n, "rot": k}, p) for n in bag for k in range(6)]
    fits = pattern_fit(board.pattern(START_CELLS[1]))[1]
    options = [(n, fits[n]) for n in bag if n in fits]
    pn = 1.0 / len(options)
    return [({"t": "start", "tile": n, "rot": k}, pn / len(rots)) for n, rots in options for k in rots]


@dataclass(frozen=True)
class SolitaireState:
    """One position of Gobble Solitaire.

    ``bag``: tiles still to draw (sorted); ``penalty``: the penalty stack, bottom first; ``held``: the
    drawn tile waiting to be placed or sent to the penalty stack; ``phase``: "start", "draw", "place",
    "penalty", "rescue" or "over"; ``rescues``: rescues left after a gobble; ``last``: the cell of the
    last placement.
    """

    board: Board
    bag: tuple[int, ...]
    penalty: tuple[int, ...] = ()
    held: int | None = None
    phase: str = "start"
    rescues: int = 0
    gobbles: int = 0
    double_gobbles: int = 0
    last: Hex | None = None
    moves: int = 0
    escalating: bool = False


def _action_cell(action: Action) -> Hex:
    q, r = action["q"], action["r"]
    if not isinstance(q, int) or not isinstance(r, int) or isinstance(q, bool) or isinstance(r, bool):
        raise IllegalAction("cell coordinates must be integers")
    return (q, r)


class SolitaireRules:
    """Gobble Solitaire (one player, id 0). Config: ``{"escalating": bool}`` (default False: 3
    neighbours = 1 rescue, 4 or more = 2; escalating: neighbours - 2)."""

    info = SOLITAIRE_INFO

    def default_config(self) -> dict[str, Any]:
        return {"escalating": False, "purist": False}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        out = over_defaults(self.default_config(), config)
        return check_options(SOLITAIRE_OPTIONS, out)

    def initial_state(self, config: dict[str, Any]) -> SolitaireState:
        return SolitaireState(board=Board(), bag=TILE_NUMBERS, escalating=bool(config.get("escalating")))

    # ------------------------------------------------------------ who acts
    def active_players(self, s: SolitaireState) -> list[int]:
        if s.phase in ("start", "draw"):
            return [CHANCE]
        if s.phase == "over":
            return []
        return [PLAYER]

    def chance_outcomes(self, s: SolitaireState) -> list[tuple[Action, float]]:
        if s.phase == "draw":
            p = 1.0 / len(s.bag)
            return [({"t": "draw", "tile": n}, p) for n in s.bag]
        if s.phase == "start":
            return start_outcomes(s.board, s.bag)
        return []

    # -------------------------------------------------------------- legality
    def legal_actions(self, s: SolitaireState, player: int) -> list[Action]:
        if player != PLAYER:
            return []
        if s.phase == "place":
            return [{"t": "place", "tile": s.held, "rot": k, "q": c[0], "r": c[1]}
                    for c, k in s.board.placements(s.held)]
        if s.phase == "penalty":
            return [{"t": "penalty"}]
        if s.phase == "rescue":
            top = s.penalty[-1]
            out = [{"t": "place", "tile": top, "rot": k, "q": c[0], "r": c[1]}
                   for c, k in s.board.placements(top)]
            return out + [{"t": "return"}, {"t": "skip"}]
        return []

    def movable_tile(self, s: SolitaireState) -> int | None:
        """The tile the player may place now: the drawn tile, or the top of the penalty stack while
        rescuing; ``None`` otherwise."""
        if s.phase == "place":
            return s.held
        if s.phase == "rescue" and s.penalty:
            return s.penalty[-1]
        return None

    def check(self, s: SolitaireState, player: int, action: Action) -> None:
        if player != PLAYER:
            raise IllegalAction("Gobble Solitaire has one player")
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        t = action.get("t")
        if s.phase == "over":
            raise IllegalAction("the game is over")
        if t == "place":
            if set(action) != {"t", "tile", "rot", "q", "r"}:
                raise IllegalAction("a placement needs tile, rot, q and r")
            tile = self.movable_tile(s)
            if tile is None:
                raise IllegalAction("there is no tile to place now")
            if not isinstance(action["tile"], int) or isinstance(action["tile"], bool):
                raise IllegalAction("tile must be a tile number")
            if action["tile"] != tile:
                raise IllegalAction(f"the tile to place is {tile}, not {action['tile']}")
            rot = action["rot"]
            if not isinstance(rot, int) or isinstance(rot, bool) or not 0 <= rot < 6:
                raise IllegalAction("rotation must be 0..5")
            why = s.board.why_not(tile, rot, _action_cell(action))
            if why:
                raise IllegalAction(why)
            return
        if t == "penalty":
            if set(action) != {"t"}:
                raise IllegalAction("malformed penalty action")
            if s.phase != "penalty":
                raise IllegalAction("the drawn tile fits somewhere: it must be placed")
            return
        if t in ("return", "skip"):
            if set(action) != {"t"}:
                raise IllegalAction(f"malformed {t} action")
            if s.phase != "rescue":
                raise IllegalAction("there is no rescue to make now")
            return
        raise IllegalAction(f"unknown action {t!r}")

    # ----------------------------------------------------------------- apply
    def _after_turn(self, s: SolitaireState) -> SolitaireState:
        """Next phase once the player's tile is dealt with."""
        if s.rescues > 0 and s.penalty:
            return replace(s, phase="rescue")
        s = replace(s, rescues=0)
        if not s.bag:
            return replace(s, phase="over")
        return replace(s, phase="draw")

    def apply(self, s: SolitaireState, player: int, action: Action) -> tuple[SolitaireState, list[Event]]:
        t = action["t"]
        ev: list[Event] = []
        if player == CHANCE:
            n = action["tile"]
            bag = tuple(x for x in s.bag if x != n)
            if t == "start":
                cell = START_CELLS[0] if not s.board.tiles else START_CELLS[1]
                board = s.board.place(n, action["rot"], cell)
                ev.append({"e": "start", "tile": n, "rot": action["rot"], "q": cell[0], "r": cell[1]})
                phase = "draw" if len(board) == 2 else "start"
                return replace(s, board=board, bag=bag, phase=phase), ev
            # draw
            ev.append({"e": "draw", "tile": n})
            if s.board.fits_anywhere(n):
                return replace(s, bag=bag, held=n, phase="place"), ev
            ev.append({"e": "fits_nowhere", "tile": n})
            return replace(s, bag=bag, held=n, phase="penalty"), ev

        if t == "place":
            n, rot = action["tile"], action["rot"]
            cell = (action["q"], action["r"])
            k = s.board.neighbour_count(cell)
            gifts = gift_count(k, s.escalating)
            board = s.board.place(n, rot, cell)
            ev.append({"e": "place", "tile": n, "rot": rot, "q": cell[0], "r": cell[1],
                       "rescued": s.phase == "rescue"})
            if s.phase == "rescue":
                s = replace(s, penalty=s.penalty[:-1], rescues=s.rescues - 1)
                ev.append({"e": "rescue", "how": "play", "tile": n})
            else:
                s = replace(s, held=None)
            if gifts:
                ev.append({"e": "gobble", "level": gifts, "neighbours": k, "q": cell[0], "r": cell[1]})
            s = replace(s, board=board, last=cell, moves=s.moves + 1, rescues=s.rescues + gifts,
                        gobbles=s.gobbles + (1 if gifts == 1 else 0),
                        double_gobbles=s.double_gobbles + (1 if gifts >= 2 else 0))
            return self._after_turn(s), ev
        if t == "penalty":
            ev.append({"e": "penalty", "tile": s.held})
            s = replace(s, penalty=s.penalty + (s.held,), held=None, moves=s.moves + 1)
            return self._after_turn(s), ev
        if t == "return":
            top = s.penalty[-1]
            ev.append({"e": "rescue", "how": "return", "tile": top})
            s = replace(s, penalty=s.penalty[:-1], bag=tuple(sorted(s.bag + (top,))),
                        rescues=s.rescues - 1, moves=s.moves + 1)
            return self._after_turn(s), ev
        if t == "skip":
            ev.append({"e": "rescue", "how": "skip"})
            return self._after_turn(replace(s, rescues=0, moves=s.moves + 1)), ev
        raise IllegalAction(f"unknown action {t!r}")

    # --------------------------------------------------------------- results
    def is_terminal(self, s: SolitaireState) -> bool:
        return s.phase == "over"

    def outcome(self, s: SolitaireState) -> dict[str, Any]:
        pen = len(s.penalty)
        return {"penalty": pen, "win": s.phase == "over" and pen == 0, "placed": len(s.board),
                "gobbles": s.gobbles, "double_gobbles": s.double_gobbles, "scores": [-pen]}

    def undoable(self, s: SolitaireState, player: int, action: Action) -> bool:
        return action.get("t") in ("place", "skip", "return")

    def invariants(self, s: SolitaireState) -> list[str]:
        bad = []
        held = [s.held] if s.held is not None else []
        tiles = list(s.bag) + [n for n, _ in s.board.tiles.values()] + list(s.penalty) + held
        if len(tiles) != 56 or set(tiles) != set(TILE_NUMBERS):
            bad.append(f"tiles not conserved: {len(tiles)} tiles, {len(set(tiles))} distinct")
        if s.board.mismatches():
            bad.append(f"{s.board.mismatches()} mismatched edges on the board")
        if s.phase == "place" and s.held is None:
            bad.append("phase place without a held tile")
        if s.phase == "rescue" and (not s.penalty or s.rescues <= 0):
            bad.append("rescue phase with nothing to rescue")
        return bad
