"""The LAN race window (games/gobble/view_lan.py), headless: the lobby (seats, ready marks, the Ready
toggle, what the race waits for) -> race from the client's view, intents on actions, a rejection shown
with its reason, a clear message when the host quits."""
from __future__ import annotations

import random

import pytest

pygame = pytest.importorskip("pygame")

from sim.net.client import Client  # noqa: E402
from events import frames, key  # noqa: E402
from sim.net.host import Host  # noqa: E402
from games.gobble.lan import choose  # noqa: E402
from sim.core.registry import get_spec  # noqa: E402


def test_lan_scene_plays_and_shows_host_quit(app, tmp_path):
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.app.launcher import LauncherScene

    host = Host(get_spec("gobble"), players=2, bots=[], seed=3, tick=0.02, record_path=tmp_path / "r.json").start()
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        app.push(LauncherScene(app))
        app.push(LanLobbyScene(app, a, None, host.address))
        frames(app)
        lobby = app.top
        assert isinstance(lobby, LanLobbyScene)
        app.draw()
        b = Client("127.0.0.1", host.port, "Bob").start()
        b.set_ready(True)
        assert a.wait_for(lambda c: c.ready == [False, True], 5)
        frames(app)
        assert app.top is lobby and lobby.status() == "Waiting for you to be ready: press R"
        app.step([key(pygame.K_r)], app.STEP)      # this window's player is ready: the race starts
        assert a.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, LanRaceScene)
        app.draw()
        st = scene.state
        assert st.n == 2 and st.revealed(a.seat) == tuple(a.latest["view"]["revealed"])
        assert scene.name(b.seat) == "Bob"
        # against people the hint is off unless the host allows it
        app.step([key(pygame.K_h)], app.STEP)
        assert scene.board_hint is None and "people" in scene.hint_refusal()
        # a legal move from the view goes out as an intent and comes back applied
        act = choose(a.latest["view"], a.seat, random.Random(1))
        n0 = len(a.latest["view"]["board"])
        assert scene.submit(act)
        assert a.wait_for(lambda c: len(c.results) >= 1, 5)
        assert a.wait_for(lambda c: c.latest["view"] == host.view(a.seat), 5)   # the state follows the answer
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
    """Host a game (a bot in seat 2: the race starts when the host's own player is ready), then a Join
    dialog that reports a bad address."""
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.app.lan_setup import HostSetupScene, JoinScene
    from sim.app.launcher import LauncherScene

    launcher = app.push(LauncherScene(app))
    launcher.host_lan()
    setup = app.top
    assert isinstance(setup, HostSetupScene)
    setup.cycle(1)                     # P2: LAN -> slow bot -> easy bot
    assert setup.kinds[1] == "bot:slow"
    setup.cycle(1)
    assert setup.kinds[1] == "bot:easy"
    setup.f_port.text = "0"
    setup.submit()
    assert setup.error is None, setup.error
    lobby = app.top
    assert isinstance(lobby, LanLobbyScene) and lobby.lan_host is not None
    host = lobby.lan_host
    try:
        assert host.bind == "127.0.0.1"
        assert lobby.client.wait_for(lambda c: c.names is not None, 5)
        frames(app)
        # every seat is taken (the bot's too) but the host's player is a seat like any other
        assert not host.started.wait(0.3) and app.top is lobby
        assert lobby.status() == "Waiting for you to be ready: press R"
        lobby.b_ready.click()
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


def test_lobby_ready_marks_toggle_and_waiting_line(app, tmp_path):
    """Four seats: this window (Ann), Bob (ready), Cid (dropped), a free one; then a bot's seat. The
    lobby says what the race waits for, R toggles Ann's ready, and a rendered lobby is saved."""
    from games.gobble.view_lan import LanLobbyScene

    host = Host(get_spec("gobble"), players=5, bots=["bot:hard"], seed=3, tick=0.02, record_path=tmp_path / "r.json").start()
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        b = Client("127.0.0.1", host.port, "Bob").start()
        c = Client("127.0.0.1", host.port, "Cid").start()
        b.set_ready(True)
        c.kill()
        assert a.wait_for(lambda c: c.ready == [False, True, False, False, True]
                          and c.away == [False, False, True, False, False], 5)
        lobby = app.push(LanLobbyScene(app, a, None, host.address))
        frames(app)
        assert lobby.waiting() == (1, [0, 2])
        assert lobby.status() == "Waiting for 1 more player to join and 2 players to be ready (you too: press R)"
        assert lobby.b_ready.label == "Ready (R)" and lobby.b_ready.enabled
        app.draw()
        pygame.image.save(app.surface, str(tmp_path / "lobby-not-ready.png"))
        app.step([key(pygame.K_r)], app.STEP)
        assert lobby.ready() is True                # shown at once, before the host answers
        assert a.wait_for(lambda c: c.ready == [True, True, False, False, True], 5)
        frames(app)
        assert lobby.want is None and lobby.b_ready.label == "Not ready (R)"
        assert lobby.status() == "Waiting for 1 more player to join and 1 player to be ready"
        app.draw()
        pygame.image.save(app.surface, str(tmp_path / "lobby-ready.png"))
        # R again: not ready any more
        app.step([key(pygame.K_r)], app.STEP)
        assert a.wait_for(lambda c: c.ready == [False, True, False, False, True], 5)
        frames(app)
        assert lobby.b_ready.label == "Ready (R)"
        assert not host.started.is_set()
        # the host goes away: the toggle is off and the lobby says why
        host.stop()
        assert a.wait_for(lambda c: c.closed.is_set(), 5)
        frames(app)
        assert not lobby.b_ready.enabled
        app.draw()
    finally:
        host.stop()


def test_the_race_screen_draws_its_seats_observe_through_a_remote_match(app, tmp_path):
    """The LAN race screen's match is a RemoteMatch whose state is a race state equal to the host's
    ``observe`` of this seat, after a few intents; its listeners got the events of every view once."""
    from games.gobble.race import RaceState
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.net.remote import RemoteMatch

    host = Host(get_spec("gobble"), players=2, bots=[], seed=8, tick=0.02, record_path=tmp_path / "r.json",
                options={"lan_hints": True}).start()      # the host allows the hint (H) against people
    try:
        a = Client("127.0.0.1", host.port, "Ann").start()
        b = Client("127.0.0.1", host.port, "Bob").start()
        b.set_ready(True)
        app.push(LanLobbyScene(app, a, None, host.address))
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert a.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, LanRaceScene) and isinstance(scene.match, RemoteMatch)
        seen: list = []
        scene.match.listeners.append(lambda m, events: seen.extend(events))
        rng = random.Random(2)
        placed = 0
        for _ in range(4):
            act = choose(a.latest["view"], a.seat, rng)
            assert act is not None and scene.submit(act)
            seq = a._seq
            assert a.wait_for(lambda c: seq in c.results, 5)
            assert a.wait_for(lambda c: c.latest["view"] == host.view(a.seat), 5)
            frames(app, 1)
            placed += act["t"] == "place" and a.results[seq]["type"] == "accepted"
        st = scene.state
        rules = host.rules
        assert isinstance(st, RaceState) and st == host.call(lambda: rules.observe(host.match.state, a.seat))
        assert st.seats[a.seat].placed == placed and scene.me().placed == placed
        assert scene.kinds == ["human", "lan:Bob"] and scene.seat == a.seat
        mine = [e for e in seen if e.get("e") == "place" and e["seat"] == a.seat]
        assert len(mine) == placed      # each placement's event reached the screen once
        # the host's next snapshot (same board): the screen keeps its board, and a hint on it stays
        board, n = scene.state.board, a.latest["recv_n"]
        app.step([key(pygame.K_h)], app.STEP)
        assert scene.board_hint is not None and scene.board_hint[0] is board
        assert a.wait_for(lambda c: c.latest["recv_n"] > n, 5)
        frames(app, 1)
        assert scene.state.board is board and scene.board_hint is not None
        app.draw()
        b.close()
    finally:
        host.stop()
