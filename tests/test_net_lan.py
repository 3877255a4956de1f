"""LAN play over loopback (issue 4): host + clients, hostile input, rejoin, a client that never reads.

Everything runs on 127.0.0.1 with short timeouts; bots are sped up (``bot_speed``) so a race takes a
few seconds. In every case the host keeps running and no action is lost or applied twice.
"""
from __future__ import annotations

import json
import random
import socket
import time

import pytest

from sim.core.record import load
from sim.net import protocol as P
from sim.net.client import Client
from sim.net.host import Host
from sim.net.scripted import choose


def make_host(tmp_path, **kw) -> Host:
    opts = dict(players=4, bots=["bot:hard", "bot:medium"], seed=5, bot_speed=0.05, tick=0.02,
                options={"gift_timeout": 1.0}, record_path=tmp_path / "race.json")
    opts.update(kw)
    return Host(**opts).start()


def join(host: Host, name: str, **kw) -> Client:
    return Client("127.0.0.1", host.port, name, **kw).start()


def step(c: Client, rng: random.Random) -> int | None:
    """One scripted move from the client's own view, if no intent is waiting for its answer."""
    if c.latest is None or c.over or any(s not in c.results for s in range(1, c._seq + 1)):
        return None
    a = choose(c.latest["view"], c.seat, rng)
    return c.send_intent(a) if a else None


def play_out(clients: list[Client], timeout: float = 30.0, seed: int = 1) -> None:
    rng = random.Random(seed)
    end = time.monotonic() + timeout
    while time.monotonic() < end and not all(c.over for c in clients):
        for c in clients:
            step(c, rng)
        time.sleep(0.02)
    assert all(c.over for c in clients), "race did not end in time"


def check_bookkeeping(host: Host, clients: list[Client]) -> None:
    """Every accepted intent was applied exactly once, at a log entry of its own seat."""
    m = host.match
    keys = [(s, q) for s, q, _ in host.applied]
    assert len(keys) == len(set(keys))
    assert len({i for _, _, i in host.applied}) == len(host.applied)
    for s, q, i in host.applied:
        assert m.log[i]["p"] == s
    for c in clients:
        acc = {q for q, r in c.results.items() if r["type"] == "accepted"}
        assert acc == {q for s, q, _ in host.applied if s == c.seat}


def test_race_to_the_end_every_view_matches(tmp_path):
    host = make_host(tmp_path)
    try:
        a, b = join(host, "Ann"), join(host, "Bob")
        assert (a.seat, b.seat) == (0, 1) and a.token != b.token
        assert a.wait_for(lambda c: c.latest is not None, 5)
        play_out([a, b])
        assert host.finished.wait(5)
        for c in (a, b):
            assert c.wait_for(lambda c: c.latest["view"]["phase"] == "over", 5)
            assert c.latest["view"] == host.view(c.seat)
            assert c.over["ranking"] == host.match.outcome()["ranking"]
            assert c.config["seats"][c.seat] == f"lan:{c.name}"
        check_bookkeeping(host, [a, b])
        assert host.stats.accepted > 0
        # every view hid the piles: a seat only ever sees its own revealed tile(s)
        assert len(a.latest["view"]["revealed"]) <= 1
    finally:
        host.stop()
    rec = load(tmp_path / "race.json")
    assert rec.is_over() and len(rec.log) == len(host.match.log)


def test_gift_tiles_are_told_only_to_the_giver():
    ev = [{"e": "gift", "from": 1, "to": 2, "src": "pile", "tile": 17, "auto": False}]
    assert P.filter_events(ev, 1)[0]["tile"] == 17
    assert "tile" not in P.filter_events(ev, 2)[0] and "tile" not in P.filter_events(ev, 0)[0]


def test_hostile_messages_get_errors_and_the_host_keeps_serving(tmp_path):
    host = make_host(tmp_path, players=2, bots=["bot:easy"], bot_speed=1.0)
    try:
        a = join(host, "Ann")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        # wrong protocol version: refused with a clear reason
        old = Client("127.0.0.1", host.port, "Old", version=99)
        with pytest.raises(ConnectionError, match="version"):
            old.start(timeout=5)
        assert old.errors[-1]["code"] == "bad_version"
        old.close()
        cases = [("{not json", "bad_json"), ("[1,2]", "bad_message"), ('{"type":"shout"}', "bad_message"),
                 ("x" * (P.MAX_MESSAGE + 10), "too_big"),
                 (json.dumps({"type": "intent", "seq": "1", "seat": 0, "token": a.token,
                              "action": {"t": "discard"}}), "bad_message"),
                 (json.dumps({"type": "intent", "seq": 1, "seat": 0, "token": a.token,
                              "action": {"t": "discard", "tile": [1, 2]}}), "bad_message"),
                 (b"\xff\xfe", "bad_json")]
        for k, (raw, code) in enumerate(cases):
            a.send_raw(raw)
            assert a.wait_for(lambda c: len(c.errors) > k, 5), raw[:20]
            assert a.errors[k]["code"] == code
        # a stranger with a made-up token gets no seat; the table is full for a newcomer
        with pytest.raises(ConnectionError, match="unknown token"):
            Client("127.0.0.1", host.port, "Eve", token="x" * 30).start(timeout=5)
        with pytest.raises(ConnectionError, match="full"):
            Client("127.0.0.1", host.port, "Late").start(timeout=5)
        # the host still plays with Ann
        view = a.latest["view"]
        seq = a.send_intent(choose(view, a.seat, random.Random(0)))
        assert a.wait_for(lambda c: seq in c.results, 5)
        assert a.results[seq]["type"] == "accepted", a.results[seq]
        check_bookkeeping(host, [a])
    finally:
        host.stop()


def test_flood_is_rate_limited(tmp_path):
    host = make_host(tmp_path, players=2, bots=["bot:easy"], bot_speed=1.0, rate=20, burst=10)
    try:
        a = join(host, "Ann")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        for _ in range(100):
            a.send_raw('{"type":"shout"}')
        assert a.wait_for(lambda c: any(e["code"] == "rate_limited" for e in c.errors), 5)
        n = len(a.errors)
        assert n < 30  # bad_message replies for the burst, then one rate_limited reply per second
        time.sleep(1.0)  # the bucket refills
        seq = a.send_intent(choose(a.latest["view"], a.seat, random.Random(0)))
        assert a.wait_for(lambda c: seq in c.results, 5)
        assert a.results[seq]["type"] == "accepted"
    finally:
        host.stop()


def test_every_intent_gets_one_answer_even_when_rate_limited(tmp_path):
    host = make_host(tmp_path, players=2, bots=["bot:easy"], bot_speed=1.0, rate=5, burst=5)
    try:
        a = join(host, "Ann")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        action = choose(a.latest["view"], a.seat, random.Random(0))
        seqs = [a.send_intent(action) for _ in range(20)]
        assert a.wait_for(lambda c: set(seqs) <= set(c.results), 10), sorted(set(seqs) - set(a.results))
        kinds = [a.results[q]["type"] for q in seqs]
        assert kinds.count("accepted") <= 1  # the same move cannot be made twice
        assert any("rate limited" in a.results[q].get("reason", "") for q in seqs)
        applied = [e for e in host.call(lambda: list(host.match.log)) if e["p"] == a.seat]
        assert len(applied) == kinds.count("accepted")
    finally:
        host.stop()


def test_other_seat_wrong_token_and_replayed_seq_are_rejected(tmp_path):
    host = make_host(tmp_path, bot_speed=1.0)
    try:
        a, b = join(host, "Ann"), join(host, "Bob")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        assert b.wait_for(lambda c: c.latest is not None, 5)
        bview = b.latest["view"]
        b_action = choose(bview, b.seat, random.Random(0))
        # Ann acts for Bob's seat (with her own token, then with a guess)
        a.send_raw(P.encode({"type": "intent", "seq": 1, "seat": b.seat, "token": a.token, "action": b_action}))
        a.send_raw(P.encode({"type": "intent", "seq": 2, "seat": a.seat, "token": "guess" * 5,
                             "action": b_action}))
        assert a.wait_for(lambda c: {1, 2} <= set(c.results), 5)
        assert a.results[1]["type"] == "rejected" and "not your seat" in a.results[1]["reason"]
        assert a.results[2]["type"] == "rejected" and "token" in a.results[2]["reason"]
        a._seq = 2
        # Ann's own legal action, then the very same message replayed
        action = choose(a.latest["view"], a.seat, random.Random(0))
        msg = P.encode({"type": "intent", "seq": 3, "seat": a.seat, "token": a.token, "action": action})
        a.send_raw(msg)
        assert a.wait_for(lambda c: 3 in c.results, 5)
        assert a.results[3]["type"] == "accepted", a.results[3]
        log_len = host.call(lambda: len(host.match.log))
        a.results.pop(3)
        a.send_raw(msg)
        a.send_raw(P.encode({"type": "intent", "seq": 1, "seat": a.seat, "token": a.token, "action": action}))
        assert a.wait_for(lambda c: 3 in c.results and 1 in c.results and c.results[1]["seq"] == 1
                          and "old sequence" in c.results[1].get("reason", ""), 5)
        assert a.results[3]["type"] == "rejected" and "old sequence" in a.results[3]["reason"]
        applied_a = [q for s, q, _ in host.applied if s == a.seat]
        assert applied_a == [3]
        assert host.call(lambda: sum(1 for e in host.match.log[log_len:] if e["p"] == a.seat)) == 0
        # Bob was untouched and is still served
        seq = b.send_intent(b_action)
        assert b.wait_for(lambda c: seq in c.results, 5)
        assert b.results[seq]["type"] == "accepted", b.results[seq]
    finally:
        host.stop()


def test_killed_client_rejoins_with_its_token(tmp_path):
    host = make_host(tmp_path, bot_speed=0.1, options={"gift_timeout": 2.0})
    try:
        a, b = join(host, "Ann"), join(host, "Bob")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        rng = random.Random(3)
        seq = step(a, rng)
        assert a.wait_for(lambda c: seq in c.results, 5)
        token, seat, last = a.token, a.seat, a._seq
        a.kill()
        # a bot plays the seat meanwhile
        n0 = host.call(lambda: len(host.match.log))
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if host.call(lambda: any(e["p"] == seat for e in host.match.log[n0:])) or host.match.is_over():
                break
            time.sleep(0.05)
        assert host.call(lambda: any(e["p"] == seat for e in host.match.log[n0:])), "no stand-in acted"
        a2 = join(host, "Ann", token=token)
        assert a2.seat == seat and a2.welcome["last_seq"] == last and a2.token == token
        assert a2.wait_for(lambda c: c.latest is not None, 5)
        assert host.stats.rejoins == 1
        host.call(lambda: None)
        assert host.seats[seat].standin is None
        play_out([a2, b], seed=4)
        assert a2.wait_for(lambda c: c.latest["view"]["phase"] == "over", 5)
        assert a2.latest["view"] == host.view(seat)
        assert all(q > last for s, q, _ in host.applied[1:] if s == seat)
        check_bookkeeping(host, [b])
    finally:
        host.stop()


def _silent_client(port: int, name: str) -> socket.socket:
    """A client that says hello and then never reads: a raw socket with a tiny receive buffer."""
    import base64
    import os

    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(1)
    assert b" 101 " in buf.split(b"\r\n")[0]
    payload = P.encode({"type": "hello", "version": P.VERSION, "name": name}).encode()
    mask = os.urandom(4)
    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
    s.sendall(frame)
    return s


def test_a_client_that_never_reads_is_dropped_and_others_play_on(tmp_path):
    host = make_host(tmp_path, players=3, bots=["bot:medium"], bot_speed=0.05, max_buffer=32 * 1024,
                     sndbuf=16 * 1024, snapshot_interval=0.0, tick=0.01)
    silent = None
    try:
        a = join(host, "Ann")
        silent = _silent_client(host.port, "Mute")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        rng = random.Random(5)
        end = time.monotonic() + 30
        while time.monotonic() < end and host.stats.dropped_slow == 0:
            step(a, rng)
            time.sleep(0.05)
        assert host.stats.dropped_slow == 1
        # Ann is still served: fresh snapshots and answers
        t = a.latest["time"]
        assert a.wait_for(lambda c: c.latest["time"] > t + 0.05, 5)
        assert host.seats[1].standin is not None  # a bot plays the silent seat
        play_out([a], timeout=30)
        check_bookkeeping(host, [a])
    finally:
        if silent is not None:
            silent.close()
        host.stop()


def test_cli_host_and_join_headless(tmp_path):
    import subprocess
    import sys

    port = socket.socket()
    port.bind(("127.0.0.1", 0))
    p = port.getsockname()[1]
    port.close()
    rec = tmp_path / "cli.json"
    host = subprocess.Popen([sys.executable, "-m", "sim.app.cli", "host", "gobble", "--port", str(p),
                             "--players", "2", "--bots", "bot:hard", "--seed", "2", "--record", str(rec)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert "hosting gobble on 127.0.0.1" in host.stdout.readline()
        out = subprocess.run([sys.executable, "-m", "sim.app.cli", "join", f"127.0.0.1:{p}", "--name", "Cli",
                              "--auto"], capture_output=True, text=True, timeout=50)
        lines = [json.loads(x) for x in out.stdout.splitlines()]
        assert lines[0]["seat"] == 0 and lines[0]["token"]
        assert lines[-1]["type"] == "over"
        assert host.wait(10) == 0
        assert load(rec).is_over()
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
