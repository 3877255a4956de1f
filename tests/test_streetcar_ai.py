"""Streetcar's hard bot (games/streetcar/ai.py): its tile search weighs more plays than it can afford
only within its CPU budget (an injected clock runs it out; the answer is still a legal play), and it
keeps the route it plans growing: after each of its tile plays the cheapest plan left is no dearer."""
from __future__ import annotations

from games.streetcar import ai
from games.streetcar.ai import StreetcarBot, plan_route
from games.streetcar.rules import StreetcarRules
from bot_games import streetcar as play_game

R = StreetcarRules()


def building_states(seed: int):
    m, _ = play_game(["bot:medium", "bot:medium"], seed, check=False)
    return [s for s in m.states if s.phase == "play" and not s.pending and not s.seats[s.turn].driving
            and R.legal_actions(s, s.turn)]


def test_the_budget_cuts_the_tile_search_with_a_legal_play():
    ticks = []

    def racing() -> float:       # every reading a second later: the budget runs out after one option
        ticks.append(1)
        return float(len(ticks))

    cut = 0
    for s in building_states(5)[4:40:3]:
        me = s.turn
        bot = StreetcarBot("hard", 1, clock=racing)
        a = bot.select_action(R, s, me)
        R.check(s, me, a)
        cut += bot.cut
    assert cut >= 3
    assert ai.THINK_BUDGET <= 1.0


def test_hard_tile_plays_never_make_its_plan_dearer():
    checked = 0
    for s in building_states(8)[2:60:4]:
        me = s.turn
        if R.can_start(s, me):
            continue
        st = s.seats[me]
        before = plan_route(s.board, st.line, st.stops, [t for h in R.sources(s, me) for t in s.seats[h].hand])
        if before is None:
            continue
        a = StreetcarBot("hard", 1, clock=lambda: 0.0).select_action(R, s, me)
        if a["t"] != "tile":
            continue
        after, _ev = R.apply(s, me, a)
        # the tile on the board: the plan's squares to fill can only have become fewer or as many
        p2 = plan_route(after.board, st.line, st.stops, [])
        p1 = plan_route(s.board, st.line, st.stops, [])
        assert p2 is not None and p1 is not None and p2.cost <= p1.cost
        checked += 1
    assert checked >= 5
