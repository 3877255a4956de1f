"""Tantrix Gobble real-time race rules (pure: no pygame, no clock, no global random state).

specs/gobble.md "Real-time race" (seed 002, "The Rules"), 2 to 6 players:

* Chance lays two random tiles together in the middle, matching (as in Solitaire), then deals the other
  54 face down, equally by default; ``handicap`` gives chosen seats extra tiles. Tiles an equal deal
  cannot share out (54 among 4 or 5 players) are set aside, out of play.
* No turns: every player still in acts whenever they like. The top ``hand`` tiles of a player's pile are
  revealed to them (default 1). A player may place a revealed tile or the top of their own face-up
  penalty stack (any rotation, legally), or put a revealed tile onto their penalty stack.
* Filling a gobble space (3 neighbours) owes 1 gift, a double gobble space (4+) 2. Each gift is the top
  of the giver's pile or of their penalty stack, to an opponent still playing; it goes face down into the
  receiver's pile at a random position below their revealed tiles. A gift not chosen within
  ``gift_timeout`` s (10) is made by the clock: the top pile tile (else the stack top) to the leading
  opponent, the one holding the fewest tiles (on a tie, the first such seat after the giver).
* A player whose pile and penalty stack are both empty is OUT; the finishing order is the ranking. The
  race ends when one player is left, or when it is deadlocked: no player still in can ever place again.
  The engine checks this exactly: a player can reach every tile of their pile (by sending the ones above
  it to the penalty stack) but only the top of their penalty stack, so the race is deadlocked when no
  such reachable tile fits anywhere and nobody still owes a gift (a gift can move a stack tile, or
  take the last tile that stands in the way; the clock makes it within ``gift_timeout``). The spec's
  "pile or stack" wording would also count buried stack tiles, which can never be reached, and the
  race would then never end.
  Players still in are ranked by tiles left, fewest first (lower seat first on a tie).

Actions (JSON dicts). Chance: ``{"t": "start", "tile", "rot"}``, ``{"t": "deal", "tile"}``,
``{"t": "insert", "pos"}``. Players: ``{"t": "place", "src": "pile"|"stack", "tile", "rot", "q", "r"}``,
``{"t": "discard", "tile"}``, ``{"t": "gift", "src": "pile"|"stack", "to": seat}``. Clock:
``{"t": "auto_gift", "from": seat, "src": "pile"|"stack"|None, "to": seat|None}``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sim.core.options import check as check_options, over_defaults
from sim.core.hexgrid import Hex
from sim.core.rules import CHANCE, CLOCK, Action, Event, GameInfo, IllegalAction

from .board import Board, gift_count
from .data import TILE_NUMBERS
from .options import GIFT_TIMEOUT, RACE_OPTIONS
from .rules import START_CELLS, start_outcomes

RACE_INFO = GameInfo(name="gobble", title="Tantrix Gobble", min_players=2, max_players=6,
                     realtime=True, rules_version=1)


@dataclass(frozen=True)
class Seat:
    """One player's tiles. ``pile``: face down, index 0 is the top (revealed first; None in a seat's
    view for a tile it may not see); ``stack``: the face-up penalty stack, last = top; ``owed``:
    deadlines (match time, s) of gifts still to give; ``out``: finishing position (1 = first OUT) or
    None."""

    pile: tuple[int | None, ...] = ()
    stack: tuple[int, ...] = ()
    owed: tuple[float, ...] = ()
    out: int | None = None
    gobbles: int = 0
    doubles: int = 0
    placed: int = 0

    @property
    def held(self) -> int:
        return len(self.pile) + len(self.stack)


@dataclass(frozen=True)
class RaceState:
    """A position of the race. ``phase``: "start", "deal", "play" or "over"; ``quota``: tiles each seat
    is dealt; ``aside``: tiles out of play; ``insert``: ``(receiver, tile)`` of a gift waiting for chance
    to pick its place in the pile; ``order``: seats in finishing order; ``clock``: match time (s);
    ``seen_by``: the seat whose view this is (``RaceRules.observe``: every tile it may not see is None),
    None for the whole position."""

    board: Board
    seats: tuple[Seat, ...]
    bag: tuple[int, ...]
    quota: tuple[int, ...]
    aside: tuple[int, ...] = ()
    phase: str = "start"
    clock: float = 0.0
    insert: tuple[int, int] | None = None
    order: tuple[int, ...] = ()
    deadlock: bool = False
    last: tuple[Hex | None, ...] = ()
    hand: int = 1
    escalating: bool = False
    gift_timeout: float = GIFT_TIMEOUT
    seen_by: int | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def in_play(self) -> list[int]:
        """Seats still playing."""
        return [i for i, s in enumerate(self.seats) if s.out is None]

    def revealed(self, seat: int) -> tuple[int, ...]:
        """The tiles of ``seat``'s pile that its owner can see."""
        return self.seats[seat].pile[: self.hand]


def deal_quota(n: int, handicap: list[int]) -> tuple[int, ...]:
    """Tiles dealt to each of ``n`` seats from the 54: an equal share each, plus each seat's handicap
    extra tiles; the rest is set aside. Raises ValueError if the extras leave a seat with no tile."""
    extra = sum(handicap)
    base = (54 - extra) // n
    if base < 1:
        raise ValueError("handicap gives away too many tiles")
    return tuple(base + h for h in handicap)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and v == v and abs(v) != float("inf")


def _need(ok: Any, why: str) -> None:
    if not ok:
        raise ValueError(why)


TILE_SET = frozenset(TILE_NUMBERS)


class RaceRules:
    """The Tantrix Gobble race. Config: ``players`` (2..6), ``handicap`` (extra tiles per seat),
    ``hand`` (revealed tiles, 1..3), ``escalating`` (gifts = neighbours - 2), ``gift_timeout`` (s)."""

    info = RACE_INFO

    def default_config(self) -> dict[str, Any]:
        return {"players": 4, "handicap": None, "hand": 1, "escalating": False, "gift_timeout": GIFT_TIMEOUT,
                "purist": False, "lan_hints": False}

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        out = over_defaults(self.default_config(), config)
        n = out["players"]
        if not _int(n) or not 2 <= n <= 6:
            raise ValueError("players must be 2 to 6")
        h = out["handicap"]
        if h is None:
            h = [0] * n
        if not isinstance(h, list) or len(h) != n or not all(_int(x) and 0 <= x <= 20 for x in h):
            raise ValueError(f"handicap must list {n} numbers of extra tiles (0..20)")
        out["handicap"] = h
        deal_quota(n, h)
        return check_options(RACE_OPTIONS, out)

    def initial_state(self, config: dict[str, Any]) -> RaceState:
        n = config["players"]
        return RaceState(board=Board(), seats=tuple(Seat() for _ in range(n)), bag=TILE_NUMBERS,
                         quota=deal_quota(n, config["handicap"] or [0] * n), last=(None,) * n,
                         hand=config["hand"], escalating=config["escalating"],
                         gift_timeout=float(config["gift_timeout"]))

    # -------------------------------------------------------------- time
    def at_time(self, s: RaceState, t: float) -> RaceState:
        return s if t <= s.clock else replace(s, clock=t)

    def next_timer(self, s: RaceState) -> float | None:
        if s.phase != "play" or s.insert is not None:
            return None
        due = [seat.owed[0] for seat in s.seats if seat.owed and seat.out is None]
        return min(due) if due else None

    def timer_action(self, s: RaceState) -> Action:
        """The automatic gift of the seat whose gift is due first (lowest seat on a tie)."""
        due = self.next_timer(s)
        giver = min(i for i, seat in enumerate(s.seats) if seat.owed and seat.out is None and seat.owed[0] == due)
        seat = s.seats[giver]
        src = "pile" if seat.pile else "stack" if seat.stack else None
        to = self.leader(s, exclude=giver)
        if src is None or to is None:
            return {"t": "auto_gift", "from": giver, "src": None, "to": None}
        return {"t": "auto_gift", "from": giver, "src": src, "to": to}

    @staticmethod
    def leader(s: RaceState, exclude: int) -> int | None:
        """The opponent of ``exclude`` still playing who holds the fewest tiles; on a tie the first of
        them after ``exclude`` in seat order (so no seat is favoured: ties are common early on)."""
        cands = [i for i in s.in_play() if i != exclude]
        if not cands:
            return None
        return min(cands, key=lambda i: (s.seats[i].held, (i - exclude) % s.n))

    # ------------------------------------------------------------ who acts
    def active_players(self, s: RaceState) -> list[int]:
        if s.phase in ("start", "deal") or s.insert is not None:
            return [CHANCE]
        if s.phase == "over":
            return []
        return s.in_play()

    def chance_outcomes(self, s: RaceState) -> list[tuple[Action, float]]:
        if s.insert is not None:
            recv = s.insert[0]
            lo = min(s.hand, len(s.seats[recv].pile))
            hi = len(s.seats[recv].pile)
            p = 1.0 / (hi - lo + 1)
            return [({"t": "insert", "pos": k}, p) for k in range(lo, hi + 1)]
        if s.phase == "deal":
            p = 1.0 / len(s.bag)
            return [({"t": "deal", "tile": n}, p) for n in s.bag]
        if s.phase == "start":
            return start_outcomes(s.board, s.bag)
        return []

    # -------------------------------------------------------------- legality
    def placeable(self, s: RaceState, seat: int) -> list[tuple[str, int]]:
        """``(src, tile)`` pairs ``seat`` may place now: each revealed tile, and the stack top."""
        st = s.seats[seat]
        out = [("pile", n) for n in st.pile[: s.hand]]
        if st.stack:
            out.append(("stack", st.stack[-1]))
        return out

    def legal_actions(self, s: RaceState, player: int) -> list[Action]:
        if s.phase != "play" or s.insert is not None or player not in s.in_play():
            return []
        out: list[Action] = []
        for src, n in self.placeable(s, player):
            out += [{"t": "place", "src": src, "tile": n, "rot": k, "q": c[0], "r": c[1]}
                    for c, k in s.board.placements(n)]
        out += [{"t": "discard", "tile": n} for n in s.revealed(player)]
        if s.seats[player].owed:
            st = s.seats[player]
            for j in s.in_play():
                if j != player:
                    if st.pile:
                        out.append({"t": "gift", "src": "pile", "to": j})
                    if st.stack:
                        out.append({"t": "gift", "src": "stack", "to": j})
        return out

    def check(self, s: RaceState, player: int, action: Action) -> None:
        if not isinstance(action, dict):
            raise IllegalAction("an action must be an object")
        if s.phase == "over":
            raise IllegalAction("the race is over")
        if s.phase != "play" or s.insert is not None:
            raise IllegalAction("the race has not started")
        if not _int(player) or not 0 <= player < s.n:
            raise IllegalAction(f"no seat {player!r}")
        st = s.seats[player]
        if st.out is not None:
            raise IllegalAction("you are OUT")
        t = action.get("t")
        if t == "place":
            if set(action) != {"t", "src", "tile", "rot", "q", "r"}:
                raise IllegalAction("a placement needs src, tile, rot, q and r")
            src, n, rot = action["src"], action["tile"], action["rot"]
            if not _int(n) or not _int(rot) or not 0 <= rot < 6:
                raise IllegalAction("tile must be a number and rot 0..5")
            if not _int(action["q"]) or not _int(action["r"]):
                raise IllegalAction("cell coordinates must be integers")
            if src == "pile":
                if n not in st.pile[: s.hand]:
                    raise IllegalAction(f"tile {n} is not revealed in your pile")
            elif src == "stack":
                if not st.stack or st.stack[-1] != n:
                    raise IllegalAction(f"tile {n} is not on top of your penalty stack")
            else:
                raise IllegalAction("src must be 'pile' or 'stack'")
            why = s.board.why_not(n, rot, (action["q"], action["r"]))
            if why:
                raise IllegalAction(why)
            return
        if t == "discard":
            if set(action) != {"t", "tile"}:
                raise IllegalAction("a discard names its tile")
            if action["tile"] not in st.pile[: s.hand] or not _int(action["tile"]):
                raise IllegalAction("only a revealed tile can go to your penalty stack")
            return
        if t == "gift":
            if set(action) != {"t", "src", "to"}:
                raise IllegalAction("a gift needs src and to")
            if not st.owed:
                raise IllegalAction("you have no gift to give")
            to = action["to"]
            if not _int(to) or not 0 <= to < s.n or to == player:
                raise IllegalAction("a gift goes to an opponent")
            if s.seats[to].out is not None:
                raise IllegalAction("that player is OUT: no gifts to them")
            src = action["src"]
            if src == "pile" and not st.pile or src == "stack" and not st.stack:
                raise IllegalAction(f"your {src} is empty")
            if src not in ("pile", "stack"):
                raise IllegalAction("src must be 'pile' or 'stack'")
            return
        raise IllegalAction(f"unknown action {t!r}")

    # ----------------------------------------------------------------- apply
    def _set_seat(self, s: RaceState, i: int, seat: Seat) -> RaceState:
        seats = list(s.seats)
        seats[i] = seat
        return replace(s, seats=tuple(seats))

    def _give(self, s: RaceState, giver: int, src: str, to: int, ev: list[Event], auto: bool) -> RaceState:
        st = s.seats[giver]
        if src == "pile":
            tile, st = st.pile[0], replace(st, pile=st.pile[1:])
        else:
            tile, st = st.stack[-1], replace(st, stack=st.stack[:-1])
        st = replace(st, owed=st.owed[1:])
        s = self._set_seat(s, giver, st)
        ev.append({"e": "gift", "from": giver, "to": to, "src": src, "tile": tile, "auto": auto})
        s = replace(s, insert=(to, tile))
        return self._check_out(s, giver, ev)

    def _check_out(self, s: RaceState, i: int, ev: list[Event]) -> RaceState:
        st = s.seats[i]
        if st.out is None and not st.pile and not st.stack:
            pos = len(s.order) + 1
            s = self._set_seat(s, i, replace(st, out=pos, owed=()))
            s = replace(s, order=s.order + (i,))
            ev.append({"e": "out", "seat": i, "position": pos})
        return s

    def reachable_mask(self, s: RaceState, i: int) -> int:
        """Bit set of the tiles seat ``i`` could still place without the board changing: every pile tile
        (those above it can be sent to the penalty stack) and the stack top."""
        st = s.seats[i]
        m = 0
        for n in st.pile:
            m |= 1 << n
        if st.stack:
            m |= 1 << st.stack[-1]
        return m

    def _check_end(self, s: RaceState, ev: list[Event]) -> RaceState:
        if s.phase != "play" or s.insert is not None:
            return s
        left = s.in_play()
        if len(left) <= 1:
            if left:
                i = left[0]
                s = self._set_seat(s, i, replace(s.seats[i], owed=()))
            ev.append({"e": "over", "deadlock": False})
            return replace(s, phase="over")
        if any(s.seats[i].owed for i in left):
            return s  # a gift still to give may move a fitting tile within reach; the clock makes it
        fit = s.board.fit_mask()
        if not any(fit & self.reachable_mask(s, i) for i in left):
            ev.append({"e": "over", "deadlock": True})
            return replace(s, phase="over", deadlock=True)
        return s

    def apply(self, s: RaceState, player: int, action: Action) -> tuple[RaceState, list[Event]]:
        t = action["t"]
        ev: list[Event] = []
        if player == CHANCE:
            if t == "start":
                n = action["tile"]
                cell = START_CELLS[0] if not s.board.tiles else START_CELLS[1]
                board = s.board.place(n, action["rot"], cell)
                ev.append({"e": "start", "tile": n, "rot": action["rot"], "q": cell[0], "r": cell[1]})
                s = replace(s, board=board, bag=tuple(x for x in s.bag if x != n),
                            phase="deal" if len(board) == 2 else "start")
                return s, ev
            if t == "deal":
                n = action["tile"]
                i = next(k for k in range(s.n) if len(s.seats[k].pile) < s.quota[k])
                s = self._set_seat(s, i, replace(s.seats[i], pile=s.seats[i].pile + (n,)))
                s = replace(s, bag=tuple(x for x in s.bag if x != n))
                if all(len(st.pile) == q for st, q in zip(s.seats, s.quota)):
                    s = replace(s, aside=s.bag, bag=(), phase="play")
                    ev.append({"e": "dealt", "quota": list(s.quota), "aside": len(s.aside)})
                    s = self._check_end(s, ev)
                return s, ev
            if t == "insert":
                to, tile = s.insert
                st = s.seats[to]
                k = action["pos"]
                s = self._set_seat(s, to, replace(st, pile=st.pile[:k] + (tile,) + st.pile[k:]))
                s = replace(s, insert=None)
                return self._check_end(s, ev), ev
            raise IllegalAction(f"unknown chance action {t!r}")
        if player == CLOCK:
            giver = action["from"]
            if action["src"] is None:
                st = s.seats[giver]
                s = self._set_seat(s, giver, replace(st, owed=st.owed[1:]))
                ev.append({"e": "gift_lapsed", "from": giver})
                return self._check_end(s, ev), ev
            s = self._give(s, giver, action["src"], action["to"], ev, auto=True)
            return self._check_end(s, ev), ev

        st = s.seats[player]
        if t == "place":
            n, rot, src = action["tile"], action["rot"], action["src"]
            cell = (action["q"], action["r"])
            k = s.board.neighbour_count(cell)
            gifts = gift_count(k, s.escalating)
            if src == "pile":
                i = st.pile.index(n)
                st = replace(st, pile=st.pile[:i] + st.pile[i + 1:])
            else:
                st = replace(st, stack=st.stack[:-1])
            st = replace(st, placed=st.placed + 1,
                         gobbles=st.gobbles + (1 if gifts == 1 else 0),
                         doubles=st.doubles + (1 if gifts >= 2 else 0),
                         owed=st.owed + (round(s.clock + s.gift_timeout, 6),) * gifts)
            last = list(s.last)
            last[player] = cell
            s = replace(self._set_seat(s, player, st), board=s.board.place(n, rot, cell), last=tuple(last))
            ev.append({"e": "place", "seat": player, "src": src, "tile": n, "rot": rot,
                       "q": cell[0], "r": cell[1]})
            if gifts:
                ev.append({"e": "gobble", "seat": player, "level": gifts, "neighbours": k,
                           "q": cell[0], "r": cell[1]})
            s = self._check_out(s, player, ev)
            return self._check_end(s, ev), ev
        if t == "discard":
            n = action["tile"]
            i = st.pile.index(n)
            st = replace(st, pile=st.pile[:i] + st.pile[i + 1:], stack=st.stack + (n,))
            ev.append({"e": "discard", "seat": player, "tile": n})
            return self._check_end(self._set_seat(s, player, st), ev), ev
        if t == "gift":
            s = self._give(s, player, action["src"], action["to"], ev, auto=False)
            return self._check_end(s, ev), ev
        raise IllegalAction(f"unknown action {t!r}")

    # --------------------------------------------------------------- results
    def is_terminal(self, s: RaceState) -> bool:
        return s.phase == "over"

    def ranking(self, s: RaceState) -> list[int]:
        """Seats best first: the finishing order, then the rest by tiles left (lower seat on a tie)."""
        rest = sorted(s.in_play(), key=lambda i: (s.seats[i].held, i))
        return list(s.order) + rest

    def outcome(self, s: RaceState) -> dict[str, Any]:
        rank = self.ranking(s)
        n = s.n
        return {"ranking": rank, "finish_order": list(s.order), "deadlock": s.deadlock,
                "tiles_left": [st.held for st in s.seats],
                "gobbles": [st.gobbles + st.doubles for st in s.seats],  # every gobble space filled
                "doubles": [st.doubles for st in s.seats],                # of which double gobbles
                "scores": [n - 1 - rank.index(i) for i in range(n)], "time": round(s.clock, 3)}

    def undoable(self, s: RaceState, player: int, action: Action) -> bool:
        return False

    def observe(self, s: RaceState, player: int) -> RaceState:
        """What seat ``player`` may see, as a race state (``seen_by`` = ``player``): the board, every
        penalty stack (face up), every seat's gift deadlines and counts, and of the face-down tiles only
        ``player``'s own revealed ones; every other pile tile, the bag, the tiles set aside and a gift
        waiting for its place are None. Raises ValueError for a seat not in the race."""
        if not _int(player) or not 0 <= player < s.n:
            raise ValueError(f"no seat {player!r} in this race")
        seats = []
        for i, st in enumerate(s.seats):
            shown = min(s.hand, len(st.pile)) if i == player else 0
            seats.append(replace(st, pile=tuple(st.pile[:shown]) + (None,) * (len(st.pile) - shown)))
        return replace(s, seats=tuple(seats), bag=(None,) * len(s.bag), aside=(None,) * len(s.aside),
                       insert=None if s.insert is None else (s.insert[0], None), seen_by=player)

    def state_to_json(self, s: RaceState) -> dict[str, Any]:
        """``s`` (usually an ``observe`` result) as JSON. Per seat ``pile`` and ``owed`` are counts,
        ``tiles`` the pile top first (null: not shown) and ``deadlines`` the gift deadlines; ``revealed``
        lists the tiles shown to ``seat`` (the seat the state is seen by; empty for the whole
        position)."""
        return {
            "seat": s.seen_by,
            "board": [[q, r, n, k] for (q, r), (n, k) in s.board.tiles.items()],
            "seats": [{"pile": len(st.pile), "tiles": list(st.pile), "stack": list(st.stack),
                       "owed": len(st.owed), "deadlines": list(st.owed), "out": st.out,
                       "gobbles": st.gobbles, "doubles": st.doubles, "placed": st.placed} for st in s.seats],
            "revealed": list(s.revealed(s.seen_by)) if s.seen_by is not None else [],
            "clock": s.clock, "phase": s.phase, "order": list(s.order),
            "quota": list(s.quota), "bag": list(s.bag), "aside": list(s.aside),
            "insert": None if s.insert is None else list(s.insert), "deadlock": s.deadlock,
            "last": [None if c is None else [c[0], c[1]] for c in s.last], "hand": s.hand,
            "escalating": s.escalating, "gift_timeout": s.gift_timeout,
        }

    def state_from_json(self, obj: Any) -> RaceState:
        """The race state ``state_to_json`` wrote; ValueError with a reason for anything else (a
        wrong key or type, a tile that is not one of the 56 or shows twice, counts that disagree)."""
        keys = {"seat", "board", "seats", "revealed", "clock", "phase", "order", "quota", "bag", "aside",
                "insert", "deadlock", "last", "hand", "escalating", "gift_timeout"}
        _need(isinstance(obj, dict) and set(obj) == keys, f"a race state has the keys {sorted(keys)}")
        seen = obj["seat"]
        rows = obj["seats"]
        _need(isinstance(rows, list) and 2 <= len(rows) <= 6, "seats must list 2 to 6 seats")
        n = len(rows)
        _need(seen is None or _int(seen) and 0 <= seen < n, "seat must be a seat of the race or null")
        tiles: list[int | None] = []

        def tile_list(v: Any, what: str, hidden: bool = True) -> tuple:
            _need(isinstance(v, list) and all(x is None and hidden or _int(x) and x in TILE_SET for x in v),
                  f"{what} must list tile numbers (1..56){' or null' if hidden else ''}")
            tiles.extend(v)
            return tuple(v)

        cells = {}
        _need(isinstance(obj["board"], list), "board must list [q, r, tile, rot]")
        for t in obj["board"]:
            _need(isinstance(t, list) and len(t) == 4 and all(_int(x) for x in t) and t[2] in TILE_SET
                  and 0 <= t[3] < 6 and (t[0], t[1]) not in cells,
                  "board must list [q, r, tile, rot] once per cell")
            cells[(t[0], t[1])] = (t[2], t[3])
            tiles.append(t[2])
        seats = []
        skeys = {"pile", "tiles", "stack", "owed", "deadlines", "out", "gobbles", "doubles", "placed"}
        for i, d in enumerate(rows):
            _need(isinstance(d, dict) and set(d) == skeys, f"seat {i} has the keys {sorted(skeys)}")
            pile = tile_list(d["tiles"], f"seat {i}'s tiles")
            _need(d["pile"] == len(pile), f"seat {i}'s pile count is not its number of tiles")
            dl = d["deadlines"]
            _need(isinstance(dl, list) and all(_num(x) for x in dl) and d["owed"] == len(dl),
                  f"seat {i}'s deadlines must list one time per gift owed")
            _need(d["out"] is None or _int(d["out"]) and 1 <= d["out"] <= n,
                  f"seat {i}'s out must be 1..{n} or null")
            _need(all(_int(d[k]) and d[k] >= 0 for k in ("gobbles", "doubles", "placed")),
                  f"seat {i}'s gobbles, doubles and placed must be counts")
            seats.append(Seat(pile=pile, stack=tile_list(d["stack"], f"seat {i}'s stack", hidden=False),
                              owed=tuple(float(x) for x in dl), out=d["out"], gobbles=d["gobbles"],
                              doubles=d["doubles"], placed=d["placed"]))
        bag = tile_list(obj["bag"], "bag")
        aside = tile_list(obj["aside"], "aside")
        ins = obj["insert"]
        _need(ins is None or isinstance(ins, list) and len(ins) == 2 and _int(ins[0]) and 0 <= ins[0] < n
              and (ins[1] is None or _int(ins[1]) and ins[1] in TILE_SET), "insert must be [seat, tile] or null")
        if ins is not None:
            tiles.append(ins[1])
        known = [t for t in tiles if t is not None]
        _need(len(tiles) == len(TILE_SET) and len(set(known)) == len(known), "the 56 tiles must each show once")
        phase, order, quota, last = obj["phase"], obj["order"], obj["quota"], obj["last"]
        _need(phase in ("start", "deal", "play", "over"), "phase must be start, deal, play or over")
        _need(_num(obj["clock"]) and obj["clock"] >= 0, "clock must be a time (s)")
        _need(isinstance(order, list) and all(_int(x) and 0 <= x < n for x in order)
              and len(set(order)) == len(order), "order must list seats once each")
        _need(isinstance(quota, list) and len(quota) == n and all(_int(x) and x >= 0 for x in quota),
              f"quota must list {n} counts")
        _need(isinstance(last, list) and len(last) == n and all(
            c is None or isinstance(c, list) and len(c) == 2 and all(_int(x) for x in c) for c in last),
            f"last must list {n} cells [q, r] or null")
        _need(_int(obj["hand"]) and 1 <= obj["hand"] <= 3, "hand must be 1..3")
        _need(isinstance(obj["deadlock"], bool) and isinstance(obj["escalating"], bool),
              "deadlock and escalating must be true or false")
        _need(_num(obj["gift_timeout"]) and obj["gift_timeout"] > 0, "gift_timeout must be a time (s)")
        s = RaceState(board=Board.from_tiles(cells), seats=tuple(seats), bag=bag, quota=tuple(quota), aside=aside,
                      phase=phase, clock=float(obj["clock"]), insert=None if ins is None else (ins[0], ins[1]),
                      order=tuple(order), deadlock=obj["deadlock"],
                      last=tuple(None if c is None else (c[0], c[1]) for c in last), hand=obj["hand"],
                      escalating=obj["escalating"], gift_timeout=float(obj["gift_timeout"]), seen_by=seen)
        if seen is None:
            _need(None not in tiles, "the whole position shows every tile")
        else:
            _need(None not in s.revealed(seen), "the state's seat sees its revealed tiles")
        _need(obj["revealed"] == (list(s.revealed(seen)) if seen is not None else []),
              "revealed must list the tiles shown to the state's seat")
        return s

    def invariants(self, s: RaceState) -> list[str]:
        bad = []
        tiles = list(s.bag) + list(s.aside) + [n for n, _ in s.board.tiles.values()]
        for st in s.seats:
            tiles += list(st.pile) + list(st.stack)
        if s.insert is not None:
            tiles.append(s.insert[1])
        if len(tiles) != 56 or set(tiles) != set(TILE_NUMBERS):
            bad.append(f"tiles not conserved: {len(tiles)} tiles, {len(set(tiles))} distinct")
        if s.board.mismatches():
            bad.append("mismatched edges on the board")
        for i, st in enumerate(s.seats):
            if st.out is not None and (st.pile or st.stack or st.owed):
                bad.append(f"seat {i} is OUT but holds tiles or owes gifts")
        if len(set(s.order)) != len(s.order):
            bad.append("a seat finished twice")
        return bad
