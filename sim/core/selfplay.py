"""The selfplay driver of every game: bots play whole games headless (``playtable selfplay GAME``).

``run(spec, seats, games, seed, config_for, json_lines, out, check, baseline)`` plays ``games`` games,
game ``g`` from seed ``seed + g`` with the seats rotated by ``g`` places (so every bot sits in every seat
in turn; the config entries of ``spec.seat_keys``, one value per seat, rotate with them). Seats are
``"bot:LEVEL"``; a bot comes from ``spec.make_bot(seat, level, seed)`` or else ``spec.agents[LEVEL](seed)``
with the game's seed (a game's ``make_bot`` gives each seat a stream of its own).
Chance is resolved by the ``Match``.

A game supplies only what is its own: ``spec.selfplay(match, seats, emit)`` returns its
:class:`SelfplayGame` (a subclass; None: this class) for each game, which may drive an actor that is no
seat (``actor``: physics), or the whole game (``play``: a race in simulated time), watch every action
(``watch``), write lines of its own (``emit``: one per turn or round), and give its game line's extra
``fields``, its ``figures`` (summed up by the summary) and a readable ``text``.

Lines (``json_lines``: one JSON object each, else readable text):

* the game's own: ``{"type": KIND, "game", "index", "seed", ...}``;
* one per game: ``{"type": "game", "game", "index", "seed", "seats", "outcome", "winner", "plies",
  "figures", ...fields, "record"}`` (``record``: the whole match record, which ``playtable replay``
  reads; ``winner``: the winning seat of this game, None for a draw);
* a summary: ``{"type": "summary", "summary": true, "game", "games", "first_seed", "seats", "wins"
  (per seat kind: wins, seat games, rate and its 95 % Wilson interval), "draws", "mean_plies", "think"
  (per seat kind: seconds per decision, mean and max, and decisions; with a ``clock``), "mean" (each number figure
  over the games), "by_seat" (each per-seat figure, per seat kind over its seat games), "counts" (how
  often each text figure took each value), "games_per_second" (with a ``clock``)}``. A one-seat game has no wins nor
  draws: its figures are its score summary; with ``baseline`` (a seat) the same seeds are played again
  by that bot and summed up under ``"baseline"``.
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from .match import Match
from .record import to_record

#: A game that has not ended after this many actions is a bug, not a long game.
MAX_ACTIONS = 100_000

#: ``emit(kind, fields, text)``: a line of the game's own (``text``: its readable form, None for none)
Emit = Callable[[str, dict, "str | None"], None]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate ``wins / n`` (``(0.0, 1.0)`` for ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def winner_of(outcome: dict[str, Any]) -> int | None:
    """The single winning seat of an outcome (``winner``, or a one-seat ``winners``, or the first of
    ``ranking`` when ``scores`` do not tie it), None for a draw or no single winner."""
    if "winner" in outcome:
        w = outcome["winner"]
        return w if isinstance(w, int) and not isinstance(w, bool) and w >= 0 else None
    if isinstance(outcome.get("winners"), list):
        return outcome["winners"][0] if len(outcome["winners"]) == 1 else None
    rank, scores = outcome.get("ranking"), outcome.get("scores")
    if isinstance(rank, list) and rank:
        if isinstance(scores, list) and len(rank) > 1 and scores[rank[0]] == scores[rank[1]]:
            return None
        return rank[0]
    return None


def bot_level(seat: str) -> str:
    """``"bot:hard"`` -> ``"hard"``; ``ValueError`` for a human or anything that is not a bot."""
    if not isinstance(seat, str) or not seat.startswith("bot:") or len(seat) <= 4:
        raise ValueError(f"selfplay seats must all be bots (bot:LEVEL), not {seat!r}")
    return seat[4:]


def make_agent(spec: Any, seat: int, level: str, seed: int) -> Any:
    """A bot for ``seat`` at ``level``; ``ValueError`` naming the levels for an unknown one."""
    try:
        if spec.make_bot is not None:
            return spec.make_bot(seat, level, seed)
        return spec.agents[level](seed)
    except KeyError:
        known = spec.levels or spec.bot_levels or tuple(spec.agents)
        raise ValueError(f"unknown bot level {level!r} for {spec.name} (known: {', '.join(known)})") from None


def plies(match: Match) -> int:
    """Actions of the players (chance, physics and timers left out)."""
    return sum(1 for e in match.log[: match.cursor] if e["p"] >= 0)


def check_invariants(match: Match) -> None:
    """Raise ``AssertionError`` naming the seed and the action if the rules' invariants break."""
    bad = match.rules.invariants(match.state)
    if bad:
        raise AssertionError(f"seed {match.seed}, action {len(match.log)}: {bad}")


class SelfplayGame:
    """One selfplay game of ``match`` with ``seats``; a game overrides what is its own.

    ``think`` lists ``(log index, seconds)`` of every bot decision of the turn loop, timed by ``clock``
    (a function giving seconds; None: no times); ``emit`` writes a line of the game's own (see
    :data:`Emit`)."""

    clock: Callable[[], float] | None = None

    def __init__(self, match: Match, seats: list[str], emit: Emit):
        self.match = match
        self.seats = list(seats)
        self.emit = emit
        self.think: list[tuple[int, float]] = []

    def play(self, bots: list[Any]) -> None:
        """Play the match to its end: the player to act is a seat's bot (timed), or :meth:`actor`.
        Raises ``RuntimeError`` for a game that does not end."""
        m = self.match
        for _ in range(MAX_ACTIONS):
            if m.is_over():
                return
            p = m.active_players()[0]
            if 0 <= p < len(bots):
                t0 = self.clock() if self.clock else 0.0
                action = bots[p].select_action(m.rules, m.state, p)
                if self.clock:
                    self.think.append((m.cursor, self.clock() - t0))
            else:
                action = self.actor(p, bots)
            m.submit(p, action)
        raise RuntimeError(f"{m.rules.info.name} seed {m.seed}: the game did not end after {MAX_ACTIONS} actions")

    def actor(self, player: int, bots: list[Any]) -> Any:
        """The action of ``player``, who is no seat (e.g. physics); by default none can act."""
        raise RuntimeError(f"{self.match.rules.info.name}: player {player} has no bot")

    def watch(self, match: Match, events: list[dict]) -> None:
        """After every action (a ``Match`` listener)."""

    def fields(self) -> dict[str, Any]:
        """Extra fields of the game line."""
        return {}

    def figures(self) -> dict[str, Any]:
        """The game's figures for the summary: a number (its mean over the games), a list of one number
        per seat (its mean per seat kind) or a text (how often each value came)."""
        return {}

    def text(self) -> str:
        """The readable tail of the game line."""
        return ""


def play(spec: Any, seats: list[str], seed: int, config: dict[str, Any] | None = None,
         check: Callable[[Match], None] | None = None, emit: Emit | None = None,
         bots: list[Any] | None = None, clock: Callable[[], float] | None = None) -> SelfplayGame:
    """One whole game with ``seats`` (seat i is ``seats[i]``; ``bots``: their bots, default from the
    levels) from ``seed``; ``check(match)`` runs after every action; ``clock`` times the bots'
    decisions (see :class:`SelfplayGame`). Returns the finished game. Raises
    ``ValueError`` for a human seat, an unknown level or a config the rules refuse."""
    levels = [bot_level(s) for s in seats]
    match = Match(spec.make_rules(), config, seed, seats=list(seats))
    game = (spec.selfplay or SelfplayGame)(match, seats, emit or (lambda kind, fields, text=None: None))
    game.clock = clock
    if check is not None:
        match.listeners.append(lambda m, events: check(m))
    match.listeners.append(game.watch)
    if bots is None:
        bots = [make_agent(spec, i, lv, seed) for i, lv in enumerate(levels)]
    game.play(bots)
    return game


def play_game(spec: Any, seats: list[str], seed: int, config: dict[str, Any] | None = None,
              check: Callable[[Match], None] | None = None) -> Match:
    """The finished Match of :func:`play`."""
    return play(spec, seats, seed, config, check).match


def _mean(total: float, n: int) -> float:
    return round(total / n, 4) if n else 0.0


class Tally:
    """The summary of games played with ``seats`` (see the module doc)."""

    def __init__(self, seats: list[str]):
        self.seats = list(seats)
        self.kinds = list(dict.fromkeys(seats))
        self.games = self.draws = self.plies = 0
        self.wins = {k: 0 for k in self.kinds}
        self.played = {k: 0 for k in self.kinds}
        self.think: dict[str, list[float]] = {}
        self.sums: dict[str, float] = {}
        self.by_seat: dict[str, dict[str, list[float]]] = {}
        self.counts: dict[str, dict[str, int]] = {}

    def add(self, game: SelfplayGame, winner: int | None, figures: dict[str, Any]) -> None:
        m, sat = game.match, game.seats
        self.games += 1
        self.plies += plies(m)
        for k in sat:
            self.played[k] += 1
        if winner is None:
            self.draws += 1
        else:
            self.wins[sat[winner]] += 1
        for i, sec in game.think:
            self.think.setdefault(sat[m.log[i]["p"]], []).append(sec)
        for key, v in figures.items():
            if isinstance(v, str):
                c = self.counts.setdefault(key, {})
                c[v] = c.get(v, 0) + 1
            elif isinstance(v, (list, tuple)):
                row = self.by_seat.setdefault(key, {})
                for kind, x in zip(sat, v):
                    row.setdefault(kind, []).append(float(x))
            else:
                self.sums[key] = self.sums.get(key, 0.0) + float(v)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if len(self.seats) > 1:
            table = {}
            for k in self.kinds:
                lo, hi = wilson(self.wins[k], self.played[k])
                table[k] = {"wins": self.wins[k], "seat_games": self.played[k],
                            "rate": _mean(self.wins[k], self.played[k]), "ci95": [round(lo, 4), round(hi, 4)]}
            out.update(wins=table, draws=self.draws, mean_plies=round(self.plies / max(1, self.games), 2))
        if self.think:
            out["think"] = {k: {"mean": _mean(sum(xs), len(xs)), "max": round(max(xs), 4), "decisions": len(xs)}
                            for k, xs in self.think.items()}
        out["mean"] = {k: _mean(v, self.games) for k, v in self.sums.items()}
        if self.by_seat:
            out["by_seat"] = {key: {k: _mean(sum(xs), len(xs)) for k, xs in row.items()}
                              for key, row in self.by_seat.items()}
        if self.counts:
            out["counts"] = {key: dict(sorted(c.items())) for key, c in self.counts.items()}
        return out


def _figures_text(s: dict[str, Any]) -> str:
    """The figures of a summary (``mean``, ``by_seat``, ``counts``) as text."""
    parts = []
    if s.get("mean"):
        parts.append("mean " + ", ".join(f"{k} {v:.4g}" for k, v in s["mean"].items()))
    for key, row in s.get("by_seat", {}).items():
        parts.append(f"{key} per seat " + ", ".join(f"{k} {v:.4g}" for k, v in row.items()))
    for key, c in s.get("counts", {}).items():
        parts.append(f"{key} " + ", ".join(f"{v}: {n}" for v, n in c.items()))
    return "; ".join(parts)


def summary_text(s: dict[str, Any]) -> str:
    """The readable summary line of :func:`run`'s summary ``s``."""
    head = f"{s['games']} games of {s['game']}"
    parts = []
    if "wins" in s:
        parts.append("; ".join(f"{k} {v['wins']}/{v['seat_games']} wins ({v['rate']:.0%}, 95% {v['ci95'][0]:.0%}-"
                               f"{v['ci95'][1]:.0%})" for k, v in s["wins"].items()))
        parts.append(f"{s['draws']} draws; mean {s['mean_plies']} plies")
    else:
        head += f" by {', '.join(s['seats'])}"
    if s.get("think"):
        parts.append("think " + ", ".join(f"{k} {v['mean']:.2f} s mean / {v['max']:.2f} s max"
                                                for k, v in s["think"].items()))
    if _figures_text(s):
        parts.append(_figures_text(s))
    if "baseline" in s:
        parts.append(f"baseline {', '.join(s['baseline']['seats'])}: {_figures_text(s['baseline'])}")
    if "games_per_second" in s:
        parts.append(f"{s['games_per_second']} games/s")
    return f"{head}: {'; '.join(parts)}"


def _writer(out: Any) -> Callable[[str], None]:
    if callable(out) and not hasattr(out, "write"):
        return out

    def write(line: str) -> None:
        out.write(line + "\n")
        if hasattr(out, "flush"):
            out.flush()
    return write


def _rotated(config: dict[str, Any] | None, keys: tuple[str, ...], r: int) -> dict[str, Any] | None:
    """``config`` with the per-seat lists of ``keys`` rotated by ``r`` places, like the seats."""
    if not config or not r:
        return config
    out = dict(config)
    for k in keys:
        if isinstance(out.get(k), list):
            out[k] = out[k][r:] + out[k][:r]
    return out


def run(spec: Any, seats: list[str], games: int, seed: int,
        config_for: Callable[[list[str]], dict[str, Any] | None] | None = None, json_lines: bool = False,
        out: Any = print, check: Callable[[Match], None] | None = None,
        baseline: str | None = None, clock: Callable[[], float] | None = None) -> dict[str, Any]:
    """Play the games (see the module doc) and return the summary dict. ``config_for(seats)`` gives the
    config of a game with those seats, without them (default ``{}``); ``out`` is a function taking a
    line or has ``write``; ``clock`` (seconds, e.g. ``time.process_time``; None: no times) times the
    bots' decisions and the games. Raises ``ValueError`` for bad seats or a config the rules refuse."""
    seats = list(seats)
    for s in seats + ([baseline] if baseline else []):
        bot_level(s)
    if games < 1:
        raise ValueError("selfplay needs at least one game")
    config_for = config_for or (lambda ss: {})
    write = _writer(out)
    tally = Tally(seats)
    t0 = clock() if clock else 0.0
    for g in range(games):
        r = g % len(seats)
        sat = seats[r:] + seats[:r]
        gseed = seed + g

        def emit(kind: str, fields: dict, text: str | None = None, g: int = g, gseed: int = gseed) -> None:
            if json_lines:
                write(json.dumps({"type": kind, "game": spec.name, "index": g, "seed": gseed, **fields},
                                 separators=(",", ":")))
            elif text is not None:
                write(f"game {g + 1}/{games} seed {gseed} {text}")
        game = play(spec, sat, gseed, _rotated(config_for(sat), spec.seat_keys, r), check, emit, clock=clock)
        res = game.match.outcome()
        w = winner_of(res) if len(sat) > 1 else None
        figures = game.figures()
        tally.add(game, w, figures)
        if json_lines:
            emit("game", {"seats": sat, "outcome": res, "winner": w, "plies": plies(game.match), "figures": figures,
                          **game.fields(), "record": to_record(game.match)})
        else:
            tail = game.text()
            if len(sat) > 1:
                who = "draw" if w is None else f"seat {w} ({sat[w]}) wins"
                tail = f"{who}, {plies(game.match)} plies" + (f"; {tail}" if tail else "")
            write(f"game {g + 1}/{games} seed {gseed}: {', '.join(sat)}: {tail or json.dumps(res)}")
    elapsed = clock() - t0 if clock else 0.0
    summary = {"type": "summary", "summary": True, "game": spec.name, "games": games, "first_seed": seed,
               "seats": seats, **tally.summary(),
               **({"games_per_second": round(games / elapsed, 3)} if elapsed > 0 else {})}
    if baseline:
        base = Tally([baseline])
        for g in range(games):
            game = play(spec, [baseline], seed + g, config_for([baseline]), check)
            base.add(game, None, game.figures())
        summary["baseline"] = {"seats": [baseline], **base.summary()}
    write(json.dumps(summary, separators=(",", ":")) if json_lines else summary_text(summary))
    return summary
