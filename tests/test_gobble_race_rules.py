"""Tantrix Gobble race rules (specs/gobble.md "Real-time race"): deal, gobble gifts, the automatic
gift, OUT, stale actions, exact deadlock and its ranking, records with timers."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.gobble.ai import make_race_bot
from games.gobble.board import Board, pattern_fit
from games.gobble.data import TILE_NUMBERS
from games.gobble.race import RaceRules, RaceState, Seat, deal_quota
from sim.ai.realtime import BotTimers, simulate
from sim.core import record
from sim.core.match import Match
from sim.core.rules import CHANCE, CLOCK, IllegalAction

from naive import naive_legal

R = RaceRules()


def new_match(players=4, seed=0, **cfg):
    return Match(R, {"players": players, "seats": ["bot:medium"] * players, **cfg}, seed)


# ------------------------------------------------------------------------------ deal
@pytest.mark.parametrize("players,handicap,expect", [
    (2, None, [27, 27]), (3, None, [18, 18, 18]), (4, None, [13, 13, 13, 13]),
    (5, None, [10] * 5), (6, None, [9] * 6), (3, [3, 0, 0], [20, 17, 17]), (2, [5, 0], [29, 24]),
])
def test_deal(players, handicap, expect):
    cfg = {"handicap": handicap} if handicap else {}
    m = new_match(players, seed=players, **cfg)
    s = m.state
    assert s.phase == "play" and len(s.board) == 2
    assert [len(st.pile) for st in s.seats] == expect
    assert len(s.aside) == 54 - sum(expect)
    assert R.invariants(s) == []
    # the two start tiles match where they touch
    assert s.board.mismatches() == 0
    assert all(st.stack == () and st.out is None for st in s.seats)


def test_bad_configs():
    for cfg in ({"players": 1}, {"players": 7}, {"players": 2, "handicap": [1]},
                {"players": 2, "handicap": [30, 30]}, {"players": 2, "hand": 0},
                {"players": 2, "seats": ["human", "robot"]}, {"colour": 1}):
        with pytest.raises(ValueError):
            R.validate_config(cfg)


# ---------------------------------------------------------------- positions by search
def positions(seed_range=range(60)):
    """States met in random races (every seat acting randomly, time moving on)."""
    for seed in seed_range:
        m = new_match(3, seed=seed)
        rng = random.Random(seed)
        while not m.is_over():
            yield m
            m.advance(rng.random())
            if m.is_over():
                break
            p = rng.choice(m.active_players())
            acts = R.legal_actions(m.state, p)
            places = [a for a in acts if a["t"] == "place"]
            m.submit(p, rng.choice(places) if places and rng.random() < 0.85 else rng.choice(acts))


def find(pred, seeds=range(80)):
    for m in positions(seeds):
        hit = pred(m)
        if hit:
            return m, hit
    pytest.fail("no position found")


def gobble_move(m, level, opponents=1):
    s = m.state
    if len(s.in_play()) - 1 < opponents:
        return None
    for p in s.in_play():
        if s.seats[p].owed or len(s.seats[p].pile) < 3:
            continue
        for a in R.legal_actions(s, p):
            if a["t"] == "place" and s.board.neighbour_count((a["q"], a["r"])) == level \
                    and len(s.seats[p].pile) + len(s.seats[p].stack) > 2:
                return p, a
    return None


def test_gobble_owes_one_gift_and_gift_lands_face_down_below_revealed():
    m, (p, a) = find(lambda m: gobble_move(m, 3))
    before = m.state
    ev = m.submit(p, a)
    assert any(e["e"] == "gobble" and e["level"] == 1 for e in ev)
    s = m.state
    assert len(s.seats[p].owed) == 1 and s.seats[p].owed[0] == pytest.approx(s.clock + 10.0)
    to = next(j for j in s.in_play() if j != p)
    top = s.seats[p].pile[0]
    recv_before = s.seats[to].pile
    ev = m.submit(p, {"t": "gift", "src": "pile", "to": to})
    s2 = m.state
    assert s2.seats[p].owed == () and s2.seats[p].pile == s.seats[p].pile[1:]
    assert sorted(s2.seats[to].pile) == sorted(recv_before + (top,))
    # face down: never among the receiver's revealed tiles when there were enough below
    if len(recv_before) >= s.hand:
        assert s2.seats[to].pile[: s.hand] == recv_before[: s.hand]
    assert m.log[-1]["p"] == CHANCE and m.log[-1]["a"]["t"] == "insert"
    assert R.invariants(s2) == []
    del before


def _double_position():
    return find(lambda m: gobble_move(m, 4, opponents=2), seeds=range(300))


def test_double_gobble_both_to_one_opponent():
    m, (p, a) = _double_position()
    m.submit(p, a)
    s = m.state
    assert len(s.seats[p].owed) == 2
    to = next(j for j in s.in_play() if j != p)
    held = s.seats[to].held
    m.submit(p, {"t": "gift", "src": "pile", "to": to})
    m.submit(p, {"t": "gift", "src": "pile", "to": to})
    assert m.state.seats[to].held == held + 2 and m.state.seats[p].owed == ()


def test_double_gobble_one_each_to_two_opponents_from_stack_and_pile():
    m, (p, a) = _double_position()
    m.submit(p, a)
    s = m.state
    opp = [j for j in s.in_play() if j != p]
    assert len(opp) >= 2
    # put the revealed tile on the stack so there is a stack top to give
    m.submit(p, {"t": "discard", "tile": s.seats[p].pile[0]})
    s = m.state
    stack_top = s.seats[p].stack[-1]
    m.submit(p, {"t": "gift", "src": "stack", "to": opp[0]})
    assert stack_top in m.state.seats[opp[0]].pile and stack_top not in m.state.seats[p].stack
    pile_top = m.state.seats[p].pile[0]
    m.submit(p, {"t": "gift", "src": "pile", "to": opp[1]})
    assert pile_top in m.state.seats[opp[1]].pile
    assert m.state.seats[p].owed == ()
    with pytest.raises(IllegalAction, match="no gift"):
        m.submit(p, {"t": "gift", "src": "pile", "to": opp[0]})


def test_automatic_gift_after_ten_seconds_goes_to_the_leader():
    m, (p, a) = find(lambda m: gobble_move(m, 3))
    m.submit(p, a)
    s = m.state
    t_due = s.seats[p].owed[0]
    m.advance(t_due - m.time - 0.01)
    assert m.state.seats[p].owed, "not yet"
    s = m.state
    # fewest tiles held; on a tie the first such seat after the giver, going round the table
    fewest = min(s.seats[j].held for j in s.in_play() if j != p)
    leader = next(j for j in ((p + k) % s.n for k in range(1, s.n))
                  if j in s.in_play() and s.seats[j].held == fewest)
    top = s.seats[p].pile[0]
    held = s.seats[leader].held
    ev = m.advance(0.02)
    assert any(e["e"] == "gift" and e["auto"] and e["to"] == leader for e in ev)
    clock_entries = [e for e in m.log if e["p"] == CLOCK]
    assert clock_entries and clock_entries[-1]["t"] == pytest.approx(t_due)
    assert m.state.seats[leader].held == held + 1 and top in m.state.seats[leader].pile
    assert m.state.seats[p].owed == ()


def test_no_gift_to_a_player_who_is_out():
    m, (p, a) = find(lambda m: gobble_move(m, 3))
    m.submit(p, a)
    s = m.state
    other = next(j for j in s.in_play() if j != p)
    out_state = R._set_seat(s, other, replace(s.seats[other], pile=(), stack=(), out=1))
    out_state = replace(out_state, order=(other,),
                        aside=out_state.aside + s.seats[other].pile + s.seats[other].stack)
    with pytest.raises(IllegalAction, match="OUT"):
        R.check(out_state, p, {"t": "gift", "src": "pile", "to": other})
    assert R.leader(out_state, exclude=p) != other


def test_stale_action_is_rejected_with_reason():
    def two_claims(m):
        s = m.state
        claims = {}
        for p in s.in_play():
            for a in R.legal_actions(s, p):
                if a["t"] == "place":
                    cell = (a["q"], a["r"])
                    if cell in claims and claims[cell][0] != p:
                        return claims[cell], (p, a)
                    claims.setdefault(cell, (p, a))
        return None
    m, ((p1, a1), (p2, a2)) = find(two_claims)
    m.submit(p1, a1)
    n = len(m.log)
    with pytest.raises(IllegalAction, match="taken"):
        m.submit(p2, a2)
    assert len(m.log) == n


def test_out_and_end_when_one_player_is_left():
    m = new_match(2, seed=3)
    bots = [make_race_bot(i, "hard", 3) for i in range(2)]
    simulate(m, bots)
    s = m.state
    out = m.outcome()
    assert s.phase == "over"
    if not s.deadlock:
        assert len(s.order) == 1 and s.seats[s.order[0]].held == 0
        assert out["ranking"][0] == s.order[0]
    assert sorted(out["ranking"]) == [0, 1]


# ------------------------------------------------------------------------- deadlock
def _deadlock_state(buried_fit: bool):
    """Two start tiles; every seat holds only tiles that fit nowhere (optionally one that fits,
    buried under the top of a penalty stack)."""
    board = Board.from_tiles({(0, 0): (1, 0), (1, 0): (4, 0)})
    assert board.mismatches() == 0
    fitting = [n for n in TILE_NUMBERS if n not in (1, 4) and board.fits_anywhere(n)]
    dead = [n for n in TILE_NUMBERS if n not in (1, 4) and not board.fits_anywhere(n)]
    assert len(dead) >= 8 and fitting
    seats = (Seat(pile=(dead[0], dead[1]), stack=((fitting[0], dead[2]) if buried_fit else (dead[2],))),
             Seat(pile=(dead[3],)),
             Seat(pile=(dead[4], dead[5], dead[6]), stack=(dead[7],)))
    used = {1, 4} | {n for st in seats for n in st.pile + st.stack}
    aside = tuple(n for n in TILE_NUMBERS if n not in used)
    return RaceState(board=board, seats=seats, bag=(), quota=(0, 0, 0), aside=aside, phase="play",
                     last=(None,) * 3)


@pytest.mark.parametrize("buried_fit", [False, True])
def test_deadlock_detected_exactly_and_ranked_by_tiles_left(buried_fit):
    s = _deadlock_state(buried_fit)
    # independent check: no reachable tile (pile, or stack top) fits anywhere by the naive rule
    cells = {c for c in s.board.frontier}
    for st in s.seats:
        for n in list(st.pile) + list(st.stack[-1:]):
            assert not any(naive_legal(s.board.tiles, n, k, c) for c in cells for k in range(6))
    assert R.invariants(s) == []
    s2, ev = R.apply(s, 1, {"t": "discard", "tile": s.seats[1].pile[0]})
    assert s2.phase == "over" and s2.deadlock and any(e["e"] == "over" and e["deadlock"] for e in ev)
    out = R.outcome(s2)
    # seat 1 holds 1 tile, seat 0 holds 4 (or 4), seat 2 holds 4: fewest first, lower seat on a tie
    assert out["ranking"] == [1, 0, 2] and out["deadlock"] is True


def test_no_deadlock_while_a_pile_tile_deep_down_fits():
    s = _deadlock_state(False)
    board = s.board
    fit = next(n for n in s.aside if board.fits_anywhere(n))
    st = s.seats[2]
    s = R._set_seat(s, 2, replace(st, pile=st.pile + (fit,)))
    s = replace(s, aside=tuple(n for n in s.aside if n != fit))
    s2, _ = R.apply(s, 1, {"t": "discard", "tile": s.seats[1].pile[0]})
    assert s2.phase == "play"


# ------------------------------------------------------------------------ records
def test_race_record_replays_to_identical_state_with_timers(tmp_path):
    m = Match(R, {"players": 3, "seats": ["bot:easy", "bot:easy", "bot:hard"]}, 12)
    timers = BotTimers(m, [make_race_bot(i, lvl, 12) for i, lvl in enumerate(["easy", "easy", "hard"])])
    frames = 0
    while not m.is_over() and frames < 60 * 600:  # the real loop's way: 1/60 s frames
        m.advance(1 / 60)
        timers.run_due()
        frames += 1
    assert m.is_over()
    path = tmp_path / "race.json"
    record.save(m, path)
    m2 = record.load(path)
    assert m2.state == m.state and m2.outcome() == m.outcome()
    assert all(R.invariants(st) == [] for st in m2.states)


def test_tampered_timer_entry_is_refused(tmp_path):
    m, (p, a) = find(lambda m: gobble_move(m, 3))
    m.submit(p, a)
    m.advance(11.0)
    rec = record.to_record(m)
    idx = max(i for i, row in enumerate(rec["actions"]) if row[0] == CLOCK)
    early = dict(rec, actions=[list(r) for r in rec["actions"]])
    early["actions"][idx][2] = early["actions"][idx - 1][2]  # fire the timer too soon
    with pytest.raises(record.RecordError, match="timer"):
        record.from_record(early)


def test_deal_quota_refuses_too_big_handicap():
    assert deal_quota(4, [0, 0, 0, 0]) == (13, 13, 13, 13)
    with pytest.raises(ValueError):
        deal_quota(2, [40, 20])


def test_pattern_fit_agrees_on_race_boards():
    m = new_match(2, seed=8)
    simulate(m, [make_race_bot(i, "medium", 8) for i in range(2)])
    b = m.state.board
    for cell, p in b.frontier.items():
        if p.count(".") <= 4:
            fits = pattern_fit(p)[1]
            for n in TILE_NUMBERS:
                if n in [t for t, _ in b.tiles.values()]:
                    continue
                assert set(fits.get(n, ())) == {k for k in range(6) if naive_legal(b.tiles, n, k, cell)}


# ------------------------------------------------------------------------ bots
def test_hard_finishes_ahead_of_easy_in_two_player_races():
    ahead = 0
    for seed in range(100):
        levels = ["hard", "easy"] if seed % 2 == 0 else ["easy", "hard"]
        m = Match(R, {"players": 2, "seats": [f"bot:{x}" for x in levels]}, seed)
        simulate(m, [make_race_bot(i, lvl, seed) for i, lvl in enumerate(levels)])
        ahead += levels[m.outcome()["ranking"][0]] == "hard"
    assert ahead >= 80


def test_mixed_races_end_and_conserve_tiles_after_every_action():
    for seed in range(25):
        levels = ["hard", "medium", "easy", "medium"]
        m = Match(R, {"players": 4, "seats": [f"bot:{x}" for x in levels]}, seed)
        m.listeners.append(lambda mm, ev: _assert_ok(mm))
        simulate(m, [make_race_bot(i, lvl, seed) for i, lvl in enumerate(levels)])
        out = m.outcome()
        assert m.is_over() and sorted(out["ranking"]) == [0, 1, 2, 3]
        assert out["deadlock"] or len(out["finish_order"]) == 3


def _assert_ok(m):
    assert R.invariants(m.state) == []


# -------------------------------------------------------------- review regressions
def test_no_deadlock_while_a_gift_is_owed_then_the_clock_settles_it():
    s = _deadlock_state(True)          # seat 0: a fitting tile buried under its stack top
    s = R._set_seat(s, 0, replace(s.seats[0], owed=(10.0,)))
    s2, _ = R.apply(s, 1, {"t": "discard", "tile": s.seats[1].pile[0]})
    assert s2.phase == "play"          # seat 0 may still give its stack top away
    # giving the stack top uncovers the fitting tile: a placement is possible again
    s3, _ = R.apply(s2, 0, {"t": "gift", "src": "stack", "to": 2})
    s3, _ = R.apply(s3, CHANCE, {"t": "insert", "pos": 1})
    assert s3.phase == "play" and s3.board.fits_anywhere(s3.seats[0].stack[-1])


def test_gift_timeout_in_whole_milliseconds_and_races_replay_with_odd_timeouts(tmp_path):
    with pytest.raises(ValueError, match="milliseconds"):
        R.validate_config({"players": 2, "gift_timeout": 7.3333333})
    m = Match(R, {"players": 3, "seats": ["bot:easy"] * 3, "gift_timeout": 7.333}, 5)
    simulate(m, [make_race_bot(i, "easy", 5) for i in range(3)])
    assert any(e["p"] == CLOCK for e in m.log)
    record.save(m, tmp_path / "r.json")
    assert record.load(tmp_path / "r.json").state == m.state


def _with_timer(seed=3):
    m, (p, a) = find(lambda mm: gobble_move(mm, 3))
    m.submit(p, a)
    m.advance(12.0)
    rec = record.to_record(m)
    idx = max(i for i, row in enumerate(rec["actions"]) if row[0] == CLOCK)
    return rec, idx


def test_real_time_record_holes_are_refused():
    rec, idx = _with_timer()
    rows = rec["actions"]
    due = rows[idx][2]

    def load(mutate):
        r = dict(rec, actions=[list(x) for x in rows])
        mutate(r["actions"])
        with pytest.raises(record.RecordError):
            record.from_record(r)

    load(lambda a: a[idx].__setitem__(2, due + 30.0))          # the timer's entry logged late
    load(lambda a: a[idx].__setitem__(2, due - 1.0))           # ... or early
    load(lambda a: [row.__setitem__(2, float("nan")) for row in a[-1:]])   # a NaN time
    load(lambda a: [row.pop() for row in a])                   # no times at all
    # another seat acting after the timer was due, with the timer's entry dropped
    def late_action(a):
        del a[idx:]
        a.append([0, {"t": "discard", "tile": -1}, due + 5.0])
    load(late_action)


def test_chance_entries_must_be_what_the_seed_draws():
    m = new_match(3, seed=9)
    rec = record.to_record(m)
    deals = [i for i, row in enumerate(rec["actions"]) if row[1].get("t") == "deal"]
    a, b = deals[0], deals[1]
    rec["actions"][a][1], rec["actions"][b][1] = rec["actions"][b][1], rec["actions"][a][1]
    with pytest.raises(record.RecordError, match="seed"):
        record.from_record(rec)


def test_simulate_fires_an_overdue_timer():
    m, (p, a) = find(lambda mm: gobble_move(mm, 3))
    m.submit(p, a)
    # jump the clock past the due time without firing (as a bad record once could)
    m.time = m.state.seats[p].owed[0] + 3.0
    events = m.advance(0.0)
    assert any(e["e"] == "gift" and e["auto"] for e in events)


def test_automatic_gifts_favour_no_seat():
    received = [0] * 4
    for seed in range(60):
        m = Match(R, {"players": 4, "seats": ["bot:hard"] * 4}, seed)
        simulate(m, [make_race_bot(i, "hard", seed) for i in range(4)])
        for row in m.log:
            gift = row["p"] == CLOCK or (row["p"] >= 0 and row["a"]["t"] == "gift")
            if gift and row["a"]["to"] is not None:
                received[row["a"]["to"]] += 1
    assert max(received) < 1.5 * min(received), received


# ------------------------------------------------------------------------------ a seat's view
def busy(m):
    """A position with a penalty stack and a gift owed (public) and face-down tiles (secret)."""
    s = m.state
    return any(st.stack for st in s.seats) and any(st.owed for st in s.seats) and s.clock > 0


def test_observe_is_a_race_state_that_shows_a_seat_only_its_revealed_tiles():
    m, _ = find(busy)
    s = replace(m.state, hand=2)
    for seat in range(3):
        v = R.observe(s, seat)
        assert isinstance(v, RaceState) and v.seen_by == seat
        assert v.board == s.board and v.clock == s.clock and v.last == s.last and v.order == s.order
        assert v.revealed(seat) == s.revealed(seat) and None not in v.revealed(seat)
        for j, (a, b) in enumerate(zip(v.seats, s.seats)):
            assert (a.stack, a.owed, a.out, a.gobbles, a.placed) == (b.stack, b.owed, b.out, b.gobbles, b.placed)
            assert len(a.pile) == len(b.pile)
            shown = min(2, len(b.pile)) if j == seat else 0
            assert a.pile[:shown] == b.pile[:shown] and set(a.pile[shown:]) <= {None}
        assert set(v.aside) <= {None} and len(v.aside) == len(s.aside)
    # a gift waiting for its place: nobody is told the tile
    waiting = replace(s, insert=(1, s.seats[0].pile[0]))
    assert R.observe(waiting, 0).insert == (1, None)
    with pytest.raises(ValueError):
        R.observe(s, 3)


def test_race_state_json_round_trip_and_refusals():
    import json

    m, _ = find(busy)
    for s in (m.state, R.observe(m.state, 1)):
        obj = json.loads(json.dumps(R.state_to_json(s)))
        back = R.state_from_json(obj)
        assert back == s and R.state_to_json(back) == obj
    view = R.state_to_json(R.observe(m.state, 1))
    # what a version 2 client reads: pile and gift counts, the seat's revealed tile(s)
    assert view["revealed"] == list(m.state.revealed(1)) and view["seats"][0]["pile"] == len(m.state.seats[0].pile)
    assert all(t is None for j, d in enumerate(view["seats"]) if j != 1 for t in d["tiles"])
    bad = []
    for key, value in (("seat", 7), ("phase", "lunch"), ("hand", 0), ("clock", "soon"), ("order", [0, 0]),
                       ("board", [[0, 0, 99, 0]]), ("revealed", [5, 6]), ("bag", [1])):
        bad.append(dict(view, **{key: value}))
    seats = [dict(d) for d in view["seats"]]
    seats[0]["pile"] += 1
    bad.append(dict(view, seats=seats))
    seats = [dict(d) for d in view["seats"]]
    seats[2]["stack"] = seats[2]["stack"] + [view["board"][0][2]]   # a tile on the board and a stack
    bad.append(dict(view, seats=seats))
    full = R.state_to_json(m.state)
    full["seats"][0]["tiles"][-1] = None          # the whole position hides nothing
    bad += [full, [], None, {k: v for k, v in view.items() if k != "last"}]
    for obj in bad:
        with pytest.raises(ValueError):
            R.state_from_json(obj)
