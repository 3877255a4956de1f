"""A naive Tumbleweed model for the tests, written from the rule text alone (specs/tumbleweed.md "Rules"),
and a few checks of the model itself against hand counts. The other Tumbleweed test files import it
(``from test_tumbleweed_naive import ...``: tests/ is on sys.path, see tests/naive.py).

Positions are dicts ``{(q, r): (owner, height)}`` with owner 1 red, 2 white, 3 neutral. Sight is found
by looking out from each hex: in each of the six directions the first stack met sees the hex if it is
red or white. Nothing here is shared with ``games/tumbleweed``.
"""
from __future__ import annotations

from functools import lru_cache

AXIAL = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
RED, WHITE, NEUTRAL = 1, 2, 3


def on_board(size, cell):
    q, r = cell
    return max(abs(q), abs(r), abs(q + r)) <= size - 1


def cells(size):
    m = size - 1
    return [(q, r) for q in range(-m, m + 1) for r in range(-m, m + 1) if on_board(size, (q, r))]


@lru_cache(maxsize=None)
def line(size, cell, d):
    """The cells met walking from ``cell`` in direction ``d`` to the edge, nearest first."""
    dq, dr = AXIAL[d]
    q, r = cell
    out = []
    k = 1
    while on_board(size, (q + dq * k, r + dr * k)):
        out.append((q + dq * k, r + dr * k))
        k += 1
    return tuple(out)


def first_stack(size, stacks, cell, d):
    """The first occupied cell from ``cell`` in direction ``d`` (not counting ``cell``), or None."""
    for c in line(size, cell, d):
        if c in stacks:
            return c
    return None


def sight(size, stacks, cell):
    """(red, white): how many red and white stacks see ``cell``."""
    n = [0, 0, 0, 0]
    for d in range(6):
        c = first_stack(size, stacks, cell, d)
        if c is not None:
            n[stacks[c][0]] += 1
    return n[RED], n[WHITE]


def legal(size, stacks, colour):
    """Cells where ``colour`` may place: seen by it, and more often than the stack there is tall."""
    out = []
    for c in cells(size):
        s = sight(size, stacks, c)[colour - 1]
        h = stacks[c][1] if c in stacks else 0
        if s >= 1 and s > h:
            out.append(c)
    return out


def score(size, stacks, strict=False):
    """{'red': (stacks, territory), 'white': (...)} (territory: empty cells seen more often)."""
    st = {RED: 0, WHITE: 0}
    terr = {RED: 0, WHITE: 0}
    for c in cells(size):
        if c in stacks:
            if stacks[c][0] in st:
                st[stacks[c][0]] += 1
        else:
            r, w = sight(size, stacks, c)
            if r > w:
                terr[RED] += 1
            elif w > r:
                terr[WHITE] += 1
    return {"red": (st[RED], terr[RED]), "white": (st[WHITE], terr[WHITE])}


# ------------------------------------------------------------------ checks of the model itself
def test_cell_counts_by_hand():
    # side 2: the centre and its ring of 6; side 3: 1 + 6 + 12 (research §1.6: 3n(n-1)+1)
    assert len(cells(2)) == 7
    assert len(cells(3)) == 19
    assert len(cells(8)) == 169


def test_sight_by_hand():
    # side 4; a red stack at (-3, 0) looks east along r = 0 up to the neutral centre, which blocks
    stacks = {(-3, 0): (RED, 1), (0, 0): (NEUTRAL, 2)}
    assert sight(4, stacks, (-1, 0)) == (1, 0)
    assert sight(4, stacks, (0, 0)) == (1, 0)   # the blocking stack is itself seen
    assert sight(4, stacks, (1, 0)) == (0, 0)   # behind it: blocked
    assert sight(4, stacks, (-3, 0)) == (0, 0)  # a stack does not see its own hex
    assert score(4, stacks) == {"red": (1, 8), "white": (0, 0)}
