"""The LAN host for a turn-based game (Tumbleweed): state JSON round trips, turns enforced by the host,
bots on the host, and a whole game across two clients playing from their own RemoteMatch view."""
from __future__ import annotations

import json
import random
import time

import pytest

from sim.core.match import Match
from sim.core.record import load
from sim.core.registry import get_spec
from sim.core.rules import IllegalAction
from sim.net.client import Client
from sim.net.host import Host
from sim.net.remote import RemoteMatch, choose_legal

TW = get_spec("tumbleweed")


def tumbleweed_states(seed: int, size: int = 5) -> list:
    """Every state of one random Tumbleweed game (original set-up) on a side-``size`` board."""
    rules = TW.make_rules()
    m = Match(rules, {"size": size}, seed)
    rng = random.Random(seed)
    while not m.is_over():
        p = m.active_players()[0]
        m.submit(p, rng.choice(rules.legal_actions(m.state, p)))
    return list(m.states)


def test_tumbleweed_state_json_round_trips_through_text():
    rules = TW.make_rules()
    for seed in (1, 2):
        states = tumbleweed_states(seed)
        assert states[-1].phase == "over" and len(states) > 10
        for s in states:
            obj = json.loads(json.dumps(rules.state_to_json(rules.observe(s, 1))))
            back = rules.state_from_json(obj)
            assert back == s and type(back) is type(s)
            assert rules.legal_actions(back, rules.active_players(back)[0]) == \
                rules.legal_actions(s, rules.active_players(s)[0]) if rules.active_players(s) else True


def test_tumbleweed_state_from_json_refuses_what_is_not_a_state():
    rules = TW.make_rules()
    good = rules.state_to_json(tumbleweed_states(3)[4])
    bad_code = dict(good, code=good["code"][:-1])
    bad_los = dict(good, code=[c + 1 if c else c for c in good["code"]])
    for obj in (None, [], {"size": 5}, dict(good, extra=1), dict(good, size=99), bad_code,
                dict(good, near="x"), bad_los):
        with pytest.raises(ValueError):
            rules.state_from_json(obj)
    with pytest.raises(ValueError):
        rules.observe(tumbleweed_states(3)[0], 2)


def make_host(tmp_path, **kw) -> Host:
    opts = dict(players=2, bots=[], seed=11, tick=0.02, bot_speed=0.1, options={"size": 4},
                record_path=tmp_path / "tw.json")
    opts.update(kw)
    return Host(TW, **opts).start()


def join(host: Host, name: str) -> tuple[Client, RemoteMatch]:
    c = Client("127.0.0.1", host.port, name).start()
    c.set_ready(True)
    return c, RemoteMatch(TW, c)


def test_a_whole_game_across_two_clients_through_the_generic_host(tmp_path):
    host = make_host(tmp_path)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        assert [c.welcome["game"] for c, _ in pairs] == ["tumbleweed", "tumbleweed"]
        assert host.started.wait(5)
        bots = {r.seat: TW.make_bot(r.seat, "easy", 100 + r.seat) for _, r in pairs}
        sent = {r.seat: -1 for _, r in pairs}
        moves = 0
        end = time.monotonic() + 60
        while time.monotonic() < end and not all(r.is_over() for _, r in pairs):
            for c, r in pairs:
                r.poll()
                if r.state is None or r.waiting() or r.n <= sent[r.seat] or r.seat not in r.active_players():
                    continue
                # the bot sees only this client's own view, of the game's own state type
                assert type(r.state).__name__ == "TumbleweedState"
                action = bots[r.seat].select_action(r.rules, r.state, r.seat)
                sent[r.seat] = r.n
                r.submit(r.seat, action)
                moves += 1
            time.sleep(0.01)
        assert all(r.is_over() for _, r in pairs), "the game did not end in time"
        assert moves > 5 and not any(r.refusals for _, r in pairs)
        for c, r in pairs:
            assert r.wait_for(lambda r: r.n == host.call(lambda: host.match.cursor), 5)
            assert r.rules.state_to_json(r.state) == host.view(c.seat)
            assert r.outcome() == host.call(lambda: host.match.outcome())
            # Tumbleweed's actions are public: the client holds the host's whole log, and replaying it
            # here led to every view the host sent (RemoteMatch checks that on each poll)
            assert [dict(e) for e in r.log] == host.call(lambda: [{"p": e["p"], "a": e["a"]} for e in host.match.log])
            assert len(r.states) == len(r.log) + 1
        assert host.finished.wait(5) and host.record_saved
        rec = load(host.record_saved)
        assert rec.rules.info.name == "tumbleweed" and rec.is_over()
        assert rec.state == host.call(lambda: host.match.state)
        assert [s.text() for s in rec.seats] == ["lan:Ann", "lan:Bob"] and "seats" not in rec.config
    finally:
        host.stop()


def test_only_the_seat_to_act_may_act_and_illegal_or_stale_intents_get_the_rules_reason(tmp_path):
    host = make_host(tmp_path)
    try:
        (a, ra), (b, rb) = join(host, "Ann"), join(host, "Bob")
        assert ra.wait_for(lambda r: r.state is not None, 5) and rb.wait_for(lambda r: r.state is not None, 5)
        host_seat = TW.make_rules().active_players(ra.state)[0]
        (hc, hr), (gc, gr) = ((a, ra), (b, rb)) if ra.seat == host_seat else ((b, rb), (a, ra))
        setup = choose_legal(hr.rules, hr.state, hr.seat, random.Random(1))
        # the other seat: refused by its own view, and by the host when sent anyway
        with pytest.raises(IllegalAction):
            gr.submit(gr.seat, setup)
        seq = gc.send_intent(setup)
        assert gc.wait_for(lambda c: seq in c.results, 5)
        assert gc.results[seq]["type"] == "rejected" and "may not act" in gc.results[seq]["reason"]
        # an illegal set-up: the rules' own reason
        bad = dict(setup, white=setup["red"])
        with pytest.raises(IllegalAction) as local:
            hr.submit(hr.seat, bad)
        seq = hc.send_intent(bad)
        assert hc.wait_for(lambda c: seq in c.results, 5)
        assert hc.results[seq] == {"type": "rejected", "seq": seq, "reason": str(local.value)}
        # the real move, then the same one again: stale, refused, never applied
        n0 = hr.n
        hr.submit(hr.seat, setup)
        assert hr.wait_for(lambda r: r.n == n0 + 1 and not r.waiting(), 5)
        seq = hc.send_intent(setup)
        assert hc.wait_for(lambda c: seq in c.results, 5)
        assert hc.results[seq]["type"] == "rejected"
        assert host.call(lambda: len(host.match.log)) == n0 + 1
        # each client got its own seat's view, equal to the host's
        assert gr.wait_for(lambda r: r.n == n0 + 1, 5)
        assert gr.rules.state_to_json(gr.state) == host.view(gr.seat)
        assert gr.active_players() == hr.active_players() == [gr.seat]
    finally:
        host.stop()


def test_bot_seats_play_on_the_host_and_a_dropped_seat_gets_a_stand_in(tmp_path):
    host = make_host(tmp_path, bots=["bot:easy"], standin="easy", bot_pause=0.0)
    try:
        c = Client("127.0.0.1", host.port, "Ann").start()
        c.set_ready(True)
        r = RemoteMatch(TW, c)
        assert r.wait_for(lambda r: r.state is not None, 5)
        assert c.names == ["Ann", "bot:easy"]
        # Ann (the host seat) sets up; the bot (the guest) answers on the host by choosing a colour
        r.submit(r.seat, choose_legal(r.rules, r.state, r.seat, random.Random(2)))
        assert r.wait_for(lambda r: r.state.phase == "play", 10)
        assert any(e["p"] == 1 for e in host.call(lambda: list(host.match.log)))
        # Ann vanishes: a stand-in plays her seat to the end with the bot
        c.kill()
        assert host.finished.wait(60)
        assert host.call(lambda: host.match.is_over())
    finally:
        host.stop()


def test_the_host_refuses_games_without_lan_play_and_bad_seats():
    with pytest.raises(ValueError, match="cannot be hosted"):
        Host(get_spec("gobble-solitaire"))
    with pytest.raises(ValueError, match="played by 2 players"):
        Host(TW, players=3)
    with pytest.raises(ValueError, match="unknown bot"):
        Host(TW, bots=["bot:nobody"])
    with pytest.raises(ValueError, match="size"):
        Host(TW, options={"size": 99})


def test_cli_host_of_a_game_without_lan_play_is_one_line_and_status_2(capsys):
    from sim.app import cli

    assert cli.main(["host", "gobble-solitaire"]) == 2
    err = capsys.readouterr().err
    assert "cannot be hosted" in err and err.count("\n") == 1
    assert cli.main(["host", "tumbleweed", "--size", "99", "--port", "0"]) == 2
    assert "size" in capsys.readouterr().err


def test_tomtube_state_json_round_trips_and_keeps_no_stack_order():
    from games.tomtube.data import RHOMB_IDS

    tt = get_spec("tomtube")
    rules = tt.make_rules()
    m = Match(rules, None, 4)
    rng = random.Random(4)
    while not m.is_over() and len(m.log) < 400:
        p = m.active_players()[0]
        m.submit(p, rng.choice(rules.legal_actions(m.state, p)))
    assert len(m.log) > 30
    for s in m.states[:: max(1, len(m.states) // 40)] + [m.states[-1]]:
        obj = json.loads(json.dumps(rules.state_to_json(rules.observe(s, 0))))
        back = rules.state_from_json(obj)
        assert type(back) is type(s) and rules.state_to_json(back) == obj
        assert back.board.inc == s.board.inc and back.board.segs == s.board.segs
        for p in rules.active_players(s):
            if p >= 0:
                assert rules.legal_actions(back, p) == rules.legal_actions(s, p)
        assert rules.outcome(back) == rules.outcome(s) and rules.invariants(back) == []
        # the face-down rhombs are told only as a set in box order: nothing says which comes next
        assert list(back.stack) == [r for r in RHOMB_IDS if r in set(back.stack)]
    good = rules.state_to_json(m.states[-1])
    for obj in (None, {}, dict(good, extra=1), dict(good, turn=5), dict(good, stock=[99, 0, 0]),
                dict(good, board=dict(good["board"], segs="x"))):
        with pytest.raises(ValueError):
            rules.state_from_json(obj)
    with pytest.raises(ValueError):
        rules.observe(m.state, 2)


def test_tomtube_hosted_with_a_host_bot_and_chance_draws_on_the_host(tmp_path):
    tt = get_spec("tomtube")
    host = Host(tt, players=2, bots=["bot:random"], seed=8, tick=0.02, bot_pause=0.0,
                record_path=tmp_path / "tt.json").start()
    try:
        c = Client("127.0.0.1", host.port, "Tom").start()
        c.set_ready(True)
        r = RemoteMatch(tt, c)
        assert r.wait_for(lambda r: r.state is not None, 5)
        assert type(r.state).__name__ == "TomTubeState"
        rng = random.Random(3)
        sent = -1
        end = time.monotonic() + 30
        while time.monotonic() < end and r.n < 40 and not r.is_over():
            r.poll()
            if not r.waiting() and r.n > sent and r.seat in r.active_players():
                sent = r.n
                r.submit(r.seat, choose_legal(r.rules, r.state, r.seat, rng))
            time.sleep(0.005)
        assert r.n >= 40 or r.is_over()
        log = host.call(lambda: list(host.match.log))
        assert {e["p"] for e in log} >= {-1, 0, 1}     # chance drew rhombs on the host, both seats acted
        assert not r.refusals
        # once the bot has handed the turn back, this client's view is the host's observe of its seat
        assert r.wait_for(lambda r: (r.is_over() or r.seat in r.active_players()) and not r.waiting()
                          and r.n == host.call(lambda: host.match.cursor), 10)
        assert r.rules.state_to_json(r.state) == host.view(c.seat)
    finally:
        host.stop()


def test_cli_host_tumbleweed_and_join_auto_play_a_game_to_the_end(tmp_path):
    import socket
    import subprocess
    import sys

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    rec = tmp_path / "cli-tw.json"
    host = subprocess.Popen([sys.executable, "-m", "sim.app.cli", "host", "tumbleweed", "--port", str(port),
                             "--size", "4", "--bots", "bot:easy", "--seed", "3", "--record", str(rec)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "hosting tumbleweed on 127.0.0.1" in host.stdout.readline()
        out = subprocess.run([sys.executable, "-m", "sim.app.cli", "join", f"127.0.0.1:{port}", "--name", "Cli",
                              "--auto"], capture_output=True, text=True, timeout=60)
        lines = [json.loads(x) for x in out.stdout.splitlines()]
        assert lines[0]["seat"] == 0 and lines[0]["token"]
        assert lines[-1]["type"] == "over" and lines[-1]["ranking"] is not None
        assert not [x for x in lines if x.get("type") == "rejected"]
        states = [x for x in lines if x.get("type") == "state"]
        assert states and all(x["events"] == [] and "active" in x for x in states)
        assert host.wait(15) == 0
        m = load(rec)
        assert m.is_over() and [s.kind for s in m.seats] == ["lan", "bot"] and m.config["size"] == 4
        assert TW.make_rules().state_to_json(m.state) == states[-1]["view"]
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
