"""Tom Tube: two astronauts build tubes on a hexagonal board of space triangles and drift through them
to their solar modules and home (specs/tomtube.md; the model of research/tomtube.md §3 and §5).

``data``, ``geometry``, ``board``, ``moves`` and ``rules`` hold the engine, ``ai`` the bots, ``selfplay``
and ``bench`` the headless tools, ``draw`` and ``view`` the screen and its set-up dialog; ``rules.md`` is
the in-app rules text.

``SPEC`` registers the game: two seats, seat 0 Tom (orange, top base) and seat 1 Dave (red, bottom
base), each "human", "bot:bot" (the route-planning bot; a plain ``bot`` on the command line) or
"bot:random" (uniformly random legal actions). The game's flags for ``playtable play`` / ``selfplay``
are ``--beginner-energy N`` (extra launch energy counters for the first seat, rulebook "Playing with
Beginners") and ``--no-aliens`` (no control and alien counters). Importing this package never imports
pygame: the screen is built lazily.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.core.registry import GameSpec, lazy
from sim.core.seats import parse as parse_seat

from .options import OPTIONS

from .rules import TomTubeRules

_HERE = Path(__file__).resolve().parent

LEVELS = ("bot", "random")
#: Who may sit in a seat.
SEAT_KINDS = ("human",) + tuple(f"bot:{lv}" for lv in LEVELS)
DEFAULT_SEATS = ("human", "bot:bot")


def check_seats(seats: Any) -> list[str]:
    """The two seats as a list, a plain ``"bot"`` read as ``"bot:bot"``; ValueError with a reason for
    anything else."""
    if not isinstance(seats, (list, tuple)) or len(seats) != 2:
        raise ValueError("seats must list the two players (Tom, Dave)")
    out = ["bot:bot" if s == "bot" else s for s in seats]
    for s in out:
        if s not in SEAT_KINDS:
            raise ValueError(f"unknown player {s!r} (use {', '.join(SEAT_KINDS)})")
    return out


def _rules() -> TomTubeRules:
    return TomTubeRules()


def _bot(seat: int, level: str, seed: int = 0):
    """An Agent for ``seat`` at ``level`` ("bot" or "random"); ``KeyError`` if unknown."""
    from .ai import make_agent
    return make_agent(level, seed)


def _agent(level: str):
    def make(seed: int = 0):
        from .ai import make_agent
        return make_agent(level, seed)
    return make


class _SeatedLines:
    """Passes ``selfplay.run``'s lines on to ``out``, adding the seats to each game's record config so
    ``playtable replay`` names the players as they sat."""

    def __init__(self, out: Any, seats: list[str]):
        self.out = out
        self.seats = seats

    def write(self, text: str) -> None:
        lines = []
        for line in text.splitlines():
            if line.startswith("{"):
                obj = json.loads(line)
                rec = obj.get("record")
                if isinstance(rec, dict):
                    rec["seats"] = [parse_seat(x).to_json() for x in self.seats]
                    line = json.dumps(obj, separators=(",", ":"))
            lines.append(line)
        self.out.write("".join(x + "\n" for x in lines))

    def flush(self) -> None:
        flush = getattr(self.out, "flush", None)
        if flush:
            flush()


def _selfplay(options: Any, seats: list[str], out: Any) -> int:
    """``playtable selfplay tomtube``: ``selfplay.run`` with the seats' levels as Tom and Dave,
    ``options.games`` games from ``options.seed``, the beginner flags; with ``options.json`` one JSON
    line per game (seed, players, result with the final score breakdown, the full record with the seats)
    and a summary line. Returns the exit status (0)."""
    from sim.core.options import from_flags

    from .selfplay import run

    levels = [s.split(":", 1)[1] for s in check_seats(seats)]
    sink = _SeatedLines(out, check_seats(seats)) if options.json else out
    cfg = TomTubeRules().validate_config(from_flags(OPTIONS, options))
    run(levels, int(options.games), int(options.seed), beginner_energy=cfg["extra_energy"][0],
        aliens=cfg["alien_control"], json_lines=bool(options.json), out=sink)
    return 0


def _bench(out) -> None:
    """``playtable bench``: move generation on a full board and the bot's think time (``bench.run``),
    then the screen's frame times (dummy video driver)."""
    from sim.app.framebench import report

    from .bench import run
    from .view import frame_times
    run(out)
    report(out, "tomtube screen: frame time at 1280x800 (dummy driver)", frame_times())


SPEC = GameSpec(
    name="tomtube",
    title="Tom Tube",
    summary="Two astronauts build tubes between the stars and drift home with their solar counters.",
    make_rules=_rules,
    make_scene=lazy("games.tomtube.view:TomTubeScene"),
    rules_text=_HERE / "rules.md",
    agents={lv: _agent(lv) for lv in LEVELS},
    default_agent="bot",
    players="2",
    make_bot=_bot,
    default_players=("human", "bot"),
    make_setup=lazy("games.tomtube.view:make_setup_scene"),
    levels=LEVELS,
    options=OPTIONS,
    players_key=None,
    selfplay=_selfplay,
    bench=_bench,
    lan=True,
    lan_log=True,
)
