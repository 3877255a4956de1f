"""LAN play over loopback (issue 4): the lobby's ready step, host + clients, hostile input, rejoin, a
client that never reads.

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
from games.gobble.lan import choose, filter_events
from sim.core.registry import get_spec

RACE = get_spec("gobble")


def make_host(tmp_path, **kw) -> Host:
    opts = dict(players=4, bots=["bot:hard", "bot:medium"], seed=5, bot_speed=0.05, tick=0.02,
                options={"gift_timeout": 1.0}, record_path=tmp_path / "race.json")
    opts.update(kw)
    return Host(RACE, **opts).start()


def join(host: Host, name: str, ready: bool = True, **kw) -> Client:
    """A client in a seat of ``host``; with ``ready`` it says so at once (as ``playtable join --auto``)."""
    c = Client("127.0.0.1", host.port, name, **kw).start()
    if ready:
        c.set_ready(True)
    return c


def lobby_is(c: Client, names: list, ready: list, away: list | None = None, timeout: float = 5.0) -> bool:
    """Wait until ``c``'s last lobby report shows exactly these seats."""
    return c.wait_for(lambda c: c.names == names and c.ready == ready
                      and (away is None or c.away == away), timeout)


def still_waiting(host: Host, seconds: float = 0.3) -> bool:
    """True if the race has not started within ``seconds``."""
    return not host.started.wait(seconds) and host.match is None


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
        # an intent sent just before the end may still be on its way back
        assert c.wait_for(lambda c: all(q in c.results for q in range(1, c._seq + 1)), 5)
        with c._cond:
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


def test_ready_messages_are_validated():
    assert P.parse_client('{"type":"ready","ready":true}') == {"type": "ready", "ready": True}
    assert P.parse_client('{"type":"ready","ready":false}')["ready"] is False
    for raw in ('{"type":"ready"}', '{"type":"ready","ready":1}', '{"type":"ready","ready":"yes"}',
                '{"type":"ready","ready":null}', '{"type":"ready","ready":true,"seat":0}'):
        with pytest.raises(P.ProtocolError) as e:
            P.parse_client(raw)
        assert e.value.code == "bad_message", raw
    # version 2 added the ready step: a version 1 client (which never says ready) is refused
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client('{"type":"hello","version":1,"name":"Old"}')
    assert e.value.code == "bad_version"


def test_the_race_waits_until_every_seat_is_taken_and_ready(tmp_path):
    host = make_host(tmp_path, players=3, bots=["bot:easy"])
    try:
        a = join(host, "Ann", ready=False)
        assert lobby_is(a, ["Ann", None, "bot:easy"], [False, False, True], [False, False, False])
        assert a.welcome["ready"] == [False, False, True] and a.welcome["started"] is False
        a.set_ready(True)
        assert lobby_is(a, ["Ann", None, "bot:easy"], [True, False, True])
        assert still_waiting(host)                     # ready, but a seat is free
        b = join(host, "Bob", ready=False)
        assert lobby_is(b, ["Ann", "Bob", "bot:easy"], [True, False, True])
        assert still_waiting(host)                     # every seat taken, Bob not ready
        # an intent before the start is refused and applies nothing
        seq = a.send_intent({"t": "discard", "tile": 1})
        assert a.wait_for(lambda c: seq in c.results, 5)
        assert a.results[seq]["type"] == "rejected" and "not started" in a.results[seq]["reason"]
        # Ann changes her mind before Bob is ready; Bob's ready then does not start the race
        a.set_ready(False)
        assert lobby_is(b, ["Ann", "Bob", "bot:easy"], [False, False, True])
        b.set_ready(True)
        assert lobby_is(a, ["Ann", "Bob", "bot:easy"], [False, True, True])
        assert still_waiting(host)
        b.set_ready(True)                              # saying it twice changes nothing
        assert still_waiting(host, 0.2)
        a.set_ready(True)                              # the last one ready: the race starts
        assert host.started.wait(5)
        assert a.wait_for(lambda c: c.latest is not None and c.started, 5)
        assert b.wait_for(lambda c: c.latest is not None and c.started, 5)
        assert a.config["seats"] == ["lan:Ann", "lan:Bob", "bot:easy"]
        # after the start a ready message changes nothing; the race goes on
        n = len(a.inbox.queue)
        a.set_ready(False)
        assert a.wait_for(lambda c: any(m["type"] == "lobby" for m in list(c.inbox.queue)[n:]), 5)
        assert a.ready == [True, True, True] and host.match is not None and not a.errors
        play_out([a, b])
        check_bookkeeping(host, [a, b])
    finally:
        host.stop()


def test_leaving_the_lobby_clears_ready(tmp_path):
    host = make_host(tmp_path, players=3, bots=["bot:easy"])
    try:
        a, b = join(host, "Ann", ready=False), join(host, "Bob")
        assert lobby_is(a, ["Ann", "Bob", "bot:easy"], [False, True, True])
        # Bob leaves politely (Leave / Ctrl-C): his seat is free and not ready
        b.close()
        assert lobby_is(a, ["Ann", None, "bot:easy"], [False, False, True], [False, False, False])
        with pytest.raises(ConnectionError, match="unknown token"):
            Client("127.0.0.1", host.port, "Bob", token=b.token).start(timeout=5)
        # Cid takes the free seat, not ready; Ann's ready does not start the race without him
        c = join(host, "Cid", ready=False)
        assert c.seat == 1
        a.set_ready(True)
        assert lobby_is(c, ["Ann", "Cid", "bot:easy"], [True, False, True])
        assert still_waiting(host)
        # Cid says ready and his connection is cut before the last player: ready cleared, seat kept
        a.set_ready(False)    # (two connections: wait for Ann's change before Cid's ready)
        assert lobby_is(c, ["Ann", "Cid", "bot:easy"], [False, False, True])
        c.set_ready(True)
        assert lobby_is(a, ["Ann", "Cid", "bot:easy"], [False, True, True])
        c.kill()
        assert lobby_is(a, ["Ann", "Cid", "bot:easy"], [False, False, True], [False, True, False])
        a.set_ready(True)
        assert lobby_is(a, ["Ann", "Cid", "bot:easy"], [True, False, True], [False, True, False])
        assert still_waiting(host)                     # Cid is away and not ready
        c2 = join(host, "Cid", ready=False, token=c.token)
        assert c2.seat == 1 and c2.welcome["ready"] == [True, False, True]
        assert lobby_is(a, ["Ann", "Cid", "bot:easy"], [True, False, True], [False, False, False])
        assert still_waiting(host)
        # a drop not followed by a rejoin within the window frees the seat (a short window from now on)
        c2.kill()
        assert lobby_is(a, ["Ann", "Cid", "bot:easy"], [True, False, True], [False, True, False])
        host.call(lambda: setattr(host, "rejoin_window", 0.5))
        assert lobby_is(a, ["Ann", None, "bot:easy"], [True, False, True], [False, False, False], 5)
        with pytest.raises(ConnectionError, match="unknown token"):
            Client("127.0.0.1", host.port, "Cid", token=c.token).start(timeout=5)
        d = join(host, "Dee")
        assert d.seat == 1 and host.started.wait(5)
        assert d.wait_for(lambda c: c.latest is not None, 5)
        assert [s.text() for s in host.match.seats] == ["lan:Ann", "lan:Dee", "bot:easy"]
    finally:
        host.stop()


def test_malformed_ready_gets_an_error_and_the_host_keeps_serving(tmp_path):
    from websockets.sync.client import connect

    host = make_host(tmp_path, players=2, bots=[])
    try:
        # ready before hello
        with connect(f"ws://127.0.0.1:{host.port}", open_timeout=5) as ws:
            ws.send('{"type":"ready","ready":true}')
            reply = json.loads(ws.recv(timeout=5))
        assert reply["type"] == "error" and reply["code"] == "not_joined"
        a, b = join(host, "Ann", ready=False), join(host, "Bob", ready=False)
        bad = ['{"type":"ready"}', '{"type":"ready","ready":1}', '{"type":"ready","ready":"yes"}',
               '{"type":"ready","ready":true,"seat":1}', '{"type":"ready","ready":[true]}']
        for k, raw in enumerate(bad):
            a.send_raw(raw)
            assert a.wait_for(lambda c: len(c.errors) > k, 5), raw
            assert a.errors[k]["code"] == "bad_message"
        # none of them made Ann ready; Bob was served meanwhile and the race starts when both are
        b.set_ready(True)
        assert lobby_is(a, ["Ann", "Bob"], [False, True])
        assert still_waiting(host)
        a.set_ready(True)
        assert host.started.wait(5)
        assert a.wait_for(lambda c: c.latest is not None, 5) and b.wait_for(lambda c: c.latest is not None, 5)
    finally:
        host.stop()


def test_gift_tiles_are_told_only_to_the_giver():
    ev = [{"e": "gift", "from": 1, "to": 2, "src": "pile", "tile": 17, "auto": False}]
    assert filter_events(ev, 1)[0]["tile"] == 17
    assert "tile" not in filter_events(ev, 2)[0] and "tile" not in filter_events(ev, 0)[0]


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
        b_action = choose(b.latest["view"], b.seat, random.Random(0))
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
    for msg in ({"type": "hello", "version": P.VERSION, "name": name}, {"type": "ready", "ready": True}):
        payload = P.encode(msg).encode()
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
        host.call(lambda: setattr(host, "snapshot_interval", 1.0))   # the flood was for the silent one
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
        # the game ended; what may follow the end is the answer to an intent sent just before it
        kinds = [x.get("type") for x in lines[1:]]
        assert "over" in kinds
        assert set(kinds[kinds.index("over") + 1:]) <= {"rejected", "closing"}, kinds[kinds.index("over"):]
        assert host.wait(10) == 0
        assert load(rec).is_over()
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


def hidden_tiles_shown(msg: dict, seat: int) -> list[str]:
    """What a message to ``seat`` tells of tiles that seat may not see: another seat's face-down tiles,
    the bag, the tiles set aside, a gift waiting for its place, the tile of a gift it did not give."""
    bad = []
    if msg["type"] == "state":
        view = msg["view"]
        if view["seat"] != seat:
            bad.append(f"a view of seat {view['seat']}")
        for j, d in enumerate(view["seats"]):
            shown = d["tiles"][:view["hand"]] if j == seat else []
            if any(t is not None for t in d["tiles"][len(shown):]):
                bad.append(f"seat {j}'s pile")
        if any(t is not None for t in view["bag"] + view["aside"]) or (view["insert"] or [0, None])[1] is not None:
            bad.append("the bag, the tiles set aside or a gift on its way")
        bad += [f"the tile of seat {e['from']}'s gift" for e in msg["events"]
                if e.get("e") == "gift" and e["from"] != seat and "tile" in e]
    return bad


def test_no_message_to_a_seat_tells_another_seats_hidden_tiles(tmp_path):
    """A whole race with gifts: every message each LAN seat received shows it only its own revealed
    tile(s) and the tiles of the gifts it gave; each view is that seat's ``observe``."""
    host = make_host(tmp_path, players=4, bots=["bot:hard", "bot:medium"], options={"gift_timeout": 1.0})
    rules = host.rules
    try:
        a, b = join(host, "Ann"), join(host, "Bob")
        assert a.wait_for(lambda c: c.latest is not None, 5)
        play_out([a, b])
        for c in (a, b):
            assert c.wait_for(lambda c: c.latest["view"]["phase"] == "over", 5)
            msgs = []
            while not c.inbox.empty():
                msgs.append(c.inbox.get_nowait())
            states = [m for m in msgs if m["type"] == "state"]
            assert len(states) > 10
            for m in msgs:
                assert hidden_tiles_shown(m, c.seat) == [], m
            gifts = [e for m in states for e in m["events"] if e.get("e") == "gift"]
            assert any(e["from"] != c.seat for e in gifts)        # gifts were made, and told to all
            own = [e for e in gifts if e["from"] == c.seat and not e["auto"]]
            assert all("tile" in e for e in own)
            final = host.call(lambda: rules.observe(host.match.state, c.seat))
            assert rules.state_from_json(c.latest["view"]) == final
    finally:
        host.stop()
