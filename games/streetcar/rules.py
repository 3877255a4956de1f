"""Streetcar rules engine (pure: no pygame, no clock, no global random state).

specs/streetcar.md (seed 003, Board Game Arena's *Streetcar*, after *Linie 1*), 2 to 5 players:

* Set-up: chance deals each seat a secret line card (1-6), then a secret route card: the 3-stop cards
  with 2 or 3 players, the 2-stop cards with 4 or 5 (research §4). Every hand starts with 3 straights
  and 2 curves; the draw pile holds the 1995 counts (101 tiles) or, as an option, Board Game Arena's 125.
  Seat 0 starts; play goes round by seat number.
* Phase 1, a turn: play exactly 2 tiles, each placed on an empty square or exchanged for a brown tile on
  the board (keeping every track of it: research §6.2); the exchanged tile goes to the player's hand.
  Legality is judged on the board after both tiles (research §6.2, the BGA rule), so a first tile may
  leave one track end against a brown tile's blank side if the second tile exchanges that tile to meet
  it (two adjacent exchanges of the rulebook's example A/B included). The second tile may not exchange
  the first. Then the player refills to 5 from the pile, one chance draw at a time.
* A player who can play no tile passes; with the second tile only, the turn simply ends. When the pile
  is empty players play from their hands. If every player passes in turn while nobody drives, the game
  is a draw.
* A player whose route is complete (research §6.4, :mod:`.route`) may start the inaugural trip at the
  start of their turn or after its first tile (BGA): the cards are shown, the tram stands on the chosen
  terminal, and the player rolls in the same turn. With ``share_hands`` (default, BGA) the hand tiles of a
  player who drives may be played by the others.
* Phase 2, a turn: roll 3 dice and carry out one, then stop or roll 2 and carry out one, then stop or
  roll the last (the ``classic`` die: one roll, one die). Only moves after which the route can still be
  completed are offered; at a branch the player chooses (the action names the path). Tools sends the
  tram back to the last stop or terminal passed and ends the turn. The first tram to reach its
  destination with every stop served wins at once.

Actions (JSON dicts). Chance: ``{"t": "line", "line"}``, ``{"t": "card", "card"}``, ``{"t": "draw",
"tile"}``, ``{"t": "die", "face"}``. Players: ``{"t": "tile", "tile", "rot", "x", "y"}`` (plus ``"hand":
seat`` to play from a driving player's hand), ``{"t": "start", "end": 0|1}``, ``{"t": "pass"}``,
``{"t": "roll"}``, ``{"t": "stop"}``, ``{"t": "drive", "die": index, "path": [[x, y, side], ...]}``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Iterator

from sim.core.options import check as check_options, over_defaults
from sim.core.rules import CHANCE, Action, Event, GameInfo, IllegalAction

from . import route as R
from .data import (DICE, HAND_SIZE, LETTERS, PILES, ROUTE_CARDS, START_HAND, TILE_IDS, TILES, face_steps,
                   route_cards_for, stops_of)
from .options import OPTIONS
from .tiles import (BOARD_CELLS, BOARD_SET, BUILDING_AT, EXCHANGEABLE, FIXED, NEIGH, NEXT_TO, ORIENT, ORIENTS,
                    SIDES, TRACK_OF_CODE, CELLS, EMPTY, Board, cell_of, keeps_tracks, xy_of)

PHASES = ("deal", "play", "refill", "roll", "dice", "choose", "over")

INFO = GameInfo(name="streetcar", title="Streetcar", min_players=2, max_players=5, realtime=False,
                rules_version=1)


@dataclass(frozen=True)
class Seat:
    """One player. ``line`` (0 until dealt, or hidden), ``card`` (route card name) and ``stops`` (the
    building letters of that card for the line) are secret until the trip starts. ``hand``: open hand,
    sorted tile ids. Driving: ``start`` (terminal end 0/1 left from), ``pos`` (tram node), ``served``
    (bit mask over ``stops``), ``last`` (node of the last stop or terminal passed)."""

    line: int = 0
    card: str = ""
    stops: str = ""
    hand: tuple[int, ...] = START_HAND
    driving: bool = False
    start: int = -1
    pos: int = -1
    served: int = 0
    last: int = -1

    @property
    def dest(self) -> int:
        return 1 - self.start


@dataclass(frozen=True)
class State:
    """A position. ``phase``: "deal" (chance deals cards), "play" (a builder's turn), "refill" (chance
    draws), "roll" (a driver rolls or stops), "dice" (chance rolls), "choose" (the driver carries out a
    die) or "over". ``pile``: tiles left per tile id (the pile has no order: each draw is chance).
    ``played``: tiles played this turn; ``first``: cell of the first; ``pending``: the board is illegal
    until the second tile mends it at cell ``fix``. ``to_draw`` / ``to_roll``: chance steps left;
    ``dice``: the faces rolled and not yet used; ``used``: dice used this turn; ``passes``: passes in a
    row; ``winner``: seat or -1."""

    players: int
    faces: tuple[str, ...]
    classic: bool
    share: bool
    pile_name: str
    board: Board
    pile: tuple[int, ...]
    seats: tuple[Seat, ...]
    lines_left: tuple[int, ...]
    cards_left: tuple[str, ...]
    phase: str = "deal"
    dealt: int = 0
    turn: int = 0
    played: int = 0
    first: int = -1
    pending: bool = False
    fix: int = -1
    to_draw: int = 0
    to_roll: int = 0
    dice: tuple[str, ...] = ()
    used: int = 0
    passes: int = 0
    winner: int = -1
    draw: bool = False
    turns: int = 0

    @property
    def pile_size(self) -> int:
        return sum(self.pile)

    def driving(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.driving]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _remove(hand: tuple[int, ...], tile: int) -> tuple[int, ...]:
    i = hand.index(tile)
    return hand[:i] + hand[i + 1:]


def _add(hand: tuple[int, ...], tile: int) -> tuple[int, ...]:
    return tuple(sorted(hand + (tile,)))


@dataclass(frozen=True)
class TilePlay:
    """A checked tile play: where from, what, where, and the board after it."""

    hand: int
    tile: int
    rot: int
    cell: int
    old: int | None  # the tile taken off by an exchange
    board: Board
    pending: bool
    fix: int


class StreetcarRules:
    """Streetcar for 2 to 5 seats. Config: ``players`` (2..5), ``dice`` ("bga" default, "published",
    "classic"), ``pile`` ("1995" default, "bga"), ``share_hands`` (True: a driver's hand is open to
    the builders, BGA)."""

    info = INFO

    # ------------------------------------------------------------------ config
    def default_config(self) -> dict[str, Any]:
        return {"players": 2, "dice": "bga", "pile": "1995", "share_hands": True}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(config, dict):
            raise ValueError("config must be an object")
        out = over_defaults(self.default_config(), config)
        n = out["players"]
        if not _int(n) or not 2 <= n <= 5:
            raise ValueError(f"Streetcar is for 2 to 5 players, not {n!r}")
        return check_options(OPTIONS, out)

    def initial_state(self, config: dict[str, Any]) -> State:
        cfg = self.validate_config(config)
        n = cfg["players"]
        return State(players=n, faces=DICE[cfg["dice"]], classic=cfg["dice"] == "classic",
                     share=cfg["share_hands"], pile_name=cfg["pile"], board=Board(),
                     pile=tuple(PILES[cfg["pile"]][t] for t in TILE_IDS),
                     seats=tuple(Seat() for _ in range(n)), lines_left=(1, 2, 3, 4, 5, 6),
                     cards_left=route_cards_for(n))

    # ------------------------------------------------------------------ who acts
    def active_players(self, s: State) -> list[int]:
        if s.phase in ("deal", "refill", "dice"):
            return [CHANCE]
        if s.phase == "over":
            return []
        return [s.turn]

    def chance_outcomes(self, s: State) -> list[tuple[Action, float]]:
        if s.phase == "deal":
            if s.dealt < s.players:
                return [({"t": "line", "line": k}, 1.0 / len(s.lines_left)) for k in s.lines_left]
            return [({"t": "card", "card": c}, 1.0 / len(s.cards_left)) for c in s.cards_left]
        if s.phase == "refill":
            total = s.pile_size
            return [({"t": "draw", "tile": t}, c / total) for t, c in zip(TILE_IDS, s.pile) if c]
        if s.phase == "dice":
            faces = s.faces
            return [({"t": "die", "face": f}, faces.count(f) / len(faces)) for f in dict.fromkeys(faces)]
        return []

    # ------------------------------------------------------------------ observation
    def observe(self, s: State, seat: int) -> State:
        """What ``seat`` may see: everything but the other players' line and route cards while they
        build (shown once they drive). The pile has no order to hide; its make-up follows from the open
        hands and the board. Raises ``ValueError`` for a seat not at the table."""
        if not _int(seat) or not 0 <= seat < s.players:
            raise ValueError(f"no seat {seat!r}")
        seats = tuple(st if i == seat or st.driving else replace(st, line=0, card="", stops="")
                      for i, st in enumerate(s.seats))
        return replace(s, seats=seats, lines_left=(), cards_left=())

    def state_to_json(self, s: State) -> dict[str, Any]:
        """``s`` (usually an :meth:`observe` result) as a JSON object: the state's fields by name, the
        board as its 196 cell codes and stop-sign cells, each seat by its fields."""
        out: dict[str, Any] = {}
        for f in fields(State):
            v = getattr(s, f.name)
            if f.name == "board":
                v = {"cells": list(v.cells), "signs": list(v.signs)}
            elif f.name == "seats":
                v = [{g.name: list(x) if isinstance(x, tuple) else x
                      for g in fields(Seat) for x in (getattr(st, g.name),)} for st in v]
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out

    def state_from_json(self, obj: Any) -> State:
        """The state :meth:`state_to_json` wrote; ``ValueError`` with a reason for anything else (wrong
        keys, types or ranges, or a position that breaks :meth:`invariants`; a seat whose cards are
        hidden, line 0, is allowed after the deal)."""
        keys = {f.name for f in fields(State)}
        skeys = {f.name for f in fields(Seat)}
        if not isinstance(obj, dict) or set(obj) != keys:
            raise ValueError("a Streetcar state has exactly the keys " + ", ".join(sorted(keys)))

        def need(ok: bool, what: str) -> None:
            if not ok:
                raise ValueError(f"not a Streetcar position: {what}")

        def ints(v: Any, lo: int, hi: int, n: int | None = None) -> tuple[int, ...]:
            need(isinstance(v, list) and (n is None or len(v) == n)
                 and all(_int(x) and lo <= x <= hi for x in v), f"a list of whole numbers {lo}..{hi}")
            return tuple(v)

        n = obj["players"]
        need(_int(n) and 2 <= n <= 5, "players must be 2 to 5")
        need(isinstance(obj["faces"], list) and tuple(obj["faces"]) in DICE.values(), "unknown dice")
        need(isinstance(obj["pile_name"], str) and obj["pile_name"] in PILES, "unknown draw pile")
        for k in ("classic", "share", "pending", "draw"):
            need(isinstance(obj[k], bool), f"{k} must be true or false")
        need(obj["classic"] == (tuple(obj["faces"]) == DICE["classic"]), "classic must match the dice")
        need(obj["phase"] in PHASES, "unknown phase")
        bo = obj["board"]
        need(isinstance(bo, dict) and set(bo) == {"cells", "signs"}, "a board has cells and signs")
        cells = ints(bo["cells"], EMPTY, 4 * len(TILE_IDS) - 1, CELLS)
        need(all(cells[c] == EMPTY for c in range(CELLS) if c not in BOARD_SET or c in BUILDING_AT),
             "a tile off the board's squares")
        signs = ints(bo["signs"], -1, CELLS - 1, len(LETTERS))
        pile = ints(obj["pile"], 0, 999, len(TILE_IDS))
        seats_in = obj["seats"]
        need(isinstance(seats_in, list) and len(seats_in) == n, "one entry per seat")
        seats = []
        for d in seats_in:
            need(isinstance(d, dict) and set(d) == skeys, "a seat has " + ", ".join(sorted(skeys)))
            need(_int(d["line"]) and 0 <= d["line"] <= 6, "a line is 1 to 6 (0: not known)")
            need(isinstance(d["card"], str) and (d["card"] in ROUTE_CARDS or d["card"] == ""), "unknown route card")
            need(isinstance(d["stops"], str) and (d["stops"] == (stops_of(d["card"], d["line"])
                                                                  if d["card"] and d["line"] else "")),
                 "the stops must be the route card's for the line")
            hand = ints(d["hand"], 0, len(TILE_IDS) - 1)
            need(len(hand) <= 2 * HAND_SIZE and list(hand) == sorted(hand), "a hand is sorted tile ids")
            need(isinstance(d["driving"], bool), "driving must be true or false")
            need(not d["driving"] or bool(d["line"] and d["card"]), "a driver's cards are open")
            for k in ("start", "pos", "last"):
                need(_int(d[k]) and -1 <= d[k] < CELLS * 5, f"{k} must be a tram position or -1")
            need(d["start"] in (-1, 0, 1), "start must be a terminal end")
            need(_int(d["served"]) and 0 <= d["served"] < 1 << 4, "served must be a bit mask of the stops")
            seats.append(Seat(line=d["line"], card=d["card"], stops=d["stops"], hand=hand, driving=d["driving"],
                              start=d["start"], pos=d["pos"], served=d["served"], last=d["last"]))
        lines_left = ints(obj["lines_left"], 1, 6)
        need(isinstance(obj["cards_left"], list) and all(c in ROUTE_CARDS for c in obj["cards_left"]),
             "unknown route cards left")
        need(isinstance(obj["dice"], list) and all(f in obj["faces"] for f in obj["dice"]) and len(obj["dice"]) <= 3,
             "dice must be faces of the game's die")
        nums = {}
        for k, lo, hi in (("dealt", 0, 2 * n), ("turn", 0, n - 1), ("played", 0, 2), ("first", -1, CELLS - 1),
                          ("fix", -1, CELLS - 1), ("to_draw", 0, 2 * HAND_SIZE), ("to_roll", 0, 3),
                          ("used", 0, 3), ("passes", 0, 10 * n), ("winner", -1, n - 1), ("turns", 0, 10 ** 6)):
            need(_int(obj[k]) and lo <= obj[k] <= hi, f"{k} must be a whole number {lo}..{hi}")
            nums[k] = obj[k]
        s = State(players=n, faces=tuple(obj["faces"]), classic=obj["classic"], share=obj["share"],
                  pile_name=obj["pile_name"], board=Board(cells, signs), pile=pile, seats=tuple(seats),
                  lines_left=lines_left, cards_left=tuple(obj["cards_left"]), phase=obj["phase"],
                  pending=obj["pending"], dice=tuple(obj["dice"]), draw=obj["draw"], **nums)
        hidden = {f"seat {i} has no cards after the deal" for i, st in enumerate(s.seats) if not st.line}
        try:
            bad = [b for b in self.invariants(s) if b not in hidden]
        except (IndexError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a Streetcar position: {e}") from None
        need(not bad, bad[0] if bad else "")
        return s

    # ------------------------------------------------------------------ helpers
    def route_complete(self, s: State, seat: int) -> bool:
        """Whether ``seat``'s route is complete on the board (False while its cards are unknown)."""
        st = s.seats[seat]
        return bool(st.line) and bool(st.stops) and R.route_complete(s.board, st.line, st.stops)

    def linked_stops(self, s: State, seat: int) -> str:
        """The stops of ``seat`` whose sign tile track already links to one of its terminals."""
        st = s.seats[seat]
        return R.linked_stops(s.board, st.line, st.stops) if st.line else ""

    def route_table(self, s: State, seat: int) -> R.RouteTable | None:
        """Distances to the win of a driving ``seat`` (None if it does not drive)."""
        st = s.seats[seat]
        if not st.driving:
            return None
        return R.route_table(s.board, st.line, st.dest, st.stops)

    def sources(self, s: State, player: int) -> list[int]:
        """Seats whose hand ``player`` may play from now: their own, and with ``share_hands`` every
        driving player's."""
        out = [player]
        if s.share:
            out += [i for i, st in enumerate(s.seats) if st.driving and i != player and st.hand]
        return out

    def exchangeable_cells(self, s: State) -> list[tuple[int, int]]:
        """Squares (x, y) holding a brown tile (the ones an exchange may replace)."""
        return [xy_of(c) for c in BOARD_CELLS if s.board.cells[c] >= 0 and s.board.cells[c] >> 2 in EXCHANGEABLE]

    def can_start(self, s: State, player: int) -> bool:
        """Whether ``player`` may start the inaugural trip now."""
        if s.phase != "play" or player != s.turn or s.seats[player].driving:
            return False
        if s.played > 1 or s.pending:
            return False
        return self.route_complete(s, player)

    # ------------------------------------------------------------------ tile plays
    def _tile_play(self, s: State, player: int, hand: int, tile: int, rot: int, cell: int) -> TilePlay:
        """Check one tile play; raises IllegalAction with the reason."""
        x, y = xy_of(cell)
        if cell not in BOARD_SET:
            raise IllegalAction(f"({x},{y}) is not a square of the board")
        if cell in BUILDING_AT:
            raise IllegalAction(f"({x},{y}) is building {BUILDING_AT[cell]}: no track may cover it")
        if tile not in s.seats[hand].hand:
            who = "your hand" if hand == player else f"player {hand + 1}'s hand"
            raise IllegalAction(f"there is no {TILES[tile].name} tile in {who}")
        board = s.board
        mask = ORIENT[tile][rot]
        old = board.tile_at(cell)
        if old is not None:
            if s.played == 1 and cell == s.first:
                raise IllegalAction("the second tile may not exchange the tile just placed")
            if old[0] not in EXCHANGEABLE:
                raise IllegalAction(f"the tile at ({x},{y}) has trees: it can never be exchanged")
            old_mask = ORIENT[old[0]][old[1]]
            if not keeps_tracks(old_mask, mask):
                if mask & old_mask == old_mask:
                    raise IllegalAction("an exchange must add track: that tile shows the same tracks")
                raise IllegalAction(f"an exchange must keep every track of the tile at ({x},{y})")
        after = board.put(cell, tile, rot)
        if s.played == 0:
            bad = after.defects([cell])
            if not bad:
                return TilePlay(hand, tile, rot, cell, None if old is None else old[0], after, False, -1)
            fix = self._fixable(s, player, hand, tile, cell, old, after, bad)
            if fix < 0:
                raise IllegalAction(bad[0][0])
            return TilePlay(hand, tile, rot, cell, None if old is None else old[0], after, True, fix)
        if s.pending and cell != s.fix:
            fx, fy = xy_of(s.fix)
            raise IllegalAction(f"the second tile must mend the first: exchange the tile at ({fx},{fy})")
        bad = after.defects([s.first, cell])
        if bad:
            raise IllegalAction(bad[0][0])
        return TilePlay(hand, tile, rot, cell, None if old is None else old[0], after, False, -1)

    def _hands_after(self, s: State, player: int, hand: int, tile: int, old: tuple[int, int] | None):
        seats = list(s.seats)
        seats[hand] = replace(seats[hand], hand=_remove(seats[hand].hand, tile))
        if old is not None:
            seats[player] = replace(seats[player], hand=_add(seats[player].hand, old[0]))
        return seats

    def _fixable(self, s: State, player: int, hand: int, tile: int, cell: int, old, after: Board, bad) -> int:
        """The cell where a second tile can make a first tile with rule breaks ``bad`` legal (an
        exchange of the brown tile its track end runs into), or -1 if none can."""
        fixes = {f for _, f in bad}
        if len(fixes) != 1:
            return -1
        f = fixes.pop()
        if f < 0 or after.cells[f] < 0 or after.cells[f] >> 2 not in EXCHANGEABLE:
            return -1
        seats = self._hands_after(s, player, hand, tile, old)
        fold = TRACK_OF_CODE[after.cells[f]]
        srcs = [player] + ([i for i, st in enumerate(seats) if st.driving and i != player] if s.share else [])
        for h in srcs:
            for t in sorted(set(seats[h].hand)):
                for r, m in ORIENTS[t]:
                    if keeps_tracks(fold, m) and not after.put(f, t, r).defects([cell, f]):
                        return f
        return -1

    def _iter_tile_plays(self, s: State, player: int, only_tile: int | None = None,
                         only_hand: int | None = None) -> Iterator[Action]:
        """Every legal tile play of ``player`` now (distinct tracks only: of two rotations showing the
        same tracks, the lower), lazily."""
        if s.phase != "play" or player != s.turn or s.played >= 2:
            return
        board = s.board
        cells = board.cells
        for h in self.sources(s, player):
            for t in sorted(set(s.seats[h].hand)):
                if only_tile is not None and t != only_tile:
                    continue
                if only_hand is not None and h != only_hand:
                    continue
                for r, m in ORIENTS[t]:
                    if s.pending:
                        targets = [s.fix]
                    else:
                        targets = BOARD_CELLS
                    for c in targets:
                        if c in BUILDING_AT:
                            continue
                        code = cells[c]
                        if code >= 0:
                            if code >> 2 not in EXCHANGEABLE or (s.played == 1 and c == s.first):
                                continue
                            if not keeps_tracks(TRACK_OF_CODE[code], m):
                                continue
                        elif s.pending:
                            continue
                        if s.played == 1 and s.pending:
                            ok = not board.put(c, t, r).defects([s.first, c])
                        elif board.placeable(c, m):
                            ok = True
                        elif s.played == 0 and self._may_mend(board, c, m):
                            try:
                                self._tile_play(s, player, h, t, r, c)
                                ok = True
                            except IllegalAction:
                                ok = False
                        else:
                            ok = False
                        if ok:
                            x, y = xy_of(c)
                            a = {"t": "tile", "tile": t, "rot": r, "x": x, "y": y}
                            if h != player:
                                a["hand"] = h
                            yield a

    @staticmethod
    def _may_mend(board: Board, c: int, m: int) -> bool:
        """Cheap filter: the only rule a first tile ``m`` on ``c`` breaks could be a track end against
        the blank side of one brown tile (which the second tile might exchange)."""
        must, forbid = board.constraints(c)
        sides = SIDES[m]
        if sides & must != must:
            return False
        hit = sides & forbid
        if not hit or hit & (hit - 1):
            return False
        if hit & FIXED[c][1]:
            return False
        d = hit.bit_length() - 1
        n = NEIGH[c][d]
        return board.cells[n] >= 0 and board.cells[n] >> 2 in EXCHANGEABLE

    def tile_plays(self, s: State, player: int, tile: int | None = None, hand: int | None = None) -> list[Action]:
        """Every legal tile play of ``player`` now, optionally only of tile id ``tile`` from seat
        ``hand``'s hand (what the screen highlights for a selected tile)."""
        return list(self._iter_tile_plays(s, player, tile, hand))

    def has_tile_play(self, s: State, player: int) -> bool:
        return next(self._iter_tile_plays(s, player), None) is not None

    def can_pass(self, s: State, player: int) -> bool:
        """Whether ``player`` may pass now: a builder who can play no tile (and, before the first tile,
        cannot start the trip either); with a first tile down and no legal second one, this ends the
        turn."""
        if s.phase != "play" or player != s.turn or s.pending:
            return False
        if s.played == 0 and self.can_start(s, player):
            return False
        return not self.has_tile_play(s, player)

    # ------------------------------------------------------------------ legality
    def legal_actions(self, s: State, player: int) -> list[Action]:
        if player not in self.active_players(s) or player == CHANCE:
            return []
        if s.phase == "play":
            out = self.tile_plays(s, player)
            has_tile = bool(out)
            if self.can_start(s, player):
                out += [{"t": "start", "end": 0}, {"t": "start", "end": 1}]
            if not has_tile and self.can_pass(s, player):
                out.append({"t": "pass"})
            return out
        if s.phase == "roll":
            return [{"t": "roll"}] + ([{"t": "stop"}] if s.used else [])
        if s.phase == "choose":
            out = []
            for i, face in enumerate(s.dice):
                if face in s.dice[:i]:
                    continue
                for mv in self.moves(s, face):
                    out.append({"t": "drive", "die": i, "path": [R.node_json(n) for n in mv.path]})
            return out
        return []

    def moves(self, s: State, face: str) -> list[R.Move]:
        """Every way the driving player can carry out a die showing ``face`` now (one per distinct
        outcome). RED and TOOLS have one, with no path (tools jumps back to the last station)."""
        st = s.seats[s.turn]
        if not st.driving:
            return []
        if face in ("RED", "TOOLS"):
            return [R.Move((), st.served, False, None)]
        table = R.route_table(s.board, st.line, st.dest, st.stops)
        if face == "H":
            mv = R.station_moves(s.board, table, st.pos, st.served)
            return mv or [R.Move((), st.served, False, None)]
        return R.steps_moves(s.board, table, st.pos, st.served, face_steps(face))

    def check(self, s: State, player: int, action: Action) -> None:
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        if player == CHANCE:
            raise IllegalAction("chance actions are made by the match")
        if s.phase == "over":
            raise IllegalAction("the game is over")
        if player not in self.active_players(s):
            raise IllegalAction(f"it is not player {player + 1}'s turn" if _int(player) and player >= 0
                                else "that player may not act now")
        t = action.get("t")
        if t == "tile":
            self._parse_tile(s, player, action)
            return
        if t == "start":
            if set(action) != {"t", "end"} or action["end"] not in (0, 1) or isinstance(action["end"], bool):
                raise IllegalAction("start needs end 0 or 1 (which terminal the tram leaves from)")
            if s.phase != "play":
                raise IllegalAction("the trip has already started")
            if s.pending:
                raise IllegalAction("the first tile still needs the second to be legal")
            if not self.route_complete(s, player):
                raise IllegalAction("your route is not complete yet")
            return
        if t == "pass":
            if set(action) != {"t"}:
                raise IllegalAction("malformed pass")
            if s.phase != "play":
                raise IllegalAction("only a player building track can pass")
            if s.pending:
                raise IllegalAction("the first tile still needs the second to be legal")
            if s.played == 0 and self.can_start(s, player):
                raise IllegalAction("you can start your trip: no passing")
            if self.has_tile_play(s, player):
                raise IllegalAction("you can still play a tile")
            return
        if t in ("roll", "stop"):
            if set(action) != {"t"}:
                raise IllegalAction(f"malformed {t}")
            if s.phase != "roll":
                raise IllegalAction("there are no dice to roll now")
            if t == "stop" and s.used == 0:
                raise IllegalAction("roll the dice at least once")
            return
        if t == "drive":
            self._parse_drive(s, player, action)
            return
        raise IllegalAction(f"unknown action {t!r}")

    def _parse_tile(self, s: State, player: int, a: Action) -> TilePlay:
        keys = set(a)
        if keys not in ({"t", "tile", "rot", "x", "y"}, {"t", "tile", "rot", "x", "y", "hand"}):
            raise IllegalAction("a tile play needs tile, rot, x and y (and hand to play a driver's tile)")
        if s.phase != "play":
            raise IllegalAction("no tiles are played now")
        if s.played >= 2:
            raise IllegalAction("two tiles are played a turn")
        for k in ("tile", "rot", "x", "y"):
            if not _int(a[k]):
                raise IllegalAction(f"{k} must be a whole number")
        if a["tile"] not in TILES:
            raise IllegalAction(f"no tile type {a['tile']}")
        if not 0 <= a["rot"] <= 3:
            raise IllegalAction("rotation must be 0..3")
        if not (1 <= a["x"] <= 12 and 1 <= a["y"] <= 12):
            raise IllegalAction(f"({a['x']},{a['y']}) is not a square of the board")
        hand = a.get("hand", player)
        if not _int(hand) or not 0 <= hand < s.players:
            raise IllegalAction(f"no seat {hand!r}")
        if hand != player:
            if not s.share:
                raise IllegalAction("tiles are played from your own hand")
            if not s.seats[hand].driving:
                raise IllegalAction(f"player {hand + 1} is still building: their tiles are theirs")
        return self._tile_play(s, player, hand, a["tile"], a["rot"], cell_of(a["x"], a["y"]))

    def _parse_drive(self, s: State, player: int, a: Action) -> R.Move:
        if set(a) != {"t", "die", "path"}:
            raise IllegalAction("drive needs die and path")
        if s.phase != "choose":
            raise IllegalAction("roll first")
        i = a["die"]
        if not _int(i) or not 0 <= i < len(s.dice):
            raise IllegalAction(f"there is no die {i!r}")
        if not isinstance(a["path"], list):
            raise IllegalAction("path must be a list of [x, y, side]")
        try:
            path = tuple(R.node_from_json(v) for v in a["path"])
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        face = s.dice[i]
        st = s.seats[player]
        if face in ("RED", "TOOLS"):
            if path:
                raise IllegalAction("red light: the tram does not move" if face == "RED"
                                    else "tools: the tram goes back to the last stop or terminal by itself")
            return R.Move((), st.served, False, None)
        table = R.route_table(s.board, st.line, st.dest, st.stops)
        try:
            if face == "H":
                return R.check_path(s.board, table, st.pos, st.served, "station", 0, path)
            return R.check_path(s.board, table, st.pos, st.served, "steps", face_steps(face), path)
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    # ------------------------------------------------------------------ apply
    def apply(self, s: State, player: int, action: Action) -> tuple[State, list[Event]]:
        t = action["t"]
        ev: list[Event] = []
        if player == CHANCE:
            return self._apply_chance(s, action)
        if t == "tile":
            p = self._parse_tile(s, player, action)
            seats = self._hands_after(s, player, p.hand, p.tile, None if p.old is None else (p.old, 0))
            x, y = xy_of(p.cell)
            e = {"e": "tile", "seat": player, "tile": p.tile, "rot": p.rot, "x": x, "y": y,
                 "how": "placed" if p.old is None else "exchanged", "hand": p.hand}
            if p.old is not None:
                e["old"] = p.old
            sign = NEXT_TO.get(p.cell)
            if sign and s.board.sign_of(sign) < 0 and p.board.sign_of(sign) == p.cell:
                e["sign"] = sign
            ev.append(e)
            s = replace(s, board=p.board, seats=tuple(seats), played=s.played + 1, passes=0,
                        first=p.cell if s.played == 0 else s.first, pending=p.pending, fix=p.fix)
            if s.played == 2:
                return self._refill(s, ev)
            if not s.pending and not self.has_tile_play(s, player) and not self.can_start(s, player):
                ev.append({"e": "no_second", "seat": player})
                return self._refill(s, ev)
            return s, ev
        if t == "start":
            st = s.seats[player]
            end = action["end"]
            pos = R.home(st.line, end)
            seats = list(s.seats)
            seats[player] = replace(st, driving=True, start=end, pos=pos, served=0, last=pos)
            ev.append({"e": "start", "seat": player, "line": st.line, "card": st.card, "stops": st.stops,
                       "end": end})
            return replace(s, seats=tuple(seats), phase="roll", used=0, dice=(), passes=0), ev
        if t == "pass":
            if s.played == 0:
                ev.append({"e": "pass", "seat": player})
                s = replace(s, passes=s.passes + 1)
                if not s.driving() and s.passes >= s.players:
                    ev.append({"e": "draw", "reason": "nobody could play a tile for a whole round"})
                    return replace(s, phase="over", draw=True), ev
            else:
                ev.append({"e": "no_second", "seat": player})
            return self._refill(s, ev)
        if t == "roll":
            k = 1 if s.classic else 3 - s.used
            ev.append({"e": "roll", "seat": player, "dice": k})
            return replace(s, phase="dice", to_roll=k, dice=(), passes=0), ev
        if t == "stop":
            ev.append({"e": "stop", "seat": player})
            return self._end_turn(s, ev)
        if t == "drive":
            mv = self._parse_drive(s, player, action)
            face = s.dice[action["die"]]
            st = s.seats[player]
            if face == "TOOLS":
                seats = list(s.seats)
                seats[player] = replace(st, pos=st.last)
                ev.append({"e": "tools", "seat": player, "to": R.node_json(st.last)})
                return self._end_turn(replace(s, seats=tuple(seats), dice=(), used=s.used + 1), ev)
            seats = list(s.seats)
            pos = mv.path[-1] if mv.path else st.pos
            last = mv.station if mv.station is not None else st.last
            seats[player] = replace(st, pos=pos, served=mv.served, last=last)
            newly = "".join(k for i, k in enumerate(st.stops) if mv.served >> i & 1 and not st.served >> i & 1)
            ev.append({"e": "drive", "seat": player, "face": face, "path": [R.node_json(n) for n in mv.path],
                       "served": newly, "win": mv.win})
            s = replace(s, seats=tuple(seats), dice=(), used=s.used + 1)
            if mv.win:
                ev.append({"e": "win", "seat": player})
                return replace(s, phase="over", winner=player), ev
            if s.classic or s.used >= 3:
                return self._end_turn(s, ev)
            return replace(s, phase="roll"), ev
        raise IllegalAction(f"unknown action {t!r}")

    def _apply_chance(self, s: State, a: Action) -> tuple[State, list[Event]]:
        t = a["t"]
        if t == "line":
            k = a["line"]
            i = s.dealt
            seats = list(s.seats)
            seats[i] = replace(seats[i], line=k)
            return replace(s, seats=tuple(seats), lines_left=tuple(x for x in s.lines_left if x != k),
                           dealt=i + 1), [{"e": "deal_line", "seat": i}]
        if t == "card":
            c = a["card"]
            i = s.dealt - s.players
            seats = list(s.seats)
            seats[i] = replace(seats[i], card=c, stops=stops_of(c, seats[i].line))
            s = replace(s, seats=tuple(seats), cards_left=tuple(x for x in s.cards_left if x != c), dealt=s.dealt + 1)
            ev = [{"e": "deal_card", "seat": i}]
            if i == s.players - 1:
                s = replace(s, phase="play", turn=0)
                ev.append({"e": "turn", "seat": 0})
            return s, ev
        if t == "draw":
            tile = a["tile"]
            seats = list(s.seats)
            seats[s.turn] = replace(seats[s.turn], hand=_add(seats[s.turn].hand, tile))
            pile = tuple(c - (1 if i == tile else 0) for i, c in zip(TILE_IDS, s.pile))
            s = replace(s, seats=tuple(seats), pile=pile, to_draw=s.to_draw - 1)
            ev = [{"e": "draw", "seat": s.turn}]
            if s.to_draw <= 0:
                return self._end_turn(s, ev)
            return s, ev
        if t == "die":
            s = replace(s, dice=s.dice + (a["face"],), to_roll=s.to_roll - 1)
            ev = [{"e": "die", "face": a["face"]}]
            if s.to_roll <= 0:
                s = replace(s, phase="choose")
            return s, ev
        raise IllegalAction(f"unknown chance action {t!r}")

    def _refill(self, s: State, ev: list[Event]) -> tuple[State, list[Event]]:
        need = min(max(0, HAND_SIZE - len(s.seats[s.turn].hand)), s.pile_size)
        if need > 0:
            return replace(s, phase="refill", to_draw=need), ev
        return self._end_turn(s, ev)

    def _end_turn(self, s: State, ev: list[Event]) -> tuple[State, list[Event]]:
        nxt = (s.turn + 1) % s.players
        phase = "roll" if s.seats[nxt].driving else "play"
        ev.append({"e": "turn", "seat": nxt})
        return replace(s, phase=phase, turn=nxt, played=0, first=-1, pending=False, fix=-1, to_draw=0,
                       to_roll=0, dice=(), used=0, turns=s.turns + 1), ev

    # ------------------------------------------------------------------ results
    def is_terminal(self, s: State) -> bool:
        return s.phase == "over"

    def outcome(self, s: State) -> dict[str, Any]:
        """``winner`` (seat or None), ``draw``, ``scores`` (1 for the winner), ``ranking`` (the winner,
        then drivers by squares left, then builders by seat), ``complete`` (routes complete per seat),
        ``turns``."""
        n = s.players
        complete = [self.route_complete(s, i) for i in range(n)]
        left = []
        for i, st in enumerate(s.seats):
            if st.driving:
                tb = R.route_table(s.board, st.line, st.dest, st.stops)
                d = tb.distance(st.pos, st.served) if tb else None
                left.append((0, d if d is not None else 999, i))
            else:
                left.append((1, 0, i))
        ranking = sorted(range(n), key=lambda i: (i != s.winner, left[i]))
        return {"winner": s.winner if s.winner >= 0 else None, "draw": s.draw,
                "scores": [1 if i == s.winner else 0 for i in range(n)], "ranking": ranking,
                "complete": complete, "driving": [st.driving for st in s.seats], "turns": s.turns}

    def undoable(self, s: State, player: int, action: Action) -> bool:
        """Only the first tile of a turn may be taken back, and only while the turn goes on (research
        §6.6 / BGA: within a turn, before anything is drawn or rolled; the match itself never undoes
        across chance or another player's action). Starting the trip reveals the cards: final."""
        if action.get("t") != "tile" or s.phase != "play" or s.played != 0:
            return False
        try:
            after, _ = self.apply(s, player, action)
        except IllegalAction:
            return False
        return after.phase == "play" and after.turn == player

    def invariants(self, s: State) -> list[str]:
        bad: list[str] = []
        n = s.players
        counts = [0] * len(TILE_IDS)
        for i, c in enumerate(s.pile):
            counts[i] += c
        for st in s.seats:
            for t in st.hand:
                counts[t] += 1
        for c in BOARD_CELLS:
            tl = s.board.tile_at(c)
            if tl is not None:
                counts[tl[0]] += 1
        expect = [PILES[s.pile_name][t] + START_HAND.count(t) * n for t in TILE_IDS]
        if counts != expect:
            bad.append(f"tiles not accounted for: {counts} != {expect}")
        if any(c < 0 for c in s.pile):
            bad.append("negative pile count")
        defects = s.board.all_defects()
        if defects and not s.pending:
            bad.append(f"board breaks the rules: {defects[0][0]}")
        for i, k in enumerate(LETTERS):
            c = s.board.signs[i]
            if c >= 0 and (NEXT_TO.get(c) != k or s.board.cells[c] < 0):
                bad.append(f"stop sign {k} on a wrong square")
            if c < 0 and any(s.board.cells[x] >= 0 for x, kk in NEXT_TO.items() if kk == k):
                bad.append(f"building {k} has a tile beside it but no stop sign")
        for i, st in enumerate(s.seats):
            if s.phase != "deal" and (not st.line or not st.card):
                bad.append(f"seat {i} has no cards after the deal")
            if st.driving and (st.pos < 0 or st.last < 0):
                bad.append(f"seat {i} drives without a tram position")
        if s.phase in ("roll", "dice", "choose") and not s.seats[s.turn].driving:
            bad.append("a builder is rolling dice")
        if s.phase == "play" and s.seats[s.turn].driving:
            bad.append("a driver is laying track")
        if s.winner >= 0 and s.phase != "over":
            bad.append("a winner before the game is over")
        return bad
