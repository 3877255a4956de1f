"""Tokami selfplay (the driver ``sim.core.selfplay`` with games/tokami/selfplay.py): one short round of
bots through ``playtable selfplay tokami --json``, the stick count after every turn recounted from the
lines alone, round scores recounted from the colours the record dealt, the record saved and replayed
(and one hand track re-simulated bit for bit), the same lines again from the record alone, the readable
output, the ledger's alarms and bad input."""
from __future__ import annotations

import json

import pytest

from games.tokami import driver, selfplay
from games.tokami.model import N_STICKS, ROUND_END_STICKS
from games.tokami.rules import TURN_KEYS
from sim.app import cli
from sim.core import record, registry
from sim.core import selfplay as driver_of_every_game
from sim.core.match import Match
from sim.core.rules import CHANCE, PHYSICS

SPEC = registry.get_spec("tokami")
SEATS = ["bot:easy", "bot:easy"]


@pytest.fixture(scope="module")
def lines() -> list[dict]:
    """The JSON lines of one round between two easy bots (seed 6)."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli.main(["selfplay", "tokami", "--players", ",".join(SEATS), "--games", "1", "--seed", "6",
                         "--rounds", "1", "--json"]) == 0
    return [json.loads(x) for x in buf.getvalue().splitlines()]


def of_type(lines: list[dict], t: str) -> list[dict]:
    return [x for x in lines if x.get("type") == t]


def test_lines_come_in_order_with_the_turn_outcome_keys(lines):
    kinds = [x.get("type", "summary" if x.get("summary") else None) for x in lines]
    assert kinds[-1] == "summary" and kinds[-2] == "game" and kinds[-3] == "round"
    assert set(kinds[:-3]) == {"turn"}
    summary, game = lines[-1], lines[-2]
    turns = of_type(lines, "turn")
    assert summary["mean"]["turns"] == game["figures"]["turns"] == len(turns) == lines[-3]["turns"]
    assert all(x["game"] == "tokami" and x["index"] == 0 and x["seed"] == 6 for x in lines[:-1])
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
    assert summary["mean"]["falls"] == sum(len(t["fallen"]) for t in turns)
    assert set(summary["think"]) == {"bot:easy"} and summary["think"]["bot:easy"]["decisions"] > 0
    assert sum(t["think"] for t in turns) > 0


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
    figures = lines[-2]["figures"]
    assert figures["winning_sticks"] == won and figures["minus_sticks"] == minus
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
    assert lines[-2]["figures"]["totals"] == score


def test_the_record_replays_and_a_hand_track_resimulates_bit_for_bit(lines):
    game = of_type(lines, "game")[0]
    m = record.from_record(json.loads(json.dumps(game["record"])), expect_game="tokami")
    assert m.is_over() and m.outcome() == game["outcome"]
    # the last raise of the match: re-run its recorded hand on the state before it
    i = max(k for k, e in enumerate(m.log) if e["p"] == PHYSICS and e["a"]["t"] == "raised" and "hand" in e["a"])
    logged = m.log[i]["a"]
    again = driver.replay(m.states[i], logged["hand"]).action
    assert json.dumps(again, sort_keys=True) == json.dumps(logged, sort_keys=True)


def test_the_record_alone_gives_the_same_lines_and_readable_ones(lines):
    """The actions of the record, submitted again with Tokami's part of selfplay watching, give the same
    turn and round lines (physics outcomes are logged, so nothing is simulated) and the readable round
    line; the summary reads as text."""
    rec = of_type(lines, "game")[0]["record"]
    m = Match(SPEC.make_rules(), rec["config"], rec["seed"])         # chance draws as it did
    got: list[tuple[str, dict, str | None]] = []
    game = selfplay.TokamiSelfplay(m, SEATS, lambda kind, fields, text=None: got.append((kind, fields, text)))
    m.listeners.append(game.watch)
    for p, a in rec["actions"]:
        if p != CHANCE:
            m.submit(p, a)
    assert m.is_over() and record.to_record(m)["actions"] == rec["actions"]
    strip = lambda x: {k: v for k, v in x.items() if k not in ("type", "game", "index", "seed", "think")}
    assert [strip(f) for kind, f, _t in got if kind == "turn"] == [strip(t) for t in of_type(lines, "turn")]
    rounds = [(f, t) for kind, f, t in got if kind == "round"]
    assert [f for f, _t in rounds] == [strip(r) for r in of_type(lines, "round")]
    r, text = rounds[0]
    assert text.startswith("round 1/1: ") and text.endswith(f"scores {r['scores']}, totals {r['totals']}")
    assert (f"{r['turns']} turns, falls {r['falls']} (sticks fallen {r['fallen']}), minus sticks {r['minus']}, "
            f"colour returns {r['returns']}") in text
    assert game.figures() == of_type(lines, "game")[0]["figures"]
    s = lines[-1]
    summary = driver_of_every_game.summary_text(s)
    assert summary.startswith(f"1 games of tokami: bot:easy {s['wins']['bot:easy']['wins']}/2 wins")
    assert f"; {s['draws']} draws;" in summary
    assert f"turns {len(of_type(lines, 'turn'))}" in summary and "minus_taken per seat bot:easy" in summary


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


def test_a_round_that_ends_on_a_drawn_winning_stick_keeps_the_ledger_right():
    """The drawn outcome that ends a round comes with the next round's colour draws in one change: its
    poses (without the drawn stick) are still the sticks on the X."""
    from types import SimpleNamespace
    drawn = {"p": PHYSICS, "a": {"t": "drawn", "poses": {"27": [0.0, 0.0, 0.0]}}}
    colours = [{"p": CHANCE, "a": {"t": "colour", "c": "red"}} for _ in range(N_STICKS)]
    m = SimpleNamespace(log=[drawn, *colours], cursor=1 + N_STICKS, seed=1, state=None,
                        config={"rounds": 2})
    got = []
    game = selfplay.TokamiSelfplay(m, SEATS, lambda kind, fields, text=None: got.append(kind))
    led = game.ledger
    led.on_x = {27, 28}
    led.winning = [set(range(14)), set(range(14, 27))]
    led.returned = set(range(29, N_STICKS))
    game.watch(m, [
        {"e": "winning", "player": 1, "stick": 28, "colour": "red"},
        {"e": "turn_end", "player": 1, "round": 0, "stick": 9, "kind": "across", "lane": 4, "hp_before": 54.4,
         "hp_after": 64.2, "raised": True, "refused": False, "fallen": [], "winning": 28, "minus": [],
         "returned": []},
        {"e": "round_end", "round": 0, "scores": [14, 14], "totals": [14, 14]},
    ])
    assert got == ["turn", "round"]


@pytest.mark.parametrize("argv, message", [
    (["--players", "human,bot:easy"], "selfplay seats must all be bots"),
    (["--players", "bot:easy,bot:expert"], "unknown player 'bot:expert'"),
    (["--players", "bot:easy"], "players"),
    (["--players", "bot:easy,bot:easy", "--rounds", "0"], "rounds"),
    (["--players", "bot:easy,bot:easy", "--games", "0"], "--games"),
])
def test_bad_seats_rounds_and_games_are_refused(argv, message, capsys):
    assert cli.main(["selfplay", "tokami", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
