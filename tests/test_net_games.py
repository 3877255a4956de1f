"""Every game that can be hosted, over loopback: two LAN clients and a host bot play a whole game
through the one host; every client's final view is the host's ``observe`` of its seat, and every
message each client received tells it nothing of another seat's secrets (Streetcar's line and route
cards, the Gobble race's face-down tiles and the tiles of gifts it did not give). Turn-based games:
undo over the LAN follows the match's policy (only the seat's own last action, never across another
seat's action or a draw).

The two-seat games (Tumbleweed, Tom Tube) have no room for a third seat: their two clients play one
game, and one client plays a second game against a host bot. Bots are the easy ones, without pauses.
"""
from __future__ import annotations

import queue
import threading
import time

import pytest

from sim.core.registry import get_spec
from sim.core.rules import IllegalAction
from sim.net.client import Client
from sim.net.host import Host
from sim.net.remote import RemoteMatch

from test_net_lan import hidden_tiles_shown, play_out


def drain(c: Client) -> list[dict]:
    out = []
    while True:
        try:
            out.append(c.inbox.get_nowait())
        except queue.Empty:
            return out


def join(host: Host, spec, name: str) -> tuple[Client, RemoteMatch]:
    c = Client("127.0.0.1", host.port, name).start()
    c.set_ready(True)
    return c, RemoteMatch(spec, c)


def play_remotes(pairs: list, spec, timeout: float = 60.0) -> int:
    """Each client's seat played to the end by an easy bot that sees only that client's view; returns
    the number of actions sent."""
    bots = {r.seat: spec.make_bot(r.seat, "easy", 100 + r.seat) for _, r in pairs}
    sent = {r.seat: -1 for _, r in pairs}
    moves = 0
    end = time.monotonic() + timeout
    while time.monotonic() < end and not all(r.is_over() for _, r in pairs):
        busy = False
        for _c, r in pairs:
            r.poll()
            if r.state is None or r.waiting() or r.n <= sent[r.seat] or r.seat not in r.active_players():
                continue
            action = bots[r.seat].select_action(r.rules, r.state, r.seat)
            sent[r.seat] = r.n
            r.submit(r.seat, action)
            moves += 1
            busy = True
        if not busy:
            for c, _r in pairs:
                c.wait_for(lambda c: False, 0.003)
    assert all(r.is_over() for _, r in pairs), "the game did not end in time"
    return moves


def host_turn_based(spec, tmp_path, players: int, bots: list, options: dict | None = None, seed: int = 3) -> Host:
    return Host(spec, players=players, bots=bots, seed=seed, tick=0.02, bot_pause=0.0, options=options or {},
                record_path=tmp_path / f"{spec.name}-{len(bots)}.json").start()


def check_every_view(host: Host, c: Client, msgs: list[dict]) -> list[dict]:
    """Every ``state`` message sent to ``c`` is exactly ``observe`` of its seat at the host's position
    after ``n`` actions (so it holds no other seat's secret); returns the state messages."""
    rules, m = host.rules, host.match
    states = [x for x in msgs if x["type"] == "state"]
    assert states
    for x in states:
        assert x["seat"] == c.seat
        assert x["view"] == rules.state_to_json(rules.observe(m.states[x["n"]], c.seat)), x["n"]
    return states


def finish(host: Host, pairs: list) -> None:
    """The game is over; each client's final view is the host's observe of its seat, its outcome the
    host's, and the record is saved."""
    assert host.finished.wait(10) and host.record_saved
    for c, r in pairs:
        assert r.wait_for(lambda r: r.n == host.call(lambda: host.match.cursor), 5)
        assert r.rules.state_to_json(r.state) == host.view(c.seat)
        assert r.state == host.call(lambda: host.rules.observe(host.match.state, c.seat))
        assert r.outcome() == host.call(lambda: host.match.outcome())
        assert not r.refusals


# ---------------------------------------------------------------- Streetcar
def streetcar_secrets_told(x: dict, seat: int, host: Host) -> list[str]:
    """What message ``x`` to ``seat`` tells of another seat's secret cards or of the pile's order."""
    bad = []
    if x["type"] == "state":
        view = x["view"]
        for j, st in enumerate(view["seats"]):
            if j != seat and not st["driving"] and (st["line"] or st["card"] or st["stops"]):
                bad.append(f"seat {j}'s cards")
        if view["lines_left"] or view["cards_left"]:
            bad.append("the cards not dealt")
        if "log" in x:
            bad.append("the action log (its deals name the cards)")
        for e in x["events"]:
            # a trip's start shows the cards to all; a tile play names the tile laid (from an open hand)
            told = set(e) & {"line", "card", "stops", "tile"}
            if e.get("e") != "start" and told - ({"tile"} if e.get("e") == "tile" else set()):
                bad.append(f"a {e.get('e')} event naming a card or a drawn tile")
    text = str(x)
    for j, st in enumerate(host.match.state.seats):
        if j != seat and not st.driving and f"'card': '{st.card}'" in text:
            bad.append(f"seat {j}'s route card by name")
    return bad


def test_streetcar_two_clients_and_a_host_bot_play_a_whole_game(tmp_path):
    sc = get_spec("streetcar")
    host = host_turn_based(sc, tmp_path, 3, ["bot:easy"], {"dice": "published", "share_hands": False})
    try:
        pairs = [join(host, sc, "Ann"), join(host, sc, "Bob")]
        assert host.started.wait(5)
        assert all(c.wait_for(lambda c: c.config is not None, 5) for c, _ in pairs)
        assert [c.config["seats"] for c, _ in pairs] == [["lan:Ann", "lan:Bob", "bot:easy"]] * 2
        # the options came through: the screen's state has them
        assert pairs[0][1].wait_for(lambda r: r.state is not None, 5)
        assert pairs[0][1].state.share is False and pairs[0][1].config["dice"] == "published"
        assert play_remotes(pairs, sc) > 20
        finish(host, pairs)
        log = host.call(lambda: list(host.match.log))
        assert {e["p"] for e in log} >= {-1, 0, 1, 2}     # deals and draws on the host, every seat acted
        for c, r in pairs:
            msgs = drain(c)
            states = check_every_view(host, c, msgs)
            assert len(states) > 20 and not any("log" in x for x in states) and r.log == []
            assert [b for x in msgs for b in streetcar_secrets_told(x, c.seat, host)] == []
            # the seat's own cards were in its views from the deal on; the game's events came too
            assert states[-1]["view"]["seats"][c.seat]["card"]
            assert any(e.get("e") == "tile" for x in states for e in x["events"])
    finally:
        host.stop()


def test_streetcar_state_json_refuses_what_is_not_a_position():
    from sim.core.match import Match

    sc = get_spec("streetcar")
    rules = sc.make_rules()
    m = Match(rules, {"players": 3}, 2)
    bots = [sc.make_bot(i, "easy", 2) for i in range(3)]
    while len(m.log) < 60:
        p = m.active_players()[0]
        m.submit(p, bots[p].select_action(rules, m.state, p))
    view = rules.observe(m.state, 1)
    good = rules.state_to_json(view)
    assert rules.state_from_json(good) == view
    assert good["seats"][0]["card"] == "" and good["seats"][1]["card"]
    seats = good["seats"]
    cells = list(good["board"]["cells"])
    cells[0] = 4                                      # a tile on a ring square
    for obj in (None, {}, dict(good, extra=1), dict(good, players=6), dict(good, phase="lunch"),
                dict(good, pile=good["pile"][:-1]), dict(good, faces=["GO9"]),
                dict(good, seats=[dict(seats[0], stops="ABC")] + seats[1:]),
                dict(good, seats=[dict(seats[0], hand=[0, 0, 0, 0, 0, 0])] + seats[1:]),   # tiles out of thin air
                dict(good, board=dict(good["board"], cells=cells)), dict(good, turn=True)):
        with pytest.raises(ValueError):
            rules.state_from_json(obj)


# ---------------------------------------------------------------- Tumbleweed and Tom Tube
@pytest.mark.parametrize("name,options", [("tumbleweed", {"size": 4}), ("tomtube", {})])
def test_two_seat_games_two_clients_then_a_client_and_a_host_bot(tmp_path, name, options):
    spec = get_spec(name)
    host = host_turn_based(spec, tmp_path, 2, [], options)
    try:
        pairs = [join(host, spec, "Ann"), join(host, spec, "Bob")]
        assert host.started.wait(5)
        play_remotes(pairs, spec)
        finish(host, pairs)
        full = host.call(lambda: [{"p": e["p"], "a": e["a"]} for e in host.match.log])
        for c, r in pairs:
            states = check_every_view(host, c, drain(c))
            # every action is public: the log each view carried is the host's, up to that view
            assert all(x["log"] == full[:x["n"]] for x in states)
            assert [dict(e) for e in r.log] == full
    finally:
        host.stop()
    host = host_turn_based(spec, tmp_path, 2, ["bot:easy"], options, seed=4)
    try:
        pairs = [join(host, spec, "Cat")]
        play_remotes(pairs, spec)
        finish(host, pairs)
        assert {e["p"] for e in host.match.log} >= {0, 1}
        check_every_view(host, pairs[0][0], drain(pairs[0][0]))
    finally:
        host.stop()


# ---------------------------------------------------------------- the Gobble race
def test_gobble_race_two_clients_and_a_host_bot_nothing_hidden_told(tmp_path):
    race = get_spec("gobble")
    host = Host(race, players=3, bots=["bot:easy"], seed=6, bot_speed=0.05, tick=0.02,
                options={"gift_timeout": 1.0}, record_path=tmp_path / "race.json").start()
    try:
        a, b = (Client("127.0.0.1", host.port, n).start() for n in ("Ann", "Bob"))
        for c in (a, b):
            c.set_ready(True)
        assert a.wait_for(lambda c: c.latest is not None, 5)
        play_out([a, b], timeout=40)
        assert host.finished.wait(5)
        told = 0
        for c in (a, b):
            assert c.wait_for(lambda c: c.latest["view"]["phase"] == "over", 5)
            final = host.call(lambda: host.rules.observe(host.match.state, c.seat))
            assert host.rules.state_from_json(c.latest["view"]) == final
            msgs = drain(c)
            states = [x for x in msgs if x["type"] == "state"]
            assert len(states) > 10
            assert [b for x in msgs for b in hidden_tiles_shown(x, c.seat)] == []
            # gifts made by other seats are told to this one without their tiles
            gifts = [e for x in states for e in x["events"] if e.get("e") == "gift" and e["from"] != c.seat]
            assert all("tile" not in e for e in gifts), gifts
            told += len(gifts)
        assert told > 0      # which seats gift whom depends on the race's timing; some gift was told
    finally:
        host.stop()


# ---------------------------------------------------------------- turns and undo
def test_the_host_applies_an_action_only_on_its_seats_turn_and_undo_follows_the_match_policy(tmp_path):
    sc = get_spec("streetcar")
    host = host_turn_based(sc, tmp_path, 2, [], seed=5)
    try:
        (a, ra), (b, rb) = join(host, sc, "Ann"), join(host, sc, "Bob")
        assert ra.wait_for(lambda r: r.state is not None and r.state.phase == "play", 5)
        assert rb.wait_for(lambda r: r.state is not None and r.state.phase == "play", 5)
        (c0, r0), (c1, r1) = ((a, ra), (b, rb)) if ra.seat == 0 else ((b, rb), (a, ra))
        bot0 = sc.make_bot(0, "easy", 1)
        # seat 1 may not act on seat 0's turn: refused by its own view, and by the host when sent anyway
        act1 = sc.make_bot(1, "easy", 1).select_action(r1.rules, host.call(lambda: host.match.state), 1)
        with pytest.raises(IllegalAction):
            r1.submit(1, act1)
        seq = c1.send_intent(act1)
        assert c1.wait_for(lambda c: seq in c.results, 5)
        assert c1.results[seq]["type"] == "rejected" and "may not act" in c1.results[seq]["reason"]
        # nothing to undo yet (the deal is chance); an undo is answered, never applied
        assert not r0.can_undo() and not r1.can_undo()
        seq = c0.send_undo()
        assert c0.wait_for(lambda c: seq in c.results, 5) and c0.results[seq]["type"] == "rejected"
        n0 = host.call(lambda: host.match.cursor)
        # seat 0 plays its first tile: it may take it back, seat 1 may not
        first = bot0.select_action(r0.rules, r0.state, 0)
        assert first["t"] == "tile"
        r0.submit(0, first)
        assert r0.wait_for(lambda r: r.n == n0 + 1 and not r.waiting(), 5)
        assert rb.wait_for(lambda r: r.n == n0 + 1, 5)
        assert r0.can_undo() and not r1.can_undo()
        seq = c1.send_undo()                          # the other seat asks anyway
        assert c1.wait_for(lambda c: seq in c.results, 5) and c1.results[seq]["type"] == "rejected"
        assert host.call(lambda: host.match.cursor) == n0 + 1
        assert r0.undo()
        assert r0.wait_for(lambda r: r.n == n0 and not r.waiting(), 5)
        assert r0.state == host.call(lambda: host.rules.observe(host.match.states[n0], 0))
        assert r1.wait_for(lambda r: r.n == n0, 5)
        # the whole turn (two tiles, then the draws): now seat 1 acts, and seat 0 can no longer undo
        while host.call(lambda: host.match.active_players()) == [0]:
            k = r0.n
            r0.submit(0, bot0.select_action(r0.rules, r0.state, 0))
            assert r0.wait_for(lambda r: r.n > k and not r.waiting(), 5)
        assert r0.wait_for(lambda r: r.active_players() == [1], 5)
        assert not r0.can_undo()
        seq = c0.send_undo()
        assert c0.wait_for(lambda c: seq in c.results, 5)
        assert c0.results[seq]["type"] == "rejected"
        assert "draw" in c0.results[seq]["reason"] or "another" in c0.results[seq]["reason"]
        # seat 1 plays a tile; seat 0 still cannot undo across it
        assert r1.wait_for(lambda r: r.active_players() == [1], 5)
        k = r1.n
        r1.submit(1, sc.make_bot(1, "easy", 2).select_action(r1.rules, r1.state, 1))
        assert r1.wait_for(lambda r: r.n > k and not r.waiting(), 5)
        assert r0.wait_for(lambda r: r.n == k + 1, 5) and not r0.can_undo()
        seq = c0.send_undo()
        assert c0.wait_for(lambda c: seq in c.results, 5)
        assert c0.results[seq] == {"type": "rejected", "seq": seq, "reason": "another player has acted since"}
        assert host.call(lambda: host.match.cursor) == k + 1
    finally:
        host.stop()


def test_a_bots_thought_for_a_position_taken_back_is_dropped(tmp_path):
    """Tumbleweed against a slow host bot: the player undoes the move the bot is thinking about and plays
    another; the bot answers the new position, never the old one."""
    tw = get_spec("tumbleweed")
    host = Host(tw, players=2, bots=["bot:easy"], seed=2, tick=0.02, bot_pause=0.0, options={"size": 4},
                record_path=tmp_path / "tw.json").start()
    gate = threading.Event()          # the bot thinks until the test has taken its move back and played again
    try:
        seen = []

        def record() -> None:
            agent = host._agents[1]

            class Recording:
                def select_action(self, rules, state, seat):
                    gate.wait(10)
                    action = agent.select_action(rules, state, seat)
                    seen.append((state, action))
                    return action
            host._agents[1] = Recording()
        c, r = join(host, tw, "Ann")
        assert r.wait_for(lambda r: r.state is not None, 5)
        host.call(record)
        rules = r.rules
        acts = rules.legal_actions(r.state, 0)
        r.submit(0, acts[0])
        assert r.wait_for(lambda r: r.n == 1 and not r.waiting(), 5)
        assert r.undo()
        assert r.wait_for(lambda r: r.n == 0 and not r.waiting(), 5)
        r.submit(0, acts[1])
        assert r.wait_for(lambda r: r.n == 1 and not r.waiting(), 5)
        gate.set()
        assert r.wait_for(lambda r: r.n >= 2, 5)
        log = host.call(lambda: [dict(e) for e in host.match.log[:host.match.cursor]])
        assert log[0]["a"] == acts[1] and log[1]["p"] == 1
        # the bot did think about the position taken back, and its answer there was dropped; the answer
        # played was thought out for the new position
        after = host.call(lambda: host.match.states[1])
        old = rules.apply(rules.initial_state(host.match.config), 0, acts[0])[0]
        assert [s for s, _a in seen[:2]] == [old, after] and after != old
        assert (after, log[1]["a"]) in seen
    finally:
        gate.set()
        host.stop()


def test_a_seat_not_back_within_the_rejoin_window_stays_with_the_stand_in_and_every_table_is_told(tmp_path):
    from sim.app.lan_news import LanNews

    sc = get_spec("streetcar")
    host = Host(sc, players=3, bots=["bot:easy"], seed=3, tick=0.02, bot_pause=0.0, rejoin_window=60,
                standin="easy", record_path=tmp_path / "sc.json").start()
    try:
        (a, ra), b = join(host, sc, "Ann"), join(host, sc, "Bob")[0]
        assert ra.wait_for(lambda r: r.state is not None, 5)
        news = LanNews(a, lambda i: ["Ann", "Bob", "Bot 3"][i])
        news.update(0.0)
        token = b.token
        b.kill()
        assert a.wait_for(lambda c: c.away == [False, True, False] and c.standin == [False, True, False], 5)
        assert news.update(1.0) == ["Bob dropped: a bot of the host plays for them until they return"]
        host.call(lambda: setattr(host, "rejoin_window", 0.0))   # the window closes now
        assert a.wait_for(lambda c: c.gone == [False, True, False], 5)
        assert news.update(2.0) == ["Bob did not come back in time: the host's bot keeps the seat"]
        with pytest.raises(ConnectionError, match="rejoin window is over"):
            Client("127.0.0.1", host.port, "Bob", token=token).start(timeout=5)
        # the stand-in plays Bob's seat to the end with Ann
        play_remotes([(a, ra)], sc)
        assert any(e["p"] == 1 for e in host.call(lambda: list(host.match.log)))
        finish(host, [(a, ra)])
    finally:
        host.stop()
