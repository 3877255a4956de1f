"""Tantrix Gobble: the tile set, the placement rules, Gobble Solitaire (specs/gobble.md)."""
from __future__ import annotations

from pathlib import Path

from sim.core.registry import GameSpec, lazy

from .options import RACE_OPTIONS, SOLITAIRE_OPTIONS

_HERE = Path(__file__).resolve().parent
#: Race bot levels, slowest first ("slow" plays as "easy" at a pace for people new to the race).
RACE_LEVELS = ("slow", "easy", "medium", "hard")


def _race_setup(app, spec):
    from sim.app.setup_view import SeatSetupScene
    return SeatSetupScene(app, spec, min_players=2, max_players=6, max_handicap=20, describe=_describe_deal,
                          kinds=("human",) + tuple(f"bot:{lv}" for lv in RACE_LEVELS))


def _solitaire_setup(app, spec):
    """The set-up dialog of Gobble Solitaire: one seat at this machine and the game's options."""
    from sim.app.setup_view import SeatSetupScene
    return SeatSetupScene(app, spec, min_players=1, max_players=1, kinds=("human",), max_handicap=0,
                          heading="New game")


def _describe_deal(config) -> str:
    """How the 54 tiles are dealt for ``config`` (a validated race config)."""
    from .race import deal_quota
    quota = deal_quota(config["players"], config["handicap"])
    base = min(q - h for q, h in zip(quota, config["handicap"]))
    aside = 54 - sum(quota)
    extra = [f"P{i + 1} +{h}" for i, h in enumerate(config["handicap"]) if h]
    text = f"Each player is dealt {base} tiles"
    if extra:
        text += f" ({', '.join(extra)})"
    if aside:
        text += f"; {aside} tile{'s' if aside != 1 else ''} set aside"
    return text + "."


def _race_bot(seat, level, seed=0):
    from .ai import make_race_bot
    return make_race_bot(seat, level, seed)


def _bench_solitaire(out):
    from .bench import bench_solitaire
    bench_solitaire(out)


def _bench_race(out):
    from .bench import bench_race
    bench_race(out)


def _lan_scene(app, client, host=None, address=None):
    from .lan import make_lan_scene
    return make_lan_scene(app, client, host, address)


def _lan_choose(view, seat, rng):
    from .lan import choose
    return choose(view, seat, rng)


def _lan_events(events, seat):
    from .lan import filter_events
    return filter_events(events, seat)


def _lan_check(msg):
    from .lan import check_state
    check_state(msg)


def _agent(name):
    def make(seed=0):
        from . import ai
        return ai.make_solitaire_agent(name, seed)
    return make


SOLITAIRE = GameSpec(
    name="gobble-solitaire",
    title="Gobble Solitaire",
    summary="Tantrix tiles, one at a time: join each to the Tantrix and end with no penalty stack.",
    make_rules=lazy("games.gobble.rules:SolitaireRules"),
    make_scene=lazy("games.gobble.view:SolitaireScene"),
    rules_text=_HERE / "rules.md",
    agents={"greedy": _agent("greedy"), "random": _agent("random")},
    default_agent="greedy",
    players="1",
    bench=_bench_solitaire,
    selfplay=lazy("games.gobble.selfplay:SolitaireSelfplay"),
    options=SOLITAIRE_OPTIONS,
    players_key=None,
    make_setup=_solitaire_setup,
)


RACE = GameSpec(
    name="gobble",
    title="Tantrix Gobble",
    summary="The real-time race: no turns, place your tiles as fast as you can, gobble and give tiles away.",
    make_rules=lazy("games.gobble.race:RaceRules"),
    make_scene=lazy("games.gobble.view_race:RaceScene"),
    rules_text=_HERE / "rules.md",
    players="2-6",
    realtime=True,
    make_bot=_race_bot,
    default_players=("human", "bot:medium", "bot:medium", "bot:medium"),
    make_setup=_race_setup,
    options=RACE_OPTIONS,
    bench=_bench_race,
    selfplay=lazy("games.gobble.selfplay:RaceSelfplay"),
    selfplay_players=("bot:hard", "bot:medium", "bot:easy", "bot:medium"),
    seat_keys=("handicap",),
    bot_levels=RACE_LEVELS,
    lan=True,
    make_lan_scene=_lan_scene,
    lan_choose=_lan_choose,
    lan_events=_lan_events,
    lan_check=_lan_check,
)
