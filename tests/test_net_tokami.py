"""Tokami over the LAN: the host owns the pile, a client's hand streams to it, every client sees the
pile move in live frames; the host's outcome goes into its record and replays exactly; hostile hand
streams are refused and the host keeps serving; a dropped hand lets go, a stand-in plays, the token
rejoins; a host that quits ends the game for everyone."""
from __future__ import annotations

import json
import math
import time

import pytest

from games.tokami import driver, model
from sim.core.record import load
from sim.core.registry import get_spec
from sim.core.rules import PHYSICS
from sim.net import protocol as P
from sim.net.client import Client
from sim.net.host import Host
from sim.net.remote import RemoteMatch

TOKAMI = get_spec("tokami")


def make_host(tmp_path, logs=None, **kw) -> Host:
    opts = dict(players=2, bots=[], seed=7, tick=0.02, options={"rounds": 1}, record_path=tmp_path / "tk.json",
                log=(logs.append if logs is not None else None))
    opts.update(kw)
    return Host(TOKAMI, **opts).start()


def join(host: Host, name: str, **kw) -> tuple[Client, RemoteMatch]:
    c = Client("127.0.0.1", host.port, name, **kw).start()
    c.set_ready(True)
    return c, RemoteMatch(TOKAMI, c)


def at_turn(pairs, timeout=10.0) -> None:
    """Wait until every client's view is the first turn (the pile set up and settled on the host)."""
    for _c, r in pairs:
        assert r.wait_for(lambda r: r.state is not None and r.state.phase == "turn", timeout)


def top_along(state) -> int:
    """The highest along-stick on the X (nothing rests on it: it can be dragged up and lifted out)."""
    return max((i for i, p in state.poses.items() if p[0] == "along"),
               key=lambda i: model.highest_point(state.poses[i]))


def stream(c: Client, hand: dict, pause: float = 0.02) -> int:
    seq = c.send_hand(hand)
    time.sleep(pause)
    return seq


def raise_by_hand(c: Client, r: RemoteMatch) -> int:
    """Drag the top along-stick up in the plane, lift it out, carry it across in lane 3 and lay it on
    the pile; returns the stick."""
    st = r.state
    sid = top_along(st)
    _k, _l, x, y, a = st.poses[sid]
    stream(c, {"op": "grab", "stick": sid, "x": x, "y": y, "n": r.n})
    for k in range(1, 26):                       # half a second at 50 Hz, 15 mm up in the plane
        stream(c, {"op": "move", "x": x, "y": y + 0.6 * k, "a": a})
    stream(c, {"op": "lift", "kind": None, "lane": None, "pull": 0.0})
    stream(c, {"op": "ghost", "kind": "across", "lane": 2})
    for k in range(1, 11):
        stream(c, {"op": "move", "x": x * (1 - k / 10), "y": y + 15 + 4 * k, "a": a * (1 - k / 10)})
    stream(c, {"op": "lay", "x": 0.0, "y": y + 55.0, "a": 0.0, "close": True})
    return sid


def test_a_raise_from_a_clients_hand_stream_is_the_hosts_replays_exactly_and_the_other_client_saw_it(tmp_path):
    logs: list[str] = []
    host = make_host(tmp_path, logs)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        at_turn(pairs)
        mover = next(p for p in pairs if p[1].seat == p[1].state.player)
        watcher = next(p for p in pairs if p is not mover)
        c, r = mover
        n0 = host.call(lambda: host.match.cursor)
        sid = raise_by_hand(c, r)
        assert r.wait_for(lambda r: r.state.phase not in ("turn", "raise"), 10), r.state.phase
        assert r.state.phase == "winning" and r.state.current["raised"], r.state.current
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert log[n0] == {"p": c.seat, "a": {"t": "take", "stick": sid}}      # touch means take
        out = log[n0 + 1]
        assert out["p"] == PHYSICS and out["a"]["t"] == "raised" and out["a"]["placed"]
        assert out["a"]["poses"][str(sid)][:2] == ["across", 2]
        assert not [h for q, h in c.results.items() if h["type"] == "rejected"]
        # the hand-to-screen delay on loopback: every input was acknowledged by a frame
        assert len(c.hand_delays) >= 30
        # the other client saw the stick move in the plane, frame by frame, and the carried stick too
        wc = watcher[0]
        frames = [m for _t, m in list(wc.lives) if m.get("kind") == "hand" and m["seat"] == c.seat]
        ys = [m["poses"][str(sid)][3] for m in frames if str(sid) in m["poses"]]
        assert len(set(ys)) >= 5 and max(ys) > min(ys) + 5.0, ys
        assert any(m["ghost"] is not None and m["ghost"][0] == "across" for m in frames)
        assert all(m["hand"] is not None for m in frames if not m["closed"])
        # nothing is sent while the pile sleeps
        assert wc.wait_for(lambda c: c.live["kind"] is None, 5)
        k = wc.live["k"]
        time.sleep(0.3)
        assert wc.live["k"] == k and wc.live["kind"] is None
        host.stop()
        rec = load(host.record_saved)
        assert [dict(e) for e in rec.log] == log
        # the outcome replays exactly from the state before it and its hand track
        before = rec.states[n0 + 1]
        assert driver.replay(before, out["a"]["hand"]).action == out["a"]
        assert not [line for line in logs if "failed" in line or "could not" in line]
    finally:
        host.stop()


def test_hostile_hand_streams_are_refused_and_the_host_keeps_serving(tmp_path):
    logs: list[str] = []
    host = make_host(tmp_path, logs, hand_rate=40, hand_burst=40)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        at_turn(pairs)
        (a, ra), (b, rb) = pairs if pairs[0][1].seat == pairs[0][1].state.player else pairs[::-1]
        st = ra.state
        sid = top_along(st)
        x, y = st.poses[sid][2], st.poses[sid][3]

        def raw_hand(c, hand_text, seq, seat=None, token=None):
            return ('{"type":"hand","seq":%d,"seat":%d,"token":%s,"hand":%s}'
                    % (seq, c.seat if seat is None else seat, json.dumps(token or c.token), hand_text))

        errors = [("{not json", "bad_json"), ("x" * (P.MAX_MESSAGE + 10), "too_big"),
                  (raw_hand(a, '{"op":"move","x":NaN,"y":0,"a":0}', 100), "bad_json"),
                  (raw_hand(a, '{"op":"move","x":Infinity,"y":0,"a":0}', 101), "bad_json"),
                  (raw_hand(a, '{"op":"move","x":1e400,"y":0,"a":0}', 102), "bad_message"),
                  (raw_hand(a, '{"op":"move","x":1e300,"y":0,"a":0}', 103), "bad_message"),
                  (raw_hand(a, '{"op":"move","x":[1,2],"y":0,"a":0}', 104), "bad_message"),
                  (raw_hand(a, '[1,2,3]', 105), "bad_message"),
                  ('{"type":"hand","seq":106,"seat":0,"token":"t","hand":{"op":"move"},"extra":1}', "bad_message")]
        for k, (raw, code) in enumerate(errors):
            a.send_raw(raw)
            assert a.wait_for(lambda c: len(c.errors) > k, 5), raw[:40]
            assert a.errors[k]["code"] == code, (raw[:60], a.errors[k])
        a._seq = 200
        # refused by seat, token, turn and the game's own ranges: each answered with the reason
        grab = {"op": "grab", "stick": sid, "x": x, "y": y, "n": ra.n}
        refused = [
            (b, json.dumps(grab), {}, "not your turn"),                           # the inactive seat
            (a, json.dumps(grab), {"token": "guess" * 5}, "wrong token"),
            (a, json.dumps(grab), {"seat": b.seat}, "not your seat"),
            (a, json.dumps(dict(grab, x=5000.0)), {}, "x must be"),
            (a, json.dumps(dict(grab, stick=99)), {}, "stick must be"),
            (a, json.dumps(dict(grab, n=ra.n + 3)), {}, "moved on"),
            (a, json.dumps({"op": "teleport"}), {}, "unknown hand op"),
            (a, json.dumps({"op": "move", "x": 0, "y": 0, "a": 1e5}), {}, "a must be"),
            (a, json.dumps({"op": "lift", "kind": None, "lane": None, "pull": 1.0}), {}, "holds no stick"),
            (a, json.dumps(dict(grab, stick=st.taboo if st.taboo is not None else sid, extra=1)), {}, "exactly"),
        ]
        for k, (c, text, kw, why) in enumerate(refused):
            seq = 300 + k
            c.send_raw(raw_hand(c, text, seq, **kw))
            assert c.wait_for(lambda c: seq in c.results, 5), text
            assert c.results[seq]["type"] == "rejected" and why in c.results[seq]["reason"], c.results[seq]
        assert host.call(lambda: host.match.cursor) == ra.n and host.live.kind is None
        # a flooding hand stream: over its budget it is dropped, with one rate_limited error a second
        a._seq = 400
        n_err = len(a.errors)
        done0 = host.call(lambda: (host.stats.hands, host.stats.rate_limited, host.stats.rejected))
        t0 = time.monotonic()
        for _ in range(400):
            a.send_hand({"op": "move", "x": 0.0, "y": 50.0, "a": 0.0})

        def dealt() -> tuple[int, int, int]:
            now = host.call(lambda: (host.stats.hands, host.stats.rate_limited, host.stats.rejected))
            return tuple(x - x0 for x, x0 in zip(now, done0))

        end = time.monotonic() + 20
        while dealt()[0] + dealt()[2] < 400 and time.monotonic() < end:   # every one applied or refused
            time.sleep(0.05)
        elapsed = time.monotonic() - t0
        applied, limited, _refused = dealt()
        # no more than the budget let through (a burst, then the rate), the rest dropped and said so
        assert applied + _refused >= 400 and limited >= 400 - (40 + 40 * elapsed) - 1, (applied, limited, elapsed)
        assert applied <= 40 + 40 * elapsed + 1, (applied, elapsed)
        assert a.wait_for(lambda c: any(e["code"] == "rate_limited" for e in c.errors[n_err:]), 5)
        assert len(a.errors) - n_err <= elapsed + 2
        time.sleep(1.2)                           # the bucket refills
        # the host still serves: the real hand takes the stick, every seat sees it move
        k0 = b.live["k"] if b.live else 0
        a.send_hand(dict(grab, n=ra.n))
        for i in range(1, 15):
            stream(a, {"op": "move", "x": x, "y": y + i, "a": st.poses[sid][4]})
        assert b.wait_for(lambda c: c.live is not None and c.live["k"] > k0 and c.live.get("kind") == "hand", 5)
        assert ra.wait_for(lambda r: r.state.phase == "raise", 5)
        assert host._thread.is_alive()
        assert not [line for line in logs if "could not handle" in line or "failed" in line]
    finally:
        host.stop()


def test_a_dropped_hand_lets_go_a_stand_in_plays_and_the_token_rejoins(tmp_path):
    host = make_host(tmp_path, standin="easy", bot_pause=0.0)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        at_turn(pairs)
        (a, ra), (b, rb) = pairs if pairs[0][1].seat == pairs[0][1].state.player else pairs[::-1]
        sid = top_along(ra.state)
        _k, _l, x, y, ang = ra.state.poses[sid]
        stream(a, {"op": "grab", "stick": sid, "x": x, "y": y, "n": ra.n})
        for i in range(1, 15):
            stream(a, {"op": "move", "x": x, "y": y + i, "a": ang})
        assert ra.wait_for(lambda r: r.state.phase == "raise", 5)
        assert rb.wait_for(lambda r: r.state.phase == "raise", 5)
        token, seat = a.token, a.seat
        a.kill()
        # the hand let go: the host settled the pile and recorded the outcome; the game goes on
        assert rb.wait_for(lambda r: r.state.phase != "raise" and not (r.state.phase == "settle"), 10)
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert any(e["p"] == PHYSICS and e["a"]["t"] == "raised" for e in log)
        assert host.seats[seat].standin is not None
        assert b.wait_for(lambda c: c.away is not None and c.away[seat], 5)      # the others see it away
        a2, ra2 = join(host, "Ann", token=token)
        assert b.wait_for(lambda c: not c.away[seat], 5)                         # and back
        assert a2.seat == seat and a2.token == token
        assert ra2.wait_for(lambda r: r.state is not None, 5)
        host.call(lambda: None)
        assert host.seats[seat].standin is None and host.stats.rejoins == 1
    finally:
        host.stop()


def test_a_host_that_quits_ends_the_game_for_everyone_and_saves_the_record(tmp_path):
    host = make_host(tmp_path)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        at_turn(pairs)
        host.stop()
        for c, _r in pairs:
            assert c.wait_for(lambda c: c.closing is not None, 5)
            assert "quit" in c.closing
        rec = load(host.record_saved)
        assert rec.rules.info.name == "tokami" and rec.state.phase == "turn"
    finally:
        host.stop()


def test_a_tokami_state_round_trips_and_frames_are_checked():
    from games.tokami.lan import check_frame, check_hand

    rules = TOKAMI.make_rules()
    from sim.core.match import Match
    m = Match(rules, {"players": 3, "rounds": 1}, 2)
    m.submit(PHYSICS, driver.settle_action(m.state))
    st = m.state
    obj = json.loads(json.dumps(rules.state_to_json(rules.observe(st, 2))))
    assert rules.state_from_json(obj) == st
    for bad in (None, {}, dict(obj, extra=1), dict(obj, players=9), dict(obj, poses={"x": 1}),
                dict(obj, poses=dict(obj["poses"], **{"3": ["across", 9, 0, 0, 0]})), dict(obj, totals=[1, 2, 3])):
        with pytest.raises(ValueError):
            rules.state_from_json(bad)
    with pytest.raises(ValueError):
        rules.observe(st, 3)
    good = {"kind": "hand", "seat": 0, "stick": 1, "poses": {"1": ["along", -1, 0.0, 10.0, 0.0]}, "tumbling": [],
            "fallen": [], "ghost": None, "touch": None, "hand": [0.0, 1.0], "closed": False, "hp_before": 3.0}
    check_frame(good)
    for bad in (dict(good, kind="x"), dict(good, poses={"1": ["along", -1, math.inf, 0, 0]}),
                dict(good, hand=[1.0]), dict(good, poses={"99": ["along", -1, 0, 0, 0]}), dict(good, closed=None)):
        with pytest.raises(ValueError):
            check_frame(bad)
    with pytest.raises(ValueError):
        check_hand({"op": "lift", "kind": "sideways", "lane": None, "pull": 0})


def test_two_scripted_clients_play_turns_through_the_host_and_every_outcome_replays(tmp_path):
    from games.tokami.lan import AutoHand

    host = make_host(tmp_path)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        players = [AutoHand(r, seed=i) for i, (_c, r) in enumerate(pairs)]
        assert host.started.wait(5)
        end = time.monotonic() + 30
        while time.monotonic() < end and host.call(lambda: len({
                e["p"] for e in host.match.log if e["p"] >= 0 and e["a"]["t"] in ("take", "refuse")}) < 2
                or sum(1 for e in host.match.log if e["a"]["t"] in ("raised", "drawn")) < 2):
            for p in players:
                p.step()
            time.sleep(0.01)
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert {e["p"] for e in log if e["p"] >= 0} == {0, 1}          # both seats played by hand
        host.stop()
        rec = load(host.record_saved)                # every action checked again by the rules
        tracks = [(rec.states[i], e["a"]) for i, e in enumerate(rec.log)
                  if e["p"] == PHYSICS and e["a"]["t"] in ("raised", "drawn")]
        assert len(tracks) >= 2
        for before, action in tracks:
            assert driver.replay(before, action["hand"]).action == action
    finally:
        host.stop()


def test_join_auto_plays_tokami_by_hand_from_the_command_line(tmp_path, capsys):
    import threading

    from sim.app import cli

    host = make_host(tmp_path, bots=["bot:easy"], bot_pause=0.0)
    rc: list[int] = []
    try:
        t = threading.Thread(target=lambda: rc.append(cli.main(["join", f"127.0.0.1:{host.port}", "--name", "Ann",
                                                                "--auto"])), daemon=True)
        t.start()
        end = time.monotonic() + 20
        while time.monotonic() < end and not host.call(
                lambda: host.match is not None and any(e["p"] == 0 and e["a"]["t"] == "take" for e in host.match.log)
                and host.match.state.phase not in ("raise",)):
            time.sleep(0.05)
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert any(e["p"] == 0 and e["a"]["t"] == "take" for e in log)
        assert host.stats.hands > 3
        host.stop()
        t.join(10)
        assert rc == [0]
        out = capsys.readouterr().out
        assert '"type":"state"' in out and '"e":"take"' in out      # the host's views, with the events
        assert '"type":"closing"' in out                             # and the host's last word, however it ended
    finally:
        host.stop()


def test_a_client_interpolates_between_the_newest_two_frames():
    from games.tokami.lan import LivePoses

    def frame(k, n, y, kind="hand"):
        return {"k": k, "n": n, "kind": kind, "poses": {"3": ["along", -1, 0.0, y, 0.0], "4": ["across", 1, 5.0, 9.0, 0.1]}}

    lp = LivePoses()
    assert lp.poses(0.0, 0) is None
    lp.feed(1.0, frame(1, 10, 20.0))
    lp.feed(1.025, frame(2, 10, 30.0))
    lp.feed(1.02, frame(1, 10, 99.0))                     # an old frame is ignored
    assert lp.poses(1.025, 10)[3][3] == 20.0             # one interval late: the older frame at first
    assert lp.poses(1.0375, 10)[3][3] == pytest.approx(25.0)
    assert lp.poses(2.0, 10)[3][3] == 30.0               # never beyond the newest
    assert lp.poses(1.025, 10, smooth=False)[3][3] == 30.0
    assert lp.speeds()[3] == pytest.approx(400.0) and lp.speeds()[4] == 0.0
    assert lp.poses(1.1, 11) is None                     # the game moved on past this live world
    lp.feed(1.05, frame(3, 10, 30.0, kind=None))
    assert lp.current(10) is None and lp.speeds() == {}


def test_each_seat_is_acked_its_own_hand_inputs_in_the_live_frames(tmp_path):
    """Every client numbers its own messages: a frame acks each seat the seq of its own last hand input
    applied, never another seat's (a screen that saw the mover's higher seq took its own new grab for
    answered and let go of it at home while the host kept the stick in its hand)."""
    host = make_host(tmp_path)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        at_turn(pairs)
        (c, r), (wc, _wr) = sorted(pairs, key=lambda p: p[1].seat != p[1].state.player)
        sid = top_along(r.state)
        _k, _l, x, y, a = r.state.poses[sid]
        last = stream(c, {"op": "grab", "stick": sid, "x": x, "y": y, "n": r.n})
        for k in range(1, 16):
            last = stream(c, {"op": "move", "x": x, "y": y + 0.6 * k, "a": a})
        assert last > 10
        assert c.wait_for(lambda c: c.live is not None and c.live["ack"] == last, 5)
        assert wc.wait_for(lambda c: c.live is not None and c.live.get("kind") == "hand", 5)
        acks = {m["ack"] for _t, m in list(wc.lives)}
        assert acks == {0}                  # the watcher sent no hand input: nothing of its own acked
        stream(c, {"op": "release"})
    finally:
        host.stop()


def test_a_scripted_hand_that_changes_nothing_tries_otherwise_then_ends_its_turn():
    """``AutoHand`` in phase winning whose hand moved nothing on the host (a wedged stick: the view does
    not change): after 3 s it tries again with other hand noise, and after a second try it ends its turn,
    instead of sending the same plan for ever."""
    from dataclasses import replace

    from games.tokami.ai import make_bot
    from games.tokami.lan import AutoHand
    from games.tokami.rules import TokamiRules
    from sim.core.match import Match

    rules = TokamiRules()
    m = Match(rules, {"players": 2, "seats": ["bot:easy", "bot:easy"], "rounds": 1}, seed=3)
    bots = [make_bot(i, "easy", 3, clock=lambda: 0.0) for i in range(2)]
    plan = None
    while not (m.state.phase == "winning" and bots[m.state.player].decide(m.state)["action"]["t"] == "draw"):
        s = m.state
        p = m.active_players()[0]
        if p == PHYSICS:
            m.submit(PHYSICS, driver.settle_action(s) if s.phase == "settle" else driver.run_plan(s, plan))
        else:
            d = bots[p].decide(s)
            plan = d.get("plan")
            m.submit(p, d["action"])
    win = m.state

    class FakeClient:
        live = None
        sent: list = []

        def send_hand(self, h):
            self.sent.append(h)

    class FakeRemote:
        client = FakeClient()
        seat, n, state = win.player, 40, win
        submitted: list = []

        def poll(self):
            pass

        def is_over(self):
            return False

        def waiting(self):
            return False

        def submit(self, seat, action):           # the host takes it: the next view is the other's turn
            self.submitted.append(action)
            self.n += 1
            self.state = replace(win, phase="turn", player=1 - seat)

    now = [0.0]
    r = FakeRemote()
    hand = AutoHand(r, seed=3, clock=lambda: now[0])
    while not r.submitted and now[0] < 60.0:
        hand.step()
        now[0] += 0.01
    tries = []                                          # the hand inputs of each try, from its grab on
    for h in r.client.sent:
        if h["op"] == "grab":
            tries.append([])
        tries[-1].append(h)
    assert r.submitted == [{"t": "end"}]                # it ended its turn
    assert len(tries) == 2 and tries[1] != tries[0]     # after trying once more, otherwise
    for _ in range(2000):                               # and then it is the other's turn: nothing more
        hand.step()
        now[0] += 0.01
    assert r.submitted == [{"t": "end"}] and sum(h["op"] == "grab" for h in r.client.sent) == 2


def test_two_clients_and_a_host_bot_play_a_whole_game_and_see_the_hosts_view(tmp_path):
    """A whole one-round game through the host: two clients playing by hand streams (``AutoHand``) and
    a bot of the host; every client's last view is the host's ``observe`` for its seat, and the saved
    record replays to the host's outcome."""
    from games.tokami.lan import AutoHand

    host = make_host(tmp_path, players=3, bots=["bot:easy"], bot_pause=0.05, live_speed=3.0)
    try:
        pairs = [join(host, "Ann"), join(host, "Bob")]
        players = [AutoHand(r, seed=i) for i, (_c, r) in enumerate(pairs)]
        assert host.started.wait(5)
        end = time.monotonic() + 400
        while time.monotonic() < end and not host.call(lambda: host.match.is_over()):
            for p in players:
                p.step()
            time.sleep(0.01)
        assert host.call(lambda: host.match.is_over()), "the game did not end"
        seats = {e["p"] for e in host.call(lambda: list(host.match.log)) if e["p"] >= 0}
        assert seats == {0, 1, 2}                                  # both people and the bot played
        for c, r in pairs:
            assert r.wait_for(lambda r: r.is_over(), 10)
            assert r.rules.state_to_json(r.state) == host.view(c.seat)
        outcome = host.call(lambda: host.match.outcome())
        host.stop()
        rec = load(host.record_saved)
        assert rec.is_over() and rec.outcome() == outcome
    finally:
        host.stop()
