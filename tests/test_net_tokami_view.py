"""A joined Tokami game on its own screen (headless): the mouse drags a stick as locally, the hand
streams to the host, the pile is drawn from the host's frames; the host's bot plays its raise live."""
from __future__ import annotations

import time

import pytest

pygame = pytest.importorskip("pygame")

from events import down, frames, key, motion, up  # noqa: E402
from lan_screens import join_lobby  # noqa: E402
from sim.core.registry import get_spec  # noqa: E402
from sim.core.rules import PHYSICS  # noqa: E402
from sim.net.host import Host  # noqa: E402

TOKAMI = get_spec("tokami")


def live_frames(app, n, pause=0.016, events=None):
    for i in range(n):
        app.step(events(i) if events else [], app.STEP)
        time.sleep(pause)


def test_a_joined_tokami_screen_drags_by_the_hosts_pile_and_watches_the_bot_play_live(app, tmp_path):
    from games.tokami import draw, model
    from games.tokami.view_lan import TokamiLanScene

    host = Host(TOKAMI, players=2, bots=["bot:easy"], seed=7, tick=0.02, bot_pause=0.0, options={"rounds": 1},
                record_path=tmp_path / "tk.json").start()
    try:
        client, lobby = join_lobby(app, host, TOKAMI)
        assert client.wait_for(lambda c: c.names == ["Ann", "bot:easy"], 5)
        frames(app)
        app.step([key(pygame.K_r)], app.STEP)
        assert client.wait_for(lambda c: c.latest is not None, 5)
        end = time.monotonic() + 10
        while time.monotonic() < end and not (isinstance(app.top, TokamiLanScene) and app.top.state.phase == "turn"):
            live_frames(app, 1)
        scene = app.top
        assert isinstance(scene, TokamiLanScene) and scene.match is lobby.remote
        assert scene.state.phase == "turn" and scene.human_to_move() and not scene.busy()
        st = scene.state
        sid = max((i for i, p in st.poses.items() if p[0] == "along"), key=lambda i: model.highest_point(st.poses[i]))
        start = tuple(int(v) for v in draw.front_face_centre(scene.proj, st.poses[sid]))
        assert draw.pick(scene.proj, st.poses, start) == sid
        app.step([motion(start), down(start)], app.STEP)
        assert scene.hold is not None and scene.hold["stick"] == sid
        # drag it up by 40 px (16 mm) over about half a second: the hand streams, the pile answers
        live_frames(app, 30, events=lambda i: [motion((start[0], start[1] - (i + 1) * 4 // 3), buttons=(1, 0, 0))])
        assert client.wait_for(lambda c: c.live is not None and c.live.get("kind") == "hand", 5)
        live_frames(app, 3)
        f = scene._my_frame()
        assert f is not None and f["stick"] == sid and f["hand"] is not None
        assert f["poses"][str(sid)][3] > st.poses[sid][3] + 5.0          # the host moved the stick up
        assert scene.match.n == host.call(lambda: host.match.cursor)      # the take (touch means take)
        assert scene.state.phase == "raise" and scene.state.held == sid
        app.draw()
        assert app.screenshot(tmp_path / "drag.png").stat().st_size > 10000     # a frame mid-drag
        # Tab lifts it out of the plane; 3 chooses lane 3; let go lays it on the pile
        app.step([key(pygame.K_TAB)], app.STEP)
        live_frames(app, 4)
        app.step([key(pygame.K_3)], app.STEP)
        live_frames(app, 20, events=lambda i: [motion((start[0] - 2 * i, start[1] - 40 - 4 * i), buttons=(1, 0, 0))])
        f = scene._my_frame()
        assert f is not None and f["ghost"] is not None and f["ghost"][:2] == ["across", 2]
        app.draw()
        app.screenshot(tmp_path / "carry.png")
        pos = (start[0] - 40, start[1] - 120)
        app.step([motion(pos, buttons=(1, 0, 0)), up(pos)], app.STEP)
        end = time.monotonic() + 10
        while time.monotonic() < end and scene.state.phase in ("turn", "raise"):
            live_frames(app, 1)
        log = host.call(lambda: [dict(e) for e in host.match.log])
        takes = [e for e in log if e["p"] == 0]
        assert takes and takes[0]["a"] == {"t": "take", "stick": sid}
        out = next(e["a"] for e in log if e["p"] == PHYSICS and e["a"]["t"] == "raised")
        assert out["poses"].get(str(sid), ["across"])[0] == "across"
        assert len(client.hand_delays) >= 10
        # the turn goes on to the host's bot (after a winning stick or not): its plan plays live here
        if scene.state.phase == "winning":
            app.step([key(pygame.K_RETURN)], app.STEP)
        end = time.monotonic() + 30
        seen_play = False
        while time.monotonic() < end and not seen_play:
            live_frames(app, 1)
            f = scene._frame()
            seen_play = f is not None and f["kind"] == "play" and f["seat"] == 1
        assert seen_play, "the bot's raise was not shown live"
        assert scene.busy()
        # the host quits: the screen says so
        host.stop()
        assert client.wait_for(lambda c: c.closing is not None, 5)
        live_frames(app, 2)
        assert scene.ended == "The host ended the game: the host quit."
        app.draw()
        app.to_launcher()
        assert client.closed.wait(5)
    finally:
        host.stop()


def test_the_launchers_host_dialog_lists_tokami_and_hosts_it_with_a_bot(app):
    from games.tokami.view_lan import TokamiLanScene
    from sim.app.lan_lobby import LobbyScene
    from sim.app.lan_setup import HostSetupScene
    from sim.app.launcher import LauncherScene
    from events import click

    launcher = app.push(LauncherScene(app))
    launcher.host_lan()
    setup = app.top
    assert isinstance(setup, HostSetupScene)
    seen = []
    while setup.spec.name != "tokami":
        seen.append(setup.spec.name)
        click(app, setup.b_game.rect.center)
        assert len(seen) < 10
    assert setup.heading == "Host a Tokami game" and setup.kinds[0] == "you"
    setup.set_players(2)
    click(app, setup.seat_buttons[0].rect.center)       # P2: LAN player -> easy bot
    assert setup.kinds == ["you", "bot:easy"]
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
        assert isinstance(app.top, TokamiLanScene)
        assert host.call(lambda: [s.kind for s in host.match.seats]) == ["lan", "bot"]
        app.to_launcher()                               # leaving the screen stops the host this app runs
        assert host.finished.wait(5)
    finally:
        host.stop()


def test_hostile_input_on_a_joined_tokami_screen_never_breaks_it(app, tmp_path):
    """Random and hostile input (clicks and drags on the pile, Tab, lanes, wheel, keys, odd sizes) on
    the LAN screen while the host's bot and pile run: no exception, the host serves on, and every hand
    input the screen sent was well formed (refusals only come from the game's own checks)."""
    from games.tokami.view_lan import TokamiLanScene
    from sim.app.fuzz import fuzz_scene

    host = Host(TOKAMI, players=2, bots=["bot:easy"], seed=9, tick=0.02, bot_pause=0.0, options={"rounds": 1},
                record_path=tmp_path / "tk.json").start()
    try:
        client, _lobby = join_lobby(app, host, TOKAMI)
        client.set_ready(True)
        end = time.monotonic() + 10
        while time.monotonic() < end and not isinstance(app.top, TokamiLanScene):
            live_frames(app, 1)
        scene = app.top
        assert isinstance(scene, TokamiLanScene)
        while time.monotonic() < end + 20 and not (scene.state.phase == "turn" and scene.human_to_move()):
            live_frames(app, 1)                         # the pile settles; the fuzz starts on Ann's turn
        assert scene.state.phase == "turn" and scene.human_to_move()
        r = fuzz_scene(app, 600, seed=5, hostile=True, scene=scene,
                       hotspots=lambda: [(452, 450), (452, 380), (400, 420), (500, 400)])
        assert r["events"] == 600
        assert host._thread.is_alive() and host.call(lambda: host.match is not None)
        assert not [e for e in client.errors if e["code"] in ("bad_message", "bad_json", "too_big")]
        assert host.stats.hands > 0                     # the fuzz did drag sticks by hand
    finally:
        host.stop()
