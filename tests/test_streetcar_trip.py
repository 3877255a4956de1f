"""Streetcar phase 2 (specs/streetcar.md "Phase 2"; research/tram.md §6.6, §7): starting the trip, the
3/2/1 dice turn, every face, H to the next stop or terminal, tools back to the last station ending the
turn, only completable moves, choices at branches, stops served by passing, the win."""
from __future__ import annotations

from dataclasses import replace

import pytest

from games.streetcar import data
from games.streetcar.route import HOME, home, node
from games.streetcar.rules import Seat, StreetcarRules
from games.streetcar.tiles import cell_of
from sim.core.rules import CHANCE, IllegalAction

from test_streetcar_route import LINE1, lay, line1_board

R = StreetcarRules()
SIDE = {"N": 0, "E": 1, "S": 2, "W": 3}


def at(x, y, came):
    """The node of a tram on (x, y) that came in by side ``came`` ("N", "E", "S", "W")."""
    return node(cell_of(x, y), SIDE[came])


def js(x, y, came):
    return [x, y, SIDE[came]]


START = home(1, 0)


def driving(board, pos=START, served=0, last=START, dice=(), used=0, stops="GFM", faces="bga"):
    """Seat 0 drives line 1 from its top terminal to the bottom one through ``stops``."""
    s = R.initial_state({"players": 2, "dice": faces})
    me = Seat(line=1, card="B1", stops=stops, hand=(), driving=True, start=0, pos=pos, served=served, last=last)
    other = Seat(line=2, card="B2", stops=data.stops_of("B2", 2))
    return replace(s, board=board, seats=(me, other), phase="choose" if dice else "roll", dice=tuple(dice),
                   used=used, turn=0, dealt=4, lines_left=(), cards_left=())


def drive(s, die, path):
    a = {"t": "drive", "die": die, "path": path}
    R.check(s, 0, a)
    return R.apply(s, 0, a)


def paths(s, face):
    i = s.dice.index(face)
    return sorted(a["path"] for a in R.legal_actions(s, 0) if a["die"] == i)


def refused(s, action, words):
    with pytest.raises(IllegalAction) as e:
        R.check(s, s.turn, action)
    assert words in str(e.value), str(e.value)


# ------------------------------------------------------------------ starting the trip
def test_start_needs_a_complete_route_and_reveals_the_cards():
    from test_streetcar_placement import position
    s = position(lines=(1, 2))
    s = replace(s, board=line1_board(), seats=(replace(s.seats[0], stops="GFM"), s.seats[1]))
    other = replace(s, seats=(replace(s.seats[0], stops="GFA"), s.seats[1]))
    refused(other, {"t": "start", "end": 0}, "not complete")
    # hidden from the other seat until the trip starts
    assert R.observe(s, 1).seats[0].line == 0 and R.observe(s, 1).seats[0].stops == ""
    s1, ev = R.apply(s, 0, {"t": "start", "end": 1})
    st = s1.seats[0]
    assert st.driving and st.pos == home(1, 1) and st.dest == 0 and st.last == st.pos
    assert s1.phase == "roll" and s1.turn == 0       # rolls in the same turn
    assert ev[0]["stops"] == "GFM" and ev[0]["line"] == 1
    assert R.observe(s1, 1).seats[0].stops == "GFM"
    # also after the first tile of a turn
    s2 = R.apply(s, 0, {"t": "tile", "tile": 0, "rot": 0, "x": 10, "y": 7})[0]
    assert s2.played == 1 and R.can_start(s2, 0)
    assert {"t": "start", "end": 0} in R.legal_actions(s2, 0)


# ------------------------------------------------------------------ the dice turn
def test_three_then_two_then_one_die_then_the_turn_ends():
    s = driving(line1_board())
    assert R.legal_actions(s, 0) == [{"t": "roll"}]                 # no stopping before a roll
    for k in (3, 2, 1):
        s, _ = R.apply(s, 0, {"t": "roll"})
        assert s.phase == "dice" and R.active_players(s) == [CHANCE]
        outs = R.chance_outcomes(s)
        assert dict((a["face"], p) for a, p in outs) == pytest.approx(
            {"GO2": 2 / 6, "GO1": 1 / 6, "RED": 1 / 6, "H": 1 / 6, "TOOLS": 1 / 6})
        for _ in range(k):
            s, _ = R.apply(s, CHANCE, {"t": "die", "face": "RED"})
        assert s.phase == "choose" and s.dice == ("RED",) * k
        s, _ = drive(s, 0, [])
        if k > 1:
            assert s.phase == "roll" and s.turn == 0
            assert {"t": "stop"} in R.legal_actions(s, 0)
    assert s.turn == 1 and s.phase == "play"


def test_stop_after_a_die_ends_the_turn():
    s = driving(line1_board(), dice=("GO1", "RED", "RED"))
    s, _ = drive(s, 0, [js(2, 1, "N")])
    s, _ = R.apply(s, 0, {"t": "stop"})
    assert s.turn == 1 and s.seats[0].pos == at(2, 1, "N")


def test_classic_die_one_roll_a_turn():
    s = driving(line1_board(), faces="classic")
    s, _ = R.apply(s, 0, {"t": "roll"})
    assert s.to_roll == 1
    s, _ = R.apply(s, CHANCE, {"t": "die", "face": "GO4"})
    assert paths(s, "GO4") == [[js(2, 1, "N"), js(2, 2, "N"), js(2, 3, "N"), js(2, 4, "N")]]
    s, _ = drive(s, 0, paths(s, "GO4")[0])
    assert s.turn == 1


# ------------------------------------------------------------------ every face
def test_green_lights_move_one_and_two_squares():
    s = driving(line1_board(), dice=("GO1", "GO2", "RED"))
    assert paths(s, "GO1") == [[js(2, 1, "N")]]
    assert paths(s, "GO2") == [[js(2, 1, "N"), js(2, 2, "N")]]
    refused(s, {"t": "drive", "die": 1, "path": [js(2, 1, "N")]}, "moves the tram 2 squares")
    refused(s, {"t": "drive", "die": 0, "path": [js(2, 2, "N")]}, "cannot drive from there")
    s2, ev = drive(s, 1, [js(2, 1, "N"), js(2, 2, "N")])
    assert s2.seats[0].pos == at(2, 2, "N") and ev[0]["face"] == "GO2"


def test_red_light_does_not_move():
    s = driving(line1_board(), pos=at(2, 2, "N"), dice=("RED",))
    refused(s, {"t": "drive", "die": 0, "path": [js(2, 3, "N")]}, "does not move")
    s2, _ = drive(s, 0, [])
    assert s2.seats[0].pos == at(2, 2, "N") and s2.phase == "roll"


def test_h_goes_to_the_next_stop_or_terminal():
    s = driving(line1_board(), dice=("H",))
    # from the terminal: the first sign on the way is G's at (2, 5)
    assert paths(s, "H") == [[js(2, 1, "N"), js(2, 2, "N"), js(2, 3, "N"), js(2, 4, "N"), js(2, 5, "N")]]
    refused(s, {"t": "drive", "die": 0, "path": [js(2, 1, "N"), js(2, 2, "N")]}, "to a stop or terminal")
    s2, ev = drive(s, 0, paths(s, "H")[0])
    assert s2.seats[0].pos == at(2, 5, "N") and ev[0]["served"] == "G"
    assert s2.seats[0].last == at(2, 5, "N")
    # a sign that is not on the card stops H too: from M's (4, 8) the next is E's at (5, 11)
    s3 = driving(line1_board(), pos=at(4, 8, "W"), served=0b111, last=at(4, 8, "W"), dice=("H",))
    assert paths(s3, "H") == [[js(5, 8, "W"), js(5, 9, "N"), js(5, 10, "N"), js(5, 11, "N")]]
    # from there the next station is the destination terminal: the tram arrives and wins
    s4 = driving(line1_board(), pos=at(5, 11, "N"), served=0b111, last=at(5, 11, "N"), dice=("H",))
    (p,) = paths(s4, "H")
    s5, ev = drive(s4, 0, p)
    assert p[-1] == [6, 13, 0] and s5.phase == "over" and s5.winner == 0


def test_tools_goes_back_to_the_last_station_and_ends_the_turn():
    s = driving(line1_board(), pos=at(2, 7, "N"), served=0b001, last=at(2, 5, "N"),
                dice=("TOOLS", "GO2", "GO1"))
    refused(s, {"t": "drive", "die": 0, "path": [js(2, 5, "N")]}, "by itself")
    s2, ev = drive(s, 0, [])
    assert s2.seats[0].pos == at(2, 5, "N") and s2.seats[0].served == 0b001
    assert s2.turn == 1 and s2.phase == "play"         # the turn ends at once, dice left or not
    assert ev[0] == {"e": "tools", "seat": 0, "to": js(2, 5, "N")}
    # before any station the tram goes back to its own terminal
    s3 = driving(line1_board(), pos=at(2, 3, "N"), dice=("TOOLS",))
    s4, _ = drive(s3, 0, [])
    assert s4.seats[0].pos == START and START % 5 == HOME


def test_a_stop_is_served_by_passing():
    s = driving(line1_board(), pos=at(2, 4, "N"), dice=("GO2",))
    s2, ev = drive(s, 0, [js(2, 5, "N"), js(2, 6, "N")])
    assert s2.seats[0].served == 0b001 and ev[0]["served"] == "G"
    assert s2.seats[0].last == at(2, 5, "N")            # the station passed on the way


# ------------------------------------------------------------------ branches
def branch_board(bypass: bool):
    """LINE1 with a switch N-S + N-E at (2, 3): its E branch runs (3, 3) W-S and, with ``bypass``,
    on down (3, 4) and round (3, 5) N-W into a switch N-S + E-S at (2, 5); without it, (3, 3) leads
    into the empty (3, 4): a dead end."""
    extra = [((3, 3), (1, 0))]
    repl = {(2, 3): (2, 2)}
    if bypass:
        extra += [((3, 4), (0, 1)), ((3, 5), (1, 1))]
        repl[(2, 5)] = (3, 0)
    return lay(LINE1 + extra, replace_at=repl)


def test_only_moves_that_keep_the_route_completable():
    b = branch_board(bypass=False)
    assert b.all_defects() == []
    s = driving(b, pos=at(2, 3, "N"), dice=("GO1", "GO2", "H"))
    assert paths(s, "GO1") == [[js(2, 4, "N")]]                         # not into the dead end
    s2 = driving(b, pos=at(2, 2, "N"), dice=("GO2",))
    assert paths(s2, "GO2") == [[js(2, 3, "N"), js(2, 4, "N")]]
    refused(s2, {"t": "drive", "die": 0, "path": [js(2, 3, "N"), js(3, 3, "W")]}, "could no longer be completed")


def test_the_player_chooses_at_a_branch():
    b = branch_board(bypass=True)
    assert b.all_defects() == []
    s = driving(b, pos=at(2, 2, "N"), dice=("GO2", "H"))
    assert paths(s, "GO2") == [[js(2, 3, "N"), js(2, 4, "N")], [js(2, 3, "N"), js(3, 3, "W")]]
    # H reaches G's sign by either way, coming in from N or from E
    hs = paths(s, "H")
    assert sorted(p[-1] for p in hs) == [js(2, 5, "N"), js(2, 5, "E")]
    s2, _ = drive(s, 0, [js(2, 3, "N"), js(3, 3, "W")])
    assert s2.seats[0].pos == at(3, 3, "W")


# ------------------------------------------------------------------ the win
def test_the_win_with_every_stop_served():
    s = driving(line1_board(), pos=at(6, 11, "W"), served=0b111, last=at(5, 11, "N"), dice=("GO2", "GO1"))
    s2, ev = drive(s, 0, [js(6, 12, "N"), [6, 13, 0]])
    assert s2.phase == "over" and s2.winner == 0 and ev[-1] == {"e": "win", "seat": 0}
    assert R.outcome(s2)["winner"] == 0 and R.outcome(s2)["scores"] == [1, 0]
    assert R.legal_actions(s2, 1) == []


def test_surplus_moves_are_lost_at_the_destination():
    s = driving(line1_board(), pos=at(6, 11, "W"), served=0b111, last=at(5, 11, "N"), dice=("GO4",),
                faces="classic")
    assert paths(s, "GO4") == [[js(6, 12, "N"), [6, 13, 0]]]
    refused(s, {"t": "drive", "die": 0, "path": [js(6, 12, "N")]}, "moves the tram 4 squares")
