"""Tom Tube: two astronauts build tubes on a hexagonal board of space triangles and drift through them
to their solar modules and home (specs/tomtube.md; the model of research/tomtube.md §3 and §5).

``data``, ``geometry``, ``board``, ``moves`` and ``rules`` hold the engine, ``ai`` the bots, ``selfplay``
and ``bench`` the headless tools, ``draw`` and ``view`` the screen and its set-up dialog; ``rules.md`` is
the in-app rules text.

``SPEC`` registers the game: two seats, seat 0 Tom (orange, top base) and seat 1 Dave (red, bottom
base), each "human" or a bot: "bot:easy" (the route-planning bot; "bot:bot", its old name, and a
plain ``bot`` on the command line name it too), "bot:medium" and "bot:hard" (searching over the rhomb
draws and racing for the solar counters; hard looks wider) or "bot:random" (uniformly random legal actions). The game's flags for ``playtable play`` / ``selfplay``
are ``--beginner-energy [tom:|dave:]N`` (extra launch energy counters for either seat, rulebook "Playing
with Beginners"; in selfplay they follow the player listed as the seats rotate), ``--no-aliens`` (no
control and alien counters) and ``--first tom|dave|random``. Importing this package never imports
pygame: the screen is built lazily.
"""
from __future__ import annotations

from pathlib import Path

from sim.core.registry import GameSpec, lazy

from .options import OPTIONS
from .rules import TomTubeRules

_HERE = Path(__file__).resolve().parent

#: Bot levels, weakest first; "bot" is the old name of "easy", kept so that older records still load.
LEVELS = ("easy", "medium", "hard", "random", "bot")


def _rules() -> TomTubeRules:
    return TomTubeRules()


def _bot(seat: int, level: str, seed: int = 0):
    """An Agent for ``seat`` at ``level`` (one of ``LEVELS``), seeded from ``seed`` and the seat;
    ``KeyError`` if unknown."""
    from .ai import make_agent
    return make_agent(level, seed * 2 + seat)


def _agent(level: str):
    def make(seed: int = 0):
        from .ai import make_agent
        return make_agent(level, seed)
    return make


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
    default_agent="easy",
    players="2",
    make_bot=_bot,
    default_players=("human", "bot:medium"),
    make_setup=lazy("games.tomtube.view:make_setup_scene"),
    levels=LEVELS,
    options=OPTIONS,
    players_key=None,
    selfplay=lazy("games.tomtube.selfplay:TomTubeSelfplay"),
    seat_keys=("extra_energy",),
    bench=_bench,
    lan=True,
    lan_log=True,
)
