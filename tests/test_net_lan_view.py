"""The LAN race window (games/gobble/view_lan.py), headless: lobby -> race from the client's view,
intents on actions, a rejection shown with its reason, a clear message when the host quits."""
from __future__ import annotations

import random
import time

import pytest

pygame = pytest.importorskip("pygame")

from sim.net.client import Client  # noqa: E402
from sim.net.host import Host  # noqa: E402
from sim.net.scripted import choose  # noqa: E402


@pytest.fixture
def app():
    from sim.app.app import App
    a = App(headless=True)
    yield a
    a.close()


def frames(app, n=3):
    for _ in range(n):
        app.step([], app.STEP)


def test_lan_scene_plays_and_shows_host_quit(app, tmp_path):
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.app.launcher import LauncherScene

    host = Host(players=2, bots=[], seed=3, tick=0.02, record_path=tmp_path / "r.json").start()
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        app.push(LauncherScene(app))
        app.push(LanLobbyScene(app, a, None, host.address))
        frames(app)
        assert isinstance(app.top, LanLobbyScene)
        app.draw()
        b = Client("127.0.0.1", host.port, "Bob").start()
        assert a.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, LanRaceScene)
        app.draw()
        st = scene.state
        assert st.n == 2 and st.revealed(a.seat) == tuple(a.latest["view"]["revealed"])
        assert scene.name(b.seat) == "Bob"
        # a legal move from the view goes out as an intent and comes back applied
        act = choose(a.latest["view"], a.seat, random.Random(1))
        n0 = len(a.latest["view"]["board"])
        assert scene.submit(act)
        assert a.wait_for(lambda c: len(c.results) >= 1, 5)
        time.sleep(0.1)
        frames(app)
        if a.results[1]["type"] == "accepted" and act["t"] == "place":
            assert len(scene.state.board.tiles) == n0 + 1
        # an illegal one is refused with the reason on screen
        scene.submit({"t": "place", "src": "pile", "tile": 999, "rot": 0, "q": 50, "r": 50})
        assert a.wait_for(lambda c: len(c.results) >= 2, 5)
        frames(app)
        assert scene.msg is not None and scene.msg[0].startswith("Host refused")
        app.draw()
        # the host quits: the window says so
        host.stop()
        assert a.wait_for(lambda c: c.closed.is_set(), 5)
        frames(app)
        assert scene.ended_reason and "host" in scene.ended_reason.lower()
        app.draw()
        b.close()
    finally:
        host.stop()


def test_launcher_host_and_join_dialogs(app):
    """Host a game (a bot in seat 2: the race starts as soon as the host's player joins), then a Join
    dialog that reports a bad address."""
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.app.lan_setup import HostSetupScene, JoinScene
    from sim.app.launcher import LauncherScene

    launcher = app.push(LauncherScene(app))
    launcher.host_lan()
    setup = app.top
    assert isinstance(setup, HostSetupScene)
    setup.cycle(1)                     # P2: LAN -> easy bot
    assert setup.kinds[1] == "bot:easy"
    setup.f_port.text = "0"
    setup.submit()
    assert setup.error is None, setup.error
    lobby = app.top
    assert isinstance(lobby, LanLobbyScene) and lobby.lan_host is not None
    host = lobby.lan_host
    try:
        assert host.bind == "127.0.0.1"
        assert lobby.client.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        race = app.top
        assert isinstance(race, LanRaceScene)
        app.draw()
        assert race.name(1) == "Easy bot"
        app.to_launcher()                  # leaving stops the host this app runs
        assert host.finished.wait(5)
    finally:
        host.stop()
    launcher.join_lan()
    join = app.top
    assert isinstance(join, JoinScene)
    join.f_addr.text = "nonsense"
    join.submit()
    assert join.error and "HOST:PORT" in join.error
    app.draw()


def test_a_view_already_taken_is_not_counted_twice():
    """The race screen takes the client's latest view at once, then drains the inbox, which still
    holds that view (and older ones): they must not be applied again."""
    import queue
    import threading

    from games.gobble.view_lan import LanMatch

    class FakeClient:
        def __init__(self, msgs):
            self.seat, self.over, self.url = 0, None, "ws://127.0.0.1:1"
            self.config = {"seats": ["lan:a", "lan:b"], "players": 2}
            self.inbox = queue.Queue()
            for m in msgs:
                self.inbox.put(m)
            self.latest = msgs[-1]
            self.closed = threading.Event()

    def state(n, tiles, events):
        view = {"board": tiles, "seats": [{"pile": 5, "stack": [], "owed": 0, "out": None, "gobbles": 0,
                                           "doubles": 0}] * 2,
                "revealed": [3], "clock": float(n), "phase": "play", "order": []}
        return {"type": "state", "seat": 0, "time": float(n), "view": view, "events": events, "recv_n": n}

    place = {"e": "place", "seat": 1, "src": "pile", "tile": 9, "rot": 0, "q": 1, "r": 0}
    first = state(1, [[0, 0, 1, 0]], [])
    second = state(2, [[0, 0, 1, 0], [1, 0, 9, 0]], [place])
    c = FakeClient([first, second])
    m = LanMatch(c, "x")
    assert m.placed == [0, 1]
    while not c.inbox.empty():
        m.apply(c.inbox.get_nowait())
    assert m.placed == [0, 1]
    assert len(m.state.board.tiles) == 2  # and the older view did not take the screen back in time
