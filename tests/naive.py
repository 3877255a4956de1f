"""The naive reference model of the Tantrix placement rule, shared by the rules tests.

This is an independent oracle: it is written from research/tantrix.md §1.5 (the 56 tiles, here read
as ``games.gobble.data.TILES``, which tests/test_tiles.py checks against the research text) and §5
(specs/gobble.md "Geometry"): edge i faces axial direction i (E, NE, NW, W, SW, SE), a tile at
rotation k shows base[(i + k) % 6] at direction i, and a placement is legal when the cell is empty,
touches at least two tiles and every touching edge matches. It must not import games.gobble.board
(nor anything built on it): the board and the rules engines are what it checks.

A position here is a plain dict {cell: (tile, rotation)}; pass ``board.tiles`` for a Board.
The test files import it as ``from naive import ...``: tests/ has no __init__.py, so pytest's default
"prepend" import mode puts tests/ on sys.path.
"""
from __future__ import annotations

from games.gobble import data

NDIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
BASE = {n: e for n, (e, _b) in data.TILES.items()}
SHOWN = {(n, k): "".join(e[(i + k) % 6] for i in range(6)) for n, e in BASE.items() for k in range(6)}


def shown(n, rot):
    """Colours at directions 0..5 of tile n at rotation rot (spec convention base[(i + rot) % 6])."""
    return SHOWN[(n, rot % 6)]


def nb(cell, d):
    """The cell next to ``cell`` in direction d."""
    return (cell[0] + NDIRS[d][0], cell[1] + NDIRS[d][1])


def naive_neighbours(tiles, cell):
    """How many tiles touch ``cell``."""
    return sum(nb(cell, d) in tiles for d in range(6))


def naive_frontier(tiles):
    """Every empty cell touching a tile."""
    return {nb(c, d) for c in tiles for d in range(6)} - set(tiles)


def naive_pattern(tiles, cell):
    """The colours the touching tiles show toward ``cell``, by direction ('.' where no tile)."""
    out = []
    for d in range(6):
        m = nb(cell, d)
        out.append(shown(*tiles[m])[(d + 3) % 6] if m in tiles else ".")
    return "".join(out)


def naive_legal(tiles, n, rot, cell):
    """True when tile n at rotation rot may go on ``cell``."""
    if cell in tiles:
        return False
    if naive_neighbours(tiles, cell) < 2:
        return False
    s = shown(n, rot)
    for d in range(6):
        m = nb(cell, d)
        if m in tiles and shown(*tiles[m])[(d + 3) % 6] != s[d]:
            return False
    return True


def naive_fits(pattern, n):
    """The rotations of tile n that show every colour of ``pattern`` ('.' matches anything)."""
    return [k for k in range(6) if all(c == "." or shown(n, k)[d] == c for d, c in enumerate(pattern))]


def naive_placements(tiles, n):
    """Every legal (cell, rotation) of tile n (a legal cell touches tiles, so only the frontier is tried)."""
    return {(c, k) for c in naive_frontier(tiles) for k in range(6) if naive_legal(tiles, n, k, c)}


def naive_mismatches(tiles):
    """How many pairs of touching edges show different colours."""
    bad = 0
    for c, t in tiles.items():
        for d in range(6):
            m = nb(c, d)
            if m in tiles and shown(*t)[d] != shown(*tiles[m])[(d + 3) % 6]:
                bad += 1
    assert bad % 2 == 0
    return bad // 2


def grow(rng, count, tries=None):
    """A board grown by legal play (naive rule) from a shuffled bag: two matched tiles at (0, 0) and
    (1, 0), then random legal placements of the bag's last tile (a tile that fits nowhere goes to the
    bottom of the bag) until ``count`` tiles are down or ``tries`` attempts (4 * count by default) are
    spent. Returns ({cell: (tile, rot)}, the rest of the bag)."""
    bag = list(BASE)
    rng.shuffle(bag)
    a = bag.pop()
    tiles = {(0, 0): (a, rng.randrange(6))}
    need = shown(*tiles[(0, 0)])[0]
    while True:
        b = bag.pop()
        rots = [k for k in range(6) if shown(b, k)[3] == need]
        if rots:
            tiles[(1, 0)] = (b, rng.choice(rots))
            break
        bag.insert(0, b)
    for _ in range(4 * count if tries is None else tries):
        if len(tiles) >= count or not bag:
            break
        n = bag[-1]
        opts = sorted(naive_placements(tiles, n))
        if opts:
            c, k = rng.choice(opts)
            tiles[c] = (n, k)
            bag.pop()
        else:
            bag.insert(0, bag.pop())
    return tiles, bag


def find_gobbles(tiles, free, k1, k2=None):
    """The first (g1, t, r1, g2, p, r2), or None: an empty cell g1 with k1 neighbours that tile t (from
    ``free``) fills at rotation r1 and, unless k2 is None (then g2, p, r2 are None), an empty cell g2 with
    k2 neighbours, not next to g1, that another tile p fills at rotation r2. Searched in sorted order of
    g1, then t, then g2, then p; rotations are the lowest legal ones."""
    empties = sorted(naive_frontier(tiles))
    for g1 in (c for c in empties if naive_neighbours(tiles, c) == k1):
        for t in free:
            r1 = [k for k in range(6) if naive_legal(tiles, t, k, g1)]
            if not r1:
                continue
            if k2 is None:
                return g1, t, r1[0], None, None, None
            for g2 in empties:
                if g2 == g1 or naive_neighbours(tiles, g2) != k2 or any(nb(g1, d) == g2 for d in range(6)):
                    continue
                for p in free:
                    if p == t:
                        continue
                    r2 = [k for k in range(6) if naive_legal(tiles, p, k, g2)]
                    if r2:
                        return g1, t, r1[0], g2, p, r2[0]
    return None
