"""Gobble Solitaire rules (games/gobble/rules.py) against specs/gobble.md "Gobble Solitaire".

Positions are built here with the naive placement model of tests/naive.py (the spec's rule, written
independently), then the rules engine is driven through them. Random playouts check invariants after
every action.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.gobble.board import Board
from games.gobble.rules import PLAYER, SolitaireRules, SolitaireState
from sim.core.match import Match
from sim.core.rules import CHANCE, IllegalAction, is_legal

from naive import BASE, SHOWN, find_gobbles, grow, naive_legal, naive_neighbours, naive_placements, nb

RULES = SolitaireRules()
ALL = frozenset(range(1, 57))


def expected_gifts(k, escalating=False):
    if k < 3:
        return 0
    return k - 2 if escalating else (1 if k == 3 else 2)


def make_state(tiles, held=None, penalty=(), phase="place", rescues=0, bag=None, escalating=False):
    used = {n for n, _ in tiles.values()} | set(penalty) | ({held} if held is not None else set())
    if bag is None:
        bag = tuple(sorted(ALL - used))
    s = SolitaireState(board=Board.from_tiles(tiles), bag=tuple(bag), penalty=tuple(penalty), held=held,
                       phase=phase, rescues=rescues, escalating=escalating)
    return s


def place(tile, rot, cell):
    return {"t": "place", "tile": tile, "rot": rot, "q": cell[0], "r": cell[1]}


def find_scenario(k1, k2=None, min_tiles=16):
    """A legal board with an empty cell g1 of k1 neighbours that tile T fills, and (optionally) a cell
    g2 of k2 neighbours, not next to g1, that another tile P fills; plus a spare tile X. Naive model."""
    for seed in range(2000):
        rng = random.Random(seed)
        tiles, _bag = grow(rng, min_tiles + seed % 10)
        used = {n for n, _ in tiles.values()}
        free = sorted(ALL - used)
        hit = find_gobbles(tiles, free, k1, k2)
        if hit:
            g1, t, r1, g2, p, r2 = hit
            x = next(n for n in free if n not in (t, p))
            return tiles, g1, t, r1, g2, p, r2, x
    raise AssertionError("no scenario found")


def apply_ok(s, player, action):
    RULES.check(s, player, action)
    s2, ev = RULES.apply(s, player, action)
    assert RULES.invariants(s2) == []
    return s2, ev


# ------------------------------------------------------------------------ random playouts
def my_invariants(s: SolitaireState):
    """The spec's invariants, checked without the engine's own invariants()."""
    held = [s.held] if s.held is not None else []
    on_board = [n for n, _ in s.board.tiles.values()]
    everything = list(s.bag) + on_board + list(s.penalty) + held
    assert sorted(everything) == list(range(1, 57)), "56 tiles conserved"
    tiles = s.board.tiles
    for c, t in tiles.items():
        for d in range(6):
            m = nb(c, d)
            if m in tiles:
                assert SHOWN[t][d] == SHOWN[tiles[m]][(d + 3) % 6], "touching edges match"
    assert s.phase in ("place", "penalty", "rescue", "over")  # the Match resolves chance nodes
    if s.phase == "place":
        assert s.held is not None and naive_placements(tiles, s.held), "a drawn tile that fits must be placed"
        acts = RULES.legal_actions(s, PLAYER)
        assert {((a["q"], a["r"]), a["rot"]) for a in acts} == naive_placements(tiles, s.held)
        assert all(a["t"] == "place" and a["tile"] == s.held for a in acts)
        assert not is_legal(RULES, s, PLAYER, {"t": "penalty"})
    elif s.phase == "penalty":
        assert s.held is not None and not naive_placements(tiles, s.held), "penalty only if it fits nowhere"
        assert RULES.legal_actions(s, PLAYER) == [{"t": "penalty"}]
    elif s.phase == "rescue":
        assert s.penalty and s.rescues > 0 and s.held is None
        acts = RULES.legal_actions(s, PLAYER)
        places = {((a["q"], a["r"]), a["rot"]) for a in acts if a["t"] == "place"}
        assert places == naive_placements(tiles, s.penalty[-1])
        assert {"t": "return"} in acts and {"t": "skip"} in acts
    else:
        assert s.bag == () and s.held is None
        assert RULES.is_terminal(s) and RULES.legal_actions(s, PLAYER) == []
        out = RULES.outcome(s)
        assert out["penalty"] == len(s.penalty)
        assert out["win"] == (len(s.penalty) == 0)
        assert out["placed"] == len(tiles)
    if s.bag == () and s.held is None and s.phase != "rescue":
        assert s.phase == "over", "the game ends when the bag is empty and no rescue is pending"


def playout(seed, style):
    rng = random.Random(seed)
    m = Match(RULES, {"escalating": style == "escalating"}, seed=seed)
    assert len(m.state.board) == 2 and m.state.board.mismatches() == 0
    assert sorted(m.state.board.tiles) == [(0, 0), (1, 0)]
    steps = 0
    while not m.is_over():
        s = m.state
        my_invariants(s)
        assert RULES.invariants(s) == []
        assert m.active_players() == [PLAYER]
        acts = RULES.legal_actions(s, PLAYER)
        assert acts
        if s.phase == "rescue" and style == "return":
            a = {"t": "return"}
        elif s.phase == "rescue" and style == "skip":
            a = {"t": "skip"}
        else:
            a = rng.choice(acts)
        k = naive_neighbours(s.board.tiles, (a["q"], a["r"])) if a["t"] == "place" else 0
        events = m.submit(PLAYER, a)
        t = m.state
        if a["t"] == "place":
            gifts = expected_gifts(k, t.escalating)
            gob = [e for e in events if e.get("e") == "gobble"]
            assert (len(gob) == 1) == (gifts > 0)
            assert t.board.tiles[(a["q"], a["r"])] == (a["tile"], a["rot"])
        if a["t"] == "return":
            assert s.penalty[-1] in t.bag or t.held == s.penalty[-1] or s.penalty[-1] in t.penalty
        steps += 1
        assert steps < 500
    my_invariants(m.state)
    assert RULES.invariants(m.state) == []
    return m


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1), st.sampled_from(["random", "return", "skip", "escalating"]))
def test_random_playouts_keep_invariants(seed, style):
    m = playout(seed, style)
    s = m.state
    assert s.phase == "over" and s.bag == ()
    assert m.outcome()["penalty"] == len(s.penalty)
    assert len(s.board) + len(s.penalty) == 56


def test_playouts_exercise_rescues():
    # The random playouts above are only meaningful if rescues happen; count them on fixed seeds.
    rescues = penalties = 0
    for seed in range(30):
        m = playout(seed, "random")
        for e in m.applied():
            if e["p"] == PLAYER and e["a"]["t"] in ("return", "skip"):
                rescues += 1
            if e["p"] == PLAYER and e["a"]["t"] == "penalty":
                penalties += 1
    assert rescues > 0 and penalties > 0


# ------------------------------------------------------------------------------ the start
@pytest.mark.parametrize("seed", range(20))
def test_start_two_matched_tiles(seed):
    m = Match(RULES, seed=seed)
    first, second, draw = m.log[0], m.log[1], m.log[2]
    assert first["p"] == second["p"] == draw["p"] == CHANCE
    assert first["a"]["t"] == "start" and second["a"]["t"] == "start" and draw["a"]["t"] == "draw"
    b = m.state.board
    (n1, k1), (n2, k2) = b.tiles[(0, 0)], b.tiles[(1, 0)]
    assert SHOWN[(n1, k1)][0] == SHOWN[(n2, k2)][3]
    assert len(m.state.bag) == 53 and m.state.held == draw["a"]["tile"]


def test_start_outcomes_are_probabilities():
    s = RULES.initial_state(RULES.default_config())
    assert RULES.active_players(s) == [CHANCE]
    outs = RULES.chance_outcomes(s)
    assert len(outs) == 56 * 6 and abs(sum(p for _a, p in outs) - 1) < 1e-9
    s1, _ = RULES.apply(s, CHANCE, {"t": "start", "tile": 1, "rot": 0})
    outs = RULES.chance_outcomes(s1)
    assert abs(sum(p for _a, p in outs) - 1) < 1e-9
    need = SHOWN[(1, 0)][0]
    assert {(a["tile"], a["rot"]) for a, _p in outs} == {
        (n, k) for n in range(2, 57) for k in range(6) if SHOWN[(n, k)][3] == need}


# --------------------------------------------------------------------- penalty is forced
def _unplaceable():
    """Two matched tiles and a tile that fits nowhere next to them (naive search)."""
    for a in BASE:
        for ka in range(6):
            for b in BASE:
                if b == a:
                    continue
                for kb in range(6):
                    if SHOWN[(a, ka)][0] != SHOWN[(b, kb)][3]:
                        continue
                    tiles = {(0, 0): (a, ka), (1, 0): (b, kb)}
                    bad = [n for n in BASE if n not in (a, b) and not naive_placements(tiles, n)]
                    good = [n for n in BASE if n not in (a, b) and naive_placements(tiles, n)]
                    if bad and good:
                        return tiles, bad[0], good[0]
    raise AssertionError("none found")


def test_a_drawn_tile_that_fits_nowhere_goes_to_the_penalty_stack():
    tiles, x, y = _unplaceable()
    s = make_state(tiles, phase="draw")
    assert RULES.active_players(s) == [CHANCE]
    outs = RULES.chance_outcomes(s)
    assert {a["tile"] for a, _p in outs} == set(s.bag)
    s1, ev = RULES.apply(s, CHANCE, {"t": "draw", "tile": x})
    assert s1.phase == "penalty" and s1.held == x and x not in s1.bag
    assert any(e.get("e") == "fits_nowhere" for e in ev)
    assert RULES.legal_actions(s1, PLAYER) == [{"t": "penalty"}]
    for c in s1.board.frontier:
        for k in range(6):
            with pytest.raises(IllegalAction):
                RULES.check(s1, PLAYER, place(x, k, c))
    s2, _ = apply_ok(s1, PLAYER, {"t": "penalty"})
    assert s2.penalty == (x,) and s2.held is None and s2.phase == "draw"
    assert RULES.outcome(s2)["penalty"] == 1
    # A tile that fits must be placed: the penalty action is refused.
    s3, _ = RULES.apply(s, CHANCE, {"t": "draw", "tile": y})
    assert s3.phase == "place" and s3.held == y
    with pytest.raises(IllegalAction):
        RULES.check(s3, PLAYER, {"t": "penalty"})


def test_penalty_on_the_last_tile_ends_the_game():
    tiles, x, _y = _unplaceable()
    others = tuple(sorted(ALL - {x} - {n for n, _ in tiles.values()}))
    # The bag is empty: every other tile is already on the penalty stack.
    s = SolitaireState(board=Board.from_tiles(tiles), bag=(), penalty=others, held=x, phase="penalty")
    assert RULES.invariants(s) == []
    s2, _ = apply_ok(s, PLAYER, {"t": "penalty"})
    assert s2.phase == "over" and RULES.is_terminal(s2)
    assert RULES.outcome(s2)["penalty"] == len(s2.penalty) == len(others) + 1
    assert RULES.outcome(s2)["win"] is False


# ---------------------------------------------------------------------------- rescues
@pytest.fixture(scope="module")
def gobble_chain():
    return find_scenario(3, 3)


@pytest.fixture(scope="module")
def double_gobble():
    return find_scenario(4)


def _after_gobble(sc, **kw):
    tiles, g1, t, r1, g2, p, r2, x = sc
    penalty = (x, p) if p is not None else (x,)
    s = make_state(tiles, held=t, penalty=penalty, **kw)
    assert RULES.invariants(s) == []
    s1, ev = apply_ok(s, PLAYER, place(t, r1, g1))
    return s, s1, ev


def test_gobble_with_penalty_stack_starts_rescue(gobble_chain):
    s, s1, ev = _after_gobble(gobble_chain)
    tiles, g1, t, r1, g2, p, r2, x = gobble_chain
    assert s1.phase == "rescue" and s1.rescues == 1
    assert s1.penalty == (x, p) and s1.held is None
    assert [e for e in ev if e.get("e") == "gobble"][0]["level"] == 1
    assert RULES.active_players(s1) == [PLAYER]
    assert s1.gobbles == s.gobbles + 1


def test_gobble_without_penalty_stack_just_continues(gobble_chain):
    tiles, g1, t, r1, *_ = gobble_chain
    s = make_state(tiles, held=t)
    s1, ev = apply_ok(s, PLAYER, place(t, r1, g1))
    assert s1.phase == "draw" and s1.rescues == 0
    assert any(e.get("e") == "gobble" for e in ev)


def test_return_puts_the_top_tile_back_in_the_bag(gobble_chain):
    s, s1, _ = _after_gobble(gobble_chain)
    tiles, g1, t, r1, g2, p, r2, x = gobble_chain
    s2, ev = apply_ok(s1, PLAYER, {"t": "return"})
    assert p in s2.bag and s2.penalty == (x,)
    assert list(s2.bag) == sorted(s2.bag)
    assert s2.phase == "draw"  # the single rescue is used up
    assert {a["tile"] for a, _ in RULES.chance_outcomes(s2)} == set(s2.bag)


def test_skip_ends_rescuing(gobble_chain):
    s, s1, _ = _after_gobble(gobble_chain)
    tiles, g1, t, r1, g2, p, r2, x = gobble_chain
    s2, _ = apply_ok(s1, PLAYER, {"t": "skip"})
    assert s2.phase == "draw" and s2.penalty == (x, p) and s2.rescues == 0


def test_place_from_penalty_stack_chains_gobbles(gobble_chain):
    s, s1, _ = _after_gobble(gobble_chain)
    tiles, g1, t, r1, g2, p, r2, x = gobble_chain
    # The next tile to rescue is the top one (p); the one below (x) may not be played.
    with pytest.raises(IllegalAction):
        RULES.check(s1, PLAYER, place(x, r2, g2))
    s2, ev = apply_ok(s1, PLAYER, place(p, r2, g2))
    assert s2.board.tiles[g2] == (p, r2)
    assert s2.penalty == (x,)
    assert any(e.get("e") == "rescue" and e.get("how") == "play" for e in ev)
    assert any(e.get("e") == "gobble" for e in ev)
    # g2 had three neighbours: a new rescue is earned for x.
    assert s2.phase == "rescue" and s2.rescues == 1
    s3, _ = apply_ok(s2, PLAYER, {"t": "return"})
    assert s3.penalty == () and x in s3.bag and s3.phase == "draw"
    assert RULES.outcome(s3)["penalty"] == 0


def test_double_gobble_gives_two_rescues(double_gobble):
    tiles, g1, t, r1, _g2, _p, _r2, x = double_gobble
    y = next(n for n in sorted(ALL - {n for n, _ in tiles.values()}) if n not in (t, x))
    s = make_state(tiles, held=t, penalty=(x, y))
    s1, ev = apply_ok(s, PLAYER, place(t, r1, g1))
    assert [e for e in ev if e.get("e") == "gobble"][0]["level"] == 2
    assert s1.phase == "rescue" and s1.rescues == 2 and s1.double_gobbles == 1
    s2, _ = apply_ok(s1, PLAYER, {"t": "return"})
    assert s2.phase == "rescue" and s2.penalty == (x,) and y in s2.bag
    s3, _ = apply_ok(s2, PLAYER, {"t": "return"})
    assert s3.phase == "draw" and s3.penalty == () and x in s3.bag


def test_double_gobble_with_one_penalty_tile(double_gobble):
    tiles, g1, t, r1, _g2, _p, _r2, x = double_gobble
    s = make_state(tiles, held=t, penalty=(x,))
    s1, _ = apply_ok(s, PLAYER, place(t, r1, g1))
    assert s1.phase == "rescue"
    s2, _ = apply_ok(s1, PLAYER, {"t": "return"})
    assert s2.phase == "draw" and s2.penalty == ()  # nothing left to rescue


def test_escalating_option(double_gobble):
    tiles, g1, t, r1, *_ = double_gobble
    free = sorted(ALL - {n for n, _ in tiles.values()} - {t})
    s = make_state(tiles, held=t, penalty=tuple(free[:3]), escalating=True)
    k = naive_neighbours(tiles, g1)
    s1, _ = apply_ok(s, PLAYER, place(t, r1, g1))
    assert s1.rescues == k - 2


def test_rescue_with_empty_bag_then_skip_ends_the_game(gobble_chain):
    tiles, g1, t, r1, g2, p, r2, x = gobble_chain
    rest = sorted(ALL - {n for n, _ in tiles.values()} - {t})
    # Everything else already on the penalty stack, p on top: the bag is empty.
    pen = tuple(n for n in rest if n != p) + (p,)
    s = SolitaireState(board=Board.from_tiles(tiles), bag=(), penalty=pen, held=t, phase="place")
    assert RULES.invariants(s) == []
    s1, _ = apply_ok(s, PLAYER, place(t, r1, g1))
    assert s1.phase == "rescue"
    s2, _ = apply_ok(s1, PLAYER, {"t": "skip"})
    assert s2.phase == "over" and RULES.outcome(s2)["penalty"] == len(pen)
    s3, _ = apply_ok(s1, PLAYER, {"t": "return"})
    assert s3.phase == "draw" and s3.bag == (p,)


def test_last_tile_placed_ends_the_game(gobble_chain):
    tiles = gobble_chain[0]
    free = sorted(ALL - {n for n, _ in tiles.values()})
    # A tile with a placement that fills no gobble space, drawn last (the rest is on the stack).
    t, (c, k) = next((n, sorted(pl)[0]) for n in free
                     for pl in [{(c, k) for c, k in naive_placements(tiles, n) if naive_neighbours(tiles, c) == 2}]
                     if pl)
    rest = tuple(n for n in free if n != t)
    s = SolitaireState(board=Board.from_tiles(tiles), bag=(), penalty=rest, held=t, phase="place")
    assert RULES.invariants(s) == []
    s1, ev = apply_ok(s, PLAYER, place(t, k, c))
    assert not any(e.get("e") == "gobble" for e in ev)
    assert s1.phase == "over" and RULES.is_terminal(s1)
    assert RULES.outcome(s1)["penalty"] == len(rest) == len(s1.penalty)


# ------------------------------------------------------------------------ illegal actions
@pytest.fixture(scope="module")
def place_state(gobble_chain):
    tiles, g1, t, r1, g2, p, r2, x = gobble_chain
    return make_state(tiles, held=t, penalty=(x,)), gobble_chain


def _reason(s, action, player=PLAYER):
    with pytest.raises(IllegalAction) as ei:
        RULES.check(s, player, action)
    msg = str(ei.value)
    assert msg and "\n" not in msg
    return msg.lower()


def test_illegal_occupied_cell(place_state):
    s, (tiles, g1, t, r1, *_rest) = place_state
    occupied = sorted(tiles)[0]
    assert any(w in _reason(s, place(t, 0, occupied)) for w in ("taken", "occupied"))


def test_illegal_fewer_than_two_neighbours(place_state):
    s, (tiles, g1, t, r1, *_rest) = place_state
    one = next(c for c in sorted(s.board.frontier) if naive_neighbours(tiles, c) == 1)
    assert any(w in _reason(s, place(t, 0, one)) for w in ("two", "2"))
    assert any(w in _reason(s, place(t, 0, (500, 500))) for w in ("two", "2"))


def test_illegal_colour_mismatch(place_state):
    s, (tiles, g1, t, r1, *_rest) = place_state
    bad = next(k for k in range(6) if not naive_legal(tiles, t, k, g1))
    assert any(w in _reason(s, place(t, bad, g1)) for w in ("match", "colour", "color"))


def test_illegal_wrong_tile(place_state):
    s, (tiles, g1, t, r1, g2, p, r2, x) = place_state
    other = next(n for n in s.bag)
    msg = _reason(s, place(other, r1, g1))
    assert str(t) in msg
    assert _reason(s, place(x, r1, g1))  # a penalty tile outside a rescue


@pytest.mark.parametrize("mutate", [
    lambda a: {k: v for k, v in a.items() if k != "rot"},          # missing key
    lambda a: {**a, "extra": 1},                                     # extra key
    lambda a: {**a, "q": 1.5},                                       # non-integer cell
    lambda a: {**a, "r": "0"},
    lambda a: {**a, "q": True},
    lambda a: {**a, "rot": 6},                                       # rotation out of range
    lambda a: {**a, "rot": -1},
    lambda a: {**a, "rot": True},
    lambda a: {**a, "rot": 1.0},
    lambda a: {**a, "tile": str(a["tile"])},
    lambda a: {**a, "t": "fly"},                                     # unknown action
    lambda a: {"tile": a["tile"]},                                   # no type
])
def test_illegal_malformed(place_state, mutate):
    s, (tiles, g1, t, r1, *_rest) = place_state
    _reason(s, mutate(place(t, r1, g1)))


@pytest.mark.parametrize("bad", [None, [], "place", 3])
def test_illegal_non_dict(place_state, bad):
    s, _ = place_state
    _reason(s, bad)


def test_tile_id_must_not_be_a_float(place_state):
    # 29.0 == 29 in Python, but a float is not a tile id: a tampered record could carry one, and the
    # board would then hold (29.0, rot).
    s, (tiles, g1, t, r1, *_rest) = place_state
    _reason(s, place(float(t), r1, g1))


def test_tile_id_must_not_be_a_bool():
    # True == 1 in Python; tile 1 must be named by the integer 1.
    tiles = next(tl for tl in (
        {(0, 0): (a, ka), (1, 0): (b, kb)} for a in (2, 3, 4, 5) for ka in range(6)
        for b in (6, 7, 8, 9) for kb in range(6) if SHOWN[(a, ka)][0] == SHOWN[(b, kb)][3])
        if naive_placements(tl, 1))
    c, k = sorted(naive_placements(tiles, 1))[0]
    s = make_state(tiles, held=1)
    RULES.check(s, PLAYER, place(1, k, c))
    _reason(s, place(True, k, c))


def test_illegal_rescue_actions_outside_rescue(place_state):
    s, _ = place_state
    assert _reason(s, {"t": "return"})
    assert _reason(s, {"t": "skip"})
    assert _reason(s, {"t": "penalty", "x": 1})


def test_illegal_wrong_player_and_game_over(place_state):
    s, (tiles, g1, t, r1, *_rest) = place_state
    _reason(s, place(t, r1, g1), player=1)
    _reason(s, place(t, r1, g1), player=CHANCE)
    over = SolitaireState(board=s.board, bag=(), penalty=s.penalty + s.bag + (t,), phase="over")
    assert RULES.invariants(over) == []
    assert "over" in _reason(over, place(t, r1, g1))
    assert RULES.legal_actions(over, PLAYER) == [] and RULES.active_players(over) == []


def test_legal_action_accepted_and_state_not_mutated(place_state):
    s, (tiles, g1, t, r1, *_rest) = place_state
    before = (dict(s.board.tiles), dict(s.board.frontier), s.bag, s.penalty, s.held, s.phase)
    RULES.check(s, PLAYER, place(t, r1, g1))
    RULES.apply(s, PLAYER, place(t, r1, g1))
    assert (dict(s.board.tiles), dict(s.board.frontier), s.bag, s.penalty, s.held, s.phase) == before


def test_match_submit_rejects_without_changing_anything():
    m = Match(RULES, seed=3)
    log, cursor = list(m.log), m.cursor
    with pytest.raises(IllegalAction):
        m.submit(PLAYER, {"t": "skip"})
    with pytest.raises(IllegalAction):
        m.submit(CHANCE, {"t": "draw", "tile": 1})
    assert m.log == log and m.cursor == cursor


def test_config_validation():
    assert RULES.validate_config({}) == {"escalating": False, "purist": False}
    assert RULES.validate_config({"escalating": True}) == {"escalating": True, "purist": False}
    assert RULES.validate_config({"purist": True})["purist"] is True     # a table option: rules unchanged
    with pytest.raises(ValueError):
        RULES.validate_config({"escalating": "yes"})
    with pytest.raises(ValueError):
        RULES.validate_config({"speed": 3})
