"""The generic selfplay driver (sim/core/selfplay.py) on real games: whole games end, the invariants
hold after every action, seats rotate, every printed record replays to its outcome, and the summary
adds up."""
from __future__ import annotations

import json

import pytest

from sim.core import record, registry, selfplay


@pytest.mark.parametrize("name,config,seats", [
    ("tumbleweed", {"size": 5}, ["bot:easy", "bot:medium"]),
    ("streetcar", {"players": 3}, ["bot:easy", "bot:easy", "bot:medium"]),
    ("tomtube", {}, ["bot:bot", "bot:random"]),
])
def test_generic_driver_plays_real_games(name, config, seats):
    spec = registry.get_spec(name)
    lines: list[str] = []
    broken: list = []

    def check(m):
        broken.extend(m.rules.invariants(m.state))
    n = len(seats)
    summary = selfplay.run(spec, seats, n, 7, lambda ss: {**config, "seats": ss}, True, lines.append, check)
    games = [json.loads(x) for x in lines[:-1]]
    assert json.loads(lines[-1]) == summary and broken == []
    assert [g["seats"] for g in games] == [seats[i:] + seats[:i] for i in range(n)]
    wins = {k: 0 for k in seats}
    for g in games:
        m = record.from_record(g["record"])
        assert m.is_over() and m.outcome() == g["outcome"] and m.seed == g["seed"]
        assert g["winner"] == selfplay.winner_of(g["outcome"]) and g["plies"] == selfplay.plies(m)
        if g["winner"] is not None:
            wins[g["seats"][g["winner"]]] += 1
    assert {k: v["wins"] for k, v in summary["wins"].items()} == wins
    assert sum(wins.values()) + summary["draws"] == n
    assert sum(v["seat_games"] for v in summary["wins"].values()) == n * n


def test_physics_and_real_time_games_are_left_to_their_own_selfplay():
    with pytest.raises(RuntimeError, match="no bot"):
        selfplay.play_game(registry.get_spec("tokami"), ["bot:easy", "bot:easy"], 1,
                           {"players": 2, "seats": ["bot:easy", "bot:easy"], "rounds": 1})
