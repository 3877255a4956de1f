"""Hostile clients against a turn-based host (Tumbleweed), as the Gobble race's tests do for the race: the
size cap, the rate limit, a client that never reads (bounded write buffers), malformed and foreign
messages refused with an error, and no acting (or undoing) for another seat. In every case the host
keeps serving the honest player and applies nothing it should not."""
from __future__ import annotations

import json
import random
import time


from sim.core.registry import get_spec
from sim.net import protocol as P
from sim.net.client import Client
from sim.net.host import Host
from sim.net.remote import RemoteMatch, choose_legal

from test_net_lan import _silent_client

TW = get_spec("tumbleweed")


def make_host(tmp_path, **kw) -> Host:
    opts = dict(players=2, bots=["bot:easy"], seed=7, tick=0.02, bot_pause=0.0, options={"size": 4},
                record_path=tmp_path / "tw.json")
    opts.update(kw)
    return Host(TW, **opts).start()


def join(host: Host, name: str, wait: bool = True) -> tuple[Client, RemoteMatch]:
    c = Client("127.0.0.1", host.port, name).start()
    c.set_ready(True)
    r = RemoteMatch(TW, c)
    assert not wait or r.wait_for(lambda r: r.state is not None, 5)
    return c, r


def my_move(r: RemoteMatch, seed: int = 0) -> dict:
    assert r.wait_for(lambda r: r.seat in r.active_players() and not r.waiting(), 10)
    return choose_legal(r.rules, r.state, r.seat, random.Random(seed))


def test_malformed_and_foreign_messages_get_errors_and_the_host_keeps_serving(tmp_path):
    host = make_host(tmp_path)
    try:
        a, r = join(host, "Ann")
        n0 = host.call(lambda: len(host.match.log))
        cases = [("{not json", "bad_json"), ("[1,2]", "bad_message"), ('{"type":"shout"}', "bad_message"),
                 ("x" * (P.MAX_MESSAGE + 10), "too_big"), (b"\xff\xfe", "bad_json"),
                 ('{"type":"hello","version":2,"name":"Ann"}', "bad_message"),           # already joined
                 (json.dumps({"type": "intent", "seq": "1", "seat": 0, "token": a.token,
                              "action": {"t": "setup"}}), "bad_message"),
                 # a set-up nested three levels deep, and one with too many fields
                 (json.dumps({"type": "intent", "seq": 1, "seat": 0, "token": a.token,
                              "action": {"t": "setup", "red": [[[1]]], "white": [0, 0]}}), "bad_message"),
                 (json.dumps({"type": "intent", "seq": 1, "seat": 0, "token": a.token,
                              "action": {"t": "setup", **{f"k{i}": i for i in range(9)}}}), "bad_message"),
                 (json.dumps({"type": "undo", "seq": 1, "seat": 0, "token": a.token, "action": {}}), "bad_message"),
                 (json.dumps({"type": "ready", "ready": "yes"}), "bad_message"),
                 ('{"type":"intent","seq":1,"seat":0,"token":"t","action":{"t":"x","v":NaN}}', "bad_json")]
        for k, (raw, code) in enumerate(cases):
            a.send_raw(raw)
            assert a.wait_for(lambda c: len(c.errors) > k, 5), raw[:30]
            assert a.errors[k]["code"] == code, (raw[:40], a.errors[k])
        # foreign actions (another game's, or nonsense fields) are refused with a reason, never applied
        for action in ({"t": "place", "src": "pile", "tile": 3, "rot": 0, "q": 0, "r": 0},
                       {"t": "setup", "red": [0, 0]}, {"t": "setup", "red": "a1", "white": [0, 1]},
                       {"t": "move", "q": 10 ** 9, "r": -1}):
            seq = a.send_intent(action)
            assert a.wait_for(lambda c: seq in c.results, 5)
            assert a.results[seq]["type"] == "rejected" and a.results[seq]["reason"], action
        assert host.call(lambda: len(host.match.log)) == n0
        # and the honest game goes on
        r.submit(r.seat, my_move(r))
        assert r.wait_for(lambda r: r.n > n0 and not r.waiting(), 5) and not r.refusals
    finally:
        host.stop()


def test_a_message_over_the_transport_limit_closes_only_that_connection(tmp_path):
    host = make_host(tmp_path, players=2, bots=[])
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        b = Client("127.0.0.1", host.port, "Bob").start()
        b.send_raw("y" * (4 * P.MAX_MESSAGE + 100))
        assert b.closed.wait(5)
        assert not a.closed.is_set()
        assert b.errors == [] or b.errors[-1]["code"] == "connection"
        # the host cut Bob's connection (1009: too big); his seat waits for his rejoin, Ann is still served
        a.set_ready(True)
        assert a.wait_for(lambda c: c.names == ["Ann", "Bob"] and c.ready == [True, False]
                          and c.away == [False, True], 5)
        b2 = Client("127.0.0.1", host.port, "Bob", token=b.token).start()
        assert b2.seat == 1
        b2.set_ready(True)
        assert host.started.wait(5)
    finally:
        host.stop()


def test_a_flood_is_rate_limited_and_every_intent_gets_one_answer(tmp_path):
    host = make_host(tmp_path, rate=20, burst=10)
    try:
        a, r = join(host, "Ann")
        for _ in range(100):
            a.send_raw('{"type":"shout"}')
        assert a.wait_for(lambda c: any(e["code"] == "rate_limited" for e in c.errors), 5)
        assert len(a.errors) < 30            # the burst's bad_message replies, then one rate_limited a second
        time.sleep(1.0)                      # the bucket refills
        move = my_move(r)
        seqs = [a.send_intent(move) for _ in range(25)]
        assert a.wait_for(lambda c: set(seqs) <= set(c.results), 10)
        kinds = [a.results[q]["type"] for q in seqs]
        assert kinds.count("accepted") == 1  # the same move once; the rest stale or rate limited
        assert any("rate limited" in a.results[q].get("reason", "") for q in seqs)
        assert len([e for e in host.call(lambda: list(host.match.log)) if e["p"] == a.seat]) == 1
    finally:
        host.stop()


def test_no_acting_or_undoing_for_another_seat(tmp_path):
    host = make_host(tmp_path, players=2, bots=[])
    try:
        (a, ra), b = join(host, "Ann", wait=False), join(host, "Bob")[0]
        assert (a.seat, b.seat) == (0, 1)
        move = my_move(ra)
        # Bob sends Ann's move as Ann's seat (his token, then a guess), and an undo for her
        b.send_raw(P.encode({"type": "intent", "seq": 1, "seat": 0, "token": b.token, "action": move}))
        b.send_raw(P.encode({"type": "intent", "seq": 2, "seat": 0, "token": a.token[:-1] + "x", "action": move}))
        b.send_raw(P.encode({"type": "intent", "seq": 3, "seat": 1, "token": "guess" * 5, "action": move}))
        assert b.wait_for(lambda c: {1, 2, 3} <= set(c.results), 5)
        assert all(b.results[q]["type"] == "rejected" for q in (1, 2, 3))
        assert "not your seat" in b.results[1]["reason"] and "token" in b.results[3]["reason"]
        b._seq = 3
        # Ann moves; Bob asks to undo it (as his seat, then as hers): refused, the move stands
        ra.submit(0, move)
        assert ra.wait_for(lambda r: r.n == 1 and not r.waiting(), 5)
        b.send_raw(P.encode({"type": "undo", "seq": 4, "seat": 0, "token": b.token}))
        b._seq = 4
        seq = b.send_undo()
        assert b.wait_for(lambda c: {4, seq} <= set(c.results), 5)
        assert b.results[4] == {"type": "rejected", "seq": 4, "reason": "that is not your seat"}
        assert b.results[seq]["type"] == "rejected"
        assert host.call(lambda: host.match.cursor) == 1
        # a replayed undo of Ann's own (an old seq) is refused too; her first undo works
        seq = a.send_undo()
        assert a.wait_for(lambda c: seq in c.results, 5) and a.results[seq]["type"] == "accepted"
        a.results.pop(seq)                            # before the replay: its answer may come at once
        a.send_raw(P.encode({"type": "undo", "seq": seq, "seat": 0, "token": a.token}))
        assert a.wait_for(lambda c: seq in c.results, 5)
        assert "old sequence" in a.results[seq]["reason"]
        assert host.call(lambda: host.match.cursor) == 0
        assert [s for s, _q, _i in host.applied] == [0]
    finally:
        host.stop()


def test_a_client_that_never_reads_is_dropped_and_a_stand_in_plays_its_seat(tmp_path):
    host = make_host(tmp_path, players=2, bots=[], options={"size": 11}, max_buffer=128 * 1024,
                     sndbuf=16 * 1024, snapshot_interval=0.0, tick=0.005, standin="easy")
    silent = None
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        a.set_ready(True)
        silent = _silent_client(host.port, "Mute")
        r = RemoteMatch(TW, a)
        assert host.started.wait(5)
        end = time.monotonic() + 20
        while time.monotonic() < end and host.stats.dropped_slow == 0:
            time.sleep(0.05)
        assert host.stats.dropped_slow == 1
        # the flood of views was there to fill the silent buffer; Ann reads in this process's threads, and
        # on a loaded machine 200 views a second can leave her behind too
        host.call(lambda: setattr(host, "snapshot_interval", 1.0))
        assert a.wait_for(lambda c: c.away == [False, True] and c.standin == [False, True], 5)
        # Ann plays on; the stand-in answers for the silent seat
        sent = -1
        end = time.monotonic() + 20
        while time.monotonic() < end and r.n < 6 and not r.is_over():
            r.poll()
            if not r.waiting() and r.n > sent and r.seat in r.active_players():
                sent = r.n
                r.submit(r.seat, choose_legal(r.rules, r.state, r.seat, random.Random(r.n)))
            time.sleep(0.01)
        assert r.n >= 6 or r.is_over()
        assert any(e["p"] == 1 for e in host.call(lambda: list(host.match.log)))
    finally:
        if silent is not None:
            silent.close()
        host.stop()
