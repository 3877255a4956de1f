"""Streetcar phase 1 on hand-made boards (specs/streetcar.md "Phase 1"; research/tram.md §6.1-§6.3):
placing, the terminal and building rules, dead ends and blocking, exchanges (the superset rule for every
tile pair), the two-tile turn judged as a pair, stop signs, refilling, passing and the draw, the shared
hands of drivers, undo."""
from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest

from games.streetcar import data
from games.streetcar.rules import Seat, StreetcarRules
from games.streetcar.tiles import Board, cell_of
from sim.core.match import Match
from sim.core.rules import CHANCE, IllegalAction

R = StreetcarRules()
STRAIGHT, CURVE, SW_L, SW_R, Y, DBL = 0, 1, 2, 3, 4, 5


def position(tiles=(), hands=None, players=2, lines=(1, 2, 3, 4, 5), cards=None, turn=0, share=True, pile=None):
    """A phase-1 position: ``tiles`` = [(x, y, tile, rot)] laid in that order (stop signs follow the
    order), ``hands`` per seat (default: the start hand)."""
    s = R.initial_state({"players": players, "share_hands": share})
    board = Board()
    for x, y, t, r in tiles:
        board = board.put(cell_of(x, y), t, r)
    cards = cards or (["B1", "B2", "B3"] if players <= 3 else ["R1", "R2", "R3", "R4", "R5"])
    seats = []
    for i in range(players):
        hand = tuple(sorted(hands[i])) if hands else data.START_HAND
        seats.append(Seat(line=lines[i], card=cards[i], stops=data.stops_of(cards[i], lines[i]), hand=hand))
    s = replace(s, board=board, seats=tuple(seats), phase="play", turn=turn, dealt=2 * players,
                lines_left=(), cards_left=())
    if pile is not None:
        s = replace(s, pile=tuple(pile.get(t, 0) for t in data.TILE_IDS))
    return s


def tile(x, y, t, r, hand=None):
    a = {"t": "tile", "tile": t, "rot": r, "x": x, "y": y}
    if hand is not None:
        a["hand"] = hand
    return a


def play(s, action, player=None):
    player = s.turn if player is None else player
    R.check(s, player, action)
    return R.apply(s, player, action)[0]


def refused(s, action, words, player=None):
    player = s.turn if player is None else player
    with pytest.raises(IllegalAction) as e:
        R.check(s, player, action)
    assert words in str(e.value), str(e.value)


# ------------------------------------------------------------------ placing (research §6.1)
def test_free_placement_anywhere():
    s = position()
    s2 = play(s, tile(6, 6, STRAIGHT, 0))
    assert s2.board.tile_at(cell_of(6, 6)) == (STRAIGHT, 0)
    assert s2.played == 1 and s2.seats[0].hand.count(STRAIGHT) == 2


def test_no_tile_on_a_building_and_no_track_into_one():
    s = position()
    refused(s, tile(6, 4, STRAIGHT, 0), "building I")          # covers I
    refused(s, tile(7, 4, STRAIGHT, 0), "into building I")     # E-W: its W end leads into I
    play(s, tile(7, 4, STRAIGHT, 1))                            # N-S beside I is fine


def test_no_track_off_the_board_except_into_a_terminal():
    s = position()
    refused(s, tile(1, 8, STRAIGHT, 0), "off the board")        # (0, 8) is no terminal
    play(s, tile(1, 8, STRAIGHT, 1))
    refused(s, tile(12, 12, CURVE, 3), "off the board")         # E-S curve in the corner
    play(s, tile(1, 2, STRAIGHT, 0))                            # W end into line 6's terminal (0, 2)


def test_a_tile_in_front_of_a_terminal_must_join_it():
    s = position()
    refused(s, tile(2, 1, STRAIGHT, 0), "must join the terminal")   # E-W in front of (2, 0)
    play(s, tile(2, 1, STRAIGHT, 1))
    play(s, tile(2, 1, CURVE, 2))                                     # N-E: joins, E end toward (3, 1)


def test_track_ends_must_meet():
    s = position(tiles=[(5, 6, STRAIGHT, 0)])                          # E-W
    refused(s, tile(6, 6, STRAIGHT, 1), "runs into a side")           # its blank W meets an E end
    refused(s, tile(5, 7, STRAIGHT, 1), "runs into a side")           # its N end meets a blank S side
    play(s, tile(6, 6, STRAIGHT, 0))
    play(s, tile(6, 6, CURVE, 0))                                     # S-W: W meets the E end


def test_no_track_end_that_no_tile_could_continue():
    # (1, 9) lies between the ring (W) and building F (E): only a N-S straight can ever go there.
    # With an E-W straight on (1, 10) its S side is closed too, so a track end into it is a dead end.
    s = position(tiles=[(1, 10, STRAIGHT, 0)])
    refused(s, tile(1, 8, STRAIGHT, 1), "no tile could ever fill (1,9)")
    # the other way round: the track end is there first, and the E-W straight would block it
    s = position(tiles=[(1, 8, STRAIGHT, 1)])
    refused(s, tile(1, 10, STRAIGHT, 0), "no tile could ever fill (1,9)")
    play(s, tile(1, 10, CURVE, 1))                                    # W-N: leaves (1, 9) a N-S straight


# ------------------------------------------------------------------ exchanges (research §6.2)
#: research §6.2 "Legal upgrades", typed from the list
UPGRADES = {0: {2, 3, 6, 7, 9, 10, 11}, 1: {2, 3, 4, 5, 6, 7, 8, 10, 11}, 2: {6, 7, 10}, 3: {6, 7, 11},
            4: {6, 7, 8}, 5: {8, 10, 11}}
BASE = {0: ["EW"], 1: ["SW"], 2: ["NS", "SW"], 3: ["NS", "ES"], 4: ["NE", "NW"], 5: ["NE", "SW"],
        6: ["EW", "NE", "NW"], 7: ["EW", "NE", "ES"], 8: ["NE", "ES", "SW", "NW"], 9: ["NS", "EW"],
        10: ["NS", "NE", "SW"], 11: ["NS", "NW", "ES"]}


def _turned(pairs, rot):
    """Naive clockwise rotation of track pairs (N->E->S->W), as sets of sides."""
    sides = "NESW"
    return {frozenset(sides[(sides.index(a) + rot) % 4] for a in p) for p in pairs}


@pytest.mark.parametrize("old", sorted(UPGRADES))
def test_exchange_superset_rule_for_every_tile_pair(old):
    for old_rot, new in product(range(4), sorted(BASE)):
        s = position(tiles=[(6, 7, old, old_rot)], hands=[[new] * 5, data.START_HAND])
        allowed = set()
        for r in range(4):
            a = tile(6, 7, new, r)
            keeps = _turned(BASE[old], old_rot) < _turned(BASE[new], r)
            try:
                R.check(s, 0, a)
                ok = True
            except IllegalAction:
                ok = False
            assert ok == keeps, (old, old_rot, new, r)
            if ok:
                allowed.add(new)
        assert (new in allowed) == (new in UPGRADES[old]), (old, old_rot, new)


def test_trees_are_never_exchanged():
    for old in range(6, 12):
        s = position(tiles=[(6, 7, old, 0)], hands=[[8, 9, 10, 11, 6], data.START_HAND])
        for t, r in product((6, 8, 9, 10, 11), range(4)):
            refused(s, tile(6, 7, t, r), "trees")


def test_a_y_never_becomes_a_switch_and_exchanges_must_add_track():
    s = position(tiles=[(6, 7, Y, 0)], hands=[[SW_L, SW_R, Y, 6, 8], data.START_HAND])
    for t, r in product((SW_L, SW_R), range(4)):
        refused(s, tile(6, 7, t, r), "keep every track")
    refused(s, tile(6, 7, Y, 0), "must add track")
    s2 = play(s, tile(6, 7, 8, 0))
    assert s2.board.tile_at(cell_of(6, 7)) == (8, 0)
    assert sorted(s2.seats[0].hand) == sorted([SW_L, SW_R, Y, 6, Y])   # the old Y came to the hand


def test_exchanged_tile_may_be_the_second_tile():
    s = position(tiles=[(6, 7, CURVE, 0)], hands=[[SW_L, STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT], data.START_HAND])
    s = play(s, tile(6, 7, SW_L, 0))                       # N-S + S-W keeps the S-W curve
    assert CURVE in s.seats[0].hand
    s = play(s, tile(9, 9, CURVE, 0))
    assert s.board.tile_at(cell_of(9, 9)) == (CURVE, 0)


# ------------------------------------------------------------------ the turn as a pair
def test_two_adjacent_exchanges_legal_only_together():
    # two E-W straights one above the other; switches adding curves toward each other
    base = [(5, 5, STRAIGHT, 0), (5, 6, STRAIGHT, 0)]
    hands = [[SW_L, SW_R, STRAIGHT, STRAIGHT, STRAIGHT], data.START_HAND]
    s = position(tiles=base, hands=hands)
    upper = tile(5, 5, SW_L, 3)        # E-W + E-S: a new end into (5, 6)'s blank N side
    lower = tile(5, 6, SW_R, 3)        # E-W + N-E: a new end into (5, 5)'s blank S side
    # each alone would break the rules, but the other tile is in hand to mend it
    s1 = play(s, upper)
    assert s1.pending and s1.fix == cell_of(5, 6)
    refused(s1, tile(9, 9, STRAIGHT, 0), "must mend the first")
    refused(s1, {"t": "start", "end": 0}, "needs the second")
    s2 = play(s1, lower)
    assert not s2.pending and s2.board.all_defects() == []
    # both exchanged straights came to the hand: it holds 5 again, so nothing is drawn
    assert s2.phase == "play" and s2.turn == 1 and s2.pile == s.pile
    assert sorted(s2.seats[0].hand) == [STRAIGHT] * 5
    # the same in the other order
    s3 = play(play(s, lower), upper)
    assert s3.board.all_defects() == []
    # without the second switch the first exchange is refused outright
    s4 = position(tiles=base, hands=[[SW_L, STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT], data.START_HAND])
    refused(s4, upper, "runs into a side")


def test_placement_mended_by_an_exchange():
    base = [(5, 5, STRAIGHT, 0)]
    s = position(tiles=base, hands=[[CURVE, SW_L, STRAIGHT, STRAIGHT, STRAIGHT], data.START_HAND])
    s1 = play(s, tile(5, 6, CURVE, 2))          # N-E: its N end meets (5, 5)'s blank S side
    assert s1.pending
    s2 = play(s1, tile(5, 5, SW_L, 3))          # E-W + E-S
    assert s2.board.all_defects() == []


def test_second_tile_may_not_exchange_the_first():
    s = position(hands=[[STRAIGHT, SW_L, STRAIGHT, CURVE, CURVE], data.START_HAND])
    s1 = play(s, tile(6, 7, STRAIGHT, 1))
    refused(s1, tile(6, 7, SW_L, 0), "may not exchange the tile just placed")


# ------------------------------------------------------------------ stop signs (research §6.3)
def test_first_tile_next_to_a_building_gets_the_sign():
    s = position(hands=[[STRAIGHT, STRAIGHT, SW_L, CURVE, CURVE], data.START_HAND])
    s1 = play(s, tile(7, 4, STRAIGHT, 1))        # beside I (6, 4), E of it
    assert s1.board.sign_of("I") == cell_of(7, 4)
    s2 = play(s1, tile(6, 5, STRAIGHT, 0))       # S of I: no second sign
    assert s2.board.sign_of("I") == cell_of(7, 4)
    assert s2.board.sign_at(cell_of(6, 5)) is None
    # diagonal squares never get a sign
    s3 = play(position(), tile(7, 5, STRAIGHT, 0))
    assert s3.board.sign_of("I") == -1


def test_exchanged_sign_tile_keeps_the_sign():
    s = position(tiles=[(7, 4, STRAIGHT, 1)], hands=[[SW_L, STRAIGHT, STRAIGHT, CURVE, CURVE], data.START_HAND])
    assert s.board.sign_of("I") == cell_of(7, 4)
    s1 = play(s, tile(7, 4, SW_L, 2))            # N-S + N-E
    assert s1.board.sign_of("I") == cell_of(7, 4) and s1.board.tile_at(cell_of(7, 4)) == (SW_L, 2)


# ------------------------------------------------------------------ refill, pass, draw, shared hands
def test_refill_after_two_tiles_one_draw_at_a_time():
    m = Match(R, {"players": 2}, 3)
    s = m.state
    assert s.phase == "play" and s.pile_size == 101
    m.submit(0, tile(6, 7, STRAIGHT, 0))
    m.submit(0, tile(9, 9, STRAIGHT, 0))
    assert len(m.state.seats[0].hand) == 5 and m.state.pile_size == 99
    draws = [e for e in m.log if e["p"] == CHANCE and e["a"]["t"] == "draw"]
    assert len(draws) == 2
    assert m.state.turn == 1 and m.state.phase == "play"


def test_chance_draw_probabilities_follow_the_pile():
    s = replace(position(), phase="refill", to_draw=1)
    outs = dict((a["tile"], p) for a, p in R.chance_outcomes(s))
    assert outs[0] == pytest.approx(21 / 101) and outs[10] == pytest.approx(2 / 101)
    assert sum(outs.values()) == pytest.approx(1.0)


def test_pass_and_the_draw_rule():
    # empty pile; seat 0 holds nothing, seat 1 only a tree tile that fits nowhere legal? Use empty hands.
    s = position(hands=[[], []], pile={})
    assert R.legal_actions(s, 0) == [{"t": "pass"}]
    s1 = play(s, {"t": "pass"})
    assert s1.turn == 1 and s1.passes == 1 and s1.phase == "play"
    s2 = play(s1, {"t": "pass"})
    assert s2.phase == "over" and s2.draw and R.outcome(s2)["winner"] is None


def test_no_pass_while_a_tile_can_be_played():
    s = position()
    refused(s, {"t": "pass"}, "can still play a tile")


def test_turn_ends_when_no_second_tile_fits():
    # one tile in hand, empty pile: after it the turn passes on without a pass
    s = position(hands=[[STRAIGHT], data.START_HAND], pile={})
    s1 = play(s, tile(6, 7, STRAIGHT, 0))
    assert s1.turn == 1 and s1.phase == "play" and s1.passes == 0


def test_drivers_hand_is_open_to_builders():
    s = position(hands=[data.START_HAND, [SW_L, Y, 8]])
    st1 = replace(s.seats[1], driving=True, start=0, pos=0, last=0)
    s = replace(s, seats=(s.seats[0], st1))
    s1 = play(s, tile(6, 7, Y, 0, hand=1))
    assert s1.seats[1].hand == (SW_L, 8) and len(s1.seats[0].hand) == 5
    refused(s, tile(6, 7, 9, 0, hand=1), "no tree_cross tile")
    off = replace(s, share=False)
    refused(off, tile(6, 7, Y, 0, hand=1), "your own hand")
    builder = position(hands=[data.START_HAND, [SW_L, Y, 8]])
    refused(builder, tile(6, 7, Y, 0, hand=1), "still building")


def test_undo_only_the_first_tile_of_a_turn():
    m = Match(R, {"players": 2}, 4)
    m.submit(0, tile(6, 7, STRAIGHT, 0))
    assert m.can_undo(0)
    assert m.undo(0) and m.state.played == 0 and m.state.board.count == 0
    m.submit(0, tile(6, 7, STRAIGHT, 0))
    m.submit(0, tile(9, 9, STRAIGHT, 0))
    assert not m.can_undo(0)


def test_malformed_tile_plays():
    s = position()
    for a, words in [({"t": "tile", "tile": 0, "rot": 0, "x": 6}, "needs tile"),
                     (tile(6, 7, 12, 0), "no tile type"), (tile(6, 7, 0, 4), "rotation"),
                     (tile(0, 7, 0, 0), "not a square"), (tile(6, 7, 9, 0), "no tree_cross"),
                     ({"t": "tile", "tile": "0", "rot": 0, "x": 6, "y": 7}, "whole number"),
                     (tile(6, 7, 0, 0, hand=7), "no seat"), ({"t": "fly"}, "unknown action")]:
        refused(s, a, words)
    refused(s, tile(6, 7, 0, 0), "not player 2's turn", player=1)


def test_no_undo_once_the_turn_has_passed_on():
    # one tile in hand and an empty pile: the first tile ends the turn, so it is final
    s = position(hands=[[STRAIGHT], data.START_HAND], pile={})
    assert not R.undoable(s, 0, tile(6, 7, STRAIGHT, 0))
    assert R.undoable(position(), 0, tile(6, 7, STRAIGHT, 0))
    assert not R.undoable(position(), 0, {"t": "start", "end": 0})


def test_quick_placement_check_agrees_with_the_full_rule_check():
    # Board.placeable (used to list plays) against Board.defects after the tile is down, on boards
    # from a played game, for random squares, tiles and rotations (placing and exchanging)
    import random

    from bot_games import streetcar as play_game
    from games.streetcar.tiles import BOARD_CELLS, BUILDING_AT, ORIENT, keeps_tracks
    m, _ = play_game(["bot:medium", "bot:easy"], 7, check=False)
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for s in m.states[:: max(1, len(m.states) // 12)]:
        b = s.board
        for _ in range(120):
            c = rng.choice([c for c in BOARD_CELLS if c not in BUILDING_AT])
            t, r = rng.randrange(12), rng.randrange(4)
            old = b.tile_at(c)
            if old is not None and not keeps_tracks(ORIENT[old[0]][old[1]], ORIENT[t][r]):
                continue
            quick = b.placeable(c, ORIENT[t][r])
            assert quick == (not b.put(c, t, r).defects([c])), (c, t, r)
            seen[quick] += 1
    assert seen[True] > 50 and seen[False] > 50
