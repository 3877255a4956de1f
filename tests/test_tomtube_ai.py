"""Tom Tube's search bots (games/tomtube/ai.py, levels medium and hard): they take a solar counter that
a move reaches (the second one too), never make a move that strands their astronaut, leave home before
the board fills and do not loop, hard heads home along the tubes once both solar counters are in and
weighs its chance of winning only while the board is open, values each choice after the other
astronaut's best move, sets out after drawing turn after turn and counts the counters it holds above
their points, and plays the moves that get it ahead while the other sits at home near the end;
they answer within their CPU budget when an injected clock runs it out and decide from what their seat
may see (the order of the face-down rhombs is not part of it); against an opponent who built first
hard plays the race alone; in the bonus phase every level exchanges an alien counter that opens the
way home. Positions come from seeded games of the easy bot against a random mover, and one bonus
phase from a hard-vs-easy game."""
from __future__ import annotations

import dataclasses
import random

import pytest

from games.tomtube import SPEC
from games.tomtube import ai
from games.tomtube.ai import SearchBot, make_agent
from games.tomtube.data import BASES, SOLARS
from games.tomtube.moves import can_reach_home
from games.tomtube.rules import build_state
from sim.core.match import Match
from sim.core.rules import CHANCE

R = SPEC.make_rules()


def still() -> float:
    """A clock that never moves: the budget never cuts a decision short."""
    return 0.0


def positions(seeds=range(1, 12)):
    """Every (state, player to act) at the start of a turn in games of easy (Tom) against random."""
    for seed in seeds:
        m = Match(R, {"first": 0}, seed)
        bots = [make_agent("easy", seed), make_agent("random", seed + 50)]
        while not m.is_over():
            p = m.active_players()[0]
            s = m.state
            if s.phase == "turn":
                yield s, p
            m.submit(p, bots[p].select_action(R, s, p))


@pytest.fixture(scope="module")
def solar_positions():
    out = []
    for s, p in positions(range(1, 10)):
        if any(a["t"] == "move" and a["to"] in SOLARS[p] and a["to"] in s.solar_left
               for a in R.legal_actions(s, p)):
            out.append((s, p))
    assert len(out) >= 5
    return out


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_solar_counter_in_reach_is_taken(solar_positions, level):
    for s, p in solar_positions:
        a = make_agent(level, 3, clock=still).select_action(R, s, p)
        assert a["t"] == "move" and a["to"] in SOLARS[p], (s.turns, a)
        after, ev = R.apply(s, p, a)
        assert after.supply[p][3] == s.supply[p][3] + 1


def test_a_stranding_move_is_never_made():
    found = 0
    for s, p in positions(range(1, 12)):
        acts = R.legal_actions(s, p)
        bad = [a for a in acts if a["t"] == "move" and R.apply(s, p, a)[0].stranded[p]]
        if not bad or len(bad) == len(acts):
            continue
        found += 1
        for level in ("medium", "hard"):
            a = make_agent(level, 5, clock=still).select_action(R, s, p)
            assert a not in bad and not R.apply(s, p, a)[0].stranded[p]
    assert found >= 1


def test_the_budget_cuts_the_search_short_with_a_legal_answer():
    s, p = next((s, p) for s, p in positions([3]) if s.turns >= 20 and R.placeable(s) and p == 0)
    calm = make_agent("hard", 1, clock=still)
    calm.select_action(R, s, p)
    assert not calm.cut
    ticks = []

    def racing() -> float:       # every reading half a second later: the budget runs out at once
        ticks.append(1)
        return 0.5 * len(ticks)

    hurried = make_agent("hard", 1, clock=racing)
    a = hurried.select_action(R, s, p)
    assert hurried.cut and a in R.legal_actions(s, p)
    assert len(ticks) <= 3 + ai.LEVELS["hard"].budget / 0.5     # it stopped once the budget was spent
    assert ai.THINK_BUDGET["medium"] < ai.THINK_BUDGET["hard"] <= 1.0


def test_the_order_of_the_face_down_rhombs_changes_nothing_and_observe_is_used():
    seen = []

    class Watched(type(R)):
        def observe(self, s, seat):
            seen.append(seat)
            return super().observe(s, seat)

    rules = Watched()
    for k, (s, p) in enumerate(positions([4])):
        if k % 7 or not R.placeable(s):
            continue
        shuffled = dataclasses.replace(s, stack=tuple(reversed(s.stack)))
        a = make_agent("hard", 2, clock=still).select_action(rules, s, p)
        b = make_agent("hard", 2, clock=still).select_action(rules, shuffled, p)
        assert a == b
        assert seen[-2:] == [p, p]


def test_levels_and_the_old_name():
    assert isinstance(make_agent("medium"), SearchBot) and isinstance(make_agent("hard"), SearchBot)
    assert type(make_agent("bot")) is type(make_agent("easy")) is ai.RouteBot
    with pytest.raises(KeyError, match="unknown player"):
        make_agent("expert")


@pytest.fixture(scope="module")
def second_solar_positions():
    """Positions where the astronaut to act holds one solar counter and a move reaches the other."""
    out = [(s, p) for s, p in positions(range(1, 14)) if s.supply[p][3] == 1
           and any(a["t"] == "move" and a["to"] in SOLARS[p] and a["to"] in s.solar_left
                   for a in R.legal_actions(s, p))]
    assert len(out) >= 3
    return out


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_second_solar_counter_in_reach_is_taken(second_solar_positions, level):
    for s, p in second_solar_positions:
        a = make_agent(level, 4, clock=still).select_action(R, s, p)
        assert a["t"] == "move" and a["to"] in SOLARS[p] and a["to"] in s.solar_left, (s.turns, a)


def test_search_bots_leave_home_before_the_board_fills_and_never_loop():
    """Two medium bots (the hard level's search, narrower): each astronaut leaves his base while
    rhombs can still be placed (sitting at home until the board is full ends the game with no solar
    counter), some solar counter is fetched, and the game ends long before the turn limit (no two
    spheres swapped back and forth)."""
    for seed in (2, 5):
        m = Match(R, {"first": seed % 2}, seed)
        bots = [make_agent("medium", seed, clock=still), make_agent("medium", seed + 1, clock=still)]
        left_home = [None, None]
        while not m.is_over():
            p = m.active_players()[0]
            s = m.state
            for q in (0, 1):
                if left_home[q] is None and s.at[q] != BASES[q]:
                    left_home[q] = R.placeable(s)
            m.submit(p, bots[p].select_action(R, s, p))
        res = R.outcome(m.state)
        assert left_home == [True, True], (seed, left_home)
        assert res["end"] != "turn_limit" and res["turns"] < 150, (seed, res)
        assert sum(b["solar"] for b in res["breakdown"]) >= 1, (seed, res)


def test_hard_heads_home_along_the_tubes_once_both_solar_counters_are_in():
    """With both solar counters on his base and the way home there on the board, every turn out is one
    in which a rhomb of the other may cut it: hard moves nearer home along it instead of drawing."""
    found = 0
    for s, p in positions(range(1, 14)):
        if s.supply[p][3] != 2 or s.at[p] == BASES[p] or not R.placeable(s):
            continue
        now = ai.static_tour(s, p)
        if now is None or now >= 3 * ai.LEG_CAP:
            continue
        found += 1
        a = make_agent("hard", 6, clock=still).select_action(R, s, p)
        assert a["t"] == "move", (s.turns, a)
        after = R.apply(s, p, a)[0]
        assert after.at[p] == BASES[p] or ai.static_tour(after, p) < now, (s.turns, a)
    assert found >= 3


def test_hard_values_each_choice_after_the_other_astronauts_best_move():
    """Hard looks one move of the other astronaut ahead (``Level.replies``): a position that its choice
    leaves with him to move is worth to hard what it is worth after his best move (the lowest value over
    his moves, never more than the position itself), and a move of his that fetches something lowers
    it; medium values the position as it stands."""
    assert ai.LEVELS["hard"].replies and not ai.LEVELS["medium"].replies
    hard, medium = make_agent("hard", 3, clock=still), make_agent("medium", 3, clock=still)
    lowered = 0
    for s, q in positions(range(1, 4)):
        me = 1 - q                          # hard's choice has just been made: the other is to move
        v = hard._eval(R, s, me)
        worst = min([v] + [hard._eval(R, R.apply(s, q, a)[0], me)
                           for a in R.legal_actions(s, q) if a["t"] == "move"])
        assert hard._reply(R, s, me, v) == pytest.approx(worst), s.turns
        assert medium._reply(R, s, me, v) == v
        lowered += worst < v - 1.0
    assert lowered >= 5


def test_hard_that_has_drawn_turn_after_turn_sets_out():
    """Each own turn in a row spent drawing beyond ``STALL_FREE`` counts ``Level.stall`` points against
    drawing (two hard bots otherwise kept drawing while each blocked what the other built): where a hard
    bot fresh to the position draws, the same bot after 20 draws in a row moves in some positions; the
    count grows with each draw and starts again after a move."""
    assert ai.LEVELS["hard"].stall > 0 and ai.LEVELS["medium"].stall == 0
    switched = 0
    for s, p in positions(range(1, 4)):
        if s.turns % 3 or s.at[p] == BASES[p]:
            continue
        fresh = make_agent("hard", 1, clock=still)
        if fresh.select_action(R, s, p)["t"] != "draw":
            continue
        assert fresh._draws == 1
        tired = make_agent("hard", 1, clock=still)
        tired._draws = 20
        a = tired.select_action(R, s, p)
        assert tired._draws == (21 if a["t"] == "draw" else 0)
        if a["t"] == "move":
            switched += 1
            if switched >= 3:
                break
    assert switched >= 3


def test_hard_values_the_point_that_breaks_a_lost_tie_above_its_face_value():
    """With the other astronaut home first, level points lose the game (a tie goes to the one home
    first, A17): to hard, while the win chance counts (``win_left`` placements or more left), one point
    more is worth several, since it turns the result; a point on top of a lead of four is worth less
    than that one."""
    found = 0
    lo = ai.LEVELS["hard"].win_left
    for s, p in positions(range(1, 8)):
        q = 1 - p
        if s.at[p] == BASES[p] or s.at[p] == BASES[q] or not lo <= ai.placements_left(s) <= lo + 8:
            continue
        sp = s.supply[p]
        # no solar counter or counter left to fetch: the points on the bases are the whole margin
        level = dataclasses.replace(s, at=tuple(BASES[q] if i == q else s.at[p] for i in (0, 1)),
                                    home_since=tuple(s.turns - 1 if i == q else None for i in (0, 1)),
                                    supply=(sp, sp), solar_left=frozenset(), counters={})
        if not can_reach_home(level.board, level.at[p], p, *sp[:3], {}):
            continue
        found += 1
        bot = make_agent("hard", 1, clock=still)

        def plus(x, n):
            e, c, a, so = x.supply[p]
            sup = tuple((e + n, c, a, so) if i == p else x.supply[i] for i in (0, 1))
            return dataclasses.replace(x, supply=sup)

        bot.select_action(R, level, p)      # a decision in this position sets what counts
        gain = bot._eval(R, plus(level, 1), p) - bot._eval(R, level, p)
        assert gain > 3.0, (s.turns, gain)
        assert bot._eval(R, plus(level, 5), p) - bot._eval(R, plus(level, 4), p) < gain
    assert found >= 3


def test_hard_weighs_the_win_chance_only_while_the_board_is_open():
    """Hard's decisions value positions with the win chance while ``win_left`` placements or more are
    left and by the race alone after that (counted to the end, the win chance kept both astronauts at
    home while the board filled); medium never weighs it."""
    lv = ai.LEVELS["hard"]
    assert lv.win_weight > 0 and lv.win_left > 0
    seen = {True: 0, False: 0}
    for s, p in positions(range(1, 6)):
        left = ai.placements_left(s)
        if left == 0 or s.bonus_for is not None:
            continue
        early = left >= lv.win_left
        if seen[early] >= 3:
            continue
        bot = make_agent("hard", 2, clock=still)
        bot.select_action(R, s, p)
        o = R.observe(s, p)
        race = dict(strand_risk=lv.strand_risk, risk_horizon=lv.risk_horizon, tour_weight=lv.tour_weight,
                    held=lv.held)
        with_win = ai.race_value(R, o, p, win_weight=lv.win_weight, **race)
        without = ai.race_value(R, o, p, **race)
        assert bot._eval(R, o, p) == pytest.approx(with_win if early else without), (s.turns, left)
        if with_win != pytest.approx(without):
            seen[early] += 1
        med = make_agent("medium", 2, clock=still)
        med.select_action(R, s, p)
        assert med._eval(R, o, p) == pytest.approx(ai.race_value(R, o, p))
    assert seen == {True: 3, False: 3}


def test_hard_counts_the_counters_it_holds_above_their_points():
    """Hard weighs each energy, control and alien counter on an astronaut's base at ``Level.held``
    times its points on top of them (a counter spent on a space jump or a paid drift looked cheap next
    to the turn it saves, and bonus races were lost on counters): to hard one more counter held is
    worth that much more than to the same value without it, and where the two choose differently hard
    fetches a counter."""
    lv = ai.LEVELS["hard"]
    assert lv.held > 0 and ai.LEVELS["medium"].held == 0
    race = dict(strand_risk=lv.strand_risk, risk_horizon=lv.risk_horizon, tour_weight=lv.tour_weight)
    fetched = 0
    for s, p in positions(range(2, 4)):
        if s.bonus_for is not None:         # the bonus phase is valued as the end of the game
            continue
        e, c, a, so = s.supply[p]
        more = dataclasses.replace(s, supply=tuple((e, c + 1, a, so) if i == p else s.supply[i]
                                                   for i in (0, 1)))
        with_held = (ai.race_value(R, more, p, held=lv.held, **race)
                     - ai.race_value(R, s, p, held=lv.held, **race))
        without = ai.race_value(R, more, p, **race) - ai.race_value(R, s, p, **race)
        assert with_held - without == pytest.approx(lv.held * ai.POINTS["control"]), s.turns
        if not any(m["t"] == "move" and m["to"] in s.counters for m in R.legal_actions(s, p)):
            continue
        hard = make_agent("hard", 1, clock=still)
        plain = make_agent("hard", 1, clock=still)
        plain.level = dataclasses.replace(lv, held=0.0)
        x, y = hard.select_action(R, s, p), plain.select_action(R, s, p)
        if x != y:
            assert x["t"] == "move" and x["to"] in s.counters, (s.turns, x, y)
            fetched += 1
    assert fetched >= 2


def test_hard_times_the_way_home_by_the_tubes_there_as_placing_ends():
    """With both solar counters in and fewer than ``Level.home_tubes`` placements left, the turns home
    lean toward the exact way over the tubes already on the board (the route graph counts on tubes that
    few rhombs are left to bring, and hard lost bonus races it thought won): measured against the turns
    easy's astronaut then really took to get home, in games against random, the estimate hard uses errs
    less than the route graph's alone, and medium keeps the route graph's."""
    lv = ai.LEVELS["hard"]
    assert lv.home_tubes > 0 and ai.LEVELS["medium"].home_tubes == 0
    err_route = err_hard = 0.0
    n = 0
    for seed in range(1, 16):
        m = Match(R, {"first": 0}, seed)
        bots = [make_agent("easy", seed), make_agent("random", seed + 50)]
        own, seen = 0, []
        while not m.is_over():
            p = m.active_players()[0]
            s = m.state
            if s.phase == "turn" and p == 0:
                own += 1
                if (s.bonus_for is None and not ai.targets(s, 0) and s.at[0] != BASES[0]
                        and 0 < ai.placements_left(s) < lv.home_tubes):
                    seen.append((own, ai.tour_times(s, 0)[1], ai.tour_times(s, 0, lv.home_tubes)[1]))
            m.submit(p, bots[p].select_action(R, s, p))
            if seen and m.state.at[0] == BASES[0]:
                for t, route, hard in seen:
                    took = own - t + 1
                    err_route += abs(route - took)
                    err_hard += abs(hard - took)
                    n += 1
                seen = []
    assert n >= 10
    assert err_hard < 0.75 * err_route, (err_hard / n, err_route / n)


class Builder:
    """Draws whenever it may and places like easy: its astronaut stays at home while it builds."""

    def __init__(self, seed: int):
        self.easy = make_agent("easy", seed)

    def select_action(self, rules, s, p):
        if s.phase == "turn" and any(a["t"] == "draw" for a in rules.legal_actions(s, p)):
            return {"t": "draw"}
        return self.easy.select_action(rules, s, p)


@pytest.mark.parametrize("other", ["easy", "builder"])
def test_hard_plays_the_race_alone_against_an_opponent_who_built_first(other):
    """Against an opponent whose astronaut is still at home after the opening turns, hard values
    positions by the race alone (no win chance, no weight for being home first) and counts
    ``home_missing`` points against an astronaut sitting at home per solar counter to fetch; against one
    who left at once (easy) it keeps its usual weights. A bot that first sees a game after the opening
    keeps them too."""
    lv = ai.LEVELS["hard"]
    assert lv.builder_race and lv.home_missing > 0
    m = Match(R, {"first": 0}, 5)
    hard = make_agent("hard", 5, clock=still)
    opp = Builder(6) if other == "builder" else make_agent("easy", 6)
    bots = [hard, opp]
    checked = 0
    while not m.is_over() and checked < 4:
        p = m.active_players()[0]
        s = m.state
        a = bots[p].select_action(R, s, p)
        if p == 0 and s.phase == "turn" and s.turns > ai.OPENING_TURNS:
            assert hard._built is (other == "builder")
            o = R.observe(s, 0)
            race = dict(strand_risk=lv.strand_risk, risk_horizon=lv.risk_horizon, tour_weight=lv.tour_weight)
            if other == "builder":
                assert s.at[1] == BASES[1]
                want = ai.race_value(R, o, 0, home_weight=0.0, home_missing=lv.home_missing, **race)
                plain = ai.race_value(R, o, 0, home_weight=0.0, **race)
                # the opponent sits at home with his solar counters to fetch: points for hard
                mine = len(ai.tour_times(o, 0)[0]) if s.at[0] == BASES[0] else 0
                theirs = len(ai.tour_times(o, 1)[0])
                assert theirs > 0
                assert want - plain == pytest.approx(lv.home_missing * (theirs - mine))
            else:
                w = lv.win_weight if ai.placements_left(o) >= lv.win_left else 0.0
                want = ai.race_value(R, o, 0, win_weight=w, **race)
            assert hard._eval(R, o, 0) == pytest.approx(want)
            checked += 1
        m.submit(p, a)
    assert checked == 4
    s = m.state
    # an undo keeps the judgement; a new game (the opening again) judges afresh
    hard._opening(dataclasses.replace(s, turns=s.turns - 2), 0)
    assert hard._built is (other == "builder")
    hard._opening(dataclasses.replace(s, turns=0, at=(BASES[0], BASES[1])), 0)
    assert hard._built is None
    fresh = make_agent("hard", 7, clock=still)
    fresh._opening(s, 0)
    assert fresh._built is False


def test_the_way_home_is_still_found_when_the_exact_count_grows_too_large(monkeypatch):
    """``static_tour`` under a search cap too small for the counters on the board falls back to a way
    that leaves them where they lie: one that exists (never cheaper than the exact count), so hard with
    both solar counters still heads home along it rather than back and forth."""
    monkeypatch.setattr(ai, "STATIC_CAP", 60)
    found = fell_back = moved = 0
    for s, p in positions(range(1, 14)):
        if s.supply[p][3] != 2 or s.at[p] == BASES[p] or not s.counters:
            continue
        exact = ai.static_tour(s, p, cap=10 ** 6)
        small = ai.static_tour(s, p)
        if small is None:
            continue
        found += 1
        assert small >= exact, (s.turns, small, exact)
        if ai._static_search(s, p, (), 60, True) is None:
            fell_back += 1
            assert small == ai._static_search(s, p, (), 10 ** 6, False)
        if small < 3 * ai.LEG_CAP and R.placeable(s):
            moved += 1
            a = make_agent("hard", 6, clock=still).select_action(R, s, p)
            assert a["t"] == "move", (s.turns, a)
            after = R.apply(s, p, a)[0]
            assert after.at[p] == BASES[p] or ai.static_tour(after, p) < small, (s.turns, a)
    assert found >= 3 and fell_back >= 1 and moved >= 1, (found, fell_back, moved)


#: A bonus phase from a hard-vs-easy game (seed 4014): Tom is home with both solar counters; Dave, on
#: 3,-1 with only an alien counter, gets home by exchanging it (a control and two energy counters).
#: Easy drifted between 3,-1 and 4,-1 until the 300-turn limit instead (the exchange lost a point).
ALIEN_HOME = dict(
    rhombs=[(24, "R25", 0), (25, "R03", 0), (8, "R27", 0), (88, "R12", 0), (101, "R20", 0), (67, "R30", 1),
            (105, "R17", 1), (50, "R07", 1), (18, "R37", 0), (75, "R33", 1), (74, "R32", 1), (100, "R04", 0),
            (90, "R26", 0), (58, "R09", 1), (83, "R29", 0), (95, "R28", 0), (39, "R05", 0), (70, "R40", 0),
            (42, "R14", 1), (32, "R11", 0), (21, "R16", 0), (41, "R34", 0), (5, "R38", 0), (48, "R35", 1),
            (45, "R24", 1), (64, "R36", 0), (14, "R31", 1)],
    pieces=[(35, 0, "plain", 0), (19, 0, "plain", 0), (47, 1, "plain", 0), (16, 0, "arc", 2)],
    at=("TOM_BASE", "3,-1"), supply=((1, 0, 0, 2), (0, 0, 1, 1)),
    counters={"c24": "energy", "c18": "energy", "c58": "energy", "1,0": "control", "-1,2": "control",
              "c64": "energy", "c14": "energy"},
    solar_left=["DAVE_SOLAR_LL"], turn=1, bonus_for=0)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_in_the_bonus_phase_an_alien_counter_is_exchanged_for_the_way_home(level):
    """In the bonus phase the slower astronaut may only move or exchange, so the exchange need only open
    a better move than the others (no rhomb to draw is weighed against it): each level exchanges here
    and the game ends within a few turns. Medium and hard come home; easy, whose defeat is sure either
    way, may end it by stranding itself (it does not weigh being lost beyond the points)."""
    s = build_state(R, **ALIEN_HOME)
    assert s.bonus_for == 0 and s.turn == 1 and R.can_exchange(s, 1)
    bot = make_agent(level, 5, clock=still)
    actions = []
    for _ in range(12):
        if s.phase == "over":
            break
        actions.append(bot.select_action(R, s, 1))
        s, _ev = R.apply(s, 1, actions[-1])
    assert actions[0] == {"t": "exchange"} and s.phase == "over", (level, actions)
    assert s.end == ("stranded" if level == "easy" else "bonus"), (level, actions, s.end)


#: Two full boards from hard-vs-easy games (seeds 6007 and 6015; hard is Dave, to act), where no rhomb
#: can be drawn any more. In the first both hold a solar and an energy counter: hard, chasing its
#: second solar counter, spent its energy on a jump and lost 5-6. In the second both hold both solar
#: counters and easy an energy counter too: going home now ends the game without bonus, 10-11, so
#: hard wandered until easy came home (10-10, easy home first).
FULL_BOARD_TIE = dict(
    rhombs=[(6, "R12", 1), (79, "R14", 1), (23, "R40", 0), (46, "R23", 1), (50, "R32", 1),
            (44, "R25", 1), (66, "R11", 0), (74, "R36", 0), (84, "R08", 1), (21, "R33", 1),
            (54, "R37", 0), (8, "R21", 1), (30, "R26", 0), (100, "R31", 1), (60, "R03", 0),
            (2, "R34", 0), (98, "R16", 0), (42, "R05", 0), (89, "R06", 0), (39, "R19", 0),
            (52, "R28", 0), (86, "R10", 1), (95, "R15", 1), (105, "R24", 0), (82, "R02", 0),
            (75, "R30", 1), (31, "R13", 1), (69, "R20", 1), (0, "R22", 1), (15, "R17", 0),
            (59, "R29", 1), (13, "R07", 1)],
    pieces=[(1, 0, "plain", 0), (74, 0, "plain", 0), (63, 1, "plain", 0), (54, 1, "plain", 0),
            (23, 1, "plain", 0), (9, 1, "arc", 0), (60, 1, "arc", 0), (57, 1, "arc", 0),
            (51, 1, "Y", 0), (15, 0, "plain", 0), (17, 1, "Y", 0), (5, 1, "Y", 0), (11, 0, "arc", 0),
            (43, 0, "Y", 0)],
    at=("c100", "3,-1"), supply=((1, 0, 0, 1), (1, 0, 0, 1)),
    counters={"c46": "energy", "c74": "energy", "c54": "energy", "c8": "energy", "c39": "energy",
              "0,-2": "alien", "-3,1": "control", "c13": "energy"},
    solar_left=["DAVE_SOLAR_UR", "TOM_SOLAR_LR"], turn=1,
    stack=["R01", "R04", "R09", "R18", "R27", "R35", "R38", "R39"])


FULL_BOARD_WAIT = dict(
    rhombs=[(8, "R02", 1), (23, "R39", 1), (63, "R31", 0), (46, "R15", 1), (81, "R01", 1),
            (21, "R34", 1), (50, "R32", 1), (17, "R26", 1), (39, "R37", 0), (95, "R13", 1),
            (80, "R25", 1), (32, "R40", 0), (13, "R07", 1), (105, "R10", 1), (4, "R04", 0),
            (0, "R24", 0), (99, "R18", 0), (62, "R30", 0), (84, "R33", 1), (97, "R35", 0),
            (102, "R11", 0), (91, "R19", 1), (86, "R29", 0), (90, "R38", 1), (75, "R12", 1),
            (70, "R17", 1), (52, "R21", 1), (47, "R23", 1), (58, "R03", 1), (31, "R16", 1),
            (68, "R09", 0), (42, "R27", 0), (44, "R05", 1)],
    pieces=[(1, 0, "plain", 0), (57, 1, "arc", 1), (13, 1, "plain", 0), (55, 1, "plain", 0),
            (41, 1, "arc", 0), (39, 0, "plain", 0), (11, 0, "plain", 0), (63, 1, "plain", 0),
            (49, 0, "arc", 2), (43, 1, "Y", 0), (47, 0, "arc", 1), (30, 0, "arc", 2)],
    at=("3,1", "3,0"), supply=((1, 0, 0, 2), (0, 1, 0, 2)),
    counters={"c39": "energy", "c80": "energy", "c13": "energy", "c91": "energy", "3,-1": "control",
              "c52": "energy", "c47": "energy", "0,2": "control", "c68": "energy", "-2,2": "control"},
    solar_left=[], turn=1,
    stack=["R06", "R08", "R14", "R20", "R22", "R28", "R36"])


@pytest.mark.parametrize("position", [FULL_BOARD_TIE, FULL_BOARD_WAIT], ids=["tie", "wait"])
def test_on_a_full_board_hard_searches_both_astronauts_moves_and_beats_easy(position):
    """With no rhomb left to draw the game holds no chance: hard searches both astronauts' moves
    (``Level.endgame``) and wins both positions against easy, which it lost deciding one move ahead."""
    s = build_state(R, **position)
    assert not R.placeable(s) and s.bonus_for is None and s.turn == 1
    bots = [make_agent("easy", 5), make_agent("hard", 7, clock=still)]
    for _ in range(100):
        if s.phase == "over":
            break
        p = R.active_players(s)[0]
        s, _ev = R.apply(s, p, bots[p].select_action(R, s, p))
    assert s.phase == "over" and R.winner(s) == 1, (R.outcome(s)["scores"], s.end)
    assert ai.LEVELS["hard"].endgame > 0 and ai.LEVELS["medium"].endgame == 0


#: Positions of hard-vs-easy games (hard to move) in which easy sat at home, level on points in the first
#: two (a tie is his: home first) and a point ahead in the third, 4 or 5 placements before the board was
#: full; hard drew rhombs to shorten a tour it could no longer finish, and lost.
HOME_TIE_1 = dict(
    rhombs=[(7, "R08", 0), (20, "R36", 1), (17, "R24", 0), (24, "R27", 0), (71, "R34", 1), (35, "R04", 0),
            (40, "R28", 0), (63, "R15", 0), (93, "R31", 0), (88, "R01", 1), (76, "R40", 0), (50, "R32", 1),
            (64, "R21", 0), (100, "R13", 0), (57, "R07", 0), (101, "R22", 1), (90, "R02", 1), (97, "R12", 1),
            (4, "R10", 1), (48, "R09", 1), (105, "R03", 1), (83, "R18", 0), (29, "R37", 1), (54, "R33", 0),
            (22, "R30", 0), (55, "R38", 1), (25, "R19", 0), (67, "R25", 1), (0, "R35", 0)],
    pieces=[(68, 0, "plain", 0), (35, 0, "plain", 0), (48, 1, "plain", 0), (64, 1, "plain", 0),
            (60, 1, "arc", 2), (52, 0, "plain", 0), (8, 1, "plain", 0), (45, 1, "arc", 0), (72, 0, "Y", 0),
            (11, 1, "arc", 0), (39, 1, "Y", 0)],
    at=("TOM_BASE", "2,0"), supply=((1, 0, 0, 0), (1, 0, 0, 0)),
    counters={"c20": "energy", "c93": "energy", "c50": "energy", "c57": "energy", "c48": "energy",
              "2,1": "control", "c29": "energy", "-2,2": "control", "c25": "energy", "c67": "energy"},
    solar_left=["DAVE_SOLAR_LL", "DAVE_SOLAR_UR", "TOM_SOLAR_LR", "TOM_SOLAR_UL"], turn=1,
    stack=["R05", "R06", "R11", "R14", "R16", "R17", "R20", "R23", "R26", "R29", "R39"])

HOME_TIE_2 = dict(
    rhombs=[(25, "R06", 0), (67, "R18", 0), (6, "R04", 1), (12, "R28", 1), (45, "R17", 1), (70, "R19", 0),
            (93, "R10", 1), (65, "R36", 1), (84, "R21", 1), (86, "R29", 1), (48, "R30", 1), (3, "R24", 0),
            (27, "R01", 0), (53, "R08", 1), (8, "R38", 1), (28, "R11", 0), (62, "R20", 0), (97, "R05", 1),
            (21, "R34", 0), (105, "R35", 0), (34, "R14", 0), (79, "R31", 0), (89, "R23", 0), (101, "R02", 1),
            (100, "R13", 1), (80, "R27", 1), (54, "R39", 0), (76, "R07", 1), (41, "R22", 1), (19, "R26", 1),
            (71, "R03", 0)],
    pieces=[(6, 1, "plain", 0), (74, 1, "plain", 0), (54, 0, "plain", 0), (3, 1, "plain", 0),
            (42, 0, "plain", 0), (29, 1, "arc", 0)],
    at=("c89", "DAVE_BASE"), supply=((1, 0, 0, 1), (1, 0, 0, 1)),
    counters={"c70": "energy", "c65": "energy", "c84": "energy", "c79": "energy", "c76": "energy"},
    solar_left=["DAVE_SOLAR_UR", "TOM_SOLAR_UL"], turn=0,
    stack=["R09", "R12", "R15", "R16", "R25", "R32", "R33", "R37", "R40"])

HOME_AHEAD = dict(
    rhombs=[(8, "R16", 0), (80, "R20", 0), (25, "R29", 0), (45, "R18", 1), (101, "R31", 0), (88, "R23", 1),
            (87, "R15", 1), (67, "R06", 1), (83, "R08", 0), (50, "R33", 1), (64, "R37", 0), (96, "R01", 0),
            (18, "R30", 0), (35, "R36", 0), (79, "R12", 0), (21, "R05", 1), (3, "R39", 1), (49, "R35", 0),
            (41, "R21", 1), (30, "R14", 0), (105, "R40", 1), (100, "R25", 1), (74, "R09", 0), (72, "R38", 0),
            (5, "R28", 0), (33, "R19", 0), (59, "R10", 0), (95, "R03", 0), (12, "R04", 1), (54, "R17", 0),
            (42, "R24", 0)],
    pieces=[(10, 0, "plain", 0), (42, 1, "plain", 0), (75, 0, "plain", 0), (61, 1, "arc", 1),
            (58, 1, "plain", 0), (33, 1, "plain", 0), (51, 0, "plain", 0), (65, 0, "arc", 0)],
    at=("TOM_BASE", "-1,2"), supply=((1, 0, 0, 0), (0, 0, 0, 0)),
    counters={"c101": "energy", "c88": "energy", "c64": "energy", "c35": "energy", "c41": "energy",
              "-2,1": "control", "0,2": "control", "c100": "energy", "c74": "energy", "c33": "energy"},
    solar_left=["DAVE_SOLAR_LL", "DAVE_SOLAR_UR", "TOM_SOLAR_LR", "TOM_SOLAR_UL"], turn=1,
    stack=["R02", "R07", "R11", "R13", "R22", "R26", "R27", "R32", "R34"])


def test_hard_fetches_the_point_it_needs_while_the_other_sits_at_home():
    """The other astronaut at home and not behind, placing nearly over: he draws until the board is
    full and the game ends, so hard plays the moves that get it ahead in time (``Level.chase``) and
    wins every one of the three positions whatever the order of the rhombs drawn; without the chase it
    loses some."""
    assert ai.LEVELS["hard"].chase >= 5 and ai.LEVELS["medium"].chase == 0
    homes = [(HOME_TIE_1, (34, None)), (HOME_TIE_2, (None, 45)), (HOME_AHEAD, (35, None))]
    won = {}
    for chase in (ai.LEVELS["hard"].chase, 0):
        won[chase] = 0
        for position, since in homes:
            s0 = dataclasses.replace(build_state(R, **position), home_since=since)
            me = s0.turn
            assert s0.at[1 - me] == BASES[1 - me] and s0.at[me] != BASES[me]
            assert R.breakdown(s0, me)["total"] <= R.breakdown(s0, 1 - me)["total"]
            for seed in range(2):
                hard = make_agent("hard", 7, clock=still)
                hard.level = dataclasses.replace(hard.level, chase=chase)
                bots = {me: hard, 1 - me: make_agent("easy", 5)}
                rng = random.Random(seed)
                s = s0
                for _ in range(100):
                    if s.phase == "over":
                        break
                    if s.phase == "draw":
                        s = R.apply(s, CHANCE, rng.choice(R.chance_outcomes(s))[0])[0]
                        continue
                    p = R.active_players(s)[0]
                    s = R.apply(s, p, bots[p].select_action(R, s, p))[0]
                assert s.phase == "over"
                won[chase] += R.winner(s) == me
    assert won[ai.LEVELS["hard"].chase] == 2 * len(homes), won
    assert won[0] < 2 * len(homes), won
