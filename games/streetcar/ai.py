"""Streetcar bots: easy, medium and hard (specs/streetcar.md "Play expectations").

Every bot decides from ``rules.observe(state, seat)`` only: the board, the open hands and its own line
and route card (never another builder's cards, never the pile order, which does not exist).

Building (phase 1). The bot plans its cheapest route with a Dijkstra search over ``(square, side the
tram comes in by, stops served)``: following track already laid costs nothing; an empty square costs one
tile, more when no tile at hand fits it (more still when only a switch or tree tile could); adding a
track to a brown tile by exchange costs a bit more than a placement. A stop whose building has no sign
yet is served by any empty square beside it. The bot then lays the planned squares it can fill from the
hands it may use (its own, and with ``share_hands`` a driver's): first the squares that claim a stop
sign, then squares that extend track already laid. If the plan needs a straight or a curve that no hand
holds, the medium and hard bots exchange one off the board (away from the plan) to play it at once.
With nothing useful, a tile goes where it cannot get in the way (two squares or more from the plan),
from the bot's own hand while the pile can refill it. Every bot starts its trip as soon as its route is
complete.

* easy: a random legal tile three times in ten, otherwise a planned square picked with much noise;
  on the trip, a random die other than tools (the best way to carry it out) and a coin flip to roll on.
* medium: the best planned square by the rules above; the die that leaves the fewest squares to drive
  (tools counts as the way back); it rolls on when the expected squares left after the next roll (the
  best die of each outcome) beat stopping by half a square.
* hard: as medium, but it re-plans after each of its best candidates, and for the first tile of a turn
  also after the best second tile, so both tiles count. Its plans also count the squares the tram will
  drive and, where H weighs, the stations on the way that are none of its stops (``DRIVE_STEP``,
  ``STATION_COST``: the dice's odds make a square of route worth a share of a turn). With its route
  complete it first lays a tile that shortens the trip when the trip can still start that turn, and
  puts the start off a turn only for tiles that save more than a turn of driving. A tile that costs
  its own plan (almost) nothing goes in the way of an opponent's obvious route (guessed from the track
  laid, :func:`route_guesses`) when that makes the route dearer. On the trip it picks the terminal,
  the dice and whether to roll on by the expected turns still to finish (``trip.TripValues``, exact
  for the dice's known odds).
"""
from __future__ import annotations

import heapq
import itertools
import random
import time
from dataclasses import replace

from sim.core.rules import Action, IllegalAction

from . import route as R
from .data import CURVE, DICE, LETTERS, STRAIGHT, route_cards_for, stops_of
from .rules import State, StreetcarRules
from .trip import TripValues
from .tiles import (ALL_MASKS, BOARD_CELLS, BOARD_SET, BUILDING_AT, CELLS, EXCHANGEABLE, EXITS, LEGS, NEIGH,
                    NEXT_TO, ORIENT, ORIENTS, SIDES, TERMINAL_CELLS, Board, empty_board, keeps_tracks, pair_bit,
                    xy_of)

LEVELS = ("easy", "medium", "hard")

TILE_COST = 10        # one placed tile on the plan, with a fitting tile at hand
DRAW_COST = 12        # ... a straight or curve would fit but none is at hand
SPECIAL_COST = 18     # ... only a switch or tree tile could fit, none at hand
EXCHANGE_COST = 13    # adding a track by exchange, with a fitting tile at hand
EXCHANGE_WAIT = 20    # ... none at hand
HARD_WIDTH = 8        # tile plays on the plan the hard bot weighs, per tile of its turn
SCORE_WEIGHT = 0.3    # plan cost per point of a tile play's own score (``_plan_candidates``)
#: CPU seconds (of the thinking thread, ``time.thread_time``) a hard decision may take: past it the
#: tile search answers with the best play found so far (on average it needs a fifth to a third of
#: that; one decision in four or five is cut short). Easy and medium do not search.
THINK_BUDGET = 0.5
#: CPU seconds of the budget kept back from the tile search for what follows it (a blocking play, the
#: trip's values).
THINK_RESERVE = 0.08

_BASIC = frozenset(m for t in (STRAIGHT, CURVE) for m in ORIENT[t])


def _ok_table(masks) -> tuple[tuple[int, ...], ...]:
    out = []
    for must in range(16):
        row = []
        for forbid in range(16):
            u = 0
            for m in masks:
                s = SIDES[m]
                if s & must == must and not s & forbid:
                    u |= m
            row.append(u)
        out.append(tuple(row))
    return tuple(out)


#: Pairs some tile (any / a plain straight or curve) could show on a square with those constraints.
PAIRS_OK = _ok_table(ALL_MASKS)
BASIC_OK = _ok_table(_BASIC)
_UPGRADE_CACHE: dict[tuple[int, int, int], int] = {}


def _upgrade_pairs(old: int, must: int, forbid: int) -> int:
    k = (old, must, forbid)
    v = _UPGRADE_CACHE.get(k)
    if v is None:
        v = 0
        for m in ALL_MASKS:
            s = SIDES[m]
            if keeps_tracks(old, m) and s & must == must and not s & forbid:
                v |= m & ~old
        _UPGRADE_CACHE[k] = v
    return v


#: Plan cost of one square the tram will drive, per dice (a tile laid is 10, half a turn): the expected
#: turns a trip takes per square more of route (``trip.TripValues`` on bot routes of 26 to 39 squares:
#: about 0.2 with the BGA dice, 0.3 published, 0.44 classic), times 20.
DRIVE_STEP = {"bga": 4, "published": 6, "classic": 9}
#: Plan cost of passing a station that is no stop of the route (H stops there: the more H weighs, the
#: dearer).
STATION_COST = {"bga": 0, "published": 2, "classic": 10}


def dice_name(faces: tuple[str, ...]) -> str:
    """The name in ``DICE`` of the dice with ``faces`` ("bga" for faces not listed)."""
    for name, f in DICE.items():
        if tuple(f) == tuple(faces):
            return name
    return "bga"


#: Blocking (hard): a tile play that costs the own plan at most this much more than the best play may
#: go in an opponent's way instead; the opponent's route counts as obvious when its likeliest cards
#: have had at least BLOCK_EVIDENCE of their plan laid, and at most BLOCK_TARGETS (line, route card)
#: guesses are within BLOCK_MARGIN of that. Plan cost units (a tile laid is 10).
BLOCK_SLACK = 2
BLOCK_EVIDENCE = 36
BLOCK_MARGIN = 12
BLOCK_TARGETS = 3
BLOCK_TRIES = 10      # blocking squares weighed per tile kind
#: A complete route waits for a turn's tiles before the trip only if they make the trip quicker by a
#: turn and this much more (plan cost units).
DELAY_MARGIN = 10


_EMPTY_COST: dict[tuple[int, str], int] = {}


def empty_board_cost(line: int, stops: str) -> int:
    """The cost of ``line``'s plan through ``stops`` on an empty board, no tiles at hand (cached)."""
    k = (line, stops)
    v = _EMPTY_COST.get(k)
    if v is None:
        p = plan_route(empty_board(), line, stops)
        v = _EMPTY_COST[k] = p.cost if p is not None else 1 << 20
    return v


def route_guesses(s: State, me: int) -> list[tuple[int, str, int]]:
    """The ``(line, stops, evidence)`` the secret cards of the other seats may be, likeliest first,
    from what ``me`` sees (its own cards and every driver's are taken). Evidence: how much of that
    route's plan is already on the board (its plan cost on an empty board less its cost now, no tiles
    at hand, leaving out the tiles of ``me``'s own route so far); the others lay track toward their
    own routes."""
    board = s.board
    st = s.seats[me]
    if st.line:
        own = {R.node_cell(n) for path in R.serving_paths(board, st.line, st.stops) for n in path}
        cells = tuple(-1 if c in own and c in BOARD_SET else code for c, code in enumerate(board.cells))
        board = Board(cells, board.signs)
    taken_lines = {st.line for st in s.seats if st.line}
    taken_cards = {st.card for st in s.seats if st.card}
    cards = [c for c in route_cards_for(s.players) if c not in taken_cards]
    lines = [k for k in range(1, 7) if k not in taken_lines]
    guesses = []
    for line in lines:
        for c in cards:
            stops = stops_of(c, line)
            p = plan_route(board, line, stops)
            if p is not None:
                guesses.append((line, stops, empty_board_cost(line, stops) - p.cost))
    guesses.sort(key=lambda g: -g[2])
    return guesses


class Plan:
    """A cheapest route for one line: ``cost`` (in tile units x 10) and ``steps``: for every square the
    route still needs, ``(cell, entry, exit, kind)`` with kind "place" or "exchange"."""

    def __init__(self, cost: int, steps: list[tuple[int, int, int, str]]):
        self.cost = cost
        self.steps = steps

    @property
    def cells(self) -> set[int]:
        return {c for c, _, _, _ in self.steps}


def _landings() -> tuple:
    """LAND[c * 4 + t]: where a tram leaving board square c by side t arrives: ``(square, entry,
    terminal cell passed or -1)``, through another terminal's loop if it drives into one (square -1
    if that terminal opens on nothing); None into a building or off the board."""
    out: list = [None] * (CELLS * 4)
    for c in BOARD_CELLS:
        if c in BUILDING_AT:
            continue
        for t in range(4):
            n = NEIGH[c][t]
            e = (t + 2) % 4
            g = LEGS.get(n)
            if g is not None:
                if e == g.board_side:
                    pg = LEGS[g.partner]
                    nb = NEIGH[g.partner][pg.board_side]
                    out[c * 4 + t] = (nb if nb not in BUILDING_AT else -1, (pg.board_side + 2) % 4, n)
            elif n in BOARD_SET and n not in BUILDING_AT:
                out[c * 4 + t] = (n, e, -1)
    return tuple(out)


LAND = _landings()
#: PB[a][b]: pair-mask bit of the track joining sides a and b (0 when a == b).
PB = tuple(tuple(pair_bit(a, b) if a != b else 0 for b in range(4)) for a in range(4))


def plan_route(board: Board, line: int, stops: str, hand: tuple[int, ...] | list[int] = (),
               step: int = 0, station: int = 0, build: bool = True) -> Plan | None:
    """The cheapest way to complete ``line``'s route through ``stops`` from what is on ``board``, or
    None if none can be found (see the module docstring for the costs). ``hand``: the tile ids the
    player may play now; a square that one of them fits is cheaper than one that needs a draw.
    ``step``: the cost of every square the tram will drive (0: only the tiles to lay count);
    ``station``: the cost of passing a station that is no stop of the route (another building's sign,
    another line's terminal, or an empty square whose tile would claim another building's sign): H
    ends there. ``build`` False: only track already laid (the cost of driving the route as it is)."""
    hand_masks = [m for t in set(hand) for _, m in ORIENTS[t]]
    tracks = board.tracks
    cells = board.cells
    # per square: (pairs that may be added, of them by a plain straight/curve, of them from the hand)
    # and the sides a tram may come in by. A brown tile's blank side is no hard wall (an exchange can
    # add a track there), so it does not forbid the neighbouring square's track.
    add_ok: list = [None] * CELLS
    enter_ok = [0] * CELLS
    for c in BOARD_CELLS:
        if c in BUILDING_AT:
            continue
        code = cells[c]
        if code >= 0 and (not build or code >> 2 not in EXCHANGEABLE):
            enter_ok[c] = SIDES[tracks[c]]
            continue
        if not build:
            continue
        must, forbid = board.constraints(c)
        for d in range(4):
            n = NEIGH[c][d]
            if forbid >> d & 1 and n in BOARD_SET and cells[n] >= 0 and cells[n] >> 2 in EXCHANGEABLE:
                forbid &= ~(1 << d)
        at_hand = 0
        for m in hand_masks:
            sm = SIDES[m]
            if sm & must == must and not sm & forbid:
                if code < 0:
                    at_hand |= m
                elif keeps_tracks(tracks[c], m):
                    at_hand |= m & ~tracks[c]
        if code < 0:
            add_ok[c] = (PAIRS_OK[must][forbid], BASIC_OK[must][forbid], at_hand)
            enter_ok[c] = 15
        else:
            up = _upgrade_pairs(tracks[c], must, forbid)
            add_ok[c] = (up, 0, at_hand)
            enter_ok[c] = SIDES[tracks[c]] | SIDES[up]
    halt = [0] * CELLS
    if station:
        for i, k in enumerate(board.signs):
            if k >= 0 and LETTERS[i] not in stops:
                halt[k] = station
        for c, k in NEXT_TO.items():
            if k not in stops and cells[c] < 0 and board.sign_of(k) < 0:
                halt[c] = station
    sign_bit = [0] * CELLS
    for i, k in enumerate(stops):
        sc = board.sign_of(k)
        if sc >= 0:
            sign_bit[sc] |= 1 << i
        else:
            for c, kk in NEXT_TO.items():
                if kk == k and cells[c] < 0:
                    sign_bit[c] |= 1 << i
    full = (1 << len(stops)) - 1
    goal_cells = set(TERMINAL_CELLS[line][1])
    big = 1 << 30
    dist = [big] * (CELLS * 32)
    parent: dict[int, tuple[int, int, int]] = {}
    heap: list[tuple[int, int]] = []
    for c in TERMINAL_CELLS[line][0]:
        g = LEGS[c]
        n = NEIGH[c][g.board_side]
        e = (g.board_side + 2) % 4
        if enter_ok[n] >> e & 1:
            key = (n * 4 + e) * 8 + sign_bit[n]
            if dist[key] > 0:
                dist[key] = 0
                parent[key] = (-1, -1, 0)
                heapq.heappush(heap, (0, key))
    moves_cache: dict[int, list[tuple[int, int, int]]] = {}
    best_goal = None
    while heap:
        d, key = heapq.heappop(heap)
        if dist[key] < d:
            continue
        if best_goal is not None and d >= best_goal[0]:
            break
        ce, mask = key >> 3, key & 7
        c, e = ce >> 2, ce & 3
        moves = moves_cache.get(ce)
        if moves is None:
            moves = []
            code = cells[c]
            tr = tracks[c]
            if code >= 0:
                for t in EXITS[tr][e]:
                    moves.append((t, 0, 0))
                extra = add_ok[c]
                if extra:
                    for t in range(4):
                        pb = PB[e][t]
                        if pb and extra[0] & pb and not tr & pb:
                            moves.append((t, EXCHANGE_COST if extra[2] & pb else EXCHANGE_WAIT, 2))
            else:
                ok, basic, at_hand = add_ok[c]
                for t in range(4):
                    pb = PB[e][t]
                    if pb and ok & pb:
                        moves.append((t, TILE_COST if at_hand & pb else DRAW_COST if basic & pb else SPECIAL_COST, 1))
            moves_cache[ce] = moves
        for t, w, kind in moves:
            land = LAND[c * 4 + t]
            if land is None:
                continue
            n, ne, leg = land
            nd = d + w + (step if leg < 0 else 2 * step + station) + (halt[n] if n >= 0 else 0)
            if leg >= 0 and leg in goal_cells:
                if mask == full and (best_goal is None or nd < best_goal[0]):
                    best_goal = (nd, key, t, kind)
                continue
            if n < 0 or not enter_ok[n] >> ne & 1:
                continue
            nk = (n * 4 + ne) * 8 + (mask | sign_bit[n])
            if nd < dist[nk]:
                dist[nk] = nd
                parent[nk] = (key, t, kind)
                heapq.heappush(heap, (nd, nk))
    if best_goal is None:
        return None
    cost, key, t, kind = best_goal
    steps = []
    names = ("", "place", "exchange")
    while key >= 0:
        if kind:
            ce = key >> 3
            steps.append((ce >> 2, ce & 3, t, names[kind]))
        key, t, kind = parent[key]
    steps.reverse()
    return Plan(cost, steps)


class StreetcarBot:
    """A Streetcar bot of level ``easy``, ``medium`` or ``hard`` (seeded; only the hard tile search
    reads ``clock``, CPU seconds by default, against ``THINK_BUDGET``)."""

    def __init__(self, level: str = "medium", seed: int = 0, clock=None):
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
        self.level = level
        self.name = level
        self.rng = random.Random(f"streetcar/{level}/{seed}")
        self.clock = clock or time.thread_time
        #: whether the last tile search ran out of time
        self.cut = False
        self._trip_values = None
        self._harmless_ids: set[int] = set()
        self._t0 = 0.0          # clock reading at the start of the current decision

    # ------------------------------------------------------------------ entry point
    def select_action(self, rules: StreetcarRules, state: State, player: int) -> Action:
        """The bot's action for ``player`` (who must be to act); raises ``ValueError`` if there is
        none."""
        self._t0 = self.clock()
        obs = rules.observe(state, player)
        if obs.phase == "play":
            return self._build(rules, obs, player)
        if obs.phase == "roll":
            return self._roll_or_stop(rules, obs, player)
        if obs.phase == "choose":
            return self._choose_die(rules, obs, player)
        raise ValueError("no decision to make now")

    # ------------------------------------------------------------------ phase 1
    def _build(self, rules: StreetcarRules, s: State, me: int) -> Action:
        if rules.can_start(s, me):
            ends = [0, 1]
            if self.level == "easy":
                return {"t": "start", "end": self.rng.choice(ends)}
            st = s.seats[me]
            if self.level == "hard":
                a = self._shorten(rules, s, me)
                if a is not None:
                    return a
                return {"t": "start", "end": min((self._trip_from(s, me, e), e) for e in ends)[1]}
            lens = [(R.route_length(s.board, st.line, e, st.stops) or 999, e) for e in ends]
            return {"t": "start", "end": min(lens)[1]}
        if s.pending:  # a first tile that needs its second (only the random fallback below plays one)
            plays = rules.tile_plays(s, me)
            if plays:
                return plays[0]
        st = s.seats[me]
        plan = self._plan(rules, s, me)
        if self.level == "easy" and self.rng.random() < 0.3:
            a = self._random_play(rules, s, me)
            if a is not None:
                return a
        cands = self._plan_candidates(rules, s, me, plan) if plan else []
        if self.level == "hard" and plan is not None:
            a = self._search_tiles(rules, s, me, plan, cands)
            if a is not None:
                return a
        if cands:
            if self.level == "hard" and len(cands) > 1:
                return self._best_by_replan(rules, s, me, cands, plan)
            if self.level == "easy":
                cands.sort(key=lambda c: -(c[0] + self.rng.random() * 30))
            return cands[0][1]
        if plan is not None and self.level != "easy":
            a = self._fetch(rules, s, me, plan)
            if a is not None:
                return a
        a = self._harmless(rules, s, me, plan)
        if a is not None:
            return a
        plays = rules.tile_plays(s, me)
        if plays:
            return self.rng.choice(plays)
        acts = rules.legal_actions(s, me)
        if not acts:
            raise ValueError("no legal action")
        return acts[0]

    def _drive_cost(self, s: State, me: int) -> int:
        """Plan cost of driving ``me``'s complete route as laid (hard's squares and stations)."""
        st = s.seats[me]
        dice = dice_name(s.faces)
        p = plan_route(s.board, st.line, st.stops, (), DRIVE_STEP[dice], STATION_COST[dice], build=False)
        return p.cost if p is not None else 1 << 20

    def _shorten(self, rules, s: State, me: int) -> Action | None:
        """When to start the trip (hard, route complete): a tile that makes the route quicker to drive
        (:meth:`_drive_cost`) before the trip starts. After the first tile of a turn the trip may
        still start this turn, so a first tile that shortens the route at all is laid; tiles that put
        the start off to the next turn only if they make the trip quicker by more than a turn (20)
        and ``DELAY_MARGIN``. None: start now."""
        plan = self._plan(rules, s, me)
        if plan is None or not plan.steps:
            return None
        now = self._drive_cost(s, me)
        wait = 2 * TILE_COST + DELAY_MARGIN
        best = None

        def after(state: State, a: Action) -> State | None:
            try:
                ns = self._after_tile(rules, state, me, a)
            except IllegalAction:
                return None
            return None if ns.pending or not rules.route_complete(ns, me) else ns

        for _score, a in self._plan_candidates(rules, s, me, plan)[:HARD_WIDTH]:
            ns = after(s, a)
            if ns is None:
                continue
            one = now - self._drive_cost(ns, me)
            gain = one if one >= (1 if s.played == 0 else wait) else 0
            p2 = self._plan(rules, ns, me) if s.played == 0 else None
            if p2 is not None and p2.steps:
                for _s2, a2 in self._plan_candidates(rules, ns, me, p2)[:HARD_WIDTH]:
                    n2 = after(ns, a2)
                    if n2 is not None:
                        two = now - self._drive_cost(n2, me)
                        if two - max(one, 0) >= wait:   # the second tile is worth the turn's wait
                            gain = max(gain, two)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, a)
        if best is None and s.played == 0 and now - (plan.cost - TILE_COST * len(plan.steps)) > wait:
            return self._fetch(rules, s, me, plan)   # the straight or curve it needs, from the board
        return None if best is None else best[1]

    def _plan(self, rules, s: State, me: int) -> Plan | None:
        """``me``'s cheapest plan on ``s`` with the tiles it may use; the hard bot also counts the
        squares the tram will drive and the stations passed (``DRIVE_STEP``, ``STATION_COST``)."""
        st = s.seats[me]
        if self.level != "hard":
            return plan_route(s.board, st.line, st.stops, self._usable(rules, s, me))
        dice = dice_name(s.faces)
        return plan_route(s.board, st.line, st.stops, self._usable(rules, s, me), DRIVE_STEP[dice],
                          STATION_COST[dice])

    @staticmethod
    def _usable(rules, s: State, me: int) -> list[int]:
        return [t for h in rules.sources(s, me) for t in s.seats[h].hand]

    def _sources(self, rules, s, me):
        return [(h, t) for h in rules.sources(s, me) for t in sorted(set(s.seats[h].hand))]

    def _plan_candidates(self, rules, s: State, me: int, plan: Plan) -> list[tuple[float, Action]]:
        """Tile plays that lay a square of ``plan`` with its planned track, scored (higher first)."""
        board = s.board
        tracks = board.tracks
        plan_pairs: dict[int, int] = {}
        for c, e, t, _ in plan.steps:
            plan_pairs[c] = plan_pairs.get(c, 0) | pair_bit(e, t)
        st = s.seats[me]
        need_sign = {k for k in st.stops if board.sign_of(k) < 0}
        out = []
        srcs = self._sources(rules, s, me)
        for c, e, t, kind in plan.steps:
            if s.played == 1 and c == s.first:
                continue
            want = pair_bit(e, t)
            old = tracks[c] if kind == "exchange" else 0
            for h, tile in srcs:
                for r, m in ORIENTS[tile]:
                    if not m & want:
                        continue
                    if kind == "exchange" and not (board.cells[c] >= 0 and keeps_tracks(old, m)):
                        continue
                    if kind == "place" and board.cells[c] >= 0:
                        continue
                    if not board.placeable(c, m):
                        continue
                    score = 0.0
                    if NEXT_TO.get(c) in need_sign:
                        score += 60
                    # joins track already laid (or a terminal) on the planned sides
                    for sd in (e, t):
                        n = NEIGH[c][sd]
                        if n >= 0 and SIDES[tracks[n]] >> ((sd + 2) % 4) & 1:
                            score += 15
                    # extra track ends: fine where the plan goes on, worse elsewhere
                    extra = SIDES[m] & ~SIDES[want] & ~SIDES[old]
                    for sd in range(4):
                        if extra >> sd & 1:
                            n = NEIGH[c][sd]
                            if n in plan_pairs and not SIDES[plan_pairs[n]] >> ((sd + 2) % 4) & 1:
                                score -= 40
                            else:
                                score -= 4
                    if m & plan_pairs[c] == plan_pairs[c]:
                        score += 5
                    if tile in (STRAIGHT, CURVE):
                        score += 2
                    if kind == "exchange":
                        score -= 3
                    x, y = xy_of(c)
                    a = {"t": "tile", "tile": tile, "rot": r, "x": x, "y": y}
                    if h != me:
                        a["hand"] = h
                        score += 1  # a driver's tile first: keeps our own hand
                    out.append((score + self.rng.random() * 0.01, a))
        out.sort(key=lambda sa: -sa[0])
        return out

    def _best_by_replan(self, rules, s: State, me: int, cands, plan: Plan) -> Action:
        """The hard bot: re-plan after each of the best few candidates; for the first tile of a turn,
        also after the best second tile that could follow it, so both tiles of the turn count."""
        st = s.seats[me]

        def cost_of(state: State) -> tuple[int, Plan | None]:
            p = self._plan(rules, state, me)
            return (p.cost if p is not None else 10 ** 6), p

        best = None
        firsts = cands[:4] if s.played == 0 else cands[:6]
        for score, a in firsts:
            ns = self._after_tile(rules, s, me, a)
            total, p2 = cost_of(ns)
            if s.played == 0 and p2 is not None and total > 0:
                after_second = total + TILE_COST  # no second tile on the plan: it is lost
                for _, a2 in self._plan_candidates(rules, ns, me, p2)[:2]:
                    after_second = min(after_second, cost_of(self._after_tile(rules, ns, me, a2))[0])
                total = after_second
            key = (total - score * 0.05, -score)
            if best is None or key < best[0]:
                best = (key, a)
        return best[1]

    def _options(self, rules, s: State, me: int, plan: Plan, cands) -> list[Action]:
        """The tile plays the hard bot weighs: the best ``HARD_WIDTH`` on the plan, a fetch of a
        missing straight or curve, and a harmless play of each kind of tile it may play (which tiles it
        keeps for the route matters)."""
        out = [a for _score, a in cands[:HARD_WIDTH]]
        if s.played == 0:
            a = self._fetch(rules, s, me, plan)
            if a is not None:
                out.append(a)
        seen = set()
        for h, tile in self._sources(rules, s, me):
            if (h == me, tile) in seen:
                continue
            seen.add((h == me, tile))
            a = self._harmless(rules, s, me, plan, only=(h, tile))
            if a is not None:
                self._harmless_ids.add(id(a))
                out.append(a)
        return out

    def _search_tiles(self, rules, s: State, me: int, plan: Plan, cands) -> Action | None:
        """The hard bot's tile: every option (:meth:`_options`) and, for the first tile of a turn, every
        second tile after it, valued by the cost of the cheapest plan left (which counts the tiles at
        hand that fit it and the squares to drive); a route complete after the first tile is a turn
        cheaper (the trip starts at once). None when there is nothing to weigh."""
        st = s.seats[me]

        def value(state: State) -> float:
            p = self._plan(rules, state, me)
            if p is None:
                return 1e6
            if rules.route_complete(state, me):
                # complete after the first tile: the trip starts this turn, a turn (20) earlier
                return p.cost - (2 * TILE_COST if state.played == 1 else TILE_COST // 2)
            return float(p.cost)

        best = None
        self._harmless_ids = set()
        valued: list[tuple[float, Action]] = []
        deadline = self._t0 + THINK_BUDGET - THINK_RESERVE    # from the start of the decision
        self.cut = False
        firsts = self._options(rules, s, me, plan, cands)
        harmless = set(self._harmless_ids)
        scores = {id(a): sc for sc, a in cands}
        if len(firsts) <= 1 and s.played:
            return firsts[0] if firsts else None
        for k, a in enumerate(firsts):
            if best is not None and self.clock() > deadline:
                self.cut = True
                break
            try:
                ns = self._after_tile(rules, s, me, a)
            except IllegalAction:
                continue
            total = value(ns)
            if s.played == 0 and total > 0:
                p2 = self._plan(rules, ns, me)
                if p2 is not None:
                    second = self._options(rules, ns, me, p2, self._plan_candidates(rules, ns, me, p2))
                    after = []
                    for a2 in second:
                        if best is not None and self.clock() > deadline:
                            self.cut = True
                            break
                        try:
                            n2 = self._after_tile(rules, ns, me, a2)
                        except IllegalAction:
                            continue
                        after.append(value(n2))
                    if self.cut:
                        break                 # this first tile was not weighed in full
                    if after:
                        total = min(after)
            # the plan squares' own merits (a stop sign claimed, track joined) break near ties
            key = (total - SCORE_WEIGHT * scores.get(id(a), 0.0), k)
            valued.append((key[0], a))
            if best is None or key < best[0]:
                best = (key, a)
        if best is None:
            return None
        # a tile that costs the own route (almost) nothing may as well be laid in an opponent's way
        cheap = [a for v, a in valued if id(a) in harmless and v <= best[0][0] + BLOCK_SLACK]
        if cheap and not self.cut:
            blocked = self._block(rules, s, me, plan, cheap, value, deadline)
            if blocked is not None:
                return blocked
        return best[1]

    def _block(self, rules, s: State, me: int, plan: Plan, cheap: list[Action], value, deadline: float) -> Action | None:
        """A play of one of the ``cheap`` tiles (each (hand, tile) of a harmless option, as dear to the
        own plan as the best play) on a square of an opponent's obvious route (:func:`route_guesses`)
        that makes that route dearer the most, and the own plan (``value`` of a state) at most
        ``BLOCK_SLACK`` dearer than the harmless play does; None if none does."""
        if not any(i != me and not st.driving for i, st in enumerate(s.seats)):
            return None
        guesses = route_guesses(s, me)
        if not guesses or guesses[0][2] < BLOCK_EVIDENCE:
            return None
        targets = [g for g in guesses if g[2] >= guesses[0][2] - BLOCK_MARGIN]
        if len(targets) > BLOCK_TARGETS:
            return None
        builders = [i for i, st in enumerate(s.seats) if i != me and not st.driving]
        hand = [t for h in rules.sources(s, builders[0]) for t in s.seats[h].hand] if len(builders) == 1 else []
        board = s.board
        now, want = [], {}
        for line, stops, _ev in targets:
            p = plan_route(board, line, stops, hand)
            if p is None:
                continue
            now.append((line, stops, p.cost))
            for c, e, t, kind in p.steps:
                if kind == "place":
                    want[c] = want.get(c, 0) | pair_bit(e, t)
        near = set(plan.cells) | {c for c, k in NEXT_TO.items() if k in s.seats[me].stops}

        def frontier(c: int) -> bool:   # laid track ends in this square
            return any(n >= 0 and board.tracks[n] and SIDES[board.tracks[n]] >> ((d + 2) % 4) & 1
                       for d, n in enumerate(NEIGH[c]))

        squares = sorted((c for c in want if c not in near and board.cells[c] < 0),
                         key=lambda c: (not frontier(c), c))[:BLOCK_TRIES]
        mine = {}
        for a in cheap:
            k = (a.get("hand", me), a["tile"])
            if k not in mine:
                mine[k] = value(self._after_tile(rules, s, me, a))
        tiles = list(mine)
        # trees first: they can never be exchanged away
        tiles.sort(key=lambda ht: ht[1] not in range(6, 12))
        best = None
        for h, tile in tiles:
            for c in squares:
                if self.clock() > deadline:
                    self.cut = True
                    return None if best is None else best[1]
                rots = [(bin(SIDES[m] & SIDES[want[c]]).count("1"), r) for r, m in ORIENTS[tile]
                        if not m & want[c] and board.placeable(c, m)]
                if not rots:
                    continue
                x, y = xy_of(c)
                a = {"t": "tile", "tile": tile, "rot": min(rots)[1], "x": x, "y": y}
                if h != me:
                    a["hand"] = h
                try:
                    ns = self._after_tile(rules, s, me, a)
                except IllegalAction:
                    continue
                if ns.pending:
                    continue
                gain = min(((p2.cost if p2 is not None else cost + 60) - cost
                            for line, stops, cost in now
                            for p2 in (plan_route(ns.board, line, stops, hand),)), default=0)
                if gain <= 0 or value(ns) > mine[(h, tile)] + BLOCK_SLACK:
                    continue
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, a)
        return None if best is None else best[1]

    @staticmethod
    def _after_tile(rules, s: State, me: int, a: Action) -> State:
        p = rules._parse_tile(s, me, a)
        seats = rules._hands_after(s, me, p.hand, p.tile, None if p.old is None else (p.old, 0))
        return replace(s, board=p.board, seats=tuple(seats), played=s.played + 1, first=p.cell,
                       pending=p.pending, fix=p.fix)

    def _random_play(self, rules, s: State, me: int) -> Action | None:
        srcs = self._sources(rules, s, me)
        cells = [c for c in BOARD_CELLS if s.board.cells[c] < 0 and c not in BUILDING_AT]
        for _ in range(40):
            h, tile = self.rng.choice(srcs) if srcs else (None, None)
            if h is None:
                return None
            r, m = self.rng.choice(ORIENTS[tile])
            c = self.rng.choice(cells)
            if s.board.placeable(c, m):
                x, y = xy_of(c)
                a = {"t": "tile", "tile": tile, "rot": r, "x": x, "y": y}
                if h != me:
                    a["hand"] = h
                return a
        return None

    def _fetch(self, rules, s: State, me: int, plan: Plan) -> Action | None:
        """With the first tile of a turn: if the plan needs a straight or a curve that no usable hand
        holds, exchange one lying on the board (off the plan's squares) for a tile from the hand, to
        play it at once as the second tile (research §5: an exchanged tile may be played straight
        away)."""
        if s.played != 0:
            return None
        board = s.board
        usable = set(self._usable(rules, s, me))
        wanted = set()
        for c, e, t, kind in plan.steps:
            if kind != "place":
                continue
            pb = pair_bit(e, t)
            for tile in (STRAIGHT, CURVE):
                if tile not in usable and any(m & pb and board.placeable(c, m) for _, m in ORIENTS[tile]):
                    wanted.add(tile)
        if not wanted:
            return None
        plan_cells = plan.cells
        best = None
        srcs = self._sources(rules, s, me)
        for b in BOARD_CELLS:
            code = board.cells[b]
            if code < 0 or code >> 2 not in wanted or b in plan_cells:
                continue
            old = board.tracks[b]
            for h, tile in srcs:
                for r, m in ORIENTS[tile]:
                    if keeps_tracks(old, m) and board.placeable(b, m):
                        # fewer new track ends is less in everyone's way
                        key = (bin(SIDES[m] & ~SIDES[old]).count("1"), h != me, tile)
                        if best is None or key < best[0]:
                            x, y = xy_of(b)
                            a = {"t": "tile", "tile": tile, "rot": r, "x": x, "y": y}
                            if h != me:
                                a["hand"] = h
                            best = (key, a)
        return None if best is None else best[1]

    def _harmless(self, rules, s: State, me: int, plan: Plan | None, only=None) -> Action | None:
        """A legal placement two squares or more away from the plan (and from the empty squares beside
        the bot's buildings that still lack a sign); the farthest such square first (``only``: of that
        (hand, tile))."""
        board = s.board
        avoid = set(plan.cells) if plan else set()
        st = s.seats[me]
        for c, k in NEXT_TO.items():
            if k in st.stops:
                avoid.add(c)
        near = set(avoid)
        for c in avoid:
            for n in NEIGH[c]:
                if n >= 0:
                    near.add(n)
        srcs = self._sources(rules, s, me)
        # spend our own tiles while the pile can refill the hand (a driver's tiles once it is empty),
        # and tiles we are unlikely to need first: trees and switches before straights and curves
        own_first = s.pile_size > 0
        srcs.sort(key=lambda ht: ((ht[0] == me) != own_first, ht[1] in (STRAIGHT, CURVE)))
        if only is not None:
            srcs = [only]
        empties = [c for c in BOARD_CELLS if board.cells[c] < 0 and c not in BUILDING_AT and c not in near]
        self.rng.shuffle(empties)
        avoid_xy = [xy_of(c) for c in avoid] or [(6, 6)]

        def far(c):
            x, y = xy_of(c)
            return min(abs(x - ax) + abs(y - ay) for ax, ay in avoid_xy)

        empties.sort(key=far, reverse=True)
        for h, tile in srcs:
            for c in empties[:60]:
                for r, m in ORIENTS[tile]:
                    if board.placeable(c, m):
                        x, y = xy_of(c)
                        a = {"t": "tile", "tile": tile, "rot": r, "x": x, "y": y}
                        if h != me:
                            a["hand"] = h
                        return a
        return None

    # ------------------------------------------------------------------ phase 2
    def _best_move(self, rules, s: State, me: int, face: str):
        """(squares left after, move) of the best way to carry out ``face``."""
        st = s.seats[me]
        table = R.route_table(s.board, st.line, st.dest, st.stops)
        if face == "TOOLS":
            d = table.distance(st.last, st.served)
            return (d if d is not None else 999), R.Move((), st.served, False, None)
        best = None
        for mv in rules.moves(s, face):
            if mv.win:
                d = -1
            else:
                end = mv.path[-1] if mv.path else st.pos
                d = table.distance(end, mv.served)
                d = 999 if d is None else d
            # ending on a station keeps tools cheap
            on_station = 0 if (mv.path and R.is_station(s.board, mv.path[-1])) else 1
            key = (d, on_station)
            if best is None or key < best[0]:
                best = (key, mv)
        return best[0][0], best[1]

    def _trip(self, s: State, me: int) -> "TripValues":
        """The hard bot's expected turns to finish from the tram's state (kept while it still covers
        it on the same board)."""
        st = s.seats[me]
        key = (s.board, st.line, st.dest, st.stops, s.faces, s.classic)
        x = (st.pos, st.served, st.last)
        if self._trip_values is None or self._trip_values[0] != key or x not in self._trip_values[1]:
            table = R.route_table(s.board, st.line, st.dest, st.stops)
            self._trip_values = (key, TripValues(s.board, table, s.faces, s.classic, x))
        return self._trip_values[1]

    def _trip_from(self, s: State, me: int, end: int) -> float:
        """Expected turns of a trip from terminal ``end`` of ``me``'s complete route on ``s`` (the
        tram's first turn included; inf if the route cannot be driven from there)."""
        st = s.seats[me]
        table = R.route_table(s.board, st.line, 1 - end, st.stops)
        home = R.home(st.line, end)
        if table is None or table.distance(home, 0) is None:
            return float("inf")
        x = (home, 0, home)
        return TripValues(s.board, table, s.faces, s.classic, x).V[x]

    def _choose_die(self, rules, s: State, me: int) -> Action:
        if self.level == "hard":
            st = s.seats[me]
            trip = self._trip(s, me)
            x = (st.pos, st.served, st.last)
            left = 0 if s.classic else 3 - s.used - 1
            best = None
            for i, face in enumerate(s.dice):
                if face == "TOOLS":
                    options = [(trip.face_value(x, face, left), R.Move((), st.served, False, None))]
                else:
                    options = []
                    for mv in rules.moves(s, face):
                        y = None if mv.win else (mv.path[-1] if mv.path else st.pos, mv.served,
                                                 mv.station if mv.station is not None else st.last)
                        options.append((trip.after(y if y is None or y in trip else x, left), mv))
                for v, mv in options:
                    if best is None or v < best[0] - 1e-12:
                        best = (v, i, mv)
            _, i, mv = best
            return {"t": "drive", "die": i, "path": [R.node_json(n) for n in mv.path]}
        if self.level == "easy":
            pool = [i for i, f in enumerate(s.dice) if f != "TOOLS"] or list(range(len(s.dice)))
            i = self.rng.choice(pool)
            _, mv = self._best_move(rules, s, me, s.dice[i])
            return {"t": "drive", "die": i, "path": [R.node_json(n) for n in mv.path]}
        options = []
        for i, face in enumerate(s.dice):
            d, mv = self._best_move(rules, s, me, face)
            options.append((d, face == "TOOLS", i, mv))
        options.sort(key=lambda o: (o[0], o[1], o[2]))
        _, _, i, mv = options[0]
        return {"t": "drive", "die": i, "path": [R.node_json(n) for n in mv.path]}

    def _roll_or_stop(self, rules, s: State, me: int) -> Action:
        if s.used == 0 or s.classic:
            return {"t": "roll"}
        if self.level == "easy":
            return {"t": "roll"} if self.rng.random() < 0.5 else {"t": "stop"}
        st = s.seats[me]
        if self.level == "hard":
            trip = self._trip(s, me)
            x = (st.pos, st.served, st.last)
            return {"t": "roll"} if trip.W[x][3 - s.used] < 1.0 + trip.V[x] else {"t": "stop"}
        table = R.route_table(s.board, st.line, st.dest, st.stops)
        now = table.distance(st.pos, st.served)
        if now is None:
            return {"t": "stop"}
        k = 3 - s.used
        per_face = {}
        for face in dict.fromkeys(s.faces):
            per_face[face] = self._best_move(rules, s, me, face)[0]
        faces = s.faces
        expect = 0.0
        total = 0
        for combo in itertools.product(faces, repeat=k):
            expect += min(per_face[f] for f in combo)
            total += 1
        expect /= total
        return {"t": "roll"} if expect < now - 0.5 else {"t": "stop"}


def make_bot(seat: int, level: str, seed: int = 0, clock=None) -> StreetcarBot:
    """A bot for ``seat`` (its decisions take the seat from the match) of ``level`` (``clock``: see
    :class:`StreetcarBot`); raises ``ValueError`` for an unknown level."""
    return StreetcarBot(level, seed * 10 + seat, clock)
