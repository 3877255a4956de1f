"""Tom Tube bots (specs/tomtube.md "Bot"): levels easy, medium and hard, and a random mover.

``easy`` (:class:`RouteBot`; ``bot`` is its old name, still read) plans its astronaut's tour - its
own solar modules still holding a solar counter, in the better order, then home - over a *route
graph* of the board: the tubes already there (own, neutral and printed tubes cheap, the other colour
dearer because it costs a control counter), plus the tubes that rhombs could still bring (space edges
and long diagonals over free triangles), plus space jumps along space edges (an energy counter each). Entering a sphere that is not complete yet costs
a little per free triangle around it, since it has to be completed before anyone may stop or pass there.

* Moving: each legal move is applied and the position valued as points (counters on the base, solar
  counters, bonus) minus the remaining tour cost; the best move is taken if it beats placing a rhomb,
  which is worth ``BUILD_VALUE``. Control and energy counters are spent when the shorter route pays for
  the points they are worth. An alien counter is exchanged when the move it enables pays for the lost
  point, or, when no rhomb can be drawn (the bonus phase), when it beats every other move.
* Placing: every slot and orientation of the drawn rhomb is scored by how much it shortens its own tour
  and lengthens the opponent's (new tubes that join the two ends of a leg, potential tubes of the
  opponent's route that it covers); the best few are valued exactly on the board after placing.
* Filling isolated triangles: each piece and rotation is valued exactly; offered the other player's
  triangles, it always fills (research A6).

``medium`` and ``hard`` (:class:`SearchBot`, ``LEVELS``) decide their turn by search from
``rules.observe`` of their seat: each move, and drawing, valued by its expectation over the kinds of
rhomb still face down, each placed where it is worth most (hard weighs more kinds and values more
placements exactly than medium, and values each choice after the other astronaut's best move in reply).
They value a position as a race for the rulebook's goal (:func:`race_value`): the points on the bases,
each solar counter still to fetch weighed by the chance of reaching it before the other astronaut's tour
ends the race (home with both: the bonus phase) or, while an astronaut sits at home, before the board is
full (end without bonus); being home first (the bonus, ties); the two counters on the board each
astronaut is likeliest to fetch first; and the risk of being stranded once placing ends. Hard also
counts every turn of its own tour heavily (tempo), takes a solar counter a move reaches rather than
build, heads home along the tubes already on the board once both solar counters are in, and counts the
energy, control and alien counters each astronaut holds above their points; with both solar counters in
and the board nearly full it times the way home by the tubes already there; after several turns in a row
spent drawing it counts each further one against drawing (sets out rather than build what the other
blocks); once no rhomb can be drawn it decides by a minimax over both astronauts' moves
(``Level.endgame`` plies); with the other astronaut at home and not behind on points near the end, it
looks for a line of moves that gets it ahead before he fills the board; while 10 or more placements are
left it weighs the chance of winning on its expected margin, after that the race for the solar counters
alone; against an opponent who built first (his astronaut still at home after the first turns) it plays
that race alone from the start and does not sit at home with solar counters to fetch. A finished game
with a stranded astronaut is worse for them than any other defeat, and going back to a spot already
stood on with nothing changed costs a point (no loops). They read the CPU clock against ``THINK_BUDGET``
and answer with the best choice so far when it runs out.

``random`` is :class:`sim.ai.RandomAgent`: a uniformly random legal action.
Agents are seeded; easy and random never read the clock, so their games replay from the seed (a search
level's too, unless its budget cut a decision short).
"""
from __future__ import annotations

import heapq
import math
import random
import time
from dataclasses import dataclass, replace
from typing import Callable

from sim.ai import RandomAgent
from sim.core.rules import CHANCE, Action

from .board import Board
from .data import BASES, BONUS_POINTS_PER_TURN, POINTS, RHOMB_BY_ID, SOLARS
from .geometry import (EDGE_TRIS, INTERIOR, MODULE_BY_NAME, SLOTS, TRI_CORNERS, TRIANGLES, rhomb_corners,
                       rhomb_segments)
from .moves import FREE_COLOURS, can_reach_home, drift_paths, jump_targets
from .rules import TomTubeRules, TomTubeState

INF = float("inf")
#: Route-graph costs, in turns (roughly).
TUBE = 1.0          #: an own, neutral or printed tube segment
FOREIGN = 3.0       #: a tube of the other colour (needs a control counter)
BUILD = 2.0         #: a tube that a rhomb could still bring along a space edge over a free triangle
BUILD_LONG = 3.0    #: a long diagonal over a free slot
JUMP = 2.5          #: a space jump (needs an energy counter)
NODE_PEN = 0.4      #: per free triangle around a sphere that is not complete yet
LEG_CAP = 40.0      #: cost of a leg that cannot be travelled at all
ALPHA = 1.0         #: points per turn of tour cost (own)
ALPHA_OPP = 0.7     #: weight of the opponent's tour cost
BUILD_VALUE = 1.0   #: what drawing and placing a rhomb is worth against moving
EXACT = 8           #: placements valued exactly
STATIC_CAP = 4000   #: states of the exact end-game search
RISK_HORIZON = 6    #: placements left below which a possible stranding weighs in
STRAND_RISK = 40.0  #: weight of a stranding that the end of placing would bring
HORIZON_SLACK = 8.0  #: turns beyond the placements left that a tour may still take
WIN = 1000.0
SIGMA0 = 2.0        #: width (turns) of the race chances on a board that no longer changes (search levels)
SIGMA_PER_RHOMB = 0.08  #: more width per placement left
HOME_WEIGHT = 3.0   #: points for being home first (search levels' race value)
COUNTER_WEIGHT = 0.8  #: share of a counter's points weighed by the chance of fetching it first
COUNTERS_WEIGHED = 2  #: counters on the board weighed per astronaut, the most likely first
SOLAR_NOW = 2.5     #: points for fetching a solar counter now rather than later
LOOP_PENALTY = 1.0  #: points against going back to a spot already stood on, per visit
TOUR_WEIGHT = 0.5   #: points per turn of an astronaut's tour (search levels' race value)
TURNS_PER_COST = 0.6  #: turns per unit of route-graph cost (a drift passes several segments straight on)
STRANDED = 200.0    #: a stranded astronaut beyond a lost game
WIN_SIGMA = 1.0     #: width (points) of the chance that the expected margin wins, once the board is full
WIN_PER_RHOMB = 0.15  #: more width per placement left
OPENING_TURNS = 4   #: turns (both players') after which an astronaut still at home has built first
STALL_FREE = 4      #: own turns in a row spent drawing before ``Level.stall`` counts against drawing


# ------------------------------------------------------------------------------------ route graph
def route_graph(board: Board, player: int) -> dict[str, list[tuple[str, float]]]:
    """The route graph of ``player`` on ``board``: node -> [(neighbour, cost of going there)]; the cost
    includes entering the neighbour. Memoised on the board."""
    key = ("ai_graph", player)
    hit = board.cache.get(key)
    if hit is not None:
        return hit
    cov, ab, complete = board.covered, board.abandoned, board.complete
    pens: dict[str, float | None] = {}

    def pen(n: str) -> float | None:
        v = pens.get(n, -1.0)
        if v != -1.0:
            return v
        if n in complete:
            mod = MODULE_BY_NAME.get(n)
            v = None if (mod is not None and mod.owner != player) else 0.0
        elif n[0] == "j":
            v = 0.0
        elif n in INTERIOR and board.can_complete(n):
            v = NODE_PEN * board.free_around(n)
        else:
            v = None
        pens[n] = v
        return v

    adj: dict[str, dict[str, float]] = {}

    def add(u: str, v: str, w: float) -> None:
        pu, pv = pen(u), pen(v)
        if pu is None or pv is None:
            return
        a = adj.setdefault(u, {})
        if w + pv < a.get(v, INF):
            a[v] = w + pv
        b = adj.setdefault(v, {})
        if w + pu < b.get(u, INF):
            b[u] = w + pu

    ok = FREE_COLOURS[player]
    for u, v, c, _du, _dv in board.segs:
        add(u, v, TUBE if c in ok else FOREIGN)
    for (a, b), tris in EDGE_TRIS.items():
        if any(t not in cov and t not in ab for t in tris):
            add(a, b, BUILD)
        elif (a, b) not in board.inner:
            add(a, b, JUMP)
    for s in board.free_slots():
        cs = rhomb_corners(s, 0)
        add(cs["A"], cs["C"], BUILD_LONG)
    out = {u: list(nb.items()) for u, nb in adj.items()}
    board.cache[key] = out
    return out


def field(board: Board, player: int, src: str) -> dict[str, float]:
    """Route-graph distances from ``src`` (memoised on the board)."""
    key = ("ai_field", player, src)
    hit = board.cache.get(key)
    if hit is not None:
        return hit
    g = route_graph(board, player)
    dist = {src: 0.0}
    heap = [(0.0, src)]
    while heap:
        d, n = heapq.heappop(heap)
        if d > dist[n]:
            continue
        for m, w in g.get(n, ()):
            nd = d + w
            if nd < dist.get(m, INF):
                dist[m] = nd
                heapq.heappush(heap, (nd, m))
    board.cache[key] = dist
    return dist


def targets(s: TomTubeState, player: int) -> list[str]:
    """Solar modules ``player`` still has to visit (none in the bonus phase, A16)."""
    if s.bonus_for is not None:
        return []
    return [m for m in SOLARS[player] if m in s.solar_left]


def legs(s: TomTubeState, player: int, board: Board | None = None, pos: str | None = None) -> list[tuple[str, str]]:
    """The legs of ``player``'s best tour (from, to) on the current route graph."""
    board = board or s.board
    pos = pos or s.at[player]
    base = BASES[player]
    if s.bonus_for == player:
        return []
    ts = targets(s, player)
    if not ts:
        return [(pos, base)]
    if len(ts) == 1:
        return [(pos, ts[0]), (ts[0], base)]
    a, b = ts
    fa, fb, fh = field(board, player, a), field(board, player, b), field(board, player, base)
    one = _leg(fa, pos) + _leg(fb, a) + _leg(fh, b)
    two = _leg(fb, pos) + _leg(fa, b) + _leg(fh, a)
    return [(pos, a), (a, b), (b, base)] if one <= two else [(pos, b), (b, a), (a, base)]


def _leg(f: dict[str, float], n: str) -> float:
    return min(f.get(n, INF), LEG_CAP)


def tour_cost(s: TomTubeState, player: int, board: Board | None = None, pos: str | None = None,
              horizon: float | None = None) -> float:
    """Estimated turns ``player`` still needs: to his remaining solar modules, then home; when that tour
    is longer than ``horizon`` (the turns the game may still last), straight home instead if cheaper,
    counting 5 per solar counter left behind. Once the board can no longer change the count is exact
    (:func:`static_tour`) when the search stays small."""
    if board is None and pos is None and (s.bonus_for is not None or not (s.stack and s.board.has_free_slot())):
        exact = static_tour(s, player)
        if exact is not None:
            return exact
    board = board or s.board
    full = sum(_leg(field(board, player, b), a) for a, b in legs(s, player, board, pos))
    want = targets(s, player)
    if not want or s.bonus_for == player or horizon is None or full <= horizon:
        return full
    # or straight home, leaving the solar counters (5 points, about 5 turns, each)
    home = _leg(field(board, player, BASES[player]), pos or s.at[player]) + 5.0 * len(want)
    return min(full, home)


def static_tour(s: TomTubeState, player: int, cap: int | None = None) -> float | None:
    """On a board that can no longer change: the cheapest way for ``player`` to collect his remaining
    solar counters and get home, or to get home without them at 5 points per solar counter left behind.
    Cost = turns + points of the counters paid on the way (a control drift 2, a jump 1, an alien exchange
    1 more), so a move along the best way raises the value of the position by one. A uniform-cost
    search over (sphere, counters held, counters picked up) with the real drift and jump rules (the other
    astronaut ignored). 3 * LEG_CAP if he cannot get home at all. When the search grows beyond ``cap``
    states (default ``STATIC_CAP``), the same search with the counters other than solar left where they
    lie (they stop him and give nothing): the cost of a way that exists, if perhaps not the cheapest;
    None only if that too grows beyond ``cap``."""
    if s.bonus_for == player:
        return 0.0
    board = s.board
    e0, c0, a0, _so = s.supply[player]
    want = tuple(targets(s, player))
    cap = STATIC_CAP if cap is None else cap
    key = ("ai_static", player, s.at[player], e0, c0, a0, tuple(sorted(s.counters.items())), want, cap)
    hit = board.cache.get(key, False)
    if hit is not False:
        return hit
    out = _static_search(s, player, want, cap, True)
    if out is None:
        out = _static_search(s, player, want, cap, False)
    board.cache[key] = out
    return out


def _static_search(s: TomTubeState, player: int, want: tuple[str, ...], cap: int, pick: bool) -> float | None:
    """:func:`static_tour`'s search; ``pick``: the counters on the board are picked up (else they stay
    where they lie, stopping him, and only the solar counters are fetched)."""
    board = s.board
    e0, c0, a0, _so = s.supply[player]
    home = BASES[player]
    lying = frozenset(s.counters) if not pick else frozenset()
    items = (sorted(s.counters) if pick else []) + list(want)
    bit = {n: 1 << i for i, n in enumerate(items)}
    solar_bits = sum(bit[m] for m in want)
    memo = board.cache.setdefault(("ai_static_moves", player), {})
    start = (s.at[player], e0, c0, a0, 0)
    best = {start: 0}
    heap = [(0, 0, start)]
    tie = 0
    full = home_only = INF
    while heap:
        cost, _t, st = heapq.heappop(heap)
        if cost > best.get(st, INF):
            continue
        if cost >= full or cost >= home_only + 5.0 * len(want) or cost >= 3 * LEG_CAP:
            break
        node, e, c, a, picked = st
        stops = lying | frozenset(n for n in items if not picked & bit[n])
        for mode in ("drift", "control", "jump"):
            if mode == "control" and c == 0 and a == 0 or mode == "jump" and e == 0 and a == 0:
                continue
            mk = (node, stops, mode)
            dests = memo.get(mk)
            if dests is None:
                if mode == "jump":
                    dests = jump_targets(board, node, None)
                else:
                    dests = tuple(drift_paths(board, node, player, None, stops, mode == "control"))
                memo[mk] = dests
            for d in dests:
                ne, nc, na, step = e, c, a, 1
                if mode == "control":
                    if nc == 0:
                        na, nc, ne, step = na - 1, nc + 1, ne + 2, step + 1
                    nc -= 1
                    step += 2
                elif mode == "jump":
                    if ne == 0:
                        na, nc, ne, step = na - 1, nc + 1, ne + 2, step + 1
                    ne -= 1
                    step += 1
                np = picked
                if d in bit and not picked & bit[d]:
                    np |= bit[d]
                    kind = s.counters.get(d)
                    if kind == "energy":
                        ne += 1
                    elif kind == "control":
                        nc += 1
                    elif kind == "alien":
                        na += 1
                nd = cost + step
                if d == home:
                    home_only = min(home_only, nd)
                    if np & solar_bits == solar_bits:
                        full = min(full, nd)
                    continue
                nst = (d, ne, nc, na, np)
                if nd < best.get(nst, INF):
                    best[nst] = nd
                    tie += 1
                    heapq.heappush(heap, (nd, tie, nst))
        if len(best) > cap:
            return None
    if home_only == INF:
        return 3 * LEG_CAP
    return float(min(full, home_only + 5.0 * len(want)))


def placements_left(s: TomTubeState) -> int:
    """About how many rhombs can still be placed (0 once the board no longer changes)."""
    if s.bonus_for is not None or not s.stack or not s.board.has_free_slot():
        return 0
    free = len(TRIANGLES) - len(s.board.covered) - len(s.board.abandoned)
    return max(1, min(len(s.stack), free // 2))


def evaluate(rules: TomTubeRules, s: TomTubeState, me: int, risk_horizon: int = RISK_HORIZON,
             strand_risk: float = STRAND_RISK, alpha_opp: float = ALPHA_OPP, stranded: float = 0.0) -> float:
    """Value of ``s`` for ``me``: points difference minus weighted tour costs; a finished game is worth
    +-WIN plus the margin. When fewer than ``risk_horizon`` placements are left, tours are cut to the
    turns the game may still last and an astronaut who could not get home on the board as it stands
    weighs ``strand_risk`` (growing to it as placing ends). A finished game in which an astronaut was
    stranded weighs ``stranded`` more (the search levels: being lost is worse than any other defeat)."""
    b0, b1 = rules.breakdown(s, me)["total"], rules.breakdown(s, 1 - me)["total"]
    if s.phase == "over":
        w = rules.winner(s)
        # a stranded astronaut is lost: worse than any other way of losing, whatever the points
        lost = stranded * (s.stranded[1 - me] - s.stranded[me])
        return (WIN if w == me else -WIN if w == 1 - me else 0.0) + (b0 - b1) + lost
    if s.bonus_for is not None:
        # the bonus phase decides the game: the faster astronaut gains the turns counted so far plus the
        # turns the slower one still needs; ties go to the faster one (A17)
        slow = 1 - s.bonus_for
        left = tour_cost(s, slow)
        bonus = (s.bonus_turns + left) * BONUS_POINTS_PER_TURN
        margin = (b0 - b1) + (bonus if me == s.bonus_for else -bonus)
        return (WIN if margin > 0 or (margin == 0 and me == s.bonus_for) else -WIN) + margin
    left = placements_left(s)
    if 0 < left < risk_horizon:
        # near the end a tour far longer than the game may last will not be finished: beyond that only
        # points count, and going straight home may be worth more than the solar counters
        cap = HORIZON_SLACK + left
        mine, theirs = min(tour_cost(s, me, horizon=cap), cap), min(tour_cost(s, 1 - me, horizon=cap), cap)
    else:
        mine, theirs = tour_cost(s, me), tour_cost(s, 1 - me)
    v = (b0 - b1) - ALPHA * mine + alpha_opp * theirs
    return with_strand_risk(v, s, me, left, risk_horizon, strand_risk)


def with_strand_risk(v: float, s: TomTubeState, me: int, left: int, risk_horizon: int, strand_risk: float) -> float:
    """``v`` with the stranding risk: the board may soon stop changing (``left`` placements to go, fewer
    than ``risk_horizon``), and an astronaut who could not get home then is stranded; ``strand_risk``
    points, more the nearer the end, against ``me`` if it is his astronaut, for him if it is the other's."""
    if not 0 < left < risk_horizon:
        return v
    f = 1.0 - left / risk_horizon
    for p, sign in ((me, -1.0), (1 - me, 1.0)):
        e, c, a, _so = s.supply[p]
        if not can_reach_home(s.board, s.at[p], p, e, c, a, s.counters):
            v += sign * strand_risk * f
    return v


def tour_times(s: TomTubeState, player: int, home_tubes: int = 0) -> tuple[list[float], float]:
    """``player``'s tour: the turns (route-graph cost times ``TURNS_PER_COST``) from where he stands to
    each solar module he still has to visit, in tour order, and of the whole tour home; once the board
    no longer changes the whole tour is the exact :func:`static_tour` and the legs are scaled to it.
    With both solar counters in and fewer than ``home_tubes`` placements left, the way home leans toward
    the exact way over the tubes already there, in proportion (all of it as placing ends): the route
    graph counts on tubes that few rhombs are left to bring."""
    out: list[float] = []
    t = 0.0
    for a, b in legs(s, player):
        t += TURNS_PER_COST * _leg(field(s.board, player, b), a)
        if b != BASES[player]:
            out.append(t)
    if s.bonus_for is None and not (s.stack and s.board.has_free_slot()):
        # the board no longer changes: the exact count, the legs in proportion
        exact = static_tour(s, player)
        if exact is not None:
            k = exact / t if t > 0 else 1.0
            return [x * k for x in out], exact
    elif home_tubes and not out and t > 0 and 0 < (left := placements_left(s)) < home_tubes:
        exact = static_tour(s, player)
        if exact is not None and exact < 3 * LEG_CAP:
            return out, t + (exact - t) * (1.0 - left / home_tubes)
    return out, t


def _sig(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def race_value(rules: TomTubeRules, s: TomTubeState, me: int, sigma0: float = SIGMA0,
               sigma_per_rhomb: float = SIGMA_PER_RHOMB, strand_risk: float = STRAND_RISK,
               risk_horizon: int = RISK_HORIZON, home_weight: float = HOME_WEIGHT,
               counter_weight: float = COUNTER_WEIGHT, tour_weight: float = TOUR_WEIGHT,
               win_weight: float = 0.0, home_missing: float = 0.0, held: float = 0.0,
               home_tubes: int = 0) -> float:
    """Value of ``s`` for ``me`` as a race for the solar counters (the search levels): the points on
    the bases, plus for each astronaut 5 points per solar counter still to fetch times the chance that
    he gets there before the other astronaut's tour ends the race (home with both: the bonus phase, A16)
    or, while an astronaut is at home, before the board fills (end without bonus, A13); ``home_weight``
    times the chance of being home first (the bonus, ties); ``counter_weight`` times the points of the
    two counters on the board he is likeliest to fetch before the other and before the race ends; minus
    ``tour_weight`` per turn of ``me``'s tour and ``TOUR_WEIGHT`` per turn of the other's; plus
    ``win_weight`` times the chance that the expected margin (points, solar counters and counters as
    weighed here, a tie to the one home first) wins, from -1 to 1, logistic with a width of
    ``WIN_SIGMA`` points plus ``WIN_PER_RHOMB`` per placement left; minus ``home_missing`` per solar
    counter still to fetch by an astronaut who sits at home; plus ``held`` times the points of the
    energy, control and alien counters each astronaut holds (on top of their points: a counter spent on
    a space jump or a drift costs more than it looks). Chances are
    logistic in differences of turns (:func:`tour_times`, :func:`field`), wider while many rhombs may
    still change the board; the astronaut to act is half a turn ahead. A stranding risk near the end
    as in :func:`evaluate`; a finished game or the bonus phase as there."""
    if s.phase == "over" or s.bonus_for is not None:
        return evaluate(rules, s, me, risk_horizon, strand_risk, 1.0, STRANDED)
    b = {x: rules.breakdown(s, x) for x in (0, 1)}
    # counters held (energy, control, alien): the points but the solar counters' (no bonus before A16)
    held_pts = {x: b[x]["total"] - b[x]["solar"] * POINTS["solar"] for x in (0, 1)}
    v = float(b[me]["total"] - b[1 - me]["total"]) + held * (held_pts[me] - held_pts[1 - me])
    left = placements_left(s)
    sigma = sigma0 + sigma_per_rhomb * left
    times = (tour_times(s, 0, home_tubes), tour_times(s, 1, home_tubes))
    solar = POINTS["solar"]
    # while an astronaut is at home the game ends once the board is full (end without bonus)
    home = left > 0 and any(s.at[p] == BASES[p] for p in (0, 1))
    margin = v
    first = 0.0
    for x, sign in ((me, 1.0), (1 - me, -1.0)):
        y = 1 - x
        sols, fx = times[x]
        fy = times[y][1]
        cut = fy + (0.5 if s.turn == x else -0.5)
        if home:
            cut = min(cut, left + 0.5)
        if home_missing and s.at[x] == BASES[x]:
            v -= sign * home_missing * len(sols)
        for t in sols:
            g = sign * solar * _sig((cut - t) / sigma)
            v += g
            margin += g
        # home first: the bonus, the other's solar counters cut off, ties won
        hf = _sig((fy - fx + (0.5 if s.turn == x else -0.5)) / sigma)
        v += sign * home_weight * hf
        if x == me:
            first = hf
        # every turn saved counts, however far the goal still is: its own at ``tour_weight`` (tempo),
        # the other's at TOUR_WEIGHT only (lengthening a hopeless tour must not beat fetching points)
        v -= sign * (tour_weight if x == me else TOUR_WEIGHT) * fx
        # counters on the board: reached before the other astronaut and before the race ends
        # (the best two: each one fetched costs turns of its own)
        if s.counters:
            dx = field(s.board, x, s.at[x])
            dy = field(s.board, y, s.at[y])
            got = []
            for n, kind in s.counters.items():
                tx = TURNS_PER_COST * dx.get(n, INF)
                if tx == INF:
                    continue
                ty = TURNS_PER_COST * dy.get(n, INF)
                lim = min(cut, ty + (0.5 if s.turn == x else -0.5))
                got.append(POINTS[kind] * _sig((lim - tx) / sigma))
            got.sort(reverse=True)
            g = sign * counter_weight * sum(got[:COUNTERS_WEIGHED])
            v += g
            margin += g
    if win_weight:
        # the game is won on points, a tie by the one home first (A17): the chance that the expected
        # margin holds, sharper as the end nears
        ahead = rules.home_first(s)
        tie = first - 0.5 if ahead is None else 0.5 if ahead == me else -0.5
        v += win_weight * (2.0 * _sig((margin + tie) / (WIN_SIGMA + WIN_PER_RHOMB * left)) - 1.0)
    return with_strand_risk(v, s, me, left, risk_horizon, strand_risk)


# ---------------------------------------------------------------------------------------- the bot
class RouteBot:
    """The Tom Tube bot (see the module docstring)."""

    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def select_action(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        if s.phase == "turn":
            return self._turn(rules, s, player)
        if s.phase == "place":
            return self._place(rules, s, player)
        if s.phase in ("fill", "fill_other"):
            return self._fill(rules, s, player)
        acts = rules.legal_actions(s, player)
        if not acts:
            raise ValueError("no legal action")
        return acts[0]

    def _eval(self, rules: TomTubeRules, s: TomTubeState, me: int) -> float:
        return evaluate(rules, s, me)

    def _late(self) -> bool:
        """Whether the think budget is spent (the route bot has none)."""
        return False

    def _jitter(self) -> float:
        return self.rng.random() * 1e-6

    # ---------------------------------------------------------------------------------- turn
    def _best_move(self, rules: TomTubeRules, s: TomTubeState, player: int) -> tuple[float, Action | None]:
        best, best_v = None, -INF
        for a in rules.legal_actions(s, player):
            if a["t"] != "move":
                continue
            after, _ev = rules.apply(s, player, a)
            v = self._eval(rules, after, player) + self._jitter()
            if v > best_v:
                best, best_v = a, v
        return best_v, best

    def _turn(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        now = self._eval(rules, s, player)
        move_v, move = self._best_move(rules, s, player)
        can_draw = s.bonus_for is None and rules.placeable(s)
        if rules.can_exchange(s, player):
            ex, _ev = rules.apply(s, player, {"t": "exchange"})
            ex_v, ex_move = self._best_move(rules, ex, player)
            if ex_move is not None and self._exchange_pays(ex_v, move_v, now, can_draw):
                return {"t": "exchange"}
        if move is not None and (not can_draw or move_v - now > BUILD_VALUE):
            return move
        if can_draw:
            return {"t": "draw"}
        if rules.can_exchange(s, player):
            return {"t": "exchange"}
        if move is not None:
            return move
        raise ValueError("no legal action")

    @staticmethod
    def _exchange_pays(ex_v: float, move_v: float, now: float, can_draw: bool) -> bool:
        """Whether the alien exchange is worth it: the best move after it (``ex_v``) beats the best move
        without it, and while a rhomb can be drawn also drawing (``BUILD_VALUE`` above ``now``)."""
        return ex_v > move_v + 1e-9 and (not can_draw or ex_v - now > BUILD_VALUE)

    # --------------------------------------------------------------------------------- place
    def _place(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        return self._placements(rules, s, player, EXACT)[1]

    def _placements(self, rules: TomTubeRules, s: TomTubeState, player: int,
                    exact_n: int) -> tuple[float, Action, TomTubeState]:
        """The best placement of the drawn rhomb: (value for ``player``, action, state after). Every
        slot and orientation is ranked first-order; the best ``exact_n`` (all of them near the end) are
        valued exactly."""
        rid = s.drawn
        board = s.board
        opp = 1 - player
        my_legs = legs(s, player)
        opp_legs = legs(s, opp)
        my_fields = {x: field(board, player, x) for leg in my_legs for x in leg}
        opp_fields = {x: field(board, opp, x) for leg in opp_legs for x in leg}
        opp_path = self._path_edges(board, opp, opp_legs)
        scored = []
        for slot in board.free_slots():
            for flip in (0, 1):
                segs = rhomb_segments(slot, rid, flip)
                gain = self._gain(segs, player, my_legs, my_fields)
                given = self._gain(segs, opp, opp_legs, opp_fields)
                block = self._blocks(slot, segs, opp, opp_path)
                scored.append((ALPHA * gain - ALPHA_OPP * given + ALPHA_OPP * block + self._jitter(), slot, flip))
        scored.sort(reverse=True)
        best, best_v, best_after = None, -INF, s
        # near the end every placement is valued exactly: the stranding risk is not in the first-order score
        exact = scored if placements_left(s) < RISK_HORIZON else scored[:exact_n]
        for _approx, slot, flip in exact:
            if best is not None and self._late():
                break
            a = {"t": "place", "slot": slot, "flip": flip}
            after, _ev = rules.apply(s, player, a)
            v = self._eval(rules, after, player) + self._jitter()
            if v > best_v:
                best, best_v, best_after = a, v, after
        return best_v, best, best_after

    @staticmethod
    def _gain(segs, player: int, lgs, fields) -> float:
        """Tour shortening from new tube segments joining the two ends of a leg (first-order)."""
        ok = FREE_COLOURS[player]
        links = []
        # a rhomb tube split at its energy sphere still links its two corners
        ends: dict[str, list[str]] = {}
        for u, v, c, _du, _dv in segs:
            w = TUBE if c in ok else FOREIGN
            if u[0] == "c" or v[0] == "c":
                centre, other = (u, v) if u[0] == "c" else (v, u)
                ends.setdefault(centre, []).append(other)
                links.append((u, v, w))
            else:
                links.append((u, v, w))
        for centre, ks in ends.items():
            for i in range(len(ks)):
                for j in range(i + 1, len(ks)):
                    links.append((ks[i], ks[j], 2 * TUBE))
        total = 0.0
        for a, b in lgs:
            fa, fb = fields[a], fields[b]
            old = _leg(fb, a)
            new = old
            for u, v, w in links:
                new = min(new, fa.get(u, INF) + w + fb.get(v, INF), fa.get(v, INF) + w + fb.get(u, INF))
            total += old - new
        return total

    @staticmethod
    def _path_edges(board: Board, player: int, lgs) -> set[frozenset[str]]:
        """Pairs of nodes next to each other on ``player``'s best routes."""
        g = route_graph(board, player)
        out: set[frozenset[str]] = set()
        for a, b in lgs:
            fb = field(board, player, b)
            n = a
            for _ in range(60):
                if n == b or n not in fb:
                    break
                nxt = None
                for m, w in g.get(n, ()):
                    if m in fb and abs(fb[n] - (w + fb[m])) < 1e-9 and (nxt is None or m < nxt):
                        nxt = m
                if nxt is None:
                    break
                out.add(frozenset((n, nxt)))
                n = nxt
        return out

    @staticmethod
    def _blocks(slot: int, segs, opp: int, opp_path: set[frozenset[str]]) -> float:
        """Cost of the opponent's potential tubes over this slot's triangles that his route counted on
        and that the rhomb does not give him."""
        _e, t1, t2 = SLOTS[slot]
        given = {frozenset((u, v)) for u, v, c, _du, _dv in segs if c in FREE_COLOURS[opp]}
        lost = 0.0
        pairs = set()
        for t in (t1, t2):
            cs = TRI_CORNERS[t]
            pairs |= {frozenset((cs[i], cs[j])) for i in range(3) for j in range(i + 1, 3)}
        cs = rhomb_corners(slot, 0)
        pairs.add(frozenset((cs["A"], cs["C"])))
        for p in pairs:
            if p in opp_path and p not in given:
                lost += BUILD
        return lost

    # ---------------------------------------------------------------------------------- fill
    def _fill(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        best, best_v = None, -INF
        for a in rules.legal_actions(s, player):
            if a["t"] != "fill":
                continue
            after, _ev = rules.apply(s, player, a)
            # keep tube pieces for later when a plain one does as well
            v = self._eval(rules, after, player) + (0.05 if a["piece"] == "plain" else 0.0) + self._jitter()
            if v > best_v:
                best, best_v = a, v
        if best is None:
            return {"t": "leave"}
        return best


# ------------------------------------------------------------------------------ the search bot
@dataclass(frozen=True)
class Level:
    """What a search level looks at. ``draws``: kinds of rhomb (design and energy sphere) a draw is
    valued over, the most frequent of the remaining ones first; ``exact``: placements of each valued
    exactly; ``replies``: whether the opponent's best move after each own choice is looked at;
    ``budget``: CPU seconds a decision may take (``THINK_BUDGET``); ``risk_horizon`` and ``strand_risk``:
    how early and how much the bot fears being stranded; ``tour_weight``: points per turn of its own
    tour (:func:`race_value`; the other's at ``TOUR_WEIGHT``); ``rush``: a move that fetches a solar
    counter, and with both in a move nearer home along the tubes already on the board, beats drawing;
    ``race``: positions valued by :func:`race_value`, else by :func:`evaluate` (with ``alpha_opp``);
    ``win_weight``: points for the chance of winning on the expected margin (:func:`race_value`), in
    a decision taken while at least ``win_left`` placements are left (after that the race for the solar
    counters alone); ``builder_race``: against an opponent who built first (his astronaut still at home
    after ``OPENING_TURNS`` turns), no win chance and no weight for being home first, and
    ``home_missing`` points against an astronaut at home per solar counter he still has to fetch;
    ``endgame``: once no rhomb can be drawn (before the bonus phase), plies of the minimax over both
    astronauts' moves that decides the turn (0: none); ``stall``: points against drawing per own turn
    in a row already spent drawing beyond ``STALL_FREE``; ``held``: weight of the counters an astronaut
    holds beyond their points (:func:`race_value`); ``home_tubes``: placements left below which the
    turns home of an astronaut with both solar counters lean toward the way over the tubes already there
    (:func:`tour_times`); ``chase``: placements left at or below which, with the other astronaut at home
    and not behind on points, a line of moves that puts it ahead before the board is full is played
    (:meth:`SearchBot._chase`; 0: never)."""

    draws: int
    exact: int
    replies: bool
    budget: float
    risk_horizon: int = RISK_HORIZON
    strand_risk: float = STRAND_RISK
    alpha_opp: float = ALPHA_OPP
    tour_weight: float = TOUR_WEIGHT
    rush: bool = False
    win_weight: float = 0.0
    win_left: int = 0
    builder_race: bool = False
    home_missing: float = 0.0
    expectimax: bool = True
    race: bool = True
    endgame: int = 0
    stall: float = 0.0
    held: float = 0.0
    home_tubes: int = 0
    chase: int = 0


#: Think-time budgets (CPU seconds per decision, of the thinking thread: ``time.thread_time``, so neither
#: a loaded machine nor the screen's own thread eats into them): past it a decision answers with the
#: best choice found so far. About 1 s at hard, less below (a person's patience); the bots usually
#: finish far below it, so their play does not depend on the machine.
THINK_BUDGET = {"medium": 0.3, "hard": 1.0}

#: Both value positions by :func:`race_value` and a draw over the rhombs still face down against the best
#: move; medium over the 3 most frequent kinds of rhomb left with 4 placements of each valued exactly, hard
#: over 10 kinds with 12, each choice valued after the other's best move in reply (it costs little: the other
#: astronaut has a few moves). Hard also plays for tempo (16 times medium's weight per turn of its own tour,
#: the other's as medium), fears stranding from 20 placements before the end (medium from 6), heads home along
#: the tubes on the board once both solar counters are in and weighs the chance of winning on its margin at 30
#: points while 10 or more placements are left (tuned by selfplay against easy, itself and a random mover;
#: counted to the end, it kept both astronauts at home while the board filled and fewer solar counters were
#: fetched). Against an opponent who built first it plays the race alone and counts 3 points against sitting
#: at home per solar counter to fetch: two such astronauts otherwise build at home while the board fills,
#: whereas against one who leaves at once (as easy does) building first and the win chance are what win. Once
#: no rhomb can be drawn hard searches 6 plies of both astronauts' moves (no chance is left): it goes home
#: when that wins, waits for the other to spend a counter, keeps its own (a tie goes to the one home first).
#: After 4 turns in a row spent drawing hard counts half a point against each further draw: two hard bots
#: otherwise sat drawing for twenty turns and more while each blocked what the other built. With both solar
#: counters in and fewer than 20 placements left, hard times the way home between the route graph's count and
#: the exact way over the tubes already there, all of the latter as placing ends: the route graph's count was
#: some 0.7 turns short on average there, and hard lost bonus races it thought won. With the other astronaut
#: at home, not behind on points, and 8 or fewer placements left, hard plays a line of moves over the board as
#: it stands that puts it ahead before he fills the board, if there is one: valued one move ahead, a rhomb
#: drawn to shorten a tour that could no longer be finished beat the counter that would have won.
LEVELS: dict[str, Level] = {
    "medium": Level(draws=3, exact=4, replies=False, budget=THINK_BUDGET["medium"]),
    "hard": Level(draws=10, exact=12, replies=True, budget=THINK_BUDGET["hard"], alpha_opp=1.0,
                  risk_horizon=20, tour_weight=8.0, rush=True, win_weight=30.0, win_left=10,
                  builder_race=True, home_missing=3.0, endgame=6, stall=0.5, held=2.0,
                  home_tubes=20, chase=8),
}


class _OutOfTime(Exception):
    pass


class SearchBot(RouteBot):
    """Medium and hard: a move, an alien exchange and a draw are compared by their expected value. A
    draw is valued over the rhombs still face down (chance: each remaining rhomb equally likely; the
    kinds are weighed by how many of each remain), each placed where it is worth most; with
    ``replies`` every choice is valued after the opponent's best move in reply. The position is valued
    by :func:`race_value` (``level.race``; else :func:`evaluate`); a move back to a spot its astronaut
    already stood on with the same supply on the same board loses ``LOOP_PENALTY`` per visit.
    The bot sees only ``rules.observe`` of its seat; the think time is bounded by ``level.budget`` CPU
    seconds (``clock``, default ``time.thread_time``), past which the best choice so far is taken."""

    def __init__(self, seed: int = 0, level: str = "hard", clock: Callable[[], float] | None = None):
        super().__init__(seed)
        self.level = LEVELS[level]
        self.name = level
        self.clock = clock or time.thread_time
        self._deadline = INF
        #: the win chance's weight in the decision under way (``level.win_left``)
        self._win_weight = self.level.win_weight
        #: whether the last decision ran out of time
        self.cut = False
        #: how often its astronaut stood on a sphere with the same supply on the same board (loops)
        self._visits: dict[tuple, int] = {}
        #: whether the opponent built first (his astronaut at home after ``OPENING_TURNS``); None while
        #: the opening runs; False (unknown) when the bot first sees a game after it, e.g. a resumed one
        self._built: bool | None = None
        #: the turn of the last position seen (a new game or an undo goes back)
        self._seen = -1
        #: the decision under way plays the race alone (``level.builder_race`` against a builder)
        self._race_only = False
        #: its own turns in a row spent drawing (``level.stall``)
        self._draws = 0

    def select_action(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        s = rules.observe(s, player)
        self._deadline = self.clock() + self.level.budget
        self.cut = False
        lv = self.level
        if s.turns < self._seen:
            self._visits.clear()        # a new game, or an undo
            self._draws = 0
        self._opening(s, player)
        self._race_only = lv.builder_race and bool(self._built)
        self._win_weight = lv.win_weight if placements_left(s) >= lv.win_left and not self._race_only else 0.0
        return super().select_action(rules, s, player)

    def _opening(self, s: TomTubeState, player: int) -> None:
        """Notes whether the opponent built first: his astronaut still at home after ``OPENING_TURNS``
        turns of a game this bot saw from its opening."""
        if self._seen < 0:
            # the first position seen: judged only if it is still the opening
            self._built = None if s.turns <= OPENING_TURNS else False
        elif s.turns < self._seen and s.turns <= OPENING_TURNS:
            self._built = None          # a new game, or an undo back into the opening
        self._seen = s.turns
        if self._built is None:
            if s.at[1 - player] != BASES[1 - player]:
                self._built = False
            elif s.turns > OPENING_TURNS:
                self._built = True

    def _eval(self, rules: TomTubeRules, s: TomTubeState, me: int) -> float:
        lv = self.level
        if lv.race:
            race = self._race_only
            return race_value(rules, s, me, strand_risk=lv.strand_risk, risk_horizon=lv.risk_horizon,
                              tour_weight=lv.tour_weight, win_weight=self._win_weight,
                              home_weight=0.0 if race else HOME_WEIGHT,
                              home_missing=lv.home_missing if race else 0.0, held=lv.held,
                              home_tubes=lv.home_tubes)
        return evaluate(rules, s, me, lv.risk_horizon, lv.strand_risk, lv.alpha_opp, STRANDED)

    def _late(self) -> bool:
        """Whether the budget is spent (once it is, without reading the clock again)."""
        if self.cut or self.clock() > self._deadline:
            self.cut = True
            return True
        return False

    def _tick(self) -> None:
        if self._late():
            raise _OutOfTime

    def _place(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        return self._placements(rules, s, player, self.level.exact)[1]

    def _reply(self, rules: TomTubeRules, s: TomTubeState, me: int, v: float) -> float:
        """``v`` (the value of ``s`` for ``me``) lowered to the opponent's best move in reply, when he
        is to move."""
        if not self.level.replies or s.phase != "turn" or s.turn == me:
            return v
        opp = s.turn
        worst = v
        for a in rules.legal_actions(s, opp):
            if a["t"] != "move":
                continue
            self._tick()
            after, _ev = rules.apply(s, opp, a)
            worst = min(worst, self._eval(rules, after, me))
        return worst

    def _settle(self, rules: TomTubeRules, s: TomTubeState) -> TomTubeState:
        """``s`` after the isolated triangles are filled as the fillers would (the route bot's fill)."""
        for _ in range(20):
            if s.phase not in ("fill", "fill_other"):
                break
            p = s.filler
            s, _ev = rules.apply(s, p, RouteBot._fill(self, rules, s, p))
        return s

    def _draw_value(self, rules: TomTubeRules, s: TomTubeState, me: int) -> float | None:
        """Expected value for ``me`` of drawing now: over the kinds of rhomb still face down, the most
        frequent first (up to ``level.draws``), the best placement of each, weighed by how many of that
        kind remain. None if not a single kind could be valued in time."""
        kinds: dict[tuple[str, bool], list[str]] = {}
        for rid in s.stack:
            r = RHOMB_BY_ID[rid]
            kinds.setdefault((r.design, r.energy), []).append(rid)
        order = sorted(kinds.values(), key=lambda ids: (-len(ids), ids[0]))[:self.level.draws]
        total = weight = 0.0
        drawing = replace(s, phase="draw")
        for ids in order:
            try:
                self._tick()
                drawn, _ev = rules.apply(drawing, CHANCE, {"t": "rhomb", "id": ids[0]})
                v, _a, after = self._placements(rules, drawn, me, self.level.exact)
                after = self._settle(rules, after)
                if after is not None and after.phase != "over":
                    v = self._eval(rules, after, me)
                    v = self._reply(rules, after, me, v)
            except _OutOfTime:
                break
            total += v * len(ids)
            weight += len(ids)
        return total / weight if weight else None

    @staticmethod
    def _spot(s: TomTubeState, player: int) -> tuple:
        return s.at[player], s.supply[player], len(s.counters), len(s.board.rhombs)

    @staticmethod
    def _way_home(rules: TomTubeRules, s: TomTubeState, player: int) -> Action | None:
        """The move along the cheapest way home over the tubes already on the board (:func:`static_tour`
        of the board as it stands), or None if there is none or it grows too large."""
        now = static_tour(s, player)
        if now is None or now >= 3 * LEG_CAP:
            return None
        best = None
        for a in rules.legal_actions(s, player):
            if a["t"] != "move":
                continue
            after = rules.apply(s, player, a)[0]
            c = 0.0 if after.at[player] == BASES[player] else static_tour(after, player)
            if c is not None and c < now and (best is None or c < best[0]):
                best = (c, a)
        return best[1] if best else None

    def _chase(self, rules: TomTubeRules, s: TomTubeState, me: int) -> Action | None:
        """With the other astronaut at home and not behind on points (a tie is his, A17) and few
        placements left: he fills the board and the game ends (A13), so ``me`` has about as many turns
        as placements are left to get ahead. The first move of the shortest line of ``me``'s moves over
        the board as it stands (breadth first, each spot with the same supply and counters once) that
        puts ``me`` ahead within that many moves; None if there is none or the budget runs out."""
        opp = 1 - me
        frontier: list[tuple[TomTubeState, Action | None]] = [(s, None)]
        seen = set()
        for _depth in range(placements_left(s)):
            nxt = []
            for st, first in frontier:
                for a in rules.legal_actions(st, me):
                    if a["t"] != "move":
                        continue
                    if self._late():
                        return None
                    after = rules.apply(st, me, a)[0]
                    if after.stranded[me]:
                        continue
                    if after.phase == "over":
                        if rules.winner(after) == me:
                            return first or a
                        continue
                    if rules.breakdown(after, me)["total"] > rules.breakdown(after, opp)["total"]:
                        return first or a
                    key = (after.at[me], after.supply[me], frozenset(after.counters.items()))
                    if key not in seen:
                        seen.add(key)
                        # the other astronaut draws meanwhile: ``me`` moves again on the same board
                        nxt.append((replace(after, turn=me), first or a))
            frontier = nxt
        return None

    def _endgame(self, rules: TomTubeRules, s: TomTubeState, me: int) -> Action | None:
        """On a board that no longer changes (and before the bonus phase): the move or exchange best
        for ``me`` by a minimax over both astronauts' moves, deepened to ``level.endgame`` plies while
        the budget lasts (the board holds no more chance); a move back to a spot already stood on loses
        ``LOOP_PENALTY`` per visit. None if not even the first depth was searched in time."""
        acts = self._board_actions(rules, s, me)
        if not acts:
            return None
        kids = [(a, rules.apply(s, me, a)[0]) for a in acts]
        loop = [LOOP_PENALTY * self._visits.get(self._spot(k, me), 0) if a["t"] == "move" else 0.0
                for a, k in kids]
        best = None
        order = list(range(len(kids)))
        for depth in range(1, self.level.endgame + 1):
            try:
                vals = []
                alpha = -INF
                for i in order:
                    v = self._minimax(rules, kids[i][1], me, depth - 1, alpha + loop[i] - 1e-6, INF)
                    v += self._jitter() - loop[i]
                    vals.append((v, i))
                    alpha = max(alpha, v)
            except _OutOfTime:
                break
            vals.sort(reverse=True)
            order = [i for _v, i in vals]
            best = kids[order[0]][0]
        return best

    @staticmethod
    def _board_actions(rules: TomTubeRules, s: TomTubeState, player: int) -> list[Action]:
        """``player``'s moves and exchange (what is left once no rhomb can be drawn)."""
        return [a for a in rules.legal_actions(s, player) if a["t"] in ("move", "exchange")]

    def _minimax(self, rules: TomTubeRules, s: TomTubeState, me: int, depth: int, alpha: float,
                 beta: float) -> float:
        """The value for ``me`` of ``s`` searched ``depth`` plies deeper (alpha-beta; an exchange is no
        ply: the same astronaut moves after it)."""
        self._tick()
        if depth <= 0 or s.phase != "turn" or s.bonus_for is not None:
            return self._eval(rules, s, me)
        p = s.turn
        acts = self._board_actions(rules, s, p)
        if not acts:
            return self._eval(rules, s, me)
        best = -INF if p == me else INF
        for a in acts:
            after = rules.apply(s, p, a)[0]
            v = self._minimax(rules, after, me, depth if a["t"] == "exchange" else depth - 1, alpha, beta)
            if p == me:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _turn(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        act = self._turn_choice(rules, s, player)
        self._draws = self._draws + 1 if act["t"] == "draw" else 0
        return act

    def _turn_choice(self, rules: TomTubeRules, s: TomTubeState, player: int) -> Action:
        here = self._spot(s, player)
        self._visits[here] = self._visits.get(here, 0) + 1
        if self.level.endgame and s.bonus_for is None and not rules.placeable(s):
            act = self._endgame(rules, s, player)
            if act is not None:
                return act
        opp = 1 - player
        if (self.level.chase and s.bonus_for is None and rules.placeable(s) and s.at[opp] == BASES[opp]
                and s.at[player] != BASES[player] and placements_left(s) <= self.level.chase
                and rules.breakdown(s, player)["total"] <= rules.breakdown(s, opp)["total"]):
            act = self._chase(rules, s, player)
            if act is not None:
                return act
        now = self._eval(rules, s, player)
        moves = []
        for a in rules.legal_actions(s, player):
            if a["t"] == "move" and not (moves and self._late()):
                after, _ev = rules.apply(s, player, a)
                # going back to where it already stood with nothing changed: a loop
                loop = LOOP_PENALTY * self._visits.get(self._spot(after, player), 0)
                # a solar counter fetched now can no longer be lost (the search sees one action ahead
                # only, so a placement's gain would otherwise put off a sure counter)
                sure = SOLAR_NOW if after.supply[player][3] > s.supply[player][3] else 0.0
                moves.append((self._eval(rules, after, player) - loop + sure + self._jitter(), a, after))
        moves.sort(key=lambda x: -x[0])
        best = None                     # (value after the reply, value, move)
        try:
            # the best moves first, each after the opponent's reply (the first is always valued)
            for v, a, after in moves[:8]:
                r = self._reply(rules, after, player, v)
                if best is None or r > best[0]:
                    best = (r, v, a)
        except _OutOfTime:
            if best is None and moves:
                best = (moves[0][0], moves[0][0], moves[0][1])
        can_draw = s.bonus_for is None and rules.placeable(s)
        if rules.can_exchange(s, player):
            ex_after, _ev = rules.apply(s, player, {"t": "exchange"})
            ex_v, ex_move = self._best_move(rules, ex_after, player)
            if ex_move is not None and self._exchange_pays(ex_v, -INF if best is None else best[1], now, can_draw):
                return {"t": "exchange"}
        if can_draw and self.level.rush:
            # a solar counter in reach is a sure 5 points: fetched now, whatever building would gain
            solar = [(v, a) for v, a, after in moves if after.supply[player][3] > s.supply[player][3]
                     and not after.stranded[player]]
            if solar:
                return max(solar, key=lambda x: x[0])[1]
            # both held: every turn out is one in which the other may cut the way home (and home first
            # with both is the bonus), so the way home that exists now beats building one
            if not targets(s, player) and s.at[player] != BASES[player]:
                rush = self._way_home(rules, s, player)
                if rush is not None:
                    return rush
        if can_draw and self.level.expectimax:
            dv = self._draw_value(rules, s, player)
            if dv is not None:
                # drawing turn after turn while the other blocks what it builds: set out instead
                dv -= self.level.stall * max(0, self._draws - STALL_FREE)
                if best is None or dv > best[0]:
                    return {"t": "draw"}
                return best[2]
        if best is not None and (not can_draw or best[1] - now > BUILD_VALUE):
            return best[2]
        if can_draw:
            return {"t": "draw"}
        if rules.can_exchange(s, player):
            return {"t": "exchange"}
        if best is not None:
            return best[2]
        raise ValueError("no legal action")


AGENTS = {"easy": RouteBot, "bot": RouteBot, "medium": SearchBot, "hard": SearchBot, "random": RandomAgent}


def make_agent(name: str, seed: int = 0, clock: Callable[[], float] | None = None):
    """A Tom Tube agent by name ("easy" - also "bot", the name of old records -, "medium", "hard" or
    "random"); ``clock`` (CPU seconds) times a search level. KeyError naming the known ones otherwise."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise KeyError(f"unknown player {name!r} (known: {', '.join(AGENTS)})") from None
    if cls is SearchBot:
        return SearchBot(seed, name, clock)
    return cls(seed)
