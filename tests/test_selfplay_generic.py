"""The selfplay driver of every game (sim/core/selfplay.py): whole games end, the invariants hold after
every action, seats rotate (and a per-seat option with them), every printed record replays to its
outcome and the summary adds up; every registered game's ``playtable selfplay`` goes through it; a
one-seat game gets a score summary and a baseline."""
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


#: A tiny ``playtable selfplay`` of every registered game (a new game must add its own here).
TINY = {
    "gobble-solitaire": ["--games", "1", "--baseline", "none"],
    "gobble": ["--players", "bot:hard,bot:easy", "--handicap", "2,0", "--games", "2"],
    "tumbleweed": ["--players", "bot:easy,bot:medium", "--size", "4", "--games", "2"],
    "tokami": ["--players", "bot:easy,bot:easy", "--rounds", "1", "--games", "1"],
    "streetcar": ["--players", "bot:easy,bot:medium", "--games", "2"],
    "tomtube": ["--players", "bot,bot:random", "--beginner-energy", "2", "--games", "2"],
}


def test_every_registered_game_has_a_tiny_selfplay_here():
    assert set(TINY) == set(registry.game_names())


@pytest.mark.parametrize("name", sorted(TINY))
def test_every_games_selfplay_goes_through_the_driver_and_its_records_replay(name, monkeypatch, capsys):
    from sim.app import cli

    spec = registry.get_spec(name)
    played = []
    real = selfplay.play

    def spy(spec_, seats, seed, config=None, check=None, emit=None, bots=None, clock=None):
        game = real(spec_, seats, seed, config, check, emit, bots, clock)
        played.append((seats, game.match.config, game.match.seats))
        return game
    monkeypatch.setattr(selfplay, "play", spy)
    assert cli.main(["selfplay", name, "--seed", "3", "--json", *TINY[name]]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    games = [x for x in lines if x["type"] == "game"]
    summary = lines[-1]
    assert summary["type"] == "summary" and summary["summary"] is True and summary["game"] == name
    assert len(games) == len(played) == summary["games"] and [g["index"] for g in games] == list(range(len(games)))
    for g, (seats, config, sat) in zip(games, played):
        assert g["game"] == name and g["seed"] == 3 + g["index"] and g["seats"] == seats
        m = record.from_record(json.loads(json.dumps(g["record"])), expect_game=name)
        assert m.is_over() and json.loads(json.dumps(m.outcome())) == g["outcome"] and m.seed == g["seed"]
        assert m.config == config and m.rules.invariants(m.state) == []
        assert [s.text() for s in m.seats] == [s.text() for s in sat] == seats and "seats" not in config
        if len(seats) > 1:
            assert g["winner"] == selfplay.winner_of(g["outcome"])
    if len(summary["seats"]) > 1:
        assert [g["seats"] for g in games] == [summary["seats"][i:] + summary["seats"][:i] for i in range(len(games))]
        assert sum(v["wins"] for v in summary["wins"].values()) + summary["draws"] == len(games)
    else:
        assert "wins" not in summary and set(summary["mean"]) >= {"win", "penalty"}
    for key in spec.seat_keys:   # a per-seat option follows the player it was given to
        first = [c[key] for _s, c, _sat in played]
        assert first[1] == first[0][1:] + first[0][:1]


def test_a_non_player_actor_without_a_part_of_its_own_is_an_error():
    """A game whose physics (or other non-seat actor) has no driver stops with a clear error."""
    bare = registry.GameSpec(name="tokami", title="Tokami", summary="", make_rules=registry.get_spec("tokami").make_rules,
                             make_scene=None, rules_text=registry.get_spec("tokami").rules_text,
                             make_bot=registry.get_spec("tokami").make_bot, levels=("easy",))
    with pytest.raises(RuntimeError, match="no bot"):
        selfplay.play_game(bare, ["bot:easy", "bot:easy"], 1, {"players": 2, "seats": ["bot:easy", "bot:easy"],
                                                              "rounds": 1})


def test_one_seat_baseline_and_readable_lines():
    spec = registry.get_spec("gobble-solitaire")
    lines: list[str] = []
    s = selfplay.run(spec, ["bot:greedy"], 2, 11, lambda ss: None, False, lines.append, baseline="bot:random")
    assert len(lines) == 3 and lines[0].startswith("game 1/2 seed 11: bot:greedy: ")
    assert ("penalty" in lines[0]) and lines[-1] == selfplay.summary_text(s)
    assert s["baseline"]["seats"] == ["bot:random"] and "games_per_second" not in s   # no clock given
    again = [selfplay.play_game(spec, ["bot:random"], 11 + g).outcome()["penalty"] for g in range(2)]
    assert s["baseline"]["mean"]["penalty"] == sum(again) / 2
