"""A joined turn-based game on its own screen: the shared LAN lobby, then Tumbleweed's screen drawing
this seat's RemoteMatch and sending its clicks to the host (headless)."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from events import click, frames, key  # noqa: E402
from lan_screens import join_lobby  # noqa: E402
from sim.core.registry import get_spec  # noqa: E402
from sim.net.host import Host  # noqa: E402

TW = get_spec("tumbleweed")


def test_a_joined_tumbleweed_screen_sets_up_by_clicks_and_shows_the_hosts_answer(app, tmp_path):
    from games.tumbleweed.view import TumbleweedScene

    host = Host(TW, players=2, bots=["bot:easy"], seed=5, tick=0.02, bot_pause=0.0, options={"size": 4},
                record_path=tmp_path / "tw.json").start()
    try:
        client, lobby = join_lobby(app, host, TW)
        assert client.wait_for(lambda c: c.names == ["Ann", "bot:easy"], 5)
        frames(app)
        assert lobby.status() == "Waiting for you to be ready: press R"
        app.step([key(pygame.K_r)], app.STEP)
        assert client.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, TumbleweedScene) and scene.match is lobby.remote
        st = scene.state
        assert client.seat == 0 and st.phase == "setup" and scene.human_turn() and st.size == 4
        free = [c for c in st.geo.cells if st.stack(c)[1] == 0]
        red, white = free[0], free[-1]
        click(app, scene.cell_pos(red))
        click(app, scene.cell_pos(white))
        # the host applied this seat's set-up, then its bot (the guest) chose a colour
        assert client.wait_for(lambda c: c.results.get(1, {}).get("type") == "accepted", 5)
        # (then, if it chose the colour that moves first, its first move): Ann's turn, nothing more comes
        assert client.wait_for(lambda c: c.latest is not None and c.latest.get("n", 0) >= 2
                               and c.latest.get("active") == [0], 10)
        frames(app)
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert log[0]["p"] == 0 and log[0]["a"] == {"t": "setup", "red": list(red), "white": list(white)}
        assert log[1]["p"] == 1 and log[1]["a"]["t"] == "choose"
        assert scene.state.phase == "play" and scene.state.stack(red)[1] == 1
        assert scene.move_lines()                        # the public log gives the screen its move list
        assert TW.make_rules().state_to_json(scene.state) == host.view(0)
        # the table keys on a LAN screen: the other seat is played elsewhere, never by a bot here
        assert scene.seat_list[1].kind == "lan" and not scene.is_bot(1) and scene.humans() == [0]
        n = len(log)
        for k, mod, why in ((pygame.K_z, pygame.KMOD_LCTRL, "nothing to undo"), (pygame.K_y, pygame.KMOD_LCTRL, "redo"),
                            (pygame.K_h, 0, "no hints")):
            app._toast = None
            app.step([key(k, mod)], app.STEP)
            assert why in app.toast_text.lower()
        assert host.call(lambda: len(host.match.log)) == n
        app.draw()
        app.to_launcher()                                # leaving the screen leaves the table
        assert client.closed.wait(5)
    finally:
        host.stop()


def test_the_launchers_host_dialog_hosts_tumbleweed_with_a_bot_and_opens_its_screen(app):
    from games.tumbleweed.view import TumbleweedScene
    from sim.app.lan_lobby import LobbyScene
    from sim.app.lan_setup import HostSetupScene
    from sim.app.launcher import LauncherScene

    launcher = app.push(LauncherScene(app))
    launcher.host_lan()
    setup = app.top
    assert isinstance(setup, HostSetupScene) and setup.spec.name == "gobble"
    seen = []
    while setup.spec.name != "tumbleweed":
        seen.append(setup.spec.name)
        click(app, setup.b_game.rect.center)
        assert len(seen) < 10
    assert setup.heading == "Host a Tumbleweed game" and setup.kinds == ["you", "lan"]
    setup.set_players(5)
    assert len(setup.kinds) == 2                        # Tumbleweed is played by two
    click(app, setup.seat_buttons[0].rect.center)       # P2: LAN player -> easy bot
    assert setup.kinds[1] == "bot:easy"
    setup.f_port.text = "0"
    setup.submit()
    assert setup.error is None, setup.error
    lobby = app.top
    assert isinstance(lobby, LobbyScene) and lobby.lan_host is not None
    host = lobby.lan_host
    try:
        assert lobby.client.wait_for(lambda c: c.names is not None, 5)
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert lobby.client.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, TumbleweedScene) and scene.state.phase == "setup"
        assert host.call(lambda: [s.kind for s in host.match.seats]) == ["lan", "bot"]
        app.to_launcher()                               # leaving the screen stops the host this app runs
        assert host.finished.wait(5)
    finally:
        host.stop()


def test_a_joined_tom_tube_screen_draws_a_rhomb_by_key_and_replays_the_public_log(app, tmp_path):
    from games.tomtube.view import TomTubeScene

    tt = get_spec("tomtube")
    host = Host(tt, players=2, bots=["bot:random"], seed=5, tick=0.02, bot_pause=0.0,
                record_path=tmp_path / "tt.json").start()
    try:
        client, _lobby = join_lobby(app, host, tt, "Tom")
        assert client.wait_for(lambda c: c.names is not None, 5)
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert client.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, TomTubeScene)
        remote = scene.match
        assert remote.wait_for(lambda r: client.seat in r.active_players() and r.state.phase == "turn", 10)
        n0 = remote.n
        app.step([key(pygame.K_d)], app.STEP)            # D: draw a rhomb
        assert client.wait_for(lambda c: c.results.get(1, {}).get("type") == "accepted", 5), client.results
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert log[n0]["p"] == client.seat and log[n0 + 1]["p"] == -1   # the host drew it (chance)
        assert remote.wait_for(lambda r: r.n >= n0 + 2, 5)
        frames(app)
        assert remote.error is None and scene.state.drawn == log[n0 + 1]["a"]["id"]
        assert [dict(e) for e in remote.log] == [{"p": e["p"], "a": e["a"]} for e in log[:remote.n]]
        assert tt.make_rules().state_to_json(scene.state) == host.view(client.seat)
        app.draw()
    finally:
        host.stop()


def test_the_hosts_repeated_snapshots_keep_a_chosen_hex_until_the_confirming_click(app, tmp_path):
    """The host re-sends the unchanged view every ``snapshot_interval``: the screen must not take it
    for a new position (which dropped the hex chosen by the first of the two confirming clicks)."""
    from games.tumbleweed.view import TumbleweedScene

    host = Host(TW, players=2, bots=["bot:easy"], seed=5, tick=0.01, bot_pause=0.0, options={"size": 4},
                snapshot_interval=0.02, record_path=tmp_path / "tw.json").start()
    try:
        client, lobby = join_lobby(app, host, TW)
        assert client.wait_for(lambda c: c.names == ["Ann", "bot:easy"], 5)
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert client.wait_for(lambda c: c.latest is not None, 5)
        frames(app)
        scene = app.top
        assert isinstance(scene, TumbleweedScene) and scene.prefs["confirm"]
        st = scene.state
        free = [c for c in st.geo.cells if st.stack(c)[1] == 0]
        click(app, scene.cell_pos(free[0]))
        click(app, scene.cell_pos(free[-1]))
        assert client.wait_for(lambda c: c.latest is not None and c.latest.get("n", 0) >= 2
                               and c.latest.get("active") == [0], 10)
        frames(app)
        calls = []
        scene.match.listeners.append(lambda m, ev: calls.append(m.cursor))
        cell = next(c for c in scene.state.geo.cells
                    if not _illegal(scene, {"t": "place", "q": c[0], "r": c[1]}))
        click(app, scene.cell_pos(cell))
        assert scene.pending == cell
        n = host.call(lambda: len(host.match.log))
        seen = client.latest["recv_n"]
        assert client.wait_for(lambda c: c.latest["recv_n"] >= seen + 3, 5)   # snapshots came in
        frames(app)
        assert calls == [] and scene.pending == cell
        click(app, scene.cell_pos(cell))                     # the confirming click plays it
        assert client.wait_for(lambda c: any(r.get("type") == "accepted" and r["seq"] >= 2
                                             for r in c.results.values()), 5)
        log = host.call(lambda: [dict(e) for e in host.match.log])
        assert len(log) > n and log[n] == {"p": 0, "a": {"t": "place", "q": cell[0], "r": cell[1]}}
        app.to_launcher()
        assert client.closed.wait(5)
    finally:
        host.stop()


def _illegal(scene, action) -> bool:
    from sim.core.rules import IllegalAction
    try:
        scene.rules.check(scene.state, 0, action)
    except IllegalAction:
        return True
    return False
