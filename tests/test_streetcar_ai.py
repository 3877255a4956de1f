"""Streetcar's hard bot (games/streetcar/ai.py): its tile search weighs more plays than it can afford
only within its CPU budget (an injected clock runs it out; the answer is still a legal play), and it
keeps the route it plans growing: after each of its tile plays the cheapest plan left is no dearer. It
guesses a builder's hidden cards from the track laid, lays a tile that costs it nothing in the way of
that route, and shortens a complete route before its trip when a turn's tiles pay for the wait."""
from __future__ import annotations

from dataclasses import replace

from games.streetcar import ai
from games.streetcar.ai import StreetcarBot, plan_route
from games.streetcar.data import stops_of
from games.streetcar.route import route_length
from games.streetcar.rules import Seat, StreetcarRules
from games.streetcar.tiles import NEIGH, ORIENTS, Board, pair_bit
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


def _lay(board: Board, steps, skip=()) -> Board:
    """``board`` with the planned ``steps`` laid (the fewest-track tile that carries each square's
    tracks), but for the squares in ``skip``."""
    want: dict[int, int] = {}
    for c, e, t, _kind in steps:
        want[c] = want.get(c, 0) | pair_bit(e, t)
    for c, w in want.items():
        if c not in skip:
            _n, tile, r = min((bin(m).count("1"), tile, r) for tile in range(12) for r, m in ORIENTS[tile] if m & w == w)
            board = board.put(c, tile, r)
    return board


def blocking_position():
    """Seat 0 (line 1, card B1) has laid its route but for one curve, and holds only a straight and a
    crossing, which fit none of it. Seat 1 (line 4, card B3, hidden from seat 0) has laid the first
    squares of its route but for one bend. Seat 0 plays the second tile of its turn."""
    mine, theirs = stops_of("B1", 1), stops_of("B3", 4)
    board = Board()
    pm = plan_route(board, 1, mine)
    bend = [c for c, e, t, _k in pm.steps if (e - t) % 2]
    board = _lay(board, pm.steps, skip={bend[len(bend) // 2]})
    po = plan_route(board, 4, theirs)
    steps = []
    for st in po.steps:
        if st[3] != "place" or any(n in pm.cells for n in NEIGH[st[0]]):
            break
        steps.append(st)
    steps = steps[:12]
    gap = next(c for c, e, t, _k in steps[2:-2] if (e - t) % 2)
    board = _lay(board, steps, skip={gap})
    assert not board.all_defects()
    seats = (Seat(line=1, card="B1", stops=mine, hand=(0, 9)),
             Seat(line=4, card="B3", stops=theirs, hand=(0, 0, 1, 1, 2)))
    s = R.initial_state({"players": 2})
    return replace(s, board=board, seats=seats, phase="play", dealt=2, turn=0, played=1, lines_left=(),
                   cards_left=())


def test_guesses_of_hidden_cards_name_the_route_being_laid():
    s = blocking_position()
    seen = R.observe(s, 0)
    assert seen.seats[1].line == 0 and seen.seats[1].stops == ""
    guesses = ai.route_guesses(seen, 0)
    assert (guesses[0][0], guesses[0][1]) == (4, stops_of("B3", 4))
    assert guesses[0][2] >= ai.BLOCK_EVIDENCE
    assert all((line, card) != (1, stops_of("B1", 1)) for line, card, _ in guesses)


def test_hard_lays_a_free_tile_in_the_way_of_an_obvious_route(monkeypatch):
    s = blocking_position()

    def costs(a):
        R.check(s, 0, a)
        after, _ev = R.apply(s, 0, a)
        me, them = after.seats
        return (plan_route(after.board, me.line, me.stops, me.hand).cost,
                plan_route(after.board, them.line, them.stops, them.hand).cost)

    blocking = StreetcarBot("hard", 1, clock=lambda: 0.0).select_action(R, s, 0)
    monkeypatch.setattr(ai, "BLOCK_EVIDENCE", 10 ** 9)      # no route is ever obvious
    plain = StreetcarBot("hard", 1, clock=lambda: 0.0).select_action(R, s, 0)
    them = s.seats[1]
    before = plan_route(s.board, them.line, them.stops, them.hand).cost
    mine_b, theirs_b = costs(blocking)
    mine_p, theirs_p = costs(plain)
    assert theirs_p == before                     # the harmless play is out of everyone's way
    assert theirs_b > before                      # the chosen play makes the other route dearer
    assert mine_b <= mine_p + ai.BLOCK_SLACK      # at (almost) no cost to its own


def test_hard_shortens_a_complete_route_before_its_trip_when_a_turn_pays():
    m, _ = play_game(["bot:medium", "bot:medium"], 11, check=False)
    waited = 0
    for s in m.states:
        if s.phase != "play" or s.played or not R.can_start(s, s.turn):
            continue
        me = s.turn
        st = s.seats[me]
        bot = StreetcarBot("hard", 1, clock=lambda: 0.0)
        a = bot.select_action(R, s, me)
        if a["t"] == "start":
            continue
        n = s
        while a["t"] == "tile" and n.turn == me and n.phase == "play":
            n, _ev = R.apply(n, me, a)
            if n.phase != "play" or n.turn != me:
                break
            a = bot.select_action(R, n, me)
        assert R.route_complete(n, me)
        length = [min(route_length(b, st.line, e, st.stops) for e in (0, 1)) for b in (s.board, n.board)]
        assert length[1] < length[0]
        waited += 1
    assert waited >= 1
