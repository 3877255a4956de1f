"""A LAN client's screens for the view tests: a client joined to a loopback host, its lobby over the
launcher, as ``playtable join`` shows them."""
from __future__ import annotations

from typing import Any


def join_lobby(app: Any, host: Any, spec: Any, name: str = "Ann") -> tuple[Any, Any]:
    """A client called ``name`` joined to ``host`` (a started ``sim.net.host.Host`` of ``spec``) and its
    lobby screen pushed over the launcher; returns (client, lobby)."""
    from sim.app.lan_lobby import LobbyScene
    from sim.app.launcher import LauncherScene
    from sim.net.client import Client

    client = Client("127.0.0.1", host.port, name).start()
    app.push(LauncherScene(app))
    lobby = app.push(LobbyScene(app, client, None, f"127.0.0.1:{host.port}", spec))
    return client, lobby
