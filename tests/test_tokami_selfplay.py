"""Tokami selfplay (games/tokami/selfplay.py): one short round of bots through ``run`` with JSON lines,
the stick count after every turn recounted from the lines alone, round scores recounted from the
colours the record dealt, the record saved and replayed (and one hand track re-simulated bit for bit),
the readable output, the ledger's alarms and bad input."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.tokami import driver, selfplay
from games.tokami.model import N_STICKS, ROUND_END_STICKS
from games.tokami.rules import TURN_KEYS, TokamiRules
from sim.core import record, registry
from sim.core.rules import CHANCE, PHYSICS

RULES_MD = Path(__file__).resolve().parents[1] / "games" / "tokami" / "rules.md"
SPEC = registry.GameSpec(name="tokami", title="Tokami", summary="test spec", make_rules=TokamiRules,
                         make_scene=lambda *a, **k: None, rules_text=RULES_MD)
SEATS = ["bot:easy", "bot:easy"]


@pytest.fixture(scope="module")
def lines() -> list[dict]:
    """The JSON lines of one round between two easy bots (seed 6)."""
    out: list[str] = []
    assert selfplay.run(SimpleNamespace(games=1, seed=6, json=True, rounds=1), SEATS, out.append) == 0
    return [json.loads(x) for x in out]


@pytest.fixture
def registered(monkeypatch):
    if "tokami" not in registry.GAMES:
        monkeypatch.setitem(registry.GAMES, "tokami", f"{__name__}:SPEC")


def of_type(lines: list[dict], t: str) -> list[dict]:
    return [x for x in lines if x.get("type") == t]


def test_lines_come_in_order_with_the_turn_outcome_keys(lines):
    kinds = [x.get("type", "summary" if x.get("summary") else None) for x in lines]
    assert kinds[-1] == "summary" and kinds[-2] == "game" and kinds[-3] == "round"
    assert set(kinds[:-3]) == {"turn"}
    summary = lines[-1]
    turns = of_type(lines, "turn")
    assert summary["turns"] == len(turns) == lines[-3]["turns"]
    for t in turns:
        assert set(TURN_KEYS) <= set(t)
        assert t["seat"] in SEATS and t["think"] >= 0.0
        if t["refused"]:
            assert t["hp_before"] is None
        else:
            assert t["kind"] in ("across", "along") and isinstance(t["hp_before"], float)
        if t["raised"]:
            assert t["hp_after"] > t["hp_before"] + 1.0
        assert t["winning"] is None or t["raised"]
    assert summary["falls"] == sum(len(t["fallen"]) for t in turns)
    assert set(summary["think_cpu_seconds"]) == {"easy"}


def test_the_sticks_add_up_after_every_turn(lines):
    """Recount from the lines alone: every minus stick and every winning stick leaves the X (returned
    sticks come back from the minus sticks, not from the X); the round ends at four sticks."""
    turns = of_type(lines, "turn")
    on_x = N_STICKS                                   # nothing fell during the set-up (checked below)
    minus = [0, 0]
    won = [0, 0]
    for t in turns:
        on_x -= len(t["minus"]) + (t["winning"] is not None)
        minus[t["player"]] += len(t["minus"]) - len(t["returned"])
        won[t["player"]] += t["winning"] is not None
        assert t["on_x"] == on_x
        assert on_x + sum(minus) + sum(won) + sum(len(u["returned"]) for u in turns[:turns.index(t) + 1]) == N_STICKS
    assert all(t["on_x"] > ROUND_END_STICKS for t in turns[:-1]) and turns[-1]["on_x"] <= ROUND_END_STICKS
    summary = lines[-1]
    assert summary["mean_winning_per_round"] == won and summary["mean_minus_per_round"] == minus
    # the round line's figures, recounted from the turn lines
    rnd = of_type(lines, "round")[0]
    assert rnd["turns"] == len(turns)
    assert rnd["falls"] == sum(1 for t in turns if t["fallen"])
    assert rnd["fallen"] == sum(len(t["fallen"]) for t in turns)
    assert rnd["minus"] == [sum(len(t["minus"]) for t in turns if t["player"] == p) for p in range(2)]
    assert rnd["returned"] == [sum(len(t["returned"]) for t in turns if t["player"] == p) for p in range(2)]
    assert rnd["returns"] == [sum(1 for t in turns if t["player"] == p and t["returned"]) for p in range(2)]


def test_round_scores_recounted_from_the_dealt_colours(lines):
    rec = of_type(lines, "game")[0]["record"]
    colours = [a["c"] for p, a in rec["actions"][:N_STICKS]]
    assert all(p == CHANCE for p, _a in rec["actions"][:N_STICKS])
    turns = of_type(lines, "turn")
    score = [0, 0]
    for t in turns:
        p = t["player"]
        if t["winning"] is not None and colours[t["winning"]] != "red":
            score[p] += 1
        score[p] -= len(t["minus"]) - len(t["returned"])
        for i in t["returned"]:
            assert colours[i] == colours[t["winning"]]
    rnd = of_type(lines, "round")[0]
    assert rnd["scores"] == score and rnd["totals"] == score
    assert lines[-1]["mean_totals"] == score


def test_the_record_replays_and_a_hand_track_resimulates_bit_for_bit(lines, registered):
    game = of_type(lines, "game")[0]
    m = record.from_record(json.loads(json.dumps(game["record"])), expect_game="tokami")
    assert m.is_over() and m.outcome() == game["result"]
    # the last raise of the match: re-run its recorded hand on the state before it
    i = max(k for k, e in enumerate(m.log) if e["p"] == PHYSICS and e["a"]["t"] == "raised" and "hand" in e["a"])
    logged = m.log[i]["a"]
    again = driver.replay(m.states[i], logged["hand"]).action
    assert json.dumps(again, sort_keys=True) == json.dumps(logged, sort_keys=True)


def test_readable_output_has_a_line_per_round_and_a_summary(lines, monkeypatch, registered):
    m = record.from_record(of_type(lines, "game")[0]["record"])
    rounds = of_type(lines, "round")

    def fake(seats, seed, rounds_, on_turn=None, on_round=None, setup="cube"):
        for r in rounds:
            on_round(r)
        row = {"turns": 5, "falls": 1, "fallen": 2, "minus": [3, 0], "returns": [1, 0], "returned": [2, 0]}
        return m, {"turns": 5, "falls": 1, "fall_turns": 1, "winning": [2, 3], "minus": [1, 0],
                   "think": {"easy": [0.1, 0.3], "medium": [], "hard": []}, "rounds": [row]}

    monkeypatch.setattr(selfplay, "play_match", fake)
    out: list[str] = []
    assert selfplay.run(SimpleNamespace(games=2, seed=9, json=False, rounds=1), SEATS, out.append) == 0
    assert len(out) == 3
    assert out[0].startswith("game 1/2 seed 9 round 1/1: ") and out[1].startswith("game 2/2 seed 10 round 1/1")
    r = rounds[0]
    assert (f"{r['turns']} turns, falls {r['falls']} (sticks fallen {r['fallen']}), minus sticks {r['minus']}, "
            f"colour returns {r['returns']}") in out[0]
    assert ("2/2 rounds with a fall, 4 sticks fell in play, minus sticks by seat [6, 0], colour returns by "
            "seat [2, 0]") in out[2]
    assert "10 turns, 2 sticks fell" in out[2] and "easy 0.20 s mean / 0.30 s max" in out[2]


def test_the_ledger_notices_a_lost_or_doubled_stick():
    led = selfplay.Ledger(2)
    led.on_x = set(range(30))
    led.winning[0] = {30, 31}
    led.minus[1] = {32, 33}
    led.returned = {34, 35}
    assert led.problems() == []
    led.returned = {34}
    assert led.problems() and "= 35, not 36" in led.problems()[0]
    led.returned = {34, 35}
    led.minus[0] = {0}
    assert "a stick is in two places or missing" in led.problems()


def test_bad_seats_rounds_and_games_are_refused():
    opts = SimpleNamespace(games=1, seed=0, json=True, rounds=1)
    with pytest.raises(ValueError):
        selfplay.run(opts, ["human", "bot:easy"], print)
    with pytest.raises(ValueError):
        selfplay.run(opts, ["bot:easy", "bot:expert"], print)
    with pytest.raises(ValueError):
        selfplay.run(opts, ["bot:easy"], print)                        # 2 to 5 players
    with pytest.raises(ValueError):
        selfplay.run(SimpleNamespace(games=1, seed=0, json=True, rounds=0), SEATS, print)
    with pytest.raises(ValueError):
        selfplay.run(SimpleNamespace(games=0, seed=0, json=True, rounds=1), SEATS, print)
    assert selfplay.main(["bot:easy", "--rounds", "1"]) == 2
