"""A LAN table's news, headless: every window shows when another seat's player drops (a bot of the host
plays the seat), comes back, and when the host quits (the game ends for everyone with a clear message
and the host saves the record). Streetcar is played in its own screen on a RemoteMatch, with undo by
the match's policy from the screen; the Gobble race's panel counts a rejoined seat's tiles placed by
its stand-in."""
from __future__ import annotations

import random
import time

import pytest

pygame = pytest.importorskip("pygame")

from events import frames, key  # noqa: E402
from sim.core.record import load  # noqa: E402
from sim.core.registry import get_spec  # noqa: E402
from sim.net.client import Client  # noqa: E402
from sim.net.host import Host  # noqa: E402


def news(scene) -> str:
    """The table's news as its notices area shows it."""
    return " | ".join(n.text for n in scene.notice_items() if n.key.startswith("lan"))


def until(app, pred, seconds: float = 5.0) -> bool:
    """Run frames (and give the network time) until ``pred()`` holds."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        frames(app, 2)
        if pred():
            return True
        time.sleep(0.01)
    return False


def test_streetcar_window_shows_drops_returns_undo_and_the_host_quitting(app, tmp_path):
    from games.streetcar.view import StreetcarScene
    from sim.app.lan_lobby import LobbyScene
    from sim.app.launcher import LauncherScene

    sc = get_spec("streetcar")
    rec = tmp_path / "sc.json"
    host = Host(sc, players=3, bots=["bot:easy"], seed=9, tick=0.02, bot_pause=0.0, rejoin_window=30,
                standin="easy", record_path=rec).start()
    try:
        ann = Client("127.0.0.1", host.port, "Ann").start()
        app.push(LauncherScene(app))
        lobby = app.push(LobbyScene(app, ann, None, f"127.0.0.1:{host.port}", sc))
        bob = Client("127.0.0.1", host.port, "Bob").start()
        bob.set_ready(True)
        assert ann.wait_for(lambda c: c.names == ["Ann", "Bob", "bot:easy"], 5)
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert until(app, lambda: isinstance(app.top, StreetcarScene))
        scene = app.top
        assert scene.match is lobby.remote and scene.humans() == [0] and not scene.is_bot(1)
        assert until(app, lambda: scene.state.phase == "play")
        # Ann's first tile, taken back with Ctrl+Z: the host's match undoes it, every view follows
        n0 = scene.match.n
        act = sc.make_bot(0, "easy", 1).select_action(scene.rules, scene.state, 0)
        assert scene.submit_as(0, act)
        assert until(app, lambda: scene.match.n == n0 + 1 and scene.can_undo())
        app.step([key(pygame.K_z, pygame.KMOD_LCTRL)], app.STEP)
        assert until(app, lambda: scene.match.n == n0 and not scene.match.waiting())
        assert host.call(lambda: host.match.cursor) == n0
        assert scene.rules.state_to_json(scene.state) == host.view(0)
        # Bob vanishes: Ann's table says so, and that a bot of the host plays his seat
        token = bob.token
        bob.kill()
        assert until(app, lambda: "Bob dropped: a bot of the host plays for them" in news(scene)), news(scene)
        assert host.seats[1].standin is not None
        app.draw()
        assert scene.notice_boxes and not any(b.colliderect(scene.board_rect()) for b in scene.notice_boxes)
        # Bob comes back with his token
        bob2 = Client("127.0.0.1", host.port, "Bob", token=token).start()
        assert bob2.seat == 1
        assert until(app, lambda: "Bob is back" in news(scene)), news(scene)
        assert ann.standin == [False, False, False] and ann.away == [False, False, False]
        # the host quits: the game ends for everyone with the reason, and the record is saved
        host.stop()
        assert until(app, lambda: "The host ended the game: the host quit" in news(scene)), news(scene)
        assert bob2.closing == "the host quit"
        assert load(rec).rules.info.name == "streetcar"
        frames(app)
        app.draw()
        # acting now says why it cannot, and never raises
        legal = scene.rules.legal_actions(scene.state, 0) if 0 in scene.match.active_players() else []
        if legal:
            assert not scene.submit_as(0, legal[0])
    finally:
        host.stop()


def test_the_race_window_tells_of_a_drop_and_a_return_and_a_rejoined_panel_counts_the_standins_tiles(app, tmp_path):
    from games.gobble.lan import choose
    from games.gobble.view_lan import LanLobbyScene, LanRaceScene
    from sim.app.launcher import LauncherScene

    race = get_spec("gobble")
    host = Host(race, players=3, bots=["bot:easy"], seed=5, bot_speed=0.2, tick=0.02, standin="easy",
                options={"gift_timeout": 1.0}, record_path=tmp_path / "race.json").start()
    try:
        ann = Client("127.0.0.1", host.port, "Ann").start()
        ann.set_ready(True)
        bob = Client("127.0.0.1", host.port, "Bob").start()
        app.push(LauncherScene(app))
        app.push(LanLobbyScene(app, bob, None, "x"))
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert until(app, lambda: isinstance(app.top, LanRaceScene))
        scene = app.top
        # Ann places a tile herself, then vanishes; Bob's table says a bot plays for her
        assert ann.wait_for(lambda c: c.latest is not None, 5)
        seq = ann.send_intent(choose(ann.latest["view"], ann.seat, random.Random(1)))
        assert ann.wait_for(lambda c: seq in c.results, 5)
        token = ann.token
        ann.kill()
        assert until(app, lambda: "Ann dropped: a bot of the host plays for them" in news(scene)), news(scene)
        placed = lambda: host.call(lambda: host.match.state.seats[0].placed)  # noqa: E731
        assert until(app, lambda: placed() >= 3 or host.match.is_over(), 15)
        # Ann comes back in a window of her own: its panel counts what the stand-in placed
        ann2 = Client("127.0.0.1", host.port, "Ann", token=token).start()
        assert until(app, lambda: "Ann is back" in news(scene)), news(scene)
        app.push(LanLobbyScene(app, ann2, None, "x"))
        assert until(app, lambda: isinstance(app.top, LanRaceScene) and app.top is not scene)
        mine = app.top
        assert mine.seat == 0
        assert until(app, lambda: mine.me().placed == placed())
        assert mine.me().placed >= 2
        app.draw()
    finally:
        host.stop()


def test_the_host_dialog_lists_streetcar_and_its_options_reach_the_game(app):
    from events import click
    from games.streetcar.view import StreetcarScene
    from sim.app.lan_lobby import LobbyScene
    from sim.app.lan_setup import HostSetupScene, lan_specs
    from sim.app.launcher import LauncherScene

    assert {s.name for s in lan_specs()} >= {"gobble", "tumbleweed", "tomtube", "streetcar"}
    app.push(LauncherScene(app))
    setup = app.push(HostSetupScene(app, get_spec("streetcar")))
    assert [o.key for o in setup.options] == ["dice", "share_hands", "pile"]
    setup.set_players(3)
    click(app, setup.seat_buttons[1].rect.center)          # P3: LAN player -> easy bot
    classic = next(b for b in setup.option_rows[0] if b.label.endswith("Classic"))
    click(app, classic.rect.center)
    off = next(b for b in setup.option_rows[1] if b.label.endswith("Off"))
    click(app, off.rect.center)
    assert setup.option_values() == {"dice": "classic", "share_hands": False}
    assert setup.kinds == ["you", "lan", "bot:easy"]
    app.draw()
    setup.f_port.text = "0"
    setup.submit()
    assert setup.error is None, setup.error
    lobby = app.top
    assert isinstance(lobby, LobbyScene)
    host = lobby.lan_host
    try:
        assert lobby.client.wait_for(lambda c: c.welcome is not None, 5)   # the host's own player: seat 1
        bob = Client("127.0.0.1", host.port, "Bob").start()
        bob.set_ready(True)
        assert lobby.client.wait_for(lambda c: c.names is not None and c.names[1] == "Bob", 5)
        frames(app)
        # the lobby shows the options the host chose, in the game's words
        assert lobby.options_text() == "Dice: Classic · Share hands: Off · Draw pile: 101 tiles"
        assert bob.options == {"dice": "classic", "share_hands": False}
        app.step([key(pygame.K_r)], app.STEP)
        assert until(app, lambda: isinstance(app.top, StreetcarScene))
        scene = app.top
        assert scene.state.classic and scene.state.share is False and scene.state.players == 3
        assert host.call(lambda: host.match.config)["dice"] == "classic"
    finally:
        host.stop()


def test_cli_host_streetcar_with_its_options_and_two_auto_joins(tmp_path):
    import json
    import socket
    import subprocess
    import sys

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    rec = tmp_path / "cli-sc.json"
    joins: list = []
    host = subprocess.Popen([sys.executable, "-m", "sim.app.cli", "host", "streetcar", "--port", str(port),
                             "--players", "3", "--bots", "bot:easy", "--dice", "published", "--no-share-hands",
                             "--seed", "4", "--record", str(rec)], stdout=subprocess.PIPE, text=True)
    try:
        assert "hosting streetcar on 127.0.0.1" in host.stdout.readline()
        joins = [subprocess.Popen([sys.executable, "-m", "sim.app.cli", "join", f"127.0.0.1:{port}", "--name", n,
                                   "--headless"], stdout=subprocess.PIPE, text=True) for n in ("Ann", "Bob")]
        lines = []
        for j in joins:
            first = json.loads(j.stdout.readline())
            assert first["token"]
            # a headless join is ready at once; the first view shows the options
            for raw in j.stdout:
                x = json.loads(raw)
                if x.get("type") == "state":
                    lines.append((first["seat"], x))
                    break
        assert len(lines) == 2
        for seat, x in lines:
            assert x["view"]["share"] is False and x["view"]["faces"] == ["GO2", "GO1", "RED", "H", "TOOLS", "TOOLS"]
            assert x["view"]["lines_left"] == [] and "log" not in x
            assert x["view"]["seats"][seat]["card"]
            assert all(st["card"] == "" for j, st in enumerate(x["view"]["seats"]) if j != seat)
        host.terminate()                                     # the host quits: it saves the record
        assert host.wait(10) == 0
        m = load(rec)
        assert m.config["dice"] == "published" and m.config["share_hands"] is False
        assert [s.text() for s in m.seats] == ["lan:Ann", "lan:Bob", "bot:easy"] or \
            [s.text() for s in m.seats] == ["lan:Bob", "lan:Ann", "bot:easy"]
    finally:
        for p in [host] + joins:
            if p.poll() is None:
                p.terminate()
                p.wait(10)


def test_tom_tube_window_undoes_its_own_last_action_on_the_host_and_never_the_other_players(app, tmp_path):
    from games.tomtube.view import TomTubeScene
    from sim.app.lan_lobby import LobbyScene
    from sim.app.launcher import LauncherScene
    from sim.net.remote import RemoteMatch

    tt = get_spec("tomtube")
    host = Host(tt, players=2, seed=8, tick=0.02, options={"first": 0}, record_path=tmp_path / "tt.json").start()
    try:
        ann = Client("127.0.0.1", host.port, "Ann").start()
        app.push(LauncherScene(app))
        app.push(LobbyScene(app, ann, None, "x", tt))
        bob = Client("127.0.0.1", host.port, "Bob").start()
        bob.set_ready(True)
        assert ann.wait_for(lambda c: c.names == ["Ann", "Bob"], 5)
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert until(app, lambda: isinstance(app.top, TomTubeScene))
        scene, rb = app.top, RemoteMatch(tt, bob)
        bots = {0: tt.make_bot(0, "easy", 1), 1: tt.make_bot(1, "easy", 2)}

        def act(r, seat) -> None:
            n = r.n
            assert r.wait_for(lambda r: seat in r.active_players() and not r.waiting(), 5)
            r.submit(seat, bots[seat].select_action(r.rules, r.state, seat))
            assert r.wait_for(lambda r: r.n > n and not r.waiting(), 5)

        # play until Ann has just made an action she may take back (not a draw, not the other's turn)
        for _ in range(60):
            cursor = host.call(lambda: host.match.cursor)
            assert scene.match.wait_for(lambda r: r.n == cursor, 5) and rb.wait_for(lambda r: r.n == cursor, 5)
            if scene.match.n and scene.match.can_undo():
                break
            seat = scene.match.active_players()[0]
            act(scene.match if seat == 0 else rb, seat)
            frames(app, 1)
        assert scene.match.can_undo() and scene.can_undo() and scene.undo_steps() == 1
        n = scene.match.n
        app.step([key(pygame.K_z, pygame.KMOD_LCTRL)], app.STEP)
        assert until(app, lambda: scene.match.n == n - 1 and not scene.match.waiting())
        assert host.call(lambda: host.match.cursor) == n - 1
        assert scene.rules.state_to_json(scene.state) == host.view(0)
        assert [dict(e) for e in scene.match.log] == host.call(
            lambda: [{"p": e["p"], "a": e["a"]} for e in host.match.log[:host.match.cursor]])
        # once Bob has acted, Ann's Ctrl+Z takes nothing back and says why
        while 1 not in scene.match.active_players():
            act(scene.match, 0)
        act(rb, 1)
        assert until(app, lambda: scene.match.n == rb.n)
        m = scene.match.n
        app._toast = None
        app.step([key(pygame.K_z, pygame.KMOD_LCTRL)], app.STEP)
        assert "nothing to undo" in (app.toast_text or "").lower()
        frames(app, 5)
        assert host.call(lambda: host.match.cursor) == m
    finally:
        host.stop()
