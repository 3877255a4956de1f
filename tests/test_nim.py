"""The Nim test game (tests/nim) through the framework: registered only here, it shows on the launcher,
Play opens its screen and a human move is made with synthetic mouse events; ``playtable selfplay nim``
runs on the generic driver and ``playtable replay`` reads a line it printed; and its rules and bot."""
from __future__ import annotations

import json
import random
from functools import reduce
from itertools import product
from operator import xor

import pygame
import pytest

from events import click, key, motion, wheel
from sim.app import cli
from sim.core import registry, selfplay
from sim.core.match import Match
from sim.core.rules import CHANCE, IllegalAction

from nim import SPEC
from nim.ai import NimBot, best_move
from nim.rules import NimRules
from nim.view import NimScene, stick_rect


@pytest.fixture(autouse=True)
def nim_registered():
    undo = registry.register("nim", "nim:SPEC")
    yield
    undo()
    assert "nim" not in registry.GAMES


# ----------------------------------------------------------------------------------- registry
def test_register_adds_and_takes_back_a_game():
    assert registry.get_spec("nim") is SPEC
    undo = registry.register("nim", "nim:OTHER")  # replacing an entry; the undo puts it back
    assert registry.GAMES["nim"] == "nim:OTHER"
    undo()
    assert registry.GAMES["nim"] == "nim:SPEC"
    with pytest.raises(ValueError):
        registry.register("x", "no-attribute")
    assert "x" not in registry.GAMES


def test_registry_and_sim_do_not_name_the_test_game():
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / "sim"
    for path in root.rglob("*.py"):
        assert "nim:" not in path.read_text() and "import nim" not in path.read_text(), path


# -------------------------------------------------------------------------------------- rules
def test_rules_normal_and_misere_winner():
    r = NimRules()
    for misere in (False, True):
        m = Match(r, {"heaps": [1, 2], "misere": misere}, 0)
        m.submit(0, {"t": "take", "heap": 1, "n": 2})
        m.submit(1, {"t": "take", "heap": 0, "n": 1})   # seat 1 takes the last stick
        assert m.is_over() and m.outcome()["winner"] == (0 if misere else 1)


def test_rules_refuse_with_reasons():
    r = NimRules()
    s = r.initial_state({"heaps": [2, 3]})
    for action, reason in [({"t": "take", "heap": 1, "n": 4}, "only 3"), ({"t": "take", "heap": 2, "n": 1}, "no heap"),
                           ({"t": "take", "heap": 0, "n": 0}, "at least one"), ({"t": "take", "heap": 0}, "takes sticks")]:
        with pytest.raises(IllegalAction, match=reason):
            r.check(s, 0, action)
    with pytest.raises(IllegalAction, match="not your turn"):
        r.check(s, 1, {"t": "take", "heap": 0, "n": 1})
    for bad in ({"heaps": []}, {"heaps": [0]}, {"heaps": [16]}, {"misere": 1}, {"first": 2}, {"seats": ["human"]},
                {"colour": "red"}):
        with pytest.raises(ValueError):
            r.validate_config(bad)


def test_random_first_is_chance_and_both_seats_can_start():
    firsts = set()
    for seed in range(20):
        m = Match(NimRules(), {"first": "random"}, seed)
        assert m.log[0]["p"] == CHANCE and not m.can_undo()
        firsts.add(m.state.player)
    assert firsts == {0, 1}


def _wins(heaps: tuple[int, ...], misere: bool, memo: dict) -> bool:
    """Whether the player to move wins, by search over every move (independent of the bot)."""
    if not any(heaps):
        return misere  # the previous player took the last stick
    k = (heaps, misere)
    if k not in memo:
        memo[k] = any(not _wins(tuple(sorted(heaps[:i] + (h - n,) + heaps[i + 1:])), misere, memo)
                      for i, h in enumerate(heaps) for n in range(1, h + 1))
    return memo[k]


@pytest.mark.parametrize("misere", [False, True])
def test_bot_move_is_winning_exactly_when_search_says_so(misere):
    memo: dict = {}
    for heaps in product(range(0, 5), repeat=3):
        if not any(heaps):
            continue
        move = best_move(heaps, misere)
        win = _wins(tuple(sorted(heaps)), misere, memo)
        assert (move is not None) == win, (heaps, misere)
        if move is not None:
            i, n = move
            after = heaps[:i] + (heaps[i] - n,) + heaps[i + 1:]
            assert 1 <= n <= heaps[i] and not _wins(tuple(sorted(after)), misere, memo)
    if not misere:
        assert best_move((1, 2, 3), False) is None and reduce(xor, (1, 2, 3)) == 0


# ------------------------------------------------------------------------------ the launcher
def test_launcher_card_play_and_a_human_move_by_mouse(app):
    from sim.app.launcher import LauncherScene
    launcher = app.push(LauncherScene(app))
    entry = next(e for e in launcher.entries if e.spec.name == "nim")
    # a seventh card is below the fold of the list (LIST_BOTTOM = 724 px): the wheel brings it in
    from sim.app.launcher import LIST_BOTTOM
    for _ in range(5):
        if entry.rect.bottom <= LIST_BOTTOM:
            break
        app.step([motion((400, 500)), wheel(-1)], 1 / 60)
    assert entry.rect.bottom <= LIST_BOTTOM
    app.step([], 1 / 60)
    click(app, entry.play.rect.center)
    dlg = app.top                                    # the set-up dialog, its option rows from rules.OPTIONS
    assert [o.label for o in dlg.options] == ["Heaps", "Last stick", "First move"] and dlg.config()["heaps"] == [3, 4, 5]
    click(app, dlg.b_start.rect.center)
    scene = app.top
    assert isinstance(scene, NimScene) and app.match is scene.match
    m = scene.match
    assert [s.text() for s in m.seats] == ["human", "bot:perfect"] and m.state.player == 0
    # the human (seat 0) takes the last two sticks of heap 3 by clicking the fourth of its five
    target = stick_rect(2, 3).center
    app.step([motion(target)], 1 / 60)
    assert scene.hover == (2, 3)
    click(app, target)
    assert m.log[-1] == {"p": 0, "a": {"t": "take", "heap": 2, "n": 2}}
    assert m.state.heaps == (3, 4, 3) and m.state.player == 1
    # the bot answers from the frame loop (thinking off the frame) after its delay, with the winning reply
    for _ in range(30):
        app.step([], 1 / 60)
    scene.worker.wait(5)
    for _ in range(3):
        app.step([], 1 / 60)
    assert m.state.player == 0 and len(m.log) == 2
    assert reduce(xor, m.state.heaps) == 0
    log_heaps = m.state.heaps
    # a click on an empty slot is no move
    click(app, stick_rect(0, 14).center)
    assert len(m.log) == 2
    # H asks the perfect bot (off the frame too) and says its move
    app.step([key(pygame.K_h)], 1 / 60)
    scene._hint_worker.wait(5)
    app.step([], 1 / 60)
    assert scene.msg and scene.msg[0].startswith("Hint: take ") and scene.hint[0] == m.cursor
    # Ctrl+Z takes back the bot's reply and the human's move; Ctrl+Y plays both again
    app.step([key(pygame.K_z, pygame.KMOD_LCTRL)], 1 / 60)
    assert m.cursor == 0 and m.state.heaps == (3, 4, 5) and m.state.player == 0
    app.step([key(pygame.K_y, pygame.KMOD_LCTRL)], 1 / 60)
    assert m.cursor == 2 and m.state.heaps == log_heaps
    app._toast = None
    app.step([key(pygame.K_y, pygame.KMOD_LCTRL)], 1 / 60)
    assert m.cursor == 2 and "nothing to redo" in app.toast_text.lower()


def test_hot_seat_undo_and_redo(app):
    from sim.app.launcher import LauncherScene
    app.push(LauncherScene(app))
    m = Match(NimRules(), {"seats": ["human", "human"]}, 3)
    scene = app.start_match(SPEC, m)
    click(app, stick_rect(1, 0).center)          # seat 0 takes the whole heap 2
    assert m.state.heaps == (3, 0, 5)
    app.step([key(pygame.K_z, pygame.KMOD_LCTRL)], 1 / 60)
    assert m.state.heaps == (3, 4, 5) and m.can_redo()
    app.step([key(pygame.K_y, pygame.KMOD_LCTRL)], 1 / 60)
    assert m.state.heaps == (3, 0, 5) and scene.match is m


# ------------------------------------------------------------------------- selfplay and replay
def test_selfplay_cli_generic_driver_and_replay(capsys, tmp_path):
    code = cli.main(["selfplay", "nim", "--players", "bot:perfect,bot:random", "--games", "6", "--seed", "10",
                     "--json", "--heaps", "2,5,6"])
    assert code == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert len(games) == 6 and summary["summary"] and summary["games"] == 6
    assert [g["seed"] for g in games] == list(range(10, 16))
    # sides rotate every game
    assert [g["seats"][0] for g in games] == ["bot:perfect", "bot:random"] * 3
    # 2^5^6 != 0: the first seat wins with perfect play, so the perfect bot wins when it starts
    for g in games:
        assert g["record"]["config"]["heaps"] == [2, 5, 6] and [f"bot:{s['level']}" for s in g["record"]["seats"]] == g["seats"]
        if g["seats"][0] == "bot:perfect":
            assert g["winner"] == 0
    wins = summary["wins"]
    assert wins["bot:perfect"]["wins"] + wins["bot:random"]["wins"] + summary["draws"] == 6
    assert wins["bot:perfect"]["seat_games"] == 6
    lo, hi = wins["bot:perfect"]["ci95"]
    assert lo <= wins["bot:perfect"]["rate"] <= hi
    assert summary["mean_plies"] == round(sum(g["plies"] for g in games) / 6, 2)
    # playtable replay reads a printed line
    path = tmp_path / "line.json"
    path.write_text(json.dumps(games[1]))
    assert cli.main(["replay", str(path), "--headless"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "nim" and out["over"] and out["result"] == games[1]["outcome"]
    assert out["actions"] == len(games[1]["record"]["actions"])


def test_selfplay_text_and_bad_input(capsys):
    assert cli.main(["selfplay", "nim", "--players", "bot:perfect,bot:perfect", "--games", "2", "--misere"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[-1].startswith("2 games of nim") and "plies" in out[-1]
    for argv, why in [(["--players", "human,bot:perfect"], "must all be bots"),
                      (["--players", "bot:perfect,bot:genius"], "unknown player"),
                      (["--players", "bot:perfect,bot:random", "--heaps", "3,x"], "whole numbers"),
                      (["--players", "bot:perfect,bot:random", "--heaps", "99"], "1 to 15"),
                      (["--players", "bot:perfect,bot:random", "--bot", "random"], "takes --players")]:
        assert cli.main(["selfplay", "nim", *argv]) == 2
        err = capsys.readouterr().err
        assert why in err and len(err.strip().splitlines()) == 1


def test_generic_driver_directly():
    lines: list[str] = []
    checked: list[int] = []
    summary = selfplay.run(SPEC, ["bot:perfect", "bot:random"], 4, 0, out=lines.append,
                           check=lambda m: checked.append(len(m.log)))
    assert len(lines) == 5 and summary["games"] == 4
    assert len(checked) == round(summary["mean_plies"] * 4)  # the check ran after every action
    with pytest.raises(ValueError, match="must all be bots"):
        selfplay.run(SPEC, ["human", "bot:perfect"], 1, 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        selfplay.play_game(SPEC, ["bot:perfect", "bot:nope"], 0)
    assert selfplay.wilson(0, 0) == (0.0, 1.0)
    lo, hi = selfplay.wilson(5, 10)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-9
    assert selfplay.winner_of({"winners": [0, 1]}) is None and selfplay.winner_of({"winners": [2]}) == 2
    assert selfplay.winner_of({"ranking": [1, 0], "scores": [3, 3]}) is None
    assert selfplay.winner_of({"ranking": [1, 0], "scores": [2, 3]}) == 1


def test_rules_are_pure():
    from pathlib import Path
    from test_purity import impurities
    src = Path(__file__).resolve().parent / "nim" / "rules.py"
    assert impurities(src.read_text(), str(src)) == []


class _Lax(NimRules):
    """Broken on purpose: ignores unknown keys and reads keys without checking them."""

    def check(self, s, player, action):
        if player != s.player:
            raise IllegalAction("it is not your turn")
        if action["n"] > s.heaps[action["heap"]]:
            raise IllegalAction("too many")


def test_conformance_checks_catch_lax_rules():
    """The conformance legality check fails on rules that accept junk (so it is not a check that cannot
    fail)."""
    import random

    from test_conformance import check_legality
    m = Match(_Lax(), {"heaps": [2, 3]}, 0)
    with pytest.raises((AssertionError, KeyError, TypeError)):
        check_legality(m, random.Random(0), "lax nim")
    check_legality(Match(NimRules(), {"heaps": [2, 3]}, 0), random.Random(0), "nim")  # the real rules pass


# ------------------------------------------------------------------------------ over the LAN
def test_nim_across_two_clients_through_the_generic_host(nim_registered, tmp_path):
    """Two clients play a whole game of Nim from their own RemoteMatch views through the generic
    host; each ends with the host's view and log, and the host's record replays."""
    import time

    from sim.core.record import load
    from sim.net.client import Client
    from sim.net.host import Host
    from sim.net.remote import RemoteMatch

    host = Host(SPEC, players=2, bots=[], seed=4, tick=0.02, options={"heaps": [2, 3, 4]},
                record_path=tmp_path / "nim.json").start()
    try:
        pairs = []
        for name in ("Ann", "Bob"):
            c = Client("127.0.0.1", host.port, name).start()
            c.set_ready(True)
            pairs.append((c, RemoteMatch(SPEC, c)))
        assert host.started.wait(5)
        bots = {r.seat: NimBot(r.seat) for _, r in pairs}
        sent = {0: -1, 1: -1}
        end = time.monotonic() + 30
        while time.monotonic() < end and not all(r.is_over() for _, r in pairs):
            for _c, r in pairs:
                r.poll()
                if r.state is None or r.waiting() or r.n <= sent[r.seat] or r.seat not in r.active_players():
                    continue
                sent[r.seat] = r.n
                r.submit(r.seat, bots[r.seat].select_action(r.rules, r.state, r.seat))
            time.sleep(0.01)
        assert all(r.is_over() for _, r in pairs)
        for c, r in pairs:
            assert r.wait_for(lambda r: r.n == host.call(lambda: host.match.cursor), 5)
            assert r.rules.state_to_json(r.state) == host.view(c.seat)
            assert r.outcome() == host.call(lambda: host.match.outcome())
            assert [dict(e) for e in r.log] == host.call(lambda: [{"p": e["p"], "a": e["a"]} for e in host.match.log])
        assert host.finished.wait(5) and host.record_saved
        rec = load(host.record_saved)
        assert rec.rules.info.name == "nim" and rec.is_over() and rec.state.heaps == (0, 0, 0)
    finally:
        host.stop()


def test_nim_state_json_round_trips_and_refuses_what_is_not_a_state():
    rules = NimRules()
    m = Match(rules, {"heaps": [2, 3], "first": "random"}, 5)
    rng = random.Random(5)
    while not m.is_over():
        p = m.active_players()[0]
        m.submit(p, rng.choice(rules.legal_actions(m.state, p)))
    for s in m.states:
        assert rules.state_from_json(json.loads(json.dumps(rules.state_to_json(rules.observe(s, 0))))) == s
    good = rules.state_to_json(m.states[1])
    for bad in (None, {}, dict(good, extra=1), dict(good, heaps=[9, 9]), dict(good, misere=1), dict(good, heaps="x")):
        with pytest.raises(ValueError):
            rules.state_from_json(bad)
