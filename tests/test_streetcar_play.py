"""Streetcar whole games: bot selfplay for 2 to 5 seats ends with a winner or the draw rule with every
tile accounted for; records save, load and replay exactly; the legal-action list agrees with ``check``;
bots decide only from what their seat may see; the selfplay JSON lines."""
from __future__ import annotations

import io
import json
import random
from dataclasses import replace

import pytest

from games.streetcar import data
from games.streetcar.ai import StreetcarBot, make_bot
from games.streetcar.rules import StreetcarRules
from games.streetcar.tiles import ORIENT, cell_of
from sim.core import record, registry, selfplay
from sim.core.match import Match, check_setup
from sim.core.rules import CHANCE, IllegalAction

from bot_games import streetcar as play_game

R = StreetcarRules()


class _Spec:
    name = "streetcar"
    seat_levels = ("easy", "medium", "hard")

    @staticmethod
    def make_rules():
        return StreetcarRules()


@pytest.fixture
def streetcar_registered(monkeypatch):
    """Records name their game; point the registry's lookup at Streetcar for this test only."""
    real = registry.get_spec
    monkeypatch.setattr(registry, "get_spec", lambda name: _Spec if name == "streetcar" else real(name))


def tiles_total(s):
    n = sum(s.pile) + sum(len(st.hand) for st in s.seats) + s.board.count
    return n


@pytest.mark.parametrize("players,seed", [
    (["bot:hard", "bot:easy"], 21),
    (["bot:medium", "bot:easy", "bot:hard"], 22),
    (["bot:easy", "bot:medium", "bot:medium", "bot:hard"], 23),
    (["bot:easy", "bot:easy", "bot:medium", "bot:medium", "bot:hard"], 24),
])
def test_bot_games_end_with_every_tile_accounted_for(players, seed):
    m, plays = play_game(players, seed, check=True)   # invariants after every action
    s = m.state
    res = m.outcome()
    assert s.phase == "over"
    assert (res["winner"] is not None) != res["draw"]
    assert tiles_total(s) == 101 + 5 * len(players)
    if res["winner"] is not None:
        w = res["winner"]
        assert s.seats[w].driving and res["complete"][w]
        assert any(p["play"] == "start" and p["seat"] == w for p in plays)
    # every tile play in the record names type, rotation, square and how
    tiles = [p for p in plays if p["play"] == "tile"]
    assert tiles and all(p["how"] in ("placed", "exchanged") and 1 <= p["x"] <= 12 for p in tiles)
    assert sum(p["how"] == "placed" for p in tiles) == s.board.count


def test_random_players_reach_the_draw_rule_or_a_win():
    # players choosing uniformly among the legal actions (starting a trip when they can)
    for seed in (31, 32):
        m = Match(R, {"players": 3}, seed)
        rng = random.Random(seed)
        while not m.is_over():
            p = m.active_players()[0]
            acts = R.legal_actions(m.state, p)
            starts = [a for a in acts if a["t"] == "start"]
            m.submit(p, starts[0] if starts else rng.choice(acts))
            assert R.invariants(m.state) == []
        assert tiles_total(m.state) == 101 + 15


def test_record_saves_loads_and_replays_exactly(streetcar_registered, tmp_path):
    m, _ = play_game(["bot:medium", "bot:hard", "bot:easy"], 41, check=False)
    rec = json.loads(json.dumps(record.to_record(m)))
    m2 = record.from_record(rec, expect_game="streetcar")
    assert m2.state == m.state and m2.outcome() == m.outcome()
    path = tmp_path / "sc.json"
    record.save(m, path)
    assert record.load(path).state == m.state
    # a tampered record fails with a reason, nothing half-loaded
    bad = json.loads(json.dumps(rec))
    i = next(k for k, (p, a) in enumerate(bad["actions"]) if p == 0 and a["t"] == "tile")
    bad["actions"][i][1]["x"] = 0
    with pytest.raises(record.RecordError, match=f"action {i} is illegal"):
        record.from_record(bad)
    bad = json.loads(json.dumps(rec))
    j = next(k for k, (p, a) in enumerate(bad["actions"]) if p == CHANCE and a["t"] == "draw")
    bad["actions"][j][1]["tile"] = (bad["actions"][j][1]["tile"] + 1) % 12
    with pytest.raises(record.RecordError, match="seed does not give"):
        record.from_record(bad)


def _key(a):
    """A tile play up to rotations that show the same tracks."""
    return (a["tile"], ORIENT[a["tile"]][a["rot"]], a["x"], a["y"], a.get("hand"))


def test_legal_actions_agree_with_check():
    m, _ = play_game(["bot:medium", "bot:easy"], 51, check=False)
    rng = random.Random(5)
    tested = 0
    for i in range(0, len(m.states), 7):
        s = m.states[i]
        actors = R.active_players(s)
        if not actors or actors == [CHANCE]:
            continue
        p = actors[0]
        legal = R.legal_actions(s, p)
        assert legal, i
        for a in legal:
            R.check(s, p, a)
        if s.phase != "play":
            continue
        keys = {_key(a) for a in legal if a["t"] == "tile"}
        for _ in range(150):
            h = p
            hand = s.seats[h].hand
            if not hand:
                break
            a = {"t": "tile", "tile": rng.choice(hand), "rot": rng.randrange(4), "x": rng.randint(1, 12),
                 "y": rng.randint(1, 12)}
            try:
                R.check(s, p, a)
                ok = True
            except IllegalAction:
                ok = False
            assert ok == (_key({**a, "hand": None}) in keys), (i, a)
            tested += 1
    assert tested > 300


def test_bots_decide_only_from_what_their_seat_sees():
    m, _ = play_game(["bot:hard", "bot:medium", "bot:easy"], 61, check=False)
    checked = 0
    for s in m.states[::7]:
        if s.phase not in ("play", "roll", "choose"):
            continue
        me = s.turn
        # give every other builder different secret cards: the decision must not change
        seats = tuple(st if i == me or st.driving else replace(st, line=7 - st.line if st.line else 1,
                                                                 card="B6", stops="ACE")
                      for i, st in enumerate(s.seats))
        other = replace(s, seats=seats, lines_left=(), cards_left=())
        for level in ("easy", "medium", "hard"):
            # a clock that never moves: the hard bot's budget never cuts its search short
            a1 = StreetcarBot(level, 3, clock=lambda: 0.0).select_action(R, s, me)
            a2 = StreetcarBot(level, 3, clock=lambda: 0.0).select_action(R, other, me)
            assert a1 == a2
        checked += 1
    assert checked >= 6
    obs = R.observe(m.states[10], 0)
    assert all(st.line == 0 or st.driving for i, st in enumerate(obs.seats) if i != 0)
    assert obs.seats[0].line > 0


def test_selfplay_json_lines():
    from games.streetcar import SPEC as spec
    buf = io.StringIO()
    summary = selfplay.run(spec, ["bot:medium", "bot:easy"], 2, 70, lambda sat: {"players": 2, "seats": sat},
                           json_lines=True, out=buf, check=selfplay.check_invariants)
    lines = [json.loads(x) for x in buf.getvalue().splitlines()]
    assert len(lines) == 3 and lines[-1]["summary"] is True and lines[-1] == summary
    for g in lines[:2]:
        assert g["winner"] is not None or g["outcome"]["draw"]
        kinds = {p["play"] for p in g["plays"]}
        assert {"tile", "roll", "start"} <= kinds
        roll = next(p for p in g["plays"] if p["play"] == "roll")
        assert roll["faces"] and "chosen" in roll and "path" in roll
        m = record.from_record(g["record"])
        assert m.outcome()["winner"] == g["winner"]
        assert g["figures"]["completed"] == [bool(c) for c in g["outcome"]["complete"]]
    assert summary["mean"]["turns"] == sum(g["outcome"]["turns"] for g in lines[:2]) / 2
    text = io.StringIO()
    selfplay.run(spec, ["bot:medium", "bot:medium"], 1, 3, out=text)
    assert "routes completed" in text.getvalue()
    with pytest.raises(ValueError):
        selfplay.run(spec, ["human", "bot:easy"], 1, 0)
    with pytest.raises(ValueError):
        selfplay.run(spec, ["bot:easy", "bot:easy"], 1, 0, lambda sat: {"seats": sat, "dice": "loaded"})


def test_configs():
    assert R.validate_config({"players": 4, "dice": "classic", "pile": "bga"})["share_hands"] is True
    for cfg in ({"players": 1}, {"players": 6}, {"players": True}, {"dice": "d20"}, {"pile": "2010"},
                {"share_hands": "yes"}, {"seats": ["human"]}, {"players": 2, "seats": ["human", "robot"]},
                {"colour": "red"}):
        with pytest.raises(ValueError):
            R.validate_config(cfg)
    with pytest.raises(ValueError):
        make_bot(0, "expert")
    with pytest.raises(ValueError):
        R.observe(R.initial_state({"players": 2}), 2)


def test_deal_gives_secret_cards_by_player_count():
    for n in (2, 3, 4, 5):
        m = Match(R, {"players": n}, 80 + n)
        s = m.state
        lines = [st.line for st in s.seats]
        cards = [st.card for st in s.seats]
        assert len(set(lines)) == n and len(set(cards)) == n
        assert all(c.startswith("B" if n <= 3 else "R") for c in cards)
        assert all(st.stops == data.stops_of(st.card, st.line) for st in s.seats)
        assert s.phase == "play" and s.turn == 0
        # one chance action per card dealt, each uniform over what is left
        deals = [e for e in m.log if e["p"] == CHANCE]
        assert len(deals) == 2 * n


def test_terminal_squares_must_connect_in_a_played_position():
    # the squares in front of terminals hold tiles that join them in every played game
    m, _ = play_game(["bot:medium", "bot:medium"], 90, check=False)
    b = m.state.board
    from games.streetcar.tiles import LEGS, NEIGH, SIDES
    for c, g in LEGS.items():
        f = NEIGH[c][g.board_side]
        if b.cells[f] >= 0:
            assert SIDES[b.tracks[f]] >> ((g.board_side + 2) % 4) & 1
    assert cell_of(1, 1) not in LEGS


def test_command_line_hooks():
    import argparse

    from games.streetcar import SPEC
    p = argparse.ArgumentParser()
    SPEC.add_flags(p)
    opts = p.parse_args(["--dice", "classic", "--no-share-hands", "--pile", "bga"])
    assert check_setup(R, SPEC.config_for(opts, ["human", "bot:hard"])) == {
        "players": 2, "seats": ["human", "bot:hard"], "dice": "classic", "pile": "bga", "share_hands": False}
    with pytest.raises(ValueError):
        check_setup(R, SPEC.config_for(opts, ["human"]))
    import contextlib

    from sim.app import cli
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli.main(["selfplay", "streetcar", "--players", "bot:medium,bot:medium", "--games", "1", "--seed",
                         "5", "--dice", "published", "--json"]) == 0
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["dice"] == "published"
