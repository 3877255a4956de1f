"""Streetcar component data against the research tables (research/tram.md §2-§4, §7; specs/streetcar.md
"Components"): buildings, terminals, tile types and counts, route cards with the B6 correction, dice."""
from __future__ import annotations

from collections import Counter

import pytest

from games.streetcar import data
from games.streetcar.rules import StreetcarRules
from games.streetcar.tiles import ORIENT, mask_of, pairs_of

# research §2.2, column "squares orthogonally next to it", typed from the table
NEXT_TO_RESEARCH = {
    "A": [(7, 1), (9, 1), (8, 2)], "B": [(11, 3), (10, 4), (12, 4), (11, 5)], "C": [(12, 7), (11, 8), (12, 9)],
    "D": [(9, 10), (8, 11), (10, 11), (9, 12)], "E": [(5, 11), (4, 12), (6, 12)],
    "F": [(2, 8), (1, 9), (3, 9), (2, 10)], "G": [(1, 4), (2, 5), (1, 6)], "H": [(4, 1), (3, 2), (5, 2), (4, 3)],
    "I": [(6, 3), (5, 4), (7, 4), (6, 5)], "K": [(9, 5), (8, 6), (10, 6), (9, 7)],
    "L": [(7, 8), (6, 9), (8, 9), (7, 10)], "M": [(4, 6), (3, 7), (5, 7), (4, 8)],
}


def test_buildings_at_listed_squares():
    assert sorted(data.BUILDINGS) == list("ABCDEFGHIKLM")  # no J
    assert data.BUILDINGS == {"A": (8, 1), "B": (11, 4), "C": (12, 8), "D": (9, 11), "E": (5, 12), "F": (2, 9),
                              "G": (1, 5), "H": (4, 2), "I": (6, 4), "K": (9, 6), "L": (7, 9), "M": (4, 7)}
    for k, squares in NEXT_TO_RESEARCH.items():
        assert sorted(data.stop_squares(k)) == sorted(squares), k


def test_no_square_next_to_two_buildings():
    seen = Counter()
    for (bx, by) in data.BUILDINGS.values():
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            x, y = bx + dx, by + dy
            if 1 <= x <= 12 and 1 <= y <= 12:
                seen[(x, y)] += 1
    assert max(seen.values()) == 1
    assert sum(seen.values()) == 44


def _side(cell):
    x, y = cell
    return "N" if y == 0 else "S" if y == 13 else "W" if x == 0 else "E"


def test_terminals_on_opposite_sides_per_line():
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    for line, (a, b) in data.TERMINALS.items():
        sa, sb = {_side(c) for c in a}, {_side(c) for c in b}
        assert len(sa) == len(sb) == 1
        assert opposite[sa.pop()] == sb.pop(), line
        # each terminal is two neighbouring ring cells
        for cells in (a, b):
            (x1, y1), (x2, y2) = cells
            assert abs(x1 - x2) + abs(y1 - y2) == 1
    # research §2.3: numbers going clockwise round the edge
    order = {"N": [], "E": [], "S": [], "W": []}
    for line, ends in data.TERMINALS.items():
        for cells in ends:
            order[_side(cells[0])].append((cells[0], line))
    top = [ln for c, ln in sorted(order["N"])]
    right = [ln for c, ln in sorted(order["E"], key=lambda cl: cl[0][1])]
    bottom_rl = [ln for c, ln in sorted(order["S"], reverse=True)]
    left_bt = [ln for c, ln in sorted(order["W"], key=lambda cl: -cl[0][1])]
    assert (top, right, bottom_rl, left_bt) == ([1, 2, 3], [4, 5, 6], [2, 1, 3], [5, 4, 6])
    assert data.LINE_COLOURS[2] == "yellow" and len(set(data.LINE_COLOURS.values())) == 6


def test_terminal_pieces_form_loops():
    legs = data.terminal_legs()
    assert len(legs) == 24
    for cell, (line, end, track) in legs.items():
        side = _side(cell)
        board_side = {"N": "S", "S": "N", "W": "E", "E": "W"}[side]
        assert board_side in track  # opens onto the board
        other = track.replace(board_side, "")
        d = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[other]
        partner = (cell[0] + d[0], cell[1] + d[1])
        assert legs[partner][:2] == (line, end)  # and onto the other cell of its loop


def test_tile_types():
    # research §3.1: tracks at rotation 0
    expect = {0: {"EW"}, 1: {"SW"}, 2: {"NS", "SW"}, 3: {"NS", "ES"}, 4: {"NE", "NW"}, 5: {"NE", "SW"},
              6: {"EW", "NE", "NW"}, 7: {"EW", "NE", "ES"}, 8: {"NE", "ES", "SW", "NW"}, 9: {"NS", "EW"},
              10: {"NS", "NE", "SW"}, 11: {"NS", "NW", "ES"}}
    for t, pairs in expect.items():
        got = {"".join(sorted(p, key="NESW".index)) for p in pairs_of(ORIENT[t][0])}
        assert got == {"".join(sorted(p, key="NESW".index)) for p in pairs}, t
    assert [t for t in data.TILE_IDS if data.TILES[t].exchangeable] == [0, 1, 2, 3, 4, 5]
    # clockwise rotation: a curve S-W turned once shows W-N
    assert ORIENT[1][1] == mask_of(["NW"])
    assert ORIENT[0][1] == mask_of(["NS"])


def test_tile_counts():
    assert [data.TILES[t].draw_1995 for t in data.TILE_IDS] == [21, 20, 10, 10, 10, 6, 6, 6, 4, 4, 2, 2]
    assert sum(data.PILES["1995"].values()) == 101
    assert sum(data.PILES["bga"].values()) == 125
    assert Counter(data.START_HAND) == {0: 3, 1: 2}
    rules = StreetcarRules()
    for n in (2, 5):
        s = rules.initial_state({"players": n})
        assert s.pile_size == 101
        assert all(Counter(st.hand) == {0: 3, 1: 2} for st in s.seats)
    assert rules.initial_state({"players": 3, "pile": "bga"}).pile_size == 125


def test_route_cards():
    cards2, cards3 = data.ROUTE_CARDS_2, data.ROUTE_CARDS_3
    assert len(cards2) == len(cards3) == 6
    entries = [(c, i) for cards in (cards2, cards3) for c in cards for i in range(6)]
    assert len(entries) == 72
    for name, rows in {**cards2, **cards3}.items():
        size = 2 if name.startswith("R") else 3
        for stops in rows:
            assert len(stops) == size and len(set(stops)) == size
            assert set(stops) <= set(data.BUILDINGS)
    # the correction of research §4.2: the printed card B6 reads C G M for line 1 (BGA: C K M)
    assert set(data.stops_of("B6", 1)) == set("CGM")
    # rows typed from research §4.2
    assert [set(x) for x in cards2["R1"]] == [set(x) for x in ("BI", "BM", "DM", "EI", "BH", "FI")]
    assert [set(x) for x in cards3["B1"]] == [set(x) for x in ("CDI", "BDM", "GKL", "EFK", "EHK", "ALM")]
    assert [set(x) for x in cards3["B6"]] == [set(x) for x in ("CGM", "GHL", "CDM", "AEI", "DFI", "EKL")]
    assert data.route_cards_for(2) == data.route_cards_for(3) == tuple(cards3)
    assert data.route_cards_for(4) == data.route_cards_for(5) == tuple(cards2)
    with pytest.raises(ValueError):
        data.route_cards_for(6)


def test_dice_faces():
    assert Counter(data.DICE["bga"]) == {"GO2": 2, "GO1": 1, "RED": 1, "H": 1, "TOOLS": 1}
    assert Counter(data.DICE["published"]) == {"GO2": 1, "GO1": 1, "RED": 1, "H": 1, "TOOLS": 2}
    assert Counter(data.DICE["classic"]) == {"GO1": 1, "GO2": 1, "GO3": 1, "GO4": 1, "H": 2}
    assert all(len(f) == 6 for f in data.DICE.values())
    assert [data.face_steps(f) for f in ("GO1", "GO2", "GO3", "GO4", "RED", "H", "TOOLS")] == [1, 2, 3, 4, 0, 0, 0]
