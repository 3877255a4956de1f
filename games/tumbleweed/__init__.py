"""Tumbleweed (Mike Zapawa, 2020): stacks that see along hex lines (specs/tumbleweed.md).

``rules`` holds the engine (a fast mutable ``Engine`` for search and the immutable ``TumbleweedRules``
for ``Match``), ``notation`` the AbstractPlay-style cell names, move text and game records, ``ai`` the
bots, ``selfplay`` and ``bench`` the headless tools, ``view`` the screen and its set-up dialog;
``rules.md`` is the in-app rules text.

``SPEC`` registers the game: two seats (seat 0 the host, who sets up; seat 1 the guest, who chooses a
colour), each "human" or "bot:easy|medium|hard". Its game flags for ``playtable play`` / ``selfplay``
are ``--size 4..11`` (8), ``--setup original|free``, ``--strict`` (stacks-only scoring) and ``--aid
beginner|intermediate|expert`` (the player aid of the screen). Importing this package never imports
pygame: the screen is built lazily.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.registry import GameSpec

_HERE = Path(__file__).resolve().parent

#: Offered in the set-up dialog (spec "Rules": 6, 8, 10, 11; the engine takes 4..11).
SIZES = (6, 8, 10, 11)
SETUPS = ("original", "free")
AIDS = ("beginner", "intermediate", "expert")
LEVELS = ("easy", "medium", "hard")


def _rules():
    from .rules import TumbleweedRules
    return TumbleweedRules()


def _scene(app, match, **opts):
    from .view import TumbleweedScene
    return TumbleweedScene(app, match, **opts)


def _setup(app, spec):
    from .view import make_setup_scene
    return make_setup_scene(app, spec)


def _bot(seat: int, level: str, seed: int = 0):
    """An Agent for ``seat`` at ``level`` ("easy", "medium", "hard"); ``KeyError`` if unknown."""
    from .ai import make_agent
    return make_agent(level, seed)


def _agent(level: str):
    def make(seed: int = 0):
        from .ai import make_agent
        return make_agent(level, seed)
    return make


def cli_options(parser: Any) -> None:
    """Tumbleweed's flags for ``playtable play`` and ``selfplay`` (argparse ``parser``)."""
    parser.add_argument("--size", type=int, default=8,
                        help="board side: 6, 8 (standard), 10 or 11 (any 4..11 is accepted)")
    parser.add_argument("--setup", choices=SETUPS, default="original",
                        help="original: neutral stack in the centre; free: the host places it too")
    parser.add_argument("--strict", action="store_true",
                        help="score stacks only (play until the board fills)")
    parser.add_argument("--aid", choices=AIDS, default=None,
                        help="player aid of the screen (default beginner)")


def make_config(options: Any, seats: list[str]) -> dict[str, Any]:
    """The match config from the flags of :func:`cli_options` (missing ones take their defaults) and
    the two seats (host, guest). The rules validate it (``ValueError`` with a reason)."""
    cfg: dict[str, Any] = {"size": getattr(options, "size", 8), "setup": getattr(options, "setup", "original"),
                           "strict": bool(getattr(options, "strict", False)), "seats": list(seats)}
    aid = getattr(options, "aid", None)
    if aid is not None:
        cfg["aid"] = aid
    return cfg


def _selfplay(options: Any, seats: list[str], out: Any) -> int:
    """``playtable selfplay tumbleweed``: ``games.tumbleweed.selfplay.run`` with the seats as the two
    players (swapped every other game), ``options.games`` games from ``options.seed``, one JSON line per
    game with ``options.json``. Returns the exit status (0)."""
    from .selfplay import run

    cfg = make_config(options, seats)
    run(list(seats), int(options.games), int(options.seed), cfg["size"], bool(options.json), out,
        config={"setup": cfg["setup"], "strict": cfg["strict"]})
    return 0


def _bench(out) -> None:
    """``playtable bench``: playout speed and the hard bot's move times (``bench.run``), then the
    screen's frame times on a side-11 middle game (dummy video driver)."""
    import os
    import statistics

    from .bench import run
    run(out)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from .view import frame_times
    hover, moved = frame_times(11)
    hover.sort()
    out(f"tumbleweed screen: frame time at 1280x800 on side 11 (dummy driver): median "
        f"{statistics.median(hover):.2f} ms, p95 {hover[int(len(hover) * 0.95) - 1]:.2f} ms; "
        f"after a move {statistics.median(moved):.2f} ms median, {max(moved):.2f} ms max")


SPEC = GameSpec(
    name="tumbleweed",
    title="Tumbleweed",
    summary="Stack your tokens where your stacks can see: two players, a hexhex board, a strong bot.",
    make_rules=_rules,
    make_scene=_scene,
    rules_text=_HERE / "rules.md",
    agents={lv: _agent(lv) for lv in LEVELS},
    default_agent="medium",
    players="2",
    make_bot=_bot,
    default_players=("human", "bot:medium"),
    make_setup=_setup,
    levels=LEVELS,
    cli_options=cli_options,
    make_config=make_config,
    selfplay=_selfplay,
    bench=_bench,
    lan=True,
    lan_log=True,
)
