"""Tumbleweed bots (specs/tumbleweed.md "Engine and AI"; research/tumbleweed.md §5.2).

Every bot evaluates a position with a per-hex table over the hex code of :class:`rules.Engine` (owner,
height, red sight, white sight), so the engine keeps the evaluation up to date incrementally as it
plays and undoes moves. From red's side, in hundredths of a point:

* a stack is worth +1 point to its owner, or -1 if it is **threatened** (the opponent can capture it
  without the capture being suicidal), plus a small strength term ``max(own sight - 1, height) -
  opponent sight`` (antonTobi's "strength");
* an empty hex is worth +1 to the player who controls it (sees it more often), plus a little for a
  wider margin; contested and unseen hexes are worth nothing;
* the side to move gets a small tempo bonus.

Levels:

* ``easy``: one ply: every legal placement that is not suicidal scored by the evaluation after it,
  with Gaussian noise (so it often misses the best move and never looks at the reply).
* ``medium``: alpha-beta to depth 2 over the sensible moves (never suicidal; reinforcements only of
  threatened stacks; no filling of own safe territory), the best 12 by one-ply value at inner nodes, and
  a quiescence search over captures and defences of threatened stacks.
* ``hard``: the same with iterative deepening, a transposition table, principal-variation search and a
  time budget (or a node budget); deeper and wider quiescence.

Setup: as host a bot samples starting pairs and places the one whose value for red (with red to move)
is closest to even; as guest it takes the colour its search prefers. Passing: pass is always one of
the candidate moves; two passes end the search with the exact final score, so a bot passes to end a
game it is winning and passes when no move is worth more than passing.

Agents follow ``sim.ai``: ``select_action(rules, state, player)``. ``time_budget`` (s) bounds hard's
thinking; with ``node_budget`` instead the search never reads the clock and is deterministic for a
seed. ``cancel()`` (a callable returning True) stops a search early; the best move so far is played.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from sim.core.rules import Action

from .rules import (CODE_HEIGHT, CODE_LOS, CODE_OWNER, EMPTY, LEGAL, NCODES, NEUTRAL, OWNER_MUL, RED, WHITE,
                    Engine, TumbleweedState)

LEVELS = ("easy", "medium", "hard")
PASS = -1
WIN = 1_000_000
#: A bot passes when passing is worth at least its best move minus this (hundredths of a point).
PASS_MARGIN = 40
#: The easy bot passes when no placement gains this much at one ply (hundredths of a point).
EASY_PASS_BELOW = 20


# ------------------------------------------------------------------------------- evaluation
@dataclass(frozen=True)
class EvalParams:
    """Weights of the evaluation, in hundredths of a point."""

    stack: int = 100
    territory: int = 100
    strength: int = 6
    margin: int = 8
    tempo: int = 25


def eval_table(p: EvalParams = EvalParams()) -> tuple[int, ...]:
    """Value of each hex code from red's side (see the module docstring)."""

    def stack(h: int, mine: int, theirs: int) -> int:
        if theirs > h and theirs >= mine:
            return -p.stack
        strength = max(mine - 1, h) - theirs
        return p.stack + p.strength * max(-3, min(3, strength))

    def empty(a: int, b: int) -> int:
        if a > b:
            return p.territory + p.margin * min(a - b - 1, 2)
        if b > a:
            return -p.territory - p.margin * min(b - a - 1, 2)
        return 0

    out = []
    for c in range(NCODES):
        o, h, lr, lw = CODE_OWNER[c], CODE_HEIGHT[c], CODE_LOS[RED][c], CODE_LOS[WHITE][c]
        if o == RED:
            out.append(stack(h, lr, lw))
        elif o == WHITE:
            out.append(-stack(h, lw, lr))
        elif o == NEUTRAL:
            out.append(0)
        else:
            out.append(empty(lr, lw))
    return tuple(out)


def _sensible(p: int, c: int) -> bool:
    """Whether a placement of ``p`` on a hex of code ``c`` is worth searching: legal, not suicidal, a
    reinforcement only of a threatened stack, and not a fill of an own safe hex (opponent blind, two or
    more of ours see it)."""
    if not LEGAL[p][c]:
        return False
    mine, theirs = CODE_LOS[p][c], CODE_LOS[3 - p][c]
    if theirs > mine:
        return False
    o = CODE_OWNER[c]
    if o == p:
        return theirs > CODE_HEIGHT[c]
    if o == EMPTY and theirs == 0 and mine >= 2:
        return False
    return True


def _loud(p: int, c: int) -> bool:
    """Quiescence moves: non-suicidal captures of enemy stacks and non-suicidal reinforcements of
    threatened own stacks."""
    if not LEGAL[p][c]:
        return False
    mine, theirs = CODE_LOS[p][c], CODE_LOS[3 - p][c]
    if theirs > mine:
        return False
    o = CODE_OWNER[c]
    if o == 3 - p:
        return True
    return o == p and theirs > CODE_HEIGHT[c]


SENSIBLE = (None,) + tuple(tuple(_sensible(p, c) for c in range(NCODES)) for p in (RED, WHITE))
LOUD = (None,) + tuple(tuple(_loud(p, c) for c in range(NCODES)) for p in (RED, WHITE))
DEFAULT_TABLE = eval_table()


def final_diff(e: Engine, strict: bool) -> int:
    """Exact final score of the side to move minus the opponent's (stacks [+ territory])."""
    rs, rt, ws, wt = e.score()
    d = (rs - ws) if strict else (rs + rt - ws - wt)
    return d if e.to_move == RED else -d


# ------------------------------------------------------------------------------------ search
class Aborted(Exception):
    """The search ran out of time or nodes, or was cancelled."""


@dataclass(frozen=True)
class LevelParams:
    """How a level searches: ``depth`` (max, iterative deepening for hard), ``width`` (moves searched
    at inner nodes), ``qdepth`` (quiescence plies), ``pvs`` (principal-variation search and a
    transposition table), ``noise`` (easy's Gaussian noise on move values, hundredths of a point),
    ``setup_samples`` (starting pairs tried as host), ``node_budget`` (default cap per decision)."""

    depth: int
    width: int
    qdepth: int
    pvs: bool
    noise: float = 0.0
    setup_samples: int = 60
    node_budget: int | None = None


LEVEL_PARAMS = {
    "easy": LevelParams(depth=1, width=0, qdepth=0, pvs=False, noise=70.0, setup_samples=0),
    "medium": LevelParams(depth=2, width=12, qdepth=2, pvs=False, setup_samples=24, node_budget=60_000),
    # hard thinks for a time that depends on the board side (think_seconds)
    "hard": LevelParams(depth=12, width=10, qdepth=4, pvs=True, setup_samples=40),
}


class Search:
    """Alpha-beta (negamax) over an :class:`Engine` whose ``table`` is the evaluation table."""

    def __init__(self, engine: Engine, params: LevelParams, strict: bool = False,
                 deadline: float | None = None, node_budget: int | None = None,
                 cancel: Callable[[], bool] | None = None, tempo: int = EvalParams().tempo):
        self.e = engine
        self.p = params
        self.strict = strict
        self.deadline = deadline
        self.node_budget = node_budget
        self.cancel = cancel
        self.tempo = tempo
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}

    # ---------------------------------------------------------------- helpers
    def _tick(self) -> None:
        self.nodes += 1
        if self.node_budget is not None and self.nodes >= self.node_budget:
            raise Aborted
        if self.nodes & 63 == 0:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise Aborted
            if self.cancel is not None and self.cancel():
                raise Aborted

    def static(self) -> int:
        e = self.e
        return (e.val if e.to_move == RED else -e.val) + self.tempo

    def ordered(self, table, limit: int | None = None) -> list[int]:
        """Hexes allowed by ``table`` (SENSIBLE or LOUD) for the side to move, best one-ply value
        first (ties by index), at most ``limit``."""
        e = self.e
        ok = table[e.to_move]
        cells = [i for i, c in enumerate(e.code) if ok[c]]
        if not cells:
            return cells
        gain = e.gain
        if e.to_move == RED:
            scored = [(-gain(i), i) for i in cells]
        else:
            scored = [(gain(i), i) for i in cells]
        scored.sort()
        out = [i for _, i in scored]
        return out[:limit] if limit else out

    def terminal(self) -> int:
        d = final_diff(self.e, self.strict)
        return WIN + d if d > 0 else -WIN + d if d < 0 else 0

    # ---------------------------------------------------------------- search
    def qsearch(self, alpha: int, beta: int, qd: int) -> int:
        self._tick()
        stand = self.static()
        if stand >= beta or qd <= 0:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        e = self.e
        for i in self.ordered(LOUD, 6):
            e.play(i)
            v = -self.qsearch(-beta, -alpha, qd - 1)
            e.undo()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def negamax(self, depth: int, alpha: int, beta: int) -> int:
        e = self.e
        if e.passes >= 2:
            self._tick()
            return self.terminal()
        if depth <= 0:
            return self.qsearch(alpha, beta, self.p.qdepth)
        self._tick()
        key = 0
        tt_move = None
        alpha0 = alpha
        if self.p.pvs:
            key = e.key()
            hit = self.tt.get(key)
            if hit is not None:
                d, flag, val, mv = hit
                tt_move = mv
                if d >= depth:
                    if flag == 0:
                        return val
                    if flag > 0 and val >= beta:
                        return val
                    if flag < 0 and val <= alpha:
                        return val
        moves = self.ordered(SENSIBLE, self.p.width)
        moves.append(PASS)
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        best = -WIN * 4
        best_move = moves[0]
        first = True
        for m in moves:
            if m == PASS:
                e.pass_turn()
            else:
                e.play(m)
            if self.p.pvs and not first:
                v = -self.negamax(depth - 1, -alpha - 1, -alpha)
                if alpha < v < beta:
                    v = -self.negamax(depth - 1, -beta, -alpha)
            else:
                v = -self.negamax(depth - 1, -beta, -alpha)
            e.undo()
            first = False
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if self.p.pvs:
            flag = 1 if best >= beta else -1 if best <= alpha0 else 0
            if len(self.tt) > 400_000:
                self.tt.clear()
            self.tt[key] = (depth, flag, best, best_move)
        return best

    def child_value(self, m: int, depth: int, threshold: int) -> int:
        """Whether root move ``m`` is worth at least ``threshold``: a null-window search to ``depth``
        (the value returned is >= threshold exactly when it is)."""
        e = self.e
        if m == PASS:
            e.pass_turn()
        else:
            e.play(m)
        try:
            return -self.negamax(depth - 1, -threshold, -threshold + 1)
        finally:
            e.undo()

    def root(self, moves: list[int], depth: int) -> tuple[int, int, list[tuple[int, int]]]:
        """Search every root move to ``depth``; returns (best move, its value, [(value, move)] in
        search order). Raises :class:`Aborted` (values of a partial iteration are not returned)."""
        e = self.e
        alpha = -WIN * 4
        beta = WIN * 4
        results = []
        best_v, best_m = -WIN * 4, moves[0]
        for k, m in enumerate(moves):
            if m == PASS:
                e.pass_turn()
            else:
                e.play(m)
            try:
                if self.p.pvs and k > 0:
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha)
                    if v > alpha:
                        v = -self.negamax(depth - 1, -beta, -alpha)
                else:
                    v = -self.negamax(depth - 1, -beta, -alpha)
            finally:
                e.undo()
            results.append((v, m))
            if v > best_v:
                best_v, best_m = v, m
                self.partial = (best_m, best_v)
            if v > alpha:
                alpha = v
        return best_m, best_v, results


# ------------------------------------------------------------------------------------- agent
#: The hard bot's default thinking time per move by board side (s): issue target 2 s mean on side 8,
#: 5 s on side 11 (the search stops early when the next depth would not finish).
HARD_SECONDS = {4: 0.6, 5: 0.8, 6: 1.0, 7: 1.2, 8: 1.5, 9: 2.0, 10: 2.5, 11: 3.0}


def think_seconds(level: str, size: int) -> float | None:
    """Default time budget (s) per move of ``level`` on side ``size`` (None: bounded by nodes only)."""
    if level != "hard":
        return None
    return HARD_SECONDS.get(size, 3.0)


class TumbleweedAgent:
    """A Tumbleweed bot of ``level`` ("easy", "medium", "hard").

    ``time_budget`` (s) and ``node_budget`` override the level's defaults; with a node budget the
    clock is never read (deterministic for a given ``seed``). ``cancel`` is polled during a search.
    ``strict`` is read from the state. After each decision ``last`` holds ``{"depth", "nodes",
    "value", "seconds"}``. ``ValueError`` if asked to act when the seat may not.
    """

    def __init__(self, level: str = "medium", seed: int = 0, time_budget: float | None = None,
                 node_budget: int | None = None, cancel: Callable[[], bool] | None = None,
                 params: EvalParams | None = None):
        if level not in LEVEL_PARAMS:
            raise KeyError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
        self.level = level
        self.name = f"bot:{level}"
        self.rng = random.Random(f"tumbleweed/{level}/{seed}")
        lp = LEVEL_PARAMS[level]
        if node_budget is not None:
            time_budget = None
        elif time_budget is None:
            node_budget = lp.node_budget
        #: seconds per move (None: the level's default for the board side, see :func:`think_seconds`)
        self.time_budget = time_budget
        self.node_budget = node_budget
        self.cancel = cancel
        self.lp = lp
        self.eval_params = params or EvalParams()
        self.table = DEFAULT_TABLE if params is None else eval_table(params)
        self.last: dict[str, Any] = {}

    # ---------------------------------------------------------------- protocol
    def select_action(self, rules: Any, state: TumbleweedState, player: int) -> Action:
        if player not in rules.active_players(state):
            raise ValueError(f"seat {player} may not act now")
        if state.phase == "neutral":
            c = state.geo.cells[state.geo.centre]
            return {"t": "neutral", "q": c[0], "r": c[1]}
        if state.phase == "setup":
            return self.choose_setup(state)
        if state.phase == "choose":
            return {"t": "choose", "colour": self.choose_colour(state)}
        m = self.choose_move(state)
        if m == PASS:
            return {"t": "pass"}
        q, r = state.geo.cells[m]
        return {"t": "place", "q": q, "r": r}

    # ---------------------------------------------------------------- play
    def _budget(self, size: int):
        """(deadline or None, node budget or None) for one decision on side ``size``."""
        if self.node_budget is not None:
            return None, self.node_budget
        seconds = self.time_budget if self.time_budget is not None else think_seconds(self.level, size)
        if seconds is None:
            return None, None
        return time.perf_counter() + seconds, None

    def choose_move(self, state: TumbleweedState) -> int:
        """Hex index to place on, or :data:`PASS`."""
        timed = self.node_budget is None
        t0 = time.perf_counter() if timed else 0.0
        e = state.engine(self.table)
        if self.level == "easy":
            m = self._greedy(e, state.strict)
            self.last = {"depth": 1, "nodes": 0, "value": None}
        else:
            m = self._search(e, state.strict)
        if timed:
            self.last["seconds"] = time.perf_counter() - t0
        return m

    def _greedy(self, e: Engine, strict: bool) -> int:
        """Easy: the non-suicidal placement with the best one-ply value plus Gaussian noise; pass when
        no placement is worth :data:`EASY_PASS_BELOW`, or to end a game it leads after a pass."""
        p = e.to_move
        if e.passes and final_diff(e, strict) > 0:
            return PASS  # the opponent passed: passing ends the game, which easy leads
        sign = 1 if p == RED else -1
        scored = [(e.gain(i) * sign, i) for i in e.legal() if not e.is_suicidal(i)]
        if not scored:
            return PASS
        if max(v for v, _ in scored) < EASY_PASS_BELOW and not e.passes:
            return PASS
        noise = self.lp.noise
        best, best_v = PASS, -1e18
        for v, i in scored:
            v += self.rng.gauss(0.0, noise)
            if v > best_v:
                best, best_v = i, v
        return best

    def _search(self, e: Engine, strict: bool) -> int:
        deadline, nodes = self._budget(e.size)
        s = Search(e, self.lp, strict, deadline, nodes, self.cancel, self.eval_params.tempo)
        moves = s.ordered(SENSIBLE)
        moves.append(PASS)
        if len(moves) == 1:
            self.last = {"depth": 0, "nodes": 0, "value": None}
            return PASS
        best_m, best_v, depth = moves[0], None, 0
        start = time.perf_counter() if deadline is not None else 0.0
        base = len(e.history)
        for d in range(1, self.lp.depth + 1):
            s.partial = None
            try:
                m, v, results = s.root(moves, d)
            except Aborted:
                while len(e.history) > base:  # an abort leaves the moves of the search line played
                    e.undo()
                # moves[0] is the previous best: once it is searched at this depth, the best move
                # searched so far is at least as good at this depth
                if s.partial is not None:
                    best_m, best_v = s.partial
                # a small extra allowance for the pass check below
                if s.node_budget is not None:
                    s.node_budget = s.nodes + max(1, s.node_budget // 10)
                if s.deadline is not None:
                    s.deadline = time.perf_counter() + 0.1 * (self.time_budget or think_seconds(self.level, e.size) or 1.0)
                break
            best_m, best_v, depth = m, v, d
            # next iteration: best first, then by this iteration's values (bounds for the others)
            order = sorted(results, key=lambda t: -t[0])
            moves = [best_m] + [mv for _, mv in order if mv != best_m]
            if abs(v) >= WIN // 2:
                break
            if deadline is not None:
                spent = time.perf_counter() - start
                left = deadline - time.perf_counter()
                if left < spent * 2.5:
                    break
        cancelled = self.cancel is not None and self.cancel()
        if best_m != PASS and best_v is not None and depth >= 1 and abs(best_v) < WIN // 2 and not cancelled:
            # sensible passing: pass when passing is worth nearly as much as the best move
            threshold = best_v - PASS_MARGIN
            try:
                if s.child_value(PASS, depth, threshold) >= threshold:
                    best_m = PASS
            except Aborted:
                while len(e.history) > base:
                    e.undo()
        self.last = {"depth": depth, "nodes": s.nodes, "value": best_v}
        return best_m

    # ---------------------------------------------------------------- setup
    def _value_for_red(self, e: Engine, strict: bool) -> float:
        """Value of a set-up position for red with red to move: the mean of two searches one ply
        apart (an odd depth favours the side that moves last, an even one the side that replies)."""
        depths = (1, 2) if self.level == "easy" else (2, 3)
        lp = LevelParams(depth=depths[1], width=10, qdepth=2, pvs=True)
        e.to_move = RED
        e.passes = 0
        total = 0
        for d in depths:
            s = Search(e, lp, strict, None, None, None, self.eval_params.tempo)
            total += s.negamax(d, -WIN * 4, WIN * 4)
        return total / len(depths)

    def choose_setup(self, state: TumbleweedState) -> Action:
        """The host's starting pair: the sampled pair whose value for red is closest to even."""
        geo = state.geo
        free = [i for i, c in enumerate(state.code) if c < OWNER_MUL]
        k = self.lp.setup_samples
        if k <= 0:
            a, b = self.rng.sample(free, 2)
        else:
            e = state.engine(self.table)
            scored = []
            for _ in range(k):
                a, b = self.rng.sample(free, 2)
                e.put(a, RED, 1)
                e.put(b, WHITE, 1)
                v = self._value_for_red(e, state.strict)
                e.undo()
                e.undo()
                scored.append((abs(v), a, b))
            scored.sort()
            near_best = [t for t in scored if t[0] <= scored[0][0] + 30][:3]
            _, a, b = self.rng.choice(near_best)
        return {"t": "setup", "red": list(geo.cells[a]), "white": list(geo.cells[b])}

    def choose_colour(self, state: TumbleweedState) -> str:
        """The guest's colour: red when red (to move) is better off by a short search, else white."""
        v = self._value_for_red(state.engine(self.table), state.strict)
        return "red" if v > 0 else "white"


def make_agent(level: str, seed: int = 0, **kw: Any) -> TumbleweedAgent:
    """A bot by level name ("easy", "medium", "hard", also "bot:hard"); ``KeyError`` if unknown."""
    if level.startswith("bot:"):
        level = level[4:]
    return TumbleweedAgent(level, seed, **kw)
