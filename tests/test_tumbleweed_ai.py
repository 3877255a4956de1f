"""Tumbleweed bots (specs/tumbleweed.md "Engine and AI"): small, fast versions of the strength matches
(node budgets, so every game is deterministic), no suicidal moves from medium and hard, determinism,
cancelling, setup and colour choice, sensible passing, and the selfplay lines.

The long matches (40 games per pairing, the issue's gates) are run with ``playtable selfplay
tumbleweed`` and reported, not run here.
"""
from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest

import importlib

from games.tumbleweed import ai, notation
from games.tumbleweed.rules import NEUTRAL, RED, WHITE, TumbleweedRules, is_suicidal, position_state, scores
from sim.ai import RandomAgent
from sim.core import selfplay as sp
from sim.core.match import Match
from sim.core.registry import get_spec

import bot_games
import test_tumbleweed_naive as naive

bench = importlib.import_module("games.tumbleweed.bench")
SPEC = get_spec("tumbleweed")

RULES = TumbleweedRules()


#: node budgets per decision: medium's default (a depth-2 search capped by nodes) is already
#: deterministic; hard gets a budget that its deeper search uses up
BUDGETS = {"medium": None, "hard": 4000}


def play(names, seed, size, budgets=BUDGETS):
    """One match (names[0] hosts; "random" or a level) through the selfplay driver with node budgets;
    returns (match, suicidal moves per seat)."""
    bots = [RandomAgent(seed * 2 + k) if n == "random" else
            ai.TumbleweedAgent(n, seed * 2 + k, **({"node_budget": budgets[n]} if budgets.get(n) else {}))
            for k, n in enumerate(names)]
    game = bot_games.play(SPEC, [f"bot:{n}" for n in names], seed, {"size": size}, bots, check=False)
    return game.match, game.suicidal


def test_easy_beats_random():
    for g in range(4):
        names = ["easy", "random"] if g % 2 == 0 else ["random", "easy"]
        m, _ = play(names, 10 + g, 6)
        assert m.outcome()["winner"] == names.index("easy"), g


@pytest.mark.parametrize("strong,weak", [("medium", "easy"), ("hard", "easy"), ("hard", "medium")])
def test_stronger_levels_win_and_never_play_suicidal_moves(strong, weak):
    for g in range(2):
        names = [strong, weak] if g == 0 else [weak, strong]
        m, suicidal = play(names, 20 + g, 5)
        seat = names.index(strong)
        assert m.outcome()["winner"] == seat, (g, m.outcome()["scores"])
        if strong in ("medium", "hard"):
            assert suicidal[seat] == 0
        if weak == "medium":
            assert suicidal[1 - seat] == 0


def _midgame(size=6, plies=16, seed=2):
    m = Match(RULES, {"size": size}, seed)
    a = ai.TumbleweedAgent("medium", seed, node_budget=800)
    while m.state.ply < plies:
        p = m.active_players()[0]
        m.submit(p, a.select_action(RULES, m.state, p))
    return m.state


def test_a_node_budget_makes_the_search_deterministic():
    s = _midgame()
    seat = RULES.active_players(s)[0]
    runs = []
    for _ in range(2):
        bot = ai.TumbleweedAgent("hard", seed=5, node_budget=3000)
        runs.append((bot.select_action(RULES, s, seat), bot.last))
    assert runs[0] == runs[1]
    # the budget, plus at most a tenth for the check whether passing is as good
    assert 3000 <= runs[0][1]["nodes"] <= 3300 and runs[0][1]["depth"] >= 2
    RULES.check(s, seat, runs[0][0])
    # whole games too
    g1, _ = play(["hard", "medium"], 3, 5, {"hard": 600, "medium": 600})
    g2, _ = play(["hard", "medium"], 3, 5, {"hard": 600, "medium": 600})
    assert notation.move_tokens(g1) == notation.move_tokens(g2)


def test_cancel_stops_the_search_with_a_legal_move():
    s = _midgame(size=8, plies=10)
    seat = RULES.active_players(s)[0]
    calls = []

    def cancel():
        calls.append(1)
        return True

    bot = ai.TumbleweedAgent("hard", cancel=cancel, time_budget=30.0)
    act = bot.select_action(RULES, s, seat)
    RULES.check(s, seat, act)
    assert calls and bot.last["nodes"] <= 64


def test_a_time_budget_gives_a_legal_move():
    s = _midgame()
    seat = RULES.active_players(s)[0]
    bot = ai.TumbleweedAgent("hard", time_budget=0.05)
    RULES.check(s, seat, bot.select_action(RULES, s, seat))
    assert bot.last["depth"] >= 1 and "seconds" in bot.last


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("setup", ["original", "free"])
def test_bots_set_up_as_host_and_choose_as_guest(level, setup):
    m = Match(RULES, {"size": 5, "setup": setup}, 0)
    bot = ai.make_agent(f"bot:{level}", seed=1, node_budget=500)
    while m.state.phase in ("neutral", "setup", "choose"):
        p = m.active_players()[0]
        act = bot.select_action(RULES, m.state, p)
        m.submit(p, act)  # raises if illegal
    assert m.state.phase == "play"
    if setup == "free":
        assert m.state.stack((0, 0)) == (NEUTRAL, 2)  # the bots put the neutral stack in the centre


def test_the_guest_takes_the_colour_its_search_prefers():
    # red 1-stack next to the centre, white in a far corner: red (to move) is far better off
    s = replace(position_state(6, {(0, 0): (NEUTRAL, 2), (1, -1): (RED, 1), (5, -5): (WHITE, 1)}),
                phase="choose", red_seat=None)
    for level in ai.LEVELS:
        assert ai.TumbleweedAgent(level, 0).select_action(RULES, s, 1) == {"t": "choose", "colour": "red"}


def test_the_host_setup_is_more_even_than_a_typical_random_one():
    import random
    size = 6
    bot = ai.TumbleweedAgent("medium", 4)
    m = Match(RULES, {"size": size}, 0)
    act = bot.select_action(RULES, m.state, 0)
    m.submit(0, act)
    chosen = abs(bot._value_for_red(m.state.engine(bot.table), False))
    rng = random.Random(9)
    free = [c for c in naive.cells(size) if c != (0, 0)]
    values = []
    for _ in range(12):
        a, b = rng.sample(free, 2)
        s = position_state(size, {(0, 0): (NEUTRAL, 2), a: (RED, 1), b: (WHITE, 1)})
        values.append(abs(bot._value_for_red(s.engine(bot.table), False)))
    values.sort()
    assert chosen <= values[len(values) // 2]


def _ahead_position(passes):
    # red: 3 stacks on the west, white: 1 stack on the east; red clearly ahead
    stacks = {(0, 0): (NEUTRAL, 2), (-3, 0): (RED, 1), (-3, 3): (RED, 1), (0, -3): (RED, 1), (3, 0): (WHITE, 1)}
    return position_state(4, stacks, to_move=RED, passes=passes)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_bot_ahead_ends_the_game_by_passing_after_a_pass(level):
    s = _ahead_position(passes=1)
    sc = scores(s)
    assert sc["red"]["score"] > sc["white"]["score"]
    bot = ai.TumbleweedAgent(level, 0, node_budget=2000)
    assert bot.select_action(RULES, s, 0) == {"t": "pass"}


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_bot_behind_does_not_pass_after_a_pass(level):
    s = replace(_ahead_position(passes=1), to_move=WHITE, red_seat=1)  # white, behind, to move
    bot = ai.TumbleweedAgent(level, 0, node_budget=2000)
    act = bot.select_action(RULES, s, 0)
    assert act["t"] == "place"
    assert not is_suicidal(s, (act["q"], act["r"])) or level == "easy"


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_bot_passes_when_only_filling_its_own_safe_hexes_is_left(level):
    # everything a 6-stack but a pocket of three empty hexes on the middle row, all of whose
    # neighbours are white: white can only fill its own hexes, which gains nothing
    pocket = {(-1, 0), (0, 0), (1, 0)}
    stacks = {}
    for c in naive.cells(4):
        if c not in pocket:
            near = any((c[0] - p[0], c[1] - p[1]) in naive.AXIAL for p in pocket)
            stacks[c] = (WHITE if near or c[1] == 0 else RED, 6)
    s = position_state(4, stacks, to_move=WHITE, red_seat=1)
    assert RULES.legal_actions(s, 0) != [{"t": "pass"}]
    bot = ai.TumbleweedAgent(level, 0, node_budget=2000)
    assert bot.select_action(RULES, s, 0) == {"t": "pass"}


def test_bad_requests():
    with pytest.raises(KeyError):
        ai.make_agent("expert")
    s = _ahead_position(passes=0)
    with pytest.raises(ValueError):
        ai.TumbleweedAgent("easy").select_action(RULES, s, 1)  # seat 1 is not to move


# ------------------------------------------------------------------------------------ tools
def test_selfplay_writes_one_line_per_game_and_a_summary():
    buf = io.StringIO()
    summary = sp.run(SPEC, ["bot:easy", "bot:medium"], 2, 40, lambda sat: {"size": 5, "seats": sat}, True, buf)
    lines = [json.loads(x) for x in buf.getvalue().splitlines()]
    assert len(lines) == 3 and lines[-1] == summary and summary["summary"]
    assert sum(v["wins"] for v in summary["wins"].values()) + summary["draws"] == 2
    assert lines[0]["seats"] == ["bot:easy", "bot:medium"] and lines[1]["seats"] == ["bot:medium", "bot:easy"]
    for g in lines[:2]:
        m = notation.replay_tokens(RULES.validate_config({"size": 5}), g["moves"])
        res = m.outcome()
        assert g["size"] == 5 and res["scores"] == g["outcome"]["scores"]
        assert g["figures"]["ended"] == res["ended"] and g["figures"]["suicidal"][g["seats"].index("bot:medium")] == 0
    assert summary["by_seat"]["suicidal"]["bot:medium"] == 0
    text = []
    sp.run(SPEC, ["bot:easy", "bot:easy"], 1, 41, lambda sat: {"size": 5, "seats": sat}, False, text.append)
    assert len(text) == 2 and "(red)" in text[0] and "wins" in text[-1]


def test_suicidal_moves_are_counted_per_seat():
    """The selfplay figure recounted: every placement of the random seat checked with ``is_suicidal``."""
    m, suicidal = play(["random", "easy"], 12, 5)
    count = [0, 0]
    for k, e in enumerate(m.log):
        s, a = m.states[k], e["a"]
        count[e["p"]] += s.phase == "play" and a["t"] == "place" and is_suicidal(s, (a["q"], a["r"]))
    assert suicidal == count and count[0] > 0


def test_bench_playout_rate_reports_numbers():
    rate, mean, games = bench.playout_rate(5, seconds=0.05)
    assert rate > 0 and mean > 0 and games >= 1
