"""A client never trusts its host: malformed, out-of-place or garbage host messages are dropped with one
log line and the client goes on (the window, ``join --headless`` and ``join --auto`` alike); a flooding
host cannot make it stop responding; a seat kept for a dropped player never locks out a lobby.

A scripted host (:class:`ScriptedHost`, a bare WebSocket server on 127.0.0.1) sends exactly the messages
a test gives it, after the client's hello.
"""
from __future__ import annotations

import asyncio
import json
import threading

import pytest
from websockets.asyncio.server import serve

from sim.app import cli
from sim.core.match import Match, check_setup
from sim.core.registry import get_spec
from sim.net import protocol as P
from sim.net.client import Client
from sim.net.host import Host

RACE = get_spec("gobble")
TOKEN = "t" * 24


def welcome(game="gobble", seat=0, names=("Me", None), **kw):
    n = len(names)
    return {"type": "welcome", "version": P.VERSION, "game": game, "seat": seat, "token": TOKEN,
            "config": None, "last_seq": 0, "names": list(names), "ready": [False] * n,
            "away": [False] * n, "started": False, **kw}


def race_view(seat=0):
    rules = RACE.make_rules()
    m = Match(rules, {"players": 2, "seats": ["lan:Me", "lan:You"]}, 4)
    return rules.state_to_json(rules.observe(m.state, seat))


def state(view=None, seat=0, time=1.5, events=()):
    return {"type": "state", "seat": seat, "time": time, "view": race_view() if view is None else view,
            "events": list(events)}


class ScriptedHost:
    """Answers a hello with ``script`` (each a dict, sent as JSON, or a raw str), then ``repeat`` copies
    of ``flood`` if given, then closes the connection (politely) after ``linger`` s."""

    def __init__(self, script, flood=None, repeat=0, linger=0.3):
        self.script, self.flood, self.repeat, self.linger = script, flood, repeat, linger
        self.port = None
        self._ready = threading.Event()
        self._stop = None
        self._loop = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)
        self.thread.start()
        assert self._ready.wait(10)

    async def _main(self):
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with serve(self._handler, "127.0.0.1", 0, compression=None, max_size=1 << 20) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            await self._stop.wait()

    async def _handler(self, ws):
        await ws.recv()   # the hello
        for m in self.script:
            await ws.send(m if isinstance(m, str) else json.dumps(m))
        if self.flood is not None:
            raw = json.dumps(self.flood)
            for _ in range(self.repeat):
                await ws.send(raw)
        await asyncio.sleep(self.linger)
        await ws.close()

    def stop(self):
        self._loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(5)


BAD_STATES = [
    state(seat=5),                                            # a seat that does not exist
    state(seat=1),                                            # another seat's view
    state(view={}),                                           # an empty view
    state(view={"board": "garbage"}),                         # a garbage view
    state(view=dict(race_view(), seats=[{"pile": -1}] * 2)),   # garbage deep inside
    state(events=[1, 2, 3]),                                  # events that are not objects
    state(events=[{"e": "place", "seat": 9, "q": 0, "r": 0}]),  # an event naming a seat that is not there
    state(time=10 ** 400),                                    # an absurd time
    '{"type": "state", "seat": 0, "time": NaN, "view": {"a": 1}, "events": []}',   # NaN
    {"type": "lobby", "names": "Me", "ready": [], "away": [], "started": False},
    {"type": "lobby", "names": ["Me", None], "ready": [True], "away": [False, False], "started": False},
    {"type": "lobby", "names": ["Me", None, "X"], "ready": [True] * 3, "away": [False] * 3, "started": False},
    {"type": "lobby", "names": ["Me\x00", None], "ready": [True] * 2, "away": [False] * 2, "started": False},
    {"type": "lobby", "names": ["Me", None], "ready": [True] * 2, "away": [False] * 2, "started": True,
     "config": {"players": 2, "seats": 7}},                  # a config the rules refuse
    {"type": "accepted", "seq": "one"},
    {"type": "over", "outcome": [1], "ranking": None},
    {"type": "shout"},
    "{not json",
    "[1, 2]",
    welcome(),                                                # a second welcome
]


def test_bad_host_messages_are_dropped_and_the_client_goes_on():
    good = state(time=2.0)
    host = ScriptedHost([welcome()] + BAD_STATES + [good, {"type": "error"},
                                                    {"type": "rejected", "seq": 1, "reason": "no\x00pe"}])
    lines = []
    c = Client("127.0.0.1", host.port, "Me", log=lines.append)
    try:
        c.start(timeout=5)
        assert c.wait_for(lambda c: c.latest is not None and len(c.errors) == 1 and 1 in c.results, 5)
        assert c.dropped == len(BAD_STATES)
        assert c.latest["time"] == 2.0 and c.latest["view"] == good["view"]
        assert c.names == ["Me", None] and c.seat == 0
        # a bare error has an empty message rather than none; text loses its control characters
        assert c.errors[-1]["message"] == "" and c.results[1]["reason"] == "no pe"
        # one line for the first drop; the rest of that second is counted, not printed
        assert lines and all(x.startswith("ignored a message from the host: ") for x in lines)
        assert len(lines) <= 2
        types = [m["type"] for m in list(c.inbox.queue)]
        assert types == ["welcome", "state", "error", "rejected"]
    finally:
        c.close(timeout=2)
        host.stop()


def test_a_turn_based_view_must_read_back_with_the_rules():
    from games.tumbleweed.rules import TumbleweedRules
    rules = TumbleweedRules()
    cfg = rules.validate_config({})
    good = rules.state_to_json(rules.observe(rules.initial_state(cfg), 0))
    host = ScriptedHost([welcome(game="tumbleweed"),
                         {"type": "state", "seat": 0, "time": 0, "view": {"size": 999}, "events": []},
                         {"type": "state", "seat": 0, "time": 0, "view": good, "events": [], "active": [7]},
                         {"type": "state", "seat": 0, "time": 0, "view": good, "events": [], "active": [1],
                          "n": 0}])
    c = Client("127.0.0.1", host.port, "Me", log=lambda text: None)
    try:
        c.start(timeout=5)
        assert c.wait_for(lambda c: c.latest is not None, 5)
        assert c.dropped == 2 and c.latest["active"] == [1]
    finally:
        c.close(timeout=2)
        host.stop()


@pytest.mark.parametrize("mode", ["--headless", "--auto"])
def test_join_from_the_command_line_survives_a_bad_host(mode, capsys):
    host = ScriptedHost([welcome()] + BAD_STATES + [state(time=3.0), {"type": "error"},
                                                    {"type": "closing", "reason": "bye"}])
    try:
        rc = cli.main(["join", f"127.0.0.1:{host.port}", "--name", "Me", mode])
    finally:
        host.stop()
    cap = capsys.readouterr()
    assert rc == 0 and "Traceback" not in cap.err
    printed = [json.loads(line) for line in cap.out.splitlines()]
    assert printed[0] == {"seat": 0, "token": TOKEN}
    assert [m["type"] for m in printed[1:]] == ["state", "error", "closing"]
    assert "ignored a message from the host" in cap.err


def test_a_flooding_host_cannot_fill_a_client():
    flood = {"type": "lobby", "names": ["Me", None], "ready": [False, False], "away": [False, False],
             "started": False}
    host = ScriptedHost([welcome()], flood=flood, repeat=200_000, linger=0.0)
    c = Client("127.0.0.1", host.port, "Me", log=lambda text: None, max_inbox=1000)
    try:
        c.start(timeout=5)
        assert c.closed.wait(120)
        # most of the flood never reached the client's queue: it takes HOST_RATE messages a second
        assert c.dropped > 100_000
        assert c.inbox.qsize() <= 1000
    finally:
        c.close(timeout=2)
        host.stop()


def test_a_dropped_player_never_makes_a_lobby_full(tmp_path):
    host = Host(RACE, players=2, bots=[], seed=3, record_path=tmp_path / "r.json", rejoin_window=60.0).start()
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        squatter = Client("127.0.0.1", host.port, "Sam").start()
        gone = squatter.token
        squatter.kill()   # no close frame: the seat is kept for a rejoin
        assert a.wait_for(lambda c: c.away == [False, True], 5)
        honest = Client("127.0.0.1", host.port, "Hal").start(timeout=5)
        assert honest.seat == 1
        assert honest.wait_for(lambda c: c.names == ["Ann", "Hal"] and c.away == [False, False], 5)
        back = Client("127.0.0.1", host.port, "Sam", token=gone)
        with pytest.raises(ConnectionError, match="unknown token"):
            back.start(timeout=5)
        back.close(timeout=1)
        for c in (a, honest):
            c.close(timeout=2)
    finally:
        host.stop()


def test_the_race_window_survives_a_bad_host(app):
    from events import frames
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.app.launcher import LauncherScene
    rules = RACE.make_rules()
    cfg = check_setup(rules, {"players": 2, "seats": ["lan:Me", "lan:You"]})
    lobby = {"type": "lobby", "names": ["Me", "You"], "ready": [True, True], "away": [False, False],
             "started": True, "config": cfg}
    host = ScriptedHost([welcome(names=("Me", "You")), lobby] + BAD_STATES
                        + [state(time=1.0), {"type": "error"}] + BAD_STATES[:3], linger=3.0)
    c = Client("127.0.0.1", host.port, "Me", log=lambda text: None)
    try:
        c.start(timeout=5)
        app.push(LauncherScene(app))
        app.push(LanLobbyScene(app, c, None, f"127.0.0.1:{host.port}"))
        assert c.wait_for(lambda c: c.latest is not None and c.dropped >= len(BAD_STATES) + 3, 5)
        frames(app, 5)
        assert isinstance(app.top, LanRaceScene)
        app.draw()
        assert app.top.state.n == 2 and app.top.state.phase == race_view()["phase"]
    finally:
        c.close(timeout=2)
        host.stop()
