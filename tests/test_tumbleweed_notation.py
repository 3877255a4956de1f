"""Tumbleweed notation and records (specs/tumbleweed.md "Notation and records"; research §3).

Cell names follow AbstractPlay: row letter from the bottom, position in the row from the left. Games
export as text and JSON and import back to the same position; a match saves and loads through
sim/core/record.py.
"""
from __future__ import annotations

import json
import random

import pytest

from games.tumbleweed import notation as N
from games.tumbleweed.rules import RED, WHITE, NEUTRAL, TumbleweedRules, position_state
from sim.core import record, registry
from sim.core.match import Match
from sim.core.registry import GameSpec

import test_tumbleweed_naive as naive

RULES = TumbleweedRules()


@pytest.mark.parametrize("size", [6, 8, 10, 11])
def test_every_cell_round_trips(size):
    names = set()
    for cell in naive.cells(size):
        name = N.cell_name(size, cell)
        assert N.parse_cell(size, name) == cell
        names.add(name)
    assert len(names) == len(naive.cells(size))
    # rows a (bottom) .. the (2n-1)-th letter (top); the bottom row has n cells, the middle one 2n-1
    letters = "abcdefghijklmnopqrstu"
    assert {n[0] for n in names} == set(letters[: 2 * size - 1])
    assert sum(1 for n in names if n[0] == "a") == size
    assert sum(1 for n in names if n[0] == letters[size - 1]) == 2 * size - 1


def test_named_cells_on_side_8():
    # the centre is h8; a1 is the left end of the bottom row (largest r); o1 the left end of the top row
    assert N.cell_name(8, (0, 0)) == "h8"
    assert N.parse_cell(8, "a1") == (-7, 7)
    assert N.parse_cell(8, "a8") == (0, 7)
    assert N.parse_cell(8, "o1") == (0, -7)
    assert N.parse_cell(8, "h15") == (7, 0)
    assert N.parse_cell(8, "G7") == (-1, 1)  # case does not matter


@pytest.mark.parametrize("bad", ["", "h", "8h", "a0", "a9", "p1", "h16", "hh", "a1x", "h8+", "a-1", 7])
def test_bad_cell_names_are_refused(bad):
    with pytest.raises(ValueError):
        N.parse_cell(8, bad)


def test_off_board_cells_have_no_name():
    with pytest.raises(ValueError):
        N.cell_name(4, (3, 3))


def test_move_text_marks_captures_and_reinforcements():
    # side 4: red sees the white 2-stack at (0, 0) four times (from (-2, 0), (2, 0), (0, 3), (-1, 1))
    # and its own 1-stack at (-1, 1) twice (from (-1, 3) and (-3, 1))
    s = position_state(4, {(0, 0): (WHITE, 2), (-2, 0): (RED, 1), (2, 0): (RED, 1), (0, 3): (RED, 1),
                           (-1, 1): (RED, 1), (-1, 3): (RED, 1), (-3, 1): (RED, 1)})
    assert s.sight(RED, (0, 0)) == 4
    assert s.sight(RED, (-1, 1)) == 2
    cap = {"t": "place", "q": 0, "r": 0}
    rein = {"t": "place", "q": -1, "r": 1}
    plain = {"t": "place", "q": -1, "r": 0}
    assert N.action_text(s, cap) == N.cell_name(4, (0, 0)) + "x"
    assert N.action_text(s, rein) == N.cell_name(4, (-1, 1)) + "+"
    assert N.action_text(s, plain) == N.cell_name(4, (-1, 0))
    for a in (cap, rein, plain):
        assert N.parse_move(s, N.action_text(s, a)) == [a]
    # a suffix that does not match the hex is refused with a reason
    with pytest.raises(ValueError, match="capture"):
        N.parse_move(s, N.cell_name(4, (0, 0)))
    with pytest.raises(ValueError, match="reinforcement"):
        N.parse_move(s, N.cell_name(4, (-1, 1)) + "x")
    with pytest.raises(ValueError, match="empty"):
        N.parse_move(s, N.cell_name(4, (-1, 0)) + "+")
    assert N.parse_move(s, "pass") == [{"t": "pass"}]
    with pytest.raises(ValueError, match="setup is over"):
        N.parse_move(s, "a1,a2")


def test_setup_tokens():
    m = Match(RULES, {"size": 8}, 0)
    (a,) = N.parse_move(m.state, "d4,l9")
    assert a == {"t": "setup", "red": list(N.parse_cell(8, "d4")), "white": list(N.parse_cell(8, "l9"))}
    assert N.action_text(m.state, a) == "d4,l9"
    with pytest.raises(ValueError, match="a,b"):
        N.parse_move(m.state, "d4,l9,h8")
    with pytest.raises(ValueError, match="setup step"):
        N.parse_move(m.state, "d4")
    free = Match(RULES, {"size": 8, "setup": "free"}, 0)
    acts = N.parse_move(free.state, "h8,d4,l9")
    assert [x["t"] for x in acts] == ["neutral", "setup"]


def _bot_game(size, setup="original", seed=0, plies=60):
    """A game of random legal moves (placements preferred), ``plies`` play turns at most."""
    rng = random.Random(seed)
    m = Match(RULES, {"size": size, "setup": setup}, seed)
    while not m.is_over() and m.state.ply < plies:
        p = m.active_players()[0]
        s = m.state
        if s.phase == "setup":
            cells = [c for i, c in enumerate(s.geo.cells) if s.code[i] == 0 or s.stack(c)[0] == 0]
            a, b = rng.sample(cells, 2)
            act = {"t": "setup", "red": list(a), "white": list(b)}
        else:
            acts = RULES.legal_actions(s, p)
            places = [x for x in acts if x["t"] == "place"]
            act = rng.choice(places) if places and rng.random() < 0.95 else rng.choice(acts)
        m.submit(p, act)
    return m


@pytest.mark.parametrize("size,setup,seed", [(6, "original", 1), (8, "free", 2), (5, "original", 3)])
def test_text_export_and_import_replay_to_the_same_position(size, setup, seed):
    m = _bot_game(size, setup, seed)
    text = N.export_text(m)
    assert text.startswith('[Game "Tumbleweed"]')
    back = N.import_text(text)
    assert back.state.code == m.state.code and back.state.phase == m.state.phase
    assert back.state.to_move == m.state.to_move and back.state.red_seat == m.state.red_seat
    assert N.move_tokens(back) == N.move_tokens(m)
    assert back.config["size"] == size and back.config["setup"] == setup


def test_a_finished_game_round_trips_with_its_result():
    m = _bot_game(4, seed=5, plies=10_000)
    assert m.is_over()
    text = N.export_text(m)
    back = N.import_text(text)
    assert back.is_over() and back.outcome() == m.outcome()
    assert '[Result "' in text and ('wins' in text or 'draw' in text)


def test_json_record_round_trips():
    m = _bot_game(6, seed=7)
    rec = N.to_json(m)
    assert rec["size"] == 6 and rec["setup"] == "original" and rec["swap"] == (m.state.red_seat == 1)
    assert rec["moves"][0].count(",") == 1 and rec["moves"][1] in ("red", "white")
    back = N.from_json(json.loads(json.dumps(rec)))
    assert back.state.code == m.state.code and N.move_tokens(back) == rec["moves"]


def test_imports_fail_with_a_reason():
    with pytest.raises(ValueError, match="move 3"):
        N.import_text('[Size "6"]\n\nf1,f11 red zz9')
    with pytest.raises(ValueError, match="move 3"):
        N.import_text('[Size "6"]\n\nf1,f11 red c3')  # a real cell, (-3, 3), but red at (-5, 0) does not see it
    with pytest.raises(ValueError, match="Size"):
        N.import_text('[Size "big"]\n')
    with pytest.raises(ValueError, match="size"):
        N.import_text('[Size "3"]\n')
    with pytest.raises(ValueError, match="not a Tumbleweed game"):
        N.import_text('[Game "Chess"]\n')
    with pytest.raises(ValueError, match="tag"):
        N.import_text('[Size 6]\n')
    with pytest.raises(ValueError, match="over"):
        N.import_text('[Size "4"]\n\nd1,d7 white pass pass pass')
    m = _bot_game(6, seed=7)
    rec = N.to_json(m)
    with pytest.raises(ValueError, match="swap"):
        N.from_json({**rec, "swap": not rec["swap"]})
    with pytest.raises(ValueError, match="unknown fields"):
        N.from_json({**rec, "extra": 1})
    with pytest.raises(ValueError, match="format"):
        N.from_json({"moves": []})


def test_comments_and_move_numbers_are_ignored():
    m = N.import_text('[Size "6"]\n{a comment} f1,f11 white\n1. f2 {why not} ')
    assert N.move_tokens(m) == ["f1,f11", "white", "f2"]


def test_board_text_lists_stacks_by_row():
    s = position_state(4, {(0, 0): (NEUTRAL, 2), (-3, 3): (RED, 1), (3, -3): (WHITE, 4)})
    rows = N.board_text(s).splitlines()
    assert len(rows) == 7 and rows[0].split()[0] == "g" and rows[-1].split()[0] == "a"
    assert rows[3].split()[1:] == [".", ".", ".", "N2", ".", ".", "."]
    assert rows[-1].split()[1] == "R1" and rows[0].split()[-1] == "W4"


def test_save_load_replay_through_the_match_record(monkeypatch, tmp_path):
    spec = GameSpec(name="tumbleweed", title="Tumbleweed", summary="", make_rules=TumbleweedRules,
                    make_scene=lambda *a, **k: None, rules_text=tmp_path / "rules.md")
    real = registry.get_spec
    monkeypatch.setattr(registry, "get_spec", lambda name: spec if name == "tumbleweed" else real(name))
    m = _bot_game(6, seed=11, plies=40)
    m.undo()  # a redo tail is kept in the record too
    path = tmp_path / "game.json"
    record.save(m, path)
    back = record.load(path, expect_game="tumbleweed")
    assert back.state == m.state and back.cursor == m.cursor and len(back.log) == len(m.log)
    back.redo()
    m.redo()
    assert back.state == m.state
    # a tampered action is refused with a one-line reason
    rec = record.to_record(m)
    k = next(i for i, (p, a) in enumerate(rec["actions"]) if a["t"] == "place")
    rec["actions"][k][1] = {"t": "place", "q": 99, "r": 0}
    with pytest.raises(record.RecordError, match=f"action {k} is illegal"):
        record.from_record(rec)
