"""The hard Streetcar bot's expected turns to finish a trip (games/streetcar/trip.py) against the rules:
trips driven by the real rules with that bot's dice choices take, on average, the turns the values
predict, and fewer than the medium bot's choices take."""
from __future__ import annotations

import random
import statistics
from dataclasses import replace

import pytest

from games.streetcar import route as R
from games.streetcar.ai import make_bot
from games.streetcar.trip import TripValues
from sim.core import registry
from sim.core.match import Match
from sim.core.rules import CHANCE

SPEC = registry.get_spec("streetcar")


def trip_start(dice: str, seed: int):
    """A state where a medium bot's tram is about to roll for the first time (bots build to it)."""
    m = Match(SPEC.make_rules(), {"players": 2, "dice": dice}, seed, resolve_chance=True)
    bots = [make_bot(p, "medium", seed) for p in (0, 1)]
    while not m.is_over():
        s = m.state
        if s.phase == "roll" and s.used == 0 and s.seats[s.turn].driving:
            return m.rules, s
        p = m.active_players()[0]
        m.submit(p, bots[p].select_action(m.rules, s, p))
    raise AssertionError("nobody started a trip")


def drive(rules, s, bot, rng: random.Random) -> int:
    """Turns the driver ends before winning, others' turns skipped (the rules move the tram)."""
    me, turns = s.turn, 0
    while s.phase != "over":
        if s.turn != me:
            turns += 1
            s = replace(s, turn=me, phase="roll", used=0, dice=())
        if s.phase == "dice":
            outs = rules.chance_outcomes(s)
            a = rng.choices([a for a, _p in outs], [p for _a, p in outs])[0]
            s, _ = rules.apply(s, CHANCE, a)
        else:
            s, _ = rules.apply(s, me, bot.select_action(rules, s, me))
    return turns


@pytest.mark.parametrize("dice", ["bga", "classic"])
def test_trips_take_the_turns_the_values_predict(dice):
    rules, s = trip_start(dice, 0)
    st = s.seats[s.turn]
    x = (st.pos, st.served, st.last)
    tv = TripValues(s.board, R.route_table(s.board, st.line, st.dest, st.stops), s.faces, s.classic, x)
    rng = random.Random(5)
    hard = make_bot(s.turn, "hard", 1)
    got = [drive(rules, s, hard, rng) for _ in range(600)]
    mean, se = statistics.fmean(got), statistics.stdev(got) / len(got) ** 0.5
    assert abs(mean - tv.V[x]) < 4 * se + 0.02, (mean, se, tv.V[x])
    if dice == "bga":
        medium = make_bot(s.turn, "medium", 1)
        other = [drive(rules, s, medium, rng) for _ in range(600)]
        assert statistics.fmean(other) >= tv.V[x] - 4 * se
