"""Tom Tube whole games: random and bot playouts with the invariants checked after every action, records
saved, loaded and replayed (sim/core/record.py), selfplay output, random-placement statistics against
research/tomtube.md §6, the bot against a random player, and the bench."""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.tomtube import bench, selfplay
from games.tomtube.ai import RouteBot, make_agent
from games.tomtube.data import STOCK
from games.tomtube.rules import TomTubeRules, snapshot
from sim.core import registry
from sim.core import selfplay as sp
from sim.core.match import Match
from sim.core.record import RecordError, from_record, load, save, to_record
from sim.core.registry import GameSpec

from bot_games import tomtube as tomtube_game

R = TomTubeRules()
ENDS = {"bonus", "no_bonus", "stranded", "blocked"}
SPEC = GameSpec(name="tomtube", title="Tom Tube", summary="", make_rules=TomTubeRules,
                make_scene=lambda *a, **k: None, rules_text=Path(__file__).resolve().parents[1] / "games" /
                "tomtube" / "rules.md")


@pytest.fixture
def tomtube_registered(monkeypatch):
    """Records name their game: let the registry find Tom Tube while the test runs."""
    monkeypatch.setitem(registry.GAMES, "tomtube", f"{__name__}:SPEC")


def random_game(seed: int, config=None) -> Match:
    rng = random.Random(seed)
    m = Match(R, config, seed)
    while not m.is_over():
        p = m.active_players()[0]
        m.submit(p, rng.choice(R.legal_actions(m.state, p)))
        bad = R.invariants(m.state)
        assert bad == [], (seed, len(m.log), bad)
    return m


def test_random_games_end_and_conserve_everything():
    seen = set()
    for seed in range(8):
        m = random_game(seed)
        out = m.outcome()
        assert out["end"] in ENDS | {"turn_limit"}
        seen.add(out["end"])
        s = m.state
        # counters: stock + board + bases + solar modules hold the whole box
        assert s.stock[0] + s.supply[0][0] + s.supply[1][0] + sum(v == "energy" for v in s.counters.values()) \
            == STOCK["energy"]
        assert len(s.solar_left) + s.supply[0][3] + s.supply[1][3] == 4
        total = [sum(out["breakdown"][p][k] * w for k, w in (("energy", 1), ("control", 2), ("alien", 5),
                                                                 ("solar", 5))) + out["breakdown"][p]["bonus"]
                 for p in (0, 1)]
        assert total == out["scores"]
    assert "no_bonus" in seen


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=100, max_value=10**6))
def test_replay_of_any_random_game_is_exact(seed):
    m = random_game(seed, {"alien_control": seed % 2 == 0, "extra_energy": [seed % 3, 0]})
    again = Match(R, m.config, m.seed, resolve_chance=False)
    for e in m.log:
        again.replay_entry(e["p"], e["a"])
    assert snapshot(again.state) == snapshot(m.state)
    if not m.config["alien_control"]:
        assert all(v == "energy" for st_ in m.states for v in st_.counters.values())


def test_save_load_replay_and_tampering(tomtube_registered, tmp_path):
    m = random_game(21)
    path = tmp_path / "game.json"
    save(m, path)
    back = load(path, expect_game="tomtube")
    assert snapshot(back.state) == snapshot(m.state) and back.outcome() == m.outcome()
    # states (and their boards) compare by value: the reloaded game equals the live one, at every step
    assert back.state == m.state and back.state.board == m.state.board and back.state is not m.state
    assert hash(back.state.board) == hash(m.state.board) and len({back.state.board, m.state.board}) == 1
    assert all(a == b for a, b in zip(back.states, m.states)) and len(back.states) == len(m.states)
    assert m.states[0] != m.state and m.states[0].board != m.state.board
    rec = to_record(m)
    # a chance outcome the seed does not give
    bad = json.loads(json.dumps(rec))
    i = next(i for i, (p, a) in enumerate(bad["actions"]) if a["t"] == "rhomb")
    other = "R01" if bad["actions"][i][1]["id"] != "R01" else "R02"
    bad["actions"][i][1]["id"] = other
    with pytest.raises(RecordError, match="chance outcome"):
        from_record(bad)
    # an illegal move
    bad = json.loads(json.dumps(rec))
    j = next(j for j, (p, a) in enumerate(bad["actions"]) if a["t"] == "move")
    bad["actions"][j][1]["to"] = "DAVE_BASE" if bad["actions"][j][0] == 0 else "TOM_BASE"
    with pytest.raises(RecordError, match="illegal"):
        from_record(bad)
    # a truncated record stops where it stops, a malformed action is refused
    bad = json.loads(json.dumps(rec))
    bad["actions"][j][1] = {"t": "move"}
    with pytest.raises(RecordError):
        from_record(bad)


def test_undo_a_move_and_a_placement():
    m = Match(R, {"first": 0}, 5)
    before = snapshot(m.state)
    m.submit(0, {"t": "move", "mode": "drift", "to": "1,-3"})
    assert m.state.at[0] == "1,-3" and m.undo(0)
    assert snapshot(m.state) == before
    m.submit(0, {"t": "draw"})
    assert not m.can_undo()
    m.submit(0, {"t": "place", "slot": 7, "flip": 0})
    assert m.undo(0) and m.state.phase == "place"


def test_bot_games_replay_from_their_seed():
    a = tomtube_game(["bot", "random"], 31)
    b = tomtube_game(["bot", "random"], 31)
    assert [e["a"] for e in a.log] == [e["a"] for e in b.log]


def test_bot_beats_the_random_player():
    wins = 0
    for i, seed in enumerate(range(40, 46)):
        players = ["bot", "random"] if i % 2 == 0 else ["random", "bot"]
        m = tomtube_game(players, seed)
        out = m.outcome()
        assert out["end"] in ENDS
        wins += out["winner"] == players.index("bot")
    assert wins >= 5


def test_bot_against_bot_ends_properly():
    for seed in (2, 3):
        out = tomtube_game(["bot", "bot"], seed).outcome()
        assert out["end"] in ENDS


def test_bot_fills_when_offered_and_always_acts_legally():
    # the position of an offered fill: Tom has no triangles left, Dave is asked
    from games.tomtube.geometry import AROUND, SLOT_OF_EDGE, TRI_CORNERS, edge_key, kid
    from games.tomtube.rules import CHANCE, build_state
    x, t = kid(0, 0), None
    ring = AROUND[x]
    t = next(tt for tt in ring if set(TRI_CORNERS[tt]) == {kid(0, 0), kid(1, 0), kid(0, 1)})
    pieces = [(tt, 1, "plain", 0) for tt in ring if tt != t]
    far = [tt for tt in range(78) if not set(TRI_CORNERS[tt]) & {kid(0, 0), kid(1, 0), kid(0, 1), kid(1, 1),
                                                                 kid(0, 2), kid(1, 2), kid(2, 1), kid(2, 0)}]
    pieces += [(tt, 0, pc, 0) for tt, pc in zip(far, ["arc"] * 3 + ["Y"] * 3 + ["plain"] * 3)]
    s = build_state(R, pieces=pieces, turn=0, strict=False)
    s, _ = R.apply(s, 0, {"t": "draw"})
    s, _ = R.apply(s, CHANCE, {"t": "rhomb", "id": "R38"})
    s, _ = R.apply(s, 0, {"t": "place", "slot": SLOT_OF_EDGE[edge_key(kid(0, 1), kid(1, 1))], "flip": 0})
    assert s.phase == "fill_other"
    a = RouteBot(1).select_action(R, s, 1)
    assert a["t"] == "fill" and a["tri"] == t
    R.check(s, 1, a)


def test_selfplay_json_lines_and_summary():
    from games.tomtube import SPEC as spec
    buf = io.StringIO()
    summary = sp.run(spec, ["bot:bot", "bot:random"], 2, 50,
                     lambda sat: {"seats": sat, "extra_energy": [2, 0], "alien_control": False},
                     json_lines=True, out=buf, check=sp.check_invariants)
    lines = [json.loads(x) for x in buf.getvalue().splitlines()]
    assert len(lines) == 3 and lines[-1] == json.loads(json.dumps(summary)) and lines[-1]["summary"]
    for k, line in enumerate(lines[:2]):
        res = line["outcome"]
        assert set(res["breakdown"][0]) == {"energy", "control", "alien", "solar", "bonus", "total"}
        # the beginner's energy follows the first player listed as the seats rotate
        assert line["record"]["config"]["extra_energy"] == [[2, 0], [0, 2]][k]
        assert line["record"]["config"]["alien_control"] is False
        m = from_record(line["record"])
        assert m.outcome() == res and line["figures"]["end"] == res["end"] in ENDS
    assert summary["games"] == 2 and sum(v["wins"] for v in summary["wins"].values()) + summary["draws"] == 2
    assert summary["counts"]["end"] == {e: n for e in ENDS if (n := sum(g["outcome"]["end"] == e for g in lines[:2]))}
    text = io.StringIO()
    sp.run(spec, ["bot:random", "bot:random"], 1, 3, out=text)
    assert "game 1/1 seed 3" in text.getvalue()
    with pytest.raises(ValueError, match="bots"):
        sp.run(spec, ["bot:bot", "human"], 1, 0)
    with pytest.raises(ValueError, match="at least one"):
        sp.run(spec, ["bot:bot", "bot:bot"], 0, 0)
    with pytest.raises(KeyError):
        make_agent("genius")


def test_random_placement_statistics_near_the_research_figures():
    stats = selfplay.placement_stats(40, 7)
    # research §6 (2000 games): 33.6 rhombs, 10.7 triangles, 1.9 control and 0.25 alien spheres, 8.4
    # energy counters, all 29 interior knots complete
    assert 32.6 <= stats["rhombs"] <= 34.6
    assert 9.0 <= stats["triangles"] <= 12.5
    assert 1.2 <= stats["control_spheres"] <= 2.6
    assert stats["alien_spheres"] <= 0.8
    assert 7.0 <= stats["energy_counters"] <= 9.5
    assert stats["complete_interior"] == 29.0
    # every triangle ends covered: two per rhomb plus the triangles
    assert abs(2 * stats["rhombs"] + stats["triangles"] - 78) < 0.6


def test_bench_prints_its_figures():
    lines = []
    bench.run(lines.append, bot_games=1)
    assert len(lines) == 2 and lines[0].startswith("tomtube: move generation") and "think time" in lines[1]
