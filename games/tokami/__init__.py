"""Tokami: sticks piled on an X-shaped frame (specs/tokami.md).

``SPEC`` offers the game to the app: 2 to 5 seats (hot-seat humans and bots at three levels), the
flags ``--rounds N`` and ``--practice``, the set-up dialog (seats, rounds 1/3/5, practice off/on),
the screen (``view.TokamiScene``), selfplay and bench. Everything is imported lazily, so listing the
game never imports pygame or pymunk.
"""
from __future__ import annotations

from pathlib import Path

from sim.core.registry import GameSpec

_HERE = Path(__file__).resolve().parent

#: Rounds offered by the set-up dialog (the rules accept 1..20; ``--rounds`` may ask for any of them).
ROUND_CHOICES = (1, 3, 5)


def _rules():
    from .rules import TokamiRules
    return TokamiRules()


def _scene(app, match, **opts):
    from .view import TokamiScene
    return TokamiScene(app, match, **opts)


def _bot(seat, level, seed=0):
    from .ai import make_bot
    return make_bot(seat, level, seed)


def _cli_options(parser) -> None:
    """``--rounds N`` (rounds in the game, default 3), ``--setup cube|free`` (the starting pile) and
    ``--practice`` (practice undo)."""
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds in the game, 1 to 20 (default 3); scores add up over the rounds")
    parser.add_argument("--setup", choices=("cube", "free"), default=None,
                        help="starting pile: the crisscross cube (default) or sticks dropped in loosely")
    parser.add_argument("--practice", action="store_true",
                        help="practice game: Ctrl+Z puts the pile back to the start of your turn")


def _make_config(options, seats: list[str]) -> dict:
    """The config for ``seats`` and the flags; the rules check it (``ValueError`` with a reason)."""
    from .rules import DEFAULT_ROUNDS
    rounds = getattr(options, "rounds", None)
    config = {"players": len(seats), "seats": list(seats),
              "rounds": DEFAULT_ROUNDS if rounds is None else rounds,
              "practice": bool(getattr(options, "practice", False))}
    setup = getattr(options, "setup", None)
    if setup is not None:
        config["setup"] = setup
    return config


def _selfplay(options, seats, out) -> int:
    from .selfplay import run
    return run(options, seats, out)


def _bench(out) -> None:
    """``playtable bench tokami``: physics step cost, bot think times and the screen's frame time while
    dragging (``bench.run`` prints them all)."""
    from .bench import run
    run(out)


def _describe(config) -> str:
    """One line under the set-up dialog: what the chosen rounds and practice mean."""
    n = config["rounds"]
    text = f"{n} round{'s' if n != 1 else ''}, scores add up"
    if config.get("practice"):
        text += "; practice: Ctrl+Z puts the pile back to the start of your turn"
    return text + "."


def _setup(app, spec):
    from sim.app.setup_view import Choice, SeatSetupScene
    from .rules import DEFAULT_ROUNDS
    options = (Choice("rounds", "Rounds", ROUND_CHOICES, default=DEFAULT_ROUNDS),
               Choice("setup", "Start", ("cube", "free"), labels=("Cube", "Loose"), default="cube"),
               Choice("practice", "Practice", (False, True), labels=("Off", "On"), default=False))
    return SeatSetupScene(app, spec, min_players=2, max_players=5, max_handicap=0, options=options,
                          heading="New game", describe=_describe)


SPEC = GameSpec(
    name="tokami",
    title="Tokami",
    summary="Pull a stick out of the pile on the X and put it back higher, without making anything fall.",
    make_rules=_rules,
    make_scene=_scene,
    rules_text=_HERE / "rules.md",
    players="2-5",
    make_bot=_bot,
    default_players=("human", "bot:medium"),
    make_setup=_setup,
    levels=("easy", "medium", "hard"),
    cli_options=_cli_options,
    make_config=_make_config,
    selfplay=_selfplay,
    bench=_bench,
)
