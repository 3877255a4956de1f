"""Tumbleweed positions with stated facts from other implementations (tests/data/tumbleweed_positions.json,
copied from research/real; sources in tests/data/README.md).

* AbstractPlay (gameslib tests): 28,056 legal opening setups on side 8; positions where a ``+`` or an
  ``x`` move exists; a move that is not legal; cells that a player does not see.
* A Rust engine's ``test_los`` on side 5: 20 line-of-sight and legality assertions.
* Every record also carries counts derived by the research's own naive engine (score, legal and
  non-suicidal placements, the legal moves in AbstractPlay notation): checked as a cross-check.

Conventions, re-derived here from the sources' stated rules rather than taken from our code:
AbstractPlay names a cell by its row letter counted from the bottom (``a`` = the row nearest the viewer,
our largest r) and its position in the row from the left (smallest q first); the Rust engine's (x, y, z)
cube coordinates are our (q, r, s).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.tumbleweed import notation
from games.tumbleweed.rules import NEUTRAL, RED, WHITE, TumbleweedRules, position_state, scores
from sim.core.match import Match

import test_tumbleweed_naive as naive

DATA = json.loads((Path(__file__).resolve().parent / "data" / "tumbleweed_positions.json").read_text("utf-8"))
RECORDS = {r["id"]: r for r in DATA["positions"]}
COLOURS = {"red": RED, "white": WHITE, "neutral": NEUTRAL}
RULES = TumbleweedRules()


def ap_cell(size, name):
    """AbstractPlay cell -> axial, by listing the rows (bottom row first) and their cells left to right."""
    rows = sorted({r for _, r in naive.cells(size)}, reverse=True)  # bottom (largest r) first
    k = "abcdefghijklmnopqrstuvwxyz".index(name[0])
    row = sorted(c for c in naive.cells(size) if c[1] == rows[k])
    return row[int(name[1:]) - 1]


def given_stacks(rec):
    size = rec["board_size"]
    out = {}
    for s in rec["stacks_as_given"]:
        cell = ap_cell(size, s["cell"]) if rec["notation"] == "abstractplay" else (s["x"], s["y"])
        out[cell] = (COLOURS[s["colour"]], s["height"])
    return out


def derived_stacks(rec):
    return {(q, r): (COLOURS[c], h) for q, r, c, h in rec["derived_by_naive_engine"]["stacks_axial"]}


def stacks_after_moves(rec):
    """The record's stacks as given, then its listed moves played (height = the mover's sight)."""
    size = rec["board_size"]
    stacks = given_stacks(rec) if "stacks_as_given" in rec else derived_stacks(rec)
    for mv in rec.get("moves", []):
        colour = COLOURS[mv["player"]]
        cell = tuple(mv["cell"])
        stacks[cell] = (colour, naive.sight(size, stacks, cell)[colour - 1])
    return stacks


def state_of(rec):
    """The record's position (after its listed moves) with its side to move."""
    return position_state(rec["board_size"], stacks_after_moves(rec), to_move=COLOURS[rec.get("to_move", "red")])


def test_the_file_holds_what_the_readme_says():
    ids = list(RECORDS)
    assert len(ids) == 28
    assert sum(1 for r in DATA["positions"] if r["assertions"]) == 10
    rust = [a for r in DATA["positions"] if r["id"].startswith("rust") for a in r["assertions"]]
    los_pattern_hexes = 0
    for r in DATA["positions"]:
        if r["id"].startswith("rust"):
            los_pattern_hexes += sum(1 for a in r["assertions"] if a["kind"] == "los_pattern")
    assert len(rust) == 20 and los_pattern_hexes == 2


@pytest.mark.parametrize("rid", [r for r in RECORDS if RECORDS[r]["notation"] in ("abstractplay", "rust-hexagonal")])
def test_conversions_agree_with_the_record_and_our_notation(rid):
    rec = RECORDS[rid]
    assert stacks_after_moves(rec) == derived_stacks(rec)
    if rec["notation"] == "abstractplay":
        for s in rec["stacks_as_given"]:
            assert notation.parse_cell(rec["board_size"], s["cell"]) == ap_cell(rec["board_size"], s["cell"])


# ------------------------------------------------------------------------------ stated facts
def test_28056_legal_opening_setups_on_side_8():
    rec = RECORDS["ap-default-opening"]
    (fact,) = rec["assertions"]
    m = Match(RULES, {"size": 8}, 0)
    acts = RULES.legal_actions(m.state, 0)
    assert len(acts) == fact["value"] == 28056 == (169 - 1) * (169 - 2)
    assert len({(tuple(a["red"]), tuple(a["white"])) for a in acts}) == 28056
    assert all(a["red"] != [0, 0] and a["white"] != [0, 0] for a in acts)  # centre excluded
    assert notation.cell_name(8, (0, 0)) == rec["stacks_as_given"][0]["cell"] == "h8"


@pytest.mark.parametrize("rid,suffix", [("ap-reinforce-notation", "+"), ("ap-capture-notation", "x")])
def test_a_move_with_the_suffix_exists(rid, suffix):
    rec = RECORDS[rid]
    (fact,) = rec["assertions"]
    assert fact["suffix"] == suffix and fact["value"] is True
    names = notation.legal_move_names(state_of(rec))
    assert any(n.endswith(suffix) for n in names)
    # and it is what the rules call it
    m = next(n for n in names if n.endswith(suffix))
    s = state_of(rec)
    (act,) = notation.parse_move(s, m)
    _, ev = RULES.apply(s, 0, act)
    assert ev[0]["kind"] == ("reinforce" if suffix == "+" else "capture")


def _check_assertion(rec, s, a):
    size = rec["board_size"]
    colour = COLOURS[a["player"]]
    cell = tuple(a["cell"]) if isinstance(a.get("cell"), list) else (
        ap_cell(size, a["cell"]) if "cell" in a else None)
    if a["kind"] == "los":
        assert s.sight(colour, cell) == a["value"], (rec["id"], a)
    elif a["kind"] == "move_is_legal":
        assert s.engine().is_legal(s.index(cell), colour) == a["value"], (rec["id"], a)
    elif a["kind"] == "los_pattern":
        stacks = derived_stacks(rec)
        for c in naive.cells(size):
            if c in stacks:
                continue
            q, r = c
            on_line = any({"x": q, "y": r, "z": -q - r}[ln["axis"]] == ln["value"] for ln in a["lines"])
            assert s.sight(colour, c) == (1 if on_line else 0), (c, a)
            assert s.engine().is_legal(s.index(c), colour) == on_line, (c, a)
    else:  # pragma: no cover - the file's kinds are listed above
        raise AssertionError(f"unknown assertion kind {a['kind']}")


@pytest.mark.parametrize("rid", ["ap-capture-delay", "ap-fog-centre-hidden", "ap-fog-opponent-hidden",
                                 "ap-fog-omniscient", "ap-fog-stale-memory"])
def test_abstractplay_sight_and_legality_facts(rid):
    rec = RECORDS[rid]
    s = state_of(rec)
    for a in rec["assertions"]:
        _check_assertion(rec, s, a)


def test_the_20_line_of_sight_assertions_on_side_5():
    done = 0
    for rid in ("rust-test_los-setup", "rust-test_los-after-white"):
        rec = RECORDS[rid]
        s = state_of(rec)
        for a in rec["assertions"]:
            _check_assertion(rec, s, a)
            done += 1
    assert done == 20


def test_the_rust_position_reached_through_our_setup_and_pie():
    # Setup((1,1),(-1,-2)) on side 5 (Rust's Black, the first player, is our red); white then plays (-1, 3)
    m = Match(RULES, {"size": 5}, 0)
    m.submit(0, {"t": "setup", "red": [1, 1], "white": [-1, -2]})
    m.submit(1, {"t": "choose", "colour": "white"})
    m.submit(0, {"t": "pass"})  # red passes so that white moves, as in the test
    m.submit(1, {"t": "place", "q": -1, "r": 3})
    rec = RECORDS["rust-test_los-after-white"]
    for a in rec["assertions"]:
        _check_assertion(rec, m.state, a)


# ------------------------------------------------------------- cross-checks with derived counts
@pytest.mark.parametrize("rid", [r for r in RECORDS if RECORDS[r].get("derived_by_naive_engine", {}).get("to_move")])
def test_derived_counts(rid):
    rec = RECORDS[rid]
    d = rec["derived_by_naive_engine"]
    s = state_of(rec)
    sc = scores(s)
    assert {"red": sc["red"]["score"], "white": sc["white"]["score"]} == d["score_now"]
    e = s.engine()
    legal = e.legal()
    assert len(legal) == d["legal_placements"]
    assert sum(1 for i in legal if not e.is_suicidal(i)) == d["non_suicidal_placements"]
    if "legal_moves_notation" in d:
        assert notation.legal_move_names(s) == sorted(d["legal_moves_notation"])
