"""Streetcar routes (specs/streetcar.md "Route and the tram"; research/tram.md §6.4-§6.5): a complete
route in every stop order, no turning at a right angle between tracks, crossings go straight, the
four-curve tile must curve; checked on hand-made boards and against a naive oracle on played boards."""
from __future__ import annotations

from collections import deque
from itertools import permutations

import pytest

from games.streetcar import data
from games.streetcar.route import linked_stops, route_complete, route_length
from games.streetcar.tiles import EXITS, Board, cell_of, mask_of, xy_of

from bot_games import streetcar as play_game

STRAIGHT, CURVE = 0, 1
NS, EW = (STRAIGHT, 1), (STRAIGHT, 0)
SW, NW, NE, ES = (CURVE, 0), (CURVE, 1), (CURVE, 2), (CURVE, 3)

#: Line 1 from its top terminal (2, 0)-(3, 0) to its bottom one (6, 13)-(7, 13), passing the stop
#: squares of G (2, 5), F (2, 8), M (4, 8) and E (5, 11) in that order: 16 squares.
LINE1 = [((2, 1), NS), ((2, 2), NS), ((2, 3), NS), ((2, 4), NS), ((2, 5), NS), ((2, 6), NS), ((2, 7), NS),
         ((2, 8), NE), ((3, 8), EW), ((4, 8), EW), ((5, 8), SW), ((5, 9), NS), ((5, 10), NS), ((5, 11), NE),
         ((6, 11), SW), ((6, 12), NS)]


def lay(path, replace_at=None):
    """A board with the tiles of ``path`` laid in order; ``replace_at`` = {(x, y): (tile, rot)}."""
    b = Board()
    for (x, y), (t, r) in path:
        if replace_at and (x, y) in replace_at:
            t, r = replace_at[(x, y)]
        b = b.put(cell_of(x, y), t, r)
    return b


def line1_board(**kw):
    return lay(LINE1, **kw)


# ------------------------------------------------------------------ a naive oracle
SIDES = "NESW"
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
# research §2.3 "fixed pieces", typed from the table: ring side -> (first cell, second cell)
PIECES = {"top": ("ES", "SW"), "bottom": ("NE", "NW"), "left": ("ES", "NE"), "right": ("SW", "NW")}


def naive_tracks(board: Board) -> dict[tuple[int, int], list[str]]:
    """Every square's tracks as side-letter pairs, from the tile table and rotations turned by hand."""
    out = {}
    for y in range(1, 13):
        for x in range(1, 13):
            tr = board.tile_at(cell_of(x, y))
            if tr is None:
                continue
            t, r = tr
            out[(x, y)] = ["".join(SIDES[(SIDES.index(a) + r) % 4] for a in p) for p in data.TILES[t].pairs]
    for line, ends in data.TERMINALS.items():
        for cells in ends:
            (x, y) = cells[0]
            where = "top" if y == 0 else "bottom" if y == 13 else "left" if x == 0 else "right"
            for cell, piece in zip(cells, PIECES[where]):
                out[cell] = [piece]
    return out


def naive_complete(board: Board, line: int, stops: str) -> bool:
    """Breadth-first over (square, side come in by, stops served) from the legs of terminal 0 to a leg
    of terminal 1 entered from the board with every stop served."""
    tracks = naive_tracks(board)
    signs = {}
    for k in stops:
        c = board.sign_of(k)
        if c < 0:
            return False
        signs[xy_of(c)] = k
    start, goal = data.TERMINALS[line]
    todo = deque()
    seen = set()
    for i, cell in enumerate(start):
        other = start[1 - i]
        d = [s for s, v in STEP.items() if (cell[0] + v[0], cell[1] + v[1]) == other][0]
        todo.append((cell, d, frozenset()))    # as if it came round the loop from the other cell
    while todo:
        cell, came, served = todo.popleft()
        for p in tracks.get(cell, []):
            if came not in p:
                continue
            out = p.replace(came, "")
            nxt = (cell[0] + STEP[out][0], cell[1] + STEP[out][1])
            back = OPP[out]
            if not any(back in q for q in tracks.get(nxt, [])):
                continue
            sv = served | ({signs[nxt]} if nxt in signs else set())
            if nxt in goal and len(sv) == len(set(stops)):
                return True
            st = (nxt, back, sv)
            if st not in seen:
                seen.add(st)
                todo.append(st)
    return False


# ------------------------------------------------------------------ hand-made boards
def test_hand_laid_route_is_legal_with_its_signs():
    b = line1_board()
    assert b.all_defects() == []
    assert {k: xy_of(b.sign_of(k)) for k in "GFME"} == {"G": (2, 5), "F": (2, 8), "M": (4, 8), "E": (5, 11)}


@pytest.mark.parametrize("stops", ["GFM", "GME", "FME", "GFE"])
def test_complete_route_in_every_stop_order(stops):
    b = line1_board()
    for order in permutations(stops):
        card = "".join(order)
        assert route_complete(b, 1, card), card
        assert naive_complete(b, 1, card), card


def test_route_not_complete_without_a_stop_or_on_another_line():
    b = line1_board()
    assert not route_complete(b, 1, "GFA")                       # A has no sign yet
    b2 = b.put(cell_of(9, 1), STRAIGHT, 1)                       # A's sign, not linked
    assert b2.sign_of("A") == cell_of(9, 1)
    assert not route_complete(b2, 1, "GFA") and not naive_complete(b2, 1, "GFA")
    assert not route_complete(b, 2, "GFM")
    # a gap: without (3, 8) nothing links M to the top terminal
    gap = lay([p for p in LINE1 if p[0] != (3, 8)])
    assert not route_complete(gap, 1, "GFM")
    assert linked_stops(gap, 1, "GFME") == "GFME"                 # both halves reach their terminal
    half = lay(LINE1[:9])
    assert linked_stops(half, 1, "GFME") == "GF"


def test_route_length_counts_squares_and_the_terminal():
    b = line1_board()
    assert route_length(b, 1, 0, "GFM") == 17 == route_length(b, 1, 1, "GFM")


def test_tram_never_switches_tracks_at_a_right_angle():
    y_tile = mask_of(["NE", "NW"])
    assert EXITS[y_tile][1] == (0,) and EXITS[y_tile][3] == (0,) and set(EXITS[y_tile][0]) == {1, 3}
    switch = mask_of(["NS", "SW"])
    assert EXITS[switch][3] == (2,) and set(EXITS[switch][2]) == {0, 3} and EXITS[switch][0] == (2,)
    # a switch N-S + S-W at (5, 8): the tram comes in by W and follows the curve S: complete
    ok = line1_board(replace_at={(5, 8): (2, 0)})
    assert ok.all_defects() == [] and route_complete(ok, 1, "GFM")
    # a Y tile (S-W + E-S) in the E-W run at (3, 8): coming in by W the tram must curve S; going on E
    # would switch from one curve to the other at a right angle: the route is broken
    b = line1_board(replace_at={(3, 8): (4, 2)})
    assert b.all_defects() == []
    assert not route_complete(b, 1, "GFM") and not naive_complete(b, 1, "GFM")


def test_crossing_goes_straight_and_four_curves_must_curve():
    cross = mask_of(["NS", "EW"])
    assert EXITS[cross][0] == (2,) and EXITS[cross][1] == (3,)
    four = mask_of(["NE", "ES", "SW", "NW"])
    assert set(EXITS[four][0]) == {1, 3} and set(EXITS[four][1]) == {0, 2}
    # a crossing where the route turns (W -> S at (5, 8)): the tram must go on straight: broken
    b = line1_board(replace_at={(5, 8): (9, 0)})
    assert b.all_defects() == []
    assert not route_complete(b, 1, "GFM") and not naive_complete(b, 1, "GFM")
    # the four-curve tile there turns W -> S: fine
    b = line1_board(replace_at={(5, 8): (8, 0)})
    assert route_complete(b, 1, "GFM")
    # a four-curve tile in the straight column: the tram may not go straight on
    b = line1_board(replace_at={(2, 4): (8, 0)})
    assert b.all_defects() == []
    assert not route_complete(b, 1, "GFM") and not naive_complete(b, 1, "GFM")
    # a crossing there: straight on
    b = line1_board(replace_at={(2, 4): (9, 0)})
    assert route_complete(b, 1, "GFM")


def test_route_through_another_terminal():
    # line 6's left terminal (0, 2)-(0, 3): come in at (1, 3) from the E, leave at (1, 2) going E
    path = [((1, 3), EW), ((1, 2), EW)]
    b = lay(path)
    assert b.all_defects() == []
    from games.streetcar.route import node, tram_graph
    g = tram_graph(b.tracks)
    # from (1, 3) heading W the next square is the terminal, and then (1, 2) heading E
    n_term = node(cell_of(0, 3), 1)
    assert g.next(node(cell_of(1, 3), 1)) == (n_term,)
    assert g.next(n_term) == (node(cell_of(1, 2), 3),)


# ------------------------------------------------------------------ against the oracle
def _played_boards():
    boards = []
    for seed, players in ((11, ["bot:medium", "bot:hard"]), (12, ["bot:easy", "bot:easy", "bot:medium"])):
        m, _ = play_game(players, seed, check=False)
        for i in (len(m.log) // 3, len(m.log) // 2, len(m.log)):
            boards.append(m.states[i].board)
    return boards


def test_route_check_agrees_with_naive_oracle_on_played_boards():
    agree = complete = 0
    for b in _played_boards():
        for line in data.LINES:
            for card in data.ROUTE_CARDS_3:
                stops = data.stops_of(card, line)
                got = route_complete(b, line, stops)
                assert got == naive_complete(b, line, stops), (line, stops)
                agree += 1
                complete += got
    assert agree == 6 * 36 and complete > 0
